//! A real IRC network with services, from Debian: InspIRCd 3 with Anope 2 linked to it
//! (NickServ with SASL), on loopback ports, for the account cases scripted servers cannot
//! teach: how real services answer a wrong password, a ghost, a refused server password.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use irc::proto::Command as IrcCommand;

use crate::ircd::{Peer, free_port};

/// Where Debian installs them.
pub const INSPIRCD: &str = "/usr/sbin/inspircd";
/// Anope's binary.
pub const ANOPE: &str = "/usr/sbin/anope";

/// A running InspIRCd + Anope pair.
pub struct Network {
    children: Vec<Child>,
    dir: tempfile::TempDir,
    /// The client port.
    pub port: u16,
    /// The password clients must send with `PASS`, if any.
    pub password: Option<String>,
}

impl Network {
    /// Starts both and waits until the services have linked and synced. Fails the test when
    /// either is not installed (the test command installs them).
    pub fn start(password: Option<&str>) -> Self {
        for bin in [INSPIRCD, ANOPE] {
            assert!(
                Path::new(bin).is_file(),
                "{bin} is missing: install the Debian packages inspircd and anope (scripts/test does)"
            );
        }
        let dir = tempfile::tempdir().expect("tmp");
        let d = &dir.path().to_path_buf();
        let (port, link) = (free_port(), free_port());
        let pass = password
            .map(|p| format!(" password=\"{p}\""))
            .unwrap_or_default();
        let conf = format!(
            r#"<server name="irc.paw.test" description="paw test" network="PawNet">
<admin name="paw" nick="paw" email="paw@paw.test">
<bind address="127.0.0.1" port="{port}" type="clients">
<bind address="127.0.0.1" port="{link}" type="servers">
<connect name="main" allow="*" timeout="20" pingfreq="120" sendq="262144" recvq="8192" localmax="1000" globalmax="1000" useident="no" limit="5000"{pass}>
<options prefixquit="Quit: " casemapping="ascii">
<security hidesplits="no">
<performance nouserdns="yes">
<limits maxnick="30">
<pid file="{d}/inspircd.pid">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{d}/inspircd.log">
<module name="spanningtree">
<module name="services_account">
<module name="sasl">
<module name="cap">
<module name="ircv3">
<module name="svshold">
<module name="hidechans">
<module name="chghost">
<sasl target="services.paw.test">
<link name="services.paw.test" ipaddr="127.0.0.1" port="{link}" allowmask="127.0.0.0/8" sendpass="linkpw" recvpass="linkpw">
<uline server="services.paw.test" silent="yes">
"#,
            d = d.display()
        );
        std::fs::write(d.join("inspircd.conf"), conf).expect("conf");
        let anope_dir = d.join("anope");
        for sub in ["", "db", "logs"] {
            std::fs::create_dir_all(anope_dir.join(sub)).expect("mkdir");
        }
        std::fs::write(anope_dir.join("services.motd"), "").expect("motd");
        std::fs::write(
            anope_dir.join("services.conf"),
            anope_conf(link, &anope_dir),
        )
        .expect("anope conf");
        let log = |name: &str| std::fs::File::create(d.join(name)).expect("log");
        let ircd = Command::new(INSPIRCD)
            .arg("--config")
            .arg(d.join("inspircd.conf"))
            .args(["--nofork", "--runasroot"])
            .stdin(Stdio::null())
            .stdout(log("inspircd.out"))
            .stderr(log("inspircd.err"))
            .spawn()
            .expect("spawn inspircd");
        let mut me = Self {
            children: vec![ircd],
            dir,
            port,
            password: password.map(str::to_string),
        };
        me.wait_for("inspircd.out", "InspIRCd is now running", port);
        let services = Command::new(ANOPE)
            .arg(format!("--confdir={}", anope_dir.display()))
            .arg(format!("--dbdir={}", anope_dir.join("db").display()))
            .arg(format!("--logdir={}", anope_dir.join("logs").display()))
            .args([
                "--modulesdir=/usr/lib/anope",
                "--localedir=/usr/share/locale",
                "--nofork",
            ])
            .stdin(Stdio::null())
            .stdout(log("anope.out"))
            .stderr(log("anope.err"))
            .spawn()
            .expect("spawn anope");
        me.children.push(services);
        me.wait_for(
            "anope.out",
            "services.paw.test (paw test services) is done syncing",
            port,
        );
        me
    }

