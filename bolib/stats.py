"""Regret summaries, paired tests across seeds and per-seed rate estimators."""
from __future__ import annotations

import dataclasses

import numpy as np
from scipy import stats

from bolib.errors import check_choice


def simple_regret(f: np.ndarray, optimum: float) -> np.ndarray:
    """f* - max_{i <= t} f(x_i) along the last axis (per evaluation)."""
    return optimum - np.maximum.accumulate(np.asarray(f, dtype=float), axis=-1)


def cumulative_regret(f: np.ndarray, optimum: float) -> np.ndarray:
    """sum_{i <= t} (f* - f(x_i)) along the last axis."""
    return np.cumsum(optimum - np.asarray(f, dtype=float), axis=-1)


def per_round(values: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """The value reached at the end of each round (``rounds`` non-decreasing, as in a trace)."""
    rounds = np.asarray(rounds)
    last = np.flatnonzero(np.r_[rounds[1:] != rounds[:-1], True])
    return np.asarray(values)[..., last]


@dataclasses.dataclass
class PairedTest:
    """Paired comparison of a and b across seeds: ``diff = a - b``."""

    mean_diff: float
    ci: tuple[float, float]
    p_value: float
    alternative: str
    n: int
    test: str


def signed_rank_p(diff, alternative: str) -> float:
    """Exact p-value of Wilcoxon's signed-rank statistic by sign flips (conditional on the ranks).

    Ranks of |diff| with ties averaged, zeros keep rank but no sign; every one of the 2^n sign
    patterns is enumerated up to n = 13 (Monte Carlo with a fixed stream beyond), so the smallest
    attainable p is 2^-n, ties included: with n = 5 pairs it is 1/32.
    """
    diff = np.asarray(diff, dtype=float)
    if not np.any(diff):
        return 1.0
    signed = np.sign(diff) * stats.rankdata(np.abs(diff))
    result = stats.permutation_test((signed,), lambda s, axis: s.sum(axis), permutation_type="samples",
                                    alternative=alternative, vectorized=True, n_resamples=9999,
                                    rng=np.random.default_rng(0))
    return float(result.pvalue)


def paired_test(a, b, alternative: str = "less", level: float = 0.95, seed: int = 0) -> PairedTest:
    """Paired comparison of a and b across seeds: the exact signed-rank test of a - b
    (:func:`signed_rank_p`; ``alternative`` is about a relative to b) plus a percentile-bootstrap
    confidence interval of the mean difference (for reporting). Needs at least two pairs."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2:
        raise ValueError(f"paired_test needs two 1-D arrays of equal length >= 2; got {a.shape}, {b.shape}")
    check_choice("alternative", alternative, ("less", "greater"))
    diff = a - b
    p = signed_rank_p(diff, alternative)
    if np.ptp(diff) == 0:
        ci = (float(diff[0]), float(diff[0]))
    else:
        boot = stats.bootstrap((diff,), np.mean, confidence_level=level, n_resamples=2000,
                               rng=np.random.default_rng(seed), method="percentile")
        ci = (float(boot.confidence_interval.low), float(boot.confidence_interval.high))
    return PairedTest(float(diff.mean()), ci, p, alternative, len(diff), "exact Wilcoxon signed-rank")


def loglog_slope(x, y, level: float = 0.95) -> tuple[float, tuple[float, float]]:
    """Least-squares slope of log y on log x with a Student-t confidence interval (rates)."""
    res = stats.linregress(np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float)))
    half = stats.t.ppf(0.5 + level / 2, len(x) - 2) * res.stderr
    return float(res.slope), (float(res.slope - half), float(res.slope + half))


def increment_exponent(cumulative, eps: float = 1e-9) -> np.ndarray:
    """Per-seed exponent log2((R_T - R_{T/2}) / (R_{T/2} - R_{T/4})) of each row of cumulative regret:
    the regret added over the last half against that over the quarter before. About a for R_T ~ c + T^a
    whatever the offset c (1: linear, i.e. not no-regret), about 0 for logarithmic growth, negative once
    regret stops. Unlike log2(R_T / R_{T/2}) (:func:`doubling_exponent`) and a log-log slope, a large
    regret early on (an initial design, harm before an algorithm adapts) does not make it small: only
    the recent increments count. ``eps`` makes two zero increments give 0."""
    R = np.atleast_2d(np.asarray(cumulative, dtype=float))
    T = R.shape[1]
    q, h = R[:, T // 4 - 1], R[:, T // 2 - 1]
    return np.log2((R[:, -1] - h + eps) / (h - q + eps))


def loglog_slopes(x, curves) -> np.ndarray:
    """Per-seed least-squares slopes of log y on log x, one per row of ``curves`` (for rates
    resampled over seeds, :func:`bolib.claims.rules.rate`)."""
    logx = np.log(np.asarray(x, dtype=float))
    logy = np.log(np.atleast_2d(np.asarray(curves, dtype=float)))
    centred = logx - logx.mean()
    return (logy - logy.mean(axis=1, keepdims=True)) @ centred / (centred @ centred)


def doubling_exponent(cumulative, eps: float = 1e-9) -> np.ndarray:
    """Per-seed growth exponent over the last doubling, log2(R_T / R_{T/2}) for each row of
    cumulative regret: 1 for linear growth, 1/2 for sqrt(T), about 0 once regret stops growing
    (``eps`` makes a run whose regret is zero throughout count as bounded, exponent 0)."""
    cumulative = np.atleast_2d(np.asarray(cumulative, dtype=float))
    T = cumulative.shape[1]
    return np.log2((cumulative[:, -1] + eps) / (cumulative[:, T // 2 - 1] + eps))
