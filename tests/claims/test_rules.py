"""Decision rules of the claims protocol: each comes out every way (negative controls), and the
comparison rule holds its nominal false-positive rate when all methods are equal."""
import numpy as np
import pytest

from bolib.claims import rules


# ---------------------------------------------------------------- comparison
def better(values, method, competitors, direction, margin=0.1, stages=None):
    return rules.comparison(values, method, competitors, direction, "better", margin, stages)


def test_signed_rank_p_is_exact_for_any_n_ties_and_zeros_included():
    from scipy import stats as sps

    rng = np.random.default_rng(3)
    for n in (5, 12, 30):
        d = rng.standard_normal(n)
        for alternative in ("less", "greater"):
            exact = sps.wilcoxon(d, alternative=alternative, method="exact").pvalue
            assert rules.signed_rank_p(d, alternative) == pytest.approx(exact, rel=1e-12)
    assert rules.signed_rank_p([1, 1, 1, 1, 1], "greater") == pytest.approx(1 / 32)  # ties
    assert rules.signed_rank_p([0, 0, 0], "less") == 1.0
    # a zero keeps its rank: ranks 1 (zero), 2, 3 with signs on 2 and 3 only -> W+ = 3 of {0, 2, 3, 5}
    assert rules.signed_rank_p([0, -2, 3], "greater") == pytest.approx(2 / 4)
    assert rules.signed_rank_p(np.arange(1, 1101), "less") == pytest.approx(1.0)  # no overflow at large n
    assert rules.signed_rank_p(np.arange(1, 1101), "greater") < 1e-300
    d = rng.standard_normal(1100) + 0.05
    assert rules.signed_rank_p(d, "greater") == pytest.approx(sps.wilcoxon(d, alternative="greater").pvalue, rel=0.02)


def test_comparison_reproduces_only_when_a_beats_every_competitor(methods):
    values = methods(10, {"A": 0.0, "B": 2.0, "C": 2.5})
    assert better(values, "A", ["B", "C"], "lower").verdict == "reproduced"
    assert better(values, "B", ["A"], "higher").verdict == "reproduced"


def test_comparison_is_not_reproduced_when_one_competitor_is_better(methods):
    values = methods(10, {"A": 0.0, "B": 2.0, "C": -2.0})  # C beats A
    decision = better(values, "A", ["B", "C"], "lower")
    assert decision.verdict == "not reproduced" and "worse than C" in decision.reason and "B" not in decision.reason


def test_comparison_is_inconclusive_when_a_ties_with_one_competitor_beyond_the_margin_resolution():
    rng = np.random.default_rng(1)
    base = rng.standard_normal(10)
    tie = base + 0.5 * rng.standard_normal(10)
    decision = better({"A": base, "B": base + 2, "C": tie}, "A", ["B", "C"], "lower", margin=0.05)
    assert decision.verdict == "inconclusive" and "looks" in decision.details
    assert decision.details["leans"] == "against"  # C's mean advantage is inside the margin's noise
    assert decision.details["per_seed"]["A"] == pytest.approx(base)



def test_a_verdict_resting_on_the_margin_needs_a_contrast_the_set_up_tells_apart():
    """Equivalence to a competitor means nothing where even the contrast (random search) lies within the
    margin: that verdict becomes "does not discriminate here"; with the contrast clearly worse it stands,
    and a verdict that does not rest on the margin (significantly better) never depends on the contrast."""
    rng = np.random.default_rng(5)
    base = rng.standard_normal(12) * 0.01
    values = {"A": base, "B": base + 0.001 * rng.standard_normal(12), "near": base + 0.01 + 0.002 * rng.standard_normal(12),
              "far": base + 1.0 + 0.01 * rng.standard_normal(12), "worse": base + 2.0}
    plain = rules.comparison(values, "A", ["B"], "lower", "better", 0.1)
    assert plain.verdict == "not reproduced" and plain.reason.startswith("equivalent")
    flat = rules.comparison(values, "A", ["B"], "lower", "better", 0.1, contrast="near")
    assert flat.verdict == "inconclusive" and flat.reason.startswith("does not discriminate here: equivalent")
    assert flat.details["contrast"]["label"] == "near" and flat.details.get("next_look") is None
    kept = rules.comparison(values, "A", ["B"], "lower", "better", 0.1, contrast="far")
    assert kept.verdict == "not reproduced" and "contrast far" in kept.measured
    for relation in ("no worse", "equivalent"):
        assert rules.comparison(values, "A", ["B"], "lower", relation, 0.1).verdict == "reproduced"
        assert rules.comparison(values, "A", ["B"], "lower", relation, 0.1, contrast="near").verdict == "inconclusive"
        assert rules.comparison(values, "A", ["B"], "lower", relation, 0.1, contrast="far").verdict == "reproduced"
    assert rules.comparison(values, "A", ["worse"], "lower", "better", 0.1, contrast="near").verdict == "reproduced"

