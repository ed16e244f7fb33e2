#!/usr/bin/env python3
"""Generates the known-text part of the document fidelity corpus.

Writes documents with their expected Markdown (`<name>.<ext>` + `<name>.<ext>.md`) to
tests/fixtures/docs/generated/ and scanned pages to tests/fixtures/docs/scans/, each
expected file made from the same source text as its document. The outputs are committed;
run this again only to change the corpus:

    python3 scripts/doc-corpus.py

It re-executes itself inside a venv under target/py-doc, made on first use with the
packages it needs (reportlab, python-docx, python-pptx, openpyxl, pillow, arabic-reshaper,
python-bidi). Every random choice is seeded, so a re-run writes the same text.
"""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "py-doc"
PACKAGES = [
    "reportlab",
    "python-docx",
    "python-pptx",
    "openpyxl",
    "pillow",
    "arabic-reshaper",
    "python-bidi",
]
OUT = ROOT / "tests" / "fixtures" / "docs" / "generated"
SCANS = ROOT / "tests" / "fixtures" / "docs" / "scans"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def ensure_venv():
    """Runs this script in the venv, creating it first when missing (check, then install)."""
    py = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not py.exists():
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
    probe = "import reportlab, docx, pptx, openpyxl, PIL, arabic_reshaper, bidi"
    if subprocess.call([str(py), "-c", probe], stderr=subprocess.DEVNULL) != 0:
        subprocess.check_call([str(py), "-m", "pip", "install", "-q", *PACKAGES])
    os.execv(str(py), [str(py), __file__, *sys.argv[1:]])


# ---------------------------------------------------------------- source text

WORDS = (
    "system report daemon worker table column value record terminal session agent "
    "policy request result output input server client network file folder page "
    "document reader format model layout paragraph heading section figure chart "
    "number measure figure limit budget quarter revenue market region office "
    "customer product service support team project review release version update "
    "quickly carefully always never often rarely clearly simply mostly largely "
    "green quiet early late small large careful simple steady local remote shared "
    "reads writes checks counts keeps sends moves builds tests starts stops opens"
).split()


