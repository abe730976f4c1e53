"""The report: claims gathered from a run's JSON files, grouped by paper and kind, each with the
rule that decided it and a link to its figure; runs on two seed sets compared claim by claim; the
README's results block and each notebook's closing discussion, generated, never typed."""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from bolib.claims.book import FIELDS, KINDS, load_claims, read_claims_file

KIND_ORDER = KINDS
VERDICT_ORDER = ("reproduced", "inconclusive", "not reproduced")


def run_claims(run_dir: str | Path) -> pd.DataFrame:
    """Every claim of a run folder (``experiments/<run>``), in paper and declaration order."""
    return load_claims(sorted(Path(run_dir).glob("*.claims.json")))


def incomplete_runs(run_dir: str | Path) -> list[str]:
    """One line per notebook of the run folder whose run did not finish: the declared claims it did
    not decide (a killed or failed run leaves its claims file so)."""
    lines = []
    for path in sorted(Path(run_dir).glob("*.claims.json")):
        record = read_claims_file(path)
        if not record.get("complete", False):
            undecided = record.get("undecided") or []
            lines.append(f"{record['notebook']}: the run did not finish; "
                         + (f"{len(undecided)} declared claims were not decided: {', '.join(undecided)}"
                            if undecided else "claims declared after the point where it stopped are missing"))
    return lines


def counts(table: pd.DataFrame) -> str:
    """One line of verdict counts: decided claims, stand-ins apart, invariants as holds/cases, and
    the claims not run."""
    decided = table[table.verdict != ""]
    parts = []
    for label, rows in (("", decided[decided.stand_in == ""]), ("stand-in: ", decided[decided.stand_in != ""])):
        if len(rows):
            tally = rows.verdict.value_counts()
            parts.append(label + ", ".join(f"{tally.get(v, 0)} {v}" for v in VERDICT_ORDER))
    invariants = table[table.kind == "invariant"]
    if len(invariants):
        held = sum(d.get("holds", 0) == d.get("cases", -1) for d in invariants.details)
        parts.append(f"invariants: {held} of {len(invariants)} hold in every case")
    not_run = table[table.kind == "not run"]
    if len(not_run):
        parts.append(f"not run: {len(not_run)}")
    return "; ".join(parts) or "no claims recorded"


def _figure_link(row, figures_root: str) -> str:
    """Link to the claim's figure (figures of a seed-offset run sit in ``seedsN/``)."""
    if not row.figure:
        return ""
    folder = f"{row.paper}/seeds{row.seed_offset}" if row.seed_offset else row.paper
    return f"[{row.figure}]({figures_root}/{folder}/{row.figure}.png)"


def _cells(frame: pd.DataFrame) -> pd.DataFrame:
    """Escape the pipes of |x| and ||f|| so that Markdown table cells stay whole."""
    return frame.apply(lambda col: col.astype(str).str.replace("|", "\\|", regex=False))


def markdown(table: pd.DataFrame, title: str, figures_root: str = "../../figures") -> str:
    """The report as Markdown: per paper, per kind, one row per claim."""
    lines = [f"# {title}", "", counts(table), ""]
    for paper, rows in table.groupby("paper", sort=True):
        lines += [f"## {paper}", "", counts(rows), ""]
        for kind in KIND_ORDER:
            part = rows[rows.kind == kind]
            if not len(part):
                continue
            shown = pd.DataFrame({
                "id": part.id, "statement": part.statement, "paper": part.paper_value, "measured": part.measured,
                "verdict": [v or ("(not run)" if k == "not run" else "(counted)") for v, k in zip(part.verdict, part.kind)], "why": part.reason, "rule": part.rule,
                "stand-in": part.stand_in, "figure": [_figure_link(r, figures_root) for r in part.itertuples()]})
            shown = shown.loc[:, [c for c in shown if c not in ("stand-in", "figure") or shown[c].astype(bool).any()]]
            lines += [f"### {kind} claims", "", _cells(shown).to_markdown(index=False), ""]
    return "\n".join(lines)


