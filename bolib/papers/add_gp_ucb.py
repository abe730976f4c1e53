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
* :func:`bolib.theory.greedy_information_gain` (shared, re-exported), :func:`gain_kernels`,
  :func:`logdet_subadditivity`: the information gain of Theorem 4 against the full kernel's (C4a), estimated
  by greedy variance maximisation, and the exact step that makes it linear in D.
* :func:`spectrum`, :func:`decay_form_gap`, :func:`spectra_union_gaps`: the eigenvalue decay used in the proof
  of Theorem 4 (C8a) and the tail inequality that replaces its union-of-spectra step (C8b).
* :func:`lemma11_slopes`: the deterministic core of Lemma 11's Lipschitz bound on the posterior mean (C11).
* :func:`table1_exponent`, :func:`table1_ratio`, :func:`composed_exponent`: the T-exponents of Table 1's Matern
  column and the ratio of its two cells (C-T1).
* :func:`acquisition_gaps`: per-group against joint maximisation of eq. 6 (C-acq, Sec. 4.2).
* :func:`spectral_kernels`, :func:`additive_spectrum`, :func:`tensor_spectrum`, :func:`spectral_gain`,
  :func:`loglog_growth`: the information gain of a uniform design of T points from the spectra of the additive
  and the full kernel, its growth in D (C4a), and its growth exponent in log T, which Theorem 4's (log T)^{d+1} bounds by d + 1 (C4b).
* :func:`thm5_bound`: the right-hand side of Theorem 5, set against the regret of Algorithm 1 (C5-thm).
"""
from __future__ import annotations

import math
import time

import numpy as np
import torch
from scipy.optimize import minimize

from bolib.algorithms.add_gp_ucb import beta_practical, beta_theory, direct_maximize, group_ucb, inverse_factor
from bolib.models import GP
from bolib.models.kernels import kernel_matrix, make_kernel
from bolib.runtime import rng as make_rng
from bolib.theory import greedy_information_gain


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


def additive_kernel_matrix(X: np.ndarray, groups, lengthscale: float, total_scale: float = 1.0,
                           kind: str = "rbf") -> np.ndarray:
    """K = sum_j k_j(X^(j), X^(j)) of a tied additive kernel (eq. 4), SE components by default."""
    kernel = make_kernel(kind, X.shape[1], groups=groups, tie="all", lengthscale=lengthscale, outputscale=total_scale)
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
    groups = consecutive_groups(dim, group_dim)
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
            i, s2, sum_sj2 = 0, 1.0, 1.0  # the prior: each of the M groups has variance 1/M
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
    own band) and, for the calibration, at one random point of Omega and for z in ``Z_LEVELS``:
    ``z_hits``, whether |f - mu| <= z sigma with the full posterior, and ``z_hits_group``, whether
    |f_j - mu_j| <= z sigma_j for one random group j with its eq. 5 posterior (both exact: coverage
    2 Phi(z) - 1).
    """
    groups = consecutive_groups(dim, group_dim)
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
    group_errs, group_sds = [], []
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
        group_errs.append(err[pick[j]])
        group_sds.append(math.sqrt(var[pick[j]]))
    sigma = float(gp.predict(x_point)[1][0])
    j0 = int(rng.integers(M))
    return {"total": upper <= 0 and lower <= 0, "components": inside,
            "z_hits": [abs(point_err) <= z * sigma for z in Z_LEVELS],
            "z_hits_group": [abs(group_errs[j0]) <= z * group_sds[j0] for z in Z_LEVELS]}


#: multipliers z of the calibration check |f - mu| <= z sigma (exact coverage 2 Phi(z) - 1)
Z_LEVELS = (0.5, 1.0, 1.645, 2.0)


def coverage_run(dim: int, group_dim: int, lengthscale: float, noise_std: float, n_train: int, grid_size: int,
                 beta: float, reps: int, seed: int) -> dict:
    """``reps`` independent replications of :func:`lemma10_coverage` (stream ``seed``): hits per unit."""
    out = [lemma10_coverage(dim, group_dim, lengthscale, noise_std, n_train, grid_size, beta,
                            make_rng(seed, "lemma10", r)) for r in range(reps)]
    return {"total": [o["total"] for o in out], "components": [o["components"] for o in out],
            "z_hits": np.array([o["z_hits"] for o in out]), "z_hits_group": np.array([o["z_hits_group"] for o in out])}


