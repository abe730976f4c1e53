"""Paper 000, EGP-TS (Lu, Polyzos, Li & Giannakis, "Surrogate modeling for Bayesian optimization
beyond a single Gaussian process", arXiv:2205.14090): experiment jobs and theory checks of the
notebook ``000_egpts``.

The algorithms themselves are in :mod:`bolib.algorithms.egp_ts`; this module holds what only the
paper's notebook runs: the exactly Bayesian setting of Theorems 1-3 (:func:`rf_exact_job`, whose
rules are the ask/tell :class:`ExactEnsembleTS` on a :func:`grid_problem`, run by
:func:`bolib.loop.run`) the data-dependent regret bound of eq. 30 (:func:`eq30_bound`) and Lemma 4's confidence set of members
(:func:`confidence_set_outside`), both with the one :func:`eta`, and the theory checks of the other lemmas (Lemma 2's
variance ratio through the one :func:`posterior_variance`, Assumption 1's derivative tails, eq. 7's gaps, the parallel
heuristic of Theorems 2 and 3). Its BO
runs, including E8's weight concentration (the ``history`` of an ``egp-ts`` run on the ``gp-draw``
benchmark), are :func:`bolib.loop.bo_job`.
"""
from __future__ import annotations

import math

import numpy as np

from bolib.algorithms.base import Optimizer
from bolib.benchmarks import Problem
from bolib.errors import check_choice
from bolib.loop import run
from bolib.models.ensemble import RFEnsemble, normalise
from bolib.models.grid import grid_kernel_matrix, unit_grid
from bolib.models.rff import RandomFeatures
from bolib.multistart import unit_cube
from bolib.runtime import rng as make_rng
from bolib.theory import greedy_information_gain

# ----------------------------------------------------------------- the exactly Bayesian setting
RF_EXACT_RULES = ("egp-ts", "egp-ts-frozen", "oracle", "single", "random")
#: ``egp-ts-frozen``: the ensemble stops learning after this fraction of T (the rate claims' contrast)
FROZEN_AFTER = 1 / 8


def grid_problem(values: np.ndarray, points_per_dim: int, dim: int, noise_std: float = 0.0) -> Problem:
    """``values`` on :func:`bolib.models.grid.unit_grid` as a problem on [0, 1]^dim: an input is evaluated
    at its nearest grid point, and the loop adds N(0, ``noise_std``^2) observation noise."""
    values = np.asarray(values, dtype=float)
    shape = (int(points_per_dim),) * int(dim)

    def fn(X):
        index = np.rint(np.clip(X, 0.0, 1.0) * (points_per_dim - 1)).astype(int)
        return values[np.ravel_multi_index(tuple(index.T), shape)]

    return Problem("grid", fn, unit_cube(dim), optimum=float(values.max()), noise_std=float(noise_std))


