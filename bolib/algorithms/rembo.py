"""REMBO: Bayesian optimisation in a random embedding (Wang et al., "Bayesian optimization in a billion
dimensions via random embeddings", JAIR 2016, arXiv:1301.1942), the baseline of paper 002's Fig. 5
(Kandasamy, Schneider & Póczos, ICML 2015, arXiv:1503.01673).

A matrix A in R^{D x d_e} with independent N(0, 1) entries is drawn once per run. The search runs over
y in the box [-sqrt(d_e), sqrt(d_e)]^{d_e}; a point y is evaluated at x = p(A y), where p clips each
coordinate to [-1, 1] (the objective's box, rescaled to the unit cube here). If f varies only along a
subspace of dimension <= d_e, some y reaches its maximum with probability 1.

Here: an SE GP on the embedded points (rescaled to [0, 1]^{d_e}), with its lengthscale, scale and noise
fitted by marginal likelihood at its first fit and whenever it holds 2, 4, 8, ... points, held fixed in
between; UCB with
beta_t = 0.2 d_e log 2t (the practical rule of paper 002, which does not state REMBO's acquisition),
maximised by DIRECT with ``acq_evals`` evaluations. Only REMBO's own queries enter its GP: a point told
from elsewhere (a shared initial design) has no preimage y in general. Until its first own observation it
proposes uniform points of the y-box.
"""
from __future__ import annotations

import math

import numpy as np

from bolib.algorithms.add_gp_ucb import beta_practical, direct_maximize, group_ucb
from bolib.algorithms.base import Optimizer
from bolib.errors import check_integer
from bolib.models import GP


class REMBO(Optimizer):
    """REMBO with UCB (module docstring). ``embed_dim``: d_e (default min(5, D); paper 002 used 9 for SDSS
    and 5 for Viola-Jones); ``acq_evals``: DIRECT evaluations per proposal (default min(5000, 100 D))."""

    name = "rembo"
    cheap_settings = {"acq_evals": 30, "fit_starts": 1}

    def __init__(self, dim, seed=0, *, embed_dim=None, acq_evals=None, fit_starts=2, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.embed_dim = min(5, self.dim) if embed_dim is None else int(embed_dim)
        if not 1 <= self.embed_dim <= self.dim:
            raise ValueError(f"embed_dim must be in 1..{self.dim}; got {embed_dim}")
        self.acq_evals = min(5000, 100 * self.dim) if acq_evals is None else check_integer("acq_evals", acq_evals, 1)
        self.fit_starts = int(fit_starts)
        self.A = self.rng.standard_normal((self.dim, self.embed_dim))
        self.half_width = math.sqrt(self.embed_dim)
        self.Z: list[np.ndarray] = []  # own queries, embedded coordinates in [0, 1]^{d_e}
        self.values: list[float] = []
        self._asked: dict[bytes, np.ndarray] = {}
        self.gp: GP | None = None

    def to_unit(self, z: np.ndarray) -> np.ndarray:
        """x = p(A y) in the unit cube, for z in [0, 1]^{d_e} (y = (2z - 1) sqrt(d_e))."""
        y = (2 * np.asarray(z) - 1) * self.half_width
        return (np.clip(self.A @ y, -1.0, 1.0) + 1) / 2

    def observe(self, X, y):
        for x, v in zip(X, y):
            z = self._asked.pop(np.asarray(x, dtype=float).tobytes(), None)
            if z is not None:
                self.Z.append(z)
                self.values.append(float(v))

    def _next_point(self) -> np.ndarray:
        n = len(self.values)
        if n == 0:
            z = self.rng.random(self.embed_dim)
        else:
            fresh = self.gp is None
            if fresh:
                self.gp = GP("rbf", starts=self.fit_starts, seed=self.seed)
            self.gp.fit(np.array(self.Z), np.array(self.values), refit=fresh or n & (n - 1) == 0)
            z = direct_maximize(group_ucb(self.gp, 0, beta_practical(n + 1, self.embed_dim)), self.embed_dim,
                                self.acq_evals)
        x = self.to_unit(z)
        self._asked[x.tobytes()] = z
        return x

    def propose(self, n):
        """One REMBO step; the further points of a batch are uniform points of the y-box (REMBO is sequential)."""
        points = [self._next_point()]
        for _ in range(n - 1):
            z = self.rng.random(self.embed_dim)
            x = self.to_unit(z)
            self._asked[x.tobytes()] = z
            points.append(x)
        return np.vstack(points)
