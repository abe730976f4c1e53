"""Profiles, notebook paths and the papermill pipeline.

Profiles live in ``experiments/profiles/<notebook>.yaml``: a ``schema`` mapping each setting to its
type (or to a mapping of its ``type``, what it is, the paper's value and why the ``paper`` profile
differs from it, from which :func:`settings_table` builds the notebook's settings table), and one
mapping of settings per profile (``smoke``, ``quick``, ``paper``). A notebook reads
its settings with :func:`notebook_context`; the pipeline validates every selected notebook's
profile before executing anything, then runs each notebook with papermill, injecting only the
profile name, the seed offset and where to write (executed notebook and claims JSON, figures,
cache). A run with seed offset N uses seeds N, N+1, ... and writes to ``experiments/<profile>-seedsN``,
so that its verdicts can be compared with the default run's (``python -m bolib report --compare``); the
figures of every run but ``quick`` go to ``figures/<notebook>/<run>``
(:func:`bolib.claims.report.figure_folder`), so that no run overwrites another's.

A *partial run* (``reproduce --only NB --experiments NAME ...``, papermill parameter ``parts``) runs the
notebook with only the experiments whose names start with one of ``parts`` computed; an experiment
outside them whose jobs are all cached is read from the cache (with ``force``, none is), any other is
left out (:class:`NotRun`): its claims stay undecided, and ``<run dir>/<notebook>.partial.json`` records
it with the command that computes its jobs (:meth:`NotebookContext.finish`; ``python -m bolib
reproduce`` adds each one's predicted CPU-hours, :func:`bolib.costs.price_partial`).
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib
import json
import tempfile
from pathlib import Path

import yaml

from bolib import runtime
from bolib.claims.report import end_of_run_summary, figure_folder, run_name, write_report
from bolib.errors import BolibError, check_choice, check_integer, check_writable
from bolib.experiment import NotRun

PROJECT_ROOT = runtime.PROJECT_ROOT
PROFILES = ("smoke", "quick", "paper")
TYPES = {"int": int, "float": (int, float), "str": str, "bool": bool, "list": list, "dict": dict}


class ProfileError(BolibError, TypeError):
    pass


def notebooks_dir() -> Path:
    return PROJECT_ROOT / "notebooks"


def profiles_dir() -> Path:
    return PROJECT_ROOT / "experiments" / "profiles"


def notebook_names(include_template: bool = False) -> list[str]:
    """Notebook stems in ``notebooks/`` (the ``_template`` only when asked)."""
    names = sorted(p.stem for p in notebooks_dir().glob("*.ipynb"))
    return [n for n in names if include_template or not n.startswith("_")]


def load_profile(notebook: str, profile: str) -> dict:
    """The validated settings of ``notebook`` at ``profile``."""
    check_choice("profile", profile, PROFILES)
    path = profiles_dir() / f"{notebook}.yaml"
    if not path.exists():
        raise ProfileError(f"no profile file {path} for notebook {notebook!r}")
    spec = yaml.safe_load(path.read_text())
    schema, settings = spec.get("schema", {}), spec.get(profile)
    if settings is None:
        raise ProfileError(f"{path} has no {profile!r} profile")
    missing = sorted(set(schema) - set(settings))
    extra = sorted(set(settings) - set(schema))
    if missing or extra:
        raise ProfileError(f"{path} [{profile}]: missing settings {missing}, unknown settings {extra}")
    for name, entry in schema.items():
        type_name = entry["type"] if isinstance(entry, dict) else entry
        expected = TYPES[check_choice("type", type_name, TYPES)]
        value = settings[name]
        if not isinstance(value, expected) or (type_name in ("int", "float") and isinstance(value, bool)):
            raise ProfileError(f"{path} [{profile}]: setting {name!r} must be {type_name}, "
                               f"got {value!r} ({type(value).__name__})")
    return settings


#: the fields of a setting's schema entry in its mapping form (``why`` only where the paper profile
#: differs from the paper; ``where`` optional)
SCHEMA_FIELDS = ("type", "about", "paper", "where", "why")


#: notebook -> the module whose ``plan(S, look)`` lists its experiments
PLANS = {"000_egpts": "bolib.papers.egp_ts_experiments",
         "001_gpucbplus": "bolib.papers.gp_ucb_plus_experiments",
         "002_addgpucb": "bolib.papers.add_gp_ucb_experiments",
         "003_bore": "bolib.papers.bore_experiments",
         "004_rmbo": "bolib.papers.rm_bo_experiments"}


def planned_experiments(notebook: str, profile: str, look: int = -1, names=None) -> list:
    """The experiments ``notebook`` runs at ``profile`` with every staged experiment stopped at stage
    ``look`` (0: the first, -1: the cap); with ``names``, only those whose name starts with one of
    them (BolibError naming the experiments if one matches none)."""
    check_choice("notebook", notebook, tuple(PLANS))
    experiments = importlib.import_module(PLANS[notebook]).plan(load_profile(notebook, profile), look)
    if names:
        for name in names:
            if not any(e.name.startswith(name) for e in experiments):
                raise BolibError(f"no experiment of {notebook} is named {name!r}...; its experiments: "
                                 f"{', '.join(dict.fromkeys(e.name for e in experiments))}")
        experiments = [e for e in experiments if any(e.name.startswith(name) for name in names)]
    return experiments


def setting_docs(notebook: str) -> dict[str, dict]:
    """The documented settings of ``notebook``'s profile file: each name whose schema entry is a mapping,
    with its fields (:data:`SCHEMA_FIELDS`). ProfileError for an unknown field, a missing ``about`` or
    ``paper``, or a ``paper`` profile value that differs from the paper's without a ``why``."""
    path = profiles_dir() / f"{notebook}.yaml"
    spec = yaml.safe_load(path.read_text())
    docs = {name: entry for name, entry in spec.get("schema", {}).items() if isinstance(entry, dict)}
    for name, entry in docs.items():
        unknown = sorted(set(entry) - set(SCHEMA_FIELDS))
        missing = [field for field in ("type", "about", "paper") if field not in entry]
        if unknown or missing:
            raise ProfileError(f"{path}: schema entry {name!r} has unknown fields {unknown} and lacks {missing} "
                               f"(fields: {', '.join(SCHEMA_FIELDS)})")
        if spec["paper"][name] != entry["paper"] and not entry.get("why"):
            raise ProfileError(f"{path}: the paper profile's {name} = {spec['paper'][name]!r} differs from the "
                               f"paper's {entry['paper']!r}; say why in the schema entry's 'why'")
    return docs


