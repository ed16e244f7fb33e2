//! One session's IRC connection (docs/commands.md "irc") over paw's own transport ([`super::transport`]:
//! TCP or SOCKS5, TLS with hostname verification, a capped line codec, PING/PONG and
//! keepalive) and `irc-proto`'s message types: registration with SASL PLAIN or NickServ,
//! alternative nicks, JOIN with key, connect and join timeouts that end in `error`,
//! reconnect with backoff and jitter, outbound flood control, and a state machine every
//! change of which is pushed as `irc.state`.
//!
//! A supervisor task owns the client; commands talk to it through [`Ctl`] messages and
//! read its state from a `watch` channel. The task is cancelled with the session and then
//! sends `QUIT` and closes the socket.

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures::StreamExt;
use irc::proto::{Command, Prefix};
use paw_proto::ErrorCode;
use serde_json::json;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::core::creds::{Creds, Secret};
use super::core::machine::{Machine, Step};
use super::core::state::{
    BACKOFF, LastError, State, Status, TokenBucket, backoff_delay, state_event,
};
use super::core::text::{self, fold};
use super::log::Log;
use super::transport::{self, Incoming, Sender, TransportError};
use crate::command::CmdError;
use crate::session::{Session, SessionResource};

/// How long registration (TCP/TLS + `001`) and the join may each take.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(30);
/// Idle time after which the client pings the server, and how long it waits for the answer.
const PING_EVERY: Duration = Duration::from_secs(30);
const PING_TIMEOUT: Duration = Duration::from_secs(30);
/// How long `QUIT` may take to leave before the socket is closed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Sends QUIT and reads on until the server closes or [`QUIT_GRACE`] passes, so the QUIT
/// actually leaves before the socket drops.
async fn quit(client: &Sender, stream: &mut Incoming, reason: &str) {
    let _ = client.send(Command::QUIT(Some(reason.to_string())));
    let _ =
        tokio::time::timeout(QUIT_GRACE, async { while stream.next().await.is_some() {} }).await;
}

/// Messages to the supervisor.
enum Ctl {
    /// Connect (now, if waiting for a backoff); `reply` is told when joined or failed.
    /// `force` tries again even with a password the server refused.
    Connect {
        reply: Option<oneshot::Sender<Result<(), LastError>>>,
        force: bool,
    },
    /// Tear the connection down and stay down.
    Disconnect,
}

/// The outbound side of a live connection.
#[derive(Clone)]
pub struct Live {
    sender: Sender,
    /// Our nick on this connection.
    pub nick: String,
    /// The default channel.
    pub channel: String,
}

/// The settings the connection needs from the daemon config.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `.agents/` (for the `.env`).
    pub agents: std::path::PathBuf,
    /// Flood burst.
    pub flood_burst: u32,
    /// Flood interval.
    pub flood_interval: Duration,
    /// The reconnect delays; the last repeats (jittered ±20 %).
    pub backoff: Vec<Duration>,
    /// Registration and join timeouts.
    pub step_timeout: Duration,
    /// The daemon's task tracker: the supervisor, the transport's reader and writer and the
    /// auto-forwarder run on it, so shutdown waits for them.
    pub tasks: tokio_util::task::TaskTracker,
    /// The daemon-wide cap on IRC connections (`tools.irc.max_connections`).
    pub slots: Slots,
}

/// The IRC command's daemon-wide state: how many connections are open, against
/// `tools.irc.max_connections` (a network K-lines a host that opens too many). Clones
/// share the count.
#[derive(Debug, Clone)]
pub struct Slots {
    permits: Arc<tokio::sync::Semaphore>,
    max: usize,
}

impl Slots {
    /// A cap of `max` connections.
    pub fn new(max: usize) -> Self {
        Self {
            permits: Arc::new(tokio::sync::Semaphore::new(max)),
            max,
        }
    }

    /// A slot for one connection, freed when the permit drops; None when all are taken.
    fn take(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.permits.clone().try_acquire_owned().ok()
    }
}

