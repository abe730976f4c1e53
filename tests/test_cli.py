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
    with pytest.raises(pipeline.ProfileError, match="'seeds' must be int, got 'two'"):
        pipeline.reproduce("smoke", ["_template"], output_root=tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing ran, nothing was written


def test_every_profile_of_every_notebook_is_valid():
    for name in pipeline.notebook_names(include_template=True):
        for profile in pipeline.PROFILES:
            assert pipeline.load_profile(name, profile)


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
