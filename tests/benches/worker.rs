//! The worker boundary's cost (SPEC §10): per-job overhead of a parse in a worker process
//! against the same parse in process, p50/p99, for a tiny document and a 1 MB page; and the
//! memory of the daemon at start and of its warm workers.
//!
//! Run: `cargo bench -p paw-tests --bench worker`.

use std::time::Duration;

use paw_daemon::commands::doc::model::Mode;
use paw_daemon::worker::jobs::{Job, Reply, handle};
use paw_tests::stats::{percentile, times};
use paw_tests::workers::Workers;
use paw_tests::{Daemon, hostile, procfs};

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
        let job = Job::Doc {
            format: None,
            mode: Mode::Text,
            max_chars: 0,
            pages: None,
            ocr: Default::default(),
        };
        let (r, _) = handle(job, docx.clone());
        assert!(matches!(r, Reply::Doc(_)));
    });
    let worker = time(|| {
        let (info, text) =
            w.rt.block_on(w.pool.doc(
                docx.clone(),
                None,
                Mode::Text,
                0,
                None,
                Default::default(),
                "eng".into(),
            ))
            .expect("doc");
        assert_eq!((info.chars, text.len()), (28, 28));
    });
    row("tiny DOCX (700 B)", inproc, worker);

    let url = url::Url::parse("https://example.com/news/long.html").expect("url");
    for (what, size) in [("100 KB page", 100 << 10), ("1 MB page", 1 << 20)] {
        let page = page(size);
        let inproc = time(|| {
            let r = paw_daemon::commands::rss::extract::extract(&page, &url).expect("extract");
            assert!(r.text.len() > size / 2);
        });
        let worker = time(|| {
            let r =
                w.rt.block_on(w.pool.extract(page.as_bytes(), None, &url))
                    .expect("extract");
            assert!(r.text.len() > size / 2);
        });
        row(&format!("{what}, article extraction"), inproc, worker);
    }

    // Memory: a daemon at start, then with its two workers warm after a parse each.
    drop(w);
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
