//! One client connection: newline-delimited JSON-RPC in, responses and notifications out.
//!
//! Requests are read line by line and each is answered by its own task, so a slow call
//! never holds up the next one on the same connection (pipelining); responses carry their
//! ids and may arrive in any order. One writer task owns the write half.

use std::sync::Arc;

use futures::StreamExt;
use interprocess::local_socket::tokio::Stream;
use jsonrpsee::Methods;
use jsonrpsee::core::server::BoundedSubscriptions;
use serde_json::value::RawValue;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter, ReadBuf};
use tokio::sync::{Semaphore, mpsc};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

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

/// Serves one connection until the peer closes it or the daemon shuts down.
pub async fn serve(d: Arc<Daemon>, methods: Methods, stream: Stream, conn_id: usize) {
    tracing::debug!(conn_id, "connection opened");
    let stream = Arc::new(stream);
    let (rd, wr) = (Half(stream.clone()), Half(stream));
    let (tx, rx) = mpsc::channel::<Box<RawValue>>(OUTBOUND_QUEUE);
    let stop_writer = CancellationToken::new();
    let writer = tokio::spawn(write_loop(wr, rx, stop_writer.clone()));

    let info = Arc::new(ConnInfo {
        conn_id,
        sink: tx.clone(),
        subscriptions: BoundedSubscriptions::new(MAX_SUBSCRIPTIONS),
    });
    let in_flight = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let tasks = TaskTracker::new();
    read_loop(&d, &methods, rd, &info, &in_flight, &tasks).await;

    // Answer everything already read before closing, so a client that half-closes after
    // sending still gets its replies.
    tasks.close();
    tasks.wait().await;
    let closed = d.sessions.close_bound(conn_id).await;
    if closed > 0 {
        tracing::info!(
            conn_id,
            sessions = closed,
            "closed sessions bound to the connection"
        );
    }
    drop(info);
    drop(tx);
    // Subscriptions hold senders until they notice the writer is gone, so the writer is
    // told to stop (after draining its queue) instead of waiting for every sender to drop.
    stop_writer.cancel();
    let _ = writer.await;
    tracing::debug!(conn_id, "connection closed");
}

async fn read_loop(
    d: &Arc<Daemon>,
    methods: &Methods,
    rd: Half,
    info: &Arc<ConnInfo>,
    in_flight: &Arc<Semaphore>,
    tasks: &TaskTracker,
) {
    let codec = AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), MAX_LINE_BYTES);
    let mut frames = FramedRead::new(rd, codec);
    loop {
        let frame = tokio::select! {
            _ = d.shutdown.cancelled() => return,
            f = frames.next() => f,
        };
        let line = match frame {
            None => return,
            Some(Ok(line)) => line,
            Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded)) => {
                let _ = info
                    .sink
                    .send(dispatch::line_too_long(MAX_LINE_BYTES))
                    .await;
                continue;
            }
            Some(Err(AnyDelimiterCodecError::Io(e))) => {
                tracing::debug!(conn_id = info.conn_id, error = %e, "read failed");
                return;
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let permit = tokio::select! {
            _ = d.shutdown.cancelled() => return,
            p = in_flight.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => return,
            },
        };
        let methods = methods.clone();
        let info = info.clone();
        tasks.spawn(async move {
            if let Some(resp) = dispatch::handle_line(&methods, &line, &info).await {
                let _ = info.sink.send(resp).await;
            }
            drop(permit);
        });
    }
}

async fn write_loop(wr: Half, mut rx: mpsc::Receiver<Box<RawValue>>, stop: CancellationToken) {
    let mut out = BufWriter::with_capacity(64 * 1024, wr);
    loop {
        let msg = tokio::select! {
            biased;
            m = rx.recv() => m,
            _ = stop.cancelled() => None,
        };
        let Some(msg) = msg else { break };
        if write_one(&mut out, &msg).await.is_err() {
            return;
        }
        // Batch whatever else is ready into the same flush.
        while let Ok(msg) = rx.try_recv() {
            if write_one(&mut out, &msg).await.is_err() {
                return;
            }
        }
        if out.flush().await.is_err() {
            return;
        }
    }
    while let Ok(msg) = rx.try_recv() {
        if write_one(&mut out, &msg).await.is_err() {
            return;
        }
    }
    let _ = out.flush().await;
    let _ = out.shutdown().await;
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
