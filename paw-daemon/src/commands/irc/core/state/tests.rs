//! Flood control, backoff and the indicator, on tokio's paused clock.

use std::time::Duration;

use tokio::time::Instant;

use super::*;

#[tokio::test(start_paused = true)]
async fn flood_control_bursts_then_paces() {
    let start = Instant::now();
    let mut b = TokenBucket::new(10, Duration::from_secs(2), start);
    for _ in 0..10 {
        assert_eq!(b.take(Instant::now()), Duration::ZERO);
    }
    let mut sent_at = Vec::new();
    for _ in 0..3 {
        loop {
            let w = b.take(Instant::now());
            if w.is_zero() {
                break;
            }
            tokio::time::sleep(w).await;
        }
        sent_at.push(Instant::now() - start);
    }
    assert_eq!(
        sent_at,
        [
            Duration::from_secs(2),
            Duration::from_secs(4),
            Duration::from_secs(6)
        ]
    );
    // Idle time refills up to the burst, not beyond.
    tokio::time::sleep(Duration::from_secs(100)).await;
    let n = (0..20)
        .take_while(|_| b.take(Instant::now()).is_zero())
        .count();
    assert_eq!(n, 10);
}

#[test]
fn backoff_follows_the_schedule_with_jitter() {
    for (n, base) in [(1, 5.0), (2, 15.0), (3, 30.0), (4, 60.0), (9, 60.0)] {
        for _ in 0..50 {
            let schedule: Vec<_> = BACKOFF.iter().map(|s| Duration::from_secs(*s)).collect();
            let d = backoff_delay(&schedule, n).as_secs_f64();
            assert!(d >= base * 0.8 && d <= base * 1.2, "{n}: {d}");
        }
    }
}

#[test]
fn indicators() {
    assert_eq!(State::Joined.indicator(), "green");
    assert_eq!(State::Reconnecting.indicator(), "yellow");
    assert_eq!(State::Connected.indicator(), "yellow");
    assert_eq!(State::Error.indicator(), "red");
    assert_eq!(State::NotInitialized.indicator(), "red");
}
