import time
from pathlib import Path

import numpy as np
import pytest

from bolib.executors import JobsFailed, SchedulerUnreachable, run_jobs
from bolib.experiment import Cache, Experiment, Job

FN = "jobs:maybe_fail"


def _jobs(n, log=None, fail=()):
    return [Job(FN, {"seed": s, "fail": s in fail, "log": log}) for s in range(n)]


def _calls(log):
    return sorted(int(s) for s in Path(log).read_text().split()) if Path(log).exists() else []


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    # spawned workers must import tests/jobs.py too
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))


def test_grid_and_variants_expand_to_jobs():
    exp = Experiment("e", "jobs:maybe_fail", grid={"seed": [0, 1]}, fixed={"log": None},
                     variants=[{"fail": False}, {"fail": True}])
    assert [dict(j.params) for j in exp.jobs()] == [
        {"log": None, "fail": False, "seed": 0}, {"log": None, "fail": False, "seed": 1},
        {"log": None, "fail": True, "seed": 0}, {"log": None, "fail": True, "seed": 1}]
    with pytest.raises(ValueError, match="given twice"):
        Experiment("e", FN, grid={"seed": [0]}, fixed={"seed": 1}).jobs()


def test_notebook_functions_are_rejected():
    def local_fn(seed):
        return seed
    with pytest.raises(ValueError, match="must be importable"):
        Experiment("e", local_fn, grid={"seed": [0]}).jobs()


def test_cache_hits_and_force(tmp_path):
    log = str(tmp_path / "log")
    first = run_jobs(_jobs(3, log), executor="serial", cache_dir=tmp_path, progress=False)
    assert first.values == [0, 10, 20] and first.n_cached == 0
    again = run_jobs(_jobs(3, log), executor="serial", cache_dir=tmp_path, progress=False)
    assert again.values == [0, 10, 20] and again.n_cached == 3
    assert _calls(log) == [0, 1, 2]
    run_jobs(_jobs(3, log), executor="serial", cache_dir=tmp_path, force=True, progress=False)
    assert _calls(log) == [0, 0, 1, 1, 2, 2]


def test_killed_run_resumes_with_unfinished_jobs_only(tmp_path):
    log = str(tmp_path / "log")
    run_jobs(_jobs(2, log), executor="serial", cache_dir=tmp_path, progress=False)  # "killed" after 2
    resumed = run_jobs(_jobs(5, log), executor="serial", cache_dir=tmp_path, progress=False)
    assert resumed.n_cached == 2 and resumed.values == [0, 10, 20, 30, 40]
    assert _calls(log) == [0, 1, 2, 3, 4]
    assert not list(tmp_path.rglob(".tmp-*"))  # no half-written files left behind


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_corrupt_cache_file_is_reported_and_recomputed(tmp_path, damage):
    log = str(tmp_path / "log")
    jobs = _jobs(2, log)
    run_jobs(jobs, executor="serial", cache_dir=tmp_path, progress=False)
    path = Cache(tmp_path).path(jobs[1])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage == "truncate" else data[:-3] + b"xyz")
    with pytest.warns(UserWarning, match="corrupt cache file"):
        result = run_jobs(jobs, executor="serial", cache_dir=tmp_path, progress=False)
    assert result.values == [0, 10] and result.n_cached == 1
    assert _calls(log) == [0, 1, 1]


@pytest.mark.parametrize("executor", ["serial", "local"])
def test_failing_job_is_reported_and_others_are_cached(tmp_path, executor):
    log = str(tmp_path / "log")
    with pytest.raises(JobsFailed) as info:
        run_jobs(_jobs(4, log, fail={2}), executor=executor, cache_dir=tmp_path, progress=False)
    message = str(info.value)
    assert "1 of 4 jobs failed" in message and "seed=2" in message and "told to fail" in message
    assert "Traceback" in message
    again = run_jobs(_jobs(4, log, fail={2}), executor="serial", cache_dir=tmp_path,
                     progress=False, raise_on_failure=False)
    assert again.n_cached == 3 and again.values == [0, 10, None, 30]


def test_same_job_bit_identical_under_serial_local_and_dask(tmp_path):
    jobs = [Job("jobs:noisy_sum", {"seed": s}) for s in range(4)]
    values = {}
    for executor in ("serial", "local", "dask"):
        res = run_jobs(jobs, executor=executor, workers=2, cache_dir=tmp_path / executor, progress=False)
        values[executor] = [v["value"] for v in res.values]
    assert values["serial"] == values["local"] == values["dask"]  # exact equality, bit for bit


