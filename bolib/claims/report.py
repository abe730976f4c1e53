"""The report: claims gathered from a run's JSON files, the paper's claims first and ours counted
apart; per paper a forest plot of the comparisons and the rates against their claimed ranges; each
decision rule stated once; the README's results block and each notebook's closing discussion,
generated, never typed.

A claim's *group* says whose it is and what it rests on: ``paper, experiment`` (the paper's figures
and tables), ``paper, theory`` (its theorems and equations) or ``check`` (ours). A claim of the
paper is *answered* when its rule decided it (reproduced or not reproduced); an undecided claim is
counted by why (:func:`undecided_reason`).
"""
from __future__ import annotations

import datetime
import html
import os
import re
from pathlib import Path

import pandas as pd

from bolib.claims import rules
from bolib.claims.book import KINDS, load_claims, partial_record, read_claims_file
from bolib.errors import check_integer

#: the run whose figures lie directly in ``figures/<notebook>/`` (the committed results the README shows);
#: every other run's lie in ``figures/<notebook>/<run>/``, so that no run overwrites another's
DEFAULT_RUN = "quick"


def run_name(profile: str, seed_offset: int = 0) -> str:
    """The run folder's name: the profile, plus ``-seedsN`` for seed offset N."""
    check_integer("seed_offset", seed_offset, 0)
    return f"{profile}-seeds{seed_offset}" if seed_offset else profile


def figure_folder(notebook: str, profile: str, seed_offset: int = 0) -> str:
    """Where a run's figures go, relative to the output root: ``figures/<notebook>`` for :data:`DEFAULT_RUN`,
    else ``figures/<notebook>/<run>`` (e.g. ``figures/004_rmbo/paper``, ``figures/004_rmbo/quick-seeds100``)."""
    run = run_name(profile, seed_offset)
    return f"figures/{notebook}" if run == DEFAULT_RUN else f"figures/{notebook}/{run}"

KIND_ORDER = KINDS
VERDICT_ORDER = ("reproduced", "inconclusive", "not reproduced")
GROUPS = ("paper, experiment", "paper, theory", "check")
LABELS = {"paper, experiment": "the paper's experiments", "paper, theory": "the paper's theory", "check": "our checks"}
COLOURS = {"reproduced": "#2e7d32", "not reproduced": "#c62828", "inconclusive": "#9e9e9e"}
#: the decision rule of each kind but comparison, in words (:mod:`bolib.claims.rules`)
KIND_RULES = {
    "rate": "an exponent estimated per seed, mean with a bootstrap interval over seeds: reproduced inside the "
            "claimed range, not reproduced outside; with a contrast, reproduced only if the contrast is shown "
            "outside (else undecided: does not discriminate here)",
    "value": "the measured value (with its interval, if any) within the paper's value +- the declared tolerance",
    "coverage": "one outcome per independent unit; exact one-sided binomial tests: below the level -> not "
                "reproduced, above level - margin -> reproduced",
    "erratum": "the paper's version fails a computation by more than the tolerance and the correction passes it",
    "invariant": "a deterministic identity or inequality, counted over every case; a violation stops the notebook",
    "not run": "not tested here, with the reason",
}


def run_claims(run_dir: str | Path) -> pd.DataFrame:
    """Every claim of a run folder (``experiments/<run>``), in paper and declaration order, with its
    ``group``."""
    table = load_claims(sorted(Path(run_dir).glob("*.claims.json")))
    table["group"] = [group(r) for r in table.itertuples()]
    return table


def group(row) -> str:
    """``paper, experiment``, ``paper, theory`` or ``check`` (claims without an origin: ``check``)."""
    return f"paper, {row.evidence}" if row.origin == "paper" else "check"


def undecided_reason(row) -> str:
    """Why a claim has no verdict: not run, undecided at the seed cap, a contrast that does not
    discriminate, an interval that straddles the claimed range, or another rule's reason."""
    if row.kind == "not run":
        return "not run"
    if str(row.reason).startswith("does not discriminate"):
        return "does not discriminate here"
    if row.kind == "comparison":
        return "undecided at the seed cap" if not (row.details or {}).get("next_look") else "stages left"
    if "straddles" in str(row.reason):
        return "interval straddles the range"
    return "other"


