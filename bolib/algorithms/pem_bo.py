"""PEM-BO (Wang, Kim & Kaelbling, "Regret bounds for meta Bayesian optimization with an unknown Gaussian process
prior", NeurIPS 2018, arXiv:1811.09558) on a finite domain, the competitor of paper 004's SVM benchmark (Dai et
al. 2022, arXiv:2206.06872, Sec. 6.2, Fig. 2c).

PEM-BO estimates the GP prior itself from the previous tasks and then runs GP-UCB with that prior. Paper 004
gives no details of its version, so this is a simplification, stated here in full. On candidates x_1..x_J
(the problem's ``meta["candidates"]``, e.g. the 288 SVM configurations) and previous tasks i = 1..M, each
observation is assigned to its nearest candidate, giving a table Y (M x J) with missing entries (50 random
configurations per task leave most of it empty).

Wang et al.'s estimators for a finite domain assume every task observed at every candidate: the prior mean is
the sample mean over the M tasks, mu_hat_j = (1/M) sum_i Y_ij, and the prior covariance the unbiased sample
covariance over the tasks, K_hat_jk = sum_i (Y_ij - mu_hat_j)(Y_ik - mu_hat_k) / (M - 1). With missing entries
this version uses each estimator on the tasks that observed the candidates concerned:

    (1) mu_hat_j = mean of Y_ij over the n_j tasks that observed x_j (the mean of all observed values where
        n_j = 0);
    (2) K_hat_jk = sum_i (Y_ij - mu_hat_j)(Y_ik - mu_hat_k) / (n_jk - 1) over the n_jk tasks that observed
        both (pairwise complete; n_jk replaces M), 0 where n_jk < 2; on the diagonal, where n_j < 2, the
        variance of all observed values;
    (3) K_hat replaced by its projection onto the positive semi-definite cone: its eigenvalues clipped at
        ``eig_floor`` (1e-6).

With a complete table, (1) and (2) are Wang et al.'s estimators exactly. In Fig. 2c's regime (49 tasks of 50
random configurations out of 288) two configurations share about 49 (50/288)(49/287) = 1.45 tasks on
average, so about 57% of the off-diagonal entries rest on fewer than 2 tasks (set to 0) and under 2% on 5 or
more: the estimated prior is mostly its mean, with a sparse, noisy covariance. A test builds this regime.

The posterior is the GP posterior with the estimated prior in place of the true one, given the values y_t at
the observed candidates X_t, with observation noise variance s^2 = ``noise_fraction`` times the mean of
diag(K_hat):

    (4) mu_t(x) = mu_hat(x) + K_hat(x, X_t) (K_hat(X_t, X_t) + s^2 I)^-1 (y_t - mu_hat(X_t)),
        sigma_t^2(x) = K_hat(x, x) - K_hat(x, X_t) (K_hat(X_t, X_t) + s^2 I)^-1 K_hat(X_t, x),

computed as the GP(0, K_hat) posterior of the centred values y_t - mu_hat(X_t)
(:class:`bolib.models.grid.GridPosterior`, rank-one updates). Wang et al.'s own posterior estimator is
noise-free and rescales the posterior covariance (by a factor in M and t) to make it unbiased; this version
keeps the plain plug-in form (4).

GP-UCB with the practical beta_t = sqrt(0.2 d log 2t) of the other methods
(:func:`bolib.algorithms.rm_bo.practical_beta`):

    (5) x_t+1 = the candidate maximising mu_t(x) + beta_t sigma_t(x) among those neither observed nor pending

(a table gives nothing new at a repeated configuration); the points of a batch are chosen one after another,
each earlier one entering (4) at its posterior mean (kriging believer). Without candidates from the problem (or
the setting ``candidates``) the method uses 512 scrambled-Sobol points of the cube from its seed; without
previous tasks (an empty ``meta_tasks``) the prior is mean 0 and independent cells of variance 1, a
degenerate case kept only so that the method runs anywhere.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import qmc

from bolib.algorithms.base import Optimizer
from bolib.algorithms.checks import check_nonnegative
from bolib.algorithms.rm_bo import check_meta_tasks, practical_beta
from bolib.models.grid import GridPosterior
from bolib.candidates import nearest_rows


def task_table(candidates, tasks) -> np.ndarray:
    """(M, J) table of the previous tasks' values at the candidates (NaN where a task has none; the mean of
    a task's values where it observed a candidate more than once)."""
    J = len(candidates)
    Y = np.full((len(tasks), J), np.nan)
    for i, (X, y) in enumerate(tasks):
        idx = nearest_rows(candidates, X)
        sums = np.bincount(idx, weights=y, minlength=J)
        counts = np.bincount(idx, minlength=J)
        Y[i, counts > 0] = sums[counts > 0] / counts[counts > 0]
    return Y


