"""Decision rules: how each kind of claim turns numbers into a verdict.

Every rule returns a :class:`Decision`; none reads anything but the numbers it is given, so the
same data always give the same verdict, and each rule can come out every way (the tests feed each
rule cases that satisfy and cases that violate its claim). The rules, one per claim kind:

* :func:`comparison`: "A is better than each competitor" as an intersection-union test (IUT).
  With paired per-seed values, for every competitor c the same exact paired test is run in both
  directions. *Reproduced* when A is significantly better than every competitor at ``alpha`` (an IUT
  needs no multiplicity correction: it rejects only if every component test rejects); *not
  reproduced* when some competitor is significantly better than A, Holm-corrected across the
  competitors; *inconclusive* otherwise. If the number of seeds cannot reach ``alpha`` at all the
  verdict is inconclusive by construction and says how many seeds it would need.
  With a declared margin the same rule decides non-inferiority ("A is competitive").
* :func:`interval`: "the quantity lies in ``claimed``": reproduced when the confidence interval lies
  inside, not reproduced when the two are disjoint, inconclusive when they overlap only partly.
  Rates and printed values use it (:func:`rate`, :func:`value`).
* :func:`rate`: an exponent estimated per seed and resampled over seeds, then :func:`interval`;
  with a declared *contrast* (a run the theorem does not cover), the claim is reproduced only if
  the same rule shows the contrast outside the range, so the check is seen to separate something.
* :func:`coverage`: "an event has probability >= ``level``" from independent units (seeds): not
  reproduced when a one-sided exact binomial test shows coverage below ``level``; reproduced when it
  shows coverage above ``level - margin``.
* :func:`erratum`: "the paper's statement is wrong and ours is right", from the error of each
  against a computation.

Invariants (deterministic identities) are counted, not decided: see
:meth:`bolib.claims.book.ClaimBook.invariant`.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import stats as sps

from bolib.errors import check_choice

VERDICTS = ("reproduced", "not reproduced", "inconclusive")
DIRECTIONS = ("lower", "higher")


@dataclasses.dataclass
class Decision:
    """A verdict with the numbers behind it (``measured``), why the rule gave it (``reason``), the
    number of independent units ``n`` and JSON-able ``details``."""

    verdict: str
    measured: str
    reason: str
    n: int | None = None
    details: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        check_choice("verdict", self.verdict, VERDICTS)


def holm(p_values: Sequence[float], alpha: float) -> np.ndarray:
    """Holm's step-down procedure: which hypotheses are rejected at family-wise level ``alpha``."""
    p = np.asarray(p_values, dtype=float)
    rejected = np.zeros(len(p), dtype=bool)
    for step, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > alpha / (len(p) - step):
            break
        rejected[i] = True
    return rejected


RELATIONS = ("better", "no worse", "equivalent")


def signed_rank_p(diff, alternative: str) -> float:
    """Exact one-sided p-value of Wilcoxon's signed-rank statistic, for any number of pairs.

    ``alternative`` "less": the differences tend below zero; "greater": above. Ranks of |diff|
    with ties averaged; zeros keep their rank but carry no sign. Under the null every sign pattern
    of the non-zero differences is equally likely, so the null law of W+ (the sum of the positive
    ranks) is the subset-sum distribution of the ranks, counted exactly by dynamic programming on
    doubled (integer) ranks, one rank at a time. The smallest attainable p is 2^-n for n non-zero
    differences.
    """
    check_choice("alternative", alternative, ("less", "greater"))
    diff = np.asarray(diff, dtype=float)
    nonzero = diff != 0
    if not nonzero.any():
        return 1.0
    ranks = np.rint(2 * sps.rankdata(np.abs(diff))[nonzero]).astype(int)
    law = np.zeros(int(ranks.sum()) + 1)
    law[0] = 1.0
    for r in ranks:  # each rank joins W+ with probability 1/2 (kept a probability law: no overflow at large n)
        law[r:] = 0.5 * law[r:] + 0.5 * law[:-r]
        law[:r] *= 0.5
    w_plus = int(ranks[diff[nonzero] > 0].sum())
    return float(law[:w_plus + 1].sum() if alternative == "less" else law[w_plus:].sum())


