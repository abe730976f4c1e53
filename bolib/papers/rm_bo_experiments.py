"""The experiments of notebook ``004_rmbo`` (paper 004, RM-GP-UCB and RM-GP-TS), built from its settings ``S``.

Each builder returns the :class:`~bolib.experiment.Experiment` (or :class:`~bolib.comparisons.Study`, or
several of them) that the notebook runs at one place, on the seeds it is given; the notebook runs them
with ``ctx.run`` / ``ctx.staged`` and analyses the results; the ``*_values`` functions turn results into the
per-seed values each claim is decided on (the metrics declared in :mod:`bolib.papers.rm_bo_claims`). :func:`plan`
lists every experiment the notebook runs at settings ``S``, each seed-stage list taken at one look, for
:mod:`bolib.costs`. The real-data target runs take the previous tasks' observations (the first points of
earlier GP-UCB runs) as a parameter; :func:`plan` puts a stand-in of the same size in their place
(:func:`stand_in_tasks`).
"""
from __future__ import annotations

import dataclasses
import importlib
import warnings

import numpy as np

from bolib import comparisons, plots
from bolib.algorithms.rm_bo import nu_step
from bolib.benchmarks import benchmark_entry, cartpole, image_tuning, svm_grid
from bolib.comparisons import Study
from bolib.experiment import Cache, Experiment, NotRun, default_cache_dir, stage_seeds
from bolib.loop import bo_job
from bolib.papers import rm_bo as theory
from bolib.papers.rm_bo_claims import (C5_QUERY, C5_SHARE, CONTRAST, CP_RESOLUTION, DELTA, N_INIT,
                                      constants)

# ---------------------------------------------------------------- synthetic runs (§5, §6.1-6.5): variants
#: the ablation of the first query's nu and weights (F1a-nu1): no update before the first query, which plays Sec. 5.2's
#: nu_1 = 1 and omega_1 = 1/M (the authors' code, ours elsewhere, updates first: the first query plays nu <= r)
NU1_PLAYED = "RM-GP-UCB (nu_1 = 1 played)"
#: Figs. 1a-c, 4, 5 (C5, C7-hedge), F8, F1a-nu1 and E-TS: label -> grid_run settings
FIG1 = {"RM-GP-UCB": {}, "fixed w": {"weights": "fixed"}, "GP-UCB": {"nu": 0.0}, "eta 0.01": {"eta_n": 0.01},
        "eta 0.1": {"eta_n": 0.1}, "eta 5": {"eta_n": 5.0}, "gap max": {"gap_reduce": "max"}, "RM-GP-TS": {"acquisition": "ts"},
        "RM-GP-TS (nu_1 = 0)": {"acquisition": "ts", "nu_start": 0.0}, "GP-TS": {"acquisition": "ts", "nu": 0.0},
        "GP-UCB (Srinivas beta)": {"nu": 0.0, "beta": "srinivas"}, NU1_PLAYED: {"update_first": False}}
#: the exploring baselines of Fig. 1a's setting (ours: they tell "meta-tasks help" from "the paper's GP-UCB stalls")
EXPLORING = ["GP-TS", "GP-UCB (Srinivas beta)"]
#: C2a and C2b: RM-GP-UCB, GP-UCB and the meta part alone (nu fixed at 1)
DISSIMILAR = {"RM-GP-UCB": {}, "GP-UCB": {"nu": 0.0}, "nu = 1": {"nu": 1.0}}
#: Fig. 1d (C3 and its contrast, C3-eps): several epsilon with r = 0.99, GP-UCB and nu fixed at 1
C3_VARIANTS = {**{f"eps {e}": {"eps": e, "r": 0.99} for e in (0.1, 0.3, 0.7, 1.0)}, "GP-UCB": {"nu": 0.0}, "nu = 1": {"nu": 1.0}}
#: Theorem 2 (C8): both acquisitions, adaptive against nu = 0.5 with fixed weights 1/8
C8_VARIANTS = {"RM-GP-UCB": {}, "RM-GP-TS": {"acquisition": "ts"}, "GP-UCB": {"nu": 0.0}, "GP-TS": {"acquisition": "ts", "nu": 0.0},
               "RM-GP-UCB, nu = 0.5, w = 1/8": {"nu": 0.5, "weights": "fixed"},
               "RM-GP-TS, nu = 0.5, w = 1/8": {"acquisition": "ts", "nu": 0.5, "weights": "fixed"}}
#: Fig. 5 (C9, C9-equal): unequal N_i, with and without Proposition 1's N_i-weighted losses
C9_VARIANTS = {"RM-GP-UCB": {}, "RM-GP-UCB (N_i-weighted)": {"hedge": "exact"}, "GP-UCB": {"nu": 0.0},
               **{k: FIG1[k] for k in EXPLORING}}
#: C4 (App. A.3, "the early stage"): the queries over which the cumulative regret is compared
C4_QUERIES = 10
#: C4 and C4-explore: RM-GP-UCB, the paper's GP-UCB and GP-UCB with beta = 0 (no exploration)
C4_VARIANTS = {"RM-GP-UCB": {}, "GP-UCB": {"nu": 0.0}, "GP-UCB (beta = 0)": {"nu": 0.0, "beta": 0.0}}
#: C1-L6 (Lemmas 3 and 6): M = 16 tasks of N_i = 20, Lemma 6's event for all of them at once
L6_SIZES = [20] * 16

# ---------------------------------------------------------------- real-data stand-ins (§6.7-6.11): methods
META_SEED = 10_000  # previous-task runs use seeds META_SEED + i at every seed offset (they are part of the problem)
GP_UCB = {"method": "rm-gp-ucb", "settings": {"nu": 0.0, "meta_tasks": []}}  # RM-GP-UCB with nu = 0 and no tasks
META_METHODS = {"GP-UCB": GP_UCB, "RM-GP-UCB": {"method": "rm-gp-ucb", "settings": {}},
                "RM-GP-TS": {"method": "rm-gp-ts", "settings": {}}, "RGPE": {"method": "rgpe", "settings": {}},
                "TAF": {"method": "taf", "settings": {}}, "MTBO": {"method": "mtbo", "settings": {}}}
#: the ablation of the meta GPs' prior (§6.9, claim F2e-std): the authors' zero-mean GP on each task's raw outputs
RAW_META = "RM-GP-UCB (raw meta GPs)"
META_METHODS[RAW_META] = {"method": "rm-gp-ucb", "settings": {"meta_standardize": False}}
#: the contrast of the non-stationary and HAR claims (:data:`bolib.papers.rm_bo_claims.CONTRAST`)
RANDOM = {CONTRAST: {"method": "random", "settings": {}}}
MAP_FIT = {"hyperprior": "botorch", "fit_starts": 1}  # GP fits of §6.10-6.11 (settings table: MAP, one start; §6.7-6.9 use type-II ML)
NS_FRACTIONS = (0.2, 0.4, 0.6, 0.8)  # training-set fractions of the non-stationary stand-in's previous tasks


# ---------------------------------------------------------------- synthetic builders
def synthetic(S: dict, name: str, gaps, sizes, variants: dict, T_run: int, seeds, **fixed) -> Experiment:
    """One job per seed of ``seeds``: every variant on that seed's synthetic task (App. D.1 set-up, §5 and §6.1-6.5)."""
    return Experiment(name, theory.synthetic_job, grid={"seed": list(seeds)},
                      fixed={"T": T_run, "n_grid": S["n_grid"], "gaps": list(gaps), "sizes": list(sizes),
                             "variants": variants, "n_init": S["n_init"], **fixed})


def theory_checks(S: dict, seeds) -> dict[str, Experiment]:
    """Theory-mode runs of §5.2-5.5 (Theorem 1: C2a, C2-L8, C2-P1, E-C1; eq. 20: C4-eq20; Lemma 1: C6-lemma1), by key."""
    T, TB = S["T"], S["T_bound"]
    return {"c2a": synthetic(S, "rmbo-c2a", [8.0] * 4, [20] * 4, DISSIMILAR, TB, seeds, target="rkhs", mode="theory"),
            "c2a-outside": synthetic(S, "rmbo-c2a-outside", [8.0] * 4, [20] * 4, {"RM-GP-UCB": {}}, TB, seeds, target="rkhs",
                                     mode="theory", scale=1000.0),
            "c4-eq20": synthetic(S, "rmbo-c4-eq20", [0.0] * 4, [20] * 4, {"RM-GP-UCB": {}}, 5, seeds, target="rkhs", mode="theory"),
            "c6-theory": synthetic(S, "rmbo-c6-theory", [0.05, 0.5, 2.0, 4.0], [20] * 4, {"RM-GP-UCB": {}}, T, seeds,
                                   target="rkhs", mode="theory")}


def c2b(S: dict, seeds) -> list[Experiment]:
    """Theorem 1 in practical mode with beta = 2 (§5.2: C2b, C2b-ni)."""
    return [synthetic(S, "rmbo-c2b", [8.0] * 4, [20] * 4, {k: {**v, "beta": 2.0} for k, v in DISSIMILAR.items()}, S["T_bound"],
                      seeds, target="rkhs")]