impl crate::command::CommandState for Slots {}

impl Settings {
    /// From the daemon's config.
    pub fn new(
        agents: std::path::PathBuf,
        cfg: &crate::config::IrcConfig,
        tasks: tokio_util::task::TaskTracker,
        slots: Slots,
    ) -> Self {
        Self {
            agents,
            flood_burst: cfg.flood_burst,
            flood_interval: Duration::from_millis(cfg.flood_interval_ms),
            backoff: BACKOFF.iter().map(|s| Duration::from_secs(*s)).collect(),
            step_timeout: STEP_TIMEOUT,
            tasks,
            slots,
        }
    }
}

/// One session's IRC resource.
pub struct Irc {
    session: Weak<Session>,
    /// The message store.
    pub log: Arc<Log>,
    status: watch::Sender<Status>,
    ctl: mpsc::UnboundedSender<Ctl>,
    live: Mutex<Option<Live>>,
    bucket: tokio::sync::Mutex<TokenBucket>,
    cancel: CancellationToken,
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// When `irc connect` last asked (for its 15 s throttle).
    pub last_connect: Mutex<Option<Instant>>,
    /// Inbound records for the auto-forwarder, when it runs.
    forward: Mutex<Option<mpsc::UnboundedSender<()>>>,
    /// Network services seen on the connection, beyond the well-known names.
    services: Mutex<Services>,
    /// The daemon's task tracker.
    tasks: tokio_util::task::TaskTracker,
    /// The last `notices.irc` and the log's change count it was computed at: most calls
    /// find nothing changed and copy it.
    notice_cache: Mutex<(Option<u64>, Option<paw_proto::IrcNotices>)>,
}

/// Network services learnt from the wire: the hosts the well-known services send from, and
/// the other nicks seen sending from those hosts (e.g. `Global`, `StatServ`). Both capped.
#[derive(Default)]
struct Services {
    hosts: Vec<String>,
    nicks: std::collections::HashSet<String>,
}

const MAX_SERVICE_HOSTS: usize = 8;
const MAX_SERVICE_NICKS: usize = 64;

impl SessionResource for Irc {
    fn close(self: Arc<Self>) -> futures::future::BoxFuture<'static, ()> {
        Box::pin(async move {
            self.cancel.cancel();
            let task = self.task.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(t) = task {
                let _ = t.await;
            }
        })
    }

    fn state(&self) -> String {
        self.status.borrow().state.as_str().to_string()
    }

    fn notices(&self, out: &mut paw_proto::Notices) {
        let mut cache = self.notice_cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((changes, mut unread)) = self.log.unread_counts_since(cache.0) {
            // The busiest first; a few hundred bytes at most.
            unread.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let more = unread.len().saturating_sub(NOTICE_CHANNELS);
            *cache = (
                Some(changes),
                (!unread.is_empty()).then(|| paw_proto::IrcNotices {
                    unread: unread.into_iter().take(NOTICE_CHANNELS).collect(),
                    more_channels: more,
                }),
            );
        }
        out.irc = cache.1.clone();
    }
}

/// Channels listed in `notices.irc.unread`.
const NOTICE_CHANNELS: usize = 5;

impl Irc {
    /// Creates the resource and starts its supervisor (idle until asked to connect).
    pub fn start(session: &Arc<Session>, log: Arc<Log>, settings: Settings) -> Arc<Self> {
        let (status, _) = watch::channel(Status {
            state: State::NotInitialized,
            last_error: None,
            creds: None,
            nick: None,
            logged_in: None,
        });
        let (ctl, rx) = mpsc::unbounded_channel();
        let irc = Arc::new(Self {
            session: Arc::downgrade(session),
            log,
            status,
            ctl,
            live: Mutex::new(None),
            bucket: tokio::sync::Mutex::new(TokenBucket::new(
                settings.flood_burst,
                settings.flood_interval,
                Instant::now(),
            )),
            cancel: session.cancel_token().child_token(),
            task: Mutex::new(None),
            last_connect: Mutex::new(None),
            forward: Mutex::new(None),
            services: Mutex::new(Services::default()),
            tasks: settings.tasks.clone(),
            notice_cache: Mutex::new((None, None)),
        });
        let tasks = settings.tasks.clone();
        let task = tasks.spawn(supervise(Arc::downgrade(&irc), rx, settings));
        *irc.task.lock().unwrap_or_else(|e| e.into_inner()) = Some(task);
        irc
    }