class Rng:
    """A tiny linear congruential generator: the same text on every Python version."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.s >> 33) % n


def sentence(rng, extra=()):
    n = 8 + rng.next(9)
    words = [WORDS[rng.next(len(WORDS))] for _ in range(n)]
    for e in extra:
        words.insert(rng.next(len(words)), e)
    s = " ".join(words)
    return s[0].upper() + s[1:] + "."


def paragraph(rng, sentences=4, extra=()):
    out = []
    for i in range(sentences):
        out.append(sentence(rng, extra if i == 1 else ()))
    return " ".join(out)


def md_table(rows):
    """A pipe table whose first row is the header."""
    w = len(rows[0])
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * w]
    for r in rows[1:]:
        lines.append("| " + " | ".join(r) + " |")
    return "\n".join(lines)


def write_md(path, blocks):
    Path(str(path) + ".md").write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- PDFs


def fonts():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("DejaVu", FONT))
    pdfmetrics.registerFont(TTFont("DejaVu-Bold", FONT_BOLD))


def styles():
    from reportlab.lib.styles import ParagraphStyle

    body = ParagraphStyle("body", fontName="DejaVu", fontSize=10, leading=13, spaceAfter=8)
    h1 = ParagraphStyle("h1", fontName="DejaVu-Bold", fontSize=16, leading=20, spaceAfter=10)
    h2 = ParagraphStyle("h2", fontName="DejaVu-Bold", fontSize=12, leading=15, spaceAfter=6)
    return body, h1, h2


def two_column():
    """A two-column article: the reading order is the left column, then the right."""
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

    body, h1, h2 = styles()
    rng = Rng(1)
    path = OUT / "two_column.pdf"
    w, h = A4
    gap, margin = 18, 50
    colw = (w - 2 * margin - gap) / 2
    frames = [
        Frame(margin, margin, colw, h - 2 * margin, id="left"),
        Frame(margin + colw + gap, margin, colw, h - 2 * margin, id="right"),
    ]
    doc = BaseDocTemplate(str(path), pagesize=A4, title="Two columns", author="paw corpus")
    doc.addPageTemplates([PageTemplate(id="two", frames=frames)])
    flow, md = [], []
    title = "Column layouts in quarterly reports"
    flow.append(Paragraph(title, h1))
    md.append("# " + title)
    for s in range(4):
        head = f"Section {s + 1} on shared reader output"
        flow.append(Paragraph(head, h2))
        md.append("## " + head)
        for _ in range(3):
            p = paragraph(rng, 4)
            flow.append(Paragraph(p, body))
            md.append(p)
    doc.build(flow)
    write_md(path, md)


def ruled_table():
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    body, h1, _ = styles()
    rng = Rng(2)
    path = OUT / "table_ruled.pdf"
    rows = [["Region", "Quarter", "Revenue", "Customers"]]
    for i, region in enumerate(["North", "South", "East", "West", "Central", "Coastal"]):
        rows.append([region, f"Q{i % 4 + 1}", f"{120 + i * 37}.{i}0", str(1000 + i * 211)])
    t = Table(rows)
    t.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "DejaVu", 10),
                ("FONT", (0, 0), (-1, 0), "DejaVu-Bold", 10),
                ("GRID", (0, 0), (-1, -1), 0.7, colors.black),
                ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
            ]
        )
    )
    title = "Revenue by region"
    before, after = paragraph(rng, 3), paragraph(rng, 3)
    doc = SimpleDocTemplate(str(path), pagesize=A4, title=title)
    doc.build([Paragraph(title, h1), Paragraph(before, body), Spacer(1, 8), t, Spacer(1, 12), Paragraph(after, body)])
    write_md(path, ["# " + title, before, md_table(rows), after])


def ruleless_table():
    """A table with no lines at all: only the x positions of its columns make it one."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    rng = Rng(3)
    path = OUT / "table_ruleless.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("Service limits")
    w, h = A4
    title = "Service limits"
    before = paragraph(rng, 2)
    after = paragraph(rng, 2)
    rows = [["Service", "Requests", "Timeout", "Owner"]]
    names = ["Gateway", "Indexer", "Scheduler", "Mailer", "Archive", "Billing", "Search"]
    for i, n in enumerate(names):
        rows.append([n, str(500 * (i + 1)), f"{5 + i * 3} s", ["Ops", "Data", "Core"][i % 3]])
    y = h - 70
    c.setFont("DejaVu-Bold", 16)
    c.drawString(60, y, title)
    y -= 30
    y = draw_wrapped(c, before, 60, y, 470, "DejaVu", 10, 13)
    y -= 16
    xs = [60, 200, 320, 430]
    for r, row in enumerate(rows):
        c.setFont("DejaVu-Bold" if r == 0 else "DejaVu", 10)
        for x, cell in zip(xs, row):
            c.drawString(x, y, cell)
        y -= 16
    y -= 14
    draw_wrapped(c, after, 60, y, 470, "DejaVu", 10, 13)
    c.showPage()
    c.save()
    write_md(path, ["# " + title, before, md_table(rows), after])


