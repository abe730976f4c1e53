"""The classifiers of BORE and BORE++ (paper 003: Oliveira, Tiao & Ramos, "Batch Bayesian
Optimisation via Density-ratio Estimation with Guarantees", arXiv:2209.10715).

* :func:`quantile_labels`: the threshold tau = the gamma-quantile of the observed losses and the
  labels z_i = 1[y_i <= tau] (Alg. 1; Sec. 2.2).
* :class:`PLSClassifier`: the probabilistic least-squares classifier of eqs. 12-13, i.e. the
  posterior mean of a zero-mean GP on the 0/1 labels with noise variance lambda,
  pi_hat_t(x) = k_t(x)^T (K_t + lambda I)^{-1} z_t, with the band of Theorem 1 (eq. 14):
  sigma_t^2(x) = k(x, x) - k_t(x)^T (K_t + lambda I)^{-1} k_t(x) and
  beta_t(delta) = b + sqrt(2 lambda^{-1} log(|I + lambda^{-1} K_t|^{1/2} / delta)).
  It is :class:`bolib.models.GP` with a fixed noise and no output standardisation, not a second GP.
* :class:`MLPClassifier`: the original BORE's classifier (a d-32-32-1 network trained on the
  binary cross-entropy with Adam, a fixed number of minibatch steps per iteration, warm-started).
* :class:`RFFLogisticClassifier`: Bayesian logistic regression on random Fourier features of the
  squared-exponential kernel, fitted by Jaakkola and Jordan's variational EM (App. E).
"""
from __future__ import annotations

import math

import gpytorch
import numpy as np
import torch

from bolib.errors import check_choice
from bolib.models import GP, RandomFeatures


def quantile_labels(losses, gamma: float) -> tuple[float, np.ndarray]:
    """tau = the empirical gamma-quantile of ``losses`` (the order statistic y_(ceil(gamma n)), the
    inverse of the empirical CDF of Alg. 1) and the labels z_i = 1[loss_i <= tau].

    tau is an observed loss, so at least ceil(gamma n) >= 1 label is positive (more with ties).
    """
    losses = np.asarray(losses, dtype=float)
    if not 0 < gamma < 1:
        raise ValueError(f"gamma must be in (0, 1); got {gamma}")
    tau = float(np.quantile(losses, gamma, method="inverted_cdf"))
    return tau, (losses <= tau).astype(float)


PLS_KERNELS = ("rbf", "rq-ard")


def rq_ard_kernel(dim: int) -> gpytorch.kernels.Kernel:
    """The rational-quadratic kernel with one lengthscale per input and an output scale (the
    practical PLS classifier and GP baselines of App. D.3.1)."""
    return gpytorch.kernels.ScaleKernel(gpytorch.kernels.RQKernel(ard_num_dims=dim)).to(torch.float64)


