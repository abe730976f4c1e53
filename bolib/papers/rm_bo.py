"""Paper 004, RM-GP-UCB and RM-GP-TS (Dai, Chen, Yu, Low & Jaillet, "On Provably Robust Meta-Bayesian
Optimization", UAI 2022, arXiv:2206.06872): the synthetic harness and theory checks of the notebook
``004_rmbo``.

The ask/tell optimisers are in :mod:`bolib.algorithms.rm_bo`; the gap estimate (eq. 5), the Hedge
weights (eq. 7), the nu rule (Sec. 5.2), eq. 2's meta term and eq. 3's draw used here are the same functions.

Harness (the paper's synthetic set-up, App. D.1, with the hyperparameters at the truth). A finite
grid of [0, 1] with the squared-exponential kernel (lengthscale 0.05, variance 1) and noise variance
0.01 for the target and the meta-tasks. The target f is a GP draw on the grid or an RKHS function with
known norm B (:func:`synthetic_task`). Meta-task i has N_i inputs drawn uniformly from the grid and
values f_i(x_ij) = f(x_ij) + U(-d_i, d_i) (independently per point, so its gap at the meta-inputs is at
most d_i), observed with noise. :func:`grid_run` runs RM-GP-UCB / RM-GP-TS (and GP-UCB / GP-TS as
nu = 0) with exact posteriors on the grid (rank-one updates, :class:`bolib.models.grid.GridPosterior`)
and exact joint posterior samples for TS (pathwise conditioning of a prior draw).

Checks (the statistics the notebook's claims are decided on):

* :func:`lemma3_chain` (Lemma 3 with Lemmas 5-6): |sum_i w_i (mu_bar_i - mu_tilde_i)| and the
  bounds of the proof chain, plus whether the Lemma 6 noise event holds (:func:`lemma3_chain_holds`: each
  step over many draws); :func:`lemma6_radius`, Lemma 6's noise radius; :func:`lemma6_event`, that
  event for all tasks at once, and :func:`lemma6_probability`, its exact probability (one task, as
  Lemma 6's union bound covers, or all M tasks at once, as Lemma 3 uses it).
* :func:`lemma4_job` (Lemma 4): per noise draw, max_x,i |f - mu~_i| / sigma~_i against tau of :func:`meta_tau` (the
  band of the hypothetical meta GPs); :func:`lemma7_margins`, :func:`lemma7_holds` (Lemma 7): f(x*) <= zeta_bar_t(x_t)
  + nu_t alpha_t along a theory-mode run.
* :func:`theorem1_rhs`: the right-hand side of Theorem 1, with C_1 = 8 / log(1 + sigma^-2);
  :func:`theorem1_ratios`, RHS(T) / R_T along a run, and :func:`worst_regret_ratios`, RHS(T) against
  the largest regret any policy can have (the bound is far above it, so it cannot fail).
* :func:`lemma8_holds`: Lemma 8's per-step bound r_t <= 2 nu_t (alpha + tau) + 2 (1 - nu_t) beta_t
  sigma_{t-1}(x_t) at the queries where the meta term nu_t alpha is small (there it can fail).
* :func:`gap_separation`: how far the cumulative gap estimates of dissimilar tasks exceed those of
  similar ones (the losses eq. 7 turns into weights).
* :func:`theory_beta`, :func:`theory_tau`: beta_t and tau of Theorem 1.
* :func:`variance_step_error`: how far the step sigma^2 <= (C_1 / 8) log(1 + sigma^-2 sigma^2) of the
  proof of Theorem 1 fails with a given constant (the misprinted constant of the main text fails it).
* :func:`lemma1_violations`: runs in which some true gap d_i exceeds its estimate d_bar_{i,t}.
* :func:`hedge_regret_sides`: both sides of the Hedge regret inequality for eq. 7's weights (C7).
* :func:`ftrl_by_slsqp`: eq. 6 solved numerically on the simplex (to compare with eq. 7).
* :func:`eq20_holds`: App. A.3's acceleration condition sum_i w_i sigma_bar_i(x_t) < (beta_t / tau)
  sigma_{t-1}(x_t) at each query.
* :func:`meta_draw_deficit`: the number of meta-branch draws of RM-GP-TS against the number
  Sec. 5.2's nu rule (from nu_1 = 1) expects (the public code starts from nu = 0).

Real-data stand-ins (Sec. 6): :func:`meta_observations` turns one run per previous task into the
``tasks`` option of the target's runs; :func:`similar_weight_share` (Fig. 2f: the weight the previous
tasks known to be similar receive) is a statistic of their claims, beside the per-run metrics of
:mod:`bolib.comparisons` (the area under a best-value curve, runtime per proposal). The previous tasks
themselves are set up by their benchmarks (:func:`bolib.benchmarks.cartpole.cartpole_centres`,
:func:`bolib.benchmarks.svm_grid.random_meta_tasks`).
"""
from __future__ import annotations

import functools
import math

import numpy as np
from scipy.optimize import minimize
from scipy.stats import norm as normal

from bolib import acquisition as acq
from bolib.algorithms.rm_bo import (MetaSchedule, gap_estimate, hedge_weights, meta_ucb, nu_step, practical_beta, ts_draw,
                                    ucb_mix)
from bolib.algorithms.gp_ucb_plus import beta_finite
from bolib.errors import check_choice
from bolib.models.grid import GridPosterior, GridRun, sample_on_grid
from bolib.runtime import rng as make_rng
from bolib.theory import greedy_information_gain

NOISE_VAR = 0.01
LENGTHSCALE = 0.05