@dataclasses.dataclass(frozen=True)
class Design:
    """A group-sequential design: looks after ``stages`` seeds (cumulative, increasing), the
    overall ``alpha`` spent across the looks by the power family alpha * (n_k / n_K)^rho.

    Look k tests at the increment alpha(t_k) - alpha(t_{k-1}). By the union bound over looks, the
    chance of each wrong verdict over all looks together is at most ``alpha`` whatever the
    correlation between looks; ``tests/claims/test_rules.py`` measures it by simulation.
    """

    stages: tuple[int, ...]
    alpha: float = 0.05
    rho: float = 1.0

    def __post_init__(self):
        stages = tuple(int(s) for s in self.stages)
        if not stages or stages[0] < 2 or any(b <= a for a, b in zip(stages, stages[1:])):
            raise ValueError(f"stages must be increasing seed counts >= 2, got {list(self.stages)}")
        if not 0 < self.alpha < 1 or self.rho <= 0:
            raise ValueError(f"need 0 < alpha < 1 and rho > 0, got alpha={self.alpha}, rho={self.rho}")
        object.__setattr__(self, "stages", stages)

    def spent(self) -> list[float]:
        """The alpha tested at each look (they sum to at most ``alpha``). A look whose share is at
        or below 2^-n, the smallest p the exact test can give on n seeds, could decide nothing: its
        share moves on to the next look (fixed by the stage sizes alone, before any data)."""
        cap = self.stages[-1]
        cumulative = [self.alpha * (s / cap) ** self.rho for s in self.stages]
        shares, carry = [], 0.0
        for n, share in zip(self.stages, [c - p for c, p in zip(cumulative, [0.0, *cumulative[:-1]])]):
            share += carry
            carry = share if 2.0 ** -n >= share else 0.0
            shares.append(share - carry)
        return shares

    def unreachable(self, competitors: int, sides: int = 1) -> str:
        """Why "not reproduced" could never come out against ``competitors`` (Holm's first step
        needs sides * 2^-n < alpha_k / competitors at some look; ``sides`` = 2 for an "equivalent"
        claim, refuted on either side), or "" when it can."""
        if any(sides * 2.0 ** -n < a / competitors for n, a in zip(self.stages, self.spent())):
            return ""
        needed = next(m for m in range(2, 64) if sides * 2.0 ** -m < self.alpha / competitors)
        return (f"stages {list(self.stages)} can never give 'not reproduced' against {competitors} competitor(s): "
                f"no look reaches Holm's alpha / {competitors}; one look needs >= {needed} seeds")

    def looks(self, n: int) -> list[tuple[int, float]]:
        """(seeds, alpha) of the looks that ``n`` seeds reach; ``n`` must be one of the stages."""
        if n not in self.stages:
            raise ValueError(f"{n} seeds is not a stage of this design (stages {list(self.stages)})")
        return [(s, a) for s, a in zip(self.stages, self.spent()) if s <= n]


def t_p(diff, alternative: str) -> float:
    """One-sided p-value of Student's t-test on the mean of ``diff`` ("less": mean < 0; "greater":
    mean > 0); with no spread, 0 when every difference lies on the claimed side, else 1."""
    d = np.asarray(diff, dtype=float)
    sd = d.std(ddof=1) if len(d) > 1 else 0.0
    if sd == 0:
        return 0.0 if (d[0] < 0 if alternative == "less" else d[0] > 0) else 1.0
    t = d.mean() / (sd / math.sqrt(len(d)))
    return float(sps.t.cdf(t, len(d) - 1) if alternative == "less" else sps.t.sf(t, len(d) - 1))


def one_sided_p(diff, alternative: str) -> float:
    """The p-value of "the differences lie {below, above} zero": the larger of the exact
    signed-rank test's (about the pseudo-median) and Student's t-test's (about the mean), so a
    verdict needs both. With equal methods (exchangeable runs, so symmetric differences) the
    signed-rank test is exact and so is the bound on each wrong verdict. About the mean of strongly
    skewed differences both tests are only approximate at a few seeds: a mean-zero difference whose
    median is not zero (lognormal, sigma 1.2, 10 seeds) comes out "better" in about 23% of cases."""
    return max(signed_rank_p(diff, alternative), t_p(diff, alternative))


