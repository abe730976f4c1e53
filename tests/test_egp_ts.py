"""Paper 000 pieces: the random-feature GP ensemble and EGP-TS (spec 000, E0)."""
import numpy as np
import pytest
from scipy.optimize import check_grad

from bolib.algorithms import make_optimizer
from bolib.algorithms.egp_ts import DICTIONARIES, maximize_features
from bolib.benchmarks import get_benchmark
from bolib.loop import run
from bolib.models.ensemble import RFEnsemble
from bolib.models.rff import RandomFeatures
from bolib.runtime import rng

FAST = {"n_candidates": 200, "n_starts": 1}


def _ensemble(seed=0, dim=2):
    stream = rng(seed, "ens")
    features = [RandomFeatures(k, dim, 30, stream, ls) for k, ls in
                (("rbf", 0.1), ("rbf", 0.5), ("matern15", 0.3), ("matern25", 1.0))]
    return RFEnsemble(features, [0.01, 0.02, 0.05, 0.01])


def _data(n=25, dim=2, seed=1):
    X = np.random.default_rng(seed).random((n, dim))
    return X, np.sin(4 * X[:, 0]) * np.cos(3 * X[:, 1])


def test_recursive_weights_and_posteriors_equal_the_batch_ones():
    X, y = _data()
    recursive, batch = _ensemble(), _ensemble().fit(X, y)
    for x, value in zip(X, y):
        recursive.update(x[None], value)
    np.testing.assert_allclose(recursive.log_weights, batch.log_weights, rtol=0, atol=1e-8)
    for a, b in zip(recursive.models, batch.models):
        np.testing.assert_allclose(a.mean, b.mean, atol=1e-8)
        np.testing.assert_allclose(a.cov, b.cov, atol=1e-8)
    assert np.isclose(recursive.weights.sum(), 1.0)


def test_a_synchronous_batch_gives_the_same_posterior_in_any_order():
    X, y = _data(12)
    first, second = _ensemble().fit(X[:4], y[:4]), _ensemble().fit(X[:4], y[:4])
    for i in range(4, 12):
        first.update(X[i][None], y[i])
    for i in reversed(range(4, 12)):
        second.update(X[i][None], y[i])
    np.testing.assert_allclose(first.log_weights, second.log_weights, atol=1e-8)
    np.testing.assert_allclose(first.models[2].mean, second.models[2].mean, atol=1e-8)


def test_thompson_samples_have_the_posterior_mean_on_average():
    X, y = _data()
    ens = _ensemble().fit(X, y)
    stream = rng(0, "ts")
    draws = {}
    for _ in range(4000):
        m, theta = ens.sample(stream)
        draws.setdefault(m, []).append(theta)
    grid = np.random.default_rng(3).random((50, 2))
    for m, thetas in draws.items():
        if len(thetas) < 500:
            continue
        phi = ens.features[m](grid)
        np.testing.assert_allclose(phi @ np.mean(thetas, axis=0), phi @ ens.models[m].mean, atol=0.05)
    counts = np.bincount([m for m, v in draws.items() for _ in v], minlength=4) / 4000
    np.testing.assert_allclose(counts, ens.weights, atol=0.03)


def test_weight_floor_only_changes_the_sampling():
    X, y = _data()
    ens = _ensemble().fit(X, y)
    before = ens.log_weights.copy()
    stream = rng(0, "floor")
    picks = np.bincount([ens.sample(stream, floor=0.2)[0] for _ in range(2000)], minlength=4) / 2000
    assert picks.min() > 0.1
    np.testing.assert_array_equal(ens.log_weights, before)


def test_feature_maximiser_gradient_and_optimum():
    stream = rng(0, "max")
    features = RandomFeatures("matern25", 3, 40, stream, 0.3, 2.0)
    theta = stream.standard_normal(features.n_features)
    D, scale = features.n_pairs, np.sqrt(2.0 / 40)

    def value(u):
        return float((features(u[None]) @ theta)[0])

    def grad(u):
        proj = features.omega @ u
        return scale * features.omega.T @ (-np.sin(proj) * theta[:D] + np.cos(proj) * theta[D:])

    assert check_grad(value, grad, np.array([0.2, 0.5, 0.7])) < 1e-6
    u = maximize_features(features, theta, stream, n_candidates=2000, n_starts=5)
    dense = stream.random((20000, 3))
    assert value(u) >= (features(dense) @ theta).max() - 1e-6


