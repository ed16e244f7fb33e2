//! The audit trail (SPEC §4.7): one `runs/<run_id>.json` per exec, written off the reply path.
//!
//! Records go through a channel to one writer thread, so a reply never waits on the disk.
//! [`AuditWriter::finish`] closes the channel and waits until every queued record is on
//! disk: a clean shutdown never loses one. Each file is written with an atomic rename
//! (never torn); it is not fsynced one by one, so an OS crash may lose the newest records.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc;
use std::thread::JoinHandle;

use paw_proto::{Artifact, ErrorCode};
use serde::Serialize;
use serde_json::Value;

use crate::store::{Durability, write_atomic};

/// One audit record. stdin itself is never part of it, only its length.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRecord {
    /// The run.
    pub run_id: String,
    /// Its session.
    pub session_id: String,
    /// When it started (Unix ms).
    pub timestamp_ms: u64,
    /// The command line as given (secrets masked).
    pub command: String,
    /// The tokenised argv (secrets masked).
    pub argv: Vec<String>,
    /// Its exit code.
    pub exit_code: i32,
    /// Its wall time.
    pub duration_ms: u64,
    /// stdout as returned (capped).
    pub stdout: String,
    /// stderr as returned (capped).
    pub stderr: String,
    /// The error code, on failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<ErrorCode>,
    /// The error message, on failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// The structured result.
    pub result: Value,
    /// Files written.
    pub artifacts: Vec<Artifact>,
    /// Length of stdin in characters.
    pub stdin_chars: usize,
}

/// Hands records to the writer thread.
pub struct AuditWriter {
    tx: Mutex<Option<mpsc::Sender<AuditRecord>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl AuditWriter {
    /// Starts the writer thread for `dir` (`.agents/artifacts/terminal_exec/runs`).
    pub fn start(dir: PathBuf) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel::<AuditRecord>();
        let thread = std::thread::Builder::new()
            .name("paw-audit".into())
            .spawn(move || {
                for rec in rx {
                    write_one(&dir, &rec);
                }
            })?;
        Ok(Self {
            tx: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Queues a record. After [`finish`](Self::finish) it is written inline instead.
    pub fn record(&self, rec: AuditRecord, dir: &std::path::Path) {
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match tx {
            Some(tx) => {
                if let Err(mpsc::SendError(rec)) = tx.send(rec) {
                    write_one(dir, &rec);
                }
            }
            None => write_one(dir, &rec),
        }
    }

    /// Closes the queue and waits until every queued record is written.
    pub fn finish(&self) {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
        let handle = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(h) = handle
            && h.join().is_err()
        {
            tracing::error!("audit writer thread panicked");
        }
    }
}

fn write_one(dir: &std::path::Path, rec: &AuditRecord) {
    let path = dir.join(format!("{}.json", rec.run_id));
    let written = serde_json::to_vec(rec)
        .map_err(std::io::Error::other)
        .and_then(|bytes| write_atomic(&path, &bytes, Durability::NoSync));
    if let Err(e) = written {
        tracing::error!(run_id = %rec.run_id, path = %path.display(), error = %e, "audit write failed");
    }
}
