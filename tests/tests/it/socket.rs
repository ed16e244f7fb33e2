//! Socket hygiene (README.md "Where files live"): modes, one daemon per socket, stale sockets, clean exit, peer uid.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::Command;

use paw_tests::{Daemon, Opts};
use serde_json::json;

fn mode(p: &std::path::Path) -> u32 {
    std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777
}

#[test]
fn socket_is_0600_in_a_0700_directory() {
    let d = Daemon::start();
    assert_eq!(mode(&d.socket), 0o600);
    assert_eq!(mode(d.socket.parent().expect("dir")), 0o700);
}

#[test]
fn a_second_daemon_on_the_same_socket_refuses_to_start() {
    let d = Daemon::start();
    let (status, log) = Daemon::start_failing(Opts {
        socket: Some(d.socket.clone()),
        ..Opts::default()
    });
    assert!(!status.success());
    assert!(
        log.contains(&format!(
            "paw-daemon is already running on {}",
            d.socket.display()
        )),
        "{log}"
    );
    // The first one is untouched.
    assert_eq!(d.exec("hello")["exit_code"], 0);
}

#[test]
fn a_stale_socket_is_replaced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let socket = dir.path().join("run").join("paw.sock");
    std::fs::create_dir_all(socket.parent().expect("dir")).expect("dir");
    // A socket file nobody listens on, as a killed daemon leaves it.
    drop(std::os::unix::net::UnixListener::bind(&socket).expect("bind"));
    assert!(socket.exists());
    assert!(std::os::unix::net::UnixStream::connect(&socket).is_err());
    let d = Daemon::start_with(Opts {
        home: Some(dir.path().to_path_buf()),
        socket: Some(socket.clone()),
        ..Opts::default()
    });
    assert!(
        d.log.text().contains("replacing stale socket"),
        "{}",
        d.log.text()
    );
    assert_eq!(d.exec("hello")["exit_code"], 0);
}

#[test]
fn a_killed_daemon_leaves_a_socket_the_next_one_replaces() {
    let dir = tempfile::tempdir().expect("tempdir");
    let opts = Opts {
        home: Some(dir.path().to_path_buf()),
        ..Opts::default()
    };
    let d = Daemon::start_with(opts.clone());
    let socket = d.socket.clone();
    d.signal(libc::SIGKILL);
    drop(d);
    assert!(socket.exists());
    let d = Daemon::start_with(opts);
    assert_eq!(d.exec("hello")["exit_code"], 0);
}

#[test]
fn sigterm_and_sigint_remove_the_socket_and_exit_cleanly() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let mut d = Daemon::start();
        let socket = d.socket.clone();
        assert_eq!(d.exec("hello")["exit_code"], 0);
        d.signal(sig);
        let status = d.stop();
        assert!(status.success(), "signal {sig}: {status:?}");
        assert!(!socket.exists(), "socket left behind after signal {sig}");
    }
}

#[test]
fn a_peer_with_another_uid_is_refused_before_anything_is_read() {
    assert!(
        rustix::process::geteuid().is_root(),
        "this test switches to another uid and must run as root (as CI does)"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let open_dir = dir.path().join("open");
    std::fs::create_dir(&open_dir).expect("dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::set_permissions(&open_dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let socket = open_dir.join("paw.sock");
    let d = Daemon::start_with(Opts {
        socket: Some(socket.clone()),
        ..Opts::default()
    });
    // Open the file permissions so only the peer-credential check stands in the way.
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    // A raw client (paw-client itself refuses a socket that is not its user's before it
    // connects: `permissions::the_client_refuses_a_socket_owned_by_another_user`).
    let mut peer = Command::new("socat")
        .arg("-")
        .arg(format!("UNIX-CONNECT:{}", socket.display()))
        .uid(65534)
        .gid(65534)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("socat (scripts/test installs it) as nobody");
    {
        use std::io::Write;
        let mut stdin = peer.stdin.take().expect("stdin");
        let _ = stdin.write_all(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"terminal.exec\",\"params\":{\"command\":\"hello\"}}\n",
        );
    }
    let out = peer.wait_with_output().expect("socat output");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("HELLO"),
        "{out:?}"
    );
    assert!(
        d.log
            .wait_for("refused a connection from another user", paw_tests::WAIT),
        "{}",
        d.log.text()
    );
    // Our own uid is still served.
    assert_eq!(d.conn().exec(json!({"command": "hello"}))["exit_code"], 0);
}