@pytest.mark.parametrize("mode,batch", [("sequential", 1), ("sync", 3), ("async", 3)])
def test_egp_ts_runs_in_every_mode(mode, batch):
    opt = make_optimizer("egp-ts", 2, seed=0, refit_every=6, **FAST)
    trace = run(get_benchmark("branin"), opt, budget=16, seed=0, n_init=5, mode=mode, batch_size=batch)
    assert len(trace.f) == 16 and np.all(np.isfinite(trace.f))
    assert len(opt.history) == 11 and np.isclose(opt.ensemble.weights.sum(), 1.0)
    assert opt.labels == ["rbf", "rbf-ard", "matern15", "matern25"]


def test_rbf11_dictionary_keeps_lengthscales_fixed():
    opt = make_optimizer("egp-ts", 2, seed=0, dictionary="rbf11", **FAST)
    X, y = _data(15)
    opt.tell(X, y)
    fitted = [1.0 / np.abs(f.omega).mean() for f in opt.ensemble.features]
    assert len(opt.ensemble) == 11
    # the frequency scale follows the fixed lengthscales 10^c (ratio 10 between neighbours)
    assert np.allclose(np.diff(np.log10(fitted)), 1.0, atol=0.35)
    with pytest.raises(ValueError, match="rbf11"):
        make_optimizer("egp-ts", 2, dictionary="five")


def test_rf_gp_ts_is_a_single_member_refitted_every_step():
    opt = make_optimizer("rf-gp-ts", 2, seed=0, kernel="matern25", **FAST)
    run(get_benchmark("branin"), opt, budget=9, seed=0, n_init=5)
    assert len(opt.ensemble) == 1 and opt._fitted_at == 9
    assert DICTIONARIES["four"][3] == ("matern25", False, None)


def test_robot_pushing_world_is_deterministic_for_a_seed():
    from bolib.benchmarks.robot_pushing import robot_pushing

    U = np.random.default_rng(0).random((4, 3))
    a, b = robot_pushing(3, seed=2), robot_pushing(3, seed=2)
    np.testing.assert_array_equal(a(U), b(U))
    assert not np.array_equal(a(U), robot_pushing(3, seed=3)(U))  # another goal
    assert np.all(a(U) <= 5.0)
    # pushing straight at the object for a long time moves it away from the origin
    from bolib.benchmarks.robot_pushing import push

    final = push((-3.0, 0.0), 0.0, (5.0, 0.0), duration=20)
    assert final[0] > 1.0 and abs(final[1]) < 0.5
    with pytest.raises(ValueError, match="3 or 4"):
        robot_pushing(5, 0)


@pytest.mark.parametrize("method", ["bandit-bo", "exp3-bo", "egp-ei", "fb-gp-ts"])
def test_ensemble_baselines_run_and_record_their_member(method):
    extra = {"burn_in": 20, "steps": 3} if method == "fb-gp-ts" else {}
    opt = make_optimizer(method, 2, seed=0, n_candidates=200, n_starts=1, **extra)
    trace = run(get_benchmark("branin"), opt, budget=9, seed=0, n_init=5)
    assert np.all(np.isfinite(trace.f)) and len(opt.history) == 4
    assert all(0 <= h["member"] < (1 if method == "fb-gp-ts" else 4) for h in opt.history)


def test_exp3_rewards_the_pulled_member():
    opt = make_optimizer("exp3-bo", 2, seed=0, horizon=20, n_candidates=100, n_starts=1)
    X, y = _data(6)
    opt.tell(X, y)
    x = opt.ask(1)
    m = opt.history[-1]["member"]
    opt.tell(x, [y.max() + 1.0])  # the best value so far: reward 1
    assert opt.log_omega[m] > 0 and np.count_nonzero(opt.log_omega) == 1


def test_gp_log_evidence_matches_gpytorch():
    import gpytorch
    import torch

    from bolib.models import GP

    X, y = _data(20)
    gp = GP("matern25").fit(X, y)
    mll = gpytorch.mlls.ExactMarginalLogLikelihood(gp.model.likelihood, gp.model)
    gp.model.train()
    z = (torch.as_tensor(y) - gp.y_mean) / gp.y_std
    expected = float(mll(gp.model(gp.X), z)) * len(y)
    gp.model.eval()
    assert gp.log_evidence == pytest.approx(expected, rel=1e-6)