def wrap(text, width, font, size, hyphens=None):
    """Greedy line breaking; a word in `hyphens` is split at its break point when it
    overflows or comes late in the line, so the document has real `config-`/`uration`
    line ends."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    hyphens = hyphens or {}
    lines, cur = [], ""
    for word in text.split():
        cand = (cur + " " + word).strip()
        core = word.rstrip(".,;")
        # Past 45 % of the line a long word is always broken, so that every page has
        # several hyphenated line ends whatever the random words around them.
        late = stringWidth(cur, font, size) >= 0.45 * width
        if stringWidth(cand, font, size) <= width and not (late and core in hyphens):
            cur = cand
            continue
        if core in hyphens:
            head = hyphens[core] + "-"
            if stringWidth((cur + " " + head).strip(), font, size) <= width:
                lines.append((cur + " " + head).strip())
                cur = word[len(hyphens[core]):]
                continue
        lines.append(cur)
        cur = word
    if cur:
        lines.append(cur)
    return lines


def draw_wrapped(c, text, x, y, width, font, size, leading, hyphens=None):
    c.setFont(font, size)
    for line in wrap(text, width, font, size, hyphens):
        c.drawString(x, y, line)
        y -= leading
    return y


def running_heads():
    """Five pages with a running header, a footer with page numbers and hyphenated line
    ends; the expected text has neither header nor footer and every word whole."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    rng = Rng(4)
    path = OUT / "running_heads.pdf"
    hyphens = {
        "configuration": "config",
        "documentation": "documen",
        "administrator": "admin",
        "performance": "perfor",
        "information": "infor",
        "independently": "indepen",
        "communication": "communi",
        "requirements": "require",
    }
    long_words = list(hyphens)
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("Operations handbook")
    w, h = A4
    pages = 5
    md = []
    title = "Operations handbook"
    md.append("# " + title)
    for p in range(pages):
        c.setFont("DejaVu", 8)
        c.drawString(60, h - 40, "Operations handbook — internal draft")
        c.drawRightString(w - 60, h - 40, "Revision 7")
        c.drawCentredString(w / 2, 30, f"Page {p + 1} of {pages}")
        y = h - 80
        if p == 0:
            c.setFont("DejaVu-Bold", 16)
            c.drawString(60, y, title)
            y -= 30
        head = f"Chapter {p + 1}: {['Setup', 'Routine work', 'Incidents', 'Upgrades', 'Retirement'][p]}"
        c.setFont("DejaVu-Bold", 12)
        c.drawString(60, y, head)
        y -= 22
        md.append("## " + head)
        for i in range(4):
            extra = [long_words[(p * 4 + i + k) % len(long_words)] for k in range(4)]
            text = paragraph(rng, 4, extra)
            y = draw_wrapped(c, text, 60, y, 470, "DejaVu", 10, 13, hyphens)
            y -= 10
            md.append(text)
        c.showPage()
    c.save()
    write_md(path, md)


