//! Unit tests of `paw_daemon::session`.

use super::*;
use futures::FutureExt;
use std::sync::atomic::AtomicUsize;

struct Counter(Arc<AtomicUsize>);

impl SessionResource for Counter {
    fn close(self: Arc<Self>) -> BoxFuture<'static, ()> {
        let c = self.0.clone();
        async move {
            c.fetch_add(1, Ordering::SeqCst);
        }
        .boxed()
    }
    fn state(&self) -> String {
        "joined".into()
    }
}

#[tokio::test]
async fn names_are_reused_and_validated() {
    let s = Sessions::new(CancellationToken::new());
    let a = s.open(Some("alice"), None).expect("open");
    let b = s.open(Some("alice"), None).expect("open");
    assert!(Arc::ptr_eq(&a, &b));
    assert_eq!(a.id, "alice");
    let d = s.default_session().expect("open");
    assert_eq!(d.id, "default");
    assert!(Arc::ptr_eq(
        &d,
        &s.open(Some("default"), None).expect("open")
    ));
    let anon = s.open(None, None).expect("open");
    assert!(anon.id.starts_with("s-"));
    for bad in ["", "../x", ".hidden", "a b", &"x".repeat(65)] {
        assert!(s.open(Some(bad), None).is_err(), "{bad:?}");
    }
    assert_eq!(s.len(), 3);
}

#[tokio::test]
async fn close_runs_teardown_once_and_refuses_new_resources() {
    let s = Sessions::new(CancellationToken::new());
    let sess = s.open(Some("x"), None).expect("open");
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    sess.attach("irc", move || Arc::new(Counter(c)))
        .expect("attach");
    assert_eq!(s.list()[0].irc_state, "joined");
    let token = sess.cancel_token().clone();
    assert!(s.close("x").await);
    assert!(!s.close("x").await);
    assert_eq!(count.load(Ordering::SeqCst), 1);
    assert!(token.is_cancelled());
    assert!(sess.is_closed());
    let c = count.clone();
    assert!(sess.attach("irc", move || Arc::new(Counter(c))).is_err());
    assert!(s.get("x").is_none());
}

#[tokio::test]
async fn bound_and_idle_sessions_close_by_rule() {
    let s = Sessions::new(CancellationToken::new());
    s.open(Some("bound"), Some(7)).expect("open");
    s.open(Some("free"), None).expect("open");
    assert_eq!(s.close_bound(8).await, 0);
    assert_eq!(s.close_bound(7).await, 1);
    assert_eq!(s.close_idle(Duration::from_secs(3600)).await, 0);
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(s.close_idle(Duration::from_millis(1)).await, 1);
    assert!(s.is_empty());
}

#[tokio::test]
async fn root_cancel_reaches_sessions() {
    let root = CancellationToken::new();
    let s = Sessions::new(root.clone());
    let sess = s.default_session().expect("open");
    root.cancel();
    assert!(sess.cancel_token().is_cancelled());
}