def test_bo_job_bit_identical_across_executors(tmp_path):
    exp = Experiment("bo", "bolib.loop:bo_job", grid={"seed": [0, 1]},
                     fixed={"benchmark": "branin", "method": "gp-ei", "budget": 8, "n_init": 4,
                            "settings": {"n_candidates": 100, "maxiter": 10}})
    runs = {ex: run_jobs(exp.jobs(), executor=ex, workers=2, cache_dir=tmp_path / ex, progress=False)
            for ex in ("serial", "local")}
    for a, b in zip(runs["serial"].values, runs["local"].values):
        np.testing.assert_array_equal(a["X"], b["X"])
        np.testing.assert_array_equal(a["y"], b["y"])


def test_unreachable_scheduler_fails_fast_and_touches_nothing(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.monotonic()
    with pytest.raises(SchedulerUnreachable, match="cannot reach the Dask scheduler"):
        run_jobs(_jobs(2), executor="dask", scheduler=f"tcp://127.0.0.1:{port}", cache_dir=tmp_path,
                 progress=False)
    assert time.monotonic() - t < 30
    assert not any(tmp_path.iterdir())


def test_unknown_executor_names_choices(tmp_path):
    with pytest.raises(ValueError, match="valid choices: dask, local, serial"):
        run_jobs(_jobs(1), executor="slurm", cache_dir=tmp_path)


def test_job_keys_tell_large_arrays_apart():
    """numpy's repr elides arrays over 1,000 elements; keys hash dtype, shape and bytes instead."""
    import numpy as np

    from bolib.experiment import Job

    a = np.zeros(2000)
    b = a.copy()
    b[1000] = 1.0
    assert repr(a) == repr(b)  # the trap
    assert Job("jobs:noisy_sum", {"x": a}).key != Job("jobs:noisy_sum", {"x": b}).key
    assert Job("jobs:noisy_sum", {"x": a}).key == Job("jobs:noisy_sum", {"x": a.copy()}).key
    assert Job("jobs:noisy_sum", {"x": a}).key != Job("jobs:noisy_sum", {"x": a.astype(np.float32)}).key
    assert Job("jobs:noisy_sum", {"x": a}).key != Job("jobs:noisy_sum", {"x": a.reshape(40, 50)}).key
    assert Job("jobs:noisy_sum", {"n": np.int64(3)}).key == Job("jobs:noisy_sum", {"n": 3}).key


@pytest.mark.parametrize("executor", ["serial", "local"])
def test_every_job_records_its_cpu_and_wall_seconds_with_its_result(tmp_path, executor):
    jobs = [Job("jobs:busy", {"seed": 0, "cpu_s": 0.3}), Job("jobs:busy", {"seed": 1, "cpu_s": 0.1, "child_cpu_s": 0.4})]
    run_jobs(jobs, executor=executor, workers=2, cache_dir=tmp_path, progress=False)
    own, with_child = (Cache(tmp_path).cost(job) for job in jobs)
    # the 0.2 s sleep shows in wall time, not CPU time (less a margin: the two clocks' windows differ by microseconds)
    assert 0.3 <= own["cpu_s"] < 0.45 and own["wall_s"] >= own["cpu_s"] + 0.15
    assert 0.5 <= with_child["cpu_s"] < 0.8, "a child process's CPU time counts"
    assert Cache(tmp_path).cost(Job("jobs:busy", {"seed": 2})) is None


def test_notebook_run_returns_one_results_per_experiment_always(tmp_path):
    from bolib.pipeline import notebook_context

    ctx = notebook_context("_template", "smoke", output_root=str(tmp_path), executor="serial")
    one = Experiment("one", FN, grid={"seed": [0, 1]})
    two = Experiment("two", FN, grid={"seed": [2]})
    (alone,) = ctx.run(one)
    assert [value for _, value in alone] == [0, 10]
    both = ctx.run(one, two)
    assert isinstance(both, tuple) and [[v for _, v in r] for r in both] == [[0, 10], [20]]


def _partial_context(tmp_path, parts):
    from bolib.pipeline import notebook_context

    ctx = notebook_context("_template", "smoke", output_root=str(tmp_path), executor="serial")
    ctx.parts = parts
    return ctx


def test_a_partial_run_leaves_out_the_experiments_outside_its_parts_unless_cached(tmp_path):
    from bolib.pipeline import NotRun

    ctx = _partial_context(tmp_path, ("keep",))
    keep, out = Experiment("keep-a", FN, grid={"seed": [0, 1]}), Experiment("out-b", FN, grid={"seed": [2]})
    (kept,) = ctx.run(keep)
    assert [value for _, value in kept] == [0, 10]
    with pytest.raises(NotRun, match="out-b: not in this partial run"):
        ctx.run(keep, out)
    assert ctx.staged([1], lambda seeds: ctx.run(out), lambda result: {}) is None
    assert ctx.left_out == {"out-b": {"jobs": 1, "command": "python -m bolib reproduce --profile smoke --only "
                                      "_template --jobs-only --experiments out-b"}}
    run_jobs(out.jobs(), executor="serial", cache_dir=ctx.outputs.cache_dir, progress=False)
    again = _partial_context(tmp_path, ("keep",))
    (cached,) = again.run(out)  # an experiment outside the parts whose jobs are all cached is read from the cache
    assert [value for _, value in cached] == [20] and again.left_out == {}
    forced = _partial_context(tmp_path, ("keep",))
    forced.force = True  # force recomputes the parts, and leaves the rest out
    with pytest.raises(NotRun):
        forced.run(out)


def test_a_partial_run_finishes_with_the_claims_of_what_it_left_out_open(tmp_path):
    import json

    from bolib.errors import BolibError

    ctx = _partial_context(tmp_path, ("keep",))
    ctx.claims.value("V1", "a value", 1.0, tolerance=0.1, origin="check")
    ctx.claims.value("V2", "another", 1.0, tolerance=0.1, origin="check")
    ctx.claims.decide("V1", 1.0)
    ctx._left_out(Experiment("out-b", FN, grid={"seed": [2]}))
    ctx.finish()
    record = json.loads(ctx.claims.path.read_text())
    partial = json.loads((ctx.outputs.run_dir / "_template.partial.json").read_text())
    assert not record["complete"] and record["undecided"] == partial["undecided"] == ["V2"]
    assert partial["parts"] == ["keep"] and list(partial["left_out"]) == ["out-b"]
    whole = _partial_context(tmp_path, None)  # a whole run must decide every claim
    whole.claims.value("V2", "another", 1.0, tolerance=0.1, origin="check")
    with pytest.raises(BolibError, match="never decided: V2"):
        whole.finish()
    whole.claims.decide("V2", 1.0)
    whole.finish()
    assert json.loads(whole.claims.path.read_text())["complete"]
    assert not (ctx.outputs.run_dir / "_template.partial.json").exists()


def test_a_partial_run_names_one_notebook_that_takes_parts_and_its_experiments(tmp_path):
    from bolib.errors import BolibError
    from bolib.pipeline import notebook_context, reproduce

    with pytest.raises(BolibError, match="its experiments: fig3-10-3-3"):
        notebook_context("002_addgpucb", "quick", output_root=str(tmp_path), parts=["nope"])
    with pytest.raises(BolibError, match="name it with --only"):
        reproduce("quick", ["002_addgpucb", "003_bore"], parts=["fig3"], output_root=tmp_path)
    with pytest.raises(BolibError, match="its experiments: fig3-10-3-3"):
        reproduce("quick", ["002_addgpucb"], parts=["nope"], output_root=tmp_path)
    with pytest.raises(BolibError, match="has no parameter 'parts'"):
        reproduce("quick", ["000_egpts"], parts=["000-e1"], output_root=tmp_path)
    assert not (tmp_path / "experiments").exists()  # refused before anything ran


def test_results_group_by_parameters_in_job_order():
    from bolib.experiment import Results

    jobs = [Job(FN, {"seed": s, "rule": r, "M": m}) for s in range(2) for r in ("a", "b") for m in (1, 5)]
    results = Results(jobs, [10 * i for i in range(len(jobs))])
    assert results.group("rule") == {"a": [0, 10, 40, 50], "b": [20, 30, 60, 70]}
    assert list(results.group("rule", "M")) == [("a", 1), ("a", 5), ("b", 1), ("b", 5)]
    stacked = results.group("M", value=lambda v: [v, -v], stack=True)
    assert stacked[5].shape == (4, 2) and stacked[5][:, 0].tolist() == [10, 30, 50, 70]
