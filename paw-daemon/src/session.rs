//! Sessions: the unit of per-agent state (docs/protocol.md "Sessions"), their attachable resources and their events.
//!
//! A session owns resources that commands attach to it (the IRC connection will be one).
//! Closing a session — `session.close`, idle expiry, the drop of the connection it is bound
//! to, or daemon shutdown — cancels its running calls and tears every resource down.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use futures::future::BoxFuture;
use paw_proto::{DEFAULT_SESSION, Event, SessionEvent, SessionInfo};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::clock::now_ms;

/// How long a session's teardown may take before it is abandoned (docs/protocol.md "Sessions": within 1 s).
pub const TEARDOWN_LIMIT: Duration = Duration::from_secs(1);
/// Events buffered per session for slow subscribers before they are told they lagged.
const EVENT_BUFFER: usize = 1024;

/// A per-session resource that must be torn down when its session closes.
pub trait SessionResource: Send + Sync + 'static {
    /// Tears the resource down (e.g. sends QUIT and closes the socket).
    fn close(self: Arc<Self>) -> BoxFuture<'static, ()>;

    /// A short state word for `session.list` (`resources`; the `irc` one is `irc_state`).
    fn state(&self) -> String {
        "attached".to_string()
    }

    /// Adds what is waiting in this resource to the session's `notices` (from memory:
    /// called on every outcome of the session).
    fn notices(&self, _out: &mut paw_proto::Notices) {}
}

/// The session is closed and takes no new resources.
#[derive(Debug, thiserror::Error)]
#[error("session {0} is closed")]
pub struct SessionClosed(pub String);

struct Attached {
    key: &'static str,
    resource: Arc<dyn SessionResource>,
    any: Arc<dyn Any + Send + Sync>,
}

/// One session.
pub struct Session {
    /// Its id (`default`, the name of a named session, or `s-<hex>`).
    pub id: String,
    /// Its name, when opened with one.
    pub name: Option<String>,
    /// Creation time (Unix ms).
    pub created_at_ms: u64,
    /// The connection it is bound to, if any.
    pub bound_conn: Option<usize>,
    last_used_ms: AtomicU64,
    /// Cancelled on close: every call running in the session and every task it owns
    /// use a child of this token.
    cancel: CancellationToken,
    /// Attached resources. A std mutex: it guards a short Vec and is never held across
    /// an `.await`; `closed` is only flipped while holding it so attach and close cannot race.
    resources: Mutex<(bool, Vec<Attached>)>,
    /// Made on the first subscribe: its buffer of [`EVENT_BUFFER`] slots is most of a
    /// session's memory, and events with no subscriber are dropped anyway.
    events: OnceLock<broadcast::Sender<SessionEvent>>,
    closed: AtomicBool,
}

