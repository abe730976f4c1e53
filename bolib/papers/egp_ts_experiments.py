"""The experiments of notebook 000 (paper 000, EGP-TS), built from the profile settings.

Each builder takes the settings ``S`` of ``experiments/profiles/000_egpts.yaml`` and the seeds the
notebook passes, and returns the :class:`~bolib.experiment.Experiment` (or
:class:`~bolib.comparisons.Study`, or several) that ``notebooks/000_egpts.ipynb`` runs with
``ctx.run``; :func:`plan` lists all of them at one look of the seed stages, for :mod:`bolib.costs`.
Not imported by any job module: an edit here changes no cache key unless it changes the jobs built.
"""
from __future__ import annotations

import numpy as np

import bolib.papers.egp_ts as paper
from bolib import plots
from bolib.comparisons import Study
from bolib.experiment import Experiment, stage_seeds
from bolib.loop import bo_job
from bolib.papers.egp_ts_claims import KS, M_E4, horizons
from bolib.runtime import rng

#: the 4-kernel dictionary's single-kernel baselines (kernel, ARD) of Figs. 1, 3(a), 6 and 7
KERNEL4 = [("rbf", False), ("rbf", True), ("matern15", False), ("matern25", False)]
#: E3's kernels (Matérn-1/2 is the contrast)
E3_KERNELS = ["rbf", "matern25", "matern15", "matern05"]
#: E4's rules (EGP-TS with all weights recorded, the oracle, random search, each single member)
E4_RULES = ([{"rule": "egp-ts", "all_weights": True}, {"rule": "oracle"}, {"rule": "random"}]
            + [{"rule": "single", "member": j} for j in range(M_E4)])
#: RBF members of the exactly Bayesian setting of E2 and E6
E6_LENGTHSCALES = (0.03, 0.1, 0.3, 1.0)
#: E5's wrong lengthscales, a factor >= 3 from the truth 0.1, in a fixed random order
E5_WRONG = np.concatenate([np.geomspace(0.005, 0.033, 7), np.geomspace(0.3, 3.0, 8)])
E5_OTHERS = np.round(E5_WRONG, 6)[rng(0, "e5-order").permutation(15)]
#: E8's true function: one Matérn-3/2 random-feature draw per seed on [0, 1]^2
E8_DRAW = {"kernel": "matern15", "lengthscale": 0.1, "stream": "e8", "n_pairs": 2000, "certify": False}


def ts_common(S: dict) -> dict:
    """The Thompson-sampling maximiser settings shared by the TS methods."""
    return {"n_candidates": S["n_candidates"], "n_starts": S["n_starts"]}


def gp_ts(S: dict, kernel: str, ard: bool = False) -> dict:
    """GP-TS with one kernel (random features), refitted like the baselines."""
    return {"method": "rf-gp-ts", "settings": {**ts_common(S), "kernel": kernel, "ard": ard, "refit_every": S["baseline_refit"]}}


def egp_ts(S: dict, dictionary: str, refit_every: int) -> dict:
    """EGP-TS with ``dictionary``, refitted every ``refit_every`` evaluations."""
    return {"method": "egp-ts", "settings": {**ts_common(S), "dictionary": dictionary, "refit_every": refit_every}}


def method_variants(S: dict, dictionary: str, horizon: int, gp_ei: bool = True) -> dict:
    """The paper's methods for a dictionary ("four": Fig. 1 and 3(a); "rbf11": Figs. 2, 3(b), 4, 5); EXP3BO's horizon is the budget."""
    common = ts_common(S)
    variants = {"GP-EI (BoTorch)": {"method": "botorch-logei", "settings": {"raw_samples": S["ei_raw_samples"]}}} if gp_ei else {}  # slowest first
    variants |= {"EGP-TS": egp_ts(S, dictionary, S["egp_refit"]),
                 "BanditBO": {"method": "bandit-bo", "settings": {**common, "dictionary": dictionary, "refit_every": S["baseline_refit"]}},
                 "EXP3BO": {"method": "exp3-bo", "settings": {**common, "dictionary": dictionary, "refit_every": S["baseline_refit"],
                                                             "horizon": horizon}}}
    if dictionary == "four":
        variants |= {f"GP-TS {kernel}{'-ard' if ard else ''}": gp_ts(S, kernel, ard) for kernel, ard in KERNEL4}
    else:
        variants |= {"GP-TS rbf (fitted l)": gp_ts(S, "rbf"),
                     "FB-GP-TS": {"method": "fb-gp-ts", "settings": {**common, "steps": S["fb_steps"]}}}
    return variants


