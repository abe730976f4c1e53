"""Exact GP regression in float64 on GPyTorch/BoTorch, noisy or noise-free.

Model: y_i = f(x_i) + eps_i with f ~ GP(0, k) on standardised outputs and eps ~ N(0, noise).
Hyperparameters (lengthscales, output scale and, for a noisy model, the noise) are fitted by type-II
maximum likelihood (or, with ``hyperprior="botorch"``, maximum a posteriori under BoTorch's default
priors) with BoTorch's ``fit_gpytorch_mll`` (L-BFGS-B through SciPy).

The fit is multi-start. The marginal likelihood of a few exact observations often has a poor local
optimum that explains the data as noise (output scale near 0, noise variance near 1 on standardised
outputs); one L-BFGS-B run from a flat kernel ends there in about half of the fits on smooth test
functions. So ``starts`` copies of the model are fitted at once as one batched GPyTorch model, which
BoTorch optimises with independent L-BFGS-B runs per batch element, and the copy with the highest
objective is kept. The copies start from

1. the previous fit's hyperparameters (a warm start), or the default start on the first fit;
2. the default start: lengthscale exp(sqrt 2 - 3) sqrt(d) (about 0.2 sqrt d on the unit cube, the mode
   of BoTorch's dimension-scaled prior), output scale 1, noise variance 1e-3 (standardised outputs);
3. seeded random starts: log-uniform lengthscales in [0.05, 1] sqrt(d), output scale in [0.3, 3] and
   noise variance in [1e-6, 1e-1], drawn from a stream fixed by ``seed`` and the number of points.

Restarts are used while the model has at most ``restarts_up_to`` points (default 100). The all-noise
optimum is a small-data failure (our ``gp_fit`` benchmark has n = 8-50), while with hundreds of points
every start costs a full fit: at n = 200 in 10-D, 4 starts took about 5 times as long as one.

Output scale and noise only. With the lengthscale fixed (``fit_lengthscale=False``), one named kernel,
a fitted noise and no hyperprior, the covariance is s R + noise I with R the kernel matrix at unit output
scale. Writing R = Q diag(lambda) Q^T and c = Q^T z, the evidence is

    log p(z | s, noise) = -1/2 sum_i [log(s lambda_i + noise) + c_i^2 / (s lambda_i + noise)] - n/2 log 2 pi,

O(n) per evaluation after one eigendecomposition. For a fixed ratio r = noise / s it is maximised at
s = (1/n) sum_i c_i^2 / (lambda_i + r). The fit profiles the evidence on a grid of log r (``RATIO_GRID``,
s clipped to its bounds), then runs L-BFGS-B on (log s, log noise) within the bounds from the best grid
point: the optimum of the same objective as the multi-start route, found without restarts
(``bench gp_scale_noise_fit`` holds the two to equal evidence).

Prediction uses a cached Cholesky factor ``L L^T = K + tau I`` of the training kernel matrix:

    mu(x)      = k_X(x)^T (K + tau I)^{-1} y
    sigma^2(x) = k(x, x) - k_X(x)^T (K + tau I)^{-1} k_X(x)

For a noise-free model tau is a jitter that starts at ``jitter * outputscale`` and grows tenfold
(up to ``max_jitter * outputscale``) until the factorisation succeeds; for a noisy model tau is the
noise variance, raised the same way (to at least ``jitter * outputscale``, then tenfold) only where
K + noise I is not positive definite in floating point (a fitted noise near its floor beside a large
amplitude and nearly repeated inputs). Posterior quantities are returned in the units of the observations.

Additive models (paper 002, Kandasamy et al. 2015, arXiv:1503.01673). With ``groups`` the kernel is
k = sum_j k_j(x^(j), x'^(j)) over disjoint groups of coordinates (eq. 4), and the same factor L gives the
posterior of every component f_j (Sec. 4.1, eq. 5; Delta = K + tau I = L L^T):

    mu_j(x)      = k_j(x, X) Delta^{-1} y
    sigma_j^2(x) = k_j(x, x) - k_j(x, X) Delta^{-1} k_j(X, x)

(:meth:`GP.group_posterior`, :meth:`GP.predict_groups`), which is what the Add-GP-UCB acquisition
(eq. 6) maximises group by group. The means add up to the full mean (less the constant y_mean of the
standardisation); the variances do not add up to sigma^2 (the components' posterior cross-covariance,
-k_i(x, X) Delta^{-1} k_j(X, x), is left out). ``tie="all"`` shares one lengthscale and one output scale
across the groups, as in the paper's experiments (Sec. 5).

Custom kernels. ``kernel`` may be any GPyTorch kernel instance (e.g. the rational-quadratic ARD kernel
of paper 003's GP baselines). It cannot be rebuilt as a batch, so its multi-start fit runs the starts one
after another, as separate models: the warm start, its initial values (the default start), and random
starts that draw every fitted hyperparameter (the constrained value) log-uniformly within a factor
``CUSTOM_START_FACTOR`` of its initial value, and the noise variance as above.
"""
from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Sequence

