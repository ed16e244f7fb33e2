//! The network guard with a proxy (docs/network.md): a proxy on loopback is trusted for paw's own
//! connection to it and nothing else; every target is checked, through the proxy or direct
//! (`NO_PROXY`), IP literals and encoded forms included.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use paw_tests::{Daemon, Opts};
use serde_json::Value;

/// A forward proxy on loopback that records every request line and answers each with a
/// one-item feed, as a proxy that fetched the target would.
struct Proxy {
    port: u16,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Proxy {
    fn start() -> Self {
        let l = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = l.local_addr().expect("addr").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for s in l.incoming().flatten() {
                let mut r = BufReader::new(s.try_clone().expect("clone"));
                let mut first = String::new();
                let _ = r.read_line(&mut first);
                log.lock().expect("log").push(first.trim().to_string());
                let mut line = String::new();
                while r.read_line(&mut line).unwrap_or(0) > 2 {
                    line.clear();
                }
                let body = paw_tests::http::rss_feed("Proxied", "p", 1, 5);
                let _ = write!(
                    &s,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Proxy { port, seen }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().expect("log").clone()
    }
}

/// A loopback service the agent must not reach; counts connections.
fn victim() -> (u16, Arc<Mutex<usize>>) {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    let hits = Arc::new(Mutex::new(0));
    let h = hits.clone();
    std::thread::spawn(move || {
        for _ in l.incoming() {
            *h.lock().expect("hits") += 1;
        }
    });
    (port, hits)
}

fn refused(d: &Daemon, url: &str) {
    let o: Value = d.exec(&format!("rss fetch --url {url}"));
    assert_eq!(o["error_code"], "Forbidden", "{url}: {o}");
}

fn targets(proxy: u16, victim: u16) -> Vec<String> {
    vec![
        format!("http://127.0.0.1:{victim}/x.xml"),
        format!("http://2130706433:{victim}/x.xml"),
        format!("http://0x7f000001:{victim}/x.xml"),
        format!("http://0177.0.0.1:{victim}/x.xml"),
        format!("http://127.0.0.2:{victim}/x.xml"),
        format!("http://[::1]:{victim}/x.xml"),
        format!("http://[::ffff:127.0.0.1]:{victim}/x.xml"),
        format!("http://[::ffff:0:127.0.0.1]:{victim}/x.xml"),
        format!("http://localhost:{victim}/x.xml"),
        format!("http://10.0.0.1:{victim}/x.xml"),
        format!("http://192.168.1.1/x.xml"),
        format!("http://169.254.169.254/latest/meta-data/"),
        // The proxy's own host and port as a target is a target like any other.
        format!("http://127.0.0.1:{proxy}/x.xml"),
    ]
}

#[test]
fn a_proxy_on_loopback_opens_no_path_to_loopback_or_private_targets() {
    let proxy = Proxy::start();
    let (vport, hits) = victim();
    let d = Daemon::with_config(&format!(
        "[net]\nproxy = \"http://127.0.0.1:{}\"\ntimeout_ms = 3000\n",
        proxy.port
    ));
    for url in targets(proxy.port, vport) {
        refused(&d, &url);
    }
    assert_eq!(proxy.seen(), Vec::<String>::new(), "the proxy was asked");
    assert_eq!(*hits.lock().expect("hits"), 0);
    // A name only the proxy can resolve still goes through it: the proxy works.
    let o = d.exec("rss fetch --url http://feeds.paw-test.invalid/x.xml");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["count_total"], 1, "{o}");
    assert_eq!(
        proxy.seen(),
        ["GET http://feeds.paw-test.invalid/x.xml HTTP/1.1"]
    );
}

#[test]
fn a_proxy_from_the_environment_and_no_proxy_open_no_path_either() {
    let proxy = Proxy::start();
    let (vport, hits) = victim();
    let d = Daemon::start_with(Opts {
        config: Some("[net]\ntimeout_ms = 3000\n".into()),
        env: vec![
            (
                "HTTP_PROXY".into(),
                format!("http://127.0.0.1:{}", proxy.port),
            ),
            (
                "http_proxy".into(),
                format!("http://127.0.0.1:{}", proxy.port),
            ),
            ("NO_PROXY".into(), "127.0.0.1,localhost".into()),
            ("no_proxy".into(), "127.0.0.1,localhost".into()),
        ],
        ..Opts::default()
    });
    for url in targets(proxy.port, vport) {
        refused(&d, &url);
    }
    assert_eq!(proxy.seen(), Vec::<String>::new(), "the proxy was asked");
    assert_eq!(
        *hits.lock().expect("hits"),
        0,
        "NO_PROXY went around the guard"
    );
    let o = d.exec("rss fetch --url http://feeds.paw-test.invalid/x.xml");
    assert_eq!(o["exit_code"], 0, "{o}");
}
