"""Paper 000, EGP-TS (Lu, Polyzos, Li & Giannakis, "Surrogate modeling for Bayesian optimization
beyond a single Gaussian process", arXiv:2205.14090): experiment jobs and theory checks of the
notebook ``000_egpts``.

The algorithms themselves are in :mod:`bolib.algorithms.egp_ts`; this module holds what only the
paper's notebook runs: the exactly Bayesian setting of Theorems 1-3 (:func:`rf_exact_job`). Its BO
runs, including E8's weight concentration (the ``history`` of an ``egp-ts`` run on the ``gp-draw``
benchmark), are :func:`bolib.loop.bo_job`.
"""
from __future__ import annotations

import numpy as np

from bolib.errors import check_choice
from bolib.models.ensemble import RFEnsemble
from bolib.models.rff import RandomFeatures

# ----------------------------------------------------------------- the exactly Bayesian setting
RF_EXACT_RULES = ("egp-ts", "oracle", "single", "random")


def rf_exact_job(rule: str, seed: int, T: int, lengthscales=(0.03, 0.1, 0.3, 1.0), n_pairs: int = 50,
                 noise_std: float = 0.1, points_per_dim: int = 512, dim: int = 1, batch_size: int = 1,
                 mode: str = "sync", member: int = 0) -> dict:
    """One run in the setting of Theorems 1-3: f is drawn from the EGP prior itself.

    Each seed draws random features for M RBF members (``lengthscales``), a true member m* ~ U{1..M}
    and theta* ~ N(0, I), so f = phi_{m*}^T theta* on a regular grid of [0, 1]^dim; observations
    carry N(0, noise_std^2) noise. Rules: ``egp-ts`` (the full ensemble, w_0 = 1/M), ``oracle``
    (knows m*), ``single`` (only member ``member``), ``random``. The posterior is exact (same
    features, known noise, no refits) and the argmax of each sample is exact on the grid.
    ``mode="sync"`` draws ``batch_size`` points per round from one posterior; ``"async"`` keeps
    ``batch_size`` workers busy with Exp(1) durations and redraws whenever one finishes.

    Returns per evaluation (in order of completion): ``regret``, ``round`` (sync) or ``time``
    (async), ``member`` drawn, ``w_star`` (posterior weight of m* before the draw) and
    ``w_square`` (sum_m w_m^2), ``mu`` and ``sigma`` (posterior mean and SD of the drawn member at
    the query: eq. 30 and Lemma 4's confidence set) and the observation ``y``; plus ``m_star``, the
    final ``weights``, ``f_abs_max`` = max |f| and ``n_domain``.
    """
    import heapq

    from bolib.models.grid import unit_grid
    from bolib.runtime import rng as make_rng

    check_choice("rule", rule, RF_EXACT_RULES)
    stream = make_rng(seed, "rf-exact")
    grid = unit_grid(points_per_dim, dim)
    features = [RandomFeatures("rbf", dim, n_pairs, stream, ls) for ls in lengthscales]
    m_star = int(stream.integers(len(features)))
    f = features[m_star](grid) @ stream.standard_normal(2 * n_pairs)
    noise = make_rng(seed, "rf-exact-noise").normal(0.0, noise_std, T)
    durations = make_rng(seed, "rf-exact-durations").exponential(1.0, T)
    used = {"egp-ts": list(range(len(features))), "oracle": [m_star], "single": [member], "random": []}[rule]
    ensemble = RFEnsemble([features[j] for j in used], [noise_std ** 2] * len(used)) if used else None
    Phis = [features[j](grid) for j in used]
    pick = make_rng(seed, "rf-exact", rule)
    out = {k: [] for k in ("regret", "round", "time", "member", "w_star", "w_square", "mu", "sigma", "y")}

    def draw():
        if ensemble is None:
            return int(pick.integers(len(grid))), -1, np.nan, np.nan, np.nan, np.nan
        w = ensemble.weights
        j, theta = ensemble.sample(pick)
        i = int(np.argmax(Phis[j] @ theta))
        mu, var = ensemble.models[j].predict(Phis[j][i:i + 1])
        w_star = w[used.index(m_star)] if m_star in used else 0.0
        return i, used[j], w_star, float(w @ w), float(mu[0]), float(np.sqrt(var[0]))

    def record(i, n, label, clock, member_, w_star, w_square, mu, sigma):
        y = f[i] + noise[n]
        if ensemble is not None:
            ensemble.update(grid[i][None], y)
        for key, value in zip(out, (f.max() - f[i], label, clock, member_, w_star, w_square, mu, sigma, y)):
            out[key].append(value)

    n = 0
    if mode == "sync":
        round_ = 0
        while n < T:
            round_ += 1
            batch = [draw() for _ in range(min(batch_size, T - n))]
            for i, *drawn in batch:  # absorbed one by one (gotcha 6)
                record(i, n, round_, float(round_), *drawn)
                n += 1
    else:
        check_choice("mode", mode, ("sync", "async"))
        events, started = [], 0
        for worker in range(min(batch_size, T)):
            heapq.heappush(events, (durations[started], started, draw()))
            started += 1
        while events:
            clock, k, (i, *drawn) = heapq.heappop(events)
            record(i, n, k, clock, *drawn)
            n += 1
            if started < T:
                heapq.heappush(events, (clock + durations[started], started, draw()))
                started += 1
    result = {k: np.asarray(v, dtype=float) for k, v in out.items()}
    weights = ensemble.weights if ensemble is not None else np.array([])
    return {**result, "m_star": m_star, "weights": weights, "used": used, "f_abs_max": float(np.abs(f).max()),
            "n_domain": len(grid)}
