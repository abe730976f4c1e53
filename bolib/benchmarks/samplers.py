"""Random test functions with known structure, on the unit cube.

* :func:`gp_sample`: an (approximate) draw f ~ GP(0, k) as a random-feature function
  f(x) = phi(x)^T w, w ~ N(0, I) (see :mod:`bolib.models.rff`), so it can be evaluated anywhere.
* :func:`rkhs_function`: f = sum_j alpha_j k(., z_j), an element of the RKHS of k with the exactly
  known norm ||f||_H = sqrt(alpha^T K_zz alpha) (optionally rescaled to a target norm).

Their maxima are not known in closed form; they are certified by multistart L-BFGS-B.
"""
from __future__ import annotations

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark, multistart_maximum
from bolib.models.kernels import kernel_matrix, make_kernel
from bolib.models.rff import RandomFeatures
from bolib.runtime import rng as make_rng


def _unit_box(dim):
    return np.array([np.zeros(dim), np.ones(dim)])


def _certified(name, fn, dim, rng, meta) -> Problem:
    x, value = multistart_maximum(fn, _unit_box(dim), rng)
    return Problem(name, fn, _unit_box(dim), value, x[None], meta=meta)


def gp_sample(kernel: str, dim: int, rng: np.random.Generator, lengthscale: float = 0.2,
              outputscale: float = 1.0, n_pairs: int = 1000, certify: bool = True) -> Problem:
    """A random-feature draw from GP(0, k) on [0, 1]^dim (``certify=False``: optimum left NaN)."""
    features = RandomFeatures(kernel, dim, n_pairs, rng, lengthscale, outputscale)
    w = rng.standard_normal(features.n_features)
    meta = {"kernel": kernel, "lengthscale": lengthscale, "outputscale": outputscale, "n_pairs": n_pairs}
    if not certify:
        return Problem(f"gp-{kernel}", lambda X: features(X) @ w, _unit_box(dim), meta=meta)
    return _certified(f"gp-{kernel}", lambda X: features(X) @ w, dim, rng, meta)


def rkhs_function(kernel: str, dim: int, rng: np.random.Generator, n_centers: int = 20,
                  lengthscale: float = 0.2, norm: float | None = None, certify: bool = True) -> Problem:
    """f = sum_j alpha_j k(., z_j) with alpha ~ N(0, I), z ~ U[0, 1]^dim; ``meta['rkhs_norm']`` is exact.

    ``certify=False`` skips the multistart search for the maximum (``optimum`` is then NaN), for
    callers that only evaluate f on a finite domain.
    """
    k = make_kernel(kernel, dim, lengthscale=lengthscale, outputscale=1.0)
    centers = rng.random((n_centers, dim))
    alpha = rng.standard_normal(n_centers)
    K = kernel_matrix(k, centers).detach().numpy()
    f_norm = float(np.sqrt(alpha @ K @ alpha))
    if norm is not None:
        alpha, f_norm = alpha * norm / f_norm, float(norm)

    def fn(X):
        return kernel_matrix(k, np.atleast_2d(X), centers).detach().numpy() @ alpha

    meta = {"kernel": kernel, "lengthscale": lengthscale, "rkhs_norm": f_norm,
            "centers": centers, "alpha": alpha}
    if not certify:
        return Problem(f"rkhs-{kernel}", fn, _unit_box(dim), meta=meta)
    return _certified(f"rkhs-{kernel}", fn, dim, rng, meta)


@benchmark(2)
def gp_draw(d, kernel: str = "matern15", lengthscale: float = 0.2, draw_seed: int = 0, stream: str = "draw",
            n_pairs: int = 1000, certify: bool = True):
    """A GP draw (:func:`gp_sample`) from the stream ``rng(draw_seed, stream)``: one function per seed."""
    return gp_sample(kernel, d, make_rng(draw_seed, stream), lengthscale=lengthscale, n_pairs=n_pairs,
                     certify=certify)
