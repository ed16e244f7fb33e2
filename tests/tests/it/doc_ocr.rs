//! OCR in `doc extract` through the socket (docs/commands.md "doc extract, doc tables"): image files and scanned PDF pages
//! read by Tesseract in the sandboxed worker, turned pages read upright, `--ocr` and
//! `--lang`, and hostile pictures. Fixtures: tests/fixtures/ocr/ (its make.py renders them);
//! the language data: scripts/deps (Debian's tesseract-ocr-eng, -chi-sim, -osd).

use paw_tests::Daemon;
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ocr/");

const ENGLISH: &str = "The quick brown fox jumps over the lazy dog while the small town sleeps under a quiet winter sky. Optical character recognition turns pictures of printed text into characters a program can search and edit. Every scanned page is read in its own worker process, which may not open files, start threads or use the network.";

fn put_fixture(d: &Daemon, name: &str) {
    let bytes = std::fs::read(format!("{FIXTURES}{name}")).expect("fixture");
    put(d, name, &bytes);
}

fn put(d: &Daemon, rel: &str, bytes: &[u8]) {
    let p = d.agents().join("inbox").join(rel);
    std::fs::create_dir_all(p.parent().expect("dir")).expect("mkdir");
    std::fs::write(p, bytes).expect("write");
}

fn out(d: &Daemon, rel: &str) -> String {
    std::fs::read_to_string(d.agents().join("artifacts").join(rel)).expect("out")
}

fn code(o: &Value) -> &str {
    o["error_code"].as_str().unwrap_or("")
}

/// 1 − (edit distance / expected length), over characters, spaces collapsed.
fn accuracy(expected: &str, got: &str) -> f64 {
    let norm = |s: &str| -> Vec<char> {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .collect()
    };
    let (a, b) = (norm(expected), norm(got));
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    1.0 - prev[b.len()] as f64 / a.len().max(1) as f64
}

#[test]
fn a_png_is_read_by_ocr_in_the_sandboxed_worker_and_marked_in_json() {
    let d = Daemon::start();
    put_fixture(&d, "english.png");
    let o = d.exec("doc extract --in inbox/english.png --out artifacts/e.json --mode json");
    assert_eq!(o["exit_code"], 0, "{o}");
    let r = &o["result"];
    assert_eq!(r["format"], "png", "{o}");
    assert_eq!(r["ocr_pages"], 1, "{o}");
    assert!(
        o["stdout"].as_str().unwrap_or("").contains("1 read by OCR"),
        "{o}"
    );
    let doc: Value = serde_json::from_str(&out(&d, "e.json")).expect("json");
    let page = &doc["pages"][0];
    assert_eq!(page["ocr"], true, "{doc}");
    let blocks = page["blocks"].as_array().expect("blocks");
    assert_eq!(blocks.len(), 3, "{doc}");
    let mut text = Vec::new();
    for b in blocks {
        assert_eq!(b["kind"], "paragraph");
        assert_eq!(b["ocr"], true);
        let c = b["confidence"].as_f64().expect("confidence");
        assert!((50.0..=100.0).contains(&c), "{b}");
        assert_eq!(b["bbox"].as_array().map(Vec::len), Some(4), "{b}");
        text.push(b["text"].as_str().unwrap_or("").to_string());
    }
    let acc = accuracy(ENGLISH, &text.join(" "));
    assert!(acc >= 0.95, "accuracy {acc:.3}: {text:?}");
    // It ran in a worker under the full sandbox: seccomp (no open, clone, socket) and
    // Landlock with no file access — the language data came with the job.
    let w = d.conn().result("daemon.status", json!({}))["workers"].clone();
    assert_eq!(w["seccomp"], true, "{w}");
    assert_eq!(w["landlock"], "full", "{w}");
    assert_eq!(w["jobs_failed"], 0, "{w}");
}

#[test]
fn jpeg_tiff_and_a_turned_scan_are_read_upright() {
    let d = Daemon::start();
    for name in [
        "english.jpg",
        "english.tiff",
        "english-rot90.png",
        "english-rot180.png",
    ] {
        put_fixture(&d, name);
        let o = d.exec(&format!(
            "doc extract --in inbox/{name} --out artifacts/{name}.txt"
        ));
        assert_eq!(o["exit_code"], 0, "{name}: {o}");
        let acc = accuracy(ENGLISH, &out(&d, &format!("{name}.txt")));
        assert!(acc >= 0.95, "{name}: accuracy {acc:.3}");
        if name.contains("rot") {
            let w = o["result"]["warnings"].to_string();
            assert!(w.contains("read upright"), "{name}: {w}");
        }
    }
}