class ExactEnsembleTS(Optimizer):
    """Thompson sampling from the exact posterior of a random-feature GP ensemble on a finite domain.

    The members are the ``features`` that generated the objective (known hyperparameters, a common
    noise variance ``noise_std``^2, prior weights w_0 = 1/M, no refits), so the posterior is exact;
    each proposal draws m ~ Cat(w_t) and theta ~ p(theta | m, D_t) (eq. 8) and takes the exact argmax
    of phi_m^T theta over ``grid``, and each observation updates every member and its weight
    recursively (eqs. 10, 11). A batch draws its points from one posterior; pending points are
    ignored (parallel Thompson sampling, Algs. 1 and 2). With no features it proposes uniform grid
    points (random search). The prior is proper, so it proposes from the first ask (``n_init = 0``).

    ``weight_power`` p != 1 replaces the weights by w_t^p / sum_m (w_t^m)^p before each draw (with
    the uniform prior w_0, weights proportional to the p-th power of the evidence): p = 2 is an
    overconfident ensemble and p = 0 ignores the evidence (members drawn uniformly). Both break the
    martingale property of eq. 7 and serve as contrasts and negative controls of the theory checks.
    ``learn_until`` n: the ensemble absorbs only the first n observations and then keeps drawing from
    that posterior (a rule that stops learning: its expected regret per step stays constant from then on,
    small where the posterior had already concentrated on the maximiser).

    ``history`` holds per proposal the grid ``index`` proposed, the ``member`` drawn (-1 for random
    search), the ``weights`` w_t it was drawn from, and ``mu`` and ``sigma``, the drawn member's
    posterior mean and SD at the query (the terms of eq. 30 and of Lemma 4's confidence set).
    """

    name = "rf-exact-ts"
    proposes_from_prior = True

    def __init__(self, dim, seed=0, *, grid: np.ndarray, features: list[RandomFeatures], noise_std: float,
                 weight_power: float = 1.0, learn_until: int | None = None):
        super().__init__(dim, seed, n_init=0)
        self.grid = np.asarray(grid, dtype=float)
        self.weight_power = float(weight_power)
        self.learn_until, self.absorbed = learn_until, 0
        self.ensemble = RFEnsemble(features, [noise_std ** 2] * len(features)) if features else None
        self.Phis = [member(self.grid) for member in features]

    def propose(self, n):
        return self.grid[[self.draw() for _ in range(n)]]

    def draw(self) -> int:
        """One proposal: the index of its grid point; its diagnostics go to ``history``."""
        if self.ensemble is None:
            i = int(self.rng.integers(len(self.grid)))
            self.history.append({"index": i, "member": -1, "weights": np.array([]), "mu": np.nan, "sigma": np.nan})
            return i
        weights = self.weights()
        m, theta = self.ensemble.sample(self.rng, weights=weights)  # eq. 8 (RFEnsemble.sample)
        i = int(np.argmax(self.Phis[m] @ theta))
        mu, var = self.ensemble.models[m].predict(self.Phis[m][i:i + 1])
        self.history.append({"index": i, "member": m, "weights": weights, "mu": float(mu[0]),
                             "sigma": float(np.sqrt(var[0]))})
        return i

    def weights(self) -> np.ndarray:
        """The weights a member is drawn from: the posterior w_t (eq. 7), or w_t^p renormalised."""
        if self.weight_power == 1:
            return self.ensemble.weights
        tempered = self.weight_power * self.ensemble.log_weights
        return np.exp(normalise(tempered))

    def observe(self, X, y):
        if self.ensemble is not None:
            for x, value in zip(X, y):  # a batch is absorbed one point at a time (eqs. 10, 11)
                if self.learn_until is None or self.absorbed < self.learn_until:
                    self.ensemble.update(x[None], value)
                    self.absorbed += 1


