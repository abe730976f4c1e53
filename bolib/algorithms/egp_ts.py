"""Paper 000 (Lu et al.): Thompson sampling with an ensemble of GPs (EGP-TS), sequential or parallel.

``egp-ts`` keeps M random-feature GPs (:class:`bolib.models.ensemble.RFEnsemble`), one per kernel of
a dictionary, and at each step

1. draws a member m ~ Cat(w_t) and a weight vector theta ~ p(theta | m, D_t)   (eq. 8),
2. queries the maximiser of the sampled function phi_m(u)^T theta over the unit cube,
3. after each observation updates every member and its weight recursively     (eqs. 10, 11).

Every ``refit_every`` evaluations (and at the first one) the members' hyperparameters are refitted
by type-II maximum likelihood on an exact GP, fresh features are drawn, and the posteriors and
weights are recomputed in batch (eqs. 7, 17) (Alg. 1, line 13). Outputs are standardised at each
refit and the transform is frozen until the next one, so the recursive updates stay consistent.

Batches (Alg. 1 with K > 1) draw K independent (m, theta) pairs from the same posterior; the
asynchronous version (Alg. 2) asks one point whenever a worker frees up, with the other workers'
points pending. Both come from :func:`bolib.loop.run` (``mode="sync"`` / ``"async"``).

Baselines of Sec. 6 built on the same pieces:

* ``rf-gp-ts``: single-kernel random-feature GP-TS (M = 1), refitted at every iteration;
* ``bandit-bo``: every member draws a sample and maximises it; the member whose sampled maximum is
  largest is pulled (Nguyen et al. 2020, adapted: all members see all the data);
* ``exp3-bo``: EXP3 over the members (Gopakumar et al. 2018, adapted): p_m = (1 - g) w_m / sum w + g / M,
  g = min(1, sqrt(M ln M / ((e - 1) T))); reward (y - y_min) / (y_max - y_min) of the pulled member;
* ``fb-gp-ts``: fully Bayesian GP-TS with an RBF kernel and uniform priors (output scale in [1, 100],
  lengthscale in [1e-3, 1e3], noise in [0.1, 0.3], standardised outputs); one hyperparameter draw per
  iteration from a random-walk Metropolis chain (in logit coordinates, on the exact-GP evidence;
  200 burn-in steps, then 30 per iteration) replaces the paper's NUTS, too slow on 2 cores;
* ``egp-ei``: Remark 1, exact GPs (no random features) refitted every iteration, weights from the
  type-II evidence, a member drawn from them, and EI of that member maximised.

Dictionaries: ``"four"`` = RBF, RBF-ARD, Matérn-3/2, Matérn-5/2 (all hyperparameters fitted);
``"rbf11"`` = RBF with lengthscales 10^c, c = -4..6, fixed (output scale and noise fitted).

Fixed lengthscales (and FB-GP-TS's lengthscale box) are in unit-cube units unless
``lengthscale_units`` gives the width of each input's range in the units they are stated in: a
lengthscale l then acts as l / width_i along input i of the unit cube (an ARD kernel where the widths
differ). Paper 000 states its 11-RBF grid and FB-GP-TS's box on the functions' own domains (Table 1).
"""
from __future__ import annotations

import numpy as np
from scipy.special import expit

from bolib.algorithms.base import Optimizer, refit_due
from bolib.algorithms.baselines import GPEI
from bolib.errors import check_choice
from bolib.models import GP
from bolib.models.ensemble import RFEnsemble, normalise
from bolib.models.rff import RandomFeatures
from bolib.multistart import multistart_maximize, unit_cube

#: name -> list of (kernel, ARD?, fixed lengthscale or None)
DICTIONARIES = {
    "four": [("rbf", False, None), ("rbf", True, None), ("matern15", False, None), ("matern25", False, None)],
    "rbf11": [("rbf", False, 10.0 ** c) for c in range(-4, 7)],
}
NOISE_FLOOR = 1e-4  # on standardised outputs: keeps the rank-2D posteriors from collapsing