#[test]
fn a_scanned_pdf_is_read_page_by_page() {
    let d = Daemon::start();
    put_fixture(&d, "scan.pdf");
    let o = d.exec("doc extract --in inbox/scan.pdf --out artifacts/scan.md --mode md");
    assert_eq!(o["exit_code"], 0, "{o}");
    let r = &o["result"];
    assert_eq!(
        (r["pages"].as_u64(), r["ocr_pages"].as_u64()),
        (Some(2), Some(2)),
        "{o}"
    );
    let md = out(&d, "scan.md");
    assert!(md.contains("quick brown fox"), "{md}");
    assert!(md.contains("own worker process"), "{md}");
    // --pages keeps OCR to the pages asked for.
    let o = d.exec("doc extract --in inbox/scan.pdf --out artifacts/p2.txt --pages 2");
    assert_eq!(o["result"]["ocr_pages"], 1, "{o}");
    assert!(!out(&d, "p2.txt").contains("quick brown fox"));
}

#[test]
fn ocr_never_warns_instead_of_answering_nothing() {
    let d = Daemon::start();
    put_fixture(&d, "english.png");
    put_fixture(&d, "scan.pdf");
    let o = d.exec("doc extract --in inbox/english.png --out artifacts/n.txt --ocr never");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["ocr_pages"], 0);
    assert!(
        o["result"]["warnings"].to_string().contains("--ocr never"),
        "{o}"
    );
    assert!(
        o["stdout"].as_str().unwrap_or("").contains("warning:"),
        "{o}"
    );
    let o = d.exec("doc extract --in inbox/scan.pdf --out artifacts/n.txt --ocr never");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert!(
        o["result"]["warnings"]
            .to_string()
            .contains("pages 1, 2 without text"),
        "{o}"
    );
    // The config's default applies when --ocr is not given.
    let d = Daemon::with_config("[tools.doc]\nocr = \"never\"\n");
    put_fixture(&d, "english.png");
    let o = d.exec("doc extract --in inbox/english.png --out artifacts/n.txt");
    assert_eq!(o["result"]["ocr_pages"], 0, "{o}");
}

#[test]
fn chinese_reads_with_a_configured_language() {
    let d = Daemon::with_config("[tools.doc]\nocr_languages = [\"eng\", \"chi_sim\"]\n");
    put_fixture(&d, "chinese.png");
    put_fixture(&d, "english.png");
    let o = d.exec("doc extract --in inbox/chinese.png --out artifacts/zh.txt --lang chi_sim");
    assert_eq!(o["exit_code"], 0, "{o}");
    let got = out(&d, "zh.txt").replace([' ', '\n'], "");
    let expected =
        "光学字符识别把印刷文字的图像转换成可以搜索和编辑的文本。每一页都在独立的进程中读取。";
    let acc = accuracy(expected, &got);
    assert!(acc >= 0.9, "accuracy {acc:.3}: {got}");
    // Listed languages combine.
    let o = d.exec("doc extract --in inbox/english.png --out artifacts/en.txt --lang eng+chi_sim");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert!(accuracy(ENGLISH, &out(&d, "en.txt")) >= 0.95);
}

#[test]
fn languages_and_modes_outside_the_config_are_invalid_args() {
    let d = Daemon::start();
    put_fixture(&d, "english.png");
    for (args, needle) in [
        ("--lang xyz", "tools.doc.ocr_languages"),
        ("--lang eng+chi_sim", "\"chi_sim\" is not in"),
        ("--lang ../../etc/passwd", "is not in"),
        ("--ocr sometimes", "--ocr must be"),
    ] {
        let o = d.exec(&format!(
            "doc extract --in inbox/english.png --out artifacts/x.txt {args}"
        ));
        assert_eq!(code(&o), "InvalidArgs", "{args}: {o}");
        assert!(
            o["stderr"].as_str().unwrap_or("").contains(needle),
            "{args}: {o}"
        );
    }
}

