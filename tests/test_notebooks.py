"""Every notebook runs end to end with papermill at the smoke profile, into a temporary folder."""
import ast
import json
from pathlib import Path

import nbformat
import pytest

from bolib import pipeline

NOTEBOOKS = pipeline.notebook_names(include_template=True)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_committed_without_outputs(name):
    nb = nbformat.read(pipeline.notebooks_dir() / f"{name}.ipynb", as_version=4)
    assert not [c for c in nb.cells if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells)


#: code lines a paper notebook may hold: its derivations are markdown, its code lives in bolib
CODE_LINES = 350


@pytest.mark.parametrize("name", pipeline.notebook_names())
def test_a_paper_notebook_defines_no_function_or_class_and_stays_short(name):
    nb = nbformat.read(pipeline.notebooks_dir() / f"{name}.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    tree = ast.parse("\n".join(code))
    defined = [node.name for node in ast.walk(tree)
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert defined == []
    assert sum(len(source.splitlines()) for source in code) <= CODE_LINES


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_at_smoke_profile(name, tmp_path):
    figures_before = sorted(Path(pipeline.PROJECT_ROOT, "figures").rglob("*"))
    executed = pipeline.reproduce("smoke", [name], executor="local", output_root=tmp_path, progress=False)
    assert executed == [tmp_path / "experiments" / "smoke" / f"{name}.ipynb"]
    record = json.loads((tmp_path / "experiments" / "smoke" / f"{name}.claims.json").read_text())
    assert record["complete"] and record["undecided"] == []
    claims = record["claims"]
    assert claims
    figures = record["provenance"]["figures"]  # every figure written is recorded with its jobs' fingerprint
    assert sorted(figures) == sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "figures").rglob("*.*"))
    for claim in claims:  # a verdict for every decided claim; invariants are counted and claims not run listed
        if claim["kind"] == "invariant":
            assert claim["verdict"] == "" and claim["measured"].startswith("holds in")
        elif claim["kind"] == "not run":
            assert claim["verdict"] == "" and claim["measured"].startswith("not run: ")
        else:
            assert claim["verdict"] in ("reproduced", "not reproduced", "inconclusive"), claim["id"]
    assert list((tmp_path / "figures" / name / "smoke").glob("*.png"))  # every run but quick in its own folder
    report = (tmp_path / "experiments" / "smoke" / "report.md").read_text()
    assert name in report
    assert sorted(Path(pipeline.PROJECT_ROOT, "figures").rglob("*")) == figures_before


def partial_smoke_run(tmp_path, name: str, parts: list) -> tuple[dict, dict]:
    """Run notebook ``name`` at smoke as a partial run of ``parts``; its claims record and partial record, after the
    checks every partial run must pass (undecided claims named in both, the left-out experiments exactly those
    outside ``parts``)."""
    pipeline.reproduce("smoke", [name], executor="local", output_root=tmp_path, progress=False, parts=parts)
    run = tmp_path / "experiments" / "smoke"
    record = json.loads((run / f"{name}.claims.json").read_text())
    partial = json.loads((run / f"{name}.partial.json").read_text())
    assert not record["complete"] and record["undecided"] and record["undecided"] == partial["undecided"]
    assert list(partial["left_out"]) == [e.name for e in pipeline.planned_experiments(name, "smoke")
                                         if not e.name.startswith(tuple(parts))]
    return record, partial


@pytest.mark.slow
def test_a_partial_run_decides_what_its_parts_decide_and_records_what_it_left_out(tmp_path):
    from bolib import costs, status

    record, partial = partial_smoke_run(tmp_path, "002_addgpucb", ["fig3", "dev"])
    run = tmp_path / "experiments" / "smoke"
    assert all(c["command"].endswith(f"--jobs-only --experiments {name}") for name, c in partial["left_out"].items())
    priced = costs.price_partial(run / "002_addgpucb.partial.json")  # what the command line adds
    assert all(0 <= c["cpu_h"][0] <= c["cpu_h"][1] for c in priced["left_out"].values())
    assert json.loads((run / "002_addgpucb.partial.json").read_text()) == priced
    decided = {c["id"] for c in record["claims"] if c["verdict"]}
    assert any(i.startswith("F10-3-3-") for i in decided) and any(i.startswith("DEV-") for i in decided)
    assert not any(i.startswith(("F10-3-3-", "DEV-")) for i in partial["undecided"])
    assert status.main(tmp_path) == 0  # current, as a partial run


@pytest.mark.slow
def test_notebook_001_decides_its_theory_with_every_experiment_of_section_6_left_out(tmp_path):
    from bolib import status

    record, partial = partial_smoke_run(tmp_path, "001_gpucbplus", ["001-c"])
    assert {"001-fig1-ucb", "001-benchmarks", "001-rf-others", "001-sprinkler"} <= set(partial["left_out"])
    measured = {c["id"] for c in record["claims"] if c.get("measured")}
    assert {"C1-logfactor-d1", "C4-cmp-matern25", "C7-level-matern25"} <= measured
    assert {"C8-uniform", "B1-levy", "R1-gp-ucb+", "S1"} <= set(partial["undecided"])
    assert status.main(tmp_path) == 0  # current, as a partial run


@pytest.mark.slow
def test_notebook_003_decides_the_svgd_ablation_without_figure_1s_gp_baselines(tmp_path):
    from bolib import status

    parts = ["003-theory", "003-appb", "003-fig1-bore", "003-appe", "003-racing", "003-fig2"]  # all but Theorem 4's
    with pytest.raises(Exception, match="003-theorem4"):  # §5 runs in one cell: its experiments go together
        pipeline.reproduce("smoke", ["003_bore"], executor="local", output_root=tmp_path, progress=False, parts=parts)
    record, partial = partial_smoke_run(tmp_path, "003_bore", [*parts, "003-theorem4"])
    assert partial["left_out"] and all(name.startswith("003-fig1-gp-") for name in partial["left_out"])
    verdicts = {c["id"]: c["verdict"] for c in record["claims"]}
    assert verdicts["F1-target-six-hump-camel"] and verdicts["F1-space-six-hump-camel"]
    assert "F1-six-hump-camel" in partial["undecided"] and not verdicts.get("F1-six-hump-camel")
    assert status.main(tmp_path) == 0  # current, as a partial run


@pytest.mark.slow
def test_notebook_004_leaves_out_the_real_data_stand_ins_outside_its_parts(tmp_path):
    from bolib import status

    parts = ["rmbo-c", "rmbo-fig1", "rmbo-lemma", "rmbo-ns", "rmbo-har"]  # the synthetic and theory runs, two stand-ins
    record, partial = partial_smoke_run(tmp_path, "004_rmbo", parts)
    assert any(name.startswith("rmbo-fig9-cp") for name in partial["left_out"])  # Fig. 9 is not the part rmbo-c(p)
    measured = {c["id"] for c in record["claims"] if c.get("measured")}
    assert {"F2a", "F2d"} <= measured and not {"F2a", "F2d"} & set(partial["undecided"])
    assert {"F1e-ts", "F2c", "F9a"} <= set(partial["undecided"])
    assert status.main(tmp_path) == 0  # current, as a partial run