# ------------------------------------------------------------------------------------ the task
def se_kernel(grid: np.ndarray, lengthscale: float = LENGTHSCALE) -> np.ndarray:
    """k(x, x') = exp(-(x - x')^2 / (2 l^2)) on a 1-D grid."""
    diff = grid[:, None] - grid[None, :]
    return np.exp(-0.5 * (diff / lengthscale) ** 2)


def synthetic_task(seed: int, n_grid: int, gaps, sizes, *, target: str = "gp", B: float = 2.0,
                   n_centers: int = 30, noise_var: float = NOISE_VAR, lengthscale: float = LENGTHSCALE,
                   scale: float = 1.0) -> dict:
    """The target and the meta-tasks of one seed (App. D.1's construction on a grid of ``n_grid`` points).

    ``target="gp"``: f ~ GP(0, k) on the grid; ``"rkhs"``: f = sum_m a_m k(., z_m) over ``n_centers``
    uniform centres, rescaled to RKHS norm ``B`` exactly. ``scale`` multiplies f (and every meta
    function) afterwards, e.g. to put f outside the norm ball a bound assumes. Meta-task i: ``sizes[i]``
    uniform grid indices, f_i = f + U(-gaps[i], gaps[i]) there, y = f_i + N(0, noise_var).
    Returns the grid, K, f, the tasks ``[(idx, y, f_i)]``, the true gaps max_j |f - f_i| and the norm.
    """
    check_choice("target", target, ("gp", "rkhs"))
    grid = np.linspace(0.0, 1.0, n_grid)
    K = se_kernel(grid, lengthscale)
    stream = make_rng(seed, "rmbo-target", target)
    norm = float("nan")
    if target == "gp":
        f = sample_on_grid(K, stream)
    else:
        z = stream.random(n_centers)
        a = stream.standard_normal(n_centers)
        Kzz = np.exp(-0.5 * ((z[:, None] - z[None, :]) / lengthscale) ** 2)
        a *= B / math.sqrt(a @ Kzz @ a)
        f = np.exp(-0.5 * ((grid[:, None] - z[None, :]) / lengthscale) ** 2) @ a
        norm = B
    f = scale * f
    meta_stream = make_rng(seed, "rmbo-meta")
    tasks = []
    for d, N in zip(gaps, sizes):
        idx = meta_stream.integers(n_grid, size=int(N))
        f_i = f[idx] + meta_stream.uniform(-d, d, size=int(N))
        y = f_i + math.sqrt(noise_var) * meta_stream.standard_normal(int(N))
        tasks.append((idx, y, f_i))
    true_gaps = np.array([np.max(np.abs(f[idx] - f_i)) for idx, _, f_i in tasks])
    return {"grid": grid, "K": K, "f": f, "tasks": tasks, "true_gaps": true_gaps, "rkhs_norm": scale * norm,
            "noise_var": noise_var}


def meta_posterior(K: np.ndarray, idx, y, noise_var: float) -> tuple[np.ndarray, np.ndarray]:
    """mu_bar_i and sigma_bar_i on the grid of the meta GP fitted to (x_idx, y) with regulariser noise_var (eq. 1); a
    matrix ``y`` (one column per draw) gives one mean column per draw."""
    idx = np.asarray(idx)
    A = K[np.ix_(idx, idx)] + noise_var * np.eye(len(idx))
    L = np.linalg.cholesky(A)
    V = np.linalg.solve(L, K[idx, :])
    mean = V.T @ np.linalg.solve(L, y)
    var = np.maximum(np.diag(K) - np.sum(V ** 2, axis=0), 0.0)
    return mean, np.sqrt(var)


def _prior_factor(K: np.ndarray) -> np.ndarray:
    lam, U = np.linalg.eigh(K)
    return U * np.sqrt(np.maximum(lam, 0.0))


def pathwise_sample(K: np.ndarray, factor: np.ndarray, idx, y, reg: float, rng: np.random.Generator,
                    scale: float = 1.0) -> np.ndarray:
    """A joint posterior draw on the grid by pathwise conditioning: a prior draw g, plus
    K_{.,X} (K_XX + reg I)^{-1} (y - g(X) - e), e ~ N(0, reg I) (exact in distribution).
    ``scale`` multiplies the deviation from the posterior mean (eq. 3's beta_t or tau)."""
    g = factor @ rng.standard_normal(factor.shape[1])
    idx = np.asarray(idx)
    if len(idx) == 0:
        return scale * g
    A = K[np.ix_(idx, idx)] + reg * np.eye(len(idx))
    e = math.sqrt(reg) * rng.standard_normal(len(idx))
    Kx = K[:, idx]
    sample = g + Kx @ np.linalg.solve(A, y - g[idx] - e)
    if scale == 1.0:
        return sample
    mean = Kx @ np.linalg.solve(A, y)
    return mean + scale * (sample - mean)


# ------------------------------------------------------------------------------------ theory constants
def theory_gamma(K: np.ndarray, lam: float, T: int) -> np.ndarray:
    """Upper bounds on the maximum information gain gamma_t, t = 1..T: greedy gain / (1 - 1/e)."""
    return greedy_information_gain(K, lam, T) / (1.0 - 1.0 / math.e)


def theory_beta(gamma_prev: float, B: float, noise_var: float, delta: float) -> float:
    """Theorem 1's beta_t = B + sigma sqrt(2 (gamma_{t-1} + 1 + log(4 / delta)))."""
    return B + math.sqrt(noise_var) * math.sqrt(2.0 * (gamma_prev + 1.0 + math.log(4.0 / delta)))


