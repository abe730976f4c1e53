"""Baseline optimisers (bolib.algorithms.baselines): the SUP rule for GP-UCB's beta (paper 001, Sec. 5)."""
import numpy as np
import pytest

from bolib.algorithms.baselines import beta_sup
from bolib.benchmarks import get_benchmark
from bolib.models import GP


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