    /// The current status.
    pub fn status(&self) -> Status {
        self.status.borrow().clone()
    }

    /// A receiver of status changes.
    pub fn watch_status(&self) -> watch::Receiver<Status> {
        self.status.subscribe()
    }

    /// Asks for a connection in the background (no-op when one is up or on its way).
    /// `force`: even with the password the server last refused.
    pub fn request_connect(&self, force: bool) {
        let _ = self.ctl.send(Ctl::Connect { reply: None, force });
    }

    /// Tears the connection down and keeps it down until the next connect or send.
    pub fn request_disconnect(&self) {
        let _ = self.ctl.send(Ctl::Disconnect);
    }

    /// The live connection once it is registered and in the default channel, connecting
    /// (or reconnecting at once) when it is not.
    pub async fn ensure_joined(&self) -> Result<Live, CmdError> {
        if self.status.borrow().state == State::Joined
            && let Some(live) = self.live()
        {
            return Ok(live);
        }
        let (tx, rx) = oneshot::channel();
        self.ctl
            .send(Ctl::Connect {
                reply: Some(tx),
                force: false,
            })
            .map_err(|_| CmdError::new(ErrorCode::Disconnected, "the session is closing"))?;
        match rx.await {
            Ok(Ok(())) => self.live().ok_or_else(|| {
                CmdError::new(
                    ErrorCode::Disconnected,
                    "the connection dropped right after joining",
                )
            }),
            Ok(Err(e)) => Err(e.to_cmd()),
            Err(_) => Err(CmdError::new(
                ErrorCode::Disconnected,
                "the session is closing",
            )),
        }
    }