def theory_tau(gamma_N: float, B: float, noise_var: float, delta: float, M: int) -> float:
    """Theorem 1's tau = B + sigma sqrt(2 (gamma_N + 1 + log(4 M / delta)))."""
    return B + math.sqrt(noise_var) * math.sqrt(2.0 * (gamma_N + 1.0 + math.log(4.0 * M / delta)))


def meta_tau(K: np.ndarray, sizes, B: float, delta: float, lam: float = NOISE_VAR, per_root_lambda: bool = False) -> float:
    """:func:`theory_tau` for meta GPs with regulariser ``lam`` (sigma^2 as Lemma 5 and the proof of Lemma 3 write it, our
    harness's and the method's choice) on the grid kernel ``K``, gamma_N from the greedy bound at N = max N_i (Theorem 1
    and Lemma 4). ``per_root_lambda`` divides the noise term by sqrt(lam): B + (sigma / sqrt(lam)) sqrt(2 (gamma_N + 1 +
    log(4 M / delta))), the width of Chowdhury and Gopalan's bound for a regulariser other than their 1 + eta (our
    reading; at lam = sigma^2 the noise term loses its factor sigma)."""
    gamma_N = theory_gamma(K, lam, max(sizes))[-1]
    return theory_tau(gamma_N, B, NOISE_VAR / lam if per_root_lambda else NOISE_VAR, delta, len(sizes))


def lemma6_radius(noise_var: float, N: int, delta: float) -> float:
    """Lemma 6's noise radius sqrt(2 sigma^2 log(8 N / delta)): with probability >= 1 - delta/4 every one of a
    task's 2N meta and hypothetical target noises is at most this in size. With N = sum_i N_i (the union bound
    over every meta observation) it is Lemma 1's noise term, the constant of d_bar_{i,t} (eq. 5; Lemma 19)."""
    return math.sqrt(2.0 * noise_var * math.log(8.0 * N / delta))


def alpha_prime(sizes, gaps, noise_var: float, delta: float) -> float:
    """alpha' = sum_i (N_i / sigma^2)(2 sqrt(2 sigma^2 log(8 N_i / delta)) + d_i) (Theorem 1 with weights
    that change over time: each omega_i bounded by 1)."""
    return float(alpha_terms(sizes, gaps, noise_var, delta).sum())


def alpha_terms(sizes, gaps, noise_var: float, delta: float) -> np.ndarray:
    """Per task, (N_i / sigma^2)(2 c_i + d_i) with c_i = sqrt(2 sigma^2 log(8 N_i / delta)): Lemma 3's alpha
    is their omega-weighted sum."""
    return np.array([N / noise_var * (2.0 * lemma6_radius(noise_var, N, delta) + d) for N, d in zip(sizes, gaps)])


def c1_constant(noise_var: float) -> float:
    """C_1 = 8 / log(1 + sigma^-2) (the main text prints 8 / (1 + sigma^-2))."""
    return 8.0 / math.log1p(1.0 / noise_var)


def theorem1_rhs(nu, beta_T: float, gamma_T: float, alpha: float, tau: float, noise_var: float,
                 C1: float | None = None) -> float:
    """Theorem 1: R_T <= 2 (alpha + tau) sum_{t <= T} nu_t + beta_T sqrt(C_1 T gamma_T)."""
    C1 = c1_constant(noise_var) if C1 is None else C1
    nu = np.asarray(nu, dtype=float)
    return float(2.0 * (alpha + tau) * nu.sum() + beta_T * math.sqrt(C1 * len(nu) * gamma_T))


def theorem1_ratios(run: dict, job: dict) -> np.ndarray:
    """RHS(T) / R_T of Theorem 1 for T = 1..len(run) along one theory-mode run (``run`` = a variant of
    :func:`synthetic_job` in ``mode="theory"``, ``job`` = the job's result): >= 1 where the bound holds.
    R_T counts the queries after the initial design; gamma_T is taken at the n_init + T observations the
    target GP holds after T queries (its sigma_{t-1} includes the initial design)."""
    R = np.cumsum(run["regret"])
    return theorem1_rhs_along(run, job) / np.maximum(R, 1e-300)


def theorem1_rhs_along(run: dict, job: dict) -> np.ndarray:
    """Theorem 1's right-hand side RHS(T) for T = 1..len(run) along one theory-mode run."""
    n_init = job["n_init"]
    return np.array([theorem1_rhs(run["nu"][:T], run["beta"][T - 1], job["gamma"][n_init + T - 1], job["alpha"],
                                  job["tau"], NOISE_VAR) for T in range(1, len(run["regret"]) + 1)])


def worst_regret_ratios(run: dict, job: dict) -> np.ndarray:
    """RHS(T) / (T (max f - min f)): Theorem 1's bound against the largest cumulative regret any policy
    can incur in T queries. Where it exceeds 1 the bound holds for every policy, so checking it
    cannot tell a good algorithm from a bad one."""
    f = np.asarray(job["f"])
    T = np.arange(1, len(run["regret"]) + 1)
    return theorem1_rhs_along(run, job) / (T * (f.max() - f.min()))