def test_a_competitors_lead_inside_the_margin_is_equivalence_and_takes_the_contrast_test():
    """A competitor ahead on every seed by a difference inside the margin gives "equivalent" (not "significantly
    worse"), a verdict resting on the margin: with a contrast the set-up cannot tell apart it does not discriminate
    (and says what the rule gave before); with a contrast far behind it stands. A significant lead that is neither
    inside nor beyond the margin, like the method's own significant lead, does not rest on the margin; a lead beyond
    the margin is "not reproduced" whatever the contrast."""
    rng = np.random.default_rng(3)
    base = rng.standard_normal(12) * 0.01
    values = {"A": base, "inside": base - 0.03 - 0.002 * rng.standard_normal(12),
              "edge": base - 0.09 - 0.03 * rng.standard_normal(12), "far": base - 0.5 - 0.01 * rng.random(12),
              "near": base + 0.01 * rng.standard_normal(12), "behind": base + 1.0 + 0.01 * rng.random(12)}
    plain = rules.comparison(values, "A", ["inside"], "lower", "better", 0.1)
    assert plain.verdict == "not reproduced" and plain.reason.startswith("equivalent")
    flat = rules.comparison(values, "A", ["inside"], "lower", "better", 0.1, contrast="near")
    assert flat.verdict == "inconclusive" and flat.reason.startswith("does not discriminate here")
    assert flat.details["rule_before"] == {"verdict": "not reproduced", "reason": "significantly worse than inside"}
    kept = rules.comparison(values, "A", ["inside"], "lower", "better", 0.1, contrast="behind")
    assert kept.verdict == "not reproduced" and "rule_before" not in kept.details
    edge = rules.comparison(values, "A", ["edge"], "lower", "better", 0.1, contrast="near")
    assert edge.verdict == "not reproduced" and "not shown worse by more than 0.1" in edge.reason
    mirror = {"A": values["edge"], "edge": values["A"], "near": values["near"]}  # the method's own lead of that size
    assert rules.comparison(mirror, "A", ["edge"], "lower", "better", 0.1, contrast="near").verdict == "reproduced"
    beyond = rules.comparison(values, "A", ["far"], "lower", "better", 0.1, contrast="near")
    assert beyond.verdict == "not reproduced" and "by more than 0.1" in beyond.reason


