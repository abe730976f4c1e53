"""The experiments of notebook ``003_bore`` (paper 003: BORE, BORE++ and batch BORE, arXiv:2209.10715),
built from its profile settings ``S``: the notebook runs what these builders return, and :func:`plan`
lists every experiment it runs at one look of its seed stages (for :mod:`bolib.costs`). Every
parameter comes from ``S`` and the seeds; no experiment depends on the results of another.
"""
from __future__ import annotations

from collections.abc import Sequence

from bolib.comparisons import Study
from bolib.experiment import Experiment, stage_seeds
from bolib.papers import bore as pb

#: rule of :func:`bolib.papers.bore.finite_run` -> its label (the theory runs of §5)
LABELS = {"bore": "BORE (PLS)", "bore++": "BORE++", "bore-ts": "BORE-TS", "bore++-moving": "BORE++ (moving tau)",
          "gp-ucb": "GP-UCB", "uniform": "uniform"}

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
                            grid={"rule": ["bore++", "uniform"], "seed": batch_trials},
                            variants=[{"M": M, "T": S["t4_theory_obs"] // M} for M in S["batch_sizes"]])
    bayes = Experiment("003-appb-bayes", pb.bayes_ts_run, grid={"rule": list(pb.BAYES_RULES), "seed": trials},
                       fixed={"T": T})
    theory_long = Experiment("003-theory-long", pb.finite_run, grid={"rule": ["bore++", "bore++-moving", "uniform"],
                                                                     "seed": trials},
                             fixed={"T": S["rate_T"]})
    return theory_runs, batch, batch_fixed, bayes, theory_long, batch_equal, batch_long


def fig1(S: dict, seeds: Sequence[int]) -> dict[str, Study]:
    """§6.1, Figure 1: batch BORE against q-EI and LP-EI on the synthetic problems, one study per problem."""
    n_init, rounds, q = S["fig1_n_init"], S["fig1_rounds"], S["fig1_batch"]
    refits = {"refit_growth": S["gp_refit_growth"], "refit_after": S["gp_refit_after"],
              "refit_until": S["gp_refit_until"]} if S["gp_refit_growth"] else {}
    mc = {"mc_samples": S["qei_mc_samples"]} if S["qei_mc_samples"] else {}
    return {problem: Study(f"003-fig1-{problem}", [problem], {
        "batch BORE": {"method": "batch-bore",
                       "settings": {"activation": ACTIVATION.get(problem, "relu"), "steps": NET_STEPS.get(problem, 100),
                                    "svgd_steps": min(S["svgd_steps"], SVGD_STEPS.get(problem, 1000))}},
        "q-EI": {"method": "botorch-logei",
                 "settings": {"num_restarts": S["qei_restarts"], "raw_samples": S["qei_raw_samples"], **mc, **refits}},
        "LP-EI": {"method": "lp-ei",
                  "settings": {"n_candidates": S["lpei_candidates"], "maxiter": S["lpei_maxiter"], **refits}}},
        seeds, fixed={"budget": n_init + rounds * q, "n_init": n_init, "mode": "sync", "batch_size": q,
                      **({"dim": DIMS[problem]} if problem in DIMS else {})})
        for problem in S["fig1_problems"]}


def appe(S: dict, seeds: Sequence[int]) -> dict[int, Study]:
    """§6.2, App. E: batch BORE against batch BORE++ (random features) on Rosenbrock, one study per dimension."""
    return {d: Study(f"003-appe-d{d}", ["rosenbrock"], {
        "batch BORE": {"method": "batch-bore-rff", "settings": {"svgd_steps": S["appe_svgd_steps"]}},
        "batch BORE++": {"method": "batch-bore++-rff", "settings": {"svgd_steps": S["appe_svgd_steps"]}}},
        seeds, fixed={"dim": d, "budget": 10 + S["appe_rounds"] * S["appe_batch"], "n_init": 10,
                      "mode": "sync", "batch_size": S["appe_batch"], "noise_std": 0.01})
        for d in S["appe_dims"]}


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
            *(st.experiment() for st in fig1(S, stage_seeds(S["fig1_seeds"], look)).values()),
            *(st.experiment() for st in appe(S, stage_seeds(S["appe_seeds"], look)).values()),
            racing(S, stage_seeds(S["race_seeds"], look)).experiment(),
            *(st.experiment() for st in fig2(S, stage_seeds(S["fig2_seeds"], look)).values())]


__all__ = ["ACTIVATION", "DIMS", "LABELS", "NET_STEPS", "SVGD_STEPS", "appe", "fig1", "fig2", "fig2_methods",
           "plan", "racing", "repeat_seed", "theory"]
