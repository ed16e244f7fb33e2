//! Python markitdown beside paw in the document benches: a venv under
//! `target/py-markitdown`, installed on first use (check, then install), and one Python
//! process converting many files, each conversion timed inside Python (start-up and imports
//! not counted), with a per-file time limit; a process that dies on a file is restarted on
//! the files after it, the one it died on recorded as an error.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One tool's result on one document.
#[derive(Clone, Default, Debug)]
pub struct Run {
    /// The Markdown (or text) it gave.
    pub md: String,
    /// Median milliseconds per conversion.
    pub ms: f64,
    /// Why it gave nothing, when it failed.
    pub error: Option<String>,
}

/// The converter: per file one JSON line (path, median ms, Markdown, error) after one
/// untimed warm-up per file type (which loads its converter's modules); 60 s and 2 GiB of
/// address space per conversion at most.
const SCRIPT: &str = r#"
import json, resource, signal, statistics, sys, time
from markitdown import MarkItDown
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
runs = int(sys.argv[1])
paths = sys.argv[2:]
md = MarkItDown()
warm = set()
def alarm(*_):
    raise TimeoutError("over 60 s")
signal.signal(signal.SIGALRM, alarm)
def convert(p):
    signal.alarm(60)
    try:
        return md.convert(p).text_content or "", None
    except BaseException as e:
        return "", type(e).__name__ + ": " + str(e)[:200]
    finally:
        signal.alarm(0)
for p in paths:
    ext = p.rsplit(".", 1)[-1]
    if ext not in warm:
        warm.add(ext)
        convert(p)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        text, err = convert(p)
        times.append((time.perf_counter() - t) * 1e3)
    print(json.dumps({"path": p, "ms": statistics.median(times), "md": text, "error": err}), flush=True)
"#;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The venv's Python with markitdown, installing it when missing; the reason when it
/// cannot be had.
pub fn python() -> Result<PathBuf, String> {
    let venv = root().join("target/py-markitdown");
    let py = venv.join("bin/python");
    let has = |py: &Path| {
        Command::new(py)
            .args(["-c", "import markitdown"])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has(&py) {
        return Ok(py);
    }
    eprintln!("installing markitdown into {}", venv.display());
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .map_err(|e| format!("python3: {e}"))?;
    if !made.success() {
        return Err("python3 -m venv failed".into());
    }
    let pip = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "-q",
            "--disable-pip-version-check",
            "markitdown[pdf,docx,pptx,xlsx]",
        ])
        .status()
        .map_err(|e| format!("pip: {e}"))?;
    if pip.success() && has(&py) {
        Ok(py)
    } else {
        Err("pip install markitdown failed".into())
    }
}

/// markitdown on every file, each timed `runs` times (median).
pub fn convert(paths: &[PathBuf], runs: usize) -> Result<HashMap<PathBuf, Run>, String> {
    let py = python()?;
    let mut m = HashMap::new();
    let mut rest = paths;
    while !rest.is_empty() {
        let out = Command::new(&py)
            .arg("-c")
            .arg(SCRIPT)
            .arg(runs.to_string())
            .args(rest)
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| format!("markitdown: {e}"))?;
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            m.insert(
                PathBuf::from(v["path"].as_str().unwrap_or("")),
                Run {
                    md: v["md"].as_str().unwrap_or("").to_string(),
                    ms: v["ms"].as_f64().unwrap_or(0.0),
                    error: v["error"].as_str().map(str::to_string),
                },
            );
        }
        let done = rest.iter().take_while(|p| m.contains_key(*p)).count();
        if out.status.success() || done == rest.len() {
            break;
        }
        // It died on the file after the last one it answered: record that, go on after it.
        m.insert(
            rest[done].clone(),
            Run {
                error: Some(format!("markitdown died ({})", out.status)),
                ..Run::default()
            },
        );
        rest = &rest[done + 1..];
    }
    Ok(m)
}
