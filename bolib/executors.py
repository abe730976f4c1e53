"""Executors for experiment jobs: ``serial``, ``local`` (processes, the default) and ``dask``.

All of them run :func:`bolib.experiment.execute` (single-threaded BLAS and torch) in their workers,
store each result in the cache as soon as it arrives (in the calling process), keep going when a
job fails, and raise :class:`JobsFailed` at the end, naming every failed job with its traceback.
A result computed on another code path than its job's cache key says (a Dask worker started with
``dask worker`` instead of ``python -m bolib worker``) is refused as a failed job and not cached.
Before the first job, the cache directory must prove writable (:func:`bolib.errors.check_writable`);
a result that still cannot be stored (a full disk) is kept in the returned :class:`Results` and
counted in a :class:`CacheWriteWarning`. Local workers die with the process that started them,
even when it is killed with SIGKILL (:func:`_die_with_parent`).
"""
from __future__ import annotations

import atexit
import errno
import multiprocessing
import os
import signal
import sys
import threading
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from tqdm import tqdm

from bolib import codepath, pinning
from bolib.errors import BolibError, check_choice, check_integer, check_writable
from bolib.experiment import Cache, Job, Results, default_cache_dir, execute
from bolib.runtime import set_single_thread_env

EXECUTORS = ("serial", "local", "dask")
SCHEDULER_TIMEOUT = 15  # seconds to wait for a Dask scheduler before giving up
WORKERS_TIMEOUT = 20  # seconds to wait for a Dask worker, at the start or after all workers left
POLL_S = 1.0  # how often a Dask run checks that the scheduler still has workers while it waits
WORKER_COMMAND = "python -m bolib worker"  # starts a Dask worker on the pinned code path


class JobsFailed(RuntimeError):
    """Some jobs raised; the others finished and are cached."""

    def __init__(self, failures: list[tuple[Job, str]], results: Results):
        self.failures, self.results = failures, results
        cached = (f"the others are cached, except {len(results.uncached)} whose results could not be written"
                  if results.uncached else "the others are cached")
        lines = [f"{len(failures)} of {len(results.jobs)} jobs failed ({cached}):"]
        for job, tb in failures:
            lines += [f"--- {job.describe()}", tb.rstrip()]
        super().__init__("\n".join(lines))


class SchedulerUnreachable(BolibError, ConnectionError):
    pass


class DaskWorkersGone(BolibError, RuntimeError):
    """The Dask scheduler has no workers (none came, or all of them left during a run)."""


def _code_path_refusal(ran_on: str, expected: str, scheduler: str | None) -> str:
    """Why a result computed on code path ``ran_on`` is not cached under a key for ``expected``."""
    ran_on = ran_on.split(" (jobs run by")[0]  # that remark of codepath.pin is about local workers
    env = "BOLIB_CODE_PATH=native " if expected == "native" else ""
    return (f"refused: the worker computed this job on code path {ran_on!r}, but its cache key is for "
            f"{expected!r}; the result was not cached. A worker started with `dask worker` imports numpy "
            f"before bolib, so its numerical libraries are not pinned. Start the Dask workers with\n"
            f"    {env}{WORKER_COMMAND} {scheduler or 'SCHEDULER_ADDRESS'} [dask worker options]\n"
            f"which imports bolib first and then runs `dask worker` in the same process.")


def _serial(todo):
    for job in todo:
        yield job, execute(job)


_POOLS: dict[int, ProcessPoolExecutor] = {}


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_POLL_S = 0.5  # how often a worker without PR_SET_PDEATHSIG checks that its parent lives


def _arm_parent_death_signal() -> bool:
    """Linux: have the kernel SIGKILL this process when the thread that started it ends."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def _die_with_parent(parent_pid: int, use_pdeathsig: bool) -> None:
    """End this worker when its parent ends, however it ends (SIGKILL included).

    ``PR_SET_PDEATHSIG`` fires when the *thread* that spawned the worker ends, so the pool passes
    ``use_pdeathsig`` only when its workers were spawned by the main thread; otherwise, and on other
    systems, a daemon thread polls the parent's pid and exits when the worker is orphaned.
    """
    armed = use_pdeathsig and _arm_parent_death_signal()
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent_pid,), name="bolib-parent-watch", daemon=True).start()


def _init_worker(parent_pid: int | None = None, use_pdeathsig: bool = False) -> None:
    """Single-threaded BLAS; Ctrl-C is handled by the parent (which cancels the queued jobs); the
    worker dies with its parent (no orphans left running after a SIGKILL or SIGTERM of the parent)."""
    set_single_thread_env()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        _die_with_parent(parent_pid, use_pdeathsig)


def _shared_pool(workers: int) -> ProcessPoolExecutor:
    """One pool of spawned workers per size, reused by later calls in this process.

    A notebook runs many small experiments; reusing the workers saves their start-up and imports
    (seconds each). The pool shuts down when the process exits; a broken pool is replaced. All its
    workers start here, in the calling thread, so that they die with this process (see
    :func:`_die_with_parent`).
    """
    pool = _POOLS.get(workers)
    if pool is None:
        set_single_thread_env()  # inherited by the spawned workers before they import numpy
        main = threading.current_thread() is threading.main_thread()
        with pinning.pinned_environment():  # the workers start pinned, whatever this process is on
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_init_worker, initargs=(os.getpid(), main))
            for _ in range(workers):  # each submit before any worker is idle spawns one, in this thread
                pool.submit(int)
        _POOLS[workers] = pool
        atexit.register(pool.shutdown, cancel_futures=True)
    return pool


def stop_workers() -> None:
    """End the workers of every shared pool now: queued jobs are cancelled, running ones are lost
    (their results were not cached). For a prompt exit on SIGTERM, where the pool's own shutdown
    would wait for the running jobs to finish."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


