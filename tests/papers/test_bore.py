"""Paper 003's theory checks (bolib.papers.bore): each statistic a claim is decided on gets a case
that satisfies the claim (the declared rule says "reproduced" or the invariant holds) and a case
that violates it (negative control: "not reproduced", or the invariant breaks)."""
import math

import numpy as np
import pytest
from scipy import stats as sps

from bolib.claims import ClaimBook, InvariantViolated, rules
from bolib.errors import BolibError
from bolib.models.grid import GridPosterior
from bolib.papers import bore as pb


@pytest.fixture(scope="module")
def runs():
    seeds = range(8)
    return {rule: [pb.finite_run(rule, s, 120) for s in seeds] for rule in ("bore", "bore++", "bore-ts", "uniform")}


def test_d1_testbed_follows_eq_d1_and_eq10():
    tb = pb.d1_testbed(0)
    a, c = tb["alpha"], tb["centres"]
    assert math.isclose(a @ pb.rbf(c, c) @ a, 1.0)  # ||pi*||_k = 1 (eq. D.2)
    assert 0 < tb["pi"].min() and tb["pi"].max() <= 1
    np.testing.assert_allclose(pb.class_probability(tb["f"], tb["tau"]), tb["pi"], atol=1e-10)  # eq. 10
    pi, f = pb.d1_values(c, a, tb["X"], tb["tau"])  # the same pi* and f anywhere, here on the domain
    np.testing.assert_array_equal(pi, tb["pi"])
    np.testing.assert_array_equal(f, tb["f"])
    # negative control: the round trip with a wrong noise scale fails
    assert np.abs(sps.norm.cdf((tb["tau"] - tb["f"]) / 0.2) - tb["pi"]).max() > 1e-3


def test_lemma1_holds_for_unbounded_noise_and_footnote3_fails_outside_the_support():
    f = pb.d1_testbed(1)["f"]
    for noise in ("gaussian", "student-t3", "cauchy", "laplace"):
        for tau in np.linspace(f.min() - 1, f.max() + 1, 9):
            assert pb.lemma1_gap(f, noise, tau) == 0.0
    below = pb.lemma1_gap(f, "uniform", f.min() - 0.2)  # pi = 0 everywhere: every point is a maximiser
    above = pb.lemma1_gap(f, "uniform", f.min() + 0.2)  # pi = 1 at every f <= tau - 0.1
    inside = max(pb.lemma1_gap(f, "uniform", f.min() + d) for d in np.linspace(-0.099, 0.1, 20))
    assert below == pytest.approx(np.ptp(f)) and above > 0 and inside == 0.0
    assert rules.erratum(max(below, above), inside, tolerance=1e-12).verdict == "reproduced"
    # negative control: with tau inside the support the paper's extension holds, no erratum
    assert rules.erratum(inside, inside, tolerance=1e-12).verdict == "not reproduced"


def test_eq11_lipschitz_bound_holds_and_the_midpoint_slope_is_too_small(runs):
    book = ClaimBook("003_test", "smoke")
    holds, midpoint = [], []
    for seed, run in enumerate(runs["bore++"]):
        pi = pb.d1_testbed(seed)["pi"]
        gap = pi.max() - run["pi_at"]
        holds.append(run["regret"] <= run["L"] * gap + 1e-12)
        midpoint.append(run["regret"] <= pb.NOISE_STD / sps.norm.pdf(0) * gap + 1e-12)
    book.invariant("E11", "eq. 11", "always", np.concatenate(holds), origin="check")
    with pytest.raises(InvariantViolated):  # the smallest slope of Phi^{-1} is not a Lipschitz constant
        book.invariant("E11-wrong", "eq. 11 with sigma/phi(0)", "always", np.concatenate(midpoint), origin="check")


