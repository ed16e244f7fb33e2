//! The systemd units in `packaging/` and socket activation, checked with systemd's own tools
//! (`systemd-analyze verify`, `systemd-socket-activate`; scripts/test installs systemd).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use paw_proto::paths::{SOCKET_DIR, SOCKET_FILE};
use paw_tests::daemon_bin;

/// `systemd-analyze verify --user` on the two units in `dir`; returns its stderr.
fn verify_units(dir: &Path, runtime: &Path) -> String {
    let out = Command::new("systemd-analyze")
        .args([
            "verify",
            "--user",
            "paw-daemon.socket",
            "paw-daemon.service",
        ])
        .current_dir(dir)
        .env("XDG_RUNTIME_DIR", runtime)
        .output()
        .expect("systemd-analyze (scripts/test installs systemd)");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

fn unit(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../packaging/systemd")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_units_verify_and_match_the_code() {
    let socket = unit("paw-daemon.socket");
    let service = unit("paw-daemon.service");
    // The socket unit listens where paw looks by default: $XDG_RUNTIME_DIR/paw/paw.sock.
    assert!(
        socket
            .lines()
            .any(|l| l == format!("ListenStream=%t/{SOCKET_DIR}/{SOCKET_FILE}")),
        "{socket}"
    );
    assert!(socket.contains("SocketMode=0600") && socket.contains("DirectoryMode=0700"));
    // The service runs the binary the client looks for, and says when it is ready.
    let exec = service
        .lines()
        .find(|l| l.starts_with("ExecStart="))
        .expect("ExecStart");
    assert!(exec.ends_with("/paw-daemon"), "{exec}");
    assert!(service.contains("Type=notify"));
    for hardening in [
        "UMask=0077",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
    ] {
        assert!(service.contains(hardening), "{hardening}");
    }

    let dir = tempfile::tempdir().expect("tempdir");
    let runtime = dir.path().join("runtime");
    std::fs::create_dir(&runtime).expect("runtime dir");
    std::fs::write(dir.path().join("paw-daemon.socket"), &socket).expect("write");
    // verify checks that ExecStart exists: point it at the binary under test.
    let service = service.replace(exec, &format!("ExecStart={}", daemon_bin().display()));
    std::fs::write(dir.path().join("paw-daemon.service"), service).expect("write");
    let stderr = verify_units(dir.path(), &runtime);
    assert!(!stderr.contains("Unknown"), "{stderr}");
}

#[test]
fn a_socket_passed_by_systemd_is_served() {
    let dir = tempfile::tempdir().expect("tempdir");
    let socket = dir.path().join("activated.sock");
    let mut child = Command::new("systemd-socket-activate")
        .arg("-l")
        .arg(&socket)
        .arg(daemon_bin())
        .arg("--home")
        .arg(dir.path().join("home"))
        .arg("--socket")
        .arg(&socket)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("systemd-socket-activate (scripts/test installs systemd)");
    // systemd-socket-activate binds first and starts the daemon on the first connection.
    let deadline = Instant::now() + paw_tests::WAIT;
    let stream = loop {
        match UnixStream::connect(&socket) {
            Ok(s) => break s,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => panic!("no socket: {e}"),
        }
    };
    stream
        .set_read_timeout(Some(paw_tests::WAIT))
        .expect("timeout");
    let mut r = BufReader::new(stream);
    r.get_mut()
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"terminal.exec\",\"params\":{\"command\":\"hello\"}}\n")
        .expect("write");
    let mut line = String::new();
    r.read_line(&mut line).expect("reply");
    let _ = child.kill();
    let _ = child.wait();
    let v: serde_json::Value = serde_json::from_str(&line).expect("json");
    assert_eq!(v["result"]["exit_code"], 0, "{line}");
    assert!(
        v["result"]["stdout"]
            .as_str()
            .unwrap_or("")
            .starts_with("HELLO")
    );
}

#[test]
fn service_install_writes_verifiable_units_and_uninstall_removes_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Paths a unit file must quote: a space, a specifier sign, a variable sign, and in
    // an argument a newline (systemd refuses control characters in the executable's path).
    let bin = dir.path().join("my bin 100% $USER");
    std::fs::create_dir(&bin).expect("bin");
    for (from, to) in [
        (paw_tests::client_bin(), "paw-client"),
        (daemon_bin(), "paw-daemon"),
        (paw_tests::worker_bin(), "paw-test-worker"),
    ] {
        if std::fs::hard_link(&from, bin.join(to)).is_err() {
            std::fs::copy(&from, bin.join(to)).expect("copy");
        }
    }
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("home");
    let data = dir.path().join("paw data 50% $HOME\nx");
    let client = |args: &[&str]| {
        Command::new(bin.join("paw-client"))
            .args(args)
            .env("HOME", &home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env("PAW_HOME", &data)
            .stdin(Stdio::null())
            .output()
            .expect("run client")
    };
    let o = client(&["service", "install", "--no-enable"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let units = home.join(".config/systemd/user");
    let service = std::fs::read_to_string(units.join("paw-daemon.service")).expect("service");
    // Quoted and escaped; the service's home is the one the client used (PAW_HOME).
    let quoted = |p: &Path, exec: bool| {
        let s = p
            .display()
            .to_string()
            .replace('%', "%%")
            .replace('\n', "\\n");
        let s = if exec { s.replace('$', "$$") } else { s };
        format!("\"{s}\"")
    };
    let exec = format!(
        "ExecStart={} --home {}",
        quoted(&bin.join("paw-daemon"), false),
        quoted(&data, true)
    );
    assert!(service.lines().any(|l| l == exec), "{exec}\n{service}");
    assert!(
        service
            .lines()
            .any(|l| l == format!("ReadWritePaths={}", quoted(&data, false))),
        "{service}"
    );
    assert!(units.join("paw-daemon.socket").exists());
    let runtime = dir.path().join("runtime");
    std::fs::create_dir(&runtime).expect("runtime");
    verify_units(&units, &runtime);
    let o = client(&["service", "status"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("installed"),
        "{o:?}"
    );
    let o = client(&["service", "uninstall", "--no-enable"]);
    assert!(o.status.success());
    assert!(!units.join("paw-daemon.service").exists());
    assert_eq!(client(&["service", "status"]).status.code(), Some(3));
}
