"""The experiments of notebooks/002_addgpucb.ipynb (paper 002, Add-GP-UCB), built from its settings.

Each builder takes the settings ``S`` of ``experiments/profiles/002_addgpucb.yaml`` and the seeds the
notebook's ``ctx.staged`` passes, and returns the :class:`~bolib.comparisons.Study` (or the studies, by
panel or task) that the notebook runs with ``ctx.run``; :func:`plan` lists all of them at one look of
the seed stages, for :mod:`bolib.costs`. The ``*_values`` functions give, from the collected runs, the
per-seed values on which each staged comparison is decided. The theory checks of §5 are not jobs: the
notebook computes them in its own kernel, each by one function here (:func:`c7_sides`, :func:`c4_gains`,
:func:`c4_spectral_gains`, :func:`c4_subadditivity`, :func:`c8_spectra`, :func:`c5_bounds`, :func:`c5_ranges`,
:func:`c11_slopes`, :func:`acquisition_runs`), and :func:`study_fits` reads a study's fitted hyperparameters from the
cache, on the formulas of :mod:`bolib.papers.add_gp_ucb`. No job imports this module: an edit here changes no cache key
unless it changes the jobs built.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from bolib import plots
from bolib.comparisons import Study, final_simple_regret
from bolib.experiment import Experiment, stage_seeds
from bolib.models.kernels import LENGTHSCALE_BOUNDS, OUTPUTSCALE_BOUNDS, kernel_matrix, make_kernel
from bolib.papers import add_gp_ucb as theory
from bolib.papers.add_gp_ucb_claims import (C4_DIM, C4_GROUP_DIM, C4_LENGTHSCALE, C4_NOISE, C4A_DIMS, C4A_FLOOR, C4B_T,
                                            C5_DELTA, C5_NOISE,
                                            DEV_LEARNED, DEV_METHODS, DEVIATIONS, FIG5, acquisition_budget, configs, decomp_label,
                                            dev_arms, key, variants)
from bolib.runtime import rng, single_threaded


def _grouping(group_dim: int):
    """Per-seed benchmark options of the synthetic functions: a random grouping of the coordinates into
    groups of ``group_dim`` and a placement of each group's modes away from the box centre (the shifted
    layout of :mod:`bolib.benchmarks.additive`), both drawn from the seed (the same for every method on
    that seed)."""
    return lambda seed: {"group_dim": group_dim, "perm_seed": seed, "layout": "shifted"}


#: Fig. 5 stand-ins: per-seed benchmark options (the face cascade's box placed off the default thresholds,
#: one placement per seed; the supernova boxes are fixed, off the truth, in their module)
FIG5_OPTIONS = {"supernova20": None, "face-cascade20": lambda seed: {"box_seed": seed}}


def fig3(S: dict, seeds: Sequence[int]) -> dict[tuple[int, int, int], Study]:
    """Figs. 3-4: every method of each synthetic panel (D, d', M') on the same seeds (claims F<config>-*)."""
    return {config: Study(f"fig3-{key(config)}", ["add-3modal"], variants(S, *config), seeds,
                          fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]},
                          options=_grouping(config[1]))
            for config in configs(S)}


def decomp_variants(S: dict) -> dict:
    """The Add-d/M of the F-decomp comparison with its grouping by partialLearn, and the same with a fresh
    random grouping at each refit."""
    variant = variants(S, *S["decomp_config"])[decomp_label(S)]
    return {decomp_label(S): variant, f"{decomp_label(S)} random": {
        **variant, "settings": {**variant["settings"], "decomposition": "random"}}}


def decomp(S: dict, seeds: Sequence[int]) -> Study:
    """Sec. 4.4: partialLearn against a random decomposition (claim F-decomp)."""
    config = tuple(S["decomp_config"])
    return Study(f"decomp-{key(config)}", ["add-3modal"], decomp_variants(S), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]},
                 options=_grouping(config[1]))


def dev_variants(S: dict) -> dict:
    """The methods of the ``dev_config`` panel in :func:`~bolib.papers.add_gp_ucb_claims.dev_arms` as run, and each
    with one fit choice of the authors' (:data:`~bolib.papers.add_gp_ucb_claims.DEVIATIONS`) instead of ours,
    labelled "<method>, <deviation>"."""
    base = variants(S, *S["dev_config"])
    arms = dev_arms(S)
    out = {label: base[label] for label in arms}
    for deviation, (_key, change, _why) in DEVIATIONS.items():
        for label in (label for label, devs in arms.items() if deviation in devs):
            out[f"{label}, {deviation}"] = {**base[label], **change,
                                            "settings": {**base[label]["settings"], **change.get("settings", {})}}
    return out


def deviations(S: dict, seeds: Sequence[int]) -> Study:
    """The fit's departures from the authors, each measured on one panel (claims DEV-*)."""
    config = tuple(S["dev_config"])
    return Study(f"dev-{key(config)}", ["add-3modal"], dev_variants(S), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]}, options=_grouping(config[1]))


#: the methods of Figs. 3-4 that fit no model: random search and DIRECT on f
MODEL_FREE = ("random", "direct")


