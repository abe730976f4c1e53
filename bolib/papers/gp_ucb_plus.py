"""Paper 001, GP-UCB+ and EXPLOIT+ (Kim & Sanz-Alonso, "Bayesian Optimization with Noise-Free
Observations: Improved Regret Bounds via Random Exploration", arXiv:2401.17037v1): experiment jobs
and theory checks of the notebook ``001_gpucbplus``.

The algorithms are in :mod:`bolib.algorithms.gp_ucb_plus`; this module holds the finite-domain
harness of the theory checks C3-C7 (:func:`grid_run`, :func:`theory_grid_job`) and the statistics
the notebook's claims are decided on: the log factor of the fill distance of random points
(:func:`log_factor_exponent`, C1), exponential against power-law decay of the power function
(:func:`exponential_vs_power`, C2), the inequalities of the proofs (:func:`proof_inequalities`, C3),
the bound (A.2) of the proof of Theorem 3.1 (:func:`theorem31_bound`, :func:`theorem31_bound_holds`, C6), the last-doubling exponent of a rate T^a log^b T
(:func:`power_log_exponent`, :func:`theorem31_exponent`; the claimed bounds of C4 and C6), the
Sobol-minus-uniform decay of sup sigma (:func:`slope_gap`, C7) and the per-seed spread of a result
(:func:`spread_per_seed`, B3). Its BO runs, including GP-UCB with the SUP beta
(``settings={"beta": "sup"}``), are :func:`bolib.loop.bo_job`.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from bolib import acquisition as acq
from bolib.algorithms.gp_ucb_plus import ExplorationSequence, beta_finite, beta_rkhs
from bolib.errors import check_choice
from bolib.models.grid import GridPosterior, GridRun, grid_kernel_matrix, sample_on_grid, unit_grid
from bolib.runtime import rng as make_rng
from bolib.stats import loglog_slopes


# --------------------------------------------------------------------- finite-domain runs
GRID_RULES = ("gp-ucb", "gp-ucb+", "exploit+", "exploit", "explore", "uniform")
#: the exploration distributions P of the grid runs: uniform on the grid, scrambled Sobol snapped to the grid
#: (Remark 4.5), or "tilted", a density on the grid proportional to 1 + TILT x_1 (Remark 4.3: any density bounded
#: away from zero keeps the rates; this one puts TILT + 1 = 4 times more mass at x_1 = 1 than at x_1 = 0)
GRID_EXPLORATIONS = ("uniform", "sobol", "tilted")
TILT = 3.0


def grid_run(rule: str, K: np.ndarray, f: np.ndarray, T: int, seed: int, *, beta=0.0,
             n_init: int = 1, exploration: str = "uniform", n_explore: int = 1, grid: np.ndarray | None = None,
             lambdas=(), tau: float = 1e-10) -> dict:
    """Run ``rule`` for T iterations on the finite domain with kernel matrix ``K`` and values ``f``.

    ``beta`` is a constant or a function of t. The initial design (``n_init`` uniform domain points)
    and the exploration points come from the seed's streams; the '+' rules add ``n_explore`` exploration
    points per iteration (Remark 4.1's batch), drawn from ``exploration`` (:data:`GRID_EXPLORATIONS`;
    ``"sobol"`` and ``"tilted"`` need ``grid``). Returns per iteration t = 1..T (regret counts the
    acquisition points x_t only, as Theorems 3.1, 4.4 and 4.8 do):

    * ``regret``: r_t = f* - f(x_t);  ``sigma_at``: sigma_{t-1}(x_t);  ``sup_sigma``: max sigma_{t-1};
      ``sigma_opt``: sigma_{t-1}(x*);
    * ``coverage``: max_x |f - mu_{t-1}| - beta_t^{1/2} sigma_{t-1} (<= 0 when the confidence band holds);
    * ``rkhs_gap``: max_x |f - mu_{t-1}| / sigma_{t-1}, the smallest valid multiplier (<= ||f||_H);
    * ``lambda_gap``: max over t and x of sigma_{t,0} - sigma_{t,lambda} for each lambda (<= 0);
    * ``info_gain`` (only with ``lambdas``): per lambda (rows), gamma_{t,lambda} =
      1/2 sum_{s <= t} log(1 + sigma^2_{s-1,lambda}(x_s) / lambda), the information gain of the
      acquisition points (the middle term of eq. A.2).
    """
    check_choice("rule", rule, GRID_RULES)
    check_choice("exploration", exploration, GRID_EXPLORATIONS)
    if n_explore < 1:
        raise ValueError(f"n_explore must be >= 1 exploration points per iteration; got {n_explore}")
    f = np.asarray(f, dtype=float)
    m, f_star, x_star = len(f), float(f.max()), int(np.argmax(f))
    pick = make_rng(seed, "grid", rule)
    if exploration == "tilted":
        if grid is None:
            raise ValueError("tilted exploration weights the domain's points by their first coordinate: pass grid=...")
        weights = 1.0 + TILT * grid[:, 0]
        tilted, stream = weights / weights.sum(), make_rng(seed, "exploration", "tilted")

        def explore() -> int:
            return int(stream.choice(m, p=tilted))
    else:
        explorer = ExplorationSequence(1 if grid is None else grid.shape[1], seed, exploration)
        tree = cKDTree(grid) if exploration == "sobol" else None

        def explore() -> int:
            return explorer.next_index(m, tree)
    capacity = n_init + (1 + n_explore) * T + 1
    posts = [GridPosterior(K, tau, max_points=capacity)]
    posts += [GridPosterior(K, lam, max_points=capacity) for lam in lambdas]
    run = GridRun(f, posteriors=posts)
    for i in make_rng(seed, "init").integers(m, size=n_init):
        run.observe(i)

    def step(t):
        post = posts[0]
        mu, sd = post.mean, post.std
        beta_t = float(beta(t) if callable(beta) else beta)
        if rule in ("gp-ucb", "gp-ucb+"):
            i = acq.argmax_grid(mu + math.sqrt(beta_t) * sd, pick)
        elif rule in ("exploit", "exploit+"):
            i = acq.argmax_grid(mu, pick)
        elif rule == "explore":
            i = acq.argmax_grid(sd, pick)
        else:
            i = int(pick.integers(m))
        error = np.abs(f - mu)
        record = {"regret": f_star - f[i], "sigma_at": sd[i], "sup_sigma": sd.max(), "sigma_opt": sd[x_star],
                  "coverage": float(np.max(error - math.sqrt(beta_t) * sd)),
                  "rkhs_gap": float(np.max(error / np.maximum(sd, 1e-300))),
                  "lambda_gap": np.array([np.max(sd - other.std) for other in posts[1:]]),
                  "gains": np.array([0.5 * math.log1p(other.std[i] ** 2 / lam) for lam, other in zip(lambdas, posts[1:])])}
        run.observe(i)
        if rule.endswith("+"):
            for _ in range(n_explore):
                run.observe(explore())
        return record

    out = run.run(T, step)
    gains = out.pop("gains")
    out["lambda_gap"] = out["lambda_gap"].max(axis=0, initial=-np.inf)
    gain = {"info_gain": np.cumsum(gains.T, axis=1)} if lambdas else {}
    return {**out, **gain, "f_star": f_star}


TARGETS = ("rkhs", "gp")
BETA_RULES = ("rkhs", "finite", "zero")


def theory_grid_job(kernel: str, rule: str, seed: int, T: int, dim: int, points_per_dim: int,
                    lengthscale: float = 0.2, target: str = "rkhs", n_centers: int = 30,
                    beta: str = "rkhs", delta: float = 0.1, exploration: str = "uniform",
                    n_explore: int = 1, n_init: int = 1, lambdas: tuple = ()) -> dict:
    """One theory-check run (checks C3-C7 of notebook 001): :func:`grid_run` on a regular grid of [0, 1]^dim.

    ``target="rkhs"``: f = sum_j alpha_j k(., z_j) with ``n_centers`` centres and exact RKHS norm;
    ``target="gp"``: f ~ GP(0, k) drawn on the grid. ``beta``: ``"rkhs"`` (||f||_H^2),
    ``"finite"`` (:func:`beta_finite` with ``delta``) or ``"zero"``; ``exploration`` and ``n_explore``
    go to :func:`grid_run`. The function depends on the seed (and kernel) only, so every rule is run
    on the same f for a seed.
    """
    from bolib.benchmarks import rkhs_function

    check_choice("target", target, TARGETS)
    check_choice("beta", beta, BETA_RULES)
    grid = unit_grid(points_per_dim, dim)
    K = grid_kernel_matrix(kernel, grid, lengthscale)
    stream = make_rng(seed, "target", kernel, target)
    norm = float("nan")
    if target == "rkhs":
        problem = rkhs_function(kernel, dim, stream, n_centers, lengthscale, certify=False)
        f, norm = problem(grid), problem.meta["rkhs_norm"]
    else:
        f = sample_on_grid(K, stream)
    schedule = {"rkhs": beta_rkhs(norm), "finite": lambda t: beta_finite(t, len(grid), delta), "zero": 0.0}[beta]
    out = grid_run(rule, K, f, T, seed, beta=schedule, n_init=n_init, exploration=exploration, n_explore=n_explore,
                   grid=grid, lambdas=lambdas)
    return {**out, "rkhs_norm": norm}


# --------------------------------------------------------------------- statistics of the claims
def log_factor_exponent(sizes, h, dim: int) -> np.ndarray:
    """Per design (rows of ``h``, fill distances at ``sizes``), the least-squares coefficient e of
    log(h_n n^(1/d)) on log log n.

    Points drawn i.i.d. from a positive density have E h_n of order (log n / n)^(1/d) (a known rate;
    Sec. 4.1 states O(t^(-1/d + eps)) for the exploration points, used in the proof of Theorem 4.4), so h_n n^(1/d) grows like (log n)^(1/d):
    e = 1/d. Quasi-uniform points (Remark 4.5) have h_n of order n^(-1/d): e = 0. A plain log-log
    slope cannot tell the two apart over a few doublings; e separates them by construction.
    """
    n = np.asarray(sizes, dtype=float)
    x = np.log(np.log(n))
    y = np.log(np.atleast_2d(np.asarray(h, dtype=float))) + np.log(n) / dim
    centred = x - x.mean()
    return (y - y.mean(axis=1, keepdims=True)) @ centred / (centred @ centred)


def exponential_vs_power(h, sup_sigma) -> float:
    """log(RSS_power / RSS_exponential) of two least-squares fits of log sup sigma for one set of
    designs: a power law (linear in log h) and an exponential law (linear in 1/h).

    The power-function bounds the proof of Theorem 4.4 uses (notebook §3.5, its second step) are sup sigma <= C h^nu for a
    Matern-nu kernel and sup sigma <= exp(-c/h) for the squared exponential kernel. Both fits have two
    parameters, so the statistic is positive when the data follow the exponential law more closely
    than any power law, negative for a power law. Needs at least three designs.
    """
    h = np.asarray(h, dtype=float)
    y = np.log(np.asarray(sup_sigma, dtype=float))
    if len(h) < 3:
        raise ValueError(f"exponential_vs_power needs at least 3 designs, got {len(h)}")
    rss = []
    for x in (np.log(h), 1.0 / h):
        A = np.column_stack([np.ones_like(x), x])
        residual = y - A @ np.linalg.lstsq(A, y, rcond=None)[0]
        rss.append(residual @ residual)
    return float(np.log(rss[0] / rss[1]))


def theorem31_bound(info_gain, lam: float, rkhs_norm: float) -> np.ndarray:
    """The bound (A.2) of the proof of Theorem 3.1 on the cumulative regret of GP-UCB with
    beta = ||f||_H^2, for T = 1..len(info_gain):

        R_T <= sqrt(8 T ||f||_H^2 gamma_{T,lambda} / log(1 + 1/lambda)),

    with the run's own information gain 1/2 sum_{t <= T} log(1 + sigma^2_{t-1,lambda}(x_t) / lambda) in
    place of the maximum information gain gamma_{T,lambda} of (A.2) (``info_gain`` of :func:`grid_run`). It holds for every lambda > 0 and every run of GP-UCB with
    that beta; a run with a smaller beta (EXPLOIT, beta = 0) can break it.
    """
    gamma = np.asarray(info_gain, dtype=float)
    T = np.arange(1, gamma.shape[-1] + 1)
    return np.sqrt(8 * T * rkhs_norm ** 2 * gamma / math.log1p(1 / lam))


#: round-off allowed in the proofs' inequalities on the grid runs (posterior solves in float64)
PROOF_TOLERANCE = 1e-7
#: round-off allowed between the noise-free and the regularised posterior SDs (C3b)
LAMBDA_TOLERANCE = 1e-9


def _steps(per_run) -> np.ndarray:
    """The per-step booleans of several runs end to end (none for no run)."""
    return np.concatenate([np.zeros(0, dtype=bool), *per_run])


def proof_inequalities(runs, runs_1d) -> dict[str, np.ndarray]:
    """The inequalities of the proofs at every step of the grid runs (``(params, output)`` pairs of
    :func:`theory_grid_job`; ``runs_1d`` those with the regularised posteriors), one boolean per step:

    * ``C3a``, eq. (A.1): |f - mu_{t-1}| <= ||f||_H sigma_{t-1} on the whole grid;
    * ``C3b``, step (iii) of (A.2): sigma_{t,0} <= sigma_{t,lambda} for every lambda of the 1-D runs;
    * ``C3c``, eq. (A.1): r_t <= 2 ||f||_H sigma_{t-1}(x_t) for GP-UCB and GP-UCB+ (beta = ||f||^2);
    * ``C3d``, proof of Thm 4.4: r_t <= 2 ||f||_H sup sigma_{t-1} for GP-UCB+ and EXPLOIT+.
    """
    ucb, plus = ("gp-ucb", "gp-ucb+"), ("gp-ucb+", "exploit+")
    return {
        "C3a": _steps(out["coverage"] <= PROOF_TOLERANCE for _, out in runs),
        "C3b": _steps(out["lambda_gap"] <= LAMBDA_TOLERANCE for _, out in runs_1d),
        "C3c": _steps(out["regret"] <= 2 * out["rkhs_norm"] * out["sigma_at"] + PROOF_TOLERANCE
                     for p, out in runs if p["rule"] in ucb),
        "C3d": _steps(out["regret"] <= 2 * out["rkhs_norm"] * out["sup_sigma"] + PROOF_TOLERANCE
                     for p, out in runs if p["rule"] in plus),
    }


def theorem31_bound_holds(ucb_runs, lambdas) -> np.ndarray:
    """Whether GP-UCB's cumulative regret stays under (A.2) (:func:`theorem31_bound`) at every T, for each
    of the ``lambdas`` (the runs' ``info_gain`` rows), one boolean per (run, lambda, T)."""
    return np.concatenate([np.cumsum(out["regret"]) <= theorem31_bound(gain, lam, out["rkhs_norm"]) + PROOF_TOLERANCE
                           for out in ucb_runs for gain, lam in zip(out["info_gain"], lambdas)])


def power_log_exponent(T: int, power: float, log_power: float = 0.0) -> float:
    """The exponent that :func:`bolib.stats.doubling_exponent` measures on the curve
    R_T = T^power log^log_power T over the last doubling, T // 2 -> T:

        log2(R_T / R_{T//2}) = power log2(T / (T//2)) + log_power log2(log T / log(T//2)).

    It is ``power`` plus the contribution of the log factor at this T (which vanishes only as
    T -> infinity), so a claimed bound that allows for a rate's log factor is exact at the run's T.
    """
    if T < 4:
        raise ValueError(f"the last-doubling exponent needs T >= 4, got {T}")
    half = T // 2
    return power * math.log2(T / half) + log_power * math.log2(math.log(T) / math.log(half))


def theorem31_exponent(T: int, d: int) -> float:
    """Last-doubling exponent of sqrt(T) log^(d/2) T, the rate of Theorem 3.1 (SE kernel, GP-UCB
    with beta = ||f||_H^2) in dimension d: the claimed upper bound of check C6."""
    return power_log_exponent(T, 0.5, d / 2)


def slope_gap(t, sobol, uniform, floor: float = 1e-12) -> np.ndarray:
    """Per seed (paired rows), the log-log slope of sup sigma_t on t with Sobol exploration minus
    the slope with i.i.d. uniform exploration (check C7, Remark 4.5).

    Quasi-uniform points have fill distance of order n^(-1/d), i.i.d. points (log n / n)^(1/d), so
    through the power function sup sigma decays like n^(-nu/d) against (log n / n)^(nu/d): the
    Sobol curve is steeper and the gap negative. ``floor`` keeps the logarithm finite once sup
    sigma reaches round-off.
    """
    t = np.asarray(t, dtype=float)
    return (loglog_slopes(t, np.maximum(np.asarray(sobol, dtype=float), floor))
            - loglog_slopes(t, np.maximum(np.asarray(uniform, dtype=float), floor)))


def spread_per_seed(values) -> np.ndarray:
    """|x_s - median(x)| per seed: the absolute deviations of the Brown-Forsythe test, whose mean is
    the spread of a result over runs (Table 4 compares standard deviations over runs); compared per
    seed between methods, they decide "method A varies less over runs than method B"."""
    values = np.asarray(values, dtype=float)
    return np.abs(values - np.median(values))