def test_theorem1_band_covers_and_a_one_sigma_band_does_not(runs):
    ratios = np.array([pb.band_ratios(r) for r in runs["bore++"] + runs["uniform"]])
    assert rules.coverage(ratios[:, 0] <= 1, level=0.9, margin=0.15).verdict == "reproduced"
    assert rules.coverage(ratios[:, 1] <= 1, level=0.9, margin=0.15).verdict == "not reproduced"
    rate = rules.rate(ratios[:, 0], (0.0, 1.0), contrast=ratios[:, 1], contrast_label="beta = 1")
    assert rate.verdict == "reproduced"
    assert rules.rate(ratios[:, 1], (0.0, 1.0)).verdict == "not reproduced"


def test_lemma_a1_and_a3_hold_and_prior_variances_break_a1(runs):
    book = ClaimBook("003_test", "smoke")
    for run in runs["bore++"]:
        book.invariant("A1", "Lemma A.1", "equal", [abs(run["log_det"] - 2 * run["gain"].sum()) <= 1e-8 * run["log_det"]], origin="check")
        book.invariant("A3", "Lemma A.3", "always", run["var_increase"] <= 1e-12, origin="check")
    run = runs["bore++"][0]
    prior = len(run["gain"]) * math.log1p(1 / run["lam"])  # no conditioning: every term at sigma = 1
    with pytest.raises(InvariantViolated):
        book.invariant("A1-wrong", "Lemma A.1 with prior variances", "equal", [abs(run["log_det"] - prior) <= 1e-8 * prior], origin="check")


def test_theorem2_cumulative_bound_eq18_separates_a_small_and_a_large_information_gain():
    # four steps of regret 1 with L = beta = sigma_{t-1}(x_t) = 1 and sigma_{t-1}(x*) = 0: eq. 17 holds at every
    # step; eq. 18 needs sqrt(4 (T + 2) I_T) >= R_T = 4, i.e. I_T >= 2/3
    run = {"regret": np.ones(4), "L": np.ones(4), "beta": np.ones(4), "beta_final": 1.0, "sigma_at": np.ones(4),
           "sigma_opt": np.zeros(4)}
    assert pb.theorem2_holds({**run, "log_det": 2 * 0.7})
    # negative control: with a (wrongly) tiny information gain the cumulative bound breaks, the per-step one does not
    assert not pb.theorem2_holds({**run, "log_det": 2 * 0.6})


def test_label_smoother_gives_the_pls_mean_for_new_labels_and_the_posterior_mean_does_not():
    tb, lam = pb.d1_testbed(5), pb.LAMBDA
    K, rng = tb["K"], np.random.default_rng(0)
    idx = rng.integers(0, 100, 40)  # with repeats, as a run that re-queries a point
    old, new = rng.random(40) < 0.5, rng.random(40) < 0.3  # labels at the time of each query, and relabelled
    post, smoother = GridPosterior(K, lam, max_points=41), pb.LabelSmoother(100, 40)
    for i, z in zip(idx, old):
        smoother.update(post, i, float(z))
    exact = K[:, idx] @ np.linalg.solve(K[np.ix_(idx, idx)] + lam * np.eye(40), new.astype(float))  # eq. 13
    np.testing.assert_allclose(smoother.mean(new), exact, atol=1e-9)
    np.testing.assert_allclose(smoother.mean(old), post.mean, atol=1e-9)
    # negative control: the posterior conditioned on the old labels is not the classifier of the new ones
    assert np.abs(post.mean - exact).max() > 0.1


