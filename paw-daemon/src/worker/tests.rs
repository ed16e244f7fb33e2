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
