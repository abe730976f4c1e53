import numpy as np
import pytest
from scipy import stats as sps

from bolib import stats


def test_regret_helpers():
    f = np.array([[1.0, 3.0, 2.0, 4.0]])
    np.testing.assert_array_equal(stats.simple_regret(f, 5.0), [[4, 2, 2, 1]])
    np.testing.assert_array_equal(stats.cumulative_regret(f, 5.0), [[4, 6, 9, 10]])
    np.testing.assert_array_equal(stats.per_round(np.arange(6), np.array([0, 0, 1, 1, 1, 2])), [1, 4, 5])
    slope, ci = stats.loglog_slope([1, 2, 4, 8], [1, 0.5, 0.25, 0.125])
    assert slope == pytest.approx(-1) and ci[0] <= -1 <= ci[1]


def test_signed_rank_p_is_exact_and_agrees_with_scipy_without_ties():
    assert stats.signed_rank_p([1, 2, 3, 4, 5], "greater") == pytest.approx(1 / 32)
    assert stats.signed_rank_p([1, 2, 3, 4, 5], "less") == pytest.approx(1.0)
    assert stats.signed_rank_p([0, 0, 0], "less") == 1.0
    d = np.random.default_rng(3).standard_normal(9)
    for alternative in ("less", "greater"):
        exact = sps.wilcoxon(d, alternative=alternative, method="exact").pvalue
        assert stats.signed_rank_p(d, alternative) == pytest.approx(exact)
    # ties (equal |differences|) keep the exact 2^-n floor that the normal approximation undercuts
    assert stats.signed_rank_p([1, 1, 1, 1, 1], "greater") == pytest.approx(1 / 32)


def test_paired_test_names_the_choices_for_a_bad_alternative():
    with pytest.raises(ValueError, match="valid choices: greater, less"):
        stats.paired_test([1, 2, 3], [2, 3, 4], alternative="two-sided")


def test_per_seed_rate_estimators():
    t = np.arange(1, 65, dtype=float)
    curves = np.vstack([t ** 0.5, 3 * t ** 0.75, np.full_like(t, 2.0)])
    np.testing.assert_allclose(stats.loglog_slopes(t, curves), [0.5, 0.75, 0.0], atol=1e-12)
    cumulative = np.vstack([t, np.sqrt(t), np.minimum(t, 8), np.zeros_like(t)])
    np.testing.assert_allclose(stats.doubling_exponent(cumulative), [1.0, 0.5, 0.0, 0.0], atol=1e-9)


def test_increment_exponent_sees_linear_growth_after_an_early_cost():
    t = np.arange(1, 201)
    curves = np.array([t, np.sqrt(t), np.log(t), np.minimum(t, 80), np.minimum(t, 20)], dtype=float)
    a = stats.increment_exponent(curves)
    assert a[0] == pytest.approx(1.0) and a[1] == pytest.approx(0.5, abs=0.02) and abs(a[2]) < 0.1 and a[3] < -20 and a[4] == 0.0
    # an early cost (a design, harm before adapting) then linear growth: the last-doubling exponent hides it, the increment exponent does not
    harmed = np.concatenate([np.linspace(0, 100, 50), 100 + np.arange(1, 151) * 0.2])[None]
    assert stats.doubling_exponent(harmed)[0] < 0.5 and stats.increment_exponent(harmed)[0] == pytest.approx(1.0)
