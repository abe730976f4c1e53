"""Paper 000's theory harness (bolib.papers.egp_ts): the exactly Bayesian setting of Theorems 1-3."""
import inspect
import math

import numpy as np
import pytest

from bolib.models.grid import GridPosterior, grid_kernel_matrix, unit_grid
from bolib.models.rff import RandomFeatures
from bolib.papers.egp_ts import (ExactEnsembleTS, derivative_tail_job, eq30_bound, eta, grid_problem, parallel_excess,
                                 parallel_heuristic, posterior_variance, rf_exact_job)
from bolib.papers.egp_ts_claims import SIGMA_N
from bolib.runtime import rng as make_rng


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


def test_frozen_egp_ts_is_egp_ts_until_it_stops_learning_then_its_weights_and_posterior_stay():
    """The rate claims' contrast: the same draws as EGP-TS for the first T/8 queries (identical proposals), then
    weights that no longer move and a drawn member's posterior SD that no longer shrinks; over seeds its later regret
    is higher (on a seed whose posterior had concentrated by T/8 it can be as low)."""
    T = 64
    n = math.ceil(T / 8)
    late = {"egp-ts": [], "egp-ts-frozen": []}
    for seed in range(6):
        full, frozen = rf_exact_job("egp-ts", seed, T), rf_exact_job("egp-ts-frozen", seed, T)
        np.testing.assert_array_equal(full["regret"][:n + 1], frozen["regret"][:n + 1])
        assert np.allclose(frozen["w_star"][n:], frozen["w_star"][n])
        assert frozen["sigma"][n:].mean() > full["sigma"][n:].mean()
        late["egp-ts"].append(full["regret"][n:].mean())
        late["egp-ts-frozen"].append(frozen["regret"][n:].mean())
    assert np.mean(late["egp-ts-frozen"]) > 2 * np.mean(late["egp-ts"])


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
    constant = 6 * 2 * 3.0 + sum(2 / (math.sqrt(2 * math.pi) * t ** 2) for t in range(1, 10 ** 6))  # eq. 24's sum
    # T = 1: log T is read as log 2 in eta and in the noise term; beta_1 = 2 log(1 * 10)
    assert bound[0] == pytest.approx((2 * math.sqrt(math.log(2)) + math.sqrt(2 * math.log(10))) * 1.0
                                     + 2 * 0.1 * math.sqrt(2 * 1 * math.log(2)) + constant, rel=1e-6)
    assert bound[2] == pytest.approx((2 * math.sqrt(math.log(3)) + math.sqrt(2 * math.log(9 * 10))) * 1.8
                                     + 2 * 0.1 * math.sqrt(2 * 3 * math.log(3)) + constant, rel=1e-6)
    assert np.all(np.diff(bound) > 0)  # a non-decreasing sigma sum: the bound grows with T
    base = {"sigma_sum": [1.0, 1.5, 1.8], "M": 2, "sigma_n": 0.1, "B": 3.0, "n_domain": 10}
    for name, larger in [("sigma_sum", [1.1, 1.6, 1.9]), ("M", 3), ("sigma_n", 0.2), ("B", 3.5), ("n_domain", 100)]:
        assert np.all(eq30_bound(**{**base, name: larger}) > bound), name


def test_eta_is_the_one_width_of_eq30_and_of_lemma4():
    assert eta(4) == 2 * math.sqrt(math.log(4))
    np.testing.assert_array_equal(eta(np.arange(2, 6)), 2 * np.sqrt(np.log(np.arange(2, 6))))
    # eq. 30 at T = 1..3 uses eta(max(T, 2)); a zero sigma sum leaves the sigma_n term and the constants
    bound = eq30_bound([0.0, 0.0, 0.0], M=2, sigma_n=0.1, B=0.0, n_domain=10)
    assert bound[2] == pytest.approx(2 * 0.1 * math.sqrt(2 * 3 * math.log(3)) + math.pi * math.sqrt(2 * math.pi) * 2 / 12, rel=1e-12)
    unit = eq30_bound([1.0, 1.0, 1.0], M=2, sigma_n=0.1, B=0.0, n_domain=10) - bound
    np.testing.assert_allclose(unit, eta(np.array([2, 2, 3])) + np.sqrt(2 * np.log(np.arange(1, 4) ** 2 * 10)), rtol=1e-12)


