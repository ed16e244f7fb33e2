#!/usr/bin/env python3
"""Builds a development corpus of public PDFs with two oracle texts each, kept out of the
repository.

Copies the PDFs of public projects' test suites from bare mirrors of their repositories
(`git --git-dir=MIRROR cat-file blob OBJECT`) into OUT as `NNNN.pdf`, writes
`OUT/manifest.tsv` (id, source, commit, path, bytes, sha256, licence) and, beside each
file, what two independent readers make of it: `NNNN.pdf.pdfium.txt` (pypdfium2, i.e.
PDFium) and `NNNN.pdf.pdfminer.txt` (pdfminer.six). No reviewed text exists for most of
these files, so the two readers are the oracles: `cargo bench -p paw-tests --bench oracles`
scores paw and markitdown against both and lists the files where paw differs from both.

    python3 scripts/pdf-corpus.py MIRRORS OUT
    PAW_DOC_ORACLES=OUT cargo bench -p paw-tests --bench oracles

MIRRORS holds `<owner>+<name>/repo` bare git directories (the sources below). The oracles
run from a venv under `target/py-pdforacle`, made on first use; each file in its own
process under a 1 GiB address-space limit and a 60 s timeout (a file an oracle cannot read
gets an empty text and a line in `OUT/oracle-errors.tsv`).

Sampling is deterministic: a source's candidate paths in sha1(path) order, the first CAP
of them, files over 20 MB or empty left out, duplicates (same sha256) kept once.
"""

import hashlib
import os
import resource
import subprocess
import sys
from pathlib import Path

# (mirror, folder in the repository, how many at most, licence)
SOURCES = [
    ("mozilla+pdf.js", "test/pdfs/", 210, "Apache-2.0 (files: their authors')"),
    ("qpdf+qpdf", "qpdf/qtest/qpdf/", 60, "Apache-2.0"),
    ("py-pdf+sample-files", "", None, "per file (README of the repository)"),
    ("jsvine+pdfplumber", "tests/pdfs/", None, "MIT (files: their authors')"),
    ("camelot-dev+camelot", "tests/files/", 80, "MIT (files: public reports)"),
    ("docling-project+docling", "tests/data/pdf/", None, "MIT"),
    ("docling-project+docling", "tests/data/ocr/", None, "MIT"),
    ("docling-project+docling", "tests/data/odf/", None, "MIT"),
]
MAX_BYTES = 20 * 1024 * 1024

ORACLE = r"""
import sys
engine, path = sys.argv[1], sys.argv[2]
if engine == "pdfium":
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(path)
    out = []
    for page in doc:
        tp = page.get_textpage()
        out.append(tp.get_text_bounded())
    sys.stdout.write("\n\f".join(out))
else:
    from pdfminer.high_level import extract_text
    sys.stdout.write(extract_text(path))
"""


def git(mirror, *args):
    return subprocess.run(
        ["git", f"--git-dir={mirror}", *args], check=True, capture_output=True
    ).stdout


def oracle_python(root):
    venv = root / "target/py-pdforacle"
    py = venv / "bin/python"
    probe = [str(py), "-c", "import pypdfium2, pdfminer"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    print(f"installing pypdfium2 and pdfminer.six into {venv}", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin/pip"), "install", "-q", "--disable-pip-version-check",
         "pypdfium2==5.15.2", "pdfminer.six==20260107"],
        check=True,
    )
    return py


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    mirrors, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parent.parent
    py = oracle_python(root)
    seen, rows = set(), []
    for mirror, prefix, cap, licence in SOURCES:
        gd = mirrors / mirror / "repo"
        commit = git(gd, "rev-parse", "HEAD").decode().strip()
        cands = []
        for line in git(gd, "ls-tree", "-r", "-l", "HEAD").decode().splitlines():
            meta, path = line.split("\t", 1)
            _, typ, obj, size = meta.split()
            if typ != "blob" or not path.lower().endswith(".pdf") or not path.startswith(prefix):
                continue
            if not size.isdigit() or not 0 < int(size) <= MAX_BYTES:
                continue
            cands.append((hashlib.sha1(path.encode()).hexdigest(), path, obj))
        cands.sort()
        n = 0
        for _, path, obj in cands:
            if cap is not None and n >= cap:
                break
            data = git(gd, "cat-file", "blob", obj)
            digest = hashlib.sha256(data).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            n += 1
            fid = f"{len(rows) + 1:04d}"
            (out / f"{fid}.pdf").write_bytes(data)
            rows.append((fid, mirror.replace("+", "/"), commit, path, len(data), digest, licence))
        print(f"{mirror} {prefix}: {n}", file=sys.stderr)
    with open(out / "manifest.tsv", "w") as f:
        f.write("id\tsource\tcommit\tpath\tbytes\tsha256\tlicence\n")
        for r in rows:
            f.write("\t".join(map(str, r)) + "\n")
    errors = []
    for fid, *_ in rows:
        pdf = out / f"{fid}.pdf"
        for engine in ("pdfium", "pdfminer"):
            dest = out / f"{fid}.pdf.{engine}.txt"
            try:
                p = subprocess.run(
                    [str(py), "-c", ORACLE, engine, str(pdf)],
                    capture_output=True, timeout=60, preexec_fn=limit,
                )
                text, err = p.stdout, p.stderr.decode("utf-8", "replace").strip()
                if p.returncode != 0:
                    text = b""
                    errors.append((fid, engine, (err.splitlines() or ["exit"])[-1][:200]))
            except subprocess.TimeoutExpired:
                text = b""
                errors.append((fid, engine, "timeout 60 s"))
            dest.write_bytes(text)
    with open(out / "oracle-errors.tsv", "w") as f:
        f.write("id\toracle\terror\n")
        for e in errors:
            f.write("\t".join(e) + "\n")
    print(f"{len(rows)} files, {sum(r[4] for r in rows) / 1e6:.0f} MB, "
          f"{len(errors)} oracle errors", file=sys.stderr)


if __name__ == "__main__":
    os.umask(0o022)
    main()
