"""Are the committed results what HEAD would compute? (``python -m bolib status``)

Every claims file records what its run was made from (:meth:`bolib.pipeline.NotebookContext.provenance`):
hashes of the notebook's code cells, of its profile file and of the bolib code its cells run
themselves (:func:`bolib.pipeline.kernel_source_hash`), the library versions, and the jobs grouped
by what their cache keys cover besides parameters (the job function, the bolib modules and registry
entries it reaches, their source hash and the code path), each group with its keys and one example
job whose parameters are plain JSON. A run is current when all of these are what HEAD gives and
HEAD gives each example job the recorded key (which catches a registry entry pointed at other code,
a renamed function, and any change of what keys are made of). Nothing is run: the check reads the
source and the installed versions only.

Figures are checked too: each PNG and PDF carries the fingerprint of the jobs it was made from
(``jobs=...`` in its metadata), which must match what its run's claims file recorded for it; a figure
that no committed run wrote is stale.

A run that did not decide every declared claim is stale, except a partial run (its record
``<notebook>.partial.json`` beside the claims file names the same undecided claims, see
:mod:`bolib.pipeline`): it is current, with a note of the experiments it left out.

A run records the processor it ran on (:func:`bolib.pipeline.processor`); a run from a processor of
another vendor is current with a note, until ``tests/test_golden.py`` has confirmed on both vendors that
the pinned numbers do not depend on it.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from bolib import codepath, provenance
from bolib.claims.book import partial_record, read_claims_file
from bolib.experiment import Job
from bolib.pipeline import (PROJECT_ROOT, kernel_source_hash, notebook_code_hash, notebook_names, processor,
                            profile_hash)

FIGURE_SUFFIXES = (".png", ".pdf")


@dataclasses.dataclass
class Finding:
    """One committed result and whether HEAD would compute it: ``stale`` reasons, empty when current."""

    what: str
    stale: list[str]
    note: str = ""  # e.g. that a current run is a partial run, and what it left out


def _example_stale(group: dict) -> str:
    """Why HEAD would give one of the group's jobs (its recorded example) another key, or ''."""
    example = group.get("example")
    if not example:
        return ""
    try:
        key = Job(group["fn"], example["params"]).key
    except Exception as err:  # the function or a registry entry is gone, renamed or broken
        return f"{group['fn']} cannot be keyed at HEAD ({type(err).__name__}: {err})"
    return "" if key == example["key"] else f"{group['fn']}: HEAD gives its example job another key"