    fn live(&self) -> Option<Live> {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Sends `lines` to `to` through the flood limiter; returns how many went out.
    pub async fn send_lines(
        &self,
        live: &Live,
        to: &str,
        lines: &[String],
    ) -> Result<usize, CmdError> {
        let mut bucket = self.bucket.lock().await;
        for (i, line) in lines.iter().enumerate() {
            loop {
                let wait = bucket.take(Instant::now());
                if wait.is_zero() {
                    break;
                }
                tokio::time::sleep(wait).await;
            }
            if live
                .sender
                .send(Command::PRIVMSG(to.to_string(), line.clone()))
                .is_err()
            {
                return Err(CmdError::new(
                    ErrorCode::SendFailed,
                    format!(
                        "the connection dropped after {i} of {} line(s)",
                        lines.len()
                    ),
                )
                .with_result(json!({"lines_sent": i})));
            }
            if let Err(e) = self.log.append_outbound(to, &live.nick, line) {
                tracing::warn!(error = %e, "outbound.jsonl append failed");
            }
        }
        Ok(lines.len())
    }

    /// Starts or stops the auto-forwarder (`IRC_AUTO_FORWARD_TO_AGENT`).
    fn set_forwarding(self: &Arc<Self>, on: bool) {
        let mut g = self.forward.lock().unwrap_or_else(|e| e.into_inner());
        match (on, g.is_some()) {
            (true, false) => {
                let (tx, rx) = mpsc::unbounded_channel();
                *g = Some(tx);
                self.tasks.spawn(super::forward::run(
                    self.session.clone(),
                    Arc::downgrade(&self.log),
                    rx,
                    self.cancel.clone(),
                ));
            }
            (false, true) => *g = None,
            _ => {}
        }
    }

    /// Appends an inbound message to the log and tells the auto-forwarder. The joined
    /// channel is always kept; private peers only within the log's channel cap
    /// (`dropped_peers` counts the others, logged now and then).
    fn keep_inbound(
        &self,
        channel: &str,
        from: &str,
        text: &str,
        private: bool,
        action: bool,
        dropped_peers: &mut u64,
    ) {
        if private && !self.log.accepts(channel) {
            *dropped_peers += 1;
            if *dropped_peers == 1 || dropped_peers.is_multiple_of(1000) {
                tracing::warn!(
                    dropped = *dropped_peers,
                    "private messages from new peers dropped: the log keeps {} channels",
                    super::log::MAX_CHANNELS
                );
            }
            return;
        }
        match self.log.append_inbound_as(channel, from, text, action) {
            Ok(_) => {
                if let Some(tx) = self
                    .forward
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_ref()
                {
                    let _ = tx.send(());
                }
            }
            Err(e) => tracing::error!(error = %e, "inbound.jsonl append failed"),
        }
    }

    /// Learns from a message's prefix: a well-known service's host, or a nick sending from
    /// such a host.
    fn learn_service(&self, prefix: &Option<Prefix>) {
        let Some(Prefix::Nickname(nick, _, host)) = prefix else {
            return;
        };
        if host.is_empty() {
            return;
        }
        let mut s = self.services.lock().unwrap_or_else(|e| e.into_inner());
        if text::is_service_name(nick) {
            if !s.hosts.contains(host) && s.hosts.len() < MAX_SERVICE_HOSTS {
                s.hosts.push(host.clone());
            }
        } else if s.hosts.contains(host) && s.nicks.len() < MAX_SERVICE_NICKS {
            s.nicks.insert(fold(nick));
        }
    }

    /// Whether `target` is a network service: a well-known name, or a nick seen sending
    /// from a service host.
    pub fn is_service(&self, target: &str) -> bool {
        text::is_service_name(target)
            || self
                .services
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .nicks
                .contains(&fold(target))
    }

    /// The session, if still open.
    pub fn session(&self) -> Option<Arc<Session>> {
        self.session.upgrade()
    }

    fn set(&self, f: impl FnOnce(&mut Status)) {
        let mut changed = false;
        self.status.send_if_modified(|s| {
            let before = (s.state, s.last_error.clone(), s.nick.clone(), s.logged_in);
            f(s);
            changed = before != (s.state, s.last_error.clone(), s.nick.clone(), s.logged_in);
            changed
        });
        if changed && let Some(session) = self.session() {
            session.emit(paw_proto::Event::IrcState(state_event(
                &self.status.borrow(),
            )));
        }
    }
}

/// How one connection ended.
enum End {
    /// The session closed.
    Cancelled,
    /// `irc disconnect`.
    Disconnected,
    /// Failed (after having joined, or not); reconnect unless fatal.
    Failed(LastError, bool),
}

fn reply_all(waiters: &mut Vec<oneshot::Sender<Result<(), LastError>>>, r: Result<(), LastError>) {
    for w in waiters.drain(..) {
        let _ = w.send(r.clone());
    }
}

/// The supervisor's loop: waits for a request to connect, connects, and after a failure
/// waits out the backoff (or the next request) and connects again, until the session
/// closes.
async fn supervise(me: Weak<Irc>, rx: mpsc::UnboundedReceiver<Ctl>, settings: Settings) {
    let Some(cancel) = me.upgrade().map(|i| i.cancel.clone()) else {
        return;
    };
    let mut s = Supervisor {
        me,
        rx,
        settings,
        cancel,
        waiters: Vec::new(),
        want: false,
        force: false,
        attempts: 0,
        refused: None,
    };
    loop {
        if !s.want && !s.wait_for_request().await {
            return;
        }
        let Some(irc) = s.me.upgrade() else { return };
        let Some(creds) = s.prepare(&irc) else {
            continue;
        };
        let end = s.connect(&irc, &creds).await;
        *irc.live.lock().unwrap_or_else(|e| e.into_inner()) = None;
        // No connection, no appends: the log holds no file open until the next one.
        irc.log.release_files();
        match end {
            End::Cancelled => {
                irc.set(|st| st.state = State::Disconnected);
                s.reply_all(Err(LastError::new(
                    ErrorCode::Disconnected,
                    "the session closed",
                )));
                return;
            }
            End::Disconnected => {
                irc.set(|st| {
                    st.state = State::Disconnected;
                    st.nick = None;
                    st.logged_in = None;
                });
                s.reply_all(Err(LastError::new(
                    ErrorCode::Disconnected,
                    "disconnected on request",
                )));
                s.want = false;
                s.attempts = 0;
            }
            End::Failed(err, was_joined) => {
                if !s.failed(&irc, &creds, err, was_joined) {
                    continue;
                }
                drop(irc);
                if !s.back_off().await {
                    return;
                }
            }
        }
    }
}

/// The supervisor's state between connections.
struct Supervisor {
    me: Weak<Irc>,
    rx: mpsc::UnboundedReceiver<Ctl>,
    settings: Settings,
    cancel: CancellationToken,
    /// Callers of `ensure_joined` waiting for the connection being made.
    waiters: Vec<oneshot::Sender<Result<(), LastError>>>,
    /// A connection is wanted (asked for and not failed fatally or disconnected since).
    want: bool,
    /// `irc connect --force` asked: try even the password the server refused.
    force: bool,
    /// Failed attempts since the last join (the backoff's step).
    attempts: u32,
    /// The passwords the server last refused, and why: not sent again (docs/commands.md
    /// "irc": a refused login is fatal) until the `.env` changes or `irc connect --force`
    /// asks.
    refused: Option<(Secret, Secret, LastError)>,
}

impl Supervisor {
    fn reply_all(&mut self, r: Result<(), LastError>) {
        reply_all(&mut self.waiters, r);
    }

