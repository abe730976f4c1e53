"""Paper 002 (Kandasamy, Schneider & Póczos, "High dimensional Bayesian optimisation and bandits via
additive models", ICML 2015, arXiv:1503.01673): Add-GP-UCB and its baselines as ask/tell optimisers.

* ``add-gp-ucb``: Algorithm 1 / Algorithm 2 (practical). The model is an additive GP
  f = sum_j f^(j)(x^(j)) over disjoint groups of coordinates with one squared-exponential lengthscale
  h and one scale sigma shared by all groups, kappa = sigma sum_j exp(-||x^(j) - x'^(j)||^2 / 2h^2)
  (Sec. 5), on :class:`bolib.models.GP` (``groups``, ``tie="all"``). Each group's posterior
  mu_j, sigma_j comes from the one Cholesky factor of the full kernel matrix (eq. 5), and the
  acquisition phi~_t(x) = sum_j mu_j(x^(j)) + beta_t^{1/2} sigma_j(x^(j)) (eq. 6) is separable: its
  maximum over the product of the groups' boxes is the concatenation of the groups' maxima, so it is
  maximised group by group, each with DIRECT (SciPy's ``direct``, ``locally_biased=False``, the
  original algorithm of Jones et al. 1993) on a budget of ``group_evals`` evaluations. Coordinates in
  no group are set to the centre of the box.
* Decompositions (``decomposition``): ``known`` (the problem's true groups, ``problem.meta["groups"]``:
  Add-* of the paper), ``partialLearn`` (Alg. 2 as the authors' code runs it: fit h and sigma on the
  rotated inputs X A_0, A_0 random orthogonal, with ceil(D/d) consecutive groups of d coordinates (the
  last one smaller), score ``n_perms`` random groupings by the marginal likelihood at those
  hyperparameters, keep the best, refit h and sigma on it), ``random`` (a
  fresh random grouping at each refit) and ``full`` (one group of all D coordinates, i.e. GP-UCB with
  the same kernel family, fit and DIRECT: the paper's GP-UCB baseline).
* beta_t (t = number of observations + 1, the initial design included): ``practical`` (Sec. 5, and
  the authors' code) beta_t = 0.2 d_j log(2t) with d_j the dimension of *group j*; ``theory``
  (Thm 5) beta_t = 2 log(M pi^2 t^2 / (2 delta)) + 2 d log(D t^3) with d the largest group size.
* ``known_kernel`` (Alg. 1, the setting of Thm 5): the prior is given, not fitted: mean 0, each group an
  SE kernel of bandwidth ``lengthscale`` and variance ``outputscale``, Gaussian noise of variance
  ``noise``, all in the units of the observations (no standardisation, no refit, no stagnation rule).
  It needs ``decomposition="known"``.
* The fit's departures from the authors' choices, as settings for measuring them: ``prior_mean`` "data"
  (observations standardised, so the prior mean is mean(y): the library default of the authors' code) or
  "zero" (observations divided by std(y_init), not centred: the prior mean 0 of the authors' synthetic demo);
  ``max_lengthscale`` (inf; the authors' fit box has h <= 5 on [-1, 1]^D, 2.5 on the unit cube), an upper bound
  held like the stagnation cap;
  ``start_lengthscale`` (None; Sec. 5 states 1e-5): the bandwidth held there, with only the scale fitted, for
  the first ``refit_every`` proposals, then the first full fit. At such a bandwidth eq. 6 is flat but for
  needles of that width at the observed points, and its maximum is the best observation (which no DIRECT run
  finds: DIRECT returns its own first samples, the box centre first). The text's aim, "an explorative
  strategy", is read as uniform queries: every group's point is drawn uniformly in the start phase.
  The authors' optimiser of the fit (DIRECT, with their boxes of h and sigma) is the method
  ``add-gp-ucb-direct-fit`` (:mod:`bolib.algorithms.add_gp_ucb_direct_fit`).
* Refits (Alg. 2): hyperparameters and the decomposition every ``refit_every`` (25) observations, each fit
  started from the last one's values (h moved into [1e-2, 1e2], so every fit of h has the same box,
  ``LENGTHSCALE_BOUNDS`` = (1e-3, 1e3)); between refits the GP is conditioned on the new data with fixed hyperparameters. Stagnation rule
  (authors' code): if the full posterior standard deviation at the chosen point stays below
  ``stagnation[0]`` for ``stagnation[1]`` proposals in a row, the lengthscale is capped at 0.9 h and
  the model refitted; a fit whose lengthscale exceeds the cap is redone with h held at the cap.
  A proposal closer than 1e-10 h to an observed point is moved by 0.1 h N(0, I) (authors' code).
* ``add-gp-ucb-buggy``: Algorithm 5 (App. A.2.2). At step t only group k = t mod M is re-optimised
  (the printed "j mod M" is a typo); the other groups keep the previous query's coordinates.
* ``seq-add-gp-ucb``: Algorithm 4 (App. A.2.1), the sequential strawman. It starts from a uniform
  point theta of [0, 1]^D (the printed rand([0,1]^d) is a typo for D) and optimises one group at a time:
  for ``phase_length`` queries it runs d_j-dimensional GP-UCB on group j's coordinates with every other
  coordinate held at theta, on a GP that sees only this phase's queries (with a constant mean, since
  y = f_j + a constant), then sets theta^(j) to the phase's last query (the paper's choice; ``keep="best"``
  takes the phase's best). After group M it starts again at group 1. The shared initial design is not
  part of any phase.
* ``direct``: DIRECT run on f itself (the paper's DiRect baseline), as an ask/tell optimiser: each
  ``ask`` replays SciPy's deterministic DIRECT on the values told so far until it requests a point not
  yet evaluated, and proposes that point.

The GP works on standardised observations (prior mean mean(y), the library default of the authors'
code; their synthetic demo used 0) with a fixed noise variance, by default ``noise="paper"``:
0.01 std(y_init) in observation units at the initial design (the authors' code's default; the paper states
no value), held fixed in standardised units afterwards.
"""
from __future__ import annotations

