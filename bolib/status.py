"""Are the committed results what HEAD would compute? (``python -m bolib status``)

Every claims file records what its run was made from (:meth:`bolib.pipeline.NotebookContext.provenance`):
the notebook's code cells and profile settings (hashes), the library versions, and the jobs
grouped by what their cache keys cover besides parameters: the job function, the bolib modules and
registry entries it reaches, their source hash, and the code path. A job's key is a hash of its
function, parameters and exactly these, so when every group's source hash, the library versions and
the code path are what HEAD gives, and the notebook and profile are unchanged (so it asks for the
same parameters), HEAD would compute the same keys: the results are current. Nothing is run; the
check reads the source and the installed versions only.

Figures are checked too: each PNG and PDF carries the fingerprint of the jobs it was made from
(``jobs=...`` in its metadata), which must match what its run's claims file recorded for it; a figure
that no committed run wrote is stale.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from bolib import codepath, provenance
from bolib.claims.book import read_claims_file
from bolib.pipeline import PROJECT_ROOT, PROFILES, notebook_code_hash, notebook_names, profile_hash

FIGURE_SUFFIXES = (".png", ".pdf")


@dataclasses.dataclass
class Finding:
    """One committed result and whether HEAD would compute it: ``stale`` reasons, empty when current."""

    what: str
    stale: list[str]


def _run_findings(path: Path, root: Path, notebooks: list[str]) -> tuple[Finding, dict[str, str]]:
    record = read_claims_file(path)
    run = path.parent.name
    name = record["notebook"]
    what = f"experiments/{run}/{path.name}"
    prov = record.get("provenance") or {}
    if not prov:
        return Finding(what, ["records no provenance (made before results recorded their jobs): rerun it"]), {}
    stale = []
    if not record.get("complete"):
        stale.append("the run did not finish (undecided: " + (", ".join(record.get("undecided") or []) or "unknown")
                     + ")")
    profile = record.get("profile", run.split("-seeds")[0])
    if name not in notebooks:
        stale.append(f"no notebook {name!r} any more")
    else:
        if prov.get("notebook_code") != notebook_code_hash(name):
            stale.append(f"the code cells of notebooks/{name}.ipynb changed")
        if profile in PROFILES and prov.get("settings") != profile_hash(name, profile):
            stale.append(f"the {profile!r} settings in experiments/profiles/{name}.yaml changed")
    libraries = provenance.library_versions()
    moved = {k: (v, libraries.get(k)) for k, v in (prov.get("libraries") or {}).items() if libraries.get(k) != v}
    if moved:
        stale.append("library versions differ: " + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in sorted(moved.items())))
    changed: dict[str, int] = {}
    for group in prov.get("job_groups", []):
        try:
            source = provenance.source_hash(tuple(group["modules"]))
        except (ValueError, ModuleNotFoundError, AttributeError) as err:
            source = f"unavailable ({err})"
        if source != group["source"] or codepath.key_tag() != group["code_path"]:
            label = f"{group['fn']} (reaches {', '.join(group['modules'])})"
            changed[label] = changed.get(label, 0) + len(group["keys"])
    for label, n in changed.items():
        stale.append(f"{n} jobs of {label}: code or code path changed since")
    figures = prov.get("figures") or {}
    for rel, digest in figures.items():
        file = root / rel
        if not file.exists():
            stale.append(f"figure {rel} is missing")
        elif f"jobs={digest}".encode() not in file.read_bytes():
            stale.append(f"figure {rel} was not written by this run")
    return Finding(what, stale), figures


def check(root: str | Path | None = None) -> list[Finding]:
    """Every committed claims file under ``root/experiments`` and every figure under ``root/figures``."""
    root = Path(root) if root else PROJECT_ROOT
    notebooks = notebook_names(include_template=True)
    findings, recorded = [], set()
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


def main(root: str | Path | None = None) -> int:
    """Print one line per committed result (``current`` or ``stale: reasons``); 1 if any is stale."""
    findings = check(root)
    for finding in findings:
        print(f"{finding.what}: " + ("current" if not finding.stale else "STALE: " + "; ".join(finding.stale)))
    stale = [f for f in findings if f.stale]
    print(f"\n{len(findings) - len(stale)} of {len(findings)} committed results are what HEAD computes"
          + (f"; {len(stale)} stale: rerun their notebooks (python -m bolib reproduce --only NAME) "
             "and delete figures no run writes" if stale else ""))
    return 1 if stale else 0
