"""The experiments of notebook 000 (paper 000, EGP-TS), built from the profile settings.

Each builder takes the settings ``S`` of ``experiments/profiles/000_egpts.yaml`` and the seeds the
notebook passes, and returns the :class:`~bolib.experiment.Experiment` (or
:class:`~bolib.comparisons.Study`, or several) that ``notebooks/000_egpts.ipynb`` runs with
``ctx.run``; :func:`plan` lists all of them at one look of the seed stages, for :mod:`bolib.costs`.
The theory-check cells call one function each for the values they decide on (:func:`e0_recursion`
and :func:`e2_pending_variance`, computed in the notebook and not cached; :func:`e4_values`,
:func:`e7_values` and :func:`e6_values` from the runs; :func:`ackley_optimum` and
:func:`spectral_density_errors` for the errata T1 and E-RF), and one ``fig_*`` function for their figure.
Not imported by any job module: an edit here changes no cache key unless it changes the jobs built.
"""
from __future__ import annotations

import numpy as np

import bolib.papers.egp_ts as paper
from bolib import plots, stats
from bolib.benchmarks import get_benchmark, multistart_maximum
from bolib.claims import rules
from bolib.comparisons import Study, final_simple_regret, seconds_per_evaluation
from bolib.experiment import Experiment, stage_seeds
from bolib.loop import bo_job
from bolib.models.ensemble import RFEnsemble
from bolib.models.grid import grid_kernel_matrix, unit_grid
from bolib.models.rff import RandomFeatures
from bolib.papers.egp_ts_claims import (KS, M_E4, NN_CONTRAST, SIGMA_N, UNIT_CUBE_LABEL, horizons, lengthscale_widths,
                                        units_differ)
from bolib.runtime import rng

#: the 4-kernel dictionary's single-kernel baselines (kernel, ARD) of Figs. 1, 3(a), 6 and 7
KERNEL4 = [("rbf", False), ("rbf", True), ("matern15", False), ("matern25", False)]
#: E3's kernels (Matérn-1/2 is the contrast)
E3_KERNELS = ["rbf", "matern25", "matern15", "matern05"]
#: E4's rules (EGP-TS with all weights recorded, EGP-TS that stops learning after T/8, the oracle, random search,
#: each single member)
E4_RULES = ([{"rule": "egp-ts", "all_weights": True}, {"rule": "egp-ts-frozen"}, {"rule": "oracle"}, {"rule": "random"}]
            + [{"rule": "single", "member": j} for j in range(M_E4)])
#: RBF members of the exactly Bayesian setting of E2 and E6
E6_LENGTHSCALES = (0.03, 0.1, 0.3, 1.0)
#: E5's wrong lengthscales, a factor >= 3 from the truth 0.1, in a fixed random order
E5_WRONG = np.concatenate([np.geomspace(0.005, 0.033, 7), np.geomspace(0.3, 3.0, 8)])
E5_OTHERS = np.round(E5_WRONG, 6)[rng(0, "e5-order").permutation(15)]
#: E8's true function: one Matérn-3/2 random-feature draw per seed on [0, 1]^2
E8_DRAW = {"kernel": "matern15", "lengthscale": 0.1, "stream": "e8", "n_pairs": 2000, "certify": False}
#: E2's numbers of workers K (K - 1 pending points), noise variance and number of evaluated points A
E2_K = [1, 2, 4, 8, 16]
E2_NOISE = 0.01
E2_N_A = 20
#: E7's negative control: every member's posterior mean raised by this much (5 noise SDs)
E7_MEAN_SHIFT = 0.5


def ts_common(S: dict) -> dict:
    """The Thompson-sampling maximiser settings shared by the TS methods."""
    return {"n_candidates": S["n_candidates"], "n_starts": S["n_starts"]}


def gp_ts(S: dict, kernel: str, ard: bool = False) -> dict:
    """GP-TS with one kernel (random features), refitted like the baselines."""
    return {"method": "rf-gp-ts", "settings": {**ts_common(S), "kernel": kernel, "ard": ard, "refit_every": S["baseline_refit"]}}


def egp_ts(S: dict, dictionary: str, refit_every: int) -> dict:
    """EGP-TS with ``dictionary``, refitted every ``refit_every`` evaluations."""
    return {"method": "egp-ts", "settings": {**ts_common(S), "dictionary": dictionary, "refit_every": refit_every}}