def test_mlp_search_space_matches_table_2():
    from bolib.benchmarks.tuning import mlp_hyperparameters

    low, high = mlp_hyperparameters([0, 0, 0, 0]), mlp_hyperparameters([1, 1, 1, 1])
    assert low["hidden_layer_sizes"] == (2, 2) and high["hidden_layer_sizes"] == (100, 100)
    assert low["learning_rate_init"] == pytest.approx(1e-6) and high["learning_rate_init"] == pytest.approx(0.1)
    assert (low["batch_size"], high["batch_size"]) == (4, 64)
    problem = get_benchmark("mlp-iris", repeats=1, epochs=3)
    u = np.array([[0.5, 0.5, 0.8, 0.5]])
    assert problem(u)[0] == problem(u)[0]  # deterministic (seeded trainings)


def test_fb_gp_ts_draws_hyperparameters_inside_the_prior_box():
    from bolib.algorithms.egp_ts import FB_PRIOR

    opt = make_optimizer("fb-gp-ts", 2, seed=0, burn_in=30, steps=5)
    X, y = _data(12)
    opt.tell(X, y)
    features = opt.ensemble.features[0]
    assert FB_PRIOR[0, 0] <= features.outputscale <= FB_PRIOR[1, 0]
    assert FB_PRIOR[0, 1] <= features.lengthscale[0] <= FB_PRIOR[1, 1]
    assert FB_PRIOR[0, 2] <= opt.ensemble.models[0].noise <= FB_PRIOR[1, 2]


def test_rf_exact_setting_oracle_beats_random_and_weights_concentrate():
    from bolib.papers.egp_ts import rf_exact_job

    runs = {rule: [rf_exact_job(rule, s, 48) for s in range(6)] for rule in ("egp-ts", "oracle", "random")}
    total = {rule: np.mean([r["regret"].sum() for r in v]) for rule, v in runs.items()}
    assert total["oracle"] < total["random"] and total["egp-ts"] < total["random"]
    assert np.mean([r["w_star"][-1] for r in runs["egp-ts"]]) > 0.5
    sync = rf_exact_job("egp-ts", 0, 16, batch_size=4)
    assert sync["round"].max() == 4 and len(sync["regret"]) == 16
    asynchronous = rf_exact_job("egp-ts", 0, 16, batch_size=4, mode="async")
    assert np.all(np.diff(asynchronous["time"]) >= 0)


def test_ard_random_features_converge_to_the_ard_kernel():
    from bolib.models.kernels import kernel_matrix, make_kernel

    X = np.random.default_rng(0).random((20, 3))
    ls = [0.2, 0.5, 1.0]
    exact = kernel_matrix(make_kernel("rbf", 3, ard=True, lengthscale=ls, outputscale=1.0), X).detach().numpy()
    Phi = RandomFeatures("rbf", 3, 20_000, np.random.default_rng(1), lengthscale=ls)(X)
    assert np.abs(Phi @ Phi.T - exact).max() < 0.05


def test_bo_job_returns_the_weight_history_of_egp_ts_on_a_gp_draw():
    from bolib.benchmarks import get_benchmark
    from bolib.loop import bo_job

    draw = {"kernel": "matern15", "lengthscale": 0.1, "stream": "e8", "n_pairs": 200, "certify": False}
    out = bo_job("gp-draw", "egp-ts", 0, budget=8, n_init=5, settings={"n_candidates": 100, "n_starts": 1},
                 benchmark_options={**draw, "draw_seed": 0})
    weights = np.array([h["weights"] for h in out["history"]])
    assert weights.shape == (3, 4) and np.allclose(weights.sum(1), 1.0)
    U = np.random.default_rng(0).random((5, 2))
    same = get_benchmark("gp-draw", **draw, draw_seed=0)(U)
    assert np.array_equal(same, get_benchmark("gp-draw", **draw, draw_seed=0)(U))
    assert not np.allclose(same, get_benchmark("gp-draw", **draw, draw_seed=1)(U))