@pytest.mark.parametrize("seed", [2, 7])
def test_moving_threshold_run_matches_eq13_solved_directly_at_every_step(seed):
    T, lam = 60, pb.LAMBDA
    run, tb = pb.finite_run("bore++-moving", seed, T), pb.d1_testbed(seed)
    K, f = tb["K"], tb["f"]
    y = f[run["index"]] + pb.NOISE_STD * pb.make_rng(seed, "noise").standard_normal(T)
    stale = []
    for t in range(2, T + 1):
        idx, tau, beta = run["index"][: t - 1], run["tau"][t - 1], run["beta"][t - 1]
        A = K[np.ix_(idx, idx)] + lam * np.eye(t - 1)
        sd = np.sqrt(np.maximum(1 - np.einsum("ij,ji->i", K[:, idx], np.linalg.solve(A, K[idx, :])), 0.0))
        target = sps.norm.cdf((tau - f) / pb.NOISE_STD)
        mean = K[:, idx] @ np.linalg.solve(A, (y[: t - 1] <= tau).astype(float))  # eq. 13, labels of tau_t
        assert run["index"][t - 1] == np.argmax(mean + beta * sd)
        assert run["ratio"][t - 1] == pytest.approx(np.max(np.abs(target - mean) / (beta * sd)), rel=1e-8)
        # negative control: each label kept as it was when its point was queried (no relabelling)
        old = K[:, idx] @ np.linalg.solve(A, (y[: t - 1] <= run["tau"][: t - 1]).astype(float))
        stale.append(np.max(np.abs(target - old) / (beta * sd)))
    assert np.max(np.abs(np.array(stale) - run["ratio"][1:])) > 1e-6


def test_label_smoother_refuses_a_posterior_that_skips_a_repeated_point():
    K = pb.d1_testbed(0)["K"]
    post, smoother = GridPosterior(K, 1e-10, max_points=3), pb.LabelSmoother(100, 3)
    smoother.update(post, 4, 1.0)
    with pytest.raises(BolibError, match="did not add a row"):
        smoother.update(post, 4, 0.0)  # the noise-free posterior records the repeat without a row
    # with the label noise of eq. 13 a repeat adds its row
    post, smoother = GridPosterior(K, pb.LAMBDA, max_points=3), pb.LabelSmoother(100, 3)
    smoother.update(post, 4, 1.0)
    smoother.update(post, 4, 0.0)
    assert smoother.n == post.n == 2


def test_lemma_a2_stated_form_fails_above_lambda_154_only():
    assert rules.erratum(*pb.lemma_a2_errors(pb.lemma_a2_example(100.0)), tolerance=1e-9).verdict == "reproduced"
    # negative control: at the paper's lambda the stated form holds, so the erratum rule says no
    assert rules.erratum(*pb.lemma_a2_errors(pb.lemma_a2_example(0.025)), tolerance=1e-9).verdict == "not reproduced"
    assert 1 / (math.exp(0.5) - 1) == pytest.approx(1.5415, abs=1e-4)


def test_theorem2_and_3_bounds_hold_and_inflated_regret_breaks_them(runs):
    assert all(pb.theorem2_holds(r) for r in runs["bore"]) and all(pb.theorem3_holds(r) for r in runs["bore++"])
    inflated = [{**r, "regret": r["regret"] * 1e3} for r in runs["bore++"]]
    assert not any(pb.theorem3_holds(r) for r in inflated) and not any(pb.theorem2_holds(r) for r in inflated)
    hits = [pb.theorem3_holds(r) for r in inflated] * 4
    assert rules.coverage(hits, level=0.9, margin=0.15).verdict == "not reproduced"


def test_tail_exponents_separate_stuck_from_converging(runs):
    R = {k: np.array([np.cumsum(r["regret"]) for r in v]) for k, v in runs.items()}
    stuck, ts, uniform = pb.tail_exponents(R["bore"]), pb.tail_exponents(R["bore-ts"]), pb.tail_exponents(R["uniform"])
    assert rules.rate(ts, (0.0, 0.9), contrast=uniform, contrast_label="uniform").verdict == "reproduced"
    # negative controls: uniform queries violate a sublinear claim; a converging run is not "stuck"
    assert rules.rate(uniform, (0.0, 0.9)).verdict == "not reproduced"
    assert rules.rate(ts, (0.9, 1.1)).verdict == "not reproduced"
    assert pb.tail_exponents(np.outer(np.ones(2), np.arange(1, 101))) == pytest.approx([1, 1])
    assert pb.tail_exponents(np.ones((1, 50))) == pytest.approx([0])


