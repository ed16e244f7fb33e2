//! The worker boundary's cost (docs/reliability.md "Containment (workers)"): per-job overhead of a parse in a worker process
//! against the same parse in process, p50/p99, for a tiny document and a 1 MB page; the
//! latency of a small document in one session alone and beside another session's
//! saturating load (fair scheduling); and the memory of the daemon at start and of its
//! warm workers.
//!
//! Run: `cargo bench -p paw-tests --bench worker`.

use std::time::Duration;

use paw_jobs::doc::Extract;
use paw_jobs::doc::Mode;
use paw_tests::stats::{percentile, times};
use paw_tests::workers::Workers;
use paw_tests::{Daemon, hostile, procfs};
use paw_worker::Run as _;

const RUNS: usize = 300;

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn tiny_docx() -> Vec<u8> {
    let xml = "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>Hello from a tiny document.</w:t></w:r></w:p></w:body></w:document>";
    hostile::zip(&[("word/document.xml".to_string(), xml.as_bytes().to_vec())])
}

fn page(bytes: usize) -> String {
    let para = "<p>The committee met on Tuesday to discuss the budget, and after a long debate it agreed to fund the new library, the repairs to the bridge and a study of the harbour.</p>\n";
    let body = para.repeat(bytes / para.len());
    format!(
        "<html><head><title>A long article</title></head><body><nav><a href=\"/\">Home</a></nav><article><h1>A long article</h1>{body}</article><footer>Footer</footer></body></html>"
    )
}

/// Times `f` `RUNS` times; (p50, p99).
fn time(mut f: impl FnMut()) -> (Duration, Duration) {
    for _ in 0..10 {
        f();
    }
    let mut v = times(RUNS, f);
    (percentile(&mut v, 0.5), percentile(&mut v, 0.99))
}

fn row(what: &str, inproc: (Duration, Duration), worker: (Duration, Duration)) {
    println!(
        "| {what} | {:.0} / {:.0} µs | {:.0} / {:.0} µs | {:.0} µs |",
        us(inproc.0),
        us(inproc.1),
        us(worker.0),
        us(worker.1),
        us(worker.0.saturating_sub(inproc.0)),
    );
}

fn main() {
    let w = Workers::start(1);
    println!("## worker boundary (2 cores, {RUNS} jobs each, after 10 warm-up jobs)\n");
    println!("| job | in process p50 / p99 | in a worker p50 / p99 | overhead (p50) |");
    println!("| --- | --- | --- | --- |");

    let docx = tiny_docx();
    let inproc = time(|| {
        let job = Extract {
            format: None,
            mode: Mode::Text,
            max_chars: 0,
            pages: None,
            ocr: Default::default(),
            password: None,
            also_text: false,
            images: paw_jobs::doc::Images::Refs,
            images_dir: String::new(),
        };
        let (info, _) = job.run(docx.clone()).expect("doc");
        assert_eq!(info.chars, 28);
    });
    let worker = time(|| {
        let (info, text) = w.doc(&docx, Mode::Text).expect("doc");
        assert_eq!((info.chars, text.len()), (28, 28));
    });
    row("tiny DOCX (700 B)", inproc, worker);

    let url = url::Url::parse("https://example.com/news/long.html").expect("url");
    for (what, size) in [("100 KB page", 100 << 10), ("1 MB page", 1 << 20)] {
        let page = page(size);
        let inproc = time(|| {
            let r = paw_readers::page::extract::extract(&page, &url).expect("extract");
            assert!(r.text.len() > size / 2);
        });
        let worker = time(|| {
            let r = w.extract(page.as_bytes(), &url).expect("extract");
            assert!(r.text.len() > size / 2);
        });
        row(&format!("{what}, article extraction"), inproc, worker);
    }

    drop(w);
    fairness(&docx);

    // Memory: a daemon at start, then with its two workers warm after a parse each.
    let d = Daemon::start();
    std::thread::sleep(Duration::from_millis(300));
    let start_kib = procfs::rss_kib(d.pid());
    let dir = d.agents().join("in");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("t.docx"), &docx).expect("write");
    for _ in 0..4 {
        let o = d.exec("doc extract --in in/t.docx --out out/t.txt");
        assert_eq!(o["exit_code"], 0, "{o}");
    }
    let warm_kib = procfs::rss_kib(d.pid());
    let workers: Vec<u64> = procfs::children(d.pid())
        .into_iter()
        .map(procfs::rss_kib)
        .collect();
    println!("\n| memory | RSS |");
    println!("| --- | --- |");
    println!("| daemon at start | {:.1} MiB |", start_kib as f64 / 1024.0);
    println!(
        "| daemon after parses | {:.1} MiB |",
        warm_kib as f64 / 1024.0
    );
    for (i, k) in workers.iter().enumerate() {
        println!(
            "| worker {} (warm) | {:.1} MiB |",
            i + 1,
            *k as f64 / 1024.0
        );
    }
}