    /// Waits for a request to connect; false when the session is closing.
    async fn wait_for_request(&mut self) -> bool {
        loop {
            tokio::select! {
                _ = self.cancel.cancelled() => return false,
                ctl = self.rx.recv() => match ctl {
                    None => return false,
                    Some(Ctl::Connect { reply, force }) => {
                        self.waiters.extend(reply);
                        self.want = true;
                        self.force |= force;
                        return true;
                    }
                    Some(Ctl::Disconnect) => continue,
                },
            }
        }
    }

    /// The credentials to connect with, the status set to connecting; None (the request
    /// failed at once, nothing sent) when the `.env` cannot be read or holds the password
    /// the server refused.
    fn prepare(&mut self, irc: &Arc<Irc>) -> Option<Creds> {
        let creds = match super::env::load(&self.settings.agents) {
            Ok(c) => c,
            Err(e) => {
                self.fail_now(irc, LastError::new(e.code, e.message));
                return None;
            }
        };
        if let Some((server_pw, account_pw, err)) = &self.refused
            && !std::mem::take(&mut self.force)
            && *server_pw == creds.server_password
            && *account_pw == creds.nickserv_password
        {
            let err = LastError::new(
                err.code,
                format!(
                    "{} (not tried again with the same password: change it in .env, or irc connect --force)",
                    err.message
                ),
            );
            self.fail_now(irc, err);
            return None;
        }
        self.force = false;
        if let Some(w) = &creds.warning {
            tracing::warn!("{w}");
        }
        irc.set_forwarding(creds.auto_forward);
        let attempts = self.attempts;
        irc.set(|s| {
            s.state = if attempts == 0 {
                State::Connecting
            } else {
                State::Reconnecting
            };
            s.creds = Some(creds.clone());
            s.nick = None;
            s.logged_in = None;
        });
        Some(creds)
    }

    /// Fails this request without a connection attempt.
    fn fail_now(&mut self, irc: &Irc, err: LastError) {
        irc.set(|s| {
            s.state = State::Error;
            s.last_error = Some(err.clone());
        });
        self.reply_all(Err(err));
        self.want = false;
    }

