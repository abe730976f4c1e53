"""Recording paper claims with verdicts.

A notebook opens a :class:`ClaimBook` for its paper and records each claim it tests: the paper's
statement and value, what we measured, the test used and the verdict, one of

* ``reproduced``: the measurement supports the claim at this profile;
* ``not reproduced``: the measurement contradicts it;
* ``inconclusive``: neither, at this profile's budget.

The verdict helpers below decide from the numbers, so a verdict can always come out either way.
The book is written as JSON next to the executed notebook; ``python -m bolib report`` gathers all.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd

from bolib.errors import check_choice
from bolib.stats import PairedTest

VERDICTS = ("reproduced", "not reproduced", "inconclusive")


def verdict_from_paired(test: PairedTest, alpha: float = 0.05) -> str:
    """A claim 'a is {less, greater} than b' from a one-sided paired test and its reverse.

    Reproduced when the one-sided test in the claimed direction is significant at ``alpha``; not
    reproduced when the bootstrap interval of the mean difference lies wholly on the wrong side of
    zero; inconclusive otherwise.
    """
    if test.p_value < alpha:
        return "reproduced"
    lo, hi = test.ci
    opposite = lo > 0 if test.alternative == "less" else hi < 0
    return "not reproduced" if opposite else "inconclusive"


def verdict_from_interval(ci: tuple[float, float], claimed: tuple[float, float]) -> str:
    """A claim 'the quantity lies in ``claimed``' (e.g. a rate +- tolerance) from a confidence interval.

    Reproduced when the interval lies inside the claimed range, not reproduced when they are
    disjoint, inconclusive when they overlap only partly.
    """
    lo, hi = ci
    if claimed[0] <= lo and hi <= claimed[1]:
        return "reproduced"
    if hi < claimed[0] or lo > claimed[1]:
        return "not reproduced"
    return "inconclusive"


@dataclasses.dataclass
class Claim:
    paper: str
    id: str
    statement: str
    paper_value: str
    measured: str
    test: str
    verdict: str
    profile: str = ""
    cell: str = ""


def _fmt(value) -> str:
    if isinstance(value, float | np.floating):
        return f"{value:.4g}"
    return str(value)


class ClaimBook:
    """The claims of one paper at one profile; ``save()`` writes ``<path>`` as JSON."""

    def __init__(self, paper: str, profile: str, path: str | Path | None = None):
        self.paper, self.profile = paper, profile
        self.path = Path(path) if path else None
        self.claims: list[Claim] = []

    def record(self, id: str, statement: str, paper_value, measured, test: str, verdict: str,
               cell: str = "") -> Claim:
        check_choice("verdict", verdict, VERDICTS)
        claim = Claim(self.paper, id, statement, _fmt(paper_value), _fmt(measured), test, verdict,
                      self.profile, cell)
        self.claims = [c for c in self.claims if c.id != id] + [claim]
        if self.path:
            self.save()
        return claim

    def record_paired(self, id: str, statement: str, paper_value, test: PairedTest,
                      alpha: float = 0.05, cell: str = "") -> Claim:
        """Record a comparison claim decided by :func:`verdict_from_paired`."""
        measured = (f"mean diff {test.mean_diff:.4g} (95% CI {test.ci[0]:.4g} to {test.ci[1]:.4g}), "
                    f"p={test.p_value:.3g}, n={test.n}")
        return self.record(id, statement, paper_value, measured,
                           f"{test.test}, one-sided ({test.alternative}), alpha={alpha}",
                           verdict_from_paired(test, alpha), cell)

    def record_interval(self, id: str, statement: str, paper_value, estimate: float,
                        ci: tuple[float, float], claimed: tuple[float, float], test: str,
                        cell: str = "") -> Claim:
        """Record a claim 'the quantity lies in ``claimed``' decided by :func:`verdict_from_interval`."""
        measured = f"{estimate:.4g} (95% CI {ci[0]:.4g} to {ci[1]:.4g}); claimed range {claimed[0]:.4g} to {claimed[1]:.4g}"
        return self.record(id, statement, paper_value, measured, test,
                           verdict_from_interval(ci, claimed), cell)

    def table(self) -> pd.DataFrame:
        return pd.DataFrame([dataclasses.asdict(c) for c in self.claims],
                            columns=[f.name for f in dataclasses.fields(Claim)])

    def save(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps([dataclasses.asdict(c) for c in self.claims], indent=1))
        return self.path


def load_claims(paths) -> pd.DataFrame:
    """All claims from a set of JSON files, one row each."""
    rows = []
    for path in paths:
        rows += json.loads(Path(path).read_text())
    return pd.DataFrame(rows, columns=[f.name for f in dataclasses.fields(Claim)])
