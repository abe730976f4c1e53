"""Paper 000's theory harness (bolib.papers.egp_ts): the exactly Bayesian setting of Theorems 1-3."""
import math

import numpy as np
import pytest

from bolib.models.grid import unit_grid
from bolib.models.rff import RandomFeatures
from bolib.papers.egp_ts import ExactEnsembleTS, eq30_bound, grid_problem, rf_exact_job


def test_rf_exact_setting_oracle_beats_random_and_weights_concentrate():
    runs = {rule: [rf_exact_job(rule, s, 48) for s in range(6)] for rule in ("egp-ts", "oracle", "random")}
    total = {rule: np.mean([r["regret"].sum() for r in v]) for rule, v in runs.items()}
    assert total["oracle"] < total["random"] and total["egp-ts"] < total["random"]
    assert np.mean([r["w_star"][-1] for r in runs["egp-ts"]]) > 0.5
    # the loop's observation noise: common to all rules under one seed (y + regret = f* + noise)
    # and of standard deviation noise_std = 0.1
    for s in range(6):
        noisy_optimum = [runs[rule][s]["y"] + runs[rule][s]["regret"] for rule in runs]
        np.testing.assert_allclose(noisy_optimum[0], noisy_optimum[1], atol=1e-12)
        np.testing.assert_allclose(noisy_optimum[0], noisy_optimum[2], atol=1e-12)
    noise = np.concatenate([r["y"] + r["regret"] - (r["y"] + r["regret"]).mean() for r in runs["random"]])
    assert 0.08 < noise.std() < 0.12


def test_parallel_runs_keep_each_proposal_with_its_diagnostics():
    sync = rf_exact_job("egp-ts", 0, 16, batch_size=4)
    assert sync["round"].max() == 4 and len(sync["regret"]) == 16
    # the points of one round are drawn from one posterior: one w_star per round, which then moves
    per_round = [np.unique(sync["w_star"][sync["round"] == r]) for r in range(1, 5)]
    assert all(len(w) == 1 for w in per_round) and np.allclose(per_round[0], 0.25)
    assert not np.isclose(per_round[0][0], per_round[3][0])
    asynchronous = rf_exact_job("egp-ts", 0, 16, batch_size=4, mode="async")
    assert np.all(np.diff(asynchronous["time"]) >= 0)
    # rows are in order of completion, diagnostics follow their proposals: the first four points
    # (round = proposal index 1..4) were drawn under the prior weights 1/M, the others after data
    first = asynchronous["round"] <= 4
    assert np.allclose(asynchronous["w_star"][first], 0.25)
    assert not np.allclose(asynchronous["w_star"][~first], 0.25)
    assert np.all(asynchronous["sigma"] > 0) and set(asynchronous["member"]) <= {0, 1, 2, 3}


def test_grid_problem_evaluates_the_nearest_grid_point():
    values = np.arange(5 * 5, dtype=float)
    problem = grid_problem(values, 5, 2, noise_std=0.1)
    grid = unit_grid(5, 2)
    np.testing.assert_array_equal(problem(grid), values)
    np.testing.assert_array_equal(problem(np.clip(grid + 0.1, 0, 1)), values)  # spacing 0.25
    np.testing.assert_array_equal(problem([[0.15, 0.0], [0.1, 0.9]]), [5.0, 4.0])  # points (1, 0) and (0, 4)
    assert problem.optimum == 24.0 and problem.noise_std == 0.1


def test_exact_ensemble_proposes_grid_points_from_its_prior():
    grid = unit_grid(64, 1)
    stream = np.random.default_rng(0)
    features = [RandomFeatures("rbf", 1, 20, stream, ls) for ls in (0.1, 0.5)]
    ts = ExactEnsembleTS(1, 0, grid=grid, features=features, noise_std=0.1)
    X = ts.ask(3)  # no data and no design: three Thompson draws from the prior
    assert all(np.any(np.all(grid == x, axis=1)) for x in X)
    assert [h["weights"].tolist() for h in ts.history] == [[0.5, 0.5]] * 3
    ts.tell(X, [1.0, 1.2, 0.9])
    assert not np.allclose(ts.ensemble.weights, 0.5)
    random = ExactEnsembleTS(1, 0, grid=grid, features=[], noise_std=0.1)
    assert random.ask(2).shape == (2, 1) and [h["member"] for h in random.history] == [-1, -1]


def test_eq30_bound_by_hand_and_its_growth():
    bound = eq30_bound([1.0, 1.5, 1.8], M=2, sigma_n=0.1, B=3.0, n_domain=10)
    constant = 6 * 2 * 3.0 + math.sqrt(2 * math.pi) * 2 / 12
    # T = 1: log T is read as log 2 in eta and in the noise term; beta_1 = 2 log(1 * 10)
    assert bound[0] == pytest.approx((2 * math.sqrt(math.log(2)) + math.sqrt(2 * math.log(10))) * 1.0
                                     + 2 * 0.1 * math.sqrt(2 * 1 * math.log(2)) + constant, rel=1e-12)
    assert bound[2] == pytest.approx((2 * math.sqrt(math.log(3)) + math.sqrt(2 * math.log(9 * 10))) * 1.8
                                     + 2 * 0.1 * math.sqrt(2 * 3 * math.log(3)) + constant, rel=1e-12)
    assert np.all(np.diff(bound) > 0)  # a non-decreasing sigma sum: the bound grows with T
    base = {"sigma_sum": [1.0, 1.5, 1.8], "M": 2, "sigma_n": 0.1, "B": 3.0, "n_domain": 10}
    for name, larger in [("sigma_sum", [1.1, 1.6, 1.9]), ("M", 3), ("sigma_n", 0.2), ("B", 3.5), ("n_domain", 100)]:
        assert np.all(eq30_bound(**{**base, name: larger}) > bound), name