def rf_exact_job(rule: str, seed: int, T: int, lengthscales=(0.03, 0.1, 0.3, 1.0), n_pairs: int = 50,
                 noise_std: float = 0.1, points_per_dim: int = 512, dim: int = 1, batch_size: int = 1,
                 mode: str = "sync", member: int = 0, weight_power: float = 1.0, truth: float | None = None,
                 all_weights: bool = False, frozen_after: float = FROZEN_AFTER) -> dict:
    """One run in the setting of Theorems 1-3: f is drawn from the EGP prior itself.

    Each seed draws random features for M RBF members (``lengthscales``), a true member m* ~ U{1..M}
    and theta* ~ N(0, I), so f = phi_{m*}^T theta* on a regular grid of [0, 1]^dim
    (:func:`grid_problem`). Rules (:class:`ExactEnsembleTS` with): ``egp-ts`` (the full ensemble,
    w_0 = 1/M), ``egp-ts-frozen`` (the same, learning from the first ceil(``frozen_after`` T) observations
    only), ``oracle`` (knows m*), ``single`` (only member ``member``), ``random`` (no members).
    :func:`bolib.loop.run` schedules the T evaluations with no initial design and draws the
    N(0, noise_std^2) observation noise and the Exp(1) durations from the seed's streams (shared by
    all rules): ``mode="sync"`` draws ``batch_size`` points per round from one posterior
    (``batch_size=1``: sequential), ``"async"`` keeps ``batch_size`` workers busy and redraws
    whenever one finishes. ``weight_power`` tempers the weights (:class:`ExactEnsembleTS`).

    With ``truth`` (a lengthscale, which must be one of ``lengthscales``), m* is that member instead
    of a uniform draw, and f is drawn from its own stream of the seed, so one seed gives the same f
    whatever the other members are (E5 varies the dictionary around a fixed truth); the member with
    that lengthscale uses the truth's features.

    Returns per evaluation (in order of completion): ``regret``, ``round`` (the batch; in async mode
    the proposal's index), ``time`` (simulated clock at completion), ``member`` drawn (an index
    into ``lengthscales``; -1 for random), ``w_star`` (posterior weight of m* before the draw; 0
    when m* is not a member) and ``w_square`` (sum_m w_m^2), ``mu`` and ``sigma`` (posterior mean
    and SD of the drawn member at the query: eq. 30 and Lemma 4's confidence set) and the
    observation ``y``; plus ``m_star``, the final ``weights``, the members ``used``, ``f_abs_max``
    = max |f| and ``n_domain``; with ``all_weights``, ``weights_t``, the weights of every draw
    (evaluations x used members).
    """
    check_choice("rule", rule, RF_EXACT_RULES)
    stream = make_rng(seed, "rf-exact")
    grid = unit_grid(points_per_dim, dim)
    features = [RandomFeatures("rbf", dim, n_pairs, stream, ls) for ls in lengthscales]
    if truth is None:
        m_star = int(stream.integers(len(features)))
        f = features[m_star](grid) @ stream.standard_normal(2 * n_pairs)
    else:
        lengths = [float(ls) for ls in lengthscales]
        m_star = lengths.index(check_choice("truth", float(truth), lengths))
        truth_stream = make_rng(seed, "rf-exact-truth")
        features[m_star] = RandomFeatures("rbf", dim, n_pairs, truth_stream, truth)
        f = features[m_star](grid) @ truth_stream.standard_normal(2 * n_pairs)
    everyone = list(range(len(features)))
    used = {"egp-ts": everyone, "egp-ts-frozen": everyone, "oracle": [m_star], "single": [member], "random": []}[rule]
    ts = ExactEnsembleTS(dim, seed, grid=grid, features=[features[j] for j in used], noise_std=noise_std,
                         weight_power=weight_power,
                         learn_until=math.ceil(frozen_after * T) if rule == "egp-ts-frozen" else None)
    trace = run(grid_problem(f, points_per_dim, dim, noise_std), ts, T, seed, n_init=0,
                batch_size=batch_size, mode=mode, durations="exponential")
    # ts.history is in the order of proposals, the trace in the order evaluations finished; points are
    # proposed in the order of their start times (ties: one batch, or the first workers, in worker order)
    proposals = np.lexsort((trace.worker, trace.start))
    if not np.array_equal(trace.X[proposals], grid[[h["index"] for h in ts.history]]):
        raise RuntimeError("the trace's start order is not the order of the proposals")
    history = [ts.history[k] for k in np.argsort(proposals)]
    weights = [h["weights"] for h in history]
    extra = {"weights_t": np.array(weights) if used else np.zeros((len(history), 0))} if all_weights else {}
    return {**extra, "regret": trace.optimum - trace.f, "round": trace.round.astype(float), "time": trace.end,
            "member": np.array([used[h["member"]] if used else -1 for h in history], dtype=float),
            "w_star": np.array([w[used.index(m_star)] if m_star in used else 0.0 if used else np.nan for w in weights]),
            "w_square": np.array([w @ w if used else np.nan for w in weights]),
            "mu": np.array([h["mu"] for h in history]), "sigma": np.array([h["sigma"] for h in history]),
            "y": trace.y, "m_star": m_star, "weights": ts.ensemble.weights if used else np.array([]), "used": used,
            "f_abs_max": float(np.abs(f).max()), "n_domain": len(grid)}