def robot_problems(S: dict) -> list[str]:
    """The robot-pushing problems of Fig. 3."""
    return [f"robot-push{d}" for d in S["robot_dims"]]


def nn_problems(S: dict) -> list[str]:
    """The neural-network tuning problems of Fig. 4."""
    return [f"mlp-{d}" for d in S["nn_datasets"]]


def e5_dictionary(M: int) -> tuple:
    """E5's dictionary of size ``M``: the truth 0.1 and the first M - 1 wrong lengthscales (nested in M)."""
    return tuple([0.1, *E5_OTHERS[:M - 1]])


def e1_information_gain(S: dict, seeds) -> Experiment:
    """E1 (Lemma 1): greedy information gain of each kernel in d = 1, 2, one candidate set per seed."""
    _, T_MIG, _ = horizons(S)
    return Experiment("000-e1-information-gain", paper.information_gain_job,
                      grid={"kernel": ["rbf", "matern25", "matern15", "white"], "dim": [1, 2], "seed": seeds},
                      fixed={"T": T_MIG})


def e3_derivative_tails(S: dict, seeds) -> Experiment:
    """E3 (Assumption 1, Lemma 3): derivative tails of random-feature prior draws, one replicate per seed."""
    return Experiment("000-e3-derivative-tails", paper.derivative_tail_job,
                      grid={"kernel": E3_KERNELS, "seed": seeds}, fixed={"n_draws": S["e3_draws"]})


def e4_theorem1(S: dict, seeds) -> Experiment:
    """E4 and E7 (Theorem 1, eq. 30, Lemma 4): the exactly Bayesian setting, every rule on each seed's draw."""
    T, _, _ = horizons(S)
    return Experiment("000-e4-theorem1", paper.rf_exact_job, grid={"seed": seeds}, fixed={"T": T}, variants=E4_RULES)


def e8_weights(S: dict, seeds) -> Experiment:
    """E8 (sanity check, not in the paper): practical EGP-TS weights on a Matérn-3/2 draw."""
    return Experiment("000-e8-weights", bo_job, grid={},
                      fixed={"benchmark": "gp-draw", "method": "egp-ts", "budget": S["e8_budget"], "n_init": S["n_init"],
                             "settings": {"dictionary": "four", "refit_every": S["egp_refit"],
                                          "n_candidates": S["n_candidates"], "n_starts": S["n_starts"]}},
                      variants=[{"seed": s, "benchmark_options": {**E8_DRAW, "draw_seed": s}} for s in seeds])


def e5_sqrt_m(S: dict, seeds) -> Experiment:
    """E5 (Theorem 1's sqrt(M) factor): nested dictionaries of size M around a fixed truth, EGP-TS and uniform draws."""
    T, _, _ = horizons(S)
    return Experiment("000-e5-sqrtM", paper.rf_exact_job, grid={"seed": seeds, "weight_power": [1.0, 0.0]},
                      fixed={"T": T, "rule": "egp-ts", "truth": 0.1},
                      variants=[{"lengthscales": e5_dictionary(m)} for m in S["m_values"]])


def e6_parallel(S: dict, seeds) -> tuple[Experiment, Experiment]:
    """E6 (Theorems 2 and 3): K synchronous and asynchronous workers on a 2-D grid, and random search."""
    T, _, _ = horizons(S)
    setting = {"T": T, "rule": "egp-ts", "dim": 2, "points_per_dim": 32, "lengthscales": E6_LENGTHSCALES}
    return (Experiment("000-e6-parallel", paper.rf_exact_job,
                       grid={"seed": seeds, "batch_size": KS, "mode": ["sync", "async"]}, fixed=setting),
            Experiment("000-e6-random", paper.rf_exact_job, grid={"seed": seeds}, fixed={**setting, "rule": "random"}))


def fig1(S: dict, seeds) -> Study:
    """Fig. 1 (Sec. 6): the 4-kernel dictionary on synthetic functions, with the refit ablation."""
    ablation = f"EGP-TS (refit every {S['baseline_refit']})"
    variants = method_variants(S, "four", S["budget"]) | {ablation: egp_ts(S, "four", S["baseline_refit"])}
    return Study("000-fig1", S["functions"], variants, seeds, fixed={"budget": S["budget"], "n_init": S["n_init"]})


