//! `[mcp]` in paw's config file: read by `paw-client mcp` only (the daemon passes the
//! table over), so the bridge's policy lives where the bridge runs.

use std::path::Path;

use serde::Deserialize;

/// `[mcp]`, every key with its default.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct McpConfig {
    /// The most bytes a call's answer may take in each form a host reads (the
    /// `structuredContent` JSON, the text block); more is cut and paged.
    pub max_output_bytes: usize,
    /// Command lines (`"<command> <subcommand>"`, or a command alone) that are
    /// irreversible: the person confirms them through elicitation when the host can ask.
    pub confirm: Vec<String>,
    /// The bearer token HTTP requests must carry (`Authorization: Bearer …`); required
    /// for a bind address that is not loopback. Empty: none.
    pub http_token: String,
    /// `Host` header values accepted besides loopback names (DNS-rebinding guard).
    pub http_allowed_hosts: Vec<String>,
    /// Browser `Origin`s accepted; a request with any other `Origin` is refused.
    pub http_allowed_origins: Vec<String>,
    /// The largest HTTP request body taken (bytes); more is refused with 413.
    pub http_max_body_bytes: usize,
}

impl Default for McpConfig {
    fn default() -> Self {
        Self {
            max_output_bytes: 24_576,
            confirm: ["irc send", "rss remove", "rss import"]
                .map(String::from)
                .to_vec(),
            http_token: String::new(),
            http_allowed_hosts: Vec::new(),
            http_allowed_origins: Vec::new(),
            http_max_body_bytes: 1 << 20,
        }
    }
}

/// The smallest `max_output_bytes` taken: the envelope of an answer (fences, notices,
/// links) must fit beside some text.
pub const MIN_OUTPUT_BYTES: usize = 2_048;

impl McpConfig {
    /// `[mcp]` of the file at `path`; every default when the file does not exist.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        Self::parse(&text).map_err(|m| format!("{}: {m}", path.display()))
    }

    /// `[mcp]` of a config file's text.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let Some(mcp) = table.remove("mcp") else {
            return Ok(Self::default());
        };
        let c: Self = mcp
            .try_into()
            .map_err(|e: toml::de::Error| format!("[mcp]: {e}"))?;
        if c.max_output_bytes < MIN_OUTPUT_BYTES {
            return Err(format!(
                "[mcp] max_output_bytes must be at least {MIN_OUTPUT_BYTES}"
            ));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests;
