"""What a profile will run, and what it will cost, before running it.

Each paper's notebook builds its experiments with the functions of
``bolib/papers/<paper>_experiments.py``; that module's ``plan(S, look)`` lists every experiment the
notebook runs at settings ``S``, with each seed-stage list (a group-sequential design, see
:meth:`bolib.pipeline.NotebookContext.staged`) taken at one look: ``look=0`` the first stage (every
claim decided there), ``look=-1`` the cap (every claim open to the end). :func:`planned_jobs` turns
that into the notebook's jobs, the same jobs (same cache keys) the notebook runs
(:func:`bolib.pipeline.planned_experiments` lists the experiments).
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from bolib.claims.book import partial_record
from bolib.errors import BolibError, check_integer
from bolib.experiment import Job
from bolib.pipeline import PLANS, cost_params, planned_experiments


def planned_jobs(notebook: str, profile: str, look: int = -1, names=None, first_seeds: int | None = None,
                 runnable: bool = False) -> list[Job]:
    """The distinct jobs (by cache key, in plan order) of :func:`planned_experiments`; with
    ``first_seeds``, only the jobs whose seed is below it (a part of a profile: its first seeds); with
    ``runnable``, without the jobs of stand-in experiments (``Experiment.stand_in``: their keys are
    not the notebook's)."""
    jobs: dict[str, Job] = {}
    for experiment in planned_experiments(notebook, profile, look, names):
        if runnable and experiment.stand_in:
            continue
        for job in experiment.jobs():
            if first_seeds is None or job.params.get("seed", 0) < first_seeds:
                jobs.setdefault(job.key, job)
    return list(jobs.values())


# ---------------------------------------------------------------------------------------------------
# The cost model: CPU seconds of a job, calibrated on jobs measured before (see Cache.cost).
#
# bo_job (most of the CPU time of every paper): a job's CPU time is
#     e * budget + k_ask * A(budget) + k_tell * R(budget),
# where A(N) and R(N) are the cumulative CPU seconds the method spent proposing points (ask) and
# taking them in (tell, where models are refitted) over evaluations n_init .. N-1, and e the rest per
# evaluation (the objective, the design, set-up). A and R are fitted per group of measured jobs on
# their traces (the loop times every ask and tell) as K * (N^g - n_init^g), g in [1, 3] (a step
# costing at most O(n^2): scoring candidates against n points, the solves of a refit). Exact-GP
# fits grow as O(n^3) once n reaches the thousands; sizes that far beyond the measurements are
# flagged (:meth:`CostModel.reach`), their prediction being a lower bound. k_ask and k_tell scale
# A and R by the settings that change their work (ASK_SETTINGS, TELL_SETTINGS; a longer refit
# period: less tell work). A job is predicted from the measured jobs of its group whose method
# settings differ from its own in the fewest names, each scaled by the ratio of the model at the
# job's size and settings to the model at the measured job's (the median of those): near the
# measurements the prediction is the measurement.
#
# Other job functions: CPU time = c * size^p in the one parameter their work grows with
# (SIZE_PARAM), p fitted where the group was measured at two sizes or more, else 1.
#
# Growth measured elsewhere: a bo_job more than twice beyond the budgets of its (method, benchmark, ...)
# group takes the exponents g of the same method's group measured at the largest budget (a calibration
# part, ``reproduce --jobs-only --calibrate N``), its own group's levels refitted for them.
#
# Groups, most specific first: bo_job by (method, benchmark, dim, kernel dictionary: paper 000's members
# differ in what a refit fits), then method, then any bo_job;
# other functions by all their parameters but the seed and the size, then by their string
# parameters, then by function. A job is predicted from its most specific measured group.

BO_JOB = "bolib.loop:bo_job"
#: other job functions -> the parameter their CPU time grows with (None: does not grow)
SIZE_PARAM = {"bolib.papers.egp_ts:rf_exact_job": "T", "bolib.papers.egp_ts:information_gain_job": "T",
              "bolib.papers.egp_ts:derivative_tail_job": "n_draws", "bolib.papers.gp_ucb_plus:theory_grid_job": "T",
              "bolib.theory:fill_distance_job": None, "bolib.papers.bore:finite_run": "T",
              "bolib.papers.bore:batch_run": "T", "bolib.papers.bore:bayes_ts_run": "T",
              "bolib.papers.rm_bo:synthetic_job": "T", "bolib.papers.rm_bo:lemma3_job": "n_draws",
              "bolib.papers.rm_bo:lemma6_job": "n_draws"}
#: method settings whose ratio scales the ask work: candidates scored and local searches started (our
#: GP methods), DIRECT evaluations per group (Add-GP-UCB), SVGD steps (batch BORE). BoTorch's
#: raw_samples and num_restarts are left out: its ask is dominated by the model fit it starts with.
ASK_SETTINGS = ("n_candidates", "n_starts", "group_evals", "svgd_steps")
#: method settings whose ratio scales the tell work (Metropolis steps per refit)
TELL_SETTINGS = ("steps",)
GROWTH = tuple(1 + 0.05 * i for i in range(41))  # exponents g tried for A and R


@dataclasses.dataclass
class Measured:
    """One measured job: its function, parameters, CPU and wall seconds, and for a bo_job the
    per-evaluation ask and tell seconds of its trace."""

    fn: str
    params: dict
    cpu_s: float
    wall_s: float
    ask: np.ndarray | None = None
    tell: np.ndarray | None = None


def measured_jobs(*run_dirs: str | os.PathLike, notebook: str = "*") -> list[Measured]:
    """The jobs recorded in the ``<notebook>.costs.json`` files of ``run_dirs`` (see
    :func:`bolib.pipeline.record_costs`; every notebook's by default)."""
    out = []
    for run_dir in run_dirs:
        for path in sorted(Path(run_dir).glob(f"{notebook}.costs.json")):
            for job in json.loads(path.read_text())["jobs"]:
                ask, tell = (np.asarray(job[k], float) if k in job else None for k in ("ask", "tell"))
                out.append(Measured(job["fn"], job["params"], job["cpu_s"], job["wall_s"], ask, tell))
    return out


def _setting(params: Mapping, name: str):
    return (params.get("settings") or {}).get(name)


def _ask_work(params: Mapping, name: str):
    """The value of the ask setting ``name`` that the ask work is proportional to: Add-GP-UCB's DIRECT
    evaluations per group times its number of groups (ceil(dim / group_dim); one for the full kernel),
    otherwise the setting itself."""
    value = _setting(params, name)
    if name != "group_evals" or not value or _setting(params, "decomposition") == "full":
        return value
    group_dim = _setting(params, "group_dim") or (params.get("benchmark_options") or {}).get("group_dim")
    dim = params.get("dim")
    return value * math.ceil(dim / group_dim) if group_dim and dim else value


def _groups(fn: str, params: Mapping) -> tuple:
    """The job's groups, most specific first."""
    if fn == BO_JOB:
        return ((fn, params["method"], params["benchmark"], params.get("dim"), _setting(params, "dictionary")),
                (fn, params["method"]), (fn,))
    size = SIZE_PARAM.get(fn)
    rest = {k: v for k, v in params.items() if k not in ("seed", size)}
    strings = {k: v for k, v in rest.items() if isinstance(v, str)}
    return ((fn, json.dumps(rest, sort_keys=True, default=repr)), (fn, json.dumps(strings, sort_keys=True)), (fn,))


def _growth_fit(curves: list[tuple[int, np.ndarray]], exponents=GROWTH) -> tuple[float, float]:
    """(K, g) of the cumulative seconds K * (N^g - n0^g) that fit the measured cumulative curves best
    (least squares in relative error), g among ``exponents``; curves are (n0, per-evaluation seconds from
    evaluation n0)."""
    points = []
    for n0, steps in curves:
        cumulative = np.cumsum(steps)
        points += [(n0, n0 + i + 1, c) for i, c in enumerate(cumulative) if c > 0]
    if not points:
        return 0.0, 1.0
    n0, N, C = (np.array(v, float) for v in zip(*points))
    best = None
    for g in exponents:
        basis = (N ** g - n0 ** g) / C
        K = basis.sum() / (basis ** 2).sum()
        err = ((K * basis - 1) ** 2).sum()
        if best is None or err < best[0]:
            best = (err, K, g)
    return best[1], best[2]


@dataclasses.dataclass
class _BOGroup:
    jobs: list  # measured bo_jobs
    K_ask: float
    g_ask: float
    K_tell: float
    g_tell: float
    e: float  # CPU seconds per evaluation outside ask and tell

    def work(self, params: Mapping, like: Mapping) -> float:
        """The model's CPU seconds for a bo_job with ``params``, its settings scaled against ``like``'s."""
        budget, n0 = params["budget"], params.get("n_init", 10)
        ask = self.K_ask * max(budget ** self.g_ask - n0 ** self.g_ask, 0.0)
        tell = self.K_tell * max(budget ** self.g_tell - n0 ** self.g_tell, 0.0)
        for name in ASK_SETTINGS:
            new, old = _ask_work(params, name), _ask_work(like, name)
            if new and old:
                ask *= new / old
        for name in TELL_SETTINGS:
            new, old = _setting(params, name), _setting(like, name)
            if new and old:
                tell *= new / old
        new, old = _setting(params, "refit_every"), _setting(like, "refit_every")
        if new and old:
            tell *= old / new
        return self.e * budget + ask + tell


def _bo_group(jobs: list[Measured], growth: tuple[float, float] | None = None) -> _BOGroup:
    """The model of a group of measured bo_jobs; ``growth`` fixes the exponents (g_ask, g_tell)."""
    asks, tells, rest = [], [], []
    for job in jobs:
        to_cpu = job.cpu_s / job.wall_s if job.wall_s > 0 else 1.0
        n0 = job.params.get("n_init", 10)
        ask, tell = job.ask[n0:] * to_cpu, job.tell[n0:] * to_cpu
        asks.append((n0, ask))
        tells.append((n0, tell))
        rest.append(max(job.cpu_s - ask.sum() - tell.sum(), 0.0) / job.params["budget"])
    g_ask, g_tell = ((g,) for g in growth) if growth else (GROWTH, GROWTH)
    return _BOGroup(jobs, *_growth_fit(asks, g_ask), *_growth_fit(tells, g_tell), float(np.median(rest)))


def _settings_differ(a: Mapping, b: Mapping) -> int:
    """In how many names the method settings of the job parameters ``a`` and ``b`` differ."""
    a, b = a.get("settings") or {}, b.get("settings") or {}
    return sum(a.get(name) != b.get(name) for name in a.keys() | b.keys())


def _nearest_settings(jobs: list[Measured], params: Mapping) -> list[Measured]:
    """The measured ``jobs`` whose method settings differ from those of ``params`` in the fewest names."""
    fewest = min(_settings_differ(job.params, params) for job in jobs)
    return [job for job in jobs if _settings_differ(job.params, params) == fewest]


@dataclasses.dataclass
class _SizeGroup:
    c: float
    p: float
    largest: float  # the largest size measured

    def predict(self, size: float) -> float:
        return self.c * size ** self.p


def _size_group(jobs: list[Measured]) -> _SizeGroup:
    size_param = SIZE_PARAM.get(jobs[0].fn)
    sizes = np.array([float(j.params.get(size_param, 1)) if size_param else 1.0 for j in jobs])
    log_cpu = np.log(np.maximum([j.cpu_s for j in jobs], 1e-6))
    if len(set(sizes)) >= 2:
        p, log_c = np.polyfit(np.log(sizes), log_cpu, 1)
    else:
        p = 1.0 if size_param else 0.0
        log_c = float(np.mean(log_cpu - p * np.log(sizes)))
    return _SizeGroup(float(np.exp(log_c)), float(p), float(sizes.max()))


class CostModel:
    """CPU seconds of jobs, calibrated on :class:`Measured` jobs (see the comment above)."""

    def __init__(self, measured: list[Measured]):
        if not measured:
            raise BolibError("no measured jobs to calibrate the cost model on: run a profile first "
                             "(every job records its CPU time in the cache)")
        members: dict[tuple, list[Measured]] = {}
        for job in measured:
            for group in _groups(job.fn, job.params):
                members.setdefault(group, []).append(job)
        self.groups = {group: (_bo_group(jobs) if group[0] == BO_JOB else _size_group(jobs))
                       for group, jobs in members.items()}
        self._borrowed: dict[tuple, tuple[_BOGroup, float]] = {}
        self._routes: dict[tuple, _BOGroup] = {}

    def level(self, job: Job) -> int:
        """How specific the group that predicts ``job`` is: 0 its own, 1, 2 coarser, 3 none."""
        return next((i for i, g in enumerate(_groups(job.fn, cost_params(dict(job.params)))) if g in self.groups), 3)

    def reach(self, job: Job) -> float:
        """How far ``job`` lies beyond what predicts it: its size (a BO run's budget, else its size
        parameter) over the largest size measured in its group, or where its growth was measured
        (1 or less: within the measurements)."""
        params = cost_params(dict(job.params))
        model = self._model(job.fn, params)
        if job.fn == BO_JOB:
            return params["budget"] / self._bo_model(params)[1]
        size_param = SIZE_PARAM.get(job.fn)
        return float(params.get(size_param, 1)) / model.largest if size_param else 1.0

    def _model(self, fn: str, params: Mapping):
        group = next((g for g in _groups(fn, params) if g in self.groups), None)
        if group is None:
            raise BolibError(f"no measured job of {fn} to predict {fn}({json.dumps(params)[:200]}) from")
        return self.groups[group]

    def _bo_model(self, params: Mapping) -> tuple[_BOGroup, float]:
        """The model of a bo_job and the largest budget at which its growth was measured. A job more than
        twice beyond its group's budgets takes the growth exponents of the same method's group
        (another problem) measured at the largest budget, if that is larger, with its own group's levels
        refitted for them."""
        group = next(g for g in _groups(BO_JOB, params) if g in self.groups)
        model = self.groups[group]
        largest = max(m.params["budget"] for m in model.jobs)
        if params["budget"] <= 2 * largest or len(group) < 5:
            return model, largest
        if group not in self._borrowed:
            donors = [(max(m.params["budget"] for m in g.jobs), key) for key, g in self.groups.items()
                      if len(key) == 5 and key[1] == group[1] and key != group]
            far, donor = max(donors, default=(0, None))
            if far <= largest:
                self._borrowed[group] = (model, largest)
            else:
                g = self.groups[donor]
                self._borrowed[group] = (_bo_group(model.jobs, (g.g_ask, g.g_tell)), far)
        return self._borrowed[group]

    def _bo_predictors(self, params: Mapping) -> tuple[_BOGroup, list[Measured]]:
        """The model of a bo_job and the measured jobs its prediction scales: those of its group nearest
        its settings; but where none of them has exactly its settings, and runs of the same method with
        exactly those settings were measured on other problems, those runs and a model fitted on them
        alone (a route, such as a refit schedule, measured on another problem predicts a job better than
        another route measured on its own)."""
        model = self._bo_model(params)[0]
        like = _nearest_settings(model.jobs, params)
        if _settings_differ(like[0].params, params):
            method = self.groups.get((BO_JOB, params["method"]))
            same = [m for m in method.jobs if not _settings_differ(m.params, params)] if method else []
            if same:
                key = (params["method"], json.dumps(params.get("settings") or {}, sort_keys=True))
                if key not in self._routes:
                    self._routes[key] = _bo_group(same)
                return self._routes[key], same
        return model, like

    def predict(self, job: Job) -> float:
        """Predicted CPU seconds of ``job``; BolibError if no measured job shares its function."""
        params = cost_params(dict(job.params))
        model = self._model(job.fn, params)
        if job.fn == BO_JOB:
            model, like = self._bo_predictors(params)
            ratios = [m.cpu_s * model.work(params, m.params) / max(model.work(m.params, m.params), 1e-9)
                      for m in like]
            return float(np.median(ratios))
        size_param = SIZE_PARAM.get(job.fn)
        return model.predict(float(params.get(size_param, 1)) if size_param else 1.0)


def calibration_runs(root: Path | None = None) -> list[Path]:
    """The run folders under ``experiments/`` that hold measured costs (``*.costs.json``)."""
    from bolib.runtime import PROJECT_ROOT

    base = (root or PROJECT_ROOT) / "experiments"
    return sorted({path.parent for path in base.glob("*/*.costs.json")})


def _makespan(seconds: list[float], workers: int) -> float:
    """Wall seconds of jobs on ``workers`` workers, longest first to the least loaded."""
    loads = [0.0] * workers
    for s in sorted(seconds, reverse=True):
        loads[loads.index(min(loads))] += s
    return max(loads)


@dataclasses.dataclass
class Estimate:
    """The predicted cost of one notebook at a profile, at the first looks and at the cap."""

    notebook: str
    jobs: tuple[int, int]
    cpu_h: tuple[float, float]
    longest_s: float
    longest_job: str
    wall_h: float  # at the cap, on ``workers``
    workers: int
    own_group: float  # share of the CPU time predicted from the job's own measured group
    beyond: float  # share of the CPU time predicted for jobs over twice the largest size measured in their group


def estimate(notebook: str, profile: str, workers: int = 2, model: CostModel | None = None,
             names=None, first_seeds: int | None = None) -> Estimate:
    """Predict what running ``notebook`` at ``profile`` costs (nothing is run; with ``names``, only
    those experiments). The wall time adds, over the notebook's experiments in order (each waits for
    the previous), the time its jobs take on ``workers`` workers."""
    model = model or CostModel(measured_jobs(*calibration_runs()))
    totals, counts = [], []
    for look in (0, -1):
        jobs = planned_jobs(notebook, profile, look, names, first_seeds)
        totals.append(sum(model.predict(job) for job in jobs))
        counts.append(len(jobs))
    seen, wall, longest, own, beyond = set(), 0.0, (0.0, ""), 0.0, 0.0
    for experiment in planned_experiments(notebook, profile, -1, names):
        seconds = []
        for job in experiment.jobs():
            if job.key in seen or (first_seeds is not None and job.params.get("seed", 0) >= first_seeds):
                continue
            seen.add(job.key)
            s = model.predict(job)
            seconds.append(s)
            own += s if model.level(job) == 0 else 0.0
            beyond += s if model.reach(job) > 2 else 0.0
            longest = max(longest, (s, job.describe()))
        wall += _makespan(seconds, workers) if seconds else 0.0
    return Estimate(notebook, tuple(counts), (totals[0] / 3600, totals[1] / 3600), longest[0], longest[1],
                    wall / 3600, workers, own / totals[1] if totals[1] else 1.0,
                    beyond / totals[1] if totals[1] else 0.0)


def price_partial(path: Path, model: CostModel | None = None) -> dict:
    """Add to a partial run's record (``<notebook>.partial.json``, :meth:`bolib.pipeline.NotebookContext.finish`)
    each left-out experiment's predicted CPU-hours, first look - cap (:func:`estimate`); returns the record."""
    record = json.loads(Path(path).read_text())
    model = model or CostModel(measured_jobs(*calibration_runs()))
    for name, entry in record["left_out"].items():
        entry["cpu_h"] = [float(f"{h:.3g}") for h in estimate(record["notebook"], record["profile"], model=model,
                                                               names=[name]).cpu_h]
    Path(path).write_text(json.dumps(record, indent=1) + "\n")
    return record


def calibration_jobs(jobs: list[Job], budget: int) -> list[Job]:
    """The BO runs among ``jobs`` cut to ``budget`` evaluations (those already shorter are left out):
    a calibration part, measuring a method at sizes between the quick profile's and the paper's."""
    check_integer("budget", budget, 1)
    return [Job(job.fn, {**job.params, "budget": budget}) for job in jobs
            if job.fn == BO_JOB and job.params["budget"] > budget > job.params.get("n_init", 0)]


def run_planned(notebook: str, profile: str, names=None, executor: str = "local", workers: int | None = None,
                scheduler: str | None = None, output_root: Path | None = None, look: int = -1,
                first_seeds: int | None = None, calibrate: int | None = None) -> dict:
    """Run the planned jobs of ``notebook`` (those of the experiments ``names`` only, if given) into the
    cache without the notebook, which then reads them from there: a cluster runs the jobs, a
    workstation the notebooks. What they cost goes to ``experiments/<profile>/<notebook>.costs.json``
    (all the notebook's planned jobs found in the cache), and the prediction made before the run,
    beside what it measured, to ``experiments/<profile>/<notebook>.jobs-only.json`` (left as it is when
    every job was already in the cache, so a rerun does not replace a part's record by an empty one);
    returns the outcome.

    With ``calibrate=N`` the BO runs are cut to N evaluations (:func:`calibration_jobs`); their results
    are not the profile's, and their costs go to ``experiments/<profile>-calibration/`` (added to those
    of earlier calibration parts), from where they calibrate the model."""
    import time

    from bolib.executors import JobsFailed, run_jobs
    from bolib.experiment import Cache
    from bolib.pipeline import Outputs, record_costs
    from bolib.runtime import PROJECT_ROOT

    run = f"{profile}-calibration" if calibrate is not None else profile
    outputs = Outputs.under(Path(output_root) if output_root else PROJECT_ROOT, notebook, run)
    model = CostModel(measured_jobs(*calibration_runs()))
    cache = Cache(outputs.cache_dir)
    todo, predicted, failed = [], [], None
    start = time.perf_counter()
    while True:  # a pass whose jobs complete a stand-in's inputs (previous tasks) lets the next plan run its jobs
        jobs = planned_jobs(notebook, profile, look, names, first_seeds, runnable=True)
        if calibrate is not None:
            jobs = calibration_jobs(jobs, calibrate)
        done = {job.key for job in todo}
        new = [job for job in jobs if job.key not in done and not cache.path(job).exists()]
        if not new:
            break
        todo += new
        predicted += [model.predict(job) for job in new]
        try:
            run_jobs(new, executor=executor, workers=workers, scheduler=scheduler, cache_dir=outputs.cache_dir)
        except JobsFailed as err:  # the jobs that finished are recorded all the same
            failed = err
            break
    left = len(planned_jobs(notebook, profile, look, names, first_seeds)) - len(jobs)
    if left:
        print(f"{left} planned jobs take stand-ins for data the notebook computes first (previous tasks not yet in "
              "the cache; their keys are not the notebook's): the notebook runs them")
    wall = time.perf_counter() - start
    measured = [cache.cost(job) for job in todo]
    outcome = {"notebook": notebook, "profile": profile, "experiments": list(names or []),
               "first_seeds": first_seeds, "calibrate": calibrate, "jobs": len(jobs),
               "computed": len(todo), "failed": len(failed.failures) if failed else 0,
               "executor": executor, "workers": workers,
               "predicted_cpu_h": sum(predicted) / 3600,
               "measured_cpu_h": sum(c["cpu_s"] for c in measured if c) / 3600,
               "predicted_longest_min": max(predicted, default=0.0) / 60,
               "measured_longest_min": max((c["cpu_s"] for c in measured if c), default=0.0) / 60,
               "wall_h": wall / 3600}
    planned = planned_jobs(notebook, profile, -1) if calibrate is None else jobs
    record_costs(outputs.run_dir, notebook, outputs.cache_dir, [job.key for job in planned if cache.path(job).exists()])
    part = f"calibrate-{calibrate}" if calibrate is not None else "jobs-only"
    if todo:
        (outputs.run_dir / f"{notebook}.{part}.json").write_text(json.dumps(outcome, indent=1) + "\n")
    if failed:
        raise failed
    return outcome


def estimate_text(estimates: list[Estimate]) -> str:
    """The table ``reproduce --estimate`` prints, ending with ``total: X CPU-hours`` (at the cap)."""
    workers = estimates[0].workers if estimates else 2
    lines = [f"{'notebook':<15} {'jobs':>15} {'CPU-hours':>15} {'longest job':>12} {f'wall, {workers} workers':>16} "
             f"{'from own group':>15} {'beyond 2x size':>15}",
             f"{'':<15} {'(first - cap)':>15} {'(first - cap)':>15} {'(minutes)':>12} {'(hours, cap)':>16} "
             f"{'(share of CPU)':>15} {'(share of CPU)':>15}"]
    for e in estimates:
        lines.append(f"{e.notebook:<15} {f'{e.jobs[0]:,} - {e.jobs[1]:,}':>15} "
                     f"{f'{e.cpu_h[0]:.1f} - {e.cpu_h[1]:.1f}':>15} {e.longest_s / 60:>12.1f} {e.wall_h:>16.1f} "
                     f"{e.own_group:>15.0%} {e.beyond:>15.0%}")
    for e in estimates:
        lines.append(f"longest job of {e.notebook}: {e.longest_job[:160]}")
    first, cap = sum(e.cpu_h[0] for e in estimates), sum(e.cpu_h[1] for e in estimates)
    lines.append(f"at the first looks: {first:.1f} CPU-hours")
    lines.append(f"total: {cap:.1f} CPU-hours")
    return "\n".join(lines)


def measured_cpu_h(run_dir: Path, notebook: str) -> float | None:
    """CPU-hours a run of ``notebook`` measured (its ``*.costs.json``, less the measurements kept from
    earlier runs), None if it has no record or ran only parts (``--jobs-only``: no claims file)."""
    path = Path(run_dir) / f"{notebook}.costs.json"
    if not path.exists() or not (Path(run_dir) / f"{notebook}.claims.json").exists():
        return None
    return sum(job["cpu_s"] for job in json.loads(path.read_text())["jobs"] if not job.get("earlier")) / 3600


def _hours(x: float) -> str:
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 0.01 else f"{x:.3f}"


def readme_block(root: Path | None = None, workers: int = 2) -> dict[str, str]:
    """The README's generated ``costs`` block: the estimate of every profile, beside what the runs
    that recorded their costs measured."""
    from bolib.pipeline import PROFILES
    from bolib.runtime import PROJECT_ROOT

    root = root or PROJECT_ROOT
    runs = calibration_runs(root)
    model = CostModel(measured_jobs(*runs))
    lines = [f"Predicted by `python -m bolib reproduce --profile P --estimate` (cost model of `bolib/costs.py`, "
             f"calibrated on {', '.join(f'`experiments/{r.name}`' for r in runs)}; regenerate with "
             "`python -m bolib report --readme`). CPU-hours at the first looks of the seed stages and at their "
             f"caps; wall time at the caps on {workers} workers; the longest job bounds the wall time on any "
             "number of workers.", "",
             "| profile | notebook | jobs | CPU-hours | measured CPU-hours | longest job (min) | wall (h) "
             "| beyond 2x the sizes measured |", "|---|---|---|---|---|---|---|---|"]
    for profile in PROFILES:
        estimates = [estimate(name, profile, workers, model) for name in sorted(PLANS)]
        for e in estimates:
            measured = measured_cpu_h(root / "experiments" / profile, e.notebook)
            lines.append(f"| {profile} | {e.notebook} | {e.jobs[0]:,} - {e.jobs[1]:,} | {_hours(e.cpu_h[0])} - "
                         f"{_hours(e.cpu_h[1])} | {'' if measured is None else _hours(measured)} | "
                         f"{_hours(e.longest_s / 60)} | {_hours(e.wall_h)} | {e.beyond:.0%} |")
        first, cap, wall = (sum(getattr(e, k)[i] if i is not None else getattr(e, k) for e in estimates)
                            for k, i in (("cpu_h", 0), ("cpu_h", 1), ("wall_h", None)))
        lines.append(f"| {profile} | **total** | | **{_hours(first)} - {_hours(cap)}** | | | **{_hours(wall)}** | |")
    parts = sorted([*(root / "experiments").glob("*/*.jobs-only.json"),
                    *(root / "experiments").glob("*/*.calibrate-*.json")])
    if parts:
        lines += ["", "Parts run with `--jobs-only` (predicted before the run, from the measurements then "
                  "committed; CPU time is the measure, as the wall time depends on what else shared the cores; "
                  "a calibration part runs the BO runs cut to fewer evaluations):", "",
                  "| profile | notebook | experiments | first seeds | evaluations | jobs | predicted CPU-hours "
                  "| measured CPU-hours | longest job, predicted / measured (min) | executor, workers |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for path in parts:
            p = json.loads(path.read_text())
            cut = p.get("calibrate")
            failed = f" ({p['failed']} failed)" if p.get("failed") else ""
            lines.append(f"| {p['profile']} | {p['notebook']} | {', '.join(p['experiments']) or 'all'} | "
                         f"{p.get('first_seeds') or 'all'} | {'as planned' if cut is None else f'cut to {cut:,}'} | "
                         f"{p['computed']}{failed} | {p['predicted_cpu_h']:.2f} | "
                         f"{p['measured_cpu_h']:.2f} | {p['predicted_longest_min']:.1f} / "
                         f"{p['measured_longest_min']:.1f} | {p['executor']}, {p['workers']} |")
    return {"costs": "\n".join(lines)}


def paper_block(root: Path | None = None) -> dict[str, str]:
    """The README's generated ``paper-results`` block: the verdicts of the ``paper`` runs committed so far
    (:func:`bolib.claims.report.headline` of each ``experiments/paper/<notebook>.claims.json``); a partial run
    (its record, :func:`bolib.claims.book.partial_record`, as :mod:`bolib.status` takes it) with the
    parts it ran, the claims it left undecided and each experiment it left out with its predicted CPU-hours
    (first look - cap, :func:`price_partial`), then the command that computes a left-out experiment."""
    from bolib.claims import report
    from bolib.claims.book import read_claims_file
    from bolib.runtime import PROJECT_ROOT

    run = (root or PROJECT_ROOT) / "experiments" / "paper"
    paths = sorted(run.glob("*.claims.json"))
    if not paths:
        return {"paper-results": "No `paper` run is committed yet."}
    table = report.run_claims(run)
    lines = ["Verdicts of the `paper` runs committed so far (from `experiments/paper/*.claims.json`; the full report "
             "is `experiments/paper/report.html`; regenerate with `python -m bolib report --profile paper` and "
             "`python -m bolib report --readme`).", ""]
    any_partial = False
    for path in paths:
        record = read_claims_file(path)
        left = partial_record(path, record)
        scope = ""
        if left:
            any_partial = True
            scope = (f" (a partial run of {', '.join(left['parts'])}, {len(left['undecided'])} declared claims left "
                     "undecided; left out, first look - cap CPU-hours: " + "; ".join(
                         exp + (f" {entry['cpu_h'][0]:g} - {entry['cpu_h'][1]:g}" if "cpu_h" in entry else "")
                         for exp, entry in left["left_out"].items()) + ")")
        lines.append(f"- **{record['notebook']}**{scope}: {report.headline(table[table.paper == record['notebook']])}.")
    if any_partial:
        lines += ["", "An experiment left out is computed into the cache by `python -m bolib reproduce --profile paper "
                  "--only NOTEBOOK --jobs-only --experiments NAME` (a cluster: add `--scheduler tcp://HOST:PORT`), "
                  "after which a partial run that names it decides its claims."]
    return {"paper-results": "\n".join(lines)}
