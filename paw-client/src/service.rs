//! `paw-client service install|uninstall|status`: paw-daemon as a per-user service, from the
//! unit files in `packaging/` (systemd on Linux, launchd on macOS).

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Subcommand;

const SOCKET_UNIT: &str = include_str!("../../packaging/systemd/paw-daemon.socket");
const SERVICE_UNIT: &str = include_str!("../../packaging/systemd/paw-daemon.service");
const PLIST: &str = include_str!("../../packaging/launchd/dev.paw.daemon.plist");

/// What to do.
#[derive(Debug, Subcommand)]
pub enum ServiceCmd {
    /// Write the unit files for this user and enable them.
    Install {
        /// Only write the files; do not call systemctl/launchctl.
        #[arg(long)]
        no_enable: bool,
    },
    /// Disable and remove the unit files.
    Uninstall {
        /// Only remove the files; do not call systemctl/launchctl.
        #[arg(long)]
        no_enable: bool,
    },
    /// Say whether the service is installed (and active).
    Status,
}

fn home() -> Result<PathBuf, String> {
    directories::BaseDirs::new()
        .map(|b| b.home_dir().to_path_buf())
        .ok_or_else(|| "cannot find the home directory".to_string())
}

/// The files this platform's service consists of, with their contents for `daemon`.
fn files(daemon: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let home = home()?;
    let bin = daemon.display().to_string();
    if cfg!(target_os = "macos") {
        let h = xml_escape(&home.display().to_string());
        let plist = PLIST
            .replace("/Users/USER/.local/bin/paw-daemon", &xml_escape(&bin))
            .replace("/Users/USER", &h);
        return Ok(vec![(
            home.join("Library/LaunchAgents/dev.paw.daemon.plist"),
            plist,
        )]);
    }
    let config = directories::BaseDirs::new()
        .map(|b| b.config_dir().to_path_buf())
        .ok_or_else(|| "cannot find the config directory".to_string())?;
    let dir = config.join("systemd").join("user");
    // The home the service will use is the one named on its command line: the one this
    // client uses now (PAW_HOME or the default), whatever environment systemd gives it.
    let data = paw_proto::paths::default_home();
    let home_arg = data.display().to_string();
    let service = SERVICE_UNIT
        .replace(
            "ExecStart=%h/.local/bin/paw-daemon",
            &format!(
                "ExecStart={} --home {}",
                systemd_exe(&bin)?,
                systemd_quote(&home_arg, true)
            ),
        )
        .replace(
            "ReadWritePaths=%h/.local/share/paw",
            &format!("ReadWritePaths={}", systemd_quote(&home_arg, false)),
        );
    Ok(vec![
        (dir.join("paw-daemon.socket"), SOCKET_UNIT.to_string()),
        (dir.join("paw-daemon.service"), service),
    ])
}

/// One word of a systemd unit setting, double-quoted with C escapes (systemd unquotes and
/// unescapes `ExecStart=` and path-list words): a space stays inside the word, a newline
/// cannot end the line, `%` is not a specifier, and in an `Exec` line `$` is not a
/// variable.
fn systemd_quote(word: &str, exec: bool) -> String {
    let mut out = String::from("\"");
    for c in word.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '%' => out.push_str("%%"),
            '$' if exec => out.push_str("$$"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c) & 0xff)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The executable word of `ExecStart=`: systemd takes it literally apart from `%`
/// specifiers and C escapes (no `$` expansion), and refuses control characters in it.
fn systemd_exe(path: &str) -> Result<String, String> {
    if path.chars().any(char::is_control) {
        return Err(format!(
            "systemd cannot start an executable whose path has control characters: {path:?}; move paw-daemon elsewhere"
        ));
    }
    Ok(systemd_quote(path, false))
}

/// Text for an XML (plist) string.
fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn run_tool(args: &[&str]) -> Result<(), String> {
    let status = Command::new(args[0])
        .args(&args[1..])
        .status()
        .map_err(|e| format!("cannot run {}: {e}", args[0]))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", args.join(" ")))
    }
}

/// Runs a `service` subcommand.
pub fn run(cmd: &ServiceCmd) -> Result<u8, String> {
    let daemon = crate::autostart::find_daemon()
        .ok_or("paw-daemon was not found beside paw-client or on PATH")?;
    let files = files(&daemon)?;
    match cmd {
        ServiceCmd::Install { no_enable } => {
            for (path, text) in &files {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
                println!("wrote {}", path.display());
            }
            if !no_enable {
                if cfg!(target_os = "macos") {
                    let uid = rustix_uid();
                    let plist = files[0].0.display().to_string();
                    run_tool(&["launchctl", "bootstrap", &format!("gui/{uid}"), &plist])?;
                } else {
                    run_tool(&["systemctl", "--user", "daemon-reload"])?;
                    run_tool(&[
                        "systemctl",
                        "--user",
                        "enable",
                        "--now",
                        "paw-daemon.socket",
                    ])?;
                }
            }
            Ok(0)
        }
        ServiceCmd::Uninstall { no_enable } => {
            if !no_enable {
                let stop = if cfg!(target_os = "macos") {
                    run_tool(&[
                        "launchctl",
                        "bootout",
                        &format!("gui/{}/dev.paw.daemon", rustix_uid()),
                    ])
                } else {
                    run_tool(&[
                        "systemctl",
                        "--user",
                        "disable",
                        "--now",
                        "paw-daemon.socket",
                        "paw-daemon.service",
                    ])
                };
                if let Err(e) = stop {
                    eprintln!("paw-client: {e} (removing the files anyway)");
                }
            }
            for (path, _) in &files {
                match std::fs::remove_file(path) {
                    Ok(()) => println!("removed {}", path.display()),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(format!("{}: {e}", path.display())),
                }
            }
            Ok(0)
        }
        ServiceCmd::Status => {
            let mut installed = true;
            for (path, _) in &files {
                let here = path.exists();
                installed &= here;
                println!(
                    "{} {}",
                    if here { "installed" } else { "missing  " },
                    path.display()
                );
            }
            if installed && !cfg!(target_os = "macos") {
                let active = Command::new("systemctl")
                    .args(["--user", "is-active", "paw-daemon.socket"])
                    .output()
                    .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                    .unwrap_or_else(|_| "unknown".into());
                println!("paw-daemon.socket: {active}");
            }
            Ok(if installed { 0 } else { 3 })
        }
    }
}

fn rustix_uid() -> String {
    std::env::var("UID").unwrap_or_else(|_| {
        Command::new("id")
            .arg("-u")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests;
