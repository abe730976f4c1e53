"""Paper 004's meta-BO baselines: RGPE's ranking weights, TAF's discordance weights, MTBO, through the loop."""
import numpy as np
import pytest

from bolib.algorithms import make_optimizer
from bolib.algorithms.meta_baselines import (discordance, loo_ranking_loss, ranking_loss, rgpe_weights,
                                             taf_weights)
from bolib.benchmarks import get_benchmark
from bolib.loop import run
from tests.algorithms.test_rm_bo import meta_problem


def test_ranking_loss_counts_misordered_pairs():
    y = np.array([0.0, 1.0, 2.0])
    assert ranking_loss([[0.0, 1.0, 2.0]], y).tolist() == [0]
    assert ranking_loss([[2.0, 1.0, 0.0]], y).tolist() == [6]  # every ordered pair of 3 points
    assert ranking_loss([[1.0, 0.0, 2.0]], y).tolist() == [2]  # one pair swapped, counted both ways


def test_loo_ranking_loss_uses_the_held_out_value():
    y = np.array([0.0, 1.0, 2.0])
    good = np.tile(y, (3, 1))[None]  # every LOO model orders all points correctly
    bad = good.copy()
    bad[0, 0, 0] = 5.0  # the model without point 0 predicts it above the others
    assert loo_ranking_loss(good, y).tolist() == [0]
    assert loo_ranking_loss(bad, y).tolist() == [2]


def test_rgpe_weights_hand_made_example():
    target = np.array([2, 2, 6, 2])
    meta = np.array([[0, 0, 5, 5],    # best in draws 0 and 1
                     [5, 5, 1, 2],    # best in draw 2, ties the target in draw 3 (the target wins)
                     [9, 9, 9, 0]])   # best in draw 3, but its median 9 > the target's 95th percentile: dropped
    np.testing.assert_allclose(rgpe_weights(meta, target), [0.5, 0.25, 0.0, 0.25])


def test_rgpe_dilution_guard_drops_a_model_worse_than_the_target():
    target = np.array([3, 3, 3, 4, 4])
    meta = np.array([[9, 9, 9, 0, 0]])  # median 9 > the target's 95th percentile: dropped
    np.testing.assert_allclose(rgpe_weights(meta, target), [0.0, 1.0])


def test_taf_discordance_and_weights():
    y = np.array([0.0, 1.0, 2.0, 3.0])
    assert discordance(y, y) == 0.0
    assert discordance(-y, y) == 1.0
    np.testing.assert_allclose(taf_weights([0.0, 0.25, 0.5, 0.9]), [0.75, 0.5625, 0.0, 0.0])


@pytest.mark.parametrize("method", ["rgpe", "taf", "mtbo"])
def test_meta_baselines_run_through_the_loop(method):
    problem = meta_problem(M=2, N=6, shift=500.0)
    settings = {"n_candidates": 100, "maxiter": 10, **({"n_samples": 32} if method == "rgpe" else {})}
    opt = make_optimizer(method, 2, 0, n_init=4, **settings)
    trace = run(problem, opt, 7, 0, n_init=4)
    assert len(trace.y) == 7 and np.all((trace.X >= 0) & (trace.X <= 1))
    if method != "mtbo":
        weights = np.array(opt.history[-1]["weights"])
        assert weights.min() >= 0
    if method != "mtbo":
        assert len(weights) == 3  # the two previous tasks', then the target model's
    if method == "rgpe":
        assert weights.sum() == pytest.approx(1.0)
    if method == "taf":
        assert weights[-1] == 0.75


@pytest.mark.parametrize("method", ["rgpe", "taf", "mtbo"])
def test_meta_baselines_need_previous_tasks(method):
    with pytest.raises(ValueError, match="meta\\['tasks'\\]"):
        make_optimizer(method, 2, 0).prepare(get_benchmark("branin"))


def test_mtbo_fit_is_capped_and_gives_a_sensible_target_posterior(monkeypatch):
    import botorch.fit

    from bolib.algorithms import meta_baselines

    seen = []
    original = botorch.fit.fit_gpytorch_mll
    monkeypatch.setattr(botorch.fit, "fit_gpytorch_mll", lambda mll, **kw: seen.append(kw) or original(mll, **kw))
    rng = np.random.default_rng(0)
    tasks = [(rng.random((7, 3)), rng.standard_normal(7)) for _ in range(4)]
    X = rng.random((6, 3))
    y = np.sin(3 * X.sum(1))
    model = meta_baselines._MultiTaskModel(tasks, rank=1).fit(X, y)
    assert seen and seen[0]["optimizer_kwargs"]["options"]["maxiter"] == meta_baselines.FIT_MAXITER
    mean, sd = model.predict(X)
    print("MTBO fitted:", {n: p.detach().numpy().round(3).tolist() for n, p in model.model.named_parameters()})
    assert np.all(np.isfinite(mean)) and np.all(sd >= 0) and np.corrcoef(mean, y)[0, 1] > 0.5


def test_joint_samples_fall_back_to_the_nearest_psd_covariance_where_cholesky_fails():
    import torch

    from bolib.algorithms.meta_baselines import joint_samples

    class Indefinite:  # a posterior whose covariance has a clearly negative eigenvalue
        cov = np.array([[1.0, 1.2], [1.2, 1.0]])  # eigenvalues 2.2 and -0.2

        def sample(self, X, n, rng):
            return np.random.default_rng(0).multivariate_normal(np.zeros(2), self.cov, n, method="cholesky")

        def posterior(self, X, full_cov=False):
            return torch.zeros(2, dtype=torch.float64), torch.as_tensor(self.cov)

    draws = joint_samples(Indefinite(), np.zeros((2, 1)), 4000, np.random.default_rng(1))
    # the nearest PSD covariance keeps the eigenvalue 2.2 on (1, 1)/sqrt 2: both coordinates equal, variance 1.1
    np.testing.assert_allclose(draws[:, 0], draws[:, 1], atol=1e-12)
    assert abs(draws[:, 0].var() - 1.1) < 0.1
