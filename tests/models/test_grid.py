"""Exact GP posteriors on a finite domain (bolib.models.grid): rank-1 updates and draws on the grid."""
import numpy as np

from bolib.models.grid import GridPosterior, grid_kernel_matrix, sample_on_grid, unit_grid
from bolib.runtime import rng


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


def test_sample_on_grid_has_the_kernel_covariance():
    grid = unit_grid(15, 1)
    K = grid_kernel_matrix("rbf", grid, 0.3)
    stream = rng(0, "t")
    draws = np.array([sample_on_grid(K, stream) for _ in range(4000)])
    np.testing.assert_allclose(np.cov(draws.T), K, atol=0.08)
