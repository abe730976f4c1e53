"""Faults of local runs: a killed run takes its workers with it; an unwritable cache stops the run
before its first job; a result that cannot be cached mid-run is kept and counted."""
import errno
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from bolib.errors import BolibError, NotWritableError
from bolib.executors import CacheWriteWarning, JobsFailed, run_jobs
from bolib.experiment import Cache, Job

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _jobs(n, log=None, fail=()):
    return [Job("jobs:maybe_fail", {"seed": s, "fail": s in fail, "log": log}) for s in range(n)]


def _calls(log):
    return sorted(int(s) for s in Path(log).read_text().split()) if Path(log).exists() else []


RUNNER = """
import sys
import threading

import bolib
from bolib.executors import run_jobs
from bolib.experiment import Job


def go(started, cache):
    jobs = [Job("jobs:sleepy", {"seed": s, "started": started}) for s in range(4)]
    run_jobs(jobs, executor="local", workers=2, cache_dir=cache, progress=False)


if __name__ == "__main__":
    started, cache, thread = sys.argv[1], sys.argv[2], sys.argv[3] == "thread"
    if thread:  # workers spawned by a thread other than the main one
        runner = threading.Thread(target=go, args=(started, cache))
        runner.start()
        runner.join()
    else:
        go(started, cache)
"""


def _kill_and_check_nothing_is_left(proc, started: Path, sig, n_workers=2, limit=10.0):
    """Wait until ``n_workers`` jobs run (each wrote ``started.<seed>`` holding its pid), send ``sig``
    to ``proc`` and assert that all its descendants (workers, kernel, resource tracker) are gone."""
    t = time.monotonic()
    while len(list(started.parent.glob(started.name + ".*"))) < n_workers:
        assert proc.poll() is None, f"the run ended early: {proc.returncode}"
        assert time.monotonic() - t < 180, "the workers never started"
        time.sleep(0.2)
    workers = {int(p.read_text()) for p in started.parent.glob(started.name + ".*")}
    descendants = psutil.Process(proc.pid).children(recursive=True)
    assert workers <= {p.pid for p in descendants}
    try:
        proc.send_signal(sig)
        proc.wait(60)
        gone, alive = psutil.wait_procs(descendants, timeout=limit)
        assert not alive, f"left running after {sig!r}: {[(p.pid, p.cmdline()) for p in alive]}"
    finally:
        for p in descendants:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass
    return proc.returncode


@pytest.mark.slow
@pytest.mark.parametrize("sig,thread", [(signal.SIGKILL, False), (signal.SIGTERM, False), (signal.SIGKILL, True)])
def test_killed_run_takes_its_workers_with_it(tmp_path, sig, thread):
    script = tmp_path / "runner.py"
    script.write_text(RUNNER)
    started = tmp_path / "started"
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    proc = subprocess.Popen([sys.executable, str(script), str(started), str(tmp_path / "cache"),
                             "thread" if thread else "main"], env=env, stderr=subprocess.DEVNULL)
    assert _kill_and_check_nothing_is_left(proc, started, sig) == -sig


