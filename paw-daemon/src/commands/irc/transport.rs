//! The IRC connection's transport: TCP (optionally through a SOCKS5 proxy), TLS with the
//! system's roots and hostname verification, and a line codec with a maximum.
//!
//! paw owns this instead of using the `irc` crate's client, whose line codec buffers a line
//! without bound: a server (or anyone in the path of a plain-text link) could grow the
//! daemon's memory with one line that never ends. Here a line longer than [`MAX_LINE`]
//! bytes is dropped and counted (docs/commands.md "irc"), and only the line's prefix up to the cap is
//! ever held. Messages are parsed with `irc-proto`; the transport also answers the server's
//! PING and pings a quiet server itself, treating a missing answer as a drop.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures::{Stream, StreamExt};
use irc::proto::{Command, Message};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, FramedRead};

/// The longest line accepted from a server: the IRCv3 tag budget (8,191 bytes with the
/// `@`) covers the 512-byte message too.
pub const MAX_LINE: usize = 8_191;

/// The most bytes queued for a server that is not reading its socket. A server that floods
/// `PING` and never reads would otherwise make the daemon hold every `PONG` (one flooding
/// server grew the daemon by 380 MiB); past this the connection is dropped as dead.
pub const MAX_QUEUED_BYTES: usize = 256 << 10;

/// Why a connection could not be made or ended.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// TCP, SOCKS5 or the socket failed.
    #[error("connection failed: {0}")]
    Io(#[from] std::io::Error),
    /// The TLS handshake or certificate check failed.
    #[error("TLS failed: {0}")]
    Tls(String),
    /// The server answered no PING in time.
    #[error("the server stopped answering PING")]
    PingTimeout,
    /// The server stopped reading what paw sends.
    #[error("the server stopped reading (more than {} KiB queued for it)", MAX_QUEUED_BYTES >> 10)]
    Stalled,
}

/// Where and how to connect.
#[derive(Debug, Clone)]
pub struct Target {
    /// Server host name (TLS checks the certificate against it).
    pub host: String,
    /// Port.
    pub port: u16,
    /// TLS on.
    pub tls: bool,
    /// A SOCKS5 proxy (host, port).
    pub proxy: Option<(String, u16)>,
    /// Ping a server quiet for this long…
    pub ping_every: Duration,
    /// …and give up when it has not answered after this long.
    pub ping_timeout: Duration,
}

trait Io: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

/// The outbound side: queued lines are written in order by the connection's writer task.
/// What is queued and not yet written is counted; past [`MAX_QUEUED_BYTES`] the sender
/// refuses and marks the connection stalled (its reader then ends it).
#[derive(Clone, Debug)]
pub struct Sender {
    tx: mpsc::UnboundedSender<(Message, usize)>,
    queued: Arc<AtomicUsize>,
    stalled: Arc<AtomicBool>,
}

/// The connection is gone (or stalled: the server does not read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the connection is closed")]
pub struct Closed;

impl Sender {
    /// Queues `cmd` for the wire.
    pub fn send(&self, cmd: Command) -> Result<(), Closed> {
        let m = Message::from(cmd);
        if self.stalled.load(Ordering::Relaxed) {
            return Err(Closed);
        }
        // A message prints as one line ending in CRLF; its length is what the queue holds.
        let len = m.to_string().len();
        if self.queued.fetch_add(len, Ordering::Relaxed) + len > MAX_QUEUED_BYTES {
            self.queued.fetch_sub(len, Ordering::Relaxed);
            self.stalled.store(true, Ordering::Relaxed);
            return Err(Closed);
        }
        self.tx.send((m, len)).map_err(|_| Closed)
    }

    /// Whether the server stopped reading (the queue reached its cap).
    pub fn stalled(&self) -> bool {
        self.stalled.load(Ordering::Relaxed)
    }
}

/// Lines from the server, parsed, with PING answered and keepalive enforced. Ends (None)
/// when the server closes.
pub struct Incoming {
    rx: mpsc::Receiver<Result<Message, TransportError>>,
    dropped: Arc<AtomicU64>,
}

impl Incoming {
    /// Lines dropped so far for being over [`MAX_LINE`] or unparseable.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl Stream for Incoming {
    type Item = Result<Message, TransportError>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.rx.poll_recv(cx)
    }
}

/// An outbound message as the trace log shows it: whatever may carry a secret is masked —
/// `PASS`, the SASL payload, a channel key, and every message to a network service
/// (`IDENTIFY`, `REGISTER`, `SET PASSWORD` carry passwords). docs/commands.md "irc": no secret in any
/// log at any level.
pub fn loggable(cmd: &Command) -> String {
    match cmd {
        Command::PASS(_) => "PASS ***".into(),
        Command::AUTHENTICATE(a) if !matches!(a.as_str(), "PLAIN" | "+" | "*") => {
            "AUTHENTICATE ***".into()
        }
        Command::JOIN(chans, Some(_), _) => format!("JOIN {chans} ***"),
        Command::PRIVMSG(to, _) | Command::NOTICE(to, _)
            if super::core::text::is_service_name(to) =>
        {
            format!("PRIVMSG {to} :***")
        }
        other => String::from(other).trim_end().to_string(),
    }
}