def test_exact_batch_sampling_draws_from_p_hat():
    rng = np.random.default_rng(0)
    p = pb.sampling_distribution(np.linspace(-0.5, 1.5, 40))  # clipped to [0, 1] (eq. 20), then normalised
    assert p[:10].sum() == 0 and np.all(p[-10:] == p[-1])
    counts = np.bincount(pb.exact_batch(p, 20000, rng), minlength=40)
    support = p > 0
    assert counts[~support].sum() == 0
    assert sps.chisquare(counts[support], 20000 * p[support]).pvalue > 1e-3
    # negative control: a sampler that ignores p (uniform on the support) is rejected
    wrong = np.bincount(rng.choice(np.flatnonzero(support), 20000), minlength=40)
    assert sps.chisquare(wrong[support], 20000 * p[support]).pvalue < 1e-6


def test_theorem4_inequalities_hold_and_a_far_distribution_breaks_them():
    run = pb.batch_run("bore++", 0, 15, 5)
    assert all(pb.theorem4_holds(run).values())
    tb = pb.d1_testbed(0)
    worst = np.zeros(len(tb["f"]))
    worst[np.argmax(tb["f"])] = 1.0  # all mass on the worst point
    r_bar, kl, _ = pb.distribution_gaps(worst, tb["pi"] / tb["pi"].sum(), tb["f"])
    fake = {**run, "kl": np.full(15, kl), "dist_regret": np.full(15, r_bar), "e_sigma": np.full(15, 1e-12)}
    checks = pb.theorem4_holds(fake)
    assert not checks["kl_step"] and not checks["eq27"]
    assert pb.theorem4_bounds_hold(pb.theorem4_holds(run)) and not pb.theorem4_bounds_hold(checks)
    assert checks["pinsker"]  # Pinsker's chain is an identity of distributions: it holds for any p
    # negative control: with a mis-computed (here zero) KL the chain breaks
    assert not pb.theorem4_holds({**fake, "kl": np.zeros(15)})["pinsker"]
    # the summed bounds (A.22, eq. 28) hold on the real run and break when the information gain is (wrongly) tiny
    assert checks["kl_sum"] and checks["eq28"]
    summed = pb.theorem4_holds({**fake, "xi": 1e-12})
    assert not summed["kl_sum"] and not summed["eq28"]


def test_rkhs_norm_of_eq_d5_recovers_a_known_norm():
    X = np.linspace(0, 1, 30)
    K = pb.rbf(X, X, 0.3)
    idx, alpha = [3, 12, 25], np.array([0.5, -0.2, 0.8])
    f = K[:, idx] @ alpha  # an element of the RKHS with ||f||_k^2 = alpha^T K_idx alpha
    exact = math.sqrt(alpha @ K[np.ix_(idx, idx)] @ alpha)
    assert pb.rkhs_norm(f, K) == pytest.approx(exact, rel=1e-3)
    assert abs(np.linalg.norm(f) - exact) > 0.1  # negative control: the Euclidean norm of the values is not it


def test_stuck_flags_a_run_that_stops_moving_and_not_one_that_moves():
    stuck_run = np.r_[[3, 5, 7], np.full(97, 7)]
    moving = np.r_[[3, 5, 7], np.tile([7, 8], 48), [9]]
    assert pb.stuck([stuck_run, moving]).tolist() == [True, False]
    # the slope of R_t = c + r t over [T/4, T] lies below 1: a slope cannot say "stuck"
    assert pb.tail_exponents(5.0 + 0.1 * np.arange(1, 201))[0] < 0.9
    # the declared rule (T2-stuck): stuck in more than half of the trials, binomial coverage rule
    rng = np.random.default_rng(0)
    assert not pb.stuck(rng.integers(0, 100, (20, 100))).any()  # uniform queries, reported beside it, never stick
    stuck_trials = pb.stuck(np.tile(stuck_run, (20, 1)))
    assert rules.coverage(stuck_trials, level=0.5, margin=0.0).verdict == "reproduced"
    # negative control: runs that keep moving are not stuck in most trials
    assert rules.coverage(pb.stuck(np.tile(moving, (20, 1))), level=0.5, margin=0.0).verdict == "not reproduced"