def settings_table(notebook: str, profile: str):
    """The settings table of ``notebook`` at ``profile`` (a DataFrame): one row per documented setting
    (:func:`setting_docs`) with what it is, the paper's value and where the paper gives it, this
    profile's value, and the deviation: none where they agree, the schema's ``why`` where the paper
    profile differs from the paper, and a cut where only this profile does."""
    import pandas as pd

    settings, paper = load_profile(notebook, profile), load_profile(notebook, "paper")
    rows = []
    for name, doc in setting_docs(notebook).items():
        ours = settings[name]
        if ours == doc["paper"]:
            deviation = "-"
        elif paper[name] == doc["paper"]:
            deviation = f"cut at the {profile} profile (the paper profile runs the paper's value)"
        else:
            deviation = doc["why"] + ("" if ours == paper[name] else f"; the {profile} profile cuts it further "
                                      f"(paper profile: {paper[name]})")
        where = f" ({doc['where']})" if doc.get("where") else ""
        rows.append((name, doc["about"], f"{doc['paper']}{where}", ours, deviation))
    return pd.DataFrame(rows, columns=["setting", "what", "paper", f"ours ({profile})", "deviation"]).set_index("setting")


def notebook_code_hash(notebook: str) -> str:
    """SHA-256 of the code cells of ``notebooks/<notebook>.ipynb`` (markdown and outputs left out)."""
    cells = json.loads((notebooks_dir() / f"{notebook}.ipynb").read_text())["cells"]
    code = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c["cell_type"] == "code"]
    return hashlib.sha256(json.dumps(code).encode()).hexdigest()


def profile_hash(notebook: str) -> str:
    """SHA-256 of every profile of ``notebook`` (canonical JSON of its parsed YAML file: a notebook may
    read another profile's settings than the one it runs)."""
    spec = yaml.safe_load((profiles_dir() / f"{notebook}.yaml").read_text())
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()