def lemma8_holds(run: dict, job: dict, cutoff: float = 0.1) -> tuple[bool, int]:
    """Lemma 8: r_t <= 2 nu_t (alpha + tau) + 2 (1 - nu_t) beta_t sigma_{t-1}(x_t) at every query t with
    nu_t alpha < ``cutoff`` (alpha = alpha' of the job, from the true gaps). Where nu_t alpha is large the
    first term exceeds any possible regret; once it is small the bound is essentially GP-UCB's per-step
    bound 2 beta_t sigma_{t-1}(x_t) and fails when the confidence bounds do (e.g. ||f||_k > B).
    Returns (holds at every checked query, number of queries checked)."""
    nu, alpha = np.asarray(run["nu"]), job["alpha"]
    checked = nu * alpha < cutoff
    bound = 2.0 * nu * (alpha + job["tau"]) + 2.0 * (1.0 - nu) * np.asarray(run["beta"]) * np.asarray(run["sigma_at"])
    return bool(np.all(np.asarray(run["regret"])[checked] <= bound[checked])), int(checked.sum())


def variance_step_error(variances, noise_var: float, C1: float) -> float:
    """Largest violation of sigma^2 <= (C_1 / 8) log(1 + sigma^-2 sigma^2) over ``variances`` (in [0, 1]),
    the step of Theorem 1's proof that turns sum sigma^2_{t-1}(x_t) into the information gain; 0 if
    it holds everywhere."""
    s = np.asarray(variances, dtype=float)
    return float(max(0.0, np.max(s - C1 / 8.0 * np.log1p(s / noise_var))))


# ------------------------------------------------------------------------------------ runs
GRID_ACQS = ("ucb", "ts")


def srinivas_beta(t: int, n_domain: int, delta: float = 0.1) -> float:
    """beta_t^(1/2) for Srinivas et al.'s finite-domain beta_t (:func:`~bolib.algorithms.gp_ucb_plus.beta_finite`).
    GP-UCB with it is our exploring baseline (the paper's GP-UCB uses sqrt(0.2 log 2t), :func:`practical_beta`)."""
    return math.sqrt(beta_finite(t, n_domain, delta))


def grid_run(task: dict, T: int, seed: int, *, acquisition: str = "ucb", n_init: int = 5, lam: float | None = None,
             beta=None, tau: float = 1.0, gap_reduce: str = "mean", gap_noise_term: float = 0.0,
             eta_n: float = 1.0, r: float = 0.7, eps: float = 0.7, weights: str = "online", nu="adaptive",
             nu_start: float = 1.0, hedge: str = "approx", ts_beta: float = 1.0, update_first: bool = True) -> dict:
    """RM-GP-UCB (``acquisition="ucb"``) or RM-GP-TS (``"ts"``) for T queries on a :func:`synthetic_task`.

    ``lam``: the target GP's regulariser (default: the noise variance; Theorem 1 uses 1 + 2/T);
    ``beta``: the multiplier of sigma, a constant, a function of t, or ``"srinivas"`` (:func:`srinivas_beta` on the
    grid, delta = 0.1) (default sqrt(0.2 log 2t), d = 1).
    The meta GPs use the noise variance. The schedule settings are those of
    :class:`bolib.algorithms.rm_bo.MetaSchedule` (``nu=0.0``: GP-UCB / GP-TS). The n_init initial points
    are uniform grid indices from the seed's ``init`` stream (the same for every method); the gaps,
    weights and nu are updated before every query (the authors' code), or (``update_first=False``) from the second query
    on, so that the first query plays ``nu_start`` and weights 1/M (Sec. 5.2's nu_1 and omega_1). Returns per query t = 1..T:
    ``regret`` (f* - f(x_t)), ``simple`` (f* - best f so far, initial design included), ``nu``,
    ``weights`` (T, M), ``gaps`` (T, M), ``beta``, ``acquisition_at`` (the maximised acquisition at x_t:
    zeta_bar_t(x_t) of eq. 2 for UCB, the drawn sample's value for TS), ``sigma_at`` (sigma_{t-1}(x_t)), ``meta_sigma_at``
    (sum_i w_i sigma_bar_i(x_t)), ``variance_at`` (the posterior variance with regulariser ``lam``),
    ``branch`` (1 for a meta draw of TS), and the task's true gaps.
    """
    check_choice("acquisition", acquisition, GRID_ACQS)
    K, f, noise_var = task["K"], task["f"], task["noise_var"]
    m, M = len(f), len(task["tasks"])
    lam = noise_var if lam is None else float(lam)
    if beta == "srinivas":
        beta_fn = functools.partial(srinivas_beta, n_domain=m)
    else:
        beta_fn = beta if callable(beta) else ((lambda t: practical_beta(t, 1)) if beta is None
                                               else (lambda t: float(beta)))
    metas = [meta_posterior(K, idx, y, noise_var) for idx, y, _ in task["tasks"]]
    meta_mean = np.array([mu for mu, _ in metas]).reshape(M, m)
    meta_sd = np.array([sd for _, sd in metas]).reshape(M, m)
    schedule = MetaSchedule(M, eta_n=eta_n, r=r, eps=eps, weights=weights, nu=nu, nu_start=nu_start, hedge=hedge,
                            task_sizes=[len(y) for _, y, _ in task["tasks"]])
    post = GridPosterior(K, lam, max_points=n_init + T + 1)
    run = GridRun(f, make_rng(seed, "rmbo-noise").standard_normal(n_init + T) * math.sqrt(noise_var), [post])
    pick = make_rng(seed, "rmbo-method", acquisition)
    factor = _prior_factor(K) if acquisition == "ts" else None
    for i in make_rng(seed, "init").integers(m, size=n_init):
        run.observe(i)
    f_star = float(f.max())

    def step(t):
        b = float(beta_fn(t))
        mu, sd = post.mean, post.std
        gaps = np.array([gap_estimate(y, mu[idx], sd[idx], b, gap_reduce, gap_noise_term)
                         for idx, y, _ in task["tasks"]])
        w, nu_t = schedule.update(gaps) if (update_first or t > 1) else (schedule.weights, schedule.nu)
        branch = 0.0
        if acquisition == "ucb":
            values = ucb_mix(nu_t, meta_ucb(w, meta_mean, meta_sd, tau), mu + b * sd)
        else:
            def meta_sample(k):
                idx, y, _ = task["tasks"][k]
                return pathwise_sample(K, factor, idx, y, noise_var, pick, tau)

            def target_sample():
                return pathwise_sample(K, factor, run.indices, np.array(run.y), lam, pick, ts_beta)

            values, meta_branch = ts_draw(nu_t, w, meta_sample, target_sample, pick) if M else (target_sample(), False)
            branch = float(meta_branch)
        i = acq.argmax_grid(values, pick)
        record = {"regret": f_star - f[i], "nu": nu_t, "beta": b, "weights": np.asarray(w, dtype=float).reshape(M),
                  "acquisition_at": float(values[i]),
                  "gaps": gaps.reshape(M), "sigma_at": sd[i], "variance_at": post.var[i],
                  "meta_sigma_at": float(w @ meta_sd[:, i]) if M else 0.0, "branch": branch}
        run.observe(i)
        return record

    out = run.run(T, step)
    best_init = max(f[j] for j in run.indices[:n_init])
    out["simple"] = f_star - np.maximum(best_init, np.maximum.accumulate(f_star - out["regret"]))
    out["true_gaps"] = task["true_gaps"]
    return out


