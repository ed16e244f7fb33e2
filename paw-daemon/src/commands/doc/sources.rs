//! Where `--in` may read (docs/commands.md "doc extract"; docs/config.md `[tools.doc]`):
//! a path under `.agents/`, or — given absolute or `~/`-relative — a file inside one of the
//! folders listed in `tools.doc.read_dirs`. Read-only: nothing is ever written there.
//!
//! Each listed folder and the path asked for are canonicalised (symlinks followed) and the
//! path must stay inside the folder, as `.agents/` paths must stay inside `.agents/`; a
//! path that reaches paw's own `.agents/` through a listed folder is held to `.agents/`'s
//! rules (no credentials under `skills/*/secrets/`). Blocking: called on the blocking pool.

use std::path::{Component, Path, PathBuf};

use paw_proto::ErrorCode;

use crate::command::CmdError;

/// Whether `input` names a place outside `.agents/` (absolute, or `~/`-relative), which
/// only a listed folder may hold.
pub fn is_outside(input: &str) -> bool {
    let t = input.trim();
    t.starts_with('/') || t == "~" || t.starts_with("~/")
}

/// `~/x` made absolute against `home` (the user's home folder); anything else as given.
pub fn expand(path: &str, home: Option<&Path>) -> Option<PathBuf> {
    let t = path.trim();
    match t.strip_prefix('~') {
        Some("") => home.map(Path::to_path_buf),
        Some(rest) if rest.starts_with('/') => home.map(|h| h.join(rest.trim_start_matches('/'))),
        Some(_) => None,
        None => Some(PathBuf::from(t)),
    }
}

/// Resolves `input` (absolute or `~/`-relative) to a real path inside one of `dirs`
/// (`tools.doc.read_dirs`, as configured). `agents` is paw's `.agents/`, `user_home` the
/// user's home folder for `~`.
pub fn resolve(
    dirs: &[String],
    user_home: Option<&Path>,
    agents: &Path,
    input: &str,
) -> Result<PathBuf, CmdError> {
    let outside = || {
        CmdError::invalid_args(format!(
            "--in {input}: an absolute path must be inside a folder listed in tools.doc.read_dirs ({}); otherwise give a path relative to .agents/",
            if dirs.is_empty() {
                "none are listed".to_string()
            } else {
                dirs.join(", ")
            }
        ))
    };
    let asked = expand(input, user_home).ok_or_else(outside)?;
    if asked.components().any(|c| c == Component::ParentDir) {
        return Err(CmdError::new(
            ErrorCode::PathEscapesAgentsRoot,
            format!("--in {input}: a `..` segment is not allowed"),
        ));
    }
    // The folder the path is written under, by its words: then, symlinks followed, it must
    // still be inside that folder's real path.
    let roots: Vec<(PathBuf, PathBuf)> = dirs
        .iter()
        .filter_map(|d| {
            let given = expand(d, user_home)?;
            let real = given.canonicalize().ok()?;
            Some((given, real))
        })
        .collect();
    let Some((given, real_root)) = roots
        .iter()
        .find(|(given, real)| asked.starts_with(given) || asked.starts_with(real))
    else {
        return Err(outside());
    };
    let real = asked.canonicalize().map_err(|e| {
        CmdError::new(
            ErrorCode::NotFound,
            format!("cannot open --in {input}: {e}"),
        )
    })?;
    if !real.starts_with(real_root) {
        return Err(CmdError::new(
            ErrorCode::PathEscapesAgentsRoot,
            format!(
                "--in {input} resolves outside the listed folder {} (a symlink out)",
                given.display()
            ),
        ));
    }
    if let Ok(agents) = agents.canonicalize()
        && let Ok(inside) = real.strip_prefix(&agents)
    {
        let mut parts = inside.components().map(|c| c.as_os_str());
        if parts.next().is_some_and(|p| p == "skills") && parts.any(|p| p == "secrets") {
            return Err(CmdError::new(
                ErrorCode::Forbidden,
                "reading credentials under .agents/skills/*/secrets/ is not allowed",
            ));
        }
    }
    Ok(real)
}

#[cfg(test)]
mod tests;