/// Small-job latency in session B alone, then while session A keeps four CPU-burning jobs
/// of 1 MB (each runs to its CPU budget, about 4.8 s) and a 200-page PDF in flight: the
/// target is p99 beside the load within 10× alone, and within 1 s.
fn fairness(docx: &[u8]) {
    const SMALL: usize = 60;
    let d = Daemon::start();
    let dir = d.agents().join("in");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("t.docx"), docx).expect("write");
    std::fs::write(dir.join("big.pdf"), paw_tests::pdfgen::report(200)).expect("write");
    let mut b = d.conn();
    let sb = b.open_session("b");
    let mut keep = d.conn();
    let sa = keep.open_session("a");
    let small = |b: &mut paw_tests::Conn| {
        let t = std::time::Instant::now();
        let o = b.exec(serde_json::json!({"session_id": sb, "command": "doc extract --in in/t.docx --out out/t.txt"}));
        assert_eq!(o["exit_code"], 0, "{o}");
        t.elapsed()
    };
    for _ in 0..5 {
        small(&mut b);
    }
    let mut alone: Vec<Duration> = (0..SMALL).map(|_| small(&mut b)).collect();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load: Vec<_> = (0..5)
        .map(|i| {
            let (mut a, stop, sa) = (d.conn(), stop.clone(), sa.clone());
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let command = if i == 4 {
                        "doc extract --in in/big.pdf --out out/big.txt".to_string()
                    } else {
                        "test-worker --do spin --bytes 1000000".to_string()
                    };
                    a.exec(serde_json::json!({"session_id": sa, "command": command}));
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    let mut loaded: Vec<Duration> = (0..SMALL).map(|_| small(&mut b)).collect();
    let status = d.conn().result("daemon.status", serde_json::json!({}));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for t in load {
        let _ = t.join();
    }
    drop(keep);
    drop(d);
    let ms = |v: &mut Vec<Duration>, q| percentile(v, q).as_secs_f64() * 1e3;
    println!("\n## fair scheduling (default [worker]: 2 warm, up to 4 within 2 GiB)\n");
    println!("| small doc extract in session B | p50 | p99 |");
    println!("| --- | --- | --- |");
    println!(
        "| alone | {:.1} ms | {:.1} ms |",
        ms(&mut alone, 0.5),
        ms(&mut alone, 0.99)
    );
    println!(
        "| beside session A's 4 CPU-burning 1 MB jobs and a 200-page PDF | {:.1} ms | {:.1} ms |",
        ms(&mut loaded, 0.5),
        ms(&mut loaded, 0.99)
    );
    println!(
        "\np99 beside the load / p99 alone: {:.1}× (target ≤ 10×, and ≤ 1 s); workers then: {}",
        ms(&mut loaded, 0.99) / ms(&mut alone, 0.99),
        status["workers"]
    );
}