def study_fits(ctx, study):
    """The fitted hyperparameters of ``study``'s runs (read from the cache): per label, the number of fits (every
    refit of every seed), the least, median and largest bandwidth h (unit cube) and group scale sigma (in the units
    the GP sees), and the fits in the outer tenth of their box on a log scale (DIRECT samples the centres of its
    rectangles, never a box's end): for our fit the kernel's box (:data:`bolib.models.kernels.LENGTHSCALE_BOUNDS`,
    :data:`~bolib.models.kernels.OUTPUTSCALE_BOUNDS`), for the authors' DIRECT fit its own box of that refit (h on
    the unit cube, sigma from std(y_init); with partialLearn it records the box twice per refit, for the scoring
    fit on rotated inputs and for the final fit, the same box, and each refit is matched with its own). The fits
    listed are each refit's final one. Labels whose method fits no model (RAND, DiRect) are left out; a model
    with no refit within the budget (a start phase holds h) is listed with 0 fits."""
    import pandas as pd

    (results,) = ctx.run(study.experiment())
    fits: dict[str, list] = {}
    for params, value in results:
        if params["method"] in MODEL_FREE:
            continue
        refits = value["info"].get("refits", [])
        boxes = value["info"].get("fit_box") or [(LENGTHSCALE_BOUNDS, OUTPUTSCALE_BOUNDS)] * len(refits)
        if len(boxes) == 2 * len(refits):  # partialLearn's two DIRECT fits per refit: (scoring, final)
            boxes = boxes[1::2]
        fits.setdefault(study.label(params), []).extend(
            (r["lengthscale"], r["outputscale"], box) for r, box in zip(refits, boxes))

    def at_end(value, low, high) -> bool:
        if not high > low:
            return True
        position = (math.log(value) - math.log(low)) / (math.log(high) - math.log(low))
        return not 0.1 < position < 0.9

    rows = {}
    for label, found in fits.items():
        if not found:
            rows[label] = {"fits": 0}
            continue
        h, s = np.array([f[0] for f in found]), np.array([f[1] for f in found])
        rows[label] = {"fits": len(found), "h min": h.min(), "h median": np.median(h), "h max": h.max(),
                       "sigma min": s.min(), "sigma median": np.median(s), "sigma max": s.max(),
                       "h near a box end": sum(at_end(f[0], *f[2][0]) for f in found),
                       "sigma near a box end": sum(at_end(f[1], *f[2][1]) for f in found)}
    table = pd.DataFrame(rows).T
    counts = ["fits", "h near a box end", "sigma near a box end"]
    return table.astype({column: "Int64" for column in counts if column in table})


def seq_variants(S: dict) -> dict:
    """Add-* and the strawmen of App. A.2 (Alg. 5, Add-Buggy-*; Alg. 4, Seq-Add-*) with the true groups of
    the first panel and the same DIRECT budget per group."""
    config = configs(S)[0]
    per_group = math.ceil(acquisition_budget(S, config[0]) / config[2])
    return {
        "Add-*": variants(S, *config)["Add-*"],
        "Add-Buggy-*": {"method": "add-gp-ucb-buggy", "settings": {"decomposition": "known", "group_evals": per_group}},
        "Seq-Add-*": {"method": "seq-add-gp-ucb", "settings": {
            "phase_length": math.ceil((S["budget"] - S["n_init"]) / config[2]), "group_evals": per_group}},
    }


def cseq(S: dict, seeds: Sequence[int]) -> Study:
    """App. A.2: Algorithms 4 and 5 against Add-GP-UCB on the first panel (claim C-seq)."""
    config = configs(S)[0]
    return Study(f"cseq-{key(config)}", ["add-3modal"], seq_variants(S), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]},
                 options=_grouping(config[1]))


def fig5_methods(S: dict) -> dict[str, dict]:
    """Per Fig. 5 stand-in task: the paper's best Add-d/M (partialLearn, 5D = 100 groupings), GP-UCB, RAND,
    DiRect and the profile's further methods (REMBO, GP-EI)."""
    return {bench: {
        label: {"method": "add-gp-ucb", "settings": {"decomposition": "partialLearn", "group_dim": d, "n_perms": 5 * 20,
                                                     "group_evals": math.ceil(0.9 * B / math.ceil(20 / d))}},
        "GP-UCB": {"method": "add-gp-ucb", "settings": {"decomposition": "full", "group_evals": B}},
        "RAND": {"method": "random"},
        "DiRect": {"method": "direct"},
        **{name: {"REMBO": {"method": "rembo", "settings": {"embed_dim": embed, "acq_evals": B}},
                  "GP-EI": {"method": "gp-ei"}}[name] for name in S["fig5_extra"]},
    } for bench, (label, d, B, embed, _) in FIG5.items()}


def fig5(S: dict, seeds: Sequence[int]) -> dict[str, Study]:
    """Fig. 5: the two real tasks through their stand-ins, supernova20 and face-cascade20 (claims F5-*)."""
    return {bench: Study(f"fig5-{bench}", [bench], methods, seeds,
                         fixed={"budget": S["fig5_budget"], "n_init": S["n_init"]}, options=FIG5_OPTIONS[bench])
            for bench, methods in fig5_methods(S).items()}


#: C5: the draws' components, SE of bandwidth C5_LENGTHSCALE and variance 1 in groups of 2
C5_LENGTHSCALE, C5_GROUP_DIM = 0.25, 2


def c5_arms(S: dict) -> dict:
    """The arms of the C5 runs: Add-* with the true groups of 2 (B / M per group), Alg. 1 (the same with Thm 5's
    beta_t and the draws' own kernel and noise, known: the setting of Thm 5), GP-UCB (full SE, B), RAND."""
    D = S["c5_dim"]
    per_group = math.ceil(acquisition_budget(S, D) / (D // C5_GROUP_DIM))
    known = {"lengthscale": C5_LENGTHSCALE, "outputscale": 1.0, "noise": C5_NOISE ** 2}
    return {
        "Add-*": {"method": "add-gp-ucb", "settings": {"decomposition": "known", "group_evals": per_group}},
        "Alg. 1": {"method": "add-gp-ucb", "settings": {"decomposition": "known", "group_evals": per_group,
                                                        "beta": "theory", "delta": C5_DELTA, "known_kernel": known}},
        "GP-UCB": {"method": "add-gp-ucb", "settings": {
            "decomposition": "full", "group_evals": acquisition_budget(S, D)}},
        "RAND": {"method": "random"},
    }


def c5(S: dict, seeds: Sequence[int]) -> Study:
    """Theorem 5: regret on draws from the additive GP prior, one draw per seed (claims C5-thm, C5-regret,
    C5-slope)."""
    D = S["c5_dim"]
    return Study(f"c5-add-gp-draw-{D}", ["add-gp-draw"], c5_arms(S), seeds,
                 fixed={"budget": S["c5_budget"], "n_init": S["n_init"], "dim": D, "noise_std": C5_NOISE},
                 options=lambda seed: {"group_dim": C5_GROUP_DIM, "lengthscale": C5_LENGTHSCALE, "draw_seed": seed})


def dragonfly(S: dict, seeds: Sequence[int]) -> Study:
    """The external reference: dragonfly's add_ucb on the first panel, paired with Figs. 3-4's seeds (claim
    REF-dragonfly)."""
    config = configs(S)[0]
    method = {"method": "dragonfly-add-ucb", "settings": {"options": S["dragonfly_options"]}}
    return Study(f"dragonfly-{key(config)}", ["add-3modal"], {"dragonfly add_ucb": method}, seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]}, options=_grouping(config[1]))


