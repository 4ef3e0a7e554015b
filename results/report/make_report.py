"""Writes results/report/index.html: the whole run on one static page.

    /usr/bin/python3 results/report/make_report.py [--raw_dir=results/raw]
        [--tables_dir=results/tables] [--figures_dir=results/figures]
        [--out=results/report/index.html]

A pure function of the files (it never re-runs a study): the studies are
discovered from results/raw/<study>.h5 and from the study column of
results/tables/verify.csv (a study with verdicts but no file gets a section
saying so). The page has
  - the verdict summary: the number of checks per verdict, colour-coded
    (a click filters the table), and one row per study with its provenance;
  - the verify table (results/tables/verify.csv): sortable (click a column
    header), filterable by study, verdict and text; long evidence and the
    lost parameters sit behind a "details" toggle; each row names the file
    that judged it (results/raw/<study>.h5 or the study's paper-scale shelf
    file, with scale, commit and date);
  - one section per study: what it reproduces, the provenance of its file
    (/meta: commit, uncommitted changes, scale, seed, start and end time,
    command line, library versions, and for sweeps the versions of the
    parts), its figures (results/figures/<study>*.png, embedded as data
    URIs, with a relative link to the SVG), its summary tables (the first
    one open) and its claims.
The page is self-contained: no server, no network, no external script or
style sheet. It is written atomically (temporary name, then rename).
"""
import argparse
import base64
import csv
import datetime
import glob
import html
import os
import sys

import numpy as np

# The workspace root, for results.privbench_import (this file runs as a script).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results import privbench_import  # noqa: E402

VERDICT_COLOURS = {  # background, text
    "reproduced": ("#1b7f3b", "#fff"),
    "FINDING": ("#d9822b", "#fff"),
    "not reproduced": ("#e0a526", "#222"),
    "MISMATCH": ("#c0392b", "#fff"),
    "missing": ("#7b241c", "#fff"),
    "needs paper scale": ("#2e6da4", "#fff"),
    "surrogate data": ("#7d5ba6", "#fff"),
    "inconclusive": ("#888", "#fff"),
    "out of scope": ("#5d6d7e", "#fff"),
}
OTHER_COLOUR = ("#555", "#fff")
SHORT_TEXT = 90  # longer cells show a prefix and the whole text behind "details"
MAX_OPEN_ROWS = 60  # longer summary tables scroll inside a box

META_SHOWN = [  # /meta attributes shown as the provenance of a result, in this order
    ("git_commit", "commit"), ("git_dirty", "uncommitted changes"), ("scale", "scale"),
    ("seed", "seed"), ("start_time", "started"), ("end_time", "ended"),
    ("duration_seconds", "seconds"), ("dataset_provenance", "data"),
    ("sweep_part_versions", "sweep parts"), ("library_versions", "libraries"),
    ("command_line", "command line"),
]
META_DETAILS = [("lost_parameters", "lost parameters and our choices"),
                ("quick_scale_reductions", "reductions at this scale"),
                ("config", "full configuration")]


def esc(x):
    return html.escape(str(x), quote=True)


def text(x):
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    if isinstance(x, np.ndarray):
        return ", ".join(text(v) for v in x.tolist())
    if isinstance(x, (np.floating, float)):
        return fmt_number(float(x))
    return str(x)


def fmt_number(x):
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.4g}"


def slug(name):
    return "".join(c if c.isalnum() or c in "_-" else "-" for c in name)


def verdict_style(verdict):
    bg, fg = VERDICT_COLOURS.get(verdict, OTHER_COLOUR)
    return f"background:{bg};color:{fg}"


# ---------------------------------------------------------------------------
# Reading the files.

def read_verdicts(tables_dir):
    path = os.path.join(tables_dir, "verify.csv")
    if not os.path.exists(path):
        return [], f"{path} not found (run bazel run //results:verify)"
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    needed = {"study", "quantity", "published", "reproduced", "verdict", "detail"}
    if rows and not needed <= set(rows[0]):
        raise SystemExit(f"make_report: {path}: expected columns {sorted(needed)}, "
                         f"got {sorted(rows[0])}")
    return rows, None


def read_table(group):
    columns = text(group.attrs.get("columns", "")).split(",")
    columns = [c for c in columns if c in group] or sorted(group.keys())
    data = {c: group[c][...] for c in columns}
    return {"name": group.name.rsplit("/", 1)[-1], "title": text(group.attrs.get("title", "")),
            "caption": text(group.attrs.get("caption", "")), "columns": columns, "data": data}


