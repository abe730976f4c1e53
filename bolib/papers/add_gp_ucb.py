"""Paper 002, Add-GP-UCB (Kandasamy, Schneider & Póczos, "High dimensional Bayesian optimisation and
bandits via additive models", ICML 2015, arXiv:1503.01673): theory checks of the notebook
``002_addgpucb``.

The optimisers are in :mod:`bolib.algorithms.add_gp_ucb` and the synthetic functions in
:mod:`bolib.benchmarks.additive`; the BO runs are :func:`bolib.loop.bo_job`. Here:

* :func:`lemma7_sides`: both sides of Lemma 7 (the information gain as a sum of posterior variances
  and as a log-determinant), an identity checked as an invariant (C7).
* :func:`eq14_sums`: the summed eq. 14 of the proof of Theorem 5, sum_t sum_j sigma_j^2 <= C_1 sum_t
  log(1 + eta^-2 sigma^2), along a run that maximises sum_j sigma_j, next to the valid form with the full
  sigma^2 (C5-bug: the erratum).
* :func:`lemma10_coverage`: whether the band |f - mu| <= beta^{1/2} sum_j sigma_j of Lemma 10 holds on a
  whole product grid for functions drawn from the additive prior (C10).
"""
from __future__ import annotations

import math

import numpy as np
import torch

from bolib.models import GP
from bolib.models.kernels import kernel_matrix, make_kernel
from bolib.runtime import rng as make_rng


def _additive_gp(groups, lengthscale: float, total_scale: float, noise: float) -> GP:
    """A GP with a known tied-RBF additive kernel: prior variance ``total_scale`` shared equally by the groups."""
    return GP("rbf", groups=groups, tie="all", lengthscale=lengthscale, outputscale=total_scale, noise=noise,
              fit=False, standardize=False)


# ------------------------------------------------------------------------------------ Lemma 7
def lemma7_sides(K: np.ndarray, noise: float) -> tuple[float, float]:
    """Lemma 7 (Srinivas et al. 2010, Lemma 5.3) for the points behind ``K`` taken in order:

        1/2 sum_t log(1 + eta^-2 sigma_{t-1}^2(x_t))  and  1/2 log det(I + eta^-2 K_A),

    with sigma_{t-1}^2 the posterior variance after the first t - 1 points (noise variance eta^2 =
    ``noise``). The two are equal (chain rule of the Gaussian entropy)."""
    K = np.asarray(K, dtype=float)
    n = len(K)
    sequential = 0.0
    for t in range(n):
        if t == 0:
            var = K[0, 0]
        else:
            k = K[:t, t]
            var = K[t, t] - k @ np.linalg.solve(K[:t, :t] + noise * np.eye(t), k)
        sequential += 0.5 * math.log1p(var / noise)
    logdet = 0.5 * np.linalg.slogdet(np.eye(n) + K / noise)[1]
    return sequential, float(logdet)


def additive_kernel_matrix(X: np.ndarray, groups, lengthscale: float, total_scale: float = 1.0) -> np.ndarray:
    """K = sum_j k_j(X^(j), X^(j)) of a tied-RBF additive kernel (eq. 4)."""
    kernel = make_kernel("rbf", X.shape[1], groups=groups, tie="all", lengthscale=lengthscale, outputscale=total_scale)
    return kernel_matrix(kernel, X).detach().numpy()


# ------------------------------------------------------------------------------------ eq. 14
def eq14_sums(dim: int, group_dim: int, lengthscale: float, noise: float, T: int, n_candidates: int,
              rng: np.random.Generator) -> dict:
    """Both sides of the summed eq. 14 along a run of T points, and the valid form with the full sigma.

    The additive kernel has ``dim / group_dim`` groups and prior variance 1 (each group 1/M, so
    kappa(x, x) <= 1 as Theorem 5 assumes) and noise variance eta^2 = ``noise``. Each point maximises
    sum_j sigma_{j,t-1} (the acquisition's exploration term) over ``n_candidates`` fresh uniform
    candidates. With C_1 = 1 / log(1 + eta^-2) it returns, per step,

    * ``sum_sj2``: sum_j sigma_{j,t-1}^2(x_t) (what eq. 14 bounds);
    * ``s2``: sigma_{t-1}^2(x_t) (the full posterior variance);
    * ``bound``: C_1 log(1 + eta^-2 sigma_{t-1}^2(x_t)) (the right-hand side);

    and the totals ``lhs`` = sum ``sum_sj2``, ``full`` = sum ``s2`` and ``rhs`` = sum ``bound``.
    Eq. 14 claims lhs <= rhs; the valid inequality (Srinivas et al. 2010, Lemma 5.4, since
    sigma^2 <= kappa(x, x) <= 1) is full <= rhs, step by step.
    """
    groups = [list(range(s, min(s + group_dim, dim))) for s in range(0, dim, group_dim)]
    c1 = 1.0 / math.log1p(1.0 / noise)
    X = np.empty((0, dim))
    rows = []
    for _ in range(T):
        candidates = rng.random((n_candidates, dim))
        if len(X):
            gp = _additive_gp(groups, lengthscale, 1.0, noise).fit(X, np.zeros(len(X)))
            _, stds = gp.predict_groups(candidates)
            i = int(np.argmax(stds.sum(0)))
            s2 = float(gp.predict(candidates[i:i + 1])[1][0] ** 2)
            sum_sj2 = float((stds[:, i] ** 2).sum())
        else:
            i, s2, sum_sj2 = 0, 1.0, 1.0 / len(groups)
        rows.append((sum_sj2, s2, c1 * math.log1p(s2 / noise)))
        X = np.vstack([X, candidates[i]])
    sum_sj2, s2, bound = (np.array(col) for col in zip(*rows))
    return {"sum_sj2": sum_sj2, "s2": s2, "bound": bound, "lhs": float(sum_sj2.sum()), "full": float(s2.sum()),
            "rhs": float(bound.sum()), "c1": c1, "X": X}


