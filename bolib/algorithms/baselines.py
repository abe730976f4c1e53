"""Baseline optimisers: random search and GP-based UCB, EI, PI and Thompson sampling.

The GP methods share :class:`GPOptimizer`: an exact GP (:class:`bolib.models.GP`) whose
hyperparameters are refitted on the schedule of :func:`bolib.algorithms.base.refit_due` (every
``refit_every`` observations; past ``refit_after`` observations, once the data have grown by the
fraction ``refit_growth``; none beyond ``refit_until`` observations), conditioned on all observations in
between, and an acquisition maximised by
:func:`bolib.acquisition.maximize` (candidates + multi-start L-BFGS-B, starting also from the best
observed points). Points not yet observed (pending points and the earlier points of the same batch)
enter the GP as *fantasies*: by default the "kriging believer" (the GP's own mean as the value, which
keeps the mean and shrinks the variance there); a method whose acquisition is the mean alone uses the
"constant liar" min(y) instead (Ginsbourger et al. 2010), since a believer would leave its argmax
where it was.
"""
from __future__ import annotations

import numpy as np
import torch
from scipy.stats import qmc

from bolib import acquisition as acq
from bolib.algorithms.base import Optimizer, refit_due
from bolib.errors import BadValueError, check_choice
from bolib.models import GP
from bolib.runtime import rng as make_rng

FANTASIES = ("believer", "liar")


class RandomSearch(Optimizer):
    """Independent uniform points."""

    name = "random"

    def propose(self, n):
        return self.rng.random((n, self.dim))