def test_posterior_variance_equals_the_exact_gp_variance():
    # one place for sigma^2_idx(x): the old inline forms bit for bit, and the library's rank-1 grid
    # posterior (GridPosterior, another formula) to roundoff
    points = np.vstack([np.random.default_rng(0).random((6, 1)), unit_grid(40, 1)])
    K = grid_kernel_matrix("rbf", points, 0.1)
    idx, noise = [0, 3, 5, 10], 0.01
    Kss = K[np.ix_(idx, idx)] + noise * np.eye(len(idx))
    inline = np.diag(K) - np.einsum("ij,ji->i", K[:, idx], np.linalg.solve(Kss, K[idx, :]))
    assert posterior_variance(K, idx, noise).tobytes() == inline.tobytes()
    rows = np.arange(6, 46)
    inline_rows = np.diag(K)[rows] - np.einsum("ij,ji->i", K[np.ix_(rows, idx)], np.linalg.solve(Kss, K[np.ix_(idx, rows)]))
    assert posterior_variance(K, idx, noise, rows).tobytes() == inline_rows.tobytes()
    grid = GridPosterior(K, tau=noise)
    for i in idx:
        grid.update(i, 0.0)
    np.testing.assert_allclose(posterior_variance(K, idx, noise), grid.var, atol=1e-12)
    np.testing.assert_array_equal(posterior_variance(K, [], noise), np.diag(K))


def test_parallel_heuristic_and_its_excess():
    BR_1 = np.array([[1.0, 2.0, 4.0], [0.5, 1.0, 1.5]])
    np.testing.assert_allclose(parallel_heuristic(BR_1, 4.0, 0.5, 3), 2 * BR_1 + 2.0)
    assert parallel_heuristic(3.0, 4.0, 0.5, 1) == 6.0  # K = 1: sqrt(rho_1) BR_1 and no pending point
    BR_K = np.array([[5.0, 5.0, 9.0], [2.0, 3.0, 6.0]])
    np.testing.assert_allclose(parallel_excess(BR_K, BR_1, 4.0, 0.5, 3), [1.0, 1.0])


def test_exact_draws_are_the_ensembles_thompson_step():
    # ExactEnsembleTS draws through RFEnsemble.sample: the same member and grid point as the step
    # written out (m ~ Cat(w), theta from member m, argmax over the grid), for tempered weights too
    grid = unit_grid(64, 1)
    features = [RandomFeatures("rbf", 1, 20, np.random.default_rng(0), ls) for ls in (0.1, 0.5, 1.0)]
    for power in (1.0, 2.0):
        ts = ExactEnsembleTS(1, 0, grid=grid, features=features, noise_std=0.1, weight_power=power)
        ts.tell(grid[[3, 40]], [0.4, -0.3])
        stream = np.random.default_rng(7)
        ts.rng = np.random.default_rng(7)
        for _ in range(5):
            w = ts.weights()
            m = int(stream.choice(len(w), p=w))
            theta = ts.ensemble.models[m].sample_weights(stream)[0]
            assert ts.draw() == int(np.argmax(ts.Phis[m] @ theta)) and ts.history[-1]["member"] == m


def test_derivative_tails_use_the_feature_map_and_its_derivative():
    # the old inline construction of the paths (eqs. 15, 16 by hand) to roundoff, and L_max against
    # finite differences of the feature map on a fine grid
    out = derivative_tail_job("matern25", 1, 6, n_pairs=30, points=2001, chunk=4)
    stream = make_rng(1, "e3", "matern25")
    x = np.linspace(0.0, 1.0, 2001)
    L, F = [], []
    for k in (4, 2):
        omega = np.stack([RandomFeatures("matern25", 1, 30, stream, 0.2).omega[:, 0] for _ in range(k)])
        theta = stream.standard_normal((k, 2, 30))
        proj = x[None, :, None] * omega[:, None, :]
        f = np.sqrt(1 / 30) * (np.einsum("kgd,kd->kg", np.cos(proj), theta[:, 0]) + np.einsum("kgd,kd->kg", np.sin(proj), theta[:, 1]))
        df = np.sqrt(1 / 30) * (np.einsum("kgd,kd->kg", -np.sin(proj) * omega[:, None, :], theta[:, 0])
                                + np.einsum("kgd,kd->kg", np.cos(proj) * omega[:, None, :], theta[:, 1]))
        L.append(np.abs(df).max(1))
        F.append(np.abs(f).max(1))
        finite = np.abs(np.diff(f, axis=1) / np.diff(x)).max(1)
        np.testing.assert_allclose(finite, L[-1], rtol=0.01)  # O(h f'') off at the grid spacing h
    np.testing.assert_allclose(out["L_max"], np.concatenate(L), rtol=1e-12)
    np.testing.assert_allclose(out["f_abs_max"], np.concatenate(F), rtol=1e-12)


def test_the_theory_setting_runs_at_the_declared_noise():
    # E4 and E7 read sigma_n from the claims module; the jobs run at rf_exact_job's default
    assert inspect.signature(rf_exact_job).parameters["noise_std"].default == SIGMA_N
