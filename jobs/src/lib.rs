//! What crosses paw's worker pipe (docs/reliability.md, "Containment: workers"): the job
//! kinds with their fields and replies, a job's typed failure, and the frame format.
//!
//! Both sides depend on this crate and on nothing of each other: the daemon
//! (`paw-daemon`) sends jobs and reads replies, the worker (`paw-worker`) runs them with
//! the readers (`paw-readers`), which the daemon never links. A job travels as its name,
//! its CPU budget and its fields (MessagePack); its input bytes travel beside it as the
//! frame's payload, and so does the bytes part of its reply.

pub mod doc;
pub mod feed;
#[cfg(feature = "test-commands")]
pub mod testing;
pub mod wire;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The first argument the daemon starts `paw-worker` with (then `MEMORY_MB PARENT_PID`).
pub const WORKER_FLAG: &str = "--paw-worker";

/// Inputs under this size are small: they have a lane that large jobs cannot fill.
pub const SMALL_INPUT: usize = 256 << 10;

/// One kind of work a worker does on untrusted bytes, as the daemon sees it: its name,
/// its reply, and what the scheduler needs to know. What it does is the worker's
/// (`paw_worker::Run`).
pub trait Job: Serialize + DeserializeOwned + Send + 'static {
    /// Its name on the wire and in logs; unique in the worker's registry.
    const NAME: &'static str;
    /// What it answers, beside the bytes it returns.
    type Reply: Serialize + DeserializeOwned + Send + 'static;

    /// Bytes of input its CPU budget and lane are sized by (the payload by default; a job
    /// whose input travels in its fields says so).
    fn size(&self, payload: usize) -> usize {
        payload
    }

    /// Bytes of work its CPU budget is sized by, given its input: its [`size`](Self::size)
    /// by default; a job whose input expands before the work says how much.
    fn cost(&self, input: &[u8]) -> usize {
        self.size(input.len())
    }

    /// Whether its CPU budget grows with its size. Work whose cost is not in its bytes
    /// (OCR: a page of pixels) gets the ceiling, `worker.cpu_secs`, or more by its
    /// [`ocr_pages`](Self::ocr_pages).
    fn sized(&self) -> bool {
        true
    }

    /// Pages it reads by OCR, when known: an unsized job gets `worker.ocr_cpu_ms_per_page`
    /// for each where that is more than the ceiling (a long scan is not cut at the
    /// ceiling's page).
    fn ocr_pages(&self) -> usize {
        0
    }

    /// Whether it has the small lane, given its [`size`](Self::size).
    fn small(&self, size: usize) -> bool {
        size < SMALL_INPUT
    }

    /// Whether encoding it is heavy enough for the blocking pool (it carries items).
    fn heavy(&self) -> bool {
        false
    }
}

/// A job's own failure (the input is bad, or the job needs more from the daemon), as
/// opposed to the worker dying.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum JobFailure {
    /// The input could not be read: corrupt, truncated, encrypted or over a limit.
    #[error("{0}")]
    Parse(String),
    /// A format or a feature of it that paw does not read.
    #[error("{0}")]
    NotSupported(String),
    /// The document opens only with a user password, and none (or a wrong one) came.
    #[error("{0}")]
    Encrypted(String),
    /// Pages need OCR (this many) and the job came without the language data
    /// ([`doc::OcrJob::deferred`]): the daemon sends it again with them, its CPU budget
    /// sized by those pages ([`Job::ocr_pages`]).
    #[error("OCR language data needed")]
    NeedsData(usize),
}

impl JobFailure {
    /// The input could not be parsed.
    pub fn parse(message: impl Into<String>) -> Self {
        Self::Parse(message.into())
    }
}

/// A job's header: its name, its CPU budget in milliseconds, then its fields.
pub fn request<J: Job>(job: &J, cpu_ms: u64) -> std::io::Result<Vec<u8>> {
    let fields = wire::encode(job)?;
    let name = J::NAME.as_bytes();
    let len = u8::try_from(name.len()).map_err(std::io::Error::other)?;
    let mut header = Vec::with_capacity(1 + name.len() + 8 + fields.len());
    header.push(len);
    header.extend_from_slice(name);
    header.extend_from_slice(&cpu_ms.to_le_bytes());
    header.extend_from_slice(&fields);
    Ok(header)
}

/// A request header back into (name, CPU budget in ms, fields).
pub fn parse_request(header: &[u8]) -> Option<(&str, u64, &[u8])> {
    let (&len, rest) = header.split_first()?;
    let (name, rest) = rest.split_at_checked(usize::from(len))?;
    let (ms, fields) = rest.split_at_checked(8)?;
    let ms = u64::from_le_bytes(ms.try_into().ok()?);
    Some((std::str::from_utf8(name).ok()?, ms, fields))
}

/// The first byte of a reply header: the worker exits after this reply (a parser
/// panicked, so state it shares across jobs may be poisoned).
pub const RETIRE: u8 = 1;
/// ... and the rest is a [`JobFailure`], not the job's reply.
pub const FAILED: u8 = 2;

/// A reply header: the flags byte, then the reply or the failure.
pub fn reply_header(flags: u8, body: &[u8]) -> Vec<u8> {
    let mut h = Vec::with_capacity(1 + body.len());
    h.push(flags);
    h.extend_from_slice(body);
    h
}

/// A worker's first frame: what its sandbox enforces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Ready {
    /// The seccomp filter is installed.
    pub seccomp: bool,
    /// Landlock's status: `full`, `partial` or `none`.
    pub landlock: String,
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

    #[test]
    fn a_header_carries_the_name_budget_and_fields_and_a_short_one_is_refused() {
        let header = request(&Upper { keep: 2 }, 1500).expect("encode");
        let (name, ms, fields) = parse_request(&header).expect("parse");
        assert_eq!((name, ms), ("upper", 1500));
        assert_eq!(wire::decode::<Upper>(fields).map(|u| u.keep), Ok(2));
        assert_eq!(parse_request(&[9, b'a']), None);
        let failed = wire::encode(&JobFailure::NeedsData(3)).expect("encode");
        assert_eq!(
            wire::decode::<JobFailure>(&failed),
            Ok(JobFailure::NeedsData(3))
        );
    }
}
