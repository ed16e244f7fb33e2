#!/usr/bin/env python3
"""Builds the development pairs the `pairs` benchmark reads (tests/benches/pairs.rs) from
the public copies of two datasets with human references. Neither is in this repository:
L3S-GN1 is for research use, Dragnet's data is AGPLv3.

    python3 scripts/dev-pairs.py l3s <L3S-GN1 dir> <out dir>
    python3 scripts/dev-pairs.py dragnet <HTML dir> <references dir> <splits dir> <out dir>

* `l3s`: the directory `L3S-GN1-20100130203947-00001` (with `original/`, `annotated/` and
  `url-mapping.txt`; a copy is in github.com/geodrome/page-signal). Each page's reference is
  what its assessors labelled headline (`x-nc-sel1`) and full text (`x-nc-sel2`), one text
  block a line. The annotation tool wrote `?` for every character outside Latin-1; a line
  holding one is matched against the page's own text and its `?`s restored where it
  matches. The split is paw's: pages whose id opens with `0`–`7` are developed on
  (`train`), the others held out (`test`).
* `dragnet`: the pages (`*.html`) and the references (`*.txt`, the main article a person
  copied out of each page) of Dragnet's data (github.com/seomoz/dragnet_data's
  `dragnet_HTML.tar.gz` and `dragnet_Corrected.tar.gz`, or the plain copies
  `dragnet_data/input` and `dragnet_data/GoldStandard` of
  github.com/j-szulc/html-cleaning-dataset-merged), and the directory holding its own
  split (`training.txt`, `test.txt`). A reference is cut at its comments marker, the first
  line holding `&*()` (spelt several ways: `!@#$%^&*()  COMMENTS`, `!@ $%^&*()  COMMENTS`,
  `COMMNENTS`, `CORRECTED`). Two pages whose HTML is an error stub (R237, R427) are left
  out.

The output directory holds `{id}.html` (the bytes as crawled), `{id}.txt` (UTF-8),
`index.tsv` (id, language, URL when known) and `splits.tsv` (id, `train` or `test`).
"""

import os
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}
BLOCK = {"p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "tr", "td",
         "th", "table", "blockquote", "pre", "section", "article", "header", "footer", "dd",
         "dt", "dl", "form", "hr", "address", "center", "fieldset", "noscript", "option",
         "select", "textarea", "caption", "tbody", "thead", "tfoot", "body", "html", "title",
         "frame", "iframe", "nav", "aside", "figure", "figcaption", "main"}
SKIP = {"script", "style", "head", "noscript", "select", "option", "textarea"}
LABEL = re.compile(r"\bx-nc-sel(\d)\b")


def decode(raw):
    """UTF-8 first (some pages declare another charset wrongly), then cp1252."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return raw.decode("utf-16")
    if raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


class Labelled(HTMLParser):
    """An annotated L3S-GN1 page's text blocks, each with its label (or None)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, label, invisible, skipped)
        self.blocks = [[]]

    def state(self):
        label, invisible, skipped = None, False, False
        for _, l, i, s in self.stack:
            label = l if l is not None else label
            invisible, skipped = invisible or i, skipped or s
        return label, invisible, skipped

    def cut(self):
        if self.blocks[-1]:
            self.blocks.append([])

    def handle_starttag(self, tag, attrs):
        cls = next((v for k, v in attrs if k == "class" and v), "")
        m = LABEL.search(cls)
        if tag in BLOCK:
            self.cut()
        if tag in VOID:
            return
        self.stack.append((tag, int(m.group(1)) if m else None, "x-nc-invisible" in cls,
                           tag in SKIP))

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCK:
            self.cut()

    def handle_endtag(self, tag):
        if tag in BLOCK:
            self.cut()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        label, invisible, skipped = self.state()
        if not (invisible or skipped):
            self.blocks[-1].append(("ws" if data.isspace() else label, data))


