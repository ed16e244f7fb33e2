//! `rss mark (--read | --unread) (ID | --id ID | --feed N | --before D)`: this session's read
//! marks ([`super::marks`]), which `rss news --unread` leaves out.

use std::collections::HashSet;

use super::items::{Select, find, parse_before, parse_ids};
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

/// mark items read or unread for this session (rss news --unread leaves read ones out)
#[derive(clap::Parser)]
#[command(name = "rss mark")]
#[command(group(clap::ArgGroup::new("state").required(true).args(["read", "unread"])))]
pub struct Args {
    /// mark them read
    #[arg(long)]
    read: bool,
    /// mark them unread
    #[arg(long)]
    unread: bool,
    /// the item ids (as rss news shows them), comma-separated
    #[arg(long, value_name = "ID")]
    id: Option<String>,
    /// every cached item of this subscription (name or title)
    #[arg(long, value_name = "N")]
    feed: Option<String>,
    /// every cached item dated before this (YYYY-MM-DD or RFC 3339)
    #[arg(long, value_name = "D")]
    before: Option<String>,
}

/// Runs `rss mark`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(&super::items::bare_id_as_flag(
        args,
        &["--read", "--unread"],
    ))?;
    let read = a.read;
    match (&a.id, a.feed.is_some() || a.before.is_some()) {
        (None, false) => {
            return Err(CmdError::invalid_args(
                "missing required flag: one of ID, --id, --feed, --before",
            ));
        }
        (Some(_), true) => {
            return Err(CmdError::invalid_args(
                "give either --id or --feed/--before, not both",
            ));
        }
        _ => {}
    }
    let marks = super::marks::of_session(ctx).await?;
    let ids: Vec<u64> = match a.id.as_deref() {
        Some(text) => {
            let wanted = parse_ids(text)?;
            let mut known: HashSet<u64> = find(ctx, Select::Ids(wanted.clone()))
                .await?
                .iter()
                .map(|f| f.id)
                .collect();
            // A saved item, or (to unmark) one marked read, counts though its feed's cache
            // no longer holds it.
            {
                let mut l = super::saved_items(&ctx.services).lock().await;
                known.extend(
                    l.items()
                        .iter()
                        .filter_map(|s| super::seen::parse_id(&s.id))
                        .filter(|id| wanted.contains(id)),
                );
            }
            if !read {
                known.extend(wanted.iter().copied().filter(|&id| marks.is_read(id)));
            }
            let missing: HashSet<u64> = wanted.difference(&known).copied().collect();
            if !missing.is_empty() {
                return Err(super::star::not_found("cached or saved", &missing));
            }
            wanted.into_iter().collect()
        }
        None => {
            let before = a.before.as_deref().map(parse_before).transpose()?;
            let select = Select::Where {
                feed: a.feed.clone(),
                before,
            };
            find(ctx, select).await?.iter().map(|f| f.id).collect()
        }
    };
    let matched = ids.len();
    let m = marks.clone();
    let changed = tokio::task::spawn_blocking(move || m.mark(&ids, read))
        .await
        .map_err(|e| CmdError::new(paw_proto::ErrorCode::CommandFailed, e.to_string()))?
        .map_err(|e| {
            CmdError::new(
                paw_proto::ErrorCode::CommandFailed,
                format!("cannot save this session's read marks: {e}"),
            )
        })?;
    let mut out = Output::reply(
        &Marked {
            ok: true,
            command: "rss mark",
            read,
            matched,
            changed,
        },
        Vec::new(),
    );
    out.add_warnings(marks.take_warning().into_iter().collect());
    Ok(out)
}

/// `rss mark`'s result.
#[derive(serde::Serialize)]
struct Marked {
    ok: bool,
    command: &'static str,
    /// Marked read (`false`: unread).
    read: bool,
    /// Items the call named.
    matched: usize,
    /// Of those, how many changed state.
    changed: usize,
}

impl Reply for Marked {
    fn stdout(&self) -> String {
        format!(
            "Marked {} items {} ({} changed)\n",
            self.matched,
            if self.read { "read" } else { "unread" },
            self.changed
        )
    }
}