def plan(S: dict, look: int = -1) -> list[Experiment]:
    """Every experiment the notebook runs at settings ``S``, in its order, on seeds from 0, each staged
    seed setting taken at stage ``look`` (0: the first, -1: the cap). No experiment's parameters depend
    on an earlier result, so none needs a stand-in."""
    studies = [*fig3(S, stage_seeds(S["seeds"], look)).values(),
               decomp(S, stage_seeds(S["seeds"], look)),
               deviations(S, stage_seeds(S["seeds"], look)),
               cseq(S, stage_seeds(S["seq_seeds"], look)),
               *fig5(S, stage_seeds(S["fig5_seeds"], look)).values(),
               c5(S, stage_seeds(S["c5_seeds"], look)),
               dragonfly(S, stage_seeds(S["dragonfly_seeds"], look))]
    return [study.experiment() for study in studies]


# ------------------------------------------------- the per-seed values each staged comparison is decided on
def time_averaged_regret(trace, T: int) -> float:
    """R_T / T of one run (``T``: the budget, initial design included)."""
    return float(trace.cumulative_regret[-1]) / T


def final_cumulative_regret(trace) -> float:
    """R_T of one run, the initial design included."""
    return float(trace.cumulative_regret[-1])


def best_value(trace) -> float:
    """The best value of f found by one run (Fig. 5: higher is better)."""
    return float(np.max(trace.f))


def fig3_values(traces, declared, T: int) -> dict:
    """Figs. 3-4: for each comparison claim F<config>-* in ``declared`` of the panels in ``traces``, each
    method's final simple regret S_T per seed (R_T / T for the -RT claims)."""
    average = functools.partial(time_averaged_regret, T=T)
    return {claim_id: traces[config].at("add-3modal",
                                        metric=average if claim_id.endswith("-RT") else final_simple_regret)
            for config in traces for claim_id in declared
            if claim_id.startswith(f"F{key(config)}-") and declared[claim_id].kind == "comparison"}


def decomp_values(traces) -> dict:
    """F-decomp: the final simple regret S_T of partialLearn and of the random grouping, per seed."""
    return {"F-decomp": traces.at("add-3modal")}


def dev_values(traces) -> dict:
    """DEV-*: the final simple regret S_T of each method with one of the authors' fit choices and as run, per seed,
    and of the Add-d/M with a choice of :data:`~bolib.papers.add_gp_ucb_claims.DEV_LEARNED` and GP-UCB with the same
    (read from the arms "<method>, <deviation>" that ran)."""
    at = traces.at("add-3modal")
    out = {}
    for label in at:
        method, _, deviation = label.partition(", ")
        if not deviation:
            continue
        dev_key = DEVIATIONS[deviation][0]
        out[f"DEV-{dev_key}-{method}"] = {label: at[label], method: at[method]}
        if deviation in DEV_LEARNED and method not in DEV_METHODS:  # the Add-d/M of dev_arms
            out[f"DEV-{dev_key}-{method}-vs-GP-UCB"] = {label: at[label], f"GP-UCB, {deviation}": at[f"GP-UCB, {deviation}"]}
    return out


def cseq_values(traces) -> dict:
    """C-seq: the cumulative regret R_T of Add-*, Alg. 5 and Alg. 4, per seed."""
    return {"C-seq": traces.at("add-3modal", metric=final_cumulative_regret)}


def fig5_values(traces, declared, default: float) -> dict:
    """Fig. 5 stand-ins: for each comparison claim F5-<task>* in ``declared`` of the tasks in ``traces``, each
    method's best value per seed, with the cascade's ``default`` thresholds' accuracy as the constant arm
    "default thresholds"."""
    return {cid: {**traces[bench].at(bench, metric=best_value),
                  "default thresholds": np.full(len(traces[bench][bench, "RAND"]), default)}
            for bench in traces for cid in declared if declared[cid].kind == "comparison"
            and (cid == f"F5-{bench}" or cid.startswith(f"F5-{bench}-"))}


def c5_values(traces) -> dict:
    """C5-regret: the cumulative regret R_T of Add-*, GP-UCB and RAND on the additive GP draws, per seed."""
    return {"C5-regret": {label: traces.curves("add-gp-draw", label, value="cumulative_regret")[:, -1]
                          for label in ("Add-*", "GP-UCB", "RAND")}}


