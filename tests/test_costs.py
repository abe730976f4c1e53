"""The cost model (bolib.costs): what it predicts for jobs of known cost, for the committed quick run
(within 30% of its measured CPU time, per notebook), and the ``--estimate`` command."""
import json
import subprocess
import sys

import numpy as np
import pytest

from bolib import costs
from bolib.experiment import Job
from bolib.runtime import PROJECT_ROOT


def bo_measured(method, budget, seed, ask_c=1e-4, ask_g=2.0, tell_per_refit=0.05, refit=5, e=0.01, n_init=10,
                settings=None):
    """A bo_job whose ask at n observations costs ask_c * n^ask_g, whose tell refits every ``refit``
    evaluations at tell_per_refit * (n / 10)^2 seconds, and whose evaluations cost ``e`` each."""
    n = np.arange(budget, dtype=float)
    ask = np.where(n >= n_init, ask_c * n ** ask_g, 0.0)
    tell = np.where((n >= n_init) & (n % refit == 0), tell_per_refit * (n / 10) ** 2, 0.0)
    cpu = ask.sum() + tell.sum() + e * budget
    params = {"benchmark": "branin", "method": method, "seed": seed, "budget": budget, "n_init": n_init,
              "settings": {"refit_every": refit, **(settings or {})}}
    return costs.Measured(costs.BO_JOB, params, cpu, cpu, ask, tell)


def test_bo_job_cost_extrapolates_the_measured_growth_in_n():
    measured = [bo_measured("gp-ucb", 40, s) for s in range(3)] + [bo_measured("gp-ucb", 60, s) for s in range(3)]
    model = costs.CostModel(measured)
    truth = bo_measured("gp-ucb", 200, 0).cpu_s
    predicted = model.predict(Job(costs.BO_JOB, bo_measured("gp-ucb", 200, 7).params))
    assert predicted == pytest.approx(truth, rel=0.15)
    # at a measured size the prediction is the measurement
    assert model.predict(Job(costs.BO_JOB, measured[0].params)) == pytest.approx(measured[0].cpu_s, rel=0.02)


def test_a_job_far_beyond_its_group_takes_the_growth_measured_farthest_on_another_problem():
    """A step of this method costs a constant plus a cubic term (an O(n^3) fit). Its own problem was
    measured at 40-60 evaluations, where the constant dominates; another problem at 400: a run of 400 on
    the first takes the growth measured there and lands near the truth, far closer than without it."""
    def on(problem, budget, seed, scale):
        n = np.arange(budget, dtype=float)
        ask = np.where(n >= 10, scale * (0.05 + 1e-7 * n ** 3), 0.0)
        params = {"benchmark": problem, "method": "gp-ei", "seed": seed, "budget": budget, "n_init": 10}
        return costs.Measured(costs.BO_JOB, params, ask.sum(), ask.sum(), ask, np.zeros(budget))

    own = [on("branin", b, s, 1.0) for b in (40, 60) for s in range(2)]
    far = [on("hartmann6", b, s, 3.0) for b in (200, 400) for s in range(2)]
    truth = on("branin", 400, 0, 1.0).cpu_s
    job = Job(costs.BO_JOB, {**own[0].params, "budget": 400})
    alone, calibrated = costs.CostModel(own), costs.CostModel(own + far)
    assert alone.reach(job) == pytest.approx(400 / 60) and calibrated.reach(job) == pytest.approx(1.0)
    assert calibrated.predict(job) == pytest.approx(truth, rel=0.2)
    assert abs(calibrated.predict(job) - truth) < abs(alone.predict(job) - truth) / 3


def test_settings_that_change_the_work_scale_it():
    measured = [bo_measured("gp-ucb", 60, s, settings={"n_candidates": 1000}) for s in range(2)]
    model = costs.CostModel(measured)
    base = model.predict(Job(costs.BO_JOB, measured[0].params))
    params = dict(measured[0].params, settings={"refit_every": 1, "n_candidates": 2000})
    truth = bo_measured("gp-ucb", 60, 0, ask_c=2e-4, refit=1, settings={"n_candidates": 2000}).cpu_s
    assert model.predict(Job(costs.BO_JOB, params)) == pytest.approx(truth, rel=0.2) and truth > 2 * base


