"""Ensemble of random-feature GPs with Bayesian model weights (paper 000, eqs. 5-11, 14-19).

Each member m is a random-feature GP f_m(x) = phi_m(x)^T theta_m (a :class:`RandomFeatures` map and
a :class:`BayesianLinearModel` posterior over theta_m with the member's own noise variance). The EGP
prior picks one member with probability w_0^m; after data D_t the posterior is the mixture

    p(f | D_t) = sum_m w_t^m p(f | m, D_t),     w_t^m  proportional to  w_0^m p(D_t | m)      (eqs. 6, 7)

and one more observation (x, y) updates every member and its weight recursively (eqs. 10, 11):

    log w^m  +=  log N(y; phi_m(x)^T theta_hat_m, phi_m(x)^T Sigma_m phi_m(x) + sigma_n,m^2),

then renormalise (log-sum-exp). Because the chain rule of the evidence makes the recursive weights
equal the batch weights of eq. 7, a refit (new features) can always restart from the batch formula.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import logsumexp

from bolib.models.rff import BayesianLinearModel, RandomFeatures


def normalise(log_w) -> np.ndarray:
    """Log weights renormalised to sum to one in the linear scale, log w - logsumexp(log w): eq. 7's
    w^m = w_0^m p(D | m) / sum_j w_0^j p(D | j) from log w_0^m + log p(D | m), and eq. 10's renormalisation."""
    return log_w - logsumexp(log_w)


class RFEnsemble:
    """M random-feature GPs with log weights; ``fit`` is the batch posterior, ``update`` one step."""

    def __init__(self, features: Sequence[RandomFeatures], noises: Sequence[float],
                 log_prior=None):
        self.features = list(features)
        self.models = [BayesianLinearModel(f.n_features, noise) for f, noise in zip(self.features, noises)]
        M = len(self.features)
        self.log_prior = np.full(M, -np.log(M)) if log_prior is None else np.asarray(log_prior, dtype=float)
        self.log_weights = self.log_prior.copy()

    def __len__(self) -> int:
        return len(self.features)

    @property
    def weights(self) -> np.ndarray:
        return np.exp(self.log_weights)

    def fit(self, X, y) -> "RFEnsemble":
        """Batch posteriors (eq. 17) and batch weights (eq. 7) from scratch."""
        for f, model in zip(self.features, self.models):
            model.fit(f(X), y)
        self.log_weights = normalise(self.log_prior + np.array([model.log_evidence for model in self.models]))
        return self

    def update(self, x, y: float) -> None:
        """Recursive step (eqs. 10, 11) for one observation; a batch is absorbed point by point."""
        log_pred = np.array([model.update(f(x)[0], y) for f, model in zip(self.features, self.models)])
        self.log_weights = normalise(self.log_weights + log_pred)

    def sample(self, rng: np.random.Generator, floor: float | None = None,
               weights: np.ndarray | None = None) -> tuple[int, np.ndarray]:
        """Thompson step (eq. 8): m ~ Cat(w) (optionally floored), theta ~ p(theta | m, D).

        w is the posterior weights w_t unless ``weights`` gives others to draw the member from (the
        tempered weights of :class:`bolib.papers.egp_ts.ExactEnsembleTS`)."""
        w = self.weights if weights is None else weights
        if floor:
            w = np.maximum(w, floor)
            w = w / w.sum()
        m = int(rng.choice(len(w), p=w))
        return m, self.models[m].sample_weights(rng)[0]