# ------------------------------------------------------------------------------------ Theorem 4
def consecutive_groups(dim: int, group_dim: int) -> list[list[int]]:
    """Groups of ``group_dim`` consecutive coordinates of range(dim) (the last one holds the rest)."""
    return [list(range(s, min(s + group_dim, dim))) for s in range(0, dim, group_dim)]


def gain_kernels(X: np.ndarray, group_dim: int, lengthscale: float) -> dict[str, np.ndarray]:
    """The kernels of C4a on the points ``X`` (n x D), both with kappa(x, x) = 1 as Theorem 4 assumes:
    ``additive``, consecutive groups of ``group_dim`` coordinates with SE components of bandwidth
    ``lengthscale`` and scale 1/M; ``full``, the D-th order SE kernel (2) of the same bandwidth."""
    dim = X.shape[1]
    full = make_kernel("rbf", dim, lengthscale=lengthscale, outputscale=1.0)
    return {"additive": additive_kernel_matrix(X, consecutive_groups(dim, group_dim), lengthscale, 1.0),
            "full": kernel_matrix(full, X).detach().numpy()}


def spectral_kernels(X: np.ndarray, lengthscale: float) -> dict[str, np.ndarray]:
    """The group kernels of C4b on the points ``X`` (n x d) of one group's box, each with kappa(x, x) = 1:
    ``additive``, SE of bandwidth ``lengthscale`` (the groups of C4a's additive kernel), and ``additive
    matern25``, Matérn-5/2 of the same bandwidth, whose gain Theorem 4.2 bounds by a power of T (the
    contrast). :func:`additive_spectrum` turns each into the spectrum of the additive kernel of M such groups."""
    return {name: kernel_matrix(make_kernel(kind, X.shape[1], lengthscale=lengthscale, outputscale=1.0), X
                                ).detach().numpy() for name, kind in (("additive", "rbf"), ("additive matern25", "matern25"))}


def additive_spectrum(K_group: np.ndarray, n_groups: int) -> np.ndarray:
    """The eigenvalues, in decreasing order, of the additive kernel (1/M) sum_j k(x^(j), x'^(j)) of M disjoint
    groups with respect to the product of the n-point empirical measures of one group (``K_group``: k on those
    n points), from the group's n x n matrix alone.

    Functions of different groups are orthogonal except through the constants, so L2 splits into the
    constants C and the zero-mean functions Z_j of each group. A maps z(x^(j)) in Z_j to (1/M)(K z)(x^(j)):
    nothing reaches the other groups. So every combination sum_j w_j z(x^(j)) with sum_j w_j = 0 (M - 1
    directions) is an eigenfunction with the eigenvalues of (1/M) P_0 K P_0 (P_0 removes the mean), and the
    symmetric combination M^{-1/2} sum_j z(x^(j)) with the constants carries the operator (1/M) S K S, where
    S multiplies the constant direction by sqrt(M) (A a = a m + ..., the M groups' constants adding up).
    With K / n as the operator of the empirical measure, the result is (M - 1) copies of the first spectrum
    and one of the second (M n values, M - 1 of them the zeros of the constant direction). Unlike a Nyström
    sample of all D coordinates, which resolves about n / M eigenvalues per group, this resolves n."""
    n, M = len(K_group), int(n_groups)
    A = np.asarray(K_group, dtype=float) / n
    e = np.full(n, 1 / math.sqrt(n))
    P0 = np.eye(n) - np.outer(e, e)
    S = np.eye(n) + (math.sqrt(M) - 1) * np.outer(e, e)
    zero_mean = np.linalg.eigvalsh(P0 @ A @ P0)
    symmetric = np.linalg.eigvalsh(S @ A @ S)
    return np.sort(np.concatenate([np.repeat(zero_mean, M - 1), symmetric]) / M)[::-1]


