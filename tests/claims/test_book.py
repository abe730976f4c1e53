"""The claim book decides only claims declared beforehand, by their declared rule."""
import json

import numpy as np
import pytest

from bolib.claims import ClaimBook, InvariantViolated
from bolib.errors import BolibError

PAPER = {"origin": "paper", "location": "Fig. 1", "evidence": "experiment"}


# ---------------------------------------------------------------- the book
def test_claims_are_decided_only_by_their_declared_rule(tmp_path, methods):
    book = ClaimBook("000_x", "smoke", tmp_path / "000_x.claims.json", seed_offset=100)
    with pytest.raises(ValueError, match="valid choices"):
        book.decide("F1", {})
    book.comparison("F1", "A beats B", "better", method="A", competitors=["B"], direction="lower",
                    metric="final simple regret", budget="T=40", margin=0.1, margin_reason="noise sd",
                    figure="fig1", cell="§6.1", **PAPER)
    book.rate("R1", "sublinear", "1/2", claimed=(-np.inf, 0.75), estimator="log-log slope of BR(T)",
              contrast="random search", origin="paper", location="Theorem 1", evidence="theory")
    with pytest.raises(BolibError, match="R1"):
        book.finish()
    values = methods(8, {"A": 0.0, "B": 2.0})
    claim = book.decide("F1", values)
    assert claim.verdict == "reproduced" and claim.kind == "comparison" and "IUT" in claim.rule
    assert claim.origin == "paper" and claim.location == "Fig. 1" and claim.details["per_seed"]["A"]
    book.decide("R1", [0.5, 0.55, 0.45, 0.5], contrast=[1.0, 0.98, 1.01, 0.99])
    book.finish()
    record = json.loads((tmp_path / "000_x.claims.json").read_text())
    assert record["complete"] and record["undecided"] == []
    saved = record["claims"]
    assert [c["id"] for c in saved] == ["F1", "R1"] and saved[0]["seed_offset"] == 100
    assert saved[1]["details"]["contrast"]["label"] == "random search"
    # an edited declaration discards the verdict decided under the old one
    book.comparison("F1", "A beats B", "better", method="A", competitors=["B"], direction="higher",
                    metric="final simple regret", budget="T=40", margin=0.1, margin_reason="noise sd", **PAPER)
    assert book.undecided() == ["F1"]
    with pytest.raises(ValueError, match="competitors"):
        book.comparison("F2", "A beats A", "", method="A", competitors=["A"], direction="lower", metric="m", budget="b",
                        margin=0.1, margin_reason="noise", **PAPER)
    with pytest.raises(ValueError, match="margin > 0"):
        book.comparison("F2", "A beats B", "", method="A", competitors=["B"], direction="lower", metric="m", budget="b",
                        margin=0.0, margin_reason="", **PAPER)


def test_every_claim_says_whose_it_is_and_revisions_are_structured(tmp_path):
    book = ClaimBook("000_x", "smoke")
    with pytest.raises(ValueError, match="valid choices: check, paper"):
        book.value("V", "printed optimum", 4.69, tolerance=0.01)
    with pytest.raises(ValueError, match="needs its location"):
        book.value("V", "printed optimum", 4.69, tolerance=0.01, origin="paper", evidence="experiment")
    with pytest.raises(ValueError, match="valid choices: experiment, theory"):
        book.value("V", "printed optimum", 4.69, tolerance=0.01, origin="paper", location="Table 1")
    with pytest.raises(ValueError, match="for the paper's claims only"):
        book.value("V", "printed optimum", 4.69, tolerance=0.01, origin="check", evidence="theory")
    with pytest.raises(ValueError, match="date, changed, why, verdict_before"):
        book.value("V", "printed optimum", 4.69, tolerance=0.01, origin="check", revisions=[{"date": "2026-11-01"}])
    book.value("V", "printed optimum", 4.69, tolerance=0.01, origin="check",
               revisions=[{"date": "2026-11-01", "changed": "tolerance", "why": "print precision", "verdict_before": "x"}])
    assert book.decide("V", 4.692).revisions[0]["why"] == "print precision"


def test_invariants_are_counted_and_a_violation_stops_the_notebook(tmp_path):
    book = ClaimBook("001_x", "smoke", tmp_path / "c.json")
    claim = book.invariant("C3", "|f - mu| <= ||f|| sigma", "always", np.ones(38_400, bool), origin="check")
    assert claim.verdict == "" and claim.measured == "holds in 38,400 of 38,400"
    with pytest.raises(InvariantViolated, match="fails in 1 of 3"):
        book.invariant("C3b", "x", "always", [True, False, True], origin="check")
    assert book.claims["C3b"].measured == "holds in 2 of 3"  # recorded before stopping