def _local(todo, workers):
    try:
        pool = _shared_pool(workers)
        futures = {pool.submit(execute, job): job for job in todo}
    except BrokenProcessPool:
        _POOLS.pop(workers, None)
        pool = _shared_pool(workers)
        futures = {pool.submit(execute, job): job for job in todo}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BrokenProcessPool:
        _POOLS.pop(workers, None)
        raise
    finally:
        for future in futures:
            future.cancel()


def connect_dask(scheduler: str | None, workers: int):
    """A ``distributed.Client``: to ``scheduler`` if given, else to a new local cluster."""
    from distributed import Client, LocalCluster

    if scheduler:
        unreachable = (f"cannot reach the Dask scheduler at {scheduler!r} within {SCHEDULER_TIMEOUT} s "
                       "({}); start one with `dask scheduler` or omit --scheduler to use a local cluster")
        try:
            _probe_scheduler(scheduler, SCHEDULER_TIMEOUT)
            client = Client(scheduler, timeout=f"{SCHEDULER_TIMEOUT}s")
        except (OSError, TimeoutError, ValueError) as err:
            raise SchedulerUnreachable(unreachable.format(f"{type(err).__name__}: {err}")) from None
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except TimeoutError:
            client.close()
            raise DaskWorkersGone(
                f"the Dask scheduler at {scheduler!r} has no workers (waited {WORKERS_TIMEOUT} s); start "
                f"one with `{WORKER_COMMAND} {scheduler}`") from None
        return client, None
    env = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    with pinning.pinned_environment():  # inherited by the workers' nannies, started here
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, env=env)
    return Client(cluster), cluster