def test_a_job_is_predicted_from_the_measurements_nearest_its_settings():
    """Quick-like runs (refit every 5) and one paper-like run (refit every step, whose tell happens to
    cost little): a paper-like job is predicted from the paper-like run, not from the quick-like runs
    scaled up five-fold."""
    quick = [bo_measured("gp-ucb", 60, s, refit=5) for s in range(5)]
    paper = [bo_measured("gp-ucb", 200, 0, refit=1, tell_per_refit=0.002)]
    model = costs.CostModel(quick + paper)
    job = Job(costs.BO_JOB, dict(paper[0].params, seed=3))
    assert model.predict(job) == pytest.approx(paper[0].cpu_s, rel=0.02)
    assert costs.CostModel(quick).predict(job) > 3 * paper[0].cpu_s


def test_a_route_measured_on_another_problem_predicts_a_job_whose_own_problem_lacks_it():
    """Every-step refits measured on branin (costly), a refit schedule (a setting the model does not
    scale) measured on hartmann6 (cheap): a scheduled job on branin is predicted from the hartmann6 runs
    of its schedule, not from branin's runs of the other route; a job whose own problem has its route
    keeps its own problem's runs."""
    def on(problem, seed, settings, tell_per_refit):
        m = bo_measured("gp-ei", 200, seed, refit=1, tell_per_refit=tell_per_refit, settings=settings)
        return costs.Measured(m.fn, {**m.params, "benchmark": problem}, m.cpu_s, m.wall_s, m.ask, m.tell)

    every = [on("branin", s, {}, 0.05) for s in range(3)]
    scheduled = [on("hartmann6", s, {"refit_growth": 0.25}, 0.002) for s in range(2)]
    model = costs.CostModel(every + scheduled)
    job = Job(costs.BO_JOB, {**every[0].params, "seed": 9, "settings": scheduled[0].params["settings"]})
    assert model.predict(job) == pytest.approx(scheduled[0].cpu_s, rel=0.02)
    assert costs.CostModel(every).predict(job) > 2 * scheduled[0].cpu_s  # branin's runs of the other route
    assert model.predict(Job(costs.BO_JOB, {**every[0].params, "seed": 9})) == pytest.approx(every[0].cpu_s, rel=0.02)


def test_other_job_functions_grow_as_measured_in_their_size():
    fn = "bolib.papers.bore:finite_run"
    measured = [costs.Measured(fn, {"rule": "bore", "seed": s, "T": T}, 1e-4 * T ** 1.5, 1e-4 * T ** 1.5)
                for T in (50, 100, 200) for s in range(2)]
    model = costs.CostModel(measured)
    assert model.predict(Job(fn, {"rule": "bore", "seed": 9, "T": 800})) == pytest.approx(1e-4 * 800 ** 1.5, rel=1e-6)
    with pytest.raises(costs.BolibError, match="no measured job"):
        model.predict(Job("bolib.papers.bore:batch_run", {"seed": 0, "T": 10}))


@pytest.mark.parametrize("notebook", sorted(costs.PLANS))
def test_the_model_holds_the_quick_run_within_30_percent(notebook):
    """Calibrated on the committed measurements, the model predicts the CPU time the committed quick
    run measured for its jobs within 30%, per notebook."""
    run = PROJECT_ROOT / "experiments" / "quick"
    model = costs.CostModel(costs.measured_jobs(*costs.calibration_runs()))
    mine = costs.measured_jobs(run, notebook=notebook)
    measured = sum(m.cpu_s for m in mine)
    assert mine and measured > 0
    predicted = sum(model.predict(Job(m.fn, m.params)) for m in mine)
    print(f"{notebook}: measured {measured / 3600:.3f} CPU-h, predicted {predicted / 3600:.3f}")
    assert predicted == pytest.approx(measured, rel=0.30)


def test_estimate_prints_every_notebook_and_the_total():
    out = subprocess.run([sys.executable, "-m", "bolib", "reproduce", "--profile", "quick", "--estimate",
                          "--only", "003_bore"], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1].startswith("total: ") and lines[-1].endswith(" CPU-hours")
    assert any(line.startswith("003_bore ") for line in lines)
    bad = subprocess.run([sys.executable, "-m", "bolib", "reproduce", "--estimate", "--only", "nope"],
                         capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=120)
    assert bad.returncode == 2 and "000_egpts" in bad.stderr


