//! A real terminal for the console tests: tmux on a private server, driven with
//! `send-keys` and read with `capture-pane`; and a TCP proxy that holds each connection
//! for a while before passing it on (a server that is slow to answer).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server with one window running a command.
pub struct Tmux {
    server: String,
}

impl Tmux {
    /// Runs `argv` in a new `width`×`height` terminal (the window stays after it exits).
    pub fn start(argv: &[String], width: u16, height: u16) -> Self {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let server = format!(
            "paw-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let t = Tmux { server };
        let cmd = argv
            .iter()
            .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
            .collect::<Vec<_>>()
            .join(" ");
        t.tmux(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            &cmd,
            // Keep the pane after the command ends, to look at what it left.
            ";",
            "set-option",
            "-g",
            "remain-on-exit",
            "on",
        ]);
        t
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.server)
            .args(args)
            .output()
            .expect("tmux (apt-get install tmux)");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types keys (tmux key names: `Enter`, `Tab`, `j`, …).
    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.tmux(&["send-keys", "-t", "t", k]);
        }
    }

    /// The screen as text.
    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "t"])
    }

    /// A tmux format of the pane (`#{alternate_on}`, `#{pane_dead}`, …).
    pub fn pane(&self, format: &str) -> String {
        self.tmux(&["display-message", "-p", "-t", "t", format])
            .trim()
            .to_string()
    }

    /// Waits (up to 20 s) until the screen satisfies `ok`; returns it, or fails saying
    /// what was awaited and what the screen showed.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {what}; the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-L")
            .arg(&self.server)
            .arg("kill-server")
            .output();
    }
}

/// Accepts on a loopback port and, `delay` after each connection, connects it to
/// `upstream` and copies both ways. Runs until the process ends.
pub fn delay_proxy(upstream: SocketAddr, delay: Duration) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(client) = conn else { return };
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                let Ok(server) = TcpStream::connect(upstream) else {
                    return;
                };
                let pipe = |mut from: TcpStream, mut to: TcpStream| {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Write);
                    })
                };
                let (c2, s2) = (
                    client.try_clone().expect("clone"),
                    server.try_clone().expect("clone"),
                );
                pipe(client, server);
                pipe(s2, c2);
            });
        }
    });
    port
}
