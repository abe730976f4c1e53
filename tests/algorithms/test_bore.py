import math

import numpy as np
import pytest
import torch
from scipy.optimize import brentq

from bolib.algorithms import make_optimizer
from bolib.algorithms.bore_classifiers import PLSClassifier, quantile_labels, theorem1_beta
from bolib.algorithms.svgd import svgd
from bolib.loop import Trace, bo_job
from bolib.models.grid import GridPosterior


def rbf(A, B, ell=0.1):
    return np.exp(-((A[:, None, :] - B[None]) ** 2).sum(-1) / (2 * ell ** 2))


@pytest.fixture
def labelled():
    rng = np.random.default_rng(3)
    X = rng.random((25, 2))
    z = (rng.random(25) < 0.3).astype(float)
    return X, z, rng.random((40, 2))


def test_pls_classifier_is_the_gp_posterior_mean_on_the_labels(labelled):
    X, z, Xc = labelled
    lam = 0.025
    pls = PLSClassifier(2, lam, "rbf", 0.1).fit(X, z)
    mean, std = pls.predict(Xc)
    expected = rbf(Xc, X) @ np.linalg.solve(rbf(X, X) + lam * np.eye(len(X)), z)  # eq. 13
    np.testing.assert_allclose(mean, expected, atol=1e-10)


def test_pls_band_matches_theorem1(labelled):
    X, z, Xc = labelled
    lam, b, delta = 0.025, 1.0, 0.1
    pls = PLSClassifier(2, lam, "rbf", 0.1).fit(X, z)
    _, std = pls.predict(Xc)
    K, k = rbf(X, X), rbf(Xc, X)
    var = 1.0 - np.einsum("ij,ji->i", k, np.linalg.solve(K + lam * np.eye(len(X)), k.T))
    np.testing.assert_allclose(std ** 2, var, atol=1e-10)  # latent variance, not multiplied by lambda
    log_det = np.linalg.slogdet(np.eye(len(X)) + K / lam)[1]
    assert pls.log_det() == pytest.approx(log_det, rel=1e-10)
    expected = b + math.sqrt(2 / lam * (0.5 * log_det + math.log(1 / delta)))
    assert pls.beta(b, delta) == pytest.approx(expected, rel=1e-9)
    assert theorem1_beta(0.0, lam, b, delta) == pytest.approx(b + math.sqrt(2 / lam * math.log(10)))


def test_grid_posterior_with_noise_lambda_is_the_pls_classifier(labelled):
    X, z, Xc = labelled
    grid = np.vstack([X, Xc])
    post = GridPosterior(rbf(grid, grid), tau=0.025)
    for i, zi in enumerate(z):
        post.update(i, zi)
    mean, std = PLSClassifier(2, 0.025, "rbf", 0.1).fit(X, z).predict(grid)
    np.testing.assert_allclose(post.mean, mean, atol=1e-9)
    np.testing.assert_allclose(post.std, std, atol=1e-7)


def test_quantile_labels_give_at_least_one_positive():
    rng = np.random.default_rng(0)
    for n in range(1, 40):
        for gamma in (0.01, 0.25, 0.5, 0.99):
            losses = rng.normal(size=n)
            tau, z = quantile_labels(losses, gamma)
            assert z.sum() == math.ceil(gamma * n) and tau in losses
            tied = np.round(losses, 0)  # many ties: still at least ceil(gamma n) positives
            assert quantile_labels(tied, gamma)[1].sum() >= max(1, math.ceil(gamma * n))
    with pytest.raises(ValueError):
        quantile_labels([1.0, 2.0], 0.0)


def test_bore_labels_the_largest_observations_positive():
    opt = make_optimizer("bore-pls", 1, 0, n_init=4)
    X = np.array([[0.1], [0.2], [0.3], [0.4]])
    opt.tell(X, [1.0, 5.0, 2.0, 0.0])  # bolib maximises: 5 is the best, i.e. the smallest loss -5
    _, z = opt.labels()
    np.testing.assert_array_equal(z, [0, 1, 0, 0])


@pytest.mark.parametrize("space", ["x", "logit"])
def test_svgd_particles_match_a_gaussian_target(space):
    mu = torch.tensor([0.5, 0.4], dtype=torch.float64)
    C = torch.tensor([[0.010, 0.004], [0.004, 0.0064]], dtype=torch.float64)
    P = torch.linalg.inv(C)

    def log_p(X):
        d = X - mu
        return -0.5 * ((d @ P) * d).sum(1)

    X = svgd(log_p, np.random.default_rng(0).random((60, 2)), 1500, step_size=3e-3, space=space)
    np.testing.assert_allclose(X.mean(0), mu.numpy(), atol=0.01)
    np.testing.assert_allclose(np.cov(X.T), C.numpy(), rtol=0.25, atol=5e-4)


