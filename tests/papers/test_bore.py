"""Paper 003's theory checks (bolib.papers.bore): each statistic a claim is decided on gets a case
that satisfies the claim (the declared rule says "reproduced" or the invariant holds) and a case
that violates it (negative control: "not reproduced", or the invariant breaks)."""
import math

import numpy as np
import pytest
from scipy import stats as sps

from bolib.claims import ClaimBook, InvariantViolated, rules
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
    np.testing.assert_allclose(sps.norm.cdf((tb["tau"] - tb["f"]) / pb.NOISE_STD), tb["pi"], atol=1e-10)  # eq. 10
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
    book.invariant("E11", "eq. 11", "always", np.concatenate(holds))
    with pytest.raises(InvariantViolated):  # the smallest slope of Phi^{-1} is not a Lipschitz constant
        book.invariant("E11-wrong", "eq. 11 with sigma/phi(0)", "always", np.concatenate(midpoint))


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
        book.invariant("A1", "Lemma A.1", "equal", [abs(run["log_det"] - 2 * run["gain"].sum()) <= 1e-8 * run["log_det"]])
        book.invariant("A3", "Lemma A.3", "always", run["var_increase"] <= 1e-12)
    run = runs["bore++"][0]
    prior = len(run["gain"]) * math.log1p(1 / run["lam"])  # no conditioning: every term at sigma = 1
    with pytest.raises(InvariantViolated):
        book.invariant("A1-wrong", "Lemma A.1 with prior variances", "equal", [abs(run["log_det"] - prior) <= 1e-8 * prior])


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
    assert checks["pinsker"]  # Pinsker's chain is an identity of distributions: it holds for any p


def test_rkhs_norm_of_eq_d5_recovers_a_known_norm():
    X = np.linspace(0, 1, 30)
    K = pb.rbf(X, X, 0.3)
    idx, alpha = [3, 12, 25], np.array([0.5, -0.2, 0.8])
    f = K[:, idx] @ alpha  # an element of the RKHS with ||f||_k^2 = alpha^T K_idx alpha
    exact = math.sqrt(alpha @ K[np.ix_(idx, idx)] @ alpha)
    assert pb.rkhs_norm(f, K) == pytest.approx(exact, rel=1e-3)
    assert abs(np.linalg.norm(f) - exact) > 0.1  # negative control: the Euclidean norm of the values is not it
