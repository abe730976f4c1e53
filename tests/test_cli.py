import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bolib import pipeline

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "bolib", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env=env)


def test_list_names_everything():
    out = _cli("list")
    assert out.returncode == 0
    for word in ("profiles: smoke, quick, paper", "gp-ucb", "hartmann6", "dask", "gp_posterior"):
        assert word in out.stdout


@pytest.mark.parametrize("args,expected", [
    (["reproduce", "--profile", "huge"], "invalid choice: 'huge'"),
    (["reproduce", "--profile", "smoke", "--only", "no_such_notebook"], "unknown notebook 'no_such_notebook'"),
    (["reproduce", "--executor", "slurm"], "invalid choice: 'slurm'"),
    (["bench", "--only", "warp_drive"], "unknown benchmark case 'warp_drive'"),
])
def test_bad_input_exits_2_naming_choices(args, expected):
    out = _cli(*args)
    assert out.returncode == 2
    assert expected in out.stderr
    assert "choice" in out.stderr


def test_wrong_parameter_type_is_caught_before_any_job(tmp_path, monkeypatch):
    profiles = tmp_path / "experiments" / "profiles"
    profiles.mkdir(parents=True)
    spec = yaml.safe_load((ROOT / "experiments" / "profiles" / "_template.yaml").read_text())
    spec["smoke"]["seeds"] = "two"
    (profiles / "_template.yaml").write_text(yaml.safe_dump(spec))
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "_template.ipynb").write_text((ROOT / "notebooks" / "_template.ipynb").read_text())
    monkeypatch.setattr(pipeline, "PROJECT_ROOT", tmp_path)
    with pytest.raises(pipeline.ProfileError, match="'seeds' must be list, got 'two'"):
        pipeline.reproduce("smoke", ["_template"], output_root=tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing ran, nothing was written


def test_every_profile_of_every_notebook_is_valid():
    for name in pipeline.notebook_names(include_template=True):
        for profile in pipeline.PROFILES:
            assert pipeline.load_profile(name, profile)


def test_every_documented_setting_says_what_it_is_and_why_the_paper_profile_differs():
    for name in pipeline.notebook_names():
        docs = pipeline.setting_docs(name)
        if docs:
            table = pipeline.settings_table(name, "paper")
            assert list(table.index) == list(docs)
            assert (table["deviation"] != "").all()


def _profile_file(tmp_path, monkeypatch, schema, paper, quick):
    (tmp_path / "experiments" / "profiles").mkdir(parents=True)
    spec = {"schema": schema, "smoke": quick, "quick": quick, "paper": paper}
    (tmp_path / "experiments" / "profiles" / "nb.yaml").write_text(yaml.safe_dump(spec))
    monkeypatch.setattr(pipeline, "PROJECT_ROOT", tmp_path)


def test_settings_table_states_the_deviation_of_each_setting(tmp_path, monkeypatch):
    schema = {"rounds": {"type": "int", "about": "rounds", "paper": 200, "where": "Sec. 6"},
              "trials": {"type": "list", "about": "stages of trials", "paper": 5, "why": "group-sequential stages"},
              "steps": "int"}  # a setting in the type-only form has no row
    _profile_file(tmp_path, monkeypatch, schema, {"rounds": 200, "trials": [7, 10], "steps": 3},
                  {"rounds": 8, "trials": [6, 8], "steps": 3})
    table = pipeline.settings_table("nb", "quick")
    assert list(table.index) == ["rounds", "trials"]
    assert table.loc["rounds", "paper"] == "200 (Sec. 6)" and table.loc["rounds", "ours (quick)"] == 8
    assert table.loc["rounds", "deviation"].startswith("cut at the quick profile")
    assert table.loc["trials", "deviation"] == ("group-sequential stages; the quick profile cuts it further "
                                                "(paper profile: [7, 10])")
    assert pipeline.settings_table("nb", "paper").loc["rounds", "deviation"] == "-"


@pytest.mark.parametrize("entry, expected", [
    ({"type": "int", "about": "rounds", "paper": 200}, "differs from the paper's 200; say why"),
    ({"type": "int", "paper": 8}, r"lacks \['about'\]"),
    ({"type": "int", "about": "rounds", "paper": 8, "reason": "x"}, r"unknown fields \['reason'\]")])
def test_a_setting_documented_wrongly_is_refused_naming_the_fields(tmp_path, monkeypatch, entry, expected):
    _profile_file(tmp_path, monkeypatch, {"rounds": entry}, {"rounds": 8}, {"rounds": 8})
    with pytest.raises(pipeline.ProfileError, match=expected):
        pipeline.setting_docs("nb")


def test_unreachable_scheduler_is_a_clear_error_within_30_s():
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.monotonic()
    out = _cli("reproduce", "--profile", "smoke", "--only", "_template", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert out.returncode == 2 and "cannot reach the Dask scheduler" in out.stderr
    assert time.monotonic() - t < 30


def test_codepath_command_reports_the_pins_and_prints_exports():
    import subprocess
    import sys

    from bolib.codepath import PINS

    out = subprocess.run([sys.executable, "-m", "bolib", "codepath"], capture_output=True, text=True, check=True)
    assert "# mode: pinned" in out.stdout
    for name, value in PINS.items():
        assert f"export {name}='{value}'" in out.stdout


@pytest.mark.parametrize("args,expected", [
    (["reproduce", "--workers", "0"], "--workers must be an integer >= 1, got 0"),
    (["reproduce", "--workers", "-3"], "--workers must be an integer >= 1, got -3"),
    (["reproduce", "--seed-offset", "-1"], "--seed-offset must be an integer >= 0, got -1"),
    (["report", "--seed-offset", "-1"], "--seed-offset must be an integer >= 0, got -1"),
])
def test_out_of_range_numbers_exit_2_stating_the_range(tmp_path, capsys, args, expected):
    from bolib.cli import main

    if args[0] == "reproduce":  # were the check missing, run the smallest notebook, away from the project
        args = [*args, "--profile", "smoke", "--only", "_template", "--output-root", str(tmp_path)]
    else:
        args = [*args, "--output-root", str(tmp_path)]
    assert main(args) == 2
    assert expected in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing ran, nothing was written


def test_out_of_range_numbers_are_refused_by_the_functions_too(tmp_path):
    from bolib.errors import BolibError
    from bolib.executors import run_jobs
    from bolib.experiment import Job

    jobs = [Job("jobs:maybe_fail", {"seed": s}) for s in range(2)]
    for workers in (0, -3, 1.5, True):
        with pytest.raises(BolibError, match=rf"workers must be an integer >= 1, got {workers!r}"):
            run_jobs(jobs, executor="local", workers=workers, cache_dir=tmp_path, progress=False)
        with pytest.raises(BolibError, match="workers must be an integer >= 1"):
            pipeline.notebook_context("_template", "smoke", str(tmp_path), workers=workers)
        with pytest.raises(BolibError, match="workers must be an integer >= 1"):
            pipeline.reproduce("smoke", ["_template"], workers=workers, output_root=tmp_path)
    with pytest.raises(BolibError, match="seed_offset must be an integer >= 0, got -1"):
        pipeline.notebook_context("_template", "smoke", str(tmp_path), seed_offset=-1)
    with pytest.raises(BolibError, match="seed_offset must be an integer >= 0, got -1"):
        pipeline.reproduce("smoke", ["_template"], seed_offset=-1, output_root=tmp_path)
    assert not any(tmp_path.iterdir())


def test_unwritable_output_root_exits_2_before_any_notebook(tmp_path, capsys):
    from bolib.cli import main

    (tmp_path / "file").write_text("a file, not a folder")
    root = tmp_path / "file" / "out"
    assert main(["reproduce", "--profile", "smoke", "--only", "_template", "--output-root", str(root)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write to the run folder {root / 'experiments' / 'smoke'}: Not a directory" in err


@pytest.mark.parametrize("numpy_first", [False, True])
def test_worker_command_warns_only_off_the_pinned_path(numpy_first):
    from bolib.codepath import PINS

    env = {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", *PINS)}
    code = ("import numpy; " if numpy_first else "") + \
        "import runpy, sys; sys.argv = ['bolib', 'worker', '--help']; runpy.run_module('bolib', run_name='__main__')"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert ("warning: this process is not on the pinned code path" in out.stderr) == numpy_first
