//! The console's state and what each pane shows of it: pure, tested without a terminal.

use std::collections::HashMap;

use serde_json::Value;

/// The panes, in `tab` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// Open sessions.
    Sessions,
    /// The selected session's calls.
    Calls,
    /// Subscriptions and the digest.
    Feeds,
}

/// One call in a session's trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The run.
    pub run_id: String,
    /// The command line (from the journal) or the argv joined (from `run.started`).
    pub command: String,
    /// When it started (Unix ms).
    pub started_ms: u64,
    /// Its exit code, once finished.
    pub exit_code: Option<i32>,
    /// Its wall time, once finished.
    pub duration_ms: Option<u64>,
    /// Its error code, on failure.
    pub error_code: Option<String>,
    /// `(done, total, note)` of its last progress event while it runs.
    pub progress: Option<(u64, u64, String)>,
}

/// One open session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionRow {
    /// Its id.
    pub id: String,
    /// Its IRC state word (`not_initialized` when it has none).
    pub irc_state: String,
    /// Unread IRC messages (all channels).
    pub unread: u64,
    /// Digest items it was not given yet.
    pub new_items: u64,
    /// When it last ran a call (Unix ms).
    pub last_used_ms: u64,
}

/// The light of an IRC state, as the daemon's `indicator` has it: green joined, yellow on
/// the way, red otherwise; with a letter so no colour is needed.
pub fn light(irc_state: &str) -> (&'static str, char) {
    match irc_state {
        "joined" => ("green", 'G'),
        "connecting" | "reconnecting" | "connected" => ("yellow", 'Y'),
        _ => ("red", 'R'),
    }
}

/// A call's status column: `run` (with progress), `ok`, or its exit code and error code.
pub fn status(c: &Call) -> String {
    match (c.exit_code, &c.progress) {
        (None, Some((d, t, _))) => format!("run {d}/{t}"),
        (None, None) => "run".into(),
        (Some(0), _) => "ok".into(),
        (Some(code), _) => match &c.error_code {
            Some(e) => format!("{code} {e}"),
            None => code.to_string(),
        },
    }
}

/// How long ago `ms` was, at `now`, in one short word.
pub fn ago(ms: u64, now: u64) -> String {
    let s = now.saturating_sub(ms) / 1000;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m", s / 60),
        3600..=86399 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86400),
    }
}

/// Everything the console shows.
#[derive(Debug, Default)]
pub struct Model {
    /// Sessions, in `session.list` order.
    pub sessions: Vec<SessionRow>,
    /// Each session's trail, newest first.
    pub calls: HashMap<String, Vec<Call>>,
    /// Sessions whose past calls were asked for, with the cursor of the next older page.
    pub history: HashMap<String, Option<String>>,
}

impl Model {
    /// Takes a `session.list` answer.
    pub fn set_sessions(&mut self, list: &Value) {
        let Some(list) = list.as_array() else { return };
        self.sessions = list
            .iter()
            .map(|s| {
                let unread = s["notices"]["irc"]["unread"]
                    .as_object()
                    .map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
                SessionRow {
                    id: s["session_id"].as_str().unwrap_or("?").to_string(),
                    irc_state: s["irc_state"].as_str().unwrap_or("").to_string(),
                    unread,
                    new_items: s["notices"]["rss"]["new"].as_u64().unwrap_or(0),
                    last_used_ms: s["last_used_ms"].as_u64().unwrap_or(0),
                }
            })
            .collect();
        let live: std::collections::HashSet<&str> =
            self.sessions.iter().map(|s| s.id.as_str()).collect();
        self.calls.retain(|k, _| live.contains(k.as_str()));
        self.history.retain(|k, _| live.contains(k.as_str()));
    }

    /// Takes an `audit.query` page of `session`'s past calls (older than what it has).
    pub fn add_history(&mut self, session: &str, page: &Value) {
        self.seed(page);
        self.calls.entry(session.to_string()).or_default();
        self.history.insert(
            session.to_string(),
            page["next_before"].as_str().map(str::to_string),
        );
    }

    /// Takes the calls of an `audit.query` page of any sessions into their trails (the
    /// recent calls of every session, before each one's own history is asked for).
    pub fn seed(&mut self, page: &Value) {
        for c in page["calls"].as_array().into_iter().flatten() {
            let session = c["session_id"].as_str().unwrap_or("").to_string();
            let trail = self.calls.entry(session).or_default();
            let run_id = c["run_id"].as_str().unwrap_or("").to_string();
            if trail.iter().any(|t| t.run_id == run_id) {
                continue;
            }
            trail.push(Call {
                run_id,
                command: c["command"].as_str().unwrap_or("").to_string(),
                started_ms: c["timestamp_ms"].as_u64().unwrap_or(0),
                exit_code: c["exit_code"].as_i64().map(|x| x as i32),
                duration_ms: c["duration_ms"].as_u64(),
                error_code: c["error_code"].as_str().map(str::to_string),
                progress: None,
            });
        }
        for trail in self.calls.values_mut() {
            trail.sort_by_key(|c| std::cmp::Reverse(c.started_ms));
        }
    }