class Text(HTMLParser):
    """A page's text, scripts and styles left out, tags as spaces."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")
        self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1
        self.out.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def labelled_text(raw, wanted):
    p = Labelled()
    p.feed(decode(raw))
    p.close()
    lines = []
    for block in p.blocks:
        s = re.sub(r"\s+", " ", "".join(t for l, t in block if l in wanted or l == "ws")).strip()
        if s:
            lines.append(re.sub(r" ([,.;:)])", r"\1", s))
    return "\n".join(lines) + ("\n" if lines else "")


def restore(line, page_text):
    """`line` with each `?` the annotation tool wrote put back from the page, when the
    line's words match the page's text there; the line as it is otherwise."""
    tokens = line.split()
    pattern = r"\s*".join(re.escape(t).replace(r"\?", ".") for t in tokens)
    if len(pattern) >= 20000:
        return line
    m = re.search(pattern, page_text)
    if not m:
        return line
    found, pos, out = m.group(0), 0, []
    for t in tokens:
        while pos < len(found) and found[pos].isspace():
            pos += 1
        seg = found[pos:pos + len(t)]
        if len(seg) != len(t):
            return line
        out.append("".join(s if c == "?" else c for c, s in zip(t, seg)))
        pos += len(t)
    return " ".join(out)


def write(out, rows, texts):
    os.makedirs(out, exist_ok=True)
    for (i, _, _, _), (html, text) in zip(rows, texts):
        with open(os.path.join(out, f"{i}.html"), "wb") as f:
            f.write(html)
        with open(os.path.join(out, f"{i}.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(out, "index.tsv"), "w", encoding="utf-8") as f:
        f.writelines(f"{i}\t{lang}\t{url}\n" for i, lang, url, _ in rows)
    with open(os.path.join(out, "splits.tsv"), "w", encoding="utf-8") as f:
        f.writelines(f"{i}\t{split}\n" for i, _, _, split in rows)
    print(f"{len(rows)} pages ({sum(r[3] == 'train' for r in rows)} train) in {out}")


def l3s(src, out):
    urls = {}
    with open(os.path.join(src, "url-mapping.txt"), encoding="utf-8", errors="replace") as f:
        for line in f:
            k, _, u = line.rstrip("\n").partition("\t")
            urls[k.strip("<>").replace("urn:uuid:", "")] = u.strip()
    ids = sorted(f[:-5] for f in os.listdir(os.path.join(src, "annotated")) if f.endswith(".html"))
    rows, texts = [], []
    for i in ids:
        with open(os.path.join(src, "annotated", f"{i}.html"), "rb") as f:
            text = labelled_text(f.read(), {1, 2})
        with open(os.path.join(src, "original", f"{i}.html"), "rb") as f:
            html = f.read()
        if "?" in text:
            t = Text()
            t.feed(decode(html))
            page = re.sub(r"\s+", " ", "".join(t.out))
            text = "\n".join(restore(l, page) if "?" in l else l for l in text.split("\n"))
        split = "train" if i[0] in "01234567" else "test"
        rows.append((i, "en", urls.get(i, ""), split))
        texts.append((html, text))
    write(out, rows, texts)


CANONICAL = [
    r"<link[^>]+rel=[\"']canonical[\"'][^>]*href=[\"']([^\"']+)",
    r"<link[^>]+href=[\"']([^\"']+)[\"'][^>]*rel=[\"']canonical",
    r"<meta[^>]+property=[\"']og:url[\"'][^>]*content=[\"']([^\"']+)",
    r"<meta[^>]+content=[\"']([^\"']+)[\"'][^>]*property=[\"']og:url",
]


def page_url(html):
    for pattern in CANONICAL:
        m = re.search(pattern, html, re.I)
        if m and m.group(1).startswith("http"):
            return m.group(1).strip()
    return ""


def dragnet(html_dir, refs_dir, splits_dir, out):
    split = {}
    for name, value in (("training.txt", "train"), ("test.txt", "test")):
        with open(os.path.join(splits_dir, name), encoding="utf-8") as f:
            split.update((line.strip(), value) for line in f if line.strip())
    rows, texts = [], []
    for name in sorted(os.listdir(refs_dir)):
        i = name.split(".")[0]
        if not name.endswith(".txt") or i in ("R237", "R427") or i not in split:
            continue
        with open(os.path.join(refs_dir, name), "rb") as f:
            ref = decode(f.read()).replace("\r\n", "\n")
        m = re.search(r"^.*&\*\(\).*$", ref, re.M)
        ref = (ref[: m.start()] if m else ref).strip("\n") + "\n"
        with open(os.path.join(html_dir, f"{i}.html"), "rb") as f:
            html = f.read()
        rows.append((i, "en", page_url(decode(html)), split[i]))
        texts.append((html, ref))
    write(out, rows, texts)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["l3s"] and len(args) == 3:
        l3s(*args[1:])
    elif args[:1] == ["dragnet"] and len(args) == 5:
        dragnet(*args[1:])
    else:
        sys.exit(__doc__)