def eq14_errors(sums: dict) -> tuple[float, float]:
    """Relative violations (lhs - rhs) / rhs of eq. 14 as printed and of its valid form (full sigma^2),
    each floored at 0: the paper's error and the correction's error of an erratum claim."""
    return max(0.0, (sums["lhs"] - sums["rhs"]) / sums["rhs"]), max(0.0, (sums["full"] - sums["rhs"]) / sums["rhs"])


# ------------------------------------------------------------------------------------ Lemma 10
def beta_lemma10(t: int, grid_size: int, n_groups: int, delta: float) -> float:
    """Lemma 10: beta_t = 2 log(omega_m M pi_t / delta) with pi_t = pi^2 t^2 / 6 (so sum_t 1/pi_t = 1)
    and omega_m the largest group grid."""
    return 2 * math.log(grid_size * n_groups * (math.pi ** 2 * t * t / 6) / delta)


def lemma10_coverage(dim: int, group_dim: int, lengthscale: float, noise_std: float, n_train: int, grid_size: int,
                     beta: float, rng: np.random.Generator) -> dict:
    """One replication of Lemma 10's event on the product grid Omega = x_j Omega^(j).

    Draws f = sum_j f_j from the additive prior (groups of ``group_dim`` consecutive coordinates, each
    component variance 1/M; sampled exactly and jointly at the ``n_train`` uniform training points and the
    ``grid_size`` uniform points of each group's grid), observes y = f(X) + N(0, eta^2) and computes each
    component's posterior (eq. 5). For a = f_j - mu_j and s = beta^{1/2} sigma_j on group j's grid, the
    band |f - mu| <= beta^{1/2} sum_j sigma_j holds at every point of Omega iff both
    sum_j max(a - s) <= 0 and sum_j max(-a - s) <= 0 (the product's extreme combinations are separable).

    Returns ``total`` (the event over the whole product grid), ``components`` (every component inside its
    own band) and ``z_hits``: for the calibration, whether |f - mu| <= z sigma at one random point of
    Omega, for z in ``Z_LEVELS``, with the full posterior sigma (exact: coverage 2 Phi(z) - 1).
    """
    groups = [list(range(s, min(s + group_dim, dim))) for s in range(0, dim, group_dim)]
    M = len(groups)
    X = rng.random((n_train, dim))
    grids = [rng.random((grid_size, len(g))) for g in groups]
    kernel = make_kernel("rbf", group_dim, lengthscale=lengthscale, outputscale=1.0 / M)
    f_train, f_grid = np.zeros(n_train), []
    for g, grid in zip(groups, grids):
        Z = np.vstack([X[:, g], grid])
        K = kernel_matrix(kernel, Z).detach().numpy() + 1e-10 * np.eye(len(Z))
        draw = np.linalg.cholesky(K) @ rng.standard_normal(len(Z))
        f_train += draw[:n_train]
        f_grid.append(draw[n_train:])
    y = f_train + noise_std * rng.standard_normal(n_train)
    gp = _additive_gp(groups, lengthscale, 1.0, noise_std ** 2).fit(X, y)
    root = math.sqrt(beta)
    upper = lower = 0.0
    inside = True
    pick = rng.integers(grid_size, size=M)
    point_err = 0.0
    x_point = np.zeros((1, dim))
    for j, (g, grid) in enumerate(zip(groups, grids)):
        Xc = np.zeros((grid_size, dim))
        Xc[:, g] = grid
        with torch.no_grad():
            mean, var = (a.numpy() for a in gp.group_posterior(j, torch.as_tensor(Xc)))
        err, s = f_grid[j] - mean, root * np.sqrt(var)
        upper += float(np.max(err - s))
        lower += float(np.max(-err - s))
        inside &= bool(np.all(np.abs(err) <= s))
        point_err += err[pick[j]]
        x_point[0, g] = grid[pick[j]]
    sigma = float(gp.predict(x_point)[1][0])
    return {"total": upper <= 0 and lower <= 0, "components": inside,
            "z_hits": [abs(point_err) <= z * sigma for z in Z_LEVELS]}


#: multipliers z of the calibration check |f - mu| <= z sigma (exact coverage 2 Phi(z) - 1)
Z_LEVELS = (0.5, 1.0, 1.645, 2.0)


def coverage_run(dim: int, group_dim: int, lengthscale: float, noise_std: float, n_train: int, grid_size: int,
                 beta: float, reps: int, seed: int) -> dict:
    """``reps`` independent replications of :func:`lemma10_coverage` (stream ``seed``): hits per unit."""
    out = [lemma10_coverage(dim, group_dim, lengthscale, noise_std, n_train, grid_size, beta,
                            make_rng(seed, "lemma10", r)) for r in range(reps)]
    return {"total": [o["total"] for o in out], "components": [o["components"] for o in out],
            "z_hits": np.array([o["z_hits"] for o in out])}


__all__ = ["Z_LEVELS", "additive_kernel_matrix", "beta_lemma10", "coverage_run", "eq14_errors", "eq14_sums",
           "lemma10_coverage", "lemma7_sides"]
