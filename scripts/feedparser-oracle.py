#!/usr/bin/env python3
"""Writes Python feedparser's opinion of every feed in the corpus, the oracle paw's parser
is compared with (tests/tests/it/rss_corpus.rs).

Usage: scripts/feedparser-oracle.py [--bench]
  (no flag) writes tests/fixtures/feedparser-oracle.json: {path: [[title, link, date,
            raw_date, clock_dependent], ...]} for every XML feed feedparser extracts items from; `date` is the
            item's published (else updated, else created) time as Unix seconds, null when
            feedparser cannot read it, `raw_date` the text it read it from, and whether
            that reading depends on today's date (then it is not compared).
            Run it with TZ=UTC (feedparser's ISO 8601 handler goes through local time).
  --bench   prints feedparser's parse time over the whole corpus as JSON (for the benchmark).

Needs feedparser (pip install feedparser; scripts/test makes a venv under target/py).
"""
import calendar
import json
import os
import sys
import time

import feedparser

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "feeds")


def feeds():
    with open(os.path.join(ROOT, "MANIFEST.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    return [r for r in rows if len(r) > 4 and r[4] == "feed"]


def clock_dependent(text):
    """Whether feedparser's reading of `text` changes with today's date: its ISO 8601
    handler matches a prefix (`2020/1/10 14:33:00` → year 2020) and fills the month and day
    from the clock. Such a reading is not the feed's date."""
    from feedparser.datetimes import _parse_date, iso8601
    real = iso8601.time.gmtime
    try:
        iso8601.time.gmtime = lambda *a: real(0)  # 1970-01-01
        then = _parse_date(text)
    finally:
        iso8601.time.gmtime = real
    return then != _parse_date(text)


def date_of(e):
    """The item's date as feedparser reads it: (Unix seconds or None, raw text or None,
    whether the reading depends on today's date)."""
    for k in ("published", "updated", "created"):
        if e.get(k):
            parsed = e.get(k + "_parsed")
            return (calendar.timegm(parsed) if parsed else None), e.get(k), clock_dependent(e.get(k))
    return None, None, False


def main():
    rows = feeds()
    if "--bench" in sys.argv:
        blobs = [open(os.path.join(ROOT, r[0]), "rb").read() for r in rows]
        t = time.perf_counter()
        for b in blobs:
            feedparser.parse(b)
        elapsed = time.perf_counter() - t
        print(json.dumps({"files": len(blobs), "bytes": sum(map(len, blobs)), "seconds": elapsed,
                          "feedparser": feedparser.__version__}))
        return
    oracle = {}
    for r in rows:
        if r[2] == "json feed":
            continue  # feedparser does not read JSON Feed
        d = feedparser.parse(open(os.path.join(ROOT, r[0]), "rb").read())
        items = [[e.get("title", ""), e.get("link", ""), *date_of(e)] for e in d.entries]
        if items:
            oracle[r[0]] = items
    out = os.path.join(ROOT, "..", "feedparser-oracle.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"feedparser": feedparser.__version__, "files": oracle}, f, ensure_ascii=False, indent=0, sort_keys=True)
    print(f"wrote {len(oracle)} files, {sum(len(v) for v in oracle.values())} items to {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