def read_study(path):
    """The parts of one result file the page shows (a file the reader refuses:
    ValueError naming it), read with privbench.results, the one Python reader
    of result files (the C++ reader's checks, checksum included;
    results/privbench_import.py finds the package; tools/main.sh builds it
    with //results/...)."""
    privbench = privbench_import.import_privbench(
        "make_report: reads result files with privbench.results: "
        "bazel build //python:privbench (or pip install ./python)")
    with privbench.read_results(path) as f:
        meta = {k: text(v) for k, v in f["meta"].attrs.items()} if "meta" in f else {}
        tables = [read_table(f["summary"][n]) for n in f["summary"]] if "summary" in f else []
        claims = []
        if "claims" in f:
            for cid in f["claims"]:
                a = f["claims"][cid].attrs
                claims.append({"id": cid, "statement": text(a.get("statement", "")),
                               "source": text(a.get("source", "")),
                               "holds": int(a.get("holds", -1)),
                               "evidence": text(a.get("evidence", ""))})
    return {"meta": meta, "tables": tables, "claims": claims}


def assign_figures(figures_dir, studies):
    """{study: [png paths]}: a figure belongs to the longest study name it starts with."""
    out = {s: [] for s in studies}
    unassigned = []
    by_length = sorted(studies, key=len, reverse=True)
    for png in sorted(glob.glob(os.path.join(figures_dir, "*.png"))):
        stem = os.path.basename(png)[:-4]
        owner = next((s for s in by_length if stem == s or stem.startswith(s + "_")), None)
        (out[owner] if owner else unassigned).append(png)
    return out, unassigned


# ---------------------------------------------------------------------------
# Rendering.

def short_or_details(value, summary="details"):
    value = value or ""
    if len(value) <= SHORT_TEXT:
        return esc(value)
    return (f'<span class="short">{esc(value[:SHORT_TEXT])}&hellip;</span>'
            f'<details><summary>{esc(summary)}</summary><div class="long">{esc(value)}</div>'
            f'</details>')


def verdict_badge(verdict, count=None, clickable=False):
    label = esc(verdict) + (f' <b>{count}</b>' if count is not None else "")
    attrs = f' data-verdict="{esc(verdict)}" role="button" tabindex="0"' if clickable else ""
    cls = "badge summary-badge" if clickable else "badge"
    return f'<span class="{cls}" style="{verdict_style(verdict)}"{attrs}>{label}</span>'


def verdict_order(verdicts):
    known = list(VERDICT_COLOURS)
    return sorted(verdicts, key=lambda v: (known.index(v) if v in known else len(known), v))


def render_summary(rows, studies, infos, verify_note):
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    badges = " ".join(verdict_badge(v, counts[v], clickable=True) for v in verdict_order(counts))
    out = ['<section id="summary"><h2>Verdicts on the published numbers and claims</h2>',
           f'<p class="counts" id="verdict-counts">{len(rows)} checks: {badges}</p>']
    if verify_note:
        out.append(f'<p class="warn">{esc(verify_note)}</p>')
    out.append('<table class="plain" id="provenance"><thead><tr><th>study</th><th>reproduces</th>'
               '<th>scale</th><th>seed</th><th>commit</th><th>date (UTC)</th><th>verdicts</th>'
               '</tr></thead><tbody>')
    for s in studies:
        out.append(render_provenance_row(s, infos.get(s), rows))
    out.append("</tbody></table></section>")
    return "\n".join(out)


def render_provenance_row(study, info, rows):
    counts = {}
    for r in rows:
        if r["study"] == study:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    badges = " ".join(verdict_badge(v, counts[v]) for v in verdict_order(counts)) or "&ndash;"
    link = f'<a href="#study-{slug(study)}">{esc(study)}</a>'
    if info is None:
        return (f'<tr><td>{link}</td><td colspan="5" class="warn">no result file</td>'
                f'<td>{badges}</td></tr>')
    m = info["meta"]
    commit = m.get("git_commit", "?")[:10] + (" (dirty)" if m.get("git_dirty") == "1" else "")
    return (f'<tr><td>{link}</td><td>{esc(m.get("paper", "?"))}, {esc(m.get("section", ""))}'
            f'</td><td>{esc(m.get("scale", "?"))}</td><td>{esc(m.get("seed", "?"))}</td>'
            f'<td><code>{esc(commit)}</code></td><td>{esc(m.get("end_time", "?"))}</td>'
            f'<td>{badges}</td></tr>')