    /// Takes one session event; returns whether the sessions should be listed again.
    pub fn apply_event(&mut self, ev: &Value) -> bool {
        let session = ev["session_id"].as_str().unwrap_or("").to_string();
        let ts = ev["ts_ms"].as_u64().unwrap_or(0);
        let run_id = ev["run_id"].as_str().unwrap_or("").to_string();
        match ev["kind"].as_str().unwrap_or("") {
            "run.started" => {
                let command = ev["argv"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default();
                let trail = self.calls.entry(session.clone()).or_default();
                if !trail.iter().any(|c| c.run_id == run_id) {
                    trail.insert(
                        0,
                        Call {
                            run_id,
                            command,
                            started_ms: ts,
                            exit_code: None,
                            duration_ms: None,
                            error_code: None,
                            progress: None,
                        },
                    );
                }
                if let Some(s) = self.sessions.iter_mut().find(|s| s.id == session) {
                    s.last_used_ms = ts;
                }
                false
            }
            "run.progress" => {
                if let Some(c) = self.call_mut(&session, &run_id) {
                    c.progress = Some((
                        ev["done"].as_u64().unwrap_or(0),
                        ev["total"].as_u64().unwrap_or(0),
                        ev["note"].as_str().unwrap_or("").to_string(),
                    ));
                }
                false
            }
            "run.finished" => {
                if let Some(c) = self.call_mut(&session, &run_id) {
                    c.exit_code = ev["exit_code"].as_i64().map(|x| x as i32);
                    c.error_code = ev["error_code"].as_str().map(str::to_string);
                    c.duration_ms = Some(ts.saturating_sub(c.started_ms));
                    c.progress = None;
                }
                // Its notices (unread counts) may have changed.
                true
            }
            "irc.state" => {
                if let Some(s) = self.sessions.iter_mut().find(|s| s.id == session) {
                    s.irc_state = ev["state"].as_str().unwrap_or("").to_string();
                }
                false
            }
            "irc.inbound" | "session.closed" => true,
            _ => false,
        }
    }

    fn call_mut(&mut self, session: &str, run_id: &str) -> Option<&mut Call> {
        self.calls
            .get_mut(session)?
            .iter_mut()
            .find(|c| c.run_id == run_id)
    }

    /// The sessions pane's rows: light letter, id, IRC state, unread, new items, last call.
    pub fn session_rows(&self, now: u64) -> Vec<(String, [String; 5])> {
        self.sessions
            .iter()
            .map(|s| {
                let (colour, letter) = light(&s.irc_state);
                let last = self
                    .calls
                    .get(&s.id)
                    .and_then(|t| t.first())
                    .map(|c| format!("{} ({})", c.command, ago(c.started_ms, now)))
                    .unwrap_or_else(|| {
                        if s.last_used_ms > 0 {
                            format!("({})", ago(s.last_used_ms, now))
                        } else {
                            "-".into()
                        }
                    });
                (
                    colour.to_string(),
                    [
                        format!("[{letter}]"),
                        s.id.clone(),
                        s.irc_state.clone(),
                        format!("{} unread {} new", s.unread, s.new_items),
                        last,
                    ],
                )
            })
            .collect()
    }

    /// The calls pane's rows for `session`: status, duration, command, run id.
    pub fn call_rows(&self, session: &str) -> Vec<[String; 4]> {
        self.calls
            .get(session)
            .map(|t| {
                t.iter()
                    .map(|c| {
                        let note = match (&c.progress, c.exit_code) {
                            (Some((_, _, n)), None) if !n.is_empty() => format!("  ({n})"),
                            _ => String::new(),
                        };
                        [
                            status(c),
                            c.duration_ms.map_or("…".into(), |d| format!("{d}ms")),
                            format!("{}{note}", c.command),
                            c.run_id.clone(),
                        ]
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A run's record (`audit.get`) as lines to read: command, exit, stdout, stderr, result,
/// artifacts.
pub fn record_lines(r: &Value) -> Vec<String> {
    let mut out = vec![
        format!("$ {}", r["command"].as_str().unwrap_or("")),
        format!(
            "exit {}  {} ms  {}{}",
            r["exit_code"],
            r["duration_ms"],
            r["error_code"].as_str().unwrap_or(""),
            r["error_message"]
                .as_str()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        ),
        "── stdout".into(),
    ];
    out.extend(
        r["stdout"]
            .as_str()
            .unwrap_or("")
            .lines()
            .map(str::to_string),
    );
    out.push("── stderr".into());
    out.extend(
        r["stderr"]
            .as_str()
            .unwrap_or("")
            .lines()
            .map(str::to_string),
    );
    out.push("── result".into());
    out.extend(
        serde_json::to_string_pretty(&r["result"])
            .unwrap_or_default()
            .lines()
            .map(str::to_string),
    );
    out.push("── artifacts".into());
    for a in r["artifacts"].as_array().into_iter().flatten() {
        out.push(format!(
            "{}  {}  {}",
            a["path"].as_str().unwrap_or(""),
            a["mime"].as_str().unwrap_or(""),
            a["description"].as_str().unwrap_or("")
        ));
    }
    out
}

/// The first line at or after `from` (wrapping) that contains `needle`, any case.
pub fn find(lines: &[String], needle: &str, from: usize) -> Option<usize> {
    let needle = needle.to_lowercase();
    if needle.is_empty() || lines.is_empty() {
        return None;
    }
    (0..lines.len())
        .map(|i| (from + i) % lines.len())
        .find(|&i| lines[i].to_lowercase().contains(&needle))
}

/// The worker pool in one line, as `paw-client status` and the console show it: how many
/// workers of the most allowed, then per lane the jobs queued and running, the longest
/// wait and the jobs stopped by a budget.
pub fn workers_line(w: &paw_proto::WorkerStatus) -> String {
    let mut line = format!("{}/{} workers", w.alive, w.max);
    for l in &w.lanes {
        line.push_str(&format!(
            " · {} {} queued, {} running",
            l.lane, l.queued, l.running
        ));
        if l.queued > 0 {
            line.push_str(&format!(", longest wait {} ms", l.longest_wait_ms));
        }
        if l.over_budget > 0 {
            line.push_str(&format!(", {} over budget", l.over_budget));
        }
    }
    line
}

#[cfg(test)]
mod tests;
