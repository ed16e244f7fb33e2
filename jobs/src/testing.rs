//! The test-only job (the `test-commands` feature): a job that misbehaves on purpose,
//! to prove the pool contains it.

use serde::{Deserialize, Serialize};

use crate::Job;

/// `test-worker --do ACTION`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestJob {
    /// `crash`, `panic`, `hog`, `spin`, `overflow`, `escape` or `echo`.
    pub action: String,
}

impl Job for TestJob {
    const NAME: &'static str = "test";
    type Reply = ();
}
