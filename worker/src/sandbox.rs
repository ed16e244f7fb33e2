//! The worker's confinement: resource limits, death with the daemon, Landlock and seccomp.
//! Each step is the process limiting itself after `exec` (no `pre_exec` hook, no unsafe
//! code); what this kernel enforces is reported to the daemon in the ready frame.

use std::collections::BTreeMap;
use std::fs::File;
use std::os::fd::AsFd as _;

use rustix::process::{Resource, Rlimit, Signal};
use seccompiler::{
    SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
};

/// Descriptors a worker may hold: its three pipes and the private protocol copy, with room.
const MAX_FDS: u64 = 32;

/// Sets the limits that hold whatever the sandbox below manages: address space, no core
/// files, no file writes, few descriptors, and SIGKILL when the daemon dies.
pub fn limit_process(memory_mb: u64, parent: i32) -> Result<(), String> {
    rustix::process::set_parent_process_death_signal(Some(Signal::KILL))
        .map_err(|e| format!("cannot set the parent-death signal: {e}"))?;
    // The daemon may have died between our fork and the line above.
    if rustix::process::getppid().map(|p| p.as_raw_nonzero().get()) != Some(parent) {
        return Err("the daemon is gone".into());
    }
    let fixed = |n: u64| Rlimit {
        current: Some(n),
        maximum: Some(n),
    };
    let bytes = memory_mb.saturating_mul(1 << 20);
    for (resource, limit, what) in [
        (Resource::As, fixed(bytes), "address space"),
        (Resource::Core, fixed(0), "core size"),
        (Resource::Fsize, fixed(0), "file size"),
        (Resource::Nofile, fixed(MAX_FDS), "open files"),
    ] {
        rustix::process::setrlimit(resource, limit)
            .map_err(|e| format!("cannot cap the {what}: {e}"))?;
    }
    Ok(())
}

/// Moves the protocol's stdout to a descriptor of its own and points stdout at stderr.
pub fn private_stdout() -> Result<File, String> {
    let proto = rustix::io::dup(std::io::stdout().as_fd())
        .map_err(|e| format!("cannot dup stdout: {e}"))?;
    rustix::stdio::dup2_stdout(std::io::stderr().as_fd())
        .map_err(|e| format!("cannot redirect stdout: {e}"))?;
    Ok(File::from(proto))
}

/// Caps the CPU time of the job about to run: `ms` more than used so far, rounded up to
/// the whole second the kernel counts in. Past it the kernel sends SIGXCPU, which ends the
/// process.
pub fn cpu_budget(ms: u64) {
    let used = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let used_ms = (used.tv_sec.max(0) as u64)
        .saturating_mul(1000)
        .saturating_add(used.tv_nsec.max(0) as u64 / 1_000_000);
    let limit = Rlimit {
        current: Some(used_ms.saturating_add(ms).div_ceil(1000)),
        maximum: None,
    };
    if let Err(e) = rustix::process::setrlimit(Resource::Cpu, limit) {
        eprintln!("paw worker: cannot cap CPU time: {e}");
    }
}

/// What [`confine`] achieved.
pub struct Confined {
    /// The seccomp filter is installed on every thread.
    pub seccomp: bool,
    /// Landlock's status: `full`, `partial` or `none`.
    pub landlock: String,
}

/// Drops file-system, network and signal reach (Landlock, best effort for this kernel),
/// then installs the system-call allowlist (seccomp) on every thread.
pub fn confine() -> Confined {
    let landlock = match landlock() {
        Ok(landlock::RulesetStatus::FullyEnforced) => "full",
        Ok(landlock::RulesetStatus::PartiallyEnforced) => "partial",
        Ok(landlock::RulesetStatus::NotEnforced) => "none",
        Err(e) => {
            eprintln!("paw worker: landlock: {e}");
            "none"
        }
    };
    let seccomp = match seccomp() {
        Ok(()) => true,
        Err(e) => {
            eprintln!("paw worker: seccomp: {e}");
            false
        }
    };
    Confined {
        seccomp,
        landlock: landlock.into(),
    }
}

fn landlock() -> Result<landlock::RulesetStatus, landlock::RulesetError> {
    use landlock::{ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, Scope};
    let abi = ABI::V6;
    // Every access handled and no rule added: nothing on disk, no TCP bind or connect, no
    // abstract sockets or signals outside the worker.
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))?
        .handle_access(AccessNet::from_all(abi))?
        .scope(Scope::from_all(abi))?
        .create()?
        .restrict_self()?;
    Ok(status.ruleset)
}

/// The system calls a parsing worker makes once it is running: memory, pipes, its own
/// signals, time and randomness. Everything else (open, socket, connect, execve, fork,
/// ptrace, ...) fails with EPERM.
fn allowed() -> Vec<i64> {
    let mut calls = vec![
        libc::SYS_read,
        libc::SYS_write,
        libc::SYS_readv,
        libc::SYS_writev,
        libc::SYS_close,
        libc::SYS_mmap,
        libc::SYS_munmap,
        libc::SYS_mremap,
        libc::SYS_madvise,
        libc::SYS_mprotect,
        libc::SYS_brk,
        libc::SYS_futex,
        libc::SYS_sched_yield,
        libc::SYS_exit,
        libc::SYS_exit_group,
        libc::SYS_rt_sigreturn,
        libc::SYS_rt_sigaction,
        libc::SYS_rt_sigprocmask,
        libc::SYS_sigaltstack,
        libc::SYS_getrandom,
        libc::SYS_prlimit64,
        libc::SYS_getpid,
        libc::SYS_gettid,
        libc::SYS_clock_gettime,
        libc::SYS_clock_nanosleep,
        libc::SYS_restart_syscall,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([libc::SYS_setrlimit, libc::SYS_getrlimit]);
    calls
}

fn seccomp() -> Result<(), String> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        allowed().into_iter().map(|c| (c, Vec::new())).collect();
    // abort() signals itself; tgkill is allowed for this process only.
    let own_pid = u64::from(std::process::id());
    let own = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, own_pid)
        .and_then(|c| SeccompRule::new(vec![c]))
        .map_err(|e| e.to_string())?;
    rules.insert(libc::SYS_tgkill, vec![own]);
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::EPERM as u32),
        SeccompAction::Allow,
        arch,
    )
    .map_err(|e| e.to_string())?;
    let program: seccompiler::BpfProgram = filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    seccompiler::apply_filter_all_threads(&program).map_err(|e| e.to_string())
}
