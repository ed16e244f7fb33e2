//! `rss remove`.

use paw_proto::ErrorCode;
use serde_json::json;

use super::output;
use crate::commands::args::{Flag, parse};
use crate::commands::{CmdError, CmdResult, Ctx};

/// `rss remove --name N` (also matches the title)
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let flags = parse(args, &[Flag::value("name")])?;
    let name = flags.required("name")?;
    let mut store = ctx.services.rss.lock().await;
    let state = store.state();
    let sub = state.require(name)?.clone();
    state.subs.retain(|s| s.name != sub.name);
    state.fetch.retain(|f| f.url != sub.url);
    store
        .save_subs()
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    store
        .save_fetch()
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    drop(store);
    ctx.services.rss.drop_cache(&sub.url).await;
    Ok(output(
        format!("Removed {}\n", sub.name),
        json!({"ok": true, "command": "rss remove", "name": sub.name, "url": sub.url}),
    ))
}