def synthetic_job(seed: int, T: int, n_grid: int, gaps: list, sizes: list, variants: dict, target: str = "gp",
                  B: float = 2.0, mode: str = "practical", delta: float = 0.1, n_init: int = 5,
                  scale: float = 1.0) -> dict:
    """Every variant (``label -> grid_run settings``) on one seed's :func:`synthetic_task` (shared initial
    design and noise).

    ``mode="theory"`` (Theorem 1 / Lemma 1): lam = 1 + 2/T, beta_t and tau of Theorem 1 with gamma from
    the greedy bound (the meta GPs' gamma_N at N = max N_i), and, for the gap estimate, the maximum with
    Lemma 1's noise term. beta_t uses gamma of the n_init + t - 1 observations the target GP holds at
    query t (the initial design included); the result also holds ``gamma`` (for 1..n_init + T
    observations), ``n_init``, ``tau``, ``delta`` and ``alpha`` (:func:`alpha_prime`, from the true gaps). ``mode="practical"``: the settings as given.
    A variant's ``beta`` may be a number; ``"practical"`` leaves the default schedule.
    """
    check_choice("mode", mode, ("theory", "practical"))
    task = synthetic_task(seed, n_grid, gaps, sizes, target=target, B=B, scale=scale)
    out = {"true_gaps": task["true_gaps"], "f": task["f"], "rkhs_norm": task["rkhs_norm"],
           "tasks": [(idx, y) for idx, y, _ in task["tasks"]], "n_init": n_init}
    extra = {}
    if mode == "theory":
        lam = 1.0 + 2.0 / T
        gamma = theory_gamma(task["K"], lam, n_init + T)
        tau = meta_tau(task["K"], sizes, B, delta)
        gam = np.concatenate([[0.0], gamma])  # gam[n] = gamma_n, n observations
        noise_term = lemma6_radius(NOISE_VAR, int(sum(sizes)), delta)
        extra = {"lam": lam, "tau": tau, "gap_reduce": "max", "gap_noise_term": noise_term,
                 "beta": lambda t: theory_beta(gam[n_init + t - 1], B, NOISE_VAR, delta)}
        out.update(gamma=gamma, tau=tau, lam=lam, delta=delta, alpha=alpha_prime(sizes, task["true_gaps"], NOISE_VAR, delta))
    for label, settings in variants.items():
        settings = {**extra, **settings}
        out[label] = grid_run(task, T, seed, n_init=n_init, **settings)
    return out


# ------------------------------------------------------------------------------------ checks
def lemma6_event(sizes, noise_var: float, delta: float, rng: np.random.Generator, noise_scale: float = 1.0) -> bool:
    """Lemma 6's event for every task at once: all meta noises e_ij and hypothetical target noises e~_ij
    satisfy |e| <= sqrt(2 sigma^2 log(8 N_i / delta)). The noises are drawn with standard deviation
    ``noise_scale`` sigma (> 1: noisier than the lemma assumes). The lemma's proof takes the union bound
    over the points of one task only (probability >= 1 - delta/4 for each i)."""
    for N in sizes:
        radius = lemma6_radius(noise_var, N, delta)
        if np.any(np.abs(noise_scale * math.sqrt(noise_var) * rng.standard_normal(2 * int(N))) > radius):
            return False
    return True


def lemma6_probability(sizes, delta: float, all_tasks: bool = True, union_over_tasks: bool = False) -> float:
    """Exact probability of Lemma 6's event, every |e_ij| and |e~_ij| <= sqrt(2 sigma^2 log(8 N_i / delta))
    for Gaussian noise: (1 - 2 Phi(-sqrt(2 log(8 N_i / delta))))^(2 N_i) per task (sigma cancels), the
    product over the tasks when ``all_tasks`` (as Lemma 3 needs it), else the first task's alone (what
    Lemma 6's union bound over one task's 2 N_i values covers, >= 1 - delta/4). ``union_over_tasks``
    uses the corrected radius with 8 M N_i / delta (the union bound over all M tasks)."""
    M = len(sizes)
    probs = []
    for N in sizes if all_tasks else sizes[:1]:
        z = lemma6_radius(1.0, (M if union_over_tasks else 1) * N, delta)
        probs.append((1.0 - 2.0 * normal.cdf(-z)) ** (2 * int(N)))
    return float(np.prod(probs))