def incomplete_runs(run_dir: str | Path) -> list[str]:
    """One line per notebook of the run folder that did not decide all its claims: a partial run (its
    ``<notebook>.partial.json``, :func:`~bolib.claims.book.partial_record`) names the experiments it left out, with
    their cost and command; any other (a killed or failed run) the declared claims it did not decide."""
    lines = []
    for path in sorted(Path(run_dir).glob("*.claims.json")):
        record = read_claims_file(path)
        if record.get("complete", False):
            continue
        undecided = record.get("undecided") or []
        left = partial_record(path, record)
        if left:
            parts = "; ".join(f"{name} ({part['jobs']} jobs" + (f", {part['cpu_h'][0]:.2g}-{part['cpu_h'][1]:.2g} CPU-h"
                                                                   if part.get("cpu_h") else "") + ")"
                              for name, part in left.get("left_out", {}).items())
            lines.append(f"{record['notebook']}: a partial run; left out: {parts}, so {len(undecided)} declared claims are "
                         f"not decided here (commands in {path.with_name(record['notebook'] + '.partial.json').name})")
        else:
            lines.append(f"{record['notebook']}: the run did not finish; "
                         + (f"{len(undecided)} declared claims were not decided: {', '.join(undecided)}"
                            if undecided else "claims declared after the point where it stopped are missing"))
    return lines


def _tally(rows: pd.DataFrame) -> str:
    decided = rows[rows.verdict.isin(["reproduced", "not reproduced"])]
    undecided = rows[(rows.verdict == "inconclusive") | (rows.kind == "not run")]
    reproduced = decided[decided.verdict == "reproduced"]
    errata = int((reproduced.kind == "erratum").sum())  # a reproduced erratum is a statement of the paper found wrong
    parts = [f"{len(reproduced)} reproduced" + (f" ({errata} of them errata: the paper's version fails)" if errata else ""),
             f"{(decided.verdict == 'not reproduced').sum()} not reproduced"]
    if len(undecided):
        why = pd.Series([undecided_reason(r) for r in undecided.itertuples()]).value_counts()
        parts.append("undecided " + ", ".join(f"{n} {reason}" for reason, n in why.items()))
    return ", ".join(parts)


def headline(table: pd.DataFrame) -> str:
    """One line per paper's run: how many of the paper's experimental claims are answered, then its
    theory claims, then ours, then the invariants."""
    parts = []
    for name in GROUPS:
        rows = table[(table.group == name) & (table.kind != "invariant")]
        if not len(rows):
            continue
        answered = rows.verdict.isin(["reproduced", "not reproduced"]).sum()
        whose = {"paper, experiment": "of the paper's {n} experimental claims", "paper, theory":
                 "of the paper's {n} theory claims", "check": "of our {n} checks"}[name].format(n=len(rows))
        parts.append(f"{answered} {whose} answered ({_tally(rows)})")
    invariants = table[table.kind == "invariant"]
    if len(invariants):
        held = sum(d.get("holds", 0) == d.get("cases", -1) for d in invariants.details)
        parts.append(f"invariants: {held} of {len(invariants)} hold in every case")
    stand_ins = table[(table.stand_in != "") & (table.verdict != "")]
    if len(stand_ins):
        parts.append(f"{len(stand_ins)} decided on stand-ins")
    revised = table[table.revisions.map(bool)]
    if len(revised):
        parts.append(f"{len(revised)} revised after results")
    return "; ".join(parts) or "no claims recorded"



def rule_text(row) -> str:
    """The generic decision rule of a claim (shared by every claim with the same rule)."""
    details = row.details or {}
    if row.kind == "comparison" and "relation" in details:
        return rules.comparison_rule(details["relation"], details.get("stages"), details.get("alpha", 0.05))
    return KIND_RULES.get(row.kind, row.rule)


def terms(row) -> str:
    """What a claim's rule is applied to (metric, budget, competitors, margin; range; tolerance)."""
    generic = rule_text(row)
    text = str(row.rule)
    return text[: -len(generic)].rstrip("; ") if text.endswith(generic) else text


def _verdict(row) -> str:
    return row.verdict or ("(not run)" if row.kind == "not run" else "(counted)")


def _figure_path(row) -> str:
    """The claim's figure, relative to the output root."""
    if not row.figure:
        return ""
    return f"{figure_folder(row.paper, row.profile, row.seed_offset)}/{row.figure}.png"