def test_prior_root_is_a_square_root_of_a_singular_kernel_matrix():
    X = np.linspace(0, 1, 60)
    K = pb.rbf(X, X)  # numerically singular
    R = pb.prior_root(K)
    np.testing.assert_allclose(R @ R.T, K, atol=1e-10)
    lam, U = np.linalg.eigh(K)
    wrong = U * np.maximum(lam, 0)  # negative control: the eigenvalues without their square root
    assert np.abs(wrong @ wrong.T - K).max() > 1e-3


def test_posterior_draw_has_the_pls_posterior_mean_and_covariance():
    X = np.linspace(0, 1, 12)
    K, lam = pb.rbf(X, X, 0.3), 0.1
    idx, z = [2, 7, 9], np.array([1.0, 0.0, 1.0])
    A = np.linalg.solve(K[np.ix_(idx, idx)] + lam * np.eye(3), K[idx])
    mean, cov = K[:, idx] @ np.linalg.solve(K[np.ix_(idx, idx)] + lam * np.eye(3), z), K - K[:, idx] @ A
    rng, root = np.random.default_rng(0), pb.prior_root(K)
    draws = np.array([pb.posterior_draw(K, root, idx, z, lam, rng) for _ in range(20000)])
    np.testing.assert_allclose(draws.mean(0), mean, atol=0.03)
    np.testing.assert_allclose(np.cov(draws.T), cov, atol=0.03)
    # negative control: Matheron's rule without the label-noise term gives too small a variance at the data
    g = root @ rng.standard_normal((12, 20000))
    noiseless = g + K[:, idx] @ np.linalg.solve(K[np.ix_(idx, idx)] + lam * np.eye(3), z[:, None] - g[idx])
    assert np.abs(np.cov(noiseless)[idx, idx] - cov[idx, idx]).max() > 0.02


def test_moving_threshold_is_the_gamma_quantile_of_the_observations_so_far():
    T, seed = 30, 3
    run = pb.finite_run("bore++-moving", seed, T)
    tb = pb.d1_testbed(seed)
    y = tb["f"][run["index"]] + pb.NOISE_STD * pb.make_rng(seed, "noise").standard_normal(T)
    expected = [tb["tau"]] + [np.quantile(y[:t], tb["gamma"], method="inverted_cdf") for t in range(1, T)]
    np.testing.assert_allclose(run["tau"], expected)
    # negative control: BORE++ with a fixed threshold does not follow the quantile
    assert np.abs(pb.finite_run("bore++", seed, T)["tau"] - expected).max() > 1e-3


def test_gp_ucb_beta_is_durand_et_al_with_the_rkhs_norm_of_f():
    T, seed = 25, 1
    run = pb.finite_run("gp-ucb", seed, T)
    tb = pb.d1_testbed(seed)
    log_det = np.r_[0.0, np.cumsum(2 * run["gain"])[:-1]]
    scale = pb.NOISE_STD / math.sqrt(pb.LAMBDA_UCB)
    expected = pb.rkhs_norm(tb["f"], tb["K"]) + scale * np.sqrt(2 * (0.5 * log_det + math.log(1 / pb.DELTA)))
    np.testing.assert_allclose(run["beta"], expected, rtol=1e-10)
    # negative control: Theorem 1's beta of the class-probability runs is a different sequence
    assert np.abs(pb.finite_run("bore++", seed, T)["beta"][0] - expected[0]) > 1