def _probe_scheduler(address: str, timeout: float) -> dict:
    """The scheduler's ``identity``, asked with a deadline on every step.

    ``distributed.Client`` waits without a deadline for the handshake of whatever listens at
    ``address`` (a socket that accepts and never answers hangs it for good); this raises
    ``TimeoutError`` instead, and ``ValueError`` if what answers is not a Dask scheduler. It runs in
    its own thread and event loop, since a notebook's thread already runs one.
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect
    from distributed.security import Security

    async def ask():
        # connect's own deadline comes first, so that a refused connection says so
        comm = await connect(address, timeout=timeout * 2 / 3, **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    def run():
        return asyncio.run(asyncio.wait_for(ask(), timeout))

    thread = ThreadPoolExecutor(1, thread_name_prefix="bolib-probe")
    try:
        identity = thread.submit(run).result(timeout + 5)
    except (asyncio.TimeoutError, TimeoutError):
        raise TimeoutError("no answer to Dask's handshake: is it a Dask scheduler's port?") from None
    finally:
        thread.shutdown(wait=False)
    if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
        kind = identity.get("type") if isinstance(identity, dict) else type(identity).__name__
        raise ValueError(f"it answers as a {kind}, not a Dask scheduler")
    return identity


def _dask(todo, workers, scheduler):
    from distributed import wait
    from distributed.client import FuturesCancelledError

    client, cluster = connect_dask(scheduler, workers)
    try:
        futures = {client.submit(execute, job, key=f"bolib-{job.key}", pure=False): job for job in todo}
        pending, no_workers_since = set(futures), None
        while pending:
            try:
                done, pending = wait(pending, timeout=POLL_S, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = ()
            except FuturesCancelledError:  # cancelled on the cluster (another client, the scheduler): failed jobs
                done = {future for future in pending if future.cancelled()}
                pending = pending - done
            for future in done:
                try:
                    outcome = future.result()
                except Exception as err:  # the worker died running it (KilledWorker), cancelled, or similar
                    outcome = ("error", f"{type(err).__name__}: {err}", None, None, None)
                yield futures[future], outcome
            if done or not pending:
                continue
            if cluster is None and not client.nthreads():  # no worker left to run the pending jobs
                no_workers_since = no_workers_since or time.monotonic()
                if time.monotonic() - no_workers_since >= WORKERS_TIMEOUT:
                    raise DaskWorkersGone(
                        f"all workers of the Dask scheduler at {scheduler!r} are gone ({len(pending)} of "
                        f"{len(futures)} jobs unfinished; the finished ones are cached); restart them with "
                        f"`{WORKER_COMMAND} {scheduler}` and rerun")
            else:
                no_workers_since = None
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class CacheWriteWarning(UserWarning):
    """A computed result could not be written to the cache; it is kept in memory for this run."""


def _store(cache: Cache, job: Job, result, cost, uncached: list, store_errors: dict) -> None:
    """Cache ``result`` with its ``cost``; if that fails (a full disk ...), note ``job`` in ``uncached`` and warn once
    per kind of failure, so that the run goes on with the result in memory."""
    try:
        cache.store(job, result, cost)
    except OSError as err:
        uncached.append(job)
        kind = errno.errorcode.get(err.errno, type(err).__name__)
        if kind not in store_errors:
            store_errors[kind] = err.strerror or str(err)
            warnings.warn(f"cannot cache results in {cache.dir}: {store_errors[kind]} ({kind}); keeping them "
                          "in memory and going on with the other jobs", CacheWriteWarning, stacklevel=3)


def run_jobs(jobs: list[Job], executor: str = "local", workers: int | None = None,
             scheduler: str | None = None, cache_dir: str | os.PathLike | None = None,
             force: bool = False, progress: bool = True, raise_on_failure: bool = True) -> Results:
    """Run ``jobs``, reading and filling the cache; returns :class:`Results` in job order."""
    check_choice("executor", executor, EXECUTORS)
    if scheduler and executor != "dask":
        raise ValueError("--scheduler needs --executor dask")
    workers = min(2, os.cpu_count() or 1) if workers is None else check_integer("workers", workers, 1)
    cache = Cache(Path(cache_dir) if cache_dir else default_cache_dir())
    positions: dict[str, list[int]] = {}
    for i, job in enumerate(jobs):
        positions.setdefault(job.key, []).append(i)
    values: list = [None] * len(jobs)
    todo, n_cached = [], 0
    for key, where in positions.items():
        hit, value = cache.lookup(jobs[where[0]], force)
        if hit:
            for i in where:
                values[i] = value
            n_cached += len(where)
        else:
            todo.append(jobs[where[0]])
    results = Results(list(jobs), values, n_cached)
    if todo:  # fail before the first job rather than lose its result
        check_writable(cache.dir)
    if executor == "dask" and todo:
        stream = _dask(todo, workers, scheduler)
    elif executor == "local" and len(todo) > 1 and workers > 1:
        stream = _local(todo, workers)
    elif todo and not codepath.in_process_is_pinned():
        # numpy or torch loaded before bolib here, so this process is not on the pinned code path:
        # compute in one pinned worker process instead, so the cached numbers are the pinned ones
        stream = _local(todo, 1)
    else:
        stream = _serial(todo)
    bar = tqdm(total=len(jobs), initial=n_cached, disable=not progress, desc="jobs", unit="job",
               mininterval=1.0)
    bar.set_postfix(cached=n_cached, failed=0)
    store_errors: dict[str, str] = {}
    for job, outcome in stream:
        if len(outcome) != 5:  # a worker whose bolib predates the code-path check or the cost record
            outcome = ("error", "refused: the worker runs another version of bolib (its execute() returned "
                       f"{len(outcome)} values, not 5); the result was not cached. Install this bolib on "
                       "the workers", "", "", None)
        status, payload, ran_on, worker_key, cost = outcome
        if status == "ok" and ran_on != job.config["code_path"]:
            status, payload = "error", _code_path_refusal(ran_on, job.config["code_path"], scheduler)
        elif status == "ok" and worker_key != job.key:
            status, payload = "error", (
                f"refused: the worker computed this job under cache key {worker_key[:16]}..., not "
                f"{job.key[:16]}...: its bolib source, library versions or pins differ from this process's "
                "(see `python -m bolib codepath` and requirements.lock on both); the result was not cached")
        if status == "ok":
            try:
                _store(cache, job, payload, cost, results.uncached, store_errors)
            except TypeError as err:  # a result the cache cannot hold: this job's failure, the value kept
                for i in positions[job.key]:
                    values[i] = payload
                status, payload = "error", f"TypeError: {err} (the value is kept in the returned results)"
        if status == "ok":
            for i in positions[job.key]:
                values[i] = payload
        else:
            results.failures.append((job, payload))
        bar.update(len(positions[job.key]))
        bar.set_postfix(cached=n_cached, failed=len(results.failures))
    bar.close()
    if results.uncached:
        warnings.warn(f"{len(results.uncached)} of {len(todo)} computed results could not be cached in {cache.dir} "
                      f"({', '.join(store_errors)}); they are in the returned results only, and a rerun computes "
                      "them again", CacheWriteWarning, stacklevel=2)
    if results.failures and raise_on_failure:
        raise JobsFailed(results.failures, results)
    return results