def empirical_prior(Y, eig_floor: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """Prior mean (1) and PSD covariance (2)-(3) of the module docstring, estimated from a task table ``Y`` (M x J,
    NaN = missing)."""
    Y = np.asarray(Y, dtype=float)
    seen = ~np.isnan(Y)
    counts = seen.sum(axis=0)
    everything = Y[seen]
    mean = np.where(counts > 0, np.where(seen, Y, 0.0).sum(0) / np.maximum(counts, 1), everything.mean())
    D = np.where(seen, Y - mean, 0.0)
    O = seen.astype(float)
    pairs = O.T @ O
    cov = np.where(pairs >= 2, (D.T @ D) / np.maximum(pairs - 1, 1), 0.0)
    fallback = everything.var(ddof=1) if everything.size > 1 else 1.0
    np.fill_diagonal(cov, np.where(counts >= 2, np.diag(cov), fallback))
    return mean, psd_projection(cov, eig_floor)


def psd_projection(cov, eig_floor: float = 1e-6) -> np.ndarray:
    """The symmetric matrix with ``cov``'s eigenvectors and its eigenvalues clipped at ``eig_floor`` (module
    docstring, (3))."""
    lam, V = np.linalg.eigh((np.asarray(cov, dtype=float) + np.asarray(cov, dtype=float).T) / 2.0)
    return (V * np.maximum(lam, eig_floor)) @ V.T


class PEMBO(Optimizer):
    """PEM-BO on a finite set of candidates: prior (1)-(3), posterior (4) and rule (5) of the module docstring;
    ``info`` records the prior's size."""

    name = "pem-bo"
    cheap_settings = {"meta_tasks": []}

    def __init__(self, dim, seed=0, *, meta_tasks=None, candidates=None, noise_fraction=0.01, beta_scale=0.2,
                 eig_floor=1e-6, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.meta_tasks, self.candidates = meta_tasks, None if candidates is None else np.asarray(candidates, float)
        self.noise_fraction, self.eig_floor = float(noise_fraction), float(eig_floor)
        self.beta_scale = check_nonnegative("beta_scale", beta_scale)
        self.prior = None

    def prepare(self, problem) -> None:
        if self.candidates is None and "candidates" in problem.meta:
            self.candidates = np.asarray(problem.meta["candidates"], dtype=float)
        if self.meta_tasks is None:
            if "tasks" not in problem.meta:
                raise ValueError(f"pem-bo needs previous tasks' observations: problem {problem.name!r} has no "
                                 "meta['tasks']; give the setting meta_tasks (an empty list: none)")
            self.meta_tasks = problem.meta["tasks"]

    def _build_prior(self) -> None:
        if self.candidates is None:
            self.candidates = qmc.Sobol(self.dim, scramble=True, seed=self.rng).random(512)
        tasks = check_meta_tasks(self.meta_tasks or [], self.dim)
        if tasks:
            mean, cov = empirical_prior(task_table(self.candidates, tasks), self.eig_floor)
        else:
            mean, cov = np.zeros(len(self.candidates)), np.eye(len(self.candidates))
        self.prior = (mean, cov, self.noise_fraction * float(np.mean(np.diag(cov))))
        self.info.update(candidates=len(self.candidates), previous_tasks=len(tasks))

    def posterior(self, idx, y) -> GridPosterior:
        """The posterior (4) of the module docstring given values ``y`` at candidates ``idx``: the GP(0, K_hat)
        posterior of the centred values y - mu_hat[idx] (a :class:`~bolib.models.grid.GridPosterior`), whose
        ``mean`` plus mu_hat is the posterior mean and whose ``std`` is the posterior standard deviation. A
        candidate observed twice enters twice, unless the noise variance is below GridPosterior's 1e-6
        (noise-free: the repeat adds nothing)."""
        mean, cov, noise = self.prior
        post = GridPosterior(cov, tau=noise)
        for i, value in zip(idx, y):
            post.update(i, value - mean[i])
        return post

    def propose(self, n):
        if self.prior is None:
            self._build_prior()
        idx = nearest_rows(self.candidates, self.X) if len(self.y) else []
        post = self.posterior(idx, self.y)
        taken = set(idx) | set(nearest_rows(self.candidates, self.pending)) if len(self.pending) else set(idx)
        beta = practical_beta(len(self.y) + 1, self.dim, self.beta_scale)
        chosen = []
        for _ in range(n):
            score = self.prior[0] + post.mean + beta * post.std
            score[list(taken)] = -np.inf
            if np.all(np.isinf(score)):
                raise ValueError("pem-bo has proposed every candidate")
            best = np.flatnonzero(score == score.max())
            j = int(best[self.rng.integers(len(best))])
            chosen.append(j)
            taken.add(j)
            post.update(j, post.mean[j])  # kriging believer for the rest of the batch: the centred posterior mean
        return self.candidates[chosen]