def c3(S: dict, seeds) -> list[Experiment]:
    """Fig. 1d: all meta-tasks dissimilar, several epsilon (§6.4: C3, C3-eps)."""
    return [synthetic(S, "rmbo-c3", [8.0] * 4, [20] * 4, C3_VARIANTS, S["T_bound"], seeds)]


def c4(S: dict, seeds) -> list[Experiment]:
    """App. A.3: acceleration with all meta-tasks similar (§5.5: C4, C4-explore)."""
    return [synthetic(S, "rmbo-c4", [0.05] * 4, [20] * 4, C4_VARIANTS, max(S["T"], C4_QUERIES), seeds)]


def c6(S: dict, seeds) -> list[Experiment]:
    """The practical gap estimate separates similar from dissimilar tasks, and its all-d = 2 control (§5.3: C6-sep)."""
    return [synthetic(S, "rmbo-c6", [0.05, 0.5, 2.0, 4.0], [20] * 4, {"RM-GP-UCB": {}}, S["T"], seeds),
            synthetic(S, "rmbo-c6-equal", [2.0] * 4, [20] * 4, {"RM-GP-UCB": {}}, S["T"], seeds)]


def c8(S: dict, seeds) -> list[Experiment]:
    """Theorem 2: RM-GP-TS is less robust, M = 8 with one similar task (§5.6: C8-ucb, C8-ts, C8-robust)."""
    return [synthetic(S, "rmbo-c8", [0.05] + [4.0] * 7, [20] * 8, C8_VARIANTS, S["T_ts"], seeds)]


def fig1(S: dict, seeds) -> list[Experiment]:
    """Figs. 1a-c, 4, 5 and F8 on the synthetic tasks, with Fig. 5's unequal N_i (§5.4, 5.7, 6.2-6.5: C5-*, C7-hedge, E-TS, F1a-*, F1c-*, F8, C9, C9-equal)."""
    return [synthetic(S, "rmbo-fig1", [0.05, 0.05, 4.0, 4.0], [20] * 4, FIG1, S["T"], seeds),
            synthetic(S, "rmbo-c9", [0.05, 0.05, 4.0, 4.0], [15, 25, 10, 30], C9_VARIANTS, S["T"], seeds)]


#: the synthetic comparison groups, in the notebook's order: group of the profile's ``syn_stages`` -> builder
SYNTHETIC_GROUPS = {"c2b": c2b, "c3": c3, "c4": c4, "c6": c6, "c8": c8, "fig1": fig1}


#: Lemma 4's control: f scaled by this, so that its RKHS norm is 10 B, outside the ball the lemma assumes
L4_OUTSIDE = 10.0
#: Lemma 4's regulariser: the hypothetical GPs are the target GP's (App. A: "the same as" mu_{t-1}, sigma_{t-1}), whose
#: regulariser Theorem 1 sets to 1 + 2/T; here 1 + eta, eta = 2/N (N = 20), the form of Chowdhury and Gopalan's Theorem 2,
#: which the lemma cites. The meta GPs' sigma^2 (Lemma 5) is printed beside it.
L4_LAMBDA = 1.0 + 2.0 / 20


