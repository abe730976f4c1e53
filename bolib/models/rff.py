"""Random Fourier features and the Bayesian linear model over them (a random-feature GP).

Features (Rahimi & Recht 2007). A stationary kernel k(x - x') = s2 * E_omega[cos(omega^T (x - x'))]
is approximated with m frequency vectors omega_i drawn from its normalised spectral density:

    phi(x) = sqrt(s2 / m) * [cos(omega_1^T x), ..., cos(omega_m^T x), sin(omega_1^T x), ..., sin(omega_m^T x)]

so that phi(x)^T phi(x') -> k(x, x') as m grows (2m features, "feature pairs").

* RBF with lengthscale l: omega ~ N(0, l^{-2} I).
* Matérn-nu with lengthscale l (in the sqrt(2 nu) r / l form): omega is multivariate Student-t with
  2 nu degrees of freedom and scale 1/l, drawn as omega = (z / l) * sqrt(2 nu / g) with
  z ~ N(0, I) and one g ~ chi^2_{2 nu} per frequency vector.

Bayesian linear model. With prior w ~ N(0, prior_var I) and y = phi(x)^T w + eps, eps ~ N(0, noise):

    Sigma = (Phi^T Phi / noise + I / prior_var)^{-1},   m = Sigma Phi^T y / noise.

A new observation (phi, y) updates Sigma by Sherman-Morrison,

    Sigma' = Sigma - Sigma phi phi^T Sigma / (noise + phi^T Sigma phi),

and adds log N(y; phi^T m, noise + phi^T Sigma phi) to the log evidence (the chain rule), which equals
the batch log evidence log N(y; 0, prior_var Phi Phi^T + noise I).
"""
from __future__ import annotations

import numpy as np
import torch

from bolib.errors import check_choice
from bolib.models.kernels import KERNELS

LOG_2PI = np.log(2 * np.pi)


class RandomFeatures:
    """Fixed random Fourier features phi: R^d -> R^{2m} for a kernel of :data:`KERNELS`."""

    def __init__(self, kernel: str, dim: int, n_pairs: int, rng: np.random.Generator,
                 lengthscale=1.0, outputscale: float = 1.0):
        nu = KERNELS[check_choice("kernel", kernel, KERNELS)]
        self.kernel, self.dim, self.n_pairs = kernel, dim, n_pairs
        self.lengthscale = np.broadcast_to(np.asarray(lengthscale, dtype=float), (dim,)).copy()
        self.outputscale = float(outputscale)
        z = rng.standard_normal((n_pairs, dim))
        if nu is not None:
            g = rng.chisquare(2 * nu, size=(n_pairs, 1))
            z = z * np.sqrt(2 * nu / g)
        self.omega = z / self.lengthscale

    @property
    def n_features(self) -> int:
        return 2 * self.n_pairs

    def __call__(self, X):
        """phi(X) = sqrt(s / m) [cos(X Omega^T), sin(X Omega^T)]; a torch tensor ``X`` gives a tensor
        (differentiable in ``X``, e.g. for SVGD on a classifier built on these features)."""
        if isinstance(X, torch.Tensor):
            proj = torch.atleast_2d(X) @ torch.as_tensor(self.omega, dtype=X.dtype).T
            return (self.outputscale / self.n_pairs) ** 0.5 * torch.cat([proj.cos(), proj.sin()], -1)
        proj = np.atleast_2d(X) @ self.omega.T
        return np.sqrt(self.outputscale / self.n_pairs) * np.hstack([np.cos(proj), np.sin(proj)])

    def value_and_gradient(self, u, theta) -> tuple[float, np.ndarray]:
        """The sample path g(u) = phi(u)^T theta at one point ``u`` (shape (d,)) and its gradient

        grad g(u) = sqrt(s / D) Omega^T (-sin(Omega u) * theta_cos + cos(Omega u) * theta_sin),

        with theta = [theta_cos, theta_sin] split like the cos and sin features.
        """
        D = self.n_pairs
        scale = np.sqrt(self.outputscale / D)
        theta_cos, theta_sin = theta[:D], theta[D:]
        proj = self.omega @ u
        value = scale * (np.cos(proj) @ theta_cos + np.sin(proj) @ theta_sin)
        grad = scale * self.omega.T @ (-np.sin(proj) * theta_cos + np.cos(proj) * theta_sin)
        return value, grad


class BayesianLinearModel:
    """Gaussian posterior over feature weights with rank-1 updates and the log evidence."""

    def __init__(self, n_features: int, noise: float, prior_var: float = 1.0):
        if noise <= 0:
            raise ValueError("the Bayesian linear model needs a positive noise variance")
        self.noise, self.prior_var = float(noise), float(prior_var)
        self.cov = prior_var * np.eye(n_features)
        self.b = np.zeros(n_features)  # Phi^T y / noise
        self.n = 0
        self.log_evidence = 0.0  # accumulated by the chain rule in update()

    @property
    def mean(self) -> np.ndarray:
        return self.cov @ self.b

    def fit(self, Phi, y) -> "BayesianLinearModel":
        """Batch posterior from scratch."""
        Phi, y = np.atleast_2d(Phi), np.asarray(y, dtype=float).reshape(-1)
        precision = Phi.T @ Phi / self.noise + np.eye(Phi.shape[1]) / self.prior_var
        L = np.linalg.cholesky(precision)
        L_inv = np.linalg.solve(L, np.eye(len(L)))
        self.cov = L_inv.T @ L_inv
        self.b = Phi.T @ y / self.noise
        self.n = len(y)
        self.log_evidence = self.batch_log_evidence(Phi, y)
        return self

    def update(self, phi, y: float) -> float:
        """Rank-1 update with one observation; returns its log predictive density."""
        phi = np.asarray(phi, dtype=float).reshape(-1)
        s = self.cov @ phi
        pred_var = self.noise + phi @ s
        resid = y - phi @ self.mean
        log_pred = -0.5 * (LOG_2PI + np.log(pred_var) + resid ** 2 / pred_var)
        self.cov -= np.outer(s, s) / pred_var
        self.b += phi * y / self.noise
        self.n += 1
        self.log_evidence += log_pred
        return log_pred

    def batch_log_evidence(self, Phi, y) -> float:
        """log N(y; 0, prior_var Phi Phi^T + noise I) computed in feature space (Woodbury)."""
        Phi, y = np.atleast_2d(Phi), np.asarray(y, dtype=float).reshape(-1)
        n, F = Phi.shape
        A = Phi.T @ Phi / self.noise + np.eye(F) / self.prior_var
        L = np.linalg.cholesky(A)
        v = np.linalg.solve(L, Phi.T @ y / self.noise)
        logdet = 2 * np.log(np.diag(L)).sum() + F * np.log(self.prior_var) + n * np.log(self.noise)
        quad = y @ y / self.noise - v @ v
        return float(-0.5 * (quad + logdet + n * LOG_2PI))

    def predict(self, Phi) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and variance of f = phi^T w (noise excluded)."""
        Phi = np.atleast_2d(Phi)
        return Phi @ self.mean, np.einsum("ij,jk,ik->i", Phi, self.cov, Phi).clip(min=0)

    def sample_weights(self, rng: np.random.Generator, n_samples: int = 1) -> np.ndarray:
        """Posterior weight samples, shape (n_samples, n_features): each is a function sample."""
        cov = 0.5 * (self.cov + self.cov.T)
        L = np.linalg.cholesky(cov + 1e-12 * np.trace(cov) / len(cov) * np.eye(len(cov)))
        return self.mean + rng.standard_normal((n_samples, len(cov))) @ L.T