    /// One connection, within the daemon's cap on connections.
    async fn connect(&mut self, irc: &Arc<Irc>, creds: &Creds) -> End {
        match self.settings.slots.take() {
            Some(_slot) => {
                run_connection(
                    irc,
                    creds,
                    &mut self.rx,
                    &mut self.waiters,
                    &self.cancel,
                    self.settings.step_timeout,
                )
                .await
            }
            None => End::Failed(
                LastError::new(
                    ErrorCode::NetworkError,
                    format!(
                        "too many IRC connections (tools.irc.max_connections = {})",
                        self.settings.slots.max
                    ),
                ),
                false,
            ),
        }
    }

    /// A connection failed with `err`: waiters told, the refused password remembered, the
    /// status set. True when it is worth trying again (after the backoff).
    fn failed(&mut self, irc: &Irc, creds: &Creds, err: LastError, was_joined: bool) -> bool {
        if was_joined {
            self.attempts = 0;
        }
        tracing::info!(code = %err.code, reason = %err.message, "irc connection ended");
        self.reply_all(Err(err.clone()));
        let fatal = err.is_fatal();
        self.refused = (err.code == ErrorCode::PassIncorrect).then(|| {
            (
                creds.server_password.clone(),
                creds.nickserv_password.clone(),
                err.clone(),
            )
        });
        irc.set(|s| {
            s.state = State::Error;
            s.last_error = Some(err);
            s.nick = None;
            s.logged_in = None;
        });
        if fatal {
            self.want = false;
            self.attempts = 0;
            return false;
        }
        self.attempts += 1;
        true
    }

