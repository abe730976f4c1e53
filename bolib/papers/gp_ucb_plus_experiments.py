"""The experiments of notebook 001 (GP-UCB+ and EXPLOIT+, Kim & Sanz-Alonso): one builder per experiment,
or per group of experiments the notebook runs in one batch, taking the profile settings ``S`` and the seeds
and returning the :class:`~bolib.experiment.Experiment` (or tuple of them) that the notebook passes to
``ctx.run``; :func:`plan` lists every experiment the notebook runs at settings ``S`` (for :mod:`bolib.costs`).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bolib import plots, theory
from bolib.algorithms.gp_ucb_plus import BETA_TWO
from bolib.experiment import Experiment, stage_seeds
from bolib.loop import bo_job
from bolib.models import GP
from bolib.papers import gp_ucb_plus as paper
from bolib.papers.gp_ucb_plus_claims import (CONTRAST, KERNELS, METHODS, OTHERS, PAPER_BEST, PLUS, PLUS_RULES,
                                             REMARK_KERNELS, REMARKS, RULES)

#: the regularisations lambda of the posteriors sigma_t,lambda in C3 and of the information gains in C6
LAMBDAS = (1e-6, 1e-3, 1.0)
#: the Matern kernels of C7 (Remark 4.5)
C7_KERNELS = ["matern05", "matern15", "matern25"]


def gp_settings(S: dict) -> dict:
    """The GP settings shared by the BO runs of §6 and Fig. 1 (noise-free, initial lengthscale 1)."""
    return {"n_candidates": S["n_candidates"], "refit_every": S["refit_every"], "noise": 0.0, "lengthscale": 1.0}


def method_settings(S: dict, method: str, beta=BETA_TWO, **extra) -> dict:
    """``settings`` of one method: the GP settings plus ``extra``, and ``beta`` (TWO by default) for the UCB rules."""
    base = {**gp_settings(S), **extra}
    return {**base, "beta": beta} if method in ("gp-ucb", "gp-ucb+") else base


def c1_sizes(S: dict) -> list[int]:
    """The design sizes of C1: n = 16, 32, ..., 2^c1_max_log2n."""
    return [2 ** k for k in range(4, S["c1_max_log2n"] + 1)]


def c1(S: dict, seed: int) -> Experiment:
    """§5 C1 (the fill-distance rate of i.i.d. designs behind Thms 4.4 and 4.8): fill distances of uniform, Sobol and Halton designs."""
    return Experiment("001-c1-fill-distance", theory.fill_distance_job,
                      grid={"kind": list(theory.DESIGNS), "dim": [1, 2, 3]},
                      fixed={"sizes": c1_sizes(S), "reps": S["c1_reps"], "seed": seed, "n_reference": S["c1_reference"]})


def c4_fixed(S: dict) -> dict:
    """The shared parameters of the 2-D finite-grid runs of C4 (and of C7's uniform runs)."""
    return {"T": S["c4_T"], "dim": 2, "points_per_dim": S["c4_grid"]}


def c3_c4(S: dict, seeds: Sequence[int]) -> tuple[Experiment, Experiment]:
    """§5 C3 (the proofs' inequalities of Thms 3.1 and 4.4, 1-D) and C4 (Theorem 4.4's regret rates on a 2-D grid), run together."""
    return (Experiment("001-c3-inequalities", paper.theory_grid_job, grid={"kernel": KERNELS, "rule": RULES, "seed": seeds},
                       fixed={"T": S["c4_T"], "dim": 1, "points_per_dim": 201, "n_centers": 20, "lambdas": LAMBDAS}),
            Experiment("001-c4-rates", paper.theory_grid_job, grid={"kernel": KERNELS, "rule": RULES + ("exploit",), "seed": seeds},
                       fixed=c4_fixed(S)))


def c4_remarks(S: dict, seeds: Sequence[int]) -> Experiment:
    """§5 C4 (Remarks 4.1 and 4.3): EXPLOIT+ on C4's functions and grid with the exploration of each remark."""
    return Experiment("001-c4-remarks", paper.theory_grid_job, grid={"kernel": list(REMARK_KERNELS), "seed": seeds},
                      fixed={**c4_fixed(S), "rule": "exploit+"}, variants=[settings for _, settings, _ in REMARKS.values()])


def remark_regret(result) -> dict:
    """The cumulative regret of the acquisition points per (remark, kernel): seeds x T (``result`` of :func:`c4_remarks`)."""
    return {(remark, kernel): np.array([np.cumsum(out["regret"]) for p, out in result
                                        if p["kernel"] == kernel and all(p.get(k) == v for k, v in settings.items())])
            for remark, (_, settings, _) in REMARKS.items() for kernel in REMARK_KERNELS}


def c5(S: dict, seeds: Sequence[int]) -> Experiment:
    """§5 C5 (Theorem 4.8): the '+' rules, EXPLOIT and GP-UCB on GP draws in d = 1 and 2."""
    grids = [{"dim": 1, "points_per_dim": 501}, {"dim": 2, "points_per_dim": 31}]
    return Experiment("001-c5-gp-draws", paper.theory_grid_job,
                      grid={"kernel": ["matern25", "rbf"], "rule": [*PLUS_RULES, "exploit", "gp-ucb"], "seed": seeds},
                      fixed={"T": S["c5_T"], "target": "gp", "beta": "finite", "delta": 0.1}, variants=grids)


def c6(S: dict, seeds: Sequence[int]) -> Experiment:
    """§5 C6 (Theorem 3.1, GP-UCB with the SE kernel): 1-D runs on the seeds the C3/C4 stages stopped at (in ``plan``: at ``look``)."""
    return Experiment("001-c6-theorem31", paper.theory_grid_job,
                      grid={"rule": RULES + ("exploit",), "seed": seeds},
                      fixed={"kernel": "rbf", "T": S["c4_T"], "dim": 1, "points_per_dim": 501, "lambdas": LAMBDAS})


def c7(S: dict, seeds: Sequence[int]) -> tuple[Experiment, Experiment]:
    """§5 C7 (Remark 4.5, quasi-random exploration): EXPLOIT+ with Sobol exploration, and its uniform runs (C4's jobs)."""
    return (Experiment("001-c7-sobol", paper.theory_grid_job, grid={"kernel": C7_KERNELS, "seed": seeds},
                       fixed={"rule": "exploit+", "T": S["c4_T"], "dim": 2, "points_per_dim": S["c4_grid"],
                              "exploration": "sobol"}),
            Experiment("001-c4-rates", paper.theory_grid_job, grid={"kernel": C7_KERNELS, "rule": ["exploit+"], "seed": seeds},
                       fixed=c4_fixed(S)))


def fig1(S: dict, seeds: Sequence[int]) -> tuple[Experiment, Experiment]:
    """§5 C8 (Figure 1, fill distance of the queries on 10-D Rastrigin): GP-UCB (SUP beta), EXPLOIT, EXPLORE and UNIFORM."""
    fixed = {"benchmark": "rastrigin", "dim": S["bench_dim"], "budget": S["fig1_budget"], "n_init": S["n_init"]}
    gp = gp_settings(S)
    return (Experiment("001-fig1-ucb", bo_job, grid={"seed": seeds},
                       fixed={**fixed, "method": "gp-ucb", "settings": {**gp, "beta": "sup", "n_sup": S["sup_points"]}}),
            Experiment("001-fig1-others", bo_job, grid={"seed": seeds}, fixed=fixed,
                       variants=[{"method": m, "settings": {} if m == "random" else gp} for m in ("exploit", "explore", "random")]))


def benchmarks(S: dict, seeds: Sequence[int], reference_seeds: Sequence[int]) -> tuple[Experiment, ...]:
    """§6.1-6.2 (Sec. 5.1, Figure 2, Tables 1 and 4; App. B, Figure 5): BoTorch's LogEI reference, the six methods,
    SUP beta, and our EI with a fitted noise variance (a reference on the noise-free GP the paper prescribes)."""
    fixed = {"dim": S["bench_dim"], "budget": S["bench_budget"], "n_init": S["n_init"]}
    return (Experiment("001-botorch-reference", bo_job, grid={"benchmark": S["reference_functions"], "seed": reference_seeds},
                       fixed={**fixed, "method": "botorch-logei", "settings": {"raw_samples": S["reference_raw_samples"]}}),
            Experiment("001-benchmarks", bo_job, grid={"benchmark": S["functions"], "seed": seeds},
                       fixed=fixed, variants=[{"method": m, "settings": method_settings(S, m)} for m in METHODS]
                       + [{"method": CONTRAST}]),
            Experiment("001-fig5-sup", bo_job, grid={"benchmark": S["functions"], "seed": seeds},
                       fixed={**fixed, "settings": {**gp_settings(S), "beta": "sup", "n_sup": S["sup_points"]}},
                       variants=[{"method": "gp-ucb"}, {"method": "gp-ucb+"}]),
            Experiment("001-ei-nugget", bo_job, grid={"benchmark": S["functions"], "seed": seeds},
                       fixed={**fixed, "method": "gp-ei", "settings": method_settings(S, "gp-ei", noise=None)}))


def fitted_models(runs, functions, noise) -> list[tuple]:
    """The GP of §6.1 (isotropic Matérn-5/2, type-II ML) refitted afresh on all the evaluations of each EI run of
    ``runs``, with ``noise`` (0.0: noise-free, None: a fitted noise variance). One row per function:
    the medians over runs of the lengthscale (unit cube), output scale and noise SD (standardised outputs), and of
    the final simple regret."""
    rows = []
    for fn in functions:
        fits = []
        for p, v in runs:
            if p["benchmark"] != fn or p["method"] != "gp-ei":
                continue
            gp = GP("matern25", lengthscale=1.0, noise=noise, seed=p["seed"]).fit(np.asarray(v["X"]), np.asarray(v["f"]))
            h = gp.hyperparameters
            fits.append((float(h["lengthscale"][0][0]), h["outputscale"][0], math.sqrt(h["noise"]),
                         v["optimum"] - float(np.max(v["f"]))))
        rows.append((fn, "fitted" if noise is None else f"fixed at {noise:g}", *(float(x) for x in np.median(fits, axis=0))))
    return rows


def random_forest(S: dict, seeds: Sequence[int]) -> tuple[Experiment, Experiment]:
    """§6.3 (Sec. 5.2, Table 2, Figures 3 and 6): random-forest tuning, the UCB rules with SUP beta, the others, and
    random search (the contrast of R1)."""
    fixed = {"benchmark": "rf-friedman1", "budget": S["rf_budget"], "n_init": S["n_init"]}
    return (Experiment("001-rf-ucb", bo_job, grid={"seed": seeds},
                       fixed={**fixed, "settings": {**gp_settings(S), "beta": "sup", "n_sup": S["rf_sup_points"]}},
                       variants=[{"method": "gp-ucb"}, {"method": "gp-ucb+"}]),
            Experiment("001-rf-others", bo_job, grid={"seed": seeds}, fixed=fixed,
                       variants=[{"method": m, "settings": method_settings(S, m)} for m in ("exploit+", "exploit", "gp-ei", "gp-pi")]
                       + [{"method": CONTRAST}]))


def sprinkler(S: dict, seeds: Sequence[int]) -> Experiment:
    """§6.4 (Sec. 5.3, Table 3, Figure 4): the six methods on the garden sprinkler, SE kernel from lengthscale sqrt(50),
    and random search (the contrast of S1 and S2)."""
    return Experiment("001-sprinkler", bo_job, grid={"seed": seeds},
                      fixed={"benchmark": "sprinkler", "budget": S["sprinkler_budget"], "n_init": S["n_init"]},
                      variants=[{"method": m, "settings": method_settings(S, m, kernel="rbf", lengthscale=math.sqrt(50))}
                                for m in METHODS] + [{"method": CONTRAST}])


# ------------------------------------------------- the per-seed values each staged comparison is decided on
def c4_cmp_values(result) -> dict:
    """C4-cmp per kernel: the cumulative regret at T of EXPLOIT+ and of GP-UCB, per seed (``result`` of :func:`c3_c4`)."""
    return {f"C4-cmp-{k}": {rule: np.array([np.sum(out["regret"]) for p, out in result[1] if p["kernel"] == k and p["rule"] == rule])
                            for rule in ("exploit+", "gp-ucb")} for k in KERNELS}


def c7_level_values(result, late) -> dict:
    """C7-level per Matérn kernel: the mean sup sigma over the steps ``late`` with Sobol and with uniform
    exploration, per seed (``result`` of :func:`c7`)."""
    return {f"C7-level-{k}": {label: np.array([out["sup_sigma"][late].mean() for p, out in part if p["kernel"] == k])
                              for label, part in zip(("sobol", "uniform"), result)} for k in C7_KERNELS}


def c8_values(runs, reference, methods) -> dict:
    """C8's three comparisons: the final fill distance of each method's points on the ``reference`` set, per seed."""
    values = {m: np.array([theory.fill_distance(np.asarray(v["X"]), reference) for p, v in runs if p["method"] == m])
              for m in methods}
    return {claim: values for claim in ("C8-uniform", "C8-explore-vs-ucb", "C8-ucb-vs-exploit")}


def benchmark_values(result, functions) -> dict:
    """B1-B5 per function: the final simple regret (B1 with random search's, the contrast; B2; B3 its per-seed spread)
    of each method with the TWO beta, GP-UCB+'s final simple and cumulative regret with the TWO and the SUP beta (B4) and
    GP-UCB's final simple regret with both (B5), per seed (``result`` of :func:`benchmarks`)."""
    ends = {(fn, m, beta): np.array([(v["optimum"] - np.max(v["f"]), np.sum(v["optimum"] - np.asarray(v["f"])))
                                     for p, v in part if p["benchmark"] == fn and p["method"] == m])
            for beta, part in (("TWO", result[1]), ("SUP", result[2])) for fn in functions
            for m in ([*METHODS, CONTRAST] if beta == "TWO" else ["gp-ucb", "gp-ucb+"])}
    final = {fn: {m: ends[fn, m, "TWO"][:, 0] for m in METHODS} | {CONTRAST: ends[fn, CONTRAST, "TWO"][:, 0]}
             for fn in functions}
    return ({f"B1-{fn}": final[fn] for fn in functions if fn in PAPER_BEST}
            | {f"B1-{fn}-{m}": final[fn] for fn in functions if fn in PAPER_BEST for m in PLUS if m != PAPER_BEST[fn]}
            | {f"B2-{fn}": {m: ends[fn, m, "TWO"][:, 0] for m in METHODS} for fn in functions}
            | {f"B3-{fn}-{m}": {k: paper.spread_per_seed(ends[fn, k, "TWO"][:, 0]) for k in METHODS}
               for fn in functions for m in PLUS}
            | {f"B4-{metric}-{fn}": {f"gp-ucb+ {beta}": ends[fn, "gp-ucb+", beta][:, j] for beta in ("TWO", "SUP")}
               for fn in functions for j, metric in enumerate(("simple", "cumulative"))}
            | {f"B5-{fn}": {f"gp-ucb {beta}": ends[fn, "gp-ucb", beta][:, 0] for beta in ("TWO", "SUP")} for fn in functions})


def rf_values(runs) -> dict:
    """R1 per '+' method: each method's (and the contrast's) total test MSE over the run (lower is better), per seed."""
    return {f"R1-{m}": {k: np.array([-np.sum(v["f"]) for p, v in runs if p["method"] == k]) for k in [*METHODS, CONTRAST]}
            for m in PLUS}


def plus_total_floor(mse: dict, n_init: int) -> list[tuple]:
    """What R1 can show on this task: per '+' method, its mean total test MSE beside the least it could total in
    expectation, had every acquisition query hit the lowest MSE any run reached, with its initial design as run and
    its uniform exploration queries at random search's mean MSE after the initial design; and the lowest mean total
    of the other methods (``mse[method]``: seeds x evaluations). A floor above the others' totals means no '+'
    method could come out better on this task."""
    floor = min(float(np.min(mse[m])) for m in METHODS)
    half = (mse[CONTRAST].shape[1] - n_init) / 2
    random_query = float(mse[CONTRAST][:, n_init:].mean())
    best_other = min(float(mse[m].sum(1).mean()) for m in OTHERS)
    return [(m, float(mse[m].sum(1).mean()), float(mse[m][:, :n_init].sum(1).mean()) + half * (random_query + floor), best_other)
            for m in PLUS]


def sprinkler_values(runs) -> dict:
    """S1, S2: each method's (and the contrast's) best objective value, per seed."""
    return {claim: {m: np.array([np.max(v["f"]) for p, v in runs if p["method"] == m]) for m in [*METHODS, CONTRAST]}
            for claim in ("S1", "S2")}


#: C2's design sizes per kernel: the SE kernel's sup sigma falls exponentially in 1/h and meets the round-off
#: floor at far smaller n than the Matern kernels'
C2_SIZES = {"matern05": (32, 64, 128, 256, 512), "matern15": (32, 64, 128, 256, 512), "matern25": (32, 64, 128, 256, 512),
            "rbf": (6, 8, 11, 16, 23, 32)}


def c2_power_function(seeds: Sequence[int]):
    """C2: per kernel, design size and seed, the fill distance h of a uniform design on [0, 1] and the power
    function sup_x sigma(x) over 4,001 points (noise-free GP, lengthscale 0.2), as a table."""
    import numpy as np
    import pandas as pd

    from bolib.models import GP
    from bolib.runtime import rng

    grid = np.linspace(0, 1, 4001)[:, None]
    rows = []
    for kernel, sizes in C2_SIZES.items():
        for size in sizes:
            for seed in seeds:
                X = rng(seed, "c2", size).random((size, 1))
                gp = GP(kernel, lengthscale=0.2, outputscale=1.0, noise=0.0, fit=False, standardize=False,
                        jitter=1e-12).fit(X, np.zeros(size))
                rows.append((kernel, size, seed, theory.fill_distance_1d(X), gp.predict(grid)[1].max()))
    return pd.DataFrame(rows, columns=["kernel", "n", "replicate", "h", "sup_sigma"])


def matern_as_printed(r, lengthscale: float, nu: float):
    """The Matern kernel as the paper prints it (Sec. 2.4), without the sqrt(2 nu) of the standard form:
    2^(1 - nu) / Gamma(nu) z^nu K_nu(z), z = r / lengthscale."""
    from scipy.special import gamma, kv

    z = r / lengthscale
    return 2 ** (1 - nu) / gamma(nu) * z ** nu * kv(nu, z)


def per_seed_bound_table(values: dict, seeds, bound: dict, names, bound_label: str):
    """Per key of ``values`` (arrays over ``seeds``), one row of the per-seed values beside the bound
    ``bound[key[0]]`` and how many seeds are within it."""
    import numpy as np
    import pandas as pd

    table = pd.DataFrame(values, index=seeds).T
    table.index.names = names
    table.insert(0, bound_label, [round(bound[key[0]], 3) for key in table.index])
    table["seeds within the bound"] = [f"{int(np.sum(v <= bound[key[0]]))} of {len(v)}" for key, v in values.items()]
    return table.round(3)


def plan(S: dict, look: int = -1) -> list[Experiment]:
    """Every experiment notebook 001 runs at settings ``S``, on seeds from 0, each seed-stage list taken at
    stage ``look`` (0: the first, -1: the cap). C6 runs on the seeds C4 stopped at, here C4's seeds at ``look``."""
    c4_seeds = stage_seeds(S["c4_seeds"], look)
    return [c1(S, 0),
            *c3_c4(S, c4_seeds),
            c4_remarks(S, c4_seeds),
            c5(S, range(S["c5_draws"])),
            c6(S, c4_seeds),
            *c7(S, c4_seeds),
            *fig1(S, stage_seeds(S["fig1_seeds"], look)),
            *benchmarks(S, stage_seeds(S["bench_seeds"], look), range(S["reference_seeds"])),
            *random_forest(S, stage_seeds(S["rf_seeds"], look)),
            sprinkler(S, stage_seeds(S["sprinkler_seeds"], look))]


# --------------------------------------------------------------------------------------------------
# Figures: one function per figure of the notebook, each made, saved and shown by ``ctx.figure``.

def _label(rule: str, contrast: str) -> str:
    return f"{rule} (contrast)" if rule == contrast else rule


def fig_c1_fill_distance(ctx, seeds, n, H) -> None:
    """C1 (Sec. 4.1): the fill distance h of uniform, Sobol and Halton designs of n points in d = 1, 2, 3
    (``H[kind, d]``: seeds x sizes), beside n^(-1/d) and (log n / n)^(1/d) from the uniform median."""
    with ctx.figure("c1_fill_distance", seeds, 1, 3, figsize=(11, 3.2)) as (fig, axes):
        for d, ax in zip((1, 2, 3), axes):
            for kind in theory.DESIGNS:
                plots.plot_band(ax, n, H[kind, d], kind)
            h0 = np.median(H["uniform", d], axis=0)[0]
            ax.plot(n, h0 * (n / n[0]) ** (-1 / d), "k:", lw=1, label="$n^{-1/d}$")
            ax.plot(n, h0 * ((np.log(n) / n) / (np.log(n[0]) / n[0])) ** (1 / d), "k--", lw=1, label=r"$(\log n/n)^{1/d}$")
            ax.set(xscale="log", yscale="log", xlabel="n", title=f"d = {d}")
        axes[0].set_ylabel("fill distance h")
        axes[0].legend(fontsize=7)


def fig_c2_power_function(ctx, seeds, power) -> None:
    """C2: sup sigma against the fill distance h of each design (``power``: rows kernel, h, sup_sigma)."""
    with ctx.figure("c2_power_function", seeds, figsize=(4.8, 3.3)) as (fig, ax):
        for kernel, part in power.groupby("kernel"):
            ax.scatter(part.h, part.sup_sigma, s=6, label=kernel)
        ax.set(xscale="log", yscale="log", xlabel="fill distance h", ylabel=r"$\sup_x \sigma(x)$",
               title="C2: power function (d = 1)")
        ax.legend(fontsize=7)


def fig_c4_rates(ctx, seeds, R, sup, predicted) -> None:
    """C4 (Theorem 4.4): cumulative regret of each rule per kernel (``R[kernel, rule]``: seeds x T), beside
    T^(predicted exponent), and EXPLOIT+'s sup sigma_{t-1} per kernel (``sup[kernel]``)."""
    T = next(iter(R.values())).shape[1]
    t = np.arange(1, T + 1)
    with ctx.figure("c4_theorem44_rates", seeds, 1, len(KERNELS) + 1, figsize=(17, 3.2)) as (fig, axes):
        for ax, kernel in zip(axes, KERNELS):
            for rule in RULES + ("exploit",):
                plots.plot_band(ax, t, R[kernel, rule], _label(rule, "exploit"))
            if predicted[kernel] > 0:
                ref = np.median(R[kernel, "exploit+"], axis=0)[T // 8]
                ax.plot(t, ref * (t / t[T // 8]) ** predicted[kernel], "k:", lw=1, label=f"$T^{{{predicted[kernel]}}}$")
            ax.set(xscale="log", yscale="log", xlabel="T", title=kernel)
            ax.legend(fontsize=5, loc="upper left")
        axes[0].set_ylabel("cumulative regret $R_T$ (acquisition points)")
        for kernel in KERNELS:
            plots.plot_band(axes[-1], t, sup[kernel], kernel)
        axes[-1].set(xscale="log", yscale="log", xlabel="t", title=r"EXPLOIT+: $\sup\sigma_{t-1}$")
        axes[-1].legend(fontsize=7)


def fig_c5_gp_draws(ctx, seeds, R5, cases) -> None:
    """C5 (Theorem 4.8): cumulative regret on GP draws per (kernel, d) of ``cases`` (``R5[rule, kernel, d]``)."""
    with ctx.figure("c5_theorem48_gp_draws", seeds, 1, len(cases), figsize=(3.5 * len(cases), 3.2)) as (fig, axes):
        for ax, (kernel, d) in zip(axes, cases):
            for rule in (*PLUS_RULES, "gp-ucb", "exploit"):
                curves = R5[rule, kernel, d]
                plots.plot_band(ax, np.arange(1, curves.shape[1] + 1), curves, _label(rule, "gp-ucb"))
            ax.set(xscale="log", yscale="log", xlabel="T", title=f"{kernel}, d = {d}")
        axes[0].set_ylabel("$R_T$ (acquisition points)")
        axes[0].legend(fontsize=7)


def fig_c6_theorem31(ctx, seeds, R6) -> None:
    """C6 (Theorem 3.1): cumulative regret of each rule with the SE kernel in d = 1, 2 (``R6[d][rule]``),
    divided by sqrt(T) log^(d/2) T."""
    with ctx.figure("c6_theorem31", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for ax, d in zip(axes, (1, 2)):
            for rule in RULES + ("exploit",):
                curves = R6[d][rule]
                tt = np.arange(2, curves.shape[1] + 1)
                plots.plot_band(ax, tt, curves[:, 1:] / (np.sqrt(tt) * np.log(tt) ** (d / 2)), _label(rule, "exploit"))
            ax.set(xscale="log", yscale="log", xlabel="T", title=f"SE, d = {d}")
        axes[0].set_ylabel(r"$R_T / (\sqrt{T}\log^{d/2}T)$")
        axes[0].legend(fontsize=7)


def fig_c7_sobol_exploration(ctx, seeds, sup) -> None:
    """C7: EXPLOIT+'s sup sigma_t with uniform and with Sobol exploration (``sup[kernel]``: the two arrays)."""
    with ctx.figure("c7_sobol_exploration", seeds, 1, len(C7_KERNELS), figsize=(12, 3.2)) as (fig, axes):
        for ax, kernel in zip(axes, C7_KERNELS):
            uniform, sobol = sup[kernel]
            t = np.arange(1, uniform.shape[1] + 1)
            plots.plot_band(ax, t, uniform, "uniform")
            plots.plot_band(ax, t, sobol, "Sobol")
            ax.set(xscale="log", yscale="log", xlabel="t", title=f"EXPLOIT+, {kernel}")
        axes[0].set_ylabel(r"$\sup\sigma_t$")
        axes[0].legend(fontsize=7)


def fig_fig1_fill_distance(ctx, seeds, checkpoints, fill, names) -> None:
    """Fig. 1 replica: the estimated fill distance of each method's queries on the 100 LHS points X_D and
    on 10^4 uniform points (``fill[method]``: seeds x reference set x checkpoints)."""
    with ctx.figure("fig1_fill_distance", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for j, (ax, label) in enumerate(zip(axes, ["100 LHS points $X_D$", "$10^4$ uniform points"])):
            for m, name in names.items():
                plots.plot_band(ax, checkpoints, fill[m][:, j], name)
            ax.set(xlabel="number of queries", ylabel="estimated fill distance", title=f"Fig. 1 replica ({label})")
        axes[0].legend(fontsize=7)


def fig_fig2_benchmarks(ctx, seeds, regret, functions, dim: int, labels) -> None:
    """Fig. 2: simple regret of the six methods (:data:`METHODS`) on each benchmark function (``regret[function, method]``:
    seeds x evaluations), with the mean of each reference where it ran: BoTorch's LogEI, our EI with a fitted noise
    variance (``"gp-ei-nugget"``) and random search (the contrast of B1)."""
    with ctx.figure("fig2_benchmarks", seeds, 1, len(functions), figsize=(4.6 * len(functions), 3.3),
                    squeeze=False) as (fig, axes):
        for ax, fn in zip(axes[0], functions):
            evals = np.arange(1, regret[fn, METHODS[0]].shape[1] + 1)
            for m in METHODS:
                plots.plot_band(ax, evals, regret[fn, m], labels[m])
            for name, style in (("botorch-logei", "k--"), ("gp-ei-nugget", "k:"), (CONTRAST, "k-.")):
                if (fn, name) in regret:
                    reference = regret[fn, name]
                    ax.plot(evals, reference.mean(0), style, lw=1, label=f"{labels[name]} (mean of {len(reference)})")
            ax.set(xlabel="evaluations", ylabel="simple regret", title=f"{fn} (d = {dim})")
            ax.legend(fontsize=6)


def fig_fig5_beta_sensitivity(ctx, seeds, two, sup, exploit_plus, functions, labels) -> None:
    """Fig. 5: simple and cumulative regret of GP-UCB and GP-UCB+ with the TWO and the SUP beta
    (``two[function, method]``, ``sup[function, method]``: lists of traces), EXPLOIT+ beside them
    (``exploit_plus[function]``: seeds x evaluations of simple regret)."""
    with ctx.figure("fig5_beta_sensitivity", seeds, 2, len(functions), figsize=(4.6 * len(functions), 6),
                    squeeze=False) as (fig, axes):
        for j, fn in enumerate(functions):
            for m in ("gp-ucb", "gp-ucb+"):
                for rule, traces in (("TWO", two[fn, m]), ("SUP", sup[fn, m])):
                    simple = np.array([tr.simple_regret for tr in traces])
                    evals = np.arange(1, simple.shape[1] + 1)
                    plots.plot_band(axes[0, j], evals, simple, f"{labels[m]} {rule}")
                    plots.plot_band(axes[1, j], evals, np.array([tr.cumulative_regret for tr in traces]), f"{labels[m]} {rule}")
            plots.plot_band(axes[0, j], evals, exploit_plus[fn], labels["exploit+"], color="k")
            axes[0, j].set(title=f"{fn}: simple regret", xlabel="evaluations", ylabel="simple regret")
            axes[1, j].set(title=f"{fn}: cumulative regret", xlabel="evaluations", ylabel="cumulative regret")
            axes[0, j].legend(fontsize=6)


def fig_random_forest(ctx, seeds, mse, labels) -> None:
    """Figs. 3 and 6: cumulative and instantaneous test MSE of each method's queries (``mse[method]``, random
    search's included), and the cumulative excess over the lowest test MSE any run reached, which separates
    cumulative curves that are close at the scale of the total."""
    floor = min(float(np.min(mse[m])) for m in METHODS)
    with ctx.figure("fig3_fig6_random_forest", seeds, 1, 3, figsize=(13, 3.3)) as (fig, axes):
        for m in [*METHODS, CONTRAST]:
            evals = np.arange(1, mse[m].shape[1] + 1)
            plots.plot_band(axes[0], evals, np.cumsum(mse[m], axis=1), labels[m])
            plots.plot_band(axes[1], evals, np.cumsum(mse[m] - floor, axis=1), labels[m])
            plots.plot_band(axes[2], evals, mse[m], labels[m])
        axes[0].set(xlabel="evaluations", ylabel="cumulative test MSE", title="RF on Friedman #1 (stand-in; Figs. 3, 6 top)")
        axes[1].set(xlabel="evaluations", ylabel=f"cumulative (test MSE - {floor:.3f})",
                    title="excess over the lowest MSE of any run")
        axes[2].set(xlabel="evaluations", ylabel="test MSE of the query", title="instantaneous (Fig. 6 bottom)")
        axes[1].legend(fontsize=7)


def fig_sprinkler(ctx, seeds, best, labels, optimum: float) -> None:
    """Fig. 4: the best sprinkler value found so far by each method (``best[method]``, random search's included), beside the best
    known; a linear axis (the worst values of the initial design would otherwise set a log one)."""
    with ctx.figure("fig4_sprinkler", seeds, figsize=(5, 3.3)) as (fig, ax):
        for m in [*METHODS, CONTRAST]:
            plots.plot_band(ax, np.arange(1, best[m].shape[1] + 1), best[m], labels[m])
        ax.axhline(optimum, color="k", lw=0.8, ls=":", label="best known")
        ax.set(xlabel="evaluations", ylabel="best value found", title="Garden sprinkler (Fig. 4)")
        plots.keep_linear(ax)
        ax.legend(fontsize=6)