import gpytorch
import numpy as np
import torch
from botorch.exceptions.errors import ModelFittingError
from botorch.exceptions.warnings import OptimizationWarning
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP

from bolib.errors import check_choice
from bolib.models.kernels import (KERNELS, OUTPUTSCALE_BOUNDS, TIES, check_groups, kernel_matrix, make_kernel,
                                  tied_dim)
from bolib.runtime import rng as make_rng

NOISE_FREE_FLOOR = 1e-9
#: starting noise variance of a fit (standardised outputs)
NOISE_START = 1e-3
#: hyperparameter fits: number of starts (warm start, default start, random starts)
FIT_STARTS = 4
#: largest number of points at which a fit uses more than one start
RESTARTS_UP_TO = 100
#: log(noise / output scale) on which a scale-and-noise-only fit profiles the evidence first
RATIO_GRID = np.linspace(-30.0, 21.0, 103)
#: ``none``: type-II maximum likelihood; ``botorch``: MAP under BoTorch's default priors
#: (LogNormal(sqrt 2 + log(d)/2, sqrt 3) on lengthscales, LogNormal(-4, 1) on a fitted noise variance)
HYPERPRIORS = ("none", "botorch")
#: log-uniform ranges of the random starts (lengthscale in units of sqrt(d))
RANDOM_STARTS = {"lengthscale": (0.05, 1.0), "outputscale": (0.3, 3.0), "noise": (1e-6, 1e-1)}
#: random starts of a custom kernel: each positive hyperparameter log-uniform in [v0 / F, F v0]
#: around its initial value v0 (kept inside its constraint)
CUSTOM_START_FACTOR = 5.0


def _accept_line_search_stop(warning) -> bool:
    """Treat L-BFGS-B's 'ABNORMAL' line-search stop as a finished fit.

    It happens at a converged optimum (typically a noise variance pinned at its floor for
    noise-free data). SciPy >= 1.15 shortened the message, so BoTorch's own handler no longer
    recognises it and would retry from random starts and give up.
    """
    return issubclass(warning.category, OptimizationWarning) and "ABNORMAL" in str(warning.message)


def scale_noise_evidence(eigenvalues: np.ndarray, c2: np.ndarray, log_s: float, log_noise: float):
    """log N(z; 0, s R + noise I) and its gradient in (log s, log noise), from the eigenvalues of R and
    the squared coordinates ``c2`` of z in R's eigenvectors (module docstring)."""
    s, noise = math.exp(log_s), math.exp(log_noise)
    v = s * eigenvalues + noise
    r = 0.5 * (c2 / v ** 2 - 1.0 / v)
    value = -0.5 * (np.log(v).sum() + (c2 / v).sum() + len(v) * math.log(2 * math.pi))
    return value, np.array([s * (eigenvalues * r).sum(), noise * r.sum()])