# ------------------------------------------------------------------------- Theorem 1's bound
def eta(T):
    """eta_T = 2 sqrt(log T): the width of Lemma 4's lower confidence values L = mu - eta_T sigma, and
    eta's factor of the leading term of eq. 30 (Theorem 1)."""
    return 2 * np.sqrt(np.log(T))


def eq30_bound(sigma_sum, M: int, sigma_n: float, B: float, n_domain: int) -> np.ndarray:
    """The data-dependent Bayesian-regret bound of Theorem 1 (eq. 30) on a finite domain, for T = 1, 2, ...

        BR(T) <= (eta_T + beta_T^{1/2}) sum_{t <= T} E[sigma^{m_t}_{t-1}(x_t)] + 2 sigma_n sqrt(M T log T)
                 + 6 M B + pi sqrt(2 pi) M / 12,

    with eta_T = 2 sqrt(log T) (:func:`eta`, the confidence set of Lemma 4) and beta_T = 2 log(T^2 |X|) on a domain
    X of ``n_domain`` points, where the discretisation terms A_1 = A_5 vanish and eq. 30's pi^2 d / 6
    is dropped (it bounds a continuous domain's discretisation). The last term is eq. 24's sum,
    sum_t M / (sqrt(2 pi) t^2) = M pi^2 / (6 sqrt(2 pi)) = pi sqrt(2 pi) M / 12; the paper prints
    sqrt(2 pi) M / 12 (erratum E-c2). ``sigma_sum[T - 1]`` is sum_{t <= T} E[sigma^{m_t}_{t-1}(x_t)] (estimated
    by the running sum of the mean over seeds of ``sigma`` from :func:`rf_exact_job`), ``B`` bounds
    E max |f| (Lemma 3), ``sigma_n`` is the noise SD and ``M`` the number of members. log T is read as
    log max(T, 2) in eta_T and in the sigma_n term, which can only raise the bound at T = 1.
    """
    sigma_sum = np.asarray(sigma_sum, dtype=float)
    T = np.arange(1, len(sigma_sum) + 1)
    log_T = np.log(np.maximum(T, 2))
    eta_T, beta_root = eta(np.maximum(T, 2)), np.sqrt(2 * np.log(T ** 2 * n_domain))
    return ((eta_T + beta_root) * sigma_sum + 2 * sigma_n * np.sqrt(M * T * log_T) + 6 * M * B
            + np.pi * np.sqrt(2 * np.pi) * M / 12)


