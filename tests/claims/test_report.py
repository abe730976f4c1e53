"""Report, README block and notebook discussion come from the claims files, the paper's claims
first and ours apart."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from bolib.claims import ClaimBook
from bolib.claims import report as claims_report
from bolib.claims.report import write_report

PAPER = {"origin": "paper", "location": "Fig. 1", "evidence": "experiment"}
REVISION = {"date": "2026-11-01", "changed": "margin 0.1 -> 0.2", "why": "the problem's noise", "verdict_before": "inconclusive"}


def _run(tmp_path, name, verdicts, methods):
    book = ClaimBook("000_x", "quick", tmp_path / name / "000_x.claims.json")
    for i, better in enumerate(verdicts):
        book.comparison(f"F{i}", f"claim {i}", "better", method="A", competitors=["B"], direction="lower",
                        metric="regret", budget="end", margin=0.1, margin_reason="noise sd", figure="fig1",
                        stand_in="diabetes for housing" if i == 2 else "", revisions=[REVISION] if i == 1 else (),
                        **PAPER)
        book.decide(f"F{i}", methods(8, {"A": 0.0, "B": 2.0 if better else -2.0}, seed=i))
    book.rate("R1", "sublinear", "1/2", claimed=(0.0, 0.75), estimator="slope", contrast="random search",
              origin="paper", location="Theorem 1", evidence="theory")
    book.decide("R1", [0.5, 0.55, 0.45, 0.5], contrast=[0.6, 0.62, 0.58, 0.61])  # does not discriminate
    book.invariant("I0", "|f - mu| <= ||f|| sigma", "always", [True, True], origin="check")
    book.finish()
    return tmp_path / name


def test_the_tally_names_the_errata_among_the_reproduced(tmp_path):
    book = ClaimBook("000_x", "quick", tmp_path / "000_x.claims.json")
    book.erratum("E1", "Table 1's optimum", "4.69", tolerance=1e-3, **PAPER)
    book.decide("E1", 0.02, 1e-6)  # the paper's value misses, the correction holds
    book.value("V1", "a printed value", 1.0, tolerance=0.1, **PAPER)
    book.decide("V1", 1.02)
    book.finish()
    table = claims_report.run_claims(tmp_path)
    assert "(2 reproduced (1 of them errata: the paper's version fails), 0 not reproduced)" in claims_report.headline(table)


def test_report_readme_and_discussion_lead_with_the_papers_claims(tmp_path, methods):
    run = _run(tmp_path, "quick", [True, True, False], methods)
    (tmp_path / "figures" / "000_x").mkdir(parents=True)
    md, html = claims_report.write_report(run)
    text = md.read_text()
    assert "3 of the paper's 3 experimental claims answered (2 reproduced, 1 not reproduced)" in text
    assert "0 of the paper's 1 theory claims answered (0 reproduced, 0 not reproduced, undecided 1 does not discriminate here)" in text
    assert "1 revised after results" in text and "margin 0.1 -> 0.2" in text
    assert "\\|f - mu\\| <= \\|\\|f\\|\\| sigma" in text  # pipes escaped: the table row stays whole
    # each rule is stated once, and the rows name it
    assert text.count("paired tests: reproduced if better") == 1 and "R1: regret at end" in text
    assert (run / "report" / "000_x_forest.png").exists() and "report/000_x_forest.png" in html.read_text()
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- bolib-report:results -->\nold\n<!-- /bolib-report:results -->\nend\n")
    assert claims_report.update_readme(readme, claims_report.readme_blocks(run)) == ["results"]
    new = readme.read_text()
    assert "\nold\n" not in new and "**000_x**: 3 of the paper's 3 experimental claims answered" in new
    assert new.endswith("end\n")
    story = claims_report.discussion(claims_report.run_claims(run))
    assert story.index("The paper's experiments, not reproduced") < story.index("The paper's theory, undecided")
    assert "F2 (comparison, stand-in)" in story and "F1 (1; before: inconclusive, now: reproduced)" in story
    assert "report: " in claims_report.end_of_run_summary(run)


def test_readme_results_are_the_blocks_generated_from_the_committed_claims():
    """The README's results block cannot drift from the run: it must equal what
    ``python -m bolib report --readme`` writes."""
    from bolib.runtime import PROJECT_ROOT

    blocks = claims_report.readme_blocks(PROJECT_ROOT / "experiments" / "quick")
    readme = (PROJECT_ROOT / "README.md").read_text()
    for name, body in blocks.items():
        assert f"<!-- bolib-report:{name} -->\n{body}\n<!-- /bolib-report:{name} -->" in readme, name


def test_a_partial_run_says_which_declared_claims_were_not_decided(tmp_path, methods):
    book = ClaimBook("000_x", "quick", tmp_path / "quick" / "000_x.claims.json")
    for claim_id, other in (("F1", "B"), ("F2", "C")):
        book.comparison(claim_id, f"A beats {other}", "better", method="A", competitors=[other], direction="lower",
                        metric="regret", budget="T=10", margin=0.1, margin_reason="noise", **PAPER)
    book.decide("F1", methods(8, {"A": 0.0, "B": 2.0}))  # the run is killed before F2 and finish()
    md, html = write_report(tmp_path / "quick")
    text = md.read_text()
    assert "Incomplete runs" in text and "the run did not finish; 1 declared claims were not decided: F2" in text
    assert "not decided: F2" in html.read_text()
    (tmp_path / "quick" / "000_x.partial.json").write_text(json.dumps(  # a partial run's record: it left fig2 out
        {"notebook": "000_x", "parts": ["fig1"], "undecided": ["F2"],
         "left_out": {"fig2": {"jobs": 4, "command": "...", "cpu_h": [1.5, 3]}}}))
    md, _ = write_report(tmp_path / "quick")
    assert "000_x: a partial run; left out: fig2 (4 jobs, 1.5-3 CPU-h), so 1 declared claims" in md.read_text()
    assert "did not finish" not in md.read_text()
    (tmp_path / "quick" / "000_x.partial.json").unlink()
    book.decide("F2", methods(8, {"A": 0.0, "C": 2.0}))
    book.finish()
    md, _ = write_report(tmp_path / "quick")
    assert "Incomplete runs" not in md.read_text()


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(_chromium() is None and not os.environ.get("CI"),
                    reason="needs Chromium (make test installs it from Debian's packages; under CI it must be there)")
def test_the_committed_report_renders_in_a_headless_browser_and_its_links_resolve(tmp_path):
    """Chromium loads ``experiments/quick/report.html``; in the DOM it built, every link and image
    points to a file that exists, and every paper has its section."""
    from bolib.runtime import PROJECT_ROOT

    page = PROJECT_ROOT / "experiments" / "quick" / "report.html"
    out = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path}",
                          "--allow-file-access-from-files", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    dom = out.stdout
    assert "<h2>Summary</h2>" in dom and "</html>" in dom, out.stderr[-2000:]
    for paper in sorted(p.name.removesuffix(".claims.json") for p in page.parent.glob("*.claims.json")):
        assert f"id=\"{paper}\"" in dom, paper
    targets = re.findall(r"(?:href|src)=\"([^\"#]+)\"", dom)
    assert any(t.endswith("_forest.png") for t in targets) and any("figures/" in t for t in targets)
    missing = [t for t in targets if not (page.parent / unquote(urlparse(t).path)).resolve().exists()]
    assert not missing, missing[:5]
    shot = tmp_path / "shot.png"
    subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path}",
                    f"--screenshot={shot}", "--window-size=1200,900", page.as_uri()], capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000  # something was drawn
    assert Path(page).stat().st_size < 3_000_000


def test_every_run_but_quick_draws_into_its_own_figure_folder(tmp_path):
    from bolib.claims.report import figure_folder
    from bolib.pipeline import Outputs

    assert figure_folder("004_rmbo", "quick") == "figures/004_rmbo"
    assert figure_folder("004_rmbo", "paper") == "figures/004_rmbo/paper"
    assert figure_folder("004_rmbo", "quick", 100) == "figures/004_rmbo/quick-seeds100"
    assert figure_folder("004_rmbo", "paper", 100) == "figures/004_rmbo/paper-seeds100"
    outputs = Outputs.under(tmp_path, "004_rmbo", "paper")
    assert outputs.figure_dir == tmp_path / "figures" / "004_rmbo" / "paper"
    assert outputs.run_dir == tmp_path / "experiments" / "paper"


def test_the_readme_paper_block_names_a_partial_runs_parts_and_what_it_left_out(tmp_path, methods):
    """``costs.paper_block``: each committed ``paper`` run's verdicts; a partial run with its parts and each
    experiment left out with its CPU-hours, and the command that computes one."""
    import json

    from bolib import costs

    assert costs.paper_block(tmp_path)["paper-results"] == "No `paper` run is committed yet."
    run = tmp_path / "experiments" / "paper"
    book = ClaimBook("000_x", "paper", run / "000_x.claims.json")
    for claim_id, other in (("F1", "B"), ("F2", "C")):
        book.comparison(claim_id, f"A beats {other}", "better", method="A", competitors=[other], direction="lower",
                        metric="regret", budget="T=10", margin=0.1, margin_reason="noise", **PAPER)
    book.decide("F1", methods(8, {"A": 0.0, "B": 2.0}))
    book.save()
    (run / "000_x.partial.json").write_text(json.dumps(
        {"notebook": "000_x", "profile": "paper", "parts": ["fig1"], "undecided": ["F2"],
         "left_out": {"fig2": {"jobs": 4, "command": "...", "cpu_h": [1.5, 3.0]}}}))
    block = costs.paper_block(tmp_path)["paper-results"]
    assert "- **000_x** (a partial run of fig1, 1 declared claims left undecided; left out, first look - cap CPU-hours: fig2 1.5 - 3): " in block
    assert "1 of the paper's 1 experimental claims answered (1 reproduced" in block
    assert "--jobs-only --experiments NAME" in block
    (run / "000_x.partial.json").write_text(json.dumps(  # the record of another run: not this one's
        {"notebook": "000_x", "profile": "paper", "parts": ["fig1"], "undecided": ["F3"], "left_out": {}}))
    block = costs.paper_block(tmp_path)["paper-results"]
    assert "partial run" not in block and "- **000_x**: " in block and "--jobs-only" not in block