def _first_occurrences(X: torch.Tensor, y: torch.Tensor, tol: float = 1e-9):
    """Drop rows of X within ``tol`` (max-norm) of an earlier row.

    For noise-free data a repeated input carries no information and would make K singular; the
    evaluation still counts for the loop's budget and regret, it only adds no row to K.
    """
    if len(X) < 2:
        return X, y
    close = (torch.cdist(X, X, p=float("inf")) <= tol).tril(-1).any(dim=1)
    return X[~close], y[~close]


def _group_dim(name: str, dim: int, groups, tie: str = "none") -> int:
    """Number of input dimensions of the kernel part that owns parameter ``name`` (of the largest
    group for a lengthscale shared by all groups)."""
    if groups is None:
        return dim
    if tie == "all":
        return tied_dim(groups)
    part = int(name.split("kernels.")[1].split(".")[0])
    return len(groups[part])


def _constrained_values(module: torch.nn.Module) -> dict[str, np.ndarray | float]:
    """Every hyperparameter of ``module`` by name (``raw_`` dropped), as its constrained value; a
    parameter shared by several submodules appears once."""
    values = {}
    for name, raw, constraint in module.named_parameters_and_constraints():
        value = (raw if constraint is None else constraint.transform(raw)).detach().numpy()
        values[name.replace("raw_", "")] = float(value.item()) if value.size == 1 else value.ravel()
    return values