    /// Waits out the backoff before the next attempt; a request cuts it short (a
    /// `Disconnect` also stops wanting a connection). False when the session is closing.
    async fn back_off(&mut self) -> bool {
        let delay = backoff_delay(&self.settings.backoff, self.attempts);
        tokio::select! {
            _ = self.cancel.cancelled() => false,
            _ = tokio::time::sleep(delay) => true,
            ctl = self.rx.recv() => match ctl {
                None => false,
                Some(Ctl::Connect { reply, force }) => {
                    self.waiters.extend(reply);
                    self.force |= force;
                    true
                }
                Some(Ctl::Disconnect) => {
                    if let Some(irc) = self.me.upgrade() {
                        irc.set(|s| s.state = State::Disconnected);
                    }
                    self.want = false;
                    self.attempts = 0;
                    true
                }
            },
        }
    }
}

fn transport_target(creds: &Creds) -> transport::Target {
    transport::Target {
        host: creds.server.clone(),
        port: creds.port,
        tls: creds.tls,
        proxy: creds.proxy.clone(),
        ping_every: PING_EVERY,
        ping_timeout: PING_TIMEOUT,
    }
}

fn describe(e: &TransportError) -> LastError {
    match e {
        TransportError::PingTimeout => {
            LastError::new(ErrorCode::Disconnected, "the server stopped answering PING")
        }
        TransportError::Stalled => LastError::new(ErrorCode::Disconnected, e.to_string()),
        // A TLS error can quote the server's certificate: cleaned and capped like its lines.
        other => LastError::new(
            ErrorCode::NetworkError,
            paw_proto::untrusted::clean_capped(&other.to_string(), 300),
        ),
    }
}

async fn run_connection(
    irc: &Arc<Irc>,
    creds: &Creds,
    rx: &mut mpsc::UnboundedReceiver<Ctl>,
    waiters: &mut Vec<oneshot::Sender<Result<(), LastError>>>,
    cancel: &CancellationToken,
    step: Duration,
) -> End {
    let target = format!("{}:{}", creds.server, creds.port);
    let to = transport_target(creds);
    let connect = tokio::time::timeout(step, transport::connect(&to, &irc.tasks));
    let (client, mut stream) = tokio::select! {
        _ = cancel.cancelled() => return End::Cancelled,
        r = connect => match r {
            Err(_) => return End::Failed(LastError::new(
                ErrorCode::Timeout,
                format!("connecting to {target} timed out after {step:?}"),
            ), false),
            Ok(Err(e)) => return End::Failed(describe(&e), false),
            Ok(Ok(c)) => c,
        },
    };
    let mut machine = Machine::new(creds);
    if machine
        .opening(creds)
        .into_iter()
        .try_for_each(|c| client.send(c))
        .is_err()
    {
        return End::Failed(
            LastError::new(
                ErrorCode::Disconnected,
                format!("{target} closed the connection"),
            ),
            false,
        );
    }
    let mut deadline = Instant::now() + step;
    let mut dropped_peers = 0u64;
    let mut dropped_lines = 0u64;
    let mut shown_login = None;
    loop {
        if machine.registered() && machine.logged_in() != shown_login {
            shown_login = machine.logged_in();
            irc.set(|s| s.logged_in = shown_login);
        }
        let joined = machine.joined();
        tokio::select! {
            _ = cancel.cancelled() => {
                quit(&client, &mut stream, "session closed").await;
                return End::Cancelled;
            }
            ctl = rx.recv() => match ctl {
                None => return End::Cancelled,
                Some(Ctl::Connect { reply, .. }) => {
                    if let Some(r) = reply {
                        if joined { let _ = r.send(Ok(())); } else { waiters.push(r); }
                    }
                }
                Some(Ctl::Disconnect) => {
                    quit(&client, &mut stream, "disconnect requested").await;
                    return End::Disconnected;
                }
            },
            _ = tokio::time::sleep_until(deadline), if !joined => {
                quit(&client, &mut stream, "timed out").await;
                let what = if machine.registered() {
                    format!("joining {} was not confirmed within {step:?}", creds.channel)
                } else {
                    format!("{target} did not complete registration (no 001) within {step:?}")
                };
                return End::Failed(LastError::new(ErrorCode::Timeout, what), joined);
            }
            item = stream.next() => {
                if stream.dropped() > dropped_lines {
                    dropped_lines = stream.dropped();
                    tracing::warn!(dropped = dropped_lines, "lines over {} bytes from {target} dropped", transport::MAX_LINE);
                }
                let msg = match item {
                    None => return End::Failed(LastError::new(
                        ErrorCode::Disconnected,
                        format!("{target} closed the connection"),
                    ), joined),
                    Some(Err(e)) => return End::Failed(describe(&e), joined),
                    Some(Ok(m)) => m,
                };
                if matches!(msg.command, Command::PRIVMSG(..) | Command::NOTICE(..)) {
                    irc.learn_service(&msg.prefix);
                }
                for next in machine.on_message(&msg) {
                    match next {
                        Step::Send(c) => { let _ = client.send(c); }
                        Step::Fail { error, quit: reason } => {
                            if let Some(r) = reason {
                                quit(&client, &mut stream, r).await;
                            }
                            return End::Failed(error, machine.joined());
                        }
                        Step::Registered(nick) => {
                            deadline = Instant::now() + step;
                            *irc.live.lock().unwrap_or_else(|e| e.into_inner()) = Some(Live {
                                sender: client.clone(),
                                nick: nick.clone(),
                                channel: creds.channel.clone(),
                            });
                            irc.set(|s| { s.state = State::Connected; s.nick = Some(nick); });
                        }
                        Step::Joined => {
                            irc.set(|s| { s.state = State::Joined; s.last_error = None; });
                            reply_all(waiters, Ok(()));
                        }
                        Step::Kicked => {
                            deadline = Instant::now() + step;
                            irc.set(|s| s.state = State::Connected);
                        }
                        Step::Nick(nick) => {
                            if let Some(l) = irc.live.lock().unwrap_or_else(|e| e.into_inner()).as_mut() { l.nick = nick.clone(); }
                            irc.set(|s| s.nick = Some(nick));
                        }
                        Step::Inbound { channel, from, text, private, action } => {
                            irc.keep_inbound(&channel, &from, &text, private, action, &mut dropped_peers);
                        }
                    }
                }
            }
        }
    }
}
