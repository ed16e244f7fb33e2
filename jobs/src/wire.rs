//! The frames that cross the worker boundary, both ways: a header (`u32` length, little
//! endian; a job or a reply in MessagePack with field names) then a byte payload (`u64`
//! length). Bytes travel as bytes (a document, a page, extracted text); both lengths are
//! capped before anything is allocated. MessagePack rather than JSON: a batch of parsed
//! feeds is mostly strings, which it copies instead of escaping (JSON made the boundary
//! cost 40 % of the parse).

use std::io::{Read, Write};

/// The largest JSON header either side accepts.
pub const MAX_HEADER: u64 = 64 << 20;
/// The largest payload either side accepts (the 100 MiB document cap fits under it).
pub const MAX_PAYLOAD: u64 = 128 << 20;

/// One message: what it is (JSON) and the bytes it carries.
#[derive(Debug, Default)]
pub struct Frame {
    /// An [`encode`]d job request or reply (`crate::request`, `crate::reply_header`).
    pub header: Vec<u8>,
    /// The job's input bytes or the reply's text.
    pub payload: Vec<u8>,
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The pipe failed or ended (the peer is gone).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A length over its cap.
    #[error("a frame of {0} bytes is over the limit")]
    TooLarge(u64),
}

/// `len` as a size to allocate, if it is within `cap`.
pub fn check(len: u64, cap: u64) -> Result<usize, WireError> {
    if len > cap {
        return Err(WireError::TooLarge(len));
    }
    usize::try_from(len).map_err(|_| WireError::TooLarge(len))
}

/// A header's length prefix.
pub fn header_len(header: &[u8]) -> std::io::Result<[u8; 4]> {
    u32::try_from(header.len())
        .map(u32::to_le_bytes)
        .map_err(|_| std::io::Error::other("header too large"))
}

/// A job or reply as a header.
pub fn encode<T: serde::Serialize>(value: &T) -> std::io::Result<Vec<u8>> {
    rmp_serde::to_vec_named(value).map_err(std::io::Error::other)
}

/// A header back into a job or reply.
pub fn decode<T: serde::de::DeserializeOwned>(header: &[u8]) -> Result<T, String> {
    rmp_serde::from_slice(header).map_err(|e| e.to_string())
}

/// Reads one frame (blocking; the worker's side; the daemon's async twin is in its pool).
pub fn read_blocking(r: &mut impl Read) -> Result<Frame, WireError> {
    let mut n = [0u8; 4];
    r.read_exact(&mut n)?;
    let mut header = vec![0; check(u32::from_le_bytes(n).into(), MAX_HEADER)?];
    r.read_exact(&mut header)?;
    let mut n = [0u8; 8];
    r.read_exact(&mut n)?;
    let mut payload = vec![0; check(u64::from_le_bytes(n), MAX_PAYLOAD)?];
    r.read_exact(&mut payload)?;
    Ok(Frame { header, payload })
}

/// Writes one frame (blocking; the worker's side).
pub fn write_blocking(w: &mut impl Write, header: &[u8], payload: &[u8]) -> std::io::Result<()> {
    w.write_all(&header_len(header)?)?;
    w.write_all(header)?;
    w.write_all(&(payload.len() as u64).to_le_bytes())?;
    w.write_all(payload)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_round_trips_and_an_oversized_length_is_refused_before_allocating() {
        let mut buf = Vec::new();
        write_blocking(&mut buf, b"{\"a\":1}", b"bytes").expect("write");
        let f = read_blocking(&mut buf.as_slice()).expect("read");
        assert_eq!(
            (f.header.as_slice(), f.payload.as_slice()),
            (&b"{\"a\":1}"[..], &b"bytes"[..])
        );

        let mut huge = Vec::new();
        huge.extend_from_slice(&2u32.to_le_bytes());
        huge.extend_from_slice(b"{}");
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            read_blocking(&mut huge.as_slice()),
            Err(WireError::TooLarge(u64::MAX))
        ));
    }
}
