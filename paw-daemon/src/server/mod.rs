//! The local socket: binding with its hygiene rules (README.md "Where files live") and the accept loop.
//!
//! A lock file beside the socket (`<socket>.lock`, held for the daemon's life) decides
//! which daemon owns the path, so two daemons started at once can never both bind, and a
//! stale socket (nobody answers) is replaced only by the lock holder.

mod conn;
pub mod dispatch;

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use interprocess::local_socket::tokio::Listener;
use interprocess::local_socket::traits::StreamCommon as _;
use interprocess::local_socket::traits::tokio::Listener as _;
use interprocess::local_socket::{GenericFilePath, ListenerOptions, ToFsName};
use interprocess::os::unix::local_socket::ListenerOptionsExt;

use crate::daemon::Daemon;

pub use conn::{MAX_IN_FLIGHT, MAX_LINE_BYTES, line_codec, line_codec_with_max};

/// Why the socket could not be bound.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    /// Another daemon holds the lock or answers on the socket.
    #[error("paw-daemon is already running on {0}")]
    AlreadyRunning(PathBuf),
    /// Creating the directory, the lock or the socket failed.
    #[error("cannot bind {path}: {source}")]
    Io {
        /// Which path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> BindError + '_ {
    move |source| BindError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A bound socket and the lock that makes it ours.
pub struct Bound {
    listener: Listener,
    path: PathBuf,
    lock: SocketLock,
    /// Whether paw created the socket file (and so removes it on exit). A socket passed by
    /// systemd belongs to systemd.
    owned: bool,
}

/// The lock on the socket path. Hold it until the process has finished everything
/// (including draining the audit): while it is held no other daemon takes the path.
pub struct SocketLock {
    _file: Option<File>,
}

/// The listening half of a [`Bound`], consumed by [`serve`].
pub struct Listening {
    listener: Listener,
    path: PathBuf,
    owned: bool,
}

impl Bound {
    /// The socket path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Separates the listener (for [`serve`]) from the lock (for the caller to keep).
    pub fn split(self) -> (Listening, SocketLock) {
        (
            Listening {
                listener: self.listener,
                path: self.path,
                owned: self.owned,
            },
            self.lock,
        )
    }
}

/// Binds `path`: directory `0700` (when paw creates it), socket `0600`, one owner by lock,
/// a stale socket replaced, a live one refused.
pub fn bind(path: &Path) -> Result<Bound, BindError> {
    paw_proto::paths::ensure_socket_dir(path).map_err(io_err(path))?;

    let lock_path = lock_path(path);
    let lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(&lock_path)
        .map_err(io_err(&lock_path))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(BindError::AlreadyRunning(path.to_path_buf()));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io_err(&lock_path)(e)),
    }

    if path.exists() || path.symlink_metadata().is_ok() {
        if answers(path) {
            return Err(BindError::AlreadyRunning(path.to_path_buf()));
        }
        tracing::info!(socket = %path.display(), "replacing stale socket");
        std::fs::remove_file(path).map_err(io_err(path))?;
    }

    let name = path.to_fs_name::<GenericFilePath>().map_err(io_err(path))?;
    let listener = ListenerOptions::new()
        .name(name)
        .mode(0o600)
        .reclaim_name(true)
        .create_tokio()
        .map_err(io_err(path))?;
    Ok(Bound {
        listener,
        path: path.to_path_buf(),
        lock: SocketLock { _file: Some(lock) },
        owned: true,
    })
}

/// The listening socket systemd passed (socket activation: `LISTEN_FDS`, `LISTEN_PID`), if
/// any. systemd owns that socket, its path and its permissions; paw neither locks, replaces
/// nor removes it.
pub fn from_systemd(path: &Path) -> Result<Option<Bound>, BindError> {
    let mut fds = listenfd::ListenFd::from_env();
    let taken = fds.take_unix_listener(0).map_err(io_err(path))?;
    let Some(std_listener) = taken else {
        return Ok(None);
    };
    std_listener.set_nonblocking(true).map_err(io_err(path))?;
    let fd = std::os::fd::OwnedFd::from(std_listener);
    let uds = interprocess::os::unix::uds_local_socket::tokio::Listener::try_from(fd)
        .map_err(io_err(path))?;
    Ok(Some(Bound {
        listener: uds.into(),
        path: path.to_path_buf(),
        lock: SocketLock { _file: None },
        owned: false,
    }))
}

/// The lock file guarding `socket`.
pub fn lock_path(socket: &Path) -> PathBuf {
    let mut name = socket.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    socket.with_file_name(name)
}

/// Whether something accepts connections on `path`.
fn answers(path: &Path) -> bool {
    use interprocess::local_socket::traits::Stream as _;
    let Ok(name) = path.to_fs_name::<GenericFilePath>() else {
        return false;
    };
    interprocess::local_socket::Stream::connect(name).is_ok()
}

/// Whether the peer runs as our effective uid (checked before anything is read).
fn peer_allowed(stream: &interprocess::local_socket::tokio::Stream) -> bool {
    let mine = rustix::process::geteuid().as_raw();
    match stream.peer_creds() {
        Ok(creds) => match creds.euid() {
            Some(uid) => uid == mine,
            // Platforms that cannot tell: the 0600 socket in a 0700 directory is the guard.
            None => !cfg!(target_os = "linux"),
        },
        Err(e) => {
            tracing::warn!(error = %e, "cannot read peer credentials; refusing");
            false
        }
    }
}

/// Accepts connections until shutdown; each is served by its own task.
pub async fn serve(d: Arc<Daemon>, bound: Listening) {
    let methods: jsonrpsee::Methods = crate::rpc::module(d.clone()).into();
    let mut next_conn = 1usize;
    loop {
        tokio::select! {
            _ = d.shutdown.cancelled() => break,
            accepted = bound.listener.accept() => match accepted {
                Ok(stream) => {
                    if !peer_allowed(&stream) {
                        tracing::warn!("refused a connection from another user");
                        continue;
                    }
                    let id = next_conn;
                    next_conn += 1;
                    d.tracker.spawn(conn::serve(d.clone(), methods.clone(), stream, id));
                }
                Err(e) => {
                    // Out of descriptors and the like: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
    drop(bound.listener);
    if bound.owned {
        let _ = std::fs::remove_file(&bound.path);
    }
}
