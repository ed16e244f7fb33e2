//! Atomic file writes and the "move a corrupt file aside" rule (README.md "Where files live").
//!
//! Every state file goes through [`write_atomic`]: a temporary file in the same
//! directory, fsync, rename, fsync of the directory. A crash at any instant
//! leaves the old file or the new one, never a torn one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How durable a write must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// fsync the file and its directory: survives power loss. For state files.
    Sync,
    /// Rename without fsync: never torn by a process crash, but an OS crash may
    /// lose the newest writes. For per-run records written at high rates.
    NoSync,
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tag: u64 = rand::random();
    path.with_file_name(format!(".{name}.{tag:016x}.tmp"))
}

/// Writes `bytes` to `path` atomically, creating parent directories.
pub fn write_atomic(path: &Path, bytes: &[u8], durability: Durability) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        if durability == Durability::Sync {
            f.sync_all()?;
        }
        drop(f);
        fs::rename(&tmp, path)?;
        if durability == Durability::Sync {
            // The rename is durable only once the directory entry is.
            File::open(dir)?.sync_all()?;
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Moves a file that does not parse to `<name>.corrupt-<timestamp>` and returns the new path.
///
/// The file is never overwritten or deleted: a person can look at it later.
pub fn move_aside_corrupt(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ts = crate::clock::compact_timestamp(crate::clock::now_ms());
    let mut target = path.with_file_name(format!("{name}.corrupt-{ts}"));
    let mut n = 1;
    while target.exists() {
        target = path.with_file_name(format!("{name}.corrupt-{ts}-{n}"));
        n += 1;
    }
    fs::rename(path, &target)?;
    Ok(target)
}

/// Opens a JSON-lines file for appending (created with `mode`), first ending a torn last
/// line (a crash mid-append) with a newline so the fragment stays a line of its own and the
/// next record starts clean. Returns the file and whether a torn line was fenced off.
pub fn open_append_fenced(path: &Path, mode: u32) -> io::Result<(File, bool)> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .mode(mode)
        .open(path)?;
    let len = f.metadata()?.len();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            f.write_all(b"\n")?;
            return Ok((f, true));
        }
    }
    Ok((f, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("sub").join("state.json");
        write_atomic(&p, b"one", Durability::Sync).expect("first");
        write_atomic(&p, b"two", Durability::NoSync).expect("second");
        assert_eq!(fs::read(&p).expect("read"), b"two");
        let names: Vec<_> = fs::read_dir(p.parent().expect("parent"))
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("state.json")]);
    }

    #[test]
    fn corrupt_files_are_moved_aside_not_lost() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("subscriptions.json");
        fs::write(&p, b"{not json").expect("write");
        let aside = move_aside_corrupt(&p).expect("move");
        assert!(!p.exists());
        assert_eq!(fs::read(&aside).expect("read"), b"{not json");
        let name = aside
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(name.starts_with("subscriptions.json.corrupt-"), "{name}");
        fs::write(&p, b"{again").expect("write");
        let second = move_aside_corrupt(&p).expect("move");
        assert_ne!(aside, second);
    }
}
