"""Benchmark registry: ``get_benchmark(name, dim=None)`` returns a :class:`Problem` to maximise.

Every entry maximises ``-f`` for a standard minimisation function ``f`` of
:mod:`bolib.benchmarks.synthetic`, except ``dropwave`` (the paper-000 form, which is already a
maximisation) and ``ackley5-unit``, the *un-negated* Ackley maximised on [0, 1]^5 as in paper 000's
Table 1 (its true maximum 4.710965 differs from the 4.6930 printed there), and two paper-001 problems
that are already maximisations: ``sprinkler`` (the garden-sprinkler simulator's rotation speed) and
``rf-friedman1`` (minus the test MSE of a random forest on generated Friedman #1 data; its optimum is
unknown, NaN), and the
paper-000 tasks ``robot-push3`` / ``robot-push4`` (Box2D; option ``goal_seed``) and ``mlp-<dataset>``
(validation accuracy of a small MLP on a bundled data set; options ``repeats``, ``epochs``), and
``gp-draw``, a random-feature draw from a GP prior (options ``kernel``, ``lengthscale`` and the seed
and stream of the draw), and ``add-3modal``, paper 002's additive sum of three-mode log densities on
[-1, 1]^D (options ``group_dim`` and ``perm_seed``, the run's random grouping of the coordinates).

Each entry of :data:`BENCHMARK_PATHS` names the builder of one problem as ``"module:function"``; a
module is imported only when one of its problems is built. So a job's cache key (which covers the
source of every module the job can reach, see :mod:`bolib.provenance`) depends on the module of the
benchmark it runs, not on every benchmark of every paper: adding a benchmark is one line here and
recomputes nothing. The builders are marked with :func:`bolib.benchmarks.problem.benchmark`.
"""
from __future__ import annotations

import importlib

from bolib.benchmarks.problem import NOISE_KINDS, Problem, multistart_maximum
from bolib.benchmarks.samplers import gp_sample, rkhs_function
from bolib.errors import check_choice

#: benchmark name -> "module:builder" (a registry table: its entries are keyed per job, see
#: :func:`bolib.provenance.source_hash`)
BENCHMARK_PATHS: dict[str, str] = {
    # standard synthetic functions (maximise -f)
    "ackley": "bolib.benchmarks.standard:ackley",
    "ackley5-unit": "bolib.benchmarks.standard:ackley5_unit",
    "rastrigin": "bolib.benchmarks.standard:rastrigin",
    "levy": "bolib.benchmarks.standard:levy",
    "zakharov": "bolib.benchmarks.standard:zakharov",
    "dropwave": "bolib.benchmarks.standard:dropwave",
    "eggholder": "bolib.benchmarks.standard:eggholder",
    "branin": "bolib.benchmarks.standard:branin",
    "goldstein-price": "bolib.benchmarks.standard:goldstein_price",
    "six-hump-camel": "bolib.benchmarks.standard:six_hump_camel",
    "hartmann3": "bolib.benchmarks.standard:hartmann3",
    "hartmann6": "bolib.benchmarks.standard:hartmann6",
    "styblinski-tang": "bolib.benchmarks.standard:styblinski_tang",
    "rosenbrock": "bolib.benchmarks.standard:rosenbrock",
    "michalewicz": "bolib.benchmarks.standard:michalewicz",
    "gp-draw": "bolib.benchmarks.samplers:gp_draw",
    # paper 000 (EGP-TS)
    "robot-push3": "bolib.benchmarks.robot_pushing:robot_push3",
    "robot-push4": "bolib.benchmarks.robot_pushing:robot_push4",
    "mlp-digits": "bolib.benchmarks.tuning:mlp_digits",
    "mlp-breast-cancer": "bolib.benchmarks.tuning:mlp_breast_cancer",
    "mlp-iris": "bolib.benchmarks.tuning:mlp_iris",
    "mlp-wine": "bolib.benchmarks.tuning:mlp_wine",
    # paper 001 (GP-UCB+ and EXPLOIT+)
    "sprinkler": "bolib.benchmarks.sprinkler:sprinkler",
    "rf-friedman1": "bolib.benchmarks.tuning:rf_friedman1",
    # paper 002 (Add-GP-UCB)
    "add-3modal": "bolib.benchmarks.additive:add_3modal",
    "add-gp-draw": "bolib.benchmarks.additive_gp:add_gp_draw",
    # paper 003 (BORE, BORE++, batch BORE)
    "racing-line": "bolib.benchmarks.racing:racing_line",
    "supernova20": "bolib.benchmarks.supernova:supernova20",
    "face-cascade20": "bolib.benchmarks.face_cascade:face_cascade20",
    "fcnet-diabetes": "bolib.benchmarks.fcnet_tables:fcnet_diabetes",
    "fcnet-friedman": "bolib.benchmarks.fcnet_tables:fcnet_friedman",
    "digits-nas": "bolib.benchmarks.digits_nas:digits_nas",
    # paper 004 (RM-GP-UCB, RM-GP-TS)
    "cartpole": "bolib.benchmarks.cartpole:cartpole",
    "nonstationary-lr": "bolib.benchmarks.nonstationary:nonstationary_lr",
    "har-digits": "bolib.benchmarks.har_digits:har_digits",
    "image-tuning": "bolib.benchmarks.image_tuning:image_tuning",
    "svm-grid": "bolib.benchmarks.svm_grid:svm_grid",
}

BENCHMARKS = tuple(sorted(BENCHMARK_PATHS))


def benchmark_entry(name: str) -> str:
    """The registry entry ``"module:builder"`` of benchmark ``name`` (part of the key of jobs that run it)."""
    return BENCHMARK_PATHS[check_choice("benchmark", name, BENCHMARK_PATHS)]


def get_benchmark(name: str, dim: int | None = None, **options) -> Problem:
    """The registered benchmark ``name`` (in ``dim`` dimensions where the function allows it).

    ``options`` go to problems that take them: ``goal_seed`` (robot pushing), ``repeats``,
    ``epochs``, ``max_samples`` (MLP tuning), ``kernel``, ``lengthscale``, ``draw_seed``, ``stream``,
    ``n_pairs``, ``certify`` (``gp-draw``), ``group_dim``, ``perm_seed``, ``layout`` (``add-3modal``:
    ``"authors"`` or ``"shifted"``, modes moved off the box centre per seed), ``box_seed``
    (``face-cascade20``: each threshold's box placed off the default per run), ``repeat_seed`` (``fcnet-*``).
    """
    module, _, function = benchmark_entry(name).partition(":")
    builder = getattr(importlib.import_module(module), function)
    if dim is not None and builder.fixed_dim and dim != builder.default_dim:
        raise ValueError(f"benchmark {name!r} is defined in {builder.default_dim} dimensions only, not {dim}")
    return builder(builder.default_dim if dim is None else int(dim), **options)


__all__ = ["BENCHMARKS", "BENCHMARK_PATHS", "NOISE_KINDS", "Problem", "benchmark_entry", "get_benchmark",
           "gp_sample", "multistart_maximum", "rkhs_function"]
