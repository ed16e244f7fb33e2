//! `rss export`: the subscriptions as OPML 2.0 (the `opml` crate).

use paw_proto::ErrorCode;
use serde_json::json;

use super::output;
use crate::commands::args::{Flag, parse};
use crate::commands::out::write_bytes;
use crate::commands::{CmdError, CmdResult, Ctx};

/// `rss export --out P`
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
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
    let artifact = write_bytes(
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