def test_a_verdict_on_the_margin_at_the_ceiling_does_not_discriminate():
    """Two methods that both reach the metric's best value on most seeds cannot be told apart by the margin: a
    verdict resting on the margin ("equivalent") becomes "does not discriminate here"; where the method or the
    competitor has room below the ceiling, or the verdict does not rest on the margin, it stands."""
    top = np.ones(10)
    shy = np.r_[np.ones(8), 0.999, 0.998]  # within the margin 0.01 of 1 on every seed, a little below on two
    values = {"A": shy, "tied": top, "room": np.linspace(0.80, 0.90, 10), "low": np.linspace(0.50, 0.60, 10)}
    worse = rules.comparison(values, "A", ["tied"], "higher", "better", 0.01)
    assert worse.verdict == "not reproduced"
    capped = rules.comparison(values, "A", ["tied"], "higher", "better", 0.01, ceiling=1.0)
    assert capped.verdict == "inconclusive" and capped.reason.startswith("does not discriminate here")
    assert capped.details["ceiling"]["both_near"] == {"tied": 10} and "ceiling 1" in capped.measured
    room = {"A": np.linspace(0.80, 0.90, 10), "B": np.linspace(0.80, 0.90, 10) + 1e-4 * np.arange(10)}
    assert rules.comparison(room, "A", ["B"], "higher", "better", 0.01, ceiling=1.0).verdict == "not reproduced"
    ahead = rules.comparison(values, "A", ["low"], "higher", "better", 0.01, ceiling=1.0)
    assert ahead.verdict == "reproduced" and ahead.details["ceiling"]["both_near"] == {"low": 0}
    lower = {"A": 1.0 - shy, "tied": 1.0 - top}  # the same with regrets: the ceiling is the least value
    assert rules.comparison(lower, "A", ["tied"], "lower", "better", 0.01, ceiling=0.0).verdict == "inconclusive"
    same = rules.comparison(values, "A", ["tied"], "higher", "equivalent", 0.01, ceiling=1.0)
    assert same.verdict == "inconclusive" and same.reason.startswith("does not discriminate here")
    gap = {"A": np.r_[np.ones(36), np.full(24, 0.2)], "top": np.ones(60)}  # both at 1 on 36 of 60 seeds, but a
    reversal = rules.comparison(gap, "A", ["top"], "higher", "better", 0.01, ceiling=1.0)  # reversal beyond the margin
    assert reversal.verdict == "not reproduced" and "by more than 0.01" in reversal.reason
    assert reversal.details["ceiling"]["both_near"] == {"top": 36}


def test_leans_points_where_the_means_go():
    up, flat = np.array([1.0, 1.2, -0.1, 0.9]), np.array([0.01, -0.02, 0.03, 0.0])
    assert rules.leans({"B": up}, "better", 0.5) == "for"
    assert rules.leans({"B": -up}, "better", 0.5) == "against"
    assert rules.leans({"B": flat}, "better", 0.5) == "against"  # heading for "equivalent"
    assert rules.leans({"B": flat}, "equivalent", 0.5) == "for" and rules.leans({"B": up}, "equivalent", 0.5) == "against"
    assert rules.leans({"B": -up}, "no worse", 0.5) == "against" and rules.leans({"B": flat}, "no worse", 0.5) == "for"


def test_a_superiority_claim_inside_the_margin_is_not_reproduced_as_equivalent():
    rng = np.random.default_rng(2)
    base = rng.standard_normal(12)
    decision = better({"A": base, "B": base + 0.01 * rng.standard_normal(12)}, "A", ["B"], "lower", margin=0.1)
    assert decision.verdict == "not reproduced" and "equivalent within +-0.1 to B" in decision.reason
    # the same data with a margin below their spread cannot be called equivalent
    assert better({"A": base, "B": base + 0.01 * rng.standard_normal(12)}, "A", ["B"], "lower",
                  margin=0.001).verdict == "inconclusive"


def test_no_worse_and_equivalent_relations_each_way(methods):
    close = methods(10, {"A": 0.3, "B": 0.0})  # A worse by 0.3
    no_worse = lambda m: rules.comparison(close, "A", ["B"], "lower", "no worse", m)  # noqa: E731
    assert no_worse(2.0).verdict == "reproduced"
    assert rules.comparison(methods(10, {"A": 1.5, "B": 0.0}), "A", ["B"], "lower", "no worse",
                            0.1).verdict == "not reproduced"
    equivalent = lambda v, m: rules.comparison(v, "A", ["B"], "lower", "equivalent", m)  # noqa: E731
    assert equivalent(close, 2.0).verdict == "reproduced"
    assert equivalent(methods(10, {"A": 3.0, "B": 0.0}), 0.5).verdict == "not reproduced"
    assert equivalent(methods(10, {"A": -3.0, "B": 0.0}), 0.5).verdict == "not reproduced"