def fig2(S: dict, seeds) -> Study:
    """Fig. 2 (Sec. 6): the 11-RBF dictionary on synthetic functions."""
    return Study("000-fig2", S["fig2_functions"], method_variants(S, "rbf11", S["budget"]), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"]})


def fig3(S: dict, seeds) -> tuple[Study, Study]:
    """Fig. 3 (a) and (b) (Sec. 6): robot pushing with the 4-kernel and the 11-RBF dictionary, one goal per seed."""
    robots = robot_problems(S)
    fixed = {"budget": S["robot_budget"], "n_init": S["n_init"]}
    return (Study("000-fig3", robots, method_variants(S, "four", S["robot_budget"]), seeds, fixed=fixed,
                  options=lambda s: {"goal_seed": s}),
            Study("000-fig3b", robots, method_variants(S, "rbf11", S["robot_budget"]), seeds, fixed=fixed,
                  options=lambda s: {"goal_seed": s}))


def fig4(S: dict, seeds) -> Study:
    """Fig. 4 (Sec. 6): neural-network tuning with the 11-RBF dictionary."""
    return Study("000-fig4", nn_problems(S), method_variants(S, "rbf11", S["nn_budget"]), seeds,
                 fixed={"budget": S["nn_budget"], "n_init": S["n_init"]},
                 options=lambda s: {"repeats": S["nn_repeats"], "epochs": S["nn_epochs"]})


def fig5(S: dict, seeds) -> list[Study]:
    """Fig. 5 (Sec. 6): synchronous parallel TS methods on Ackley-5d, one study per K."""
    return [Study(f"000-fig5-K{K}", ["ackley5-unit"], method_variants(S, "rbf11", S["parallel_budget"], gp_ei=False), seeds,
                  fixed={"budget": S["parallel_budget"], "n_init": S["n_init"], "mode": "sync", "batch_size": K})
            for K in S["parallel_K"]]


def fig6_7(S: dict, seeds) -> list[Study]:
    """Figs. 6 and 7 (App. E): EGP-EI against GP-EI with each preselected kernel, synthetic functions then robots."""
    v6 = {"EGP-EI": {"method": "egp-ei", "settings": {"n_candidates": S["n_candidates"]}}}
    for kernel, ard in KERNEL4:
        v6[f"GP-EI {kernel}{'-ard' if ard else ''}"] = {"method": "gp-ei", "settings": {"n_candidates": S["n_candidates"], "kernel": kernel, "ard": ard}}
    robot6 = [p for p in S["egpei_problems"] if p.startswith("robot")]
    synth6 = [p for p in S["egpei_problems"] if not p.startswith("robot")]
    fixed = {"budget": S["egpei_budget"], "n_init": S["n_init"]}
    return (([Study("000-fig6", synth6, v6, seeds, fixed=fixed)] if synth6 else [])
            + ([Study("000-fig7", robot6, v6, seeds, fixed=fixed, options=lambda s: {"goal_seed": s})] if robot6 else []))


def plan(S: dict, look: int = -1) -> list[Experiment]:
    """Every experiment notebook 000 runs at settings ``S`` on seeds from 0, each seed-stage list taken
    at stage ``look`` (0: the first, -1: the cap); no experiment depends on another's results."""
    def seeds(name):
        return stage_seeds(S[name], look)

    studies = [fig1(S, seeds("seeds")), fig2(S, seeds("seeds")), *fig3(S, seeds("robot_seeds")),
               fig4(S, seeds("nn_seeds")), *fig5(S, seeds("parallel_seeds")), *fig6_7(S, seeds("egpei_seeds"))]
    return [e1_information_gain(S, seeds("e1_seeds")),
            e3_derivative_tails(S, seeds("e3_replicates")),
            e4_theorem1(S, seeds("theory_seeds")),
            e8_weights(S, seeds("e8_seeds")),
            e5_sqrt_m(S, seeds("e5_seeds")),
            *e6_parallel(S, seeds("theory_seeds")),
            *(study.experiment() for study in studies)]


# ---------------------------------------------------------------- the regret figures and final tables
def dashed_baselines(label: str) -> dict:
    """Line style of a method in the regret figures: EGP methods solid, baselines dashed."""
    return {"ls": "-" if label.startswith("EGP") else "--"}


def final_table(traces, problems):
    """Final simple regret per method (rows) and problem (columns), mean ± SD over seeds."""
    import pandas as pd

    return pd.DataFrame({p: {k: f"{v.mean():.3g} ± {v.std(ddof=1):.2g}" for k, v in traces.at(p).items()}
                         for p in problems})


def regret_figure(ctx, traces, name: str, seeds, **plot) -> None:
    """One panel of simple regret per problem (``traces.plot``), made, saved and shown by ``ctx.figure``."""
    with ctx.figure(name, seeds, 1, len(traces.problems), figsize=(4.6 * len(traces.problems), 3.3),
                    squeeze=False) as (fig, axes):
        traces.plot(axes[0], style=dashed_baselines, **plot)



# ---------------------------------------------------------------- the theory figures (§5), one function each
def fig_e1_information_gain(ctx, gain) -> None:
    """E1: the greedy information gain gamma_T of each (kernel, d) against T (means over seeds)."""
    seeds = ctx.seeds(len(next(iter(gain.values()))))
    with ctx.figure("e1_information_gain", seeds, figsize=(5, 3.3)) as (fig, ax):
        for (kernel, d), g in gain.items():
            ax.plot(np.arange(1, len(g[0]) + 1), np.mean(g, axis=0), label=f"{kernel}, d={d} (mean)",
                    ls="-" if d == 1 else "--")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel=r"greedy $\hat\gamma_T$", title="E1: information gain")
        ax.legend(fontsize=6)