# ------------------------------------------------------------------- Lemma 4's confidence set
def confidence_set_outside(member, mu, sigma, y, M: int, T: int, sigma_n: float) -> np.ndarray:
    """Lemma 4's confidence set of members along one run: ``outside[t, m]`` is True when member m is
    *not* in C_{t+1} (t = 0..T-1, so row t uses the evaluations before the (t+1)-th).

    With L_tau^m = mu^m_{tau-1}(x_tau) - eta sigma^m_{tau-1}(x_tau), eta = 2 sqrt(log T) (:func:`eta`), the sum over
    the evaluations that drew member m, G_t^m = sum_{tau < t, m_tau = m} (L_tau^m - y_tau), and their
    number N_{t-1}^m, C_t = {m : G_t^m <= 2 sigma_n sqrt(N_{t-1}^m log T)}. ``member``, ``mu``,
    ``sigma`` and ``y`` are per evaluation, in order, as returned by :func:`rf_exact_job` (the drawn
    member, its posterior mean and SD at the query, the observation); only the drawn member's own
    terms enter its sum, as in the lemma. Lemma 4: Pr(m* not in C_t) <= 2M/T.

    The set can only exclude a member whose lower confidence values L keep exceeding what is observed:
    a member that is optimistic about the points it proposes, or data noisier than ``sigma_n``
    (the negative controls of ``tests/papers/test_egp_ts_checks.py``).
    """
    member = np.asarray(member, dtype=int)
    lower_minus_y = np.asarray(mu, dtype=float) - eta(T) * np.asarray(sigma, dtype=float) - np.asarray(y, dtype=float)
    if not (len(member) == len(lower_minus_y) == T):
        raise ValueError(f"member, mu, sigma and y need T = {T} entries, got {len(member)} and {len(lower_minus_y)}")
    drawn = member[:, None] == np.arange(M)[None, :]                      # T x M
    G = np.cumsum(np.where(drawn, lower_minus_y[:, None], 0.0), axis=0)   # sums up to and including t
    N = np.cumsum(drawn, axis=0)
    # row t: the evaluations before the (t+1)-th, i.e. the sums up to t - 1 (zero at t = 0)
    G = np.vstack([np.zeros(M), G[:-1]])
    N = np.vstack([np.zeros(M), N[:-1]])
    return G > 2 * sigma_n * np.sqrt(N * np.log(T))


# ----------------------------------------------------------------- theory checks of Sec. 5
def information_gain_job(kernel: str, dim: int, seed: int, T: int, n_candidates: int = 2000,
                         lengthscale: float = 0.2, noise: float = 0.01) -> dict:
    """Lemma 1: the greedy information gain gamma_t, t = 1..T, over ``n_candidates`` uniform points
    of [0, 1]^dim drawn from the seed (:func:`bolib.theory.greedy_information_gain`, within 1 - 1/e
    of the maximum). ``kernel="white"`` is the kernel without any smoothness (K = I), whose gain
    grows linearly in T: the contrast of the sublinearity claim."""
    X = make_rng(seed, "e1", dim).random((n_candidates, dim))
    K = np.eye(n_candidates) if kernel == "white" else grid_kernel_matrix(kernel, X, lengthscale)
    return {"gain": greedy_information_gain(K, noise, T)}


def derivative_tail_job(kernel: str, seed: int, n_draws: int, n_pairs: int = 250, lengthscale: float = 0.2,
                        points: int = 250, chunk: int = 50) -> dict:
    """Assumption 1 and Lemma 3: ``n_draws`` sample paths of the random-feature prior of ``kernel`` on
    [0, 1] (eqs. 14-16, 19), each with its *own* features and weights, and per path L_max =
    max_x |f'(x)| (analytic derivative) and max_x |f(x)| on ``points`` grid points.

    Fresh features per path sample the random-feature prior itself. With one fixed set of features
    every path would be a Gaussian process, whose supremum has a Gaussian tail whatever the kernel,
    so only fresh features let the tail of L_max show the kernel's spectral tail (eq. 19).

    Each path is f = phi(x)^T theta with phi the :class:`RandomFeatures` map (eqs. 15, 16); its
    derivative differentiates the cos and sin halves of phi, d/dx [cos(omega x), sin(omega x)] =
    omega [-sin(omega x), cos(omega x)]. A chunk of ``chunk`` paths draws its features, then its weights.
    """
    stream = make_rng(seed, "e3", kernel)
    x = np.linspace(0.0, 1.0, points)[:, None]
    L_max, f_max = np.empty(n_draws), np.empty(n_draws)
    for start in range(0, n_draws, chunk):
        k = min(chunk, n_draws - start)
        features = [RandomFeatures(kernel, 1, n_pairs, stream, lengthscale) for _ in range(k)]
        theta = stream.standard_normal((k, 2 * n_pairs))
        for j, (phi, weights) in enumerate(zip(features, theta)):
            Phi = phi(x)                                                   # eq. 15 at the grid points
            dPhi = np.hstack([-Phi[:, n_pairs:], Phi[:, :n_pairs]]) * np.tile(phi.omega[:, 0], 2)
            L_max[start + j], f_max[start + j] = np.abs(dPhi @ weights).max(), np.abs(Phi @ weights).max()  # eq. 16
    return {"L_max": L_max, "f_abs_max": f_max}


