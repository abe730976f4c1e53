"""What a job's result depends on besides its parameters: code, library versions, code path.

A job's cache key covers the code of exactly the bolib modules its function can reach: the
function's module and everything it imports, transitively, found on bolib's static import graph
(built with grimp; imports inside functions count too). A job whose function picks code by name at
run time (a method or benchmark from a registry) declares the registry entries it uses, as
``"module:name"``, with :func:`depends_on`. So an edit of one paper's module recomputes that paper's
jobs only, and an edit of the GP model recomputes every job that fits one.

"Code" is the module's syntax tree without comments and docstrings (:func:`code_fingerprint`): a
comment or docstring edit recomputes nothing. The registry tables themselves
(:data:`REGISTRY_TABLES`) are left out of their module's fingerprint; a job is keyed on the entries
it uses instead, so registering a new method or benchmark recomputes nothing either, while pointing
a name at other code recomputes the jobs that run it.

The key also covers the versions of the numerical libraries (an upgrade must not reuse results
computed with another version) and the code-path mode of :mod:`bolib.codepath`.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import subprocess
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

from bolib import codepath

PACKAGE_DIR = Path(__file__).resolve().parent
#: Libraries whose version is part of every job key.
NUMERICAL_LIBRARIES = ("numpy", "scipy", "torch", "gpytorch", "linear_operator", "botorch",
                       "scikit-learn", "box2d", "optuna", "gymnasium", "scikit-image")
#: Imports that never carry a job's computation: ``bolib/__init__`` imports the ``bolib.minimize``
#: front door lazily, for users; following that edge would make every job depend on every module.
IGNORED_EDGES = (("bolib", "bolib.optimize"),)
#: module -> the name of its registry table (a dict of name -> "module:object"), keyed per entry
REGISTRY_TABLES = {"bolib.algorithms": "METHOD_PATHS", "bolib.benchmarks": "BENCHMARK_PATHS"}


def depends_on(modules: Callable[[dict], Iterable[str]]):
    """Decorator: the job function also runs code from ``modules(params)`` (chosen by name): module
    names, or registry entries ``"module:object"`` (the entry is keyed too)."""
    def mark(fn):
        fn.code_dependencies = modules
        return fn
    return mark


@functools.lru_cache(maxsize=1)
def import_graph():
    """bolib's static import graph (grimp), without :data:`IGNORED_EDGES`."""
    import grimp

    graph = grimp.build_graph("bolib", cache_dir=None)
    for importer, imported in IGNORED_EDGES:
        if graph.direct_import_exists(importer=importer, imported=imported):
            graph.remove_import(importer=importer, imported=imported)
    return graph


def reachable_modules(modules: Iterable[str]) -> list[str]:
    """``modules`` and every bolib module they import, transitively, sorted."""
    graph = import_graph()
    found = set()
    for module in modules:
        if module not in graph.modules:
            raise ValueError(f"{module!r} is not a bolib module")
        found |= {module} | graph.find_upstream_modules(module)
    return sorted(found)


def _source_file(module: str) -> Path:
    path = PACKAGE_DIR.parent / Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def code_fingerprint(module: str, path: Path) -> bytes:
    """The syntax tree of ``path`` without comments, docstrings and other bare string statements,
    and without the registry table of ``module`` if it has one (:data:`REGISTRY_TABLES`)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    table = REGISTRY_TABLES.get(module)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        kept = [stmt for stmt in body
                if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                        and isinstance(stmt.value.value, str))
                and not (node is tree and table and isinstance(stmt, (ast.Assign, ast.AnnAssign))
                         and table in [t.id for t in getattr(stmt, "targets", [getattr(stmt, "target", None)])
                                       if isinstance(t, ast.Name)])]
        node.body = kept or [ast.Pass()]
    return ast.dump(tree).encode()


@functools.lru_cache(maxsize=None)
def source_hash(modules: tuple[str, ...], exclude: tuple[str, ...] = ()) -> str:
    """SHA-256 of the code (:func:`code_fingerprint`) of ``modules`` and all the bolib modules they
    import, and of the registry entries (``"module:object"``) among ``modules``; the bolib modules in
    ``exclude`` are left out.

    A module outside bolib (e.g. a job function defined in a test) adds its own file and, since its
    imports are not on the graph, all of bolib.
    """
    import importlib

    entries = sorted(m for m in modules if ":" in m)
    modules = {m.partition(":")[0] for m in modules}
    ours = [m for m in modules if m == "bolib" or m.startswith("bolib.")]
    files = [(m, _source_file(m)) for m in reachable_modules(ours) if m not in exclude]
    others = sorted(modules - set(ours))
    if others:
        files += [(m, Path(importlib.import_module(m).__file__)) for m in others]
        files += [(m, _source_file(m)) for m in sorted(import_graph().modules)]
    digest = hashlib.sha256()
    for entry in entries:
        digest.update(entry.encode() + b"\0")
    for module, path in files:
        digest.update(module.encode() + b"\0" + code_fingerprint(module, path) + b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def library_versions() -> dict[str, str]:
    versions = {}
    for name in NUMERICAL_LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "absent"
    return versions


def job_modules(fn, params: dict) -> tuple[str, ...]:
    """The modules and registry entries whose code a job's key covers: the function's module and
    what :func:`depends_on` declares for ``params``, sorted."""
    return tuple(sorted({fn.__module__, *getattr(fn, "code_dependencies", lambda p: ())(params)}))


def job_provenance(fn, params: dict) -> dict:
    """The part of a job's key that is not its parameters (see the module docstring)."""
    return {"source": source_hash(job_modules(fn, params)), "libraries": library_versions(),
            "code_path": codepath.key_tag()}


@functools.lru_cache(maxsize=1)
def git_revision() -> str:
    """The git revision of the working tree (``+dirty`` when it has uncommitted changes)."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PACKAGE_DIR,
                             capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=PACKAGE_DIR, capture_output=True, text=True, timeout=10).stdout
        return rev + ("+dirty" if dirty.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
