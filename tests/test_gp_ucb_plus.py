"""Paper 001 pieces: GP-UCB+ / EXPLOIT+, beta rules, the finite-domain engine, the sprinkler and RF tasks."""
import math

import numpy as np
import pytest

from bolib.algorithms import make_optimizer
from bolib.algorithms.baselines import beta_sup
from bolib.algorithms.gp_ucb_plus import BETA_TWO, ExplorationSequence, beta_finite, beta_gp_theory
from bolib.papers.gp_ucb_plus import grid_run
from bolib.benchmarks import get_benchmark, rkhs_function
from bolib.benchmarks.sprinkler import DOCUMENTED_OUTPUTS, DOCUMENTED_POINT, sprinkler_outputs
from bolib.loop import run
from bolib.models import GP
from bolib.models.grid import GridPosterior, grid_kernel_matrix, sample_on_grid, unit_grid
from bolib.runtime import rng

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


def test_sup_beta_is_in_the_objectives_units():
    problem = get_benchmark("levy", 3)
    scaled = type(problem)(problem.name, lambda X: 7.0 * problem.fn(X), problem.bounds, 0.0)
    assert beta_sup(scaled, 50, seed=2) == pytest.approx(49.0 * beta_sup(problem, 50, seed=2))
    # the GP's mu and sigma are in the observations' units: scaling y by 7 scales both by 7,
    # so mu + beta^{1/2} sigma with the SUP beta of the scaled problem is consistent
    X = np.random.default_rng(0).random((12, 3))
    y = problem(X)
    grid = np.random.default_rng(1).random((40, 3))
    base = GP("matern25", noise=0.0, lengthscale=0.5, fit=False).fit(X, y).predict(grid)
    big = GP("matern25", noise=0.0, lengthscale=0.5, fit=False).fit(X, 7.0 * y).predict(grid)
    np.testing.assert_allclose(big[0], 7.0 * base[0], rtol=1e-8)
    np.testing.assert_allclose(big[1], 7.0 * base[1], rtol=1e-8)


def test_beta_schedules():
    assert beta_finite(1, 100, 0.1) == pytest.approx(2 * math.log(100 * math.pi ** 2 / 0.6))
    values = [beta_gp_theory(t, 2, 0.1, 1.0, 1.0, 0.5) for t in (1, 10, 100)]
    assert values[0] < values[1] < values[2]
    # both grow like log t^2 with the stated coefficients
    assert values[2] - values[1] == pytest.approx((2 + 2 * 2) * math.log(100), rel=1e-9)
    assert BETA_TWO == 4.0


def test_grid_posterior_equals_the_batch_posterior():
    grid = unit_grid(41, 1)
    K = grid_kernel_matrix("matern15", grid, 0.2)
    post = GridPosterior(K, tau=1e-8)
    idx = [3, 17, 40, 22, 17, 9]
    y = np.sin(7 * grid[:, 0])
    for i in idx:
        post.update(i, y[i])
    unique = list(dict.fromkeys(idx))
    Kxx = K[np.ix_(unique, unique)] + 1e-8 * np.eye(len(unique))
    Kgx = K[:, unique]
    mean = Kgx @ np.linalg.solve(Kxx, y[unique])
    var = np.diag(K) - np.einsum("ij,ji->i", Kgx, np.linalg.solve(Kxx, Kgx.T))
    np.testing.assert_allclose(post.mean, mean, atol=1e-8)
    np.testing.assert_allclose(post.var, var, atol=1e-8)


@pytest.mark.parametrize("kernel", ["matern05", "matern15", "matern25", "rbf"])
@pytest.mark.parametrize("rule", ["gp-ucb", "gp-ucb+", "exploit+"])
def test_proof_inequalities_hold_exactly(kernel, rule):
    """Spec C3 (a)-(d): the deterministic steps of the proofs of Theorems 3.1 and 4.4."""
    grid = unit_grid(201, 1)
    K = grid_kernel_matrix(kernel, grid, 0.2)
    for seed in range(2):
        f = rkhs_function(kernel, 1, rng(seed, "c3"), n_centers=20, lengthscale=0.2)
        norm = f.meta["rkhs_norm"]
        out = grid_run(rule, K, f(grid), 60, seed, beta=norm ** 2, lambdas=(1e-6, 1e-3, 1.0))
        assert out["coverage"].max() <= 1e-7  # (a) |f - mu| <= ||f|| sigma
        assert out["lambda_gap"].max() <= 1e-9  # (b) sigma_{t,0} <= sigma_{t,lambda}
        assert np.all(out["regret"] <= 2 * norm * out["sup_sigma"] + 1e-7)  # (d)
        if rule != "exploit+":
            assert np.all(out["regret"] <= 2 * norm * out["sigma_at"] + 1e-7)  # (c)


def test_sample_on_grid_has_the_kernel_covariance():
    grid = unit_grid(15, 1)
    K = grid_kernel_matrix("rbf", grid, 0.3)
    stream = rng(0, "t")
    draws = np.array([sample_on_grid(K, stream) for _ in range(4000)])
    np.testing.assert_allclose(np.cov(draws.T), K, atol=0.08)


def test_sprinkler_matches_the_documented_example():
    np.testing.assert_allclose(sprinkler_outputs(DOCUMENTED_POINT), DOCUMENTED_OUTPUTS, atol=1e-6)


def test_sprinkler_best_known_point():
    problem = get_benchmark("sprinkler")
    assert problem(problem.to_unit(problem.argmax))[0] == pytest.approx(problem.optimum)
    values = problem(np.random.default_rng(0).random((500, 8)))
    assert values.max() < problem.optimum
    assert 0.1 < np.mean(values == 0) < 0.35  # the zero plateau (about 23% of the box)


def test_random_forest_objective_floors_integers_and_is_deterministic():
    problem = get_benchmark("rf-diabetes")
    a = problem.fn(np.array([[20.2, 5.1, 3.9, 0.5], [20.9, 5.8, 3.1, 0.5]]))
    assert a[0] == a[1] and a[0] < 0
    assert problem.fn(np.array([[20.2, 5.1, 3.9, 0.5]]))[0] == a[0]


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


def test_botorch_reference_runs_through_the_loop():
    trace = run(get_benchmark("branin"), make_optimizer("botorch-logei", 2, seed=0, num_restarts=2,
                                                        raw_samples=32), budget=7, seed=0, n_init=4)
    assert len(trace.f) == 7 and np.all(np.isfinite(trace.f))
