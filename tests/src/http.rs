//! A scripted HTTP server on loopback for the rss tests: serves the fixture feeds with
//! ETag/Last-Modified and 304s, and answers the edge cases (429, 503, 500, redirects, a
//! gzip bomb, an oversized body, a server that never answers, a page advertising a feed).
//! Every request is logged so tests can count what reached the network.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Response, StatusCode};
use axum::routing::get;

/// One request the server saw.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The path.
    pub path: String,
    /// The `If-None-Match` header.
    pub if_none_match: Option<String>,
    /// The `If-Modified-Since` header.
    pub if_modified_since: Option<String>,
}

#[derive(Default)]
struct Shared {
    log: Vec<Seen>,
    /// Bodies set by tests, served at `/dyn/<name>` (and after 300 ms at `/slowdyn/<name>`).
    dynamic: HashMap<String, String>,
    /// HTML pages set by tests, served at `/page/<name>` (and after 300 ms at
    /// `/slowpage/<name>`).
    pages: HashMap<String, String>,
    /// Documents set by tests with their content type, served at `/doc/<name>` (with a
    /// `Content-Length`) and `/docstream/<name>` (chunked, no length).
    docs: HashMap<String, (String, Vec<u8>)>,
    /// `/slowpage/` requests being answered now, and the most there ever were at once.
    slow_in_flight: usize,
    slow_max_in_flight: usize,
    /// The same for `/slowdyn/` feeds.
    dyn_in_flight: usize,
    dyn_max_in_flight: usize,
}

/// The running server.
pub struct FeedServer {
    /// Its address.
    pub addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    _thread: std::thread::JoinHandle<()>,
}

/// The fixture folder (`tests/fixtures`).
pub fn fixtures() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn etag_of(body: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in body {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("\"{h:016x}\"")
}

const LAST_MODIFIED: &str = "Wed, 18 Feb 2026 01:30:32 GMT";

fn content_type_for(path: &str) -> &'static str {
    if path.ends_with(".json") {
        "application/feed+json"
    } else if path.ends_with(".html") {
        "text/html; charset=utf-8"
    } else {
        "application/xml"
    }
}

fn serve_body(headers: &HeaderMap, body: Vec<u8>, content_type: &str) -> Response<Body> {
    let etag = etag_of(&body);
    if headers.get("if-none-match").and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .header("etag", etag)
            .body(Body::empty())
            .expect("response");
    }
    Response::builder()
        .header("content-type", content_type)
        .header("etag", etag)
        .header("last-modified", LAST_MODIFIED)
        .body(Body::from(body))
        .expect("response")
}