#: the methods whose fixed lengthscales (the 11-RBF dictionary) or lengthscale prior (FB-GP-TS's App. E box)
#: are stated in the problem's own units in Figs. 2-5 (:func:`in_problem_units`)
UNIT_AWARE = ("egp-ts", "bandit-bo", "exp3-bo", "fb-gp-ts")


def in_problem_units(problem: str, label: str, variant: dict) -> dict | None:
    """A Figs. 2-5 variant on ``problem`` (:attr:`bolib.comparisons.Study.adapt`): the 11-RBF lengthscales
    10^c and FB-GP-TS's lengthscale box in the units of the problem's domain (Table 1's boxes; the
    robot's metres and seconds), i.e. ``lengthscale_units`` = the box's widths. Where every width is 1
    the two readings coincide, so the unit-cube ablation
    (:data:`~bolib.papers.egp_ts_claims.UNIT_CUBE_LABEL`) runs only where they differ."""
    widths = lengthscale_widths(problem)
    if np.all(widths == 1):
        return None if label == UNIT_CUBE_LABEL else variant
    if label == UNIT_CUBE_LABEL or variant["method"] not in UNIT_AWARE:
        return variant
    return {**variant, "settings": {**variant["settings"], "lengthscale_units": widths.tolist()}}


def method_variants(S: dict, dictionary: str, horizon: int, gp_ei: bool = True) -> dict:
    """The paper's methods for a dictionary ("four": Fig. 1 and 3(a); "rbf11": Figs. 2, 3(b), 4, 5, with the
    unit-cube ablation :data:`~bolib.papers.egp_ts_claims.UNIT_CUBE_LABEL`); EXP3BO's horizon is the budget."""
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
                     "FB-GP-TS": {"method": "fb-gp-ts", "settings": {**common, "steps": S["fb_steps"]}},
                     UNIT_CUBE_LABEL: {"method": "egp-ts", "settings": {**egp_ts(S, dictionary, S["egp_refit"])["settings"],
                                                                  "lengthscale_units": None}}}
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


#: E1's order claims: (smoother, rougher) kernel pairs whose gain exponents are compared
E1_ORDER = (("rbf", "matern25"), ("matern25", "matern15"))