def tensor_spectrum(eigenvalues: np.ndarray, dim: int, floor: float) -> np.ndarray:
    """The eigenvalues above ``floor`` of a product kernel k(x, x') = prod_i k_1(x_i, x'_i) on [0, 1]^dim under
    the uniform measure, from the 1-D kernel's ``eigenvalues``: the products of ``dim`` of them, one per
    coordinate (the eigenfunctions are the products of the 1-D ones). The SE kernel (2) over D coordinates is
    such a product, so its spectrum needs only a 1-D Nyström sample. Products below ``floor`` are left out
    (built coordinate by coordinate, a partial product below it is dropped at once: later factors are <= 1);
    their sum is 1 - the kept sum when the 1-D eigenvalues sum to 1 (kappa(x, x) = 1)."""
    lam = np.ones(1)
    for _ in range(int(dim)):
        lam = np.multiply.outer(lam, np.asarray(eigenvalues, dtype=float)).ravel()
        lam = lam[lam > floor]
    return np.sort(lam)[::-1]


def spectral_gain(eigenvalues: np.ndarray, T, noise: float) -> np.ndarray:
    """The information gain of T points spread like the uniform distribution, from the kernel's spectrum:
    1/2 sum_s log(1 + T lambda_s / eta^2).

    With ``eigenvalues`` lambda_s of the kernel operator with respect to the uniform distribution (Nyström
    estimates, :func:`spectrum` or :func:`additive_spectrum`), a design of T uniform points has K_T / T close to that
    operator on its leading eigenfunctions, so 1/2 log det(I + K_T / eta^2) is close to this sum. It is
    the quantity the proof of Theorem 4 bounds through the eigenvalue tails (after Srinivas et al. 2010),
    and it can be evaluated at any T. Eigenvalues below :data:`EIG_FLOOR` lambda_1 (rounding noise) are
    left out. ``T``: a number or an array; returns an array of the same shape."""
    lam = np.sort(np.asarray(eigenvalues, dtype=float))[::-1]
    lam = lam[lam > EIG_FLOOR * lam[0]]
    T = np.asarray(T, dtype=float)
    return 0.5 * np.log1p(np.multiply.outer(T, lam) / noise).sum(-1)


def loglog_growth(gains_low, gains_high, T_low: float, T_high: float):
    """The growth exponent of a gain in log T between two design sizes:
    log(gamma(T_high) / gamma(T_low)) / log(log T_high / log T_low).

    A gain c (log T)^p has exponent p. Under the SE-type eigenvalue decay of Theorem 4's proof the spectral gain
    grows like (log T)^{d+1}, so its exponent tends to at most d + 1 (an O-bound alone does not bound the
    exponent over a finite window: the check is one-sided evidence). A gain c T^q has exponent q log T (between
    the two sizes, q log(T_high / T_low) / log(log T_high / log T_low)), which passes any bound as T grows: the
    Matérn kernel of Theorem 4.2."""
    return np.log(np.asarray(gains_high) / np.asarray(gains_low)) / math.log(math.log(T_high) / math.log(T_low))


def logdet_subadditivity(component_matrices, noise: float) -> tuple[float, float]:
    """Both sides of log det(I + eta^-2 sum_j K_j) <= sum_j log det(I + eta^-2 K_j) (proof of Theorem 4;
    it holds for any PSD K_j): the information gain of the sum is at most the sum of the components'
    gains, hence at most M times a d-dimensional gain, linear in D for fixed d."""
    n = len(component_matrices[0])
    total = np.linalg.slogdet(np.eye(n) + sum(component_matrices) / noise)[1]
    parts = sum(np.linalg.slogdet(np.eye(n) + K / noise)[1] for K in component_matrices)
    return 0.5 * float(total), 0.5 * float(parts)


# ------------------------------------------------------------------------------------ spectra (C8)
def spectrum(K: np.ndarray) -> np.ndarray:
    """Eigenvalues of K / n in decreasing order: the Nystrom estimates of the kernel's eigenvalues with
    respect to the distribution of the n points (uniform in the checks)."""
    return np.linalg.eigvalsh(np.asarray(K, dtype=float) / len(K))[::-1]


#: eigenvalues below this fraction of the largest are rounding noise and are left out of decay fits
EIG_FLOOR = 1e-11


