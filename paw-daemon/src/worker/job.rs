//! What a worker runs: jobs that the commands declare (SPEC §10). `worker/` knows no
//! command: a command's folder implements [`Job`] for each parse it sends across, and the
//! daemon's entry point hands the worker a [`Registry`] of them. A job travels as its
//! name, its CPU budget and its fields (MessagePack); its input bytes travel beside it as
//! the frame's payload, and so does the bytes part of its reply.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::wire;

/// Inputs under this size are small: they have a lane that large jobs cannot fill.
pub const SMALL_INPUT: usize = 256 << 10;

/// One kind of work a worker does on untrusted bytes.
pub trait Job: Serialize + DeserializeOwned + Send + 'static {
    /// Its name on the wire and in logs; unique in the registry.
    const NAME: &'static str;
    /// What it answers, beside the bytes it returns.
    type Reply: Serialize + DeserializeOwned + Send + 'static;

    /// Runs in the worker, inside the sandbox, on `input` (the frame's payload). A bad
    /// input is the job's own failure; a panic or a cap costs the worker instead.
    fn run(self, input: Vec<u8>) -> Result<(Self::Reply, Vec<u8>), JobFailure>;

    /// Bytes of input its CPU budget and lane are sized by (the payload by default; a job
    /// whose input travels in its fields says so).
    fn size(&self, payload: usize) -> usize {
        payload
    }

    /// Whether its CPU budget grows with its size. Work whose cost is not in its bytes
    /// (OCR: a page of pixels) gets the ceiling, `worker.cpu_secs`.
    fn sized(&self) -> bool {
        true
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

/// A job's own failure (the input is bad), as opposed to the worker dying.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JobFailure {
    /// `NotSupported` rather than `ParseError`.
    pub not_supported: bool,
    /// The reason.
    pub message: String,
}

impl JobFailure {
    /// The input could not be parsed.
    pub fn parse(message: impl Into<String>) -> Self {
        Self {
            not_supported: false,
            message: message.into(),
        }
    }
}

/// The worker's side of one job kind: the job's fields and payload in, the reply header
/// and payload out.
type Handler = fn(&[u8], Vec<u8>) -> Result<(Vec<u8>, Vec<u8>), JobFailure>;

/// The job kinds a worker answers, by name.
#[derive(Default)]
pub struct Registry {
    kinds: Vec<(&'static str, Handler)>,
}

impl Registry {
    /// No job kinds.
    pub fn new() -> Self {
        Self::default()
    }

    /// And `J`.
    pub fn with<J: Job>(mut self) -> Self {
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

fn handle<J: Job>(fields: &[u8], payload: Vec<u8>) -> Result<(Vec<u8>, Vec<u8>), JobFailure> {
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
        let header = request(&Upper { keep: 2 }, 1500).expect("encode");
        let (name, ms, fields) = parse_request(&header).expect("parse");
        assert_eq!((name, ms), ("upper", 1500));
        match reg.run(name, fields, b"abc".to_vec()) {
            Answer::Done(h, bytes) => {
                assert_eq!(wire::decode::<usize>(&h), Ok(2));
                assert_eq!(bytes, b"ABC");
            }
            Answer::Failed(f) => panic!("{}", f.message),
        }
        assert!(matches!(
            reg.run(name, fields, Vec::new()),
            Answer::Failed(f) if f.message == "empty"
        ));
        assert!(matches!(
            reg.run("lower", fields, b"x".to_vec()),
            Answer::Failed(f) if f.message.contains("no job named")
        ));
        assert_eq!(parse_request(&[9, b'a']), None);
    }
}
