"""The exact posterior of a fitted BoTorch ``SingleTaskGP``, each distinct input solved once.

For training inputs X (n points), K = k(X, X) + sigma^2 I = L L^T and targets y in the model's
standardised space, the posterior at query points Z is (Rasmussen & Williams 2006, eqs. 2.23-2.24)

    mu(Z)     = m + k(Z, X) K^{-1} (y - m) = m + k(Z, X) alpha,
    Sigma(Z)  = k(Z, Z) - V(Z)^T V(Z),        V(Z) = L^{-1} k(X, Z),

and BoTorch's ``qLogExpectedImprovement`` with pending points asks for it on a batch of b joint
sets of q + k rows, the k pending points being the same rows in every set. The triangular solve
V costs O(n^2) per row and dominates at n in the thousands; :class:`CachedPosteriorGP` solves it
once per distinct row (b + k rows instead of b (q + k)) and assembles each set's q x q covariance
from those columns, which is the same posterior, not an approximation. Where gradients are taken
(the acquisition maximiser's L-BFGS-B steps) every row is solved on its own, so that each row,
repeated or not, receives its own gradient; the rows are shared where none is taken (the
acquisition on ``optimize_acqf``'s raw samples, which dominates at large n). The posterior is handed
back through the GP's own outcome transform, so acquisitions, samplers and ``optimize_acqf`` run
on it unchanged.
"""
from __future__ import annotations

import torch
from botorch.models.model import Model
from botorch.posteriors.gpytorch import GPyTorchPosterior
from gpytorch.distributions import MultivariateNormal
from linear_operator import to_linear_operator
from linear_operator.utils.cholesky import psd_safe_cholesky


class CachedPosteriorGP(Model):
    """The noise-free posterior of ``gp`` (a ``SingleTaskGP`` with one output, hyperparameters set,
    no input transform): the Cholesky factor and ``alpha`` computed once, V(Z) once per distinct
    query row."""

    def __init__(self, gp):
        super().__init__()
        if getattr(gp, "input_transform", None) is not None or gp.num_outputs != 1:
            raise ValueError("CachedPosteriorGP takes a single-output SingleTaskGP without an input transform")
        gp.eval()
        self.gp = gp
        X, y = gp.train_inputs[0], gp.train_targets
        with torch.no_grad():
            K = gp.covar_module(X).to_dense()
            K = K + gp.likelihood.noise * torch.eye(len(X), dtype=X.dtype)
            self._L = psd_safe_cholesky(K)  # GPyTorch's factorisation (jitter only if K is not p.d.)
            mean = gp.mean_module(X)
            self._alpha = torch.cholesky_solve((y - mean).unsqueeze(-1), self._L).squeeze(-1)
        self._X = X

    @property
    def num_outputs(self) -> int:
        return 1

    @property
    def batch_shape(self) -> torch.Size:
        return torch.Size()

    def posterior(self, X, output_indices=None, observation_noise=False, posterior_transform=None, **kwargs):
        """The joint posterior of each set of ``X``'s last-but-one dimension (batch x q x d)."""
        if observation_noise is not False or output_indices not in (None, [0]):
            raise ValueError("CachedPosteriorGP gives the noise-free posterior of its single output")
        *batch, q, d = X.shape
        rows = X.reshape(-1, d)
        if rows.requires_grad and torch.is_grad_enabled():  # each row its own gradient: no sharing
            inverse = first = torch.arange(len(rows))
        else:
            _, inverse = torch.unique(rows, dim=0, return_inverse=True)
            first = torch.full((int(inverse.max()) + 1,), len(rows), dtype=torch.long)
            first = first.scatter_reduce(0, inverse, torch.arange(len(rows)), reduce="amin")
        distinct = rows[first]
        k_xz = self.gp.covar_module(self._X, distinct).to_dense()
        V = torch.linalg.solve_triangular(self._L, k_xz, upper=False)
        mean = self.gp.mean_module(rows) + (k_xz.T @ self._alpha)[inverse]
        index = inverse.reshape(*batch, q)
        gram = (V.T @ V)[index.unsqueeze(-1), index.unsqueeze(-2)]  # V(Z)^T V(Z) of each set
        covar = self.gp.covar_module(rows.reshape(*batch, q, d)).to_dense() - gram
        posterior = GPyTorchPosterior(MultivariateNormal(mean.reshape(*batch, q), to_linear_operator(covar)))
        posterior = self.gp.outcome_transform.untransform_posterior(posterior)
        return posterior_transform(posterior) if posterior_transform is not None else posterior