#: Modules that run the notebooks and jobs but compute none of their numbers (what they do to a job's
#: key is checked through the key itself, see :mod:`bolib.status`).
INFRASTRUCTURE = ("bolib.pipeline", "bolib.experiment", "bolib.executors", "bolib.notebook_tools",
                  "bolib.status", "bolib.cli", "bolib.perf", "bolib.provenance")


def kernel_source_hash(notebook: str) -> str:
    """:func:`bolib.provenance.source_hash` of the bolib code a notebook's own cells run (claim rules,
    statistics, plots, models fitted in the kernel ...), without :data:`INFRASTRUCTURE`."""
    from bolib import provenance

    return provenance.source_hash(notebook_modules(notebook), exclude=INFRASTRUCTURE)


def notebook_modules(notebook: str) -> tuple[str, ...]:
    """The bolib modules that the code cells of ``notebooks/<notebook>.ipynb`` import (``from bolib
    import x`` counts as ``bolib.x`` when x is a module), sorted."""
    import ast

    from bolib import provenance

    known = provenance.import_graph().modules
    found = set()
    for cell in json.loads((notebooks_dir() / f"{notebook}.ipynb").read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        try:
            tree = ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                     if isinstance(node, ast.ImportFrom) and node.module else [])
            found |= {n for n in names if n in known}
    return tuple(sorted(found))


def _plain_params(job):
    """``job``'s parameters if they survive a JSON round trip with the same key (no arrays), else None."""
    from bolib.experiment import Job

    try:
        params = json.loads(json.dumps(dict(job.params)))
    except (TypeError, ValueError):
        return None
    return params if Job(job.fn, params).key == job.key else None


def processor() -> dict[str, str]:
    """This machine's processor as ``/proc/cpuinfo`` names it: ``vendor`` (``AuthenticAMD``,
    ``GenuineIntel``, ...) and ``model``; ``"unknown"`` where the file is not there.

    A result records the processor it was computed on (README, "The same numbers on any machine"),
    so that a difference between machines can be traced to its processors.
    """
    found = {"vendor": "unknown", "model": "unknown"}
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                name, _, value = line.partition(":")
                if name.strip() == "vendor_id":
                    found["vendor"] = value.strip()
                elif name.strip() == "model name":
                    found["model"] = value.strip()
                if "unknown" not in found.values():
                    break
    except OSError:
        pass
    return found


def jobs_digest(keys) -> str:
    """The fingerprint of a set of jobs: SHA-256 of their sorted cache keys."""
    return hashlib.sha256("\n".join(sorted(keys)).encode()).hexdigest()


@dataclasses.dataclass
class Outputs:
    """Where one notebook run writes: executed notebook + claims, figures, cache."""

    run_dir: Path
    figure_dir: Path
    cache_dir: Path

    @classmethod
    def under(cls, root: Path, notebook: str, profile: str, seed_offset: int = 0) -> "Outputs":
        return cls(root / "experiments" / run_name(profile, seed_offset),
                   root / figure_folder(notebook, profile, seed_offset), root / "experiments" / "cache")


