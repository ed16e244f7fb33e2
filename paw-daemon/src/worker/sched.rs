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
mod tests {
    use super::*;

    fn s(name: &str) -> Arc<str> {
        Arc::from(name)
    }

    #[test]
    fn a_session_with_many_jobs_waits_behind_its_own_not_another_sessions() {
        let now = Instant::now();
        let mut q = Queue::default();
        let a: Vec<u64> = (0..4).map(|_| q.push(s("a"), Lane::Large, now)).collect();
        let b = q.push(s("b"), Lane::Large, now);
        // Four workers: one stays for the small lane, so three large jobs run; a's first,
        // then b's (a has one running), then a's second.
        assert_eq!(q.pop(4), Some(a[0]));
        assert_eq!(q.pop(4), Some(b));
        assert_eq!(q.pop(4), Some(a[1]));
        assert_eq!(q.pop(4), None, "the last worker is the small lane's");
        let small = q.push(s("c"), Lane::Small, now);
        assert_eq!(q.pop(4), Some(small));
        q.remove(a[0]);
        assert_eq!(q.pop(4), Some(a[2]));
    }

    #[test]
    fn small_jobs_come_first_and_background_only_when_no_call_waits() {
        let now = Instant::now();
        let mut q = Queue::default();
        let bg = q.push(s("refresh"), Lane::Background, now);
        let large = q.push(s("a"), Lane::Large, now);
        let small = q.push(s("b"), Lane::Small, now);
        assert_eq!(q.pop(3), Some(small));
        assert_eq!(q.pop(3), Some(large));
        // No call waits: the background job may take the third worker.
        assert_eq!(q.pop(3), Some(bg));
        let small2 = q.push(s("b"), Lane::Small, now);
        let large2 = q.push(s("a"), Lane::Large, now);
        let bg2 = q.push(s("refresh"), Lane::Background, now);
        // No worker free; then the small job's worker goes to the next small job, never
        // to a large one (large and background hold two of three).
        assert_eq!(q.pop(3), Some(small2));
        q.remove(small);
        q.remove(small2);
        assert_eq!(q.pop(3), None, "the last worker is the small lane's");
        q.remove(bg);
        // A call waits: the background job waits behind it.
        assert_eq!(q.pop(3), Some(large2));
        q.remove(large2);
        assert_eq!(q.pop(3), Some(bg2));
        assert!(!q.is_waiting(bg2));
    }

    #[test]
    fn with_one_worker_a_large_job_may_still_run() {
        let now = Instant::now();
        let mut q = Queue::default();
        let large = q.push(s("a"), Lane::Large, now);
        assert_eq!(q.pop(1), Some(large));
        let f = q.figures(Lane::Large, now + Duration::from_secs(1));
        assert_eq!((f.queued, f.running), (0, 1));
        let waits = q.push(s("a"), Lane::Large, now);
        assert_eq!(
            q.figures(Lane::Large, now + Duration::from_secs(2))
                .longest_wait,
            Duration::from_secs(2)
        );
        q.remove(waits);
        q.remove(large);
        assert!(
            q.served.is_empty(),
            "a session's entry goes with its last job"
        );
    }
}
