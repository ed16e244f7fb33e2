//! Atomic file writes and the "move a corrupt file aside" rule (README.md "Where files live").
//!
//! Every state file goes through [`write_atomic`]: a temporary file in the same
//! directory, fsync, rename, fsync of the directory. A crash at any instant
//! leaves the old file or the new one, never a torn one.
//!
//! A state file is paw's, but a person may still edit or damage it while the daemon runs.
//! [`Stamp`] is what the file was when paw last read or wrote it (device, inode, size,
//! modification time); [`check`] says, before a write, whether it is still that file, and if
//! not hands back what is there now, parsed, or moved aside when it does not parse.

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
    write_atomic_stamped(path, bytes, durability).map(drop)
}

/// [`write_atomic`], returning the stamp of the file written (taken from the temporary
/// file before the rename, which keeps its inode, size and modification time).
pub fn write_atomic_stamped(
    path: &Path,
    bytes: &[u8],
    durability: Durability,
) -> io::Result<Stamp> {
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
        let stamp = Stamp::of(&f.metadata()?);
        drop(f);
        fs::rename(&tmp, path)?;
        if durability == Durability::Sync {
            // The rename is durable only once the directory entry is.
            File::open(dir)?.sync_all()?;
        }
        Ok(stamp)
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

/// What a file was when paw last read or wrote it. Another device, inode, size or
/// modification time means someone else wrote it (an editor's save, a copy, a truncation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

impl Stamp {
    /// The stamp of a file's metadata.
    pub fn of(meta: &fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        }
    }

    /// The stamp of `path` now (`None`: no such file).
    pub fn read(path: &Path) -> io::Result<Option<Self>> {
        match fs::metadata(path) {
            Ok(m) => Ok(Some(Self::of(&m))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Reads `path` with the stamp of what was read (`None`: no such file).
pub fn read_stamped(path: &Path) -> io::Result<Option<(Vec<u8>, Stamp)>> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let stamp = Stamp::of(&f.metadata()?);
    let mut bytes = Vec::with_capacity(usize::try_from(stamp.len).unwrap_or(0));
    f.read_to_end(&mut bytes)?;
    Ok(Some((bytes, stamp)))
}

/// A state file as found before a write, when it is not the one paw last read or wrote.
#[derive(Debug)]
pub enum OnDisk<T> {
    /// Still the file paw last read or wrote (or still no file).
    Same,
    /// Someone wrote a valid file: what it holds, and its stamp.
    Changed(T, Stamp),
    /// The file is gone.
    Gone,
    /// Someone wrote a file that does not parse: moved aside to this path (the parse error
    /// first), or the reason it could not be moved.
    Corrupt(String, io::Result<PathBuf>),
}

/// Checks that `path` is still the file paw last read or wrote (`known`; `None`: there was
/// none), and if not, what is there now: parsed by `parse`, or moved aside with
/// [`move_aside_corrupt`] when it does not parse — never overwritten. Blocking.
pub fn check<T>(
    path: &Path,
    known: Option<Stamp>,
    parse: impl FnOnce(&[u8]) -> Result<T, String>,
) -> io::Result<OnDisk<T>> {
    if Stamp::read(path)? == known {
        return Ok(OnDisk::Same);
    }
    let Some((bytes, stamp)) = read_stamped(path)? else {
        return Ok(OnDisk::Gone);
    };
    Ok(match parse(&bytes) {
        Ok(v) => OnDisk::Changed(v, stamp),
        Err(e) => OnDisk::Corrupt(e, move_aside_corrupt(path)),
    })
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
mod tests;
