"""Claims that can fail: one verdict protocol for every paper.

A notebook declares each claim of its paper *before* running anything, with the rule that will
decide it, then hands the numbers to that rule. The protocol, in one place:

=============  ==================================================================================
kind           decision rule (:mod:`bolib.claims.rules`)
=============  ==================================================================================
comparison     A against a declared set of competitors on a declared metric and budget point, with a
               practical margin in the metric's units (and its reason): exact paired signed-rank
               tests across seeds, in a group-sequential design (looks after declared stages of
               seeds, alpha spent across the looks; the first look that decides gives the
               verdict). "A is better": reproduced when A is significantly better than *each*
               competitor (intersection-union); not reproduced when some competitor is
               significantly better (Holm) or A is equivalent to one within the margin (two
               one-sided tests); "no worse" and "equivalent" likewise. Undecided at the cap:
               inconclusive, with where it leans and the seeds that would decide it.
rate           an exponent (or a bound on one) estimated per seed and resampled over seeds;
               reproduced when the interval lies in the claimed range, not reproduced when it lies
               outside. A bound every method would meet carries a *contrast* (a run the theorem
               does not cover) and reproduces only if the contrast fails it.
value          a number the paper prints, within a declared tolerance (interval rule).
coverage       "holds with probability >= level", one outcome per independent unit, exact
               binomial tests against level (not reproduced) and level - margin (reproduced).
erratum        the paper is wrong: its version fails a computation that the correction passes.
invariant      a deterministic identity or inequality: counted ("holds in 38,400 of 38,400"),
               never a verdict; a violation stops the notebook.
not run        a claim of the paper that cannot be tested here (no data, no stand-in): listed with
               its reason, never a verdict.
=============  ==================================================================================

Every claim says whose it is: ``origin="paper"`` (a statement of the paper, with its ``location``
and whether it rests on the paper's experiments or its theory, ``evidence``) or ``origin="check"``
(ours: sanity checks, contrasts, extensions). A change made after results exist is a structured
``revisions`` entry (date, what, why, the verdict before). A claim checked on substitute data or a
substitute simulator is declared with ``stand_in=...`` and counted apart. Verdicts are ``reproduced``, ``not reproduced`` or ``inconclusive``; every rule
has tests that feed it a case violating its claim (and must say ``not reproduced``) and one
satisfying it (``reproduced``). :mod:`bolib.claims.report` turns the recorded claims into the
report, the README tables and each notebook's closing discussion.
"""
from bolib.claims.book import KINDS, Claim, ClaimBook, Declaration, InvariantViolated, load_claims
from bolib.claims.rules import VERDICTS, Decision

__all__ = ["KINDS", "VERDICTS", "Claim", "ClaimBook", "Decision", "Declaration", "InvariantViolated", "load_claims"]
