"""The claims protocol: every rule comes out each way (negative controls), the comparison rule
holds its nominal false-positive rate when all methods are equal, and the book only decides
claims declared beforehand."""
import json

import numpy as np
import pytest

from bolib.claims import ClaimBook, InvariantViolated, rules
from bolib.claims import report as claims_report
from bolib.errors import BolibError


def _methods(n, shifts, seed=0):
    rng = np.random.default_rng(seed)
    base = rng.standard_normal(n)
    return {name: base + shift + 0.3 * rng.standard_normal(n) for name, shift in shifts.items()}


# ---------------------------------------------------------------- comparison
def test_comparison_reproduces_only_when_a_beats_every_competitor():
    values = _methods(10, {"A": 0.0, "B": 2.0, "C": 2.5})
    assert rules.comparison(values, "A", ["B", "C"], "lower").verdict == "reproduced"
    assert rules.comparison(values, "B", ["A"], "higher").verdict == "reproduced"


def test_comparison_is_not_reproduced_when_one_competitor_is_better():
    values = _methods(10, {"A": 0.0, "B": 2.0, "C": -2.0})  # C beats A
    decision = rules.comparison(values, "A", ["B", "C"], "lower")
    assert decision.verdict == "not reproduced" and "C" in decision.reason and "B" not in decision.reason


def test_comparison_is_inconclusive_when_a_ties_with_one_competitor():
    rng = np.random.default_rng(1)
    base = rng.standard_normal(10)
    tie = base + 0.01 * rng.standard_normal(10)
    decision = rules.comparison({"A": base, "B": base + 2, "C": tie}, "A", ["B", "C"], "lower")
    assert decision.verdict == "inconclusive" and "C" in decision.reason


def test_too_few_seeds_cannot_reproduce_and_says_how_many_are_needed():
    values = _methods(4, {"A": 0.0, "B": 5.0})
    decision = rules.comparison(values, "A", ["B"], "lower")
    assert decision.verdict == "inconclusive" and "needs >= 5" in decision.reason
    assert decision.details["can_reach_alpha"] is False and decision.details["seeds_needed"] == 5
    assert rules.seeds_needed(0.05, tests=6) == 7  # 2^-7 < 0.05 / 6 <= 2^-6


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


def test_comparison_rejects_unknown_names_and_directions():
    values = _methods(6, {"A": 0.0, "B": 1.0})
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


# ---------------------------------------------------------------- the book
def test_claims_are_decided_only_by_their_declared_rule(tmp_path):
    book = ClaimBook("000_x", "smoke", tmp_path / "000_x.claims.json", seed_offset=100)
    with pytest.raises(ValueError, match="valid choices"):
        book.decide("F1", {})
    book.comparison("F1", "A beats B", "better", method="A", competitors=["B"], direction="lower",
                    metric="final simple regret", budget="T=40", figure="fig1", cell="§6.1")
    book.rate("R1", "sublinear", "1/2", claimed=(-np.inf, 0.75), estimator="log-log slope of BR(T)",
              contrast="random search")
    with pytest.raises(BolibError, match="R1"):
        book.finish()
    values = _methods(8, {"A": 0.0, "B": 2.0})
    claim = book.decide("F1", values)
    assert claim.verdict == "reproduced" and claim.kind == "comparison" and "IUT" in claim.rule
    book.decide("R1", [0.5, 0.55, 0.45, 0.5], contrast=[1.0, 0.98, 1.01, 0.99])
    book.finish()
    saved = json.loads((tmp_path / "000_x.claims.json").read_text())
    assert [c["id"] for c in saved] == ["F1", "R1"] and saved[0]["seed_offset"] == 100
    assert saved[1]["details"]["contrast"]["label"] == "random search"
    # an edited declaration discards the verdict decided under the old one
    book.comparison("F1", "A beats B", "better", method="A", competitors=["B"], direction="higher",
                    metric="final simple regret", budget="T=40")
    assert book.undecided() == ["F1"]
    with pytest.raises(ValueError, match="competitors"):
        book.comparison("F2", "A beats A", "", method="A", competitors=["A"], direction="lower", metric="m", budget="b")


def test_invariants_are_counted_and_a_violation_stops_the_notebook(tmp_path):
    book = ClaimBook("001_x", "smoke", tmp_path / "c.json")
    claim = book.invariant("C3", "|f - mu| <= ||f|| sigma", "always", np.ones(38_400, bool))
    assert claim.verdict == "" and claim.measured == "holds in 38,400 of 38,400"
    with pytest.raises(InvariantViolated, match="fails in 1 of 3"):
        book.invariant("C3b", "x", "always", [True, False, True])
    assert book.claims["C3b"].measured == "holds in 2 of 3"  # recorded before stopping


def _run(tmp_path, name, verdicts):
    book = ClaimBook("000_x", "quick", tmp_path / name / "000_x.claims.json")
    for i, better in enumerate(verdicts):
        book.comparison(f"F{i}", f"claim {i}", "better", method="A", competitors=["B"], direction="lower",
                        metric="regret", budget="end", figure="fig1", stand_in="diabetes for housing" if i == 2 else "")
        book.decide(f"F{i}", _methods(8, {"A": 0.0, "B": 2.0 if better else -2.0}, seed=i))
    book.invariant("I0", "identity", "always", [True, True])
    return tmp_path / name


def test_report_compare_readme_and_discussion_come_from_the_claims(tmp_path):
    run_a, run_b = _run(tmp_path, "quick", [True, True, False]), _run(tmp_path, "quick-seeds100", [True, False, False])
    md, html = claims_report.write_report(run_a)
    text = md.read_text()
    assert "### comparison claims" in text and "(counted)" in text and "fig1.png" in text and html.exists()
    assert "2 reproduced, 0 inconclusive, 0 not reproduced; stand-in: 0 reproduced, 0 inconclusive, 1 not reproduced" in text
    diff = claims_report.compare_runs(run_a, run_b)
    assert list(diff[~diff.agree].id) == ["F1"] and "I0" not in set(diff.id)
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- bolib-report:results -->\nold\n<!-- /bolib-report:results -->\n"
                      "<!-- bolib-report:stability -->\n\n<!-- /bolib-report:stability -->\nend\n")
    assert claims_report.update_readme(readme, claims_report.readme_blocks(run_a, run_b)) == ["results", "stability"]
    new = readme.read_text()
    assert "\nold\n" not in new and "| comparison | 2 | 0 | 1 | F2 |" in new and "1 of 3" in new and new.endswith("end\n")
    story = claims_report.discussion(claims_report.run_claims(run_b))
    assert "**Not reproduced** (2)" in story and "F2 (comparison, stand-in)" in story
