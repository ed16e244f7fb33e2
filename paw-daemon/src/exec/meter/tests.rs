//! The meter's throttle: a call waits for a pass only past the slack.

use std::time::Duration;

use super::*;

#[test]
fn a_call_waits_for_a_pass_once_more_than_the_slack_is_unpruned() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let m = std::sync::Arc::new(Meter::new(1 << 20));
        // Under a twentieth of the cap: no wait.
        m.wrote(40_000);
        tokio::time::timeout(Duration::from_millis(50), m.throttle())
            .await
            .expect("no wait under the slack");
        // Past it: the call waits until a pass that saw those bytes ends.
        m.wrote(40_000);
        let seen = m.pass_begins();
        let waiting = tokio::spawn({
            let m = m.clone();
            async move { m.throttle().await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "a call went on past the slack");
        m.pass_ended(seen);
        tokio::time::timeout(Duration::from_millis(200), waiting)
            .await
            .expect("the pass let it go")
            .expect("task");
        // No cap, never a wait.
        let none = Meter::new(0);
        none.wrote(10 << 20);
        tokio::time::timeout(Duration::from_millis(50), none.throttle())
            .await
            .expect("no cap: no wait");
    });
}

#[test]
fn journal_lines_are_owed_until_materialised_and_the_reserve_is_at_most_half_the_cap() {
    let m = Meter::new(1 << 20);
    m.wrote(10_000);
    m.owe(10_000);
    assert_eq!(m.reserve(1 << 20), 10_000);
    m.materialised(4_000);
    assert_eq!(m.reserve(1 << 20), 6_000);
    // The run files count as written, the journal line once more.
    assert_eq!(m.pass_begins(), 14_000);
    // A resumed backlog (never owed) counts as written and owes nothing below zero.
    m.materialised(50_000);
    assert_eq!(m.reserve(1 << 20), 0);
    assert_eq!(m.pass_begins(), 64_000);
    // A stalled materialiser keeps at most half the cap free.
    m.owe(10 << 20);
    assert_eq!(m.reserve(1 << 20), 1 << 19);
}
