//! Wall-clock helpers: Unix milliseconds, run ids and compact timestamps.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn utc(ms: u64) -> time::OffsetDateTime {
    let nanos = i128::from(ms) * 1_000_000;
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}

/// `yyyyMMdd_HHmmss_SSS` in UTC.
pub fn compact_timestamp(ms: u64) -> String {
    const FORMAT: &[time::format_description::BorrowedFormatItem<'_>] = time::macros::format_description!(
        "[year][month][day]_[hour][minute][second]_[subsecond digits:3]"
    );
    utc(ms).format(FORMAT).unwrap_or_default()
}

/// RFC 3339 in UTC with milliseconds (`2026-11-22T14:40:17.123Z`).
pub fn rfc3339_ms(ms: u64) -> String {
    const FORMAT: &[time::format_description::BorrowedFormatItem<'_>] = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    utc(ms).format(FORMAT).unwrap_or_default()
}

/// A run id: UTC `yyyyMMdd_HHmmss_SSS` + `_` + 10 random lowercase hex characters.
pub fn new_run_id(ms: u64) -> String {
    let tag: u64 = rand::random::<u64>() & 0xff_ffff_ffff;
    format!("{}_{:010x}", compact_timestamp(ms), tag)
}

#[cfg(test)]
mod tests;
