//! The JSON-RPC line reader: arbitrary bytes (lines over the cap, invalid UTF-8, batches, partial
//! reads) through the daemon's line codec and dispatcher. Every line gets at most one
//! reply, every reply is JSON-RPC 2.0, and no line longer than the cap is ever buffered.
#![no_main]

use std::sync::OnceLock;

use bytes::BytesMut;
use jsonrpsee::RpcModule;
use jsonrpsee::core::server::{BoundedSubscriptions, Methods};
use libfuzzer_sys::fuzz_target;
use paw_daemon::server::dispatch::{ConnInfo, handle_line};
use paw_daemon::server::line_codec_with_max;
use serde_json::Value;
use tokio_util::codec::{AnyDelimiterCodecError, Decoder};

const MAX_LINE: usize = 256;

fn methods() -> &'static Methods {
    static M: OnceLock<Methods> = OnceLock::new();
    M.get_or_init(|| {
        let mut m = RpcModule::new(());
        m.register_method("echo", |p, _, _| p.parse::<Value>().unwrap_or(Value::Null))
            .expect("register");
        m.register_async_method("echo.async", |p, _, _| async move {
            p.parse::<Value>().unwrap_or(Value::Null)
        })
        .expect("register");
        m.into()
    })
}

fn check_reply(raw: &str) {
    let v: Value = serde_json::from_str(raw).expect("a reply is JSON");
    let replies = match &v {
        Value::Array(a) => a.clone(),
        _ => vec![v.clone()],
    };
    for r in replies {
        assert_eq!(r["jsonrpc"], "2.0", "{raw}");
        assert!(
            r.get("result").is_some() != r.get("error").is_some(),
            "{raw}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    let rt = RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
    });
    let (tx, _rx) = tokio::sync::mpsc::channel(16);
    let conn = ConnInfo {
        conn_id: 1,
        sink: tx,
        subscriptions: BoundedSubscriptions::new(4),
    };
    // The first byte picks the read size, so lines arrive split across reads.
    let (chunk, body) = match data.split_first() {
        Some((c, rest)) => (usize::from(*c).max(1), rest),
        None => return,
    };
    // The daemon's codec with a 256-byte cap instead of 16 MiB, so small inputs reach the
    // too-long path: the rest of such a line must be skipped, never buffered.
    let mut codec = line_codec_with_max(MAX_LINE);
    let mut buf = BytesMut::new();
    for piece in body.chunks(chunk) {
        buf.extend_from_slice(piece);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(line)) => {
                    assert!(line.len() <= MAX_LINE);
                    if line.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    if let Some(reply) = rt.block_on(handle_line(methods(), &line, &conn)) {
                        check_reply(reply.get());
                    }
                }
                Ok(None) => break,
                Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {}
                Err(AnyDelimiterCodecError::Io(e)) => panic!("io error from bytes: {e}"),
            }
        }
        assert!(
            buf.len() <= MAX_LINE + chunk,
            "buffered {} bytes",
            buf.len()
        );
    }
});
