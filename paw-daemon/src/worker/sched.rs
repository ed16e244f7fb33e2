//! Who gets the next free worker (docs/reliability.md "Containment (workers)"): the pool's queue, kept apart from processes
//! and pipes so its rules can be tested alone.
//!
//! - **Lanes.** A job someone waits on is *small* (input under 256 KiB, a batch of feeds,
//!   a render) or *large*; a job nobody waits on is *background*. Small jobs take any free
//!   worker; large and background jobs together leave one worker for the small lane (when
//!   there are two or more), so a small job waits at most for one small job. Background
//!   jobs run only when no call waits, on one worker at a time.
//! - **Sessions.** Within a lane the next job is the one of the session with the fewest
//!   jobs running, then the one served longest ago, then the oldest: a session's jobs
//!   queue behind its own, not behind another session's.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A job's lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// A call waits on it, and it is small.
    Small,
    /// A call waits on it, and it is large.
    Large,
    /// No call waits on it (a background refresh).
    Background,
}

impl Lane {
    /// Every lane, in the order they are served.
    pub const ALL: [Lane; 3] = [Lane::Small, Lane::Large, Lane::Background];

    /// Its name in `daemon.status`.
    pub fn name(self) -> &'static str {
        match self {
            Lane::Small => "small",
            Lane::Large => "large",
            Lane::Background => "background",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A job waiting for a worker.
#[derive(Debug)]
struct Waiting {
    id: u64,
    session: Arc<str>,
    lane: Lane,
    since: Instant,
}

/// A job holding a worker.
#[derive(Debug)]
struct Running {
    id: u64,
    session: Arc<str>,
    lane: Lane,
}

/// One lane's figures for `daemon.status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LaneFigures {
    /// Jobs waiting for a worker.
    pub queued: usize,
    /// Jobs holding one.
    pub running: usize,
    /// How long the longest-waiting job has waited.
    pub longest_wait: Duration,
}

/// The queue: jobs waiting, jobs running, and when each session was last served.
#[derive(Debug, Default)]
pub struct Queue {
    waiting: Vec<Waiting>,
    running: Vec<Running>,
    /// Each session with a job waiting or running: the turn it was last served at.
    served: HashMap<Arc<str>, u64>,
    turn: u64,
    next_id: u64,
}

impl Queue {
    /// Adds a job; its id.
    pub fn push(&mut self, session: Arc<str>, lane: Lane, now: Instant) -> u64 {
        self.next_id += 1;
        self.served.entry(session.clone()).or_insert(0);
        self.waiting.push(Waiting {
            id: self.next_id,
            session,
            lane,
            since: now,
        });
        self.next_id
    }

    /// The job of the next worker, given `workers` alive: it moves from waiting to
    /// running. None when nothing waits or what waits may not run yet.
    pub fn pop(&mut self, workers: usize) -> Option<u64> {
        let not_small = self
            .running
            .iter()
            .filter(|r| r.lane != Lane::Small)
            .count();
        // Large and background jobs leave one worker to the small lane.
        let room = not_small < workers.saturating_sub(1).max(1);
        let calls_wait = self.waiting.iter().any(|w| w.lane != Lane::Background);
        let background_runs = self.running.iter().any(|r| r.lane == Lane::Background);
        let lane = Lane::ALL.into_iter().find(|&lane| {
            self.waiting.iter().any(|w| w.lane == lane)
                && match lane {
                    Lane::Small => true,
                    Lane::Large => room,
                    Lane::Background => room && !calls_wait && !background_runs,
                }
        })?;
        let running_of = |s: &str| self.running.iter().filter(|r| &*r.session == s).count();
        let (at, _) = self
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| w.lane == lane)
            .min_by_key(|(_, w)| {
                let served = self.served.get(&w.session).copied().unwrap_or(0);
                (running_of(&w.session), served, w.id)
            })?;
        let w = self.waiting.remove(at);
        self.turn += 1;
        self.served.insert(w.session.clone(), self.turn);
        self.running.push(Running {
            id: w.id,
            session: w.session,
            lane: w.lane,
        });
        Some(w.id)
    }

    /// A job left the queue or its worker (answered, failed, or its call ended).
    pub fn remove(&mut self, id: u64) {
        self.waiting.retain(|w| w.id != id);
        self.running.retain(|r| r.id != id);
        let (waiting, running) = (&self.waiting, &self.running);
        self.served.retain(|s, _| {
            waiting.iter().any(|w| &w.session == s) || running.iter().any(|r| &r.session == s)
        });
    }

    /// Whether the job still waits.
    pub fn is_waiting(&self, id: u64) -> bool {
        self.waiting.iter().any(|w| w.id == id)
    }

    /// Whether a call waits (a background job does not count).
    pub fn calls_wait(&self) -> bool {
        self.waiting.iter().any(|w| w.lane != Lane::Background)
    }

    /// A lane's figures now.
    pub fn figures(&self, lane: Lane, now: Instant) -> LaneFigures {
        let waiting = self.waiting.iter().filter(|w| w.lane == lane);
        LaneFigures {
            queued: waiting.clone().count(),
            running: self.running.iter().filter(|r| r.lane == lane).count(),
            longest_wait: waiting
                .map(|w| now.saturating_duration_since(w.since))
                .max()
                .unwrap_or_default(),
        }
    }

    /// The lane's index, for per-lane counters.
    pub fn slot(lane: Lane) -> usize {
        lane.index()
    }
}

#[cfg(test)]
mod tests;
