//! The worker process's side: limits, sandbox, then one job at a time from stdin.
//!
//! Order matters: the limits and the parent-death signal are set first (nothing untrusted
//! has been read yet); the protocol's stdout is moved to a private descriptor and stdout
//! pointed at stderr, so a stray print in a parser cannot corrupt a frame; the job thread
//! is started with its large stack; it drops file-system and network access (Landlock) and
//! installs the seccomp filter on every thread; only then is the first job read.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use paw_jobs::{self as job, JobFailure, Ready, wire};

use super::{Answer, Registry, WORKER_FLAG, sandbox};

/// The job thread's stack: deep enough for legitimate documents (paw's own code never
/// recurses on input depth); it counts against the address-space cap, so at most a quarter
/// of it.
const MAX_STACK: usize = 64 << 20;

/// Set by the panic hook: a parser panicked (even if the panic was caught), so state it
/// shares across calls may be poisoned; the worker answers and then exits.
static PANICKED: AtomicBool = AtomicBool::new(false);

/// Exit code when the worker is started wrongly or its parent is gone.
const EXIT_SETUP: u8 = 3;

/// Runs a worker answering the jobs in `registry`, given `--paw-worker MEMORY_MB
/// PARENT_PID` ([`WORKER_FLAG`]).
pub fn main(registry: Registry) -> ExitCode {
    // args_os: a non-UTF-8 argument must be refused here, not panic.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let [flag, memory_mb, parent] = args.as_slice() else {
        eprintln!("paw-worker is started by paw-daemon; it is not run by hand");
        return ExitCode::from(EXIT_SETUP);
    };
    if flag != WORKER_FLAG {
        eprintln!("paw-worker is started by paw-daemon; it is not run by hand");
        return ExitCode::from(EXIT_SETUP);
    }
    let (Ok(memory_mb), Ok(parent)) = (memory_mb.parse::<u64>(), parent.parse::<i32>()) else {
        eprintln!("paw worker: bad arguments");
        return ExitCode::from(EXIT_SETUP);
    };
    // The panic message may quote the input; say only that there was one.
    std::panic::set_hook(Box::new(|_| {
        PANICKED.store(true, Ordering::SeqCst);
        eprintln!("paw worker: panic");
    }));
    if let Err(e) = sandbox::limit_process(memory_mb, parent) {
        eprintln!("paw worker: {e}");
        return ExitCode::from(EXIT_SETUP);
    }
    let proto_out = match sandbox::private_stdout() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("paw worker: {e}");
            return ExitCode::from(EXIT_SETUP);
        }
    };
    let stack = MAX_STACK.min(usize::try_from(memory_mb << 20).unwrap_or(MAX_STACK) / 4);
    let job_thread = std::thread::Builder::new()
        .name("paw-job".into())
        .stack_size(stack)
        .spawn(move || serve(proto_out, &registry));
    match job_thread.map(|t| t.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(EXIT_SETUP),
        Err(e) => {
            eprintln!("paw worker: cannot start the job thread: {e}");
            ExitCode::from(EXIT_SETUP)
        }
    }
}

fn serve(proto_out: File, registry: &Registry) -> ExitCode {
    let confined = sandbox::confine();
    let stdin = std::io::stdin();
    let mut input = BufReader::new(stdin.lock());
    let mut output = BufWriter::new(proto_out);
    let ready = Ready {
        seccomp: confined.seccomp,
        landlock: confined.landlock,
    };
    let sent = wire::encode(&ready)
        .and_then(|h| wire::write_blocking(&mut output, &job::reply_header(0, &h), &[]));
    if sent.is_err() {
        return ExitCode::from(EXIT_SETUP);
    }
    loop {
        let frame = match wire::read_blocking(&mut input) {
            Ok(f) => f,
            // The daemon closed the pipe: its way of saying stop.
            Err(wire::WireError::Io(_)) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("paw worker: {e}");
                return ExitCode::from(EXIT_SETUP);
            }
        };
        let Some((name, cpu_ms, fields)) = job::parse_request(&frame.header) else {
            eprintln!("paw worker: a bad job header");
            return ExitCode::from(EXIT_SETUP);
        };
        sandbox::cpu_budget(cpu_ms);
        let answer = std::panic::catch_unwind(AssertUnwindSafe(|| {
            registry.run(name, fields, frame.payload)
        }))
        .unwrap_or_else(|_| {
            Answer::Failed(JobFailure::parse(
                "the reader failed on this input (a panic)",
            ))
        });
        let retire = PANICKED.load(Ordering::SeqCst);
        let flags = if retire { job::RETIRE } else { 0 };
        let sent = match answer {
            Answer::Done(header, bytes) => {
                wire::write_blocking(&mut output, &job::reply_header(flags, &header), &bytes)
            }
            Answer::Failed(f) => wire::encode(&f).and_then(|h| {
                let header = job::reply_header(flags | job::FAILED, &h);
                wire::write_blocking(&mut output, &header, &[])
            }),
        };
        if sent.is_err() || retire {
            return ExitCode::SUCCESS;
        }
    }
}
