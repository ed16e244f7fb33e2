//! Unit tests of `paw_daemon::rpc`.

use super::*;

#[tokio::test]
async fn every_protocol_method_is_registered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = crate::home::Home::create(dir.path()).expect("home");
    let d = Daemon::new(
        Default::default(),
        crate::command::Registry::default(),
        home,
        dir.path().join("s.sock"),
        dir.path().join("no-worker"),
    )
    .expect("daemon");
    let m = module(d.clone());
    let mut names: Vec<&str> = m.method_names().collect();
    names.sort_unstable();
    let mut want = methods::ALL.to_vec();
    want.sort_unstable();
    assert_eq!(names, want);
    d.exec.finish();
}