import math

import numpy as np
import torch
from scipy.linalg import solve_triangular
from scipy.optimize import Bounds, direct

from bolib.algorithms.base import Optimizer, refit_due
from bolib.algorithms.baselines import GPOptimizer
from bolib.errors import BadValueError, check_choice, check_integer
from bolib.models import GP
from bolib.models.kernels import LENGTHSCALE_BOUNDS

DECOMPOSITIONS = ("partialLearn", "random", "known", "full")
BETAS = ("practical", "theory")
PRIOR_MEANS = ("data", "zero")
#: DIRECT's epsilon in the authors' code (Finkel's Direct.m). Their runs set no iteration limit; ours is
#: the evaluation limit, which never binds first (every iteration evaluates at least two new points)
#: and keeps SciPy from allocating for a million iterations (about 40 ms per call)
DIRECT_EPS = 1e-4
#: evaluation limit of a DIRECT replay beyond the values already told (SciPy allocates memory for the
#: limit; the sequence of points does not depend on it until the limit is reached)
REPLAY_SLACK = 2000


def random_groups(dim: int, group_dim: int, rng: np.random.Generator) -> list[list[int]]:
    """A random grouping of range(dim) into ceil(dim / group_dim) groups of ``group_dim`` coordinates
    (the last one holds the rest): consecutive blocks of a random permutation (Alg. 2)."""
    perm = rng.permutation(dim)
    return [sorted(int(i) for i in perm[s:s + group_dim]) for s in range(0, dim, group_dim)]


