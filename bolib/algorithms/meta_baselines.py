"""The meta-BO baselines of paper 004 (Dai et al., "On Provably Robust Meta-Bayesian Optimization", UAI
2022, arXiv:2206.06872, Sec. 6): RGPE, TAF and MTBO, as ask/tell optimisers that take the previous
tasks as :class:`bolib.algorithms.rm_bo.MetaOptimizer` does (setting ``meta_tasks`` or
``problem.meta["tasks"]``).

* ``rgpe`` (Feurer, Letham & Bakshy 2018, "Scalable meta-learning for Bayesian optimization using
  ranking-weighted Gaussian process ensembles"): the ensemble mu = sum_m w_m mu_m,
  sigma^2 = sum_m w_m^2 sigma_m^2 over the meta GPs and the target GP, with expected improvement over
  the best observed value. The weights (:func:`rgpe_weights`) are the fractions of ``n_samples``
  posterior draws in which each model has the smallest ranking loss (:func:`ranking_loss`: the number
  of ordered pairs of target observations it orders wrongly). A meta model is drawn jointly at the
  target inputs; the target model by leave-one-out (:func:`loo_ranking_loss`: model j, fitted without
  point j, is drawn jointly at all inputs and its draw at x_j is compared with its draws at the others,
  as BoTorch's RGPE tutorial does). Ties go to the target model; a meta model whose median loss exceeds
  the 95th percentile of the target's is dropped (the dilution guard). With fewer than 2 target points
  the target model alone has weight 1.
* ``taf`` (Wistuba, Schilling & Schmidt-Thieme 2018, "Scalable Gaussian process-based transfer
  surrogates for hyperparameter optimization"), the ranking-based variant: each meta model's
  discordance delta_i (:func:`discordance`, the fraction of ordered pairs of target observations its
  mean orders differently) gives the Epanechnikov weight w_i = 3/4 max(0, 1 - (delta_i / rho)^2), the
  target w_T = 3/4, and the acquisition is
  [w_T EI_T(x) + sum_i w_i max(0, mu_bar_i(x) - max_j mu_bar_i(x_j))] / (w_T + sum_i w_i),
  deterministic (the authors of paper 004 drew a random value from each meta posterior instead).
* ``mtbo`` (Swersky, Snoek & Adams 2013, "Multi-task Bayesian optimization"): one multi-task GP over
  all tasks' data with the intrinsic-coregionalisation kernel B_ij k(x, x') (BoTorch's ``MultiTaskGP``,
  a GPyTorch ``IndexKernel`` of rank ``rank`` times a Matérn-5/2 ARD kernel), fitted every ``refit_every``
  observations by BoTorch's default fit, which keeps the model's default priors (a MAP fit, not type-II
  ML), and expected improvement on the target task.
"""
from __future__ import annotations

import copy

import numpy as np
import torch

from bolib import acquisition as acq
from bolib.algorithms.base import refit_due
from bolib.algorithms.rm_bo import MetaOptimizer
from bolib.models import GP


# ------------------------------------------------------------------------------------ RGPE
def _misordered(values: np.ndarray, y: np.ndarray) -> np.ndarray:
    """[..., j, k] = (values_j < values_k) XOR (y_j < y_k)."""
    return (values[..., :, None] < values[..., None, :]) ^ (y[:, None] < y[None, :])


def ranking_loss(samples, y) -> np.ndarray:
    """Per draw (rows of ``samples``, values at the target inputs), the number of ordered pairs (j, k)
    with (g(x_j) < g(x_k)) XOR (y_j < y_k)."""
    samples = np.atleast_2d(np.asarray(samples, dtype=float))
    return _misordered(samples, np.asarray(y, dtype=float)).sum(axis=(-2, -1))


def loo_ranking_loss(samples, y) -> np.ndarray:
    """Leave-one-out ranking loss of the target model: ``samples[s, j, k]`` is draw s of the model fitted
    without point j at input k; pair (j, k) is misordered when (g_j(x_j) < g_j(x_k)) XOR (y_j < y_k)."""
    samples = np.asarray(samples, dtype=float)
    y = np.asarray(y, dtype=float)
    own = np.diagonal(samples, axis1=1, axis2=2)[..., None]
    return ((own < samples) ^ (y[:, None] < y[None, :])).sum(axis=(-2, -1))