def _drawn(row, drawn: set[str]) -> bool:
    """Whether the claim's figure was drawn by the run (a claim of a panel the profile does not run
    names a figure no file holds: it is shown without a link)."""
    return bool(row.figure) and _figure_path(row) in drawn


def _rule_ids(table: pd.DataFrame) -> dict[str, str]:
    texts = list(dict.fromkeys(rule_text(r) for r in table.itertuples()))
    return {text: f"R{i + 1}" for i, text in enumerate(texts)}


def _short(text, limit: int | None) -> str:
    text = str(text)
    return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"


def _shown(rows: pd.DataFrame, rule_ids: dict, link, limit: int | None = None) -> pd.DataFrame:
    """One row per claim; ``limit`` shortens the measured numbers and the reason (the Markdown view;
    the HTML page and the JSON keep them whole)."""
    return pd.DataFrame({
        "id": rows.id, "where": [r.location or "ours" for r in rows.itertuples()], "kind": rows.kind,
        "statement": rows.statement, "paper": rows.paper_value, "verdict": [_verdict(r) for r in rows.itertuples()],
        "measured": [_short(m, limit) for m in rows.measured], "why": [_short(m, limit) for m in rows.reason],
        "rule": [f"{rule_ids[rule_text(r)]}: {terms(r)}" for r in rows.itertuples()],
        "stand-in": rows.stand_in, "figure": [link(r) for r in rows.itertuples()]})


