"""The layout: no import cycle anywhere in bolib, and the layers of pyproject.toml's import-linter contracts."""
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def import_cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), i.e. the import cycles."""
    modules = sorted(graph.modules)
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(m):
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in sorted(graph.find_modules_directly_imported_by(m)):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            component = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                component.append(n)
                if n == m:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for m in modules:
        if m not in index:
            visit(m)
    return cycles


def test_bolib_has_no_import_cycle():
    graph = grimp.build_graph("bolib", cache_dir=None)  # imports inside functions count too
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for m in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(m)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    assert import_cycles(graph) == []
    graph.add_import(importer="pkg.c", imported="pkg.a")
    assert import_cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_import_linter_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


def test_algorithms_import_only_models_acquisitions_and_optimisers():
    graph = grimp.build_graph("bolib", cache_dir=None)
    allowed = {"bolib.algorithms", "bolib.models", "bolib.acquisition", "bolib.multistart", "bolib.candidates",
               "bolib.errors", "bolib.runtime", "bolib.codepath"}
    for module in graph.find_descendants("bolib.algorithms") | {"bolib.algorithms"}:
        for imported in graph.find_modules_directly_imported_by(module):
            assert ".".join(imported.split(".")[:2]) in allowed, (module, imported)
