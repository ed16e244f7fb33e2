//! Where paw lives by default (SPEC §2), shared so the daemon and the client agree.

use std::path::{Path, PathBuf};

/// Environment variable naming the home directory.
pub const ENV_HOME: &str = "PAW_HOME";
/// Environment variable naming the socket path.
pub const ENV_SOCKET: &str = "PAW_SOCKET";
/// Environment variable naming the config file.
pub const ENV_CONFIG: &str = "PAW_CONFIG";

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "paw")
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The home: `PAW_HOME`, else the platform data dir for `paw` (`~/.local/share/paw`).
pub fn default_home() -> PathBuf {
    env_path(ENV_HOME)
        .or_else(|| project_dirs().map(|d| d.data_dir().to_path_buf()))
        .unwrap_or_else(|| PathBuf::from(".paw"))
}

/// The config file: `PAW_CONFIG`, else `<config dir>/paw/config.toml`.
pub fn default_config() -> PathBuf {
    env_path(ENV_CONFIG)
        .or_else(|| project_dirs().map(|d| d.config_dir().join("config.toml")))
        .unwrap_or_else(|| PathBuf::from("paw-config.toml"))
}

/// The socket: `PAW_SOCKET`, else `$XDG_RUNTIME_DIR/paw/paw.sock`, else `<home>/run/paw.sock`.
pub fn default_socket(home: &Path) -> PathBuf {
    if let Some(p) = env_path(ENV_SOCKET) {
        return p;
    }
    match env_path("XDG_RUNTIME_DIR") {
        Some(runtime) => runtime.join("paw").join("paw.sock"),
        None => home.join("run").join("paw.sock"),
    }
}
