"""The ask/tell protocol on a user's own problem: cold start, batches, bad input, the front door."""
import numpy as np
import pytest

import bolib
from bolib.algorithms import METHODS, make_optimizer
from bolib.algorithms.base import Optimizer, default_n_init
from bolib.errors import BolibError


def quadratic(X):
    return -((np.atleast_2d(X) - 0.3) ** 2).sum(axis=1)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_asks_a_batch_of_distinct_points(method):
    opt = make_optimizer(method, 2, seed=0, **METHODS[method].cheap_settings)
    X0 = np.random.default_rng(0).random((6, 2))
    opt.tell(X0, quadratic(X0))
    X = opt.ask(4)
    assert X.shape == (4, 2) and np.all((X >= 0) & (X <= 1))
    assert len(np.unique(X.round(9), axis=0)) == 4, X
    assert len(opt.pending) == 4


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_starts_cold_from_its_own_design(method):
    """No data at all: the first n_init points are a space-filling design, then the method runs."""
    opt = make_optimizer(method, 3, seed=1, **METHODS[method].cheap_settings)
    assert opt.n_init == default_n_init(3) == 6
    for _ in range(opt.n_init + 2):
        X = opt.ask(1)
        opt.tell(X, quadratic(X))
    design = opt.X[: opt.n_init]
    assert np.min(np.linalg.norm(design[:, None] - design[None], axis=-1)[np.triu_indices(6, 1)]) > 0.1
    assert len(np.unique(opt.X.round(9), axis=0)) == len(opt.X)


def test_the_design_counts_observations_told_from_outside():
    opt = make_optimizer("gp-ei", 2, seed=0, n_init=5, **METHODS["gp-ei"].cheap_settings)
    X0 = np.random.default_rng(2).random((3, 2))
    opt.tell(X0, quadratic(X0))
    X = opt.ask(3)  # 2 design points, then one from the model with the design points pending
    assert len(np.unique(X.round(9), axis=0)) == 3
    with pytest.raises(ValueError, match="n_init must be >= 1"):
        make_optimizer("gp-ei", 2, n_init=0)


def test_a_method_with_a_proper_prior_proposes_from_the_first_ask():
    class PriorDraws(Optimizer):
        proposes_from_prior = True

        def propose(self, n):
            return np.full((n, self.dim), 0.5)

    np.testing.assert_array_equal(PriorDraws(2, n_init=0).ask(3), np.full((3, 2), 0.5))
    X = PriorDraws(2, n_init=2).ask(3)  # a design, where one is asked for, still comes first
    assert not np.allclose(X[:2], 0.5) and np.all(X[2] == 0.5)
    with pytest.raises(ValueError, match="n_init must be >= 1"):
        PriorDraws(2, n_init=-1)


@pytest.mark.parametrize("method", ["gp-ucb", "egp-ts"])
def test_readme_example_moves_to_the_optimum(method):
    """The README's example: -(x - 0.3)^2 in 3-D, 25 evaluations from a cold start."""
    opt = make_optimizer(method, 3, seed=0)
    for _ in range(25):
        X = opt.ask(1)
        opt.tell(X, quadratic(X))
    x_best, y_best = opt.best
    print(method, "best", x_best.round(3), y_best)
    assert y_best > -0.01
    assert len(np.unique(opt.X.round(6), axis=0)) >= 20  # it does not sit on one point


def test_tell_refuses_non_finite_values_and_wrong_shapes():
    opt = make_optimizer("gp-ei", 2, seed=0)
    with pytest.raises(ValueError, match="non-finite values \\[nan\\]"):
        opt.tell([[0.1, 0.2]], [np.nan])
    with pytest.raises(ValueError, match="shape"):
        opt.tell([[0.1, 0.2, 0.3]], [1.0])
    assert len(opt.y) == 0


def test_minimize_returns_the_best_point_in_the_users_units():
    res = bolib.minimize(lambda x: (x[0] - 3.0) ** 2 + (x[1] + 20.0) ** 2, [(0, 10), (-50, 0)],
                         method="gp-ei", budget=25, seed=0, n_candidates=500)
    assert res.x_iters.shape == (25, 2) and res.func_vals.shape == (25,)
    assert np.all(res.x_iters[:, 0] >= 0) and np.all(res.x_iters[:, 1] <= 0)
    assert res.fun == res.func_vals.min() and np.array_equal(res.x, res.x_iters[np.argmin(res.func_vals)])
    assert res.fun < 1.0, res
    assert np.all(np.diff(res.best_so_far) <= 0)
    up = bolib.maximize(lambda x: -abs(x[0] - 1.0), [(-2, 2)], method="random", budget=10, seed=0)
    assert up.fun == up.func_vals.max()


def test_minimize_bad_input_gets_clear_errors():
    with pytest.raises(BolibError, match="low < high"):
        bolib.minimize(lambda x: 0.0, [(0, 1), (2, 2)])
    with pytest.raises(BolibError, match="pairs"):
        bolib.minimize(lambda x: 0.0, [0, 1])
    with pytest.raises(ValueError, match="valid choices: .*gp-ei"):
        bolib.minimize(lambda x: 0.0, [(0, 1)], method="gp-eii")
    with pytest.raises(BolibError, match="one number"):
        bolib.minimize(lambda x: np.array([1.0, 2.0]), [(0, 1)], method="random")


def test_a_nan_stops_the_run_and_keeps_what_came_before():
    calls = []

    def fn(x):
        calls.append(x)
        return float("nan") if len(calls) == 4 else float(x[0])

    with pytest.raises(bolib.ObjectiveError, match="returned nan .*evaluation 4 of 10") as err:
        bolib.minimize(fn, [(0, 1)], method="random", budget=10)
    assert len(err.value.result.func_vals) == 3
    assert err.value.result.fun == min(float(c[0]) for c in calls[:3])


def test_plot_convergence_draws_the_running_best():
    import matplotlib

    matplotlib.use("Agg")
    res = bolib.minimize(lambda x: float(x[0] ** 2), [(-1, 1)], method="random", budget=8)
    ax = bolib.plot_convergence(res)
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), res.best_so_far)
