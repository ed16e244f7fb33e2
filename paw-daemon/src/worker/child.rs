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

use super::jobs::{self, Job, Reply};
use super::{sandbox, wire};

/// The job thread's stack: deep enough for legitimate documents (paw's own code never
/// recurses on input depth); it counts against the address-space cap, so at most a quarter
/// of it.
const MAX_STACK: usize = 64 << 20;

/// Set by the panic hook: a parser panicked (even if the panic was caught), so state it
/// shares across calls may be poisoned; the worker answers and then exits.
static PANICKED: AtomicBool = AtomicBool::new(false);

/// Exit code when the worker is started wrongly or its parent is gone.
const EXIT_SETUP: u8 = 3;

/// Runs a worker: `args` are what follows [`super::WORKER_FLAG`].
pub fn main(args: &[String]) -> ExitCode {
    let [memory_mb, cpu_secs, parent] = args else {
        eprintln!("paw worker: expected MEMORY_MB CPU_SECS PARENT_PID");
        return ExitCode::from(EXIT_SETUP);
    };
    let (Ok(memory_mb), Ok(cpu_secs), Ok(parent)) = (
        memory_mb.parse::<u64>(),
        cpu_secs.parse::<u64>(),
        parent.parse::<i32>(),
    ) else {
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
        .spawn(move || serve(proto_out, cpu_secs));
    match job_thread.map(|t| t.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(EXIT_SETUP),
        Err(e) => {
            eprintln!("paw worker: cannot start the job thread: {e}");
            ExitCode::from(EXIT_SETUP)
        }
    }
}

fn serve(proto_out: File, cpu_secs: u64) -> ExitCode {
    let confined = sandbox::confine();
    let stdin = std::io::stdin();
    let mut input = BufReader::new(stdin.lock());
    let mut output = BufWriter::new(proto_out);
    let ready = Reply::Ready {
        seccomp: confined.seccomp,
        landlock: confined.landlock,
    };
    if send(&mut output, ready, &[], false).is_err() {
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
        let (reply, payload) = match wire::decode::<Job>(&frame.header) {
            Ok(job) => {
                sandbox::cpu_budget(cpu_secs);
                match std::panic::catch_unwind(AssertUnwindSafe(|| {
                    jobs::handle(job, frame.payload)
                })) {
                    Ok(r) => r,
                    Err(_) => (
                        Reply::Failed(jobs::JobFailure {
                            not_supported: false,
                            message: "the reader failed on this input (a panic)".into(),
                        }),
                        Vec::new(),
                    ),
                }
            }
            Err(e) => {
                eprintln!("paw worker: bad job: {e}");
                return ExitCode::from(EXIT_SETUP);
            }
        };
        let retire = PANICKED.load(Ordering::SeqCst);
        if send(&mut output, reply, &payload, retire).is_err() || retire {
            return ExitCode::SUCCESS;
        }
    }
}

fn send(
    out: &mut BufWriter<File>,
    reply: Reply,
    payload: &[u8],
    retire: bool,
) -> std::io::Result<()> {
    let envelope = jobs::Envelope { retire, reply };
    let header = wire::encode(&envelope)?;
    wire::write_blocking(out, &header, payload)
}
