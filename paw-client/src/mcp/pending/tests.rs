//! Unit tests of `paw_client::mcp::pending`.

use super::*;

fn asked(command: &str, session: &str) -> Asked {
    Asked {
        command: command.into(),
        session: session.into(),
    }
}

#[test]
fn a_nonce_is_redeemed_once_for_what_it_was_issued_for() {
    let mut p = Pending::default();
    let t = Instant::now();
    let a = asked("rss remove --name m1", "s");
    let n = p.issue(a.clone(), t);
    assert_eq!(n.len(), 43, "{n}");
    assert_eq!(p.redeem(&n, &a, t + Duration::from_secs(1)), Ok(()));
    assert_eq!(p.redeem(&n, &a, t), Err(Refused::Unknown), "single use");
    assert!(p.is_empty());
}

#[test]
fn another_command_session_or_a_late_answer_is_refused_and_burns_the_nonce() {
    let mut p = Pending::default();
    let t = Instant::now();
    let a = asked("rss remove --name m1", "s");
    for (other, when, why) in [
        (asked("rss remove --name m2", "s"), t, Refused::Mismatch),
        (asked("rss remove --name m1 ", "s"), t, Refused::Mismatch),
        (asked("rss remove --name m1", "t"), t, Refused::Mismatch),
        (a.clone(), t + TTL, Refused::Expired),
    ] {
        let n = p.issue(a.clone(), t);
        assert_eq!(p.redeem(&n, &other, when), Err(why));
        assert_eq!(p.redeem(&n, &a, t), Err(Refused::Unknown));
    }
    assert_eq!(p.redeem("forged", &a, t), Err(Refused::Unknown));
}

#[test]
fn the_table_is_capped_and_sheds_the_oldest_and_the_expired() {
    let mut p = Pending::default();
    let t = Instant::now();
    let a = asked("irc send --to bob --text hi", "s");
    let first = p.issue(a.clone(), t);
    let mut last = String::new();
    for _ in 0..MAX_PENDING * 3 {
        last = p.issue(a.clone(), t);
    }
    assert_eq!(p.len(), MAX_PENDING);
    assert_eq!(p.redeem(&first, &a, t), Err(Refused::Unknown));
    assert_eq!(p.redeem(&last, &a, t), Ok(()));
    p.issue(a.clone(), t + TTL);
    assert_eq!(p.len(), 1, "the expired ones went");
}

#[test]
fn nonces_differ() {
    let mut p = Pending::default();
    let t = Instant::now();
    let a = asked("x", "s");
    let mut seen = std::collections::HashSet::new();
    for _ in 0..MAX_PENDING {
        assert!(seen.insert(p.issue(a.clone(), t)));
    }
}