@dataclasses.dataclass
class NotebookContext:
    """What a notebook needs: its settings, output paths, claim book and executor options."""

    name: str
    profile: str
    settings: dict
    outputs: Outputs
    executor: str
    workers: int | None
    scheduler: str | None
    force: bool
    seed_offset: int = 0
    #: cache key -> the provenance group it belongs to (see :meth:`provenance`), in run order
    job_groups: dict = dataclasses.field(default_factory=dict)
    #: figure path (relative to the output root) -> :func:`jobs_digest` of the jobs run before it
    figures: dict = dataclasses.field(default_factory=dict)
    #: provenance group -> one of its jobs whose parameters are plain JSON, with its key
    examples: dict = dataclasses.field(default_factory=dict)
    #: a partial run's experiment name prefixes (None: every experiment runs)
    parts: tuple | None = None
    #: experiment name -> its jobs and the command that computes them, for each one a partial run left out
    left_out: dict = dataclasses.field(default_factory=dict)

    @property
    def claims(self):
        if not hasattr(self, "_claims"):
            from bolib.claims import ClaimBook

            self._claims = ClaimBook(self.name, self.profile, self.outputs.run_dir / f"{self.name}.claims.json",
                                     self.seed_offset, provenance=self.provenance)
        return self._claims

    def _left_out(self, experiment) -> bool:
        """Whether ``experiment`` is left out of this partial run (see :class:`NotRun`); if so, record it
        (:attr:`left_out`) with its jobs (at the stage asked for) and the command that computes them."""
        from bolib.experiment import Cache

        if self.parts is None or any(experiment.name.startswith(part) for part in self.parts):
            return False
        cache = Cache(self.outputs.cache_dir)
        if not self.force and all(cache.path(job).exists() for job in experiment.jobs()):
            return False  # read from the cache (``force`` recomputes the parts only)
        self.leave_out(experiment)
        return True

    def leave_out(self, experiment) -> None:
        """Record ``experiment`` as left out of this partial run (:attr:`left_out`), with its jobs and the command that
        computes them; for an experiment that needs the results of one left out, such as a target run whose
        previous tasks were not run."""
        self.left_out.setdefault(experiment.name, {
            "jobs": len(experiment.jobs()),
            "command": f"python -m bolib reproduce --profile {self.profile} --only {self.name} --jobs-only "
                       f"--experiments {experiment.name}"})

    def _not_run(self, names) -> NotRun:
        return NotRun(f"{', '.join(names)}: not in this partial run (parts {', '.join(self.parts)}) "
                      "and not in the cache")

    def finish(self) -> None:
        """End of a notebook: every declared claim must have been decided (:meth:`ClaimBook.finish`), except,
        in a partial run that left experiments out, those claims: their ids go to the partial run's record
        ``<run dir>/<notebook>.partial.json`` beside the experiments left out (:attr:`left_out`)."""
        path = self.outputs.run_dir / f"{self.name}.partial.json"
        if self.parts is None or not self.left_out:
            path.unlink(missing_ok=True)
            self.claims.finish()
            return
        self.claims.save()
        path.write_text(json.dumps({"notebook": self.name, "profile": self.profile, "parts": list(self.parts),
                                    "left_out": self.left_out, "undecided": self.claims.undecided()}, indent=1) + "\n")

    def _record_jobs(self, jobs) -> None:
        from bolib import provenance

        for job in jobs:
            if job.key not in self.job_groups:
                config = job.config
                modules = provenance.job_modules(job.resolve(), dict(job.params))
                self.job_groups[job.key] = (job.fn, modules, config["source"], config["code_path"])
                group = self.job_groups[job.key]
                if group not in self.examples and _plain_params(job) is not None:
                    self.examples[group] = {"params": _plain_params(job), "key": job.key}

    def provenance(self) -> dict:
        """What this run's results were made from, for ``python -m bolib status``: the notebook's code
        cells and profile settings (hashes), the library versions, and the jobs grouped by what their
        keys cover besides parameters (function, modules, source hash, code path), with their keys."""
        from bolib import provenance

        groups: dict = {}
        for key, group_id in self.job_groups.items():
            fn, modules, source, code_path = group_id
            group = groups.setdefault(group_id, {"fn": fn, "modules": list(modules), "source": source,
                                                 "code_path": code_path, "example": self.examples.get(group_id),
                                                 "keys": []})
            group["keys"].append(key)
        return {"notebook_code": notebook_code_hash(self.name), "settings": profile_hash(self.name),
                "kernel_source": kernel_source_hash(self.name),
                "libraries": provenance.library_versions(), "processor": processor(),
                "git": provenance.git_revision(),
                "jobs": {"n": len(self.job_groups), "digest": jobs_digest(self.job_groups)},
                "job_groups": list(groups.values()), "figures": dict(sorted(self.figures.items()))}

    def seeds(self, n: int) -> range:
        """The ``n`` seeds of this run: ``seed_offset``, ..., ``seed_offset + n - 1``."""
        return range(self.seed_offset, self.seed_offset + n)

    def staged(self, stages, run, values):
        """Run an experiment in stages of seeds until its comparison claims are decided.

        ``run(seeds)`` runs the experiment on ``seeds`` (cached jobs of earlier stages are not run
        again) and returns its result; ``values(result)`` gives ``{claim id: {label: per-seed
        values}}`` for the comparisons it decides, each declared with these ``stages``. After each
        stage every claim is decided on the seeds so far (:func:`bolib.claims.rules.comparison`
        looks at the stages in order and keeps the first that decides); the next stage runs only
        while one of them is still open. Returns the result of the last stage run (None if a partial
        run left the experiment out, :class:`NotRun`).
        """
        stages = tuple(int(s) for s in stages)
        decided: set[str] = set()  # decided at an earlier stage: its verdict stands on those seeds
        result = None
        for n in stages:
            try:
                result = run(self.seeds(n))
            except NotRun:  # left out of a partial run: its claims stay open at the last stage run
                break
            open_claims = []
            for claim_id, claim_values in values(result).items():
                if claim_id in decided:
                    continue
                declared = self.claims.declared.get(claim_id)
                if declared is not None and tuple(declared.params.get("stages") or ()) != stages:
                    raise BolibError(f"claim {claim_id} is declared with stages {declared.params.get('stages')}, "
                                     f"but its experiment runs in stages {list(stages)}")
                claim = self.claims.decide(claim_id, claim_values)
                if claim.details.get("next_look"):
                    open_claims.append(claim_id)
                else:
                    decided.add(claim_id)
            if not open_claims:
                break
        return result

    def run(self, experiment, *more) -> tuple:
        """Run :class:`~bolib.experiment.Experiment` objects with this run's executor and cache; a tuple
        of :class:`~bolib.experiment.Results`, one per experiment, always (``(results,) = ctx.run(exp)``).

        All their jobs go to the executor together, in the order given (put the longest jobs first so
        the workers finish together). Raises :class:`NotRun` if one of them is left out of a partial run.
        """
        from bolib.executors import run_jobs
        from bolib.experiment import Results

        experiments = (experiment, *more)
        if left_out := [exp.name for exp in experiments if self._left_out(exp)]:
            raise self._not_run(left_out)
        jobs = [exp.jobs() for exp in experiments]
        self._record_jobs(job for part in jobs for job in part)
        results = run_jobs([job for part in jobs for job in part], executor=self.executor, workers=self.workers,
                           scheduler=self.scheduler, cache_dir=self.outputs.cache_dir, force=self.force)
        if not more:
            return (results,)
        split, start = [], 0
        for part in jobs:
            split.append(Results(part, results.values[start:start + len(part)]))
            start += len(part)
        return tuple(split)

    def collect(self, studies):
        """Run :class:`~bolib.comparisons.Study` objects together and group each one's results
        (:meth:`~bolib.comparisons.Study.collect`): a study gives its Traces (:class:`NotRun` if a
        partial run leaves it out), a mapping of studies a mapping of Traces without those left out."""
        single = not isinstance(studies, dict)
        kept = {key: study for key, study in ({None: studies} if single else studies).items()
                if not self._left_out(study.experiment())}
        if single and not kept:
            raise self._not_run([studies.name])
        results = self.run(*(study.experiment() for study in kept.values())) if kept else ()
        traces = {key: study.collect(r) for (key, study), r in zip(kept.items(), results)}
        return traces[None] if single else traces

    def settings_table(self):
        """:func:`settings_table` of this notebook at this run's profile."""
        return settings_table(self.name, self.profile)

    @contextlib.contextmanager
    def figure(self, name: str, seeds, nrows: int = 1, ncols: int = 1, **subplots):
        """Make a figure (``plt.subplots(nrows, ncols, **subplots)``), hand ``(fig, axes)`` to the
        ``with`` block that draws it, give a log y axis to each panel whose values span decades
        (:func:`bolib.plots.log_scale_if_decades`), move each legend that covers data outside its panel
        (:func:`bolib.plots.legends_clear_of_data`), then save it as ``name`` (:meth:`save_figure`) and
        show it."""
        import matplotlib.pyplot as plt

        from bolib.plots import legends_clear_of_data, log_scale_if_decades

        fig, axes = plt.subplots(nrows, ncols, **subplots)
        yield fig, axes
        for ax in fig.axes:
            log_scale_if_decades(ax)
        legends_clear_of_data(fig)
        self.save_figure(fig, name, seeds)
        plt.show()

    def save_figure(self, fig, name: str, seeds):
        """Save ``fig`` as PNG and PDF, stamped with the fingerprint of the jobs run so far, and record it
        in the claims file."""
        from bolib.plots import save_figure

        digest = jobs_digest(self.job_groups)
        paths = save_figure(fig, self.outputs.figure_dir, name, profile=self.profile, seeds=seeds, jobs=digest)
        root = self.outputs.run_dir.parent.parent
        for path in paths:
            self.figures[path.relative_to(root).as_posix()] = digest
        if self.claims.path:
            self.claims.save()
        return paths