def fig_e3_assumption1(ctx, seeds, tails, kernels) -> None:
    """E3 (Assumption 1): the survival function of the largest derivative L_max of prior draws, per kernel,
    standardised, beside an exponential tail."""
    with ctx.figure("e3_assumption1", seeds, figsize=(5, 3.3)) as (fig, ax):
        for kernel in kernels:
            L = np.sort(np.concatenate([o["L_max"] for o in tails[kernel]]))
            survival = 1 - np.arange(1, len(L) + 1) / (len(L) + 1)
            ax.plot((L - np.median(L)) / L.std(), survival, label=kernel)
        z = np.linspace(0, 4, 50)
        ax.plot(z, 0.5 * np.exp(-z * np.sqrt(2)), "k:", lw=0.8, label="exponential tail (reference)")
        ax.set(yscale="log", xlim=(0, None), xlabel="(L - median) / SD", ylabel=r"$\Pr(L_{max} > L)$",
               title="E3: derivative tails")
        ax.legend(fontsize=6)


def fig_e4_theorem1(ctx, seeds, BR, bound, egp_runs) -> None:
    """E4 (Theorem 1): (a) Bayesian regret of EGP-TS, the oracle, random search and every single member,
    beside the eq. 30 bound; (b) the weight of the true member and sum_m (w_t^m)^2; (c) how often each
    member is drawn."""
    t = np.arange(1, len(bound) + 1)
    W_t = np.array([o["weights_t"] for o in egp_runs])
    M = W_t.shape[2]
    with ctx.figure("e4_theorem1", seeds, 1, 3, figsize=(14, 3.4)) as (fig, axes):
        bands = {k: plots.plot_band(axes[0], t, BR[k], k) for k in ["egp-ts", "oracle", "random"]}
        for j in range(M):  # thin lines: the members' means
            axes[0].plot(t, BR[f"single-{j}"].mean(0), lw=0.8, ls="--", label=f"single-{j} (mean)")
        for k in ("egp-ts", "oracle"):
            axes[0].plot(t, BR[k].mean(0), lw=0.8, ls=":", color=bands[k].get_color(), label=f"{k} (mean)")
        axes[0].plot(t, bound, "k:", lw=1.5, label="eq. 30 bound on the mean")
        axes[0].set(xscale="log", yscale="log", xlabel="T", ylabel="cumulative regret R(T); BR(T) is its mean",
                    title="E4 (a)")
        axes[0].legend(fontsize=5, loc="upper left")
        plots.plot_band(axes[1], t, np.array([o["w_star"] for o in egp_runs]), r"$w^{m^*}_t$")
        plots.plot_band(axes[1], t, np.array([o["w_square"] for o in egp_runs]), r"$\sum_m (w_t^m)^2$")
        for j in range(M):
            axes[1].plot(t, W_t[:, :, j].mean(0), lw=0.8, ls=":", label=f"mean $w_t^{j}$")
        axes[1].set(xscale="log", xlabel="t", ylabel="weight", title="E4 (b): calibration and concentration")
        axes[1].legend(fontsize=6)
        chosen = np.array([o["member"] for o in egp_runs])
        for j in range(M):
            axes[2].plot(t, np.cumsum((chosen == j).mean(0)) / t, label=f"member {j}")
        axes[2].axhline(1 / M, color="k", lw=0.8, ls=":", label="1/M (uniform draws)")
        axes[2].set(xscale="log", xlabel="t", ylabel="share of draws up to t", title="E4 (c): members drawn")
        axes[2].legend(fontsize=6)


