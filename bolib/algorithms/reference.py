"""External reference implementations, run through the same ask/tell loop.

``botorch-logei`` is BoTorch's own expected improvement, written by BoTorch's authors and used
here unchanged as a check on our EI: ``SingleTaskGP`` with its default priors, likelihood and
outcome standardisation, fitted by ``fit_gpytorch_mll`` at every step, and
``LogExpectedImprovement`` maximised by ``optimize_acqf`` on the unit cube. A batch (or pending
points) uses BoTorch's ``qLogExpectedImprovement`` with the pending points as ``X_pending``,
``mc_samples`` scrambled-Sobol normal samples (``None``: BoTorch's default) and
``optimize_acqf(..., sequential=True)``, BoTorch's greedy batch construction. There the posterior
is the fitted ``SingleTaskGP``'s through :class:`bolib.models.cached_posterior.CachedPosteriorGP`:
the same posterior (``python -m bolib bench --only qei_posterior`` compares them), with the pending
points' solves done once per evaluation instead of once per candidate.

With ``refit_growth > 0`` the hyperparameters are refitted on the schedule of
:func:`bolib.algorithms.base.refit_due` instead of at every step: past ``refit_after`` observations,
once the data have grown by the fraction ``refit_growth`` since the last fit, and (``refit_until > 0``)
not beyond ``refit_until`` observations. In between, a new
``SingleTaskGP`` on all observations (its outcome standardisation recomputed) takes the last fit's
hyperparameters unchanged.

``botorch-lognei`` is the same with BoTorch's noisy expected improvement (``qLogNoisyExpectedImprovement``
over the observed points), the choice for noisy objectives.

With ``warm_start=True`` each fit after the first starts ``fit_gpytorch_mll``'s L-BFGS-B from the last
fit's hyperparameters instead of ``SingleTaskGP``'s initial values: the same marginal-likelihood
maximisation from a nearby start (``python -m bolib bench --only qei_warm_fit`` compares the two
fits' likelihoods and times).
"""
from __future__ import annotations

import torch

from bolib.algorithms.base import Optimizer, refit_due


class BoTorchLogEI(Optimizer):
    """BoTorch ``SingleTaskGP`` + ``LogExpectedImprovement`` + ``optimize_acqf`` (q = 1)."""

    name = "botorch-logei"
    cheap_settings = {"num_restarts": 2, "raw_samples": 32}

    def __init__(self, dim, seed=0, *, num_restarts=4, raw_samples=256, mc_samples=None, refit_growth=0.0,
                 refit_after=0, refit_until=0, warm_start=False, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.num_restarts, self.raw_samples = int(num_restarts), int(raw_samples)
        self.mc_samples = None if mc_samples is None else int(mc_samples)
        self.refit_schedule = {"growth": float(refit_growth), "after": int(refit_after), "until": int(refit_until)}
        self.warm_start = bool(warm_start)
        self._fitted_at, self._hyperparameters = 0, None
        refit_due(1, 1, **self.refit_schedule)  # a schedule refit_due refuses is refused here, before any run

    def propose(self, n):
        from botorch.fit import fit_gpytorch_mll
        from botorch.models import SingleTaskGP
        from botorch.optim import optimize_acqf
        from gpytorch.mlls import ExactMarginalLogLikelihood

        torch.manual_seed(int(self.rng.integers(2 ** 31)))
        X = torch.as_tensor(self.X, dtype=torch.float64)
        Y = torch.as_tensor(self.y, dtype=torch.float64).unsqueeze(-1)
        model = SingleTaskGP(X, Y)
        if refit_due(len(Y), self._fitted_at, **self.refit_schedule):
            if self.warm_start and self._hyperparameters is not None:
                model.load_state_dict(self._hyperparameters, strict=False)
            fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
            self._fitted_at = len(Y)
            self._hyperparameters = {k: v for k, v in model.state_dict().items()
                                     if not k.startswith("outcome_transform.")}
        else:
            model.load_state_dict(self._hyperparameters, strict=False)
        model.eval()
        bounds = torch.stack([torch.zeros(self.dim), torch.ones(self.dim)]).to(torch.float64)
        points, _ = optimize_acqf(self.acquisition_function(model, X, Y, n), bounds, q=n,
                                  num_restarts=self.num_restarts, raw_samples=self.raw_samples, sequential=n > 1)
        return points.detach().numpy()

    def sampler(self):
        """The batch acquisition's normal samples: ``mc_samples`` scrambled-Sobol ones, or BoTorch's default."""
        from botorch.sampling import SobolQMCNormalSampler

        return None if self.mc_samples is None else SobolQMCNormalSampler(torch.Size([self.mc_samples]))

    def x_pending(self):
        return torch.as_tensor(self.pending, dtype=torch.float64) if len(self.pending) else None

    def acquisition_function(self, model, X, Y, n):
        """Log EI over the best observed value; its Monte-Carlo form for a batch or pending points."""
        from botorch.acquisition import LogExpectedImprovement, qLogExpectedImprovement

        from bolib.models.cached_posterior import CachedPosteriorGP

        if n == 1 and len(self.pending) == 0:
            return LogExpectedImprovement(model, best_f=Y.max())
        return qLogExpectedImprovement(CachedPosteriorGP(model), best_f=Y.max(), sampler=self.sampler(),
                                       X_pending=self.x_pending())


class BoTorchLogNEI(BoTorchLogEI):
    """BoTorch's noisy expected improvement (``qLogNoisyExpectedImprovement``): the improvement over the
    model's best value at the observed points, integrated over the posterior, rather than over the best
    noisy observation; otherwise :class:`BoTorchLogEI`."""

    name = "botorch-lognei"

    def acquisition_function(self, model, X, Y, n):
        from botorch.acquisition import qLogNoisyExpectedImprovement

        return qLogNoisyExpectedImprovement(model, X_baseline=X, sampler=self.sampler(), X_pending=self.x_pending(),
                                            prune_baseline=True)