def unit_widths(widths, dim: int) -> np.ndarray | None:
    """``lengthscale_units`` checked: None, or ``dim`` positive finite widths."""
    if widths is None:
        return None
    widths = np.broadcast_to(np.asarray(widths, dtype=float), (dim,)).copy()
    if not np.all(np.isfinite(widths) & (widths > 0)):
        raise ValueError(f"lengthscale_units must be positive finite widths, one per input; got {widths.tolist()}")
    return widths


def member_label(kernel: str, ard: bool, lengthscale) -> str:
    if lengthscale is not None:
        return f"{kernel} l=1e{int(round(np.log10(lengthscale)))}"
    return f"{kernel}{'-ard' if ard else ''}"


def maximize_features(features: RandomFeatures, theta: np.ndarray, rng: np.random.Generator,
                      n_candidates: int = 2000, n_starts: int = 5, incumbent=None,
                      maxiter: int = 100) -> np.ndarray:
    """argmax over [0, 1]^d of the sampled function g(u) = phi(u)^T theta.

    :func:`bolib.multistart.multistart_maximize`: uniform candidates (plus the incumbent) in one
    matrix product, then L-BFGS-B from the best ``n_starts``, one after another, with the analytic
    gradient :meth:`RandomFeatures.value_and_gradient`.
    """
    u, _ = multistart_maximize(lambda U: features(U) @ theta, unit_cube(features.dim), rng,
                               n_candidates=n_candidates, n_starts=n_starts, extra_candidates=incumbent,
                               grad=lambda x: features.value_and_gradient(x, theta), maxiter=maxiter)
    return u