fn log(state: &Arc<Mutex<Shared>>, path: &str, headers: &HeaderMap) {
    let h = |n: &str| {
        headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    state.lock().expect("log").log.push(Seen {
        path: path.to_string(),
        if_none_match: h("if-none-match"),
        if_modified_since: h("if-modified-since"),
    });
}

async fn fixture(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(rest): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/f/{rest}"), &headers);
    if rest.contains("..") {
        return Response::builder()
            .status(400)
            .body(Body::empty())
            .expect("response");
    }
    match std::fs::read(fixtures().join(&rest)) {
        Ok(body) => serve_body(&headers, body, content_type_for(&rest)),
        Err(_) => Response::builder()
            .status(404)
            .body(Body::from("not found"))
            .expect("response"),
    }
}

async fn slow_dynamic(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/slowdyn/{name}"), &headers);
    {
        let mut g = s.lock().expect("state");
        g.dyn_in_flight += 1;
        g.dyn_max_in_flight = g.dyn_max_in_flight.max(g.dyn_in_flight);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    s.lock().expect("state").dyn_in_flight -= 1;
    serve_dynamic(&s, &name, &headers)
}

async fn dynamic(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/dyn/{name}"), &headers);
    serve_dynamic(&s, &name, &headers)
}

fn serve_dynamic(s: &Arc<Mutex<Shared>>, name: &str, headers: &HeaderMap) -> Response<Body> {
    let body = s.lock().expect("state").dynamic.get(name).cloned();
    match body {
        Some(b) => serve_body(headers, b.into_bytes(), "application/rss+xml"),
        None => Response::builder()
            .status(404)
            .body(Body::empty())
            .expect("response"),
    }
}

async fn page(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/page/{name}"), &headers);
    serve_page(&s, &name)
}

/// `/article/<n>`: a generated article page, different for every `n` (about 6 KB of text),
/// not logged (the soak benchmark reads tens of thousands).
async fn article(Path(n): Path<u64>) -> Response<Body> {
    let mut body = format!(
        "<!doctype html><html><head><title>Article {n}</title></head><body><nav><a href=\"/\">home</a></nav><article><h1>Article {n}</h1>"
    );
    for p in 0..12 {
        body.push_str(&format!(
            "<p>Paragraph {p} of article {n}: the quick brown fox {n} jumps over the lazy dog {p}, \
             and the long-running daemon keeps reading what the agent asks for, day after day, \
             for as long as it runs; its stores stay within their caps. ({n}.{p})</p>"
        ));
    }
    body.push_str("</article><footer>footer</footer></body></html>");
    Response::builder()
        .header("content-type", "text/html; charset=utf-8")
        .body(Body::from(body))
        .expect("response")
}

async fn doc(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/doc/{name}"), &headers);
    serve_doc(&s, &name, false)
}

async fn doc_stream(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/docstream/{name}"), &headers);
    serve_doc(&s, &name, true)
}

fn serve_doc(s: &Arc<Mutex<Shared>>, name: &str, stream: bool) -> Response<Body> {
    let doc = s.lock().expect("state").docs.get(name).cloned();
    match doc {
        Some((ctype, bytes)) => {
            let body = if stream {
                // In 16 KiB chunks with no Content-Length: the client must count.
                let reader = std::io::Cursor::new(bytes);
                let codec = tokio_util::codec::BytesCodec::new();
                Body::from_stream(tokio_util::codec::FramedRead::with_capacity(
                    reader,
                    codec,
                    16 << 10,
                ))
            } else {
                Body::from(bytes)
            };
            Response::builder().header("content-type", ctype).body(body)
        }
        None => Response::builder().status(404).body(Body::empty()),
    }
    .expect("response")
}

async fn slow_page(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/slowpage/{name}"), &headers);
    {
        let mut g = s.lock().expect("state");
        g.slow_in_flight += 1;
        g.slow_max_in_flight = g.slow_max_in_flight.max(g.slow_in_flight);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    s.lock().expect("state").slow_in_flight -= 1;
    serve_page(&s, &name)
}

fn serve_page(s: &Arc<Mutex<Shared>>, name: &str) -> Response<Body> {
    let body = s.lock().expect("state").pages.get(name).cloned();
    match body {
        Some(b) => Response::builder()
            .header("content-type", "text/html; charset=utf-8")
            .body(Body::from(b)),
        None => Response::builder().status(404).body(Body::empty()),
    }
    .expect("response")
}

async fn special(
    State(s): State<Arc<Mutex<Shared>>>,
    Path(what): Path<String>,
    headers: HeaderMap,
) -> Response<Body> {
    log(&s, &format!("/x/{what}"), &headers);
    let r = Response::builder();
    match what.as_str() {
        "429-seconds" => r.status(429).header("retry-after", "5").body(Body::empty()),
        "429-date" => {
            let when = std::time::SystemTime::now() + std::time::Duration::from_secs(120);
            let date = httpdate(when);
            r.status(429).header("retry-after", date).body(Body::empty())
        }
        "503" => r.status(503).header("retry-after", "7").body(Body::empty()),
        "500" => r.status(500).body(Body::from("oops")),
        "404" => r.status(404).body(Body::from("nope")),
        "redirect" => r.status(302).header("location", "/f/simple.xml").body(Body::empty()),
        "redirect-loop" => r.status(302).header("location", "/x/redirect-loop").body(Body::empty()),
        "redirect-private" => r.status(302).header("location", "http://10.0.0.1/feed.xml").body(Body::empty()),
        "redirect-metadata" => r
            .status(301)
            .header("location", "http://169.254.169.254/latest/meta-data/")
            .body(Body::empty()),
        "bomb" => r
            .header("content-encoding", "gzip")
            .header("content-type", "application/xml")
            .body(Body::from(bomb())),
        "big" => r
            .header("content-type", "application/xml")
            .body(Body::from(vec![b' '; 3 << 20])),
        "hang" => {
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
            r.body(Body::empty())
        }
        "big-html" => r
            .header("content-type", "text/html")
            .body(Body::from(format!("<html><body><p>{}</p></body></html>", "word ".repeat(600_000)))),
        "json" => r
            .header("content-type", "application/json")
            .body(Body::from("{\"not\": \"html\"}")),
        "redirect-page" => r.status(302).header("location", "/page/article").body(Body::empty()),
        "redirect-doc" => r.status(302).header("location", "/doc/report").body(Body::empty()),
        "bad-xml" => r
            .header("content-type", "application/xml")
            .body(Body::from("<rss version=\"2.0\"><channel><title>broken</title><item><title>x</titl")),
        "page" => r.header("content-type", "text/html").body(Body::from(
            "<html><head><title>Blog</title><link rel=\"alternate\" type=\"application/rss+xml\" title=\"Feed\" href=\"/f/simple.xml\"></head><body>Hi</body></html>",
        )),
        "not-a-feed" => r
            .header("content-type", "text/html")
            .body(Body::from("<html><body>no feed here</body></html>")),
        _ => r.status(404).body(Body::empty()),
    }
    .expect("response")
}

/// 20 MB of spaces, gzip-compressed to about 20 KB; made once (fast compression, so the
/// request under test is never slowed by the server building it).
fn bomb() -> Vec<u8> {
    static BOMB: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BOMB.get_or_init(|| {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let spaces = vec![b' '; 1 << 20];
        for _ in 0..20 {
            enc.write_all(&spaces).expect("gzip");
        }
        enc.finish().expect("gzip")
    })
    .clone()
}

fn httpdate(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (h, m, s) = (rem / 3600, (rem % 3600) / 60, rem % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if mo <= 2 { y + 1 } else { y };
    let wd = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][(days % 7) as usize];
    let mon = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(mo - 1) as usize];
    format!("{wd}, {d:02} {mon} {y} {h:02}:{m:02}:{s:02} GMT")
}

impl FeedServer {
    /// Starts the server on 127.0.0.1 with an OS-chosen port.
    pub fn start() -> Self {
        let _ = bomb();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let state = shared.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let app = Router::new()
                    .route("/f/{*rest}", get(fixture))
                    .route("/dyn/{name}", get(dynamic))
                    .route("/slowdyn/{name}", get(slow_dynamic))
                    .route("/x/{what}", get(special))
                    .route("/page/{name}", get(page))
                    .route("/article/{n}", get(article))
                    .route("/slowpage/{name}", get(slow_page))
                    .route("/doc/{name}", get(doc))
                    .route("/docstream/{name}", get(doc_stream))
                    .with_state(state);
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                tx.send(listener.local_addr().expect("addr"))
                    .expect("ready");
                axum::serve(listener, app).await.expect("serve");
            });
        });
        let addr = rx.recv().expect("server address");
        FeedServer {
            addr,
            shared,
            _thread: thread,
        }
    }

    /// `http://127.0.0.1:<port><path>`
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The config that lets the daemon reach this server (and nothing else private).
    pub fn config(&self) -> String {
        format!(
            "[net]\nallow_hosts = [\"127.0.0.1:{}\"]\ntimeout_ms = 2000\n",
            self.addr.port()
        )
    }

    /// Requests seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.shared.lock().expect("log").log.clone()
    }

    /// How many requests hit `path`.
    pub fn hits(&self, path: &str) -> usize {
        self.seen().iter().filter(|s| s.path == path).count()
    }

    /// Serves `n` one-item feeds `<prefix>0`, `<prefix>1`, … at `<route>/<name>` (`/dyn`,
    /// or `/slowdyn` to answer after 300 ms) and subscribes `d` to them under those names.
    pub fn subscribe(&self, d: &crate::Daemon, prefix: &str, n: usize, route: &str) {
        for i in 0..n {
            let name = format!("{prefix}{i}");
            self.set(&name, &rss_feed(&prefix.to_uppercase(), &name, 1, 10));
            let url = self.url(&format!("{route}/{name}"));
            let r = d.exec(&format!("rss add --name {name} --url {url} --no-verify"));
            assert_eq!(r["exit_code"], 0, "{r}");
        }
    }

    /// Sets the body served at `/dyn/<name>`.
    pub fn set(&self, name: &str, body: &str) {
        self.shared
            .lock()
            .expect("state")
            .dynamic
            .insert(name.to_string(), body.to_string());
    }
}

