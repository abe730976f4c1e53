"""Methods x problems x seeds: the pattern behind the papers' BO figures and comparison claims.

A :class:`Study` runs every labelled method variant on every problem for the same seeds. Runs with
one seed share their initial design, noise and durations (:mod:`bolib.loop`), so per-seed numbers
of two methods are *paired*, which is what the comparison rule of :mod:`bolib.claims.rules` needs.
:class:`Traces` groups the results by (problem, label), gives per-seed numbers at a budget point
(:meth:`Traces.at`) and draws mean curves with confidence bands (:meth:`Traces.plot`). The per-run
metrics such numbers are taken with (:func:`final_simple_regret`, :func:`mean_best_so_far`,
:func:`log_area_regret`, :func:`seconds_per_proposal`, :func:`seconds_per_evaluation`) are functions of one :class:`bolib.loop.Trace`.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from bolib.experiment import Experiment
from bolib.loop import Trace, bo_job
from bolib.stats import per_round


def final_simple_regret(trace: Trace) -> float:
    """f* - the best value found, after the last evaluation."""
    return float(trace.simple_regret[-1])


def mean_best_so_far(trace, n_init: int) -> float:
    """The mean, over the BO queries after the ``n_init`` initial points, of the best noise-free value found
    so far, max_{s <= t} f(x_s): the area under a best-value curve (paper 004's Figs. 2a, 2d, 2e; higher is
    better; with a known optimum f* it is f* minus the mean simple regret S_t over the queries). It keeps
    the difference between methods that end at the same best value but reach it at different times."""
    best = np.maximum.accumulate(np.asarray(trace.f, dtype=float))
    return float(best[n_init:].mean())


def log_area_regret(trace, n_init: int, resolution: float | None = None) -> float:
    """log of the mean simple regret S_t = f* - max_{s <= t} f(x_s) over the queries after the ``n_init``
    initial points, i.e. log(f* - :func:`mean_best_so_far`) for a benchmark with a known optimum f*.

    On this scale a margin is a factor on the mean regret (paper 004's real-data "no worse than" claims
    take log 1.25, :data:`bolib.papers.rm_bo.RATIO_MARGIN`). A run with no regret is floored, not
    infinite: at the objective's ``resolution`` (its smallest step) spread over the queries, the
    smallest mean a run with any regret can have, i.e. one step short at one query; without it at
    :func:`log_regret_per_query`'s floor."""
    regret = np.asarray(trace.simple_regret, dtype=float)[n_init:]
    if resolution is None:
        return float(log_regret_per_query(regret))
    return float(log_regret_per_query(regret, floor=resolution / len(regret)))


def seconds_per_proposal(trace, n_init: int) -> float:
    """Mean wall-clock seconds the optimiser spent proposing each BO query (the trace's ``wall`` column,
    objective evaluations excluded): the runtime of paper 004's Figs. 2b and 9b."""
    return float(np.mean(np.asarray(trace.wall, dtype=float)[n_init:]))


def seconds_per_evaluation(trace, n_init: int) -> float:
    """Mean wall-clock seconds the optimiser spent on each BO query, proposing it and taking its value in
    (the trace's ``wall`` plus ``tell_wall``; objective evaluations excluded): a method that updates or
    resamples its model when told pays there, so its time counts as well (paper 000's App. E speed claim)."""
    wall = np.asarray(trace.wall, dtype=float)[n_init:] + np.asarray(trace.tell_wall, dtype=float)[n_init:]
    return float(np.mean(wall))


def log_regret_per_query(regret, floor: float = 1e-12) -> np.ndarray:
    """log(R_T / T) per seed from per-query regrets (runs, T), R_T = sum_t r_t.

    A non-inferiority margin on this scale is a factor on R_T / T, so it
    means the same whether the competitor's regret is large or small. ``floor`` keeps a run with no
    regret at all (possible on a grid) finite.
    """
    return np.log(np.maximum(np.asarray(regret, dtype=float).mean(axis=-1), floor))


def per_target(values: dict, n_inits: int, log: bool = False) -> dict:
    """Average per-run values over the ``n_inits`` initialisations of each target (runs ordered target by
    target, as the seeds of paper 004's Figs. 2c-d are), so that a paired test runs over targets, not over
    (target, initialisation) pairs, as that paper averages each target over its initialisations.
    With ``log`` the values are regrets and the result is the log of their mean (:func:`log_regret_per_query`)."""
    out = {}
    for label, v in values.items():
        grouped = np.asarray(v, dtype=float).reshape(-1, int(n_inits))
        out[label] = log_regret_per_query(grouped) if log else grouped.mean(axis=1)
    return out


