//! The audit's byte meter: what the audit's writers (the journal thread, the materialiser,
//! spilled outputs) wrote since retention last ran, the signal that asks retention for a
//! pass early, and the throttle that makes a burst of calls wait for one. The audit counts
//! into it and retention reads it; it knows neither.

use std::time::Duration;

/// Bytes the audit wrote since retention last ran, and the signal that asks for a pass
/// early: `[audit] max_mb` holds at every moment (at most 5 % over), not only when the
/// clock next runs retention. Every writer of the audit (the journal thread, the
/// materialiser, spilled outputs) counts what it wrote once it is on disk (a pass it wakes
/// finds it there); past a fortieth of the cap, the retention task is woken. Journal lines
/// not yet copied into run files are owed, and a pass prunes that much under the cap.
#[derive(Debug, Default)]
pub struct Meter {
    written: std::sync::atomic::AtomicU64,
    /// Bytes written that ask for a pass (0: no cap, never).
    every: std::sync::atomic::AtomicU64,
    wake: tokio::sync::Notify,
    /// Bytes written since the last pass began, and how many a new call may find there
    /// before it waits for a pass (a twentieth of the cap: the 5 % the cap allows; 0: never).
    unpruned: std::sync::atomic::AtomicU64,
    slack: std::sync::atomic::AtomicU64,
    passed: tokio::sync::Notify,
    /// Journal bytes the materialiser has yet to copy into run files: bytes that will land
    /// without a call to wait for them, so a pass prunes that much under the cap.
    owed: std::sync::atomic::AtomicU64,
}

/// The longest a call waits for a retention pass before it goes on anyway (a pass that
/// cannot run must not stop the daemon).
const THROTTLE_MAX: Duration = Duration::from_secs(1);

impl Meter {
    /// A meter for a cap of `max_bytes` (0: none).
    pub fn new(max_bytes: u64) -> Self {
        let m = Meter::default();
        let every = if max_bytes == 0 {
            0
        } else {
            (max_bytes / 40).max(16 << 10)
        };
        m.every.store(every, std::sync::atomic::Ordering::Relaxed);
        m.slack
            .store(max_bytes / 20, std::sync::atomic::Ordering::Relaxed);
        m
    }

    /// Counts `n` bytes written to the audit; wakes retention when enough have been.
    pub fn wrote(&self, n: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let every = self.every.load(Relaxed);
        if every == 0 {
            return;
        }
        self.unpruned.fetch_add(n, Relaxed);
        if self.written.fetch_add(n, Relaxed) + n >= every {
            self.written.store(0, Relaxed);
            self.wake.notify_one();
        }
    }

    /// `n` journal bytes landed that the materialiser will copy into run files.
    pub fn owe(&self, n: u64) {
        self.owed.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// The materialiser wrote `n` bytes of run files: counted, and no longer owed.
    pub fn materialised(&self, n: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let _ = self
            .owed
            .fetch_update(Relaxed, Relaxed, |o| Some(o.saturating_sub(n)));
        self.wrote(n);
    }

    /// What a pass keeps free under a cap of `max_bytes` for the run files still owed (at
    /// most half the cap: a stalled materialiser must not empty the audit).
    pub fn reserve(&self, max_bytes: u64) -> u64 {
        self.owed
            .load(std::sync::atomic::Ordering::Relaxed)
            .min(max_bytes / 2)
    }

    /// Waits until enough has been written to ask for a pass.
    pub async fn asked(&self) {
        self.wake.notified().await
    }

    /// A pass begins: what it will see as written.
    pub fn pass_begins(&self) -> u64 {
        self.unpruned.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A pass that began having seen `seen` bytes ended: those are accounted for.
    pub fn pass_ended(&self, seen: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let _ = self
            .unpruned
            .fetch_update(Relaxed, Relaxed, |u| Some(u.saturating_sub(seen)));
        self.passed.notify_waiters();
    }

    /// Before a call: while more than the slack has been written since the last pass, ask
    /// for one and wait for it (at most [`THROTTLE_MAX`]). So a burst of calls cannot pile
    /// up the audit past the cap faster than retention prunes it.
    pub async fn throttle(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        let slack = self.slack.load(Relaxed);
        if slack == 0 || self.every.load(Relaxed) == 0 {
            return;
        }
        let deadline = tokio::time::Instant::now() + THROTTLE_MAX;
        while self.unpruned.load(Relaxed) > slack {
            let passed = self.passed.notified();
            self.wake.notify_one();
            if tokio::time::timeout_at(deadline, passed).await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
