//! The IRC secrets file on disk, `.agents/skills/irc-cli/secrets/.env`: read (and its mode
//! checked) here, parsed by the pure [`super::core::creds`].

use std::path::Path;

use paw_proto::ErrorCode;

use super::core::creds::{Creds, ENV_PATH, parse_dotenv};
use crate::command::CmdError;

/// Reads and checks the `.env` under `agents`.
pub fn load(agents: &Path) -> Result<Creds, CmdError> {
    let path = agents.join(ENV_PATH);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CmdError::new(
                ErrorCode::MissingCredentials,
                format!(
                    "no credentials: create .agents/{ENV_PATH} with IRC_SERVER, IRC_CHANNEL and IRC_NICK"
                ),
            ));
        }
        Err(e) => {
            return Err(CmdError::new(
                ErrorCode::MissingCredentials,
                format!("cannot read .agents/{ENV_PATH}: {}", e.kind()),
            ));
        }
    };
    let mut creds = Creds::from_map(&parse_dotenv(&text))?;
    creds.warning = loose_mode_warning(&path);
    Ok(creds)
}

/// A warning when the secrets file under `agents` can be read by group or others (a stat,
/// not a read).
pub fn mode_warning(agents: &Path) -> Option<String> {
    loose_mode_warning(&agents.join(ENV_PATH))
}

fn loose_mode_warning(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
    (mode & 0o077 != 0).then(|| {
        format!(
            ".agents/{ENV_PATH} is readable by group or others (mode {mode:04o}); run chmod 600 on it"
        )
    })
}