def _revisions(rows: pd.DataFrame) -> pd.DataFrame:
    out = [{"id": r.id, "date": rev["date"], "changed": rev["changed"], "why": rev["why"],
            "verdict before": rev["verdict_before"], "verdict now": _verdict(r)}
           for r in rows.itertuples() for rev in (r.revisions or [])]
    return pd.DataFrame(out, columns=["id", "date", "changed", "why", "verdict before", "verdict now"])


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Paper x group: reproduced, not reproduced, undecided by reason (invariants apart)."""
    rows = []
    for paper, part in table.groupby("paper", sort=True):
        for name in GROUPS:
            sub = part[(part.group == name) & (part.kind != "invariant")]
            if len(sub):
                undecided = sub[(sub.verdict == "inconclusive") | (sub.kind == "not run")]
                why = pd.Series([undecided_reason(r) for r in undecided.itertuples()], dtype=str).value_counts()
                rows.append({"paper": paper, "claims": name, "n": len(sub),
                             "reproduced": int((sub.verdict == "reproduced").sum()),
                             "not reproduced": int((sub.verdict == "not reproduced").sum()),
                             "undecided": ", ".join(f"{n} {reason}" for reason, n in why.items()) or "0"})
    return pd.DataFrame(rows, columns=["paper", "claims", "n", "reproduced", "not reproduced", "undecided"])


def forest(rows: pd.DataFrame, path: Path) -> Path | None:
    """The paper's comparisons (the claimed method's advantage in the claimed direction, in units of
    each claim's margin, with the interval over seeds and the margin band) and its rates (estimate and interval against the
    claimed range), coloured by verdict; None when there is neither."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    def toward(r, x):  # the claimed method's advantage in the claimed direction, in units of the margin
        return (-x if r.details.get("direction") == "lower" else x) / r.details["margin"]

    comp = [(f"{r.id} vs {c}", toward(r, r.details["mean_diff"][c]), sorted(toward(r, x) for x in r.details["ci"][c]),
             r.verdict)
            for r in rows[rows.kind == "comparison"].itertuples()
            if r.details and r.details.get("margin") and "mean_diff" in r.details for c in r.details["mean_diff"]]
    rate = [(r.id, r.details["estimate"], r.details["ci"], r.details["claimed"], r.verdict,
             r.details.get("contrast", {}).get("estimate"))
            for r in rows[rows.kind == "rate"].itertuples() if r.details and "estimate" in r.details]
    if not comp and not rate:
        return None
    panels = [p for p in (comp, rate) if p]
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 0.8 + 0.22 * max(map(len, panels))),
                             squeeze=False)
    for ax, items in zip(axes[0], panels):
        y = np.arange(len(items))[::-1]
        if items is comp:
            ax.axvspan(-1, 1, color="#e0e0e0", zorder=0, label="within the margin")
            ax.axvline(0, color="k", lw=0.6)
            for yi, (_, est, ci, verdict) in zip(y, items):
                ax.errorbar(est, yi, xerr=[[est - ci[0]], [ci[1] - est]], fmt="o", ms=3, color=COLOURS.get(verdict, "k"))
            ax.set_xscale("symlog", linthresh=1)
            ax.set_xlabel("advantage of the claimed method over the competitor (> 0: as claimed), in units of the "
                          "claim's margin (symlog)")
        else:
            for yi, (_, est, ci, claimed, verdict, contrast) in zip(y, items):
                lo, hi = (max(float(claimed[0]), -3.0), min(float(claimed[1]), 3.0))
                ax.plot([lo, hi], [yi, yi], color="#bbdefb", lw=6, solid_capstyle="butt", zorder=0)
                if contrast is not None:
                    ax.plot(float(contrast), yi, "x", color="#555555", ms=4)
                ax.errorbar(est, yi, xerr=[[est - ci[0]], [ci[1] - est]], fmt="o", ms=3, color=COLOURS.get(verdict, "k"))
            ax.set_xlabel("estimate (claimed range in blue, clipped to [-3, 3]; x: the contrast)")
        ax.set_yticks(y, [item[0] for item in items], fontsize=6)
        ax.set_ylim(-1, len(items))
    for verdict, colour in COLOURS.items():
        axes[0][0].plot([], [], "o", color=colour, label=verdict)
    axes[0][0].legend(fontsize=6, loc="best")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _table(frame: pd.DataFrame) -> str:
    """A Markdown table without padding; the pipes of |x| and ||f|| escaped so that cells stay whole."""
    def row(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    return "\n".join([row(frame.columns), "|" + "---|" * len(frame.columns), *map(row, frame.itertuples(index=False))])


def _runs(run_dir: Path) -> dict[str, dict]:
    """Per notebook: git revision and date of its run, and its figures (paths from the root)."""
    out = {}
    for path in sorted(run_dir.glob("*.claims.json")):
        record = read_claims_file(path)
        prov = record.get("provenance") or {}
        out[record["notebook"]] = {"git": prov.get("git", "unknown"), "date": record.get("date", "unknown"),
                                   "figures": [f for f in prov.get("figures", {}) if f.endswith(".png")]}
    return out


def markdown(table: pd.DataFrame, title: str, runs: dict | None = None, forests: dict | None = None,
             root_link: str = "../..") -> str:
    """The report as Markdown: summary, rules, then per paper the paper's claims, ours, revisions."""
    runs, forests = runs or {}, forests or {}
    drawn = {f for run in runs.values() for f in run.get("figures", [])}
    rule_ids = _rule_ids(table)
    lines = [f"# {title}", "", *[f"- {p}: {headline(rows)}" for p, rows in table.groupby("paper", sort=True)], "",
             "## Summary", "", _table(summary(table)), "", "## Rules", ""]
    lines += [f"- **{rid}**: {text}" for text, rid in rule_ids.items()] + [""]
    for paper, rows in table.groupby("paper", sort=True):
        run = runs.get(paper, {})
        lines += [f"## {paper}", "", f"Run at revision `{run.get('git', 'unknown')}` on {run.get('date', 'unknown')}. "
                  + headline(rows), ""]
        if paper in forests:
            lines += [f"![forest plot of {paper}]({forests[paper]})", ""]
        for name in GROUPS:
            part = rows[rows.group == name]
            if len(part):
                shown = _shown(part, rule_ids, lambda r: (f"[{r.figure}]({root_link}/{_figure_path(r)})"
                                                          if _drawn(r, drawn) else r.figure),
                               limit=200)
                shown = shown.loc[:, [c for c in shown if c not in ("stand-in", "figure") or shown[c].astype(bool).any()]]
                lines += [f"### {LABELS[name]}", "",
                          _table(shown), ""]
        revised = _revisions(rows)
        if len(revised):
            lines += ["### revised after results", "", _table(revised), ""]
    return "\n".join(lines)


CSS = ("body{font-family:system-ui,sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;font-size:12px}"
       "td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}th{background:#f3f3f3}"
       ".reproduced{color:#2e7d32}.not-reproduced{color:#c62828}.thumbs img{height:110px;margin:3px;border:1px solid #ddd}"
       "details{margin:0.5em 0}")


def html_report(table: pd.DataFrame, title: str, runs: dict, forests: dict, root_link: str, partial: list[str]) -> str:
    """The report as one HTML page (the main page; ``report.md`` holds the same for the repository view)."""
    esc = html.escape
    rule_ids = _rule_ids(table)
    drawn = {f for run in runs.values() for f in run.get("figures", [])}
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    revisions = sorted({r["git"] for r in runs.values()})
    body = [f"<h1>{esc(title)}</h1>", f"<p>Generated {when} from runs at revision(s) {esc(', '.join(revisions))}.</p>"]
    if partial:
        body.append("<p><b>Incomplete runs</b> (their verdicts are partial):</p><ul>"
                    + "".join(f"<li>{esc(line)}</li>" for line in partial) + "</ul>")
    body += ["<ul>" + "".join(f"<li><b>{esc(p)}</b>: {esc(headline(rows))}</li>"
                              for p, rows in table.groupby("paper", sort=True)) + "</ul>",
             "<h2>Summary</h2>", summary(table).to_html(index=False), "<h2>Rules</h2><ul>"
             + "".join(f"<li><b>{rid}</b>: {esc(text)}</li>" for text, rid in rule_ids.items()) + "</ul>"]
    for paper, rows in table.groupby("paper", sort=True):
        run = runs.get(paper, {})
        body += [f"<h2 id='{esc(paper)}'>{esc(paper)}</h2>",
                 f"<p>Run at revision <code>{esc(run.get('git', 'unknown'))}</code> on {esc(run.get('date', 'unknown'))}. "
                 f"{esc(headline(rows))}</p>"]
        if paper in forests:
            body.append(f"<p><img alt='forest plot of {esc(paper)}' src='{esc(forests[paper])}' style='max-width:100%'></p>")
        if run.get("figures"):
            body.append("<div class='thumbs'>" + "".join(
                f"<a href='{esc(root_link + '/' + f)}'><img alt='{esc(Path(f).stem)}' src='{esc(root_link + '/' + f)}'></a>"
                for f in run["figures"]) + "</div>")
        for name in GROUPS:
            part = rows[rows.group == name]
            if len(part):
                shown = _shown(part, rule_ids, lambda r: r.figure)
                shown["figure"] = [f"<a href='{esc(root_link + '/' + _figure_path(r))}'>{esc(r.figure)}</a>"
                                   if _drawn(r, drawn) else esc(r.figure) for r in part.itertuples()]
                for col in shown.columns.drop("figure"):
                    shown[col] = shown[col].astype(str).map(esc)
                shown["verdict"] = [f"<span class='{v.replace(' ', '-')}'>{v}</span>" for v in shown.verdict]
                body.append(f"<details open><summary><b>{LABELS[name]}</b> ({len(part)})</summary>"
                            + shown.to_html(index=False, escape=False) + "</details>")
        revised = _revisions(rows)
        if len(revised):
            body.append("<h3>revised after results</h3>" + revised.to_html(index=False))
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(title)}</title><style>{CSS}</style>"
            f"</head><body>{''.join(body)}</body></html>")


