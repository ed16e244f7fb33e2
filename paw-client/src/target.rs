//! Where the daemon is (its socket) and how to start one when none answers (the home and
//! config a started daemon gets): what `exec`, `mcp` and the other subcommands connect
//! through.

use std::path::{Path, PathBuf};

use crate::autostart;
use crate::rpc::Client;

/// Where the daemon is, and how to start one.
#[derive(Debug, Clone)]
pub struct Target {
    socket: PathBuf,
    home: Option<PathBuf>,
    config: Option<PathBuf>,
}

impl Target {
    /// The daemon on `socket`; one this client starts gets `home` and `config`.
    pub fn new(socket: PathBuf, home: Option<PathBuf>, config: Option<PathBuf>) -> Self {
        Self {
            socket,
            home,
            config,
        }
    }

    /// The daemon's socket.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Connects, starting a daemon when none answers and `autostart` is set.
    pub fn connect(&self, autostart: bool) -> Result<Client, String> {
        match Client::connect(&self.socket) {
            Ok(c) => Ok(c),
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Err(e.to_string()),
            Err(e) if !autostart => Err(format!(
                "no daemon answers on {}: {e}",
                self.socket.display()
            )),
            Err(_) => autostart::start_and_connect(
                &self.socket,
                self.home.as_deref(),
                self.config.as_deref(),
            ),
        }
    }
}
