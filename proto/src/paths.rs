//! Where paw lives by default (README.md "Where files live"), shared so the daemon and the client agree.

use std::path::{Path, PathBuf};

/// Environment variable naming the home directory.
pub const ENV_HOME: &str = "PAW_HOME";
/// Environment variable naming the socket path.
pub const ENV_SOCKET: &str = "PAW_SOCKET";
/// Environment variable naming the config file.
pub const ENV_CONFIG: &str = "PAW_CONFIG";
/// The socket's folder under the runtime dir (the systemd unit's `%t/paw`).
pub const SOCKET_DIR: &str = "paw";
/// The socket's file name.
pub const SOCKET_FILE: &str = "paw.sock";

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
        Some(runtime) => runtime.join(SOCKET_DIR).join(SOCKET_FILE),
        None => home.join("run").join(SOCKET_FILE),
    }
}

/// Creates the directory that holds `socket`, mode `0700`, when it does not exist yet, and
/// returns it. An existing directory is left as it is (it may be the user's, like `/tmp`).
#[cfg(unix)]
pub fn ensure_socket_dir(socket: &Path) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let dir = socket
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        // The mode passed to mkdir is filtered by the umask; make it exact.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(dir.to_path_buf())
}