def write_report(run_dir: str | Path) -> tuple[Path, Path]:
    """Write ``report.html`` (the main page), ``report.md`` and the forest plots (``report/``) for
    every ``*.claims.json`` in ``run_dir``."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    table = run_claims(run_dir)
    title = f"bolib reproduction report ({run_dir.name})"
    partial = incomplete_runs(run_dir)
    runs = _runs(run_dir)
    forests = {}
    for paper, rows in table.groupby("paper", sort=True):
        path = forest(rows, run_dir / "report" / f"{paper}_forest.png")
        if path:
            forests[paper] = path.relative_to(run_dir).as_posix()
    root_link = os.path.relpath(run_dir.parent.parent, run_dir).replace(os.sep, "/")
    md = run_dir / "report.md"
    text = markdown(table, title, runs, forests, root_link)
    if partial:
        head, _, rest = text.partition("\n\n")
        text = "\n\n".join([head, "\n".join(["**Incomplete runs** (their verdicts are partial):",
                                             *[f"- {line}" for line in partial]]), rest])
    md.write_text(text)
    page = run_dir / "report.html"
    page.write_text(html_report(table, title, runs, forests, root_link, partial))
    return md, page


def end_of_run_summary(run_dir: str | Path) -> str:
    """What ``reproduce`` prints at the end: one headline per notebook and the report's path."""
    run_dir = Path(run_dir)
    table = run_claims(run_dir)
    lines = [f"{paper}: {headline(rows)}" for paper, rows in table.groupby("paper", sort=True)]
    lines += [f"incomplete: {line}" for line in incomplete_runs(run_dir)]
    return "\n".join(lines + [f"report: {run_dir / 'report.html'} (and report.md)"])


