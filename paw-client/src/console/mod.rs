//! `paw-client console`: a full-screen view of the daemon's sessions, their calls and the
//! feeds, over the socket only (ratatui + crossterm).
//!
//! One connection carries everything: `session.list` every second (and after events that
//! change it), `session.subscribe` for each session seen, `audit.query` for a session's
//! past calls, `audit.get` for one call's record, `terminal.cancel`, and `rss` commands run
//! in the console's own session `console`. Events update the model as they come; the screen
//! is redrawn at most every 33 ms.

pub mod model;
mod net;
mod ui;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use model::{Model, Pane};
use net::Rpc;

/// What came back from the daemon.
enum Msg {
    Sessions(Value),
    Recent(Value),
    History(String, Value),
    Record(String, Value),
    Feeds(Value),
    News(Value),
    Saved(Value),
    Article(String, Value),
    Status(String),
    Workers(Value),
}

/// A text being read: a call's record or an article.
pub struct Reader {
    /// Its title line.
    pub title: String,
    /// Its lines.
    pub lines: Vec<String>,
    /// The first line shown.
    pub scroll: usize,
    /// The article's link, when it is one.
    pub link: Option<String>,
    /// The call's stdout, when it is a call (what `y` copies).
    pub copy: Option<String>,
}

/// The console's whole state.
pub struct App {
    /// Sessions and calls.
    pub model: Model,
    /// The pane with the keyboard.
    pub pane: Pane,
    /// The selected session (index into `model.sessions`).
    pub sel_session: usize,
    /// The selected call.
    pub sel_call: usize,
    /// Subscriptions (`rss list` items).
    pub feeds: Vec<Value>,
    /// The digest (`rss news` items).
    pub news: Vec<Value>,
    /// Saved items (`rss saved` items).
    pub saved: Vec<Value>,
    /// The selected digest item.
    pub sel_news: usize,
    /// What is being read, if anything.
    pub reader: Option<Reader>,
    /// `/` typed so far, while searching.
    pub search: Option<String>,
    /// The last search.
    pub last_search: String,
    /// A run waiting for `y` to be cancelled.
    pub confirm_cancel: Option<String>,
    /// The help overlay.
    pub help: bool,
    /// The status line.
    pub status: String,
    /// Whether the connection is up.
    pub connected: bool,
    /// The worker pool's lanes, from `daemon.status` (refreshed with the session list).
    pub workers: String,
    /// The socket.
    pub socket: PathBuf,
    /// An open article whose full text is pending: read again, waiting for it.
    pub pending_article: Option<String>,
}

impl App {
    fn selected_session(&self) -> Option<String> {
        self.model
            .sessions
            .get(self.sel_session)
            .map(|s| s.id.clone())
    }

    fn selected_call(&self) -> Option<model::Call> {
        let s = self.selected_session()?;
        self.model.calls.get(&s)?.get(self.sel_call).cloned()
    }
}

/// Runs the console until `q`. `exit_after_first_frame` (for the benchmark) returns once
/// the first frame with the sessions and the selected session's calls is drawn.
pub fn run(socket: &Path, exit_after_first_frame: bool) -> Result<u8, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut terminal = ratatui::init();
    let result = rt.block_on(main_loop(&mut terminal, socket, exit_after_first_frame));
    ratatui::restore();
    result.map(|()| 0)
}