def _t_interval(v, level: float = 0.95) -> tuple[float, float]:
    """Student-t interval of the mean of ``v`` (the estimand the t-test of :func:`one_sided_p` is about)."""
    v = np.asarray(v, dtype=float)
    half = sps.t.ppf(0.5 + level / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else 0.0
    return float(v.mean() - half), float(v.mean() + half)


def _towards(values, method, competitor, direction) -> np.ndarray:
    """Per-seed advantage of ``method`` over ``competitor`` in the claimed direction (> 0: better)."""
    d = np.asarray(values[method], dtype=float) - np.asarray(values[competitor], dtype=float)
    return -d if direction == "lower" else d


def _look(adv: dict[str, np.ndarray], relation: str, margin: float, a: float) -> tuple[str, str, dict, list[str]]:
    """One look of :func:`comparison` at level ``a``: (verdict or "", reason, p-values, the competitors the
    verdict rests on)."""
    names = list(adv)
    p_better = {c: one_sided_p(v, "greater") for c, v in adv.items()}              # advantage > 0
    p_worse = {c: one_sided_p(v, "less") for c, v in adv.items()}                  # advantage < 0
    p_within = {c: max(one_sided_p(v - margin, "less"), one_sided_p(v + margin, "greater"))
                for c, v in adv.items()}                                            # |advantage| < m
    p_not_worse = {c: one_sided_p(v + margin, "greater") for c, v in adv.items()}  # advantage > -m
    p_worse_by_m = {c: one_sided_p(v + margin, "less") for c, v in adv.items()}    # advantage < -m
    p_outside = {c: min(1.0, 2 * min(one_sided_p(v - margin, "greater"), p_worse_by_m[c]))
                 for c, v in adv.items()}                                           # |advantage| > m
    ps = {"better": p_better, "worse": p_worse, "within_margin": p_within, "no_worse_by_margin": p_not_worse,
          "worse_by_margin": p_worse_by_m, "outside_margin": p_outside}

    def holm_hits(p):
        return [c for c, r in zip(names, holm([p[c] for c in names], a)) if r]

    def iut(p):
        return all(p[c] < a for c in names)

    if relation == "better":
        if worse := holm_hits(p_worse_by_m):
            return "not reproduced", f"significantly worse than {', '.join(worse)} by more than {margin:g}", ps, worse
        if equal := holm_hits(p_within):
            return "not reproduced", f"equivalent within +-{margin:g} to {', '.join(equal)}", ps, equal
        if worse := holm_hits(p_worse):  # behind, neither within the margin nor shown beyond it
            return "not reproduced", (f"significantly worse than {', '.join(worse)}, not shown worse by more than "
                                      f"{margin:g}"), ps, worse
        if iut(p_better):
            return "reproduced", f"significantly better than each of {len(names)}", ps, names
    elif relation == "no worse":
        if worse := holm_hits(p_worse_by_m):
            return "not reproduced", f"significantly worse by more than {margin:g} than {', '.join(worse)}", ps, worse
        if iut(p_not_worse):
            return "reproduced", f"significantly less than {margin:g} worse than each of {len(names)}", ps, names
    else:
        if apart := holm_hits(p_outside):
            return "not reproduced", f"differs by more than {margin:g} from {', '.join(apart)}", ps, apart
        if iut(p_within):
            return "reproduced", f"within +-{margin:g} of each of {len(names)}", ps, names
    return "", "", ps, []


def leans(adv: dict[str, np.ndarray], relation: str, margin: float) -> str:
    """Which way an undecided comparison points, from each competitor's mean advantage (in the
    claimed direction) and the wins out of n. "better": ``for`` when every mean advantage is at
    least the margin and a majority of seeds win; ``against`` when some mean is negative with a
    minority of wins, or within the margin (the claim is heading for "equivalent"). "no worse":
    ``for`` when every mean is above -m, ``against`` when one is below. "equivalent": ``for``
    when every |mean| is below m, ``against`` when one is above. Otherwise ``neither``."""
    n = len(next(iter(adv.values())))
    means = {c: float(v.mean()) for c, v in adv.items()}
    if relation == "better":
        if all(means[c] >= margin and (v > 0).sum() > n / 2 for c, v in adv.items()):
            return "for"
        if any((means[c] < 0 and (v > 0).sum() < n / 2) or abs(means[c]) < margin for c, v in adv.items()):
            return "against"
        return "neither"
    if relation == "no worse":
        return "for" if all(m > -margin for m in means.values()) else "against"
    return "for" if all(abs(m) < margin for m in means.values()) else "against"


def seeds_needed(adv: dict[str, np.ndarray], relation: str, margin: float, alpha: float,
                 power: float = 0.8) -> int | None:
    """Seeds that would decide the comparison with ``power`` on the observed mean advantages and
    their spread: the normal-approximation size of a one-sided paired test, divided by the
    signed-rank test's efficiency 3/pi relative to the t-test. "Reproduced" needs every competitor
    (the largest size, at ``alpha``); "not reproduced" needs one (the smallest size, at Holm's
    first step ``alpha`` / competitors); the answer is the smaller of the two. None when no
    verdict is in reach on these effects (e.g. an effect exactly on a boundary) or it would need
    more than 100,000 seeds."""
    k = len(adv)

    def size(v, effect, level, two_sided_power=False):
        if effect <= 0:
            return math.inf
        sd = float(np.std(v, ddof=1)) if len(v) > 1 else 0.0
        floor = seeds_for_level(level)
        if sd == 0:
            return floor
        z = sps.norm.ppf(1 - level) + sps.norm.ppf(1 - (1 - power) / 2 if two_sided_power else power)
        return max(floor, math.ceil((z * sd / effect) ** 2 / (3 / math.pi)))

    reproduce, refute = [], []
    for v in adv.values():
        m = float(np.mean(v))
        if relation == "better":
            reproduce.append(size(v, m, alpha))
            refute.append(min(size(v, -m, alpha / k), size(v, margin - abs(m), alpha / k, m == 0)))
        elif relation == "no worse":
            reproduce.append(size(v, m + margin, alpha))
            refute.append(size(v, -(m + margin), alpha / k))
        else:
            reproduce.append(size(v, margin - abs(m), alpha, m == 0))
            refute.append(size(v, abs(m) - margin, alpha / (2 * k)))
    best = max(min(max(reproduce), min(refute)), len(next(iter(adv.values()))) + 1)  # more than it has
    return None if not math.isfinite(best) or best > 100_000 else int(best)


def seeds_for_level(level: float) -> int:
    """Fewest pairs for which the exact signed-rank test can reach ``level`` (smallest p = 2^-n)."""
    return math.floor(math.log2(1 / level)) + 1


def comparison_rule(relation: str, stages: Sequence[int] | None, alpha: float = 0.05) -> str:
    """The decision rule of a comparison claim in words (the same text for every claim that shares
    it, so a report states each rule once)."""
    check_choice("relation", relation, RELATIONS)
    looks = (f"group-sequential looks at {', '.join(map(str, stages))} seeds, alpha={alpha:g} spent linearly in "
             "the seeds" if stages and len(stages) > 1 else f"one look at all seeds, alpha={alpha:g}")
    test = {"better": "paired tests: reproduced if better than every competitor (IUT); not "
                      "reproduced if some competitor is better (Holm) or if equivalent within the margin to one "
                      "(two one-sided tests, Holm)",
            "no worse": "paired tests shifted by the margin: reproduced if less than the margin "
                        "worse than every competitor (IUT); not reproduced if more than the margin worse than "
                        "one (Holm)",
            "equivalent": "two one-sided paired tests: reproduced if within the margin of every "
                          "competitor (IUT); not reproduced if farther than the margin from one (Holm)"}[relation]
    return (f"{test}; each test is the exact paired signed-rank test and Student's t-test on the mean, which must "
            f"agree; {looks}; the first look that decides gives the verdict")


def comparison(values: Mapping[str, Sequence[float]], method: str, competitors: Sequence[str],
               direction: str, relation: str, margin: float, stages: Sequence[int] | None = None,
               alpha: float = 0.05, contrast: str | None = None, ceiling: float | None = None) -> Decision:
    """Decide a comparison of ``method`` with ``competitors`` from paired per-seed values, by a
    group-sequential design (:class:`Design`) with looks after ``stages`` seeds (one look at all
    the seeds when None). ``values[name]`` holds one number per seed, in seed order; seeds are
    paired (same initial design and noise), and look k uses the first ``stages[k]`` of them.

    ``relation`` "better": ``method`` is {lower, higher} than each competitor. At each look, at
    that look's alpha, in this order: *not reproduced* when some competitor is significantly better
    by more than ``margin`` (Holm across competitors), when the difference to some competitor lies
    within +-``margin`` (two one-sided tests, Holm; "equivalent", a verdict resting on the margin),
    or when some competitor is significantly better by an amount neither inside nor beyond the
    margin; *reproduced* when ``method`` is significantly better than every competitor
    (intersection-union); otherwise the next look.
    ``relation`` "no worse": reproduced when ``method`` is significantly less than ``margin``
    worse than every competitor; not reproduced when significantly more than ``margin`` worse
    than one. ``relation`` "equivalent": reproduced when within +-``margin`` of every competitor;
    not reproduced when significantly farther than ``margin`` from one.

    The verdict is that of the first look that decides; after the last look without one, the
    claim is *inconclusive*, with where it ``leans`` and the ``seeds_needed``. Details keep the
    per-seed values and every look.

    With ``contrast`` (a method in ``values`` that the set-up must be able to tell apart, such as
    random search), a verdict that rests on the margin ("equivalent" under "better"; "reproduced"
    under "no worse" and "equivalent") stands only if ``method`` is significantly more than
    ``margin`` better than the contrast at the same look and level; otherwise the set-up cannot
    separate methods by the margin, and the verdict is *inconclusive* ("does not discriminate here").

    With ``ceiling`` (the best value the metric can take, such as a normalised return's maximum), a
    verdict that rests on the margin stands only if the competitors it rests on have room to be told
    apart from ``method``: where ``method`` and every such competitor are within ``margin`` of the
    ceiling on more than half of the seeds, the set-up is saturated and the verdict is *inconclusive*
    ("does not discriminate here"), the mirror of the contrast's test at the floor.
    """
    check_choice("direction", direction, DIRECTIONS)
    check_choice("relation", relation, RELATIONS)
    if not margin > 0:
        raise ValueError(f"margin must be > 0 (a practical difference in the metric's units), got {margin}")
    named = (method, *competitors, *((contrast,) if contrast else ()))
    for name in named:
        check_choice("method", name, sorted(values))
    if not competitors:
        raise ValueError("a comparison needs at least one competitor")
    n = len(values[method])
    for name in named:
        if not np.all(np.isfinite(np.asarray(values[name], dtype=float))):
            raise ValueError(f"the per-seed values of {name!r} must be finite numbers; got {list(values[name])}")
    if any(len(values[c]) != n for c in named):
        raise ValueError(f"paired values need one number per seed for every method; lengths "
                         f"{ {k: len(values[k]) for k in named} }")
    design = Design(tuple(stages) if stages else (n,), alpha)
    if n < design.stages[-1] and n not in design.stages:
        raise ValueError(f"{n} seeds is not a stage of this design (stages {list(design.stages)})")
    looks, verdict, reason = [], "", ""
    for seeds, level in design.looks(n):
        adv = {c: _towards(values, method, c, direction)[:seeds] for c in competitors}
        verdict, reason, ps, resting = _look(adv, relation, margin, level)
        looks.append({"n": seeds, "alpha": level, "verdict": verdict or "continue", **ps})
        if verdict:
            break
    used = looks[-1]["n"]
    adv = {c: _towards(values, method, c, direction)[:used] for c in competitors}
    ci = {c: list(_t_interval(v)) for c, v in adv.items()}
    sign = -1.0 if direction == "lower" else 1.0  # report method - competitor in the metric's own sign
    per_seed = {k: np.asarray(values[k], dtype=float)[:used].tolist() for k in (method, *competitors)}
    details = {"relation": relation, "direction": direction, "margin": margin, "stages": list(design.stages),
               "alpha": alpha, "per_seed": per_seed, "looks": looks,
               "mean_diff": {c: float(sign * v.mean()) for c, v in adv.items()},
               "ci": {c: sorted([sign * ci[c][0], sign * ci[c][1]]) for c in competitors},
               "wins": {c: int((v > 0).sum()) for c, v in adv.items()}}
    parts = [f"{c}: diff {details['mean_diff'][c]:.4g} (95% CI {details['ci'][c][0]:.4g} to "
             f"{details['ci'][c][1]:.4g}), {details['wins'][c]}/{used} seeds better" for c in competitors]
    measured = f"{method} - competitor, n={used} (look {len(looks)} of {len(design.stages)}): " + "; ".join(parts)
    if contrast:
        measured, verdict, reason = _contrast(values, method, contrast, direction, margin, used, looks[-1]["alpha"],
                                              details, measured, verdict, reason, relation)
    if verdict == "inconclusive" and relation == "better":  # the contrast's, on an equivalence that a competitor's
        a = looks[-1]["alpha"]                               # significant lead also met: book.RULE_REVISION marks it
        behind = [c for c, r in zip(competitors, holm([looks[-1]["worse"][c] for c in competitors], a)) if r]
        if behind:
            details["rule_before"] = {"verdict": "not reproduced", "reason": f"significantly worse than {', '.join(behind)}"}
    if ceiling is not None:
        measured, verdict, reason = _ceiling(values, method, competitors, resting, direction, margin, float(ceiling),
                                             used, details, measured, verdict, reason, relation)
    if verdict == "inconclusive":  # the contrast's: final, like any verdict of a look
        return Decision(verdict, measured, f"{reason} (look {len(looks)}, n={used}, alpha={looks[-1]['alpha']:.3g})",
                        used, details)
    if verdict:
        return Decision(verdict, measured, f"{reason} at look {len(looks)} (n={used}, alpha={looks[-1]['alpha']:.3g})",
                        used, details)
    details["leans"] = leans(adv, relation, margin)
    details["seeds_needed"] = seeds_needed(adv, relation, margin, design.spent()[-1] or alpha)
    details["next_look"] = design.stages[len(looks)] if n < design.stages[-1] else None
    if n < design.stages[-1]:
        why = f"undecided after {len(looks)} of {len(design.stages)} looks (n={used}); the next look is at n={design.stages[len(looks)]}"
    else:
        why = f"undecided at the last look (n={used}, cap {design.stages[-1]})"
    needed = details["seeds_needed"]
    return Decision("inconclusive", measured, f"{why}; leans {details['leans']}; "
                    + (f"about {needed} seeds would decide it at 80% power" if needed else "no seed count would decide it on this effect"),
                    used, details)


def _on_margin(verdict: str, reason: str, relation: str) -> bool:
    """Whether a verdict of :func:`comparison` rests on the margin: "equivalent" under "better", "reproduced" under
    "no worse" and "equivalent" (the verdicts that a contrast and a ceiling test)."""
    return (verdict == "not reproduced" and reason.startswith("equivalent")) or \
        (verdict == "reproduced" and relation in ("no worse", "equivalent"))


def _contrast(values, method, contrast, direction, margin, used, level, details, measured, verdict, reason,
              relation) -> tuple[str, str, str]:
    """:func:`comparison`'s test of the set-up: is ``method`` more than ``margin`` better than
    ``contrast`` on the first ``used`` seeds? A verdict resting on the margin becomes inconclusive
    where it is not. Returns (measured, verdict, reason); ``details["contrast"]`` records the test."""
    adv = _towards(values, method, contrast, direction)[:used]
    sign = -1.0 if direction == "lower" else 1.0
    lo, hi = _t_interval(adv)
    p = one_sided_p(adv - margin, "greater")
    details["contrast"] = {"label": contrast, "mean_diff": float(sign * adv.mean()),
                           "ci": sorted([sign * lo, sign * hi]), "p_beyond_margin": p, "alpha": level,
                           "per_seed": np.asarray(values[contrast], dtype=float)[:used].tolist()}
    c = details["contrast"]
    measured += (f"; contrast {contrast}: {method} - {contrast} {c['mean_diff']:.4g} (95% CI {c['ci'][0]:.4g} to "
                 f"{c['ci'][1]:.4g})")
    if _on_margin(verdict, reason, relation) and p >= level:
        return measured, "inconclusive", (f"does not discriminate here: {reason}, but {method} is not shown more than "
                              f"{margin:g} better than {contrast} either (p={p:.3g}), so the set-up cannot "
                              "separate methods by the margin")
    return measured, verdict, reason


def _ceiling(values, method, competitors, resting, direction, margin, ceiling, used, details, measured, verdict, reason,
             relation) -> tuple[str, str, str]:
    """:func:`comparison`'s test of saturation: on how many of the first ``used`` seeds are ``method`` and each
    competitor within ``margin`` of ``ceiling`` (both at once)? A verdict resting on the margin (:func:`_on_margin`)
    becomes inconclusive where, for every competitor in ``resting``, that holds on more than half of the seeds.
    Returns (measured, verdict, reason); ``details["ceiling"]`` records the counts."""
    def near(name):
        v = np.asarray(values[name], dtype=float)[:used]
        return v >= ceiling - margin if direction == "higher" else v <= ceiling + margin

    both = {c: int(np.sum(near(method) & near(c))) for c in competitors}
    details["ceiling"] = {"value": ceiling, "both_near": both, "method_near": int(np.sum(near(method))), "n": used}
    measured += (f"; ceiling {ceiling:g}: {method} within the margin of it on {details['ceiling']['method_near']}/{used} "
                 "seeds")
    if _on_margin(verdict, reason, relation) and resting and all(both[c] > used / 2 for c in resting):
        counts = ", ".join(f"{c} {both[c]}" for c in resting)
        return measured, "inconclusive", (f"does not discriminate here: {reason}, but {method} and {', '.join(resting)} "
                                          f"are both within {margin:g} of the best value {ceiling:g} on most seeds "
                                          f"({counts} of {used}), so the set-up leaves no room to separate them by the "
                                          "margin")
    return measured, verdict, reason


def interval(estimate: float, ci: tuple[float, float], claimed: tuple[float, float], n: int | None = None,
             what: str = "estimate") -> Decision:
    """Decide "the quantity lies in ``claimed``" from its confidence interval ``ci``."""
    lo, hi = map(float, ci)
    spread = f"95% CI {lo:.4g} to {hi:.4g}" if hi > lo else "no sampling interval"  # a computed value, or equal seeds
    measured = f"{what} {estimate:.4g} ({spread}); claimed range {claimed[0]:.4g} to {claimed[1]:.4g}"
    details = {"estimate": float(estimate), "ci": [lo, hi], "claimed": [float(claimed[0]), float(claimed[1])]}
    if claimed[0] <= lo and hi <= claimed[1]:
        return Decision("reproduced", measured, "interval inside the claimed range", n, details)
    if hi < claimed[0] or lo > claimed[1]:
        return Decision("not reproduced", measured, "interval outside the claimed range", n, details)
    return Decision("inconclusive", measured, "interval straddles the claimed range", n, details)


def resampled_mean(per_seed: Sequence[float], level: float = 0.95, seed: int = 0) -> tuple[float, tuple[float, float]]:
    """Mean of per-seed estimates with a percentile-bootstrap interval over seeds."""
    x = np.asarray(per_seed, dtype=float)
    if len(x) < 2:
        raise ValueError(f"resampling over seeds needs at least 2 seeds, got {len(x)}")
    if np.ptp(x) == 0:
        return float(x[0]), (float(x[0]), float(x[0]))
    boot = sps.bootstrap((x,), np.mean, confidence_level=level, n_resamples=4000,
                         rng=np.random.default_rng(seed), method="percentile")
    return float(x.mean()), (float(boot.confidence_interval.low), float(boot.confidence_interval.high))


def rate(per_seed: Sequence[float], claimed: tuple[float, float], contrast: Sequence[float] | None = None,
         contrast_label: str = "contrast", quantity: str = "exponent") -> Decision:
    """Decide "the exponent (or another ``quantity``) lies in ``claimed``" from one estimate per seed,
    resampled over seeds.

    With ``contrast`` (per-seed exponents of a run outside the theorem's assumptions), the claim is
    reproduced only if the contrast is shown to lie *outside* the claimed range (its own verdict is
    "not reproduced"): a bound that the contrast meets as well, or may meet, does not separate
    anything, so the verdict is then inconclusive.
    """
    estimate, ci = resampled_mean(per_seed)
    decision = interval(estimate, ci, claimed, len(per_seed), quantity)
    if contrast is None:
        return decision
    c_est, c_ci = resampled_mean(contrast)
    c_decision = interval(c_est, c_ci, claimed, len(contrast), quantity)
    decision.measured += f"; {contrast_label}: {c_est:.4g} (95% CI {c_ci[0]:.4g} to {c_ci[1]:.4g})"
    decision.details["contrast"] = {"label": contrast_label, **c_decision.details}
    if decision.verdict == "reproduced" and c_decision.verdict != "not reproduced":
        decision.verdict = "inconclusive"
        where = "meets the claimed range too" if c_decision.verdict == "reproduced" else "is not shown outside the claimed range"
        decision.reason = f"does not discriminate here: the {contrast_label} {where} ({c_decision.measured})"
    elif decision.verdict == "reproduced":
        decision.reason += f"; the {contrast_label} is not ({c_decision.reason})"
    return decision


def value(estimate: float, paper_value: float, tolerance: float, ci: tuple[float, float] | None = None,
          n: int | None = None) -> Decision:
    """Decide "we obtain the paper's printed number ``paper_value`` within ``tolerance``"."""
    return interval(estimate, ci if ci is not None else (estimate, estimate),
                    (paper_value - tolerance, paper_value + tolerance), n, "measured")


def coverage(hits: Sequence[bool], level: float, margin: float, alpha: float = 0.05,
             stages: Sequence[int] | None = None) -> Decision:
    """Decide "the event holds with probability >= ``level``" from independent units ``hits``.

    Not reproduced when an exact one-sided binomial test shows coverage below ``level``;
    reproduced when one shows coverage above ``level - margin``; inconclusive otherwise. With
    ``stages``, look k tests the first ``stages[k]`` units at the share of ``alpha`` that
    :class:`Design` spends on it, and the first look that decides gives the verdict; an undecided
    look before the last records the next one (``details["next_look"]``).
    """
    hits = np.asarray(hits, dtype=bool)
    design = Design(tuple(stages), alpha) if stages else None
    plan = design.looks(len(hits)) if design else [(len(hits), alpha)]  # ValueError unless the units are a stage
    looks = []
    for units, a in plan:
        k = int(hits[:units].sum())
        low = sps.binomtest(k, units, level, alternative="less").pvalue
        high = sps.binomtest(k, units, level - margin, alternative="greater").pvalue
        looks.append({"n": units, "alpha": a, "hits": k, "p_below": low, "p_above": high})
        if low < a or high < a:
            break
    last = looks[-1]
    k, used, a = last["hits"], last["n"], last["alpha"]
    measured = f"{k} of {used} ({k / used:.3f}); claimed >= {level:g}"
    details = {"hits": k, "n": used, "level": level, "margin": margin, "p_below": last["p_below"],
               "p_above": last["p_above"], **({"stages": list(design.stages), "looks": looks} if design else {})}
    at = f" at look {len(looks)} of {len(design.stages)}, alpha={a:.3g}" if design and len(design.stages) > 1 else ""
    if last["p_below"] < a:
        return Decision("not reproduced", measured, f"coverage significantly below {level:g} (binomial "
                        f"p={last['p_below']:.3g}{at})", used, details)
    if last["p_above"] < a:
        return Decision("reproduced", measured, f"coverage significantly above {level - margin:g} "
                        f"(binomial p={last['p_above']:.3g}{at})", used, details)
    if design:
        details["next_look"] = design.stages[len(looks)] if used < design.stages[-1] else None
    needed = next(m for m in range(1, 10_000) if (level - margin) ** m < (design.spent()[-1] if design else alpha))
    return Decision("inconclusive", measured, f"neither test significant at alpha={a:g}{at} (with no misses, "
                    f"{needed} units would suffice)", used, details)


def erratum(paper_error: float, corrected_error: float, tolerance: float) -> Decision:
    """Decide "the paper's statement is wrong and the correction right" from each one's error
    against a computation (same units as ``tolerance``)."""
    measured = f"error of the paper's version {paper_error:.3g}, of the correction {corrected_error:.3g}; tolerance {tolerance:.3g}"
    details = {"paper_error": float(paper_error), "corrected_error": float(corrected_error), "tolerance": tolerance}
    if paper_error <= tolerance:
        return Decision("not reproduced", measured, "the paper's version is within tolerance: no erratum", None, details)
    if corrected_error <= tolerance:
        return Decision("reproduced", measured, "the paper's version fails and the correction holds", None, details)
    return Decision("inconclusive", measured, "both versions fail: the correction is not confirmed either", None, details)
