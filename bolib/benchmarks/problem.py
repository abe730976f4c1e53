"""Problems: a function to maximise on a box, seen by the algorithms through the unit cube."""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import numpy as np

from bolib.errors import check_choice
from bolib.multistart import multistart_maximize

#: observation-noise distributions, each scaled so that ``noise_std`` is its scale parameter
NOISE_KINDS = ("gaussian", "student_t3", "laplace", "cauchy")


@dataclasses.dataclass(frozen=True)
class Problem:
    """Maximise ``fn`` over the box ``bounds`` (shape (2, d): lower and upper corners).

    ``fn`` is vectorised over rows of native inputs and returns noise-free values. ``optimum`` is
    the known (or certified) maximum and ``argmax`` the native maximisers where known. Algorithms
    call the problem on unit-cube inputs; observation noise of ``noise_kind`` and scale
    ``noise_std`` is added by the loop from a seeded stream (common random numbers).
    """

    name: str
    fn: Callable[[np.ndarray], np.ndarray]
    bounds: np.ndarray
    optimum: float = float("nan")
    argmax: np.ndarray | None = None
    noise_std: float = 0.0
    noise_kind: str = "gaussian"
    meta: dict = dataclasses.field(default_factory=dict)

    @property
    def dim(self) -> int:
        return self.bounds.shape[1]

    def to_native(self, U) -> np.ndarray:
        lo, hi = self.bounds
        return lo + np.atleast_2d(U) * (hi - lo)

    def to_unit(self, X) -> np.ndarray:
        lo, hi = self.bounds
        return (np.atleast_2d(X) - lo) / (hi - lo)

    def __call__(self, U) -> np.ndarray:
        """Noise-free values at unit-cube inputs (rows of ``U``)."""
        return np.asarray(self.fn(self.to_native(U)), dtype=float).reshape(-1)

    def noise(self, z: np.ndarray) -> np.ndarray:
        """Map standard uniforms ``z`` to noise of this problem's kind and scale."""
        from scipy import stats

        # unfrozen distributions: freezing one (e.g. stats.t(3)) costs about a millisecond per call
        ppf = {"gaussian": stats.norm.ppf, "student_t3": functools.partial(stats.t.ppf, df=3),
               "laplace": stats.laplace.ppf, "cauchy": stats.cauchy.ppf}[self.noise_kind]
        return self.noise_std * ppf(z)

    def with_noise(self, std: float, kind: str = "gaussian") -> "Problem":
        check_choice("noise kind", kind, NOISE_KINDS)
        return dataclasses.replace(self, noise_std=float(std), noise_kind=kind)

    def regret(self, values) -> np.ndarray:
        """Instantaneous regret f* - f(x)."""
        return self.optimum - np.asarray(values, dtype=float)


def multistart_maximum(fn: Callable[[np.ndarray], np.ndarray], bounds: np.ndarray,
                       rng: np.random.Generator, n_candidates: int = 4096,
                       n_starts: int = 20) -> tuple[np.ndarray, float]:
    """Maximise a vectorised ``fn`` over a box: scrambled-Sobol candidates, then L-BFGS-B polish.

    :func:`bolib.multistart.multistart_maximize` with Sobol candidates, starts polished one after
    another with finite-difference gradients and SciPy's default iteration limit.
    """
    return multistart_maximize(fn, bounds, rng, n_candidates=n_candidates, n_starts=n_starts, sampler="sobol")


def benchmark(default_dim: int, fixed: bool = False):
    """Mark ``builder(dim, **options) -> Problem`` as a benchmark for :data:`bolib.benchmarks.BENCHMARK_PATHS`.

    ``default_dim`` is the dimension used when none is asked for; ``fixed`` says the function exists
    in that dimension only.
    """
    def mark(builder):
        builder.default_dim, builder.fixed_dim = int(default_dim), bool(fixed)
        return builder
    return mark