async fn main_loop(
    terminal: &mut ratatui::DefaultTerminal,
    socket: &Path,
    exit_after_first_frame: bool,
) -> Result<(), String> {
    let (key_tx, mut keys) = mpsc::unbounded_channel::<KeyEvent>();
    std::thread::spawn(move || {
        loop {
            match event::read() {
                Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => {
                    if key_tx.send(k).is_err() {
                        return;
                    }
                }
                Ok(_) => {
                    // A resize: an empty key asks for a redraw.
                    if key_tx
                        .send(KeyEvent::new(KeyCode::Null, KeyModifiers::NONE))
                        .is_err()
                    {
                        return;
                    }
                }
                Err(_) => return,
            }
        }
    });
    let (msg_tx, mut msgs) = mpsc::unbounded_channel::<Msg>();
    let mut app = App {
        model: Model::default(),
        pane: Pane::Sessions,
        sel_session: 0,
        sel_call: 0,
        feeds: Vec::new(),
        news: Vec::new(),
        saved: Vec::new(),
        sel_news: 0,
        reader: None,
        search: None,
        last_search: String::new(),
        confirm_cancel: None,
        help: false,
        status: String::new(),
        connected: false,
        workers: String::new(),
        socket: socket.to_path_buf(),
        pending_article: None,
    };
    let mut conn: Option<Rpc> = None;
    let mut events: Option<mpsc::UnboundedReceiver<Value>> = None;
    let mut closed: Option<oneshot::Receiver<()>> = None;
    let mut subscribed = std::collections::HashSet::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut list_due = true;
    let mut listed_at = Instant::now() - Duration::from_secs(1);
    let mut drawn_at = Instant::now() - Duration::from_secs(1);
    let mut dirty = true;
    let mut first_full = false;
    loop {
        if conn.is_none() {
            let (ev_tx, ev_rx) = mpsc::unbounded_channel();
            let (c_tx, c_rx) = oneshot::channel();
            match Rpc::connect(socket, ev_tx, c_tx).await {
                Ok(rpc) => {
                    // Every session's recent calls, for the sessions pane's last call.
                    let (recent, tx) = (rpc.clone(), msg_tx.clone());
                    tokio::spawn(async move {
                        if let Ok(v) = recent.call("audit.query", json!({"limit": 500})).await {
                            let _ = tx.send(Msg::Recent(v));
                        }
                    });
                    (conn, events, closed) = (Some(rpc), Some(ev_rx), Some(c_rx));
                    app.connected = true;
                    app.status = "connected".into();
                    subscribed.clear();
                    list_due = true;
                }
                Err(e) => {
                    app.connected = false;
                    app.status = format!("no daemon on {}: {e}; trying again", socket.display());
                }
            }
            dirty = true;
        }
        // Listed at most twice a second however many events ask for it.
        if let Some(rpc) = &conn
            && list_due
            && listed_at.elapsed() >= Duration::from_millis(500)
        {
            list_due = false;
            listed_at = Instant::now();
            let (rpc, tx) = (rpc.clone(), msg_tx.clone());
            tokio::spawn(async move {
                if let Ok(v) = rpc.call("session.list", json!({})).await {
                    let _ = tx.send(Msg::Sessions(v));
                }
                if let Ok(v) = rpc.call("daemon.status", json!({})).await {
                    let _ = tx.send(Msg::Workers(v));
                }
            });
        }
        if dirty && drawn_at.elapsed() >= Duration::from_millis(33) {
            terminal
                .draw(|f| ui::draw(f, &app))
                .map_err(|e| e.to_string())?;
            drawn_at = Instant::now();
            dirty = false;
            if exit_after_first_frame && first_full {
                return Ok(());
            }
        }
        let wait = if dirty {
            Duration::from_millis(33).saturating_sub(drawn_at.elapsed())
        } else if list_due {
            Duration::from_millis(500).saturating_sub(listed_at.elapsed())
        } else {
            Duration::from_secs(3600)
        };
        let rpc = conn.clone();
        tokio::select! {
            Some(k) = keys.recv() => {
                dirty = true;
                if !on_key(&mut app, k, rpc.as_ref(), &msg_tx) {
                    return Ok(());
                }
            }
            Some(m) = msgs.recv() => {
                dirty = true;
                if let Msg::Sessions(_) = &m {
                    first_full |= app.model.sessions.is_empty();
                }
                let before = app.selected_session();
                on_msg(&mut app, m);
                if let Some(rpc) = &rpc {
                    for s in &app.model.sessions {
                        if subscribed.insert(s.id.clone()) {
                            let rpc = rpc.clone();
                            let id = s.id.clone();
                            tokio::spawn(async move {
                                let _ = rpc.call("session.subscribe", json!({"session_id": id})).await;
                            });
                        }
                    }
                    if let Some(link) = app.pending_article.take() {
                        read_article(rpc, &msg_tx, &link, false, 3000);
                    }
                    if app.selected_session() != before || app.selected_session().is_some_and(|s| !app.model.history.contains_key(&s)) {
                        load_history(&app, rpc, &msg_tx);
                    }
                }
                if exit_after_first_frame {
                    // The first full frame: sessions listed and the first one's calls in.
                    first_full = app.selected_session().is_some_and(|s| app.model.history.contains_key(&s));
                }
            }
            Some(ev) = async { match events.as_mut() { Some(e) => e.recv().await, None => std::future::pending().await } } => {
                dirty = true;
                list_due |= app.model.apply_event(&ev);
            }
            _ = async { match closed.as_mut() { Some(c) => { let _ = c.await; } None => std::future::pending().await } } => {
                (conn, events, closed) = (None, None, None);
                app.connected = false;
                app.status = "the daemon went away; reconnecting".into();
                dirty = true;
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            _ = tick.tick() => { list_due = true; dirty = true; }
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

fn load_history(app: &App, rpc: &Rpc, tx: &mpsc::UnboundedSender<Msg>) {
    let Some(session) = app.selected_session() else {
        return;
    };
    let mut params = json!({"session_id": session, "limit": 50});
    match app.model.history.get(&session) {
        None => {}
        Some(Some(before)) => params["before"] = before.clone().into(),
        Some(None) => return, // all of it is here
    }
    let (rpc, tx) = (rpc.clone(), tx.clone());
    tokio::spawn(async move {
        if let Ok(v) = rpc.call("audit.query", params).await {
            let _ = tx.send(Msg::History(session, v));
        }
    });
}

/// Runs `command` in the console's own session and sends what `wrap` makes of the outcome.
fn exec(
    rpc: &Rpc,
    tx: &mpsc::UnboundedSender<Msg>,
    command: String,
    wrap: impl FnOnce(Value) -> Msg + Send + 'static,
) {
    let (rpc, tx) = (rpc.clone(), tx.clone());
    tokio::spawn(async move {
        let _ = rpc.call("session.open", json!({"name": "console"})).await;
        match rpc
            .call(
                "terminal.exec",
                json!({"command": command, "session_id": "console", "timeout_ms": 60000}),
            )
            .await
        {
            Ok(o) => {
                let _ = tx.send(wrap(o));
            }
            Err(e) => {
                let _ = tx.send(Msg::Status(format!("{command}: {e}")));
            }
        }
    });
}

fn load_feeds(rpc: &Rpc, tx: &mpsc::UnboundedSender<Msg>) {
    exec(rpc, tx, "rss list".into(), Msg::Feeds);
    exec(rpc, tx, "rss news --limit 30".into(), Msg::News);
    exec(rpc, tx, "rss saved --limit 30".into(), Msg::Saved);
}

/// Reads `link` (`fulltext`: asks for the full text), waiting up to `wait_ms` for it.
fn read_article(
    rpc: &Rpc,
    tx: &mpsc::UnboundedSender<Msg>,
    link: &str,
    fulltext: bool,
    wait_ms: u64,
) {
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let cmd = format!(
        "rss read --link {}{} --wait {wait_ms}",
        q(link),
        if fulltext { " --fulltext" } else { "" }
    );
    let link = link.to_string();
    exec(rpc, tx, cmd, move |o| Msg::Article(link, o));
}

fn on_msg(app: &mut App, m: Msg) {
    match m {
        Msg::Sessions(v) => {
            let keep = app.selected_session();
            app.model.set_sessions(&v);
            if let Some(k) = keep
                && let Some(i) = app.model.sessions.iter().position(|s| s.id == k)
            {
                app.sel_session = i;
            }
            app.sel_session = app
                .sel_session
                .min(app.model.sessions.len().saturating_sub(1));
        }
        Msg::Recent(v) => app.model.seed(&v),
        Msg::History(s, v) => app.model.add_history(&s, &v),
        Msg::Record(run, v) => {
            if v.is_null() {
                app.status = format!("{run}: no record yet (try again in a moment)");
                return;
            }
            app.reader = Some(Reader {
                title: format!("call {run}"),
                lines: model::record_lines(&v),
                scroll: 0,
                link: None,
                copy: v["stdout"].as_str().map(str::to_string),
            });
        }
        Msg::Feeds(o) => {
            app.feeds = o["result"]["items"].as_array().cloned().unwrap_or_default();
        }
        Msg::Saved(o) => {
            app.saved = o["result"]["items"].as_array().cloned().unwrap_or_default();
        }
        Msg::News(o) => {
            app.news = o["result"]["items"].as_array().cloned().unwrap_or_default();
            app.sel_news = app.sel_news.min(app.news.len().saturating_sub(1));
        }
        Msg::Article(link, o) => {
            // Only the article still open takes it.
            if app.reader.as_ref().and_then(|r| r.link.as_deref()) != Some(link.as_str()) {
                return;
            }
            let r = &o["result"];
            if o["exit_code"] != 0 {
                app.status = format!("rss read: {}", o["error_message"].as_str().unwrap_or(""));
                return;
            }
            let st = r["fulltext_status"]
                .as_str()
                .unwrap_or("disabled")
                .to_string();
            let (text, what) = match r["content_full_text"].as_str() {
                Some(t) if st == "ready" => (t, "full text"),
                _ => (r["content_text"].as_str().unwrap_or(""), "feed text"),
            };
            let mut lines = vec![
                r["title"].as_str().unwrap_or("(untitled)").to_string(),
                link.clone(),
                format!(
                    "{what} — full text: {st}{}",
                    if st == "disabled" {
                        " (f fetches it)"
                    } else {
                        ""
                    }
                ),
                String::new(),
            ];
            lines.extend(text.lines().map(str::to_string));
            if let Some(reader) = app.reader.as_mut() {
                reader.lines = lines;
                reader.title = format!("article ({what})");
            }
            if st == "pending" {
                app.status = "full text pending…".into();
                app.pending_article = Some(link);
            } else if st == "ready" {
                app.status = "full text ready".into();
            }
        }
        Msg::Status(s) => app.status = s,
        Msg::Workers(v) => {
            if let Ok(s) = serde_json::from_value::<paw_proto::DaemonStatus>(v) {
                app.workers = model::workers_line(&s.workers);
            }
        }
    }
}

/// Handles a key; returns `false` to quit.
fn on_key(app: &mut App, k: KeyEvent, rpc: Option<&Rpc>, tx: &mpsc::UnboundedSender<Msg>) -> bool {
    if k.code == KeyCode::Null {
        return true;
    }
    if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
        return false;
    }
    // Typing a search.
    if let Some(s) = app.search.as_mut() {
        match k.code {
            KeyCode::Enter => {
                app.last_search = app.search.take().unwrap_or_default();
                jump_to_match(app, 0);
            }
            KeyCode::Esc => app.search = None,
            KeyCode::Backspace => {
                s.pop();
            }
            KeyCode::Char(ch) => s.push(ch),
            _ => {}
        }
        return true;
    }
    if let Some(run) = app.confirm_cancel.take() {
        if k.code == KeyCode::Char('y') {
            if let Some(rpc) = rpc {
                let (rpc, tx) = (rpc.clone(), tx.clone());
                tokio::spawn(async move {
                    let r = rpc.call("terminal.cancel", json!({"run_id": run})).await;
                    let said = match r {
                        Ok(v) if v["cancelled"] == true => format!("cancelled {run}"),
                        Ok(_) => format!("{run} had already finished"),
                        Err(e) => format!("cancel failed: {e}"),
                    };
                    let _ = tx.send(Msg::Status(said));
                });
            }
        } else {
            app.status = "not cancelled".into();
        }
        return true;
    }
    if app.help {
        app.help = false;
        return k.code != KeyCode::Char('q');
    }
    if let Some(r) = app.reader.as_mut() {
        let page = 10;
        match k.code {
            KeyCode::Esc | KeyCode::Backspace => app.reader = None,
            KeyCode::Char('q') => return false,
            KeyCode::Down | KeyCode::Char('j') => {
                r.scroll = (r.scroll + 1).min(r.lines.len().saturating_sub(1))
            }
            KeyCode::Up | KeyCode::Char('k') => r.scroll = r.scroll.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => {
                r.scroll = (r.scroll + page).min(r.lines.len().saturating_sub(1))
            }
            KeyCode::PageUp => r.scroll = r.scroll.saturating_sub(page),
            KeyCode::Char('g') => r.scroll = 0,
            KeyCode::Char('/') => app.search = Some(String::new()),
            KeyCode::Char('n') => jump_to_match(app, 1),
            KeyCode::Char('y') => copy(app),
            KeyCode::Char('f') => {
                if let (Some(rpc), Some(link)) = (rpc, r.link.clone()) {
                    app.status = "fetching the full text…".into();
                    read_article(rpc, tx, &link, true, 3000);
                }
            }
            KeyCode::Char('?') => app.help = true,
            _ => {}
        }
        return true;
    }
    match k.code {
        KeyCode::Char('q') => return false,
        KeyCode::Char('?') => app.help = true,
        KeyCode::Tab | KeyCode::Char('l') | KeyCode::Right => switch_pane(app, true, rpc, tx),
        KeyCode::BackTab | KeyCode::Char('h') | KeyCode::Left => {
            switch_pane(app, false, rpc, tx);
        }
        KeyCode::Down | KeyCode::Char('j') => move_sel(app, 1, rpc, tx),
        KeyCode::Up | KeyCode::Char('k') => move_sel(app, -1, rpc, tx),
        KeyCode::Char('r') => {
            if let Some(rpc) = rpc {
                load_feeds(rpc, tx);
            }
        }
        KeyCode::Enter => match app.pane {
            Pane::Sessions => {
                app.pane = Pane::Calls;
                app.sel_call = 0;
            }
            Pane::Calls => {
                if let (Some(rpc), Some(c)) = (rpc, app.selected_call()) {
                    if c.exit_code.is_none() {
                        app.status =
                            "still running: its output opens when it finishes (c cancels it)"
                                .into();
                    } else {
                        let (rpc, tx, run) = (rpc.clone(), tx.clone(), c.run_id.clone());
                        tokio::spawn(async move {
                            match rpc.call("audit.get", json!({"run_id": run})).await {
                                Ok(v) => {
                                    let _ = tx.send(Msg::Record(run, v["record"].clone()));
                                }
                                Err(e) => {
                                    let _ = tx.send(Msg::Status(format!("audit.get: {e}")));
                                }
                            }
                        });
                    }
                }
            }
            Pane::Feeds => {
                if let (Some(rpc), Some(item)) = (rpc, app.news.get(app.sel_news)) {
                    let link = item["link"].as_str().unwrap_or("").to_string();
                    if link.is_empty() {
                        app.status = "this item has no link to read".into();
                    } else {
                        app.reader = Some(Reader {
                            title: "article".into(),
                            lines: vec![format!("opening {link}…")],
                            scroll: 0,
                            link: Some(link.clone()),
                            copy: None,
                        });
                        read_article(rpc, tx, &link, false, 0);
                    }
                }
            }
        },
        KeyCode::Char('c') => match app.selected_call() {
            Some(c) if app.pane == Pane::Calls && c.exit_code.is_none() => {
                app.status = format!(
                    "cancel {} ({})? y cancels, any other key keeps it",
                    c.command, c.run_id
                );
                app.confirm_cancel = Some(c.run_id);
            }
            _ => app.status = "select a running call in the calls pane to cancel it".into(),
        },
        _ => {}
    }
    true
}

/// The next (`forward`) or previous pane; the feeds are loaded the first time they show.
fn switch_pane(app: &mut App, forward: bool, rpc: Option<&Rpc>, tx: &mpsc::UnboundedSender<Msg>) {
    let order = [Pane::Sessions, Pane::Calls, Pane::Feeds];
    let at = order.iter().position(|p| *p == app.pane).unwrap_or(0);
    app.pane = order[(at + if forward { 1 } else { 2 }) % 3];
    if app.pane == Pane::Feeds
        && app.feeds.is_empty()
        && let Some(rpc) = rpc
    {
        load_feeds(rpc, tx);
    }
}

fn move_sel(app: &mut App, by: isize, rpc: Option<&Rpc>, tx: &mpsc::UnboundedSender<Msg>) {
    let step = |v: usize, len: usize| -> usize {
        if len == 0 {
            0
        } else {
            (v as isize + by).clamp(0, len as isize - 1) as usize
        }
    };
    match app.pane {
        Pane::Sessions => {
            app.sel_session = step(app.sel_session, app.model.sessions.len());
            app.sel_call = 0;
            if let Some(rpc) = rpc
                && app
                    .selected_session()
                    .is_some_and(|s| !app.model.history.contains_key(&s))
            {
                load_history(app, rpc, tx);
            }
        }
        Pane::Calls => {
            let len = app
                .selected_session()
                .and_then(|s| app.model.calls.get(&s).map(Vec::len))
                .unwrap_or(0);
            app.sel_call = step(app.sel_call, len);
            // At the end of what is here: the next older page.
            if let Some(rpc) = rpc
                && by > 0
                && app.sel_call + 1 >= len
            {
                load_history(app, rpc, tx);
            }
        }
        Pane::Feeds => app.sel_news = step(app.sel_news, app.news.len()),
    }
}

fn jump_to_match(app: &mut App, skip: usize) {
    let Some(r) = app.reader.as_mut() else { return };
    match model::find(&r.lines, &app.last_search, r.scroll + skip) {
        Some(i) => {
            r.scroll = i;
            app.status = format!("/{}: line {}", app.last_search, i + 1);
        }
        None => app.status = format!("/{}: not found", app.last_search),
    }
}

/// `y`: the call's stdout (or the article's text) to the clipboard with OSC 52.
fn copy(app: &mut App) {
    use base64::Engine as _;
    use std::io::Write as _;
    let Some(r) = app.reader.as_ref() else { return };
    let text = r.copy.clone().unwrap_or_else(|| r.lines.join("\n"));
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut out = std::io::stdout();
    let sent = write!(out, "\x1b]52;c;{b64}\x07").and_then(|()| out.flush());
    app.status = match sent {
        Ok(()) => format!(
            "copied {} bytes with OSC 52 — a terminal that refuses OSC 52 drops it silently; then select the text with the mouse (tmux: set -g set-clipboard on)",
            text.len()
        ),
        Err(e) => format!("could not copy: {e}"),
    };
}
