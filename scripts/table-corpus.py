#!/usr/bin/env python3
"""Builds the table bench's corpus (docs/benchmarks.md "Documents: tables") from a
camelot-dev/camelot checkout or bare mirror: its test PDFs and two sets of reference
tables written by others.

  icdar2013  the ICDAR 2013 table competition's EU and US documents
             (tests/files/tabula/icdar2013-dataset, *-str.xml: every cell with its
             row/column span); each region (a table's part on one page) is one table.
             It is the competition's evaluation set: measure on it, never tune on it.
  camelot    the tables camelot's own tests expect (tests/data.py, stream and lattice
             cases whose options do not rewrite the text), for development.
  tabula     the tables tabula-java's tests expect (src/test/resources/technology/tabula:
             csv/*.csv and json/*.json of whole tables on one page, from a tabulapdf/tabula-java
             checkout or bare mirror given as TABULA_REPO), for development. Its copies of
             ICDAR 2013 competition files are left out (they are the evaluation set).

Usage: scripts/table-corpus.py CAMELOT_REPO OUT_DIR [TABULA_REPO]
writes OUT_DIR/files/*.pdf and OUT_DIR/cases.json:
  [{"set", "file", "pages": [first, last], "tables": [[[cell, ...], ...], ...]}]
Nothing here is committed: the corpus stays outside the repository.
"""

import ast
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

# camelot's test expectation -> (file under tests/files, pages or None for all).
CAMELOT = [
    ("data_stream", "health.pdf", None),
    ("data_stream_two_tables_1", "tabula/12s0324.pdf", None),
    ("data_stream_two_tables_2", "tabula/12s0324.pdf", None),
    ("data_stream_split_text", "tabula/m27.pdf", None),
    ("data_stream_edge_tol", "edge_tol.pdf", None),
    ("data_stream_layout_kwargs", "detect_vertical_false.pdf", None),
    ("data_stream_inner_outer_columns", "stream_inner_outer_columns.pdf", None),
    ("data_lattice_two_tables_1", "twotables_2.pdf", None),
    ("data_lattice_two_tables_2", "twotables_2.pdf", None),
    ("data_lattice_process_background", "background_lines_1.pdf", None),
    ("data_lattice_copy_text", "row_span_1.pdf", None),
    ("data_lattice_shift_text_left_top", "column_span_2.pdf", None),
    ("data_arabic", "tabula/arabic.pdf", None),
    ("data_lattice_split_text", "split_text_lattice.pdf", None),
]


# tabula-java's expectation (csv/ or json/ under its test resources) -> its PDF, page.
TABULA = [
    ("csv/argentina_diputados_voting_record.csv", "argentina_diputados_voting_record.pdf", 1),
    ("csv/frx_2012_disclosure.csv", "frx_2012_disclosure.pdf", 1),
    ("csv/indictb1h_14.csv", "indictb1h_14.pdf", 1),
    ("csv/schools.csv", "schools.pdf", 1),
    ("csv/spanning_cells.csv", "spanning_cells.pdf", 1),
    ("csv/spreadsheet_no_bounding_frame.csv", "spreadsheet_no_bounding_frame.pdf", 1),
    ("json/twotables.json", "twotables.pdf", 1),
    ("csv/AnimalSounds.csv", "AnimalSounds.pdf", 1),
    ("csv/Publication_of_award_of_Bids_for_Transport_Sector__August_2016.csv",
     "Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf", 1),
]
TABULA_BASE = "src/test/resources/technology/tabula/"


def tabula_tables(rel, data):
    """The reference tables of one tabula-java expectation: a CSV is one table, a JSON
    file a list of tables (each `data`: rows of cells with `text`)."""
    import csv
    import io
    if rel.endswith(".json"):
        return [[[c.get("text", "") for c in row] for row in t["data"]]
                for t in json.loads(data.decode())]
    rows = list(csv.reader(io.StringIO(data.decode())))
    return [[[" ".join(c.split()) for c in r] for r in rows if any(c.strip() for c in r)]]


class Repo:
    def __init__(self, path):
        self.path = path
        self.bare = os.path.isfile(os.path.join(path, "HEAD"))

    def read(self, rel):
        if self.bare:
            return subprocess.run(
                ["git", "--git-dir", self.path, "show", f"HEAD:{rel}"],
                check=True, capture_output=True).stdout
        with open(os.path.join(self.path, rel), "rb") as f:
            return f.read()

    def ls(self, rel):
        if self.bare:
            out = subprocess.run(
                ["git", "--git-dir", self.path, "ls-tree", "-r", "--name-only", "HEAD", rel],
                check=True, capture_output=True, text=True).stdout
            return out.split()
        return [os.path.join(dp, f)[len(self.path) + 1:]
                for dp, _, fs in os.walk(os.path.join(self.path, rel)) for f in fs]


