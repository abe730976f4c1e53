"""Exact GP posteriors on a finite domain (bolib.models.grid): rank-1 updates, draws on the grid and
the run harness."""
import numpy as np

import pytest

from bolib.models.grid import GridPosterior, GridRun, grid_kernel_matrix, sample_on_grid, unit_grid
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


def test_grid_run_observes_noise_in_order_and_conditions_on_the_labels():
    grid = unit_grid(21, 1)
    K = grid_kernel_matrix("rbf", grid, 0.2)
    f = np.cos(5 * grid[:, 0])
    noise = np.array([0.1, -0.2, 0.3, 0.05])
    posts = [GridPosterior(K, 0.01), GridPosterior(K, 0.1)]
    run = GridRun(f, noise, posts)
    run.observe(4)

    def step(t):
        i = [10, 20, 4][t - 1]
        record = {"t": t, "mean_at": posts[0].mean[i], "row": np.full(2, float(t))}
        run.observe(i, label=lambda y: float(y <= 0.5))
        return record

    out = run.run(3, step)
    assert run.indices == [4, 10, 20, 4]
    np.testing.assert_array_equal(run.y, f[[4, 10, 20, 4]] + noise)
    assert out["t"].tolist() == [1, 2, 3] and out["row"].shape == (3, 2)
    labels = [run.y[0]] + [float(y <= 0.5) for y in run.y[1:]]
    for post in posts:  # both posteriors saw the first observation as y and the rest as labels
        reference = GridPosterior(K, post.tau)
        for i, label in zip(run.indices, labels):
            reference.update(i, label)
        np.testing.assert_array_equal(post.mean, reference.mean)
    first = GridPosterior(K, 0.01)
    first.update(4, run.y[0])
    assert out["mean_at"][0] == first.mean[10]  # a step records before it observes


def test_grid_run_without_noise_observes_f_and_refuses_no_steps():
    f = np.arange(5.0)
    run = GridRun(f)
    assert run.observe(3) == 3.0 and run.y == [3.0]
    with pytest.raises(ValueError, match="T must be >= 1"):
        run.run(0, lambda t: {})
