"""Paper 003, BORE++ and batch BORE (Oliveira, Tiao & Ramos, "Batch Bayesian Optimisation via
Density-ratio Estimation with Guarantees", NeurIPS 2022, arXiv:2209.10715): the theory checks of
the notebook ``003_bore``.

Everything here is on the paper's theory testbed (App. D.1, :func:`d1_testbed`): a finite domain of
100 uniform points in [0, 1], an optimal classifier pi* in the RKHS of a squared-exponential kernel
(lengthscale 0.1) with ||pi*||_k = 1, the threshold tau fixed at 0, Gaussian noise of variance
0.01, and the objective built from pi* through eq. 10, f = tau - Phi_eps^{-1}(pi*), so that
p(y <= tau | x) = pi*(x) exactly. The paper minimises f; so does this module (regret
r_t = f(x_t) - min f).

* :func:`finite_run`: BORE (eq. 15), BORE++ (eq. 20, theory beta of Theorem 1), BORE-TS (App. B),
  BORE++ with a moving quantile tau_t (App. C), GP-UCB with Durand et al.'s beta (Table D.2) and
  uniform queries, one run each, with the per-step quantities the theorems bound.
* :func:`bayes_ts_run`: Thompson sampling on f ~ GP(0, k) (the Bayesian half of App. B).
* :func:`batch_run`: batch BORE++ with *exact* i.i.d. sampling of M points per round from
  p_hat_t ~ pi_{t-1,delta} (Theorem 4's setting), its distributional regret, KL and TV.
* The statistics the claims are decided on: :func:`lemma1_gap` (Lemma 1 and footnote 3),
  :func:`lemma1_monte_carlo` (eq. 10 from samples),
  :func:`interval_lipschitz` (eq. 11), :func:`theorem2_holds`, :func:`theorem3_holds`,
  :func:`theorem4_holds`, :func:`lemma_a2_sides` (Lemma A.2 and its hidden condition on lambda),
  :func:`distribution_gaps`, :func:`tail_exponents` (with the cut-offs of :func:`bound_exponent`, the
  bounds' own growth curves :func:`bound_growth`) and :func:`stuck`; :func:`doubling_changes`
  describes how far App. C's moving threshold has settled (that claim is not decided).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from bolib.acquisition import argmax_grid
from bolib.algorithms.bore_classifiers import theorem1_beta
from bolib.errors import BolibError, check_choice
from bolib.models.grid import GridPosterior, GridRun
from bolib.runtime import rng as make_rng
from bolib.stats import loglog_slopes
from bolib.theory import greedy_information_gain

#: App. D.1 and Tables D.1-D.2
LENGTHSCALE, NOISE_STD, LAMBDA, LAMBDA_UCB, DELTA, B = 0.1, 0.1, 0.025, 0.01, 0.1, 1.0
#: clipping of pi* away from 0 and 1 before Phi^{-1} (eq. 10)
PI_CLIP = 1e-12
#: the frozen contrasts (``gp-ts-frozen``, ``bore++-frozen``) learn from the first ceil(FROZEN_AFTER T) steps only
FROZEN_AFTER = 1 / 8
#: jitter of K_X in ||f||_k = sqrt(f^T K_X^{-1} f) (eq. D.5; K_X is numerically singular)
NORM_JITTER = 1e-8


def rbf(a, b, lengthscale: float = LENGTHSCALE) -> np.ndarray:
    """Unit-variance squared-exponential kernel matrix between 1-D point sets."""
    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    return np.exp(-0.5 * ((a[:, None] - b[None, :]) / lengthscale) ** 2)


def d1_testbed(seed: int, n_domain: int = 100, n_centers: int = 5, tau: float = 0.0) -> dict:
    """The theory testbed of App. D.1 for one trial (a new pi* and domain per seed).

    pi* = sum_i alpha_i k(., x_i*) with x_i*, alpha_i ~ U(0, 1) (eq. D.1), alpha rescaled so that
    ||pi*||_k = sqrt(alpha^T K_F alpha) = 1 (eq. D.2), hence 0 < pi* <= 1; f = tau - sigma_eps
    Phi^{-1}(pi*) (eqs. 10, D.3); the domain is ``n_domain`` uniform points; x_1 (shared by all
    methods) is one uniform domain point; gamma = mean of pi* over the domain.
    """
    stream = make_rng(seed, "d1")
    centres, alpha = stream.random(n_centers), stream.random(n_centers)
    alpha = alpha / math.sqrt(alpha @ rbf(centres, centres) @ alpha)
    X = np.sort(stream.random(n_domain))
    pi, f = d1_values(centres, alpha, X, tau)
    return {"X": X, "K": rbf(X, X), "pi": pi, "f": f, "tau": tau, "x1": int(stream.integers(n_domain)),
            "gamma": float(pi.mean()), "centres": centres, "alpha": alpha}


def d1_values(centres, alpha, x, tau: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """pi*(x) = sum_i alpha_i k(x, x_i*) (eq. D.1, clipped to [PI_CLIP, 1 - PI_CLIP]) and the objective
    f(x) = tau - sigma_eps Phi^{-1}(pi*(x)) (eqs. 10, D.3) at the points ``x``."""
    pi = np.clip(rbf(x, centres) @ alpha, PI_CLIP, 1 - PI_CLIP)
    return pi, tau - NOISE_STD * sps.norm.ppf(pi)


def class_probability(f, tau: float) -> np.ndarray:
    """p(y <= tau | x) = Phi_eps(tau - f(x)) for Gaussian noise of standard deviation sigma_eps (eq. 10)."""
    return sps.norm.cdf((tau - np.asarray(f)) / NOISE_STD)


def rkhs_norm(f, K, jitter: float = NORM_JITTER) -> float:
    """||f||_k on a finite domain, sqrt(f^T (K_X + jitter I)^{-1} f) (eq. D.5)."""
    L = np.linalg.cholesky(K + jitter * np.eye(len(K)))
    v = np.linalg.solve(L, f)
    return float(math.sqrt(v @ v))


def interval_lipschitz(p_a, p_b, noise_std: float = NOISE_STD):
    """A Lipschitz constant of Phi_eps^{-1} on [min(p_a, p_b), max(p_a, p_b)] (eq. 11) for Gaussian
    noise: sigma_eps / phi(Phi^{-1}(p)) at the end point farther from 1/2 (the derivative is smallest
    at p = 1/2 and grows towards 0 and 1)."""
    ends = np.stack(np.broadcast_arrays(np.asarray(p_a, dtype=float), np.asarray(p_b, dtype=float)))
    return noise_std / sps.norm.pdf(sps.norm.ppf(ends)).min(axis=0)


# ------------------------------------------------------------------------------ Lemma 1
NOISES = {"gaussian": sps.norm(), "student-t3": sps.t(3), "cauchy": sps.cauchy(), "laplace": sps.laplace(),
          "uniform": sps.uniform(-1, 2)}


def lemma1_gap(f, noise: str, tau: float, scale: float = 0.1) -> float:
    """Largest regret f(x) - min f over the maximisers of p(y <= tau | x) = Phi_eps(tau - f(x)) (Lemma 1).

    0 when the argmax of the class probability is exactly the argmin of f, as Lemma 1 states for a
    noise CDF strictly increasing on the real line; for bounded noise (``"uniform"`` on
    [-scale, scale]) and tau outside (min f - scale, min f + scale] the probability is flat (all 0 or
    several 1) at its maximum and the gap is positive (footnote 3's extension needs that condition).
    """
    f = np.asarray(f, dtype=float)
    p = NOISES[check_choice("noise", noise, NOISES)].logcdf((tau - f) / scale)  # the CDF itself rounds to 1 in the tails
    return float(f[p == p.max()].max() - f.min())


def lemma1_monte_carlo(f, noise: str, tau: float, scale: float, n: int, rng: np.random.Generator,
                      level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 10's first equality from samples: at every point, ``n`` observations y = f(x) + scale eps
    (eps from ``noise``), the frequency of y <= tau, and whether Phi_eps((tau - f(x)) / scale) lies in
    that frequency's two-sided Clopper-Pearson interval at ``level``. Returns (frequencies, inside)."""
    f = np.asarray(f, dtype=float)
    dist = NOISES[check_choice("noise", noise, NOISES)]
    k = np.sum(f[:, None] + scale * dist.rvs(size=(len(f), n), random_state=rng) <= tau, axis=1)
    lo, hi = clopper_pearson(k, n, level)
    exact = dist.cdf((tau - f) / scale)
    return k / n, (lo <= exact) & (exact <= hi)


def clopper_pearson(k, n: int, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided exact (Clopper-Pearson) interval for a binomial proportion, k successes in n."""
    k, a = np.asarray(k), (1 - level) / 2
    lo = np.where(k > 0, sps.beta.ppf(a, np.maximum(k, 1), n - k + 1), 0.0)
    hi = np.where(k < n, sps.beta.ppf(1 - a, k + 1, np.maximum(n - k, 1)), 1.0)
    return lo, hi


# ------------------------------------------------------------------------------ runs
RULES = ("bore", "bore++", "bore-ts", "bore++-moving", "gp-ucb", "uniform")


def finite_run(rule: str, seed: int, T: int, lam: float = LAMBDA, delta: float = DELTA, b: float = B) -> dict:
    """One run of ``rule`` for T steps on the D.1 testbed of ``seed`` (x_1 shared by all rules).

    Rules: ``bore`` (x_t = argmax pi_hat_{t-1}, eq. 15), ``bore++`` (argmax pi_hat_{t-1} +
    beta_{t-1} sigma_{t-1}, eq. 20, beta of Theorem 1 with ``b``, ``delta``), ``bore-ts`` (argmax of one
    draw from the PLS posterior N(pi_hat_{t-1}, k_{t-1}) on the domain, App. B), ``bore++-moving``
    (BORE++ with labels 1[y_i <= tau_t], tau_t the gamma-quantile of y_1..y_{t-1}, gamma = mean pi*,
    App. C: every label is recomputed when tau_t moves, :class:`LabelSmoother`), ``gp-ucb`` (x_t =
    argmin mu_{t-1} - beta_{t-1} sigma_{t-1} of a GP on y with lambda = sigma_eps^2 and Durand et al.'s
    beta ||f||_k + (sigma_eps / sqrt(lambda)) sqrt(2 (1/2 log|I + K / lambda| + log 1/delta)), Table D.2) and ``uniform`` (uniform queries). Ties are
    broken at random. The observation noise of step t is the same for every rule (common random numbers).

    Returns per step t = 1..T: ``index``, ``regret`` r_t, ``pi_at`` pi*(x_t), ``L`` (eq. 11's
    Lipschitz constant on [pi*(x_t), pi*(x*)], :func:`interval_lipschitz`), ``beta`` beta_{t-1},
    ``sigma_at`` sigma_{t-1}(x_t), ``sigma_opt`` sigma_{t-1}(x*), ``ratio`` max_x |pi* - pi_hat_{t-1}| /
    (beta_{t-1} sigma_{t-1}) (<= 1 when Theorem 1's band holds; for ``gp-ucb`` the same with f and
    mu; for ``bore++-moving`` with pi_t = Phi_eps(tau_t - f), the class probability of the current
    threshold, for which no theorem gives the band), ``gain`` 1/2 log(1 + sigma_{t-1}^2(x_t) / lambda) (Lemma A.1's terms), ``var_increase``
    max_x sigma_t^2 - sigma_{t-1}^2 (<= 0 by Lemma A.3), ``tau``; and ``log_det`` =
    log|I + lambda^{-1} K_T| computed directly, ``ratio_final`` for pi_hat_T, and the testbed's ``f``.
    """
    check_choice("rule", rule, RULES)
    tb = d1_testbed(seed)
    K, f, pi, m = tb["K"], tb["f"], tb["pi"], len(tb["f"])
    x_star, f_min = int(np.argmin(f)), float(f.min())
    pick = make_rng(seed, "pick", rule)
    ucb = rule == "gp-ucb"
    lam = LAMBDA_UCB if ucb else lam
    target = f if ucb else pi
    # beta_t of Theorem 1 (eq. 14); GP-UCB's (Durand et al.) is the same form with the observations'
    # sub-Gaussian constant sigma_eps in place of the labels' 1, i.e. lambda / sigma_eps^2 in place of lambda
    lam_beta = lam / NOISE_STD ** 2 if ucb else lam
    norm = rkhs_norm(f, K) if ucb else b
    post = GridPosterior(K, lam, max_points=T + 1)
    run = GridRun(f, NOISE_STD * make_rng(seed, "noise").standard_normal(T), [post])
    moving = rule == "bore++-moving"
    smoother = LabelSmoother(m, T) if moving else None
    root = prior_root(K) if rule == "bore-ts" else None
    labels, log_det, tau = [], 0.0, tb["tau"]

    def step(t):
        nonlocal log_det, target, tau
        mean, sd = post.mean, post.std
        if moving and run.y:
            tau = float(np.quantile(run.y, tb["gamma"], method="inverted_cdf"))
            mean = smoother.mean(np.asarray(run.y) <= tau)
            target = class_probability(f, tau)  # pi_t of the current threshold (eq. 10)
        beta = theorem1_beta(log_det, lam_beta, norm, delta)
        if t == 1:
            i = tb["x1"]
        elif rule in ("bore++", "bore++-moving"):
            i = argmax_grid(mean + beta * sd, pick)
        elif rule == "bore":
            i = argmax_grid(mean, pick)
        elif rule == "bore-ts":
            i = argmax_grid(posterior_draw(K, root, run.indices, labels, lam, pick), pick)
        elif ucb:
            i = argmax_grid(-(mean - beta * sd), pick)
        else:
            i = int(pick.integers(m))
        gain = 0.5 * math.log1p(sd[i] ** 2 / lam)
        record = {"index": i, "tau": tau, "regret": f[i] - f_min, "pi_at": pi[i], "beta": beta, "sigma_at": sd[i],
                  "sigma_opt": sd[x_star], "gain": gain,
                  "ratio": np.max(np.abs(target - mean) / np.maximum(beta * sd, 1e-300))}
        log_det += 2 * gain
        before = post.var.copy()
        y = run.observe(i, label=None if ucb else (lambda y: float(y <= tau)),
                        update=(lambda i, label: smoother.update(post, i, label)) if moving else None)
        labels.append(float(y <= tau))
        record["var_increase"] = np.max(post.var - before)
        return record

    out = run.run(T, step)
    beta = theorem1_beta(log_det, lam_beta, norm, delta)
    final = smoother.mean(np.asarray(run.y) <= tau) if moving else post.mean
    out["ratio_final"] = float(np.max(np.abs(target - final) / np.maximum(beta * post.std, 1e-300)))
    out["beta_final"] = beta
    idx = run.indices
    out["log_det"] = float(np.linalg.slogdet(np.eye(T) + K[np.ix_(idx, idx)] / lam)[1])
    out["L"] = interval_lipschitz(out["pi_at"], pi[x_star])
    out["f"], out["lam"] = f, lam
    return out


class LabelSmoother:
    """The PLS classifier for labels that change (App. C: when tau_t moves, every label 1[y_i <= tau_t]
    may change; the variance does not). Eq. 13 is linear in the labels, pi_hat_t = W_t z with
    W_t = K_{X,t} (K_t + lambda I)^{-1} (domain x queries). Conditioning a :class:`GridPosterior` on one
    more query x_i adds the column g = v / d (v the posterior's new row, d the new diagonal entry of
    the Cholesky factor of K_t + lambda I) and changes the others by -g W_t[i, :], which keeps
    W z = pi_hat for every z: O(t m) per query instead of a new posterior per threshold."""

    def __init__(self, m: int, max_points: int):
        self.W, self.n = np.zeros((m, max_points)), 0

    def update(self, post: GridPosterior, i: int, label: float) -> None:
        """Condition ``post`` on (x_i, ``label``) and extend W. ``post`` must add one row per query (a
        :class:`GridPosterior` skips a repeated point when its noise is below 1e-6)."""
        i, l, n = int(i), post.V[: post.n, int(i)], post.n
        d = math.sqrt(max(post.K[i, i] + post.tau - l @ l, 1e-300))
        post.update(i, label)
        if post.n != n + 1:
            raise BolibError(f"LabelSmoother: the posterior did not add a row for query {i} (noise {post.tau:g}); "
                             "W would no longer match eq. 13")
        g = post.V[post.n - 1] / d
        self.W[:, : self.n] -= np.outer(g, self.W[i, : self.n])
        self.W[:, self.n] = g
        self.n += 1

    def mean(self, z) -> np.ndarray:
        """pi_hat_t on the domain for the labels ``z`` of the queries so far (eq. 13)."""
        return self.W[:, : self.n] @ np.asarray(z, dtype=float)


def prior_root(K) -> np.ndarray:
    """A square root R of K (R R^T = K) from its symmetric eigendecomposition (K may be singular)."""
    lam, U = np.linalg.eigh(K)
    return U * np.sqrt(np.maximum(lam, 0.0))


def posterior_draw(K, root, idx, z, lam: float, rng: np.random.Generator) -> np.ndarray:
    """One draw of the PLS posterior N(pi_hat, k_t) on the whole domain (BORE-TS, App. B), by
    Matheron's rule: a prior draw g = R e plus K_{.X} (K_XX + lambda I)^{-1} (z - g_X - eps), eps ~ N(0, lambda I)."""
    g = root @ rng.standard_normal(len(K))
    if not idx:
        return g
    residual = np.asarray(z) - g[idx] - math.sqrt(lam) * rng.standard_normal(len(idx))
    return g + K[:, idx] @ np.linalg.solve(K[np.ix_(idx, idx)] + lam * np.eye(len(idx)), residual)


BAYES_RULES = ("gp-ts", "uniform", "gp-ts-frozen")


def bayes_ts_run(rule: str, seed: int, T: int) -> dict:
    """The Bayesian half of App. B: f ~ GP(0, k) with the SE kernel of the testbed (lengthscale 0.1) on
    the D.1 domain of ``seed``, y = f + N(0, sigma_eps^2), and Thompson sampling (``gp-ts``: x_t = argmin
    of one posterior draw of f on the domain, :func:`posterior_draw` with lambda = sigma_eps^2), the
    function-space view of BORE with a posterior-sample classifier, for which Russo & Van Roy's
    Bayesian regret bound O(sqrt(T xi_T log(|X| T))) holds; ``uniform``: uniform queries (linear
    regret); ``gp-ts-frozen``: Thompson sampling whose posterior stops learning after the first
    ceil(T / 8) steps (:data:`FROZEN_AFTER`; the draws go on from the frozen posterior, with gp-ts's random
    numbers), so that its expected regret per step is constant from then on: linear regret R_t = c + r t
    whose log-log slope is below 1 at a finite horizon (the rate claim's contrast). x_1 is the testbed's
    shared first point; the noise of step t is shared.

    Returns ``regret`` r_t = f(x_t) - min f and ``index`` x_t per step.
    """
    check_choice("rule", rule, BAYES_RULES)
    tb = d1_testbed(seed)
    K, m = tb["K"], len(tb["X"])
    root = prior_root(K)
    f = root @ make_rng(seed, "bayes-f").standard_normal(m)
    run = GridRun(f, NOISE_STD * make_rng(seed, "noise").standard_normal(T))
    pick = make_rng(seed, "bayes-pick", "gp-ts" if rule == "gp-ts-frozen" else rule)
    learn_steps = math.ceil(FROZEN_AFTER * T) if rule == "gp-ts-frozen" else T

    def step(t):
        if t == 1:
            i = tb["x1"]
        elif rule in ("gp-ts", "gp-ts-frozen"):
            seen = min(len(run.indices), learn_steps)
            i = argmax_grid(-posterior_draw(K, root, run.indices[:seen], run.y[:seen], NOISE_STD ** 2, pick), pick)
        else:
            i = int(pick.integers(m))
        run.observe(i)
        return {"regret": f[i] - f.min(), "index": i}

    return run.run(T, step)


BATCH_RULES = ("bore++", "uniform", "bore++-frozen")


def sampling_distribution(ucb) -> np.ndarray:
    """p_hat ~ pi_{t,delta} = min(1, max(0, pi_hat + beta sigma)) on the finite domain (eq. 20,
    Sec. 5.1), normalised; uniform if the clipped bound is zero everywhere."""
    u = np.clip(np.asarray(ucb, dtype=float), 0.0, 1.0)
    return u / u.sum() if u.sum() > 0 else np.full(len(u), 1.0 / len(u))


def exact_batch(p, M: int, rng: np.random.Generator) -> np.ndarray:
    """M i.i.d. domain indices from the categorical distribution ``p`` (exact sampling, q_t = p_hat_t,
    which Theorem 4's proof needs at A.21; SVGD particles are neither independent nor exact)."""
    return rng.choice(len(p), size=int(M), p=p)


def batch_run(rule: str, seed: int, T: int, M: int, lam: float = LAMBDA, delta: float = DELTA, b: float = B,
              beta: float | None = None, frozen_after: float = FROZEN_AFTER) -> dict:
    """Batch BORE++ on the D.1 testbed with exact sampling (Theorem 4's setting): in round t, M
    i.i.d. domain points from p_hat_t ~ pi_{t-1,delta} = min(1, max(0, pi_hat_{t-1} + beta_{t-1}
    sigma_{t-1})) (eq. 20), so q_t = p_hat_t exactly; ``rule="uniform"``: p_hat_t uniform (a contrast
    the theorem does not cover); ``rule="bore++-frozen"``: batch BORE++ whose classifier (and beta_t)
    stops learning after the first ceil(``frozen_after`` T) rounds, so that p_hat_t is fixed from then on
    and the cumulative regret grows linearly, R_t = c + r t, with a log-log slope below 1 at a finite
    horizon (the contrast of the rate claims). The M labels of a round are observed together. ``beta=None`` uses
    beta_t(delta) of Theorem 1 (at least b + sqrt(2 log(1/delta) / lambda) = 1 + sqrt(80 log 10) ~ 14.6 here
    before any data, growing with the information gain, which clips pi_hat + beta sigma to 1 on the whole
    domain for many rounds); a number fixes beta_t to it (outside Theorem 4, whose bound needs
    Theorem 1's beta).

    Returns per round t = 1..T: ``dist_regret`` r_bar_t = E_{p_hat_t} f - E_l f with l ~ pi* (eq. 27),
    ``kl`` KL(p_hat_t || l), ``tv``, ``e_sigma`` E_{p_hat_t} sigma_{t-1}, ``beta`` beta_{t-1},
    ``simple_regret`` (best f evaluated so far - min f) and ``flat`` (1 when pi_hat + beta sigma >= 1 on
    the whole domain, so that the clipping of eq. 20 makes p_hat_t uniform); and ``L_eps`` (a Lipschitz constant of
    Phi_eps^{-1} on [min pi*, max pi*]), ``L_pi`` = max 1/pi*, ``xi`` (greedy lower bound on xi_T),
    ``f_range``.
    """
    check_choice("rule", rule, BATCH_RULES)
    tb = d1_testbed(seed)
    K, f, pi, m = tb["K"], tb["f"], tb["pi"], len(tb["f"])
    ell = pi / pi.sum()
    post = GridPosterior(K, lam, max_points=T * M + 1)
    run = GridRun(f, NOISE_STD * make_rng(seed, "noise").standard_normal(T * M), [post])
    draw = make_rng(seed, "batch", "bore++" if rule == "bore++-frozen" else rule, M)  # frozen: bore++'s draws
    log_det, best = 0.0, np.inf

    learn_rounds = math.ceil(frozen_after * T) if rule == "bore++-frozen" else T

    def step(t):
        nonlocal log_det, best
        beta_t = theorem1_beta(log_det, lam, b, delta) if beta is None else float(beta)
        ucb = np.ones(m) if rule == "uniform" else post.mean + beta_t * post.std
        p = sampling_distribution(ucb)
        record = dict(zip(("dist_regret", "kl", "tv"), distribution_gaps(p, ell, f)),
                      flat=float(np.all(ucb >= 1.0)), e_sigma=p @ post.std, beta=beta_t)
        learn = t <= learn_rounds
        for i in exact_batch(p, M, draw):
            best = min(best, f[i])
            if learn:
                log_det += math.log1p(post.var[i] / lam)
            run.observe(i, label=lambda y: float(y <= tb["tau"]), update=None if learn else (lambda i, label: None))
        record["simple_regret"] = best - f.min()
        return record

    out = run.run(T, step)
    out["L_eps"] = float(interval_lipschitz(pi.min(), pi.max()))
    out["L_pi"] = float(1 / pi.min())
    out["xi"] = float(greedy_information_gain(K, lam, T)[-1])
    out["f_range"] = float(np.ptp(f))
    return out


# ------------------------------------------------------------------------------ statistics of the claims
def distribution_gaps(p, ell, f) -> tuple[float, float, float]:
    """r_bar = E_p f - E_ell f (eq. 27's distributional regret), KL(p || ell) and the total
    variation distance, as exact sums over the finite domain (``ell`` > 0 everywhere)."""
    p, ell, f = (np.asarray(a, dtype=float) for a in (p, ell, f))
    nz = p > 0
    return float(p @ f - ell @ f), float(np.sum(p[nz] * np.log(p[nz] / ell[nz]))), float(0.5 * np.abs(p - ell).sum())


def band_ratios(run: dict) -> tuple[float, float]:
    """Largest error-to-band ratios of a :func:`finite_run` over every step and domain point: with
    Theorem 1's beta_t (<= 1 when the band holds) and with beta = 1, the GP's own one-sigma band."""
    theorem = max(run["ratio"].max(), run["ratio_final"])
    one_sigma = max((run["ratio"] * run["beta"]).max(), run["ratio_final"] * run["beta_final"])
    return float(theorem), float(one_sigma)


def theorem2_holds(run: dict) -> bool:
    """Eq. 17 at every step, r_t <= L beta_{t-1} (sigma_{t-1}(x_t) + sigma_{t-1}(x*)), with L of eq. 11
    on [pi*(x_t), pi*(x*)] (:func:`interval_lipschitz`), and eq. 18 at T, R_T <= L beta_T (sqrt(4 (T + 2)
    xi_T) + sum_t sigma_{t-1}(x*)), with L the largest per-step constant of the run and the realised
    information gain I_T = 1/2 log|I + K_T / lambda| <= xi_T in place of xi_T. Eq. 18 is eq. 17 summed
    (with that L and beta_T >= beta_{t-1}) plus Lemma A.2 with I_T, both counted on the same runs (eq. 17
    here, A.2 as the notebook's invariant A2): it can fail only if one of them does; counted for
    completeness."""
    steps = np.all(run["regret"] <= run["L"] * run["beta"] * (run["sigma_at"] + run["sigma_opt"]) + 1e-12)
    T = len(run["regret"])
    total = run["regret"].sum() <= run["L"].max() * run["beta_final"] * (
        math.sqrt(4 * (T + 2) * 0.5 * run["log_det"]) + run["sigma_opt"].sum())
    return bool(steps and total)


def theorem3_holds(run: dict) -> bool:
    """Eq. 21 with the proof's indices, r_t <= 2 L beta_{t-1} sigma_{t-1}(x_t), at every step, and
    eq. 22, R_T <= 4 L beta_T sqrt((T + 2) xi_T), with L the largest per-step constant of the run
    and the realised information gain I_T = 1/2 log|I + K_T / lambda| <= xi_T in place of xi_T. Eq. 22
    is eq. 21 summed plus Lemma A.2 with I_T, both counted on the same runs: it can fail only if one of
    them does; counted for completeness."""
    steps = np.all(run["regret"] <= 2 * run["L"] * run["beta"] * run["sigma_at"] + 1e-12)
    T = len(run["regret"])
    total = run["regret"].sum() <= 4 * run["L"].max() * run["beta_final"] * math.sqrt((T + 2) * 0.5 * run["log_det"])
    return bool(steps and total)


def theorem4_holds(run: dict) -> dict:
    """The inequalities of Theorem 4 on a :func:`batch_run`, every round (each with the greedy lower
    bound on xi_T, a stronger check): ``kl_step`` KL_t <= 2 L_pi beta_{t-1} E_{p_hat_t} sigma_{t-1}
    (A.13-A.14); ``kl_sum`` sum KL_t <= 4 L_pi beta_T sqrt((T + 2) xi_T) (A.22); ``eq27`` r_bar_t <=
    2 L_eps L_pi beta_{t-1} E sigma_{t-1}; ``eq28`` sum r_bar_t <= 4 L_eps L_pi beta_T sqrt((T + 2) xi_T);
    ``pinsker`` r_bar_t <= (max f - min f) sqrt(KL_t / 2) (the defensible chain; deterministic). The sums
    take beta_{T-1}, the last round's beta, for beta_T (beta_t grows with t: a stricter check)."""
    T = len(run["kl"])
    kl_step = kl_step_bound(run)
    kl_sum = 4 * run["L_pi"] * run["beta"][-1] * math.sqrt((T + 2) * run["xi"])
    return {"kl_step": bool(np.all(run["kl"] <= kl_step + 1e-12)),
            "kl_sum": bool(run["kl"].sum() <= kl_sum),
            "eq27": bool(np.all(run["dist_regret"] <= run["L_eps"] * kl_step + 1e-12)),
            "eq28": bool(run["dist_regret"].sum() <= run["L_eps"] * kl_sum),
            "pinsker": bool(np.all(run["dist_regret"] <= run["f_range"] * np.sqrt(run["kl"] / 2) + 1e-12))}


def kl_step_bound(run: dict) -> np.ndarray:
    """Per round of a :func:`batch_run`, 2 L_pi beta_{t-1} E_{p_hat_t} sigma_{t-1} (A.13-A.14); times
    L_eps it is eq. 27's bound on r_bar_t."""
    return 2 * run["L_pi"] * run["beta"] * run["e_sigma"]


def theorem4_bounds_hold(checks: dict) -> bool:
    """Every inequality of :func:`theorem4_holds` (``checks``, its result) but Pinsker's chain, which is
    counted on its own."""
    return all(holds for name, holds in checks.items() if name != "pinsker")


def lemma_a2_sides(sigmas, lam: float, xi: float) -> dict:
    """Lemma A.2 for a sequence sigma_{i-1}(x_i), i = 1..N (prior variance k(x, x) = 1).

    ``sum``: sum_i sigma_{i-1}(x_i); ``realised``: sqrt(2 N I_N / log(1 + 1/lambda)) with I_N =
    1/2 sum log(1 + sigma^2 / lambda) (valid for every lambda > 0, since s <= log(1 + s / lambda) /
    log(1 + 1 / lambda) for s in [0, 1]); ``stated``: sqrt(4 (N + 2) xi_N), the paper's form (A.2),
    which follows from the first only when 2 / log(1 + 1/lambda) <= 4, i.e. lambda <= 1 / (e^{1/2} - 1)
    ~ 1.54. ``xi`` is xi_N or any upper bound on it (an upper bound makes a failure of the stated form conclusive).
    """
    s = np.asarray(sigmas, dtype=float)
    N, info = len(s), 0.5 * np.log1p(s ** 2 / lam).sum()
    return {"sum": float(s.sum()), "realised": float(math.sqrt(2 * N * info / math.log1p(1 / lam))),
            "stated": float(math.sqrt(4 * (N + 2) * xi)), "info": float(info)}


def lemma_a2_errors(sides: dict) -> tuple[float, float]:
    """Relative excess of sum sigma over the stated bound (A.2) and over the realised one."""
    return (max(0.0, sides["sum"] - sides["stated"]) / sides["sum"],
            max(0.0, sides["sum"] - sides["realised"]) / sides["sum"])


def lemma_a2_example(lam: float, N: int = 20, n_domain: int = 100, seed: int = 0) -> dict:
    """:func:`lemma_a2_sides` for the N most uncertain points chosen greedily on a D.1 domain at
    noise ``lam``, with the upper bound xi_N <= N/2 log(1 + 1/lambda) (each term of A.1 is at most
    1/2 log(1 + k(x, x) / lambda))."""
    X = d1_testbed(seed, n_domain)["X"]
    K = rbf(X, X)
    post, sigmas = GridPosterior(K, lam, max_points=N + 1), []
    for _ in range(N):
        i = int(np.argmax(post.var))
        sigmas.append(post.std[i])
        post.update(i, 0.0)
    return lemma_a2_sides(sigmas, lam, 0.5 * N * math.log1p(1 / lam))


def tail_exponents(cumulative, start: float = 0.25) -> np.ndarray:
    """Per-run log-log slopes of cumulative regret R_t over t in [start T, T] (1: linear growth, as
    uniform queries; < 1: sublinear, Theorem 3's rate). Runs with zero regret throughout that window
    give 0. A run that stops moving after some steps has R_t = c + r t, whose slope lies below 1: a
    slope does not detect "stuck" (:func:`stuck`)."""
    R = np.atleast_2d(np.asarray(cumulative, dtype=float))
    T = R.shape[1]
    t = np.arange(1, T + 1)
    window = t >= max(2, int(start * T))
    flat = R[:, window][:, -1] <= R[:, window][:, 0]
    slopes = loglog_slopes(t[window], np.maximum(R[:, window], 1e-300))
    return np.where(flat, 0.0, slopes)


#: the bounds whose growth :func:`bound_growth` gives
BOUNDS = ("theorem3", "theorem4", "theorem4-fixed", "bayes")


def eq22_order(T, xi, b: float = B) -> np.ndarray:
    """Eq. 22's order in T, constants dropped: sqrt(T) (b sqrt(xi_T) + xi_T), for any information gain ``xi``
    (an array over T). Its log-log slope tends to 1/2 + the growth exponent of xi_T, so the bound is
    sublinear only where xi_T = o(sqrt T)."""
    T, xi = np.asarray(T, dtype=float), np.asarray(xi, dtype=float)
    return np.sqrt(T) * (b * np.sqrt(xi) + xi)


def bound_growth(theorem: str, T, M: int = 1, n_domain: int = 100, b: float = B) -> np.ndarray:
    """The growth in T of a regret bound, constants dropped, with the SE kernel's xi_T = log^2 T in d = 1
    (Srinivas et al.'s O(log^{d+1} T), the rate the paper cites for Theorems 3 and 4):

    * ``"theorem3"``: sqrt(T) (b sqrt(xi_T) + xi_T) (eq. 22's order, :func:`eq22_order`);
    * ``"theorem4"``: sqrt(T) (b sqrt(xi_T) + sqrt(xi_T xi_MT)), T rounds of M points (eq. 28's order);
    * ``"theorem4-fixed"``: sqrt(T xi_T), the same proof with a fixed beta (A.16-A.22 with beta_t = beta: eq. 28's
      second term comes from beta_T's growth, A.23-A.24);
    * ``"bayes"``: sqrt(T xi_T log(|X| T^2 / sqrt(2 pi))) (Russo & Van Roy's Bayesian bound via GP-UCB,
      which App. B cites, on a domain of ``n_domain`` points)."""
    check_choice("bound", theorem, BOUNDS)
    T = np.asarray(T, dtype=float)
    xi = np.log(T) ** 2
    if theorem == "theorem3":
        return eq22_order(T, xi, b)
    if theorem == "theorem4":
        return np.sqrt(T) * (b * np.sqrt(xi) + np.sqrt(xi * np.log(M * T) ** 2))
    if theorem == "theorem4-fixed":
        return np.sqrt(T * xi)
    return np.sqrt(T * xi * np.log(n_domain * T ** 2 / math.sqrt(2 * math.pi)))


def bound_exponent(theorem: str, T: int, M: int = 1, start: float = 0.25) -> float:
    """The cut-off of a rate claim: :func:`tail_exponents` applied to the bound's own growth curve
    (:func:`bound_growth`) over the same window, t in [start T, T]. A run whose cumulative regret has a
    larger log-log slope there grows faster than the bound's shape at that horizon (which a bound with
    its constant can still allow while the regret catches up with it)."""
    return float(tail_exponents(bound_growth(theorem, np.arange(1, int(T) + 1), M)[None], start)[0])


def doubling_changes(taus) -> tuple[np.ndarray, np.ndarray]:
    """Per run (rows of ``taus``, tau_t in column t - 1), how much the threshold moves over the last
    doubling of the run and over the one before: |tau_T - tau_{T/2}| and |tau_{T/2} - tau_{T/4}|,
    windows of equal length in log t. A threshold approaching its limit like t^-a moves 2^-a times less
    in the later window; a drift like c log t, which never settles, moves equally in both (windows of
    equal length in t would show any concave drift, log t included, slowing down). App. C states only
    that tau_t converges, with no rate: this describes how far it has settled by T."""
    taus = np.atleast_2d(np.asarray(taus, dtype=float))
    T = taus.shape[1]
    return np.abs(taus[:, -1] - taus[:, T // 2 - 1]), np.abs(taus[:, T // 2 - 1] - taus[:, T // 4 - 1])


def stuck(indices, start: float = 0.5) -> np.ndarray:
    """Per run (rows of ``indices``, the queried domain indices x_1..x_T): True when the run queries
    one single point over t in [start T, T], the behaviour Theorem 2 allows BORE (eq. 15): once the
    argmax of pi_hat has a positive label it may never move (eq. 17's sigma_{t-1}(x*) does not shrink)."""
    idx = np.atleast_2d(np.asarray(indices))
    tail = idx[:, int(start * idx.shape[1]):]
    return np.all(tail == tail[:, :1], axis=1)
