"""Paper 002's theory checks (bolib.papers.add_gp_ucb), each with a case that must fail its rule
(negative control) and one that must pass."""
import numpy as np
import pytest

from bolib.claims import ClaimBook, InvariantViolated, rules
from bolib.papers.add_gp_ucb import (Z_LEVELS, additive_kernel_matrix, beta_lemma10, coverage_run, eq14_errors,
                                     eq14_sums, lemma7_sides)
from bolib.runtime import rng

GROUPS = [[0, 1], [2, 3], [4, 5]]


def test_lemma7_identity_holds_and_a_wrong_variance_breaks_it():
    X = rng(0, "t7").random((40, 6))
    K = additive_kernel_matrix(X, GROUPS, 0.3)
    sequential, logdet = lemma7_sides(K, 0.01)
    book = ClaimBook("002_test", "smoke")
    book.invariant("C7", "Lemma 7", "equal", [abs(sequential - logdet) <= 1e-8 * logdet])
    # negative control: prior variances instead of posterior ones (no conditioning) overstate the gain
    prior_sum = 0.5 * np.log1p(np.diag(K) / 0.01).sum()
    assert prior_sum > logdet + 1
    with pytest.raises(InvariantViolated):
        book.invariant("C7-wrong", "Lemma 7 with prior variances", "equal", [abs(prior_sum - logdet) <= 1e-8 * logdet])


def test_eq14_fails_with_many_groups_and_holds_with_one():
    """Erratum rule: eq. 14 as printed fails for an additive kernel at eta^2 = 1 (reproduced erratum),
    while with a single group (sum_j sigma_j^2 = sigma^2, Srinivas et al.'s Lemma 5.4) it holds, so
    the same rule says "not reproduced"."""
    additive = eq14_sums(6, 1, 0.2, 1.0, 40, 200, rng(0, "t14"))
    assert additive["lhs"] > additive["rhs"] and additive["full"] <= additive["rhs"]
    assert np.all(additive["s2"] <= additive["bound"] + 1e-12)  # the valid form holds step by step
    assert rules.erratum(*eq14_errors(additive), tolerance=0.0).verdict == "reproduced"
    single = eq14_sums(6, 6, 0.5, 1.0, 40, 200, rng(0, "t14"))
    np.testing.assert_allclose(single["sum_sj2"], single["s2"], rtol=1e-9)
    assert rules.erratum(*eq14_errors(single), tolerance=0.0).verdict == "not reproduced"


def test_lemma10_band_covers_at_the_lemmas_beta_and_fails_when_too_narrow():
    beta = beta_lemma10(31, 50, 3, 0.1)
    assert beta == pytest.approx(2 * np.log(50 * 3 * np.pi ** 2 * 31 ** 2 / 6 / 0.1))
    wide = coverage_run(6, 2, 0.3, 0.1, 30, 50, beta, 60, 0)
    assert rules.coverage(wide["total"], level=0.9, margin=0.05).verdict == "reproduced"
    narrow = coverage_run(6, 2, 0.3, 0.1, 30, 50, 0.25, 60, 0)
    assert rules.coverage(narrow["total"], level=0.9, margin=0.05).verdict == "not reproduced"
    # every component inside its own band implies the band of the sum holds on the whole product grid
    assert all(t for t, c in zip(wide["total"], wide["components"]) if c)


def test_lemma10_calibration_matches_the_exact_posterior():
    """|f - mu| <= z sigma at a random point has probability 2 Phi(z) - 1 when f is drawn from the prior."""
    from scipy.stats import norm

    out = coverage_run(6, 2, 0.3, 0.1, 30, 50, 1.0, 300, 1)
    expected = 2 * norm.cdf(Z_LEVELS) - 1
    assert np.all(np.abs(out["z_hits"].mean(0) - expected) < 0.07)
    # negative control: the band with sigma halved misses far more often than 2 Phi(z) - 1 allows
    assert out["z_hits"][:, 0].mean() < 2 * norm.cdf(2 * Z_LEVELS[0]) - 1 - 0.1