def rgpe_weights(meta_losses, target_loss) -> np.ndarray:
    """RGPE weights from ranking losses: ``meta_losses`` (M, S), ``target_loss`` (S,).

    Returns M + 1 weights, the target's last: the fraction of draws in which each model has the
    smallest loss, ties going to the target (then to the first meta model). Dilution guard: a meta
    model with median loss above the 95th percentile of the target's never wins.
    """
    meta = np.atleast_2d(np.asarray(meta_losses, dtype=float))
    target = np.asarray(target_loss, dtype=float)
    meta = np.where((np.median(meta, axis=1) > np.percentile(target, 95))[:, None], np.inf, meta)
    losses = np.vstack([target[None], meta])  # target first: argmin's first minimum is the target
    best = np.argmin(losses, axis=0)
    counts = np.bincount(best, minlength=len(losses)) / losses.shape[1]
    return np.concatenate([counts[1:], counts[:1]])


def joint_samples(model: GP, X, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """Joint posterior samples of ``model`` at ``X`` (``GP.sample``). Where the posterior covariance is
    too far from positive definite for its jittered Cholesky factor (many near-repeated queries with a
    small fitted noise, where rounding leaves negative eigenvalues), the samples use the eigenvectors
    with the negative eigenvalues set to 0 (the nearest positive semi-definite covariance)."""
    try:
        return model.sample(X, n_samples, rng)
    except np.linalg.LinAlgError:
        with torch.no_grad():
            mean, cov = model.posterior(torch.as_tensor(np.asarray(X), dtype=torch.float64), full_cov=True)
        values, vectors = np.linalg.eigh(cov.numpy())
        root = vectors * np.sqrt(np.clip(values, 0.0, None))
        return (mean.numpy()[:, None] + root @ rng.standard_normal((len(values), n_samples))).T


class RGPE(MetaOptimizer):
    """RGPE with expected improvement (see the module docstring); ``history`` records the weights."""

    name = "rgpe"
    cheap_settings = {**MetaOptimizer.cheap_settings, "n_samples": 32}

    def __init__(self, dim, seed=0, *, n_samples=500, xi=0.0, **settings):
        super().__init__(dim, seed, **settings)
        self.n_samples, self.xi = int(n_samples), float(xi)

    def fit_model(self) -> GP:
        self.require_tasks()
        gp = super().fit_model()
        self.weights = self.rank_weights(gp)
        self.history.append({"t": len(self.y) + 1, "weights": self.weights.tolist()})
        return gp

    def rank_weights(self, gp: GP) -> np.ndarray:
        n, M = len(self.y), len(self.meta_gps)
        if n < 2 or M == 0:
            return np.concatenate([np.zeros(M), [1.0]])
        meta = np.array([ranking_loss(joint_samples(meta_gp, self.X, self.n_samples, self.rng), self.y)
                         for meta_gp in self.meta_gps])
        loo = np.empty((self.n_samples, n, n))
        for j in range(n):
            keep = np.arange(n) != j
            held_out = copy.deepcopy(gp).fit(self.X[keep], self.y[keep], refit=False)  # same hyperparameters
            loo[:, j, :] = joint_samples(held_out, self.X, self.n_samples, self.rng)
        return rgpe_weights(meta, loo_ranking_loss(loo, self.y))

    def acquisition(self, gp, X):
        models = [*self.meta_gps, gp]
        mean = torch.zeros(X.shape[0], dtype=torch.float64)
        var = torch.zeros(X.shape[0], dtype=torch.float64)
        for w, model in zip(self.weights, models):
            if w > 0:
                m, v = model.posterior(X)
                mean, var = mean + w * m, var + w ** 2 * v
        return acq.expected_improvement(mean, acq.posterior_std(var), float(self.y.max()), self.xi)


# ------------------------------------------------------------------------------------ TAF
def discordance(mean_at_X, y) -> float:
    """Fraction of the n(n - 1) ordered pairs of target points that ``mean_at_X`` orders differently
    from ``y`` ((mu_j > mu_k) != (y_j > y_k)); 0 for fewer than 2 points."""
    mean_at_X, y = np.asarray(mean_at_X, dtype=float), np.asarray(y, dtype=float)
    n = len(y)
    if n < 2:
        return 0.0
    wrong = (mean_at_X[:, None] > mean_at_X[None, :]) != (y[:, None] > y[None, :])
    np.fill_diagonal(wrong, False)
    return float(wrong.sum() / (n * (n - 1)))


#: TAF's weight of the target model, w_T (the largest an Epanechnikov weight can be)
TAF_TARGET_WEIGHT = 0.75


def taf_weights(discordances, rho: float = 0.5) -> np.ndarray:
    """Epanechnikov weights 3/4 max(0, 1 - (delta / rho)^2) of the meta models."""
    d = np.asarray(discordances, dtype=float) / rho
    return 0.75 * np.maximum(0.0, 1.0 - d ** 2)


class TAF(MetaOptimizer):
    """TAF, ranking-based weights, deterministic acquisition (module docstring); ``history`` records the
    weights, the target's last."""

    name = "taf"

    def __init__(self, dim, seed=0, *, rho=0.5, xi=0.0, **settings):
        super().__init__(dim, seed, **settings)
        self.rho, self.xi = float(rho), float(xi)

    def fit_model(self) -> GP:
        self.require_tasks()
        gp = super().fit_model()
        means = [meta.predict(self.X)[0] for meta in self.meta_gps]
        self.weights = taf_weights([discordance(m, self.y) for m in means], self.rho) if means else np.zeros(0)
        self.incumbents = [float(m.max()) for m in means]
        self.history.append({"t": len(self.y) + 1, "weights": [*self.weights.tolist(), TAF_TARGET_WEIGHT]})
        return gp

    def acquisition(self, gp, X):
        mean, var = gp.posterior(X)
        total = TAF_TARGET_WEIGHT * acq.expected_improvement(mean, acq.posterior_std(var), float(self.y.max()), self.xi)
        for w, meta, best in zip(self.weights, self.meta_gps, self.incumbents):
            if w > 0:
                total = total + w * (meta.posterior(X)[0] - best).clamp_min(0.0)
        return total / (TAF_TARGET_WEIGHT + float(np.sum(self.weights)))


# ------------------------------------------------------------------------------------ MTBO
#: L-BFGS-B iterations of one (MAP) fit of the multi-task GP. BoTorch's default has no practical cap,
#: and on small previous tasks (4 x 7 points) one fit ran thousands of evaluations (about 40 s per query);
#: capped at 200 it takes about 2 s there.
FIT_MAXITER = 200

class _MultiTaskModel:
    """BoTorch's ``MultiTaskGP`` on the previous tasks plus the target (the last task), fitted by BoTorch's
    default fit with the model's priors (MAP); ``fit``, ``predict`` and ``posterior`` as
    :class:`bolib.models.GP` (target task only)."""

    def __init__(self, tasks, rank: int):
        self.tasks, self.rank, self.model = tasks, int(rank), None

    def fit(self, X, y, refit: bool = True) -> "_MultiTaskModel":
        from botorch.fit import fit_gpytorch_mll
        from botorch.models import MultiTaskGP
        from gpytorch.kernels import MaternKernel
        from gpytorch.mlls import ExactMarginalLogLikelihood

        blocks = [*self.tasks, (np.asarray(X, dtype=float), np.asarray(y, dtype=float))]
        Xt = np.vstack([np.hstack([Xi, np.full((len(Xi), 1), i)]) for i, (Xi, _) in enumerate(blocks)])
        yt = np.concatenate([yi for _, yi in blocks])[:, None]
        previous = self.model
        self.model = MultiTaskGP(torch.as_tensor(Xt), torch.as_tensor(yt), task_feature=-1,
                                 output_tasks=[len(blocks) - 1], rank=self.rank,
                                 covar_module=MaternKernel(nu=2.5, ard_num_dims=Xt.shape[1] - 1)).to(torch.float64)
        if previous is not None:
            self.model.load_state_dict(previous.state_dict(), strict=False)
        if refit or previous is None:
            fit_gpytorch_mll(ExactMarginalLogLikelihood(self.model.likelihood, self.model),
                             optimizer_kwargs={"options": {"maxiter": FIT_MAXITER}})
        self.model.eval()
        return self

    def posterior(self, X: torch.Tensor):
        post = self.model.posterior(torch.as_tensor(X, dtype=torch.float64))
        return post.mean.squeeze(-1), post.variance.squeeze(-1)

    def predict(self, X) -> tuple[np.ndarray, np.ndarray]:
        with torch.no_grad():
            mean, var = self.posterior(torch.as_tensor(np.asarray(X), dtype=torch.float64))
        return mean.numpy(), var.clamp_min(0.0).sqrt().numpy()


class MTBO(MetaOptimizer):
    """MTBO: a multi-task GP over all tasks (module docstring) with EI on the target task."""

    name = "mtbo"
    fits_meta_gps = False  # all tasks are modelled jointly

    def __init__(self, dim, seed=0, *, rank=1, xi=0.0, **settings):
        super().__init__(dim, seed, **settings)
        self.rank, self.xi = int(rank), float(xi)

    def fit_model(self):
        tasks = self.require_tasks()
        n = len(self.y)
        if self._fitted_at == 0:
            self.gp = _MultiTaskModel(tasks, self.rank)
        refit = refit_due(n, self._fitted_at, **self.refit_schedule)
        torch.manual_seed(self.seed + n)  # BoTorch's fit draws its own random starts on failure
        self.gp.fit(self.X, self.y, refit)
        if refit:
            self._fitted_at = n
        return self.gp

    def acquisition(self, model, X):
        mean, var = model.posterior(X)
        return acq.expected_improvement(mean, acq.posterior_std(var), float(self.y.max()), self.xi)
