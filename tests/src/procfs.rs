//! A process's resources as Linux reports them, for the leak and memory checks.

/// A `/proc/<pid>/status` field's number (`VmRSS:` in KiB, `Threads:`, …).
pub fn status_field(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("status")
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in /proc/{pid}/status"))
}

/// Resident memory in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    status_field(pid, "VmRSS:")
}

/// Resident memory in KiB of a process that may be exiting (None once it is gone or a
/// zombie).
pub fn rss_kib_if_alive(pid: u32) -> Option<u64> {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// Open file descriptors.
pub fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("fds")
        .count()
}

/// The pids of `pid`'s live child processes.
pub fn children(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .expect("proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| parent_of(*p) == Some(pid))
        .collect()
}

/// A process's parent pid, from `/proc/<pid>/stat`, while it is alive (not a zombie).
pub fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut f = rest.split_whitespace();
    if f.next()? == "Z" {
        return None;
    }
    f.next()?.parse().ok()
}

/// CPU ticks (cutime + cstime) of `pid`'s children that have ended and been waited for
/// (a worker killed by its CPU limit, once the daemon reaped it).
pub fn ended_children_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    let f: Vec<&str> = stat[stat.rfind(')').expect("comm") + 2..]
        .split_whitespace()
        .collect();
    f[13].parse::<u64>().expect("cutime") + f[14].parse::<u64>().expect("cstime")
}

/// CPU ticks (utime + stime) of `pid` and of its live children.
pub fn tree_ticks(pid: u32) -> u64 {
    let ticks = |p: u32| -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
        let f: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
        Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
    };
    std::iter::once(pid)
        .chain(children(pid))
        .filter_map(ticks)
        .sum()
}
