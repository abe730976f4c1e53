"""Batch EI by local penalisation (LP-EI): González, Dai, Hennig and Lawrence, "Batch Bayesian
Optimization via Local Penalization", AISTATS 2016 (arXiv:1505.08052).

The batch is built greedily on one GP (no fantasies). The first point maximises the transformed
acquisition g(EI(x)); each further point maximises g(EI(x)) times one local penaliser per point chosen
before it (eq. 5 of that paper, in its maximisation form). The penaliser of a chosen point x_j is the
probability that x lies *outside* the ball around x_j that, if f(x_j) were observed, could not contain
a maximiser: a function with Lipschitz constant L cannot climb from f(x_j) to its maximum M within a
distance (M - f(x_j)) / L. With f(x_j) ~ N(mu(x_j), sigma^2(x_j)) under the GP (their Prop. 1),

    phi(x; x_j) = Phi((L ||x - x_j|| - M + mu(x_j)) / sigma(x_j)),

which is Phi(-(M - mu(x_j)) / sigma(x_j)) <= 1/2 at x_j when M >= mu(x_j), and tends to 1 far from it.
"""
from __future__ import annotations

import numpy as np
import torch

from bolib import acquisition as acq
from bolib.algorithms.baselines import GPEI
from bolib.models import GP
from bolib.multistart import multistart_maximize, unit_cube

#: L below this (a flat mean: no information on the slope) is replaced by LIPSCHITZ_FLAT
LIPSCHITZ_FLOOR = 1e-7
#: the value GPyOpt's local penalisation uses for a flat mean (in standardised units, per unit cube)
LIPSCHITZ_FLAT = 10.0


def mean_gradient_norm(gp: GP, X) -> np.ndarray:
    """||grad_x mu(x)|| at the rows of ``X`` (unit-cube coordinates, observation units), by autograd."""
    with torch.enable_grad():
        leaf = torch.as_tensor(np.asarray(X, dtype=float), dtype=torch.float64).requires_grad_(True)
        mean, _ = gp.posterior(leaf)
        (grad,) = torch.autograd.grad(mean.sum(), leaf)
    return grad.norm(dim=-1).numpy()


def log_penalizer(X: torch.Tensor, centre: np.ndarray, mu: float, sigma: float, L: float, M: float) -> torch.Tensor:
    """log phi(x; x_j) of the local penaliser (González et al. 2016, eq. 5 / Prop. 1, maximisation form):
    log Phi((L ||x - x_j|| - M + mu(x_j)) / sigma(x_j)), differentiable in ``X``."""
    centre_t = torch.as_tensor(centre, dtype=torch.float64)
    distance = ((X - centre_t) ** 2).sum(-1).clamp_min(1e-30).sqrt()
    z = (L * distance - M + mu) / max(sigma, acq.SIGMA_FLOOR)
    return torch.special.log_ndtr(z)


class LPEI(GPEI):
    """LP-EI: greedy batches of softplus-transformed EI times local penalisers (see the module docstring).

    * L = max_x ||grad mu(x)|| over the unit cube: the gradient norm on ``n_candidates`` uniform points,
      then L-BFGS-B (finite differences) from the best of them, one start after another (as GPyOpt
      estimates it); a flat mean (L < 1e-7) takes L = 10 standardised units per unit length, GPyOpt's
      fallback.
    * M = max(best observation, max_x mu(x)), an estimate of max f. The LP paper writes M = max f and
      estimates it by the best observation; we take the larger of that and the GP mean's maximum (as found by
      the acquisition maximiser), so that M >= mu(x_j) at the batch points and the exclusion radius
      (M - mu(x_j)) / L is not negative
      (with M the best observation, EI's maximiser next to the incumbent has mu(x_j) > M, and its
      penaliser would exclude almost nothing).
    * g = softplus applied to EI in standardised units (EI / std(y), as GPyOpt normalises y), so the
      transformed acquisition is positive and its logarithm finite; g is increasing, so the batch's first
      point is EI's maximiser.
    * Points pending from earlier batches are penalised like the batch's own points.
    """

    name = "lp-ei"

    def propose(self, n):
        gp = self.fit_model()
        scale = float(self.y.std()) or 1.0
        L = self.lipschitz(gp)
        M = self.max_estimate(gp)
        centres = list(self.pending)
        points = []
        for _ in range(n):
            if centres:
                mus, sigmas = gp.predict(np.array(centres))
            terms = [(c, float(mus[j]), float(sigmas[j])) for j, c in enumerate(centres)]

            def log_acquisition(X, terms=terms):
                mean, var = gp.posterior(X)
                ei = acq.expected_improvement(mean, acq.posterior_std(var), float(self.y.max()), self.xi) / scale
                value = torch.log(torch.nn.functional.softplus(ei))
                for centre, mu, sigma in terms:
                    value = value + log_penalizer(X, centre, mu, sigma, L, M)
                return value

            x, _ = acq.maximize(log_acquisition, self.dim, self.rng, n_candidates=self.n_candidates,
                                n_starts=self.n_starts, extra_starts=self.best_rows(self.n_best_starts),
                                maxiter=self.maxiter)
            points.append(x)
            centres.append(x)
        self.history.append({"L": L, "M": M})
        return np.array(points)

    def lipschitz(self, gp: GP) -> float:
        """L = max_x ||grad mu(x)|| over the unit cube (see the class docstring)."""
        _, value = multistart_maximize(lambda X: mean_gradient_norm(gp, X), unit_cube(self.dim), self.rng,
                                       n_candidates=self.n_candidates, n_starts=self.n_starts, maxiter=self.maxiter)
        return value if value >= LIPSCHITZ_FLOOR else LIPSCHITZ_FLAT * (float(self.y.std()) or 1.0)

    def max_estimate(self, gp: GP) -> float:
        """M = max(best observation, max_x mu(x)) (see the class docstring)."""
        _, top_mean = acq.maximize(lambda X: gp.posterior(X)[0], self.dim, self.rng, n_candidates=self.n_candidates,
                                   n_starts=self.n_starts, extra_starts=self.best_rows(self.n_best_starts),
                                   maxiter=self.maxiter)
        return max(float(self.y.max()), top_mean)