def write_report(run_dir: str | Path) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` for every ``*.claims.json`` in ``run_dir``."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    table = run_claims(run_dir)
    title = f"bolib reproduction report ({run_dir.name})"
    partial = incomplete_runs(run_dir)
    warning = ["**Incomplete runs** (their verdicts are partial):", *[f"- {line}" for line in partial], ""] if partial else []
    md = run_dir / "report.md"
    text = markdown(table, title)
    head, _, rest = text.partition("\n\n")
    md.write_text("\n\n".join([head, "\n".join(warning).rstrip(), rest]) if partial else text)
    html = run_dir / "report.html"
    items = "".join(f"<li>{line}</li>" for line in partial)
    html.write_text(f"<html><head><meta charset='utf-8'><title>{title}</title></head><body><h1>{title}</h1>"
                    + (f"<p><b>Incomplete runs</b> (their verdicts are partial):</p><ul>{items}</ul>" if partial else "")
                    + f"<p>{counts(table)}</p>{table[[c for c in FIELDS if c != 'details']].to_html(index=False)}"
                    f"</body></html>")
    return md, html


def compare_runs(run_a: str | Path, run_b: str | Path) -> pd.DataFrame:
    """Per claim, the verdicts of two runs (e.g. two seed sets) and whether they agree."""
    a, b = run_claims(run_a), run_claims(run_b)
    keep = ["paper", "id", "kind", "verdict"]
    both = a[keep].merge(b[keep], on=["paper", "id", "kind"], how="outer", suffixes=("_a", "_b"))
    both = both[~both.kind.isin(["invariant", "not run"])].fillna({"verdict_a": "(absent)", "verdict_b": "(absent)"})
    both["agree"] = both.verdict_a == both.verdict_b
    return both.reset_index(drop=True)


def discussion(table: pd.DataFrame) -> str:
    """A notebook's closing discussion, written from its verdicts: counts, then every claim that
    did not reproduce and every inconclusive one, each with the reason its rule gave."""
    lines = [f"**Verdicts:** {counts(table)}.", ""]
    for verdict, heading in (("not reproduced", "Not reproduced"), ("inconclusive", "Inconclusive")):
        rows = table[table.verdict == verdict]
        if len(rows):
            lines.append(f"**{heading}** ({len(rows)}):")
            lines += [f"- {r.id} ({r.kind}{', stand-in' if r.stand_in else ''}): {r.statement}. "
                      f"{r.reason or r.measured}." for r in rows.itertuples()]
            lines.append("")
    not_run = table[table.kind == "not run"]
    if len(not_run):
        lines.append(f"**Not run** ({len(not_run)}):")
        lines += [f"- {r.id}: {r.statement}. {r.measured}." for r in not_run.itertuples()]
        lines.append("")
    stand_ins = table[(table.stand_in != "") & (table.verdict != "")]
    if len(stand_ins):
        lines.append("**Stand-ins:** " + "; ".join(f"{r.id} uses {r.stand_in}" for r in stand_ins.itertuples()) + ".")
    return "\n".join(lines)


BLOCK = re.compile(r"(<!-- bolib-report:(?P<name>[a-z-]+) -->\n)(?:.*?\n)?(<!-- /bolib-report:(?P=name) -->)", re.S)


def readme_blocks(run_dir: str | Path, compare_dir: str | Path | None = None) -> dict[str, str]:
    """The README's generated blocks: ``results`` (per paper, per kind, verdict counts and the
    claims that did not reproduce) and, given a second seed set, ``stability``."""
    table = run_claims(run_dir)
    lines = [f"Verdicts of `{Path(run_dir).name}` (from `experiments/{Path(run_dir).name}/*.claims.json`; "
             "regenerate with `python -m bolib report --readme`).", ""]
    for paper, rows in table.groupby("paper", sort=True):
        lines += [f"#### {paper}: {counts(rows)}", "", "| kind | reproduced | inconclusive | not reproduced | claims not reproduced |",
                  "|---|---|---|---|---|"]
        for kind in KIND_ORDER:
            part = rows[(rows.kind == kind) & (rows.verdict != "")]
            if len(part):
                tally = part.verdict.value_counts()
                failed = ", ".join(part[part.verdict == "not reproduced"].id)
                lines.append(f"| {kind} | " + " | ".join(str(tally.get(v, 0)) for v in VERDICT_ORDER) + f" | {failed} |")
        lines.append("")
    blocks = {"results": "\n".join(lines).rstrip()}
    if compare_dir is not None:
        diff = compare_runs(run_dir, compare_dir)
        moved = diff[~diff.agree]
        text = [f"Claims whose verdict differs between `{Path(run_dir).name}` and `{Path(compare_dir).name}` "
                f"(another seed set): {len(moved)} of {len(diff)}.", ""]
        if len(moved):
            text.append(_cells(moved[["paper", "id", "kind", "verdict_a", "verdict_b"]]).rename(
                columns={"verdict_a": Path(run_dir).name, "verdict_b": Path(compare_dir).name}).to_markdown(index=False))
        blocks["stability"] = "\n".join(text).rstrip()
    return blocks


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
