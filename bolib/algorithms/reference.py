"""External reference implementations, run through the same ask/tell loop.

``botorch-logei`` is BoTorch's own expected improvement, written by BoTorch's authors and used
here unchanged as a check on our EI: ``SingleTaskGP`` with its default priors, likelihood and
outcome standardisation, fitted by ``fit_gpytorch_mll`` at every step, and
``LogExpectedImprovement`` maximised by ``optimize_acqf`` on the unit cube. A batch (or pending
points) uses BoTorch's ``qLogExpectedImprovement`` with the pending points as ``X_pending`` and
``optimize_acqf(..., sequential=True)``, BoTorch's greedy batch construction.
"""
from __future__ import annotations

import torch

from bolib.algorithms.base import Optimizer


class BoTorchLogEI(Optimizer):
    """BoTorch ``SingleTaskGP`` + ``LogExpectedImprovement`` + ``optimize_acqf`` (q = 1)."""

    name = "botorch-logei"
    cheap_settings = {"num_restarts": 2, "raw_samples": 32}

    def __init__(self, dim, seed=0, *, num_restarts=4, raw_samples=256, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.num_restarts, self.raw_samples = int(num_restarts), int(raw_samples)

    def propose(self, n):
        from botorch.acquisition import LogExpectedImprovement, qLogExpectedImprovement
        from botorch.fit import fit_gpytorch_mll
        from botorch.models import SingleTaskGP
        from botorch.optim import optimize_acqf
        from gpytorch.mlls import ExactMarginalLogLikelihood

        torch.manual_seed(int(self.rng.integers(2 ** 31)))
        X = torch.as_tensor(self.X, dtype=torch.float64)
        Y = torch.as_tensor(self.y, dtype=torch.float64).unsqueeze(-1)
        model = SingleTaskGP(X, Y)
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        bounds = torch.stack([torch.zeros(self.dim), torch.ones(self.dim)]).to(torch.float64)
        if n == 1 and len(self.pending) == 0:
            acqf = LogExpectedImprovement(model, best_f=Y.max())
        else:
            acqf = qLogExpectedImprovement(model, best_f=Y.max(),
                                           X_pending=torch.as_tensor(self.pending, dtype=torch.float64)
                                           if len(self.pending) else None)
        points, _ = optimize_acqf(acqf, bounds, q=n, num_restarts=self.num_restarts,
                                  raw_samples=self.raw_samples, sequential=n > 1)
        return points.detach().numpy()