def test_the_first_look_that_decides_gives_the_verdict_and_later_seeds_cannot_change_it(methods):
    early = methods(6, {"A": 0.0, "B": 3.0})
    late = {k: np.r_[v, np.full(6, 0.0 if k == "A" else -9.0)] for k, v in early.items()}  # B far better later
    first = better(early, "A", ["B"], "lower", stages=[6, 12])
    both = better(late, "A", ["B"], "lower", stages=[6, 12])
    assert first.verdict == both.verdict == "reproduced" and len(both.details["looks"]) == 1
    assert both.details["looks"][0]["alpha"] == pytest.approx(0.025)
    # undecided at the first look: the next look is named, and the claim says where it leans
    weak = methods(6, {"A": 0.0, "B": 0.1})
    decision = better(weak, "A", ["B"], "lower", margin=0.01, stages=[6, 12])
    assert decision.verdict == "inconclusive" and decision.details["next_look"] == 12
    assert "next look is at n=12" in decision.reason and decision.details["seeds_needed"] > 6
    with pytest.raises(ValueError, match="not a stage"):
        better(methods(7, {"A": 0.0, "B": 1.0}), "A", ["B"], "lower", stages=[6, 12])


def test_a_first_stage_below_what_the_exact_test_reaches_cannot_decide(methods):
    values = methods(5, {"A": 0.0, "B": 5.0})
    decision = better(values, "A", ["B"], "lower", stages=[5, 10])
    assert decision.verdict == "inconclusive" and decision.details["looks"][0]["alpha"] == 0.0
    assert decision.details["next_look"] == 10  # the first look's alpha went to the second
    assert rules.seeds_for_level(0.05 / 6) == 7  # 2^-7 < 0.05 / 6 <= 2^-6


STAGES = [(6, 12, 24), (10, 20, 40), (8, 16)]


def _wrong_rates(stages, k, repeats, draw, relation="better", margin=0.05, spend=True, seed=0):
    """Share of repetitions giving "reproduced" and "not reproduced" when ``draw(rng, n)`` gives
    each competitor's per-seed advantage-free values (a null for the relation)."""
    rng = np.random.default_rng(seed)
    tally = {"reproduced": 0, "not reproduced": 0}
    for _ in range(repeats):
        values = {f"m{j}": draw(rng, stages[-1]) for j in range(k + 1)}
        if spend:
            decision = rules.comparison(values, "m0", [f"m{j}" for j in range(1, k + 1)], "lower", relation, margin, stages)
        else:  # full alpha at every look: the error the spending prevents
            decision = next((d for d in (rules.comparison({n: v[:s] for n, v in values.items()}, "m0",
                                                          [f"m{j}" for j in range(1, k + 1)], "lower", relation, margin)
                                         for s in stages) if d.verdict != "inconclusive"), None)
            if decision is None:
                continue
        if decision.verdict in tally:
            tally[decision.verdict] += 1
    return {v: c / repeats for v, c in tally.items()}


BOUND = 0.05 + 2.58 * np.sqrt(0.05 * 0.95 / 1000)


@pytest.mark.parametrize("stages,k", [(STAGES[0], 1), (STAGES[0], 4), (STAGES[1], 3), (STAGES[2], 7)])
def test_equal_methods_give_each_wrong_verdict_at_most_alpha_over_all_looks(stages, k):
    """Negative control of the sequential design at real stage sizes: with every method equal
    (and a margin too small to call them equivalent), "reproduced" and "not reproduced" are both
    wrong, and each happens in at most 5% of 1,000 repetitions (plus Monte Carlo error)."""
    rates = _wrong_rates(stages, k, 1000, lambda rng, n: rng.standard_normal(n), margin=1e-3, seed=sum(stages) + k)
    assert rates["reproduced"] <= BOUND and rates["not reproduced"] <= BOUND, rates


def test_without_alpha_spending_the_same_control_fails():
    """The control above can fail: testing every look at the full alpha says "not reproduced"
    (a competitor better) far more often than 5% with equal methods."""
    rates = _wrong_rates((6, 12, 24, 48), 1, 1000, lambda rng, n: rng.standard_normal(n), margin=1e-3, spend=False)
    assert rates["not reproduced"] > BOUND, rates


