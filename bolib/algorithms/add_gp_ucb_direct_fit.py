"""Paper 002: Add-GP-UCB with the hyperparameter fit of the authors' MATLAB code, for measuring our fit against
theirs (``add-gp-ucb-direct-fit``).

:class:`bolib.algorithms.add_gp_ucb.AddGPUCB` fits the shared bandwidth h and group scale sigma by L-BFGS-B
(BoTorch) in wide boxes. The authors' code (``addGPDecompMargLikelihood.m``, called by ``addGPBO.m`` with the
defaults of ``boProcessParams.m``) maximises the same log marginal likelihood with DIRECT (their copy of
Finkel's DIRECT, ``utils/diRect.m``) in the coordinates (log h, log sigma), over

* h in [1e-5, h_UB] on the box [-1, 1]^D of the synthetic functions, h_UB = 5 lowered by the stagnation rule:
  on the unit cube the optimiser sees, [:data:`H_LOW`, min(:data:`H_HIGH`, cap)] (half those values). Their code
  holds h at its lower end once the cap reaches it; :class:`AddGPUCB`'s cap stops at 1e-5 on the unit cube, twice
  :data:`H_LOW`, so here DIRECT then searches [H_LOW, 1e-5] (a box of no width would hold its value);
* sigma in [0.03, 30] std(y_init) in the units of the observations (their kernel is sigma exp(-r^2 / 2h^2),
  sigma bounded by a standard deviation, as written), converted here to the units the GP sees and clipped to
  the GP's own scale box :data:`bolib.models.kernels.OUTPUTSCALE_BOUNDS`;
* DIRECT's stopping rule as their call sets it: at most 20 iterations (``numBwSigmaDiRectIters``) and
  ``diRect.m``'s default cap of max(n^3, 50) = 50 evaluations in two dimensions, which the call leaves unset
  (SciPy's ``direct`` completes its last iteration, as ``diRect.m`` does).

Each fit's box is kept in ``info["fit_box"]`` (with partialLearn two per refit, see below), beside ``info["refits"]``.

Everything else is :class:`AddGPUCB`: the noise, the prior mean, the refit schedule, the stagnation rule, the
acquisition, and the steps of every refit. With the learned decomposition (partialLearn, as the authors'
``addGPDecompMargLikelihood.m`` does it) a refit makes two DIRECT fits: one on the rotated inputs X A_0 with
consecutive groups, whose (h, sigma) score the candidate groupings (:meth:`AddGPUCB._learn_groups`), and one on
the grouping kept (:meth:`AddGPUCB._fit_on`); so ``info["fit_box"]`` has two boxes per refit there.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import Bounds, direct

from bolib.algorithms.add_gp_ucb import DIRECT_EPS, AddGPUCB, grouping_log_evidences
from bolib.errors import BadValueError
from bolib.models import GP
from bolib.models.kernels import OUTPUTSCALE_BOUNDS

#: the authors' bandwidth box [1e-5, 5] on [-1, 1]^D, on the unit cube (half)
H_LOW, H_HIGH = 0.5e-5, 2.5
#: the authors' scale box, in units of std(y_init) (observation units)
SCALE_BOX = (0.03, 30.0)
#: DIRECT's stopping rule in the authors' fit: iterations, evaluations (their diRect.m's default max(n^3, 50) for n = 2)
FIT_ITERATIONS, FIT_EVALUATIONS = 20, 50


class DirectFit:
    """A GP of :class:`AddGPUCBDirectFit` before its fit, as :meth:`AddGPUCB._gp` returns one: :meth:`fit` fits h and
    sigma of ``groups`` on the data it is given by :meth:`AddGPUCBDirectFit.direct_fit` and returns the GP at those
    values, which it keeps (``hyperparameters``)."""

    def __init__(self, owner: AddGPUCBDirectFit, groups):
        self.owner, self.groups, self.gp = owner, groups, None

    def fit(self, X, y) -> GP:
        self.gp = self.owner.direct_fit(self.groups, np.asarray(X), np.asarray(y))
        return self.gp

    @property
    def hyperparameters(self) -> dict:
        return self.gp.hyperparameters


class AddGPUCBDirectFit(AddGPUCB):
    """:class:`AddGPUCB` with the authors' fit of h and sigma (module docstring) and the same settings and defaults
    (decomposition partialLearn), but for ``known_kernel`` (a kernel given is not fitted). Every fit of h is
    DIRECT's, inside the stagnation cap (its box ends there), so :meth:`AddGPUCB._fit_on`'s refit at the cap does
    not arise: the cap's floor, 1e-5, lies above :data:`H_LOW`, so the box has zero width only for a
    ``max_lengthscale`` set below :data:`H_LOW`."""

    name = "add-gp-ucb-direct-fit"

    def __init__(self, dim, seed=0, **settings):
        if settings.get("known_kernel") is not None:
            raise BadValueError("add-gp-ucb-direct-fit fits its kernel: known_kernel applies to add-gp-ucb")
        super().__init__(dim, seed, **settings)

    def _scale_units(self) -> float:
        """The GP's unit of kernel scale in observation units: var(y) when the GP standardises the observations
        (prior mean mean(y)), else std(y_init)^2 (prior mean 0: observations divided by std(y_init))."""
        if self.prior_mean == "data":
            return float(np.var(self.y, ddof=1)) if len(self.y) > 1 and np.var(self.y) > 0 else 1.0
        return self.y_scale ** 2

    def fit_box(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """(h_low, h_high), (sigma_low, sigma_high) of the next fit, in the GP's units."""
        high = min(H_HIGH, self.h_cap)
        low = min(H_LOW, high)
        unit = self.y_scale / self._scale_units()
        inside = OUTPUTSCALE_BOUNDS[0] * (1 + 1e-9), OUTPUTSCALE_BOUNDS[1] * (1 - 1e-9)
        s_low = min(max(SCALE_BOX[0] * unit, inside[0]), inside[1])
        s_high = max(min(SCALE_BOX[1] * unit, inside[1]), s_low)
        return (low, high), (s_low, s_high)

    def _gp(self, groups, lengthscale=None, outputscale=None, fit=True, fit_lengthscale=True):
        """A fit of h and sigma is the authors' (:class:`DirectFit`; DIRECT is global and deterministic, so the
        warm start is unused); a fit of sigma alone (the start phase) and a GP at given values are
        :meth:`AddGPUCB._gp`'s."""
        if fit and fit_lengthscale:
            return DirectFit(self, groups)
        return super()._gp(groups, lengthscale, outputscale, fit, fit_lengthscale)

    def direct_fit(self, groups, X: np.ndarray, y: np.ndarray) -> GP:
        """The GP of ``groups`` on (X, y) at the h and sigma maximising its log marginal likelihood, found by
        DIRECT in (log h, log sigma) over :meth:`fit_box` (a box of no width holds its value)."""
        box = self.fit_box()
        self.info.setdefault("fit_box", []).append(box)
        free = [j for j, (low, high) in enumerate(box) if high > low]
        standardize = self.prior_mean == "data"

        def values(t) -> list[float]:
            out = [low for low, _high in box]
            for j, v in zip(free, t):
                out[j] = math.exp(v)
            return out

        def negative_evidence(t):
            h, s = values(t)
            return -float(grouping_log_evidences(X, y, [groups], h, s, self.noise_var, standardize)[0])

        t = []
        if free:
            t = direct(negative_evidence, Bounds([math.log(box[j][0]) for j in free], [math.log(box[j][1]) for j in free]),
                       eps=DIRECT_EPS, maxfun=FIT_EVALUATIONS, maxiter=FIT_ITERATIONS, locally_biased=False).x
        h, s = values(t)
        return self._gp(groups, h, s, fit=False).fit(X, y)