def render_verify_table(rows, studies):
    verdicts = verdict_order({r["verdict"] for r in rows})
    study_opts = "".join(f'<option value="{esc(s)}">{esc(s)}</option>'
                         for s in sorted({r["study"] for r in rows}))
    verdict_opts = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in verdicts)
    out = ['<section id="verify"><h2>Every check</h2>',
           '<div class="filters">'
           f'<label>study <select id="filter-study"><option value="">all</option>{study_opts}'
           '</select></label> '
           f'<label>verdict <select id="filter-verdict"><option value="">all</option>'
           f'{verdict_opts}</select></label> '
           '<label>text <input id="filter-text" type="search" placeholder="quantity, source, '
           'evidence"></label> <button id="filter-reset" type="button">show all</button> '
           '<span id="row-count"></span></div>',
           '<table id="verify-table" class="sortable"><thead><tr>'
           '<th data-sort="text">study</th><th data-sort="text">quantity</th>'
           '<th data-sort="text">source</th><th data-sort="number">published</th>'
           '<th data-sort="number">reproduced</th><th data-sort="text">verdict</th>'
           '<th>evidence</th></tr></thead><tbody>']
    for r in rows:
        detail = r.get("detail", "")
        lost = r.get("lost_parameters", "")
        evidence = short_or_details(detail)
        judged_from = r.get("judged_from", "")
        if judged_from:  # the file, scale, commit and date that judged the row
            evidence += f'<div class="judged-from">judged from {esc(judged_from)}</div>'
        if lost:
            evidence += (f'<details><summary>lost parameters</summary><div class="long">'
                         f'{esc(lost)}</div></details>')
        study_cell = (f'<a href="#study-{slug(r["study"])}">{esc(r["study"])}</a>'
                      if r["study"] in studies else esc(r["study"]))
        out.append(f'<tr data-study="{esc(r["study"])}" data-verdict="{esc(r["verdict"])}" '
                   f'id="check-{slug(r.get("id", ""))}"><td>{study_cell}</td>'
                   f'<td>{esc(r["quantity"])}</td><td>{esc(r.get("source", ""))}</td>'
                   f'<td>{esc(r["published"])}</td><td>{short_or_details(r["reproduced"])}</td>'
                   f'<td>{verdict_badge(r["verdict"])}</td><td>{evidence}</td></tr>')
    out.append("</tbody></table></section>")
    return "\n".join(out)


def render_meta(meta):
    items = []
    for key, label in META_SHOWN:
        if key in meta:
            value = meta[key]
            if key == "git_dirty":
                value = "yes" if value == "1" else "no"
            items.append(f'<dt>{esc(label)}</dt><dd data-key="{key}">{esc(value)}</dd>')
    out = ['<dl class="meta">' + "".join(items) + "</dl>"]
    for key, label in META_DETAILS:
        if meta.get(key):
            out.append(f'<details><summary>{esc(label)}</summary><pre>{esc(meta[key])}</pre>'
                       "</details>")
    return "\n".join(out)


