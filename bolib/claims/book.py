"""Declaring claims before the results and recording their verdicts.

A notebook opens a :class:`ClaimBook` (``ctx.claims``) and, before running anything, *declares*
each claim with everything that decides it: its kind, and for a comparison the method, the
competitors, the direction, the metric, the budget point and alpha; for a rate the claimed range
and the contrast; and so on (:meth:`ClaimBook.comparison`, :meth:`~ClaimBook.rate`, ...). After
the runs, :meth:`ClaimBook.decide` hands the numbers to the declared rule
(:mod:`bolib.claims.rules`); nothing about the rule can be chosen from the outcome. Invariants are
counted with :meth:`ClaimBook.invariant`, which stops the notebook on a violation. A claim of the
paper that cannot be tested here (no data, no stand-in) is listed with :meth:`ClaimBook.not_run` and
its reason, so that the report shows it instead of leaving it out.

The book is written as JSON (``<run dir>/<notebook>.claims.json``) after every decision: the
claims, whether the run is ``complete`` (set by :meth:`ClaimBook.finish`) and which declared claims
are still ``undecided``, and the run's ``provenance`` (what the results were made from, see
:meth:`bolib.pipeline.NotebookContext.provenance`), which ``python -m bolib status`` compares with
what HEAD would compute. :mod:`bolib.claims.report` gathers the files into the report, the README
tables and the notebooks' closing discussion.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bolib.claims import rules
from bolib.errors import BolibError, check_choice

KINDS = ("comparison", "rate", "value", "coverage", "erratum", "invariant", "not run")
#: whose claim: a statement the paper makes ("paper", with its ``location``) or ours ("check":
#: sanity checks, contrasts, extensions, implementation checks)
ORIGINS = ("paper", "check")
#: what a claim of the paper rests on: its experiments (figures, tables) or its theory
EVIDENCE = ("experiment", "theory")
#: a change made after results existed: when, what, why, and the verdict it had before
REVISION_FIELDS = ("date", "changed", "why", "verdict_before")
#: the change every comparison decided before the group-sequential protocol went through
PROTOCOL_REVISION = {
    "date": "2026-11-25",
    "changed": "a practical margin (with its reason), the relation and the seed stages declared; decided by the "
               "group-sequential rule, which needs the signed-rank test and the t-test on the mean to agree",
    "why": "the protocol of issue 23 (equivalence margins, seeds in stages until decided), applied to every comparison; "
           "the margins were set with the earlier quick verdict in view"}


#: the revision that :func:`bolib.claims.rules.comparison` marks (``details["rule_before"]``) on each comparison whose
#: verdict it changed
RULE_REVISION = {
    "date": "2026-12-02",
    "changed": "rule: under 'better', equivalence within the margin is tested before a competitor's significant lead, so "
               "a competitor ahead by a difference inside the margin gives 'equivalent', a verdict that rests on the margin "
               "and takes the random-search contrast (it was 'not reproduced: significantly worse' whatever the contrast); "
               "a lead shown beyond the margin comes first",
    "why": "an independent audit (paper 004, Fig. 2c): a lead of 0.0018 against a margin of 0.005 read as a reversal on a "
           "stand-in where no method was shown ahead of random search"}


class InvariantViolated(BolibError, AssertionError):
    """A deterministic identity or inequality of a proof failed: the notebook stops here."""


@dataclasses.dataclass(frozen=True)
class Declaration:
    """A claim as declared before its data: ``params`` go to the kind's rule unchanged."""

    id: str
    kind: str
    statement: str
    paper_value: str
    rule: str
    params: dict
    stand_in: str = ""
    figure: str = ""
    cell: str = ""
    origin: str = ""
    location: str = ""
    evidence: str = ""
    revisions: tuple = ()

    def __post_init__(self):
        check_choice(f"origin of claim {self.id}", self.origin, ORIGINS)
        if self.origin == "paper":
            if not self.location:
                raise ValueError(f"claim {self.id}: a claim of the paper needs its location (section, figure, "
                                 "table, theorem or equation)")
            check_choice(f"evidence of claim {self.id}", self.evidence, EVIDENCE)
        elif self.evidence:
            raise ValueError(f"claim {self.id}: evidence ({', '.join(EVIDENCE)}) is for the paper's claims only")
        revisions = tuple(dict(r) for r in self.revisions)
        for r in revisions:
            if set(r) != set(REVISION_FIELDS) or not all(isinstance(r[k], str) and r[k] for k in REVISION_FIELDS):
                raise ValueError(f"claim {self.id}: each revision needs exactly the non-empty text fields "
                                 f"{', '.join(REVISION_FIELDS)}; got {sorted(r)}")
            datetime.date.fromisoformat(r["date"])  # YYYY-MM-DD, or a ValueError naming the format
        object.__setattr__(self, "revisions", revisions)


