"""Locked versions for reproducibility.

pyproject.toml keeps version ranges for library users; requirements.lock pins every runtime and dev
dependency (transitively) to an exact version inside those ranges, and environment.yml pins the packages
pyproject.toml names to exactly the lock's versions. Fast: reads the three files, no network, no installs.
"""
import copy
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
TORCH = "2.13.0"
# conda splits dask[distributed] into two packages
CONDA_NAMES = {"dask": ["dask", "distributed"]}
CUDA_PACKAGE = re.compile(r"nvidia|cuda|triton", re.IGNORECASE)
LOCK_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


def pyproject_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["dev"]]


def read_lock(text: str) -> dict[str, str]:
    """{canonical name: version} from requirements.lock; every requirement line must be an exact pin."""
    pins = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = LOCK_LINE.match(line)
        assert match, f"not an exact 'name==version' pin: {line!r}"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"{name} pinned twice"
        pins[name] = match.group(2)
    return pins


def read_environment(text: str) -> dict[str, str]:
    """{canonical name: version specifier} of environment.yml's conda and pip entries (python, pip left out)."""
    pins = {}
    for dep in yaml.safe_load(text)["dependencies"]:
        for entry in dep["pip"] if isinstance(dep, dict) else [dep]:
            name, spec = re.match(r"^([A-Za-z0-9_.\-\[\]]+)\s*(.*)$", entry.strip()).groups()
            if name not in ("python", "pip"):
                pins[canonicalize_name(name)] = spec.replace(" ", "")
    return pins


def lock_mismatches(requirements: list[Requirement], lock: dict[str, str]) -> list[str]:
    """Problems with the lock against pyproject's requirements: a package missing, or pinned outside its range."""
    problems = []
    for req in requirements:
        name = canonicalize_name(req.name)
        if name not in lock:
            problems.append(f"{name}: in pyproject.toml ({req}) but not in requirements.lock")
        elif not req.specifier.contains(lock[name], prereleases=True):
            problems.append(f"{name}: locked {lock[name]} is outside pyproject's {req.specifier}")
    return problems


def environment_mismatches(requirements: list[Requirement], lock: dict[str, str], env: dict[str, str]) -> list[str]:
    """Problems with environment.yml: not exactly pyproject's packages, or a pin that is not ==<lock version>."""
    wanted = [n for req in requirements for n in CONDA_NAMES.get(canonicalize_name(req.name), [canonicalize_name(req.name)])]
    problems = [f"{n}: in pyproject.toml but not in environment.yml" for n in wanted if n not in env]
    problems += [f"{n}: in environment.yml but not in pyproject.toml" for n in env if n not in wanted]
    for name in wanted:
        if name in env and env[name] != f"=={lock.get(name)}":
            problems.append(f"{name}: environment.yml has {env[name]!r}, requirements.lock has =={lock.get(name)}")
    return problems


@pytest.fixture(scope="module")
def files():
    return (
        pyproject_requirements(),
        read_lock((ROOT / "requirements.lock").read_text()),
        read_environment((ROOT / "environment.yml").read_text()),
    )


def test_lock_pins_every_pyproject_package_within_its_range(files):
    requirements, lock, _ = files
    assert lock_mismatches(requirements, lock) == []


def test_environment_yml_pins_pyproject_packages_to_the_lock(files):
    requirements, lock, env = files
    assert environment_mismatches(requirements, lock, env) == []
    assert {"dask", "distributed"} <= env.keys()


def test_torch_is_the_cpu_pin_everywhere_and_the_lock_has_no_cuda(files):
    requirements, lock, env = files
    assert [str(r.specifier) for r in requirements if r.name == "torch"] == [f"=={TORCH}"]
    assert lock["torch"] == TORCH
    assert env["torch"] == f"=={TORCH}"
    assert [n for n in lock if CUDA_PACKAGE.search(n)] == []


def test_helpers_flag_a_mismatched_version(files):
    """Negative control: the comparisons above do catch a wrong, missing or drifted pin.

    Only the problems that the modification adds are counted, so this holds whatever the real files say.
    """
    requirements, lock, env = files

    def added_lock_problems(bad_lock):
        return set(lock_mismatches(requirements, bad_lock)) - set(lock_mismatches(requirements, lock))

    def added_env_problems(bad_lock, bad_env):
        before = set(environment_mismatches(requirements, lock, env))
        return {p.split(":")[0] for p in set(environment_mismatches(requirements, bad_lock, bad_env)) - before}

    bad_lock = copy.deepcopy(lock)
    bad_lock["numpy"] = "1.20.0"  # below pyproject's numpy>=1.26
    del bad_lock["pytest"]
    assert added_lock_problems(bad_lock) == {
        "numpy: locked 1.20.0 is outside pyproject's >=1.26",
        "pytest: in pyproject.toml (pytest>=8.0) but not in requirements.lock",
    }

    bad_env = copy.deepcopy(env)
    bad_env["scipy"] = "==1.11.0"  # in pyproject's range, but not the locked version
    bad_env["distributed"] = ">=2024.1"  # a range instead of the exact pin
    del bad_env["botorch"]
    bad_env["requests"] = "==2.0.0"  # not a package pyproject names
    assert added_env_problems(lock, bad_env) == {"scipy", "distributed", "botorch", "requests"}

    drifted_lock = copy.deepcopy(lock)
    drifted_lock["gpytorch"] = f"{Version(lock['gpytorch']).major + 1}.0.0"  # still inside pyproject's range
    assert added_lock_problems(drifted_lock) == set()
    assert added_env_problems(drifted_lock, env) == {"gpytorch"}

    cuda_lock = {**lock, "nvidia-cublas": "13.1.1.3", "triton": "3.7.1"}
    assert sorted(n for n in cuda_lock if CUDA_PACKAGE.search(n)) == ["nvidia-cublas", "triton"]


def test_installed_environment_matches_the_lock(files):
    """The running environment (.venv from `make install`) holds exactly the locked versions."""
    _, lock, _ = files
    drift = {}
    for name, version in lock.items():
        try:
            installed = Version(metadata.version(name)).public  # torch 2.13.0+cpu -> 2.13.0
        except metadata.PackageNotFoundError:
            installed = None
        if installed is None or Version(installed) != Version(version):
            drift[name] = (version, installed)
    assert drift == {}, "installed (locked, actual) differ; run `make install`: " + repr(drift)
