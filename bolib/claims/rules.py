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

from bolib import stats
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


def seeds_needed(alpha: float, tests: int = 1) -> int:
    """Fewest pairs for which the exact paired test can reach ``alpha / tests`` (smallest p = 2^-n)."""
    return math.floor(math.log2(tests / alpha)) + 1


def comparison(values: Mapping[str, Sequence[float]], method: str, competitors: Sequence[str],
               direction: str, alpha: float = 0.05, margin: float = 0.0) -> Decision:
    """Decide "``method`` is {lower, higher} than every competitor" from paired per-seed values.

    ``values[name]`` holds one number per seed; seeds are paired (same initial design and noise).
    See the module docstring for the rule; the test is :func:`bolib.stats.paired_test`. With a
    ``margin`` > 0 the claim is non-inferiority ("competitive"): ``method`` is no worse than each
    competitor by ``margin`` or more, i.e. the same rule applied to ``method``'s values moved by
    ``margin`` in the claimed direction.
    """
    if margin < 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    check_choice("direction", direction, DIRECTIONS)
    for name in (method, *competitors):
        check_choice("method", name, sorted(values))
    if not competitors:
        raise ValueError("a comparison needs at least one competitor")
    claimed = "less" if direction == "lower" else "greater"
    against = "greater" if claimed == "less" else "less"
    a = np.asarray(values[method], dtype=float) + (-margin if direction == "lower" else margin)
    tests = {c: stats.paired_test(a, values[c], alternative=claimed) for c in competitors}
    p_for = {c: t.p_value for c, t in tests.items()}
    p_against = {c: stats.paired_test(a, values[c], alternative=against).p_value for c in competitors}
    n = len(a)
    worse_than = [c for c, r in zip(competitors, holm([p_against[c] for c in competitors], alpha)) if r]
    parts = [f"{c}: diff {t.mean_diff:.4g} (95% CI {t.ci[0]:.4g} to {t.ci[1]:.4g}), p={t.p_value:.3g}"
             for c, t in tests.items()]
    details = {"competitors": list(competitors), "p_claimed": p_for, "p_against": p_against,
               "mean_diff": {c: t.mean_diff for c, t in tests.items()},
               "ci": {c: list(t.ci) for c, t in tests.items()}, "smallest_p": 2.0 ** -n,
               "can_reach_alpha": 2.0 ** -n < alpha, "seeds_needed": seeds_needed(alpha),
               "seeds_needed_against": seeds_needed(alpha, len(competitors))}
    shifted = f" {'-' if direction == 'lower' else '+'} margin {margin:g}" if margin else ""
    measured = f"{method}{shifted} - competitor, n={n}: " + "; ".join(parts)
    details["margin"] = margin
    if worse_than:
        return Decision("not reproduced", measured,
                        f"significantly {'higher' if claimed == 'less' else 'lower'} than {', '.join(worse_than)} "
                        f"(Holm over {len(competitors)} at alpha={alpha})", n, details)
    if 2.0 ** -n >= alpha:
        return Decision("inconclusive", measured,
                        f"n={n} seeds cannot reach alpha={alpha} (smallest p = 2^-n); needs >= {seeds_needed(alpha)}",
                        n, details)
    if max(p_for.values()) < alpha:
        within = f" (within the margin {margin:g})" if margin else ""
        return Decision("reproduced", measured, f"significantly {direction}{within} than each of {len(competitors)} "
                        f"competitor(s) (IUT, alpha={alpha})", n, details)
    undecided = [c for c in competitors if p_for[c] >= alpha]
    reason = f"not significantly {direction} than {', '.join(undecided)}"
    if 2.0 ** -n >= alpha / len(competitors):
        reason += (f"; 'not reproduced' is out of reach at n={n} (Holm's first step needs p < {alpha / len(competitors):.3g}; "
                   f"needs >= {seeds_needed(alpha, len(competitors))} seeds)")
    return Decision("inconclusive", measured, reason, n, details)


def interval(estimate: float, ci: tuple[float, float], claimed: tuple[float, float], n: int | None = None,
             what: str = "estimate") -> Decision:
    """Decide "the quantity lies in ``claimed``" from its confidence interval ``ci``."""
    lo, hi = map(float, ci)
    measured = (f"{what} {estimate:.4g} (95% CI {lo:.4g} to {hi:.4g}); claimed range "
                f"{claimed[0]:.4g} to {claimed[1]:.4g}")
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
         contrast_label: str = "contrast") -> Decision:
    """Decide "the exponent lies in ``claimed``" from one estimate per seed, resampled over seeds.

    With ``contrast`` (per-seed exponents of a run outside the theorem's assumptions), the claim is
    reproduced only if the contrast is shown to lie *outside* the claimed range (its own verdict is
    "not reproduced"): a bound that the contrast meets as well, or may meet, does not separate
    anything, so the verdict is then inconclusive.
    """
    estimate, ci = resampled_mean(per_seed)
    decision = interval(estimate, ci, claimed, len(per_seed), "exponent")
    if contrast is None:
        return decision
    c_est, c_ci = resampled_mean(contrast)
    c_decision = interval(c_est, c_ci, claimed, len(contrast), "exponent")
    decision.measured += f"; {contrast_label}: {c_est:.4g} (95% CI {c_ci[0]:.4g} to {c_ci[1]:.4g})"
    decision.details["contrast"] = {"label": contrast_label, **c_decision.details}
    if decision.verdict == "reproduced" and c_decision.verdict != "not reproduced":
        decision.verdict = "inconclusive"
        where = "inside" if c_decision.verdict == "reproduced" else "not clearly outside"
        decision.reason = f"the {contrast_label} is {where} the claimed range too, so the check does not separate them"
    elif decision.verdict == "reproduced":
        decision.reason += f"; the {contrast_label} is not ({c_decision.reason})"
    return decision


def value(estimate: float, paper_value: float, tolerance: float, ci: tuple[float, float] | None = None,
          n: int | None = None) -> Decision:
    """Decide "we obtain the paper's printed number ``paper_value`` within ``tolerance``"."""
    return interval(estimate, ci if ci is not None else (estimate, estimate),
                    (paper_value - tolerance, paper_value + tolerance), n, "measured")


def coverage(hits: Sequence[bool], level: float, margin: float, alpha: float = 0.05) -> Decision:
    """Decide "the event holds with probability >= ``level``" from independent units ``hits``.

    Not reproduced when an exact one-sided binomial test shows coverage below ``level``;
    reproduced when one shows coverage above ``level - margin``; inconclusive otherwise.
    """
    hits = np.asarray(hits, dtype=bool)
    k, n = int(hits.sum()), len(hits)
    low = sps.binomtest(k, n, level, alternative="less").pvalue
    high = sps.binomtest(k, n, level - margin, alternative="greater").pvalue
    measured = f"{k} of {n} ({k / n:.3f}); claimed >= {level:g}"
    details = {"hits": k, "n": n, "level": level, "margin": margin, "p_below": low, "p_above": high}
    if low < alpha:
        return Decision("not reproduced", measured, f"coverage significantly below {level:g} (binomial p={low:.3g})",
                        n, details)
    if high < alpha:
        return Decision("reproduced", measured, f"coverage significantly above {level - margin:g} "
                        f"(binomial p={high:.3g})", n, details)
    needed = next(m for m in range(1, 10_000) if (level - margin) ** m < alpha)
    return Decision("inconclusive", measured, f"neither test significant at alpha={alpha} "
                    f"(with no misses, {needed} units would suffice)", n, details)


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
