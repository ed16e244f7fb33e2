//! The home directory's layout: everything commands touch lies under `<home>/.agents/` (SPEC §2).

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

    /// `.agents/artifacts/terminal_exec/runs`: audit records and spilled streams.
    pub fn runs_dir(&self) -> PathBuf {
        self.agents
            .join("artifacts")
            .join("terminal_exec")
            .join("runs")
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

/// A session id made safe for use as one directory name.
pub fn safe_session_id(id: &str) -> String {
    let cleaned: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if cleaned.is_empty() || cleaned.chars().all(|c| c == '_') {
        "_".to_string()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths_are_relative_to_home_with_slashes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = Home::create(dir.path()).expect("home");
        let p = home.runs_dir().join("x.json");
        assert_eq!(
            home.display_path(&p).as_deref(),
            Some(".agents/artifacts/terminal_exec/runs/x.json")
        );
        assert_eq!(home.display_path(Path::new("/etc/passwd")), None);
    }

    #[test]
    fn session_ids_become_single_safe_names() {
        assert_eq!(safe_session_id("default"), "default");
        assert_eq!(safe_session_id("../../etc"), "______etc");
        assert_eq!(safe_session_id(".."), "_");
        assert_eq!(safe_session_id(""), "_");
        assert_eq!(safe_session_id("a/b"), "a_b");
    }
}