def decay_form_gap(eigenvalues: np.ndarray, d: int, s_range: tuple[int, int]) -> float:
    """How much better an exponential decay in s^{1/d} fits the spectrum than a polynomial one.

    Returns R^2 of the least-squares line of log lambda_s on s^{1/d} minus R^2 of the line of
    log lambda_s on log s, for s in ``s_range`` (1-based, eigenvalues above :data:`EIG_FLOOR` lambda_1
    only). The SE bound lambda_s <= c^d B^{s^{1/d}} used for Theorem 4 (after Seeger et al. 2008) makes
    log lambda_s linear in s^{1/d}: positive values. A Matern kernel decays polynomially,
    lambda_s ~ s^{-(2 nu + d)/d}, linear in log s: negative values.
    """
    lam = np.asarray(eigenvalues, dtype=float)
    s = np.arange(1, len(lam) + 1)
    keep = (s >= s_range[0]) & (s <= s_range[1]) & (lam > EIG_FLOOR * lam[0])
    if keep.sum() < 3:
        raise ValueError(f"fewer than 3 eigenvalues above the floor in s = {s_range}")
    y = np.log(lam[keep])
    return float(np.corrcoef(s[keep] ** (1.0 / d), y)[0, 1] ** 2 - np.corrcoef(np.log(s[keep]), y)[0, 1] ** 2)


def spectra_union_gaps(sum_eigenvalues: np.ndarray, component_eigenvalues) -> dict:
    """Compare the spectrum of a sum of PSD matrices with the union of the components' spectra.

    The proof of Theorem 4 takes the two to be equal. Returned, relative to the trace:
    ``union_error``, the largest |lambda_k(sum) - lambda_k(union)| over k (0 if the union claim held);
    ``tail_excess``, the largest tail_sum(k) - tail_union(k) over k, floored at 0, where tail(k) is the
    sum of the eigenvalues after the k-th. The tail inequality tail_sum(k) <= tail_union(k) holds for
    every k (the top-k sum of A + B is at least tr(P(A + B)) for P the projection on the top-k1
    eigenvectors of A and top-k2 of B, k1 + k2 = k), so ``tail_excess`` is 0 up to rounding; the tails
    themselves are returned as ``tail_sum``, ``tail_union``.
    """
    lam = np.sort(np.asarray(sum_eigenvalues, dtype=float))[::-1]
    union = np.sort(np.concatenate([np.asarray(e, dtype=float) for e in component_eigenvalues]))[::-1][:len(lam)]
    trace = float(lam.sum())
    tail_sum = trace - np.cumsum(lam)
    tail_union = float(union.sum()) - np.cumsum(union)
    return {"union_error": float(np.max(np.abs(lam - union)) / trace),
            "tail_excess": float(max(0.0, np.max(tail_sum - tail_union)) / trace),
            "tail_sum": tail_sum, "tail_union": tail_union, "union": union}


# ------------------------------------------------------------------------------------ Theorem 5
def thm5_bound(T, gains, n_groups: int, group_dim: int, dim: int, prior_variance: float, noise: float,
               delta: float = 0.1) -> np.ndarray:
    """Theorem 5's bound sqrt(8 C_1 beta_T M T gamma_T) with C_1 = 1 / log(1 + eta^-2), for a prior of
    variance kappa(x, x) = ``prior_variance`` and noise variance ``noise`` (the theorem takes kappa(x, x) = 1:
    f / sqrt(v) is such a problem, with noise eta^2 / v and regret R_T / sqrt(v), so the bound is scaled back
    by sqrt(v)). beta_T is Theorem 5's (:func:`bolib.algorithms.add_gp_ucb.beta_theory`), ``gains`` gamma_T at
    each T. The terms 2 zeta_0 sqrt(T) and C_2 are left out (both >= 0), so with a lower estimate of gamma_T
    (the greedy gain of a pool) this is a lower estimate of the bound: a regret below it is below the bound."""
    T = np.asarray(T, dtype=float)
    beta = np.array([beta_theory(int(t), n_groups, group_dim, dim, delta) for t in np.atleast_1d(T)]).reshape(T.shape)
    c1 = 1.0 / math.log1p(prior_variance / noise)
    return math.sqrt(prior_variance) * np.sqrt(8 * c1 * beta * n_groups * T * np.asarray(gains, dtype=float))


