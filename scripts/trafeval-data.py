#!/usr/bin/env python3
"""trafilatura on its own evaluation set, run and scored as its tests/evaluate.py does, for
the trafeval benchmark (tests/benches/trafeval.rs).

    target/py-web/bin/python scripts/trafeval-data.py TESTS_DIR < texts.json

TESTS_DIR is a trafilatura checkout's tests/ directory (evaldata.json, cache/, eval/ and
eval_common.py). Its eval_common is imported, so the runners (`RUNNERS`: extract() with
include_comments=False, include_tables=True, include_formatting=False; "fallback" is
fast=False, "fast" fast=True) and the scoring (`count_item`) are the repository's own. As
evaluate.py does, each page's bytes go to extract() undecoded and without a URL, an
exception scores as None, and only the extraction is timed. Pages whose file is in neither
cache/ nor eval/ are left out (evaluate.py stops on them). stdin: {name: {url: text}},
other tools' texts, scored here by count_item to check the benchmark's own scorer. Prints

    {"version": "...", "seconds": {runner: s}, "texts": {runner: {url: text or null}},
     "errors": {runner: n}, "counts": {name: [tp, fp, fn, tn]}}

Run it with the venv scripts/trafilatura-extract.py makes (it needs trafilatura, and
eval_common imports nothing else: no competitor library, no stub needed). The runners go one
after the other over all pages, where evaluate.py interleaves them page by page; the
trafilatura measured is the venv's installed release, whose version may differ from the checkout's.
"""

import json
import logging
import sys
import time

sys.path.insert(0, sys.argv[1])
import trafilatura  # noqa: E402
from eval_common import RUNNERS, count_item, load_evaldata, read_document  # noqa: E402


def main():
    # Read first: the benchmark writes all of stdin before it reads this script's output.
    others = json.load(sys.stdin)
    logging.basicConfig(level=logging.CRITICAL)  # as evaluate.py without --verbose
    data = load_evaldata(sys.argv[1])
    docs = {u: read_document(sys.argv[1], it["file"]) for u, it in data.items()}
    docs = {u: b for u, b in docs.items() if b is not None}
    out = {"version": trafilatura.__version__, "seconds": {}, "texts": {}, "errors": {}}
    for name, fn in RUNNERS.items():
        fn(b"<html><body><p>text</p></body></html>")  # evaluate.py's warm-up, not timed
        texts, seconds, errors = {}, 0.0, 0
        for url, html in docs.items():
            start = time.perf_counter()
            try:
                texts[url] = fn(html)
            except Exception:  # as run_and_count: a crash is a full miss
                texts[url], errors = None, errors + 1
            seconds += time.perf_counter() - start
        out["texts"][name], out["seconds"][name], out["errors"][name] = texts, seconds, errors
    out["counts"] = {
        name: [sum(c) for c in zip(*(count_item(data[u], texts.get(u)) for u in docs))]
        for name, texts in {**others, **out["texts"]}.items()
    }
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
