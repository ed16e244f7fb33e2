//! The TOML config (README.md "Where files live"): every key has a default; an unknown key is a start-up error naming it.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Errors reading the config file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read config {path}: {source}")]
    Read {
        /// Which file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid config (bad TOML, unknown key, wrong type).
    #[error("invalid config {path}: {message}")]
    Invalid {
        /// Which file.
        path: PathBuf,
        /// The parser's message, naming the key.
        message: String,
    },
}

/// The whole config.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[terminal]`
    pub terminal: TerminalConfig,
    /// `[session]`
    pub session: SessionConfig,
    /// `[audit]`
    pub audit: AuditConfig,
    /// `[worker]`
    pub worker: WorkerConfig,
    /// `[net]`
    pub net: NetConfig,
    /// `[tools.*]`
    pub tools: ToolsConfig,
    /// `[mcp]`: read by `paw-client mcp` (docs/client.md), which checks its keys; the
    /// daemon only lets the table through.
    #[serde(skip_serializing_if = "toml::Table::is_empty")]
    pub mcp: toml::Table,
}

/// The smallest `worker.memory_mb` a worker starts in: its libraries (Tesseract and
/// Leptonica among them), the allocator's arena and the job thread's stack take about
/// 240 MiB of address space before any job (measured: a 224 MiB worker cannot start its
/// job thread).
pub const MIN_WORKER_MB: u64 = 256;

/// `[audit]`: how long run records are kept.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AuditConfig {
    /// Run records and their spilled outputs older than this are deleted (0 = forever).
    pub retention_days: u64,
    /// And the oldest go first while they hold more than this (0 = no cap).
    pub max_mb: u64,
}

impl Default for AuditConfig {
    fn default() -> Self {
        Self {
            retention_days: 90,
            max_mb: 2048,
        }
    }
}

/// `[terminal]`: limits of `terminal.exec`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TerminalConfig {
    /// stdout cap in characters.
    pub max_stdout_chars: usize,
    /// stderr cap in characters.
    pub max_stderr_chars: usize,
    /// Used when a call gives no timeout.
    pub default_timeout_ms: u64,
    /// A call's timeout is capped to this.
    pub max_timeout_ms: u64,
}

impl Default for TerminalConfig {
    fn default() -> Self {
        Self {
            max_stdout_chars: 16_000,
            max_stderr_chars: 8_000,
            default_timeout_ms: 30_000,
            max_timeout_ms: 120_000,
        }
    }
}

/// `[worker]`: the processes that parse untrusted bytes (docs/reliability.md "Containment (workers)").
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct WorkerConfig {
    /// Warm worker processes.
    pub processes: usize,
    /// The most workers at once, warm ones included, while jobs wait.
    pub max_processes: usize,
    /// A job that waited this long for a worker may start an extra one.
    pub burst_after_ms: u64,
    /// One worker's address-space cap in MiB.
    pub memory_mb: u64,
    /// All workers together, in MiB.
    pub memory_budget_mb: u64,
    /// One job's CPU-time ceiling in seconds.
    pub cpu_secs: u64,
    /// A job's CPU budget: 1 s plus this per MiB of input, at most `cpu_secs`.
    pub cpu_ms_per_mb: u64,
    /// An OCR job's CPU budget per page it reads, where more than `cpu_secs`.
    pub ocr_cpu_ms_per_page: u64,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        Self {
            processes: 2,
            max_processes: 6,
            burst_after_ms: 200,
            memory_mb: 768,
            memory_budget_mb: 3072,
            cpu_secs: 60,
            cpu_ms_per_mb: 4000,
            ocr_cpu_ms_per_page: 3000,
        }
    }
}

/// `[session]`
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SessionConfig {
    /// A session with no call for this long is closed (0 = never).
    pub idle_timeout_secs: u64,
    /// Open sessions at once; beyond it a new session is refused (1005 TooManySessions).
    pub max_sessions: usize,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            idle_timeout_secs: 86_400,
            max_sessions: 256,
        }
    }
}

