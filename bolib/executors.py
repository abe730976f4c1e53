"""Executors for experiment jobs: ``serial``, ``local`` (processes, the default) and ``dask``.

All of them run :func:`bolib.experiment.execute` (single-threaded BLAS and torch) in their workers,
store each result in the cache as soon as it arrives (in the calling process), keep going when a
job fails, and raise :class:`JobsFailed` at the end, naming every failed job with its traceback.
"""
from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from tqdm import tqdm

from bolib import codepath
from bolib.errors import BolibError, check_choice
from bolib.experiment import Cache, Job, Results, default_cache_dir, execute
from bolib.runtime import set_single_thread_env

EXECUTORS = ("serial", "local", "dask")
SCHEDULER_TIMEOUT = 15  # seconds to wait for a Dask scheduler before giving up


class JobsFailed(RuntimeError):
    """Some jobs raised; the others finished and are cached."""

    def __init__(self, failures: list[tuple[Job, str]], results: Results):
        self.failures, self.results = failures, results
        lines = [f"{len(failures)} of {len(results.jobs)} jobs failed (the others are cached):"]
        for job, tb in failures:
            lines += [f"--- {job.describe()}", tb.rstrip()]
        super().__init__("\n".join(lines))


class SchedulerUnreachable(BolibError, ConnectionError):
    pass


def _serial(todo):
    for job in todo:
        yield job, execute(job)


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _init_worker() -> None:
    """Single-threaded BLAS; Ctrl-C is handled by the parent (which cancels the queued jobs)."""
    set_single_thread_env()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _shared_pool(workers: int) -> ProcessPoolExecutor:
    """One pool of spawned workers per size, reused by later calls in this process.

    A notebook runs many small experiments; reusing the workers saves their start-up and imports
    (seconds each). The pool shuts down when the process exits; a broken pool is replaced.
    """
    pool = _POOLS.get(workers)
    if pool is None:
        set_single_thread_env()  # inherited by the spawned workers before they import numpy
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_worker)
        _POOLS[workers] = pool
        atexit.register(pool.shutdown, cancel_futures=True)
    return pool


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
        try:
            return Client(scheduler, timeout=f"{SCHEDULER_TIMEOUT}s"), None
        except (OSError, TimeoutError) as err:
            raise SchedulerUnreachable(
                f"cannot reach the Dask scheduler at {scheduler!r} within {SCHEDULER_TIMEOUT} s ({err}); "
                "start one with `dask scheduler` or omit --scheduler to use a local cluster") from None
    env = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, env=env)
    return Client(cluster), cluster


def _dask(todo, workers, scheduler):
    from distributed import as_completed as dask_completed

    client, cluster = connect_dask(scheduler, workers)
    try:
        futures = {client.submit(execute, job, key=f"bolib-{job.key}", pure=False): job for job in todo}
        for future in dask_completed(futures):
            yield futures[future], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_jobs(jobs: list[Job], executor: str = "local", workers: int | None = None,
             scheduler: str | None = None, cache_dir: str | os.PathLike | None = None,
             force: bool = False, progress: bool = True, raise_on_failure: bool = True) -> Results:
    """Run ``jobs``, reading and filling the cache; returns :class:`Results` in job order."""
    check_choice("executor", executor, EXECUTORS)
    if scheduler and executor != "dask":
        raise ValueError("--scheduler needs --executor dask")
    workers = workers or min(2, os.cpu_count() or 1)
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
    for job, (status, payload) in stream:
        if status == "ok":
            cache.store(job, payload)
            for i in positions[job.key]:
                values[i] = payload
        else:
            results.failures.append((job, payload))
        bar.update(len(positions[job.key]))
        bar.set_postfix(cached=n_cached, failed=len(results.failures))
    bar.close()
    if results.failures and raise_on_failure:
        raise JobsFailed(results.failures, results)
    return results
