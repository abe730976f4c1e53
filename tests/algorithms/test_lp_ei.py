"""LP-EI (González et al. 2016): the local penaliser, the estimates of L and M, and the greedy batch."""
import numpy as np
import torch

from bolib import acquisition as acq
from bolib.algorithms import make_optimizer
from bolib.algorithms.lp_ei import log_penalizer, mean_gradient_norm


def bump(X):
    """One smooth mode at 0.3 on [0, 1]."""
    return np.exp(-((np.atleast_2d(X)[:, 0] - 0.3) ** 2) / (2 * 0.15 ** 2))


def fitted(seed=0, n=8, **settings):
    opt = make_optimizer("lp-ei", 1, seed=seed, noise=1e-6, **settings)
    X = np.linspace(0.0, 1.0, n)[:, None]
    opt.tell(X, bump(X))
    return opt


def penalizer(x, centre, mu, sigma, L, M):
    return float(torch.exp(log_penalizer(torch.tensor([[x]], dtype=torch.float64), np.array([centre]), mu, sigma, L, M)))


def test_penalizer_is_small_at_its_centre_and_one_far_away():
    # a point whose mean lies 3 sigma below M: phi(x_j) = Phi(-3)
    L, M, mu, sigma = 4.0, 1.0, 0.7, 0.1
    assert abs(penalizer(0.5, 0.5, mu, sigma, L, M) - 0.00135) < 1e-4
    assert penalizer(0.5 + 0.5, 0.5, mu, sigma, L, M) > 1 - 1e-12  # L * 0.5 - 0.3 = 1.7 = 17 sigma
    # the radius (M - mu) / L is where phi = 1/2
    assert abs(penalizer(0.5 + (M - mu) / L, 0.5, mu, sigma, L, M) - 0.5) < 1e-12


def test_lipschitz_estimate_matches_the_mean_gradient_on_a_grid():
    opt = fitted()
    gp = opt.fit_model()
    grid = np.linspace(0, 1, 2001)[:, None]
    on_grid = mean_gradient_norm(gp, grid).max()
    # the mean of bump: max |f'| = exp(-1/2) / 0.15
    assert abs(on_grid - np.exp(-0.5) / 0.15) < 0.05 * on_grid
    assert abs(opt.lipschitz(gp) - on_grid) < 1e-3 * on_grid


def test_max_estimate_is_at_least_the_mean_at_every_point():
    opt = fitted()
    gp = opt.fit_model()
    mean = gp.predict(np.linspace(0, 1, 2001)[:, None])[0]
    M = opt.max_estimate(gp)
    assert M >= opt.y.max() and M >= mean.max() - 1e-9


def test_first_batch_point_is_the_ei_maximiser():
    opt = fitted(n_candidates=500, maxiter=50)
    X = opt.ask(5)
    gp = opt.fit_model()
    grid = np.linspace(0, 1, 20001)[:, None]
    mean, std = gp.predict(grid)
    ei = acq.expected_improvement(torch.tensor(mean), torch.tensor(std), float(opt.y.max())).numpy()
    assert abs(X[0, 0] - grid[np.argmax(ei), 0]) < 1e-3


def test_batch_points_are_distinct_and_outside_each_others_exclusion_radius():
    opt = fitted(n_candidates=500, maxiter=50)
    X = opt.ask(5)
    gp = opt.fit_model()
    L, M = opt.history[-1]["L"], opt.history[-1]["M"]
    mu = gp.predict(X)[0]
    radius = (M - mu) / L
    assert np.all(radius >= 0)
    assert len(np.unique(X.round(9), axis=0)) == 5
    for j in range(1, 5):  # each point keeps off the exclusion balls of the points chosen before it
        assert np.all(np.abs(X[j, 0] - X[:j, 0]) > radius[:j]), (X.ravel(), radius)


def test_without_penalisers_the_batch_would_collapse_onto_one_point():
    """Negative control of the batch test: the same acquisition, unpenalised, gives one point 5 times."""
    opt = fitted(n_candidates=500, maxiter=50)
    gp = opt.fit_model()
    firsts = []
    for _ in range(5):
        x, _ = acq.maximize(lambda X: acq.expected_improvement(*(lambda m, v: (m, v.sqrt()))(*gp.posterior(X)),
                                                               float(opt.y.max())),
                            1, opt.rng, n_candidates=500, maxiter=50)
        firsts.append(x[0])
    assert np.ptp(firsts) < 1e-3