def ligatures():
    """Text written with the ligature characters themselves (U+FB01 ﬁ, U+FB02 ﬂ, U+FB00 ﬀ):
    the font's ToUnicode maps those glyphs to the ligature code points, as typeset PDFs do;
    the expected text has the letters."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = OUT / "ligatures.pdf"
    lines_src = [
        "The finance office filed the final figures for the fiscal year.",
        "Workflow files flow through the offline buffer in fifty steps.",
        "Official staff fly to the field office to fix the difficult profile.",
        "A fluent officer affirms that the effect of the flood is significant.",
        "Firefighters fled the flat field after the first flash of fire.",
        "The affluent fisherman offered fresh flounder and fine coffee.",
    ]

    def ligate(s):
        return s.replace("ffi", "\ufb03").replace("ff", "\ufb00").replace("fi", "\ufb01").replace("fl", "\ufb02")

    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("Ligatures")
    w, h = A4
    y = h - 80
    title = "Field notes on office workflow"
    c.setFont("DejaVu-Bold", 16)
    c.drawString(60, y, ligate(title))
    y -= 30
    c.setFont("DejaVu", 11)
    for line in lines_src:
        c.drawString(60, y, ligate(line))
        y -= 22
    c.showPage()
    c.save()
    write_md(path, ["# " + title, "\n\n".join(lines_src)])


ARABIC = [
    "تقرير الأداء السنوي للشركة",
    "يقدم هذا التقرير ملخصا لنتائج العمل خلال العام الماضي في جميع الأقسام",
    "ارتفعت المبيعات بنسبة كبيرة في جميع المناطق بفضل المنتجات الجديدة",
    "استثمرت الشركة في تدريب الموظفين وتطوير الأنظمة الداخلية",
    "نشكر جميع الموظفين والشركاء على جهودهم المتواصلة ودعمهم الدائم",
    "سيتم نشر التقرير الكامل مع الجداول والأرقام في الشهر القادم",
    "تهدف الخطة الجديدة إلى زيادة الإنتاج وتحسين جودة الخدمات المقدمة للعملاء",
]

HEBREW = [
    "דוח שנתי על פעילות החברה",
    "הדוח הזה מציג סיכום של תוצאות העבודה בשנה האחרונה בכל המחלקות",
    "המכירות עלו בכל האזורים של המדינה בזכות המוצרים החדשים",
    "החברה השקיעה בהכשרת העובדים ובפיתוח המערכות הפנימיות",
    "אנחנו מודים לכל העובדים והשותפים על המאמץ הרב והתמיכה",
    "הדוח המלא יפורסם עם הטבלאות והמספרים בחודש הבא",
    "התוכנית החדשה נועדה להגדיל את הייצור ולשפר את איכות השירות ללקוחות",
]


def rtl(name, lines, shape):
    """Right-to-left text stored the way many real PDFs store it: each line's glyphs in
    visual order (left to right on the page), Arabic as presentation forms. A reader must
    put the words back in logical order."""
    from bidi.algorithm import get_display
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    import arabic_reshaper

    path = OUT / name
    c = canvas.Canvas(str(path), pagesize=A4)
    w, h = A4
    y = h - 80
    right = w - 60
    md = []
    for i, logical in enumerate(lines):
        font, size = ("DejaVu-Bold", 16) if i == 0 else ("DejaVu", 12)
        # Break the logical text into lines first, as a layout engine does, then turn
        # each line into its visual form.
        words = logical.split()
        out_lines, cur = [], []
        for wd in words:
            trial = " ".join(cur + [wd])
            vis = get_display(arabic_reshaper.reshape(trial) if shape else trial)
            if cur and stringWidth(vis, font, size) > 300:
                out_lines.append(" ".join(cur))
                cur = [wd]
            else:
                cur.append(wd)
        out_lines.append(" ".join(cur))
        c.setFont(font, size)
        for ln in out_lines:
            vis = get_display(arabic_reshaper.reshape(ln) if shape else ln)
            c.drawRightString(right, y, vis)
            y -= size + 8
        y -= 10
        md.append(("# " if i == 0 else "") + logical)
    c.showPage()
    c.save()
    write_md(path, md)


# ---------------------------------------------------------------- DOCX (raw OOXML)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def docx():
    """Merged cells, a nested table, footnotes, hyperlinks, numbered headings and nested
    lists, written as raw WordprocessingML so every feature is exactly what Word writes."""
    rng = Rng(5)
    path = OUT / "features.docx"
    body, md = [], []

    def p(text, style=None, num=None):
        ppr = ""
        if style or num:
            ppr = "<w:pPr>"
            if style:
                ppr += f'<w:pStyle w:val="{style}"/>'
            if num:
                ppr += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>'
            ppr += "</w:pPr>"
        return f"<w:p>{ppr}<w:r><w:t xml:space=\"preserve\">{esc(text)}</w:t></w:r></w:p>"

    def run(text):
        return f'<w:r><w:t xml:space="preserve">{esc(text)}</w:t></w:r>'

    title = "Reader features handbook"
    body.append(p(title, "Title"))
    md.append("# " + title)

    # Numbered headings (numId 1: "1." / "1.1.").
    heads = [(0, "Scope", "1."), (1, "Terms used", "1.1."), (1, "Audience", "1.2."), (0, "Tables", "2."),
             (0, "Lists and notes", "3.")]
    intro = paragraph(rng, 3)

    def heading(i):
        lvl, text, number = heads[i]
        body.append(p(text, f"Heading{lvl + 1}", (1, lvl)))
        md.append("#" * (lvl + 2) + f" {number} {text}")

    heading(0)
    body.append(p(intro))
    md.append(intro)
    heading(1)
    # A paragraph with a hyperlink and a footnote reference.
    before, link, after = "The reader keeps links such as ", "the paw handbook", " and notes at the end of a sentence."
    body.append(
        "<w:p>" + run(before)
        + f'<w:hyperlink r:id="rIdLink1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>{esc(link)}</w:t></w:r></w:hyperlink>'
        + run(after)
        + '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
        + "</w:p>"
    )
    md.append(f"{before}[{link}](https://example.org/paw/handbook){after}[^1]")
    heading(2)
    aud = paragraph(rng, 2)
    body.append(
        "<w:p>" + run(aud)
        + '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="2"/></w:r></w:p>'
    )
    md.append(aud + "[^2]")
    heading(3)

    # A table with a horizontal merge (gridSpan) and a vertical merge (vMerge).
    def tc(text, span=1, vmerge=None, inner=""):
        pr = "<w:tcPr>"
        if span > 1:
            pr += f'<w:gridSpan w:val="{span}"/>'
        if vmerge == "restart":
            pr += '<w:vMerge w:val="restart"/>'
        elif vmerge == "continue":
            pr += "<w:vMerge/>"
        pr += "</w:tcPr>"
        return f"<w:tc>{pr}{inner}{p(text)}</w:tc>"

    def tbl(rows, widths):
        grid = "".join(f'<w:gridCol w:w="{x}"/>' for x in widths)
        return (
            '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>'
            '<w:tblBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/>'
            '<w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/>'
            '<w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders>'
            f"</w:tblPr><w:tblGrid>{grid}</w:tblGrid>"
            + "".join(f"<w:tr>{r}</w:tr>" for r in rows)
            + "</w:tbl>"
        )

    t_intro = "Budget per team and quarter:"
    body.append(p(t_intro))
    md.append(t_intro)
    rows = [
        tc("Team") + tc("Quarter") + tc("Budget") + tc("Spent"),
        tc("Core", vmerge="restart") + tc("Q1") + tc("4000") + tc("3100"),
        tc("", vmerge="continue") + tc("Q2") + tc("4200") + tc("3900"),
        tc("Data") + tc("Q1") + tc("2500") + tc("2450"),
        tc("Total for the half year", span=2) + tc("10700") + tc("9450"),
    ]
    body.append(tbl(rows, [2000, 2000, 2000, 2000]))
    # Merged cells repeat their text in every grid cell they cover, as docling's
    # references do: a reader that leaves them empty still finds the other cells.
    md.append(md_table([
        ["Team", "Quarter", "Budget", "Spent"],
        ["Core", "Q1", "4000", "3100"],
        ["Core", "Q2", "4200", "3900"],
        ["Data", "Q1", "2500", "2450"],
        ["Total for the half year", "Total for the half year", "10700", "9450"],
    ]))
    # A nested table inside a cell.
    n_intro = "Owners, with a nested table of contacts:"
    body.append(p(n_intro))
    md.append(n_intro)
    inner = tbl([tc("Name") + tc("Phone"), tc("Ada Lovelace") + tc("555 0101"), tc("Alan Turing") + tc("555 0102")], [1500, 1500])
    rows = [
        tc("Area") + tc("Contacts"),
        tc("Storage") + f"<w:tc><w:tcPr/>{inner}{p('See the on-call list.')}</w:tc>",
        tc("Network") + tc("Grace Hopper"),
    ]
    body.append(tbl(rows, [3000, 4000]))
    md.append(md_table([["Area", "Contacts"], ["Storage", "Name Phone Ada Lovelace 555 0101 Alan Turing 555 0102 See the on-call list."], ["Network", "Grace Hopper"]]))
    heading(4)
    # Nested lists: numId 2 is bulleted, numId 3 is decimal.
    items = [
        (2, 0, "Install the daemon"),
        (2, 1, "Check the socket permissions"),
        (2, 1, "Read the configuration file"),
        (2, 2, "Keep the defaults for workers"),
        (2, 0, "Start a session"),
        (3, 0, "Open the terminal"),
        (3, 0, "Run the first command"),
        (3, 1, "Watch the audit journal"),
        (3, 0, "Close the session"),
    ]
    counters = {}
    for num, lvl, text in items:
        body.append(p(text, "ListParagraph", (num, lvl)))
        if num == 3:
            key = (num, lvl)
            counters[key] = counters.get(key, 0) + 1
            for k in list(counters):
                if k[0] == num and k[1] > lvl:
                    del counters[k]
            mark = f"{counters[key]}."
        else:
            mark = "-"
        md.append("    " * lvl + f"{mark} {text}")
    closing = paragraph(rng, 2)
    body.append(p(closing))
    md.append(closing)
    notes = ["Links open in the agent's browser only when the policy allows it.",
             "The audience section is reviewed every quarter."]
    md.append("\n".join(f"[^{i + 1}]: {n}" for i, n in enumerate(notes)))
    # Lists are one block in Markdown: join consecutive list lines.
    md_out = []
    for b in md:
        is_item = b.lstrip().startswith(("- ", "1. ", "2. ", "3. "))
        if is_item and md_out and md_out[-1].split("\n")[-1].lstrip().startswith(("- ", "1. ", "2. ", "3. ")):
            md_out[-1] += "\n" + b
        else:
            md_out.append(b)

    document = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="{W}" xmlns:r="{R}"><w:body>'
        + "".join(body)
        + '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>'
    )
    footnotes = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes xmlns:w="{W}">'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
        + "".join(
            f'<w:footnote w:id="{i + 1}"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> {esc(n)}</w:t></w:r></w:p></w:footnote>'
            for i, n in enumerate(notes)
        )
        + "</w:footnotes>"
    )

    def lvl(i, fmt, text):
        return (f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
                f'<w:lvlText w:val="{text}"/><w:pPr><w:ind w:left="{720 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>')

    numbering = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering xmlns:w="{W}">'
        '<w:abstractNum w:abstractNumId="0">' + lvl(0, "decimal", "%1.") + lvl(1, "decimal", "%1.%2.") + "</w:abstractNum>"
        '<w:abstractNum w:abstractNumId="1">' + "".join(lvl(i, "bullet", "•") for i in range(3)) + "</w:abstractNum>"
        '<w:abstractNum w:abstractNumId="2">' + lvl(0, "decimal", "%1.") + lvl(1, "decimal", "%2.") + "</w:abstractNum>"
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
        '<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>'
        '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>'
        "</w:numbering>"
    )

    def style(sid, name, extra=""):
        return f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>{extra}</w:style>'

    styles_xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="{W}">'
        + style("Normal", "Normal")
        + style("Title", "Title", '<w:rPr><w:b/><w:sz w:val="48"/></w:rPr>')
        + style("Heading1", "heading 1", '<w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr>')
        + style("Heading2", "heading 2", '<w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr>')
        + style("ListParagraph", "List Paragraph")
        + '<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>'
        + '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>'
        + "</w:styles>"
    )
    ct = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>'
        '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>'
        '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>'
        "</Types>"
    )
    rels = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{R}/officeDocument" Target="word/document.xml"/></Relationships>'
    )
    doc_rels = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{R}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId2" Type="{R}/numbering" Target="numbering.xml"/>'
        f'<Relationship Id="rId3" Type="{R}/footnotes" Target="footnotes.xml"/>'
        f'<Relationship Id="rIdLink1" Type="{R}/hyperlink" Target="https://example.org/paw/handbook" TargetMode="External"/>'
        "</Relationships>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [
            ("[Content_Types].xml", ct),
            ("_rels/.rels", rels),
            ("word/document.xml", document),
            ("word/_rels/document.xml.rels", doc_rels),
            ("word/styles.xml", styles_xml),
            ("word/numbering.xml", numbering),
            ("word/footnotes.xml", footnotes),
        ]:
            # A fixed date keeps re-runs byte-identical.
            z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    write_md(path, md_out)


# ---------------------------------------------------------------- PPTX and XLSX


def pptx():
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    path = OUT / "deck.pptx"
    prs = Presentation()
    md = []
    # Slide 1: title and bullets with a second level.
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = "Quarterly review of the agent platform"
    tf = s.placeholders[1].text_frame
    bullets = [(0, "Sessions grew in every region"), (1, "Most growth came from scheduled jobs"),
               (0, "Worker crashes fell to zero"), (1, "The sandbox caught two bad documents"),
               (0, "Next quarter we ship document fidelity")]
    tf.text = bullets[0][1]
    for lvl, text in bullets[1:]:
        para = tf.add_paragraph()
        para.text = text
        para.level = lvl
    md.append("# Quarterly review of the agent platform")
    md.append("\n".join("  " * lvl + "- " + t for lvl, t in bullets))
    # Slide 2: a table shape.
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = "Sessions by region"
    rows = [["Region", "Sessions", "Growth"], ["Europe", "1200", "12 %"], ["Americas", "1850", "9 %"],
            ["Asia", "970", "21 %"], ["Africa", "310", "30 %"]]
    shape = s.shapes.add_table(len(rows), 3, Inches(1), Inches(1.8), Inches(8), Inches(3))
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            shape.table.cell(r, c).text = v
    md.append("# Sessions by region")
    md.append(md_table(rows))
    # Slide 3: a chart, with a note line of text.
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = "Jobs per month"
    data = CategoryChartData()
    data.categories = ["January", "February", "March"]
    data.add_series("Scheduled", (310, 355, 402))
    data.add_series("Manual", (120, 98, 87))
    gf = s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1.8), Inches(8), Inches(4.5), data)
    gf.chart.has_title = True
    gf.chart.chart_title.text_frame.text = "Scheduled and manual jobs"
    box = s.shapes.add_textbox(Inches(1), Inches(6.5), Inches(8), Inches(0.6))
    box.text_frame.text = "Manual jobs keep falling as schedules replace them."
    md.append("# Jobs per month")
    # The chart's data as a table, as docling's references give it.
    md.append("Scheduled and manual jobs")
    md.append(md_table([["Month", "Scheduled", "Manual"], ["January", "310", "120"], ["February", "355", "98"],
                        ["March", "402", "87"]]))
    md.append("Manual jobs keep falling as schedules replace them.")
    prs.core_properties.modified = __import__("datetime").datetime(2026, 1, 1)
    prs.core_properties.created = __import__("datetime").datetime(2026, 1, 1)
    prs.save(path)
    write_md(path, md)


def xlsx():
    import datetime

    from openpyxl import Workbook
    from openpyxl.styles import Font

    path = OUT / "two_tables.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Summary"
    ws["A1"] = "Inventory and orders, November"
    ws["A1"].font = Font(bold=True, size=14)
    t1 = [["Item", "Stock", "Price"], ["Cables", 140, 4.5], ["Adapters", 35, 12.25], ["Switches", 8, 89.9],
          ["Racks", 2, 410]]
    t2 = [["Order", "Customer", "Amount"], ["A-1001", "Northwind", 1200], ["A-1002", "Contoso", 560],
          ["A-1003", "Fabrikam", 75]]
    start = 3
    for r, row in enumerate(t1):
        for c, v in enumerate(row):
            ws.cell(row=start + r, column=1 + c, value=v)
    start2 = start + len(t1) + 3
    for r, row in enumerate(t2):
        for c, v in enumerate(row):
            ws.cell(row=start2 + r, column=2 + c, value=v)
    wb.properties.created = datetime.datetime(2026, 1, 1)
    wb.properties.modified = datetime.datetime(2026, 1, 1)
    wb.save(path)

    def fmt(v):
        return str(v)

    write_md(path, [
        "## Summary",
        "Inventory and orders, November",
        md_table([[fmt(v) for v in row] for row in t1]),
        md_table([[fmt(v) for v in row] for row in t2]),
    ])


# ---------------------------------------------------------------- scanned pages

SCAN_TEXT = [
    [
        "Minutes of the planning meeting",
        "The team met on Tuesday to plan the next release of the daemon.",
        "Everyone agreed that the document reader needs better tables.",
        "The worker sandbox stays as it is because it has caught real faults.",
        "Action items were given to the reader group and to the test group.",
        "The next meeting is in two weeks at the usual time.",
    ],
    [
        "Delivery note 4471",
        "Ten boxes of printer paper were delivered to the second floor.",
        "Three boxes were damaged and will be returned to the supplier.",
        "Please sign below and send a copy to the accounts office.",
        "Questions about this delivery go to the front desk.",
    ],
    [
        "Notice to all staff",
        "The north entrance will be closed for repairs from Monday.",
        "Use the south entrance and follow the signs to the lifts.",
        "Parking for visitors moves to the east side of the building.",
        "We are sorry for the trouble and thank you for your patience.",
    ],
    [
        "Laboratory safety checklist",
        "Wear eye protection whenever samples are being heated.",
        "Label every bottle with its contents and the date it was opened.",
        "Keep the fire exits clear and report any blocked doors at once.",
        "Wash your hands before leaving the laboratory.",
    ],
    [
        "Invoice summary for October",
        "Consulting services for the storage migration project.",
        "Support hours outside the agreed schedule were billed separately.",
        "Payment is due within thirty days of the invoice date.",
        "Thank you for working with us this year.",
    ],
]


def render_page(lines, dpi=300):
    """An A4 page at `dpi` with the lines in DejaVu Sans, title larger, as a grayscale image."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = int(8.27 * dpi), int(11.69 * dpi)
    img = Image.new("L", (w, h), 255)
    d = ImageDraw.Draw(img)
    big = ImageFont.truetype(FONT_BOLD, int(dpi * 0.25))
    small = ImageFont.truetype(FONT, int(dpi * 0.16))
    y = int(dpi * 1.0)
    x = int(dpi * 1.0)
    for i, line in enumerate(lines):
        f = big if i == 0 else small
        d.text((x, y), line, font=f, fill=0)
        y += int(dpi * (0.5 if i == 0 else 0.3))
    return img


