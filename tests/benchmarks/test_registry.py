"""The benchmark registry (bolib.benchmarks): every registered problem's values and stated optimum are checked
independently (synthetic functions against BoTorch or a multistart certificate, simulators against their bound)."""
import numpy as np
import pytest
import torch
from botorch.test_functions import synthetic as bt

from bolib.benchmarks import BENCHMARKS, get_benchmark, multistart_maximum

# our name -> BoTorch's test function (a minimisation problem, so our maximum is -its optimal value)
BOTORCH = {
    "ackley": lambda d: bt.Ackley(dim=d), "rastrigin": lambda d: bt.Rastrigin(dim=d),
    "levy": lambda d: bt.Levy(dim=d), "dropwave": lambda d: bt.DropWave(),
    "eggholder": lambda d: bt.EggHolder(), "branin": lambda d: bt.Branin(),
    "six-hump-camel": lambda d: bt.SixHumpCamel(), "hartmann3": lambda d: bt.Hartmann(dim=3),
    "hartmann6": lambda d: bt.Hartmann(dim=6), "styblinski-tang": lambda d: bt.StyblinskiTang(dim=d),
    "rosenbrock": lambda d: bt.Rosenbrock(dim=d), "michalewicz": lambda d: bt.Michalewicz(dim=d),
}
# no BoTorch counterpart: certified by multistart L-BFGS-B instead
MULTISTART = ["ackley5-unit", "goldstein-price", "zakharov", "add-3modal"]
# simulators, tuning tasks and GP draws: the optimum is a best-known (for draws: multistart-certified)
# value, an upper bound, or unknown
SIMULATORS = {"sprinkler": {}, "rf-friedman1": {}, "robot-push3": {}, "robot-push4": {}, "gp-draw": {"n_pairs": 100},
              "add-gp-draw": {},
              **{f"mlp-{d}": {"repeats": 1, "epochs": 2} for d in ("digits", "breast-cancer", "iris", "wine")},
              "cartpole": {"n_episodes": 2}, "supernova20": {}, "face-cascade20": {}, "nonstationary-lr": {},
              "har-digits": {}, "racing-line": {}, "digits-nas": {}, "image-tuning": {"levels": 3}, "svm-grid": {"dataset": 2}}
# noisy tables: a query returns one training of a cell, which can beat the best cell mean (the optimum);
# the optimum is checked exhaustively against the table in tests/benchmarks/test_fcnet_tables.py
TABLES = ["fcnet-diabetes", "fcnet-friedman"]


def test_every_benchmark_has_an_independent_check():
    assert set(BOTORCH) | set(MULTISTART) | set(SIMULATORS) | set(TABLES) == set(BENCHMARKS)


@pytest.mark.parametrize("name", sorted(SIMULATORS))
def test_simulators_stay_below_their_stated_optimum(name):
    problem = get_benchmark(name, **SIMULATORS[name])
    values = problem(np.random.default_rng(0).random((3, problem.dim)))
    assert np.all(np.isfinite(values))
    if not np.isnan(problem.optimum):
        assert np.all(values <= problem.optimum + 1e-12)


@pytest.mark.parametrize("name", sorted(BOTORCH))
def test_values_and_optimum_agree_with_botorch(name):
    problem = get_benchmark(name)
    ref = BOTORCH[name](problem.dim)
    X = problem.to_native(np.random.default_rng(0).random((50, problem.dim)))
    ours = problem.fn(X)
    theirs = -ref.evaluate_true(torch.as_tensor(X)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)  # some BoTorch constants are float32
    assert problem.optimum == pytest.approx(-ref.optimal_value, abs=1e-4)  # BoTorch rounds some
    assert problem.fn(problem.argmax).max() == pytest.approx(problem.optimum, abs=1e-5)


@pytest.mark.parametrize("name", MULTISTART)
def test_optimum_certified_by_multistart(name):
    problem = get_benchmark(name)
    _, best = multistart_maximum(problem.fn, problem.bounds, np.random.default_rng(0))
    assert best <= problem.optimum + 1e-6
    assert problem.fn(problem.argmax).max() == pytest.approx(problem.optimum, abs=1e-5)


def test_paper000_ackley_optimum_is_misprinted():
    problem = get_benchmark("ackley5-unit")
    printed_argmax = np.array([problem.meta["paper_argmax"]])
    assert problem.fn(printed_argmax)[0] < problem.optimum - 0.01
    assert problem.optimum > problem.meta["paper_optimum"]
