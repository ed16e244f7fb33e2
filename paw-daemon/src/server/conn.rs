//! One client connection: newline-delimited JSON-RPC in, responses and notifications out.
//!
//! Requests are read line by line and each is answered by its own task, so a slow call
//! never holds up the next one on the same connection (pipelining); responses carry their
//! ids and may arrive in any order. One writer task owns the write half.

use std::sync::Arc;

use futures::stream::FuturesUnordered;
use futures::{FutureExt, StreamExt};
use interprocess::local_socket::tokio::Stream;
use jsonrpsee::Methods;
use jsonrpsee::core::server::BoundedSubscriptions;
use serde_json::value::RawValue;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter, ReadBuf};
use tokio::sync::mpsc;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};

use super::dispatch::{self, ConnInfo};
use crate::daemon::Daemon;

/// The longest request line accepted (bytes); longer lines get an error and are skipped.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Requests one connection may have in flight; reading pauses while it is reached.
pub const MAX_IN_FLIGHT: usize = 1024;
/// Subscriptions one connection may hold.
const MAX_SUBSCRIPTIONS: u32 = 64;
/// Responses and notifications queued for the writer.
const OUTBOUND_QUEUE: usize = 1024;

/// The request-line splitter: `\n`-delimited, at most [`MAX_LINE_BYTES`] per line (a longer
/// line is an error and is skipped to its end without being buffered).
pub fn line_codec() -> AnyDelimiterCodec {
    line_codec_with_max(MAX_LINE_BYTES)
}

/// [`line_codec`] with another cap (the fuzz target uses a small one to reach the
/// too-long path with small inputs).
pub fn line_codec_with_max(max: usize) -> AnyDelimiterCodec {
    AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), max)
}

/// Serves one connection until the peer closes it or the daemon shuts down.
///
/// One task does everything for the connection: it reads lines, drives every request's
/// future (a `FuturesUnordered`, so a slow call never holds up the next one: pipelining), and
/// writes replies and subscription notifications. Keeping the whole round trip on one task
/// avoids cross-thread wake-ups, which dominate the latency of a small call.
pub async fn serve(d: Arc<Daemon>, methods: Methods, stream: Stream, conn_id: usize) {
    tracing::debug!(conn_id, "connection opened");
    let stream = Arc::new(stream);
    let mut frames = FramedRead::new(Half(stream.clone()), line_codec());
    let mut out = BufWriter::with_capacity(64 * 1024, Half(stream));
    // Subscriptions (accept/reject answers and notifications) write through this queue.
    let (tx, mut rx) = mpsc::channel::<Box<RawValue>>(OUTBOUND_QUEUE);
    let info = Arc::new(ConnInfo {
        conn_id,
        sink: tx,
        subscriptions: BoundedSubscriptions::new(MAX_SUBSCRIPTIONS),
    });
    let mut in_flight = FuturesUnordered::new();
    let mut reading = true;
    let mut broken = false;
    let mut overlong = false;
    while !broken && (reading || !in_flight.is_empty()) {
        let msg: Option<Box<RawValue>> = tokio::select! {
            biased;
            Some(reply) = in_flight.next(), if !in_flight.is_empty() => reply,
            Some(note) = rx.recv() => Some(note),
            _ = d.shutdown.cancelled(), if reading => {
                reading = false;
                None
            }
            frame = frames.next(), if reading && in_flight.len() < MAX_IN_FLIGHT => match frame {
                // After a decoder error FramedRead yields one `None` and then reads on
                // (tokio-util's "errored → paused" step); the codec is still skipping the
                // rest of the overlong line. That `None` is not the end of the stream.
                None if overlong => {
                    overlong = false;
                    None
                }
                None => {
                    reading = false;
                    None
                }
                Some(Ok(line)) => {
                    if !line.iter().all(u8::is_ascii_whitespace) {
                        let methods = methods.clone();
                        let info = info.clone();
                        in_flight.push(async move { dispatch::handle_line(&methods, &line, &info).await });
                    }
                    None
                }
                Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded)) => {
                    overlong = true;
                    Some(dispatch::line_too_long(MAX_LINE_BYTES))
                }
                Some(Err(AnyDelimiterCodecError::Io(e))) => {
                    tracing::debug!(conn_id, error = %e, "read failed");
                    reading = false;
                    None
                }
            },
        };
        if let Some(msg) = msg {
            broken = write_one(&mut out, &msg).await.is_err();
        }
        // Write whatever else is ready before paying for a flush.
        while !broken {
            let more = match in_flight.next().now_or_never() {
                Some(Some(reply)) => reply,
                _ => match rx.try_recv() {
                    Ok(note) => Some(note),
                    Err(_) => break,
                },
            };
            if let Some(m) = more {
                broken = write_one(&mut out, &m).await.is_err();
            }
        }
        if !broken && !out.buffer().is_empty() {
            broken = out.flush().await.is_err();
        }
    }
    let closed = d.sessions.close_bound(conn_id).await;
    if closed > 0 {
        tracing::info!(
            conn_id,
            sessions = closed,
            "closed sessions bound to the connection"
        );
    }
    // Dropping the queue's receiver tells this connection's subscriptions to end.
    drop(rx);
    let _ = out.shutdown().await;
    tracing::debug!(conn_id, "connection closed");
}

async fn write_one(out: &mut BufWriter<Half>, msg: &RawValue) -> std::io::Result<()> {
    out.write_all(msg.get().as_bytes()).await?;
    out.write_all(b"\n").await
}

/// One side of a shared stream: `&Stream` reads and writes, so the reader and the writer
/// task each hold an `Arc` of it instead of splitting it.
struct Half(Arc<Stream>);

impl AsyncRead for Half {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut &*self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Half {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut &*self.0).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut &*self.0).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut &*self.0).poll_shutdown(cx)
    }
}