class EGPTS(Optimizer):
    """EGP-TS (Algorithms 1 and 2 of paper 000); ``history`` holds per proposal the member drawn and
    the weights it was drawn from."""

    name = "egp-ts"

    cheap_settings = {"n_candidates": 100, "n_starts": 1}

    def __init__(self, dim, seed=0, *, dictionary="four", members=None, n_pairs=50, refit_every=50,
                 weight_floor=None, n_candidates=2000, n_starts=5, hyperprior="none", lengthscale_units=None,
                 n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.hyperprior = hyperprior
        self.widths = unit_widths(lengthscale_units, dim)
        self.members = list(members) if members is not None else \
            DICTIONARIES[check_choice("dictionary", dictionary, DICTIONARIES)]
        self.n_pairs, self.refit_every = int(n_pairs), int(refit_every)
        self.weight_floor = weight_floor
        self.n_candidates, self.n_starts = int(n_candidates), int(n_starts)
        self.ensemble: RFEnsemble | None = None
        self._fitted_at = 0

    @property
    def labels(self) -> list[str]:
        return [member_label(*member) for member in self.members]

    # ---------------------------------------------------------------------- model
    def _standardise(self, y):
        return (np.asarray(y, dtype=float) - self._y_mean) / self._y_std

    def refit(self) -> None:
        """New hyperparameters and features per member, then batch posteriors and weights (eqs. 7, 17)."""
        self._y_mean = float(self.y.mean())
        self._y_std = float(self.y.std()) if len(self.y) > 1 and self.y.std() > 0 else 1.0
        z = self._standardise(self.y)
        features, noises = zip(*(self.member_hyperparameters(member, z) for member in self.members))
        self.ensemble = RFEnsemble(features, noises).fit(self.X, z)
        self._fitted_at = len(self.y)

    def member_hyperparameters(self, member, z) -> tuple[RandomFeatures, float]:
        """ML-II on an exact GP (lengthscale kept if the member fixes it); fresh features."""
        kernel, ard, lengthscale = member
        if lengthscale is not None:
            ard, lengthscale = self.on_unit_cube(ard, lengthscale)
        gp = GP(kernel, ard=ard, lengthscale=lengthscale, fit_lengthscale=lengthscale is None,
                standardize=False, hyperprior=self.hyperprior, seed=self.seed).fit(self.X, z)
        hyper = gp.hyperparameters
        features = RandomFeatures(kernel, self.dim, self.n_pairs, self.rng, hyper["lengthscale"][0],
                                  hyper["outputscale"][0])
        return features, max(hyper["noise"], NOISE_FLOOR)

    def on_unit_cube(self, ard: bool, lengthscale: float):
        """(ARD?, lengthscale on the unit cube) of a lengthscale stated in ``lengthscale_units``."""
        if self.widths is None:
            return ard, lengthscale
        if np.ptp(self.widths) == 0:
            return ard, lengthscale / self.widths[0]
        return True, lengthscale / self.widths

    def observe(self, X, y):
        due = refit_due(len(self.y), 0 if self.ensemble is None else self._fitted_at, self.refit_every)
        if due:
            self.refit()
            return
        for x, value in zip(X, self._standardise(y)):
            self.ensemble.update(x[None], value)

    # ----------------------------------------------------------------- proposals
    def propose(self, n):
        incumbent = self.best_rows(1)
        points = []
        for _ in range(n):
            member, weights, u = self.choose(incumbent)
            self.history.append({"member": member, "weights": weights})
            points.append(u)
        return np.array(points)

    def choose(self, incumbent) -> tuple[int, np.ndarray, np.ndarray]:
        """One Thompson step (eq. 8): (member drawn, the weights it was drawn from, the point)."""
        m, theta = self.ensemble.sample(self.rng, self.weight_floor)
        return m, self.ensemble.weights.copy(), self.maximize(m, theta, incumbent)

    def maximize(self, m, theta, incumbent) -> np.ndarray:
        return maximize_features(self.ensemble.features[m], theta, self.rng, self.n_candidates, self.n_starts,
                                 incumbent)


class RFGPTS(EGPTS):
    """Single-kernel random-feature GP-TS, refitted every iteration (the paper's GP-TS baseline)."""

    name = "rf-gp-ts"

    def __init__(self, dim, seed=0, *, kernel="rbf", ard=False, lengthscale=None, refit_every=1, **settings):
        super().__init__(dim, seed, members=[(kernel, ard, lengthscale)], refit_every=refit_every, **settings)


class BanditBO(EGPTS):
    """BanditBO: pull the member whose own Thompson sample has the largest maximum."""

    name = "bandit-bo"

    def __init__(self, dim, seed=0, *, refit_every=1, **settings):
        super().__init__(dim, seed, refit_every=refit_every, **settings)

    def choose(self, incumbent):
        best = (-np.inf, None, None)
        for m, (features, model) in enumerate(zip(self.ensemble.features, self.ensemble.models)):
            theta = model.sample_weights(self.rng)[0]
            u = self.maximize(m, theta, incumbent)
            value = float((features(u[None]) @ theta)[0])
            if value > best[0]:
                best = (value, m, u)
        return best[1], self.ensemble.weights.copy(), best[2]


class EXP3BO(EGPTS):
    """EXP3BO: an EXP3 bandit picks the member, then Thompson sampling with that member."""

    name = "exp3-bo"

    def __init__(self, dim, seed=0, *, horizon=200, refit_every=1, **settings):
        super().__init__(dim, seed, refit_every=refit_every, **settings)
        M = len(self.members)
        self.gamma = min(1.0, np.sqrt(M * np.log(M) / ((np.e - 1) * horizon))) if M > 1 else 1.0
        self.log_omega = np.zeros(M)
        self._pulls: list[tuple[np.ndarray, int, float]] = []

    def probabilities(self) -> np.ndarray:
        omega = np.exp(normalise(self.log_omega))
        return (1 - self.gamma) * omega + self.gamma / len(omega)

    def choose(self, incumbent):
        p = self.probabilities()
        m = int(self.rng.choice(len(p), p=p))
        u = self.maximize(m, self.ensemble.models[m].sample_weights(self.rng)[0], incumbent)
        self._pulls.append((u, m, float(p[m])))
        return m, p, u

    def observe(self, X, y):
        low, high = float(self.y.min()), float(self.y.max())
        for x, value in zip(X, y):
            for j, (u, m, p_m) in enumerate(self._pulls):
                if np.allclose(u, x, rtol=0, atol=1e-12):
                    reward = np.clip((value - low) / (high - low), 0, 1) if high > low else 0.0
                    self.log_omega[m] += self.gamma * reward / (p_m * len(self.log_omega))
                    del self._pulls[j]
                    break
        super().observe(X, y)


class EGPEI(GPEI):
    """EGP-EI (Remark 1): exact GPs per member, evidence weights, EI of a sampled member.

    Every member is refitted at each step; each point of a batch draws its own member, which is
    conditioned on the batch's earlier points as fantasies (see :class:`GPOptimizer`).
    """

    name = "egp-ei"

    def __init__(self, dim, seed=0, *, dictionary="four", members=None, **settings):
        self.members = list(members) if members is not None else \
            DICTIONARIES[check_choice("dictionary", dictionary, DICTIONARIES)]
        super().__init__(dim, seed, **settings)

    def build_models(self, kernel, ard, lengthscale, noise) -> None:
        """One GP per member: the dictionary's kernels and lengthscales stand in for ``kernel``, ``ard``
        and ``lengthscale``; ``noise`` (fitted if None) applies to every member."""
        self.gps = [GP(member_kernel, ard=member_ard, lengthscale=ls, fit_lengthscale=ls is None, noise=noise,
                       **self.gp_settings) for member_kernel, member_ard, ls in self.members]

    def fit_model(self) -> None:
        """Refit every member; weights proportional to the type-II evidence."""
        self.weights = np.exp(normalise(np.array([gp.fit(self.X, self.y).log_evidence for gp in self.gps])))

    def next_model(self) -> GP:
        m = int(self.rng.choice(len(self.weights), p=self.weights))
        self.history.append({"member": m, "weights": self.weights})
        return self.gps[m]


#: FB-GP-TS priors (App. E): uniform boxes for (output scale, lengthscale, noise variance)
FB_PRIOR = np.array([[1.0, 1e-3, 0.1], [100.0, 1e3, 0.3]])


class FBGPTS(EGPTS):
    """Fully Bayesian GP-TS: Thompson sampling under one posterior draw of the hyperparameters."""

    name = "fb-gp-ts"

    cheap_settings = {**EGPTS.cheap_settings, "burn_in": 10, "steps": 2}

    def __init__(self, dim, seed=0, *, burn_in=200, steps=30, step_size=0.5, **settings):
        super().__init__(dim, seed, members=[("rbf", False, None)], refit_every=1, **settings)
        self.burn_in, self.steps, self.step_size = int(burn_in), int(steps), float(step_size)
        self.state: np.ndarray | None = None  # the chain's position in logit coordinates

    def log_posterior(self, state, z) -> float:
        """Exact-GP log evidence + log prior density of the logit coordinates (uniform box prior)."""
        s = expit(state)
        outputscale, lengthscale, noise = FB_PRIOR[0] + s * (FB_PRIOR[1] - FB_PRIOR[0])
        ard, lengthscale = self.on_unit_cube(False, lengthscale)
        gp = GP("rbf", ard=ard, lengthscale=lengthscale, outputscale=outputscale, noise=noise, fit=False,
                standardize=False).fit(self.X, z)
        return gp.log_evidence + float(np.sum(np.log(s) + np.log1p(-s)))

    def member_hyperparameters(self, member, z):
        n_steps = self.burn_in if self.state is None else self.steps
        state = np.zeros(3) if self.state is None else self.state
        current = self.log_posterior(state, z)
        for _ in range(n_steps):
            proposal = state + self.step_size * self.rng.standard_normal(3)
            candidate = self.log_posterior(proposal, z)
            if np.log(self.rng.random()) < candidate - current:
                state, current = proposal, candidate
        self.state = state
        outputscale, lengthscale, noise = FB_PRIOR[0] + expit(state) * (FB_PRIOR[1] - FB_PRIOR[0])
        features = RandomFeatures("rbf", self.dim, self.n_pairs, self.rng, self.on_unit_cube(False, lengthscale)[1],
                                  outputscale)
        return features, float(noise)
