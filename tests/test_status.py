"""``python -m bolib status``: committed claims and figures against what HEAD would compute."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bolib import pipeline, status


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory) -> Path:
    """The template notebook run at smoke into a fresh folder (claims, report, figures)."""
    root = tmp_path_factory.mktemp("status")
    pipeline.reproduce("smoke", ["_template"], executor="serial", output_root=root, progress=False)
    return root


def _copy(run: Path, tmp_path: Path) -> Path:
    shutil.copytree(run, tmp_path / "root")
    return tmp_path / "root"


def _edit_claims(root: Path, edit) -> None:
    path = root / "experiments" / "smoke" / "_template.claims.json"
    record = json.loads(path.read_text())
    edit(record)
    path.write_text(json.dumps(record))


@pytest.mark.slow
def test_a_fresh_run_is_current(smoke_run, capsys):
    assert status.main(smoke_run) == 0
    assert "1 of 1 committed results are what HEAD computes" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("tamper, reason", [
    (lambda r: r["provenance"]["job_groups"][0].update(source="0" * 64), "code or code path changed"),
    (lambda r: r["provenance"]["job_groups"][0].update(code_path="native"), "code or code path changed"),
    (lambda r: r["provenance"]["libraries"].update(numpy="1.0"), "library versions differ: numpy 1.0"),
    (lambda r: r["provenance"].update(notebook_code="0" * 64), "code cells of notebooks/_template.ipynb changed"),
    (lambda r: r["provenance"].update(settings="0" * 64), "experiments/profiles/_template.yaml changed"),
    (lambda r: r["provenance"].update(kernel_source="0" * 64), "the bolib code the notebook itself runs"),
    (lambda r: r["provenance"]["libraries"].pop("numpy"), "library versions differ: numpy None"),
    (lambda r: r.update(complete=False, undecided=["T1"]), "did not finish (undecided: T1)"),
    (lambda r: r.update(provenance={}), "records no provenance"),
])
def test_every_kind_of_staleness_is_reported(smoke_run, tmp_path, capsys, tamper, reason):
    root = _copy(smoke_run, tmp_path)
    _edit_claims(root, tamper)
    assert status.main(root) == 1
    out = capsys.readouterr().out
    assert "STALE" in out and reason in out


@pytest.mark.slow
def test_a_partial_run_is_current_with_what_it_left_out_and_only_with_its_record(smoke_run, tmp_path, capsys):
    root = _copy(smoke_run, tmp_path)
    _edit_claims(root, lambda r: r.update(complete=False, undecided=["T1"]))
    record = {"notebook": "_template", "profile": "smoke", "parts": ["a"], "undecided": ["T1"],
              "left_out": {"b-1": {"cpu_h": [0.5, 1.25], "jobs": [2, 4], "command": "python -m bolib ..."}}}
    partial = root / "experiments" / "smoke" / "_template.partial.json"
    partial.write_text(json.dumps(record))
    assert status.main(root) == 0
    assert "current (a partial run; left out: b-1 (0.5-1.25 CPU-h))" in capsys.readouterr().out
    partial.write_text(json.dumps(record | {"undecided": ["T2"]}))  # the record of another run
    assert status.main(root) == 1
    assert "did not finish (undecided: T1)" in capsys.readouterr().out


@pytest.mark.slow
def test_a_run_records_its_processor_and_another_vendor_is_noted(smoke_run, tmp_path, capsys):
    root = _copy(smoke_run, tmp_path)
    record = json.loads((root / "experiments" / "smoke" / "_template.claims.json").read_text())
    assert record["provenance"]["processor"] == pipeline.processor()
    _edit_claims(root, lambda r: r["provenance"].update(processor={"vendor": "OtherVendor", "model": "X 1"}))
    assert status.main(root) == 0
    out = capsys.readouterr().out
    assert f"current (computed on OtherVendor (X 1), this machine is {pipeline.processor()['vendor']}: the same " \
           "numbers are expected here" in out


@pytest.mark.slow
def test_figures_from_another_run_and_orphans_are_stale(smoke_run, tmp_path, capsys):
    root = _copy(smoke_run, tmp_path)
    figure = next((root / "figures" / "_template" / "smoke").glob("*.png"))  # a run other than quick: own folder
    shutil.copy(figure, figure.with_name("old_figure.png"))  # a figure no run records
    figure.write_bytes(figure.read_bytes().replace(b"jobs=", b"jobs=0"))  # another run's stamp
    assert status.main(root) == 1
    out = capsys.readouterr().out
    assert f"figure figures/_template/smoke/{figure.name} was not written by this run" in out
    assert "old_figure.png}: STALE: written by no committed run" in out


def test_the_committed_results_are_what_head_computes():
    """The repository's own claims files and figures: regenerate them when the code that made them changes."""
    out = subprocess.run([sys.executable, "-m", "bolib", "status"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-5000:]


@pytest.mark.slow
def test_a_registry_entry_pointed_at_other_code_is_stale(smoke_run, monkeypatch, capsys):
    from bolib import algorithms

    monkeypatch.setitem(algorithms.METHOD_PATHS, "gp-ucb", algorithms.METHOD_PATHS["random"])
    assert status.main(smoke_run) == 1
    assert "HEAD gives its example job another key" in capsys.readouterr().out


@pytest.mark.slow
def test_a_notebook_without_committed_results_is_stale(smoke_run):
    missing = [f.what for f in status.check(smoke_run, required="smoke") if f.stale]
    assert sorted(missing) == [f"experiments/smoke/{name}.claims.json" for name in pipeline.notebook_names()]