def notebook_context(name: str, profile: str, output_root: str | None = None, executor: str = "local",
                     workers: int | None = None, scheduler: str | None = None,
                     force: bool = False, seed_offset: int = 0, parts=None) -> NotebookContext:
    """Called in each notebook's setup cell with the papermill parameters (``parts``: a partial run's
    experiment name prefixes, each checked against the notebook's planned experiments)."""
    from bolib.executors import EXECUTORS

    check_choice("executor", executor, EXECUTORS)
    _check_numbers(workers, seed_offset)
    _single_threaded_process()
    settings = load_profile(name, profile)
    if parts is not None:
        parts = tuple(parts)
        planned_experiments(name, profile, names=parts)  # BolibError naming the experiments if a part matches none
    root = Path(output_root) if output_root else PROJECT_ROOT
    return NotebookContext(name, profile, settings, Outputs.under(root, name, profile, seed_offset), executor,
                           workers, scheduler, force, seed_offset, parts=parts)


def _single_threaded_process() -> None:
    """One BLAS and one torch thread for the rest of this process (a notebook's kernel): numbers
    computed in the kernel itself, like those of the jobs, must not depend on the number of cores."""
    import sys

    from threadpoolctl import threadpool_limits

    runtime.set_single_thread_env()
    threadpool_limits(limits=1)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def _check_numbers(workers: int | None, seed_offset: int) -> None:
    """``workers`` (None: the executor's default) >= 1 and ``seed_offset`` >= 0, or a BolibError."""
    if workers is not None:
        check_integer("workers", workers, 1)
    check_integer("seed_offset", seed_offset, 0)


