"""Acquisition functions and their maximisers (inputs in the unit cube [0, 1]^d).

All acquisitions take posterior means and standard deviations (torch tensors, observation units) so
that one posterior call serves any of them and gradients flow back to the inputs.

* UCB (Srinivas et al. 2010):  a(x) = mu(x) + beta^{1/2} sigma(x).
* EI (Mockus; Jones et al. 1998): with z = (mu - f+ - xi) / sigma,
  a(x) = (mu - f+ - xi) Phi(z) + sigma phi(z); for sigma -> 0, max(mu - f+ - xi, 0).
* PI (Kushner 1964): a(x) = Phi(z); for sigma -> 0, 1[mu > f+ + xi].
* Thompson sampling: the argmax of one joint posterior sample.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from bolib.multistart import multistart_maximize, unit_cube

SIGMA_FLOOR = 1e-12
_NORMAL = torch.distributions.Normal(torch.tensor(0.0, dtype=torch.float64),
                                     torch.tensor(1.0, dtype=torch.float64))


def posterior_std(var: torch.Tensor) -> torch.Tensor:
    """sigma = sqrt(max(var, 0)), with a zero gradient where var <= SIGMA_FLOOR^2. At an observed point
    of a noise-free GP round-off leaves var at or below 0, where sqrt's slope is infinite: times the
    zero slope of the clamp (or of EI's sigma -> 0 branch) that makes a NaN gradient, and one NaN
    stops a joint L-BFGS-B over all starts (:func:`maximize`). The values are sqrt's everywhere."""
    tiny = SIGMA_FLOOR ** 2
    return torch.where(var > tiny, var.clamp_min(tiny).sqrt(), var.detach().clamp_min(0.0).sqrt())


def ucb(mean: torch.Tensor, std: torch.Tensor, beta: float) -> torch.Tensor:
    """Upper confidence bound mu + sqrt(beta) sigma."""
    return mean + float(beta) ** 0.5 * std


def expected_improvement(mean: torch.Tensor, std: torch.Tensor, best: float, xi: float = 0.0) -> torch.Tensor:
    """Expected improvement over ``best`` (maximisation)."""
    gap = mean - best - xi
    safe = std.clamp_min(SIGMA_FLOOR)
    z = gap / safe
    value = gap * _NORMAL.cdf(z) + safe * torch.exp(_NORMAL.log_prob(z))
    return torch.where(std > SIGMA_FLOOR, value, gap.clamp_min(0.0))


def probability_of_improvement(mean: torch.Tensor, std: torch.Tensor, best: float, xi: float = 0.0) -> torch.Tensor:
    """Probability of improving on ``best`` (maximisation)."""
    gap = mean - best - xi
    value = _NORMAL.cdf(gap / std.clamp_min(SIGMA_FLOOR))
    return torch.where(std > SIGMA_FLOOR, value, (gap > 0).to(mean.dtype))


def argmax_grid(values, rng: np.random.Generator) -> int:
    """Index of the maximum of ``values``; ties are broken uniformly at random with ``rng``."""
    values = np.asarray(values)
    best = np.flatnonzero(values == values.max())
    return int(best[0] if len(best) == 1 else rng.choice(best))


def maximize(acquisition: Callable[[torch.Tensor], torch.Tensor], dim: int, rng: np.random.Generator,
             n_candidates: int = 2000, n_starts: int = 4, extra_starts=None,
             maxiter: int = 50) -> tuple[np.ndarray, float]:
    """Maximise a differentiable acquisition over [0, 1]^d.

    :func:`bolib.multistart.multistart_maximize` with autograd: evaluates ``n_candidates`` uniform
    candidates, then runs L-BFGS-B from the ``n_starts`` best of them plus ``extra_starts`` (e.g.
    the best observed points). All starts are optimised jointly, as one L-BFGS-B problem over the
    stacked inputs (the acquisition is separable across them), and the best point found overall,
    candidates included, is returned with its value.
    """
    return multistart_maximize(acquisition, unit_cube(dim), rng, n_candidates=n_candidates, n_starts=n_starts,
                               extra_starts=extra_starts, grad="autograd", maxiter=maxiter, batch=True)