@dataclasses.dataclass
class Study:
    """Each variant (``label -> bo_job parameters``, e.g. ``{"method": ..., "settings": ...}``) on
    each problem and seed: one :func:`bolib.loop.bo_job` per (problem, variant, seed).

    Parameters
    ----------
    name : the experiment's name (its jobs' cache folder and the notebook's handle).
    problems : registered benchmark names (``python -m bolib list``).
    variants : label -> the parameters that make that competitor (two variants that are the same run
        raise ``ValueError``).
    seeds : the seeds; :meth:`on` gives the same study on other seeds (a stage of a staged design).
    fixed : the parameters every job shares (``budget``, ``n_init``, ``dim``, ``batch_size`` ...).
    options : seed -> that seed's ``benchmark_options`` (e.g. one robot goal per seed), if given.
    adapt : (problem, label, variant) -> the variant as run on that problem (e.g. settings in the
        problem's units), or None where that label is not run on that problem; if not given, every
        variant runs unchanged on every problem.

    Returns
    -------
    :meth:`experiment` is the :class:`bolib.experiment.Experiment` a notebook runs (``ctx.run``);
    :meth:`collect` turns its results into :class:`Traces` by (problem, label).

    Examples
    --------
    >>> from bolib.comparisons import Study
    >>> study = Study("demo", ["branin"], {"EI": {"method": "gp-ei"}, "random": {"method": "random"}},
    ...               seeds=[0, 1], fixed={"budget": 8, "n_init": 4})
    >>> len(study.experiment().jobs()), study.label({"method": "random", "seed": 1})
    (4, 'random')
    """

    name: str
    problems: Sequence[str]
    variants: Mapping[str, Mapping]
    seeds: Sequence[int]
    fixed: Mapping
    options: Callable[[int], dict] | None = None
    adapt: Callable[[str, str, Mapping], Mapping | None] | None = None

    def __post_init__(self):
        seen = {}
        for label, variant in self.variants.items():
            key = repr(sorted(variant.items()))
            if key in seen:
                raise ValueError(f"variants {seen[key]!r} and {label!r} are the same run")
            seen[key] = label

    def on(self, seeds: Sequence[int]) -> "Study":
        """The same study on other ``seeds`` (a stage of :meth:`bolib.pipeline.NotebookContext.staged`)."""
        return dataclasses.replace(self, seeds=list(seeds))

    def experiment(self) -> Experiment:
        per_seed = [{"seed": s, **({"benchmark_options": self.options(s)} if self.options else {})} for s in self.seeds]
        if self.adapt is None:
            return Experiment(self.name, bo_job, grid={"benchmark": list(self.problems)}, fixed=dict(self.fixed),
                              variants=[{**v, **s} for v in self.variants.values() for s in per_seed])
        return Experiment(self.name, bo_job, grid={}, fixed=dict(self.fixed),
                          variants=[{"benchmark": p, **v, **s} for label in self.variants for s in per_seed
                                    for p in self.problems if (v := self.variant_on(p, label)) is not None])

    def variant_on(self, problem: str, label: str) -> Mapping | None:
        """The variant ``label`` as run on ``problem`` (None: not run there)."""
        variant = self.variants[label]
        return variant if self.adapt is None else self.adapt(problem, label, variant)

    def label(self, params: Mapping) -> str:
        """The label of the variant that produced a job with ``params``."""
        return next(label for label in self.variants if (variant := self.variant_on(params.get("benchmark"), label))
                    is not None and all(params.get(k) == v for k, v in variant.items()))

    def collect(self, results) -> "Traces":
        """Group ``results`` of :meth:`experiment` (``(params, value)`` pairs) by problem and label."""
        traces: dict[tuple[str, str], list[Trace]] = {}
        for params, value in results:
            traces.setdefault((params["benchmark"], self.label(params)), []).append(Trace.from_dict(value))
        return Traces(traces, list(self.problems), list(self.variants))


@dataclasses.dataclass
class Traces:
    """Traces by (problem, label), seeds in order."""

    runs: dict[tuple[str, str], list[Trace]]
    problems: list[str]
    labels: list[str]

    def __getitem__(self, key: tuple[str, str]) -> list[Trace]:
        return self.runs[key]

    def at(self, problem: str, metric: Callable[[Trace], float] = final_simple_regret,
           labels: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """Per-seed ``metric`` of each label on ``problem`` (the values of a comparison claim)."""
        return {label: np.array([metric(tr) for tr in self.runs[problem, label]])
                for label in (labels or self.labels) if (problem, label) in self.runs}

    def curves(self, problem: str, label: str, by: str = "evaluation", value: str = "simple_regret") -> np.ndarray:
        """Seeds x steps of a trace property, per evaluation or at the end of each batch round."""
        rows = [getattr(tr, value) for tr in self.runs[problem, label]]
        if by == "round":
            rows = [per_round(r, tr.round) for r, tr in zip(rows, self.runs[problem, label])]
        return np.array(rows)

    def plot(self, axes, by: str = "evaluation", ylabel: str = "simple regret", transform=None,
             labels: Sequence[str] | None = None, style: Callable[[str], dict] | None = None, titles=None):
        """One panel per problem: each label's median over seeds with its quartile band (:func:`bolib.plots.plot_band`),
        from the end of the initial design (round 0, or its last evaluation): the design's first points, which
        no method chose, would otherwise set the panel's range."""
        from bolib.plots import plot_band

        for ax, problem in zip(np.ravel(axes), self.problems):
            for label in labels or self.labels:
                if (problem, label) not in self.runs:
                    continue
                y = self.curves(problem, label, by)
                first = 0 if by == "round" else max(int(np.sum(self.runs[problem, label][0].round == 0)), 1) - 1
                y = y[:, first:]
                start = first if by == "round" else first + 1
                plot_band(ax, np.arange(start, start + y.shape[1]), transform(y) if transform else y, label,
                          **(style(label) if style else {}))
            ax.set(xlabel="round (0 = initial design)" if by == "round" else "evaluations (from the initial design's last)",
                   ylabel=ylabel, title=titles[problem] if titles else problem)
        np.ravel(axes)[0].legend(fontsize=6)