impl FeedServer {
    /// The most `/slowdyn/` requests the server was answering at once.
    pub fn slow_feeds_max_in_flight(&self) -> usize {
        self.shared.lock().expect("state").dyn_max_in_flight
    }

    /// Forgets the most `/slowdyn/` requests seen at once (counting starts again).
    pub fn reset_slow_feeds_max(&self) {
        let mut g = self.shared.lock().expect("state");
        g.dyn_max_in_flight = g.dyn_in_flight;
    }

    /// The most `/slowpage/` requests the server was answering at once.
    pub fn slow_max_in_flight(&self) -> usize {
        self.shared.lock().expect("state").slow_max_in_flight
    }

    /// Sets the document served at `/doc/<name>` and `/docstream/<name>`, with its
    /// content type.
    pub fn set_doc(&self, name: &str, content_type: &str, bytes: Vec<u8>) {
        self.shared
            .lock()
            .expect("state")
            .docs
            .insert(name.to_string(), (content_type.to_string(), bytes));
    }

    /// Sets the HTML served at `/page/<name>` and `/slowpage/<name>`.
    pub fn set_page(&self, name: &str, html: &str) {
        self.shared
            .lock()
            .expect("state")
            .pages
            .insert(name.to_string(), html.to_string());
    }
}

/// A small RSS 2.0 feed with `n` dated items named `<prefix> <i>`.
pub fn rss_feed(title: &str, prefix: &str, n: usize, day: u32) -> String {
    let mut items = String::new();
    for i in 0..n {
        items.push_str(&format!(
            "<item><title>{prefix} {i}</title><link>https://example.com/{prefix}/{i}</link><guid>{prefix}-{i}</guid><pubDate>Wed, {day:02} Feb 2026 {:02}:00:00 +0000</pubDate><description>&lt;p&gt;About {prefix} {i}&lt;/p&gt;</description></item>",
            i % 24
        ));
    }
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title><link>https://example.com/</link>{items}</channel></rss>"
    )
}
