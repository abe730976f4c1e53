"""Paper 001 (Kim & Sanz-Alonso): noise-free BO with random exploration.

Ask/tell optimisers (all on the noise-free GP, ``noise=0.0`` by default):

* ``exploit``  : x_t = argmax mu_{t-1}                      (GP-UCB with beta = 0; Sec. 5 baseline)
* ``explore``  : x_t = argmax sigma_{t-1}                   (Fig. 1 baseline)
* ``gp-ucb+``  : Algorithm 2. x_t = argmax mu + beta^{1/2} sigma on the posterior of *all* queries
                 so far, then one exploration point x~_t ~ P (uniform on the cube, or scrambled Sobol)
* ``exploit+`` : Algorithm 3. Algorithm 2 with x_t = argmax mu; it has no beta at all.

GP-UCB itself (Algorithm 1) is :class:`bolib.algorithms.baselines.GPUCB` with ``noise=0.0``;
UNIFORM is ``random``. The exploration points come from a stream that depends only on the seed, so
GP-UCB+ and EXPLOIT+ explore at the same points for a given seed.

beta rules (Sec. 3-5): :data:`BETA_TWO` (beta^{1/2} = 2, "well tuned"), :func:`bolib.algorithms.baselines.beta_sup`
(beta^{1/2} = max over a Latin hypercube of |f|; ``beta="sup"``), :func:`beta_rkhs` (Thm 3.1 / 4.4),
:func:`beta_gp_theory` (Thm 4.8) and :func:`beta_finite` (Srinivas et al., Lemma 5.1, finite domain).

:func:`bolib.papers.gp_ucb_plus.grid_run` runs the same rules on a finite domain with the exact posterior of a known kernel
(:class:`bolib.models.grid.GridPosterior`), the setting in which the theorems are checked.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.stats import qmc

from bolib import acquisition as acq
from bolib.algorithms.baselines import GPUCB, GPOptimizer
from bolib.errors import check_choice
from bolib.runtime import rng as make_rng

#: TWO: beta^{1/2} = 2 (Sec. 5.1; App. B writes "beta_t = 2", meaning its square root)
BETA_TWO = 4.0
EXPLORATIONS = ("uniform", "sobol")


# ---------------------------------------------------------------------------------- beta rules
def beta_rkhs(rkhs_norm: float) -> float:
    """Thm 3.1 / 4.4: beta_t = ||f||_H^2 (constant in t)."""
    return float(rkhs_norm) ** 2


def beta_gp_theory(t: int, dim: int, delta: float, a: float, b: float, r: float) -> float:
    """Thm 4.8 on X = [-r, r]^d, where P(sup |df/dx_j| > L) <= a exp(-L^2 / b^2):

    beta_t = 2 log(2 t^2 pi^2 / (3 delta)) + 2 d log(2 t^2 d b r sqrt(log(4 d a / delta))).
    """
    return (2 * math.log(2 * t * t * math.pi ** 2 / (3 * delta))
            + 2 * dim * math.log(2 * t * t * dim * b * r * math.sqrt(math.log(4 * dim * a / delta))))


def beta_finite(t: int, n_domain: int, delta: float) -> float:
    """Finite domain D (Srinivas et al. 2010, Lemma 5.1): beta_t = 2 log(|D| pi^2 t^2 / (6 delta))."""
    return 2 * math.log(n_domain * math.pi ** 2 * t * t / (6 * delta))


# ------------------------------------------------------------------------ exploration points
class ExplorationSequence:
    """The points x~_1, x~_2, ... ~ P: i.i.d. uniform, or scrambled Sobol (Remark 4.5)."""

    def __init__(self, dim: int, seed: int, kind: str = "uniform"):
        self.kind = check_choice("exploration", kind, EXPLORATIONS)
        self._stream = make_rng(seed, "exploration")
        self._draw = (qmc.Sobol(dim, scramble=True, seed=self._stream).random if kind == "sobol"
                      else lambda n: self._stream.random((n, dim)))

    def next(self) -> np.ndarray:
        return self._draw(1)[0]

    def next_index(self, n_points: int, tree=None) -> int:
        """The next exploration point on a finite domain of ``n_points`` points: P uniform on the
        domain (a uniform index), or the scrambled Sobol point snapped to its nearest domain point
        (``tree``: a :class:`scipy.spatial.cKDTree` of the domain)."""
        if self.kind == "uniform":
            return int(self._stream.integers(n_points))
        if tree is None:
            raise ValueError("Sobol exploration on a finite domain needs the domain's cKDTree (tree=...)")
        return int(tree.query(self.next())[1])


# ---------------------------------------------------------------------------- ask/tell methods
class Exploit(GPOptimizer):
    """EXPLOIT: x_t = argmax_x mu_{t-1}(x)."""

    name = "exploit"
    fantasy = "liar"  # a kriging believer leaves argmax mu unchanged, so a batch would repeat it

    def __init__(self, dim, seed=0, *, noise=0.0, **settings):
        super().__init__(dim, seed, noise=noise, **settings)

    def acquisition(self, gp, X):
        return gp.posterior(X)[0]


class Explore(Exploit):
    """EXPLORE: x_t = argmax_x sigma_{t-1}(x)."""

    name = "explore"

    def acquisition(self, gp, X):
        return acq.posterior_std(gp.posterior(X)[1])


class _RandomExploration:
    """Mixin for Algorithms 2 and 3: every acquisition point x_t is followed by one x~_t ~ P.

    Both points of an iteration come from one posterior (x~_t does not depend on the data). When
    the loop asks one point at a time, x~_t is handed out at the next ask, before the posterior is
    refitted, so the posterior used for x_{t+1} conditions on X_t^full = X_{t-1}^full + {x_t, x~_t}.
    In a batch, the points already chosen are pending for the next acquisition point.
    """

    def _init_exploration(self, exploration: str) -> None:
        self.exploration = ExplorationSequence(self.dim, self.seed, exploration)
        self._queued: list[np.ndarray] = []

    def propose(self, n):
        points = []
        while len(points) < n:
            if self._queued:
                points.append(self._queued.pop(0))
            else:
                with self.also_pending(points):
                    points.append(super().propose(1)[0])
                self._queued.append(self.exploration.next())
        return np.array(points)


class GPUCBPlus(_RandomExploration, GPUCB):
    """GP-UCB+ (Algorithm 2): GP-UCB plus one uniformly random query per iteration."""

    name = "gp-ucb+"

    def __init__(self, dim, seed=0, *, beta=BETA_TWO, exploration="uniform", noise=0.0, **settings):
        super().__init__(dim, seed, beta=beta, noise=noise, **settings)
        self._init_exploration(exploration)


class ExploitPlus(_RandomExploration, Exploit):
    """EXPLOIT+ (Algorithm 3): maximise the posterior mean, then one random query; no beta."""

    name = "exploit+"

    def __init__(self, dim, seed=0, *, exploration="uniform", **settings):
        super().__init__(dim, seed, **settings)
        self._init_exploration(exploration)