class GPOptimizer(Optimizer):
    """Common machinery of GP-based methods; subclasses define :meth:`acquisition`.

    ``hyperprior`` and ``fit_starts`` go to :class:`bolib.models.GP` (MAP under BoTorch's priors or
    type-II ML; number of starts of each hyperparameter fit). The default is type-II ML, as in the
    papers; ``python -m bolib bench --only fit_choice`` compares it with MAP on the methods' final
    regret (ML was lower: geometric mean 0.152 against 0.206 over 8 methods x 3 problems, 5 seeds).
    """

    cheap_settings = {"n_candidates": 100, "maxiter": 10}
    #: how points not yet observed enter the GP (see the module docstring)
    fantasy = "believer"

    def __init__(self, dim, seed=0, *, kernel="matern25", ard=False, lengthscale=None, noise=None,
                 hyperprior="none", fit_starts=None, refit_every=1, refit_growth=0.0, refit_after=0,
                 refit_until=0, n_candidates=2000, n_starts=4, n_best_starts=3, maxiter=50, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.gp_settings = {"hyperprior": hyperprior, "seed": self.seed,
                            **({} if fit_starts is None else {"starts": fit_starts})}
        self.build_models(kernel, ard, lengthscale, noise)
        self.refit_schedule = {"every": int(refit_every), "growth": float(refit_growth), "after": int(refit_after),
                               "until": int(refit_until)}
        refit_due(1, 1, **self.refit_schedule)  # a schedule refit_due refuses is refused here, before any run
        self.n_candidates, self.n_starts = int(n_candidates), int(n_starts)
        self.n_best_starts, self.maxiter = int(n_best_starts), int(maxiter)
        self._fitted_at = 0

    def build_models(self, kernel, ard, lengthscale, noise) -> None:
        """Create the GP the method fits, ``self.gp`` (a method with several GPs overrides this)."""
        self.gp = GP(kernel, ard=ard, lengthscale=lengthscale, noise=noise, **self.gp_settings)

    def fit_model(self) -> GP:
        """Condition the GP on the data, refitting hyperparameters on schedule; return it."""
        n = len(self.y)
        refit = refit_due(n, self._fitted_at, **self.refit_schedule)
        self.gp.fit(self.X, self.y, refit=refit and self.gp.fit_hyperparameters)
        if refit:
            self._fitted_at = n
        return self.gp

    def next_model(self) -> GP:
        """The GP that chooses the next point of a batch."""
        return self.gp

    def acquisition(self, gp: GP, X: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def fantasize(self, gp: GP, X_new: np.ndarray) -> None:
        """Condition ``gp`` on the real data plus fantasy values at the points ``X_new``."""
        X_new = np.asarray(X_new, dtype=float).reshape(-1, self.dim)
        check_choice("fantasy", self.fantasy, FANTASIES)
        values = (np.full(len(X_new), self.y.min()) if self.fantasy == "liar"
                  else gp.predict(X_new)[0])
        gp.fit(np.vstack([self.X, X_new]), np.concatenate([self.y, values]), refit=False)

    def propose(self, n):
        self.fit_model()
        points, touched = [], []
        for _ in range(n):
            gp = self.next_model()
            unobserved = np.vstack([self.pending, *points]) if points else self.pending
            if len(unobserved):
                self.fantasize(gp, unobserved)
                touched.append(gp)
            points.append(self.maximize(gp)[None])
        for gp in {id(g): g for g in touched}.values():
            gp.fit(self.X, self.y, refit=False)
        return np.vstack(points)

    def maximize(self, gp: GP) -> np.ndarray:
        x, _ = acq.maximize(lambda X: self.acquisition(gp, X), self.dim, self.rng,
                            n_candidates=self.n_candidates, n_starts=self.n_starts,
                            extra_starts=self.best_rows(self.n_best_starts), maxiter=self.maxiter)
        return x


def beta_sup(problem, n_points: int, seed: int) -> float:
    """SUP (paper 001, Sec. 5, after Chowdhury & Gopalan): beta^{1/2} = max_{x in X_D} |f(x)|.

    X_D is a Latin hypercube of ``n_points`` in the unit cube drawn from the seed's "sup" stream;
    its evaluations are not charged to the budget. The value is in the objective's own units, the
    units in which :class:`bolib.models.GP` returns mu and sigma.
    """
    design = qmc.LatinHypercube(d=problem.dim, seed=make_rng(seed, "sup")).random(n_points)
    return float(np.max(np.abs(problem(design)))) ** 2


def check_beta(beta) -> float:
    """``beta`` as a float if it is a finite number >= 0 (UCB's exploration weight), else a
    :class:`~bolib.errors.BadValueError` naming the valid choices."""
    try:
        value = float(beta)
    except (TypeError, ValueError):
        value = float("nan")
    if not (np.isfinite(value) and value >= 0):
        raise BadValueError(f"beta must be a finite number >= 0, a schedule beta(t) or 'sup'; got {beta!r}")
    return value


class GPUCB(GPOptimizer):
    """GP-UCB with a constant ``beta``, a schedule ``beta(t)`` (t = number of observations + 1), or
    ``beta="sup"``: :func:`beta_sup` on ``n_sup`` points of the problem, set by :meth:`prepare`."""

    name = "gp-ucb"

    def __init__(self, dim, seed=0, *, beta=4.0, n_sup=100, **settings):
        super().__init__(dim, seed, **settings)
        if isinstance(beta, str):
            check_choice("beta rule", beta, ("sup",))
        elif not callable(beta):
            beta = check_beta(beta)
        self.beta, self.n_sup = beta, int(n_sup)

    def prepare(self, problem) -> None:
        if self.beta == "sup":
            self.beta = beta_sup(problem, self.n_sup, self.seed)
            self.info["beta"] = self.beta

    def beta_t(self) -> float:
        if self.beta == "sup":
            raise RuntimeError("beta='sup' needs the problem: call prepare(problem) before asking "
                               "(bolib.loop.run does)")
        return check_beta(self.beta(len(self.y) + 1)) if callable(self.beta) else self.beta

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        return acq.ucb(mean, acq.posterior_std(var), self.beta_t())


class GPEI(GPOptimizer):
    """Expected improvement over the best observed value."""

    name = "gp-ei"

    def __init__(self, dim, seed=0, *, xi=0.0, **settings):
        super().__init__(dim, seed, **settings)
        self.xi = float(xi)

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        return acq.expected_improvement(mean, acq.posterior_std(var), float(self.y.max()), self.xi)


class GPPI(GPEI):
    """Probability of improvement over the best observed value."""

    name = "gp-pi"

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        return acq.probability_of_improvement(mean, acq.posterior_std(var), float(self.y.max()), self.xi)


class GPTS(GPOptimizer):
    """Thompson sampling: the argmax of a joint posterior sample on fresh uniform candidates.

    Each point of a batch uses its own sample (pending points are ignored, as in parallel TS).
    """

    name = "gp-ts"

    def __init__(self, dim, seed=0, *, n_candidates=1000, **settings):
        super().__init__(dim, seed, n_candidates=n_candidates, **settings)

    def propose(self, n):
        self.fit_model()
        points = []
        for _ in range(n):
            candidates = self.rng.random((self.n_candidates, self.dim))
            sample = self.gp.sample(candidates, 1, self.rng)[0]
            points.append(candidates[acq.argmax_grid(sample, self.rng)])
        return np.array(points)