def render_figures(pngs, out_dir):
    if not pngs:
        return '<p class="none">No figure for this study (no experiments/&lt;study&gt;/figures.py, ' \
               'or results/figures.sh was not run).</p>'
    out = ['<div class="figures">']
    for png in pngs:
        name = os.path.basename(png)
        with open(png, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        svg = png[:-4] + ".svg"
        link = ""
        if os.path.exists(svg):
            rel = os.path.relpath(svg, out_dir).replace(os.sep, "/")
            link = f' (<a href="{esc(rel)}">SVG</a>)'
        out.append(f'<figure><img src="data:image/png;base64,{data}" alt="{esc(name)}">'
                   f'<figcaption>{esc(name)}{link}</figcaption></figure>')
    out.append("</div>")
    return "\n".join(out)


def render_table(table, open_):
    cols = table["columns"]
    n = max((len(table["data"][c]) for c in cols), default=0)
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = []
    for i in range(n):
        cells = "".join(f"<td>{esc(text(table['data'][c][i]))}</td>"
                        if i < len(table["data"][c]) else "<td></td>" for c in cols)
        body.append(f"<tr>{cells}</tr>")
    box = ' class="tablebox scroll"' if n > MAX_OPEN_ROWS else ' class="tablebox"'
    title = table["title"] or table["name"]
    return (f'<details class="table"{" open" if open_ else ""}><summary>{esc(title)} '
            f'<code>/summary/{esc(table["name"])}</code> ({n} rows)</summary>'
            f'<p class="caption">{esc(table["caption"])}</p><div{box}><table class="plain">'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
            "</details>")


def render_claims(claims):
    if not claims:
        return '<p class="none">No qualitative claims in this study.</p>'
    out = ['<ul class="claims">']
    for c in claims:
        mark = {1: ("holds", "#1b7f3b"), 0: ("does not hold", "#d9822b")}.get(
            c["holds"], ("?", "#555"))
        out.append(f'<li><span class="badge" style="background:{mark[1]};color:#fff">{mark[0]}'
                   f'</span> {esc(c["statement"])} <span class="source">({esc(c["source"])})'
                   f'</span> {short_or_details(c["evidence"], "evidence")}</li>')
    out.append("</ul>")
    return "\n".join(out)


def render_study(study, info, pngs, out_dir):
    head = f'<section class="study" id="study-{slug(study)}" data-study="{esc(study)}">' \
           f'<h2>{esc(study)}</h2>'
    if info is None:
        return head + (f'<p class="warn">No results/raw/{esc(study)}.h5: the study was not run; '
                       "its checks are listed as missing above.</p>" +
                       render_figures(pngs, out_dir) + "</section>")
    m = info["meta"]
    parts = [head, f'<p class="paper">{esc(m.get("paper", ""))}, {esc(m.get("section", ""))}'
                   f'<br>{esc(m.get("description", ""))}</p>',
             '<h3>Provenance</h3>', render_meta(m), '<h3>Figures</h3>',
             render_figures(pngs, out_dir), '<h3>Tables</h3>']
    parts += [render_table(t, i == 0) for i, t in enumerate(info["tables"])] or \
        ['<p class="none">No summary table.</p>']
    parts += ['<h3>Claims</h3>', render_claims(info["claims"]),
              f'<p><a href="#verify" class="show-checks" data-study="{esc(study)}">'
              "show this study's checks</a></p></section>"]
    return "\n".join(parts)


STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 1em 3em;
  color:#222;line-height:1.35}
h1{margin-bottom:.2em} h2{border-bottom:2px solid #ddd;padding-top:.6em}
nav a{margin-right:.7em;white-space:nowrap}
.badge{display:inline-block;padding:.1em .5em;border-radius:.8em;font-size:.85em;margin:.1em;
  white-space:nowrap}
.summary-badge{cursor:pointer;font-size:1em}
.summary-badge.active{outline:3px solid #222}
table{border-collapse:collapse;font-size:.85em}
th,td{border:1px solid #ddd;padding:.25em .45em;vertical-align:top;text-align:left}
th{background:#f3f3f3;position:sticky;top:0}
table.sortable th[data-sort]{cursor:pointer}
table.sortable th.asc::after{content:" \\25B2"} table.sortable th.desc::after{content:" \\25BC"}
#verify-table td:nth-child(2){min-width:16em} #verify-table td:nth-child(7){max-width:34em}
.filters{margin:.5em 0;position:sticky;top:0;background:#fff;padding:.4em 0;z-index:2}
.filters label{margin-right:1em}
details .long,pre{white-space:pre-wrap;font-size:.9em;background:#f8f8f8;padding:.4em}
.judged-from{font-size:.8em;color:#555}
.figures{display:flex;flex-wrap:wrap;gap:1em}
figure{margin:0;max-width:100%} figure img{max-width:680px;width:100%;border:1px solid #eee}
figcaption{font-size:.8em;color:#555}
.tablebox{overflow-x:auto;max-width:100%} .scroll{max-height:30em;overflow:auto}
.meta{display:grid;grid-template-columns:max-content auto;gap:.1em 1em;font-size:.9em}
.meta dt{color:#555} .meta dd{margin:0;word-break:break-all}
.warn{color:#7b241c} .none{color:#777} .caption{font-size:.85em;color:#444}
.source{color:#666;font-size:.85em}
.claims li{margin-bottom:.4em}
"""

SCRIPT = """
(function () {
  const table = document.getElementById('verify-table');
  const rows = Array.from(table.tBodies[0].rows);
  const study = document.getElementById('filter-study');
  const verdict = document.getElementById('filter-verdict');
  const textBox = document.getElementById('filter-text');
  const count = document.getElementById('row-count');
  function apply() {
    const q = textBox.value.toLowerCase();
    let shown = 0;
    for (const r of rows) {
      const ok = (!study.value || r.dataset.study === study.value) &&
                 (!verdict.value || r.dataset.verdict === verdict.value) &&
                 (!q || r.textContent.toLowerCase().includes(q));
      r.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + ' of ' + rows.length + ' checks shown';
    for (const b of document.querySelectorAll('.summary-badge')) {
      b.classList.toggle('active', b.dataset.verdict === verdict.value);
    }
  }
  study.addEventListener('change', apply);
  verdict.addEventListener('change', apply);
  textBox.addEventListener('input', apply);
  document.getElementById('filter-reset').addEventListener('click', function () {
    study.value = ''; verdict.value = ''; textBox.value = ''; apply();
  });
  for (const b of document.querySelectorAll('.summary-badge')) {
    const pick = function () {
      verdict.value = verdict.value === b.dataset.verdict ? '' : b.dataset.verdict;
      apply();
      document.getElementById('verify').scrollIntoView();
    };
    b.addEventListener('click', pick);
    b.addEventListener('keydown', function (e) { if (e.key === 'Enter') pick(); });
  }
  for (const a of document.querySelectorAll('.show-checks')) {
    a.addEventListener('click', function () {
      study.value = a.dataset.study; verdict.value = ''; textBox.value = ''; apply();
    });
  }
  function key(cell, kind) {
    const t = cell.textContent.trim();
    if (kind === 'number') {
      const x = parseFloat(t.replace(/[%,]/g, ''));
      return isNaN(x) ? Infinity : x;
    }
    return t.toLowerCase();
  }
  table.tHead.querySelectorAll('th[data-sort]').forEach(function (th, _, all) {
    th.addEventListener('click', function () {
      const col = th.cellIndex, kind = th.dataset.sort;
      const dir = th.classList.contains('asc') ? -1 : 1;
      all.forEach(function (h) { h.classList.remove('asc', 'desc'); });
      th.classList.add(dir === 1 ? 'asc' : 'desc');
      const sorted = rows.slice().sort(function (a, b) {
        const x = key(a.cells[col], kind), y = key(b.cells[col], kind);
        return (x < y ? -1 : x > y ? 1 : 0) * dir;
      });
      for (const r of sorted) table.tBodies[0].appendChild(r);
    });
  });
  apply();
})();
"""


def render_page(rows, studies, infos, figures, unassigned, verify_note, out_dir):
    nav = " ".join(f'<a href="#study-{slug(s)}">{esc(s)}</a>' for s in studies)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = [f"<h1>privbench results</h1><p>Generated {now} by results/report/make_report.py "
            "from results/raw/*.h5, results/tables/verify.csv and results/figures/. "
            f"{len(studies)} studies.</p><nav>{nav}</nav>",
            render_summary(rows, studies, infos, verify_note),
            render_verify_table(rows, studies)]
    body += [render_study(s, infos.get(s), figures.get(s, []), out_dir) for s in studies]
    if unassigned:
        body.append('<section id="other-figures"><h2>Figures of no study in this run</h2>' +
                    render_figures(unassigned, out_dir) + "</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>privbench results</title>"
            "<link rel=\"icon\" href=\"data:,\">"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) +
            f"\n<script>{SCRIPT}</script>\n</body></html>\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--raw_dir", default="results/raw")
    p.add_argument("--tables_dir", default="results/tables")
    p.add_argument("--figures_dir", default="results/figures")
    p.add_argument("--out", default="results/report/index.html")
    a = p.parse_args(argv)
    if not os.path.isdir(a.raw_dir):
        print(f"make_report: error: --raw_dir {a.raw_dir} is not a directory (run a study first)",
              file=sys.stderr)
        return 2
    rows, verify_note = read_verdicts(a.tables_dir)
    infos = {}
    for path in sorted(glob.glob(os.path.join(a.raw_dir, "*.h5"))):
        try:
            infos[os.path.basename(path)[:-3]] = read_study(path)
        except (OSError, KeyError, ValueError, TypeError) as e:
            print(f"make_report: error: --raw_dir file {path} is not a readable result file "
                  f"({type(e).__name__}: {e})", file=sys.stderr)
            return 2
    studies = sorted(set(infos) | {r["study"] for r in rows})
    figures, unassigned = assign_figures(a.figures_dir, studies)
    out_dir = os.path.dirname(os.path.abspath(a.out))
    page = render_page(rows, studies, infos, figures, unassigned, verify_note, out_dir)
    os.makedirs(out_dir, exist_ok=True)
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, a.out)
    print(f"make_report: wrote {a.out} ({len(studies)} studies, {len(rows)} checks, "
          f"{sum(len(v) for v in figures.values()) + len(unassigned)} figures, "
          f"{len(page) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
