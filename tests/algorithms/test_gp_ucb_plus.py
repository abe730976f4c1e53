"""Paper 001's methods (bolib.algorithms.gp_ucb_plus): GP-UCB+ / EXPLOIT+, exploration sequences, beta rules."""
import math

import numpy as np
import pytest

from bolib.algorithms import make_optimizer
from bolib.algorithms.baselines import beta_sup
from bolib.algorithms.gp_ucb_plus import BETA_TWO, ExplorationSequence, beta_finite, beta_gp_theory
from bolib.benchmarks import get_benchmark
from bolib.loop import run

FAST = {"n_candidates": 200, "n_starts": 2, "maxiter": 10}


def _count_fits(opt):
    calls = []
    fit = opt.fit_model
    opt.fit_model = lambda: calls.append(len(opt.y)) or fit()
    return calls


@pytest.mark.parametrize("method", ["gp-ucb+", "exploit+"])
def test_plus_methods_query_two_points_per_posterior(method):
    problem = get_benchmark("branin")
    opt = make_optimizer(method, 2, seed=3, n_init=4, **FAST)
    calls = _count_fits(opt)
    trace = run(problem, opt, budget=14, seed=3, n_init=4)
    # 10 evaluations after the design = 5 iterations, one posterior each, fitted on X^full_{t-1}
    assert calls == [4, 6, 8, 10, 12]
    explore = ExplorationSequence(2, 3)
    expected = np.array([explore.next() for _ in range(5)])
    np.testing.assert_array_equal(trace.X[5::2], expected)


def test_gp_ucb_plus_and_exploit_plus_share_exploration_points():
    problem = get_benchmark("branin")
    traces = [run(problem, make_optimizer(m, 2, seed=1, n_init=4, **FAST), budget=12, seed=1, n_init=4)
              for m in ("gp-ucb+", "exploit+")]
    np.testing.assert_array_equal(traces[0].X[5::2], traces[1].X[5::2])
    assert not np.allclose(traces[0].X[4::2], traces[1].X[4::2])


def test_exploit_plus_has_no_beta_and_maximises_the_mean():
    with pytest.raises(TypeError, match="beta"):
        make_optimizer("exploit+", 2, beta=4.0)
    opt = make_optimizer("exploit+", 2, seed=0, **FAST)
    X = np.random.default_rng(0).random((8, 2))
    opt.tell(X, np.sin(5 * X[:, 0]) + X[:, 1])
    gp = opt.fit_model()
    grid = np.random.default_rng(1).random((300, 2))
    import torch

    mean = gp.posterior(torch.as_tensor(grid))[0]
    assert torch.equal(opt.acquisition(gp, torch.as_tensor(grid)), mean)


def test_sobol_exploration_is_a_scrambled_sobol_sequence():
    seq = ExplorationSequence(2, 0, "sobol")
    points = np.array([seq.next() for _ in range(16)])
    # a (0, m, 2)-net: each of the 16 cells of a 4 x 4 grid holds exactly one point
    cells = {(int(a * 4), int(b * 4)) for a, b in points}
    assert len(cells) == 16
    with pytest.raises(ValueError, match="uniform"):
        ExplorationSequence(2, 0, "halton")


def test_beta_schedules():
    assert beta_finite(1, 100, 0.1) == pytest.approx(2 * math.log(100 * math.pi ** 2 / 0.6))
    values = [beta_gp_theory(t, 2, 0.1, 1.0, 1.0, 0.5) for t in (1, 10, 100)]
    assert values[0] < values[1] < values[2]
    # both grow like log t^2 with the stated coefficients
    assert values[2] - values[1] == pytest.approx((2 + 2 * 2) * math.log(100), rel=1e-9)
    assert BETA_TWO == 4.0


def test_sup_beta_comes_from_the_problem_and_unknown_exploration_error():
    from bolib.loop import bo_job

    out = bo_job("levy", "gp-ucb", 0, 8, n_init=4, settings={**FAST, "beta": "sup", "n_sup": 20})
    assert out["info"]["beta"] == pytest.approx(beta_sup(get_benchmark("levy"), 20, 0))
    opt = make_optimizer("gp-ucb", 2, beta="sup", n_init=1)
    opt.tell([[0.5, 0.5]], [1.0])
    with pytest.raises(RuntimeError, match="prepare"):  # SUP needs the problem first
        opt.ask(1)
    with pytest.raises(ValueError, match="sup"):
        make_optimizer("gp-ucb", 2, beta="sub")
    with pytest.raises(ValueError, match="sobol"):
        make_optimizer("gp-ucb+", 2, exploration="grid")