def scans():
    import io

    from PIL import Image
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    SCANS.mkdir(parents=True, exist_ok=True)

    def expected(path, lines):
        write_md(path, ["# " + lines[0], *lines[1:]])

    # 1: 1-bit PNG, upright.
    img = render_page(SCAN_TEXT[0])
    p = SCANS / "scan_minutes.png"
    img.point(lambda v: 255 if v > 128 else 0, "1").save(p, dpi=(300, 300), optimize=True)
    expected(p, SCAN_TEXT[0])
    # 2: grayscale JPEG, quality 70, upright.
    img = render_page(SCAN_TEXT[1])
    p = SCANS / "scan_delivery.jpg"
    img.save(p, quality=70, dpi=(300, 300))
    expected(p, SCAN_TEXT[1])
    # 3: rotated 90 degrees (the page lies on its side), 1-bit PNG.
    img = render_page(SCAN_TEXT[2]).rotate(90, expand=True)
    p = SCANS / "scan_notice_rot90.png"
    img.point(lambda v: 255 if v > 128 else 0, "1").save(p, dpi=(300, 300), optimize=True)
    expected(p, SCAN_TEXT[2])
    # 4: upside down, JPEG.
    img = render_page(SCAN_TEXT[3]).rotate(180)
    p = SCANS / "scan_safety_rot180.jpg"
    img.save(p, quality=70, dpi=(300, 300))
    expected(p, SCAN_TEXT[3])
    # 5: TIFF, CCITT group 4 (what office scanners write).
    img = render_page(SCAN_TEXT[4])
    p = SCANS / "scan_invoice.tiff"
    img.point(lambda v: 255 if v > 128 else 0, "1").save(p, compression="group4", dpi=(300, 300))
    expected(p, SCAN_TEXT[4])

    # Scanned PDFs: one image XObject per page and no text at all.
    from reportlab import rl_config

    rl_config.useA85 = 0  # plain binary streams, as scanners write them
    w, h = A4
    # JPEG pages are passed through as DCTDecode.
    p = SCANS / "scanned_jpeg.pdf"
    c = canvas.Canvas(str(p), pagesize=A4, invariant=1)
    lines = [SCAN_TEXT[0], SCAN_TEXT[1]]
    for page in lines:
        buf = io.BytesIO()
        render_page(page, dpi=200).save(buf, format="JPEG", quality=70)
        buf.seek(0)
        c.drawImage(ImageReader(buf), 0, 0, w, h)
        c.showPage()
    c.save()
    write_md(p, ["# " + lines[0][0], *lines[0][1:], "# " + lines[1][0], *lines[1][1:]])
    # Grayscale raw pixels: reportlab stores them FlateDecode.
    p = SCANS / "scanned_flate.pdf"
    c = canvas.Canvas(str(p), pagesize=A4, invariant=1)
    page = SCAN_TEXT[3]
    img = render_page(page, dpi=200)
    c.drawImage(ImageReader(img), 0, 0, w, h)
    c.showPage()
    c.save()
    expected(p, page)


def main():
    ensure_venv()
    OUT.mkdir(parents=True, exist_ok=True)
    from reportlab import rl_config

    # Fixed ids and dates: re-running writes the same bytes.
    rl_config.invariant = 1
    fonts()
    two_column()
    ruled_table()
    ruleless_table()
    running_heads()
    ligatures()
    rtl("arabic_visual.pdf", ARABIC, True)
    rtl("hebrew_visual.pdf", HEBREW, False)
    docx()
    pptx()
    xlsx()
    scans()
    for d in (OUT, SCANS):
        for f in sorted(d.iterdir()):
            print(f"{f.stat().st_size:>9}  {f.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
