"""One BO loop for every method: sequential, synchronous batches, or asynchronous workers.

The loop charges the shared initial design to the budget, draws observation noise and evaluation
durations from streams that depend only on the seed and the evaluation index (so methods compared
under one seed see the same initial points, the same noise and the same durations), and records a
:class:`Trace`.

* ``sequential``: ask one point, evaluate, tell; repeat.
* ``sync``: ask ``batch_size`` points, evaluate them all, tell them all; one round lasts as long as
  its slowest evaluation.
* ``async``: ``batch_size`` workers on a simulated clock; whenever one finishes, its result is told
  and that worker gets a new point (the others' points are pending meanwhile).
"""
from __future__ import annotations

import dataclasses
import heapq
import time

import numpy as np

from bolib.algorithms import Optimizer, make_optimizer, method_entry
from bolib.benchmarks import Problem, benchmark_entry, get_benchmark
from bolib.errors import check_choice
from bolib.provenance import depends_on
from bolib.runtime import rng

MODES = ("sequential", "sync", "async")
DURATIONS = ("constant", "exponential")


@dataclasses.dataclass
class Trace:
    """Everything a run produced, one row per evaluation in the order evaluations *finished* (a
    synchronous round is told at once, its rows in worker order).

    ``X`` is in the unit cube, ``y`` the observed and ``f`` the noise-free values; ``round`` is the
    batch index (0 for the initial design; in ``async`` mode every proposal is its own round,
    numbered 1, 2, ... in proposal order), ``worker`` the worker that evaluated the point,
    ``start``/``end`` simulated clock times, ``wall`` the wall-clock seconds the optimiser spent
    proposing the point (``ask``) and ``tell_wall`` those it spent taking the point in (``tell``, where
    methods such as EGP-TS refit their models); a batch's times are shared equally by its points.
    """

    X: np.ndarray
    y: np.ndarray
    f: np.ndarray
    round: np.ndarray
    worker: np.ndarray
    start: np.ndarray
    end: np.ndarray
    wall: np.ndarray
    tell_wall: np.ndarray
    optimum: float

    @property
    def simple_regret(self) -> np.ndarray:
        """f* - max_{i <= t} f(x_i) after each evaluation (noise-free values)."""
        return self.optimum - np.maximum.accumulate(self.f)

    @property
    def cumulative_regret(self) -> np.ndarray:
        return np.cumsum(self.optimum - self.f)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Trace":
        """The trace in a job result (extra keys, such as a method's settings, are ignored)."""
        return cls(**{field.name: data[field.name] for field in dataclasses.fields(cls)})


class _Recorder:
    def __init__(self, problem: Problem, seed: int, budget: int, durations: str):
        self.problem, self.budget = problem, budget
        self.noise_u = rng(seed, "noise").random(budget)
        if durations == "constant":
            self.durations = np.ones(budget)
        else:
            self.durations = rng(seed, "duration").exponential(1.0, budget)
        self.rows: list[tuple] = []
        self.tell_wall = np.zeros(budget)
        self.n_started = 0

    def start(self, x, round_, worker, t0, wall):
        """Evaluate ``x`` as the next evaluation; returns (finish time, row)."""
        i = self.n_started
        self.n_started += 1
        f = float(self.problem(x[None])[0])
        y = f + float(self.problem.noise(self.noise_u[i:i + 1])[0]) if self.problem.noise_std else f
        end = t0 + self.durations[i]
        return end, (x, y, f, round_, worker, t0, end, wall, i)

    def finish(self, row):
        self.rows.append(row)

    def tell(self, optimizer, rows):
        """``optimizer.tell`` the finished ``rows``, timed (the time is shared equally by the rows)."""
        t = time.perf_counter()
        optimizer.tell(np.array([row[0] for row in rows]), [row[1] for row in rows])
        self.tell_wall[[row[8] for row in rows]] = (time.perf_counter() - t) / len(rows)

    def trace(self) -> Trace:
        cols = list(zip(*self.rows))
        return Trace(np.array(cols[0]), *(np.array(c, dtype=float) for c in cols[1:3]),
                     *(np.array(c, dtype=int) for c in cols[3:5]),
                     *(np.array(c, dtype=float) for c in cols[5:8]), self.tell_wall[list(cols[8])],
                     optimum=self.problem.optimum)