def standardised_tail(samples) -> tuple[np.ndarray, np.ndarray]:
    """``samples`` sorted and standardised, z = (L - median) / SD, with their empirical distribution
    function q_i = i / (n + 1), so that P(L_max > L_i) is estimated by 1 - q_i (Assumption 1's tail)."""
    L = np.sort(np.asarray(samples, dtype=float))
    return (L - np.median(L)) / L.std(), np.arange(1, len(L) + 1) / (len(L) + 1)


def tail_curvature(samples, lower: float = 0.5, upper: float = 0.995) -> float:
    """Curvature of the log-survival function of ``samples`` over their upper tail (Assumption 1).

    With z = (L - median) / SD, the least-squares fit log P(L_max > L) = a + b z + c z^2 over the
    samples between the ``lower`` and ``upper`` empirical quantiles returns c. A Gaussian tail,
    P(L_max > L) <= a e^{-L^2 / b^2}, is concave in L (c < 0; about -0.33 for a normal sample, whose
    hazard grows linearly); an exponential tail is a straight line (c = 0) and a heavier tail bends
    upwards (c > 0). Shift and scale of the samples do not change c.
    """
    z, q = standardised_tail(samples)
    keep = (q >= lower) & (q <= upper)
    design = np.vstack([np.ones(keep.sum()), z[keep], z[keep] ** 2]).T
    return float(np.linalg.lstsq(design, np.log1p(-q[keep]), rcond=None)[0][2])


def posterior_variance(K: np.ndarray, idx, noise: float, rows=None) -> np.ndarray:
    """The GP posterior variance given noisy observations at the points ``idx``,

        sigma^2_idx(x) = k(x, x) - k_idx(x)^T (K_idx,idx + noise I)^{-1} k_idx(x),

    at the points ``rows`` (all points by default), with ``K`` the prior kernel matrix of the points
    (Lemma 2's sigma^2_A and sigma^2_{A u B}, and the greedy choice of :func:`greedy_pending_set`)."""
    idx = list(idx)
    rows = np.arange(len(K)) if rows is None else np.asarray(rows)
    if not idx:
        return np.diag(K)[rows]
    Kss = K[np.ix_(idx, idx)] + noise * np.eye(len(idx))
    return np.diag(K)[rows] - np.einsum("ij,ji->i", K[np.ix_(rows, idx)], np.linalg.solve(Kss, K[np.ix_(idx, rows)]))


def pending_variance_ratio(K: np.ndarray, A, B, noise: float) -> tuple[np.ndarray, float]:
    """Lemma 2 on a finite set: with ``K`` the prior kernel matrix of the points (the rows not in A or
    B are the evaluation points x), returns sigma^2_A(x) / sigma^2_{A u B}(x) at every point
    (:func:`posterior_variance`), and exp(2 I(f; y_B | y_A)), which bounds the ratio (Lemma 2's
    proof; <= (1 + 1/noise)^{|B|} when k(x, x) <= 1)."""
    A, AB = list(A), list(A) + list(B)

    def half_logdet(idx):
        return 0.5 * np.linalg.slogdet(np.eye(len(idx)) + K[np.ix_(idx, idx)] / noise)[1] if idx else 0.0

    info = half_logdet(AB) - half_logdet(A)  # I(f; y_B | y_A)
    return (posterior_variance(K, A, noise) / np.maximum(posterior_variance(K, AB, noise), 1e-300),
            float(np.exp(2 * info)))