def fig_e8_weights(ctx, W, labels, n_init: int) -> None:
    """E8: EGP-TS's weight of each dictionary member (``W``: seeds x proposals x members) against evaluations,
    the mean over seeds stacked (the weights of one proposal sum to 1; a member's weight jumps between
    near 0 and near 1 from seed to seed, so per-member medians and quartiles would not show the shares)."""
    evals = np.arange(n_init + 1, n_init + W.shape[1] + 1)
    with ctx.figure("e8_weights_practical", ctx.seeds(len(W)), figsize=(5, 3.3)) as (fig, ax):
        ax.stackplot(evals, W.mean(axis=0).T, labels=[f"{label} (mean over {len(W)} seeds)" for label in labels],
                     colors=[plots.label_colour(ax, label) for label in labels], alpha=0.8)
        ax.set(xlabel="evaluation", ylabel="weight (stacked)", ylim=(0, 1), xlim=(evals[0], evals[-1]),
               title="E8: Matérn-3/2 truth, 4-kernel dictionary")
        ax.legend(fontsize=6, loc="lower left")


def fig_e5_sqrt_m(ctx, seeds, Ms, table) -> None:
    """E5: BR(T) against the dictionary size M for EGP-TS and uniform member draws (``table[1.0]``,
    ``table[0.0]``: seeds x M), beside sqrt(M)."""
    with ctx.figure("e5_sqrt_m", seeds, figsize=(4.6, 3.3)) as (fig, ax):
        plots.plot_band(ax, Ms, table[1.0], "EGP-TS")
        plots.plot_band(ax, Ms, table[0.0], "uniform member draws (contrast)", ls="--")
        ax.plot(Ms, np.median(table[1.0], axis=0)[0] * np.sqrt(Ms / Ms[0]), "k:", label=r"$\propto\sqrt{M}$")
        ax.set(xscale="log", yscale="log", xlabel="M", ylabel="BR(T)", title="E5: dictionary size")
        ax.legend(fontsize=7)


def fig_e6_parallel(ctx, seeds, BR, BR_random, B: float, rho) -> None:
    """E6 (Theorems 2-3): Bayesian regret of synchronous and asynchronous batches of K against evaluations,
    and, per mode, BR_K beside the heuristic sqrt(rho_K) BR_1 + (K - 1) 2B (means over seeds)."""
    t = np.arange(1, BR_random.shape[1] + 1)
    with ctx.figure("e6_parallel", seeds, 1, 3, figsize=(14, 3.4)) as (fig, axes):
        for K in KS:
            plots.plot_band(axes[0], t, BR["sync", K], f"sync K={K}")
            plots.plot_band(axes[0], t, BR["async", K], f"async K={K}", ls="--")
        plots.plot_band(axes[0], t, BR_random, "random search", color="k")
        axes[0].set(xscale="log", yscale="log", xlabel="evaluations", ylabel="BR", title="E6: regret vs evaluations")
        axes[0].legend(fontsize=6)
        for ax, mode in zip(axes[1:], ("sync", "async")):
            for K in KS[1:]:
                line = ax.plot(t, BR[mode, K].mean(0), label=f"BR_K, K={K} (mean)")[0]
                ax.plot(t, np.sqrt(rho[K]) * BR[mode, 1].mean(0) + (K - 1) * 2 * B, ls=":", color=line.get_color(),
                        label=rf"heuristic $\sqrt{{\rho_K}}BR_1+(K-1)2B$, K={K}")
            ax.plot(t, BR_random.mean(0), "k-", lw=0.8, label="random search (mean)")
            ax.set(xlabel="evaluations", ylabel="BR", title=f"E6: heuristic reading of Theorem {2 if mode == 'async' else 3} ({mode})")
            ax.legend(fontsize=6)


def fig_fig5_parallel(ctx, studies, traces, Ks) -> None:
    """Fig. 5: simple regret per round of the parallel methods on Ackley-5d, one panel per batch size K."""
    with ctx.figure("fig5_parallel", studies[0].seeds, 1, len(studies), figsize=(4.6 * len(studies), 3.3),
                    squeeze=False) as (fig, axes):
        for ax, K, problem_traces in zip(axes[0], Ks, traces):
            problem_traces.plot([ax], by="round", style=dashed_baselines, titles={"ackley5-unit": f"Ackley-5d, K = {K}"})
