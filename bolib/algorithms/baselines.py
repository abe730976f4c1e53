"""Baseline optimisers: random search and GP-based UCB, EI, PI and Thompson sampling.

The GP methods share :class:`GPOptimizer`: an exact GP (:class:`bolib.models.GP`) refitted every
``refit_every`` observations (hyperparameters frozen in between), and an acquisition maximised by
:func:`bolib.acquisition.maximize` (candidates + multi-start L-BFGS-B, starting also from the best
observed points). For a batch, pending points are "kriging believers": the GP is conditioned on
them with its own mean as the value, which keeps the mean and shrinks the variance there.
"""
from __future__ import annotations

import numpy as np
import torch

from bolib import acquisition as acq
from bolib.algorithms.base import Optimizer
from bolib.models import GP


class RandomSearch(Optimizer):
    """Independent uniform points."""

    name = "random"

    def propose(self, n):
        return self.rng.random((n, self.dim))


class GPOptimizer(Optimizer):
    """Common machinery of GP-based methods; subclasses define :meth:`acquisition`."""

    def __init__(self, dim, seed=0, *, kernel="matern25", ard=False, lengthscale=None, noise=None,
                 refit_every=1, n_candidates=2000, n_starts=4, n_best_starts=3, maxiter=50):
        super().__init__(dim, seed)
        self.gp = GP(kernel, ard=ard, lengthscale=lengthscale, noise=noise)
        self.refit_every = int(refit_every)
        self.n_candidates, self.n_starts = int(n_candidates), int(n_starts)
        self.n_best_starts, self.maxiter = int(n_best_starts), int(maxiter)
        self._fitted_at = 0

    def fit_model(self) -> GP:
        """Condition the GP on the data, refitting hyperparameters on schedule."""
        n = len(self.y)
        refit = self._fitted_at == 0 or n - self._fitted_at >= self.refit_every
        self.gp.fit(self.X, self.y, refit=refit and self.gp.fit_hyperparameters)
        if refit:
            self._fitted_at = n
        return self.gp

    def acquisition(self, gp: GP, X: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def propose(self, n):
        if len(self.y) == 0:
            return self.rng.random((n, self.dim))
        gp = self.fit_model()
        fantasies, points = list(self.pending), []
        for i in range(n):
            if fantasies:
                Xf = np.vstack([self.X, fantasies])
                yf = np.concatenate([self.y, gp.predict(np.asarray(fantasies))[0]])
                gp.fit(Xf, yf, refit=False)
            x = self.maximize(gp)
            points.append(x)
            fantasies.append(x)
        if fantasies:
            gp.fit(self.X, self.y, refit=False)
        return np.array(points)

    def maximize(self, gp: GP) -> np.ndarray:
        best_rows = self.X[np.argsort(self.y)[::-1][: self.n_best_starts]]
        x, _ = acq.maximize(lambda X: self.acquisition(gp, X), self.dim, self.rng,
                            n_candidates=self.n_candidates, n_starts=self.n_starts,
                            extra_starts=best_rows, maxiter=self.maxiter)
        return x


class GPUCB(GPOptimizer):
    """GP-UCB with a constant ``beta`` or a schedule ``beta(t)`` (t = number of observations + 1)."""

    name = "gp-ucb"

    def __init__(self, dim, seed=0, *, beta=4.0, **settings):
        super().__init__(dim, seed, **settings)
        self.beta = beta

    def beta_t(self) -> float:
        return float(self.beta(len(self.y) + 1) if callable(self.beta) else self.beta)

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        return acq.ucb(mean, var.sqrt(), self.beta_t())


class GPEI(GPOptimizer):
    """Expected improvement over the best observed value."""

    name = "gp-ei"

    def __init__(self, dim, seed=0, *, xi=0.0, **settings):
        super().__init__(dim, seed, **settings)
        self.xi = float(xi)

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        return acq.expected_improvement(mean, var.sqrt(), float(self.y.max()), self.xi)


class GPPI(GPEI):
    """Probability of improvement over the best observed value."""

    name = "gp-pi"

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        return acq.probability_of_improvement(mean, var.sqrt(), float(self.y.max()), self.xi)


class GPTS(GPOptimizer):
    """Thompson sampling: the argmax of a joint posterior sample on fresh uniform candidates.

    Each point of a batch uses its own sample (pending points are ignored, as in parallel TS).
    """

    name = "gp-ts"

    def __init__(self, dim, seed=0, *, n_candidates=1000, **settings):
        super().__init__(dim, seed, n_candidates=n_candidates, **settings)

    def propose(self, n):
        if len(self.y) == 0:
            return self.rng.random((n, self.dim))
        gp = self.fit_model()
        points = []
        for _ in range(n):
            candidates = self.rng.random((self.n_candidates, self.dim))
            sample = gp.sample(candidates, 1, self.rng)[0]
            points.append(candidates[acq.argmax_grid(sample, self.rng)])
        return np.array(points)