class GP:
    """Exact GP with a fast cached-Cholesky posterior.

    Parameters
    ----------
    kernel
        A kernel name (see :func:`bolib.models.kernels.make_kernel`) or any GPyTorch kernel instance
        (copied; the copy's values are the fit's default start; its own priors count with
        ``hyperprior="botorch"``, which adds only the noise prior). An instance brings its own
        structure, so ``ard``, ``groups``, ``lengthscale``, ``outputscale`` and ``tie`` must be left
        unset; its groups for :meth:`group_posterior` are the terms of a top-level ``AdditiveKernel``.
    ard, groups, lengthscale, outputscale
        See :func:`bolib.models.kernels.make_kernel`. ``groups``: disjoint lists of coordinates, one
        additive component each (paper 002, eq. 4).
    tie
        ``"none"`` (each group its own lengthscale and output scale) or ``"all"`` (one lengthscale and
        one output scale shared by every group, the same parameter objects; paper 002, Sec. 5).
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
    starts
        Number of starting points of each hyperparameter fit (1: the warm or default start only).
    restarts_up_to
        Fits on more points than this use one start (the warm or default one).
    hyperprior
        ``"none"`` (type-II maximum likelihood, the papers' choice) or ``"botorch"`` (MAP under
        BoTorch's default lengthscale and noise priors).
    seed
        Seeds the random starts (with the number of points), so a fit is a pure function of its data.

    Returns
    -------
    After :meth:`fit` (X in the unit cube, y in observation units), :meth:`predict` gives posterior
    means and standard deviations as arrays, :meth:`posterior` the same as differentiable tensors
    (``full_cov=True``: the covariance), and :meth:`group_posterior` one additive component's.

    Examples
    --------
    >>> import numpy as np
    >>> from bolib.models import GP
    >>> X = np.random.default_rng(0).random((20, 2))
    >>> gp = GP("rbf", ard=True).fit(X, np.sin(6 * X[:, 0]) + X[:, 1])
    >>> mean, sd = gp.predict(X[:3])
    >>> bool(np.allclose(mean, np.sin(6 * X[:3, 0]) + X[:3, 1], atol=0.05)), sd.shape
    (True, (3,))
    """

    def __init__(self, kernel: str | gpytorch.kernels.Kernel = "matern25", *, ard: bool = False,
                 groups: Sequence[Sequence[int]] | None = None,
                 lengthscale=None, outputscale: float | None = None, noise: float | None = None,
                 fit: bool = True, fit_lengthscale: bool = True, standardize: bool = True,
                 jitter: float = 1e-6, max_jitter: float = 1e-4, starts: int = FIT_STARTS,
                 restarts_up_to: int = RESTARTS_UP_TO, hyperprior: str = "none", seed: int = 0,
                 tie: str = "none"):
        self.tie = check_choice("tie", tie, TIES)
        self.kernel_instance: gpytorch.kernels.Kernel | None = None
        if isinstance(kernel, gpytorch.kernels.Kernel):
            named_only = [name for name, given in [("ard", ard), ("groups", groups is not None),
                                                   ("lengthscale", lengthscale is not None),
                                                   ("outputscale", outputscale is not None),
                                                   ("tie", tie != "none")] if given]
            if named_only:
                raise ValueError(f"{', '.join(named_only)} apply to named kernels "
                                 f"({', '.join(sorted(KERNELS))}); set them on the kernel instance instead")
            self.kernel_instance = copy.deepcopy(kernel).to(torch.float64)
            kernel = type(kernel).__name__
        elif isinstance(kernel, str):
            check_choice("kernel", kernel, KERNELS)
        else:
            raise TypeError(f"kernel must be a name ({', '.join(sorted(KERNELS))}) or a "
                            f"gpytorch.kernels.Kernel instance; got {type(kernel).__name__}")
        if groups is not None:
            groups = check_groups(groups)
        self.kernel_name, self.ard, self.groups = kernel, ard, groups
        self.starts, self.restarts_up_to, self.seed = int(starts), int(restarts_up_to), int(seed)
        self.hyperprior = check_choice("hyperprior", hyperprior, HYPERPRIORS)
        if self.starts < 1:
            raise ValueError(f"starts must be >= 1; got {starts}")
        self.lengthscale, self.outputscale = lengthscale, outputscale
        self.noise, self.fit_hyperparameters, self.standardize = noise, fit, standardize
        self.fit_lengthscale = fit_lengthscale
        self.jitter, self.max_jitter = jitter, max_jitter
        self.model: SingleTaskGP | None = None
        self.tau = None

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y, refit: bool | None = None) -> "GP":
        """Condition on (X, y); refit hyperparameters if ``refit`` (default: the ``fit`` setting).

        A refit is multi-start (see the module docstring); its first start is the previous fit.
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
        warm = self.model is not None
        self._condition(X, z)
        if (self.fit_hyperparameters if refit is None else refit) and len(y) > 1:
            self._maximise_likelihood(warm)
        self._factorise()
        return self

    def _condition(self, X, z) -> None:
        """Give the model the data (X, z): the fitted model keeps its hyperparameters and takes the new
        data (no module is rebuilt: ``bench gp_condition``); the first fit builds it at the default start."""
        if self.model is None:
            self.model = self._build(X, z)
        else:
            self.model.set_train_data(X, z.squeeze(-1), strict=False)

    def _build(self, X, z, batch_shape: torch.Size = torch.Size()) -> SingleTaskGP:
        """The model at its default start; a batch of ``batch_shape`` copies for the multi-start fit."""
        hyperprior = self.hyperprior == "botorch"
        if self.kernel_instance is not None:
            if batch_shape:
                raise ValueError("a custom kernel instance cannot be built as a batch")
            covar = copy.deepcopy(self.kernel_instance)
        else:
            covar = make_kernel(self.kernel_name, X.shape[-1], ard=self.ard, groups=self.groups,
                                lengthscale=self.lengthscale, outputscale=self.outputscale,
                                batch_shape=batch_shape, hyperprior=hyperprior, tie=self.tie)
        for name, parameter in covar.named_parameters():
            if name.endswith("raw_lengthscale"):
                parameter.requires_grad_(self.fit_lengthscale)
        fixed_noise = self.noise is not None
        likelihood = gpytorch.likelihoods.GaussianLikelihood(
            batch_shape=batch_shape,
            noise_prior=gpytorch.priors.LogNormalPrior(-4.0, 1.0) if hyperprior and not fixed_noise else None,
            noise_constraint=gpytorch.constraints.GreaterThan(NOISE_FREE_FLOOR))
        likelihood.noise = torch.tensor(max(self.noise, NOISE_FREE_FLOOR) if fixed_noise else NOISE_START,
                                        dtype=torch.float64)
        likelihood.raw_noise.requires_grad_(not fixed_noise)
        model = SingleTaskGP(X.expand(*batch_shape, *X.shape), z.expand(*batch_shape, *z.shape),
                             likelihood=likelihood, covar_module=covar,
                             mean_module=gpytorch.means.ZeroMean(), outcome_transform=None)
        return model.to(torch.float64)

    def n_starts(self, n_points: int) -> int:
        """Starts of a fit on ``n_points`` points."""
        return self.starts if n_points <= self.restarts_up_to else 1

    def _starts(self, warm: bool, n_starts: int) -> SingleTaskGP:
        """A batch of ``n_starts`` models: [current values, default start (if warm), random starts...]."""
        X, z = self.model.train_inputs[0], self.model.train_targets.unsqueeze(-1)
        batch = self._build(X, z, torch.Size([n_starts]))
        stream = make_rng(self.seed, "gp-starts", len(X))
        current = dict(self.model.named_parameters())
        first_random = 2 if warm else 1
        for name, raw, constraint in batch.named_parameters_and_constraints():
            raw.data[0] = current[name].data
            if not raw.requires_grad or n_starts <= first_random:
                continue
            kind = next(k for k in RANDOM_STARTS if name.endswith(f"raw_{k}"))
            low, high = RANDOM_STARTS[kind]
            shape = (n_starts - first_random, *raw.shape[1:])
            value = np.exp(stream.uniform(np.log(low), np.log(high), shape))
            if kind == "lengthscale":
                value = value * math.sqrt(raw.shape[-1] if self.ard
                                          else _group_dim(name, X.shape[-1], self.groups, self.tie))
            raw.data[first_random:] = constraint.inverse_transform(torch.as_tensor(value, dtype=torch.float64))
        return batch

    def _scale_and_noise_only(self) -> bool:
        """The fit adjusts only the output scale and the noise of one named kernel, by type-II ML."""
        return (self.kernel_instance is None and self.groups is None and not self.fit_lengthscale
                and self.noise is None and self.hyperprior == "none")

    def _maximise_evidence_scale_and_noise(self) -> None:
        """Type-II ML of the output scale and the noise on the eigendecomposition of R (module docstring)."""
        from scipy.optimize import minimize

        X, z = self.model.train_inputs[0], self.model.train_targets
        scale_kernel = self.model.covar_module
        with torch.no_grad():
            eigenvalues, Q = torch.linalg.eigh(scale_kernel.base_kernel(X).to_dense())
        eigenvalues = eigenvalues.clamp_min(0.0).numpy()
        c2 = (Q.T @ z).numpy() ** 2
        low, high = math.log(OUTPUTSCALE_BOUNDS[0]) + 1e-9, math.log(OUTPUTSCALE_BOUNDS[1]) - 1e-9
        bounds = [(low, high), (math.log(NOISE_FREE_FLOOR), high)]
        starts = []
        for log_ratio in RATIO_GRID:
            log_s = float(np.clip(math.log((c2 / (eigenvalues + math.exp(log_ratio))).mean()), low, high))
            log_noise = max(log_s + log_ratio, bounds[1][0])
            starts.append((scale_noise_evidence(eigenvalues, c2, log_s, log_noise)[0], log_s, log_noise))
        _, *start = max(starts)
        result = minimize(lambda u: tuple(-part for part in scale_noise_evidence(eigenvalues, c2, *u)),
                          np.array(start), jac=True, method="L-BFGS-B", bounds=bounds)
        log_s, log_noise = result.x if -result.fun >= max(starts)[0] else start
        with torch.no_grad():
            scale_kernel.outputscale = torch.tensor(math.exp(log_s), dtype=torch.float64)
            self.model.likelihood.noise = torch.tensor(max(math.exp(log_noise), NOISE_FREE_FLOOR),
                                                       dtype=torch.float64)

    def _maximise_likelihood(self, warm: bool) -> None:
        """Type-II ML (or MAP) of the hyperparameters: the eigendecomposition route when only the output
        scale and the noise are free, else the multi-start route (module docstring)."""
        if self._scale_and_noise_only():
            self._maximise_evidence_scale_and_noise()
            self.model.eval()
        else:
            self._maximise_likelihood_multistart(warm)

    def _maximise_likelihood_multistart(self, warm: bool) -> None:
        """Multi-start L-BFGS-B with BoTorch's ``fit_gpytorch_mll``; keep the best start. If the fit
        fails, keep the current hyperparameters and warn."""
        n_starts = self.n_starts(len(self.model.train_targets))
        if n_starts > 1 and self.kernel_instance is not None:
            self._maximise_likelihood_start_by_start(warm, n_starts)
            return
        model = self._starts(warm, n_starts) if n_starts > 1 else self.model
        mll = gpytorch.mlls.ExactMarginalLogLikelihood(model.likelihood, model)
        try:
            fit_gpytorch_mll(mll, warning_handler=_accept_line_search_stop)
        except ModelFittingError as err:
            warnings.warn(f"GP hyperparameter fit failed ({err}); keeping the previous values")
            self.model.eval()
            return
        if model is not self.model:
            mll.train()
            with torch.no_grad():
                objective = mll(model(*model.train_inputs), model.train_targets)
            best = int(torch.nan_to_num(objective, nan=-torch.inf).argmax())
            fitted = dict(model.named_parameters())
            with torch.no_grad():
                for name, raw in self.model.named_parameters():
                    raw.copy_(fitted[name][best])
        self.model.eval()

    def _random_start(self, default: SingleTaskGP, stream: np.random.Generator) -> SingleTaskGP:
        """A copy of ``default`` (a custom-kernel model at its initial values) with every fitted
        hyperparameter drawn at random: the noise variance log-uniform in ``RANDOM_STARTS["noise"]``,
        every other positive one log-uniform within a factor ``CUSTOM_START_FACTOR`` of its initial
        value (a draw beyond a bound of its constraint moves halfway from the initial value to it)."""
        model = copy.deepcopy(default)
        spread = math.log(CUSTOM_START_FACTOR)
        with torch.no_grad():
            for name, raw, constraint in model.named_parameters_and_constraints():
                if not raw.requires_grad:
                    continue
                value = raw if constraint is None else constraint.transform(raw)
                if name.endswith("likelihood.noise_covar.raw_noise"):
                    low, high = RANDOM_STARTS["noise"]
                    draw = np.exp(stream.uniform(np.log(low), np.log(high), tuple(raw.shape)))
                elif bool((value > 0).all()):
                    draw = value.numpy() * np.exp(stream.uniform(-spread, spread, tuple(raw.shape)))
                else:
                    continue  # no scale to perturb around: keep the initial value
                draw = torch.as_tensor(draw, dtype=torch.float64)
                if constraint is not None:
                    low, high = (b.to(torch.float64) for b in (constraint.lower_bound, constraint.upper_bound))
                    draw = torch.where(draw >= high, (value + high) / 2, draw)
                    draw = torch.where(draw <= low, (value + low) / 2, draw)
                    draw = constraint.inverse_transform(draw)
                raw.copy_(torch.where(torch.isfinite(draw), draw, raw))
        return model

    def _maximise_likelihood_start_by_start(self, warm: bool, n_starts: int) -> None:
        """Multi-start fit of a custom kernel, one start after another (a kernel instance cannot be
        rebuilt as a batch): [current values, initial values (if warm), random starts...]; keep the
        start with the highest objective. Random starts are drawn from the stream fixed by ``seed`` and
        the number of points, so the fit is a pure function of its data."""
        X, z = self.model.train_inputs[0], self.model.train_targets.unsqueeze(-1)
        stream = make_rng(self.seed, "gp-starts", len(X))
        default = self._build(X, z)
        starts = [copy.deepcopy(self.model)] + ([default] if warm else [])
        while len(starts) < n_starts:
            starts.append(self._random_start(default, stream))
        best, best_value, errors = None, -math.inf, []
        for model in starts:
            mll = gpytorch.mlls.ExactMarginalLogLikelihood(model.likelihood, model)
            try:
                fit_gpytorch_mll(mll, warning_handler=_accept_line_search_stop)
            except ModelFittingError as err:
                errors.append(str(err))
                continue
            mll.train()
            with torch.no_grad():
                value = float(mll(model(*model.train_inputs), model.train_targets))
            if value > best_value:  # NaN never wins
                best, best_value = model, value
        if best is None:
            warnings.warn(f"GP hyperparameter fit failed ({errors[0]}); keeping the previous values")
        else:
            self.model.load_state_dict(best.state_dict())
        self.model.eval()

    def _factorise(self) -> None:
        """Cache the Cholesky factor of K + tau I, tau the noise variance (the jitter for a noise-free
        model), escalated tenfold while the factorisation fails (module docstring)."""
        self.model.eval()
        with torch.no_grad():
            K = kernel_matrix(self.model.covar_module, self.X)
            eye = torch.eye(len(self.X), dtype=torch.float64)
            scale = float(K.diagonal().max())
            noise = 0.0 if self.noise == 0.0 else float(self.model.likelihood.noise.detach())
            tau = noise if noise > 0.0 else self.jitter * scale
            L, info = torch.linalg.cholesky_ex(K + tau * eye)
            while info != 0 and tau < self.max_jitter * scale:
                tau = max(10 * tau, self.jitter * scale)
                L, info = torch.linalg.cholesky_ex(K + tau * eye)
            if info != 0:
                raise np.linalg.LinAlgError(
                    f"kernel matrix not positive definite even with jitter {tau:.1e}")
            self.tau, self.L = tau, L
            z = ((self.y - self.y_mean) / self.y_std).unsqueeze(-1)
            self.alpha = torch.cholesky_solve(z, L)

    # --------------------------------------------------------------- prediction
    def _conditional(self, kernel: gpytorch.kernels.Kernel, Xc: torch.Tensor, full_cov: bool):
        """Mean k(Xc, X) alpha and variance (or covariance) k(Xc, Xc) - V^T V, V = L^{-1} k(X, Xc), of
        the latent function with prior kernel ``kernel`` given the standardised data, where ``kernel`` is
        the model's kernel or one of its additive components (paper 002, eq. 5) and L, alpha are the
        cached factor and weights of the full K + tau I."""
        Kc = kernel(Xc, self.X).to_dense()
        mean = Kc @ self.alpha.squeeze(-1)
        V = torch.linalg.solve_triangular(self.L, Kc.T, upper=False)
        if full_cov:
            return mean, kernel(Xc, Xc).to_dense() - V.T @ V
        prior = kernel(Xc, Xc, diag=True)
        return mean, (prior - (V * V).sum(0)).clamp_min(0.0)

    def posterior(self, Xc: torch.Tensor, full_cov: bool = False):
        """Posterior mean and variance (or covariance) of f at ``Xc``, in observation units.

        Differentiable in ``Xc`` (torch autograd), which the acquisition maximisers use.
        """
        self._check_fitted()
        Xc = torch.as_tensor(Xc, dtype=torch.float64)
        mean, var = self._conditional(self.model.covar_module, Xc, full_cov)
        return self.y_mean + self.y_std * mean, self.y_std ** 2 * var

    @property
    def n_groups(self) -> int:
        """Number M of additive components: the groups, or the terms of a custom ``AdditiveKernel``."""
        if self.kernel_instance is not None:
            kernel = self.kernel_instance
            return len(kernel.kernels) if isinstance(kernel, gpytorch.kernels.AdditiveKernel) else 1
        return 1 if self.groups is None else len(self.groups)

    def _components(self) -> list[gpytorch.kernels.Kernel]:
        kernel = self.model.covar_module
        return list(kernel.kernels) if isinstance(kernel, gpytorch.kernels.AdditiveKernel) else [kernel]

    def group_posterior(self, j: int, Xc: torch.Tensor, full_cov: bool = False):
        """Posterior mean and variance (or covariance) of the additive component f_j at ``Xc``, in
        observation units (paper 002, Kandasamy et al. 2015, Sec. 4.1, eq. 5):

            mu_j(x)      = y_std k_j(x, X) (K + tau I)^{-1} z
            sigma_j^2(x) = y_std^2 [k_j(x, x) - k_j(x, X) (K + tau I)^{-1} k_j(X, x)]

        with K the full (sum) kernel matrix, z the standardised observations and the one cached
        Cholesky factor of K + tau I shared by all groups. ``Xc`` has all D columns (those outside group
        j are ignored). sum_j mu_j + y_mean is the full posterior mean; the variances do not add up to
        the full variance (eq. 4 of paper 002). Differentiable in ``Xc``.
        """
        self._check_fitted()
        components = self._components()
        if not (isinstance(j, (int, np.integer)) and 0 <= j < len(components)):
            raise ValueError(f"unknown group {j!r}; valid groups: 0..{len(components) - 1}")
        Xc = torch.as_tensor(Xc, dtype=torch.float64)
        mean, var = self._conditional(components[int(j)], Xc, full_cov)
        return self.y_std * mean, self.y_std ** 2 * var

    def predict_groups(self, Xc) -> tuple[np.ndarray, np.ndarray]:
        """Posterior means and standard deviations of every component f_j (eq. 5) at ``Xc``: two arrays
        of shape (M, len(Xc)), row j for group j (see :meth:`group_posterior`)."""
        self._check_fitted()
        with torch.no_grad():
            Xc = torch.as_tensor(np.asarray(Xc), dtype=torch.float64)
            pairs = [self.group_posterior(j, Xc) for j in range(len(self._components()))]
        return (np.stack([mean.numpy() for mean, _ in pairs]),
                np.stack([var.sqrt().numpy() for _, var in pairs]))

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

    @property
    def fit_objective(self) -> float:
        """What the hyperparameter fit maximises, in nats: log p(y | hyperparameters) of the
        standardised data, plus the log prior density of the hyperparameters with ``hyperprior``."""
        self._check_fitted()
        mll = gpytorch.mlls.ExactMarginalLogLikelihood(self.model.likelihood, self.model)
        mll.train()
        try:
            with torch.no_grad():
                value = mll(self.model(*self.model.train_inputs), self.model.train_targets)
        finally:
            self.model.eval()
        return float(value) * len(self.model.train_targets)

    # -------------------------------------------------------------- inspection
    @property
    def hyperparameters(self) -> dict[str, np.ndarray | float]:
        """Fitted hyperparameters (kernel ones on the standardised scale).

        Named kernels: ``lengthscale`` and ``outputscale`` lists with one entry per group (one entry
        with ``tie="all"``: the shared values; the prior variance is then M * outputscale). A custom
        kernel: ``kernel``, every kernel hyperparameter by parameter name (constrained values).
        """
        self._check_fitted()
        if self.kernel_instance is not None:
            return {"kernel": _constrained_values(self.model.covar_module),
                    "noise": float(self.model.likelihood.noise.detach()), "tau": self.tau}
        parts = self._components()
        if self.tie == "all":
            parts = parts[:1]
        return {
            "lengthscale": [p.base_kernel.lengthscale.detach().numpy().ravel() for p in parts],
            "outputscale": [float(p.outputscale.detach()) for p in parts],
            "noise": float(self.model.likelihood.noise.detach()),
            "tau": self.tau,
        }

    def _check_fitted(self) -> None:
        if self.model is None:
            raise RuntimeError("call GP.fit(X, y) before asking for the posterior")