def grouping_log_evidences(X, y, groupings, lengthscale: float, outputscale: float, noise: float,
                           standardize: bool = True) -> np.ndarray:
    """log p(z | h, sigma, groups) of each grouping in ``groupings``, at fixed hyperparameters: the
    quantity :attr:`bolib.models.GP.log_evidence` gives for ``GP("rbf", groups=..., tie="all")`` with
    lengthscale h, per-group scale sigma and noise variance ``noise`` (z: y standardised as GP does),
    -1/2 z^T (K + noise I)^{-1} z - sum_i log L_ii - n/2 log 2 pi, K = sigma sum_j exp(-||x^(j) - x'^(j)||^2 / 2h^2),
    computed directly on the scaled inputs X / h for all groupings (partialLearn's scoring of ``n_perms``
    groupings), without building a model per grouping. ``GP.log_evidence`` of a GP built per grouping is
    the same quantity at 2 to 5 times the cost (``bench add_group_scores``) and about 1e-6 nats off (the GP
    stores the noise variance through its constraint; given that stored variance the two agree to rounding,
    tested), enough to reorder groupings of nearly equal evidence."""
    U = torch.as_tensor(np.asarray(X), dtype=torch.float64) / lengthscale
    y = torch.as_tensor(np.asarray(y), dtype=torch.float64).reshape(-1)
    n = len(y)
    std = y.std() if n > 1 else torch.tensor(1.0, dtype=torch.float64)
    z = (((y - y.mean()) / (std if std > 0 else 1.0)) if standardize else y).unsqueeze(-1)
    squares = U ** 2
    eye = noise * torch.eye(n, dtype=torch.float64)
    scores = []
    for groups in groupings:
        K = eye.clone()
        for g in groups:
            Ug = U[:, list(g)]
            norms = squares[:, list(g)].sum(1)
            distance = torch.addmm(norms[:, None] + norms[None, :], Ug, Ug.T, alpha=-2.0)
            K.add_(distance.clamp_(min=0.0).mul_(-0.5).exp_(), alpha=outputscale)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(z, L)
        scores.append(float(-0.5 * (z * alpha).sum() - torch.log(L.diagonal()).sum() - 0.5 * n * math.log(2 * math.pi)))
    return np.array(scores)


def beta_practical(t: int, group_dim: int) -> float:
    """Sec. 5: beta_t = 0.2 d_j log(2t) for a group of dimension d_j."""
    return 0.2 * group_dim * math.log(2 * t)


def beta_theory(t: int, n_groups: int, group_dim: int, dim: int, delta: float) -> float:
    """Thm 5: beta_t = 2 log(M pi^2 t^2 / (2 delta)) + 2 d log(D t^3)."""
    return 2 * math.log(n_groups * math.pi ** 2 * t * t / (2 * delta)) + 2 * group_dim * math.log(dim * t ** 3)