def test_svgd_without_repulsion_would_collapse():
    """Negative control: the repulsive term is what keeps the particles apart; with one particle
    SVGD is gradient ascent and ends at the mode of the density in the space it moves in: x = 0.3 on
    the cube, and in logit coordinates where d/dz [log p(x) + log x(1 - x)] = 0, i.e.
    -(x - 0.3) / 0.01 x (1 - x) + 1 - 2x = 0."""
    log_p = lambda X: -((X - 0.3) ** 2).sum(1) / 0.02  # noqa: E731
    modes = {"x": 0.3, "logit": brentq(lambda x: -(x - 0.3) / 0.01 * x * (1 - x) + 1 - 2 * x, 0.2, 0.5)}
    for space, mode in modes.items():
        X = svgd(log_p, np.array([[0.9, 0.9]]), 3000, step_size=3e-3, space=space)
        np.testing.assert_allclose(X[0], [mode, mode], atol=2e-3)
        spread = svgd(log_p, np.random.default_rng(1).random((30, 2)), 1000, step_size=3e-3, space=space).std(0)
        assert np.all(spread > 0.03)


def test_bore_plus_plus_theory_beta_explores_more_than_bore_pls():
    a = make_optimizer("bore++", 1, 0, n_init=3, beta="theory", kernel="rbf", n_candidates=200, maxiter=20)
    opt = make_optimizer("bore-pls", 1, 0, n_init=3, kernel="rbf", n_candidates=200, maxiter=20)
    X = np.array([[0.1], [0.12], [0.14]])
    for o in (a, opt):
        o.tell(X, [1.0, 0.0, -1.0])
    assert opt.ask(1)[0, 0] < 0.1  # the PLS mean peaks at the positive point, pushed away from the negatives
    x = a.ask(1)[0, 0]
    assert a.beta_t() > 20 and abs(x - 0.12) > 0.2  # the band sends BORE++ far away


def test_batch_bore_plus_plus_target_is_eq_20s_clipped_upper_bound():
    """log pi_{t,delta} with pi_{t,delta} = min(1, max(0, pi_hat + beta sigma)): 0 where the band exceeds 1,
    log 1e-6 where it is below 0, log of the band in between."""
    opt = make_optimizer("batch-bore++", 1, 0, n_init=3, kernel="rbf", svgd_steps=5)
    X = np.array([[0.1], [0.12], [0.14]])
    opt.tell(X, [1.0, 0.0, -1.0])
    opt.fit_classifier()
    grid = torch.linspace(0, 1, 201, dtype=torch.float64)[:, None]
    score, target = opt.score(grid), opt.log_target(grid, "prob")
    assert (score > 1).any()  # beta = 3 takes the band above 1 far from the data
    expected = torch.log(score.clamp(1e-6, 1.0))
    torch.testing.assert_close(target, expected)
    assert target.max() <= 0.0


@pytest.mark.parametrize("method,settings", [("optuna-tpe", {}), ("botorch-logei", {"num_restarts": 2, "raw_samples": 32})])
def test_tpe_and_botorch_qei_run_through_the_loop_in_batches(method, settings):
    tr = Trace.from_dict(bo_job("branin", method, 0, 20, n_init=10, mode="sync", batch_size=5, settings=settings))
    assert tr.X.shape == (20, 2) and len(np.unique(tr.X.round(9), axis=0)) == 20
    assert tr.round.max() == 2


def test_batch_bore_returns_a_batch_of_distinct_points():
    opt = make_optimizer("batch-bore", 2, 0, n_init=10, steps=20, svgd_steps=100)
    X = np.random.default_rng(0).random((10, 2))
    opt.tell(X, -((X - 0.5) ** 2).sum(1))
    B = opt.ask(10)
    assert B.shape == (10, 2) and len(np.unique(B.round(6), axis=0)) == 10


def test_rff_logistic_classifier_separates_labels_and_refits_from_the_prior():
    from bolib.algorithms.bore_classifiers import RFFLogisticClassifier

    rng = np.random.default_rng(0)
    X = np.vstack([0.2 + 0.05 * rng.random((15, 2)), 0.75 + 0.05 * rng.random((15, 2))])
    z = np.r_[np.ones(15), np.zeros(15)]
    clf = RFFLogisticClassifier(2, seed=0, lengthscale=0.2).fit(X, z)
    with torch.no_grad():
        mean, std = clf.logit_posterior(torch.as_tensor(np.vstack([X, [[0.95, 0.05]]])))
    assert np.all(mean[:15].numpy() > 0) and np.all(mean[15:30].numpy() < 0)
    assert std[-1] > 1.5 * std[:30].max() and std[-1] > 0.9  # far from the data: about the prior sd, 1
    first = clf.mean.clone()
    clf.fit(X, z)  # refitting on the same data starts from the prior again: no double counting
    np.testing.assert_allclose(clf.mean.numpy(), first.numpy(), atol=1e-10)
