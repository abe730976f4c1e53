"""The Dask executor against real ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1:
workers off the pinned code path are refused, and faults (a port that is no Dask scheduler, a
scheduler without workers, workers that die mid-run) fail fast with a message."""
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bolib.codepath import pins_fingerprint
from bolib import cli, codepath, executors
from bolib.executors import DaskWorkersGone, JobsFailed, SchedulerUnreachable, run_jobs
from bolib.experiment import Cache, Job

ROOT = Path(__file__).resolve().parents[1]
DASK = str(Path(sys.executable).parent / "dask")
START_TIMEOUT = 90  # seconds for a scheduler or worker process to come up on a busy machine
RUN_TIMEOUT = 120  # seconds any run_jobs call of these tests may take before the test fails


def _env(pinned: bool) -> dict:
    """This environment, without the pins unless ``pinned`` (a shell where bolib never ran)."""
    env = {k: v for k, v in os.environ.items() if pinned or k not in codepath.PINS}
    env["PYTHONPATH"] = str(Path(__file__).parent)  # the workers import tests/jobs.py
    return env


class Processes:
    """Processes started in their own process group, so that a kill reaches their children too."""

    def __init__(self, logs: Path):
        self.logs, self.running = logs, []

    def start(self, name: str, args: list[str], env: dict) -> subprocess.Popen:
        with open(self.logs / f"{name}.log", "w") as log:
            proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        self.running.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)


@pytest.fixture
def processes(tmp_path):
    procs = Processes(tmp_path)
    try:
        yield procs
    finally:
        for proc in reversed(procs.running):
            procs.kill(proc)


@pytest.fixture
def scheduler(processes, tmp_path):
    """The address of a fresh ``dask scheduler`` without workers."""
    file = tmp_path / "scheduler.json"
    proc = processes.start("scheduler", [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                         "--no-dashboard", "--scheduler-file", str(file)], _env(True))
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return json.loads(file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.2)
    pytest.fail(f"dask scheduler did not start: {(tmp_path / 'scheduler.log').read_text()[-2000:]}")


def start_worker(processes, address: str, command: list[str], *options: str, pinned_env=False) -> subprocess.Popen:
    """A worker from ``command`` (in a shell without the pins, unless ``pinned_env``), once the
    scheduler has it."""
    from distributed import Client

    proc = processes.start("worker", [*command, address, "--nthreads", "1", "--no-dashboard", *options],
                           _env(pinned_env))
    with Client(address, timeout="30s") as client:
        client.wait_for_workers(1, timeout=START_TIMEOUT)
    return proc