class PLSClassifier:
    """Probabilistic least-squares classifier (eq. 13) with the confidence band of Theorem 1.

    ``kernel="rbf"``: the theory setting, a squared-exponential kernel with fixed ``lengthscale`` and
    unit variance (k(x, x) = 1, as Theorem 1 assumes). ``kernel="rq-ard"``: the practical setting
    of the paper's real-data experiments, :func:`rq_ard_kernel` with hyperparameters refitted by
    maximum marginal likelihood at every fit, the noise variance held at ``lam``.
    """

    def __init__(self, dim: int, lam: float = 0.025, kernel: str = "rbf", lengthscale: float = 0.1,
                 seed: int = 0):
        check_choice("kernel", kernel, PLS_KERNELS)
        if lam <= 0:
            raise ValueError(f"lambda must be > 0; got {lam}")
        self.lam = float(lam)
        self.dim, self.kernel, self.lengthscale, self.seed = dim, kernel, lengthscale, seed
        self.gp = self._new_gp()

    def _new_gp(self) -> GP:
        if self.kernel == "rbf":
            return GP("rbf", lengthscale=self.lengthscale, outputscale=1.0, noise=self.lam, fit=False,
                      standardize=False)
        return GP(rq_ard_kernel(self.dim), noise=self.lam, fit=True, standardize=False, starts=1, seed=self.seed)

    def fit(self, X, z) -> "PLSClassifier":
        """Fit to labels ``z``. A refit warm-started from the previous hyperparameters can end where
        K + lambda I is not numerically positive definite (an output scale of order 1e8); it is then
        redone from the default start, also where the GP would factorise with more than lambda on the
        diagonal (:class:`bolib.models.GP` raises tau for a near-singular K): lambda is eq. 13's, not a
        jitter."""
        try:
            self.gp.fit(X, z)
            escalated = self.gp.tau > self.lam * (1 + 1e-9)
        except (torch.linalg.LinAlgError, np.linalg.LinAlgError):
            escalated = True
        if escalated:
            self.gp = self._new_gp()
            self.gp.fit(X, z)
        return self

    def posterior(self, X: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """pi_hat_t(x) (eq. 13) and sigma_t(x) (Theorem 1), differentiable in ``X``."""
        mean, var = self.gp.posterior(X)
        return mean, var.clamp_min(1e-300).sqrt()

    def predict(self, X) -> tuple[np.ndarray, np.ndarray]:
        return self.gp.predict(X)

    def log_det(self) -> float:
        """log |I + lambda^{-1} K_t| = 2 sum log diag chol(K_t + lambda I) - t log lambda."""
        return float(2 * torch.log(self.gp.L.diagonal()).sum()) - len(self.gp.X) * math.log(self.lam)

    def beta(self, b: float, delta: float) -> float:
        """beta_t(delta) of Theorem 1 (eq. 14) for the current data."""
        return theorem1_beta(self.log_det(), self.lam, b, delta)


def theorem1_beta(log_det, lam: float, b: float, delta: float):
    """beta_t(delta) = b + sqrt(2 lambda^{-1} (1/2 log|I + lambda^{-1} K_t| + log(1/delta))) (Theorem 1)."""
    return b + np.sqrt(2.0 / lam * (0.5 * np.asarray(log_det) + math.log(1.0 / delta)))


ACTIVATIONS = ("relu", "elu")


class MLPClassifier:
    """The original BORE classifier: a d-``hidden``-``hidden``-1 network giving the logit of
    p(y <= tau | x), trained by Adam on the binary cross-entropy for ``steps`` minibatch steps per
    fit, continuing from the previous fit's weights (warm start)."""

    def __init__(self, dim: int, seed: int = 0, hidden: int = 32, activation: str = "relu", steps: int = 100,
                 batch_size: int = 64, lr: float = 1e-3):
        check_choice("activation", activation, ACTIVATIONS)
        act = torch.nn.ReLU if activation == "relu" else torch.nn.ELU
        with torch.random.fork_rng():
            torch.manual_seed(seed)
            self.net = torch.nn.Sequential(torch.nn.Linear(dim, hidden), act(), torch.nn.Linear(hidden, hidden), act(),
                                           torch.nn.Linear(hidden, 1)).to(torch.float64)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.generator = torch.Generator().manual_seed(seed)
        self.steps, self.batch_size = int(steps), int(batch_size)

    def fit(self, X, z) -> "MLPClassifier":
        X = torch.as_tensor(np.asarray(X), dtype=torch.float64)
        z = torch.as_tensor(np.asarray(z), dtype=torch.float64)
        loss_fn = torch.nn.BCEWithLogitsLoss()
        for _ in range(self.steps):
            rows = torch.randperm(len(X), generator=self.generator)[: self.batch_size]
            self.optimizer.zero_grad()
            loss_fn(self.net(X[rows]).squeeze(-1), z[rows]).backward()
            self.optimizer.step()
        return self

    def logit(self, X: torch.Tensor) -> torch.Tensor:
        return self.net(torch.as_tensor(X, dtype=torch.float64)).squeeze(-1)


class RFFLogisticClassifier:
    """Bayesian logistic regression p(z = 1 | x, w) = sigmoid(phi(x)^T w) on ``n_pairs`` random
    Fourier feature pairs of the SE kernel with ``lengthscale`` (App. E), prior w ~ N(0, prior_var I).

    Fitted from the prior on all data by Jaakkola and Jordan's variational EM (``em_iters`` steps):
    with lambda(xi) = (sigmoid(xi) - 1/2) / (2 xi), the E-step gives the Gaussian posterior
    Sigma^{-1} = I / prior_var + 2 Phi^T diag(lambda(xi)) Phi, mu = Sigma Phi^T (z - 1/2), and the
    M-step xi_n^2 = phi_n^T (Sigma + mu mu^T) phi_n. The logit a(x) = phi(x)^T w is then Gaussian with
    mean phi^T mu and variance phi^T Sigma phi (:meth:`logit_posterior`).
    """

    def __init__(self, dim: int, seed: int = 0, n_pairs: int = 150, lengthscale: float = 0.2,
                 prior_var: float = 1.0, em_iters: int = 20):
        self.random_features = RandomFeatures("rbf", dim, n_pairs, np.random.default_rng(seed), lengthscale=lengthscale)
        self.prior_var, self.em_iters = float(prior_var), int(em_iters)

    def features(self, X) -> torch.Tensor:
        return self.random_features(torch.as_tensor(X, dtype=torch.float64))

    def fit(self, X, z) -> "RFFLogisticClassifier":
        Phi = self.features(np.asarray(X)).detach()
        z = torch.as_tensor(np.asarray(z), dtype=torch.float64)
        xi = torch.ones(len(z), dtype=torch.float64)
        eye = torch.eye(Phi.shape[1], dtype=torch.float64)
        for _ in range(self.em_iters):
            lam = (torch.sigmoid(xi) - 0.5) / (2 * xi)
            self.cov = torch.linalg.inv(eye / self.prior_var + 2 * Phi.T @ (lam[:, None] * Phi))
            self.mean = self.cov @ (Phi.T @ (z - 0.5))
            xi = ((Phi @ (self.cov + torch.outer(self.mean, self.mean))) * Phi).sum(1).clamp_min(1e-12).sqrt()
        return self

    def logit_posterior(self, X: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Mean and standard deviation of the logit a(x) under the posterior, differentiable in ``X``."""
        phi = self.features(X)
        return phi @ self.mean, ((phi @ self.cov) * phi).sum(-1).clamp_min(1e-300).sqrt()