def test_equal_methods_with_skewed_regrets_give_each_wrong_verdict_at_most_alpha():
    """Equal methods whose regrets are skewed (lognormal): their differences are symmetric, so the
    control holds for skewed metrics too."""
    draw = lambda rng, n: rng.lognormal(0.0, 1.2, n) - np.exp(0.72)  # noqa: E731  (mean 0, median < 0)
    rates = _wrong_rates((10, 20, 40), 1, 1000, draw, margin=1e-3, seed=11)
    assert rates["reproduced"] <= BOUND and rates["not reproduced"] <= BOUND, rates


@pytest.mark.parametrize("relation,shift", [("no worse", 1.0), ("equivalent", 1.0), ("equivalent", -1.0)])
def test_no_worse_and_equivalent_hold_alpha_at_the_margin(relation, shift):
    """At the boundary (the method exactly one margin worse, or better for "equivalent"), saying
    "reproduced" is wrong: at most 5% over all looks."""
    margin = 0.5
    rng = np.random.default_rng(5)
    wrong = 0
    for _ in range(1000):
        base = rng.standard_normal(24)
        values = {"A": base + shift * margin + rng.standard_normal(24), "B": base + rng.standard_normal(24)}
        wrong += rules.comparison(values, "A", ["B"], "lower", relation, margin, (6, 12, 24)).verdict == "reproduced"
    assert wrong / 1000 <= BOUND, wrong


def test_a_design_that_can_never_refute_is_refused_and_dead_looks_pass_their_alpha_on():
    assert rules.Design((6,)).unreachable(7).endswith("one look needs >= 8 seeds")
    assert rules.Design((8,)).unreachable(7) == ""
    assert rules.Design((5,)).unreachable(1) == "" and rules.Design((5,)).unreachable(1, sides=2)  # "equivalent"
    assert rules.Design((6, 12, 20)).spent() == pytest.approx([0.0, 0.03, 0.02])  # 2^-6 > 0.015: moved on


def test_equal_methods_are_decided_equivalent_and_a_real_gap_is_not():
    """The equivalence rule: equal methods whose noise is small against the margin come out
    "equivalent" (not reproduced) in most repetitions; methods a margin apart almost never do
    (at most alpha: the wrong verdict is calling them equivalent)."""
    rng = np.random.default_rng(7)
    repeats, margin = 300, 0.5
    equal = apart = 0
    for _ in range(repeats):
        base = rng.standard_normal(24)
        decision = better({"A": base + 0.3 * rng.standard_normal(24), "B": base + 0.3 * rng.standard_normal(24)},
                          "A", ["B"], "lower", margin=margin, stages=(6, 12, 24))
        equal += "equivalent" in decision.reason
        gap = better({"A": base + 0.3 * rng.standard_normal(24), "B": base - margin + 0.3 * rng.standard_normal(24)},
                     "A", ["B"], "lower", margin=margin, stages=(6, 12, 24))
        apart += "equivalent" in gap.reason
    assert equal / repeats >= 0.8 and apart / repeats <= 0.05 + 2.58 * np.sqrt(0.05 * 0.95 / repeats), (equal, apart)


def test_seeds_needed_follows_the_effect(methods):
    strong = rules.seeds_needed({"B": np.array([1.0, 1.2, 0.8, 1.1])}, "better", 0.1, 0.05)
    weak = rules.seeds_needed({"B": np.array([0.1, 0.3, -0.1, 0.2])}, "better", 0.01, 0.05)
    assert strong < weak
    assert rules.seeds_needed({"B": np.zeros(4)}, "better", 0.1, 0.05) is not None  # equivalence route
    assert rules.seeds_needed({"B": np.array([1.0, -1.0, 1.0, -1.0])}, "better", 1e-9, 0.05) is None
    # one competitor far worse decides "not reproduced" by itself, whatever the other does
    mixed = {"B": np.array([1.0, -1.0, 1.0, -1.0]), "C": np.array([-3.0, -3.1, -2.9, -3.0])}
    assert rules.seeds_needed(mixed, "better", 1e-9, 0.05) <= 8