/// Opens the connection and starts its reader and writer tasks. They belong to the
/// connection's supervisor (which owns the returned halves): the reader ends when the
/// socket closes or [`Incoming`] is dropped, the writer when every [`Sender`] is gone
/// (the reader holds one for PONGs), so dropping the halves ends both.
pub async fn connect(
    target: &Target,
    tasks: &tokio_util::task::TaskTracker,
) -> Result<(Sender, Incoming), TransportError> {
    let stream = tcp(target).await?;
    let io: Box<dyn Io> = if target.tls {
        Box::new(tls(stream, &target.host).await?)
    } else {
        Box::new(stream)
    };
    let (read, mut write) = tokio::io::split(io);
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<(Message, usize)>();
    let out = Sender {
        tx: out_tx,
        queued: Arc::new(AtomicUsize::new(0)),
        stalled: Arc::new(AtomicBool::new(false)),
    };
    let (in_tx, in_rx) = mpsc::channel(256);
    let dropped = Arc::new(AtomicU64::new(0));

    let queued = out.queued.clone();
    tasks.spawn(async move {
        // A message prints as one line ending in CRLF.
        while let Some((m, len)) = out_rx.recv().await {
            // Fields are evaluated only when TRACE is on.
            tracing::trace!(line = %loggable(&m.command), "irc >");
            let sent = write.write_all(m.to_string().as_bytes()).await;
            queued.fetch_sub(len, Ordering::Relaxed);
            if sent.is_err() || write.flush().await.is_err() {
                break;
            }
        }
        let _ = write.shutdown().await;
    });

    let mut lines = FramedRead::new(read, CappedLines::new(dropped.clone()));
    let (pong, every, timeout) = (out.clone(), target.ping_every, target.ping_timeout);
    tasks.spawn(async move {
        let mut waiting_since: Option<tokio::time::Instant> = None;
        loop {
            let quiet = match waiting_since {
                Some(t) => tokio::time::sleep_until(t + timeout),
                None => tokio::time::sleep(every),
            };
            let next = tokio::select! {
                biased;
                _ = in_tx.closed() => break,
                l = lines.next() => l,
                _ = quiet => {
                    if waiting_since.is_some() {
                        let _ = in_tx.send(Err(TransportError::PingTimeout)).await;
                        break;
                    }
                    waiting_since = Some(tokio::time::Instant::now());
                    let _ = pong.send(Command::PING("paw".into(), None));
                    continue;
                }
            };
            let line = match next {
                None => break,
                Some(Err(e)) => {
                    let _ = in_tx.send(Err(TransportError::Io(e))).await;
                    break;
                }
                Some(Ok(line)) => line,
            };
            // A server that does not read what it is sent is dead whatever it writes.
            if pong.stalled() {
                let _ = in_tx.send(Err(TransportError::Stalled)).await;
                break;
            }
            // Any line from the server shows the link is alive.
            waiting_since = None;
            tracing::trace!(line = %paw_proto::untrusted::clean_line(&line), "irc <");
            let Ok(msg) = line.parse::<Message>() else {
                continue;
            };
            match &msg.command {
                Command::PING(a, b) => {
                    let _ = pong.send(Command::PONG(a.clone(), b.clone()));
                }
                Command::PONG(..) => {}
                _ => {
                    if in_tx.send(Ok(msg)).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    Ok((out, Incoming { rx: in_rx, dropped }))
}

async fn tcp(target: &Target) -> Result<tokio::net::TcpStream, TransportError> {
    match &target.proxy {
        None => Ok(tokio::net::TcpStream::connect((target.host.as_str(), target.port)).await?),
        Some((host, port)) => {
            let s = tokio_socks::tcp::Socks5Stream::connect(
                (host.as_str(), *port),
                (target.host.as_str(), target.port),
            )
            .await
            .map_err(|e| TransportError::Io(std::io::Error::other(e.to_string())))?;
            Ok(s.into_inner())
        }
    }
}

async fn tls(
    stream: tokio::net::TcpStream,
    host: &str,
) -> Result<tokio_rustls::client::TlsStream<tokio::net::TcpStream>, TransportError> {
    let mut roots = rustls::RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    for cert in native.certs {
        let _ = roots.add(cert);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TransportError::Tls(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|e| TransportError::Tls(format!("bad server name {host:?}: {e}")))?;
    tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, stream)
        .await
        .map_err(|e| TransportError::Tls(e.to_string()))
}

/// Lines of at most [`MAX_LINE`] bytes, as text (invalid UTF-8 replaced); a longer line is
/// skipped to its end without being buffered, and counted.
pub struct CappedLines {
    inner: AnyDelimiterCodec,
    dropped: Arc<AtomicU64>,
}

impl CappedLines {
    /// A codec counting dropped lines in `dropped`.
    pub fn new(dropped: Arc<AtomicU64>) -> Self {
        Self {
            inner: AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), MAX_LINE),
            dropped,
        }
    }

    fn text(line: Bytes) -> String {
        let line = String::from_utf8_lossy(&line);
        line.trim_end_matches(['\r', '\n']).to_string()
    }
}

impl Decoder for CappedLines {
    type Item = String;
    type Error = std::io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<String>, std::io::Error> {
        loop {
            match self.inner.decode(src) {
                Ok(line) => return Ok(line.map(Self::text)),
                // The codec discards the rest of the line itself; go on with the next.
                Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                }
                Err(AnyDelimiterCodecError::Io(e)) => return Err(e),
            }
        }
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<String>, std::io::Error> {
        loop {
            match self.inner.decode_eof(src) {
                Ok(line) => return Ok(line.map(Self::text).filter(|l| !l.is_empty())),
                Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                }
                Err(AnyDelimiterCodecError::Io(e)) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests;