def lemma3_chain(task: dict, weights, delta: float, rng: np.random.Generator) -> dict:
    """Lemma 3 (with Lemmas 5-6) for one draw of the meta noise and of the hypothetical target noise.

    zeta_bar uses the meta observations y_ij = f_i(x_ij) + e_ij; zeta_tilde replaces them by hypothetical
    target observations f(x_ij) + e~_ij at the same inputs. sigma_bar does not depend on y, so
    |zeta_bar - zeta_tilde| = nu |sum_i w_i (mu_bar_i - mu_tilde_i)|, and the proof bounds it in steps:

        |sum_i w_i (mu_bar_i - mu_tilde_i)(x)| <= sum_i w_i ||k_i(x)|| ||(K_i + sigma^2 I)^-1|| ||y_bar_i - y_tilde_i||   (step 1)
                                                <= sum_i w_i sqrt(N_i) sigma^-2 ||y_bar_i - y_tilde_i||  (step 2: k <= 1, Lemma 5)
                                                <= alpha = sum_i w_i (N_i / sigma^2)(2 sqrt(2 sigma^2 log(8 N_i / delta)) + d_i)

    the last one on the Lemma 6 event (every |e_ij|, |e~_ij| <= sqrt(2 sigma^2 log(8 N_i / delta))).
    Returns ``lhs`` (max over the grid), ``step1`` (its max over x), ``step2``, ``alpha`` and ``event``.
    """
    K, f, noise_var = task["K"], task["f"], task["noise_var"]
    lhs = np.zeros(len(f))
    step1 = np.zeros(len(f))
    step2 = 0.0
    event = True
    weights = np.asarray(weights, dtype=float)
    for wi, (idx, _, f_i) in zip(weights, task["tasks"]):
        N = len(idx)
        radius = lemma6_radius(noise_var, N, delta)
        e_bar, e_tilde = math.sqrt(noise_var) * rng.standard_normal((2, N))
        event &= bool(np.all(np.abs(e_bar) <= radius) and np.all(np.abs(e_tilde) <= radius))
        diff = (f_i + e_bar) - (f[idx] + e_tilde)
        A_inv = np.linalg.inv(K[np.ix_(idx, idx)] + noise_var * np.eye(N))
        k_x = K[:, idx]
        lhs += wi * (k_x @ (A_inv @ diff))
        step1 += wi * np.linalg.norm(k_x, axis=1) * np.linalg.norm(A_inv, 2) * np.linalg.norm(diff)
        step2 += wi * math.sqrt(N) / noise_var * np.linalg.norm(diff)
    alpha = float(np.dot(weights, alpha_terms([len(idx) for idx, _, _ in task["tasks"]], task["true_gaps"],
                                              noise_var, delta)))
    return {"lhs": float(np.max(np.abs(lhs))), "step1": float(np.max(step1)), "step2": float(step2),
            "alpha": float(alpha), "event": event}


#: round-off allowed in steps 1-2 of Lemma 3's chain (both sides are sums of products of numbers of order 1)
CHAIN_ROUNDOFF = 1e-9


def lemma3_chain_holds(draws: dict) -> np.ndarray:
    """Every step of :func:`lemma3_chain` on many draws (``draws``: its outputs, one array per key): whether
    step 1 and step 2 hold in each draw (up to :data:`CHAIN_ROUNDOFF`), then whether the last one (step2 <=
    alpha) holds in each draw in Lemma 6's event, one array of the three parts."""
    event = np.asarray(draws["event"], dtype=bool)
    return np.concatenate([draws["lhs"] <= draws["step1"] + CHAIN_ROUNDOFF, draws["step1"] <= draws["step2"] + CHAIN_ROUNDOFF,
                           draws["step2"][event] <= draws["alpha"][event]])


def lemma3_job(seed: int, n_draws: int, n_grid: int, gaps: list, sizes: list, delta: float = 0.1,
               kernel_scale: float = 1.0) -> dict:
    """``n_draws`` draws of :func:`lemma3_chain` on one seed's task with uniform weights; ``kernel_scale``
    multiplies K (> 1 breaks the assumption k <= 1 behind step 2)."""
    task = synthetic_task(seed, n_grid, gaps, sizes)
    task["K"] = kernel_scale * task["K"]
    stream = make_rng(seed, "lemma3")
    rows = [lemma3_chain(task, np.full(len(gaps), 1.0 / len(gaps)), delta, stream) for _ in range(n_draws)]
    return {k: np.array([row[k] for row in rows]) for k in rows[0]}