    fn wait_for(&self, file: &str, needle: &str, port: u16) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.text(file).contains(needle) {
            assert!(
                Instant::now() < deadline,
                "{file} never said {needle:?} (port {port}):\n{}\n{}",
                self.text(file),
                self.text("inspircd.err")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn text(&self, file: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(file)).unwrap_or_default()
    }

    /// A registered client (with the network's password).
    pub fn peer(&self, nick: &str) -> Peer {
        Peer::register(self.port, self.password.as_deref(), nick)
    }

    /// Registers the account `nick` with `password` at NickServ, then disconnects.
    pub fn register_account(&self, nick: &str, password: &str) {
        let mut p = self.peer(nick);
        p.send(&format!("PRIVMSG NickServ :REGISTER {password}"));
        let m = p.wait(|m| {
            matches!(&m.command, IrcCommand::NOTICE(_, t) if t.contains("registered"))
                && m.source_nickname() == Some("NickServ")
        });
        assert!(
            matches!(&m.command, IrcCommand::NOTICE(_, t) if t.replace('\x02', "").contains(&format!("{nick} registered"))),
            "NickServ did not register {nick}: {m:?}"
        );
        p.send("QUIT");
    }
}

impl Drop for Network {
    fn drop(&mut self) {
        for c in self.children.iter_mut().rev() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Anope's configuration: the InspIRCd 3 protocol, a flat-file database, SASL, and a
/// NickServ with registration open at once (no e-mail, no delay).
fn anope_conf(link: u16, dir: &Path) -> String {
    format!(
        r#"uplink {{ host = "127.0.0.1"; ipv6 = no; ssl = no; port = {link}; password = "linkpw"; }}
serverinfo {{ name = "services.paw.test"; description = "paw test services"; pid = "{d}/anope.pid"; motd = "{d}/services.motd"; }}
module {{ name = "inspircd3"; use_server_side_mlock = yes; use_server_side_topiclock = yes; }}
networkinfo {{ networkname = "PawNet"; nicklen = 30; userlen = 10; hostlen = 64; chanlen = 32; modelistsize = 100; vhost_chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-"; allow_undotted_vhosts = false; disallow_start_or_end = ".-"; }}
options {{ casemap = "ascii"; seed = 7171; strictpasswords = no; badpasslimit = 0; badpasstimeout = 1h; updatetimeout = 5m; expiretimeout = 30m; readtimeout = 5s; warningtimeout = 4h; timeoutcheck = 3s; retrywait = 60s; hideprivilegedcommands = yes; hideregisteredcommands = yes; }}
log {{ target = "services.log"; logage = 1; admin = "*"; override = "*"; commands = "*"; servers = "*"; users = "*"; other = "*"; rawio = no; debug = no; }}
module {{ name = "db_flatfile"; database = "anope.db"; fork = no; }}
module {{ name = "enc_sha256"; }}
module {{ name = "m_sasl"; }}
module {{ name = "help"; }}
service {{ nick = "NickServ"; user = "services"; host = "services.paw.test"; gecos = "Nickname Registration Service"; }}
module {{ name = "nickserv"; client = "NickServ"; forceemail = no; confirmemailchanges = no; defaults = "killprotect ns_secure ns_private hide_email hide_mask"; regdelay = 0s; expire = 21d; secureadmins = yes; modeonid = yes; hidenetsplitquit = no; killquick = 20s; kill = 60s; enforceruser = "enforcer"; enforcerhost = "services.paw.test"; releasetimeout = 1m; guestnickprefix = "Guest"; nonicknameownership = no; passlen = 32; }}
command {{ service = "NickServ"; name = "HELP"; command = "generic/help"; }}
module {{ name = "ns_identify"; maxlogins = 10; }}
command {{ service = "NickServ"; name = "IDENTIFY"; command = "nickserv/identify"; }}
module {{ name = "ns_register"; registration = "none"; resenddelay = 90s; }}
command {{ service = "NickServ"; name = "REGISTER"; command = "nickserv/register"; }}
module {{ name = "ns_recover"; restoreonrecover = yes; }}
command {{ service = "NickServ"; name = "RECOVER"; command = "nickserv/recover"; }}
module {{ name = "ns_set"; }}
command {{ service = "NickServ"; name = "SET"; command = "nickserv/set"; }}
command {{ service = "NickServ"; name = "SET PASSWORD"; command = "nickserv/set/password"; }}
"#,
        d = dir.display()
    )
}
