//! A minimal blocking JSON-RPC client for the daemon's socket: one JSON message per line.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use interprocess::local_socket::prelude::*;
use interprocess::local_socket::{GenericFilePath, Stream};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Why a call failed.
#[derive(Debug)]
pub enum RpcError {
    /// The socket could not be reached or broke.
    Io(std::io::Error),
    /// The daemon answered with a JSON-RPC error.
    Rpc {
        /// The error code.
        code: i64,
        /// The error message.
        message: String,
    },
    /// The answer did not have the expected shape.
    Decode(String),
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RpcError::Io(e) => write!(f, "{e}"),
            RpcError::Rpc { code, message } => write!(f, "{message} (code {code})"),
            RpcError::Decode(m) => write!(f, "unexpected answer from the daemon: {m}"),
        }
    }
}

impl std::error::Error for RpcError {}

impl From<std::io::Error> for RpcError {
    fn from(e: std::io::Error) -> Self {
        RpcError::Io(e)
    }
}

/// Refuses a socket whose owner is not this process's user.
pub fn check_owner(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        // Nothing there: connecting reports it.
        Err(_) => return Ok(()),
    };
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "refusing {}: it belongs to uid {}, not to you (uid {me})",
                path.display(),
                meta.uid()
            ),
        ));
    }
    Ok(())
}

/// One connection to the daemon.
pub struct Client {
    reader: BufReader<Stream>,
    next_id: u64,
}

impl Client {
    /// Connects to the socket at `path`; a socket owned by another user is refused
    /// (`PermissionDenied`) before anything is sent, as ssh refuses another user's agent:
    /// whoever owns it would read every command and could answer anything.
    pub fn connect(path: &Path) -> std::io::Result<Self> {
        check_owner(path)?;
        let name = path.to_fs_name::<GenericFilePath>()?;
        let stream = Stream::connect(name)?;
        Ok(Self {
            reader: BufReader::new(stream),
            next_id: 1,
        })
    }

    fn request_line(
        &mut self,
        method: &str,
        params: &impl Serialize,
    ) -> Result<(u64, Vec<u8>), RpcError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut line = serde_json::to_vec(&json!({
            "jsonrpc": "2.0", "id": id, "method": method, "params": params,
        }))
        .map_err(|e| RpcError::Decode(e.to_string()))?;
        line.push(b'\n');
        Ok((id, line))
    }

    /// Sends several calls in one write and returns their results in order
    /// (the daemon may answer them in any order).
    pub fn call_many(&mut self, calls: &[(&str, Value)]) -> Vec<Result<Value, RpcError>> {
        let mut ids = Vec::with_capacity(calls.len());
        let mut buf = Vec::new();
        for (method, params) in calls {
            match self.request_line(method, params) {
                Ok((id, line)) => {
                    ids.push(id);
                    buf.extend_from_slice(&line);
                }
                Err(e) => return vec![Err(e)],
            }
        }
        if let Err(e) = self.reader.get_mut().write_all(&buf) {
            let kind = e.kind();
            return ids.iter().map(|_| Err(RpcError::Io(kind.into()))).collect();
        }
        let mut answers: Vec<Option<Result<Value, RpcError>>> = ids.iter().map(|_| None).collect();
        let mut pending = ids.len();
        while pending > 0 {
            let msg = match self.read_message() {
                Ok(m) => m,
                Err(e) => {
                    let text = e.to_string();
                    for a in answers.iter_mut().filter(|a| a.is_none()) {
                        *a = Some(Err(RpcError::Decode(text.clone())));
                    }
                    break;
                }
            };
            let Some(id) = msg.get("id").and_then(Value::as_u64) else {
                continue; // a notification or an id-less error: not ours
            };
            if let Some(pos) = ids.iter().position(|i| *i == id) {
                answers[pos] = Some(decode_response(msg));
                pending -= 1;
            }
        }
        answers
            .into_iter()
            .map(|a| a.unwrap_or_else(|| Err(RpcError::Decode("no answer".into()))))
            .collect()
    }

    /// Calls `method` and decodes its result.
    pub fn call<T: DeserializeOwned>(
        &mut self,
        method: &str,
        params: impl serde::Serialize,
    ) -> Result<T, RpcError> {
        let params = serde_json::to_value(params).map_err(|e| RpcError::Decode(e.to_string()))?;
        let v = self
            .call_many(&[(method, params)])
            .pop()
            .unwrap_or_else(|| Err(RpcError::Decode("no answer".into())))?;
        decode(v)
    }

    /// Calls `method` and hands every notification that arrives before the answer (the
    /// events of a subscribed session) to `on_event`, as the `result` of its params.
    pub fn call_with_events(
        &mut self,
        method: &str,
        params: Value,
        on_event: &mut dyn FnMut(&Value),
    ) -> Result<Value, RpcError> {
        let (id, line) = self.request_line(method, &params)?;
        self.reader.get_mut().write_all(&line)?;
        loop {
            let msg = self.read_message()?;
            match msg.get("id").and_then(Value::as_u64) {
                Some(got) if got == id => return decode_response(msg),
                Some(_) => continue,
                None => {
                    if let Some(ev) = msg.pointer("/params/result") {
                        on_event(ev);
                    }
                }
            }
        }
    }

    /// Reads the next message (response or notification).
    pub fn read_message(&mut self) -> Result<Value, RpcError> {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line)?;
        if n == 0 {
            return Err(RpcError::Io(std::io::ErrorKind::UnexpectedEof.into()));
        }
        serde_json::from_str(&line).map_err(|e| RpcError::Decode(e.to_string()))
    }
}

/// Decodes a call's result into `T`.
pub fn decode<T: DeserializeOwned>(v: Value) -> Result<T, RpcError> {
    serde_json::from_value(v).map_err(|e| RpcError::Decode(e.to_string()))
}

fn decode_response(msg: Value) -> Result<Value, RpcError> {
    if let Some(err) = msg.get("error") {
        return Err(RpcError::Rpc {
            code: err.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: err
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("error")
                .to_string(),
        });
    }
    Ok(msg.get("result").cloned().unwrap_or(Value::Null))
}