# ------------------------------------------------------------------------------------ Lemma 11
def se_lipschitz(scale: float, lengthscale: float) -> float:
    """Lipschitz constant of kappa(., x) for the SE kernel sigma exp(-r^2 / 2h^2): sup_r sigma r/h^2
    exp(-r^2 / 2h^2) = sigma e^{-1/2} / h (at r = h)."""
    return scale * math.exp(-0.5) / lengthscale


def lemma11_slopes(X: np.ndarray, y: np.ndarray, lengthscale: float, scale: float, noise: float, n_pairs: int,
                   rng: np.random.Generator, lipschitz: float | None = None) -> dict:
    """The slopes |mu(x) - mu(x')| / ||x - x'|| of an SE posterior mean and the deterministic core of
    Lemma 11's bound, ||Y||_2 eta^-2 L sqrt(n) (n = t - 1 observations, eta^2 = ``noise``).

    mu(x) = kappa(x, X) alpha with alpha = (K + eta^2 I)^{-1} Y, so |mu(x) - mu(x')| <= ||alpha||_1 L
    ||x - x'|| <= sqrt(n) ||Y|| eta^-2 L ||x - x'||, since ||(K + eta^2 I)^{-1}|| <= eta^-2. The Lemma
    then bounds ||Y|| with high probability; its proof bounds y_t only from above, which is not enough
    for ||Y||, so only this core is checked. A third of the ``n_pairs`` pairs start at an observed point
    (where the mean is steepest) and a third at a uniform point, each with x' = x + 1e-3 u; the rest are
    two uniform points. ``lipschitz`` overrides L = :func:`se_lipschitz` (for a negative control).
    """
    gp = GP("rbf", lengthscale=lengthscale, outputscale=scale, noise=noise, fit=False, standardize=False).fit(X, y)
    dim = X.shape[1]
    A = rng.random((n_pairs, dim))
    B = rng.random((n_pairs, dim))
    third = n_pairs // 3
    A[:third] = X[rng.integers(len(X), size=third)]
    B[:2 * third] = np.clip(A[:2 * third] + 1e-3 * rng.standard_normal((2 * third, dim)), 0.0, 1.0)
    slopes = np.abs(gp.predict(A)[0] - gp.predict(B)[0]) / np.linalg.norm(A - B, axis=1)
    L = se_lipschitz(scale, lengthscale) if lipschitz is None else lipschitz
    return {"slopes": slopes, "bound": float(np.linalg.norm(y)) / noise * L * math.sqrt(len(y))}


# ------------------------------------------------------------------------------------ Table 1
def table1_exponent(nu: float, d: int) -> float:
    """T-exponent of Table 1's Matern cell for group dimension d (d = D for GP-UCB), as corrected:
    (nu + d(d + 1)) / (2 nu + d(d + 1))."""
    return (nu + d * (d + 1)) / (2 * nu + d * (d + 1))


def table1_ratio(nu: float, d: int, D: int, T):
    """Table 1's Matern cells, corrected: Add-GP-UCB's bound 2^d D T^{e(d)} log T over GP-UCB's
    2^D sqrt(D) T^{e(D)} log T, i.e. 2^{d - D} sqrt(D) T^{e(d) - e(D)} with e = :func:`table1_exponent`
    (``T`` a number or an array)."""
    return 2.0 ** (d - D) * np.sqrt(D) * T ** (table1_exponent(nu, d) - table1_exponent(nu, D))


def composed_exponent(nu: float, d: int, T_low: float = 1e40, T_high: float = 1e80) -> float:
    """The T-exponent of the regret bound sqrt(8 C_1 beta_T M T gamma_T) (Theorem 5) with Theorem 4's
    Matern gain gamma_T = 2^d T^{d(d+1) / (2 nu + d(d+1))} log T and beta_T = d log T, computed as the
    log-log slope of the bound between two very large T (the log factors add about 1 / log T)."""
    def log_bound(T):
        log_gamma = d * math.log(2) + d * (d + 1) / (2 * nu + d * (d + 1)) * math.log(T) + math.log(math.log(T))
        return 0.5 * (math.log(8 * d * math.log(T)) + math.log(T) + log_gamma)

    return (log_bound(T_high) - log_bound(T_low)) / math.log(T_high / T_low)