def c5_bounds(S: dict, seeds: Sequence[int]) -> np.ndarray:
    """C5-thm: Theorem 5's bound (:func:`bolib.papers.add_gp_ucb.thm5_bound`) at t = 1..``c5_budget`` for the C5
    draws (D = ``c5_dim``, M = D / 2 groups of 2, each of variance 1, so kappa(x, x) = M; noise C5_NOISE^2;
    delta C5_DELTA), with gamma_t the greedy gain of ``c4_pool`` uniform points under the draws' kernel (consecutive
    groups: the gain does not depend on which coordinates are grouped), one pool per seed: rows per seed."""
    D, T = S["c5_dim"], S["c5_budget"]
    M = D // C5_GROUP_DIM
    t = np.arange(1, T + 1)
    rows = []
    with single_threaded():
        for seed in seeds:
            K = theory.additive_kernel_matrix(rng(seed, "c5-thm").random((S["c4_pool"], D)),
                                              theory.consecutive_groups(D, C5_GROUP_DIM), C5_LENGTHSCALE, float(M))
            gains = theory.greedy_information_gain(K, C5_NOISE ** 2, T)
            rows.append(theory.thm5_bound(t, gains, M, C5_GROUP_DIM, D, float(M), C5_NOISE ** 2, C5_DELTA))
    return np.array(rows)


def c5_ranges(S: dict, seeds: Sequence[int]) -> np.ndarray:
    """T (f* - min f) of each seed's C5 draw (T = ``c5_budget``): the largest cumulative regret any algorithm can
    have on it. f is additive, so its minimum is the sum of its components' minima, each found in its group's d
    dimensions as the benchmark certifies the maximum (multistart L-BFGS-B from 1,024 Sobol candidates, 5 starts),
    with the other coordinates held at the box centre."""
    from bolib.benchmarks import get_benchmark
    from bolib.benchmarks.problem import multistart_maximum

    study = c5(S, seeds)
    out = []
    with single_threaded():
        for seed in seeds:
            problem = get_benchmark("add-gp-draw", S["c5_dim"], **study.options(seed))
            centre = np.full(problem.dim, 0.5)
            base = float(problem(centre[None])[0])
            low = base
            for j, group in enumerate(problem.meta["groups"]):
                def negative(Z, group=group):
                    X = np.repeat(centre[None], len(Z), axis=0)
                    X[:, group] = Z
                    return -problem(X)

                box = np.array([np.zeros(len(group)), np.ones(len(group))])
                low += -multistart_maximum(negative, box, rng(seed, "c5-min", j), n_candidates=1024, n_starts=5)[1] - base
            out.append(S["c5_budget"] * (problem.optimum - low))
    return np.array(out)


def dragonfly_values(reference, ours, label: str) -> dict:
    """REF-dragonfly: log S_T of our ``label`` and of RAND (the contrast; Figs. 3-4's runs, ``ours``) on the seeds
    dragonfly ran and of dragonfly's add_ucb (``reference``), per seed."""
    n = len(reference["add-3modal", "dragonfly add_ucb"])
    return {"REF-dragonfly": {label: np.log(ours.at("add-3modal")[label][:n]),
                              "dragonfly add_ucb": np.log(reference.at("add-3modal")["dragonfly add_ucb"]),
                              "RAND": np.log(ours.at("add-3modal")["RAND"][:n])}}


# ------------------------------------------------- the theory checks of §5, computed in the notebook's kernel
# Each runs on one thread (bolib.runtime.single_threaded), so that its numbers do not depend on the machine.
def c7_sides(S: dict, seeds: Sequence[int]) -> np.ndarray:
    """C7 (Lemma 7): both sides, the sequential sum and the log-determinant, per seed, for ``c7_n`` uniform
    points in D = 10 under the additive SE kernel of five groups of 2 (h = 0.3, prior variance 1, eta^2 =
    0.01): an array (seeds, 2)."""
    groups = theory.consecutive_groups(10, 2)
    with single_threaded():
        return np.array([theory.lemma7_sides(
            theory.additive_kernel_matrix(rng(i, "c7").random((S["c7_n"], 10)), groups, 0.3), 0.01) for i in seeds])


def c4_gains(S: dict, seeds: Sequence[int]) -> dict[str, np.ndarray]:
    """C4 (Theorem 4): per kernel of :func:`bolib.papers.add_gp_ucb.gain_kernels` (D = 20, groups of 2, h =
    0.25), the greedy information gain after 1..``c4_T`` points of each seed's pool of ``c4_pool`` uniform
    points (eta^2 = 0.01): arrays (seeds, c4_T)."""
    with single_threaded():
        runs = [{name: theory.greedy_information_gain(K, C4_NOISE, S["c4_T"]) for name, K in theory.gain_kernels(
                    rng(seed, "c4").random((S["c4_pool"], C4_DIM)), C4_GROUP_DIM, C4_LENGTHSCALE).items()}
                for seed in seeds]
    return {name: np.array([r[name] for r in runs]) for name in runs[0]}


#: C4b: the design sizes of the spectral gain curves (of the figure), 10 to 1e7 in tenths of a decade
C4B_GRID = 10.0 ** (np.arange(10, 71) / 10)


