//! paw's worker process (docs/reliability.md, "Containment: workers"): the sandbox, the
//! job loop and the one registry of what a worker runs.
//!
//! The daemon starts `paw-worker` (found beside its own binary) with [`WORKER_FLAG`] and
//! never another program: it caps its own address space and each job's CPU time, asks to
//! die with the daemon, drops file-system and network access (Landlock) and most system
//! calls (seccomp), then answers jobs read from its stdin, one at a time ([`child`]). The
//! jobs are `paw_jobs`' kinds; what each does ([`Run`]) is here, on the readers
//! (`paw_readers`), which only this crate links.

pub mod child;
mod doc;
mod feed;
mod sandbox;
#[cfg(feature = "test-commands")]
mod testing;

use paw_jobs::{Job, JobFailure, wire};

pub use child::main;

/// `paw-worker --paw-worker MEMORY_MB PARENT_PID` runs a worker: the flag says the daemon
/// started it (a person running the binary by hand is told so).
pub const WORKER_FLAG: &str = paw_jobs::WORKER_FLAG;

/// What a job does, inside the sandbox, on its input (the frame's payload). A bad input
/// is the job's own failure; a panic or a cap costs the worker instead.
pub trait Run: Job {
    /// Runs the job.
    fn run(self, input: Vec<u8>) -> Result<(Self::Reply, Vec<u8>), JobFailure>;
}

/// The worker's side of one job kind: the job's fields and payload in, the reply header
/// and payload out.
type Handler = fn(&[u8], Vec<u8>) -> Result<(Vec<u8>, Vec<u8>), JobFailure>;

/// The job kinds a worker answers, by name.
#[derive(Default)]
pub struct Registry {
    kinds: Vec<(&'static str, Handler)>,
}

/// Every job a worker runs: the one list (`tests/tests/it/tidy.rs` checks each of
/// `paw_jobs`' kinds is in it).
pub fn registry() -> Registry {
    let r = Registry::new()
        .with::<paw_jobs::doc::Extract>()
        .with::<paw_jobs::doc::Tables>()
        .with::<paw_jobs::feed::Feeds>()
        .with::<paw_jobs::feed::Render>()
        .with::<paw_jobs::feed::Extract>()
        .with::<paw_jobs::feed::Discover>()
        .with::<paw_jobs::feed::Opml>()
        .with::<paw_jobs::feed::Markdown>();
    #[cfg(feature = "test-commands")]
    let r = r.with::<paw_jobs::testing::TestJob>();
    r
}

impl Registry {
    /// No job kinds.
    pub fn new() -> Self {
        Self::default()
    }

    /// And `J`.
    pub fn with<J: Run>(mut self) -> Self {
        self.kinds.push((J::NAME, handle::<J>));
        self
    }

    /// Every name, in registration order (for the tidy test and the logs).
    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|(n, _)| *n).collect()
    }

    /// Runs the job a request header names, on its payload (in the worker).
    pub fn run(&self, name: &str, fields: &[u8], payload: Vec<u8>) -> Answer {
        match self.kinds.iter().find(|(n, _)| *n == name) {
            Some((_, handler)) => match handler(fields, payload) {
                Ok((header, bytes)) => Answer::Done(header, bytes),
                Err(f) => Answer::Failed(f),
            },
            None => Answer::Failed(JobFailure::parse(format!("no job named {name:?}"))),
        }
    }
}

fn handle<J: Run>(fields: &[u8], payload: Vec<u8>) -> Result<(Vec<u8>, Vec<u8>), JobFailure> {
    let job: J = wire::decode(fields).map_err(|e| JobFailure::parse(format!("a bad job: {e}")))?;
    let (reply, bytes) = job.run(payload)?;
    let header = wire::encode(&reply).map_err(|e| JobFailure::parse(e.to_string()))?;
    Ok((header, bytes))
}

/// What the worker sends back for one job.
pub enum Answer {
    /// The reply's header and bytes.
    Done(Vec<u8>, Vec<u8>),
    /// The job's own failure.
    Failed(JobFailure),
}

/// A payload as text (invalid UTF-8 replaced).
fn utf8(payload: Vec<u8>) -> String {
    String::from_utf8(payload)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Upper {
        keep: usize,
    }

    impl Job for Upper {
        const NAME: &'static str = "upper";
        type Reply = usize;
    }

    impl Run for Upper {
        fn run(self, input: Vec<u8>) -> Result<(usize, Vec<u8>), JobFailure> {
            if input.is_empty() {
                return Err(JobFailure::parse("empty"));
            }
            let out = input.to_ascii_uppercase();
            Ok((out.len().min(self.keep), out))
        }
    }

    #[test]
    fn a_job_crosses_by_name_and_a_name_not_registered_is_its_own_failure() {
        let reg = Registry::new().with::<Upper>();
        let header = paw_jobs::request(&Upper { keep: 2 }, 1500).expect("encode");
        let (name, ms, fields) = paw_jobs::parse_request(&header).expect("parse");
        assert_eq!((name, ms), ("upper", 1500));
        match reg.run(name, fields, b"abc".to_vec()) {
            Answer::Done(h, bytes) => {
                assert_eq!(wire::decode::<usize>(&h), Ok(2));
                assert_eq!(bytes, b"ABC");
            }
            Answer::Failed(f) => panic!("{f}"),
        }
        assert!(matches!(
            reg.run(name, fields, Vec::new()),
            Answer::Failed(JobFailure::Parse(m)) if m == "empty"
        ));
        assert!(matches!(
            reg.run("lower", fields, b"x".to_vec()),
            Answer::Failed(JobFailure::Parse(m)) if m.contains("no job named")
        ));
    }

    #[test]
    fn every_job_kind_is_registered_once() {
        let names = registry().names();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert!(names.len() >= 8, "{names:?}");
    }
}