def data_py(src):
    """tests/data.py's assignments: literals, and slices of earlier names."""
    names = {}
    for node in ast.parse(src).body:
        if not isinstance(node, ast.Assign) or not isinstance(node.targets[0], ast.Name):
            continue
        v = node.value
        try:
            if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name):
                base = names[v.value.id]
                s = v.slice
                lo = ast.literal_eval(s.lower) if s.lower else None
                hi = ast.literal_eval(s.upper) if s.upper else None
                names[node.targets[0].id] = base[lo:hi]
            elif isinstance(v, ast.Call) and getattr(v.func, "id", "") == "list":
                names[node.targets[0].id] = list(names[v.args[0].id])
            else:
                names[node.targets[0].id] = ast.literal_eval(v)
        except (ValueError, KeyError, SyntaxError):
            pass
    return names


def icdar_tables(xml):
    """(page, rows) per region of a -str.xml; a spanning cell's text fills its span."""
    out = []
    for region in ET.fromstring(xml).iter("region"):
        page = int(region.get("page", "1"))
        cells = []
        for c in region.iter("cell"):
            r0, c0 = int(c.get("start-row")), int(c.get("start-col"))
            r1 = int(c.get("end-row", r0))
            c1 = int(c.get("end-col", c0))
            text = " ".join((c.findtext("content") or "").split())
            cells.append((r0, c0, max(r1, r0), max(c1, c0), text))
        if not cells:
            continue
        nr = max(c[2] for c in cells) + 1
        nc = max(c[3] for c in cells) + 1
        grid = [["" for _ in range(nc)] for _ in range(nr)]
        for r0, c0, r1, c1, text in cells:
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    grid[r][c] = text
        out.append((page, grid))
    return out


def main():
    repo, out = Repo(sys.argv[1]), sys.argv[2]
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    cases = []

    def save(rel):
        name = rel.replace("/", "_")
        dest = os.path.join(out, "files", name)
        if not os.path.exists(dest):
            with open(dest, "wb") as f:
                f.write(repo.read(rel))
        return name

    base = "tests/files/tabula/icdar2013-dataset"
    for rel in sorted(repo.ls(base)):
        if not rel.endswith("-str.xml"):
            continue
        pdf = rel[: -len("-str.xml")] + ".pdf"
        try:
            name = save(pdf)
        except subprocess.CalledProcessError:
            continue  # eu-009b, us-011b…: a second table file with no PDF of its own
        by_page = {}
        for page, grid in icdar_tables(repo.read(rel)):
            by_page.setdefault(page, []).append(grid)
        for page, grids in sorted(by_page.items()):
            cases.append({"set": "icdar2013", "file": name, "pages": [page, page],
                          "tables": grids})
    names = data_py(repo.read("tests/data.py").decode())
    for var, rel, pages in CAMELOT:
        rows = names.get(var)
        if not rows:
            print(f"skipped {var}: not in data.py", file=sys.stderr)
            continue
        rows = [[str(c) for c in r] for r in rows]
        cases.append({"set": "camelot", "file": save("tests/files/" + rel),
                      "pages": pages, "tables": [rows], "name": var})
    if len(sys.argv) > 3:
        tabula = Repo(sys.argv[3])
        for rel, pdf, page in TABULA:
            name = "tabula_" + pdf
            dest = os.path.join(out, "files", name)
            if not os.path.exists(dest):
                with open(dest, "wb") as f:
                    f.write(tabula.read(TABULA_BASE + pdf))
            cases.append({"set": "tabula", "file": name, "pages": [page, page],
                          "tables": tabula_tables(rel, tabula.read(TABULA_BASE + rel)),
                          "name": rel})
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, ensure_ascii=False, indent=0)
    sets = {}
    for c in cases:
        sets.setdefault(c["set"], [0, 0])
        sets[c["set"]][0] += 1
        sets[c["set"]][1] += len(c["tables"])
    for s, (n, t) in sets.items():
        print(f"{s}: {n} cases, {t} tables")


if __name__ == "__main__":
    main()
