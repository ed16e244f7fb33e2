//! Unit tests of `paw_daemon::worker::sched`.

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