def test_comparison_rejects_unknown_names_relations_and_a_missing_margin(methods):
    values = methods(6, {"A": 0.0, "B": 1.0})
    with pytest.raises(ValueError, match="valid choices: A, B"):
        better(values, "A", ["Z"], "lower")
    with pytest.raises(ValueError, match="valid choices: higher, lower"):
        better(values, "A", ["B"], "smaller")
    with pytest.raises(ValueError, match="valid choices: better, equivalent, no worse"):
        rules.comparison(values, "A", ["B"], "lower", "superior", 0.1)
    with pytest.raises(ValueError, match="margin must be > 0"):
        better(values, "A", ["B"], "lower", margin=0.0)
    with pytest.raises(ValueError, match="stages must be increasing"):
        better(values, "A", ["B"], "lower", stages=[6, 6])
    with pytest.raises(ValueError, match="must be finite numbers"):
        better({"A": [0.0, np.nan, 1.0], "B": [1.0, 2.0, 3.0]}, "A", ["B"], "lower")


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
    # the quantity is named as declared (an exponent unless said otherwise), for the claim and its contrast
    ratio = rules.rate(inside, (0.0, 0.6), contrast=above, contrast_label="RAND", quantity="R_T / B_T")
    assert ratio.measured.startswith("R_T / B_T 0.") and "exponent" not in ratio.measured + ratio.reason


def test_a_rate_bound_the_contrast_also_meets_does_not_reproduce():
    rng = np.random.default_rng(1)
    ours = 0.3 + 0.02 * rng.standard_normal(8)
    separates = rules.rate(ours, (-np.inf, 0.6), contrast=0.95 + 0.02 * rng.standard_normal(8), contrast_label="GP-UCB")
    assert separates.verdict == "reproduced" and "GP-UCB" in separates.reason
    both_pass = rules.rate(ours, (-np.inf, 0.6), contrast=0.35 + 0.02 * rng.standard_normal(8), contrast_label="GP-UCB")
    assert both_pass.verdict == "inconclusive" and "does not discriminate here" in both_pass.reason
    # a contrast whose interval straddles the bound has not been shown to fail it either
    straddles = rules.rate(ours, (-np.inf, 0.85), contrast=[0.6, 0.95, 0.7, 1.0, 0.65], contrast_label="EXPLOIT")
    assert straddles.verdict == "inconclusive" and "not shown outside" in straddles.reason


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


def test_coverage_in_stages_decides_at_the_first_look_that_can_and_spends_alpha():
    """With stages the first look tests the first units at its share of alpha: a clear miss decides there, a
    look that cannot decide names the next one, and the last look decides on all the units at its share."""
    misses = np.r_[np.zeros(6), np.ones(14)].astype(bool)
    early = rules.coverage(misses, 0.8, 0.1, stages=(10, 20))
    assert early.verdict == "not reproduced" and early.n == 10 and len(early.details["looks"]) == 1
    assert "look 1 of 2" in early.reason
    hits = np.ones(20, bool)
    first = rules.coverage(hits[:10], 0.8, 0.1, stages=(10, 20))  # 0.7^10 = 0.028 > the first look's 0.025
    assert first.verdict == "inconclusive" and first.details["next_look"] == 20
    assert rules.coverage(hits[:10], 0.8, 0.1).verdict == "reproduced"  # one look at alpha 0.05 would decide
    final = rules.coverage(hits, 0.8, 0.1, stages=(10, 20))
    assert final.verdict == "reproduced" and final.n == 20 and [look["n"] for look in final.details["looks"]] == [10, 20]
    with pytest.raises(ValueError, match="not a stage"):
        rules.coverage(hits[:15], 0.8, 0.1, stages=(10, 20))


def test_erratum_each_way():
    assert rules.erratum(paper_error=0.3, corrected_error=0.001, tolerance=0.01).verdict == "reproduced"
    assert rules.erratum(paper_error=0.002, corrected_error=0.001, tolerance=0.01).verdict == "not reproduced"
    assert rules.erratum(paper_error=0.3, corrected_error=0.2, tolerance=0.01).verdict == "inconclusive"


def test_a_value_without_a_sampling_interval_prints_none():
    exact = rules.value(3.7e-5, 0.0, 1e-3)
    assert "no sampling interval" in exact.measured and "CI" not in exact.measured
    assert "95% CI 0.9 to 1.1" in rules.value(1.0, 1.0, 0.2, ci=(0.9, 1.1)).measured