def greedy_pending_set(K: np.ndarray, A, size: int, noise: float, candidates) -> list[int]:
    """B of ``size`` points chosen one at a time where the posterior variance given A and the points
    chosen so far is largest (the worst case for Lemma 2: the most informative pending points)."""
    chosen: list[int] = []
    cand = np.asarray(candidates)
    for _ in range(size):
        var = posterior_variance(K, list(A) + chosen, noise, cand)
        chosen.append(int(cand[np.argmax(var)]))
    return chosen


def martingale_gaps(weights_t: np.ndarray, checkpoints, w0: np.ndarray) -> np.ndarray:
    """Eq. 7 makes the weights a martingale: E[w_t^m] = w_0^m at every t when m* ~ w_0. Per seed
    (rows of ``weights_t``, seeds x evaluations x members), the mean over the ``checkpoints``
    (1-based evaluation counts) of w_t^m - w_0^m; seeds x members, mean zero under the claim."""
    idx = np.asarray(checkpoints, dtype=int) - 1
    return (np.asarray(weights_t, dtype=float)[:, idx, :] - np.asarray(w0, dtype=float)).mean(axis=1)


def bayes_identity_gaps(w_star: np.ndarray, w_square: np.ndarray, checkpoints) -> np.ndarray:
    """If m* is drawn from the posterior weights, E[w_t^{m*}] = E[sum_m (w_t^m)^2] (condition on D_t:
    E[w^{m*} | D_t] = sum_m w^m w^m). Per seed (rows, seeds x evaluations), the mean over the
    ``checkpoints`` of w_t^{m*} - sum_m (w_t^m)^2: mean zero for calibrated weights, negative for
    overconfident ones."""
    idx = np.asarray(checkpoints, dtype=int) - 1
    return (np.asarray(w_star, dtype=float)[:, idx] - np.asarray(w_square, dtype=float)[:, idx]).mean(axis=1)


def largest_mean_gap(per_seed: np.ndarray, level: float = 0.95, n_resamples: int = 2000,
                     seed: int = 0) -> tuple[float, tuple[float, float]]:
    """max_m |mean over seeds of column m| with a percentile bootstrap interval over seeds (rows):
    the largest deviation of a member's mean weight from its prior (:func:`martingale_gaps`)."""
    x = np.asarray(per_seed, dtype=float)
    stat = lambda rows: float(np.abs(rows.mean(axis=0)).max())  # noqa: E731
    rng = np.random.default_rng(seed)
    boot = [stat(x[rng.integers(len(x), size=len(x))]) for _ in range(n_resamples)]
    tail = (1 - level) / 2
    return stat(x), (float(np.quantile(boot, tail)), float(np.quantile(boot, 1 - tail)))


def parallel_heuristic(BR_1, rho_K: float, B: float, K: int):
    """A heuristic reading of Theorems 2 and 3 against the sequential run (not a bound the paper
    states: the theorems bound BR_K by c_1 sqrt(rho_K M T^{c+1} log T) plus constants). Their leading
    term is sqrt(rho_K) times Theorem 1's, and K - 1 pending points can each cost at most 2B
    (Lemma 3), which suggests BR_K(T) <= sqrt(rho_K) BR_1(T) + (K - 1) 2B; returns that right-hand
    side for the sequential regret ``BR_1`` (a number or an array)."""
    return np.sqrt(rho_K) * np.asarray(BR_1, dtype=float) + (K - 1) * 2 * B


def parallel_excess(BR_K: np.ndarray, BR_1: np.ndarray, rho_K: float, B: float, K: int) -> np.ndarray:
    """Per seed (rows of ``BR_K`` and ``BR_1``, paired: the same f), the largest excess over the
    heuristic of :func:`parallel_heuristic`, max_T [BR_K(T) - sqrt(rho_K) BR_1(T) - (K - 1) 2B]."""
    excess = np.asarray(BR_K, dtype=float) - parallel_heuristic(BR_1, rho_K, B, K)
    return excess.max(axis=1)