impl Session {
    fn new(
        id: String,
        name: Option<String>,
        bound_conn: Option<usize>,
        parent: &CancellationToken,
    ) -> Self {
        let now = now_ms();
        Self {
            id,
            name,
            created_at_ms: now,
            bound_conn,
            last_used_ms: AtomicU64::new(now),
            cancel: parent.child_token(),
            resources: Mutex::new((false, Vec::new())),
            events: OnceLock::new(),
            closed: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (bool, Vec<Attached>)> {
        // A panic while holding this lock cannot leave the Vec inconsistent.
        self.resources.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the session as used now.
    pub fn touch(&self) {
        self.last_used_ms.store(now_ms(), Ordering::Relaxed);
    }

    /// When it last ran a call (Unix ms).
    pub fn last_used_ms(&self) -> u64 {
        self.last_used_ms.load(Ordering::Relaxed)
    }

    /// A token cancelled when the session closes.
    pub fn cancel_token(&self) -> &CancellationToken {
        &self.cancel
    }

    /// Whether the session has been closed.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// The resource under `key`, attaching the one `make` builds if there is none.
    pub fn attach<T: SessionResource>(
        &self,
        key: &'static str,
        make: impl FnOnce() -> Arc<T>,
    ) -> Result<Arc<T>, SessionClosed> {
        let mut guard = self.lock();
        let (closed, list) = &mut *guard;
        if *closed {
            return Err(SessionClosed(self.id.clone()));
        }
        if let Some(a) = list.iter().find(|a| a.key == key)
            && let Ok(t) = a.any.clone().downcast::<T>()
        {
            return Ok(t);
        }
        let made = make();
        list.retain(|a| a.key != key);
        list.push(Attached {
            key,
            resource: made.clone(),
            any: made.clone(),
        });
        Ok(made)
    }

    /// The resource under `key`, if attached and of type `T`.
    pub fn resource<T: SessionResource>(&self, key: &'static str) -> Option<Arc<T>> {
        let guard = self.lock();
        let a = guard.1.iter().find(|a| a.key == key)?;
        a.any.clone().downcast::<T>().ok()
    }

    /// What is waiting for this session, from its resources; `None` when nothing is.
    pub fn notices(&self) -> Option<paw_proto::Notices> {
        let resources: Vec<Arc<dyn SessionResource>> =
            self.lock().1.iter().map(|a| a.resource.clone()).collect();
        let mut n = paw_proto::Notices::default();
        for r in resources {
            r.notices(&mut n);
        }
        (!n.is_empty()).then_some(n)
    }

    /// Each attached resource's state word, by key.
    fn states(&self) -> std::collections::BTreeMap<String, String> {
        let guard = self.lock();
        guard
            .1
            .iter()
            .map(|a| (a.key.to_string(), a.resource.state()))
            .collect()
    }

    /// Sends an event to the session's subscribers (none listening is fine).
    pub fn emit(&self, event: Event) {
        let Some(events) = self.events.get() else {
            return;
        };
        let _ = events.send(SessionEvent {
            session_id: self.id.clone(),
            ts_ms: now_ms(),
            event,
        });
    }

    /// A receiver of the session's events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<SessionEvent> {
        self.events
            .get_or_init(|| broadcast::channel(EVENT_BUFFER).0)
            .subscribe()
    }

    /// Number of live subscribers (for tests and status).
    pub fn subscriber_count(&self) -> usize {
        self.events.get().map_or(0, |e| e.receiver_count())
    }

    /// Closes the session: cancels its calls and tears its resources down within
    /// [`TEARDOWN_LIMIT`]. Idempotent.
    async fn shutdown(&self) {
        let resources = {
            let mut guard = self.lock();
            if guard.0 {
                return;
            }
            guard.0 = true;
            self.closed.store(true, Ordering::Release);
            std::mem::take(&mut guard.1)
        };
        self.cancel.cancel();
        let closing = futures::future::join_all(resources.into_iter().map(|a| {
            let key = a.key;
            let fut = a.resource.close();
            async move { (key, fut.await) }
        }));
        if tokio::time::timeout(TEARDOWN_LIMIT, closing).await.is_err() {
            tracing::warn!(session = %self.id, "session teardown exceeded {:?}", TEARDOWN_LIMIT);
        }
        self.emit(Event::SessionClosed);
    }

    fn info(&self) -> SessionInfo {
        let resources = self.states();
        SessionInfo {
            session_id: self.id.clone(),
            name: self.name.clone(),
            created_at_ms: self.created_at_ms,
            last_used_ms: self.last_used_ms(),
            irc_state: SessionInfo::irc_state_of(&resources),
            bound: self.bound_conn.is_some(),
            resources,
            notices: self.notices(),
        }
    }
}

/// Why `session.open` created no session.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The name is not acceptable.
    #[error(transparent)]
    Name(#[from] InvalidSessionName),
    /// `session.max_sessions` are open.
    #[error("TooManySessions: {0} sessions are open (session.max_sessions); close one first")]
    TooMany(usize),
}

/// A session name that is not acceptable.
#[derive(Debug, thiserror::Error)]
#[error("invalid session name: {0} (1-64 characters of A-Z a-z 0-9 _ . -, not starting with .)")]
pub struct InvalidSessionName(pub String);

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Every live session. The map's std mutex is held only to look up, insert or remove.
pub struct Sessions {
    map: Mutex<HashMap<String, Arc<Session>>>,
    /// Parent of every session's token: cancelled at daemon shutdown.
    root: CancellationToken,
    /// `session.max_sessions`.
    max: usize,
}

impl Sessions {
    /// An empty set whose sessions are children of `root`, with no cap.
    pub fn new(root: CancellationToken) -> Self {
        Self::with_cap(root, usize::MAX)
    }

    /// An empty set that holds at most `max` sessions at once.
    pub fn with_cap(root: CancellationToken, max: usize) -> Self {
        Self {
            map: Mutex::new(HashMap::new()),
            root,
            max,
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The live session `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        self.map().get(id).cloned()
    }

    /// The session named `default`, created on first use.
    pub fn default_session(&self) -> Result<Arc<Session>, OpenError> {
        self.open_named(DEFAULT_SESSION, None)
    }

    fn open_named(&self, name: &str, bound_conn: Option<usize>) -> Result<Arc<Session>, OpenError> {
        let mut map = self.map();
        if let Some(s) = map.get(name) {
            return Ok(s.clone());
        }
        if map.len() >= self.max {
            return Err(OpenError::TooMany(self.max));
        }
        let s = Arc::new(Session::new(
            name.to_string(),
            Some(name.to_string()),
            bound_conn,
            &self.root,
        ));
        map.insert(name.to_string(), s.clone());
        Ok(s)
    }

    /// `session.open`: reuses the live session called `name`, or creates one.
    pub fn open(
        &self,
        name: Option<&str>,
        bound_conn: Option<usize>,
    ) -> Result<Arc<Session>, OpenError> {
        match name {
            Some(n) if !valid_name(n) => Err(OpenError::Name(InvalidSessionName(n.to_string()))),
            Some(n) => self.open_named(n, bound_conn),
            None => {
                let mut map = self.map();
                if map.len() >= self.max {
                    return Err(OpenError::TooMany(self.max));
                }
                let id = loop {
                    let id = format!("s-{:016x}", rand::random::<u64>());
                    if !map.contains_key(&id) {
                        break id;
                    }
                };
                let s = Arc::new(Session::new(id.clone(), None, bound_conn, &self.root));
                map.insert(id, s.clone());
                Ok(s)
            }
        }
    }

    /// `session.close`: removes the session and tears it down. False if it was not live.
    pub async fn close(&self, id: &str) -> bool {
        let removed = self.map().remove(id);
        match removed {
            Some(s) => {
                s.shutdown().await;
                true
            }
            None => false,
        }
    }

    async fn close_where(&self, pred: impl Fn(&Session) -> bool) -> usize {
        let victims: Vec<Arc<Session>> = {
            let mut map = self.map();
            let ids: Vec<String> = map
                .iter()
                .filter(|(_, s)| pred(s))
                .map(|(id, _)| id.clone())
                .collect();
            ids.iter().filter_map(|id| map.remove(id)).collect()
        };
        let n = victims.len();
        futures::future::join_all(victims.iter().map(|s| s.shutdown())).await;
        n
    }

    /// Closes the sessions bound to connection `conn`.
    pub async fn close_bound(&self, conn: usize) -> usize {
        self.close_where(|s| s.bound_conn == Some(conn)).await
    }

    /// Closes unbound sessions unused for `idle`.
    pub async fn close_idle(&self, idle: Duration) -> usize {
        let cutoff = now_ms().saturating_sub(idle.as_millis() as u64);
        self.close_where(|s| s.bound_conn.is_none() && s.last_used_ms() < cutoff)
            .await
    }

    /// Closes every session (daemon shutdown).
    pub async fn close_all(&self) -> usize {
        self.close_where(|_| true).await
    }

    /// Number of live sessions.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `session.list`, oldest first.
    pub fn list(&self) -> Vec<SessionInfo> {
        let sessions: Vec<Arc<Session>> = self.map().values().cloned().collect();
        let mut out: Vec<SessionInfo> = sessions.iter().map(|s| s.info()).collect();
        out.sort_by(|a, b| (a.created_at_ms, &a.session_id).cmp(&(b.created_at_ms, &b.session_id)));
        out
    }
}

#[cfg(test)]
mod tests;