def test_distribution_gaps_match_hand_computed_values():
    p, ell, f = np.array([0.5, 0.5, 0.0]), np.array([0.25, 0.25, 0.5]), np.array([0.0, 1.0, 2.0])
    r_bar, kl, tv = pb.distribution_gaps(p, ell, f)
    assert r_bar == pytest.approx(0.5 - 1.25) and kl == pytest.approx(math.log(2)) and tv == pytest.approx(0.5)
    assert pb.distribution_gaps(ell, ell, f) == pytest.approx((0.0, 0.0, 0.0))  # control: no gap to itself


def test_a_fixed_beta_makes_batch_sampling_non_uniform_where_the_theory_beta_is_flat():
    literal, fixed = pb.batch_run("bore++", 0, 20, 5), pb.batch_run("bore++", 0, 20, 5, beta=3.0)
    assert np.all(fixed["beta"] == 3.0) and literal["beta"][0] > 10
    assert literal["flat"].mean() == 1.0 and fixed["flat"].mean() < 0.5
    slopes = pb.tail_exponents(np.array([np.cumsum(fixed["dist_regret"]), np.cumsum(literal["dist_regret"])]))
    assert slopes[0] < 0.9 and slopes[1] == pytest.approx(1.0)


def test_bayesian_thompson_sampling_is_sublinear_and_uniform_queries_are_not():
    runs = {r: [pb.bayes_ts_run(r, s, 80) for s in range(6)] for r in pb.BAYES_RULES}
    assert all(run["index"][0] == pb.d1_testbed(s)["x1"] and run["regret"].min() >= 0
               for rs in runs.values() for s, run in enumerate(rs))
    slopes = {r: pb.tail_exponents(np.array([np.cumsum(x["regret"]) for x in rs])) for r, rs in runs.items()}
    assert rules.rate(slopes["gp-ts"], (0.0, 0.9), contrast=slopes["uniform"]).verdict == "reproduced"
    # negative control: uniform queries violate the sublinear claim
    assert rules.rate(slopes["uniform"], (0.0, 0.9)).verdict == "not reproduced"


def test_lemma1_monte_carlo_frequencies_cover_the_class_probability_and_a_wrong_scale_does_not():
    f, rng = pb.d1_testbed(2)["f"], np.random.default_rng(0)
    hits, wrong = [], []
    for noise in ("gaussian", "student-t3", "cauchy", "laplace", "uniform"):
        for tau in f.min() + 0.1 * rng.uniform(-2, 2, 5):
            freq, inside = pb.lemma1_monte_carlo(f, noise, tau, 0.1, 2000, rng)
            hits.append(inside)
            lo, hi = pb.clopper_pearson(np.round(freq * 2000), 2000)
            other = pb.NOISES[noise].cdf((tau - f) / 0.2)
            wrong.append((lo <= other) & (other <= hi))
    assert rules.coverage(np.concatenate(hits), level=0.95, margin=0.02).verdict == "reproduced"
    # negative control: the class probability of a noise twice as wide is not what the samples show
    assert rules.coverage(np.concatenate(wrong), level=0.95, margin=0.02).verdict == "not reproduced"


def test_clopper_pearson_matches_closed_forms():
    lo, hi = pb.clopper_pearson(np.array([0, 10]), 10)
    assert lo[0] == 0 and hi[0] == pytest.approx(1 - 0.025 ** 0.1)  # k = 0: upper end 1 - (alpha/2)^(1/n)
    assert hi[1] == 1 and lo[1] == pytest.approx(0.025 ** 0.1)