/// A PNG whose header claims `w`×`h` pixels, with almost no data.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = !0u32;
        for b in bytes {
            c ^= u32::from(*b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (
            &b"IHDR"[..],
            [&w.to_be_bytes()[..], &h.to_be_bytes(), &[8, 0, 0, 0, 0]].concat(),
        ),
        (
            b"IDAT",
            vec![0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
        ),
        (b"IEND", Vec::new()),
    ] {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let body = [kind, &data].concat();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    }
    out
}

#[test]
fn a_decompression_bomb_is_a_parse_error_and_the_daemon_goes_on() {
    let d = Daemon::start();
    // 3.6 billion pixels claimed in 70 bytes; under the wrong extension.
    put(&d, "bomb.jpg", &png_claiming(60_000, 60_000));
    let o = d.exec("doc extract --in inbox/bomb.jpg --out artifacts/b.txt");
    assert_eq!(code(&o), "ParseError", "{o}");
    assert!(
        o["stderr"].as_str().unwrap_or("").contains("60000×60000"),
        "{o}"
    );
    // Garbage after a valid signature is a parse error too, never a crash.
    put(&d, "junk.png", b"\x89PNG\r\n\x1a\nthis is not a png");
    let o = d.exec("doc extract --in inbox/junk.png --out artifacts/j.txt");
    assert_eq!(code(&o), "ParseError", "{o}");
    let w = d.conn().result("daemon.status", json!({}))["workers"].clone();
    assert_eq!(w["jobs_failed"], 0, "no worker was lost: {w}");
    assert_eq!(d.exec("hello")["exit_code"], 0);
}

#[test]
fn the_sandbox_that_runs_ocr_still_refuses_files_threads_and_sockets() {
    // The control: the files exist and the test process may open them.
    assert!(std::fs::File::open("/usr/share/tesseract-ocr/5/tessdata/eng.traineddata").is_ok());
    let d = Daemon::start();
    put_fixture(&d, "english.png");
    // OCR first, so the worker has Tesseract loaded and an engine started...
    let o = d.exec("doc extract --in inbox/english.png --out artifacts/e.txt");
    assert_eq!(o["result"]["ocr_pages"], 1, "{o}");
    // ...then, in the same warm workers, whatever a worker tries beyond its pipes fails
    // (the job aborts its worker if any open, thread or socket succeeds).
    for _ in 0..2 {
        let o = d.exec("test-worker --do escape");
        assert_eq!(o["exit_code"], 0, "the sandbox let something through: {o}");
    }
    let w = d.conn().result("daemon.status", json!({}))["workers"].clone();
    assert_eq!(
        (w["seccomp"].clone(), w["landlock"].clone()),
        (json!(true), json!("full")),
        "{w}"
    );
    assert_eq!(w["jobs_failed"], 0, "{w}");
}

#[test]
fn a_scan_longer_than_the_cpu_budget_ends_with_a_warning_not_a_dead_worker() {
    // 3 s of CPU per job, less than OCR keeps in reserve before each page; 1 s a page
    // gives the two pages no more.
    let d = Daemon::with_config("[worker]\ncpu_secs = 3\nocr_cpu_ms_per_page = 1000\n");
    put_fixture(&d, "scan.pdf");
    let o = d.exec("doc extract --in inbox/scan.pdf --out artifacts/s.txt");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["result"]["ocr_pages"], 0, "{o}");
    assert!(
        o["result"]["warnings"]
            .to_string()
            .contains("pages 1, 2 not read by OCR"),
        "{o}"
    );
}

#[test]
fn an_ocr_jobs_cpu_budget_grows_with_the_pages_it_reads() {
    // The same ceiling, 3 s, but 20 s a page: the two pages the first answer counted get
    // 40 s, and both are read (a long scan is not cut at the ceiling's page).
    // Under `--ocr always` as under `auto`.
    let d = Daemon::with_config("[worker]\ncpu_secs = 3\nocr_cpu_ms_per_page = 20000\n");
    put_fixture(&d, "scan.pdf");
    for mode in ["auto", "always"] {
        let o = d.conn().exec(json!({
            "command": format!("doc extract --in inbox/scan.pdf --out artifacts/s.txt --ocr {mode}"),
            "timeout_ms": 60_000
        }));
        assert_eq!(o["exit_code"], 0, "{mode}: {o}");
        assert_eq!(o["result"]["ocr_pages"], 2, "{mode}: {o}");
        assert!(
            !o["result"]["warnings"]
                .to_string()
                .contains("not read by OCR"),
            "{mode}: {o}"
        );
        assert!(out(&d, "s.txt").contains("quick brown fox"), "{mode}");
    }
}
