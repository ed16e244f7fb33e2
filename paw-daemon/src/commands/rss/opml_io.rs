//! `rss import --in P` and `rss export --out P`: OPML 2.0 with the `opml` crate.

use paw_proto::ErrorCode;
use serde_json::json;

use super::add::{check_url, slug};
use super::{output, write_out_bytes};
use crate::clock::now_ms;
use crate::commands::args::{Flag, parse};
use crate::commands::{CmdError, CmdResult, Ctx};

/// The deepest outline nesting read; deeper files are refused before the `opml` crate
/// (whose serde reader recurses per level) sees them.
const MAX_DEPTH: usize = 256;

/// Counts elements and nesting with a streaming reader (no recursion, no tree).
fn check_shape(text: &str, max_outlines: usize) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_str(text);
    let (mut depth, mut outlines) = (0usize, 0usize);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!("OPML nested deeper than {MAX_DEPTH} levels"));
                }
                outlines += usize::from(e.local_name().into_inner() == "outline");
            }
            Ok(quick_xml::events::Event::Empty(e)) => {
                outlines += usize::from(e.local_name().into_inner() == "outline");
            }
            Ok(quick_xml::events::Event::End(_)) => depth = depth.saturating_sub(1),
            Ok(quick_xml::events::Event::Eof) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(format!("not an OPML file: {e}")),
        }
        if outlines > max_outlines {
            return Err(format!(
                "the OPML file has more than {max_outlines} outlines; split it"
            ));
        }
    }
}

/// Every feed outline of an OPML document, depth first (folders are flattened), as
/// (title, url). Runs in a worker: the text is untrusted.
pub fn feeds_of(text: &str, max_outlines: usize) -> Result<Vec<(String, String)>, String> {
    check_shape(text, max_outlines)?;
    let doc = opml::OPML::from_str(text).map_err(|e| format!("not an OPML file: {e}"))?;
    let mut out = Vec::new();
    // An explicit stack: nesting depth is the file's to choose.
    let mut stack: Vec<std::slice::Iter<'_, opml::Outline>> = vec![doc.body.outlines.iter()];
    while let Some(level) = stack.last_mut() {
        let Some(o) = level.next() else {
            stack.pop();
            continue;
        };
        if let Some(url) = o.xml_url.as_deref().filter(|u| !u.trim().is_empty()) {
            let title = o
                .title
                .clone()
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| o.text.clone());
            out.push((title.trim().to_string(), url.trim().to_string()));
        }
        stack.push(o.outlines.iter());
    }
    Ok(out)
}

/// The largest OPML file read.
const MAX_OPML_BYTES: u64 = 16 << 20;

/// `rss import --in P`
pub async fn import(ctx: &Ctx, args: &[String]) -> CmdResult {
    let flags = parse(args, &[Flag::value("in")])?;
    let rel = flags.required("in")?;
    let path = crate::commands::paths::resolve(ctx.home.agents(), rel, false)?;
    let bytes = crate::commands::read_capped(&path, MAX_OPML_BYTES)
        .await
        .map_err(|e| CmdError::new(e.0, format!("cannot read {rel}: {}", e.1)))?;
    // Parsed in a worker (SPEC §10): the file is untrusted.
    let found = ctx.services.workers.opml(bytes).await?;

    let mut store = ctx.services.rss.lock().await;
    let state = store.state();
    let now = now_ms();
    let (mut added, mut skipped) = (Vec::new(), Vec::new());
    // Linear in the file: names and URLs are looked up in sets, suffixes counted per base.
    let mut names = state.name_index();
    let mut urls: std::collections::HashSet<String> =
        state.subs.iter().map(|s| s.url.clone()).collect();
    for (title, url) in found {
        let Ok(url) = check_url(&url) else {
            skipped.push(json!({"url": url, "reason": "not an http(s) url"}));
            continue;
        };
        if !urls.insert(url.clone()) {
            skipped.push(json!({"url": url, "reason": "already subscribed"}));
            continue;
        }
        let base = slug(if title.is_empty() { &url } else { &title });
        let name = names.claim(&base);
        state.push_sub(&name, &url, (!title.is_empty()).then(|| title.clone()), now);
        added.push(json!({"name": name, "url": url}));
    }
    if !added.is_empty() {
        store
            .save_subs()
            .await
            .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    }
    Ok(output(
        format!(
            "Imported {} feeds, skipped {}\n",
            added.len(),
            skipped.len()
        ),
        json!({"ok": true, "command": "rss import", "added": added.len(), "skipped": skipped.len(),
            "added_feeds": added, "skipped_feeds": skipped}),
    ))
}

/// `rss export --out P`
pub async fn export(ctx: &Ctx, args: &[String]) -> CmdResult {
    let flags = parse(args, &[Flag::value("out")])?;
    let rel = flags
        .get("out")
        .ok_or_else(|| CmdError::new(ErrorCode::OutRequired, "rss export needs --out"))?;
    let subs = ctx.services.rss.lock().await.state().subs.clone();
    let mut doc = opml::OPML {
        version: "2.0".into(),
        head: Some(opml::Head {
            title: Some("paw subscriptions".into()),
            ..opml::Head::default()
        }),
        ..opml::OPML::default()
    };
    for s in &subs {
        doc.body.outlines.push(opml::Outline {
            text: s.title.clone().unwrap_or_else(|| s.name.clone()),
            title: s.title.clone(),
            r#type: Some("rss".into()),
            xml_url: Some(s.url.clone()),
            ..opml::Outline::default()
        });
    }
    let xml = doc
        .to_string()
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, format!("cannot write OPML: {e}")))?;
    let artifact = write_out_bytes(
        ctx,
        rel,
        xml.into_bytes(),
        "text/x-opml",
        "subscriptions as OPML 2.0",
    )
    .await?;
    let path = artifact.path.clone();
    let mut o = output(
        format!("Exported {} feeds to {path}\n", subs.len()),
        json!({"ok": true, "command": "rss export", "count": subs.len(), "out": path}),
    );
    o.artifacts.push(artifact);
    Ok(o)
}