def lemma4_job(seed: int, n_draws: int, n_grid: int, sizes: list, B: float = 2.0, delta: float = 0.1,
               scale: float = 1.0, lam: float = NOISE_VAR) -> dict:
    """Lemma 4 on one seed's RKHS target (||f||_k = B, times ``scale``): ``n_draws`` draws of the hypothetical target
    observations f(x_ij) + e~_ij at every meta-task's inputs (e~ ~ N(0, sigma^2)), each giving the GP posterior
    mu~_i, sigma~_i of eq. 1 with regulariser ``lam`` (default sigma^2, the meta GPs' regulariser in Lemma 5 and the
    proof of Lemma 3; the paper does not restate it for Lemma 4). Lemma 4 states |f(x) - mu~_i(x)| <= tau sigma~_i(x)
    for all x and i with probability >= 1 - delta/4, tau = B + sigma sqrt(2 (gamma_N + 1 + log(4 M / delta)))
    (:func:`meta_tau`). Returns ``ratio`` (per draw, max over x and i of |f - mu~_i| / sigma~_i: the lemma holds in a
    draw where it is <= tau), ``tau`` and ``tau_per_root_lambda`` (the noise term divided by sqrt(lam)). ``scale`` > 1
    puts f outside the norm ball the lemma assumes; ``lam`` replaces the regulariser in the posterior and in gamma_N,
    e.g. by Chowdhury and Gopalan's 1 + eta."""
    task = synthetic_task(seed, n_grid, [0.0] * len(sizes), sizes, target="rkhs", B=B, scale=scale)
    K, f = task["K"], task["f"]
    noise = make_rng(seed, "lemma4")
    ratio = np.zeros(n_draws)
    for idx, _, _ in task["tasks"]:
        y = f[idx][:, None] + math.sqrt(NOISE_VAR) * noise.standard_normal((len(idx), n_draws))
        mean, sd = meta_posterior(K, idx, y, lam)
        ratio = np.maximum(ratio, np.max(np.abs(f[:, None] - mean) / sd[:, None], axis=0))
    return {"ratio": ratio, "tau": meta_tau(K, sizes, B, delta, lam),
            "tau_per_root_lambda": meta_tau(K, sizes, B, delta, lam, per_root_lambda=True)}


def lemma7_margins(run: dict, job: dict, slack: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Lemma 7 along one theory-mode RM-GP-UCB run: zeta_bar_t(x_t) + nu_t alpha_t - f(x*) per query (>= 0 where the
    lemma holds), with alpha_t Lemma 3's alpha under the weights played at query t (:func:`alpha_terms`, true gaps);
    ``slack=False`` leaves out nu_t alpha_t. Also returns nu_t alpha_t."""
    sizes = [len(idx) for idx, _ in job["tasks"]]
    alpha_t = np.asarray(run["weights"]) @ alpha_terms(sizes, job["true_gaps"], NOISE_VAR, job["delta"])
    meta_term = np.asarray(run["nu"]) * alpha_t
    margin = np.asarray(run["acquisition_at"]) + (meta_term if slack else 0.0) - float(np.max(job["f"]))
    return margin, meta_term


def lemma7_holds(run: dict, job: dict, cutoff: float = math.inf) -> tuple[bool, int]:
    """Lemma 7: f(x*) <= zeta_bar_t(x_t) + nu_t alpha_t (:func:`lemma7_margins`) at every query t (the lemma's "for all t
    >= 1"), or at the queries with nu_t alpha_t < ``cutoff`` only: there the meta term is negligible and the inequality is
    the target GP's confidence bound at x* (Lemma 2). Returns (holds at every checked query, number of queries checked)."""
    margin, meta_term = lemma7_margins(run, job)
    checked = meta_term < cutoff
    return bool(np.all(margin[checked] >= 0.0)), int(checked.sum())


def lemma6_job(seed: int, n_draws: int, sizes: list, delta: float = 0.1, noise_scale: float = 1.0) -> np.ndarray:
    """``n_draws`` independent outcomes of :func:`lemma6_event` (noise variance 0.01)."""
    stream = make_rng(seed, "lemma6")
    return np.array([lemma6_event(sizes, NOISE_VAR, delta, stream, noise_scale) for _ in range(n_draws)])


def lemma1_violations(true_gaps, gap_estimates) -> bool:
    """Lemma 1: d_i <= d_bar_{i,t} for all i and t; True if some (i, t) violates it (``gap_estimates`` is (T, M))."""
    return bool(np.any(np.asarray(gap_estimates) < np.asarray(true_gaps)[None, :]))


def gap_separation(gap_estimates, similar, dissimilar) -> float:
    """log( mean_{i in dissimilar} sum_t d_bar_{i,t} / mean_{i in similar} sum_t d_bar_{i,t} ) for one run's
    gap estimates (T, M): the cumulative losses from which eq. 7 makes the weights. Positive when the
    estimate finds the dissimilar tasks farther from the target; about 0 when it cannot tell them apart
    (e.g. when all tasks are equally far)."""
    total = np.asarray(gap_estimates, dtype=float).sum(axis=0)
    return float(np.log(total[list(dissimilar)].mean() / total[list(similar)].mean()))


def hedge_regret_sides(losses, eta: float, weights=None) -> tuple[float, float]:
    """Both sides of the Hedge regret inequality for losses l_t >= 0 ((T, M)), with omega_t the weights
    played at round t before l_t is seen (default: eq. 7, softmax(-eta sum_{s<t} l_s)):

        sum_t omega_t . l_t - min_i sum_t l_{i,t}   <=   ln M / eta + (eta / 2) sum_t sum_i omega_{t,i} l_{i,t}^2.

    (From e^-x <= 1 - x + x^2/2 for x >= 0; it holds for every loss sequence.)
    """
    losses = np.asarray(losses, dtype=float)
    T, M = losses.shape
    if weights is None:
        before = np.vstack([np.zeros(M), np.cumsum(losses, axis=0)[:-1]])
        weights = np.array([hedge_weights(row, eta) for row in before])
    weights = np.asarray(weights, dtype=float)
    lhs = float(np.sum(weights * losses) - losses.sum(axis=0).min())
    rhs = float(math.log(M) / eta + eta / 2.0 * np.sum(weights * losses ** 2))
    return lhs, rhs


def ftrl_by_slsqp(cumulative_loss, eta: float) -> np.ndarray:
    """Eq. 6 solved numerically: argmin over the simplex of w . L + (1/eta) sum_i w_i log w_i (SLSQP)."""
    L = np.asarray(cumulative_loss, dtype=float)
    M = len(L)

    def objective(w):
        w = np.clip(w, 1e-300, None)
        return float(w @ L + np.sum(w * np.log(w)) / eta)

    res = minimize(objective, np.full(M, 1.0 / M), method="SLSQP", bounds=[(1e-12, 1.0)] * M,
                   constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1.0}],
                   options={"ftol": 1e-15, "maxiter": 1000})
    return res.x


