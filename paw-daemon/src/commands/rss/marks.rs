//! One session's read marks (docs/commands.md `rss mark`): the ids of the items it has
//! read, kept in `.agents/workspace/rss/sessions/<session>/read.json` across restarts,
//! the newest [`MAX_READ`] of them. `rss news --unread` leaves these out.
//!
//! The file is written atomically and checked before each write ([`crate::store::check`]):
//! one someone else wrote is read again and this call's change applied to it, one that
//! does not parse is moved aside and reported, never overwritten.

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::session::SessionResource;
use crate::store::{Durability, OnDisk, Stamp, check, read_stamped, write_atomic_stamped};

/// Most ids a session remembers as read (the oldest marks are forgotten first: an item
/// read that long ago shows as unread again, if a feed still carries it).
pub const MAX_READ: usize = 50_000;

/// The session resource key.
pub const KEY: &str = "rss.read";

/// The ids a session has read, in the order marked.
#[derive(Default)]
struct Ids {
    set: HashSet<u64>,
    order: VecDeque<u64>,
}

impl Ids {
    fn of(ids: impl IntoIterator<Item = u64>) -> Self {
        let mut me = Self::default();
        me.add(ids);
        me
    }

    /// Adds ids not held yet (at the newest end); returns how many were new.
    fn add(&mut self, ids: impl IntoIterator<Item = u64>) -> usize {
        let mut n = 0;
        for id in ids {
            if self.set.insert(id) {
                self.order.push_back(id);
                n += 1;
            }
        }
        while self.order.len() > MAX_READ {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
        n
    }

    /// Removes ids; returns how many were held.
    fn remove(&mut self, ids: &HashSet<u64>) -> usize {
        let before = self.order.len();
        self.order.retain(|id| !ids.contains(id));
        self.set.retain(|id| !ids.contains(id));
        before - self.order.len()
    }
}

/// One session's read marks.
pub struct ReadMarks {
    path: PathBuf,
    /// The ids. A std mutex held only for set operations (never across a file write), so a
    /// digest that asks which items are read never waits on an fsync.
    ids: Mutex<Ids>,
    /// Serialises writes of the file: the stamp of the file as last read or written.
    /// Taken before `ids` when both are held.
    file: Mutex<Option<Stamp>>,
    /// What loading or a write found wrong with the file, for the next command to report.
    warning: Mutex<Option<String>>,
}

/// The marks file as written: ids in 16-digit hex, oldest first.
fn parse(bytes: &[u8]) -> Result<Vec<String>, String> {
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

fn ids_of(texts: &[String]) -> impl Iterator<Item = u64> + '_ {
    texts.iter().filter_map(|t| super::seen::parse_id(t))
}

impl ReadMarks {
    /// Loads the marks at `path` (missing: none). Reads a file: call on the blocking pool.
    pub fn load(path: PathBuf) -> Arc<Self> {
        let mut warning = None;
        let (ids, stamp) = match read_stamped(&path) {
            Ok(Some((bytes, stamp))) => match parse(&bytes) {
                Ok(texts) => (Ids::of(ids_of(&texts)), Some(stamp)),
                Err(e) => {
                    warning = Some(aside_line(
                        &path,
                        &e,
                        crate::store::move_aside_corrupt(&path),
                    ));
                    (Ids::default(), None)
                }
            },
            Ok(None) => (Ids::default(), None),
            Err(e) => {
                warning = Some(format!("cannot read {}: {e}", path.display()));
                (Ids::default(), None)
            }
        };
        Arc::new(Self {
            path,
            ids: Mutex::new(ids),
            file: Mutex::new(stamp),
            warning: Mutex::new(warning),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ids> {
        self.ids.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What loading or the last write found wrong with the file, once.
    pub fn take_warning(&self) -> Option<String> {
        self.warning
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// Whether `id` is marked read.
    pub fn is_read(&self, id: u64) -> bool {
        self.lock().set.contains(&id)
    }

    /// Of `ids`, those not marked read (one lock for the whole list).
    pub fn unread_of(&self, ids: impl IntoIterator<Item = u64>) -> Vec<bool> {
        let g = self.lock();
        ids.into_iter().map(|id| !g.set.contains(&id)).collect()
    }

    /// Marks `ids` read (or unread) and writes the file; returns how many changed. Checks
    /// the file first and fsyncs: call on the blocking pool.
    pub fn mark(&self, ids: &[u64], read: bool) -> std::io::Result<usize> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let found = check(&self.path, *file, parse)?;
        let mut g = self.lock();
        match found {
            OnDisk::Same | OnDisk::Gone => {}
            OnDisk::Changed(texts, _) => {
                tracing::warn!(
                    path = %self.path.display(),
                    "read marks were changed on disk; reloaded them and applied this change to them"
                );
                *g = Ids::of(ids_of(&texts));
            }
            OnDisk::Corrupt(e, aside) => {
                let line = aside_line(&self.path, &e, aside);
                *self.warning.lock().unwrap_or_else(|e| e.into_inner()) = Some(line);
            }
        }
        let changed = if read {
            g.add(ids.iter().copied())
        } else {
            g.remove(&ids.iter().copied().collect())
        };
        let texts: Vec<String> = g.order.iter().map(|&id| super::seen::id_text(id)).collect();
        drop(g);
        let bytes = serde_json::to_vec(&texts).map_err(std::io::Error::other)?;
        *file = Some(write_atomic_stamped(&self.path, &bytes, Durability::Sync)?);
        Ok(changed)
    }
}

/// The line for a marks file that did not parse, logged and reported.
fn aside_line(path: &std::path::Path, error: &str, aside: std::io::Result<PathBuf>) -> String {
    let line = match aside {
        Ok(to) => format!(
            "{} did not parse ({error}); moved it to {} and started with no read marks",
            path.display(),
            to.display()
        ),
        Err(e) => format!(
            "{} did not parse ({error}) and could not be moved aside: {e}",
            path.display()
        ),
    };
    tracing::error!("{line}");
    line
}

impl SessionResource for ReadMarks {
    fn close(self: Arc<Self>) -> futures::future::BoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

/// This session's read marks, loaded on first use.
pub async fn of_session(
    ctx: &crate::command::Ctx,
) -> Result<Arc<ReadMarks>, crate::command::CmdError> {
    use paw_proto::ErrorCode;
    if let Some(m) = ctx.session.resource::<ReadMarks>(KEY) {
        return Ok(m);
    }
    let path = ctx
        .home
        .agents()
        .join("workspace/rss/sessions")
        .join(crate::home::safe_session_id(&ctx.session.id))
        .join("read.json");
    let loaded = tokio::task::spawn_blocking(move || ReadMarks::load(path))
        .await
        .map_err(|e| crate::command::CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    ctx.session
        .attach(KEY, move || loaded)
        .map_err(|e| crate::command::CmdError::new(ErrorCode::CommandFailed, e.to_string()))
}

#[cfg(test)]
mod tests;