@dataclasses.dataclass
class Claim:
    """One recorded claim: its declaration and the decision (for invariants, the count)."""

    paper: str
    id: str
    kind: str
    statement: str
    paper_value: str
    rule: str
    measured: str = ""
    verdict: str = ""
    reason: str = ""
    n: int | None = None
    stand_in: str = ""
    figure: str = ""
    cell: str = ""
    profile: str = ""
    seed_offset: int = 0
    details: dict = dataclasses.field(default_factory=dict)
    origin: str = ""
    location: str = ""
    evidence: str = ""
    revisions: list = dataclasses.field(default_factory=list)


FIELDS = [f.name for f in dataclasses.fields(Claim)]


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


class ClaimBook:
    """The claims of one paper at one profile (and seed offset); written to ``path`` as JSON.

    Each claim is first declared (:meth:`comparison`, :meth:`rate`, :meth:`value`, :meth:`coverage`,
    :meth:`erratum`: the rule, margin and stages fixed before any data), then decided on its data
    (:meth:`decide`), or counted at once (:meth:`invariant`), or recorded as not run (:meth:`not_run`).
    ``origin="paper"`` (with ``location`` and ``evidence``) marks the paper's claims, ``"check"`` ours.

    Parameters
    ----------
    paper, profile : the paper's id and the profile the notebook runs.
    path : where :meth:`save` writes the claims (``None``: not written).
    seed_offset : the first seed of the run (its claims are a replication on other seeds).
    provenance : called at :meth:`save` for what produced the claims (code, versions, machine).

    Returns
    -------
    :meth:`decide`, :meth:`invariant` and :meth:`not_run` return the :class:`Claim` recorded (its
    ``verdict``, ``measured``, ``reason``); :meth:`table` all claims as a DataFrame; :meth:`save` the path.

    Examples
    --------
    >>> from bolib.claims.book import ClaimBook
    >>> book = ClaimBook("demo", "quick")
    >>> _ = book.value("V1", "the constant is 2", 2.0, tolerance=0.1, origin="paper", location="Eq. 1",
    ...                evidence="theory")
    >>> book.decide("V1", 2.04).verdict
    'reproduced'
    """

    def __init__(self, paper: str, profile: str, path: str | Path | None = None, seed_offset: int = 0,
                 provenance: Callable[[], dict] | None = None):
        self.paper, self.profile, self.seed_offset = paper, profile, seed_offset
        self.path = Path(path) if path else None
        self.provenance = provenance
        self.complete = False
        self.declared: dict[str, Declaration] = {}
        self.claims: dict[str, Claim] = {}

    # ------------------------------------------------------------------ declarations, by kind
    def _declare(self, declaration: Declaration) -> Declaration:
        if declaration.id in self.declared and self.declared[declaration.id] != declaration:
            self.claims.pop(declaration.id, None)  # re-declared differently (an edited cell): decide again
        self.declared[declaration.id] = declaration
        return declaration

    def revise(self, verdict_before: dict[str, str], *, date: str, changed: str, why: str) -> None:
        """Add one revision (a change made after results existed) to each declared claim that
        ``verdict_before`` names, with its verdict before: for a change that many claims share.
        Claims not declared at this profile are passed over."""
        for claim_id, before in verdict_before.items():
            if claim_id in self.declared:
                declared = self.declared[claim_id]
                revision = {"date": date, "changed": changed, "why": why, "verdict_before": before}
                self.declared[claim_id] = dataclasses.replace(declared, revisions=(*declared.revisions, revision))
                if claim_id in self.claims:  # recorded at declaration (not run): the record keeps its verdict
                    self.claims[claim_id].revisions.append(revision)

    def protocol_revision(self, verdict_before: dict[str, str]) -> None:
        """Record, on each comparison decided before the group-sequential protocol, that its margin,
        relation and seed stages were declared after its quick verdict (``verdict_before``) existed
        (claims of ``verdict_before`` that this profile does not run as comparisons are passed over)."""
        self.revise({i: v for i, v in verdict_before.items()
                     if i in self.declared and self.declared[i].kind == "comparison"}, **PROTOCOL_REVISION)

    def comparison(self, id: str, statement: str, paper_value: str, *, method: str, competitors: Sequence[str],
                   direction: str, metric: str, budget: str, margin: float, margin_reason: str,
                   relation: str = "better", stages: Sequence[int] | None = None, alpha: float = 0.05,
                   contrast: str | None = None, ceiling: float | None = None, **where) -> Declaration:
        """Declare a comparison of ``method`` with each of ``competitors`` on ``metric`` at ``budget``
        (:func:`bolib.claims.rules.comparison`): ``relation`` "better" ({``direction``} than each),
        "no worse" (by less than ``margin``) or "equivalent" (within +-``margin``). ``margin`` is the
        practical difference in the metric's units, with ``margin_reason`` (the paper's scale, the
        problem's noise or resolution); ``stages`` are the seed counts of the group-sequential looks
        (the profile's cap is the last). ``contrast``: a run the set-up must tell apart from ``method``
        by more than the margin for a verdict that rests on the margin to stand (e.g. random search).
        ``ceiling``: the best value the metric can take; a verdict that rests on the margin stands only if the
        methods it rests on are not both within the margin of it on most seeds."""
        check_choice("direction", direction, rules.DIRECTIONS)
        check_choice("relation", relation, rules.RELATIONS)
        competitors = tuple(competitors)
        if not competitors or method in competitors:
            raise ValueError(f"claim {id}: competitors must be non-empty and exclude {method!r}")
        if contrast is not None and contrast in (method, *competitors):
            raise ValueError(f"claim {id}: the contrast {contrast!r} must be neither the method nor a competitor")
        if not margin > 0 or not margin_reason:
            raise ValueError(f"claim {id}: a comparison needs a margin > 0 in the metric's units and its reason")
        stages = tuple(int(s) for s in stages) if stages else None
        sides = 2 if relation == "equivalent" else 1
        if stages and self.profile != "smoke" and (why := rules.Design(stages, alpha).unreachable(len(competitors), sides)):
            raise ValueError(f"claim {id}: {why}")  # smoke profiles only exercise the code paths
        relation_text = {"better": f"{direction} than", "no worse": f"not worse by {margin:g} or more than",
                         "equivalent": f"within +-{margin:g} of"}[relation]
        rule = (f"{metric} at {budget}: {method} {relation_text} each of {', '.join(competitors)} "
                f"(margin {margin:g}: {margin_reason}); " + rules.comparison_rule(relation, stages, alpha))
        if contrast is not None:
            rule += (f"; a verdict resting on the margin stands only if {method} is significantly more than the "
                     f"margin better than {contrast} (else inconclusive: the set-up cannot separate methods)")
        if ceiling is not None:
            if not math.isfinite(ceiling):
                raise ValueError(f"claim {id}: the ceiling must be a finite value of the metric, got {ceiling}")
            rule += (f"; a verdict resting on the margin stands only if {method} and the competitors it rests on are not "
                     f"both within the margin of the metric's best value {ceiling:g} on more than half of the seeds (else "
                     "inconclusive: the set-up is saturated)")
        params = {"method": method, "competitors": competitors, "direction": direction, "relation": relation,
                  "margin": float(margin), "stages": stages, "alpha": alpha}
        params |= {"contrast": contrast} if contrast is not None else {}
        params |= {"ceiling": float(ceiling)} if ceiling is not None else {}
        return self._declare(Declaration(id, "comparison", statement, str(paper_value), rule, params, **where))

    def rate(self, id: str, statement: str, paper_value: str, *, claimed: tuple[float, float], estimator: str,
             contrast: str | None = None, quantity: str = "exponent", **where) -> Declaration:
        """Declare "the ``quantity`` (an exponent, or a ratio to a bound) lies in ``claimed``", estimated per
        seed by ``estimator`` (a description), with an optional ``contrast`` run (:func:`bolib.claims.rules.rate`)."""
        claimed = (float(claimed[0]), float(claimed[1]))
        rule = (f"{estimator}, per seed, mean with a bootstrap interval over seeds inside [{claimed[0]:g}, "
                f"{claimed[1]:g}]" + (f"; reproduced only if the contrast ({contrast}) is not" if contrast else ""))
        params = {"claimed": claimed, "contrast_label": contrast, **({"quantity": quantity} if quantity != "exponent" else {})}
        return self._declare(Declaration(id, "rate", statement, str(paper_value), rule, params, **where))

    def value(self, id: str, statement: str, paper_value: float, *, tolerance: float, **where) -> Declaration:
        """Declare "we obtain the printed ``paper_value`` within ``tolerance``" (:func:`bolib.claims.rules.value`)."""
        rule = f"measured value (with its interval, if any) within {paper_value:g} +- {tolerance:g}"
        return self._declare(Declaration(id, "value", statement, f"{paper_value:g}", rule,
                                         {"paper_value": float(paper_value), "tolerance": float(tolerance)}, **where))

    def coverage(self, id: str, statement: str, paper_value: str, *, level: float, margin: float, unit: str,
                 alpha: float = 0.05, stages: Sequence[int] | None = None, **where) -> Declaration:
        """Declare "an event holds with probability >= ``level``", counted over independent
        ``unit`` s (:func:`bolib.claims.rules.coverage`), with looks after ``stages`` units when given."""
        stages = tuple(int(s) for s in stages) if stages else None
        looks = (f"looks at {', '.join(map(str, stages))} units, alpha spent as for comparisons" if stages and len(stages) > 1
                 else f"alpha={alpha}")
        rule = (f"one outcome per {unit}; exact binomial tests: below {level:g} -> not reproduced, above "
                f"{level - margin:g} -> reproduced, {looks}")
        params = {"level": level, "margin": margin, "alpha": alpha} | ({"stages": stages} if stages else {})
        return self._declare(Declaration(id, "coverage", statement, str(paper_value), rule, params, **where))

    def erratum(self, id: str, statement: str, paper_value: str, *, tolerance: float, **where) -> Declaration:
        """Declare "the paper's ``paper_value`` is wrong" (:func:`bolib.claims.rules.erratum`)."""
        rule = f"error of the paper's version > {tolerance:g} and of the correction <= {tolerance:g}"
        return self._declare(Declaration(id, "erratum", statement, str(paper_value), rule,
                                         {"tolerance": tolerance}, **where))

    # ------------------------------------------------------------------ decisions
    def decide(self, id: str, *data, **more) -> Claim:
        """Apply the declared rule of claim ``id`` to its data and record the verdict.

        comparison: ``values`` ({name: per-seed numbers}); rate: ``per_seed`` and, if declared,
        ``contrast``; value: ``estimate`` and optional ``ci``, ``n``; coverage: ``hits``;
        erratum: ``paper_error``, ``corrected_error``.
        """
        check_choice("claim", id, sorted(self.declared))
        declared = self.declared[id]
        params = dict(declared.params)
        if declared.kind == "rate" and bool(params.get("contrast_label")) != ("contrast" in more):
            raise ValueError(f"claim {id}: declared {'with' if params.get('contrast_label') else 'without'} a contrast, "
                             f"so it must be decided {'with' if params.get('contrast_label') else 'without'} one")
        if declared.kind == "comparison":
            decision = rules.comparison(*data, **more, **params)
        elif declared.kind == "rate":
            decision = rules.rate(*data, **more, **params)
        elif declared.kind == "value":
            decision = rules.value(*data, **more, **params)
        elif declared.kind == "coverage":
            decision = rules.coverage(*data, **more, **params)
        else:
            decision = rules.erratum(*data, **more, **params)
        before = decision.details.get("rule_before")
        return self._record(declared, decision.measured, decision.verdict, decision.reason, decision.n,
                            decision.details, [{**RULE_REVISION, "verdict_before": f"{before['verdict']} ({before['reason']})"}]
                            if before else [])

    def invariant(self, id: str, statement: str, paper_value: str, holds, where: str = "", **place) -> Claim:
        """Count a deterministic identity or inequality over every case in ``holds`` (booleans).

        Recorded as "holds in k of n", never as a verdict; any violation raises
        :class:`InvariantViolated` after recording, which stops the notebook.
        """
        holds = np.asarray(holds, dtype=bool).ravel()
        declared = self._declare(Declaration(id, "invariant", statement, str(paper_value),
                                             f"every case must hold ({where})" if where else "every case must hold",
                                             {}, **place))
        k, n = int(holds.sum()), holds.size
        claim = self._record(declared, f"holds in {k:,} of {n:,}", "", "", n, {"holds": k, "cases": n})
        if k < n:
            raise InvariantViolated(f"{self.paper} {id}: {statement} fails in {n - k:,} of {n:,} cases")
        return claim

    def not_run(self, id: str, statement: str, paper_value: str, reason: str, **where) -> Claim:
        """List a claim of the paper that is not tested here, with the ``reason`` (e.g. no offline data
        and no stand-in): recorded as "not run", never as a verdict."""
        if not reason:
            raise ValueError(f"claim {id}: a claim that is not run needs its reason")
        declared = self._declare(Declaration(id, "not run", statement, str(paper_value), "not tested", {}, **where))
        return self._record(declared, f"not run: {reason}", "", "", None, {})

    def _record(self, declared: Declaration, measured, verdict, reason, n, details, by_rule=()) -> Claim:
        """Record a verdict; ``by_rule``: revisions that the rule marks on this decision (:data:`RULE_REVISION`)."""
        claim = Claim(self.paper, declared.id, declared.kind, declared.statement, declared.paper_value,
                      declared.rule, measured, verdict, reason, n, declared.stand_in, declared.figure,
                      declared.cell, self.profile, self.seed_offset, _jsonable(details), declared.origin,
                      declared.location, declared.evidence, [dict(r) for r in (*declared.revisions, *by_rule)])
        self.claims[declared.id] = claim
        if self.path:
            self.save()
        return claim

    def undecided(self) -> list[str]:
        """Ids declared but not (yet) decided."""
        return [i for i in self.declared if i not in self.claims]

    def finish(self) -> None:
        """End of a notebook: every declared claim must have been decided."""
        if self.undecided():
            raise BolibError(f"{self.paper}: claims declared but never decided: {', '.join(self.undecided())}")
        self.complete = True
        if self.path:
            self.save()

    # ------------------------------------------------------------------ output
    def declarations(self):
        """The declared claims and their rules, before any data (a notebook's claims table)."""
        import pandas as pd

        return pd.DataFrame([{"id": d.id, "origin": d.origin + (f" ({d.evidence}, {d.location})" if d.location else ""),
                              "kind": d.kind, "statement": d.statement, "paper": d.paper_value, "decided by": d.rule,
                              "stand-in": d.stand_in, "revisions": len(d.revisions)} for d in self.declared.values()])

    def table(self):
        import pandas as pd

        return pd.DataFrame([dataclasses.asdict(c) for c in self.claims.values()], columns=FIELDS)

    def save(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record = {"notebook": self.paper, "profile": self.profile, "seed_offset": self.seed_offset,
                  "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"), "complete": self.complete, "undecided": self.undecided(),
                  "claims": [dataclasses.asdict(c) for c in self.claims.values()],
                  "provenance": _jsonable(self.provenance()) if self.provenance else {}}
        self.path.write_text(json.dumps(record, indent=1))
        return self.path