def default_output_root(profile: str) -> Path:
    """Smoke runs never touch the committed outputs: they default to a fresh temporary folder."""
    return Path(tempfile.mkdtemp(prefix="bolib-smoke-")) if profile == "smoke" else PROJECT_ROOT


def cost_params(value):
    """A parameter as the cost record keeps it: values of over 200 characters of JSON (data such as
    previous tasks' observations) become a short description."""
    text = json.dumps(value, sort_keys=True, default=repr)
    if len(text) <= 200:
        return json.loads(text)
    if isinstance(value, dict):
        return {k: cost_params(v) for k, v in value.items()}
    return f"<{type(value).__name__} of {len(value) if hasattr(value, '__len__') else '?'}>"


def record_costs(run_dir: Path, notebook: str, cache_dir: Path, keys=None) -> Path:
    """Write ``<run_dir>/<notebook>.costs.json``: what each job of the notebook's run cost, as its
    cache file records it (function, parameters, CPU and wall seconds, and for a BO job the seconds of
    every ask and tell), for :mod:`bolib.costs` to calibrate on. The jobs are ``keys`` (cache keys),
    by default those the run recorded in its claims file; jobs without a record are counted.

    A measurement the file already holds of a job this run did not measure (same function and
    parameters; a partial run, or a cache that no longer has the job) is kept, marked ``"earlier":
    true``: the cost model calibrates on it, the run's measured CPU-hours leave it out."""
    import numpy as np

    from bolib.experiment import Cache, CorruptCacheError

    if keys is None:
        claims = json.loads((run_dir / f"{notebook}.claims.json").read_text())
        keys = [key for group in claims["provenance"]["job_groups"] for key in group["keys"]]
    cache, jobs, missing = Cache(cache_dir), [], 0
    for key in keys:
        try:
            config, result, cost = cache.entry(key)
        except (OSError, CorruptCacheError):
            cost = None
        if not cost:
            missing += 1
            continue
        entry = {"key": key, "fn": config["fn"], "params": cost_params(config["params"]),
                 "cpu_s": round(cost["cpu_s"], 4), "wall_s": round(cost["wall_s"], 4)}
        if isinstance(result, dict) and "wall" in result and "tell_wall" in result:
            entry["ask"] = [float(f"{v:.4g}") for v in np.asarray(result["wall"], float)]
            entry["tell"] = [float(f"{v:.4g}") for v in np.asarray(result["tell_wall"], float)]
        jobs.append(entry)
    path = run_dir / f"{notebook}.costs.json"

    def identity(entry):
        return entry["fn"], json.dumps(entry["params"], sort_keys=True)

    measured = {identity(entry) for entry in jobs}
    earlier = json.loads(path.read_text())["jobs"] if path.exists() else []
    kept = [{**entry, "earlier": True} for entry in earlier if identity(entry) not in measured]
    run_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"notebook": notebook, "profile": run_dir.name, "jobs": jobs + kept,
                                "without_record": missing}, separators=(",", ":")))
    return path