def e1_slopes(e1, S: dict) -> dict:
    """E1 (Lemma 1): per (kernel, d), the log-log slope of each seed's greedy gain gamma_T on T in
    [T_MIG / 4, T_MIG], the exponent c of gamma_T = O~(T^c)."""
    _, T_MIG, _ = horizons(S)
    fit = slice(T_MIG // 4 - 1, T_MIG)
    gain = e1.group("kernel", "dim", value=lambda out: out["gain"])
    return {key: stats.loglog_slopes(np.arange(1, T_MIG + 1)[fit], np.array(g)[:, fit]) for key, g in gain.items()}


def e1_order_values(e1, S: dict) -> dict:
    """The per-seed slopes each E1 order claim is decided on: the smoother kernel's against the rougher's."""
    slopes = e1_slopes(e1, S)
    return {f"E1-order-{smoother}-d{d}": {k: slopes[k, d] for k in (smoother, rougher)}
            for d in (1, 2) for smoother, rougher in E1_ORDER}


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
    """E6 (Theorems 2 and 3): K synchronous and asynchronous workers on a 2-D grid, and the contrasts, random search
    and sequential EGP-TS that stops learning after T/8."""
    T, _, _ = horizons(S)
    setting = {"T": T, "dim": 2, "points_per_dim": 32, "lengthscales": E6_LENGTHSCALES}
    return (Experiment("000-e6-parallel", paper.rf_exact_job,
                       grid={"seed": seeds, "batch_size": KS, "mode": ["sync", "async"]}, fixed={**setting, "rule": "egp-ts"}),
            Experiment("000-e6-contrasts", paper.rf_exact_job, grid={"seed": seeds}, fixed=setting,
                       variants=[{"rule": "random"}, {"rule": "egp-ts-frozen"}]))


def fig1(S: dict, seeds) -> Study:
    """Fig. 1 (Sec. 6): the 4-kernel dictionary on synthetic functions, with the refit ablation."""
    ablation = f"EGP-TS (refit every {S['baseline_refit']})"
    variants = method_variants(S, "four", S["budget"]) | {ablation: egp_ts(S, "four", S["baseline_refit"])}
    return Study("000-fig1", S["functions"], variants, seeds, fixed={"budget": S["budget"], "n_init": S["n_init"]})


def fig2(S: dict, seeds) -> Study:
    """Fig. 2 (Sec. 6): the 11-RBF dictionary on synthetic functions."""
    return Study("000-fig2", S["fig2_functions"], method_variants(S, "rbf11", S["budget"]), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"]}, adapt=in_problem_units)


def fig3(S: dict, seeds) -> tuple[Study, Study]:
    """Fig. 3 (a) and (b) (Sec. 6): robot pushing with the 4-kernel and the 11-RBF dictionary, one goal per seed."""
    robots = robot_problems(S)
    fixed = {"budget": S["robot_budget"], "n_init": S["n_init"]}
    return (Study("000-fig3", robots, method_variants(S, "four", S["robot_budget"]), seeds, fixed=fixed,
                  options=lambda s: {"goal_seed": s}),
            Study("000-fig3b", robots, method_variants(S, "rbf11", S["robot_budget"]), seeds, fixed=fixed,
                  options=lambda s: {"goal_seed": s}, adapt=in_problem_units))


def fig3_values(traces_a, traces_b, robots, n_init: int) -> dict:
    """The per-seed values of Fig. 3's claims: final distance to the goal of every method, (a) and (b), and
    App. E's seconds per evaluation (:func:`bolib.comparisons.seconds_per_evaluation`) of EGP-TS and FB-GP-TS
    in the 11-RBF runs."""
    values = {f"F3{part}-{robot}": traces.at(robot) for robot in robots for part, traces in (("a", traces_a), ("b", traces_b))}
    speed = lambda trace: seconds_per_evaluation(trace, n_init)  # noqa: E731
    return (values | {f"F3-speed-{robot}": traces_b.at(robot, metric=speed, labels=["EGP-TS", "FB-GP-TS"]) for robot in robots}
            | units_values(traces_b, robots))


def units_values(traces, problems) -> dict:
    """The per-seed final regrets of the units ablation claims F-units-*: EGP-TS with the 11-RBF grid in the
    problem's units and on the unit cube, on the problems where the two differ."""
    return {f"F-units-{p}": traces.at(p, labels=["EGP-TS", UNIT_CUBE_LABEL]) for p in problems if units_differ(p)}


def fig2_values(traces, problems) -> dict:
    """The per-seed final regrets of Fig. 2's claims and of its units ablation."""
    return {f"F2-{p}": traces.at(p) for p in problems} | units_values(traces, problems)


def fig4(S: dict, seeds) -> Study:
    """Fig. 4 (Sec. 6): neural-network tuning with the 11-RBF dictionary, and random search (the claims' contrast)."""
    variants = method_variants(S, "rbf11", S["nn_budget"]) | {NN_CONTRAST: {"method": "random", "settings": {}}}
    return Study("000-fig4", nn_problems(S), variants, seeds,
                 fixed={"budget": S["nn_budget"], "n_init": S["n_init"]},
                 options=lambda s: {"repeats": S["nn_repeats"], "epochs": S["nn_epochs"]}, adapt=in_problem_units)


def fig5(S: dict, seeds) -> list[Study]:
    """Fig. 5 (Sec. 6): synchronous parallel TS methods on Ackley-5d, one study per K."""
    return [Study(f"000-fig5-K{K}", ["ackley5-unit"], method_variants(S, "rbf11", S["parallel_budget"], gp_ei=False), seeds,
                  fixed={"budget": S["parallel_budget"], "n_init": S["n_init"], "mode": "sync", "batch_size": K},
                  adapt=in_problem_units)
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


# ---------------------------------------------------------------- the values of the theory checks (§5, §6.1)
def e0_recursion(seed: int = 0) -> dict:
    """E0 (eqs. 10, 11 against eqs. 7, 17), uncached: four random-feature members in d = 3 and 60 noisy
    points. The batch posterior on all of them, the recursion from the first 10 in order and the
    recursion in a shuffled order. Returns ``gaps`` (|log-weight| and |member mean| differences,
    recursion against batch), ``order_gaps`` (|log-weight| differences, shuffled against in order) and
    the batch ``weights``."""
    stream = rng(seed, "e0")
    members = [RandomFeatures(k, 3, 50, stream, ls) for k, ls in (("rbf", 0.2), ("rbf", 0.6), ("matern15", 0.3), ("matern25", 0.5))]
    X = stream.random((60, 3))
    y = np.sin(5 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.1 * stream.standard_normal(60)
    batch = RFEnsemble(members, [0.01] * 4).fit(X, y)
    recursive = RFEnsemble(members, [0.01] * 4).fit(X[:10], y[:10])
    for x, value in zip(X[10:], y[10:]):
        recursive.update(x[None], value)
    shuffled = RFEnsemble(members, [0.01] * 4).fit(X[:10], y[:10])
    for i in stream.permutation(np.arange(10, 60)):
        shuffled.update(X[i][None], y[i])
    gaps = np.concatenate([np.abs(recursive.log_weights - batch.log_weights)]
                          + [np.abs(a.mean - b.mean) for a, b in zip(recursive.models, batch.models)])
    return {"gaps": gaps, "order_gaps": np.abs(shuffled.log_weights - recursive.log_weights), "weights": batch.weights}


def e2_pending_variance(seeds, Ks=E2_K, noise: float = E2_NOISE, n_A: int = E2_N_A) -> dict:
    """E2 (Lemma 2), uncached: per RBF member of E6 (:data:`E6_LENGTHSCALES`) and seed, n_A uniform points
    A and the 32 x 32 grid of [0, 1]^2; the pending sets B are the first K - 1 of one set of max(Ks) - 1
    grid points, random or greedy (:func:`paper.greedy_pending_set`), so they are nested in K. At every
    grid point the ratio sigma^2_A / sigma^2_{A u B} of :func:`paper.pending_variance_ratio` is checked
    against exp(2 I(f; y_B | y_A)) <= (1 + 1/noise)^(K - 1) (``bound_holds``, with 1e-8 roundoff) and
    against the ratio of the previous K (``monotone_holds``); ``rho`` maps K to the largest ratio (E6's
    rho_K, 1 at K = 1)."""
    grid = unit_grid(32, 2)
    rho = dict.fromkeys(Ks, 1.0)
    bound_holds, monotone_holds = [], []
    for ls in E6_LENGTHSCALES:
        for r in seeds:
            stream = rng(r, "e2", str(ls))
            points = np.vstack([stream.random((n_A, 2)), grid])
            K_all = grid_kernel_matrix("rbf", points, ls)
            A, cand = range(n_A), np.arange(n_A, len(points))
            for B_all in (list(stream.permutation(cand)[:max(Ks) - 1]),  # random, then greedy
                          paper.greedy_pending_set(K_all, A, max(Ks) - 1, noise, cand)):
                previous = None
                for K in Ks:
                    ratio, info_bound = paper.pending_variance_ratio(K_all, A, B_all[:K - 1], noise)
                    ratio = ratio[n_A:]
                    bound_holds.append((ratio <= info_bound * (1 + 1e-8))
                                       & (info_bound <= (1 + 1 / noise) ** (K - 1) * (1 + 1e-8)))
                    if previous is not None:
                        monotone_holds.append(ratio >= previous * (1 - 1e-8))
                    previous = ratio
                    rho[K] = max(rho[K], float(ratio.max()))
    return {"rho": rho, "bound_holds": np.concatenate(bound_holds), "monotone_holds": np.concatenate(monotone_holds)}


def rule_label(params) -> str:
    """E4's label of a job of :func:`e4_theorem1`: the rule, and the member of a single-member rule."""
    return params["rule"] + (f"-{params['member']}" if params["rule"] == "single" else "")


#: E4's rule labels, in the order of :data:`E4_RULES`
E4_LABELS = [rule_label(v) for v in E4_RULES]


def e4_final_regret(e4) -> dict:
    """Per rule (:data:`E4_LABELS`), the per-seed Bayesian regret at T of the :func:`e4_theorem1` runs ``e4``."""
    return {k: np.array([np.sum(o["regret"]) for p, o in e4 if rule_label(p) == k]) for k in E4_LABELS}


def regret_slopes(S: dict, BR: np.ndarray) -> np.ndarray:
    """Per seed (rows of the cumulative regret ``BR``), the log-log slope of BR(T) on T in [FIT_LO, T]
    (:func:`bolib.papers.egp_ts_claims.horizons`): the exponent of E4 and E6."""
    T, _, FIT_LO = horizons(S)
    fit = slice(FIT_LO - 1, T)
    return stats.loglog_slopes(np.arange(1, T + 1)[fit], np.asarray(BR)[:, fit])


def e4_values(e4, S: dict) -> dict:
    """E4 (Theorem 1) from the runs ``e4`` of :func:`e4_theorem1`: the cumulative regret ``BR`` per rule
    (seeds x T), eq. 30's ``bound`` (:func:`paper.eq30_bound` with the setting's noise SD
    :data:`~bolib.papers.egp_ts_claims.SIGMA_N`, M = 4 and ``B_hat``, the mean of max |f|), the regret
    ``slopes`` of EGP-TS, the frozen EGP-TS and random search, ``bound_ratio`` (BR(T) / bound(T)) of EGP-TS
    and random search, and at the
    ``checkpoints`` (powers of two up to T/4) the largest ``martingale`` gap (:func:`paper.martingale_gaps`)
    and the mean ``bayes_identity`` gap, each as the ``estimate``, ``ci`` and ``n`` of its claim;
    ``egp_runs`` are the EGP-TS runs."""
    T, _, _ = horizons(S)
    runs = {}
    for p, out in e4:
        runs.setdefault(rule_label(p), []).append(out)
    BR = {k: np.cumsum([o["regret"] for o in v], axis=1) for k, v in runs.items()}
    ego = runs["egp-ts"]
    B_hat = np.mean([o["f_abs_max"] for o in ego])
    sigma_sum = np.cumsum(np.mean([o["sigma"] for o in ego], axis=0))
    bound = paper.eq30_bound(sigma_sum, M_E4, SIGMA_N, B_hat, ego[0]["n_domain"])
    checkpoints = [2 ** k for k in range(1, int(np.log2(T // 4)) + 1)]
    gaps = paper.martingale_gaps(np.array([o["weights_t"] for o in ego]), checkpoints, np.full(M_E4, 1 / M_E4))
    martingale = paper.largest_mean_gap(gaps)
    bayes = rules.resampled_mean(paper.bayes_identity_gaps(np.array([o["w_star"] for o in ego]),
                                                           np.array([o["w_square"] for o in ego]), checkpoints))
    return {"T": T, "BR": BR, "bound": bound, "B_hat": B_hat, "checkpoints": checkpoints, "egp_runs": ego,
            "slopes": {k: regret_slopes(S, BR[k]) for k in ("egp-ts", "egp-ts-frozen", "random")},
            "bound_ratio": {k: BR[k][:, -1] / bound[-1] for k in ("egp-ts", "random")},
            "martingale": {"estimate": martingale[0], "ci": martingale[1], "n": len(ego)},
            "bayes_identity": {"estimate": bayes[0], "ci": bayes[1], "n": len(ego)}}


def lemma5_values(e4) -> dict:
    """Lemma 5 (App. B.2) from the runs ``e4`` of :func:`e4_theorem1`. Its proof uses E[mu^{m_t}_{t-1}(x_t)] = E[f(x_*)]
    at every t; Thompson sampling gives E[mu^{m_t}_{t-1}(x_t)] = E[mu^{m_*}_{t-1}(x_*)] <= E[f(x_*)] instead. Per query t,
    the mean over the EGP-TS runs of mu^{m_t}_{t-1}(x_t) - f(x_*) (f(x_*) = y + regret - noise, averaged over the run),
    divided by the mean f(x_*): ``gap`` (one value per t); ``paper_error`` = the largest |gap| over t <= T/4 (the
    identity's error), ``corrected_error`` = its largest positive part (the inequality's), and the same mean gap
    of the single-member runs whose member is not m* (``wrong_gap``). ``regret`` and ``two_B`` are E[f(x_*) - f(x_t)]
    and 2B over the EGP-TS runs."""
    f_star = lambda o: np.mean(o["y"] + o["regret"])  # noqa: E731
    ego = [o for p, o in e4 if p["rule"] == "egp-ts"]
    wrong = [o for p, o in e4 if p["rule"] == "single" and p["member"] != o["m_star"]]
    scale = np.mean([f_star(o) for o in ego])
    gap, wrong_gap = (np.mean([o["mu"] - f_star(o) for o in runs], axis=0) / scale for runs in (ego, wrong))
    early = gap[:max(1, len(gap) // 4)]
    return {"gap": gap, "wrong_gap": wrong_gap, "paper_error": float(np.max(np.abs(early))),
            "corrected_error": float(max(0.0, np.max(early))), "regret": float(np.mean([o["regret"] for o in ego])),
            "two_B": 2 * float(np.mean([o["f_abs_max"] for o in ego]))}


def e7_values(e4, S: dict, shift: float = E7_MEAN_SHIFT) -> dict:
    """E7 (Lemma 4) from the EGP-TS runs of ``e4`` (:func:`e4_theorem1`): Lemma 4's confidence set
    (:func:`paper.confidence_set_outside`, noise SD :data:`~bolib.papers.egp_ts_claims.SIGMA_N`) along
    each run. ``covered`` (per seed: m* in C_T, the claim's outcomes), ``misses`` (seeds x T: m* outside
    C_t), ``wrong_outside`` (per seed and wrong member: outside C_T, the check's power), Lemma 4's
    ``lemma4_bound`` 2M/T and ``control``, per seed whether m* stays in C_T when every member's mean is
    raised by ``shift`` (a miscalibrated model; claim E7-control)."""
    T, _, _ = horizons(S)
    ego = [o for p, o in e4 if p["rule"] == "egp-ts"]
    outside = [paper.confidence_set_outside(o["member"], o["mu"], o["sigma"], o["y"], M_E4, T, SIGMA_N) for o in ego]
    misses = np.array([out[:, o["m_star"]] for out, o in zip(outside, ego)])
    wrong_outside = np.array([out[-1, m] for out, o in zip(outside, ego) for m in range(M_E4) if m != o["m_star"]])
    shifted = [not paper.confidence_set_outside(o["member"], o["mu"] + shift, o["sigma"], o["y"], M_E4, T, SIGMA_N)[-1, o["m_star"]]
               for o in ego]
    return {"covered": ~misses[:, -1], "misses": misses, "wrong_outside": wrong_outside, "lemma4_bound": 2 * M_E4 / T,
            "control": np.array(shifted, dtype=float)}


def e6_values(e6, e6_contrasts, S: dict, rho: dict) -> dict:
    """E6 (Theorems 2 and 3) from the runs of :func:`e6_parallel`: the cumulative regret ``BR`` per (mode,
    K) and ``BR_random`` (seeds x T), ``B`` (the mean of max |f| over the sequential runs), the regret
    ``slopes`` per (mode, K > 1), ``random_slopes`` and ``frozen_slopes`` (the contrasts; :func:`regret_slopes`),
    and the ``table`` of
    the heuristic reading :func:`paper.parallel_heuristic` with E2's ``rho`` (K -> rho_K): per (mode,
    K > 1) BR_K(T), the heuristic at T, random search's BR(T) and the shares of seeds whose regret
    exceeds the heuristic at some T (:func:`paper.parallel_excess`)."""
    import pandas as pd

    T, _, _ = horizons(S)
    par = e6.group("mode", "batch_size")
    BR = {key: np.cumsum([o["regret"] for o in v], axis=1) for key, v in par.items()}
    BR_random, BR_frozen = (np.cumsum([o["regret"] for p, o in e6_contrasts if p["rule"] == rule], axis=1)
                            for rule in ("random", "egp-ts-frozen"))
    B = np.mean([o["f_abs_max"] for o in par["sync", 1]])
    cases = [(mode, K) for mode in ("async", "sync") for K in KS[1:]]
    rows = [(mode, K, BR[mode, K][:, -1].mean(), paper.parallel_heuristic(BR[mode, 1][:, -1].mean(), rho[K], B, K),
             BR_random[:, -1].mean(), (paper.parallel_excess(BR[mode, K], BR[mode, 1], rho[K], B, K) > 0).mean(),
             (paper.parallel_excess(BR_random, BR[mode, 1], rho[K], B, K) > 0).mean()) for mode, K in cases]
    table = pd.DataFrame(rows, columns=["mode", "K", f"mean BR_K({T})", "heuristic sqrt(rho_K) BR_1 + (K-1) 2B (not claimed)",
                                        f"random search BR({T})", "share of seeds above it (EGP-TS)",
                                        "share above it (random search)"])
    return {"BR": BR, "BR_random": BR_random, "B": B, "slopes": {case: regret_slopes(S, BR[case]) for case in cases},
            "random_slopes": regret_slopes(S, BR_random), "frozen_slopes": regret_slopes(S, BR_frozen), "table": table}


#: Lemma 3's erratum (E-L3): lengthscales of the exact RBF sample paths, paths per lengthscale, grid points on [0, 1]
L3_LENGTHSCALES = (0.03, 0.1, 0.3)
L3_DRAWS = 4000
L3_GRID = 256


def lemma3_paths(seed: int = 0) -> dict:
    """Lemma 3 on exact GP(0, RBF) sample paths on a grid of [0, 1], per lengthscale: B = E max|f| (the mean
    over the paths), the share of paths whose range max_x |f(x*) - f(x)| = max f - min f exceeds 2B (the
    Lemma's statement, which the proof's step (28)(a) applies path by path), and the relative excess of the
    mean range over 2B (the statement in expectation, which holds: the range is at most 2 max|f| on every
    path). The paths are drawn with the symmetric square root of the kernel matrix (eigendecomposition)."""
    x = unit_grid(L3_GRID, 1)
    out = {}
    for lengthscale in L3_LENGTHSCALES:
        w, V = np.linalg.eigh(grid_kernel_matrix("rbf", x, lengthscale))
        paths = rng(seed, "lemma3", str(lengthscale)).standard_normal((L3_DRAWS, L3_GRID)) @ (V * np.sqrt(np.clip(w, 0, None))).T
        spread, B = paths.max(1) - paths.min(1), np.abs(paths).max(1).mean()
        out[lengthscale] = {"B": float(B), "pathwise_share": float(np.mean(spread > 2 * B)),
                            "mean_excess": max(0.0, float(spread.mean() / (2 * B) - 1))}
    return out


def ackley_optimum(seed: int = 0) -> dict:
    """T1 (Table 1): Ackley-5d on [0, 1]^5 at the printed argmax (``f_printed``) and its maximum by
    multistart L-BFGS-B (``x_best``, ``f_best``), with the errors of the printed optimum
    (``paper_error``) and of the registered one (``corrected_error``) against that maximum."""
    ackley = get_benchmark("ackley5-unit")
    printed_x = np.array([ackley.meta["paper_argmax"]])
    x_best, f_best = multistart_maximum(ackley.fn, ackley.bounds, rng(seed, "ackley"))
    return {"printed_x": printed_x[0], "f_printed": ackley.fn(printed_x)[0], "paper_optimum": ackley.meta["paper_optimum"],
            "optimum": ackley.optimum, "x_best": x_best, "f_best": f_best,
            "paper_error": abs(f_best - ackley.meta["paper_optimum"]), "corrected_error": abs(f_best - ackley.optimum)}


#: Table 1's printed maxima of the other synthetic functions
TABLE1 = {"zakharov": 0.0, "dropwave": 1.0, "eggholder": 959.6407}


def table1_maxima(seed: int = 0) -> dict:
    """T1-others (Table 1): per function of :data:`TABLE1`, the maximum by multistart L-BFGS-B (``f_best`` at
    ``x_best``) and its absolute error against the printed value (``error``)."""
    out = {}
    for name, printed in TABLE1.items():
        problem = get_benchmark(name)
        x_best, f_best = multistart_maximum(problem.fn, problem.bounds, rng(seed, f"t1-{name}"))
        out[name] = {"printed": printed, "f_best": float(f_best), "x_best": np.round(x_best, 4), "error": abs(f_best - printed)}
    return out


def spectral_density_errors(seed: int = 0, n_points: int = 300, n_frequencies: int = 50_000) -> dict:
    """E-RF (App. A): the Monte-Carlo kernel estimate E_omega[cos(omega^T d)] of exp(-|d|^2) at ``n_points``
    differences d ~ N(0, I/4) in d = 2, with ``n_frequencies`` frequencies from the paper's N(0, I)
    (``paper_error``, the largest absolute error) and from N(0, 2I) (``corrected_error``). The
    code's RBF features (:class:`RandomFeatures`) pair exp(-r^2 / (2 l^2)) with N(0, l^-2 I), i.e.
    N(0, 2I) for exp(-|d|^2) (l^2 = 1/2)."""
    stream = rng(seed, "erratum-rf")
    d = stream.standard_normal((n_points, 2)) * 0.5
    omega_paper = stream.standard_normal((n_frequencies, 2))
    target = np.exp(-(d ** 2).sum(1))
    return {"paper_error": np.abs(np.cos(d @ omega_paper.T).mean(1) - target).max(),
            "corrected_error": np.abs(np.cos(d @ (omega_paper * np.sqrt(2)).T).mean(1) - target).max()}


# ---------------------------------------------------------------- the regret figures and final tables
def dashed_baselines(label: str) -> dict:
    """Line style of a method in the regret figures: EGP methods solid, baselines dashed."""
    return {"ls": "-" if label.startswith("EGP") else "--"}


def final_table(traces, problems, metric=final_simple_regret):
    """Per method (rows) and problem (columns), mean ± SD over seeds of ``metric`` of each run (final simple
    regret by default)."""
    import pandas as pd

    return pd.DataFrame({p: {k: f"{v.mean():.3g} ± {v.std(ddof=1):.2g}" for k, v in traces.at(p, metric=metric).items()}
                         for p in problems})


def speed_table(traces, problems, n_init: int):
    """Seconds per evaluation, proposing and taking the value in, of every method (App. E), mean ± SD over seeds."""
    return final_table(traces, problems, metric=lambda trace: seconds_per_evaluation(trace, n_init))


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
            z, q = paper.standardised_tail(np.concatenate([o["L_max"] for o in tails[kernel]]))
            ax.plot(z, 1 - q, label=kernel)
        z = np.linspace(0, 4, 50)
        ax.plot(z, 0.5 * np.exp(-z * np.sqrt(2)), "k:", lw=0.8, label="exponential tail (reference)")
        ax.set(yscale="log", xlim=(0, None), xlabel="(L - median) / SD", ylabel=r"$\Pr(L_{max} > L)$",
               title="E3: derivative tails")
        ax.legend(fontsize=6)


def fig_e4_theorem1(ctx, seeds, BR, bound, egp_runs) -> None:
    """E4 (Theorem 1): (a) Bayesian regret of EGP-TS, EGP-TS frozen after T/8 (the rate's contrast), the oracle,
    random search and every single member, beside the eq. 30 bound; (b) the weight of the true member and sum_m (w_t^m)^2; (c) how often each
    member is drawn."""
    t = np.arange(1, len(bound) + 1)
    W_t = np.array([o["weights_t"] for o in egp_runs])
    M = W_t.shape[2]
    with ctx.figure("e4_theorem1", seeds, 1, 3, figsize=(14, 3.4)) as (fig, axes):
        bands = {k: plots.plot_band(axes[0], t, BR[k], k) for k in ["egp-ts", "egp-ts-frozen", "oracle", "random"]}
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
    """E6 (Theorems 2-3): per mode (synchronous, asynchronous batches of K), the Bayesian regret against
    evaluations for each K beside random search (top), and BR_K beside the heuristic
    sqrt(rho_K) BR_1 + (K - 1) 2B (bottom, means over seeds)."""
    t = np.arange(1, BR_random.shape[1] + 1)
    with ctx.figure("e6_parallel", seeds, 2, 2, figsize=(10, 6.4)) as (fig, axes):
        for column, mode in enumerate(("sync", "async")):
            theorem = 2 if mode == "async" else 3
            ax = axes[0, column]
            for K in KS:
                plots.plot_band(ax, t, BR[mode, K], f"{mode} K={K}")
            plots.plot_band(ax, t, BR_random, "random search", color="k")
            ax.set(xscale="log", yscale="log", xlabel="evaluations", ylabel="BR",
                   title=f"E6: regret vs evaluations, {mode} (Theorem {theorem})")
            ax.legend(fontsize=6)
            ax = axes[1, column]
            for K in KS[1:]:
                line = ax.plot(t, BR[mode, K].mean(0), label=f"BR_K, K={K} (mean)")[0]
                ax.plot(t, paper.parallel_heuristic(BR[mode, 1].mean(0), rho[K], B, K), ls=":", color=line.get_color(),
                        label=rf"heuristic $\sqrt{{\rho_K}}BR_1+(K-1)2B$, K={K}")
            ax.plot(t, BR_random.mean(0), "k-", lw=0.8, label="random search (mean)")
            ax.set(xlabel="evaluations", ylabel="BR", title=f"E6: heuristic reading of Theorem {theorem} ({mode})")
            ax.legend(fontsize=6)


def fig_fig5_parallel(ctx, studies, traces, Ks) -> None:
    """Fig. 5: simple regret per round of the parallel methods on Ackley-5d, one panel per batch size K."""
    with ctx.figure("fig5_parallel", studies[0].seeds, 1, len(studies), figsize=(4.6 * len(studies), 3.3),
                    squeeze=False) as (fig, axes):
        for ax, K, problem_traces in zip(axes[0], Ks, traces):
            problem_traces.plot([ax], by="round", style=dashed_baselines, titles={"ackley5-unit": f"Ackley-5d, K = {K}"})
