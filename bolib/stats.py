"""Regret summaries with Student-t confidence bands and paired tests across seeds."""
from __future__ import annotations

import dataclasses

import numpy as np
from scipy import stats


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
class Band:
    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    n: int


def mean_ci(samples, level: float = 0.95, axis: int = 0) -> Band:
    """Mean over ``axis`` (seeds) with a Student-t confidence interval."""
    samples = np.asarray(samples, dtype=float)
    n = samples.shape[axis]
    mean = samples.mean(axis)
    if n < 2:
        return Band(mean, mean.copy(), mean.copy(), n)
    half = stats.t.ppf(0.5 + level / 2, n - 1) * samples.std(axis, ddof=1) / np.sqrt(n)
    return Band(mean, mean - half, mean + half, n)


@dataclasses.dataclass
class PairedTest:
    """Paired comparison of a and b across seeds: ``diff = a - b``."""

    mean_diff: float
    ci: tuple[float, float]
    p_value: float
    alternative: str
    n: int
    test: str


def paired_test(a, b, alternative: str = "less", level: float = 0.95, seed: int = 0) -> PairedTest:
    """Wilcoxon signed-rank test of a - b (``alternative`` about a relative to b) plus a
    bootstrap confidence interval of the mean difference. Needs at least two pairs."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2:
        raise ValueError(f"paired_test needs two 1-D arrays of equal length >= 2; got {a.shape}, {b.shape}")
    diff = a - b
    if np.allclose(diff, 0):
        p = 1.0
    else:
        p = float(stats.wilcoxon(a, b, alternative=alternative, zero_method="zsplit").pvalue)
    if np.ptp(diff) == 0:
        ci = (float(diff[0]), float(diff[0]))
    else:
        boot = stats.bootstrap((diff,), np.mean, confidence_level=level, n_resamples=2000,
                               rng=np.random.default_rng(seed), method="percentile")
        ci = (float(boot.confidence_interval.low), float(boot.confidence_interval.high))
    return PairedTest(float(diff.mean()), ci, p, alternative, len(diff), "Wilcoxon signed-rank")


def loglog_slope(x, y, level: float = 0.95) -> tuple[float, tuple[float, float]]:
    """Least-squares slope of log y on log x with a Student-t confidence interval (rates)."""
    res = stats.linregress(np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float)))
    half = stats.t.ppf(0.5 + level / 2, len(x) - 2) * res.stderr
    return float(res.slope), (float(res.slope - half), float(res.slope + half))