def reproduce(profile: str = "quick", only=None, executor: str = "local", scheduler: str | None = None,
              workers: int | None = None, force: bool = False, output_root: str | Path | None = None,
              include_template: bool = False, progress: bool = True, seed_offset: int = 0,
              parts=None) -> list[Path]:
    """Execute the selected notebooks with papermill, then write the reproduction report. With
    ``parts`` (experiment name prefixes), a partial run of the one notebook ``only`` names."""
    import papermill

    check_choice("profile", profile, PROFILES)
    _check_numbers(workers, seed_offset)
    available = notebook_names(include_template=True)
    names = list(only) if only else notebook_names(include_template)
    for name in names:
        check_choice("notebook", name, available)
    for name in names:  # every profile is checked before any job runs
        load_profile(name, profile)
    extra = {}
    if parts is not None:
        if len(names) != 1:
            raise BolibError(f"a partial run (experiments {', '.join(parts)}) is of one notebook: name it with --only "
                             f"(one of {', '.join(notebook_names())})")
        declared = papermill.inspect_notebook(str(notebooks_dir() / f"{names[0]}.ipynb"))
        if "parts" not in declared:
            raise BolibError(f"notebooks/{names[0]}.ipynb has no parameter 'parts': it runs whole (leave out "
                             "--experiments, or give --jobs-only to compute those experiments' jobs)")
        planned_experiments(names[0], profile, names=parts)  # BolibError naming the experiments if one matches none
        extra["parts"] = list(parts)
    if scheduler:  # a scheduler address implies the Dask executor; fail fast if it is unreachable
        from bolib.executors import connect_dask

        executor = "dask"
        client, _ = connect_dask(scheduler, workers or 2)
        client.close()
    root = Path(output_root) if output_root else default_output_root(profile)
    if names:  # before any notebook runs; all of them write to the same run folder and cache
        outputs = Outputs.under(root, names[0], profile, seed_offset)
        check_writable(outputs.run_dir, "run folder")
        check_writable(outputs.cache_dir, "cache directory")
        for name in names:
            check_writable(Outputs.under(root, name, profile, seed_offset).figure_dir, "figure folder")
    runtime.set_single_thread_env()  # the kernels start with one BLAS thread (see _single_threaded_process)
    executed = []
    try:
        for name in names:
            outputs = Outputs.under(root, name, profile, seed_offset)
            outputs.run_dir.mkdir(parents=True, exist_ok=True)
            target = outputs.run_dir / f"{name}.ipynb"
            print(f"[bolib] {name} @ {profile} -> {target}", flush=True)
            papermill.execute_notebook(
                str(notebooks_dir() / f"{name}.ipynb"), str(target), kernel_name="python3",
                cwd=str(notebooks_dir()), progress_bar=progress,
                parameters=dict(profile=profile, output_root=str(root), executor=executor,
                                workers=workers, scheduler=scheduler, force=force, seed_offset=seed_offset, **extra))
            executed.append(target)
            record_costs(outputs.run_dir, name, outputs.cache_dir)
    finally:  # a failed or stopped run's report says which declared claims were not decided
        run_dir = root / "experiments" / run_name(profile, seed_offset)
        write_report(run_dir)
        print(end_of_run_summary(run_dir), flush=True)
    return executed
