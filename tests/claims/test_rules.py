"""Decision rules of the claims protocol: each comes out every way (negative controls), and the
comparison rule holds its nominal false-positive rate when all methods are equal."""
import numpy as np
import pytest

from bolib.claims import rules


# ---------------------------------------------------------------- comparison
def test_comparison_reproduces_only_when_a_beats_every_competitor(methods):
    values = methods(10, {"A": 0.0, "B": 2.0, "C": 2.5})
    assert rules.comparison(values, "A", ["B", "C"], "lower").verdict == "reproduced"
    assert rules.comparison(values, "B", ["A"], "higher").verdict == "reproduced"


def test_comparison_is_not_reproduced_when_one_competitor_is_better(methods):
    values = methods(10, {"A": 0.0, "B": 2.0, "C": -2.0})  # C beats A
    decision = rules.comparison(values, "A", ["B", "C"], "lower")
    assert decision.verdict == "not reproduced" and "C" in decision.reason and "B" not in decision.reason


def test_comparison_is_inconclusive_when_a_ties_with_one_competitor():
    rng = np.random.default_rng(1)
    base = rng.standard_normal(10)
    tie = base + 0.01 * rng.standard_normal(10)
    decision = rules.comparison({"A": base, "B": base + 2, "C": tie}, "A", ["B", "C"], "lower")
    assert decision.verdict == "inconclusive" and "C" in decision.reason


def test_too_few_seeds_cannot_reproduce_and_says_how_many_are_needed(methods):
    values = methods(4, {"A": 0.0, "B": 5.0})
    decision = rules.comparison(values, "A", ["B"], "lower")
    assert decision.verdict == "inconclusive" and "needs >= 5" in decision.reason
    assert decision.details["can_reach_alpha"] is False and decision.details["seeds_needed"] == 5
    assert rules.seeds_needed(0.05, tests=6) == 7  # 2^-7 < 0.05 / 6 <= 2^-6
    # 5 seeds can reproduce, but cannot reach Holm's alpha / 7 for 'not reproduced': the reason says so
    worst = methods(5, {"A": 3.0, **{f"B{j}": 0.0 for j in range(7)}})
    decision = rules.comparison(worst, "A", [f"B{j}" for j in range(7)], "lower")
    assert decision.verdict == "inconclusive" and "out of reach at n=5" in decision.reason and "needs >= 8" in decision.reason


@pytest.mark.parametrize("n,k", [(5, 1), (5, 6), (10, 6)])
def test_equal_methods_give_verdicts_at_no_more_than_the_nominal_rate(n, k):
    """All methods equally good: "reproduced" needs every test significant and "not reproduced"
    is Holm-controlled, so each is at most alpha (the old best-competitor rule said "not
    reproduced" 24% of the time with 6 competitors)."""
    rng = np.random.default_rng(n * 100 + k)
    repeats, alpha = 300, 0.05
    tally = {"reproduced": 0, "not reproduced": 0, "inconclusive": 0}
    for _ in range(repeats):
        values = {f"m{j}": rng.standard_normal(n) for j in range(k + 1)}
        tally[rules.comparison(values, "m0", [f"m{j}" for j in range(1, k + 1)], "lower").verdict] += 1
    bound = alpha + 3 * np.sqrt(alpha * (1 - alpha) / repeats)
    assert tally["reproduced"] / repeats <= bound and tally["not reproduced"] / repeats <= bound, tally


def test_comparison_rejects_unknown_names_and_directions(methods):
    values = methods(6, {"A": 0.0, "B": 1.0})
    with pytest.raises(ValueError, match="valid choices: A, B"):
        rules.comparison(values, "A", ["Z"], "lower")
    with pytest.raises(ValueError, match="valid choices: higher, lower"):
        rules.comparison(values, "A", ["B"], "smaller")


def test_holm_steps_down():
    np.testing.assert_array_equal(rules.holm([0.01, 0.04, 0.03], 0.05), [True, False, False])
    np.testing.assert_array_equal(rules.holm([0.01, 0.02, 0.03], 0.05), [True, True, True])
    np.testing.assert_array_equal(rules.holm([0.03, 0.5], 0.05), [False, False])


