"""Paper 004 (Dai, Chen, Yu, Low & Jaillet, "On Provably Robust Meta-Bayesian Optimization", UAI 2022,
arXiv:2206.06872): RM-GP-UCB and RM-GP-TS as ask/tell optimisers, and the pieces they share with the
finite-domain theory harness of :mod:`bolib.papers.rm_bo`.

Meta data. M previous tasks ("meta-tasks"), task i with N_i noisy observations (X_i, y_i) on the unit
cube, in the same output units as the target: the function gaps below compare the raw values across
tasks. Each task's own GP (its posterior mean and sd in eq. 2's meta term) standardises that task's
outputs by default, so its prior mean is the task's mean; ``meta_standardize=False`` gives the authors'
zero-mean GP on the raw outputs instead. An optimiser takes them from the setting ``meta_tasks`` (a list of
``{"X": ..., "y": ...}``) or, if that is None, from ``problem.meta["tasks"]`` in :meth:`prepare`;
without either it stops with a clear error. An explicit empty list means "no previous tasks"
(M = 0): the meta part of eq. 2 is then empty and the method is GP-UCB (GP-TS); the every-method
tests run that way, and ``tests/algorithms/test_rm_bo.py`` runs the meta path through the loop.

The pieces, each a function used by the optimisers and by the theory harness:

* :func:`gap_estimate`, eq. 5: d_bar_{i,t} = c + reduce_j max{|y_ij - U_t(x_ij)|, |y_ij - L_t(x_ij)|}
  with U, L = mu_t +- beta sigma_t; max{|y - U|, |y - L|} = |y - mu_t| + beta sigma_t. Lemma 1's
  valid version reduces with ``max`` and adds the noise term c = sqrt(2 sigma^2 log(8 sum_i N_i / delta));
  the practical version (all the paper's experiments) takes the ``mean`` over j and c = 0.
* :func:`hedge_weights`, eq. 7: omega_{t,i} proportional to exp(-eta N sum_{s<=t} d_bar_{i,s}), the
  closed form of the entropic FTRL problem eq. 6, computed in log space (shifted by the maximum
  exponent before exp, so large cumulative gaps do not underflow to 0/0).
* :func:`nu_step`, Sec. 5.2: nu_t = nu_{t-1} min(r, (sum_i omega_i d_bar_i)^(-epsilon)), never
  increasing and at most r times its previous value (r < 1 is what makes nu decay when the tasks look
  similar, i.e. when sum omega d_bar < 1 and the power exceeds 1).
* :class:`MetaSchedule`: the cumulative gaps, the weights and nu of one run.
* :func:`meta_ucb` and :func:`ucb_mix`, eq. 2: the weighted sum of the previous tasks' UCBs and its convex mix
  with the target's UCB; :func:`ts_draw`, eq. 3: RM-GP-TS's coin and the sample of the branch it picks.
* :func:`practical_beta`: beta_t = sqrt(0.2 d log 2t) (Sec. 6 and the authors' code), the multiplier
  of sigma in both the target UCB and the gap estimate.

Acquisitions. RM-GP-UCB (eq. 2) maximises the convex mix of the individual UCBs

    zeta_t(x) = nu_t sum_i omega_i [mu_bar_i(x) + tau sigma_bar_i(x)] + (1 - nu_t) [mu_{t-1}(x) + beta_t sigma_{t-1}(x)]

(not a combined surrogate). RM-GP-TS (eq. 3) draws, with probability 1 - nu_t, one posterior sample of
the target GP and takes its argmax, and otherwise one sample of every meta GP (each scaled by tau around
its mean) and takes the argmax of their omega-weighted sum; samples are random-feature functions with
per-dimension lengthscales (App. D.5) or exact joint samples on candidates.

Iteration index (the authors' code): the gaps, weights and nu are updated before every query of the
method, including the first one after the initial design, so the first query already uses nu <= r.
beta_t uses t = number of observations + 1 (the initial design included).

GPs: the target GP is the library's exact GP (Matérn-5/2 with ARD by default, type-II ML refitted
every ``refit_every`` = 5 observations as in the authors' code); each meta GP is fitted once to its
task (hyperparameters frozen afterwards), with the same kernel settings.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import torch

from bolib import acquisition as acq
from bolib.algorithms.baselines import GPOptimizer
from bolib.algorithms.checks import check_nonnegative
from bolib.errors import check_choice
from bolib.models import GP, BayesianLinearModel, RandomFeatures

GAP_REDUCTIONS = ("mean", "max")
WEIGHT_RULES = ("online", "fixed")
HEDGE_LOSSES = ("approx", "exact")


# ------------------------------------------------------------------------------------ the pieces
def gap_estimate(y_meta, mu, sd, beta: float, reduce: str = "mean", noise_term: float = 0.0) -> float:
    """Eq. 5: the function-gap estimate of one meta-task from the target posterior at its inputs.

    ``mu``, ``sd``: target posterior mean and standard deviation at the task's inputs x_ij;
    ``y_meta``: its observations y_ij. Each term max{|y - U|, |y - L|} is written |y - mu| + beta sd;
    ``reduce`` is ``max`` (Lemma 1, with ``noise_term`` = sqrt(2 sigma^2 log(8 sum N_i / delta))) or
    ``mean`` (the practical version of the paper's experiments, ``noise_term`` 0).
    """
    terms = np.abs(np.asarray(y_meta, dtype=float) - mu) + float(beta) * np.asarray(sd, dtype=float)
    check_choice("gap reduction", reduce, GAP_REDUCTIONS)
    return float(noise_term) + float(terms.mean() if reduce == "mean" else terms.max())


def hedge_weights(cumulative_loss, eta: float) -> np.ndarray:
    """Eq. 7: omega_i proportional to exp(-eta L_i), L the cumulative losses (uniform when all equal).

    The FTRL solution of eq. 6 with the entropic regulariser (a Lagrangian calculation gives the
    softmax). Computed in log space: the exponents are shifted by their maximum before exp.
    """
    z = -float(eta) * np.asarray(cumulative_loss, dtype=float)
    z = z - z.max()
    w = np.exp(z)
    return w / w.sum()


def nu_step(nu: float, weights, gaps, r: float, eps: float) -> float:
    """Sec. 5.2: nu_t = nu_{t-1} min(r, (sum_i omega_i d_bar_i)^(-eps)).

    The factor is at most r, so nu never increases and nu_t <= r^(t - 1) nu_1. A weighted gap of 0
    (only possible with zero posterior width and a perfect fit) gives the factor r.
    """
    s = float(np.dot(weights, gaps))
    factor = float(r) if s <= 0 else min(float(r), s ** (-float(eps)))
    return float(nu) * factor


def meta_ucb(weights, mean, sd, tau: float):
    """Eq. 2's meta term sum_i omega_i [mu_bar_i(x) + tau sigma_bar_i(x)], from the previous tasks' posterior means
    ``mean`` and standard deviations ``sd`` ((M, n): task i at n points). Works on numpy arrays and tensors."""
    return weights @ (mean + tau * sd)


def ucb_mix(nu, meta_ucb, target_ucb):
    """Eq. 2: the acquisition nu_t sum_i w_i UCB_i + (1 - nu_t) UCB_target, with ``meta_ucb`` the weighted sum of
    the previous tasks' UCBs; at nu_t = 0 the target's UCB alone (GP-UCB). Works on numpy arrays and tensors."""
    if nu == 0.0:
        return target_ucb
    return nu * meta_ucb + (1.0 - nu) * target_ucb


def ts_draw(nu: float, weights, meta_sample, target_sample, rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    """Eq. 3: with probability nu_t the omega-weighted sum sum_i omega_i f_bar_i of one sample f_bar_i of every previous
    task's GP, otherwise one sample of the target GP.

    The coin is drawn from ``rng`` first; then ``meta_sample(i)`` draws task i's sample (i = 0..M-1 in turn) or
    ``target_sample()`` the target's, as values on a set of points or as :class:`SamplePath` functions. Returns
    the sample and whether it is the meta branch's.
    """
    if rng.random() < nu:
        values = 0.0
        for i, w in enumerate(weights):
            values = values + w * meta_sample(i)
        return values, True
    return target_sample(), False


def practical_beta(t: int, dim: int, scale: float = 0.2) -> float:
    """beta_t = sqrt(scale d log 2t) (the paper's experiments: scale 0.2), t >= 1."""
    return math.sqrt(scale * dim * math.log(2 * t))


class MetaSchedule:
    """Cumulative gaps, weights omega and meta share nu of one run (eq. 7 and Sec. 5.2).

    ``weights``: ``online`` (eq. 7 with rate ``eta_n`` = eta N) or ``fixed`` (1/M throughout, Fig. 1a's
    green curve). ``nu``: ``"adaptive"`` (starting at ``nu_start``; the paper's nu_1 = 1) or a constant
    in [0, 1] (0: GP-UCB / GP-TS; 1: the meta part alone, outside Theorem 1). ``hedge``: ``approx``
    (eq. 7, all N_i taken equal) or ``exact`` (each task's gap scaled by N_i / max_i N_i, the
    N_i-weighted losses of Prop. 1 without their noise constant; Fig. 5's ablation).
    """

    def __init__(self, M: int, *, eta_n: float = 1.0, r: float = 0.7, eps: float = 0.7, weights: str = "online",
                 nu="adaptive", nu_start: float = 1.0, hedge: str = "approx", task_sizes: Sequence[int] | None = None):
        self.M = int(M)
        self.eta_n, self.r, self.eps = float(eta_n), float(r), float(eps)
        self.weight_rule = check_choice("weights", weights, WEIGHT_RULES)
        self.hedge = check_choice("hedge", hedge, HEDGE_LOSSES)
        if not (0.0 < self.r < 1.0):
            raise ValueError(f"r must lie in (0, 1) (r < 1 makes nu decay for similar tasks); got {r}")
        if nu != "adaptive" and not (isinstance(nu, (int, float)) and 0.0 <= nu <= 1.0):
            raise ValueError(f"nu must be 'adaptive' or a constant in [0, 1]; got {nu!r}")
        if not 0.0 <= nu_start <= 1.0:
            raise ValueError(f"nu_start must lie in [0, 1]; got {nu_start}")
        if not self.eta_n > 0.0:
            raise ValueError(f"eta_n (eta N of eq. 7) must be > 0; got {eta_n} (weights='fixed' keeps 1/M)")
        if not self.eps > 0.0:
            raise ValueError(f"eps (the exponent of the nu rule) must be > 0; got {eps}")
        self.adaptive = nu == "adaptive"
        self.nu = float(nu_start) if self.adaptive else float(nu)
        sizes = np.ones(self.M) if task_sizes is None else np.asarray(task_sizes, dtype=float)
        self.scale = sizes / sizes.max() if (self.hedge == "exact" and self.M) else np.ones(self.M)
        self.cumulative = np.zeros(self.M)
        self.weights = np.full(self.M, 1.0 / self.M) if self.M else np.zeros(0)

    def update(self, gaps) -> tuple[np.ndarray, float]:
        """Add one round of gap estimates; return the new weights and nu (weights first, as the code)."""
        gaps = np.asarray(gaps, dtype=float)
        if self.M == 0:
            return self.weights, self.nu
        self.cumulative = self.cumulative + self.scale * gaps
        if self.weight_rule == "online":
            self.weights = hedge_weights(self.cumulative, self.eta_n)
        if self.adaptive:
            self.nu = nu_step(self.nu, self.weights, gaps, self.r, self.eps)
        return self.weights, self.nu


# ------------------------------------------------------------------------------------ meta data
def check_meta_tasks(tasks, dim: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Validate previous tasks given as ``[{"X": (N_i, d), "y": (N_i,)}, ...]`` (or (X, y) pairs)."""
    out = []
    for i, task in enumerate(tasks):
        X, y = (task["X"], task["y"]) if isinstance(task, dict) else task
        X = np.atleast_2d(np.asarray(X, dtype=float))
        y = np.asarray(y, dtype=float).reshape(-1)
        if X.shape[1] != dim or len(X) != len(y) or len(y) < 1:
            raise ValueError(f"meta-task {i}: needs X of shape (N, {dim}) and N >= 1 values; got X {X.shape}, "
                             f"{len(y)} values")
        if not np.all(np.isfinite(y)):
            raise ValueError(f"meta-task {i} has non-finite values")
        out.append((X, y))
    return out


class StackedPosterior:
    """The posteriors of several fitted GPs (one per previous task) evaluated as one batched computation.

    For task i with standardised data, lengthscales l_i, output scale s_i, cached factor L_i L_i^T =
    K_i + tau_i I and weights a_i = (K_i + tau_i I)^-1 z_i (eq. 1):
    mu_bar_i(x) = m_i + c_i k_i(x)^T a_i and sigma_bar_i^2(x) = c_i^2 (s_i - ||L_i^-1 k_i(x)||^2), with the
    standardisation m_i, c_i. Both come from one product per task, k_i(x)^T [L_i^-T | a_i], with the
    matrix precomputed once as an (M, N, N + 1) tensor: evaluating every task is
    one kernel tensor and one batched matrix product (no triangular solve per call). Tasks are padded to
    the largest N_i (padded rows have an identity factor and a zero kernel column, so they contribute
    nothing); one call replaces M calls of :meth:`bolib.models.GP.posterior` (Matérn-5/2 and RBF kernels,
    differentiable in x).
    """

    def __init__(self, gps: Sequence[GP]):
        if any(gp.kernel_name not in ("matern25", "rbf") or gp.groups is not None for gp in gps):
            raise ValueError("StackedPosterior supports single-group matern25 and rbf GPs")
        self.M = len(gps)
        self.kernel = gps[0].kernel_name if gps else "rbf"
        if any(gp.kernel_name != self.kernel for gp in gps):
            raise ValueError("all GPs must use the same kernel family")
        n_max = max((len(gp.X) for gp in gps), default=1)
        dim = gps[0].X.shape[1] if gps else 1
        f64 = torch.float64
        X = torch.zeros(self.M, n_max, dim, dtype=f64)
        L = torch.eye(n_max, dtype=f64).repeat(self.M, 1, 1)
        alpha = torch.zeros(self.M, n_max, dtype=f64)
        mask = torch.zeros(self.M, n_max, dtype=f64)
        self.inv_ls = torch.ones(self.M, dim, dtype=f64)
        self.scale, self.mean, self.std = (torch.zeros(self.M, dtype=f64) for _ in range(3))
        for i, gp in enumerate(gps):
            n = len(gp.X)
            hyper = gp.hyperparameters
            X[i, :n], L[i, :n, :n] = gp.X, gp.L
            alpha[i, :n], mask[i, :n] = gp.alpha.squeeze(-1), 1.0
            self.inv_ls[i] = 1.0 / torch.as_tensor(hyper["lengthscale"][0], dtype=f64).expand(dim)
            self.scale[i], self.mean[i], self.std[i] = hyper["outputscale"][0], gp.y_mean, gp.y_std
        L_inv = torch.linalg.solve_triangular(L, torch.eye(n_max, dtype=f64).expand_as(L), upper=False)
        self.projection = torch.cat([L_inv.transpose(1, 2), alpha[..., None]], dim=2)  # (M, N, N + 1)
        self.X_scaled = X * self.inv_ls[:, None, :]  # (M, N, d)
        self.X_sq = (self.X_scaled ** 2).sum(-1)[:, None, :]
        self.amplitude = self.scale[:, None, None] * mask[:, None, :]  # s_i at real points, 0 at padding

    def _kernel(self, Xc: torch.Tensor) -> torch.Tensor:
        """k_i(x, X_i) for every task: shape (M, n, N_max), zero at padded points.

        Without gradients (the candidate sweep of the acquisition maximiser, the largest tensors) the
        elementwise steps run in place, which avoids allocating a new (M, n, N_max) tensor per step."""
        a = Xc[None] * self.inv_ls[:, None, :]
        sq = torch.baddbmm((a * a).sum(-1)[..., None] + self.X_sq, a, self.X_scaled.transpose(1, 2), alpha=-2.0)
        if torch.is_grad_enabled() and Xc.requires_grad:
            sq = sq.clamp_min(1e-30)
            if self.kernel == "rbf":
                return self.amplitude * torch.exp(-0.5 * sq)
            r = torch.sqrt(5.0 * sq)
            return self.amplitude * (1.0 + r + r * r / 3.0) * torch.exp(-r)
        sq.clamp_min_(1e-30)
        if self.kernel == "rbf":
            return sq.mul_(-0.5).exp_().mul_(self.amplitude)
        r = sq.mul_(5.0).sqrt_()
        decay = r.neg().exp_()
        return r.mul(r).div_(3.0).add_(r).add_(1.0).mul_(decay).mul_(self.amplitude)

    def posterior(self, Xc: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Means and standard deviations of every task at ``Xc``: two (M, n) tensors, in observation units."""
        Xc = torch.as_tensor(Xc, dtype=torch.float64)
        U = self._kernel(Xc) @ self.projection  # (M, n, N + 1): [(L^-1 k)^T | k^T a]
        mean = self.mean[:, None] + self.std[:, None] * U[..., -1]
        V = U[..., :-1]
        var = (self.scale[:, None] - (V * V).sum(-1)).clamp_min(0.0)
        return mean, self.std[:, None] * torch.sqrt(var + 1e-300)


class MetaOptimizer(GPOptimizer):
    """What RM-GP-UCB, RM-GP-TS and the meta-BO baselines share: the previous tasks and one GP per task.

    Each meta GP has the target GP's kernel settings and is fitted once (type-II ML unless the
    hyperparameters are given), then frozen; ``meta_standardize`` (default True) standardises each task's
    outputs for its GP (prior mean the task's mean), False keeps a zero prior mean on the raw outputs.
    """

    #: every-method tests: no previous tasks (the meta path is covered by the paper-004 tests)
    cheap_settings = {**GPOptimizer.cheap_settings, "meta_tasks": []}
    #: fit one GP per previous task (MTBO models all tasks jointly instead)
    fits_meta_gps = True

    def __init__(self, dim, seed=0, *, meta_tasks=None, kernel="matern25", ard=True, lengthscale=None, noise=None,
                 refit_every=5, meta_standardize=True, **settings):
        self._kernel_settings = {"kernel": kernel, "ard": ard, "lengthscale": lengthscale, "noise": noise}
        self.meta_standardize = bool(meta_standardize)
        super().__init__(dim, seed, kernel=kernel, ard=ard, lengthscale=lengthscale, noise=noise,
                         refit_every=refit_every, **settings)
        self.tasks: list[tuple[np.ndarray, np.ndarray]] | None = None
        self.meta_gps: list[GP] = []
        if meta_tasks is not None:
            self.set_tasks(meta_tasks)

    def set_tasks(self, tasks) -> None:
        self.tasks = check_meta_tasks(tasks, self.dim)
        if self.fits_meta_gps:
            self.meta_gps = [GP(**self._kernel_settings, **self.gp_settings, standardize=self.meta_standardize).fit(X, y)
                             for X, y in self.tasks]
        self.tasks_ready()

    def tasks_ready(self) -> None:
        """Hook: the previous tasks and their GPs are in place."""

    def prepare(self, problem) -> None:
        if self.tasks is not None:
            return
        if "tasks" not in problem.meta:
            raise ValueError(f"{self.name} needs previous tasks' observations: problem {problem.name!r} has no "
                             "meta['tasks']; give the setting meta_tasks=[{'X': ..., 'y': ...}, ...] "
                             "(an empty list runs without previous tasks)")
        self.set_tasks(problem.meta["tasks"])

    def require_tasks(self) -> list[tuple[np.ndarray, np.ndarray]]:
        if self.tasks is None:
            raise ValueError(f"{self.name} has no previous tasks: call prepare(problem) with a problem whose meta "
                             "has 'tasks', or give the setting meta_tasks (an empty list: none)")
        return self.tasks


class RMGPUCB(MetaOptimizer):
    """RM-GP-UCB (Algorithm 1 with eq. 2).

    Settings: ``eta_n`` (eta N of eq. 7, 1), ``eps`` and ``r`` (the nu rule, 0.7 and 0.7), ``tau``
    (multiplier of the meta GPs' sigma, 1: the code's sqrt(tau) with tau = 1), ``beta_scale`` (0.2 in
    beta_t = sqrt(0.2 d log 2t)) or a constant ``beta`` (the multiplier of sigma), ``gap_reduce``
    (``mean`` / ``max``), ``weights`` (``online`` / ``fixed``), ``nu`` (``"adaptive"`` or a constant),
    ``nu_start`` (nu_1), ``hedge`` (``approx`` / ``exact``). ``history`` gets one entry per query:
    t, beta, the gap estimates, the weights and nu it used.

    For reuse: ``beta`` here multiplies sigma, while GP-UCB's ``beta`` (:class:`bolib.algorithms.baselines.GPUCB`)
    is its square. ``eta_n`` and ``eps`` act on the gap estimates in the units of y: the previous tasks must be
    measured in the target's units, and rescaling y (a percentage instead of a fraction) changes both the weights
    of eq. 7 and the nu rule (with every gap below 1 the factor is always r). ``beta_t`` counts t as
    observations + 1 (the initial design included, as in the authors' code).
    """

    name = "rm-gp-ucb"

    def __init__(self, dim, seed=0, *, eta_n=1.0, eps=0.7, r=0.7, tau=1.0, beta_scale=0.2, beta=None,
                 gap_reduce="mean", weights="online", nu="adaptive", nu_start=1.0, hedge="approx", **settings):
        self.schedule_settings = {"eta_n": eta_n, "r": r, "eps": eps, "weights": weights, "nu": nu,
                                  "nu_start": nu_start, "hedge": hedge}
        MetaSchedule(0, **self.schedule_settings)  # validate the settings now
        if beta is not None:
            beta = check_nonnegative("beta (None: beta_t = sqrt(beta_scale d log 2t); a number: the multiplier of "
                                     "sigma)", beta)
        self.tau = check_nonnegative("tau (the multiplier of the previous tasks' sigma)", tau)
        self.beta_scale, self.beta = check_nonnegative("beta_scale", beta_scale), beta
        self.gap_reduce = check_choice("gap reduction", gap_reduce, GAP_REDUCTIONS)
        self.schedule: MetaSchedule | None = None
        super().__init__(dim, seed, **settings)

    def tasks_ready(self) -> None:
        self.schedule = MetaSchedule(len(self.tasks), task_sizes=[len(y) for _, y in self.tasks],
                                     **self.schedule_settings)
        self.stacked = StackedPosterior(self.meta_gps) if self.meta_gps else None

    def beta_t(self) -> float:
        if self.beta is not None:
            return float(self.beta)
        return practical_beta(len(self.y) + 1, self.dim, self.beta_scale)

    def fit_model(self) -> GP:
        """Fit the target GP, then update the gaps, weights and nu for this query (Algorithm 1)."""
        self.require_tasks()
        gp = super().fit_model()
        beta = self.beta_t()
        sizes = np.cumsum([len(y) for _, y in self.tasks])[:-1]
        mu, sd = gp.predict(np.vstack([X for X, _ in self.tasks])) if self.tasks else (np.zeros(0), np.zeros(0))
        gaps = np.array([gap_estimate(y, m, s, beta, self.gap_reduce)
                         for (_, y), m, s in zip(self.tasks, np.split(mu, sizes), np.split(sd, sizes))])
        weights, nu = self.schedule.update(gaps)
        self.current = {"t": len(self.y) + 1, "beta": beta, "gaps": gaps.tolist(), "weights": weights.tolist(),
                        "nu": nu}
        self.history.append(dict(self.current))
        return gp

    def meta_part(self, X: torch.Tensor) -> torch.Tensor:
        """Eq. 2's meta term (:func:`meta_ucb`), all tasks' posteriors at once (:class:`StackedPosterior`)."""
        mean, sd = self.stacked.posterior(X)
        return meta_ucb(torch.as_tensor(self.current["weights"], dtype=torch.float64), mean, sd, self.tau)

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        nu = self.current["nu"] if self.meta_gps else 0.0
        target = mean + self.current["beta"] * acq.posterior_std(var)
        return ucb_mix(nu, self.meta_part(X) if nu else None, target)


SAMPLERS = ("rff", "exact")


class SamplePath:
    """A random-feature sample path x -> offset + sum_k c_k phi_k(x)^T theta_k (App. D.5), evaluated on numpy
    arrays, or differentiably on tensors for the acquisition maximiser; a weighted sum of paths (eq. 3's meta
    branch, built by :func:`ts_draw`) is a path."""

    __array_ufunc__ = None  # a numpy scalar weight defers to __rmul__

    def __init__(self, terms, offset: float = 0.0):
        self.terms, self.offset = list(terms), float(offset)  # terms: (c_k, phi_k, theta_k)

    def __call__(self, X):
        values = self.offset
        for c, features, theta in self.terms:
            weights = torch.as_tensor(theta, dtype=X.dtype) if isinstance(X, torch.Tensor) else theta
            values = values + c * (features(X) @ weights)
        return values

    def __rmul__(self, weight: float) -> SamplePath:
        weight = float(weight)
        return SamplePath([(weight * c, f, t) for c, f, t in self.terms], weight * self.offset)

    def __add__(self, other: SamplePath) -> SamplePath:
        return SamplePath(self.terms + other.terms, self.offset + other.offset)

    def __radd__(self, other: float) -> SamplePath:
        return SamplePath(self.terms, self.offset + other)


class RMGPTS(RMGPUCB):
    """RM-GP-TS (eq. 3): with probability nu_t the argmax of the omega-weighted sum of one sample of every
    meta GP (each scaled by ``tau`` around its mean), otherwise the argmax of one sample of the target GP
    (scaled by ``ts_beta`` around its mean: 1 as in App. D.5's sampler and the authors' code, where eq. 3
    writes beta_t).

    ``sampler="rff"`` (App. D.5): each sample is a random-feature function (:class:`SamplePath`), ``n_pairs``
    cosine/sine pairs (2 x 60 = 120 features, the paper's m) of the GP's own kernel with its *per-dimension*
    lengthscales (:class:`bolib.models.RandomFeatures`; the authors' code used the first lengthscale for every
    dimension), whose weights are drawn from the Bayesian linear model on the GP's data with the GP's
    noise (:class:`bolib.models.BayesianLinearModel`); each feature vector has squared norm equal to the
    output scale, as the paper normalises it. The drawn path is maximised by the maximiser every GP method
    here uses (:meth:`GPOptimizer.maximize`'s multi-start L-BFGS-B with the same settings; the authors used
    DIRECT for every method). ``sampler="exact"``: exact joint samples, which exist only on a finite set, maximised
    over ``n_candidates`` fresh uniform points. ``history`` records which branch drew each point.
    """

    name = "rm-gp-ts"

    def __init__(self, dim, seed=0, *, ts_beta=1.0, sampler="rff", n_pairs=60, **settings):
        super().__init__(dim, seed, **settings)
        self.ts_beta = check_nonnegative("ts_beta", ts_beta)
        self.sampler = check_choice("sampler", sampler, SAMPLERS)
        self.n_pairs = int(n_pairs)

    def propose(self, n):
        gp = self.fit_model()
        nu = self.current["nu"] if self.meta_gps else 0.0
        points = []
        for _ in range(n):
            if self.sampler == "exact":
                candidates = self.rng.random((self.n_candidates, self.dim))
                values, meta_branch = ts_draw(nu, self.current["weights"],
                                              functools.partial(self.sample_meta, candidates=candidates),
                                              functools.partial(self.sample, gp, candidates, self.ts_beta), self.rng)
                points.append(candidates[acq.argmax_grid(values, self.rng)])
            else:
                path, meta_branch = ts_draw(nu, self.current["weights"],
                                            lambda i: self.sample_path(self.meta_gps[i], self.tau),
                                            lambda: self.sample_path(gp, self.ts_beta), self.rng)
                points.append(acq.maximize(path, self.dim, self.rng, n_candidates=self.n_candidates,
                                           n_starts=self.n_starts, extra_starts=self.best_rows(self.n_best_starts),
                                           maxiter=self.maxiter)[0])
            self.history[-1].setdefault("branch", []).append("meta" if meta_branch else "target")
        return np.array(points)

    def sample_meta(self, i: int, candidates: np.ndarray) -> np.ndarray:
        """One sample of previous task i's GP at ``candidates``, scaled by ``tau`` around its mean (eq. 3)."""
        return self.sample(self.meta_gps[i], candidates, self.tau)

    def sample(self, gp: GP, candidates: np.ndarray, scale: float) -> np.ndarray:
        """One posterior sample of ``gp`` at ``candidates``, its deviation from the mean scaled by ``scale``."""
        if self.sampler == "exact":
            sample = gp.sample(candidates, 1, self.rng)[0]
            mean = gp.predict(candidates)[0] if scale != 1.0 else sample
            return mean + scale * (sample - mean)
        return self.sample_path(gp, scale)(candidates)

    def sample_path(self, gp: GP, scale: float) -> SamplePath:
        """One random-feature posterior sample of ``gp`` (App. D.5), its deviation from the mean scaled by ``scale``."""
        hyper = gp.hyperparameters
        features = RandomFeatures(gp.kernel_name, self.dim, self.n_pairs, self.rng, hyper["lengthscale"][0],
                                  hyper["outputscale"][0])
        z = ((gp.y - gp.y_mean) / gp.y_std).numpy()
        model = BayesianLinearModel(features.n_features, max(hyper["noise"], 1e-9)).fit(features(gp.X.numpy()), z)
        w = model.sample_weights(self.rng)[0]
        return SamplePath([(float(gp.y_std), features, model.mean + scale * (w - model.mean))], float(gp.y_mean))