def check_lengthscale(name: str, value, infinite: bool = False) -> float:
    """``value`` as a float if it is a number > 0, finite unless ``infinite``, or a ``BadValueError``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= math.inf or (
            value == math.inf and not infinite):
        raise BadValueError(f"{name} must be a {'' if infinite else 'finite '}number > 0; got {value!r}")
    return float(value)


def check_known_kernel(known_kernel, decomposition: str) -> dict:
    """``known_kernel`` of :class:`AddGPUCB` as a dict of three positive finite floats, or a
    ``BadValueError`` naming what is valid."""
    names = ("lengthscale", "outputscale", "noise")
    if decomposition != "known":
        raise BadValueError(f"known_kernel needs decomposition='known' (Alg. 1 knows the groups); got {decomposition!r}")
    if not isinstance(known_kernel, dict) or set(known_kernel) != set(names):
        raise BadValueError(f"known_kernel must be a dict with exactly the keys {', '.join(names)}; got {known_kernel!r}")
    out = {}
    for name in names:
        value = known_kernel[name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
            raise BadValueError(f"known_kernel[{name!r}] must be a finite number > 0; got {value!r}")
        out[name] = float(value)
    return out


def inverse_factor(gp: GP) -> np.ndarray:
    """L^{-1} for the GP's factor L of K + tau I (numpy), shared by the groups' acquisitions of one step."""
    return solve_triangular(gp.L.numpy(), np.eye(len(gp.X)), lower=True)


def group_ucb(gp: GP, j: int, beta: float, Linv: np.ndarray | None = None):
    """phi~^(j)(z) = mu_j(z) + beta^{1/2} sigma_j(z) (eq. 6) of a fitted tied-RBF additive GP, as a
    function of one point z of group j's coordinates (what DIRECT calls).

    Eq. 5 is :meth:`GP.group_posterior`; DIRECT asks for one point at a time, so this evaluates the same
    formula per point in numpy from the GP's factor L of K + tau I and weights alpha = (K + tau I)^{-1} z_y:
    mu_j(z) = y_std k_j(z, X) alpha and sigma_j^2(z) = y_std^2 (sigma - ||L^{-1} k_j(X, z)||^2), with
    k_j(z, x) = sigma exp(-||z - x^(j)||^2 / 2h^2), at about a tenth of the cost of a call to
    :meth:`GP.group_posterior`. The two agree to rounding (tested), not bit for bit: every run's proposals
    rest on this arithmetic. ``Linv``: :func:`inverse_factor` of ``gp`` (computed here if not given; a step
    over every group computes it once).
    """
    part = gp.model.covar_module.kernels[j] if gp.n_groups > 1 else gp.model.covar_module
    h = float(part.base_kernel.lengthscale.detach())
    scale = float(part.outputscale.detach())
    columns = gp.groups[j] if gp.groups is not None else list(range(gp.X.shape[1]))
    Xg = gp.X.numpy()[:, columns]
    Linv = inverse_factor(gp) if Linv is None else Linv
    alpha = gp.alpha.numpy().ravel()
    y_std, root_beta = float(gp.y_std), math.sqrt(beta)

    def phi(z):
        k = scale * np.exp(-0.5 * ((Xg - z) ** 2).sum(1) / h ** 2)
        v = Linv @ k
        return y_std * (k @ alpha + root_beta * math.sqrt(max(scale - v @ v, 0.0)))

    return phi


def direct_maximize(fn, dim: int, maxfun: int) -> np.ndarray:
    """argmax of ``fn`` over [0, 1]^dim by DIRECT (``locally_biased=False``) with ``maxfun`` evaluations
    (SciPy may overshoot slightly, as DIRECT completes its last iteration's divisions)."""
    result = direct(lambda z: -fn(z), Bounds(np.zeros(dim), np.ones(dim)), eps=DIRECT_EPS, maxfun=int(maxfun),
                    maxiter=int(maxfun), locally_biased=False)
    return np.asarray(result.x, dtype=float)


class AddGPUCB(GPOptimizer):
    """Add-GP-UCB (Alg. 1 with ``beta="theory"`` and ``known_kernel``, Alg. 2 with the defaults); see the module
    docstring.

    ``group_dim``: d of "Add-d/M" for ``partialLearn`` / ``random`` (default min(3, D)).
    ``group_evals``: DIRECT evaluations per group (the paper: ceil(0.9 B / M) for Add-d/M, ceil(B / M)
    for Add-*, B for GP-UCB, with B = min(5000, 100 D)). ``n_perms``: groupings scored by
    ``partialLearn`` (default 5 D). ``noise``: ``"paper"`` or a variance in standardised units.
    ``known_kernel``: None (fitted, Alg. 2) or ``{"lengthscale": h, "outputscale": s, "noise": v}`` (Alg. 1).
    ``prior_mean``, ``max_lengthscale``, ``start_lengthscale``: see the module docstring.
    """

    name = "add-gp-ucb"
    cheap_settings = {"group_evals": 30, "fit_starts": 1, "n_perms": 3}

    def __init__(self, dim, seed=0, *, group_dim=None, decomposition="partialLearn", beta="practical",
                 delta=0.1, group_evals=None, n_perms=None, refit_every=25, stagnation=(0.002, 5),
                 noise="paper", fit_starts=2, n_init=None, known_kernel=None, prior_mean="data",
                 max_lengthscale=math.inf, start_lengthscale=None):
        self.decomposition = check_choice("decomposition", decomposition, DECOMPOSITIONS)
        self.known_kernel = None if known_kernel is None else check_known_kernel(known_kernel, decomposition)
        self.prior_mean = check_choice("prior_mean", prior_mean, PRIOR_MEANS)
        self.max_lengthscale = check_lengthscale("max_lengthscale", max_lengthscale, infinite=True)
        self.start_lengthscale = (None if start_lengthscale is None
                                  else check_lengthscale("start_lengthscale", start_lengthscale))
        if self.known_kernel is not None and (self.start_lengthscale is not None or prior_mean != "data"
                                              or max_lengthscale != math.inf):
            raise BadValueError("known_kernel fixes the prior: start_lengthscale, prior_mean and max_lengthscale "
                                "apply to a fitted kernel only")
        self.beta_rule = check_choice("beta", beta, BETAS)
        self.group_dim = min(3, int(dim)) if group_dim is None else int(group_dim)
        if not 1 <= self.group_dim <= int(dim):
            raise ValueError(f"group_dim must be in 1..{dim}; got {group_dim}")
        self.noise_setting = noise
        if not (noise == "paper" or isinstance(noise, float | int)):
            raise ValueError(f"noise must be 'paper' or a variance (standardised units); got {noise!r}")
        super().__init__(dim, seed, kernel="rbf", noise=None, fit_starts=fit_starts, refit_every=refit_every,
                         n_init=n_init)
        self.delta = float(delta)
        self.group_evals = (min(5000, 100 * self.dim) if group_evals is None
                            else check_integer("group_evals", group_evals, 1))
        self.n_perms = 5 * self.dim if n_perms is None else check_integer("n_perms", n_perms, 1)
        self.stagnation = (float(stagnation[0]), int(stagnation[1]))
        self.groups: list[list[int]] | None = [list(range(self.dim))] if decomposition == "full" else None
        self.h_cap = self.max_lengthscale
        self._low_sigma = 0
        self.y_scale = 1.0  # the observations are divided by it when prior_mean="zero": std(y_init)

    # ------------------------------------------------------------------ model
    def build_models(self, kernel, ard, lengthscale, noise) -> None:
        """The GP is built at the first fit, once the groups are known."""
        self.gp = None

    def prepare(self, problem) -> None:
        if self.decomposition == "known":
            if "groups" not in problem.meta:
                raise ValueError(f"decomposition='known' needs a problem with meta['groups']; {problem.name!r} "
                                 "has none (use partialLearn, random or full)")
            self.groups = [list(g) for g in problem.meta["groups"]]
            self.info["groups"] = self.groups

    def _gp(self, groups, lengthscale=None, outputscale=None, fit=True, fit_lengthscale=True) -> GP:
        scale = None if outputscale is None else outputscale * len(groups)  # make_kernel shares it out
        return GP("rbf", groups=groups, tie="all", lengthscale=lengthscale, outputscale=scale, noise=self.noise_var,
                  fit=fit, fit_lengthscale=fit_lengthscale, standardize=self.prior_mean == "data",
                  **self.gp_settings)

    def _targets(self) -> np.ndarray:
        """The observations the GP sees: as told (the GP standardises them) or, with prior mean 0, divided by
        std(y_init)."""
        return self.y if self.prior_mean == "data" else self.y / self.y_scale

    def _known_gp(self) -> GP:
        """Alg. 1's prior: the known kernel, mean 0, the observations as they are."""
        k = self.known_kernel
        self.noise_var = k["noise"]
        return GP("rbf", groups=self.groups, tie="all", lengthscale=k["lengthscale"],
                  outputscale=k["outputscale"] * len(self.groups), noise=k["noise"], fit=False, standardize=False,
                  **self.gp_settings)

    def _hyper(self, gp: GP | None = None) -> tuple[float, float]:
        """The shared lengthscale h and per-group scale sigma of ``gp`` (default: the current model)."""
        h = (gp or self.gp).hyperparameters
        return float(h["lengthscale"][0][0]), float(h["outputscale"][0])

    def _warm_start(self, lengthscale: float | None) -> float | None:
        """The start of a refit's h from the last fit: held under the stagnation cap, then moved into
        [10 lo, hi / 10] of the fit's box (lo, hi) = ``LENGTHSCALE_BOUNDS``, where
        :func:`~bolib.models.kernels.make_kernel` keeps the box as it is (a start outside it widens the box
        tenfold, so a fit at the edge, or a cap below 10 lo, would move the edge at every refit). A fit that ends
        above the cap is redone with h held there (:meth:`_fit_on`)."""
        if lengthscale is None:
            return None
        low, high = LENGTHSCALE_BOUNDS
        return float(np.clip(min(lengthscale, self.h_cap), 10 * low, high / 10))

    def _fit_on(self, groups, start) -> GP:
        """Fit h and sigma by marginal likelihood on ``groups``, within the stagnation cap, from the warm start."""
        lengthscale, scale = start
        gp = self._gp(groups, self._warm_start(lengthscale), scale).fit(self.X, self._targets())
        h, scale = self._hyper(gp)
        if h > self.h_cap:
            gp = self._gp(groups, self.h_cap, scale, fit_lengthscale=False).fit(self.X, self._targets())
        return gp

    def _learn_groups(self, start) -> list[list[int]]:
        """partialLearn (Alg. 2, as the authors' code does it): h and sigma fitted by marginal likelihood
        on the rotated inputs X A_0 (A_0 a random orthogonal matrix) with consecutive groups, then
        ``n_perms`` random groupings scored by the log marginal likelihood at those values; the best
        is kept (:func:`grouping_log_evidences`; a grouping drawn twice is scored once, and of equal scores
        the first drawn wins)."""
        A0 = np.linalg.qr(self.rng.standard_normal((self.dim, self.dim)))[0]
        blocks = [list(range(s, min(s + self.group_dim, self.dim))) for s in range(0, self.dim, self.group_dim)]
        lengthscale, scale = start
        gp = self._gp(blocks, self._warm_start(lengthscale), scale)
        gp.fit(self.X @ A0, self._targets())
        h, scale = self._hyper(gp)
        candidates = [random_groups(self.dim, self.group_dim, self.rng) for _ in range(max(1, self.n_perms))]
        distinct = list(dict.fromkeys(tuple(sorted(map(tuple, g))) for g in candidates))
        scores = dict(zip(distinct, grouping_log_evidences(self.X, self._targets(), distinct, min(h, self.h_cap),
                                                           scale, self.noise_var, self.prior_mean == "data")))
        return candidates[int(np.argmax([scores[tuple(sorted(map(tuple, g)))] for g in candidates]))]

    def fit_model(self) -> GP:
        n = len(self.y)
        if self.known_kernel is not None:
            self.gp = self.gp or self._known_gp()
            return self.gp.fit(self.X, self.y, refit=False)
        if self.gp is None:
            std = float(np.std(self.y, ddof=1)) if n > 1 else 0.0
            paper = 0.01 / std if std > 0 else 1e-2  # 0.01 std(y_init), as a variance in units of var(y_init)
            self.noise_var = paper if self.noise_setting == "paper" else float(self.noise_setting)
            self.info["noise_standardised"] = self.noise_var
            self.y_scale = std if std > 0 else 1.0
        if self.start_lengthscale is not None and len(self.history) < self.refit_schedule["every"]:
            return self._start_phase()
        fitted = self.gp is not None and self._fitted_at != 0
        refit = refit_due(n, self._fitted_at if fitted else 0, **self.refit_schedule)
        if refit:
            start = self._hyper() if fitted else (None, None)
            if self.decomposition in ("partialLearn", "random"):
                self.groups = (self._learn_groups(start) if self.decomposition == "partialLearn"
                               else random_groups(self.dim, self.group_dim, self.rng))
            self.gp = self._fit_on(self.groups, start)
            self._fitted_at = n
            self.info.setdefault("refits", []).append({"n": n, "groups": self.groups,
                                                       "lengthscale": self._hyper()[0],
                                                       "outputscale": self._hyper()[1]})
        else:
            self.gp.fit(self.X, self._targets(), refit=False)
        return self.gp

    def propose(self, n):
        """As :class:`GPOptimizer`; with ``prior_mean="zero"`` one point at a time (the batch fantasies condition on
        the observations as told, not divided by std(y_init), so they are refused rather than mixed)."""
        if self.prior_mean == "zero" and (n > 1 or len(self.pending)):
            raise BadValueError(f"prior_mean='zero' proposes one point at a time: tell each point before asking the "
                                f"next (asked for {n} with {len(self.pending)} pending)")
        return super().propose(n)

    def _start_phase(self) -> GP:
        """Sec. 5's start phase: the bandwidth held at ``start_lengthscale``, only the scale fitted (a learned
        decomposition starts from a random grouping, which does not matter at that bandwidth)."""
        if self.groups is None:
            self.groups = random_groups(self.dim, self.group_dim, self.rng)
        self.gp = self._gp(self.groups, self.start_lengthscale, None, fit_lengthscale=False).fit(self.X, self._targets())
        return self.gp

    # ------------------------------------------------------------------ acquisition
    def betas(self, t: int) -> list[float]:
        """beta_t of each group."""
        if self.beta_rule == "practical":
            return [beta_practical(t, len(g)) for g in self.groups]
        return [beta_theory(t, len(self.groups), max(map(len, self.groups)), self.dim, self.delta)] * len(self.groups)

    def groups_to_optimise(self) -> list[int]:
        return list(range(len(self.groups)))

    def maximize(self, gp: GP) -> np.ndarray:
        t = len(self.y) + 1
        betas = self.betas(t)
        x = np.full(self.dim, 0.5)
        if self.start_lengthscale is not None and self._fitted_at == 0:  # the start phase: uniform queries
            for group in self.groups:
                x[group] = self.rng.random(len(group))
            self.history.append({"t": t, "beta": betas, "lengthscale": self.start_lengthscale})
            return x
        Linv = inverse_factor(gp)
        for j in range(len(self.groups)):
            if j not in self.groups_to_optimise():
                x[self.groups[j]] = self.X[-1, self.groups[j]]
                continue
            x[self.groups[j]] = direct_maximize(group_ucb(gp, j, betas[j], Linv), len(self.groups[j]), self.group_evals)
        h = self._hyper()[0]
        while np.min(np.linalg.norm(gp.X.numpy() - x, axis=1)) / h < 1e-10:  # authors' too-close rule
            x = np.clip(x + 0.1 * h * self.rng.standard_normal(self.dim), 0.0, 1.0)
        self._track_stagnation(gp, x)
        self.history.append({"t": t, "beta": betas, "lengthscale": h})
        return x

    def _track_stagnation(self, gp: GP, x: np.ndarray) -> None:
        """Authors' stagnation rule: cap h at 0.9 h and force a refit after ``stagnation[1]`` proposals
        in a row with full posterior std below ``stagnation[0]``."""
        if self.known_kernel is not None or self._fitted_at == 0:
            return
        sigma = float(gp.predict(x[None])[1][0])
        self._low_sigma = self._low_sigma + 1 if sigma < self.stagnation[0] else 0
        if self._low_sigma >= self.stagnation[1]:
            self.h_cap = max(1e-5, 0.9 * self._hyper()[0])
            self._fitted_at = -self.refit_schedule["every"]  # refit at the next proposal
            self._low_sigma = 0
            self.info.setdefault("stagnation", []).append({"n": len(self.y), "h_cap": self.h_cap})


class AddGPUCBBuggy(AddGPUCB):
    """Add-GP-UCB-Buggy (Alg. 5, App. A.2.2): at step t only group k = t mod M is re-optimised; the
    others copy the previous query (the paper's "j mod M" is a typo for t mod M)."""

    name = "add-gp-ucb-buggy"

    def groups_to_optimise(self) -> list[int]:
        if len(self.y) == 0:
            return super().groups_to_optimise()
        return [(len(self.y) + 1) % len(self.groups)]


class SeqAddGPUCB(Optimizer):
    """Seq-Add-GP-UCB (Alg. 4, App. A.2.1); see the module docstring.

    ``groups`` come from ``problem.meta["groups"]`` when the problem has them (the setting of Alg. 4,
    a known decomposition), otherwise consecutive blocks of ``group_dim`` coordinates (default
    min(3, D)). ``phase_length``: queries per group (T / M in the paper). beta_s = 0.2 d_j log 2s with s
    the step within the phase (the paper leaves beta open; this is the practical rule of Sec. 5).
    ``group_evals``: DIRECT evaluations of each step's acquisition. The phase GP is an SE GP whose
    lengthscale, scale and noise are fitted by marginal likelihood when the phase holds 1, 2, 4, 8, ...
    points and held fixed in between (the paper does not say how often; a fit at every step costs
    seconds each).
    """

    name = "seq-add-gp-ucb"
    cheap_settings = {"group_evals": 30, "fit_starts": 1, "phase_length": 3}

    def __init__(self, dim, seed=0, *, phase_length=10, group_dim=None, group_evals=None, keep="last",
                 fit_starts=2, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.phase_length = int(phase_length)
        if self.phase_length < 1:
            raise ValueError(f"phase_length must be >= 1; got {phase_length}")
        self.keep = check_choice("keep", keep, ("last", "best"))
        group_dim = min(3, self.dim) if group_dim is None else check_integer("group_dim", group_dim, 1)
        if group_dim > self.dim:
            raise BadValueError(f"group_dim must be in 1..{self.dim}; got {group_dim}")
        self.groups = [list(range(s, min(s + group_dim, self.dim))) for s in range(0, self.dim, group_dim)]
        self.group_evals = (min(5000, 100 * group_dim) if group_evals is None
                            else check_integer("group_evals", group_evals, 1))
        self.fit_starts = int(fit_starts)
        self.theta = self.rng.random(self.dim)  # Alg. 4: theta ~ U([0, 1]^D)
        self.steps = 0
        self.phase_Z, self.phase_y = [], []
        self.phase_gp: GP | None = None
        self._proposed: list[np.ndarray] = []

    def prepare(self, problem) -> None:
        if "groups" in problem.meta:
            self.groups = [list(g) for g in problem.meta["groups"]]
            self.info["groups"] = self.groups

    def observe(self, X, y):
        """Record this phase's own queries (the initial design and foreign points are not used)."""
        for x, v in zip(X, y):
            if any(np.array_equal(x, p) for p in self._proposed):
                j = self.groups[(self.steps - 1) // self.phase_length % len(self.groups)]
                self.phase_Z.append(np.asarray(x, dtype=float)[j])
                self.phase_y.append(float(v))
                self._proposed = [p for p in self._proposed if not np.array_equal(x, p)]

    def _end_phase(self, group) -> None:
        """theta^(j) <- the phase's last query (or its best); a new phase starts with no data."""
        if self.phase_Z:
            pick = -1 if self.keep == "last" else int(np.argmax(self.phase_y))
            self.theta[group] = self.phase_Z[pick]
        self.phase_Z, self.phase_y = [], []

    def _next_point(self) -> np.ndarray:
        phase, step = divmod(self.steps, self.phase_length)
        if step == 0 and self.steps > 0:
            self._end_phase(self.groups[(phase - 1) % len(self.groups)])
        group = self.groups[phase % len(self.groups)]
        if not self.phase_y:  # no data in this phase: the prior UCB is flat
            z = self.rng.random(len(group))
            beta = None
        else:
            n = len(self.phase_y)
            if n == 1:
                self.phase_gp = GP("rbf", starts=self.fit_starts, seed=self.seed)
            refit = n & (n - 1) == 0  # hyperparameters at 1, 2, 4, 8, ... phase points; conditioned in between
            gp = self.phase_gp.fit(np.array(self.phase_Z), np.array(self.phase_y), refit=refit)
            beta = beta_practical(len(self.phase_y) + 1, len(group))
            z = direct_maximize(group_ucb(gp, 0, beta), len(group), self.group_evals)
        x = self.theta.copy()
        x[group] = z
        self.history.append({"step": self.steps, "group": group, "beta": beta})
        self.steps += 1
        self._proposed.append(x)
        return x

    def propose(self, n):
        """One Alg. 4 step; the further points of a batch are uniform (the method is sequential)."""
        return np.vstack([self._next_point()[None], self.rng.random((n - 1, self.dim))])


class _Requested(Exception):
    """DIRECT asked for a point with no value yet."""


class DirectSearch(Optimizer):
    """DIRECT on f itself (the paper's DiRect baseline), ask/tell: every ``ask`` replays SciPy's DIRECT
    (``locally_biased=False``) from the start on the values told so far, up to the first point it
    has not seen; that point is proposed. DIRECT is deterministic, so the replay follows the run it
    would make if it called f directly. Points told from elsewhere (a shared initial design) are not
    part of its sequence. DIRECT is sequential: the second and later points of a batch, and any point
    after DIRECT stops, are uniform random."""

    name = "direct"

    def __init__(self, dim, seed=0, *, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.values: dict[bytes, float] = {}

    def observe(self, X, y):
        for x, v in zip(X, y):
            self.values[np.asarray(x, dtype=float).tobytes()] = float(v)

    def _next_point(self) -> np.ndarray | None:
        pending = {np.asarray(x, dtype=float).tobytes() for x in self.pending}

        def value(x):
            key = np.asarray(x, dtype=float).tobytes()
            if key in self.values:
                return -self.values[key]
            raise _Requested(np.array(x, dtype=float), key in pending)

        try:
            direct(value, Bounds(np.zeros(self.dim), np.ones(self.dim)), eps=DIRECT_EPS,
                   maxfun=len(self.values) + REPLAY_SLACK, maxiter=len(self.values) + REPLAY_SLACK,
                   locally_biased=False)
        except _Requested as request:
            x, is_pending = request.args
            return None if is_pending else x
        return None  # DIRECT stopped on its own tolerances

    def propose(self, n):
        first = self._next_point()
        points = [] if first is None else [first[None]]
        return np.vstack(points + [self.rng.random((n - len(points), self.dim))])
