//! The console's one connection to the daemon: calls by id, notifications to the app.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::{mpsc, oneshot};

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Result<Value, String>>>>>;

/// A live connection. Cloning shares it.
#[derive(Clone)]
pub struct Rpc {
    writer: Arc<tokio::sync::Mutex<OwnedWriteHalf>>,
    pending: Pending,
    next: Arc<AtomicU64>,
}

impl Rpc {
    /// Connects to `socket` (refusing another user's, as every paw-client command does);
    /// every notification goes to `events`; `closed` fires when the connection ends.
    pub async fn connect(
        socket: &Path,
        events: mpsc::UnboundedSender<Value>,
        closed: oneshot::Sender<()>,
    ) -> std::io::Result<Self> {
        crate::rpc::check_owner(socket)?;
        let stream = tokio::net::UnixStream::connect(socket).await?;
        let (r, w) = stream.into_split();
        let pending: Pending = Arc::default();
        let p = pending.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(r).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let Ok(msg) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                match msg.get("id").and_then(Value::as_u64) {
                    Some(id) => {
                        let tx = p.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                        if let Some(tx) = tx {
                            let answer = match msg.get("error") {
                                Some(e) => {
                                    Err(e["message"].as_str().unwrap_or("error").to_string())
                                }
                                None => Ok(msg.get("result").cloned().unwrap_or(Value::Null)),
                            };
                            let _ = tx.send(answer);
                        }
                    }
                    None => {
                        if let Some(ev) = msg.pointer("/params/result") {
                            let _ = events.send(ev.clone());
                        }
                    }
                }
            }
            // Every call still waiting fails (its sender is dropped).
            p.lock().unwrap_or_else(|e| e.into_inner()).clear();
            let _ = closed.send(());
        });
        Ok(Self {
            writer: Arc::new(tokio::sync::Mutex::new(w)),
            pending,
            next: Arc::new(AtomicU64::new(1)),
        })
    }

    /// Calls `method` and waits for its result (a JSON-RPC error or a lost connection is
    /// `Err` with its message).
    pub async fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, tx);
        let mut line =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        line.push('\n');
        self.writer
            .lock()
            .await
            .write_all(line.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        rx.await
            .unwrap_or_else(|_| Err("the daemon went away".to_string()))
    }
}