def _run_findings(path: Path, root: Path, notebooks: list[str]) -> tuple[Finding, dict[str, str]]:
    run = path.parent.name
    what = f"experiments/{run}/{path.name}"
    try:
        record = read_claims_file(path)
        name = record["notebook"]
    except (ValueError, KeyError, TypeError) as err:
        return Finding(what, [f"unreadable claims file ({type(err).__name__}: {err})"]), {}
    prov = record.get("provenance") or {}
    if not prov:
        return Finding(what, ["records no provenance (made before results recorded their jobs): rerun it"]), {}
    stale, note = [], ""
    if not record.get("complete"):
        left = partial_record(path, record)
        if left:
            note = "a partial run; left out: " + ", ".join(
                exp + (f" ({c['cpu_h'][0]:g}-{c['cpu_h'][1]:g} CPU-h)" if "cpu_h" in c else "")
                for exp, c in left["left_out"].items())
        else:
            stale.append("the run did not finish (undecided: " + (", ".join(record.get("undecided") or []) or "unknown")
                         + ")")
    if name not in notebooks:
        stale.append(f"no notebook {name!r} any more")
    else:
        if prov.get("notebook_code") != notebook_code_hash(name):
            stale.append(f"the code cells of notebooks/{name}.ipynb changed")
        if prov.get("settings") != profile_hash(name):
            stale.append(f"experiments/profiles/{name}.yaml changed")
        if prov.get("kernel_source") != kernel_source_hash(name):
            stale.append("the bolib code the notebook itself runs (claims rules, plots, statistics ...) changed")
    libraries = provenance.library_versions()
    recorded = prov.get("libraries") or {}
    moved = {k: (recorded.get(k), libraries.get(k)) for k in set(recorded) | set(libraries)
             if recorded.get(k) != libraries.get(k)}
    if moved:
        stale.append("library versions differ: " + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in sorted(moved.items())))
    made_on, here = prov.get("processor") or {}, processor()
    if made_on and made_on.get("vendor") != here["vendor"]:
        other = (f"computed on {made_on.get('vendor')} ({made_on.get('model')}), this machine is {here['vendor']}: "
                 "the same numbers are expected here, which tests/test_golden.py checks on this machine")
        note = f"{note}; {other}" if note else other
    changed: dict[str, int] = {}
    for group in prov.get("job_groups", []):
        try:
            source = provenance.source_hash(tuple(group["modules"]))
        except (ValueError, ModuleNotFoundError, AttributeError, SyntaxError) as err:
            source = f"unavailable ({err})"
        label = f"{group['fn']} (reaches {', '.join(group['modules'])})"
        if source != group["source"] or codepath.key_tag() != group["code_path"]:
            changed[f"{label}: code or code path changed since"] = len(group["keys"])
        elif reason := _example_stale(group):
            changed[f"{label}: {reason}"] = len(group["keys"])
    for label, n in changed.items():
        stale.append(f"{n} jobs of {label}")
    figures = prov.get("figures") or {}
    for rel, digest in figures.items():
        file = root / rel
        if not file.exists():
            stale.append(f"figure {rel} is missing")
        elif f"jobs={digest}".encode() not in file.read_bytes():
            stale.append(f"figure {rel} was not written by this run")
    return Finding(what, stale, note), figures


def check(root: str | Path | None = None, required: str | None = None) -> list[Finding]:
    """Every committed claims file under ``root/experiments`` and every figure under ``root/figures``;
    with ``required`` (a run name such as ``quick``), a paper notebook without a claims file in that run
    is stale too."""
    root = Path(root) if root else PROJECT_ROOT
    notebooks = notebook_names(include_template=True)
    findings, recorded = [], set()
    if required:
        for name in notebook_names():
            if not (root / "experiments" / required / f"{name}.claims.json").exists():
                findings.append(Finding(f"experiments/{required}/{name}.claims.json",
                                        ["missing: the notebook has no committed results"]))
    for path in sorted((root / "experiments").glob("*/*.claims.json")):
        finding, figures = _run_findings(path, root, notebooks)
        findings.append(finding)
        recorded |= set(figures)
    orphans: dict[str, list[str]] = {}
    for file in sorted((root / "figures").rglob("*")):
        if file.suffix in FIGURE_SUFFIXES and file.relative_to(root).as_posix() not in recorded:
            orphans.setdefault(file.parent.relative_to(root).as_posix(), []).append(file.name)
    for folder, names in orphans.items():
        findings.append(Finding(f"{folder}/{{{', '.join(names)}}}", ["written by no committed run"]))
    return findings


#: The run every paper notebook must have committed results of (``make reproduce``'s profile).
COMMITTED_RUN = "quick"


def main(root: str | Path | None = None) -> int:
    """Print one line per committed result (``current`` or ``stale: reasons``); 1 if any is stale. The
    project itself (no ``root``) must hold a :data:`COMMITTED_RUN` claims file for every paper notebook."""
    findings = check(root, required=None if root else COMMITTED_RUN)
    for finding in findings:
        print(f"{finding.what}: " + ("current" + (f" ({finding.note})" if finding.note else "") if not finding.stale
                                      else "STALE: " + "; ".join(finding.stale)))
    stale = [f for f in findings if f.stale]
    print(f"\n{len(findings) - len(stale)} of {len(findings)} committed results are what HEAD computes"
          + (f"; {len(stale)} stale: rerun their notebooks (python -m bolib reproduce --only NAME) "
             "and delete figures no run writes" if stale else ""))
    return 1 if stale else 0
