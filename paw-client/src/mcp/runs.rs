//! The outcomes of this server's recent calls, kept so `paw://runs/<run_id>` (the full
//! outcome) and the pages of a cut text can be read after the answer.

use std::collections::VecDeque;
use std::sync::Arc;

use paw_proto::ExecOutcome;

/// How many outcomes are kept, and how many bytes of them: the oldest go first.
const MAX_RUNS: usize = 64;
const MAX_BYTES: usize = 32 << 20;

/// Recent outcomes, oldest first. Owned by the bridge behind a std mutex held only to
/// push or look up (never across an await).
#[derive(Default)]
pub struct Runs {
    list: VecDeque<(Arc<ExecOutcome>, usize)>,
    bytes: usize,
}

impl Runs {
    /// Keeps `o`, dropping the oldest beyond the caps.
    pub fn keep(&mut self, o: Arc<ExecOutcome>) {
        if o.run_id.is_empty() {
            return;
        }
        let size = o.stdout.len() + o.stderr.len() + o.result.to_string().len();
        self.bytes += size;
        self.list.push_back((o, size));
        while self.list.len() > MAX_RUNS || (self.bytes > MAX_BYTES && self.list.len() > 1) {
            if let Some((_, s)) = self.list.pop_front() {
                self.bytes -= s;
            }
        }
    }

    /// The outcome of `run_id`, if it is still kept.
    pub fn get(&self, run_id: &str) -> Option<Arc<ExecOutcome>> {
        self.list
            .iter()
            .rev()
            .find(|(o, _)| o.run_id == run_id)
            .map(|(o, _)| o.clone())
    }
}
