#!/usr/bin/env python3
"""The reference for `rss search`'s bench: the same items and queries in SQLite FTS5.

The rss bench (`PAW_BENCH_SEARCH_ONLY=1 PAW_BENCH_DUMP=DIR cargo bench -p paw-tests
--bench rss`) writes DIR/items.jsonl ({title, text} per line) and DIR/queries.json. This
indexes them in an FTS5 table (unicode61 words, BM25 with titles weighted 2 as paw does),
then runs each query as paw does — any of its words, the best 10 and the count of matches —
and prints build time, database size beside the text, and search p50/p95.

Usage: python3 scripts/fts5-search.py DIR
"""

import json
import os
import re
import sqlite3
import sys
import tempfile
import time


def main() -> None:
    src = sys.argv[1]
    items = [json.loads(line) for line in open(os.path.join(src, "items.jsonl"), encoding="utf-8")]
    queries = json.load(open(os.path.join(src, "queries.json"), encoding="utf-8"))
    held = sum(len(i["title"].encode()) + len(i["text"].encode()) for i in items)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fts.db")
        db = sqlite3.connect(path)
        # Words and their counts only (no positions, as paw's index): detail=column.
        db.execute("CREATE VIRTUAL TABLE t USING fts5(title, body, detail=column)")
        start = time.perf_counter()
        with db:
            db.executemany("INSERT INTO t(title, body) VALUES (?, ?)", ((i["title"], i["text"]) for i in items))
        db.execute("INSERT INTO t(t) VALUES ('optimize')")
        db.commit()
        build = time.perf_counter() - start
        size = os.path.getsize(path)
        runs = []
        matched = 0
        for q in queries:
            words = [w for w in re.split(r"\W+", q) if w]
            match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
            start = time.perf_counter()
            top = db.execute(
                "SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t, 2.0, 1.0) LIMIT 10", (match,)
            ).fetchall()
            (count,) = db.execute("SELECT count(*) FROM t WHERE t MATCH ?", (match,)).fetchone()
            runs.append(time.perf_counter() - start)
            matched += 1 if count else 0
            del top
        runs.sort()
        pct = lambda f: runs[int((len(runs) - 1) * f)] * 1e3
        print(f"SQLite {sqlite3.sqlite_version} FTS5 (unicode61, detail=column), {len(items)} items")
        print(f"  build {build:.1f} s; text held {held / 1e6:.1f} MB, database {size / 1e6:.1f} MB: {size / held:.2f}x")
        print(f"  search, {len(queries)} queries ({matched} matched), top 10 and count: p50 {pct(0.5):.2f} ms, p95 {pct(0.95):.2f} ms")


if __name__ == "__main__":
    main()
