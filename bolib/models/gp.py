"""Exact GP regression in float64 on GPyTorch/BoTorch, noisy or noise-free.

Model: y_i = f(x_i) + eps_i with f ~ GP(0, k) on standardised outputs and eps ~ N(0, noise).
Hyperparameters (lengthscales, output scale and, for a noisy model, the noise) are fitted by type-II
maximum likelihood with BoTorch's ``fit_gpytorch_mll`` (L-BFGS-B through SciPy).

Prediction uses a cached Cholesky factor ``L L^T = K + tau I`` of the training kernel matrix:

    mu(x)      = k_X(x)^T (K + tau I)^{-1} y
    sigma^2(x) = k(x, x) - k_X(x)^T (K + tau I)^{-1} k_X(x)

For a noise-free model tau is a jitter that starts at ``jitter * outputscale`` and grows tenfold
(up to ``max_jitter * outputscale``) until the factorisation succeeds; for a noisy model tau is the
noise variance. Posterior quantities are returned in the units of the observations.
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence

import gpytorch
import numpy as np
import torch
from botorch.exceptions.errors import ModelFittingError
from botorch.exceptions.warnings import OptimizationWarning
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP

from bolib.models.kernels import kernel_matrix, make_kernel

NOISE_FREE_FLOOR = 1e-9


def _accept_line_search_stop(warning) -> bool:
    """Treat L-BFGS-B's 'ABNORMAL' line-search stop as a finished fit.

    It happens at a converged optimum (typically a noise variance pinned at its floor for
    noise-free data). SciPy >= 1.15 shortened the message, so BoTorch's own handler no longer
    recognises it and would retry from random starts and give up.
    """
    return issubclass(warning.category, OptimizationWarning) and "ABNORMAL" in str(warning.message)


def _first_occurrences(X: torch.Tensor, y: torch.Tensor, tol: float = 1e-9):
    """Drop rows of X within ``tol`` (max-norm) of an earlier row.

    For noise-free data a repeated input carries no information and would make K singular; the
    evaluation still counts for the loop's budget and regret, it only adds no row to K.
    """
    if len(X) < 2:
        return X, y
    close = (torch.cdist(X, X, p=float("inf")) <= tol).tril(-1).any(dim=1)
    return X[~close], y[~close]


class GP:
    """Exact GP with a fast cached-Cholesky posterior.

    Parameters
    ----------
    kernel, ard, groups, lengthscale, outputscale
        See :func:`bolib.models.kernels.make_kernel`.
    noise
        ``None`` fits a Gaussian noise variance; a number fixes it (in standardised units);
        ``0.0`` gives the noise-free model (interpolation up to the jitter; repeated inputs are
        kept once).
    fit
        Fit hyperparameters by maximum likelihood; ``False`` keeps the given values (theory checks
        with a known kernel).
    fit_lengthscale
        With ``fit=True``, ``False`` keeps the lengthscale at its given value and fits the rest.
    standardize
        Standardise observations before fitting (the prior is then on the standardised scale).
    """

    def __init__(self, kernel: str = "matern25", *, ard: bool = False,
                 groups: Sequence[Sequence[int]] | None = None,
                 lengthscale=None, outputscale: float | None = None, noise: float | None = None,
                 fit: bool = True, fit_lengthscale: bool = True, standardize: bool = True,
                 jitter: float = 1e-6, max_jitter: float = 1e-4):
        self.kernel_name, self.ard, self.groups = kernel, ard, groups
        self.lengthscale, self.outputscale = lengthscale, outputscale
        self.noise, self.fit_hyperparameters, self.standardize = noise, fit, standardize
        self.fit_lengthscale = fit_lengthscale
        self.jitter, self.max_jitter = jitter, max_jitter
        self.model: SingleTaskGP | None = None
        self.tau = None

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y, refit: bool | None = None) -> "GP":
        """Condition on (X, y); refit hyperparameters if ``refit`` (default: the ``fit`` setting).

        A refit starts from the previous hyperparameters (warm start).
        """
        X = torch.as_tensor(np.asarray(X), dtype=torch.float64)
        y = torch.as_tensor(np.asarray(y), dtype=torch.float64).reshape(-1)
        if X.ndim != 2 or X.shape[0] != y.shape[0] or X.shape[0] == 0:
            raise ValueError(f"X must be (n, d) and y (n,), n >= 1; got {tuple(X.shape)}, {tuple(y.shape)}")
        if self.noise == 0.0:
            X, y = _first_occurrences(X, y)
        self.y_mean = y.mean() if self.standardize else torch.tensor(0.0, dtype=torch.float64)
        std = y.std() if self.standardize and len(y) > 1 else torch.tensor(1.0, dtype=torch.float64)
        self.y_std = std if std > 0 else torch.tensor(1.0, dtype=torch.float64)
        self.X, self.y = X, y
        z = ((y - self.y_mean) / self.y_std).unsqueeze(-1)
        previous = self.model
        self.model = self._build(X, z)
        if previous is not None:
            self.model.load_state_dict(previous.state_dict(), strict=False)
        if (self.fit_hyperparameters if refit is None else refit) and len(y) > 1:
            self._maximise_likelihood()
        self._factorise()
        return self

    def _build(self, X, z) -> SingleTaskGP:
        covar = make_kernel(self.kernel_name, X.shape[-1], ard=self.ard, groups=self.groups,
                            lengthscale=self.lengthscale, outputscale=self.outputscale)
        for name, parameter in covar.named_parameters():
            if name.endswith("raw_lengthscale"):
                parameter.requires_grad_(self.fit_lengthscale)
        fixed_noise = self.noise is not None
        likelihood = gpytorch.likelihoods.GaussianLikelihood(
            noise_constraint=gpytorch.constraints.GreaterThan(NOISE_FREE_FLOOR))
        likelihood.noise = max(self.noise, NOISE_FREE_FLOOR) if fixed_noise else 1e-2
        likelihood.raw_noise.requires_grad_(not fixed_noise)
        model = SingleTaskGP(X, z, likelihood=likelihood, covar_module=covar,
                             mean_module=gpytorch.means.ZeroMean(), outcome_transform=None)
        return model.to(torch.float64)

    def _maximise_likelihood(self) -> None:
        """Type-II ML; if every attempt fails, keep the previous hyperparameters and warn."""
        mll = gpytorch.mlls.ExactMarginalLogLikelihood(self.model.likelihood, self.model)
        start = {k: v.clone() for k, v in self.model.state_dict().items()}
        try:
            fit_gpytorch_mll(mll, warning_handler=_accept_line_search_stop)
        except ModelFittingError as err:
            self.model.load_state_dict(start)
            warnings.warn(f"GP hyperparameter fit failed ({err}); keeping the previous values")
        self.model.eval()

    def _factorise(self) -> None:
        """Cache the Cholesky factor of K + tau I (jitter escalation for a noise-free model)."""
        self.model.eval()
        with torch.no_grad():
            K = kernel_matrix(self.model.covar_module, self.X)
            eye = torch.eye(len(self.X), dtype=torch.float64)
            if self.noise == 0.0:
                scale = float(K.diagonal().max())
                tau = self.jitter * scale
                while True:
                    L, info = torch.linalg.cholesky_ex(K + tau * eye)
                    if info == 0 or tau >= self.max_jitter * scale:
                        break
                    tau *= 10
                if info != 0:
                    raise np.linalg.LinAlgError(
                        f"kernel matrix not positive definite even with jitter {tau:.1e}")
            else:
                tau = float(self.model.likelihood.noise.detach())
                L = torch.linalg.cholesky(K + tau * eye)
            self.tau, self.L = tau, L
            z = ((self.y - self.y_mean) / self.y_std).unsqueeze(-1)
            self.alpha = torch.cholesky_solve(z, L)

    # --------------------------------------------------------------- prediction
    def posterior(self, Xc: torch.Tensor, full_cov: bool = False):
        """Posterior mean and variance (or covariance) of f at ``Xc``, in observation units.

        Differentiable in ``Xc`` (torch autograd), which the acquisition maximisers use.
        """
        self._check_fitted()
        Xc = torch.as_tensor(Xc, dtype=torch.float64)
        kernel = self.model.covar_module
        Kc = kernel(Xc, self.X).to_dense()
        mean = Kc @ self.alpha.squeeze(-1)
        V = torch.linalg.solve_triangular(self.L, Kc.T, upper=False)
        if full_cov:
            cov = kernel(Xc, Xc).to_dense() - V.T @ V
            return self.y_mean + self.y_std * mean, self.y_std ** 2 * cov
        prior = kernel(Xc, Xc, diag=True)
        var = (prior - (V * V).sum(0)).clamp_min(0.0)
        return self.y_mean + self.y_std * mean, self.y_std ** 2 * var

    def predict(self, Xc) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and standard deviation as numpy arrays."""
        with torch.no_grad():
            mean, var = self.posterior(torch.as_tensor(np.asarray(Xc), dtype=torch.float64))
        return mean.numpy(), var.sqrt().numpy()

    def sample(self, Xc, n_samples: int, rng: np.random.Generator) -> np.ndarray:
        """Joint posterior samples of f at ``Xc``: array of shape (n_samples, len(Xc))."""
        with torch.no_grad():
            mean, cov = self.posterior(torch.as_tensor(np.asarray(Xc), dtype=torch.float64), full_cov=True)
        cov = cov.numpy()
        scale = max(float(np.diag(cov).max()), 1e-300)
        jitter = 1e-10 * scale
        while True:
            try:
                L = np.linalg.cholesky(cov + jitter * np.eye(len(cov)))
                break
            except np.linalg.LinAlgError:
                jitter *= 10
                if jitter > 1e-2 * scale:
                    raise
        z = rng.standard_normal((len(cov), n_samples))
        return (mean.numpy()[:, None] + L @ z).T

    @property
    def log_evidence(self) -> float:
        """log p(y | hyperparameters) of the standardised data under the fitted GP (type-II evidence):
        -1/2 z^T (K + tau I)^{-1} z - sum_i log L_ii - n/2 log 2 pi."""
        self._check_fitted()
        z = (self.y - self.y_mean) / self.y_std
        n = len(z)
        return float(-0.5 * z @ self.alpha.squeeze(-1) - torch.log(self.L.diagonal()).sum()
                     - 0.5 * n * np.log(2 * np.pi))

    # -------------------------------------------------------------- inspection
    @property
    def hyperparameters(self) -> dict[str, np.ndarray | float]:
        """Fitted hyperparameters (kernel ones on the standardised scale)."""
        self._check_fitted()
        kernel = self.model.covar_module
        parts = kernel.kernels if isinstance(kernel, gpytorch.kernels.AdditiveKernel) else [kernel]
        return {
            "lengthscale": [p.base_kernel.lengthscale.detach().numpy().ravel() for p in parts],
            "outputscale": [float(p.outputscale.detach()) for p in parts],
            "noise": float(self.model.likelihood.noise.detach()),
            "tau": self.tau,
        }

    def _check_fitted(self) -> None:
        if self.model is None:
            raise RuntimeError("call GP.fit(X, y) before asking for the posterior")