def lemmas(S: dict, seeds) -> tuple[Experiment, ...]:
    """Lemma 3's chain, Lemma 4's band at :data:`L4_LAMBDA` (with its control, f outside the norm ball, and the same
    draws at the meta GPs' sigma^2) and Lemma 6's event, the draws split over the seeds (§5.1: C1, C1-chain, C1-L4, C1-L6)."""
    n = len(seeds)
    lemma4 = dict(grid={"seed": list(seeds)}, fixed={"n_draws": max(1, S["lemma4_draws"] // n), "n_grid": S["n_grid"],
                                                     "sizes": [20] * 4, "delta": DELTA})
    return (Experiment("rmbo-lemma3", theory.lemma3_job, grid={"seed": list(seeds)},
                       fixed={"n_draws": max(1, S["lemma3_draws"] // n), "n_grid": S["n_grid"],
                              "gaps": [0.05, 0.05, 4.0, 4.0], "sizes": [20] * 4, "delta": DELTA}),
            Experiment("rmbo-lemma4", theory.lemma4_job, grid=lemma4["grid"], fixed={**lemma4["fixed"], "lam": L4_LAMBDA}),
            Experiment("rmbo-lemma4-outside", theory.lemma4_job, grid=lemma4["grid"],
                       fixed={**lemma4["fixed"], "lam": L4_LAMBDA, "scale": L4_OUTSIDE}),
            Experiment("rmbo-lemma4-sigma2", theory.lemma4_job, **lemma4),
            Experiment("rmbo-lemma6", theory.lemma6_job, grid={"seed": list(seeds)},
                       fixed={"n_draws": max(1, S["lemma6_draws"] // n), "sizes": list(L6_SIZES), "delta": DELTA}))


# ---------------------------------------------------------------- real-data builders
def previous_tasks(name: str, benchmark: str, options: list, n: int, settings: dict | None = None) -> Experiment:
    """Previous tasks of §6.7-6.10: one GP-UCB run of ``n`` points per option set ``options[i]`` (seed META_SEED + i).

    N_INIT random points, then GP-UCB, with the GP fit ``settings`` added to GP-UCB's; the first ``n`` points of each run
    are the target's option ``tasks``."""
    return Experiment(name, bo_job, grid={}, fixed={"benchmark": benchmark, "budget": n, "n_init": N_INIT,
                                                    "method": GP_UCB["method"], "settings": {**GP_UCB["settings"], **(settings or {})}},
                      variants=[{"benchmark_options": o, "seed": META_SEED + i} for i, o in enumerate(options)])


def ns_meta(S: dict) -> Experiment:
    """Figs. 2a-b, 8c (§6.7): the previous tasks of the non-stationary stand-in, one per smaller training set."""
    return previous_tasks("rmbo-ns-meta", "nonstationary-lr", [{"fraction": f} for f in NS_FRACTIONS], S["ns_meta_n"])


def ns(S: dict, seeds, tasks: list) -> Study:
    """Figs. 2a-b, 8c (§6.7: F2a, F2b-ts, F2b-mtbo, F8c): every method, and random search (the contrast), on the full
    training set, previous tasks ``tasks``.

    ``tasks`` come from the runs of :func:`ns_meta`; :func:`plan` puts a stand-in in their place."""
    variants = {**{m: META_METHODS[m] for m in constants(S)["NS_METHODS"]},
                "RM-GP-UCB (gap max)": {"method": "rm-gp-ucb", "settings": {"gap_reduce": "max"}}, **RANDOM}
    return Study("rmbo-ns", ["nonstationary-lr"], variants, seeds, {"budget": N_INIT + S["ns_T"], "n_init": N_INIT},
                 options=lambda _: {"fraction": 1.0, "tasks": tasks})


def har_meta(S: dict) -> Experiment:
    """Fig. 2d (§6.8): the previous tasks of the HAR stand-in, subjects 0..har_meta-1."""
    return previous_tasks("rmbo-har-meta", "har-digits", [{"subject": k} for k in range(S["har_meta"])], S["har_meta_n"])


def har(S: dict, seeds, tasks: list) -> Study:
    """Fig. 2d (§6.8: F2d, F2d-rgpe, F2d-ts): every method, and random search (the contrast), on the target subjects from
    21 on, har_inits consecutive seeds each.

    ``tasks`` come from the runs of :func:`har_meta`; :func:`plan` puts a stand-in in their place."""
    targets = list(range(21, 21 + S["har_targets"][-1]))
    first = next(iter(seeds), 0)
    return Study("rmbo-har", ["har-digits"], {**{m: META_METHODS[m] for m in constants(S)["HAR_METHODS"]}, **RANDOM}, seeds,
                 {"budget": N_INIT + S["har_T"], "n_init": N_INIT},
                 options=lambda k: {"subject": targets[(k - first) // S["har_inits"]], "tasks": tasks})


def cp_centres(S: dict) -> np.ndarray:
    """Figs. 2e-f (§6.9): the start centres of the CartPole previous tasks (similar first)."""
    return cartpole.cartpole_centres(S["cp_similar"], S["cp_dissimilar"])


def _cartpole_meta(name: str, centres, n: int) -> Experiment:
    """The CartPole previous tasks of Figs. 2e-f and 9 (§6.9): one GP-UCB run of ``n`` points per start centre."""
    return previous_tasks(name + "-meta", "cartpole", [{"center": c.tolist()} for c in centres], n)


def _cartpole(S: dict, name: str, methods, seeds, tasks: list) -> Study:
    """The CartPole target runs of Figs. 2e-f and 9 (§6.9): ``methods`` and random search (the contrast) from the same
    initial design per seed."""
    return Study(name, ["cartpole"], {**{m: META_METHODS[m] for m in methods}, **RANDOM}, seeds,
                 {"budget": N_INIT + S["cp_T"], "n_init": N_INIT}, options=lambda s: {"tasks": tasks})


def cp_meta(S: dict) -> Experiment:
    """Figs. 2e-f (§6.9): the CartPole previous tasks, one GP-UCB run per start centre."""
    return _cartpole_meta("rmbo-cp", cp_centres(S), S["cp_meta_n"])


def cp(S: dict, seeds, tasks: list) -> Study:
    """Figs. 2e-f (§6.9: F2e, F2e-ts, F2f, F2e-std): every method on the CartPole target (centre 0), previous tasks
    ``tasks``, and the meta-GP ablation :data:`RAW_META`.

    ``tasks`` come from the runs of :func:`cp_meta`; :func:`plan` puts a stand-in in their place."""
    return _cartpole(S, "rmbo-cp", constants(S)["CP_METHODS"] + [RAW_META], seeds, tasks)


def cp9_meta(S: dict) -> Experiment:
    """Fig. 9 (§6.9): the previous tasks of the large CartPole set-up."""
    centres = cartpole.cartpole_centres(S["cp9_similar"], S["cp9_dissimilar"], stream="cartpole-centres-fig9")
    return _cartpole_meta("rmbo-fig9-cp", centres, S["cp9_meta_n"])


def cp9(S: dict, seeds, tasks: list) -> Study:
    """Fig. 9 (§6.9: F9a, F9b): every method on the CartPole target with the large set-up's previous tasks ``tasks``.

    ``tasks`` come from the runs of :func:`cp9_meta`; :func:`plan` puts a stand-in in their place."""
    return _cartpole(S, "rmbo-fig9-cp", constants(S)["CP9_METHODS"], seeds, tasks)


def img_meta(S: dict) -> Experiment:
    """Figs. 1e-f, 6, 8a-b (§6.10): one GP-UCB run per image task (in image_tuning.TASKS order), the previous tasks of the others."""
    return previous_tasks("rmbo-img-meta", "image-tuning", [{"task": t, "levels": S["img_levels"]} for t in image_tuning.TASKS],
                          S["img_meta_n"], MAP_FIT)


def img(S: dict, target: str, seeds, meta: dict) -> Study:
    """Figs. 1e-f, 6, 8a-b (§6.10: F1ef-*, F1e-ts, F1e-rgpe, F8a-b, F1e-weights*): every method on ``target``, the others' ``meta`` as previous tasks.

    ``meta`` (task -> observations) comes from the runs of :func:`img_meta`; :func:`plan` puts a stand-in in
    their place."""
    tasks = [meta[t] for t in image_tuning.TASKS if t != target]
    variants = {m: {"method": META_METHODS[m]["method"], "settings": {**META_METHODS[m]["settings"], **MAP_FIT}}
                for m in constants(S)["IMG_METHODS"]}
    variants["RGPE"]["settings"]["n_samples"] = S["img_rgpe_samples"]
    variants.update(RANDOM)  # the contrast of the image claims
    if target in ("digits", "g10"):
        variants["RM-GP-UCB (gap max)"] = {"method": "rm-gp-ucb", "settings": {"gap_reduce": "max", **MAP_FIT}}
    return Study(f"rmbo-img-{target}", ["image-tuning"], variants, seeds,
                 {"budget": N_INIT + S["img_T"], "n_init": N_INIT},
                 options=lambda s: {"task": target, "levels": S["img_levels"], "tasks": tasks})


def svm_targets(S: dict) -> np.ndarray:
    """Fig. 2c (§6.11): the target data sets, spread over the 50."""
    return np.unique(np.linspace(0, len(svm_grid.DATASETS) - 1, S["svm_targets"]).round().astype(int))


def svm_variants(S: dict) -> dict:
    """Fig. 2c (§6.11): the methods (label -> bo_job method and settings), random search (the contrast), PEM-BO last."""
    variants = {m: {"method": META_METHODS[m]["method"], "settings": {**META_METHODS[m]["settings"], **MAP_FIT}}
                for m in constants(S)["SVM_METHODS"] if m != "PEM-BO"}
    variants["RGPE"]["settings"]["n_samples"] = S["svm_rgpe_samples"]
    variants.update(RANDOM)
    variants["PEM-BO"] = {"method": "pem-bo", "settings": {}}
    return variants


def svm(S: dict, seeds, tables=svm_grid.table) -> dict[int, Study]:
    """Fig. 2c (§6.11: F2c, F2c-ts, F2c-rgpe): per target data set, every method with the first svm_meta others as previous tasks.

    The previous tasks' values come from ``tables`` (data set index -> its 288 accuracies, computed on first use);
    :func:`plan` passes zeros in their place."""
    variants = svm_variants(S)
    studies = {}
    for target in svm_targets(S):
        others = [j for j in range(len(svm_grid.DATASETS)) if j != target][:S["svm_meta"]]
        tasks = svm_grid.random_meta_tasks({j: tables(j) for j in others}, svm_grid.candidates(), S["svm_meta_n"], META_SEED)
        studies[int(target)] = Study(f"rmbo-svm-{target}", ["svm-grid"], variants, seeds,
                                     {"budget": S["svm_n_init"] + S["svm_T"], "n_init": S["svm_n_init"]},
                                     options=lambda s, target=target, tasks=tasks: {"dataset": int(target), "tasks": tasks})
    return studies


# ---------------------------------------------------------------- the plan
def _dim(benchmark: str) -> int:
    module, _, function = benchmark_entry(benchmark).partition(":")
    return getattr(importlib.import_module(module), function).default_dim


def stand_in_tasks(experiment: Experiment) -> list[dict]:
    """In place of the option ``tasks`` that the notebook makes from the runs of a :func:`previous_tasks` experiment:
    per run, ``budget`` points at the centre of the unit cube, all with one value drawn from the run's key (so that the
    stand-ins of two experiments never make their targets' jobs coincide). The targets' jobs get their number and sizes,
    not their keys (the plan runs nothing)."""
    n = experiment.fixed["budget"]
    return [{"X": [[0.5] * _dim(job.params["benchmark"])] * n, "y": [int(job.key[:8], 16) / 16 ** 8] * n}
            for job in experiment.jobs()]


def planned_tasks(experiment: Experiment) -> tuple[list[dict], bool]:
    """The option ``tasks`` for :func:`plan`: the notebook's own (:func:`run_previous_tasks`) where every run of the
    previous-task ``experiment`` is in the cache, else :func:`stand_in_tasks`; and whether they are stand-ins."""
    cache = Cache(default_cache_dir())
    found = [(job.params, *cache.lookup(job)) for job in experiment.jobs()]
    if all(hit for _, hit, _ in found):
        return theory.meta_observations([(params, value) for params, _, value in found], experiment.fixed["budget"]), False
    return stand_in_tasks(experiment), True


def _svm_table_stand_in(index: int) -> np.ndarray:
    """Zeros in place of data set ``index``'s 288 accuracies (computing a table trains 288 SVMs)."""
    return np.zeros(len(svm_grid.candidates()))


# ---------------------------------------------------------------- running the experiments and reading them
def run_values(ctx, experiments) -> list[list]:
    """Run ``experiments`` in one batch with the notebook context ``ctx``; per experiment, its values in job order."""
    return [[value for _, value in results] for results in ctx.run(*experiments)]


def run_previous_tasks(ctx, experiment: Experiment) -> list[dict]:
    """Run ``experiment`` (one GP-UCB run per previous task, :func:`previous_tasks`); the first ``budget`` points of each
    run, the target's option ``tasks``."""
    (results,) = ctx.run(experiment)
    return theory.meta_observations(list(results), experiment.fixed["budget"])


def target_study(ctx, meta: Experiment, build) -> tuple:
    """The previous tasks ``meta`` (:func:`run_previous_tasks`), then the target runs of the study ``build(tasks)``: the
    study and its (params, value) pairs. A partial run that leaves ``meta`` out leaves the study out too (recorded on
    :func:`stand_in_tasks`, which give it its jobs' number and sizes) and raises :class:`~bolib.experiment.NotRun`."""
    try:
        tasks = run_previous_tasks(ctx, meta)
    except NotRun:
        ctx.leave_out(build(stand_in_tasks(meta)).experiment())
        raise
    study = build(tasks)
    (results,) = ctx.run(study.experiment())
    return study, list(results)


def cartpole_study(ctx, S: dict, meta: Experiment, build, n_seeds: int):
    """The previous tasks (``meta``: one GP-UCB run per start centre), then every method on the target (centre 0),
    ``build(S, seeds, tasks)`` (:func:`target_study`): the study, its (params, value) pairs and its traces."""
    study, results = target_study(ctx, meta, lambda tasks: build(S, ctx.seeds(n_seeds), tasks))
    return study, results, study.collect(results)


# ---------------------------------------------------------------- the real-data studies in their seed stages
def best_area(trace) -> float:
    """The area under the best-value curve after the N_INIT initial points (:func:`~bolib.comparisons.mean_best_so_far`)."""
    return comparisons.mean_best_so_far(trace, N_INIT)


def proposal_seconds(trace) -> float:
    """Seconds per proposal after the N_INIT initial points (:func:`~bolib.comparisons.seconds_per_proposal`)."""
    return comparisons.seconds_per_proposal(trace, N_INIT)


def ns_values(ctx, run) -> dict:
    """Figs. 2a-b, 8c (§6.7): per claim, per method, the per-seed values of the non-stationary study ``run`` (study,
    results): the area (F2a, F8c, S63-rgpe-2a) and, where they are declared as comparisons, seconds per proposal
    (F2b-ts, F2b-mtbo)."""
    traces = run[0].collect(run[1])
    wall = [cid for cid in ("F2b-ts", "F2b-mtbo") if cid in ctx.claims.declared and ctx.claims.declared[cid].kind == "comparison"]
    return {**dict.fromkeys(("F2a", "F8c", "S63-rgpe-2a"), traces.at("nonstationary-lr", best_area)),
            **dict.fromkeys(wall, traces.at("nonstationary-lr", proposal_seconds))}


def ns_table(run):
    """Figs. 2a-b (§6.7): per method, the mean area and seconds per proposal of the non-stationary study ``run``."""
    import pandas as pd

    traces = run[0].collect(run[1])
    return pd.DataFrame({"area (minus log-loss), mean": {k: v.mean() for k, v in traces.at("nonstationary-lr", best_area).items()},
                         "seconds per proposal, mean": {k: v.mean() for k, v in traces.at("nonstationary-lr", proposal_seconds).items()}})


def last_weights(study, results, label: str, names) -> dict:
    """The mean over seeds of ``label``'s weights of the previous tasks (named ``names``) at its last query."""
    last = np.array([value["history"][-1]["weights"] for params, value in results if study.label(params) == label])
    return dict(zip(names, last.mean(0).round(3)))


def ns_run(ctx, S: dict):
    """Figs. 2a-b, 8c (§6.7): the previous tasks, then :func:`ns`, in the seed stages ``S["ns_seeds"]`` until
    :func:`ns_values`' claims are decided: (study, results), or None where a partial run leaves it out."""
    return ctx.staged(S["ns_seeds"], lambda seeds: target_study(ctx, ns_meta(S), lambda tasks: ns(S, seeds, tasks)),
                      lambda run: ns_values(ctx, run))


def har_area(S: dict, run) -> dict:
    """Fig. 2d (§6.8): per method, the area per target subject, its ``har_inits`` initial designs averaged."""
    return comparisons.per_target(run[0].collect(run[1]).at("har-digits", best_area), S["har_inits"])


def har_run(ctx, S: dict):
    """Fig. 2d (§6.8): the previous tasks, then :func:`har`, in stages of target subjects ``S["har_targets"]`` (each
    with its ``har_inits`` initial designs) until F2d, F2d-rgpe, F2d-ts, S63-taf-2d and S63-ts-2d (:func:`har_area`)
    are decided: (study, results), or None where a partial run leaves it out."""
    def run(subjects):
        return target_study(ctx, har_meta(S), lambda tasks: har(S, ctx.seeds(len(subjects) * S["har_inits"]), tasks))

    return ctx.staged(S["har_targets"], run,
                      lambda r: dict.fromkeys(("F2d", "F2d-rgpe", "F2d-ts", "S63-taf-2d", "S63-ts-2d"), har_area(S, r)))


#: Fig. 2f (§6.9): the methods whose weights of the CartPole previous tasks are compared
CP_WEIGHTED = ("RM-GP-UCB", "RGPE", "TAF")


def cp_values(S: dict, run) -> dict:
    """Figs. 2e-f (§6.9): per claim the values of the CartPole study ``run`` (study, results, traces): the area (F2e,
    S63-ts-2e; F2e-std with the raw-meta-GP ablation and random search), the log area regret at the return's resolution
    (F2e-ts), and per seed the share of the previous tasks' weight on the similar ones (F2f)."""
    study, results, traces = run
    n_tasks = len(cp_centres(S))
    return {**dict.fromkeys(("F2e", "S63-ts-2e"), traces.at("cartpole", best_area)),
            "F2e-ts": traces.at("cartpole", lambda tr: comparisons.log_area_regret(tr, N_INIT, CP_RESOLUTION)),
            "F2e-std": traces.at("cartpole", best_area, labels=["RM-GP-UCB", RAW_META, CONTRAST]),
            "F2f": {label: weight_shares(study, results, label, S["cp_similar"], n_tasks) for label in CP_WEIGHTED}}


def cp_share_curves(S: dict, run) -> dict:
    """Fig. 2f (§6.9): per method of :data:`CP_WEIGHTED`, per seed and query, the share of the previous tasks' weight on
    the similar ones in the CartPole study ``run`` (study, results, traces)."""
    return {label: weight_shares(run[0], run[1], label, S["cp_similar"], len(cp_centres(S)), per_query=True)
            for label in CP_WEIGHTED}


def cp_run(ctx, S: dict):
    """Figs. 2e-f (§6.9): the previous tasks, then :func:`cp`, in the seed stages ``S["cp_seeds"]`` until
    :func:`cp_values`' claims are decided: (study, results, traces), or None where a partial run leaves it out."""
    return ctx.staged(S["cp_seeds"], lambda seeds: cartpole_study(ctx, S, cp_meta(S), cp, len(seeds)),
                      lambda run: cp_values(S, run))


def cp_tied_pairs(S: dict, run) -> float:
    """Figs. 2e-f (§6.9): the share of pairs of target observations with equal returns (what RGPE's and TAF's rankings
    cannot order), averaged over the runs of the methods of Fig. 2e in the CartPole study ``run`` (study, results,
    traces)."""
    traces = run[2]
    return float(np.mean([np.mean(np.equal.outer(tr.y, tr.y)[np.triu_indices(len(tr.y), 1)])
                          for label in constants(S)["CP_METHODS"] for tr in traces["cartpole", label]]))


def cp9_run(ctx, S: dict):
    """Fig. 9 (§6.9): the previous tasks of the large set-up, then :func:`cp9`, in the seed stages ``S["cp9_seeds"]``
    until F9a, F9a-ts (area) and F9b, F9b-gpucb (seconds per proposal) are decided: (study, results, traces), or None
    where a partial run or the profile leaves it out."""
    if not S["cp9_seeds"]:
        return None
    return ctx.staged(S["cp9_seeds"], lambda seeds: cartpole_study(ctx, S, cp9_meta(S), cp9, len(seeds)),
                      lambda run: {**dict.fromkeys(("F9a", "F9a-ts"), run[2].at("cartpole", best_area)),
                                   **dict.fromkeys(("F9b", "F9b-gpucb"), run[2].at("cartpole", proposal_seconds))})


#: Figs. 1e-f (§6.10): the methods whose weights of the image previous tasks are compared
IMG_WEIGHTED = ("RM-GP-UCB", "RGPE")
#: Figs. 1e-f (§6.10): the digits' previous tasks, in image_tuning.TASKS order
IMG_PREVIOUS = tuple(t for t in image_tuning.TASKS if t != "digits")


def img_values(target: str, run) -> dict:
    """Figs. 1e-f, 8a-b (§6.10): per claim the values of the image study ``run`` (study, results) on ``target``: the
    area (every comparison of the methods' performance), elsewhere whether RM-GP-UCB and RGPE weigh the same previous
    task most (F1f-same-*, :func:`same_most_weighted`) and, on the digits, per seed the shares of the previous tasks'
    weight (F1e-weights*; previous tasks :data:`IMG_PREVIOUS`)."""
    study, results = run
    area = study.collect(results).at("image-tuning", best_area)
    ids = [f"F1ef-{target}"] + {"digits": ["F1e-ts", "F1e-rgpe", "S63-rgpe-1e", "S63-taf-1e", "F8a"],
                                "g10": ["F1ef-rgpe-g10", "F1ef-ts-g10", "S63-taf-1f", "F8b"]}.get(
        target, [f"F1ef-rgpe-{target}", f"F1ef-ts-{target}"])
    values = dict.fromkeys(ids, area)
    if target != "digits":
        values[f"F1f-same-{target}"] = same_most_weighted(study, results)
    if target == "digits":
        values["F1e-weights"] = {label: weight_shares(study, results, label, [0], 3) for label in IMG_WEIGHTED}
        values["F1e-weights-rgpe"] = {f"RGPE: {task}": weight_shares(study, results, "RGPE", [i], 3)
                                      for i, task in enumerate(IMG_PREVIOUS[:2])}
        for m, key in (("RM-GP-UCB", "F1e-weights-most"), ("RM-GP-TS", "F1e-weights-most-ts")):
            values[key] = {f"{m}: {task}": weight_shares(study, results, m, [i], 3) for i, task in enumerate(IMG_PREVIOUS)}
    return values


def img_share_curves(run, labels=(*IMG_WEIGHTED, "RM-GP-TS")) -> dict:
    """App. D.2 (§6.10): per method, per seed and query, the share of the previous tasks' weight on the noisy digits (the
    first previous task) in the digits study ``run`` (study, results)."""
    return {label: weight_shares(run[0], run[1], label, 1, 3, per_query=True) for label in labels}


def img_runs(ctx, S: dict) -> dict:
    """Figs. 1e-f, 6, 8a-b (§6.10): the previous tasks, then :func:`img` on each target of ``S["img_targets"]``, each in
    the seed stages ``S["img_seeds"]`` until :func:`img_values`' claims are decided: target -> (study, results), the
    targets a partial run leaves out left out."""
    def run(target, seeds):
        return target_study(ctx, img_meta(S), lambda tasks: img(S, target, seeds, dict(zip(image_tuning.TASKS, tasks))))

    staged = {t: ctx.staged(S["img_seeds"], lambda seeds, t=t: run(t, seeds), lambda r, t=t: img_values(t, r))
              for t in S["img_targets"]}
    return {t: r for t, r in staged.items() if r is not None}


def img_table(runs: dict):
    """Figs. 1e-f (§6.10): per method, the mean over seeds of the area and of the area regret on each target of
    ``runs`` (target -> (study, results))."""
    import pandas as pd

    columns = {}
    for t, (study, results) in runs.items():
        traces = study.collect(results)
        columns[f"{t}: area"] = {k: v.mean() for k, v in traces.at("image-tuning", best_area).items()}
        columns[f"{t}: area regret"] = {k: np.mean([tr.optimum for tr in traces["image-tuning", k]]) - v.mean()
                                        for k, v in traces.at("image-tuning", best_area).items()}
    return pd.DataFrame(columns).rename_axis("mean over seeds")


def svm_traces(ctx, S: dict) -> list | None:
    """Fig. 2c (§6.11): the traces of every target's study (:func:`svm`), or None where the profile does not run the grid
    or a partial run leaves a target out (its claims are decided with all the targets only)."""
    studies = svm(S, ctx.seeds(S["svm_inits"])) if S["svm_targets"] else {}
    traces = list(ctx.collect(studies).values()) if studies else []
    return traces if studies and len(traces) == len(studies) else None


def svm_values(S: dict, traces: list) -> dict:
    """Fig. 2c (§6.11): per claim, per method, the values per target of the SVM studies' ``traces`` (every target's, its
    initialisations averaged): the area of every claim (F2c, F2c-ts, F2c-ts-rgpe, F2c-rgpe)."""
    variants, n_init = svm_variants(S), S["svm_n_init"]
    area = comparisons.per_target(svm_per_run(traces, variants, lambda t: comparisons.mean_best_so_far(t, n_init)),
                                  S["svm_inits"])
    return dict.fromkeys(("F2c", "F2c-ts", "F2c-ts-rgpe", "F2c-rgpe"), area)


def stand_in_adaptive_table(ns_run, har_run, cp_run, img_runs: dict):
    """§6.13: :func:`history_adaptive_share` of every real-data stand-in that ran (None: left out of a partial run)."""
    import pandas as pd

    runs = {"Figs. 2a-b stand-in": ns_run, "HAR": har_run, "CartPole": cp_run,
            **{f"image tuning, {t}": run for t, run in img_runs.items()}}
    return pd.DataFrame({name: history_adaptive_share(run[1], run[0]) for name, run in runs.items() if run}).T.rename_axis("stand-in")


def stack(runs, label: str, key: str) -> np.ndarray:
    """``key`` of the variant ``label`` of every synthetic run (one row per seed)."""
    return np.array([run[label][key] for run in runs])


def mean_simple(runs, labels) -> dict:
    """Per variant, per seed, the mean of S_t over t = 1..T (the area under the simple-regret curve)."""
    return {label: stack(runs, label, "simple").mean(1) for label in labels}


# ---------------------------------------------------------------- the per-seed values each claim is decided on
def c1_l4_values(lemma4, outside, sigma2) -> dict:
    """C1-L4 (§5.1) from every seed's :func:`~bolib.papers.rm_bo.lemma4_job` (``lemma4``, ``outside``, ``sigma2``: its
    (params, value) pairs at :data:`L4_LAMBDA`, the same with f :data:`L4_OUTSIDE` times outside the norm ball, and at the
    meta GPs' sigma^2): ``holds`` per draw, ``quantiles`` (5%, 50%, 95% of max_x,i |f - mu~_i| / sigma~_i over tau), the
    shares of the control's and the sigma^2 draws in which the band holds f (``outside``, ``sigma2``), and of the sigma^2
    draws in which it holds with the noise term divided by sqrt(sigma^2) (``per_root_lambda``)."""
    def ratio(pairs, tau="tau"):
        return np.concatenate([value["ratio"] / value[tau] for _, value in pairs])

    inside = ratio(lemma4)
    return {"holds": inside <= 1.0, "quantiles": np.quantile(inside, [0.05, 0.5, 0.95]),
            "outside": float(np.mean(ratio(outside) <= 1.0)), "sigma2": float(np.mean(ratio(sigma2) <= 1.0)),
            "per_root_lambda": float(np.mean(ratio(sigma2, "tau_per_root_lambda") <= 1.0))}


def c2_l7_values(c2a, outside) -> dict:
    """C2-L7 (§5.2) on the theory runs of Theorem 1 (``c2a``) and their control with f scaled by 1000 (``outside``):
    per seed ``holds`` (:func:`~bolib.papers.rm_bo.lemma7_holds` on RM-GP-UCB at every query), ``small`` (whether it holds
    at the queries with nu_t alpha_t < 0.1, where it is Lemma 2's bound at x*) and ``checked`` (their number), ``outside``
    (share of the control's seeds in which it holds at every query) and ``no_slack`` (share of seeds in which f(x*) <=
    zeta_bar_t(x_t) holds at every query without the term nu_t alpha_t)."""
    small = [theory.lemma7_holds(run["RM-GP-UCB"], run, cutoff=0.1) for run in c2a]
    return {"holds": [theory.lemma7_holds(run["RM-GP-UCB"], run)[0] for run in c2a],
            "small": [holds for holds, _ in small], "checked": [n for _, n in small],
            "outside": float(np.mean([theory.lemma7_holds(run["RM-GP-UCB"], run)[0] for run in outside])),
            "no_slack": float(np.mean([np.all(theory.lemma7_margins(run["RM-GP-UCB"], run, slack=False)[0] >= 0.0)
                                       for run in c2a]))}


def c1_values(lemma3) -> dict:
    """C1 and C1-chain (§5.1): the draws of every seed's :func:`~bolib.papers.rm_bo.lemma3_job` (``lemma3``: its
    (params, value) pairs) together: ``chain`` (:func:`~bolib.papers.rm_bo.lemma3_chain_holds`), ``ratio``
    (max_x |sum_i w_i (mu_bar_i - mu_tilde_i)(x)| / alpha per draw) and ``event`` (Lemma 6's event per draw)."""
    draws = {k: np.concatenate([value[k] for _, value in lemma3]) for k in ("lhs", "step1", "step2", "alpha", "event")}
    return {"chain": theory.lemma3_chain_holds(draws), "ratio": draws["lhs"] / draws["alpha"], "event": draws["event"]}


def c1_l6_values(delta: float) -> dict:
    """C1-L6 (§5.1): the exact probability of Lemma 6's event (:func:`~bolib.papers.rm_bo.lemma6_probability`) for
    the :data:`L6_SIZES` tasks at once with the paper's radius (``joint``) and with the union bound's over all tasks
    (``union``), and for one task (``one task``); ``errors``: the paper's and the corrected version's shortfall
    below the claimed 1 - delta/4."""
    p = {"joint": theory.lemma6_probability(L6_SIZES, delta),
         "union": theory.lemma6_probability(L6_SIZES, delta, union_over_tasks=True),
         "one task": theory.lemma6_probability(L6_SIZES, delta, all_tasks=False)}
    return {**p, "errors": (max(0.0, 1 - delta / 4 - p["joint"]), max(0.0, 1 - delta / 4 - p["union"]))}


def c2b_values(result) -> dict:
    """C2b-ni (§5.2): log(R_T / T) of RM-GP-UCB and GP-UCB per seed (``result``: the values of :func:`c2b`)."""
    return {"C2b-ni": {k: comparisons.log_regret_per_query(stack(result[0], k, "regret")) for k in ("RM-GP-UCB", "GP-UCB")}}


def c3_values(result) -> dict:
    """Fig. 1d (§6.4): log(R_T / T) of epsilon 0.7, GP-UCB and its contrast nu = 1 (C3), and R_T / T of every variant
    (C3-eps), per seed (``result``: the values of :func:`c3`)."""
    return {"C3": {k: comparisons.log_regret_per_query(stack(result[0], k, "regret")) for k in ("eps 0.7", "GP-UCB", "nu = 1")},
            "C3-eps": {k: stack(result[0], k, "regret").mean(1) for k in C3_VARIANTS}}


def c4_values(result) -> dict:
    """C4 and C4-explore (§5.5): the cumulative regret of the first :data:`C4_QUERIES` queries of RM-GP-UCB against
    GP-UCB, and against GP-UCB with beta = 0, per seed (``result``: the values of :func:`c4`)."""
    early = {k: stack(result[0], k, "regret")[:, :C4_QUERIES].sum(1) for k in C4_VARIANTS}
    return {"C4": {k: early[k] for k in ("RM-GP-UCB", "GP-UCB")},
            "C4-explore": {k: early[k] for k in ("RM-GP-UCB", "GP-UCB (beta = 0)")}}


def c5_values(runs) -> dict:
    """C5-eta5 (§6.3, Fig. 4c): per seed of the Fig. 1a ``runs``, from the weights at query C5_QUERY (the last query
    if the runs are shorter): eta N = 5 puts at least C5_SHARE on one of the similar tasks 1-2."""
    w = stack(runs, "eta 5", "weights")
    at = w[:, min(C5_QUERY, w.shape[1]) - 1, :]
    return {"C5-eta5": (at.max(1) >= C5_SHARE) & (at.argmax(1) < 2)}


def c6_values(result) -> dict:
    """C6-sep (§5.3): :func:`~bolib.papers.rm_bo.gap_separation` of tasks 3-4 against 1-2 per seed, with
    d = (0.05, 0.5, 2, 4) and in the all-d = 2 control (``result``: the values of :func:`c6`)."""
    return {"C6-sep": {label: [theory.gap_separation(run["RM-GP-UCB"]["gaps"], [0, 1], [2, 3]) for run in part]
                       for label, part in zip(("d = (0.05, 0.5, 2, 4)", "all d = 2"), result)}}


def c8_values(result) -> dict:
    """C8-robust (§5.6): the harm of the meta-tasks, R_T(RM-GP-x) - R_T(GP-x) for x = UCB and TS, per seed
    (``result``: the values of :func:`c8`)."""
    return {"C8-robust": {f"{acq}: R(RM-GP-{acq}) - R(GP-{acq})": stack(result[0], f"RM-GP-{acq}", "regret").sum(1)
                          - stack(result[0], f"GP-{acq}", "regret").sum(1) for acq in ("UCB", "TS")}}


def fig1_values(result) -> dict:
    """The mean simple regret per seed (§6.2-6.5): of the Fig. 1a variants (F1a-*, F1c-*, F8, F1a-nu1), of Fig. 5's (C9, C9-explore), and
    of RM-GP-UCB with equal and unequal N_i (C9-equal) (``result``: the values of :func:`fig1`)."""
    return {**{cid: mean_simple(result[0], FIG1) for cid in ("F1a-online", "F1a-fixed", "F1c-small", "F1c-large", "F8",
                                                             "F1a-explore", "F1a-nu1")},
            "C9": mean_simple(result[1], ("RM-GP-UCB", "GP-UCB")),
            "C9-explore": mean_simple(result[1], ("RM-GP-UCB", *EXPLORING)),
            "C9-equal": {"equal N_i": mean_simple(result[0], ["RM-GP-UCB"])["RM-GP-UCB"],
                         "unequal N_i": mean_simple(result[1], ["RM-GP-UCB"])["RM-GP-UCB"]}}


#: per synthetic group (:data:`SYNTHETIC_GROUPS`), the per-seed values its comparisons are decided on
GROUP_VALUES = {"c2b": c2b_values, "c3": c3_values, "c4": c4_values, "c6": c6_values, "c8": c8_values, "fig1": fig1_values}


def synthetic_runs(ctx, S: dict, seeds) -> dict:
    """The theory checks (:func:`theory_checks`) on ``seeds``, then each synthetic group in its seed stages
    ``S["syn_stages"][group]`` until its comparisons (:data:`GROUP_VALUES`) are decided: experiment name (without
    "rmbo-") -> its values in job order."""
    experiments = theory_checks(S, seeds)
    runs = dict(zip(experiments, run_values(ctx, experiments.values())))
    for group, build in SYNTHETIC_GROUPS.items():
        staged = ctx.staged(S["syn_stages"][group], lambda s, build=build: run_values(ctx, build(S, s)), GROUP_VALUES[group])
        runs.update({e.name.removeprefix("rmbo-"): part for e, part in zip(build(S, ()), staged)})
    return runs


def adaptive_share(weights, gaps, r: float = 0.7, eps: float = 0.7) -> float:
    """Sec. 5.2's rule multiplies nu by min(r, (sum_i w_i d_bar_i)^-eps) (:func:`~bolib.algorithms.rm_bo.nu_step`), which
    is r unless sum_i w_i d_bar_i > r^(-1/eps) (1.665 at r = eps = 0.7): the share of the queries (rows of ``weights``
    and ``gaps``, the values each query's update used) where the adaptive part acts, i.e. the factor is below r."""
    factors = [nu_step(1.0, w, g, r, eps) for w, g in zip(np.asarray(weights).reshape(-1, np.shape(weights)[-1]),
                                                          np.asarray(gaps).reshape(-1, np.shape(gaps)[-1]))]
    return float(np.mean(np.array(factors) < r * (1 - 1e-12)))


def adaptive_table(runs: dict, groups: dict):
    """Per synthetic experiment and adaptive variant (``groups``: experiment name -> its variants), the share of
    (seed, query) pairs where the adaptive part of the nu rule acts (:func:`adaptive_share`) and the median of
    sum_i w_i d_bar_i against the threshold r^(-1/eps)."""
    import pandas as pd

    rows = []
    for name, variants in groups.items():
        for label, settings in variants.items():
            if settings.get("nu", "adaptive") != "adaptive" or settings.get("nu_start") == 0.0:
                continue  # nu fixed, or started at 0 (where it stays)
            r, eps = settings.get("r", 0.7), settings.get("eps", 0.7)
            w, g = stack(runs[name], label, "weights"), stack(runs[name], label, "gaps")
            rows.append({"experiment": name, "variant": label, "r": r, "eps": eps,
                         "threshold r^(-1/eps)": r ** (-1 / eps),
                         "median sum_i w_i d_bar_i": float(np.median(np.einsum("stm,stm->st", w, g))),
                         "share of queries where it acts": adaptive_share(w, g, r, eps)})
    return pd.DataFrame(rows).set_index(["experiment", "variant"])


def history_adaptive_share(results, study, labels=("RM-GP-UCB", "RM-GP-TS")) -> dict:
    """:func:`adaptive_share` of a real-data study's runs (``results``: its (params, value) pairs), per label, from the
    gaps and weights in each run's history (the default r = eps = 0.7)."""
    out = {}
    for label in labels:
        entries = [e for params, value in results if study.label(params) == label for e in value["history"] if e.get("gaps")]
        if entries:
            out[label] = adaptive_share([e["weights"] for e in entries], [e["gaps"] for e in entries])
    return out


def weight_shares(study, results, label: str, similar, n_tasks: int, per_query: bool = False,
                  with_target: bool = False) -> np.ndarray:
    """Per seed, the share of the previous tasks' weight on the ``similar`` ones (their indices, or a number n: the
    first n; :func:`bolib.papers.rm_bo.similar_weight_share`), the mean over queries or (``per_query``) one per
    query (NaN where the previous tasks hold no weight)."""
    similar = range(similar) if isinstance(similar, int) else list(similar)
    runs = [value["history"] for params, value in results if study.label(params) == label]
    if per_query:
        return np.array([theory.similar_weight_shares(h, similar, n_tasks, with_target) for h in runs])
    return np.array([theory.similar_weight_share(h, similar, n_tasks, with_target) for h in runs])


def same_most_weighted(study, results, labels=("RM-GP-UCB", "RGPE"), n_tasks: int = 3) -> np.ndarray:
    """App. D.2 (F1f-same-*): per seed, whether the ``labels``' most weighted previous task (the largest share of the
    previous tasks' weight, mean over the queries, :func:`weight_shares`) is the same one; False where a method's
    largest share is tied (as the even share of a run that never weighs a previous task)."""
    tops = []
    for label in labels:
        shares = np.column_stack([weight_shares(study, results, label, [i], n_tasks) for i in range(n_tasks)])
        top_two = np.sort(shares, axis=1)[:, -2:]
        tops.append(np.where(top_two[:, 1] - top_two[:, 0] < 1e-9, -1 - len(tops), shares.argmax(1)))
    return np.all([top == tops[0] for top in tops], axis=0)


def weight_summary(study, results, labels, n_similar: int, n_tasks: int):
    """A table beside the claimed share (the mean over the queries at which the previous tasks hold weight): the
    last such query's share, the fraction of queries at which every previous task has weight 0, and the share among
    all the weights, RGPE's and TAF's target model's included."""
    import pandas as pd

    rows = {}
    for label in labels:
        W = [np.array([e["weights"] for e in value["history"]], dtype=float)
             for params, value in results if study.label(params) == label]
        rows[label] = {"share, mean over queries": weight_shares(study, results, label, n_similar, n_tasks).mean(),
                       "share at the last query with previous weight": np.mean(
                           [row[np.isfinite(row)][-1] if np.isfinite(row).any() else np.nan
                            for row in weight_shares(study, results, label, n_similar, n_tasks, per_query=True)]),
                       "queries with all previous weights 0": np.mean([np.mean(w[:, :n_tasks].sum(1) == 0) for w in W]),
                       "share among all weights (target's included)": weight_shares(study, results, label, n_similar,
                                                                                   n_tasks, with_target=True).mean()}
    return pd.DataFrame(rows).T.round(3)


def svm_per_run(traces, variants, metric) -> dict:
    """Fig. 2c: per method, ``metric`` of every run, target by target (initialisations consecutive)."""
    return {m: np.concatenate([tr.at("svm-grid", metric)[m] for tr in traces]) for m in variants}


def plot_simple(ax, runs, labels, title: str) -> None:
    """Figs. 1a, 1c, 1d, 5: per variant, the geometric mean over seeds of the simple regret S_t plus 1e-6
    (a run that found the optimum, S_t = 0, counts as 1e-6), with its interval
    (:func:`bolib.plots.plot_log_mean`: some seeds reach the optimum and others do not, and quartile bands
    would span the whole axis)."""
    for label in labels:
        s = stack(runs, label, "simple")
        plots.plot_log_mean(ax, np.arange(1, s.shape[1] + 1), s + 1e-6, label)
    ax.set(xlabel="query t", ylabel="simple regret + 1e-6 (0 reached: 1e-6)", yscale="log", title=title)
    ax.legend(fontsize=6)


def plot_best(ax, traces, problem: str, labels, sign: float = 1.0, ylabel: str = "best value so far") -> None:
    """Figs. 1e-f, 2a, 2d, 2e, 9a: per method, the best value found so far over seeds (:func:`bolib.plots.plot_band`), times
    ``sign``, against evaluations; the line marks the end of the initial design."""
    for label in labels:
        best = sign * np.maximum.accumulate(traces.curves(problem, label, value="f"), axis=1)
        plots.plot_band(ax, np.arange(1, best.shape[1] + 1), best, label)
    ax.axvline(N_INIT + 0.5, color="0.6", lw=0.8)
    ax.set(xlabel="evaluations (initial design left of the line)", ylabel=ylabel)
    ax.legend(fontsize=6)


def plot_runtime(ax, wall: dict, title: str) -> None:
    """Figs. 2b, 9b: mean seconds per proposal per method (error bar: standard error over seeds), log scale."""
    ax.bar(range(len(wall)), [v.mean() for v in wall.values()], yerr=[v.std() / np.sqrt(len(v)) for v in wall.values()],
           color=[plots.label_colour(ax, m) for m in wall])
    ax.set_xticks(range(len(wall)), list(wall), rotation=45, ha="right", fontsize=7)
    ax.set(yscale="log", ylabel="seconds per proposal", title=title)


# --------------------------------------------------------------------------------------------------
# Figures: one function per figure of the notebook, each made, saved and shown by ``ctx.figure``.

def fig_c1_lemma3(ctx, seeds, ratio) -> None:
    """C1 (Lemma 3): the slack of the bound, max_x |sum_i w_i (mu_bar_i - mu_tilde_i)| / alpha, per draw."""
    with ctx.figure("c1_lemma3", seeds, figsize=(4.5, 3)) as (fig, ax):
        ax.hist(np.log10(ratio), bins=30, label="draws")
        ax.set(xlabel="log10( max_x |sum w (mu_bar - mu_tilde)| / alpha )", ylabel="draws", title="Lemma 3: slack of the bound")


def fig_c2_theorem1(ctx, seeds, theory_runs, practical: dict) -> None:
    """C2 (Theorem 1): cumulative regret of each variant in theory mode (``theory_runs``) and in practical
    mode (``practical[label]``: seeds x T)."""
    with ctx.figure("c2_theorem1", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for label, cumulative in practical.items():
            for ax, data in zip(axes, (np.cumsum(stack(theory_runs, label, "regret"), axis=1), cumulative)):
                plots.plot_band(ax, np.arange(1, data.shape[1] + 1), data, label)
        axes[0].set(title="theory mode (lambda = 1 + 2/T)", xlabel="t", ylabel="R_t", xscale="log", yscale="log")
        axes[1].set(title="practical mode (beta = 2)", xlabel="t", ylabel="R_t", xscale="log", yscale="log")
        axes[1].legend()


def fig_c6_gaps(ctx, theory_runs, practical_runs) -> None:
    """C6 (Lemma 1): RM-GP-UCB's gap estimates d_bar_{i,t} per task (means over seeds) beside the true gaps,
    with Lemma 1's estimate and with the practical (mean) one."""
    with ctx.figure("c6_gaps", ctx.seeds(len(practical_runs)), 1, 2, figsize=(9, 3.2), sharey=True) as (fig, axes):
        for ax, runs, title in zip(axes, (theory_runs, practical_runs), ("Lemma 1 (max + noise term)", "practical (mean)")):
            gaps = stack(runs, "RM-GP-UCB", "gaps")
            true = np.array([run["true_gaps"] for run in runs]).mean(0)
            for i in range(gaps.shape[2]):
                line, = ax.plot(np.arange(1, gaps.shape[1] + 1), gaps[:, :, i].mean(0), label=f"task {i + 1} (mean)")
                ax.axhline(true[i], ls="--", color=line.get_color(), label=f"task {i + 1}: true d_i")
            ax.set(title=title, xlabel="t", yscale="log")
        axes[0].set_ylabel(r"$\bar d_{i,t}$ (dashed: mean true $d_i$)")
        axes[1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def fig_c4_acceleration(ctx, runs, labels) -> None:
    """C4 and C4-explore: simple regret over the first 15 queries when every previous task is similar (d_i = 0.05)."""
    with ctx.figure("c4_acceleration", ctx.seeds(len(runs)), figsize=(4.5, 3)) as (fig, ax):
        for label in labels:
            simple = stack(runs, label, "simple")[:, :15]
            plots.plot_band(ax, np.arange(1, simple.shape[1] + 1), simple, label)
        ax.set(xlabel="query t", ylabel="simple regret", yscale="log", title="d_i = 0.05 (all similar)")
        ax.legend(fontsize=7)


def fig_c8_ts(ctx, seeds, cumulative: dict) -> None:
    """C8: cumulative regret of each variant with M = 8 previous tasks, one similar (``cumulative[label]``),
    and R_T per variant (mean, error bar one standard error)."""
    with ctx.figure("c8_ts", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for label, cum in cumulative.items():
            plots.plot_band(axes[0], np.arange(1, cum.shape[1] + 1), cum, label)
        axes[0].set(xlabel="t", ylabel="R_t", title="M = 8, one similar task")
        axes[0].legend(fontsize=6, loc="upper left")
        axes[1].barh(range(len(cumulative)), [c[:, -1].mean() for c in cumulative.values()],
                     xerr=[c[:, -1].std() / np.sqrt(len(c)) for c in cumulative.values()],
                     color=[plots.label_colour(axes[1], label) for label in cumulative])
        axes[1].set_yticks(range(len(cumulative)), list(cumulative), fontsize=7)
        axes[1].set(xlabel=f"R_T, T = {next(iter(cumulative.values())).shape[1]} (mean, bar: one SE)",
                    title="final cumulative regret")


def fig_fig3_example(ctx, seed, task, gaps) -> None:
    """Fig. 3: one target (a GP draw) and the observations of its previous tasks (gaps ``gaps``)."""
    with ctx.figure("fig3_example", [seed], figsize=(6, 3)) as (fig, ax):
        ax.plot(task["grid"], task["f"], "k", label="target f")
        for i, (idx, y, _) in enumerate(task["tasks"]):
            ax.plot(task["grid"][idx], y, "o", ms=3, label=f"meta-task {i + 1} (d = {gaps[i]:g})")
        ax.set(xlabel="x", ylabel="value", title="GP draw (SE, l = 0.05) and the meta-observations")
        ax.legend(fontsize=7)


def fig_fig1a_weights(ctx, runs) -> None:
    """Fig. 1a-b: simple regret of the methods with gaps (0.05, 0.05, 4, 4), and RM-GP-UCB's weights."""
    with ctx.figure("fig1a_weights", ctx.seeds(len(runs)), 1, 2, figsize=(9, 3.2)) as (fig, axes):
        plot_simple(axes[0], runs, ("RM-GP-UCB", "fixed w", "GP-UCB", "RM-GP-TS", "GP-TS"), "Fig. 1a: d = (0.05, 0.05, 4, 4)")
        w = stack(runs, "RM-GP-UCB", "weights")
        for i in range(w.shape[2]):
            plots.plot_band(axes[1], np.arange(1, w.shape[1] + 1), w[:, :, i], f"task {i + 1}")
        axes[1].set(xlabel="query t", ylabel="weight omega_i", title="Fig. 1b: learned weights")
        axes[1].legend(fontsize=7)


def fig_fig4_eta(ctx, runs, etas) -> None:
    """Figs. 1c and 4: simple regret for each learning rate eta N (``etas``: label -> eta), and the weights
    of ten runs per eta."""
    with ctx.figure("fig4_eta", ctx.seeds(len(runs)), 1, len(etas) + 1, figsize=(15, 3)) as (fig, axes):
        plot_simple(axes[0], runs, [label for label, _ in etas], "Fig. 1c")
        for ax, (label, eta) in zip(axes[1:], etas):
            w = stack(runs, label, "weights")[:10]
            for r, run_w in enumerate(w):
                for i, color in enumerate(("C0", "C1", "C2", "C3")):
                    ax.plot(np.arange(1, w.shape[1] + 1), run_w[:, i], color=color, lw=0.6, alpha=0.6,
                            label=f"task {i + 1}" if r == 0 else None)
            ax.set(title=f"Fig. 4: eta N = {eta} (10 runs)", xlabel="query t", ylim=(0, 1))
        axes[1].set_ylabel("omega_i")
        axes[1].legend(fontsize=6)


def fig_fig1d_epsilon(ctx, runs, labels) -> None:
    """Fig. 1d: simple regret and R_t / t of each epsilon variant when every d_i = 8."""
    with ctx.figure("fig1d_epsilon", ctx.seeds(len(runs)), 1, 2, figsize=(9, 3.2)) as (fig, axes):
        plot_simple(axes[0], runs, labels, "Fig. 1d: all d_i = 8, r = 0.99")
        for label in labels:
            regret = stack(runs, label, "regret")
            t = np.arange(1, regret.shape[1] + 1)
            plots.plot_band(axes[1], t, np.cumsum(regret, axis=1) / t, label)
        axes[1].set(xlabel="query t", ylabel="R_t / t", yscale="log", title="mean regret per query (the claims' metric)")
        axes[1].legend(fontsize=6)


def fig_fig5_unequal(ctx, runs) -> None:
    """Fig. 5: simple regret with unequal numbers of previous observations N = (15, 25, 10, 30), beside the exploring
    baselines (C9-explore)."""
    with ctx.figure("fig5_unequal", ctx.seeds(len(runs)), figsize=(4.5, 3)) as (fig, ax):
        plot_simple(ax, runs, tuple(C9_VARIANTS), "Fig. 5: N = (15, 25, 10, 30)")


def fig_fig2ab_nonstationary(ctx, seeds, traces, labels, wall) -> None:
    """Figs. 2a-b (stand-in): the best validation log-loss so far, and seconds per proposal."""
    with ctx.figure("fig2ab_nonstationary", seeds, 1, 2, figsize=(10, 3.4)) as (fig, axes):
        plot_best(axes[0], traces, "nonstationary-lr", labels, sign=-1.0, ylabel="best validation log-loss so far")
        axes[0].set(title="Fig. 2a (stand-in): full training set")
        plots.keep_linear(axes[0])
        plot_runtime(axes[1], wall, "Fig. 2b (stand-in): runtime")


def fig_fig2d_har(ctx, seeds, traces, labels) -> None:
    """Fig. 2d (stand-in): the best validation accuracy so far on the digits-subjects targets."""
    with ctx.figure("fig2d_har", seeds, figsize=(5, 3.4)) as (fig, ax):
        plot_best(ax, traces, "har-digits", labels, ylabel="best validation accuracy so far")
        ax.set(title="Fig. 2d (stand-in): digits subjects")


def fig_fig2ef_cartpole(ctx, seeds, traces, labels, shares: dict, uniform_share: float) -> None:
    """Figs. 2e-f (stand-in): the best normalised return so far, and the weight share of the similar
    previous tasks per query (``shares[label]``: seeds x queries), beside an even share."""
    with ctx.figure("fig2ef_cartpole", seeds, 1, 2, figsize=(10, 3.4)) as (fig, axes):
        plot_best(axes[0], traces, "cartpole", labels, ylabel="best normalised return so far")
        axes[0].set(title="Fig. 2e (stand-in)")
        plot_weight_shares(axes[1], shares, uniform_share, "weight share of the similar tasks", "Fig. 2f (stand-in)")


def plot_weight_shares(ax, shares: dict, uniform_share: float, ylabel: str, title: str) -> None:
    """Per weighted method, the weight share of the similar previous tasks per query (``shares[label]``:
    seeds x queries, NaN where a seed's previous tasks hold no weight), the mean over the seeds where they hold
    some, beside the share of an even weighting."""
    for label, per_query in shares.items():  # means: one seed's share jumps between near 0 and near 1
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a query at which no seed weighs a previous task
            mean = np.nanmean(per_query, axis=0)
        ax.plot(np.arange(N_INIT + 1, N_INIT + 1 + per_query.shape[1]), mean,
                color=plots.label_colour(ax, label), label=f"{label} (mean, n={len(per_query)})")
    ax.axhline(uniform_share, color="0.6", ls="--", lw=0.8, label="uniform")
    ax.set(xlabel="evaluations", ylabel=ylabel, ylim=(0, 1), title=title)
    ax.legend(fontsize=6)


def fig_fig1e_weights(ctx, seeds, shares: dict) -> None:
    """App. D.2 (stand-in): on the digits target, the weight share of digits-noisy, the similar one of its
    three previous tasks."""
    with ctx.figure("fig1e_weights", seeds, figsize=(5, 3.4)) as (fig, ax):
        plot_weight_shares(ax, shares, 1 / 3, "weight share of digits-noisy", "App. D.2 (stand-in): target digits")


def fig_fig9_cartpole_large(ctx, seeds, traces, labels, wall, size: str) -> None:
    """Fig. 9 (stand-in): the best normalised return so far with many previous tasks, and seconds per proposal."""
    with ctx.figure("fig9_cartpole_large", seeds, 1, 2, figsize=(10, 3.4)) as (fig, axes):
        plot_best(axes[0], traces, "cartpole", labels, ylabel="best normalised return so far")
        axes[0].set(title=f"Fig. 9a (stand-in): {size}")
        plot_runtime(axes[1], wall, "Fig. 9b (stand-in): runtime")


def fig_image(ctx, name: str, seeds, traces: dict, labels, titles: dict) -> None:
    """Figs. 1e-f and 8a-b (stand-ins): the best validation accuracy so far per image target (one panel each,
    ``traces[target]``, titled ``titles[target]``)."""
    with ctx.figure(name, seeds, 1, len(traces), figsize=(4 * len(traces), 3.4), squeeze=False) as (fig, axes):
        for ax, (target, tr) in zip(axes[0], traces.items()):
            plot_best(ax, tr, "image-tuning", labels, ylabel="best validation accuracy so far")
            ax.set(title=titles[target])


def fig_fig2c_svm(ctx, seeds, svm_traces, variants, n_init: int, title: str) -> None:
    """Fig. 2c (stand-in): the simple regret (accuracy) of every SVM-grid run, targets and initialisations
    pooled; the line marks the end of the initial design."""
    with ctx.figure("fig2c_svm", seeds, figsize=(5, 3.4)) as (fig, ax):
        for m in variants:
            regret = np.vstack([tr.curves("svm-grid", m) for tr in svm_traces])
            plots.plot_band(ax, np.arange(1, regret.shape[1] + 1), regret, m)
        ax.axvline(n_init + 0.5, color="0.6", lw=0.8)
        ax.set(xlabel="evaluations (initial design left of the line)", ylabel="simple regret (accuracy)", title=title)
        ax.legend(fontsize=6)



def plan(S: dict, look: int = -1) -> list[Experiment]:
    """Every experiment notebook 004_rmbo runs at settings ``S``, on seeds from 0, each seed-stage list at stage ``look``.

    The real-data target runs (Figs. 2a-b/8c, 2d, 2e-f, 9, 1e-f/6/8a-b) take the previous tasks' observations from the
    cache where their runs are there, else a stand-in of the same size (:func:`planned_tasks`; such experiments are
    marked ``stand_in``); Fig. 2c's previous tasks take zeros in place of the SVM accuracy tables (their
    configurations are the notebook's; marked ``stand_in``)."""
    def targets(meta, build):
        tasks, stand_in = planned_tasks(meta)
        return [meta, dataclasses.replace(build(tasks).experiment(), stand_in=stand_in)]

    seeds = stage_seeds(S["seeds"], look)
    out = [*theory_checks(S, seeds).values()]
    for group, build in SYNTHETIC_GROUPS.items():
        out += build(S, stage_seeds(S["syn_stages"][group], look))
    out += lemmas(S, seeds)
    out += targets(ns_meta(S), lambda tasks: ns(S, stage_seeds(S["ns_seeds"], look), tasks))
    out += targets(har_meta(S), lambda tasks: har(S, range(len(stage_seeds(S["har_targets"], look)) * S["har_inits"]), tasks))
    out += targets(cp_meta(S), lambda tasks: cp(S, stage_seeds(S["cp_seeds"], look), tasks))
    if S["cp9_seeds"]:
        out += targets(cp9_meta(S), lambda tasks: cp9(S, stage_seeds(S["cp9_seeds"], look), tasks))
    meta = img_meta(S)
    out.append(meta)
    tasks, stand_in = planned_tasks(meta)
    observed = dict(zip(image_tuning.TASKS, tasks))
    out += [dataclasses.replace(img(S, t, stage_seeds(S["img_seeds"], look), observed).experiment(), stand_in=stand_in)
            for t in S["img_targets"]]
    if S["svm_targets"]:
        out += [dataclasses.replace(study.experiment(), stand_in=True)
                for study in svm(S, stage_seeds(S["svm_inits"], look), _svm_table_stand_in).values()]
    return out
