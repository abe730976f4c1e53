"""Report, run comparison, README blocks and notebook discussion come from the claims files."""
from bolib.claims import ClaimBook
from bolib.claims import report as claims_report
from bolib.claims.report import write_report


def _run(tmp_path, name, verdicts, methods):
    book = ClaimBook("000_x", "quick", tmp_path / name / "000_x.claims.json")
    for i, better in enumerate(verdicts):
        book.comparison(f"F{i}", f"claim {i}", "better", method="A", competitors=["B"], direction="lower",
                        metric="regret", budget="end", figure="fig1", stand_in="diabetes for housing" if i == 2 else "")
        book.decide(f"F{i}", methods(8, {"A": 0.0, "B": 2.0 if better else -2.0}, seed=i))
    book.invariant("I0", "|f - mu| <= ||f|| sigma", "always", [True, True])
    return tmp_path / name


def test_report_compare_readme_and_discussion_come_from_the_claims(tmp_path, methods):
    run_a = _run(tmp_path, "quick", [True, True, False], methods)
    run_b = _run(tmp_path, "quick-seeds100", [True, False, False], methods)
    md, html = claims_report.write_report(run_a)
    text = md.read_text()
    assert "### comparison claims" in text and "(counted)" in text and "fig1.png" in text and html.exists()
    assert "2 reproduced, 0 inconclusive, 0 not reproduced; stand-in: 0 reproduced, 0 inconclusive, 1 not reproduced" in text
    assert "\\|f - mu\\| <= \\|\\|f\\|\\| sigma" in text  # pipes escaped: the table row stays whole
    offset = ClaimBook("000_x", "quick", tmp_path / "quick-seeds7" / "000_x.claims.json", seed_offset=7)
    offset.erratum("E1", "printed optimum", "4.693", tolerance=1e-3, figure="t1")
    offset.decide("E1", 0.018, 0.0)
    assert "(../../figures/000_x/seeds7/t1.png)" in claims_report.write_report(tmp_path / "quick-seeds7")[0].read_text()
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


def test_readme_results_are_the_blocks_generated_from_the_committed_claims():
    """The README's results tables cannot drift from the run: they must equal what
    ``python -m bolib report --compare quick quick-seeds100 --readme`` writes."""
    from bolib.runtime import PROJECT_ROOT

    runs = PROJECT_ROOT / "experiments"
    second = runs / "quick-seeds100"
    blocks = claims_report.readme_blocks(runs / "quick", second if second.is_dir() else None)
    readme = (PROJECT_ROOT / "README.md").read_text()
    for name, body in blocks.items():
        assert f"<!-- bolib-report:{name} -->\n{body}\n<!-- /bolib-report:{name} -->" in readme, name


def test_a_partial_run_says_which_declared_claims_were_not_decided(tmp_path, methods):
    book = ClaimBook("000_x", "quick", tmp_path / "quick" / "000_x.claims.json")
    book.comparison("F1", "A beats B", "better", method="A", competitors=["B"], direction="lower",
                    metric="regret", budget="T=10")
    book.comparison("F2", "A beats C", "better", method="A", competitors=["C"], direction="lower",
                    metric="regret", budget="T=10")
    book.decide("F1", methods(8, {"A": 0.0, "B": 2.0}))  # the run is killed before F2 and finish()
    md, html = write_report(tmp_path / "quick")
    text = md.read_text()
    assert "Incomplete runs" in text and "1 declared claims were not decided: F2" in text
    assert "not decided: F2" in html.read_text()
    book.decide("F2", methods(8, {"A": 0.0, "C": 2.0}))
    book.finish()
    md, _ = write_report(tmp_path / "quick")
    assert "Incomplete runs" not in md.read_text()