def bounded(fn, timeout=RUN_TIMEOUT):
    """``fn()`` in a thread, failing the test instead of hanging if it runs past ``timeout``."""
    outcome = {}

    def run():
        try:
            outcome["value"] = fn()
        except BaseException as err:  # re-raised in the test's thread
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        pytest.fail(f"still running after {timeout} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _files(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.is_file()] if directory.exists() else []


JOBS = [Job("jobs:noisy_sum", {"seed": s}) for s in (3, 4)] + [Job("jobs:torch_sqrt", {"seed": 0})]


@pytest.mark.slow
def test_plain_dask_worker_is_refused_and_nothing_cached(processes, scheduler, tmp_path):
    start_worker(processes, scheduler, [DASK, "worker"])
    with pytest.raises(JobsFailed) as info:
        bounded(lambda: run_jobs(JOBS, executor="dask", scheduler=scheduler, cache_dir=tmp_path / "cache",
                                 progress=False))
    message = str(info.value)
    assert f"{len(JOBS)} of {len(JOBS)} jobs failed" in message
    assert "refused: the worker computed this job on code path 'unpinned in this process: not opted in, call " \
           f"bolib.pin_code_paths() before importing numpy', but its cache key is for 'pinned:{pins_fingerprint()}'; " \
           "the result was not cached" in message
    assert f"\n    python -m bolib worker {scheduler} [dask worker options]\n" in message
    assert not _files(tmp_path / "cache")


@pytest.mark.slow
@pytest.mark.parametrize("command,pinned_env", [
    ([sys.executable, "-m", "bolib", "worker"], False),
    ([DASK, "worker", "--preload-nanny", "bolib.pinned"], False),  # the nanny pins; its worker inherits the pins
    ([DASK, "worker"], True),  # after eval "$(python -m bolib codepath)"
], ids=["bolib-worker", "preload-nanny", "exports"])
def test_pinned_worker_computes_and_caches_the_serial_numbers(processes, scheduler, tmp_path, command, pinned_env):
    start_worker(processes, scheduler, command, pinned_env=pinned_env)
    dask = bounded(lambda: run_jobs(JOBS, executor="dask", scheduler=scheduler, cache_dir=tmp_path / "dask",
                                    progress=False))
    serial = run_jobs(JOBS, executor="serial", cache_dir=tmp_path / "serial", progress=False)
    assert [v["value"] for v in dask.values] == [v["value"] for v in serial.values]  # bit for bit
    again = run_jobs(JOBS, executor="serial", cache_dir=tmp_path / "dask", progress=False)
    assert again.n_cached == len(JOBS) and again.values == dask.values


class _SilentHandler(threading.Thread):
    """A TCP port that accepts connections and never says a word."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port, self.clients = self.sock.getsockname()[1], []

    def run(self):
        while True:
            try:
                self.clients.append(self.sock.accept()[0])
            except OSError:
                return


@pytest.fixture(params=["silent", "http"])
def not_a_scheduler(request):
    """``tcp://`` address of a port that is not a Dask scheduler: silent, or an HTTP server (a dashboard)."""
    if request.param == "silent":
        server = _SilentHandler()
        server.start()
        yield f"tcp://127.0.0.1:{server.port}"
        server.sock.close()
    else:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
        server.shutdown()
        server.server_close()


def test_a_port_that_is_not_a_scheduler_fails_fast(not_a_scheduler, tmp_path, monkeypatch):
    assert executors.SCHEDULER_TIMEOUT <= 30  # the user-facing default
    monkeypatch.setattr(executors, "SCHEDULER_TIMEOUT", 2)
    start = time.monotonic()
    with pytest.raises(SchedulerUnreachable, match="cannot reach the Dask scheduler .* within 2 s .*handshake"):
        bounded(lambda: run_jobs(JOBS, executor="dask", scheduler=not_a_scheduler, cache_dir=tmp_path,
                                 progress=False), timeout=60)
    assert time.monotonic() - start < 15
    assert not _files(tmp_path)


def test_cli_exits_2_on_a_port_that_is_not_a_scheduler(not_a_scheduler, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(executors, "SCHEDULER_TIMEOUT", 2)
    code = bounded(lambda: cli.main(["reproduce", "--profile", "smoke", "--only", "_template",
                                     "--output-root", str(tmp_path), "--scheduler", not_a_scheduler]),
                   timeout=60)
    assert code == 2
    assert "error: cannot reach the Dask scheduler" in capsys.readouterr().err


@pytest.mark.slow
def test_scheduler_without_workers_fails_fast(scheduler, tmp_path, monkeypatch):
    assert executors.WORKERS_TIMEOUT <= 30  # the user-facing default
    monkeypatch.setattr(executors, "WORKERS_TIMEOUT", 2)
    start = time.monotonic()
    with pytest.raises(DaskWorkersGone, match=f"the Dask scheduler at '{scheduler}' has no workers "
                                              r"\(waited 2 s\); start one with `python -m bolib worker"):
        bounded(lambda: run_jobs(JOBS, executor="dask", scheduler=scheduler, cache_dir=tmp_path / "cache",
                                 progress=False), timeout=60)
    assert time.monotonic() - start < 20
    assert not _files(tmp_path / "cache")


@pytest.mark.slow
def test_workers_dying_mid_run_fail_fast_and_keep_finished_results(processes, scheduler, tmp_path, monkeypatch):
    monkeypatch.setattr(executors, "WORKERS_TIMEOUT", 3)
    monkeypatch.setattr(executors, "POLL_S", 0.5)
    worker = start_worker(processes, scheduler, [sys.executable, "-m", "bolib", "worker"], "--nthreads", "2")
    started, cache_dir = tmp_path / "started", tmp_path / "cache"
    quick, slow = (Job("jobs:sleepy", {"seed": seed, "seconds": seconds, "started": str(started)})
                   for seed, seconds in [(0, 0), (1, 600)])
    killed = {}

    def kill_when_quick_is_cached_and_slow_runs():
        deadline = time.monotonic() + RUN_TIMEOUT
        while time.monotonic() < deadline and not (Path(f"{started}.1").exists() and Cache(cache_dir).lookup(quick)[0]):
            time.sleep(0.1)
        killed["at"] = time.monotonic()
        processes.kill(worker)  # the worker and its nanny, with SIGKILL

    threading.Thread(target=kill_when_quick_is_cached_and_slow_runs, daemon=True).start()
    with pytest.raises(DaskWorkersGone, match=r"all workers of the Dask scheduler at .* are gone \(1 of 2 jobs "
                                              r"unfinished; the finished ones are cached\)"):
        bounded(lambda: run_jobs([quick, slow], executor="dask", scheduler=scheduler, cache_dir=cache_dir,
                                 progress=False))
    assert time.monotonic() - killed["at"] < 30
    assert Cache(cache_dir).lookup(quick) == (True, 0)
    assert Cache(cache_dir).lookup(slow) == (False, None)


@pytest.mark.slow
def test_a_job_cancelled_on_the_cluster_fails_alone_and_the_run_goes_on(processes, scheduler, tmp_path):
    """Another client (an operator) cancels one running job: that job is reported as failed, the run
    finishes the others and caches them."""
    from distributed import Client, Future

    start_worker(processes, scheduler, [sys.executable, "-m", "bolib", "worker"], "--nthreads", "2")
    started, cache_dir = tmp_path / "started", tmp_path / "cache"
    slow, late = (Job("jobs:sleepy", {"seed": seed, "seconds": seconds, "started": str(started)})
                  for seed, seconds in [(0, 600), (1, 3)])

    def cancel_slow_once_it_runs():
        deadline = time.monotonic() + RUN_TIMEOUT
        while time.monotonic() < deadline and not Path(f"{started}.0").exists():
            time.sleep(0.1)
        with Client(scheduler, timeout="10s") as operator:
            operator.cancel([Future(f"bolib-{slow.key}", operator)], force=True)

    threading.Thread(target=cancel_slow_once_it_runs, daemon=True).start()
    with pytest.raises(JobsFailed) as info:
        bounded(lambda: run_jobs([slow, late], executor="dask", scheduler=scheduler, cache_dir=cache_dir,
                                 progress=False))
    assert [job.key for job, _ in info.value.failures] == [slow.key]
    assert "Cancelled" in info.value.failures[0][1]
    assert Cache(cache_dir).lookup(late) == (True, 1)


def test_a_script_importing_numpy_first_still_gets_pinned_results(tmp_path):
    """Its spawned workers re-run the script (numpy first again) but inherit the pins, so they are on
    the pinned path, their results are accepted (``running_code_path``), and they take torch's square
    root with the pinned kernel (``execute``)."""
    script = tmp_path / "numpy_first.py"
    script.write_text(
        "import numpy\n"
        "import bolib\n"
        "from bolib.executors import run_jobs\n"
        "from bolib.experiment import Job\n"
        "if __name__ == '__main__':\n"
        "    jobs = [Job('jobs:noisy_sum', {'seed': s}) for s in (3, 4)] + [Job('jobs:torch_sqrt', {'seed': 0})]\n"
        f"    res = run_jobs(jobs, executor='local', workers=2, cache_dir={str(tmp_path / 'cache')!r},\n"
        "                   progress=False)\n"
        "    print(repr([v['value'] if isinstance(v['value'], str) else float(v['value']) for v in res.values]))\n")
    out = subprocess.run([sys.executable, str(script)], env=_env(False), capture_output=True, text=True,
                         timeout=RUN_TIMEOUT)
    assert out.returncode == 0, out.stderr[-3000:]
    serial = run_jobs(JOBS, executor="serial", cache_dir=tmp_path / "serial", progress=False)
    assert out.stdout.strip().splitlines()[-1] == repr([v["value"] if isinstance(v["value"], str) else float(v["value"])
                                                         for v in serial.values])


@pytest.mark.slow
def test_a_notebook_and_a_plans_jobs_run_on_real_scheduler_and_worker_processes(processes, scheduler, tmp_path):
    """``reproduce --scheduler`` runs a smoke notebook's jobs on a real ``python -m bolib worker``, and
    ``--jobs-only`` runs planned jobs there and records their cost beside the prediction."""
    start_worker(processes, scheduler, [sys.executable, "-m", "bolib", "worker"])
    out = tmp_path / "out"
    assert bounded(lambda: cli.main(["reproduce", "--profile", "smoke", "--only", "_template", "--scheduler",
                                     scheduler, "--output-root", str(out)]), timeout=600) in (0, None)
    claims = json.loads((out / "experiments" / "smoke" / "_template.claims.json").read_text())
    assert claims["provenance"]["jobs"]["n"] > 0 and _files(out / "experiments" / "cache")
    assert bounded(lambda: cli.main(["reproduce", "--profile", "smoke", "--only", "003_bore", "--jobs-only",
                                     "--experiments", "003-racing", "--scheduler", scheduler,
                                     "--output-root", str(out)]), timeout=600) in (0, None)
    outcome = json.loads((out / "experiments" / "smoke" / "003_bore.jobs-only.json").read_text())
    assert outcome["computed"] == outcome["jobs"] > 0 and outcome["executor"] == "dask"
    assert outcome["measured_cpu_h"] > 0 and outcome["predicted_cpu_h"] > 0
    recorded = json.loads((out / "experiments" / "smoke" / "003_bore.costs.json").read_text())
    assert len(recorded["jobs"]) == outcome["jobs"] and recorded["without_record"] == 0