# ---------------------------------------------------------------- rates, values, coverage, errata
def test_rate_above_the_bound_is_not_reproduced_and_inside_it_is():
    rng = np.random.default_rng(0)
    inside = 0.5 + 0.02 * rng.standard_normal(8)
    above = 0.9 + 0.02 * rng.standard_normal(8)
    assert rules.rate(inside, (0.0, 0.6)).verdict == "reproduced"
    assert rules.rate(above, (0.0, 0.6)).verdict == "not reproduced"
    assert rules.rate(0.6 + 0.05 * rng.standard_normal(8), (0.0, 0.6)).verdict == "inconclusive"


def test_a_rate_bound_the_contrast_also_meets_does_not_reproduce():
    rng = np.random.default_rng(1)
    ours = 0.3 + 0.02 * rng.standard_normal(8)
    separates = rules.rate(ours, (-np.inf, 0.6), contrast=0.95 + 0.02 * rng.standard_normal(8), contrast_label="GP-UCB")
    assert separates.verdict == "reproduced" and "GP-UCB" in separates.reason
    both_pass = rules.rate(ours, (-np.inf, 0.6), contrast=0.35 + 0.02 * rng.standard_normal(8), contrast_label="GP-UCB")
    assert both_pass.verdict == "inconclusive" and "does not separate" in both_pass.reason
    # a contrast whose interval straddles the bound has not been shown to fail it either
    straddles = rules.rate(ours, (-np.inf, 0.85), contrast=[0.6, 0.95, 0.7, 1.0, 0.65], contrast_label="EXPLOIT")
    assert straddles.verdict == "inconclusive" and "not clearly outside" in straddles.reason


def test_rate_intervals_come_from_resampling_seeds_not_one_mean_curve():
    est, (lo, hi) = rules.resampled_mean([0.1, 0.9, 0.5, 0.3, 0.7])
    assert est == pytest.approx(0.5) and lo < 0.4 and hi > 0.6  # the spread between seeds is kept
    with pytest.raises(ValueError, match="at least 2 seeds"):
        rules.resampled_mean([0.5])


def test_value_within_and_outside_the_tolerance():
    assert rules.value(4.711, 4.71, 0.01).verdict == "reproduced"
    assert rules.value(4.693, 4.71, 0.01).verdict == "not reproduced"
    assert rules.value(4.70, 4.71, 0.01, ci=(4.69, 4.71)).verdict == "inconclusive"


def test_coverage_each_way():
    assert rules.coverage(np.ones(100, bool), level=0.9, margin=0.05).verdict == "reproduced"
    assert rules.coverage(np.r_[np.ones(70), np.zeros(30)].astype(bool), 0.9, 0.05).verdict == "not reproduced"
    small = rules.coverage(np.ones(10, bool), 0.9, 0.05)
    assert small.verdict == "inconclusive" and "19 units" in small.reason


def test_erratum_each_way():
    assert rules.erratum(paper_error=0.3, corrected_error=0.001, tolerance=0.01).verdict == "reproduced"
    assert rules.erratum(paper_error=0.002, corrected_error=0.001, tolerance=0.01).verdict == "not reproduced"
    assert rules.erratum(paper_error=0.3, corrected_error=0.2, tolerance=0.01).verdict == "inconclusive"


def test_a_margin_turns_the_comparison_into_non_inferiority(methods):
    close = methods(10, {"A": 0.0, "B": -0.8})  # A worse (higher) than B, by less than the margin
    assert rules.comparison(close, "A", ["B"], "lower").verdict == "not reproduced"
    competitive = rules.comparison(close, "A", ["B"], "lower", margin=2.0)
    assert competitive.verdict == "reproduced" and "within the margin 2" in competitive.reason
    far = methods(10, {"A": 0.0, "B": -3.0})  # worse by far more than the margin
    assert rules.comparison(far, "A", ["B"], "lower", margin=1.0).verdict == "not reproduced"
    assert rules.comparison(methods(10, {"A": 0.0, "B": 0.2}), "A", ["B"], "higher", margin=1.0).verdict == "reproduced"
    with pytest.raises(ValueError, match="margin"):
        rules.comparison(close, "A", ["B"], "lower", margin=-1.0)