NOTEBOOK_SETUP = """
import bolib
from bolib.experiment import Experiment
from bolib.pipeline import notebook_context

ctx = notebook_context("sleepy", profile, output_root, executor, workers, scheduler, force, seed_offset)
ctx.run(Experiment("sleepy", "jobs:sleepy", grid={{"seed": range(4)}}, fixed={{"started": {started!r}}}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killed_reproduce_leaves_no_kernel_or_worker(tmp_path, sig):
    """``python -m bolib reproduce --executor local`` on a notebook whose jobs sleep, killed while
    they run: its kernel and the kernel's workers go too; SIGTERM exits 143 with one line."""
    import nbformat

    project, started = tmp_path / "project", tmp_path / "started"
    (project / "notebooks").mkdir(parents=True)
    (project / "experiments" / "profiles").mkdir(parents=True)
    (project / "experiments" / "profiles" / "sleepy.yaml").write_text(
        "schema: {seeds: int}\nsmoke: {seeds: 4}\nquick: {seeds: 4}\npaper: {seeds: 4}\n")
    params = nbformat.v4.new_code_cell(
        'profile = "smoke"\noutput_root = None\nexecutor = "local"\nworkers = None\nscheduler = None\n'
        "force = False\nseed_offset = 0")
    params.metadata["tags"] = ["parameters"]
    nb = nbformat.v4.new_notebook(cells=[params, nbformat.v4.new_code_cell(NOTEBOOK_SETUP.format(started=str(started)))])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, project / "notebooks" / "sleepy.ipynb")
    env = dict(os.environ, PYTHONPATH=str(TESTS), BOLIB_ROOT=str(project))
    proc = subprocess.Popen([sys.executable, "-m", "bolib", "reproduce", "--profile", "smoke", "--only", "sleepy",
                             "--executor", "local", "--workers", "2", "--output-root", str(tmp_path / "out")],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    returncode = _kill_and_check_nothing_is_left(proc, started, sig)
    if sig == signal.SIGTERM:
        assert returncode == 128 + signal.SIGTERM
        assert "error: stopped by SIGTERM" in proc.stderr.read()
    else:
        assert returncode == -signal.SIGKILL


def test_unwritable_cache_fails_before_any_job(tmp_path):
    (tmp_path / "file").write_text("a file, not a folder")
    cache_dir, log = tmp_path / "file" / "cache", str(tmp_path / "log")
    with pytest.raises(NotWritableError) as info:
        run_jobs(_jobs(3, log), executor="serial", cache_dir=cache_dir, progress=False)
    assert isinstance(info.value, BolibError)
    assert f"cannot write to the cache directory {cache_dir}: Not a directory" in str(info.value)
    assert _calls(log) == []  # no job ran


def test_read_only_cache_fails_before_any_job(tmp_path, monkeypatch):
    """Tests run as root, where a chmod does not stop writes: the file system answers EROFS here."""
    cache_dir, log = tmp_path / "cache", str(tmp_path / "log")
    mkstemp = tempfile.mkstemp

    def read_only(*args, dir=None, **kwargs):
        if dir is not None and Path(dir).is_relative_to(cache_dir):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dir))
        return mkstemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(NotWritableError, match=f"cannot write to the cache directory {cache_dir}: Read-only file system"):
        run_jobs(_jobs(3, log), executor="serial", cache_dir=cache_dir, progress=False)
    assert _calls(log) == []
    assert not list(cache_dir.rglob("*"))  # nor any probe left behind


def test_all_cached_runs_need_no_writable_cache(tmp_path, monkeypatch):
    run_jobs(_jobs(2), executor="serial", cache_dir=tmp_path, progress=False)
    monkeypatch.setattr(tempfile, "mkstemp", lambda *a, **k: (_ for _ in ()).throw(PermissionError(13, "no")))
    assert run_jobs(_jobs(2), executor="serial", cache_dir=tmp_path, progress=False).values == [0, 10]


def test_results_that_cannot_be_cached_are_kept_and_counted(tmp_path, monkeypatch):
    """A full disk (ENOSPC) and an I/O error mid-run: one warning per kind naming the folder, every
    result returned, the others cached, and a count at the end; a rerun computes only the lost ones."""
    log = str(tmp_path / "log")
    store = Cache.store
    failing = {1: errno.ENOSPC, 3: errno.ENOSPC, 4: errno.EIO}

    def flaky_store(self, job, result, cost=None):
        code = failing.get(job.params["seed"])
        if code:
            raise OSError(code, os.strerror(code))
        return store(self, job, result, cost)

    monkeypatch.setattr(Cache, "store", flaky_store)
    with pytest.warns(CacheWriteWarning) as record:
        results = run_jobs(_jobs(6, log), executor="serial", cache_dir=tmp_path, progress=False)
    messages = [str(w.message) for w in record if issubclass(w.category, CacheWriteWarning)]
    assert messages == [
        f"cannot cache results in {tmp_path}: No space left on device (ENOSPC); keeping them in memory and "
        "going on with the other jobs",
        f"cannot cache results in {tmp_path}: Input/output error (EIO); keeping them in memory and going on "
        "with the other jobs",
        f"3 of 6 computed results could not be cached in {tmp_path} (ENOSPC, EIO); they are in the returned "
        "results only, and a rerun computes them again"]
    assert results.values == [0, 10, 20, 30, 40, 50]
    assert sorted(job.params["seed"] for job in results.uncached) == [1, 3, 4]
    monkeypatch.setattr(Cache, "store", store)
    again = run_jobs(_jobs(6, log), executor="serial", cache_dir=tmp_path, progress=False)
    assert again.n_cached == 3 and again.values == results.values
    assert _calls(log) == [0, 1, 1, 2, 3, 3, 4, 4, 5]


def test_failure_report_counts_uncached_results(tmp_path, monkeypatch):
    monkeypatch.setattr(Cache, "store", lambda self, job, result, cost=None: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    with pytest.warns(CacheWriteWarning), pytest.raises(JobsFailed) as info:
        run_jobs(_jobs(3, fail={2}), executor="serial", cache_dir=tmp_path, progress=False)
    assert "1 of 3 jobs failed (the others are cached, except 2 whose results could not be written)" in str(info.value)
    assert [job.params["seed"] for job in info.value.results.uncached] == [0, 1]