def test_a_claim_not_run_is_listed_with_its_reason_and_never_gets_a_verdict(tmp_path):
    from bolib.claims import report as claims_report

    book = ClaimBook("004_x", "smoke", tmp_path / "004_x.claims.json")
    with pytest.raises(ValueError, match="reason"):
        book.not_run("F7", "Omniglot", "RM-GP-UCB best", "", **PAPER)
    claim = book.not_run("F7", "Fig. 7: few-shot Omniglot", "RM-GP-UCB best", "no offline data and no stand-in", **PAPER)
    assert claim.verdict == "" and claim.kind == "not run" and claim.measured.startswith("not run: no offline")
    book.finish()  # listed is decided: nothing is left undecided
    table = claims_report.run_claims(tmp_path)
    assert claims_report.headline(table) == ("0 of the paper's 1 experimental claims answered (0 reproduced, "
                                             "0 not reproduced, undecided 1 not run)")
    assert "**Not run** (1)" in claims_report.discussion(table)
    assert "(not run)" in claims_report.markdown(table, "t")
    assert claims_report.compare_runs(tmp_path, tmp_path).empty  # no verdict to compare


def test_staged_runs_the_next_stage_only_while_a_claim_is_open_and_keeps_decided_verdicts(tmp_path):
    from bolib.pipeline import notebook_context

    ctx = notebook_context("_template", "smoke", output_root=str(tmp_path))
    for claim_id in ("clear", "close"):
        ctx.claims.comparison(claim_id, "A beats B", "", method="A", competitors=["B"], direction="lower",
                              metric="m", budget="b", margin=0.01, margin_reason="noise", stages=[6, 12],
                              origin="check")
    rng = np.random.default_rng(0)
    base = rng.standard_normal(12)
    asked = []

    def run(seeds):
        asked.append(list(seeds))
        return values_on(len(seeds))

    def values_on(n):
        # "clear" is decided at 6 seeds; its later values would reverse it, and must not be looked at
        clear_a = np.r_[base[:6] - 5.0, base[6:] + 50.0][:n]
        return {"clear": {"A": clear_a, "B": base[:n]}, "close": {"A": base[:n] + 0.3 * np.resize([1.0, -1.0], n), "B": base[:n]}}

    ctx.staged([6, 12], run, lambda values: values)
    assert asked == [list(range(6)), list(range(12))]  # "close" was open after 6 seeds
    assert ctx.claims.claims["clear"].verdict == "reproduced" and ctx.claims.claims["clear"].n == 6
    assert len(ctx.claims.claims["close"].details["looks"]) == 2
    asked.clear()
    ctx.staged([6, 12], run, lambda values: {"clear": values["clear"]})
    assert asked == [list(range(6))]  # every claim decided at the first stage: no second stage
    with pytest.raises(BolibError, match="declared with stages"):
        ctx.staged([6, 10], run, lambda values: values)


def test_a_change_many_claims_share_is_one_revision_on_each_with_its_own_verdict_before():
    book = ClaimBook("000_x", "quick")
    for claim_id in ("F1", "F2"):
        book.comparison(claim_id, "A beats B", "", method="A", competitors=["B"], direction="lower", metric="m",
                        budget="b", margin=0.1, margin_reason="noise", origin="check")
    book.protocol_revision({"F1": "inconclusive", "F9": "reproduced"})  # F9 is not declared at this profile
    assert [r["verdict_before"] for r in book.declared["F1"].revisions] == ["inconclusive"]
    assert book.declared["F2"].revisions == () and "F9" not in book.declared
    assert "margin" in book.declared["F1"].revisions[0]["changed"]


def test_a_revision_keeps_the_record_of_a_claim_recorded_at_declaration():
    book = ClaimBook("000_x", "smoke")
    book.not_run("F7", "Fig. 7", "best", "no data", origin="check")
    book.revise({"F7": "not run"}, date="2026-11-25", changed="reason", why="clarity")
    book.protocol_revision({"F7": "inconclusive"})  # not a comparison at this profile: passed over
    assert book.undecided() == [] and len(book.claims["F7"].revisions) == 1


def test_a_verdict_the_rule_revision_changed_carries_that_revision_with_the_verdict_before():
    book = ClaimBook("000_x", "quick")
    for claim_id in ("F1", "F2"):
        book.comparison(claim_id, "A beats B", "", method="A", competitors=["B"], direction="lower", metric="m",
                        budget="b", margin=0.1, margin_reason="noise", contrast="random", origin="check")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(12) * 0.01
    flat = book.decide("F1", {"A": a, "B": a - 0.03, "random": a + 0.01 * rng.standard_normal(12)})
    assert flat.verdict == "inconclusive" and [r["date"] for r in flat.revisions] == ["2026-12-02"]
    assert flat.revisions[0]["verdict_before"] == "not reproduced (significantly worse than B)"
    kept = book.decide("F2", {"A": a, "B": a - 0.03, "random": a + 1.0})
    assert kept.verdict == "not reproduced" and kept.revisions == []
    assert book.declared["F1"].revisions == ()  # the rule's revision is the decision's, not the declaration's


def test_a_ceiling_is_declared_as_a_finite_value_and_stated_in_the_rule():
    book = ClaimBook("000_x", "quick")
    where = dict(method="A", competitors=["B"], direction="higher", metric="m", budget="b", margin=0.1,
                 margin_reason="noise", origin="check")
    declared = book.comparison("F1", "A beats B", "", ceiling=1.0, **where)
    assert declared.params["ceiling"] == 1.0 and "best value 1 on more than half" in declared.rule
    with pytest.raises(ValueError, match="finite"):
        book.comparison("F3", "A beats B", "", ceiling=float("inf"), **where)