def test_readme_costs_and_paper_blocks_are_the_ones_generated_from_the_committed_runs():
    readme = (PROJECT_ROOT / "README.md").read_text()
    for name, block in {**costs.readme_block(), **costs.paper_block()}.items():
        assert f"<!-- bolib-report:{name} -->\n{block}\n<!-- /bolib-report:{name} -->" in readme, name


def test_a_calibration_part_cuts_the_bo_runs_and_keeps_the_rest_of_their_parameters():
    jobs = costs.planned_jobs("003_bore", "paper", -1, ["003-fig1-bore-hartmann6", "003-fig1-gp-hartmann6"], first_seeds=1)
    cut = costs.calibration_jobs(jobs, 510)
    assert len(cut) == len(jobs) == 3
    for job, short in zip(jobs, cut):
        assert short.params["budget"] == 510 and job.params["budget"] == 2010
        assert {k: v for k, v in short.params.items() if k != "budget"} == \
               {k: v for k, v in job.params.items() if k != "budget"}
    assert costs.calibration_jobs(jobs, 5000) == []  # nothing to cut: not a calibration part
    with pytest.raises(ValueError, match="budget"):
        costs.calibration_jobs(jobs, 0)


def test_calibrate_belongs_to_jobs_only():
    out = subprocess.run([sys.executable, "-m", "bolib", "reproduce", "--profile", "paper", "--estimate",
                          "--calibrate", "500"], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=120)
    assert out.returncode == 2 and "--calibrate" in out.stderr and "--jobs-only" in out.stderr


def test_a_part_rerun_from_the_cache_keeps_the_record_of_the_run_that_computed_it(tmp_path, monkeypatch):
    jobs = [Job("bolib.papers.bore:batch_run", {"frozen_after": 0.5, "M": 5, "T": 8, "rule": rule, "seed": 0})
            for rule in ("bore++", "bore++-frozen")]
    monkeypatch.setattr(costs, "planned_jobs", lambda *args, **kwargs: jobs)
    first = costs.run_planned("003_bore", "smoke", executor="serial", output_root=tmp_path)
    record = tmp_path / "experiments" / "smoke" / "003_bore.jobs-only.json"
    assert first["computed"] == 2 and record.read_text()
    kept = record.read_text()
    again = costs.run_planned("003_bore", "smoke", executor="serial", output_root=tmp_path)
    assert again["computed"] == 0 and record.read_text() == kept


def test_a_partial_record_keeps_the_earlier_measurements_of_jobs_it_did_not_run(tmp_path):
    """record_costs replaces the measurement of every job it finds in the cache and keeps, marked
    ``earlier``, the file's measurements of other jobs (a partial run, a cache since emptied); the
    run's measured CPU-hours count only its own jobs."""
    from bolib.experiment import Cache
    from bolib.pipeline import record_costs

    a, b, c = (Job("jobs:maybe_fail", {"seed": s}) for s in (1, 2, 3))
    run = tmp_path / "paper"
    full = Cache(tmp_path / "full")
    for job, cpu in ((a, 10.0), (b, 20.0), (c, 30.0)):
        full.store(job, 0, {"cpu_s": cpu, "wall_s": cpu})
    record_costs(run, "nb", tmp_path / "full", [a.key, b.key, c.key])
    Cache(tmp_path / "partial").store(a, 0, {"cpu_s": 11.0, "wall_s": 11.0})
    record_costs(run, "nb", tmp_path / "partial", [a.key, b.key])
    recorded = json.loads((run / "nb.costs.json").read_text())
    by_seed = {job["params"]["seed"]: job for job in recorded["jobs"]}
    assert sorted(by_seed) == [1, 2, 3] and recorded["without_record"] == 1
    assert by_seed[1]["cpu_s"] == 11.0 and "earlier" not in by_seed[1]
    assert by_seed[2] == {"key": b.key, "fn": b.fn, "params": b.params, "cpu_s": 20.0, "wall_s": 20.0, "earlier": True}
    assert by_seed[3]["earlier"] and sum(m.cpu_s for m in costs.measured_jobs(run)) == 61.0
    (run / "nb.claims.json").write_text("{}")
    assert costs.measured_cpu_h(run, "nb") == pytest.approx(11.0 / 3600)
