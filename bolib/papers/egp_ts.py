"""Paper 000, EGP-TS (Lu, Polyzos, Li & Giannakis, "Surrogate modeling for Bayesian optimization
beyond a single Gaussian process", arXiv:2205.14090): experiment jobs and theory checks of the
notebook ``000_egpts``.

The algorithms themselves are in :mod:`bolib.algorithms.egp_ts`; this module holds what only the
paper's notebook runs: the exactly Bayesian setting of Theorems 1-3 (:func:`rf_exact_job`, whose
rules are the ask/tell :class:`ExactEnsembleTS` on a :func:`grid_problem`, run by
:func:`bolib.loop.run`) and the data-dependent regret bound of eq. 30 (:func:`eq30_bound`). Its BO
runs, including E8's weight concentration (the ``history`` of an ``egp-ts`` run on the ``gp-draw``
benchmark), are :func:`bolib.loop.bo_job`.
"""
from __future__ import annotations

import numpy as np

from bolib.algorithms.base import Optimizer
from bolib.benchmarks import Problem
from bolib.errors import check_choice
from bolib.loop import run
from bolib.models.ensemble import RFEnsemble
from bolib.models.grid import unit_grid
from bolib.models.rff import RandomFeatures
from bolib.multistart import unit_cube
from bolib.runtime import rng as make_rng

# ----------------------------------------------------------------- the exactly Bayesian setting
RF_EXACT_RULES = ("egp-ts", "oracle", "single", "random")


def grid_problem(values: np.ndarray, points_per_dim: int, dim: int, noise_std: float = 0.0) -> Problem:
    """``values`` on :func:`bolib.models.grid.unit_grid` as a problem on [0, 1]^dim: an input is evaluated
    at its nearest grid point, and the loop adds N(0, ``noise_std``^2) observation noise."""
    values = np.asarray(values, dtype=float)
    shape = (int(points_per_dim),) * int(dim)

    def fn(X):
        index = np.rint(np.clip(X, 0.0, 1.0) * (points_per_dim - 1)).astype(int)
        return values[np.ravel_multi_index(tuple(index.T), shape)]

    return Problem("grid", fn, unit_cube(dim), optimum=float(values.max()), noise_std=float(noise_std))


class ExactEnsembleTS(Optimizer):
    """Thompson sampling from the exact posterior of a random-feature GP ensemble on a finite domain.

    The members are the ``features`` that generated the objective (known hyperparameters, a common
    noise variance ``noise_std``^2, prior weights w_0 = 1/M, no refits), so the posterior is exact;
    each proposal draws m ~ Cat(w_t) and theta ~ p(theta | m, D_t) (eq. 8) and takes the exact argmax
    of phi_m^T theta over ``grid``, and each observation updates every member and its weight
    recursively (eqs. 10, 11). A batch draws its points from one posterior; pending points are
    ignored (parallel Thompson sampling, Algs. 1 and 2). With no features it proposes uniform grid
    points (random search). The prior is proper, so it proposes from the first ask (``n_init = 0``).

    ``history`` holds per proposal the grid ``index`` proposed, the ``member`` drawn (-1 for random
    search), the ``weights`` w_t it was drawn from, and ``mu`` and ``sigma``, the drawn member's
    posterior mean and SD at the query (the terms of eq. 30 and of Lemma 4's confidence set).
    """

    name = "rf-exact-ts"
    proposes_from_prior = True

    def __init__(self, dim, seed=0, *, grid: np.ndarray, features: list[RandomFeatures], noise_std: float):
        super().__init__(dim, seed, n_init=0)
        self.grid = np.asarray(grid, dtype=float)
        self.ensemble = RFEnsemble(features, [noise_std ** 2] * len(features)) if features else None
        self.Phis = [member(self.grid) for member in features]

    def propose(self, n):
        return self.grid[[self.draw() for _ in range(n)]]

    def draw(self) -> int:
        """One proposal: the index of its grid point; its diagnostics go to ``history``."""
        if self.ensemble is None:
            i = int(self.rng.integers(len(self.grid)))
            self.history.append({"index": i, "member": -1, "weights": np.array([]), "mu": np.nan, "sigma": np.nan})
            return i
        weights = self.ensemble.weights
        m, theta = self.ensemble.sample(self.rng)
        i = int(np.argmax(self.Phis[m] @ theta))
        mu, var = self.ensemble.models[m].predict(self.Phis[m][i:i + 1])
        self.history.append({"index": i, "member": m, "weights": weights, "mu": float(mu[0]),
                             "sigma": float(np.sqrt(var[0]))})
        return i

    def observe(self, X, y):
        if self.ensemble is not None:
            for x, value in zip(X, y):  # a batch is absorbed one point at a time (gotcha 6)
                self.ensemble.update(x[None], value)


