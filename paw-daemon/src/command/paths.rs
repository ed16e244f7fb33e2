//! `--out` / `--in` paths (docs/commands.md "The command line"): relative to `.agents/`, never outside it.

use std::path::{Component, Path, PathBuf};

use paw_proto::ErrorCode;

use super::CmdError;

/// Folders under `.agents/` that commands may never write into: skills (credentials live
/// there), the workspace state that commands own, and the audit (run records, spilled
/// outputs, the journal and its cursor).
const PROTECTED: &[&str] = &[
    "skills",
    "workspace/rss",
    "workspace/irc",
    "artifacts/terminal_exec",
];

/// Resolves `rel` (as given on the command line) to a path under `agents`.
///
/// Absolute paths (and drive prefixes) are `InvalidArgs`; a `..` segment, or a path that
/// resolves outside `.agents/` once symlinks are followed, is `PathEscapesAgentsRoot`; with
/// `write`, a path into a protected folder is `Forbidden`.
pub fn resolve(agents: &Path, rel: &str, write: bool) -> Result<PathBuf, CmdError> {
    let trimmed = rel.trim();
    if trimmed.is_empty() {
        return Err(CmdError::invalid_args("path is empty"));
    }
    // Accept the reported form `.agents/...` as well as a bare relative path.
    let rel_path = Path::new(trimmed);
    let rel_path = rel_path.strip_prefix(".agents").unwrap_or(rel_path);
    let looks_windows = trimmed.len() >= 2 && trimmed.as_bytes()[1] == b':';
    if rel_path.is_absolute() || trimmed.starts_with('\\') || looks_windows {
        return Err(CmdError::invalid_args(format!(
            "path must be relative to .agents/: {trimmed}"
        )));
    }
    let mut clean = PathBuf::new();
    for c in rel_path.components() {
        match c {
            Component::Normal(p) => clean.push(p),
            Component::CurDir => {}
            Component::ParentDir => {
                return Err(CmdError::new(
                    ErrorCode::PathEscapesAgentsRoot,
                    format!("path escapes .agents/: {trimmed}"),
                ));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(CmdError::invalid_args(format!(
                    "path must be relative to .agents/: {trimmed}"
                )));
            }
        }
    }
    if clean.as_os_str().is_empty() {
        return Err(CmdError::invalid_args("path names no file"));
    }
    let full = agents.join(&clean);
    // Follow symlinks on the part that exists: it must stay inside .agents/.
    let root = agents.canonicalize().map_err(|e| {
        CmdError::new(
            ErrorCode::CommandFailed,
            format!("cannot resolve .agents/: {e}"),
        )
    })?;
    let mut existing = full.clone();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut real = existing
        .canonicalize()
        .map_err(|e| CmdError::invalid_args(format!("cannot resolve {trimmed}: {e}")))?;
    for name in rest.iter().rev() {
        real.push(name);
    }
    let Ok(inside) = real.strip_prefix(&root) else {
        return Err(CmdError::new(
            ErrorCode::PathEscapesAgentsRoot,
            format!("path escapes .agents/: {trimmed}"),
        ));
    };
    let inside = inside.to_string_lossy().replace('\\', "/");
    if !write && inside.starts_with("skills/") && inside.split('/').any(|c| c == "secrets") {
        return Err(CmdError::new(
            ErrorCode::Forbidden,
            "reading credentials under .agents/skills/*/secrets/ is not allowed",
        ));
    }
    if write
        && let Some(p) = PROTECTED
            .iter()
            .find(|p| inside == **p || inside.starts_with(&format!("{p}/")))
    {
        return Err(CmdError::new(
            ErrorCode::Forbidden,
            format!("writing into .agents/{p}/ is not allowed"),
        ));
    }
    Ok(real)
}

#[cfg(test)]
mod tests;
