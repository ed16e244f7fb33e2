//! `rss import --in P` and `rss export --out P`: OPML 2.0 with the `opml` crate.

use paw_proto::ErrorCode;
use serde_json::json;

use super::add::{check_url, slug};
use super::{output, write_out_bytes};
use crate::clock::now_ms;
use crate::commands::args::{Flag, parse};
use crate::commands::{CmdError, CmdResult, Ctx};

/// Every feed outline, depth first (folders are flattened).
fn feeds(outlines: &[opml::Outline], out: &mut Vec<(String, String)>) {
    for o in outlines {
        if let Some(url) = o.xml_url.as_deref().filter(|u| !u.trim().is_empty()) {
            let title = o
                .title
                .clone()
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| o.text.clone());
            out.push((title.trim().to_string(), url.trim().to_string()));
        }
        feeds(&o.outlines, out);
    }
}

/// `rss import --in P`
pub async fn import(ctx: &Ctx, args: &[String]) -> CmdResult {
    let flags = parse(args, &[Flag::value("in")])?;
    let rel = flags.required("in")?;
    let path = crate::commands::paths::resolve(ctx.home.agents(), rel, false)?;
    let text = tokio::fs::read_to_string(&path)
        .await
        .map_err(|e| CmdError::new(ErrorCode::NotFound, format!("cannot read {rel}: {e}")))?;
    let doc = opml::OPML::from_str(&text)
        .map_err(|e| CmdError::new(ErrorCode::ParseError, format!("not an OPML file: {e}")))?;
    let mut found = Vec::new();
    feeds(&doc.body.outlines, &mut found);

    let mut store = ctx.services.rss.lock().await;
    let state = store.state();
    let now = now_ms();
    let (mut added, mut skipped) = (Vec::new(), Vec::new());
    for (title, url) in found {
        let Ok(url) = check_url(&url) else {
            skipped.push(json!({"url": url, "reason": "not an http(s) url"}));
            continue;
        };
        if state.subs.iter().any(|s| s.url == url) {
            skipped.push(json!({"url": url, "reason": "already subscribed"}));
            continue;
        }
        let base = slug(if title.is_empty() { &url } else { &title });
        let name = state.add_unique(&base, &url, (!title.is_empty()).then(|| title.clone()), now);
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
