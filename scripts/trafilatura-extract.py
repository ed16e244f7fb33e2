#!/usr/bin/env python3
"""trafilatura over a list of pages, for the web-corpus benchmark (tests/benches/web.rs).

Reads a JSON list of {id, path, url, gz} on stdin (`gz`: the file is gzipped, as WCXB's
pages are; read as UTF-8 with undecodable bytes replaced), extracts each page's main text with
trafilatura's defaults (`trafilatura.extract(html, url=url)`: plain text), and prints

    {"version": "...", "seconds": S, "runs": N, "texts": {id: text}, "titles": {id: title}}

`seconds` is the total extraction time of one pass over all pages, measured in this process
(reading the files and importing trafilatura are not timed); with `--runs N` the pages are
extracted N times and the median pass is reported. `titles` is trafilatura's own title for
each page (its metadata, found separately and not timed), so the benchmark can also score
"title + text". With `--markdown`, `markdown` is each page's text in trafilatura's Markdown
(`output_format="markdown"` with links and formatting kept, which its defaults leave out;
a separate pass, not timed).

It re-executes itself inside a venv under target/py-web, made on first use with trafilatura
(and lxml_html_clean, which recent lxml split out and trafilatura's justext fallback needs).
"""

import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "py-web"
PACKAGES = ["trafilatura", "lxml_html_clean"]


def ensure_venv():
    """Runs this script in the venv, creating it first when missing (check, then install)."""
    py = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not py.exists():
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)], stdout=sys.stderr)
    probe = "import trafilatura, lxml_html_clean"
    if subprocess.call([str(py), "-c", probe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
        subprocess.check_call([str(py), "-m", "pip", "install", "-q", *PACKAGES], stdout=sys.stderr)
    os.execv(str(py), [str(py), __file__, *sys.argv[1:]])


def read_page(p):
    """A page's HTML: plain UTF-8, or gzipped when the list says `gz`."""
    if p.get("gz"):
        with gzip.open(p["path"], "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    return Path(p["path"]).read_text(encoding="utf-8")


def main():
    ensure_venv()
    import trafilatura
    from trafilatura.metadata import extract_metadata

    runs = 1
    if "--runs" in sys.argv:
        runs = max(1, int(sys.argv[sys.argv.index("--runs") + 1]))
    pages = [(p["id"], p["url"], read_page(p)) for p in json.load(sys.stdin)]

    texts = {}
    passes = []
    for _ in range(runs):
        start = time.perf_counter()
        out = {}
        for pid, url, html in pages:
            try:
                out[pid] = trafilatura.extract(html, url=url) or ""
            except Exception:  # a page trafilatura cannot handle scores as empty
                out[pid] = ""
        passes.append(time.perf_counter() - start)
        texts = out

    titles = {}
    for pid, url, html in pages:
        try:
            meta = extract_metadata(html, default_url=url)
            titles[pid] = (meta.title if meta else None) or ""
        except Exception:
            titles[pid] = ""

    markdown = {}
    if "--markdown" in sys.argv:
        for pid, url, html in pages:
            try:
                markdown[pid] = (
                    trafilatura.extract(
                        html,
                        url=url,
                        output_format="markdown",
                        include_links=True,
                        include_formatting=True,
                    )
                    or ""
                )
            except Exception:  # as above: a page it cannot handle is empty
                markdown[pid] = ""

    json.dump(
        {
            "version": trafilatura.__version__,
            "markdown": markdown,
            "seconds": statistics.median(passes),
            "runs": runs,
            "texts": texts,
            "titles": titles,
        },
        sys.stdout,
        ensure_ascii=False,
    )


if __name__ == "__main__":
    main()
