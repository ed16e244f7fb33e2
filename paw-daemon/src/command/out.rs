//! `--out` writing for every command (docs/commands.md "The command line"): the path is resolved and checked by
//! [`super::paths::resolve`], the file written atomically off the async threads, and the
//! artifact returned for the outcome's `artifacts`.

use serde_json::Value;

use super::{CmdError, Ctx};

/// Writes `value` as pretty JSON to the `--out` path and returns the artifact.
pub async fn write_json(
    ctx: &Ctx,
    rel: &str,
    value: &Value,
    description: &str,
) -> Result<paw_proto::Artifact, CmdError> {
    let bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| CmdError::new(paw_proto::ErrorCode::CommandFailed, e.to_string()))?;
    write_bytes(ctx, rel, bytes, "application/json", description).await
}

/// Writes `bytes` to the `--out` path (atomically) and returns the artifact.
pub async fn write_bytes(
    ctx: &Ctx,
    rel: &str,
    bytes: Vec<u8>,
    mime: &str,
    description: &str,
) -> Result<paw_proto::Artifact, CmdError> {
    let path = super::paths::resolve(ctx.home.agents(), rel, true)?;
    let p = path.clone();
    tokio::task::spawn_blocking(move || {
        crate::store::write_atomic(&p, &bytes, crate::store::Durability::NoSync)
    })
    .await
    .map_err(|e| CmdError::new(paw_proto::ErrorCode::CommandFailed, e.to_string()))?
    .map_err(|e| {
        CmdError::new(
            paw_proto::ErrorCode::CommandFailed,
            format!("cannot write {rel}: {e}"),
        )
    })?;
    Ok(paw_proto::Artifact {
        path: ctx.display_path(&path),
        mime: mime.to_string(),
        description: description.to_string(),
    })
}
