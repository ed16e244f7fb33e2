//! The questions this server has put to the person on hosts that negotiated MCP
//! 2026-07-28, where a server may not send a request of its own: the call is answered
//! with an `input_required` result carrying the question and a nonce, and the host
//! retries it with the person's answer and the nonce as `requestState`.
//!
//! The host echoes `requestState` back verbatim, and whatever sends the retry can write
//! anything there, so the nonce is only a handle: what was asked stays here. A nonce is
//! 256 random bits, redeemed at most once, only for the exact command line and session
//! it was issued for, within [`TTL`]; at most [`MAX_PENDING`] wait at a time, the oldest
//! going first, so no caller can grow the table.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use base64::Engine as _;

/// How long the person has to answer.
pub const TTL: Duration = Duration::from_secs(5 * 60);

/// How many questions may wait at once (a host asks one person, one question at a time;
/// this leaves room for parallel calls).
pub const MAX_PENDING: usize = 32;

/// What a nonce was issued for: the call must be retried with exactly this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    /// The command line as the model wrote it.
    pub command: String,
    /// The paw session it runs in.
    pub session: String,
}

/// Why a retried call does not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("this server issued no such question, or its answer was already used")]
    Unknown,
    #[error("the question was not answered within 5 minutes")]
    Expired,
    #[error("the answer was given for another command line or session")]
    Mismatch,
}

/// The questions waiting for an answer, oldest first. Owned by the bridge behind a std
/// mutex held only to issue or redeem (never across an await).
#[derive(Default)]
pub struct Pending {
    list: VecDeque<(String, Asked, Instant)>,
}

impl Pending {
    /// Records a question for `asked` at `now` and returns its nonce.
    pub fn issue(&mut self, asked: Asked, now: Instant) -> String {
        self.list
            .retain(|(_, _, at)| now.saturating_duration_since(*at) < TTL);
        while self.list.len() >= MAX_PENDING {
            self.list.pop_front();
        }
        let nonce = nonce();
        self.list.push_back((nonce.clone(), asked, now));
        nonce
    }

    /// Takes the question `nonce` names, if it was issued for `asked` and is still fresh.
    /// A nonce is gone after one try, whatever its outcome.
    pub fn redeem(&mut self, nonce: &str, asked: &Asked, now: Instant) -> Result<(), Refused> {
        let i = self
            .list
            .iter()
            .position(|(n, _, _)| n == nonce)
            .ok_or(Refused::Unknown)?;
        let (_, issued, at) = self.list.remove(i).ok_or(Refused::Unknown)?;
        if now.saturating_duration_since(at) >= TTL {
            return Err(Refused::Expired);
        }
        if issued != *asked {
            return Err(Refused::Mismatch);
        }
        Ok(())
    }

    /// How many questions wait.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// 256 bits from the operating system's generator, base64url.
fn nonce() -> String {
    let bytes: [u8; 32] = rand::random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests;