def c4_spectral_gains(S: dict, seeds: Sequence[int]) -> dict[str, np.ndarray]:
    """C4b (Theorem 4): per kernel of :func:`bolib.papers.add_gp_ucb.spectral_kernels` (groups of d = 2, h = 0.25),
    :func:`bolib.papers.add_gp_ucb.spectral_gain` (eta^2 = 0.01) of the additive kernel of M = D / d = 10 groups,
    its spectrum from ``c4_spectrum_n`` uniform points of one group's box per seed
    (:func:`bolib.papers.add_gp_ucb.additive_spectrum`), at the two sizes of C4B_T (``"<name>"``: seeds x 2)
    and on C4B_GRID (``"<name> curve"``: seeds x grid)."""
    out: dict[str, list] = {}
    with single_threaded():
        for seed in seeds:
            X = rng(seed, "c4b").random((S["c4_spectrum_n"], C4_GROUP_DIM))
            for name, K in theory.spectral_kernels(X, C4_LENGTHSCALE).items():
                lam = theory.additive_spectrum(K, C4_DIM // C4_GROUP_DIM)
                out.setdefault(name, []).append(theory.spectral_gain(lam, np.array(C4B_T), C4_NOISE))
                out.setdefault(f"{name} curve", []).append(theory.spectral_gain(lam, C4B_GRID, C4_NOISE))
    return {name: np.array(rows) for name, rows in out.items()}


def c4b_exponents(gains: np.ndarray) -> np.ndarray:
    """C4b: the growth exponent in log T between the sizes of C4B_T (:func:`bolib.papers.add_gp_ucb.loglog_growth`)
    per seed, from ``gains`` (seeds x 2) of :func:`c4_spectral_gains`."""
    return theory.loglog_growth(gains[:, 0], gains[:, 1], *C4B_T)


def c4_dimension_gains(S: dict, seeds: Sequence[int]) -> dict[str, np.ndarray]:
    """C4a (Theorem 4, linear in D): the spectral gain at T = C4B_T[1] (eta^2 = 0.01, kappa(x, x) = 1, h = 0.25) at
    each D of C4A_DIMS, per seed: ``additive`` (D / 2 groups of 2, :func:`bolib.papers.add_gp_ucb.additive_spectrum`
    of a 2-D sample of ``c4_spectrum_n`` points) and ``full`` (the SE kernel over all D coordinates,
    :func:`bolib.papers.add_gp_ucb.tensor_spectrum` of a 1-D sample of as many points, products above C4A_FLOOR);
    ``full dropped``: the eigenvalue mass the floor left out, per seed and D. Arrays (seeds, len(C4A_DIMS))."""
    out: dict[str, list] = {"additive": [], "full": [], "full dropped": []}
    T = C4B_T[1]
    with single_threaded():
        for seed in seeds:
            group = theory.spectral_kernels(rng(seed, "c4a", 2).random((S["c4_spectrum_n"], C4_GROUP_DIM)),
                                            C4_LENGTHSCALE)["additive"]
            line = make_kernel("rbf", 1, lengthscale=C4_LENGTHSCALE, outputscale=1.0)
            mu = theory.spectrum(kernel_matrix(line, rng(seed, "c4a", 1).random((S["c4_spectrum_n"], 1))).detach().numpy())
            full = [theory.tensor_spectrum(mu[mu > 0], D, C4A_FLOOR) for D in C4A_DIMS]
            out["additive"].append([float(theory.spectral_gain(theory.additive_spectrum(group, D // C4_GROUP_DIM), T,
                                                               C4_NOISE)) for D in C4A_DIMS])
            out["full"].append([float(theory.spectral_gain(lam, T, C4_NOISE)) for lam in full])
            out["full dropped"].append([float(np.sum(mu[mu > 0]) ** D - lam.sum()) for D, lam in zip(C4A_DIMS, full)])
    return {name: np.array(rows) for name, rows in out.items()}


def c4a_exponents(gains: np.ndarray) -> np.ndarray:
    """C4a: the growth exponent in D, log(g(D_high) / g(D_low)) / log(D_high / D_low), per seed, from ``gains``
    (seeds x 2) of :func:`c4_dimension_gains`."""
    return np.log(gains[:, 1] / gains[:, 0]) / math.log(C4A_DIMS[1] / C4A_DIMS[0])


def c4a_values(gains) -> dict:
    """C4a: the exponent in D of each kernel's spectral gain, per seed."""
    return {"C4a": {"additive": c4a_exponents(gains["additive"]), "full SE": c4a_exponents(gains["full"])}}


#: C4-sub: the dimensions D of the sets (groups of 2)
C4_SUB_DIMS = (2, 4, 8, 16, 32)


def c4_subadditivity(S: dict, seed: int) -> np.ndarray:
    """C4-sub: both sides of :func:`bolib.papers.add_gp_ucb.logdet_subadditivity` (the gain of the additive
    kernel, the sum of its components' gains) on one set of ``c4_sub_n`` uniform points per D in
    :data:`C4_SUB_DIMS` (groups of 2, each of variance 1, h = 0.25, eta^2 = 0.01): rows per D."""
    rows = []
    with single_threaded():
        for D in C4_SUB_DIMS:
            X = rng(seed, "c4-sub", D).random((S["c4_sub_n"], D))
            rows.append(theory.logdet_subadditivity(
                [theory.additive_kernel_matrix(X, [g], 0.25) for g in theory.consecutive_groups(D, 2)], 0.01))
    return np.array(rows)


#: C8a: the dimensions d and the kernels (SE, and Matérn-5/2 as the contrast) of the spectra
C8_DIMS, C8_KERNELS = (1, 2, 3), ("rbf", "matern25")


def c8_spectra(S: dict, seeds: Sequence[int], seed: int) -> dict:
    """C8 (the spectra behind Theorem 4), on ``c8_n`` uniform points, h = 0.25.

    ``decay[d, kernel]``: C8a's :func:`bolib.papers.add_gp_ucb.decay_form_gap` over s = 5..150, one per seed of
    ``seeds``, and ``spectra[d, kernel]`` the last seed's spectrum; ``union``: C8b's
    :func:`bolib.papers.add_gp_ucb.spectra_union_gaps` for D = 4, two groups of 2 each scaled 1/2 (stream
    ``seed``), and ``trace`` that sum's trace (the scale of C8b-tail's tolerance)."""
    decay = {(d, name): [] for d in C8_DIMS for name in C8_KERNELS}
    spectra = {}
    with single_threaded():
        for s in seeds:
            for d in C8_DIMS:
                X = rng(s, "c8", d).random((S["c8_n"], d))
                for name in C8_KERNELS:
                    kernel = make_kernel(name, d, lengthscale=0.25, outputscale=1.0)
                    spectra[d, name] = theory.spectrum(kernel_matrix(kernel, X).detach().numpy())
                    decay[d, name].append(theory.decay_form_gap(spectra[d, name], d, (5, 150)))
        X = rng(seed, "c8b").random((S["c8_n"], 4))
        parts = [theory.additive_kernel_matrix(X, [g], 0.25) / 2 for g in ([0, 1], [2, 3])]
        total = theory.spectrum(sum(parts))
        union = theory.spectra_union_gaps(total, [theory.spectrum(K) for K in parts])
    return {"decay": decay, "spectra": spectra, "union": union, "trace": float(union["tail_sum"][0] + total[0])}


def c11_slopes(S: dict, seeds: Sequence[int]) -> list[dict]:
    """C11 (Lemma 11's core): :func:`bolib.papers.add_gp_ucb.lemma11_slopes` of one SE posterior per seed (50
    uniform points in D = 5, standard normal y, h = 0.3, scale 1, eta^2 = 0.01) on ``c11_pairs`` pairs."""
    with single_threaded():
        return [theory.lemma11_slopes(rng(i, "c11").random((50, 5)), rng(i, "c11-y").standard_normal(50), 0.3, 1.0,
                                      0.01, S["c11_pairs"], rng(i, "c11-pairs")) for i in seeds]


#: C-acq: the three ways of maximising eq. 6, as labelled in the claim, and their keys in
#: :func:`bolib.papers.add_gp_ucb.acquisition_gaps`
ACQ_ROUTES = {"per-group DIRECT": "per_group", "joint DIRECT": "joint", "random search": "random"}


def acquisition_runs(S: dict, seeds: Sequence[int]) -> dict[int, list[dict]]:
    """C-acq (Sec. 4.2): :func:`bolib.papers.add_gp_ucb.acquisition_gaps` per D of ``acq_dims`` and seed (d = 2,
    50 points, 100 DIRECT evaluations per group)."""
    with single_threaded():
        return {D: [theory.acquisition_gaps(D, 2, 50, 100, s) for s in seeds] for D in S["acq_dims"]}


__all__ = ["ACQ_ROUTES", "C4B_GRID", "C4_SUB_DIMS", "C5_GROUP_DIM", "C5_LENGTHSCALE", "C8_DIMS", "C8_KERNELS",
           "FIG5_OPTIONS", "acquisition_runs", "best_value", "c11_slopes", "c4_gains",
           "c4_dimension_gains", "c4_spectral_gains", "c4_subadditivity", "c4a_exponents", "c4a_values", "c4b_exponents", "c5",
           "c5_arms", "c5_bounds", "c5_values", "c7_sides", "c8_spectra", "cseq", "cseq_values", "decomp",
           "decomp_values", "decomp_variants", "dev_values", "dev_variants", "deviations", "dragonfly",
           "dragonfly_values", "fig3", "fig3_values", "fig5", "fig5_methods", "fig5_values", "final_cumulative_regret",
           "plan", "seq_variants", "time_averaged_regret"]


# --------------------------------------------------------------------------------------------------
# Figures: one function per figure of the notebook, each made, saved and shown by ``ctx.figure``.

def fig_eq14(ctx, seeds, s) -> None:
    """Eq. 14 at eta^2 = 1 (``s``: :func:`bolib.papers.add_gp_ucb.eq14_sums`): the cumulative left side
    sum_j sigma_j^2, the valid left side sigma^2 and the right side, and the ratio per step."""
    steps = np.arange(1, len(s["sum_sj2"]) + 1)
    with ctx.figure("eq14", seeds, 1, 2, figsize=(8, 3)) as (fig, axes):
        axes[0].plot(steps, np.cumsum(s["sum_sj2"]), label="sum sum_j sigma_j^2 (eq. 14 left)")
        axes[0].plot(steps, np.cumsum(s["s2"]), label="sum sigma^2 (valid left)")
        axes[0].plot(steps, np.cumsum(s["bound"]), "k--", label="C_1 sum log(1 + sigma^2/eta^2)")
        axes[0].set(xlabel="t", ylabel="cumulative", title="eta^2 = 1")
        axes[0].legend(fontsize=6)
        axes[1].hist(s["sum_sj2"][1:] / s["s2"][1:], bins=20, label="steps")
        axes[1].set(xlabel="sum_j sigma_j^2 / sigma^2 at x_t", ylabel="steps", title="eta^2 = 1")


def fig_c4_gain(ctx, seeds, gains, dimension, spectral) -> None:
    """C4 (Theorem 4). Left: the greedy information gain of the additive and the full SE kernel on D = 20, d = 2 pools
    (``gains[name]``: pools x T, :func:`c4_gains`) beside the cap T/2 log(1 + 1/eta^2). Middle (C4a): the spectral
    gain at T = C4B_T[1] against D (``dimension``, :func:`c4_dimension_gains`), with a line linear in D through the
    additive gain at the first D. Right (C4b): the spectral gain of the additive SE and Matérn-5/2 kernels on
    C4B_GRID (``spectral``, :func:`c4_spectral_gains`) on log axes, with (log T)^{d+1} through the SE gain at
    C4B_T[0] and C4B_T marked."""
    T = next(iter(gains.values())).shape[1]
    steps = np.arange(1, T + 1)
    power = C4_GROUP_DIM + 1
    dims = np.array(C4A_DIMS)
    with ctx.figure("c4_gain", seeds, 1, 3, figsize=(13, 3.2)) as (fig, axes):
        for name, curves in gains.items():
            plots.plot_band(axes[0], steps, curves, f"{name} kernel")
        axes[0].plot(steps, 0.5 * steps * np.log1p(1 / C4_NOISE), "k--", lw=0.8, label="cap T/2 log(1 + 1/eta^2)")
        axes[0].set(xlabel="T", ylabel="greedy information gain", title=f"greedy gain: D = {C4_DIM}, d = {C4_GROUP_DIM}")
        axes[0].legend(fontsize=6)
        for name in ("additive", "full"):
            plots.plot_band(axes[1], dims, dimension[name], f"{name} kernel")
        axes[1].plot(dims, np.median(dimension["additive"][:, 0]) * dims / dims[0], "k:", lw=1, label="linear in D")
        axes[1].set(yscale="log", xlabel="D", ylabel=f"spectral gain at T = {C4B_T[1]:.0e}", title="C4a: growth in D")
        plots.plain_log_ticks(axes[1], dims)
        axes[1].legend(fontsize=6)
        for name in ("additive", "additive matern25"):
            plots.plot_band(axes[2], C4B_GRID, spectral[f"{name} curve"], f"{name} kernel")
        anchor = np.median(spectral["additive"][:, 0])
        axes[2].plot(C4B_GRID, anchor * (np.log(C4B_GRID) / math.log(C4B_T[0])) ** power, "k:", lw=1,
                     label=f"(log T)^{power} through the SE gain at T = {C4B_T[0]:.0e}")
        for T_mark in C4B_T:
            axes[2].axvline(T_mark, color="0.6", lw=0.6)
        axes[2].set(xscale="log", yscale="log", xlabel="T", ylabel="spectral gain g(T)",
                    title="C4b: spectral gain")
        axes[2].legend(fontsize=6)


def fig_c4_dimension(ctx, seeds, gains, n: int) -> None:
    """C4-sub: the information gain of the additive kernel and the sum of its components' gains against D
    (``gains``: rows per D of :data:`C4_SUB_DIMS`, (additive, sum of components), :func:`c4_subadditivity`)."""
    dims = list(C4_SUB_DIMS)
    with ctx.figure("c4_dimension", seeds, figsize=(4, 3)) as (fig, ax):
        ax.plot(dims, gains[:, 0], "o-", label="gain of the additive kernel")
        ax.plot(dims, gains[:, 1], "s--", label="sum of the components' gains")
        ax.set(yscale="log", xlabel="D (d = 2)", ylabel="information gain of the set", title=f"{n} uniform points")
        plots.plain_log_ticks(ax, dims)
        ax.legend(fontsize=6)


def fig_c8_spectra(ctx, seeds, spectra, gaps) -> None:
    """C8: eigenvalue decay of K/n for SE and Matérn-5/2 kernels in d = 1, 2, 3 (``spectra[d, name]``), and the
    tails of the spectrum of a sum of two kernels against those of the union of their spectra (``gaps``; both
    from :func:`c8_spectra`)."""
    with ctx.figure("c8_spectra", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for d, colour in zip(C8_DIMS, ("C0", "C1", "C2")):
            for name, style in zip(C8_KERNELS, ("-", ":")):
                lam = spectra[d, name][:150]
                lam = np.where(lam > 1e-14 * lam[0], lam, np.nan)  # below: round-off, not spectrum
                axes[0].plot(np.arange(1, len(lam) + 1), lam, style, color=colour, label=f"{name}, d = {d}")
        axes[0].set(yscale="log", xlabel="s", ylabel="lambda_s of K/n (above 1e-14 lambda_1)",
                    title="eigenvalue decay, h = 0.25")
        axes[0].legend(fontsize=6, loc="upper right")
        k = np.arange(1, 301)
        axes[1].plot(k, gaps["tail_sum"][:300], label="tail of the sum")
        axes[1].plot(k, gaps["tail_union"][:300], "--", label="tail of the union")
        axes[1].set(yscale="log", xlabel="k", ylabel="sum of eigenvalues after the k-th", title="D = 4, two groups of 2")
        axes[1].legend(fontsize=6)


def fig_table1_ratio(ctx) -> None:
    """Table 1 (Matérn nu = 2.5): the ratio of Add-GP-UCB's regret bound to GP-UCB's against T
    (:func:`bolib.papers.add_gp_ucb.table1_ratio`), for d = 1, 2, 3 and D = 10, 20."""
    Ts = np.logspace(1, 6, 60)
    with ctx.figure("table1_ratio", [0], figsize=(4.5, 3.2)) as (fig, ax):
        for D in (10, 20):
            for d in (1, 2, 3):
                ax.plot(Ts, theory.table1_ratio(2.5, d, D, Ts), label=f"d = {d}, D = {D}")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="Add bound / GP-UCB bound", title="Table 1, Matern nu = 2.5")
        ax.legend(fontsize=6)


def fig_acquisition(ctx, seeds, runs) -> None:
    """C-acq (Sec. 4.2): the mean gap to the acquisition's maximum of each maximiser against D and the mean CPU
    seconds of the two DIRECT routes (``runs``: :func:`acquisition_runs`)."""
    dims = list(runs)
    gaps = {label: [np.mean([a[f"gap_{k}"] for a in runs[D]]) for D in dims] for label, k in ACQ_ROUTES.items()}
    times = {label: np.array([[runs[D][s][f"time_{k}"] for D in dims] for s in range(len(seeds))]).mean(0)
             for label, k in ACQ_ROUTES.items() if k != "random"}  # random search is not timed
    with ctx.figure("c_acq", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for label, gap in gaps.items():
            axes[0].plot(dims, gap, "o-", label=f"{label} (mean)")
        for label, seconds in times.items():
            axes[1].plot(dims, seconds, "o-", label=f"{label} (mean)")
        axes[0].set(yscale="log", xlabel="D", ylabel="gap to the maximum", title="acquisition accuracy")
        axes[1].set(yscale="log", xlabel="D", ylabel="process seconds", title="cost (CPU time)")
        for ax in axes:
            plots.plain_log_ticks(ax, dims)
            ax.legend(fontsize=6)


def fig_c5_regret(ctx, seeds, traces, cumulative, bounds, title: str) -> None:
    """C5 (Theorem 5): simple regret S_T of each arm on additive GP draws, and R_T of each arm beside Theorem 5's
    bound (``bounds``: seeds x T, :func:`c5_bounds`), on a log axis."""
    with ctx.figure("c5_regret", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        traces.plot([axes[0]], titles={"add-gp-draw": title})
        for label, curves in cumulative.items():
            plots.plot_band(axes[1], np.arange(1, curves.shape[1] + 1), curves, label)
        plots.plot_band(axes[1], np.arange(1, bounds.shape[1] + 1), bounds, "Thm 5's bound (lower estimate)")
        axes[1].set(yscale="log", xlabel="evaluations", ylabel="R_T", title="R_T and Thm 5's bound")
        axes[1].legend(fontsize=6)


def fig_dragonfly_reference(ctx, seeds, ours, reference, labels, title: str) -> None:
    """Dragonfly's add_ucb beside our methods (``labels``) on the same problem and seeds: simple regret."""
    n = len(seeds)
    with ctx.figure("dragonfly_reference", seeds, figsize=(5, 3.2)) as (fig, ax):
        for traces, label in [(ours, label) for label in labels] + [(reference, "dragonfly add_ucb")]:
            curves = traces.curves("add-3modal", label)[:n]
            plots.plot_band(ax, np.arange(1, curves.shape[1] + 1), curves, label)
        ax.set(yscale="log", xlabel="evaluations", ylabel="S_T", title=title)
        ax.legend(fontsize=7)


def fig_fig2_group_function(ctx) -> None:
    """Fig. 2: the two-dimensional group function f_2 of the additive three-mode family, as a surface and
    as contours (clipped at -30) with its maximiser."""
    from bolib.benchmarks import additive

    axis = np.linspace(-1, 1, 201)
    G1, G2 = np.meshgrid(axis, axis)
    values = additive.group_function(np.column_stack([G1.ravel(), G2.ravel()])).reshape(G1.shape)
    with ctx.figure("fig2_group_function", [0], 1, 2, figsize=(10, 3.4), gridspec_kw={"wspace": 0.35}) as (fig, axes):
        axes[0].remove()
        surface = fig.add_subplot(1, 2, 1, projection="3d")
        surface.plot_surface(G1, G2, values, cmap="viridis", linewidth=0)
        surface.set(title="f_2 (group function)", xlabel="x1", ylabel="x2", zlabel="f_2")
        contour = axes[1].contourf(G1, G2, np.maximum(values, -30), levels=30)
        axes[1].plot(*additive.group_argmax(2), "r*", label="argmax")
        axes[1].set(title="f_2 clipped at -30", xlabel="x1", ylabel="x2")
        axes[1].legend(fontsize=6)
        fig.colorbar(contour, ax=axes[1], label="f_2")


def fig_fig3_synthetic(ctx, seeds, config, traces, T: int) -> None:
    """Figs. 3-4, one (D, d', M') configuration: simple regret S_T and R_T / T of every method."""
    with ctx.figure(f"synthetic_{key(config)}", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        traces.plot([axes[0]], titles={"add-3modal": f"S_T, (D, d', M') = {config}"})
        for label in traces.labels:
            cumulative = traces.curves("add-3modal", label, value="cumulative_regret")
            plots.plot_band(axes[1], np.arange(1, T + 1), cumulative / np.arange(1, T + 1), label)
        axes[1].set(yscale="log", xlabel="evaluations", ylabel="R_T / T", title=f"R_T/T, {config}")
        axes[0].set_yscale("log")


def fig_decomposition(ctx, seeds, traces, config) -> None:
    """The grouping chosen by partialLearn against a random grouping: simple regret S_T."""
    with ctx.figure("decomposition", seeds, figsize=(4.5, 3.2)) as (fig, ax):
        traces.plot([ax], titles={"add-3modal": f"S_T, {config}: partialLearn vs random groups"})
        ax.set_yscale("log")


def fig_deviations(ctx, seeds, traces, config) -> None:
    """DEV-*: simple regret S_T of each method of the DEV panel as run and with each of the authors' fit choices run
    on it, one panel per method."""
    methods = [label for label in traces.labels if ", " not in label]
    with ctx.figure("deviations", seeds, 1, len(methods), figsize=(4.5 * len(methods), 3.2)) as (fig, axes):
        for ax, method in zip(axes, methods):
            for label in [method, *(label for label in traces.labels if label.startswith(f"{method}, "))]:
                curves = traces.curves("add-3modal", label)
                plots.plot_band(ax, np.arange(1, curves.shape[1] + 1), curves, label)
            ax.set(yscale="log", xlabel="evaluations", ylabel="S_T", title=f"{method}, {config}")
            ax.legend(fontsize=6)


def fig_cseq(ctx, seeds, traces, config, T: int) -> None:
    """Add-GP-UCB against its sequential-group variant (Alg. 4): simple regret S_T and cumulative regret R_T."""
    with ctx.figure(f"cseq_{key(config)}", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        traces.plot([axes[0]], titles={"add-3modal": f"S_T, {config}"})
        for label in traces.labels:
            plots.plot_band(axes[1], np.arange(1, T + 1), traces.curves("add-3modal", label, value="cumulative_regret"), label)
        axes[1].set(xlabel="evaluations", ylabel="R_T", title=f"R_T, {config}")
        axes[1].legend(fontsize=6)
        axes[0].set_yscale("log")


def fig_fig5_standins(ctx, traces, default_accuracy: float) -> None:
    """Fig. 5 stand-ins: the best value found so far by each method on the supernova and face-cascade
    stand-ins run (``traces``: benchmark -> Traces), the cascade's default thresholds beside them."""
    seeds = list(ctx.seeds(min(len(tr[bench, "RAND"]) for bench, tr in traces.items())))
    with ctx.figure("fig5_standins", seeds, 1, len(traces), figsize=(4.5 * len(traces), 3.2), squeeze=False) as (fig, axes):
        for ax, (bench, tr) in zip(axes[0], traces.items()):
            for label in tr.labels:
                best = np.maximum.accumulate(tr.curves(bench, label, value="f"), axis=1)
                plots.plot_band(ax, np.arange(1, best.shape[1] + 1), best, label)
            ax.set(xlabel="evaluations", ylabel="best value found", title=f"{bench} (stand-in)")
            if bench == "face-cascade20":
                ax.axhline(default_accuracy, color="k", ls="--", lw=0.8, label="default thresholds")
            ax.legend(fontsize=6)
