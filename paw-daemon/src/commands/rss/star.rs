//! `rss star [--remove] (ID | --id ID)`: saves cached items, whole, so they outlive the feed's
//! cache ([`super::saved`]), or unsaves them.

use super::items::{Found, Select, find, parse_ids};
use super::saved::SavedItem;
use super::seen::id_text;
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// save (star) items so they outlive the feed's cache, or unsave them with --remove
#[derive(clap::Parser)]
#[command(name = "rss star")]
pub struct Args {
    /// the item ids (as rss news shows them), comma-separated
    #[arg(long, value_name = "ID")]
    id: String,
    /// unsave them instead
    #[arg(long)]
    remove: bool,
}

/// Runs `rss star`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(&super::items::bare_id_as_flag(args, &["--remove"]))?;
    let ids = parse_ids(&a.id)?;
    let saved = super::saved_items(&ctx.services);
    if a.remove {
        let mut l = saved.lock().await;
        let before = l.items().clone();
        l.items()
            .retain(|s| super::seen::parse_id(&s.id).is_none_or(|id| !ids.contains(&id)));
        let removed = before.len() - l.items().len();
        if removed == 0 {
            return Err(not_found("saved", &ids));
        }
        if let Err(e) = l.save().await {
            *l.items() = before;
            return Err(e);
        }
        let total = l.items().len();
        drop(l);
        // An unsaved item its feed no longer carries leaves the search index.
        let feeds: Vec<String> = before
            .iter()
            .filter(|s| super::seen::parse_id(&s.id).is_some_and(|id| ids.contains(&id)))
            .map(|s| s.feed_url.clone())
            .collect();
        super::index::forget(&ctx.services, ids.iter().copied().collect(), &feeds, None).await;
        return Ok(Output::reply(
            &Starred {
                ok: true,
                command: "rss star",
                saved: Vec::new(),
                removed,
                total,
            },
            Vec::new(),
        ));
    }
    let found = find(ctx, Select::Ids(ids.clone())).await?;
    let mut l = saved.lock().await;
    // An item saved already needs no cached copy: its saved one stands.
    let missing: std::collections::HashSet<u64> = ids
        .iter()
        .copied()
        .filter(|id| !found.iter().any(|f| f.id == *id))
        .filter(|&id| !l.items().iter().any(|s| s.id == id_text(id)))
        .collect();
    if !missing.is_empty() {
        return Err(not_found("cached", &missing));
    }
    let now = crate::clock::now_ms();
    let before = l.items().clone();
    let mut newly = Vec::new();
    for Found { sub, id, item } in found {
        let id = id_text(id);
        // Saving again refreshes the copy and moves it to the newest end.
        l.items().retain(|s| s.id != id);
        newly.push(id.clone());
        l.items().push(SavedItem {
            id,
            feed: sub.name,
            feed_url: sub.url,
            category: sub.category,
            saved_at_ms: now,
            item,
        });
    }
    if let Err(e) = l.save().await {
        // Nothing was written: the list stays as it was.
        *l.items() = before;
        return Err(e);
    }
    let total = l.items().len();
    drop(l);
    // The search index's cap keeps saved items.
    super::index::note_saved(&ctx.services).await;
    Ok(Output::reply(
        &Starred {
            ok: true,
            command: "rss star",
            saved: newly,
            removed: 0,
            total,
        },
        Vec::new(),
    ))
}

/// `NotFound` naming the ids that are not `what` (`cached`, `saved`).
pub fn not_found(what: &str, ids: &std::collections::HashSet<u64>) -> CmdError {
    let mut list: Vec<String> = ids.iter().map(|&i| id_text(i)).collect();
    list.sort();
    CmdError::new(
        paw_proto::ErrorCode::NotFound,
        format!(
            "no {what} item with id {} (rss news and rss saved show ids)",
            list.join(", ")
        ),
    )
}

/// `rss star`'s result.
#[derive(serde::Serialize)]
struct Starred {
    ok: bool,
    command: &'static str,
    /// The ids saved by this call.
    saved: Vec<String>,
    /// How many were unsaved by this call.
    removed: usize,
    /// Saved items now.
    total: usize,
}

impl Reply for Starred {
    fn stdout(&self) -> String {
        if self.removed > 0 {
            format!("Unsaved {} items; {} saved\n", self.removed, self.total)
        } else if self.saved.is_empty() {
            format!("Already saved; {} saved\n", self.total)
        } else {
            format!("Saved {}; {} saved\n", self.saved.join(", "), self.total)
        }
    }
}