# ------------------------------------------------------------------------------------ Sec. 4.2 (C-acq)
def acquisition_gaps(dim: int, group_dim: int, n: int, evals_per_group: int, seed: int,
                     lengthscale: float = 0.25, noise: float = 0.01, grid: int = 256) -> dict:
    """Maximise the additive UCB phi~ of eq. 6 three ways and compare with its maximum (Sec. 4.2).

    The posterior: n uniform points, y drawn from the additive prior (consecutive groups of
    ``group_dim``, SE components of bandwidth ``lengthscale``, total variance 1) plus noise; beta is the
    practical 0.2 d log 2t at t = n + 1. The maximum: each group's term on a ``grid`` x ``grid`` grid
    (group_dim = 2), polished by L-BFGS-B, summed. The three ways, each with M ``evals_per_group``
    evaluations in all: (A) DIRECT on each group's term separately, (B) one D-dimensional DIRECT on phi~,
    (C) random search. Returns the gaps (maximum - value found, >= 0 up to the polish) and the CPU
    times of (A) and (B) in seconds (process time, so other processes on the machine do not count).
    """
    if group_dim != 2:
        raise ValueError("the reference maximum uses a two-dimensional grid: group_dim must be 2")
    stream = make_rng(seed, "c-acq")
    groups = consecutive_groups(dim, group_dim)
    X = stream.random((n, dim))
    K = additive_kernel_matrix(X, groups, lengthscale, 1.0)
    y = np.linalg.cholesky(K + noise * np.eye(n)) @ stream.standard_normal(n)
    gp = _additive_gp(groups, lengthscale, 1.0, noise).fit(X, y)
    beta = beta_practical(n + 1, group_dim)
    Linv = inverse_factor(gp)
    terms = [group_ucb(gp, j, beta, Linv) for j in range(len(groups))]
    axis = (np.arange(grid) + 0.5) / grid
    Z = np.column_stack([a.ravel() for a in np.meshgrid(axis, axis)])
    best = 0.0
    for j, (g, term) in enumerate(zip(groups, terms)):
        Xc = np.zeros((len(Z), dim))
        Xc[:, g] = Z
        with torch.no_grad():
            mean, var = (a.numpy() for a in gp.group_posterior(j, torch.as_tensor(Xc)))
        start = Z[int(np.argmax(mean + math.sqrt(beta) * np.sqrt(np.maximum(var, 0))))]
        polished = minimize(lambda z: -term(z), start, method="L-BFGS-B", bounds=[(0, 1)] * group_dim)
        best += max(-float(polished.fun), term(start))

    def joint(x):
        return sum(term(x[g]) for g, term in zip(groups, terms))

    total = evals_per_group * len(groups)
    began = time.process_time()
    value_a = sum(term(direct_maximize(term, len(g), evals_per_group)) for g, term in zip(groups, terms))
    time_a = time.process_time() - began
    began = time.process_time()
    value_b = joint(direct_maximize(joint, dim, total))
    time_b = time.process_time() - began
    value_c = max(joint(x) for x in stream.random((total, dim)))
    return {"gap_per_group": best - value_a, "gap_joint": best - value_b, "gap_random": best - value_c,
            "time_per_group": time_a, "time_joint": time_b, "maximum": best}


__all__ = ["EIG_FLOOR", "Z_LEVELS", "acquisition_gaps", "additive_kernel_matrix", "additive_spectrum", "beta_lemma10",
           "composed_exponent", "consecutive_groups", "coverage_run", "decay_form_gap", "eq14_errors", "eq14_sums",
           "gain_kernels", "greedy_information_gain", "lemma10_coverage", "lemma11_slopes", "lemma7_sides",
           "logdet_subadditivity", "loglog_growth", "se_lipschitz", "spectra_union_gaps", "spectral_gain",
           "spectral_kernels", "spectrum", "table1_exponent", "table1_ratio", "tensor_spectrum", "thm5_bound"]