def compare_runs(run_a: str | Path, run_b: str | Path) -> pd.DataFrame:
    """Per claim, the verdicts of two runs (e.g. two profiles) and whether they agree."""
    a, b = run_claims(run_a), run_claims(run_b)
    keep = ["paper", "id", "kind", "verdict"]
    both = a[keep].merge(b[keep], on=["paper", "id", "kind"], how="outer", suffixes=("_a", "_b"))
    both = both[~both.kind.isin(["invariant", "not run"])].fillna({"verdict_a": "(absent)", "verdict_b": "(absent)"})
    both["agree"] = both.verdict_a == both.verdict_b
    return both.reset_index(drop=True)


def discussion(table: pd.DataFrame) -> str:
    """A notebook's closing discussion, written from its verdicts: the paper's claims first (its
    experiments, then its theory), then ours; in each, every claim not reproduced and every
    undecided one, with the reason its rule gave."""
    if "group" not in table:
        table = table.assign(group=[group(r) for r in table.itertuples()])
    lines = [f"**Verdicts:** {headline(table)}.", ""]
    for name in GROUPS:
        rows = table[table.group == name]
        who = LABELS[name][0].upper() + LABELS[name][1:]
        for verdict, heading in (("not reproduced", "not reproduced"), ("inconclusive", "undecided")):
            part = rows[rows.verdict == verdict]
            if len(part):
                lines.append(f"**{who}, {heading}** ({len(part)}):")
                lines += [f"- {r.id} ({r.kind}{', stand-in' if r.stand_in else ''}): {r.statement}. "
                          f"{r.reason or r.measured}." for r in part.itertuples()]
                lines.append("")
    not_run = table[table.kind == "not run"]
    if len(not_run):
        lines.append(f"**Not run** ({len(not_run)}):")
        lines += [f"- {r.id}: {r.statement}. {r.measured}." for r in not_run.itertuples()]
        lines.append("")
    revised = table[table.revisions.map(bool)]
    if len(revised):
        lines.append("**Revised after results:** " + "; ".join(
            f"{r.id} ({len(r.revisions)}; before: {r.revisions[-1]['verdict_before']}, now: {_verdict(r)})"
            for r in revised.itertuples()) + ".")
    return "\n".join(lines)


BLOCK = re.compile(r"(<!-- bolib-report:(?P<name>[a-z-]+) -->\n)(?:.*?\n)?(<!-- /bolib-report:(?P=name) -->)", re.S)


def readme_blocks(run_dir: str | Path) -> dict[str, str]:
    """The README's generated ``results`` block: per paper, the paper's claims answered (its
    experiments first), ours apart, and the summary table."""
    table = run_claims(run_dir)
    name = Path(run_dir).name
    lines = [f"Verdicts of `{name}` (from `experiments/{name}/*.claims.json`; the full report is "
             f"`experiments/{name}/report.html`; regenerate with `python -m bolib report --readme`).", ""]
    for paper, rows in table.groupby("paper", sort=True):
        lines.append(f"- **{paper}**: {headline(rows)}.")
    lines += ["", _table(summary(table))]
    return {"results": "\n".join(lines).rstrip()}


def update_readme(readme: str | Path, blocks: dict[str, str]) -> list[str]:
    """Replace each ``<!-- bolib-report:NAME -->`` ... ``<!-- /bolib-report:NAME -->`` block of
    ``readme`` with the generated text; returns the names replaced."""
    readme = Path(readme)
    text, replaced = readme.read_text(), []

    def fill(match):
        name = match.group("name")
        if name not in blocks:
            return match.group(0)
        replaced.append(name)
        return match.group(1) + blocks[name] + "\n" + match.group(3)

    readme.write_text(BLOCK.sub(fill, text))
    return replaced
