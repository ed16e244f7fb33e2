#!/usr/bin/env python3
"""The table bench's peers (docs/benchmarks.md "Documents: tables"): every case of
cases.json through pdfplumber's find_tables, camelot (stream and lattice) and PyMuPDF's
find_tables, on the case's pages. Prints one JSON line per file, pages and tool:
{"file", "pages", "tool", "tables": [[[cell, ...], ...], ...], "ms", "error"}.

Usage: table-peers.py CORPUS_DIR [tool ...]   (run by `cargo bench --bench tables`)
"""

import json
import os
import signal
import sys
import time
import warnings

warnings.filterwarnings("ignore")


class Timeout(Exception):
    pass


def alarm(_sig, _frm):
    raise Timeout()


def cells(rows):
    return [["" if c is None else " ".join(str(c).split()) for c in r] for r in rows]


def pdfplumber_tables(path, first, last):
    import pdfplumber
    out = []
    with pdfplumber.open(path) as pdf:
        for p in pdf.pages[first - 1:last]:
            out += [cells(t.extract()) for t in p.find_tables()]
    return out


def camelot_tables(flavor):
    def run(path, first, last):
        import camelot
        ts = camelot.read_pdf(path, flavor=flavor, pages=f"{first}-{last}")
        return [cells(t.df.values.tolist()) for t in ts]
    return run


def pymupdf_tables(path, first, last):
    import pymupdf
    out = []
    with pymupdf.open(path) as doc:
        for i in range(first - 1, min(last, doc.page_count)):
            out += [cells(t.extract()) for t in doc[i].find_tables().tables]
    return out


TOOLS = {
    "pdfplumber": pdfplumber_tables,
    "camelot-stream": camelot_tables("stream"),
    "camelot-lattice": camelot_tables("lattice"),
    "pymupdf": pymupdf_tables,
}


def page_count(path):
    import pymupdf
    with pymupdf.open(path) as doc:
        return doc.page_count


def main():
    corpus = sys.argv[1]
    tools = sys.argv[2:] or list(TOOLS)
    with open(os.path.join(corpus, "cases.json")) as f:
        cases = json.load(f)
    seen = set()
    signal.signal(signal.SIGALRM, alarm)
    for c in cases:
        path = os.path.join(corpus, "files", c["file"])
        pages = c["pages"] or [1, page_count(path)]
        key = (c["file"], tuple(pages))
        if key in seen:
            continue
        seen.add(key)
        for tool in tools:
            rec = {"file": c["file"], "pages": c["pages"], "tool": tool, "tables": []}
            t = time.perf_counter()
            signal.alarm(120)
            try:
                rec["tables"] = TOOLS[tool](path, pages[0], pages[1])
            except Timeout:
                rec["error"] = "timeout"
            except Exception as e:  # a peer's failure is a result, not the bench's
                rec["error"] = f"{type(e).__name__}: {e}"[:200]
            finally:
                signal.alarm(0)
            rec["ms"] = (time.perf_counter() - t) * 1e3
            print(json.dumps(rec, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
