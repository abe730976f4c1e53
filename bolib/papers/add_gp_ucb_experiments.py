"""The experiments of notebooks/002_addgpucb.ipynb (paper 002, Add-GP-UCB), built from its settings.

Each builder takes the settings ``S`` of ``experiments/profiles/002_addgpucb.yaml`` and the seeds the
notebook's ``ctx.staged`` passes, and returns the :class:`~bolib.comparisons.Study` (or the studies, by
panel or task) that the notebook runs with ``ctx.run``; :func:`plan` lists all of them at one look of
the seed stages, for :mod:`bolib.costs`. What the notebook computes in its own kernel (the theory
checks) is not a job and is not here. No job imports this module: an edit here changes no cache key
unless it changes the jobs built.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bolib import plots
from bolib.comparisons import Study
from bolib.experiment import Experiment, stage_seeds
from bolib.papers.add_gp_ucb_claims import C5_NOISE, FIG5, acquisition_budget, configs, decomp_label, key, variants


def _grouping(group_dim: int):
    """Per-seed benchmark options of the synthetic functions: a random grouping of the coordinates into
    groups of ``group_dim``, drawn from the seed (the same for every method on that seed)."""
    return lambda seed: {"group_dim": group_dim, "perm_seed": seed}


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
                         fixed={"budget": S["fig5_budget"], "n_init": S["n_init"]})
            for bench, methods in fig5_methods(S).items()}


def c5_arms(S: dict) -> dict:
    """The arms of the C5 runs: Add-* with the true groups of 2 (B / M per group), GP-UCB (full SE, B), RAND."""
    D = S["c5_dim"]
    return {
        "Add-*": {"method": "add-gp-ucb", "settings": {
            "decomposition": "known", "group_evals": math.ceil(acquisition_budget(S, D) / (D // 2))}},
        "GP-UCB": {"method": "add-gp-ucb", "settings": {
            "decomposition": "full", "group_evals": acquisition_budget(S, D)}},
        "RAND": {"method": "random"},
    }


def c5(S: dict, seeds: Sequence[int]) -> Study:
    """Theorem 5: regret on draws from the additive GP prior, one draw per seed (claims C5-regret, C5-slope)."""
    D = S["c5_dim"]
    return Study(f"c5-add-gp-draw-{D}", ["add-gp-draw"], c5_arms(S), seeds,
                 fixed={"budget": S["c5_budget"], "n_init": S["n_init"], "dim": D, "noise_std": C5_NOISE},
                 options=lambda seed: {"group_dim": 2, "lengthscale": 0.25, "draw_seed": seed})


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
               cseq(S, stage_seeds(S["seq_seeds"], look)),
               *fig5(S, stage_seeds(S["fig5_seeds"], look)).values(),
               c5(S, stage_seeds(S["c5_seeds"], look)),
               dragonfly(S, stage_seeds(S["dragonfly_seeds"], look))]
    return [study.experiment() for study in studies]


__all__ = ["c5", "c5_arms", "cseq", "decomp", "decomp_variants", "dragonfly", "fig3", "fig5", "fig5_methods", "plan",
           "seq_variants"]


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


def fig_c4_gain(ctx, seeds, gains, noise: float) -> None:
    """C4 (Theorem 5): the greedy information gain of each kernel on D = 20, d = 2 pools (``gains[name]``:
    pools x T), beside the cap T/2 log(1 + 1/eta^2) and (log T)^3 through the additive gain at T/3."""
    T = next(iter(gains.values())).shape[1]
    steps, window = np.arange(1, T + 1), np.arange(T // 3, T + 1)
    with ctx.figure("c4_gain", seeds, figsize=(4.5, 3.2)) as (fig, ax):
        for name, curves in gains.items():
            plots.plot_band(ax, steps, curves, f"{name} kernel")
        ax.plot(steps, 0.5 * steps * np.log1p(1 / noise), "k--", lw=0.8, label="cap T/2 log(1 + 1/eta^2)")
        polylog = np.log(window) ** 3 * np.median(gains["additive"][:, T // 3 - 1]) / np.log(T // 3) ** 3
        ax.plot(window, polylog, "k:", lw=1, label="(log T)^3 through the additive gain at T/3")
        ax.set(xlabel="T", ylabel="greedy information gain", title="D = 20, d = 2")
        ax.legend(fontsize=6)


def fig_c4_dimension(ctx, seeds, dims, gains, n: int) -> None:
    """C4-sub: the information gain of the additive kernel and the sum of its components' gains against D
    (``gains``: rows per D of (additive, sum of components))."""
    with ctx.figure("c4_dimension", seeds, figsize=(4, 3)) as (fig, ax):
        ax.plot(dims, gains[:, 0], "o-", label="gain of the additive kernel")
        ax.plot(dims, gains[:, 1], "s--", label="sum of the components' gains")
        ax.set(yscale="log", xlabel="D (d = 2)", ylabel="information gain of the set", title=f"{n} uniform points")
        plots.plain_log_ticks(ax, dims)
        ax.legend(fontsize=6)


def fig_c8_spectra(ctx, seeds, spectra, gaps) -> None:
    """C8: eigenvalue decay of K/n for SE and Matérn-1/2 kernels in d = 1, 2, 3 (``spectra[d, name]``), and the
    tails of the spectrum of a sum of two kernels against those of the union of their spectra (``gaps``)."""
    with ctx.figure("c8_spectra", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for d, colour in zip((1, 2, 3), ("C0", "C1", "C2")):
            for name, style in (("rbf", "-"), ("matern05", ":")):
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


def fig_table1_ratio(ctx, exponent) -> None:
    """Table 1 (Matérn nu = 2.5): the ratio of Add-GP-UCB's regret bound to GP-UCB's against T, for
    d = 1, 2, 3 and D = 10, 20 (``exponent(nu, d)``: the table's exponent of T)."""
    Ts = np.logspace(1, 6, 60)
    with ctx.figure("table1_ratio", [0], figsize=(4.5, 3.2)) as (fig, ax):
        for D in (10, 20):
            for d in (1, 2, 3):
                ax.plot(Ts, 2.0 ** (d - D) * np.sqrt(D) * Ts ** (exponent(2.5, d) - exponent(2.5, D)), label=f"d = {d}, D = {D}")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="Add bound / GP-UCB bound", title="Table 1, Matern nu = 2.5")
        ax.legend(fontsize=6)