def eq20_holds(meta_sigma_at, sigma_at, beta, tau: float) -> np.ndarray:
    """App. A.3, eq. 20: sum_i w_i sigma_bar_i(x_t) < (beta_t / tau) sigma_{t-1}(x_t), per query."""
    return np.asarray(meta_sigma_at) < np.asarray(beta) / tau * np.asarray(sigma_at)


def meta_draw_deficit(branch, gaps, weights, r: float, eps: float) -> float:
    """Relative shortfall of RM-GP-TS's meta-branch draws against Sec. 5.2's rule from nu_1 = 1.

    ``branch`` (runs, T) marks meta draws; ``gaps`` and ``weights`` (runs, T, M) are the logged gap
    estimates and weights. Replaying the rule nu_t = nu_{t-1} min(r, (w . d_bar)^-eps)
    (:func:`bolib.algorithms.rm_bo.nu_step`) from nu = 1 on the logged values gives the expected number
    of meta draws, sum nu_t; the result is
    |observed - expected| / expected (1 when the meta branch is never drawn).
    """
    nu = np.ones(np.shape(branch))
    for run, (run_gaps, run_weights) in enumerate(zip(gaps, weights)):
        previous = 1.0
        for t, (g, w) in enumerate(zip(run_gaps, run_weights)):
            nu[run, t] = previous = nu_step(previous, w, g, r, eps)
    expected = float(nu.sum())
    return abs(float(np.sum(branch)) - expected) / expected



RATIO_MARGIN = math.log(1.25)  # "no worse than GP-UCB": within a factor 1.25 of its mean regret per query


def proposition1_sides(weights, nu, sizes, gaps, noise_var: float, delta: float) -> tuple[float, float]:
    """Proposition 1: sum_t alpha_t nu_t <= (sum_t alpha_t)(sum_t nu_t), with alpha_t = sum_i w_{t,i}
    (N_i / sigma^2)(2 c_i + d_i) the alpha of Lemma 3 under the weights played at query t
    (:func:`alpha_terms`). ``weights`` is (T, M), ``nu`` (T,), ``gaps`` the true d_i.
    Returns (left side, right side)."""
    alpha_t = np.asarray(weights, dtype=float) @ alpha_terms(sizes, gaps, noise_var, delta)
    nu = np.asarray(nu, dtype=float)
    return float(alpha_t @ nu), float(alpha_t.sum() * nu.sum())


# ------------------------------------------------------------------------------------ real-data stand-ins
def meta_observations(results, n: int) -> list[dict]:
    """Previous tasks' data for the real-data experiments (Sec. 6): the first ``n`` points (initial design
    included, unit-cube ``X`` and observed ``y``) of one run per meta-task, as the authors' code takes the
    first 50 points of a GP-UCB run (5 random + 45 BO) on each previous task.

    ``results`` are ``(params, value)`` pairs of :func:`bolib.loop.bo_job` runs, one per meta-task, in
    the order the tasks should have; the result is the benchmark option ``tasks`` of the target's runs.
    """
    tasks = []
    for _, value in results:
        if len(value["y"]) < n:
            raise ValueError(f"a meta-task run has {len(value['y'])} points, fewer than the {n} asked for")
        tasks.append({"X": np.asarray(value["X"])[:n].tolist(), "y": np.asarray(value["y"])[:n].tolist()})
    return tasks


# ------------------------------------------------------------------------------------ real-data stand-ins: metrics
def similar_weight_shares(history, similar, n_tasks: int, with_target: bool = False) -> np.ndarray:
    """Figs. 2f and App. D.2, per query of one run: the share of the weights held by the ``similar`` previous
    tasks (indices).

    ``history`` is an optimiser's log, one entry per query with its ``weights``: the ``n_tasks`` previous
    tasks' and, for RGPE and TAF, the target model's last. The share is sum_{i in similar} w_i / sum_i w_i over
    the previous tasks (how a method divides what it gives them: which tasks it identifies as similar), NaN at a
    query where every previous task has weight 0 (RGPE and TAF can drop them all); with ``with_target``, over all
    the logged weights, the target model's included.
    """
    W = np.array([entry["weights"][:n_tasks + 1 if with_target else n_tasks] for entry in history], dtype=float)
    total = W.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, W[:, list(similar)].sum(axis=1) / total, np.nan)


def similar_weight_share(history, similar, n_tasks: int, with_target: bool = False) -> float:
    """The mean over one run's queries of :func:`similar_weight_shares`, the queries where the previous tasks hold
    no weight left out; a run in which they never hold any gives len(similar) / n_tasks, the share of uniform
    weights (nothing identified)."""
    shares = similar_weight_shares(history, similar, n_tasks, with_target)
    return float(np.nanmean(shares)) if np.isfinite(shares).any() else len(list(similar)) / n_tasks
