"""Exact GP posterior on a finite domain with rank-1 updates: the setting of the regret theorems.

On a finite domain G = {g_1..g_m} with a *known* kernel, conditioning on one more observation at a
domain point costs O(n m) instead of a new O(n^3 + n^2 m) solve. With L the Cholesky factor of
K_XX + tau I and V = L^{-1} K_XG, w = L^{-1} y, a new point x_new = g_i gives

    l   = V[:, i]                         (= L^{-1} k_X(x_new))
    d_n = sqrt(k(x_new, x_new) + tau - ||l||^2)
    v   = (K_G,i - V^T l) / d_n           (the new row of V)
    w_n = (y_new - l^T w) / d_n           (the new entry of w)
    mu  += w_n v,   sigma^2 -= v^2

so mu = V^T w and sigma^2 = diag(K_GG) - sum_rows V^2 hold after every step. ``tau = 0`` (up to a
tiny jitter) is the noise-free posterior mu_{t,0}, sigma_{t,0} of paper 001; ``tau = lambda`` gives
the regularised mu_{t,lambda}, sigma_{t,lambda} that appear in its proofs.
"""
from __future__ import annotations

import numpy as np


class GridPosterior:
    """GP(0, k) posterior on a finite domain with kernel matrix ``K`` (m x m), updated point by point.

    A point already in the design (same index) is recorded but adds no row (noise-free data carry no
    new information there).
    """

    def __init__(self, K: np.ndarray, tau: float = 1e-10, max_points: int = 1024):
        self.K = np.asarray(K, dtype=float)
        self.tau = float(tau)
        m = len(self.K)
        self.V = np.empty((max_points, m))
        self.w = np.empty(max_points)
        self.n = 0
        self.indices: list[int] = []
        self.mean = np.zeros(m)
        self.var = np.diag(self.K).copy()

    @property
    def std(self) -> np.ndarray:
        return np.sqrt(np.maximum(self.var, 0.0))

    def update(self, i: int, y: float) -> None:
        """Condition on the observation ``y`` at domain index ``i``."""
        i = int(i)
        if i in self.indices and self.tau < 1e-6:
            return
        if self.n == len(self.V):
            self.V = np.vstack([self.V, np.empty_like(self.V)])
            self.w = np.concatenate([self.w, np.empty_like(self.w)])
        V = self.V[: self.n]
        l = V[:, i]
        d = np.sqrt(max(self.K[i, i] + self.tau - l @ l, 1e-300))
        v = (self.K[:, i] - V.T @ l) / d
        w = (y - l @ self.w[: self.n]) / d
        self.V[self.n], self.w[self.n] = v, w
        self.n += 1
        self.indices.append(i)
        self.mean += w * v
        self.var -= v * v


def grid_kernel_matrix(kernel: str, grid: np.ndarray, lengthscale: float) -> np.ndarray:
    """Unit-variance kernel matrix of a registered kernel (GPyTorch) on ``grid`` (m x d)."""
    from bolib.models.kernels import kernel_matrix, make_kernel

    k = make_kernel(kernel, grid.shape[1], lengthscale=lengthscale, outputscale=1.0)
    return kernel_matrix(k, grid).detach().numpy()


def unit_grid(points_per_dim: int, dim: int) -> np.ndarray:
    """The regular grid with ``points_per_dim`` points per axis on [0, 1]^dim (rows: points)."""
    axis = np.linspace(0.0, 1.0, points_per_dim)
    return np.stack(np.meshgrid(*[axis] * dim, indexing="ij"), -1).reshape(-1, dim)


def sample_on_grid(K: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A draw f ~ N(0, K) on the grid, via the symmetric eigendecomposition.

    Cholesky fails for the smooth kernels (K is numerically rank-deficient); U sqrt(max(lam, 0)) z
    does not.
    """
    lam, U = np.linalg.eigh(K)
    return U @ (np.sqrt(np.maximum(lam, 0.0)) * rng.standard_normal(len(K)))