def test_clopper_pearson_covers_at_its_level_and_a_narrower_interval_does_not():
    rng, p, n = np.random.default_rng(0), 0.3, 50
    k = rng.binomial(n, p, 2000)
    lo, hi = pb.clopper_pearson(k, n)
    assert rules.coverage((lo <= p) & (p <= hi), level=0.95, margin=0.02).verdict == "reproduced"
    # negative control: a 50% interval used as if it were a 95% one fails the coverage rule
    lo, hi = pb.clopper_pearson(k, n, level=0.5)
    assert rules.coverage((lo <= p) & (p <= hi), level=0.95, margin=0.02).verdict == "not reproduced"


def test_t4_rate_rule_separates_a_fixed_beta_from_uniform_sampling():
    # the T4-rate-M* claims: slope of sum r_bar_t <= 0.9 with uniform sampling as the contrast
    slopes = {rule: pb.tail_exponents(np.array([np.cumsum(pb.batch_run(rule, s, 40, 5, beta=3.0)["dist_regret"])
                                                for s in range(8)])) for rule in ("bore++", "uniform")}
    assert rules.rate(slopes["bore++"], (0.0, 0.9), contrast=slopes["uniform"]).verdict == "reproduced"
    # negative control: uniform sampling's distributional regret grows linearly, so the rule rejects it
    assert rules.rate(slopes["uniform"], (0.0, 0.9)).verdict == "not reproduced"


def test_moving_threshold_band_ratio_is_against_the_current_class_probability():
    seed, T = 4, 30
    run = pb.finite_run("bore++-moving", seed, T)
    tb = pb.d1_testbed(seed)
    target = sps.norm.cdf((run["tau"][-1] - tb["f"]) / pb.NOISE_STD)
    # rebuild pi_hat_{T-1} for the last threshold and compare the ratio of the last step
    y = tb["f"][run["index"]] + pb.NOISE_STD * pb.make_rng(seed, "noise").standard_normal(T)
    post = GridPosterior(tb["K"], pb.LAMBDA, max_points=T + 1)
    for i, yi in zip(run["index"][:-1], y[:-1]):
        post.update(i, float(yi <= run["tau"][-1]))
    ratio = np.max(np.abs(target - post.mean) / (run["beta"][-1] * post.std))
    assert run["ratio"][-1] == pytest.approx(ratio)
    # negative control: against pi* of the fixed threshold the ratio differs
    assert abs(np.max(np.abs(tb["pi"] - post.mean) / (run["beta"][-1] * post.std)) - ratio) > 1e-6


def test_doubling_changes_separate_a_settling_threshold_from_a_log_drift():
    t, rng = np.arange(1, 2001), np.random.default_rng(0)
    noise = lambda: 1e-4 * rng.standard_normal((12, 2000))  # noqa: E731
    late, early = pb.doubling_changes(-0.05 + 1 / np.sqrt(t) + noise())  # settles like t^-1/2: ratio 2^-1/2
    assert rules.comparison({"last": late, "before": early}, "last", ["before"], "lower", "better", 1e-6).verdict == "reproduced"
    # negative control: tau = -c log t never settles; it moves by c log 2 in every doubling window ...
    log_drift = -0.01 * np.log(t) + noise()
    late, early = pb.doubling_changes(log_drift)
    np.testing.assert_allclose(late, 0.01 * math.log(2), atol=1e-3)
    np.testing.assert_allclose(early, 0.01 * math.log(2), atol=1e-3)
    assert rules.comparison({"last": late, "before": early}, "last", ["before"], "lower", "better", 1e-6).verdict != "reproduced"
    # ... while windows of equal length in t (the first version of C-tau) show it slowing down
    assert np.all(np.abs(log_drift[:, -1] - log_drift[:, 1499]) < np.abs(log_drift[:, 999] - log_drift[:, 499]))
    # and a drift that accelerates in log t moves more in the later window
    late, early = pb.doubling_changes(-0.001 * np.log(t) ** 2 + noise())
    assert rules.comparison({"last": late, "before": early}, "last", ["before"], "lower", "better", 1e-6).verdict == "not reproduced"