/// `[net]`: every outbound HTTP request.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct NetConfig {
    /// Connect + whole request.
    pub timeout_ms: u64,
    /// Body cap after decompression.
    pub max_body_bytes: u64,
    /// The `User-Agent` header.
    pub user_agent: String,
    /// A proxy URL; empty means the environment's.
    pub proxy: String,
    /// Allow private, loopback and other non-public addresses.
    pub allow_private_networks: bool,
    /// `host` or `host:port` entries exempt from the private-network rule.
    pub allow_hosts: Vec<String>,
}

impl Default for NetConfig {
    fn default() -> Self {
        Self {
            timeout_ms: 15_000,
            max_body_bytes: 2_097_152,
            user_agent: format!("paw/{}", env!("CARGO_PKG_VERSION")),
            proxy: String::new(),
            allow_private_networks: false,
            allow_hosts: Vec::new(),
        }
    }
}

/// `[tools]`
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ToolsConfig {
    /// `[tools.rss]`
    pub rss: RssConfig,
    /// `[tools.irc]`
    pub irc: IrcConfig,
    /// `[tools.doc]`
    pub doc: DocConfig,
}

/// `[tools.rss]`
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct RssConfig {
    /// false: the rss command is not registered.
    pub enabled: bool,
    /// Minutes; `rss news` serves cached items younger than this.
    pub cache_ttl: u64,
    /// How many feeds are refreshed at once.
    pub fetch_concurrency: usize,
    /// The daemon refreshes every subscription in the background (docs/commands.md `rss`).
    pub refresh: bool,
    /// Minutes; no feed is fetched in the background more often than this.
    pub refresh_min_interval: u64,
    /// MiB the `rss search` index may hold; past it the oldest quarter of its items go.
    pub search_index_max_mb: u64,
    /// `[tools.rss.fulltext]`
    pub fulltext: FulltextConfig,
}

impl Default for RssConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            cache_ttl: 30,
            fetch_concurrency: 8,
            refresh: true,
            refresh_min_interval: 10,
            search_index_max_mb: 256,
            fulltext: FulltextConfig::default(),
        }
    }
}

/// `[tools.rss.fulltext]`
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FulltextConfig {
    /// The global switch, default off.
    pub enabled: bool,
    /// A failed extraction is not retried for this long.
    pub failure_backoff_secs: u64,
    /// Extractions running at once; more wait their turn.
    pub max_jobs: usize,
    /// Full-text records beyond this many MiB are deleted, least recently read first.
    pub store_max_mb: u64,
}

impl Default for FulltextConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            failure_backoff_secs: 600,
            max_jobs: 4,
            store_max_mb: 512,
        }
    }
}

/// `[tools.irc]`
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct IrcConfig {
    /// false: the irc command is not registered.
    pub enabled: bool,
    /// Inbound messages kept in memory per channel of a session (older ones are read back
    /// from `inbound.jsonl`).
    pub ring_capacity: usize,
    /// Lines sent at once before the rate applies.
    pub flood_burst: u32,
    /// One line per this many ms after the burst.
    pub flood_interval_ms: u64,
    /// Whether `irc send` may address a network service (NickServ, ChanServ, ...): account
    /// control, which the agent's own `--confirm` does not authorise.
    pub allow_service_targets: bool,
    /// IRC connections across all sessions; beyond it a connect fails with `NetworkError`.
    pub max_connections: usize,
    /// Per session log file (MiB): at half of it the file rotates into `<name>.1.jsonl`,
    /// replacing the one before (0 = never rotate).
    pub log_max_mb: u64,
}

impl Default for IrcConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            ring_capacity: 500,
            flood_burst: 10,
            flood_interval_ms: 2_000,
            allow_service_targets: false,
            max_connections: 32,
            log_max_mb: 64,
        }
    }
}

