"""environment.yml mirrors pyproject.toml: the same packages, the same version constraints."""
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
# conda splits dask[distributed] into two packages
CONDA_NAMES = {"dask[distributed]": ["dask", "distributed"]}


def _split(requirement: str) -> tuple[str, str]:
    name, spec = re.match(r"^([A-Za-z0-9_.\-\[\]]+)\s*(.*)$", requirement.strip()).groups()
    return name.lower(), spec.replace(" ", "")


def test_environment_yml_mirrors_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {}
    for req in project["dependencies"] + project["optional-dependencies"]["dev"]:
        name, spec = _split(req)
        for conda_name in CONDA_NAMES.get(name, [name]):
            wanted[conda_name] = spec
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    have = {}
    for dep in env["dependencies"]:
        entries = dep["pip"] if isinstance(dep, dict) else [dep]
        for entry in entries:
            name, spec = _split(entry)
            if name not in ("python", "pip"):
                have[name] = spec
    assert have == wanted
    assert wanted["torch"] == "==2.13.0"
