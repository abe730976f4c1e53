"""The experiments of notebook ``003_bore`` (paper 003: BORE, BORE++ and batch BORE, arXiv:2209.10715),
built from its profile settings ``S``: the notebook runs what these builders return, and :func:`plan`
lists every experiment it runs at one look of its seed stages (for :mod:`bolib.costs`). Every
parameter comes from ``S`` and the seeds; no experiment depends on the results of another.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bolib import plots
from bolib.comparisons import Study, Traces
from bolib.experiment import Experiment, stage_seeds
from bolib.papers import bore as pb
from bolib.papers.bore_claims import FIG1_NAMED

#: rule of :func:`bolib.papers.bore.finite_run` -> its label (the theory runs of §5)
LABELS = {"bore": "BORE (PLS)", "bore++": "BORE++", "bore-ts": "BORE-TS", "bore++-moving": "BORE++ (moving tau)",
          "gp-ucb": "GP-UCB", "uniform": "uniform"}

#: the long Theorem 4 runs with Theorem 1's beta_t: their contrast stops learning after the first half of the
#: rounds, past the first ~1,200 observations in which p_hat_t is uniform on these testbeds (§5.6's table)
LONG_FROZEN_AFTER = 0.5

#: Figure 1: the paper's per-problem exceptions (activation, network steps, SVGD steps) and our sixth panel's dimension
ACTIVATION = {"hartmann3": "elu", "six-hump-camel": "elu"}
NET_STEPS = {"six-hump-camel": 200}
SVGD_STEPS = {"hartmann3": 500}
DIMS = {"styblinski-tang": 5}  # our guess for the sixth panel: Styblinski-Tang in 5-D


def theory(S: dict, trials: Sequence[int], batch_trials: Sequence[int]) -> tuple[Experiment, ...]:
    """§5 (Theorems 1-4, App. A-C): the theory-testbed and Theorem 4 runs, in the order the notebook runs them."""
    trials, batch_trials = list(trials), list(batch_trials)
    T = S["theory_T"]
    theory_runs = Experiment("003-theory", pb.finite_run, grid={"rule": list(LABELS), "seed": trials},
                             fixed={"T": T})
    batch = Experiment("003-theorem4", pb.batch_run, grid={"rule": ["bore++", "uniform"], "M": S["batch_sizes"],
                                                           "seed": batch_trials},
                       fixed={"T": S["batch_rounds"]})
    batch_fixed = Experiment("003-theorem4-fixed-beta", pb.batch_run,
                             grid={"M": S["batch_sizes"], "seed": batch_trials},
                             fixed={"rule": "bore++", "T": S["batch_rounds"], "beta": float(S["batch_beta"])})
    batch_equal = Experiment("003-theorem4-equal", pb.batch_run, grid={"seed": batch_trials},
                             fixed={"rule": "bore++", "M": 1, "T": max(S["batch_sizes"]) * S["batch_rounds"],
                                    "beta": float(S["batch_beta"])})
    batch_long = Experiment("003-theorem4-long", pb.batch_run,
                            grid={"rule": ["bore++", "bore++-frozen"], "seed": batch_trials},
                            fixed={"frozen_after": LONG_FROZEN_AFTER},
                            variants=[{"M": M, "T": S["t4_theory_obs"] // M} for M in S["batch_sizes"]])
    fixed_long = Experiment("003-theorem4-fixed-beta-long", pb.batch_run,
                            grid={"rule": ["bore++", "bore++-frozen"], "seed": batch_trials},
                            fixed={"beta": float(S["batch_beta"])},
                            variants=[{"M": M, "T": S["rate_T"] // M} for M in S["batch_sizes"]])
    bayes = Experiment("003-appb-bayes", pb.bayes_ts_run, grid={"rule": list(pb.BAYES_RULES), "seed": trials},
                       fixed={"T": T})
    theory_long = Experiment("003-theory-long", pb.finite_run,
                             grid={"rule": ["bore++", "bore++-moving", "bore", "uniform"], "seed": trials},
                             fixed={"T": S["rate_T"]})
    return theory_runs, batch, batch_fixed, bayes, theory_long, batch_equal, batch_long, fixed_long


#: Figure 1's SVGD ablation (ours): label -> batch BORE's (target, space); the first is the paper's reading
#: (eq. 26's log class probability, the kernel on the search space), the others change one or both choices
SVGD_VARIANTS = {"batch BORE": ("prob", "x"), "batch BORE (logit target)": ("logit", "x"),
                 "batch BORE (SVGD in logit coordinates)": ("prob", "logit"),
                 "batch BORE (logit target, logit coordinates)": ("logit", "logit")}


def fig1(S: dict, seeds: Sequence[int]) -> dict[str, dict[str, Study]]:
    """§6.1, Figure 1: batch BORE against q-EI and LP-EI on the synthetic problems; per problem two studies,
    ``"batch BORE"`` (experiment ``003-fig1-bore-<problem>``; on the two problems the paper names,
    :data:`bolib.papers.bore_claims.FIG1_NAMED`, with the SVGD variants of :data:`SVGD_VARIANTS` and random
    search, their contrast) and ``"GP"`` (``003-fig1-gp-<problem>``: q-EI and LP-EI, whose fits are over 90%
    of the figure's CPU-hours, so that a partial run can leave them out)."""
    n_init, rounds, q = S["fig1_n_init"], S["fig1_rounds"], S["fig1_batch"]
    refits = {"refit_growth": S["gp_refit_growth"], "refit_after": S["gp_refit_after"],
              "refit_until": S["gp_refit_until"]} if S["gp_refit_growth"] else {}
    mc = {"mc_samples": S["qei_mc_samples"]} if S["qei_mc_samples"] else {}
    warm = {"warm_start": True} if S["qei_warm_start"] else {}

    def batch_bore(problem: str, target: str, space: str) -> dict:
        return {"method": "batch-bore",
                "settings": {"activation": ACTIVATION.get(problem, "relu"), "steps": NET_STEPS.get(problem, 100),
                             "svgd_steps": min(S["svgd_steps"], SVGD_STEPS.get(problem, 1000)),
                             "target": target, "space": space}}

    def variants(problem: str) -> dict:
        if problem not in FIG1_NAMED:
            return {"batch BORE": batch_bore(problem, *SVGD_VARIANTS["batch BORE"])}
        return {**{label: batch_bore(problem, *choice) for label, choice in SVGD_VARIANTS.items()},
                "random search": {"method": "random"}}  # the ablation's contrast

    gp = {"q-EI": {"method": "botorch-logei",
                   "settings": {"num_restarts": S["qei_restarts"], "raw_samples": S["qei_raw_samples"], **mc, **warm,
                                **refits}},
          "LP-EI": {"method": "lp-ei",
                    "settings": {"n_candidates": S["lpei_candidates"], "maxiter": S["lpei_maxiter"], **refits}}}

    def study(problem: str, family: str, competitors: dict) -> Study:
        return Study(f"003-fig1-{'bore' if family == 'batch BORE' else 'gp'}-{problem}", [problem], competitors,
                     seeds, fixed={"budget": n_init + rounds * q, "n_init": n_init, "mode": "sync", "batch_size": q,
                                   **({"dim": DIMS[problem]} if problem in DIMS else {})})

    return {problem: {"batch BORE": study(problem, "batch BORE", variants(problem)), "GP": study(problem, "GP", gp)}
            for problem in S["fig1_problems"]}


def joined(parts: Sequence[Traces]) -> Traces:
    """The traces of several studies of the same problems as one :class:`~bolib.comparisons.Traces`."""
    return Traces({key: runs for part in parts for key, runs in part.runs.items()},
                  list(dict.fromkeys(problem for part in parts for problem in part.problems)),
                  [label for part in parts for label in part.labels])


def decidable(ctx, claim_id: str, values: dict) -> bool:
    """Whether every run a declared comparison names (method, competitors, contrast) is among ``values``: a
    partial run that left some of them out leaves the claim undecided."""
    declared = ctx.claims.declared.get(claim_id)
    if declared is None:
        return False
    params = declared.params
    named = {params["method"], *params["competitors"], *([params["contrast"]] if params.get("contrast") else [])}
    return named <= set(values)


def fig1_run(ctx, S: dict) -> dict[str, Traces]:
    """§6.1: Figure 1 in the seed stages of ``fig1_seeds`` (every problem's studies to the executor together; the
    next stage only while an F1 claim is undecided); per problem the traces of both families, or of those a
    partial run computed."""
    families = fig1(S, [])

    def run(seeds) -> dict[str, Traces]:
        traces = ctx.collect({(problem, family): st for problem, fams in fig1(S, seeds).items()
                              for family, st in fams.items()})
        return {problem: joined([traces[problem, family] for family in fams if (problem, family) in traces])
                for problem, fams in families.items() if any((problem, family) in traces for family in fams)}

    def values(traces: dict[str, Traces]) -> dict:
        return {claim: tr.at(problem) for problem, tr in traces.items()
                for claim in (f"F1-{problem}", f"F1-target-{problem}", f"F1-space-{problem}")
                if decidable(ctx, claim, tr.at(problem))}

    return ctx.staged(S["fig1_seeds"], run, values) or {}


def appe(S: dict, seeds: Sequence[int]) -> dict[int, Study]:
    """§6.2, App. E: batch BORE against batch BORE++ (random features) on Rosenbrock, one study per dimension."""
    return {d: Study(f"003-appe-d{d}", ["rosenbrock"], {
        "batch BORE": {"method": "batch-bore-rff", "settings": {"svgd_steps": S["appe_svgd_steps"]}},
        "batch BORE++": {"method": "batch-bore++-rff", "settings": {"svgd_steps": S["appe_svgd_steps"]}}},
        seeds, fixed={"dim": d, "budget": 10 + S["appe_rounds"] * S["appe_batch"], "n_init": 10,
                      "mode": "sync", "batch_size": S["appe_batch"], "noise_std": 0.01})
        for d in S["appe_dims"]}


def regret_after_design(trace, n_init: int = 10) -> float:
    """App. E's measure: the cumulative regret of a run's evaluations after its ``n_init`` initial points."""
    return float((trace.optimum - trace.f)[n_init:].sum())


def relative_gain(values: dict) -> np.ndarray:
    """Per trial, how much less regret batch BORE++ has than batch BORE, relative to batch BORE's
    (App. E's claim that the gain grows with the dimension)."""
    return (values["batch BORE"] - values["batch BORE++"]) / values["batch BORE"]


def appe_run(ctx, S: dict) -> dict[int, Traces]:
    """§6.2: App. E in the seed stages of ``appe_seeds``, every dimension's study to the executor together. Claims:
    E-d<min> (batch BORE++ against batch BORE at the smallest dimension), E-d<max> (the relative gain at the
    largest dimension against the smallest) and E-gain-d4 (at d = 4 against d = 3). Every dimension or none: a
    partial run that leaves out one leaves the claims undecided."""
    dims = list(appe(S, []))

    def run(seeds) -> dict[int, Traces]:
        return ctx.collect(appe(S, seeds))

    def gain(traces, d) -> np.ndarray:
        return relative_gain(traces[d].at("rosenbrock", regret_after_design))

    def values(traces) -> dict:
        if set(traces) != set(dims):
            return {}
        wanted = {f"E-d{min(dims)}": lambda: traces[min(dims)].at("rosenbrock", regret_after_design),
                  f"E-d{max(dims)}": lambda: {f"d = {d}": gain(traces, d) for d in (max(dims), min(dims))},
                  "E-gain-d4": lambda: {f"d = {d}": gain(traces, d) for d in (4, 3)}}
        return {claim: make() for claim, make in wanted.items() if claim in ctx.claims.declared}

    return ctx.staged(S["appe_seeds"], run, values) or {}


def on_faces(trace, n_init: int = 10, tol: float = 1e-9) -> float:
    """The share of a run's coordinates after its ``n_init`` initial points that lie on a face of the unit cube
    (0 or 1 within ``tol``): where the SVGD target is flat, only the repulsion moves the clipped particles."""
    X = np.asarray(trace.X)[n_init:]
    return float(np.mean((X <= tol) | (X >= 1 - tol)))


def best_lap(trace) -> float:
    """The racing line's best lap time in a run (the objective is minus the lap time)."""
    return float(-trace.f.max())


def fig2_methods(S: dict) -> dict[str, dict]:
    """The sequential methods of Figure 2 (label -> bo_job parameters), as §6.3 and §6.4 run them."""
    acq_settings = {"n_candidates": S["race_candidates"], "maxiter": S["race_maxiter"]}
    return {"BORE (MLP)": {"method": "bore", "settings": acq_settings},
            "BORE (PLS)": {"method": "bore-pls", "settings": acq_settings},
            "BORE++": {"method": "bore++", "settings": acq_settings},
            "GP-EI": {"method": "gp-ei", "settings": {"ard": True, **acq_settings}},
            "GP-UCB": {"method": "gp-ucb", "settings": {"ard": True, "beta": 9.0, **acq_settings}},
            "random": {"method": "random"}}


def racing(S: dict, seeds: Sequence[int]) -> Study:
    """§6.3, Figure 2c stand-in: the sequential methods of Figure 2 on the racing line."""
    return Study("003-racing", ["racing-line"], fig2_methods(S), seeds,
                 fixed={"budget": S["race_budget"], "n_init": S["race_n_init"]})


def racing_run(ctx, S: dict) -> Traces | None:
    """§6.3: the racing line in the seed stages of ``race_seeds``; claims R-gp, R-pp, F2-pls-random-racing-line and
    F2-pp-similar-racing-line on the best lap time (None if a partial run left it out)."""
    return ctx.staged(S["race_seeds"], lambda seeds: ctx.collect(racing(S, seeds)),
                      lambda traces: {claim: traces.at("racing-line", best_lap) for claim in
                                      ("R-gp", "R-pp", "F2-pls-random-racing-line", "F2-pp-similar-racing-line")})


def repeat_seed(seed: int) -> dict:
    """Benchmark options of a mini-FCNet run: the trial's seed enters the choice of the training a query returns."""
    return {"repeat_seed": seed}


def fig2(S: dict, seeds: Sequence[int]) -> dict[str, Study]:
    """§6.4, Figure 2a, b, d stand-ins: the sequential methods (and TPE) on mini-FCNet and the digits surrogate."""
    tpe = {"TPE": {"method": "optuna-tpe"}}
    return {problem: Study(f"003-fig2-{problem}", [problem],
                           {**fig2_methods(S), **(tpe if problem == "digits-nas" else {})},
                           seeds,
                           fixed={"budget": S["fig2_nas_budget" if problem == "digits-nas" else "fig2_fcnet_budget"],
                                  "n_init": S["fig2_n_init"]},
                           options=repeat_seed if problem.startswith("fcnet") else None)
            for problem in S["fig2_problems"]}


def fig2_run(ctx, S: dict) -> dict[str, Traces]:
    """§6.4: Figure 2's tuning stand-ins in the seed stages of ``fig2_seeds``, every problem's study to the executor
    together; claims F2-*-<problem> on the final simple regret."""
    def values(traces) -> dict:
        return {claim: tr.at(problem) for problem, tr in traces.items()
                for claim in (f"F2-pp-{problem}", f"F2-mlp-{problem}", f"F2-ei-{problem}", f"F2-pls-random-{problem}",
                              f"F2-pp-similar-{problem}", f"F2-only-mlp-{problem}", f"F2-only-pp-{problem}")
                if claim in ctx.claims.declared}

    return ctx.staged(S["fig2_seeds"], lambda seeds: ctx.collect(fig2(S, seeds)), values) or {}


def plan(S: dict, look: int = -1) -> list[Experiment]:
    """Every experiment notebook ``003_bore`` runs at settings ``S`` on seeds from 0, each staged
    experiment (§6) stopped at stage ``look`` of its seed setting (0: the first, -1: the cap).

    The theory and Theorem 4 runs (§5) always run on the last stage of ``theory_trials`` and
    ``batch_trials`` (their coverage and rate claims need all those trials; their comparisons look
    at the first trials of those runs), so they are the same at every look.
    """
    trials = stage_seeds(S["theory_trials"], -1)
    batch_trials = stage_seeds(S["batch_trials"], -1)
    return [*theory(S, trials, batch_trials),
            *(st.experiment() for fams in fig1(S, stage_seeds(S["fig1_seeds"], look)).values()
              for st in fams.values()),
            *(st.experiment() for st in appe(S, stage_seeds(S["appe_seeds"], look)).values()),
            racing(S, stage_seeds(S["race_seeds"], look)).experiment(),
            *(st.experiment() for st in fig2(S, stage_seeds(S["fig2_seeds"], look)).values())]


__all__ = ["ACTIVATION", "DIMS", "LABELS", "NET_STEPS", "SVGD_STEPS", "appe", "appe_run", "best_lap",
           "decidable", "fig1", "fig1_run", "fig2", "fig2_methods", "fig2_run", "joined", "on_faces", "plan", "racing",
           "racing_run", "regret_after_design", "relative_gain", "repeat_seed", "theory"]


# --------------------------------------------------------------------------------------------------
# Figures: one function per figure of the notebook, each made, saved and shown by ``ctx.figure``.

def fig_band_ratio(ctx, trials, ratios) -> None:
    """Theorem 1: per trial, the largest |pi* - pi_hat_t| over the domain and t, divided by
    beta_t sigma_t (Theorem 1's band) and by sigma_t alone (a one-sigma band), as histograms."""
    with ctx.figure("band_ratio", trials, 1, 2, figsize=(8, 3)) as (fig, axes):
        for ax, column, colour, xlabel, title in (
                (axes[0], 0, "C0", "largest |pi* - pi_hat_t| / (beta_t sigma_t)", "Theorem 1's band"),
                (axes[1], 1, "C1", "largest |pi* - pi_hat_t| / sigma_t", "one-sigma band (beta = 1)")):
            ax.hist(ratios[:, column], bins=20, color=colour, label="trials")
            ax.axvline(1, color="k", lw=1, label="ratio 1 (the band holds left of it)")
            ax.set(xlabel=xlabel, ylabel="trials", title=title)
            ax.legend(fontsize=7)


def fig_theory_regret(ctx, trials, runs, testbed, grid, pi, f) -> None:
    """Theorems 2-3: (a) simple and (b) cumulative regret of every rule of :data:`LABELS` on
    the D.1 testbeds, (c) one testbed: pi* and f on ``grid`` (:func:`bolib.papers.bore.d1_values`) and the
    finite domain."""
    T = len(runs["bore"][0]["regret"])
    t = np.arange(1, T + 1)
    with ctx.figure("theory_regret", trials, 1, 3, figsize=(12, 3.2)) as (fig, axes):
        for rule, label in LABELS.items():
            regret = np.array([r["regret"] for r in runs[rule]])
            plots.plot_band(axes[0], t, np.minimum.accumulate(regret, axis=1) + 1e-6, label)
            plots.plot_band(axes[1], t, np.cumsum(regret, axis=1), label)
        axes[0].set(yscale="log", xlabel="t", ylabel="simple regret + 1e-6", title="(a) simple regret")
        axes[1].set(xlabel="t", ylabel="R_t", title="(b) cumulative regret")
        axes[1].legend(fontsize=6, loc="upper left")
        axes[2].plot(grid, pi, label="pi*")
        axes[2].plot(grid, f, label="f")
        axes[2].plot(testbed["X"], np.zeros_like(testbed["X"]), "|k", label="domain")
        axes[2].set(xlabel="x", ylabel="value", title="(c) one testbed (tau = 0)")
        axes[2].legend(fontsize=6)


def fig_appc_band(ctx, trials, runs) -> None:
    """App. C: the moving threshold tau_t (the empirical gamma-quantile) and Theorem 1's band ratio
    with the moving and with the fixed threshold."""
    taus = np.array([r["tau"] for r in runs["bore++-moving"]])
    t = np.arange(1, taus.shape[1] + 1)
    with ctx.figure("appc_band", trials, 1, 2, figsize=(8, 3)) as (fig, axes):
        plots.plot_band(axes[0], t, taus, "tau_t (moving)")
        axes[0].axhline(0.0, color="k", lw=1, label="fixed tau")
        axes[0].set(xlabel="t", ylabel="tau_t", title="empirical gamma-quantile")
        for rule in ("bore++-moving", "bore++"):
            plots.plot_band(axes[1], t, np.array([r["ratio"] for r in runs[rule]]), LABELS[rule])
        axes[1].axhline(1.0, color="k", lw=1, label="ratio 1 (the bound)")
        axes[1].set(xlabel="t", ylabel="max_x |pi_t - pi_hat| / (beta sigma)", title="Theorem 1's band")
        for ax in axes:
            ax.legend(fontsize=6)


def fig_theorem4(ctx, seeds, batches, sizes, beta: float) -> None:
    """Theorem 4: distributional regret r_bar_t per round, and simple regret per round and per
    evaluation, of batches of M exact draws with a fixed ``beta`` (``batches[("fixed", M)]``), beside
    uniform sampling and Theorem 1's beta_t at the largest M."""
    M_max = max(sizes)
    rounds = np.arange(1, len(batches["fixed", M_max][0]["dist_regret"]) + 1)
    series = lambda key, name: np.array([r[name] for r in batches[key]])  # noqa: E731
    with ctx.figure("theorem4", seeds, 1, 3, figsize=(12, 3.2)) as (fig, axes):
        for M in sizes:
            plots.plot_band(axes[0], rounds, series(("fixed", M), "dist_regret"), f"M = {M}")
            plots.plot_band(axes[1], rounds, series(("fixed", M), "simple_regret") + 1e-6, f"M = {M}")
            plots.plot_band(axes[2], rounds * M, series(("fixed", M), "simple_regret") + 1e-6, f"M = {M}")
        for key, name, style in ((("uniform", M_max), f"uniform, M = {M_max}", "-"),
                                 (("bore++", M_max), f"Theorem 1's beta, M = {M_max}", "--")):
            plots.plot_band(axes[0], rounds, series(key, "dist_regret"), name, ls=style)
        plots.plot_band(axes[1], rounds, series(("uniform", M_max), "simple_regret") + 1e-6, f"uniform, M = {M_max}")
        axes[0].set(xlabel="round", ylabel="r_bar_t", title=f"distributional regret (beta = {beta:g})")
        axes[1].set(yscale="log", xlabel="round", ylabel="simple regret + 1e-6", title="per round")
        axes[2].set(yscale="log", xlabel="evaluations", title="per evaluation")
        axes[0].legend(fontsize=6)
        axes[1].legend(fontsize=6)


def fig_theorem4_long(ctx, seeds, batches_long, sizes, observations: int) -> None:
    """Theorem 4 with Theorem 1's beta_t on ``observations`` / M rounds: sum_t r_bar_t per batch size,
    beside the classifier that stops learning (the rate claims' contrast) at the largest M."""
    M_max = max(sizes)
    cumulative = lambda key: np.array([np.cumsum(r["dist_regret"]) for r in batches_long[key]])  # noqa: E731
    with ctx.figure("theorem4_long", seeds, figsize=(5, 3.2)) as (fig, ax):
        for key, name, style in [(("bore++", M), f"M = {M}", {}) for M in sizes] \
                + [(("bore++-frozen", M_max), f"learning stops after T/2, M = {M_max}", {"ls": "--", "color": "grey"})]:
            curves = cumulative(key)
            plots.plot_band(ax, np.arange(1, curves.shape[1] + 1), curves, name, **style)
        ax.set(xscale="log", yscale="log", xlabel="round t", ylabel="sum_t r_bar_t",
               title=f"Theorem 1's beta_t, {observations} / M rounds")
        ax.legend(fontsize=6)


def fig_racing(ctx, traces) -> None:
    """Fig. 2c stand-in (racing line): the best lap time so far of every method against evaluations."""
    curves = {label: np.array([-np.maximum.accumulate(tr.f) for tr in traces["racing-line", label]])
              for label in traces.labels}
    with ctx.figure("racing", ctx.seeds(len(next(iter(curves.values())))), figsize=(5, 3.2)) as (fig, ax):
        for label, best in curves.items():
            plots.plot_band(ax, np.arange(1, best.shape[1] + 1), best, label)
        ax.set(xlabel="evaluations", ylabel="best lap time (s)", title="racing line (stand-in)")
        ax.legend(fontsize=6)


def fig_theory_long(ctx, trials, long_runs) -> None:
    """Theorem 3's rate and App. C at the long horizon: cumulative regret R_t of each rule of the long
    runs (log-log) beside Theorem 3's growth curve (:func:`bolib.papers.bore.bound_growth`) scaled to
    BORE++'s median at T/4, where the rate window starts; and the moving threshold tau_t."""
    curves = {rule: np.array([np.cumsum(r["regret"]) for r in runs]) for rule, runs in long_runs.items()}
    taus = np.array([r["tau"] for r in long_runs["bore++-moving"]])
    t = np.arange(1, taus.shape[1] + 1)
    with ctx.figure("theory_long", trials, 1, 2, figsize=(9, 3.2)) as (fig, (ax, ax_tau)):
        for rule, R in curves.items():
            plots.plot_band(ax, t, R, LABELS[rule])
        growth, start = pb.bound_growth("theorem3", t[1:]), len(t) // 4
        ax.plot(t[1:], growth * np.median(curves["bore++"][:, start - 1]) / growth[start - 2], "k:", lw=1,
                label="Theorem 3's growth curve (scaled)")
        ax.set(xscale="log", yscale="log", xlabel="t", ylabel="R_t", title=f"cumulative regret, T = {len(t)}")
        ax.legend(fontsize=6)
        plots.plot_band(ax_tau, t, taus, LABELS["bore++-moving"])
        ax_tau.axhline(0.0, color="k", lw=1, label="fixed tau")
        ax_tau.set(xlabel="t", ylabel="tau_t", title="empirical gamma-quantile (App. C)")
        ax_tau.legend(fontsize=6)


def fig_fig1_synthetic(ctx, traces: dict) -> None:
    """Fig. 1: simple regret per round of batch BORE, q-EI and LP-EI on each synthetic problem, with
    the SVGD ablation's variants dashed where they ran."""
    n_trials = len(next(iter(traces.values())).at(next(iter(traces)))["batch BORE"])
    ablation = set(SVGD_VARIANTS) - {"batch BORE"}
    with ctx.figure("fig1", ctx.seeds(n_trials), 1, len(traces), figsize=(5.5 * len(traces), 4.5),
                    squeeze=False) as (fig, axes):
        for ax, (problem, problem_traces) in zip(axes[0], traces.items()):
            problem_traces.plot([ax], by="round", style=lambda label: {"ls": "--"} if label in ablation else {})
            ax.set(yscale="log")


def fig_appe_rosenbrock(ctx, traces: dict) -> None:
    """App. E (Fig. E.1): cumulative regret after the initial design of batch BORE and batch BORE++
    (random features) on Rosenbrock, one panel per dimension, and a last panel with the relative gain
    of batch BORE++, (R_BORE - R_BORE++) / R_BORE per trial (the trials are paired), per dimension."""
    dims = list(traces)
    n_trials = len(relative_gain(traces[dims[0]].at("rosenbrock", regret_after_design)))
    with ctx.figure("appe", ctx.seeds(n_trials), 1, len(dims) + 1, figsize=(4 * (len(dims) + 1), 3),
                    squeeze=False) as (fig, axes):
        for ax, d in zip(axes[0], dims):
            curves = {label: np.array([np.cumsum((tr.optimum - tr.f)[10:]) for tr in traces[d]["rosenbrock", label]])
                      for label in traces[d].labels}
            for label, R in curves.items():
                plots.plot_band(ax, np.arange(1, R.shape[1] + 1), R, label)
            ax.set(yscale="log", xlabel="evaluations after the initial design", ylabel="cumulative regret",
                   title=f"Rosenbrock, d = {d}")
            ax.legend(fontsize=6)
            gain = relative_gain(curves)
            plots.plot_band(axes[0, -1], np.arange(1, gain.shape[1] + 1), gain, f"d = {d}")
        axes[0, -1].axhline(0.0, color="k", lw=0.8, label="no gain")
        axes[0, -1].set(xlabel="evaluations after the initial design", ylabel="(R_BORE - R_BORE++) / R_BORE",
                        title="relative gain of batch BORE++")
        axes[0, -1].legend(fontsize=6)


def fig_fig2_tuning(ctx, traces: dict, stand_in_for: dict) -> None:
    """Fig. 2a, b, d stand-ins: simple regret of the sequential methods (and TPE) on each problem;
    ``stand_in_for``: problem -> the paper's data set it stands in for."""
    n_trials = len(next(iter(traces.values())).at(next(iter(traces)))["random"])
    with ctx.figure("fig2", ctx.seeds(n_trials), 1, len(traces), figsize=(4 * len(traces), 3),
                    squeeze=False) as (fig, axes):
        for ax, (problem, problem_traces) in zip(axes[0], traces.items()):
            problem_traces.plot([ax])
            ax.axhline(0.0, color="0.5", lw=0.8, label="optimum (a table's optimum is a cell mean: runs may go below)")
            ax.set(title=f"{problem} (stand-in for {stand_in_for[problem]})")
        axes[0, 0].legend(fontsize=6)
