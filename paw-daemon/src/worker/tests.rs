//! Unit tests of `paw_daemon::worker`.

use super::*;
use std::os::unix::process::ExitStatusExt as _;

#[test]
fn resident_memory_is_read_from_statm_in_kib() {
    assert_eq!(resident_kib(b"1000 512 30 1 0 200 0\n", 4096), Some(2048));
    assert_eq!(resident_kib(b"1000", 4096), None);
    // This process's own: what `status` says, within what a few allocations move.
    let statm = std::fs::read("/proc/self/statm").expect("statm");
    let kib = resident_kib(&statm, rustix::param::page_size()).expect("parsed");
    let status = std::fs::read_to_string("/proc/self/status").expect("status");
    let vm_rss: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS");
    assert!(
        kib.abs_diff(vm_rss) < 4096,
        "statm {kib} KiB, status {vm_rss} KiB"
    );
}

#[test]
fn cpu_time_is_read_from_stat_after_the_name() {
    // A name with spaces and a parenthesis; utime 250 and stime 50 ticks at 100 a second.
    let line = b"42 (paw (x) y) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 9 0 0\n";
    assert_eq!(cpu_ms_of_stat(line, 100), Some(3000));
    assert_eq!(cpu_ms_of_stat(b"42 (paw) S 1", 100), None);
    // This process's own: at most what the clock says it has used.
    let stat = std::fs::read("/proc/self/stat").expect("stat");
    let ms = cpu_ms_of_stat(&stat, rustix::param::clock_ticks_per_second()).expect("parsed");
    let used = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let used_ms = used.tv_sec as u64 * 1000 + used.tv_nsec as u64 / 1_000_000;
    assert!(ms <= used_ms + 20, "stat {ms} ms, clock {used_ms} ms");
}

#[test]
fn a_dead_worker_is_named_by_its_signal_and_stderr() {
    let sig = |n| Some(std::process::ExitStatus::from_raw(n));
    assert_eq!(classify(sig(libc::SIGXCPU), b""), WorkerError::Cpu);
    assert_eq!(
        classify(
            sig(libc::SIGABRT),
            b"memory allocation of 1048576 bytes failed\n"
        ),
        WorkerError::Memory
    );
    assert_eq!(
        classify(sig(libc::SIGSEGV), b"thread 'x' has overflowed its stack\n"),
        WorkerError::Crashed
    );
    assert_eq!(classify(None, b""), WorkerError::Crashed);
}