def read_claims_file(path) -> dict:
    """A claims file as a dict (``notebook``, ``complete``, ``undecided``, ``claims``, ``provenance``).
    A file holding only a list of claims has no record of completeness or provenance: it reads as
    incomplete, with empty provenance."""
    data = json.loads(Path(path).read_text())
    if isinstance(data, list):
        name = Path(path).name.removesuffix(".claims.json")
        return {"notebook": name, "complete": False, "undecided": [], "claims": data, "provenance": {}}
    return data


def partial_record(path: Path, record: dict) -> dict | None:
    """The partial run's record (written by :meth:`bolib.pipeline.NotebookContext.finish`) that belongs to the claims file
    ``path`` with contents ``record``: ``<notebook>.partial.json`` beside it, if the run is incomplete and the
    record names the same undecided claims; None otherwise (a complete run, a killed or failed one, or the
    record of another run)."""
    partial = Path(path).with_name(f"{record['notebook']}.partial.json")
    if record.get("complete") or not partial.exists():
        return None
    left = json.loads(partial.read_text())
    return left if left.get("undecided") == record.get("undecided") else None


def load_claims(paths):
    """All claims from a set of JSON files, one row each (fields missing from older files empty)."""
    import pandas as pd

    rows = []
    for path in paths:
        rows += read_claims_file(path)["claims"]
    table = pd.DataFrame(rows, columns=FIELDS)
    table["revisions"] = [r if isinstance(r, list) else [] for r in table.revisions]
    table["details"] = [d if isinstance(d, dict) else {} for d in table.details]
    text = ["kind", "rule", "reason", "stand_in", "figure", "cell", "origin", "location", "evidence"]
    table[text] = table[text].astype(object).fillna("")
    return table