/// `[tools.doc]`
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DocConfig {
    /// false: the doc command is not registered.
    pub enabled: bool,
    /// `doc extract`'s OCR when `--ocr` is not given: `auto`, `always` or `never`.
    pub ocr: String,
    /// The Tesseract languages `--lang` may name (each needs its installed data).
    pub ocr_languages: Vec<String>,
    /// The largest document `doc extract --url` (and `rss read` on a document link)
    /// downloads, after decompression (docs/config.md).
    pub max_download_bytes: u64,
    /// Folders outside `.agents/` that `doc extract --in` may read (never write), each
    /// absolute or `~/`-relative (docs/config.md).
    pub read_dirs: Vec<String>,
}

impl Default for DocConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            ocr: "auto".into(),
            ocr_languages: vec!["eng".into()],
            max_download_bytes: 32 << 20,
            read_dirs: Vec::new(),
        }
    }
}

impl Config {
    /// Parses config text; `path` only names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string().trim().replace('\n', " "),
        })?;
        config.validate().map_err(|message| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
        Ok(config)
    }

    /// Loads the file at `path`; a missing file means all defaults.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(source) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    fn validate(&self) -> Result<(), String> {
        let t = &self.terminal;
        if t.max_timeout_ms == 0 {
            return Err("terminal.max_timeout_ms must be greater than 0".into());
        }
        if t.default_timeout_ms == 0 {
            return Err("terminal.default_timeout_ms must be greater than 0".into());
        }
        if self.worker.processes == 0 {
            return Err("worker.processes must be greater than 0".into());
        }
        if self.worker.memory_mb < MIN_WORKER_MB {
            return Err(format!("worker.memory_mb must be at least {MIN_WORKER_MB}"));
        }
        if self.worker.cpu_secs == 0 {
            return Err("worker.cpu_secs must be greater than 0".into());
        }
        let w = &self.worker;
        if w.max_processes < w.processes {
            return Err("worker.max_processes must be at least worker.processes".into());
        }
        if (w.processes as u64).saturating_mul(w.memory_mb) > w.memory_budget_mb {
            return Err(format!(
                "worker.memory_budget_mb ({}) must hold worker.processes × worker.memory_mb ({} × {})",
                w.memory_budget_mb, w.processes, w.memory_mb
            ));
        }
        if self.tools.rss.fetch_concurrency == 0 {
            return Err("tools.rss.fetch_concurrency must be greater than 0".into());
        }
        if self.tools.irc.ring_capacity == 0 {
            return Err("tools.irc.ring_capacity must be greater than 0".into());
        }
        let doc = &self.tools.doc;
        if !matches!(doc.ocr.as_str(), "auto" | "always" | "never") {
            return Err(format!(
                "tools.doc.ocr must be auto, always or never, got {:?}",
                doc.ocr
            ));
        }
        if doc.max_download_bytes == 0 || doc.max_download_bytes > paw_jobs::doc::MAX_INPUT_BYTES {
            return Err(format!(
                "tools.doc.max_download_bytes must be between 1 and {} (100 MiB), got {}",
                paw_jobs::doc::MAX_INPUT_BYTES,
                doc.max_download_bytes
            ));
        }
        if let Some(bad) = doc.read_dirs.iter().find(|d| {
            let absolute = d.starts_with('/') || d.as_str() == "~" || d.starts_with("~/");
            !absolute || d.split('/').any(|part| part == "..")
        }) {
            return Err(format!(
                "tools.doc.read_dirs: {bad:?} must be an absolute or ~/ path with no `..`"
            ));
        }
        // Language names become file names (<lang>.traineddata) the daemon reads.
        let name = |l: &String| {
            !l.is_empty()
                && l.len() <= 32
                && l.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        };
        if let Some(bad) = doc.ocr_languages.iter().find(|l| !name(l) || *l == "osd") {
            return Err(format!(
                "tools.doc.ocr_languages: {bad:?} is not a Tesseract language name (e.g. eng, chi_sim)"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