def fig_acquisition(ctx, seeds, dims, gaps, times) -> None:
    """C-acq (Sec. 4.2): the mean gap to the acquisition's maximum of each maximiser against D (``gaps[label]``,
    one value per D) and the CPU seconds of the two DIRECT routes (``times[label]``)."""
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


def fig_c5_regret(ctx, seeds, traces, cumulative, title: str) -> None:
    """C5 (Theorem 5): simple regret S_T and R_T / T of each arm on additive GP draws."""
    with ctx.figure("c5_regret", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        traces.plot([axes[0]], titles={"add-gp-draw": title})
        for label, curves in cumulative.items():
            t = np.arange(1, curves.shape[1] + 1)
            plots.plot_band(axes[1], t, curves / t, label)
        axes[1].set(xlabel="evaluations", ylabel="R_T / T", title="R_T / T")
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


def fig_cseq(ctx, seeds, traces, config, T: int) -> None:
    """Add-GP-UCB against its sequential-group variant (Alg. 4): simple regret S_T and cumulative regret R_T."""
    with ctx.figure(f"cseq_{key(config)}", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        traces.plot([axes[0]], titles={"add-3modal": f"S_T, {config}"})
        for label in traces.labels:
            plots.plot_band(axes[1], np.arange(1, T + 1), traces.curves("add-3modal", label, value="cumulative_regret"), label)
        axes[1].set(xlabel="evaluations", ylabel="R_T", title=f"R_T, {config}")
        axes[1].legend(fontsize=6)
        axes[0].set_yscale("log")


def fig_fig5_standins(ctx, seeds, traces, default_accuracy: float) -> None:
    """Fig. 5 stand-ins: the best value found so far by each method on the supernova and face-cascade
    stand-ins, the cascade's default thresholds beside them."""
    with ctx.figure("fig5_standins", seeds, 1, 2, figsize=(9, 3.2)) as (fig, axes):
        for ax, (bench, tr) in zip(axes, traces.items()):
            for label in tr.labels:
                best = np.maximum.accumulate(tr.curves(bench, label, value="f"), axis=1)
                plots.plot_band(ax, np.arange(1, best.shape[1] + 1), best, label)
            ax.set(xlabel="evaluations", ylabel="best value found", title=f"{bench} (stand-in)")
        axes[1].axhline(default_accuracy, color="k", ls="--", lw=0.8, label="default thresholds")
        for ax in axes:
            ax.legend(fontsize=6)
