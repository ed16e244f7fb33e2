#!/usr/bin/env python3
"""Builds a development corpus of public Office test files, kept out of the repository.

Copies the XLSX/XLSM, ODS, DOCX and PPTX test files of public projects from bare mirrors of
their repositories (`git --git-dir=MIRROR show COMMIT:path`) into OUT, and writes each
spreadsheet's reference Markdown beside it (`<name>.md`) from what LibreOffice shows:
every sheet exported as CSV with "save cell contents as shown", one Markdown table per
sheet under `## Sheet: <name>`. DOCX and PPTX files go to OUT/refusals with an empty
reference: they are there to count the documents one reader refuses and the other reads.

    python3 scripts/office-corpus.py MIRRORS OUT [EXTENSIONS]   # e.g. .ods (default: all)
    python3 scripts/office-corpus.py --oracles OUT
    PAW_DOC_ORACLES=OUT/refusals cargo bench -p paw-tests --bench oracles
    PAW_DOC_CORPUS_EXTRA=OUT/sheets PAW_BENCH_DOC_ONLY=fidelity cargo bench -p paw-tests --bench doc
    PAW_DOC_CORPUS_EXTRA=OUT/refusals PAW_BENCH_DOC_ONLY=fidelity cargo bench -p paw-tests --bench doc

MIRRORS holds `<owner>+<name>/repo` bare git directories; the sources and their paths are
listed below (docs/benchmarks.md names them). Needs `soffice` (LibreOffice) on PATH.

`--oracles OUT` writes, beside each DOCX and PPTX under OUT/refusals, the text LibreOffice
reads from it (`<file>.libreoffice.txt`: Writer's plain-text export for DOCX; for PPTX,
Impress's PDF export read back by pypdfium2 from the venv `scripts/pdf-corpus.py` makes):
an independent oracle for the `oracles` bench, where these files have no reviewed text.
"""

import csv
import glob
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# (mirror, folder in the repository, extensions, license)
SOURCES = [
    ("tafia+calamine", "tests/", (".xlsx", ".xlsm"), "MIT"),
    ("SheetJS+test_files", "", (".xlsx", ".xlsm"), "Apache-2.0"),
    ("python-openxml+python-docx", "tests/test_files/", (".docx",), "MIT"),
    ("python-openxml+python-docx", "features/steps/test_files/", (".docx",), "MIT"),
    ("scanny+python-pptx", "tests/test_files/", (".pptx",), "MIT"),
    ("scanny+python-pptx", "features/steps/test_files/", (".pptx",), "MIT"),
    ("tafia+calamine", "tests/", (".ods",), "MIT"),
    ("SheetJS+test_files", "", (".ods",), "Apache-2.0"),
]
# Files that are not what their name says, or test a password: not documents to read.
SKIP = ("pass_protected", "password", "encrypted")


def git(mirror, *args):
    return subprocess.run(
        ["git", f"--git-dir={mirror}", *args], check=True, capture_output=True
    ).stdout


def sheets_of(path):
    """Each sheet's name and rows as LibreOffice shows them (CSV of every sheet)."""
    with tempfile.TemporaryDirectory() as tmp:
        # 44,34,76: comma, quote, UTF-8; token 9 true: cell contents as shown; token 12
        # -1: every sheet, one file each named <stem>-<sheet>.csv.
        filt = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"
        subprocess.run(
            ["soffice", "--headless", "--convert-to", filt, "--outdir", tmp, str(path)],
            check=True,
            capture_output=True,
            timeout=120,
        )
        stem = path.stem
        out = []
        # LibreOffice writes the sheets in order: their files' times keep it.
        files = sorted(glob.glob(os.path.join(tmp, f"{glob.escape(stem)}-*.csv")), key=os.path.getmtime)
        if not files:
            files = glob.glob(os.path.join(tmp, "*.csv"))
        for f in files:
            name = Path(f).stem[len(stem) + 1 :] if Path(f).stem.startswith(stem + "-") else "Sheet1"
            with open(f, newline="", encoding="utf-8", errors="replace") as fh:
                rows = [r for r in csv.reader(fh)]
            out.append((name, rows))
        return out


def md_cell(s):
    return s.replace("|", "\\|").replace("\n", " ").strip()


def reference(sheets):
    parts = []
    for name, rows in sheets:
        rows = [r for r in rows if any(c.strip() for c in r)]
        parts.append(f"## Sheet: {name}")
        if not rows:
            continue
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        keep = [i for i in range(width) if any(r[i].strip() for r in rows)]
        lines = ["| " + " | ".join(md_cell(r[i]) for i in keep) + " |" for r in rows]
        lines.insert(1, "|" + " --- |" * len(keep))
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def convert(path, target, tmp):
    subprocess.run(
        ["soffice", "--headless", "--convert-to", target, "--outdir", tmp, str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return Path(tmp) / f"{path.stem}.{target.split(':')[0]}"


def oracles(out):
    root = Path(__file__).resolve().parent.parent
    py = root / "target/py-pdforacle/bin/python"
    read_pdf = "import sys, pypdfium2 as p; d = p.PdfDocument(sys.argv[1]); " \
        "print('\\n'.join(pg.get_textpage().get_text_bounded() for pg in d))"
    for path in sorted((out / "refusals").rglob("*")):
        ext = path.suffix.lower()
        if ext not in (".docx", ".pptx"):
            continue
        dest = Path(f"{path}.libreoffice.txt")
        try:
            with tempfile.TemporaryDirectory() as tmp:
                if ext == ".docx":
                    text = convert(path, "txt:Text (encoded):UTF8", tmp).read_text(errors="replace")
                else:
                    pdf = convert(path, "pdf", tmp)
                    text = subprocess.run(
                        [str(py), "-c", read_pdf, str(pdf)],
                        check=True, capture_output=True, timeout=120,
                    ).stdout.decode("utf-8", "replace")
            dest.write_text(text)
        except (subprocess.SubprocessError, OSError) as e:
            print(f"{path.name}: no oracle ({e})", file=sys.stderr)


def main():
    if sys.argv[1] == "--oracles":
        oracles(Path(sys.argv[2]))
        return
    mirrors, out = Path(sys.argv[1]), Path(sys.argv[2])
    only = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    for mirror, folder, exts, _license in SOURCES:
        gd = mirrors / mirror / "repo"
        commit = git(gd, "rev-parse", "HEAD").decode().strip()
        names = git(gd, "ls-tree", "-r", "--name-only", commit).decode().splitlines()
        for n in names:
            if not n.startswith(folder) or not n.lower().endswith(exts):
                continue
            if only and not n.lower().endswith(only):
                continue
            if any(s in n.lower() for s in SKIP):
                continue
            is_sheet = n.lower().endswith((".xlsx", ".xlsm", ".ods"))
            sub = "sheets" if is_sheet else "refusals"
            dest = out / sub / mirror.split("+")[1] / n.replace("/", "__")
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                data = git(gd, "show", f"{commit}:{n}")
            except subprocess.CalledProcessError:
                # A mirror may list its largest files without holding them.
                continue
            if data.startswith(b"version https://git-lfs"):
                continue
            dest.write_bytes(data)
            ref = Path(f"{dest}.md")
            if not is_sheet:
                ref.write_text("")
                continue
            try:
                ref.write_text(reference(sheets_of(dest)))
            except (subprocess.SubprocessError, OSError) as e:
                # No oracle for it: kept out of the scored set.
                print(f"{n}: LibreOffice failed ({e}); left out", file=sys.stderr)
                dest.unlink()
        print(f"{mirror} {commit}")


if __name__ == "__main__":
    main()
