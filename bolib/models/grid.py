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

:class:`GridRun` is the one harness of the papers' finite-domain runs (001's theory grid, 003's D.1
testbed, 004's synthetic tasks): the objective's values on the domain, a fixed sequence of observation
noise, the posteriors conditioned on every observation, and a loop whose step (a paper's rule)
picks the query and returns what it records.
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


class GridRun:
    """A sequential run on a finite domain with objective values ``f`` (one per domain point).

    The k-th observation (in the order made) is y = f[i] + ``noise[k]`` (``noise=None``: exact
    observations). :meth:`observe` conditions every posterior of ``posteriors`` on it (or on the label
    a rule makes of it) and keeps the queried ``indices`` and observations ``y``. :meth:`run` calls a
    rule's ``step(t)`` for t = 1..T; the step observes its queries and returns the step's records,
    which come back stacked over the T steps.
    """

    def __init__(self, f, noise=None, posteriors=()):
        self.f = np.asarray(f, dtype=float)
        self.noise = noise
        self.posteriors = list(posteriors)
        self.indices: list[int] = []
        self.y: list[float] = []

    def observe(self, i: int, label=None, update=None) -> float:
        """Observe the domain point ``i``: y = f[i] plus the next noise value. The posteriors are
        conditioned on ``label(y)`` (default y) by ``update(i, value)`` (default: every posterior's
        :meth:`GridPosterior.update`). Returns y."""
        i = int(i)
        y = self.f[i] if self.noise is None else self.f[i] + self.noise[len(self.y)]
        value = y if label is None else label(y)
        if update is None:
            for post in self.posteriors:
                post.update(i, value)
        else:
            update(i, value)
        self.indices.append(i)
        self.y.append(y)
        return y

    def run(self, T: int, step) -> dict[str, np.ndarray]:
        """``step(t)`` for t = 1..T; each returns a dict of that step's records (numbers or arrays),
        returned as arrays over the steps (first axis t)."""
        if T < 1:
            raise ValueError(f"T must be >= 1; got {T}")
        rows = [step(t) for t in range(1, T + 1)]
        return {key: np.array([row[key] for row in rows]) for key in rows[0]}


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
