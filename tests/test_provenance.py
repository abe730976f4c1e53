"""Cache keys cover exactly the code a job can reach, the library versions and the code path."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from bolib import provenance
from bolib.experiment import Job

PACKAGE = Path(provenance.__file__).resolve().parent
KEYS = """
import json, bolib
from bolib.experiment import Job
assert bolib.__file__.startswith({root!r}), bolib.__file__
print(json.dumps({{
    "rf-exact": Job("bolib.papers.egp_ts:rf_exact_job", {{"rule": "egp-ts", "seed": 0, "T": 5}}).key,
    "theory": Job("bolib.papers.gp_ucb_plus:theory_grid_job", {{"kernel": "rbf", "rule": "gp-ucb", "seed": 0,
                  "T": 5, "dim": 1, "points_per_dim": 8}}).key,
    "bo-egp-ts": Job("bolib.loop:bo_job", {{"benchmark": "branin", "method": "egp-ts", "seed": 0, "budget": 5}}).key,
    "bo-gp-ucb+": Job("bolib.loop:bo_job", {{"benchmark": "branin", "method": "gp-ucb+", "seed": 0, "budget": 5}}).key,
    "bo-sprinkler": Job("bolib.loop:bo_job", {{"benchmark": "sprinkler", "method": "gp-ucb+", "seed": 0,
                        "budget": 5}}).key,
}}))
"""


CODE_EDIT = "\n_EDITED = 1\n"


def _module_file(root: Path, module: str) -> Path:
    path = root / Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def keys_after_edit(tmp_path, module: str | None, edit=lambda text: text + CODE_EDIT) -> dict:
    """Job keys computed from a copy of bolib in which ``module``'s source went through ``edit``
    (default: one more line of code)."""
    root = tmp_path / f"{module or 'unchanged'}-{len(list(tmp_path.iterdir()))}".replace(".", "_")
    shutil.copytree(PACKAGE, root / "bolib", ignore=shutil.ignore_patterns("__pycache__"))
    if module:
        path = _module_file(root, module)
        text = path.read_text()
        path.write_text(edit(text))
        assert path.read_text() != text, f"the edit of {module} changed nothing"
    out = subprocess.run([sys.executable, "-c", KEYS.format(root=str(root))], cwd=root, capture_output=True,
                         text=True, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_an_edit_changes_the_keys_of_exactly_the_jobs_that_import_the_module(tmp_path):
    base = keys_after_edit(tmp_path, None)
    moved = {module: {job for job, key in keys_after_edit(tmp_path, module).items() if key != base[job]}
             for module in ("bolib.papers.gp_ucb_plus", "bolib.papers.egp_ts", "bolib.algorithms.gp_ucb_plus",
                            "bolib.models.rff", "bolib.plots", "bolib.benchmarks.sprinkler")}
    print(moved)
    assert moved["bolib.papers.gp_ucb_plus"] == {"theory"}  # one paper's module: that paper's jobs only
    assert moved["bolib.papers.egp_ts"] == {"rf-exact"}
    assert moved["bolib.algorithms.gp_ucb_plus"] == {"bo-gp-ucb+", "bo-sprinkler", "theory"}  # the method's module
    assert moved["bolib.models.rff"] == {"rf-exact", "bo-egp-ts", "theory", "bo-gp-ucb+", "bo-sprinkler"}
    assert moved["bolib.plots"] == set()  # imported by no job
    assert moved["bolib.benchmarks.sprinkler"] == {"bo-sprinkler"}  # the benchmark's module


def test_comments_docstrings_and_new_registry_entries_change_no_key(tmp_path):
    base = keys_after_edit(tmp_path, None)
    comment = keys_after_edit(tmp_path, "bolib.models.rff", lambda text: text + "\n# a comment\n")
    docstring = keys_after_edit(tmp_path, "bolib.models.rff", lambda text: '"""Edited."""\n' + text.split('"""', 2)[2])
    new_method = keys_after_edit(tmp_path, "bolib.algorithms", lambda text: text.replace(
        "METHOD_PATHS: dict[str, str] = {", 'METHOD_PATHS: dict[str, str] = {\n    "new": "bolib.algorithms.new:New",'))
    new_benchmark = keys_after_edit(tmp_path, "bolib.benchmarks", lambda text: text.replace(
        "BENCHMARK_PATHS: dict[str, str] = {", 'BENCHMARK_PATHS: dict[str, str] = {\n    "new": "bolib.benchmarks.new:new",'))
    assert comment == docstring == new_method == new_benchmark == base


def test_repointing_a_registry_entry_changes_the_keys_of_the_jobs_that_use_it(tmp_path):
    base = keys_after_edit(tmp_path, None)
    repointed = keys_after_edit(tmp_path, "bolib.algorithms", lambda text: text.replace(
        '"gp-ucb+": "bolib.algorithms.gp_ucb_plus:GPUCBPlus"', '"gp-ucb+": "bolib.algorithms.gp_ucb_plus:ExploitPlus"'))
    assert {job for job, key in repointed.items() if key != base[job]} == {"bo-gp-ucb+", "bo-sprinkler"}


def test_keys_cover_library_versions_and_code_path(monkeypatch):
    job = Job("bolib.papers.egp_ts:rf_exact_job", {"rule": "egp-ts", "seed": 0, "T": 5})
    key = job.key
    versions = dict(provenance.library_versions())
    monkeypatch.setattr(provenance, "library_versions", lambda: {**versions, "numpy": "0.0.1"})
    assert job.key != key
    monkeypatch.undo()
    monkeypatch.setattr(provenance.codepath, "key_tag", lambda: "native")
    assert job.key != key
    monkeypatch.undo()
    assert job.key == key


def test_reachable_modules_follow_imports_and_reject_unknown_modules():
    reach = provenance.reachable_modules(["bolib.papers.egp_ts"])
    assert "bolib.models.rff" in reach and "bolib.papers.gp_ucb_plus" not in reach
    try:
        provenance.reachable_modules(["bolib.nope"])
    except ValueError as err:
        assert "bolib.nope" in str(err)
    else:
        raise AssertionError("an unknown module must be refused")
    assert np.all([m.startswith("bolib") for m in reach])
