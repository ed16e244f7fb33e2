//! A real IRC server (ngircd from Debian) on a loopback port, and a small independent
//! IRC client (std sockets + the `irc` crate's message parser) to sit in its channels.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use irc::proto::{Command as IrcCommand, Message};

/// Where Debian installs ngircd.
pub const NGIRCD: &str = "/usr/sbin/ngircd";

/// How a test server is set up.
#[derive(Default, Clone)]
pub struct IrcdOpts {
    /// `[Global] Password` (clients must send PASS).
    pub password: Option<String>,
    /// A predefined channel `#keyed` with this key (+k).
    pub channel_key: Option<String>,
    /// TLS listener with this certificate chain and key (PEM files).
    pub tls: Option<(PathBuf, PathBuf)>,
}

/// A running ngircd.
pub struct Ircd {
    child: Option<Child>,
    dir: tempfile::TempDir,
    /// Plain-text port.
    pub port: u16,
    /// TLS port, when asked for.
    pub tls_port: Option<u16>,
    opts: IrcdOpts,
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

impl Ircd {
    /// Starts ngircd; fails the test when it is not installed (the test command installs it).
    pub fn start(opts: IrcdOpts) -> Self {
        assert!(
            Path::new(NGIRCD).is_file(),
            "{NGIRCD} is missing: install the Debian package ngircd (scripts/test does)"
        );
        let dir = tempfile::tempdir().expect("tmp");
        let port = free_port();
        let tls_port = opts.tls.as_ref().map(|_| free_port());
        let mut me = Self {
            child: None,
            dir,
            port,
            tls_port,
            opts,
        };
        me.spawn();
        me
    }

    fn spawn(&mut self) {
        let d = self.dir.path();
        let mut conf = format!(
            "[Global]\nName = irc.paw.test\nInfo = paw test server\nListen = 127.0.0.1\nPorts = {}\n\
             MotdPhrase = paw test server\nPidFile = {}/ngircd.pid\n",
            self.port,
            d.display()
        );
        if let Some(pw) = &self.opts.password {
            conf.push_str(&format!("Password = {pw}\n"));
        }
        conf.push_str(
            "[Limits]\nMaxNickLength = 9\nPingTimeout = 120\nPongTimeout = 20\nMaxConnectionsIP = 0\n\
             [Options]\nPAM = no\nIdent = no\nDNS = no\nOperCanUseMode = yes\n",
        );
        if let (Some((cert, key)), Some(p)) = (&self.opts.tls, self.tls_port) {
            conf.push_str(&format!(
                "[SSL]\nCertFile = {}\nKeyFile = {}\nPorts = {p}\n",
                cert.display(),
                key.display()
            ));
        }
        if let Some(k) = &self.opts.channel_key {
            conf.push_str(&format!("[Channel]\nName = #keyed\nModes = +k {k}\n"));
        }
        let conf_path = d.join("ngircd.conf");
        std::fs::write(&conf_path, conf).expect("conf");
        let log = std::fs::File::create(d.join("ngircd.log")).expect("log");
        let child = Command::new(NGIRCD)
            .arg("-n")
            .arg("-f")
            .arg(&conf_path)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("spawn ngircd");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        for p in [Some(self.port), self.tls_port].into_iter().flatten() {
            while TcpStream::connect(("127.0.0.1", p)).is_err() {
                assert!(
                    Instant::now() < deadline,
                    "ngircd did not listen on {p}; log:\n{}",
                    self.log()
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    /// The server's log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("ngircd.log")).unwrap_or_default()
    }

    /// Kills the server (SIGKILL) and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on the same ports.
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }
}

impl Drop for Ircd {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Writes the IRC credentials (`.agents/skills/irc-cli/secrets/.env`, mode 0600) under
/// `agents`.
pub fn write_env(agents: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let p = agents.join("skills/irc-cli/secrets/.env");
    std::fs::create_dir_all(p.parent().expect("dir")).expect("mkdir");
    std::fs::write(&p, body).expect("env");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).expect("chmod");
}

/// The credentials for a server on loopback `port`: channel `#paw`, nick `nick`, then
/// `extra` lines.
pub fn env_for(port: u16, nick: &str, extra: &str) -> String {
    format!("IRC_SERVER=127.0.0.1\nIRC_PORT={port}\nIRC_CHANNEL=#paw\nIRC_NICK={nick}\n{extra}")
}

/// An independent IRC client in the test.
pub struct Peer {
    w: TcpStream,
    r: BufReader<TcpStream>,
    /// Its nick.
    pub nick: String,
}

impl Peer {
    /// Connects, registers as `nick` (sending `PASS` when given) and joins `channel`.
    pub fn join(
        port: u16,
        pass: Option<&str>,
        nick: &str,
        channel: &str,
        key: Option<&str>,
    ) -> Self {
        let mut p = Self::register(port, pass, nick);
        match key {
            Some(k) => p.send(&format!("JOIN {channel} {k}")),
            None => p.send(&format!("JOIN {channel}")),
        }
        let me = nick.to_string();
        p.wait(|m| {
            matches!(&m.command, IrcCommand::JOIN(..)) && m.source_nickname() == Some(me.as_str())
        });
        p
    }

    /// Connects and registers as `nick` (sending `PASS` when given), joining nothing.
    pub fn register(port: u16, pass: Option<&str>, nick: &str) -> Self {
        let s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(15)))
            .expect("timeout");
        let mut p = Self {
            w: s.try_clone().expect("clone"),
            r: BufReader::new(s),
            nick: nick.to_string(),
        };
        if let Some(pw) = pass {
            p.send(&format!("PASS {pw}"));
        }
        p.send(&format!("NICK {nick}"));
        p.send(&format!("USER {nick} 0 * :test peer"));
        p.wait(|m| {
            matches!(
                m.command,
                IrcCommand::Response(irc::proto::Response::RPL_WELCOME, _)
            )
        });
        p
    }

    /// Sends one raw line.
    pub fn send(&mut self, line: &str) {
        self.w
            .write_all(format!("{line}\r\n").as_bytes())
            .expect("peer write");
    }

    /// Reads messages (answering PING) until `f` accepts one; fails after 15 s.
    pub fn wait(&mut self, mut f: impl FnMut(&Message) -> bool) -> Message {
        loop {
            let mut line = String::new();
            let n = self.r.read_line(&mut line).expect("peer read (timed out?)");
            assert!(n > 0, "server closed the peer's connection");
            let Ok(m) = line.trim_end().parse::<Message>() else {
                continue;
            };
            if let IrcCommand::PING(a, _) = &m.command {
                let a = a.clone();
                self.send(&format!("PONG :{a}"));
                continue;
            }
            if f(&m) {
                return m;
            }
        }
    }

    /// The next PRIVMSG: (from, target, text).
    pub fn privmsg(&mut self) -> (String, String, String) {
        let m = self.wait(|m| matches!(m.command, IrcCommand::PRIVMSG(..)));
        let from = m.source_nickname().unwrap_or("").to_string();
        match m.command {
            IrcCommand::PRIVMSG(t, text) => (from, t, text),
            _ => unreachable!(),
        }
    }
}