def rf_exact_job(rule: str, seed: int, T: int, lengthscales=(0.03, 0.1, 0.3, 1.0), n_pairs: int = 50,
                 noise_std: float = 0.1, points_per_dim: int = 512, dim: int = 1, batch_size: int = 1,
                 mode: str = "sync", member: int = 0) -> dict:
    """One run in the setting of Theorems 1-3: f is drawn from the EGP prior itself.

    Each seed draws random features for M RBF members (``lengthscales``), a true member m* ~ U{1..M}
    and theta* ~ N(0, I), so f = phi_{m*}^T theta* on a regular grid of [0, 1]^dim
    (:func:`grid_problem`). Rules (:class:`ExactEnsembleTS` with): ``egp-ts`` (the full ensemble,
    w_0 = 1/M), ``oracle`` (knows m*), ``single`` (only member ``member``), ``random`` (no members).
    :func:`bolib.loop.run` schedules the T evaluations with no initial design and draws the
    N(0, noise_std^2) observation noise and the Exp(1) durations from the seed's streams (shared by
    all rules): ``mode="sync"`` draws ``batch_size`` points per round from one posterior
    (``batch_size=1``: sequential), ``"async"`` keeps ``batch_size`` workers busy and redraws
    whenever one finishes.

    Returns per evaluation (in order of completion): ``regret``, ``round`` (the batch; in async mode
    the proposal's index), ``time`` (simulated clock at completion), ``member`` drawn (an index
    into ``lengthscales``; -1 for random), ``w_star`` (posterior weight of m* before the draw; 0
    when m* is not a member) and ``w_square`` (sum_m w_m^2), ``mu`` and ``sigma`` (posterior mean
    and SD of the drawn member at the query: eq. 30 and Lemma 4's confidence set) and the
    observation ``y``; plus ``m_star``, the final ``weights``, the members ``used``, ``f_abs_max``
    = max |f| and ``n_domain``.
    """
    check_choice("rule", rule, RF_EXACT_RULES)
    stream = make_rng(seed, "rf-exact")
    grid = unit_grid(points_per_dim, dim)
    features = [RandomFeatures("rbf", dim, n_pairs, stream, ls) for ls in lengthscales]
    m_star = int(stream.integers(len(features)))
    f = features[m_star](grid) @ stream.standard_normal(2 * n_pairs)
    used = {"egp-ts": list(range(len(features))), "oracle": [m_star], "single": [member], "random": []}[rule]
    ts = ExactEnsembleTS(dim, seed, grid=grid, features=[features[j] for j in used], noise_std=noise_std)
    trace = run(grid_problem(f, points_per_dim, dim, noise_std), ts, T, seed, n_init=0,
                batch_size=batch_size, mode=mode, durations="exponential")
    # ts.history is in the order of proposals, the trace in the order evaluations finished; points are
    # proposed in the order of their start times (ties: one batch, or the first workers, in worker order)
    proposals = np.lexsort((trace.worker, trace.start))
    if not np.array_equal(trace.X[proposals], grid[[h["index"] for h in ts.history]]):
        raise RuntimeError("the trace's start order is not the order of the proposals")
    history = [ts.history[k] for k in np.argsort(proposals)]
    weights = [h["weights"] for h in history]
    return {"regret": trace.optimum - trace.f, "round": trace.round.astype(float), "time": trace.end,
            "member": np.array([used[h["member"]] if used else -1 for h in history], dtype=float),
            "w_star": np.array([w[used.index(m_star)] if m_star in used else 0.0 if used else np.nan for w in weights]),
            "w_square": np.array([w @ w if used else np.nan for w in weights]),
            "mu": np.array([h["mu"] for h in history]), "sigma": np.array([h["sigma"] for h in history]),
            "y": trace.y, "m_star": m_star, "weights": ts.ensemble.weights if used else np.array([]), "used": used,
            "f_abs_max": float(np.abs(f).max()), "n_domain": len(grid)}


# ------------------------------------------------------------------------- Theorem 1's bound
def eq30_bound(sigma_sum, M: int, sigma_n: float, B: float, n_domain: int) -> np.ndarray:
    """The data-dependent Bayesian-regret bound of Theorem 1 (eq. 30) on a finite domain, for T = 1, 2, ...

        BR(T) <= (eta_T + beta_T^{1/2}) sum_{t <= T} E[sigma^{m_t}_{t-1}(x_t)] + 2 sigma_n sqrt(M T log T)
                 + 6 M B + sqrt(2 pi) M / 12,

    with eta_T = 2 sqrt(log T) (the confidence set of Lemma 4) and beta_T = 2 log(T^2 |X|) on a domain
    X of ``n_domain`` points, where the discretisation terms A_1 = A_5 vanish and eq. 30's pi^2 d / 6
    is dropped (spec 000). ``sigma_sum[T - 1]`` is sum_{t <= T} E[sigma^{m_t}_{t-1}(x_t)] (estimated
    by the running sum of the mean over seeds of ``sigma`` from :func:`rf_exact_job`), ``B`` bounds
    E max |f| (Lemma 3), ``sigma_n`` is the noise SD and ``M`` the number of members. log T is read as
    log max(T, 2) in eta_T and in the sigma_n term, which can only raise the bound at T = 1.
    """
    sigma_sum = np.asarray(sigma_sum, dtype=float)
    T = np.arange(1, len(sigma_sum) + 1)
    log_T = np.log(np.maximum(T, 2))
    eta, beta_root = 2 * np.sqrt(log_T), np.sqrt(2 * np.log(T ** 2 * n_domain))
    return ((eta + beta_root) * sigma_sum + 2 * sigma_n * np.sqrt(M * T * log_T) + 6 * M * B
            + np.sqrt(2 * np.pi) * M / 12)