def run(problem: Problem, optimizer: Optimizer, budget: int, seed: int, *, n_init: int = 10,
        batch_size: int = 1, mode: str = "sequential", durations: str = "constant") -> Trace:
    """Run ``optimizer`` on ``problem`` for ``budget`` evaluations (initial design included)."""
    check_choice("mode", mode, MODES)
    check_choice("durations", durations, DURATIONS)
    if mode == "sequential" and batch_size != 1:
        raise ValueError("mode='sequential' evaluates one point at a time; use 'sync' or 'async' for batches")
    n_init = min(int(n_init), budget)
    rec = _Recorder(problem, seed, budget, durations)
    optimizer.prepare(problem)
    X0 = rng(seed, "init").random((n_init, problem.dim))
    init_rows = [rec.start(x, 0, -1, 0.0, 0.0)[1] for x in X0]
    for row in init_rows:
        rec.finish(row)
    if n_init:
        rec.tell(optimizer, init_rows)
    if mode == "async":
        _run_async(optimizer, rec, budget, batch_size)
    else:
        _run_sync(optimizer, rec, budget, batch_size)
    return rec.trace()


def _timed_ask(optimizer, n):
    t = time.perf_counter()
    X = optimizer.ask(n)
    return X, (time.perf_counter() - t) / n


def _run_sync(optimizer, rec, budget, batch_size):
    clock, round_ = 0.0, 0
    while rec.n_started < budget:
        round_ += 1
        X, wall = _timed_ask(optimizer, min(batch_size, budget - rec.n_started))
        done = [rec.start(x, round_, w, clock, wall) for w, x in enumerate(X)]
        for _, row in done:
            rec.finish(row)
        rec.tell(optimizer, [row for _, row in done])
        clock = max(end for end, _ in done)


def _run_async(optimizer, rec, budget, n_workers):
    """Each proposal is its own "round", numbered 1, 2, ... in the order the proposals are made."""
    events: list = []  # (finish time, evaluation index, worker, row)
    design = rec.n_started
    for worker in range(min(n_workers, budget - rec.n_started)):
        X, wall = _timed_ask(optimizer, 1)
        end, row = rec.start(X[0], rec.n_started - design + 1, worker, 0.0, wall)
        heapq.heappush(events, (end, rec.n_started, worker, row))
    while events:
        end, _, worker, row = heapq.heappop(events)
        rec.finish(row)
        rec.tell(optimizer, [row])
        if rec.n_started < budget:
            X, wall = _timed_ask(optimizer, 1)
            new_end, new_row = rec.start(X[0], rec.n_started - design + 1, worker, end, wall)
            heapq.heappush(events, (new_end, rec.n_started, worker, new_row))


@depends_on(lambda params: [method_entry(params["method"]), benchmark_entry(params["benchmark"])])
def bo_job(benchmark: str, method: str, seed: int, budget: int, dim: int | None = None,
           n_init: int = 10, batch_size: int = 1, mode: str = "sequential",
           durations: str = "constant", noise_std: float = 0.0, noise_kind: str = "gaussian",
           settings: dict | None = None, benchmark_options: dict | None = None) -> dict:
    """The generic experiment job: one method on one registered benchmark for one seed.

    The shared initial design of ``n_init`` points is also the method's own initial design (its
    ``n_init`` setting, unless ``settings`` gives one), so no method adds design points of its own.
    The result is the :class:`Trace` as a dict plus the optimiser's ``history`` (one entry per
    proposal, e.g. EGP-TS's member weights) and ``info`` (e.g. the SUP beta).
    """
    problem = get_benchmark(benchmark, dim, **(benchmark_options or {}))
    if noise_std:
        problem = problem.with_noise(noise_std, noise_kind)
    optimizer = make_optimizer(method, problem.dim, seed, **{"n_init": max(1, n_init), **(settings or {})})
    trace = run(problem, optimizer, budget, seed, n_init=n_init, batch_size=batch_size,
                mode=mode, durations=durations)
    return {**trace.as_dict(), "history": optimizer.history, "info": optimizer.info}
