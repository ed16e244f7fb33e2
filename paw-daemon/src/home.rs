//! The home directory's layout: everything commands touch lies under `<home>/.agents/` (README.md "Where files live").

use std::path::{Path, PathBuf};

/// The resolved home and the fixed places inside it.
#[derive(Debug, Clone)]
pub struct Home {
    root: PathBuf,
    agents: PathBuf,
}

impl Home {
    /// Lays out `root` (created if missing) with its `.agents/` tree.
    pub fn create(root: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(root)?;
        let root = root.canonicalize()?;
        let agents = root.join(".agents");
        let home = Self { root, agents };
        std::fs::create_dir_all(home.runs_dir())?;
        std::fs::create_dir_all(home.agents.join("workspace"))?;
        Ok(home)
    }

    /// The home itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `<home>/.agents`
    pub fn agents(&self) -> &Path {
        &self.agents
    }

    /// `.agents/artifacts/terminal_exec`: the audit (journal, run records, spilled streams).
    pub fn audit_dir(&self) -> PathBuf {
        self.agents.join("artifacts").join("terminal_exec")
    }

    /// `.agents/artifacts/terminal_exec/runs`: audit records and spilled streams.
    pub fn runs_dir(&self) -> PathBuf {
        self.audit_dir().join("runs")
    }

    /// The `.agents/...` form of a path under `.agents/`, with `/` separators,
    /// as paw reports artifacts. `None` if `path` is not under `.agents/`.
    pub fn display_path(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.agents).ok()?;
        let mut out = String::from(".agents");
        for part in rel.components() {
            out.push('/');
            out.push_str(&part.as_os_str().to_string_lossy());
        }
        Some(out)
    }
}

/// A session id made safe for use as one directory name, injectively: lower-case ASCII
/// letters, digits and `-` stay, every other byte becomes `_` and two hex digits (so `a.b`
/// is `a_2eb` and `a_b` is `a_5fb`, and `A` is `_41`: distinct on case-insensitive file
/// systems too). An encoding longer than 96 characters keeps its first 64 and adds `~` and
/// a hash of the whole id (`~` appears nowhere else). The empty id is `_`.
pub fn safe_session_id(id: &str) -> String {
    use std::fmt::Write;
    if id.is_empty() {
        return "_".into();
    }
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "_{b:02x}");
        }
    }
    if out.len() > 96 {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(id.as_bytes());
        let mut short: String = out.chars().take(64).collect();
        short.push('~');
        for b in &digest[..16] {
            let _ = write!(short, "{b:02x}");
        }
        return short;
    }
    out
}

#[cfg(test)]
mod tests;
