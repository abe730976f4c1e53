"""The claims of notebook 000 (paper 000, EGP-TS), declared before any experiment runs.

``declare(claims, S)`` declares every claim of ``notebooks/000_egpts.ipynb`` on its claim book with
the profile settings ``S``: the paper's statements (``origin="paper"``, with their location and
whether they rest on the paper's experiments or its theory) apart from ours (``origin="check"``:
sanity checks, contrasts, consequences the paper does not state). Comparisons carry their margin
in the metric's units with its reason (from the problem, never from results) and the seed stages
of their group-sequential design, read from the profile. Claims of the paper that this profile
does not run are listed as not run, with the reason.

Not imported by any job module: editing it changes no cache key.
"""
from __future__ import annotations

import math

import numpy as np

from bolib.benchmarks import get_benchmark

inf = math.inf

#: the exactly Bayesian setting of Theorem 1 (E4, E7): dictionary size and workers of E6
M_E4 = 4
KS = [1, 2, 4, 8]
#: the paper's competitor sets (Sec. 6, App. E), labels as in the figures
GP_TS4 = ["GP-TS rbf", "GP-TS rbf-ard", "GP-TS matern15", "GP-TS matern25"]
FIG1_COMPETITORS = GP_TS4 + ["GP-EI (BoTorch)", "BanditBO", "EXP3BO"]
FIG2_COMPETITORS = ["GP-TS rbf (fitted l)", "FB-GP-TS", "GP-EI (BoTorch)", "BanditBO", "EXP3BO"]
UNIT_CUBE_LABEL = "EGP-TS (l on the unit cube)"  # the ablation of Figs. 2-3(b)'s lengthscale units
#: Fig. 4's contrast: an "equivalent" verdict there stands only if EGP-TS beats random search by more than the margin
NN_CONTRAST = "random search"
NN_CONTRAST_BEFORE = {"iris": "not reproduced", "wine": "not reproduced"}
FIG5_COMPETITORS = ["GP-TS rbf (fitted l)", "FB-GP-TS", "BanditBO", "EXP3BO"]  # the parallel TS-based methods
GP_EI4 = ["GP-EI rbf", "GP-EI rbf-ard", "GP-EI matern15", "GP-EI matern25"]
SR = "simple regret f* - best f"
ROBOT_METRIC = "distance to goal (5 - best f)"
ROBOT_STAND_IN = "deterministic Box2D port (push noise seeded by goal and input) for the paper's noisy objective"
SPEED_STAND_IN = ROBOT_STAND_IN + "; FB-GP-TS samples by our random-walk Metropolis (fb_steps per iteration), not the paper's pyro sampler"

#: App. E's speed claim: the margin on seconds per evaluation (ask + tell) and its reason
SPEED_MARGIN = 0.01
SPEED_WHY = "10 ms, the jitter of a wall-clock time per evaluation on shared cores"
SPEED_REVISION = {"date": "2026-11-26", "changed": "declared as a comparison of seconds per evaluation per robot "
                  "(was listed as not run, id F3-speed)",
                  "why": "the runs record the optimiser's ask and tell wall times; the rule was fixed without looking "
                         "at the recorded times",
                  "verdict_before": "not run"}

#: Figs. 2-5: the 11-RBF lengthscales and FB-GP-TS's lengthscale box in the problem's own units
UNITS_REVISION = {"date": "2026-11-26", "changed": "the 11-RBF lengthscales 10^c and FB-GP-TS's lengthscale box [1e-3, 1e3] "
                  "are read in the units of the problem's domain (Table 1, the robot's); before: on the unit cube, "
                  "which is kept as the ablation 'EGP-TS (l on the unit cube)'",
                  "why": "the paper states its domains in their own units (Table 1, the robot code of its ref. [51]) and "
                         "fits its GPs with scikit-learn, which takes the inputs as given; that the authors did not rescale "
                         "is our assumption. Either reading leaves several members degenerate (noise or a constant). The "
                         "readings coincide on Ackley-5d's [0, 1]^5 and on our networks' [0, 1]^4 encoding"}


def lengthscale_widths(problem: str) -> np.ndarray:
    """The widths of ``problem``'s domain, the units of Figs. 2-5's lengthscales (1 on a unit-cube domain)."""
    return np.ptp(get_benchmark(problem).bounds, axis=0)


def units_differ(problem: str) -> bool:
    """Whether reading the lengthscales in ``problem``'s units differs from the unit cube."""
    return bool(np.any(lengthscale_widths(problem) != 1))


def units_revision(problem: str, verdict_before: str) -> list[dict]:
    """:data:`UNITS_REVISION` for a claim on ``problem``, where the two readings differ."""
    return [{**UNITS_REVISION, "verdict_before": verdict_before}] if units_differ(problem) else []


#: the paper's full experimental grid (Sec. 6, App. E), to list what a profile leaves out
PAPER_FUNCTIONS = ["ackley5-unit", "zakharov", "dropwave", "eggholder"]
PAPER_ROBOT_DIMS = [3, 4]
PAPER_NN_DATASETS = ["digits", "breast-cancer", "iris", "wine"]  # bundled stand-ins for MNIST, Breast cancer, Iris, Wine
PAPER_EGPEI_PROBLEMS = PAPER_FUNCTIONS + ["robot-push3", "robot-push4"]

#: simple-regret margins of the synthetic functions: 1% of the expected simple regret that the
#: 10-point uniform initial design leaves (Monte Carlo over 20,000 designs), the scale the paper's
#: regret curves start from
E_INITIAL_REGRET = {"ackley5-unit": 0.293, "zakharov": 459.0, "dropwave": 0.573, "eggholder": 493.0}
#: the pushed object's radius (Box2D units): a robot margin of 5% of it
OBJECT_RADIUS = 1.0
#: the bundled data sets that stand in for the paper's (iris and wine are the UCI sets themselves, as scikit-learn ships them)
NN_STAND_INS = {"digits": "scikit-learn's 8x8 digits for MNIST", "breast-cancer": "the Wisconsin diagnostic set for the UCI "
                "(Ljubljana) breast-cancer set"}
#: data-set sizes of the bundled stand-ins; the validation split is 30% (the paper's 70/30)
NN_SIZES = {"digits": 1797, "breast-cancer": 569, "iris": 150, "wine": 178}
#: noise SD of the exactly Bayesian setting (E4)
SIGMA_N = 0.1


#: the contrast of the regret-rate claims E4-slope and E6-*: a rule that learns and then stops, whose expected regret
#: per step stays constant over the fit's window (random search, the earlier contrast, is linear from the start)
FROZEN_CONTRAST = "EGP-TS that stops learning after T/8 (the fit's first T), then draws from that posterior"
FROZEN_REVISION = {"date": "2026-11-27", "changed": "contrast: EGP-TS frozen after T/8 (was random search)",
                   "why": "an independent audit found random search linear by construction, so the contrast could not show "
                          "that the exponent separates a rule that keeps learning from one that stops"}


def horizons(S) -> tuple[int, int, int]:
    """(T, T_MIG, FIT_LO): the theory horizon, E1's horizon (400 at quick and paper) and the first T of
    the regret-exponent fits (E4, E6)."""
    T = S["theory_T"]
    return T, min(400, 4 * T), max(16, T // 8)


def regret_margin(problem: str) -> tuple[float, str]:
    """The practical difference in final simple regret on ``problem``, with its reason."""
    if problem.startswith("robot-push"):
        return 0.05 * OBJECT_RADIUS, f"5% of the pushed object's radius ({OBJECT_RADIUS:g})"
    if problem.startswith("mlp-"):
        n_val = math.ceil(0.3 * NN_SIZES[problem.removeprefix("mlp-")])
        return 1 / n_val, f"one validation example of {n_val}"
    regret = E_INITIAL_REGRET[problem]
    return round(0.01 * regret, 4), f"1% of the expected simple regret after the 10-point initial design ({regret:g})"


#: the invariants, counted where they are computed (``claims.invariant(id, holds=..., **INVARIANTS[id])``)
INVARIANTS = {
    "E0": dict(statement="recursive updates (eqs. 10, 11) equal the batch posterior and weights (eqs. 7, 17), in any order",
               paper_value="exact", where="log-weights and member means, 1e-8", cell="§5 E0", origin="paper",
               evidence="theory", location="Sec. 3, eqs. (10)-(11) and App. A (recursive Bayes updates)"),
    "E2-bound": dict(statement="Lemma 2's rho_K, bounded as in its ref. [10]: sigma^2_A / sigma^2_{A u B} <= "
                               "exp(2 I(f; y_B | y_A)) <= (1 + sigma_n^-2)^(K-1)",
                     paper_value="always", where="grid points x instances x members x random and greedy B, 1e-8 roundoff",
                     cell="§5 E2", origin="check",
                     revisions=[{"date": "2026-11-26", "changed": "origin paper (Sec. 5, Lemma 2) -> check",
                                 "why": "the paper's Lemma 2 states only that a finite rho_K exists; the bound counted "
                                        "here is that of its ref. [10] (Desautels et al.)",
                                 "verdict_before": "none (an invariant; it held in every case)"}]),
    "E2-monotone": dict(statement="Lemma 2: rho_K is nondecreasing in K (nested pending sets)", paper_value="nondecreasing",
                        where="grid points x instances x members x set kinds x K", cell="§5 E2", origin="check"),
}


def _compare(claims, id, statement, paper_value, problem, stages, **kw):
    margin, reason = regret_margin(problem)
    return claims.comparison(id, statement, paper_value, margin=margin, margin_reason=reason, stages=stages, **kw)


def declare(claims, S) -> None:
    """Declare every claim of notebook 000 at the settings ``S`` (see the module docstring)."""
    T, T_MIG, FIT_LO = horizons(S)
    theory = {"origin": "paper", "evidence": "theory"}
    experiment = {"origin": "paper", "evidence": "experiment"}
    check = {"origin": "check"}

    # ---- Sec. 3: the recursion (E0 and the Lemma 2 invariants E2 are counted where they are computed)
    # ---- Sec. 5: theory
    for d in (1, 2):
        for kernel in ("rbf", "matern25", "matern15"):
            claims.rate(f"E1-{kernel}-d{d}", f"Lemma 1: the information gain of {kernel} (d={d}) is sublinear, gamma_T = O~(T^c) with c < 1",
                        "c < 1", claimed=(0.0, 0.9), estimator=f"log-log slope of the greedy gain on T in [{T_MIG // 4}, {T_MIG}], one per candidate set",
                        contrast="white-noise kernel K = I (no smoothness)", figure="e1_information_gain", cell="§5 E1",
                        location="Sec. 5, Lemma 1 (quoted from its ref. [44])", **check,
                        revisions=[{"date": "2026-11-26", "changed": "origin paper (Sec. 5, Lemma 1) -> check",
                                    "why": "Lemma 1 quotes ref. [44]'s (Srinivas et al.) information-gain rates; the paper "
                                           "neither proves nor measures them",
                                    "verdict_before": "reproduced"}])
        for smoother, rougher in (("rbf", "matern25"), ("matern25", "matern15")):
            claims.comparison(f"E1-order-{smoother}-d{d}", f"the gain exponent of {smoother} is below that of {rougher} (d={d})",
                              "not stated; implied by the rates Lemma 1 cites", method=smoother, competitors=[rougher],
                              direction="lower", metric="log-log slope of the greedy gain (paired by candidate set)",
                              budget=f"T in [{T_MIG // 4}, {T_MIG}]", margin=0.02,
                              margin_reason="a fifth of the gap between the Matérn-5/2 and Matérn-3/2 exponents of the rates "
                                            "Lemma 1 cites (d=1: 2/7 and 2/5)",
                              stages=S["e1_seeds"], figure="e1_information_gain", cell="§5 E1", **check)
    for kernel in ("rbf", "matern25"):
        claims.rate(f"E3-{kernel}", f"Assumption 1 on random-feature draws: max|f'| of {kernel} draws has a Gaussian tail",
                    "holds for kernels four times differentiable", stand_in="random-feature prior, D=250, fresh features per path",
                    claimed=(-inf, -0.05), estimator="curvature c of log P(L_max > L) on standardised L over the upper half "
                                                     "(tail_curvature), one per replicate of draws",
                    contrast="Matérn-1/2 draws (not differentiable)", figure="e3_assumption1", cell="§5 E3",
                    location="Sec. 5, Assumption 1 and the paragraph after Lemma 2", **theory,
                    revisions=[{"date": "2026-11-22", "changed": "claimed range set to c < -0.05 when E3 was first declared",
                                "why": "the cut below the exponential tail's c = 0 was chosen after E3 had run as an undeclared check "
                                       "(commit be2d589)",
                                "verdict_before": "none (not declared before)"}])
    claims.rate("E4-slope", "Theorem 1: EGP-TS's Bayesian regret is sublinear in T", "~ sqrt(T) up to log factors", claimed=(0.0, 0.75),
                estimator=f"log-log slope of BR(T) on T in [{FIT_LO}, {T}] per seed", contrast=FROZEN_CONTRAST,
                figure="e4_theorem1", cell="§5 E4", location="Sec. 5, Theorem 1", **theory,
                revisions=[{**FROZEN_REVISION, "verdict_before": "reproduced"}])
    claims.rate("E4-bound", "Theorem 1 (eq. 30): BR(T) is below the data-dependent bound", "BR(T) <= bound(T)", claimed=(0.0, 1.0),
                estimator="BR(T) / bound(T) at the last T per seed (bound from the EGP-TS runs' posterior SDs and B = E max|f|)",
                contrast="random search against the same bound", figure="e4_theorem1", cell="§5 E4",
                location="App. B, eq. (30)", **theory,
                revisions=[{"date": "2026-11-26", "changed": "the bound's constant is eq. 24's sum pi sqrt(2 pi) M / 12 "
                                                             "(before: the printed sqrt(2 pi) M / 12)",
                            "why": "erratum E-c2: the printed constant drops a factor pi from sum_t 1 / t^2 = pi^2 / 6",
                            "verdict_before": "inconclusive"}])
    claims.value("E4-martingale", "eq. 7: the weights are a martingale, E[w_t^m] = w_0^m at intermediate t (largest deviation over members)",
                 0.0, tolerance=0.1, figure="e4_theorem1", cell="§5 E4", **check,
                 revisions=[{"date": "2026-11-22", "changed": "measured at intermediate t (powers of two up to T/4) as the largest "
                                                              "mean deviation, tolerance 0.1; before: a z-test per member at t = T, |z| <= 4",
                             "why": "at t = T the weights are nearly one-hot, which tests little",
                             "verdict_before": "reproduced"}])
    claims.value("E4-bayes-identity", "the truth is distributed like the weights: E[w_t^{m*}] = E[sum_m (w_t^m)^2] at intermediate t",
                 0.0, tolerance=0.05, figure="e4_theorem1", cell="§5 E4",
                 location="App. B, proof of Theorem 1: m_* and m_t identically distributed given D_{t-1}", **check,
                 revisions=[{"date": "2026-11-22", "changed": "measured at intermediate t (powers of two up to T/4); before: at t = T",
                             "why": "at t = T the weights are nearly one-hot, which tests little",
                             "verdict_before": "reproduced"},
                            {"date": "2026-11-26", "changed": "origin paper -> check",
                             "why": "the independent audit: with exact Bayes weights and Thompson draws the identity holds by "
                                    "construction, so it tests our weights, not a statement of the paper",
                             "verdict_before": "reproduced"}])
    theory_stages = [S["theory_seeds"]]
    br_margin = 0.1 * SIGMA_N * T
    br_reason = f"a per-step regret of a tenth of the noise SD ({SIGMA_N:g}) over T = {T}"
    claims.comparison("E4-oracle", "Theorem 1's setting: Thompson sampling that knows m* has lower regret than EGP-TS", "not in the paper",
                      method="oracle", competitors=["egp-ts"], direction="lower", metric="BR(T)", budget=f"T = {T}",
                      margin=br_margin, margin_reason=br_reason, stages=theory_stages, figure="e4_theorem1", cell="§5 E4", **check)
    claims.comparison("E4-random", "EGP-TS has lower Bayesian regret than random search", "not in the paper", method="egp-ts",
                      competitors=["random"], direction="lower", metric="BR(T)", budget=f"T = {T}",
                      margin=br_margin, margin_reason=br_reason, stages=theory_stages, figure="e4_theorem1", cell="§5 E4", **check)
    claims.comparison("E4-single", "with the member unknown, EGP-TS has lower Bayesian regret than each single member", "not in the paper",
                      method="egp-ts", competitors=[f"single-{j}" for j in range(M_E4)], direction="lower", metric="BR(T)",
                      budget=f"T = {T}", margin=br_margin, margin_reason=br_reason, stages=theory_stages,
                      figure="e4_theorem1", cell="§5 E4", **check)
    claims.coverage("E7", "Lemma 4: the true member is in the confidence set C_T with probability >= 1 - 2M/T (a wide set: §5 E7)",
                    f">= {1 - 2 * M_E4 / T:.4f}", level=1 - 2 * M_E4 / T, margin=0.05, unit="seed (m* in C_t at t = T)",
                    cell="§5 E7", location="App. B, Lemma 4", **theory)
    claims.rate("E7-control", "Lemma 4's confidence set can flag a miscalibrated model: with every member's mean raised by 5 "
                "noise SDs, m* stays in C_T in fewer than 1 - 2M/T of the seeds", f"not in the paper (Lemma 4: >= {1 - 2 * M_E4 / T:.4f} "
                "for the right model)", claimed=(0.0, 1 - 2 * M_E4 / T - 0.05),
                estimator="share of seeds with m* in C_T when the means are raised, bootstrap over seeds",
                cell="§5 E7", **check,
                revisions=[{"date": "2026-11-26", "changed": "counted as a check (was printed as a report, with the coverage rule's "
                                                             "verdict 'not reproduced')",
                            "why": "an independent review found E7 unable to fail for a reasonable model; this control is the "
                                   "evidence that the check can fail, so it is counted",
                            "verdict_before": "none (a report)"}])
    claims.erratum("L5", "Lemma 5's proof (App. B.2): E[mu^{m_t}_{t-1}(x_t)] = E[f(x_*)] at every t (error: the largest |mean "
                   "over seeds of mu^{m_t}_{t-1}(x_t) - f(x_*)| over t <= T/4, relative to E[f(x_*)]; correction: "
                   "E[mu^{m_t}_{t-1}(x_t)] = E[mu^{m_*}_{t-1}(x_*)] <= E[f(x_*)], error its largest positive part). "
                   "Lemma 5's bound itself holds (§8)", "an identity at every t", tolerance=0.05, figure="e4_theorem1",
                   cell="§5 E4", location="App. B, Lemma 5 and its proof (B.2)", **theory,
                   revisions=[{"date": "2026-11-26", "changed": "declared as a value claim on the mean over t <= T",
                               "why": "an independent review found Lemma 5 unchecked; declared before this notebook computed it",
                               "verdict_before": "none (not declared)"},
                              {"date": "2026-11-26", "changed": "from a value claim (mean over t <= T within 5%) to an erratum "
                                                                "of the proof's identity (per t, t <= T/4)",
                               "why": "the independent audit showed the mean over t <= T decided by the horizon (not reproduced "
                                      "at T = 128, inside the tolerance at T = 512) for an identity that fails at every t; "
                                      "the lemma's bound holds, only the proof step fails",
                               "verdict_before": "not reproduced"}])
    claims.not_run("R2", "Remark 2: with a dictionary of one kernel type, EGP-TS is a pseudo-Bayesian GP (hyperparameters from a "
                   "finite set) that sits between ML-II and fully Bayesian GP-TS and is cheaper than the latter",
                   "qualitative", "no statement to test beyond its consequences in the experiments: Fig. 2 and 3(b) against "
                   "FB-GP-TS (claims F2-*, F3b-*) and App. E's speed (F3-speed-*)", cell="§3",
                   location="Sec. 3, Remark 2", **theory)
    claims.comparison("E8", "with a Matérn-3/2 truth the Matérn-3/2 member ends with more weight than each other member (fitted hyperparameters)",
                      "not in the paper", method="matern15", competitors=["rbf", "rbf-ard", "matern25"], direction="higher",
                      metric="final weight", budget=f"{S['e8_budget']} evaluations", margin=0.05,
                      margin_reason="a fifth of the prior weight 1/4 of each of the four members", stages=S["e8_seeds"],
                      figure="e8_weights_practical", cell="§5 E8", **check,
                      revisions=[{"date": "2026-11-22", "changed": "the Matérn-3/2 member alone against each other member; before: the "
                                                                   "total weight of both Matérn members against the RBF members",
                                  "why": "Matérn-5/2 is the closest rival of the truth; pooling it with the truth favoured the claim",
                                  "verdict_before": "inconclusive"}])
    claims.rate("E5", "Theorem 1's sqrt(M) factor, with a fixed truth (outside Theorem 1's prior): BR(T) grows at most like sqrt(M) "
                "when M - 1 clearly wrong members are added", "exponent <= 1/2",
                claimed=(-inf, 0.5), estimator=f"log-log slope of BR(T) on M in {S['m_values']} per seed",
                contrast="members drawn uniformly from the same dictionaries (weights ignore the evidence)", figure="e5_sqrt_m",
                cell="§5 E5", **check,
                revisions=[{"date": "2026-11-22", "changed": "claimed range exponent <= 0.5 (before <= 0.6); added members a factor >= 3 "
                                                             "from the truth (before: any lengthscales); statement says the truth is "
                                                             "outside Theorem 1's prior",
                            "why": "members close to the truth cost nothing, so the check could not separate",
                            "verdict_before": "reproduced"}])
    for mode, theorem in (("async", 2), ("sync", 3)):
        for K in KS[1:]:
            claims.rate(f"E6-{mode}-K{K}", f"Theorem {theorem}: with K={K} {mode} workers the Bayesian regret is sublinear", "sublinear",
                        claimed=(0.0, 0.8), estimator=f"log-log slope of BR(T) on T in [{FIT_LO}, {T}] per seed (2-D setting)",
                        contrast=FROZEN_CONTRAST + ", sequential", figure="e6_parallel", cell="§5 E6",
                        location=f"Sec. 5, Theorem {theorem} and the remark after Theorem 3", **theory,
                        revisions=[{**FROZEN_REVISION, "verdict_before": "reproduced"}])

    # ---- errata (computed in §6.1)
    claims.erratum("T1", "Table 1: the maximum of Ackley-5d on [0,1]^5 is 4.6930", "4.6930", tolerance=1e-3, cell="§6.1",
                   location="App. E, Table 1", **experiment)
    claims.value("T1-others", "Table 1: the maxima of Zakharov (0), Drop-wave (1) and Eggholder (959.6407) on their printed "
                 "domains (the largest absolute error of the three against multistart L-BFGS-B)", 0.0, tolerance=1e-3,
                 cell="§6.1", location="App. E, Table 1", **experiment,
                 revisions=[{"date": "2026-11-26", "changed": "declared", "why": "the independent audit found only Ackley's "
                             "row of Table 1 checked", "verdict_before": "none (not declared)"}])
    claims.not_run("L2", "Lemma 2: a finite rho_K bounds the variance inflation of K - 1 pending points", "exists",
                   "an existence statement with no value to compute; E2's invariants (ours) check its ref. [10]'s bound and "
                   "the monotonicity in K", cell="§5 E2", location="Sec. 5, Lemma 2", **theory)
    claims.not_run("T23-bounds", "Theorems 2 and 3: the explicit regret bounds (sqrt(rho_K) times Theorem 1's and, for "
                   "Theorem 3, the (K - 1) sqrt(d log(K - 1)) terms)", "BR_K(T) <= sqrt(rho_K) (...) + ...",
                   "their constants involve rho_K of a continuous domain and the unknown B, so only the sublinear growth is "
                   "decided (E6-*); the heuristic sqrt(rho_K) BR_1 + (K - 1) 2B is shown beside the runs, not claimed",
                   cell="§5 E6", location="Sec. 5, Theorems 2 and 3", **theory)
    claims.erratum("E-L3", "Lemma 3: every GP sample path has max_x |f(x*) - f(x)| <= 2B, B = E max|f| (error: the largest "
                   "share, over RBF lengthscales 0.03-0.3, of exact sample paths that break it; correction: the bound in "
                   "expectation, E max_x |f(x*) - f(x)| <= 2B, error its relative excess)", "pathwise; step (28)(a) uses it so",
                   tolerance=0.01, cell="§5 E3", location="App. B, Lemma 3 and step (28)(a)", **theory,
                   revisions=[{"date": "2026-11-26", "changed": "declared", "why": "an independent review found the "
                               "pathwise statement failing on 10-19% of exact RBF paths; declared before this notebook "
                               "computed it", "verdict_before": "none (not declared)"}])
    claims.erratum("E-RF", "App. A: exp(-|x-x'|^2) has spectral density N(0, I)", "N(0, I) (correct: N(0, 2I))", tolerance=0.03,
                   cell="§6.1", location="App. A, the RBF example", **theory)

    # ---- Sec. 6 and App. E: comparisons against the paper's full competitor sets
    budget = f"{S['budget']} evaluations"
    for prob in S["functions"]:
        _compare(claims, f"F1-{prob}", f"Fig. 1: EGP-TS (4-kernel dictionary) beats every GP-TS, GP-EI, BanditBO and EXP3BO on {prob}",
                 "substantially better than GP-TS; better than BanditBO and EXP3BO (Sec. 6.1), and than GP-EI on Zakharov "
                 "(Sec. 6.1; elsewhere from the figure)", prob, S["seeds"], method="EGP-TS",
                 competitors=FIG1_COMPETITORS, direction="lower", metric=SR, budget=budget,
                 figure="fig1_synthetic_four_kernels", cell="§6.2", location="Sec. 6.1, Fig. 1", **experiment)
    if "zakharov" in S["functions"]:
        _compare(claims, "F1-zakharov-gpei", "Fig. 1: on Zakharov GP-EI beats every GP-TS baseline", "GP-EI superior to GP-TS", "zakharov",
                 S["seeds"], method="GP-EI (BoTorch)", competitors=GP_TS4, direction="lower", metric=SR, budget=budget,
                 figure="fig1_synthetic_four_kernels", cell="§6.2", location="Sec. 6.1, Fig. 1", **experiment)
    for prob in S["fig2_functions"]:
        _compare(claims, f"F2-{prob}", f"Fig. 2: EGP-TS (11-RBF dictionary) beats all baselines, FB-GP-TS included, on {prob}",
                 "outperforms all", prob, S["seeds"], method="EGP-TS", competitors=FIG2_COMPETITORS, direction="lower", metric=SR,
                 budget=budget, figure="fig2_synthetic_rbf11", cell="§6.3", location="Sec. 6.1, Fig. 2", **experiment,
                 revisions=units_revision(prob, "not run at quick; not run at the paper profile"))
    for d in S["robot_dims"]:
        robot = f"robot-push{d}"
        for part, competitors, figure, what in (("a", FIG1_COMPETITORS, "fig3a_robot_four_kernels", "4-kernel dictionary"),
                                                ("b", FIG2_COMPETITORS, "fig3b_robot_rbf11", "11-RBF dictionary")):
            _compare(claims, f"F3{part}-{robot}", f"Fig. 3({part}): EGP-TS ({what}) beats all competitors on {robot}",
                     "outperforms all" if part == "a" else "stands out", robot, S["robot_seeds"], method="EGP-TS",
                     competitors=competitors, direction="lower", metric=ROBOT_METRIC, stand_in=ROBOT_STAND_IN,
                     budget=f"{S['robot_budget']} evaluations", figure=figure, cell="§6.4",
                     location=f"Sec. 6.2, Fig. 3({part})" + ("; App. E" if part == "b" else ""), **experiment,
                     revisions=units_revision(robot, "not reproduced (quick)") if part == "b" else [])
        claims.comparison(f"F3-speed-{robot}", f"App. E: EGP-TS (11-RBF dictionary) spends less time per evaluation than "
                          f"fully Bayesian GP-TS on {robot}", "runs much more faster", method="EGP-TS",
                          competitors=["FB-GP-TS"], direction="lower",
                          metric="mean wall-clock seconds per BO evaluation, proposing and taking the value in (objective "
                                 "excluded)", budget=f"{S['robot_budget']} evaluations", margin=SPEED_MARGIN,
                          margin_reason=SPEED_WHY, stages=S["robot_seeds"], stand_in=SPEED_STAND_IN,
                          cell="§6.4", location="App. E, robot pushing (the paragraph on Fig. 3(b))",
                          revisions=[SPEED_REVISION, *units_revision(robot, "reproduced (quick)")], **experiment)
    for data in S["nn_datasets"]:
        _compare(claims, f"F4-mlp-{data}", f"Fig. 4: EGP-TS reaches the best validation accuracy on {data}",
                 "best on 4 of 5 data sets (which not said)", f"mlp-{data}", S["nn_seeds"], method="EGP-TS",
                 competitors=FIG2_COMPETITORS, direction="lower", metric="1 - best validation accuracy",
                 budget=f"{S['nn_budget']} evaluations", stand_in=NN_STAND_INS.get(data, ""),
                 figure="fig4_nn_tuning", cell="§6.5", location="Sec. 6.3, Fig. 4", **experiment, contrast=NN_CONTRAST,
                 revisions=[{"date": "2026-11-27", "changed": "an 'equivalent' verdict stands only if EGP-TS beats random "
                             "search (same initial design and budget) by more than the margin; random search runs on Fig. 4's "
                             "problems", "why": "on iris and wine every method ended within the margin of every other (the "
                             "data sets' accuracy ceiling), so 'equivalent' followed whatever the methods did",
                             "verdict_before": NN_CONTRAST_BEFORE.get(data, "not run at quick")}])
    for K in S["parallel_K"]:
        _compare(claims, f"F5-K{K}", f"Fig. 5: with K={K} synchronous workers EGP-TS beats every parallel TS baseline on Ackley-5d",
                 "stands out for every K", "ackley5-unit", S["parallel_seeds"], method="EGP-TS", competitors=FIG5_COMPETITORS,
                 direction="lower", metric=SR, budget=f"{S['parallel_budget']} evaluations", figure="fig5_parallel", cell="§6.6",
                 location="App. E, Fig. 5", **experiment)
    for prob in [p for p in S["fig2_functions"] if units_differ(p)] + [f"robot-push{d}" for d in S["robot_dims"]]:
        _compare(claims, f"F-units-{prob}", f"the 11-RBF grid in {prob}'s own units serves EGP-TS better than the same grid "
                 "on the unit cube", "not in the paper (the paper does not state the units)", prob,
                 S["robot_seeds"] if prob.startswith("robot") else S["seeds"], method="EGP-TS",
                 competitors=[UNIT_CUBE_LABEL], direction="lower", metric=ROBOT_METRIC if prob.startswith("robot") else SR,
                 budget=f"{S['robot_budget' if prob.startswith('robot') else 'budget']} evaluations",
                 figure="fig3b_robot_rbf11" if prob.startswith("robot") else "fig2_synthetic_rbf11",
                 cell="§6.4" if prob.startswith("robot") else "§6.3", **check,
                 revisions=[{"date": "2026-11-26", "changed": "declared", "why": "declared with the change of units, when the "
                             "unit-cube arm's runs (the former EGP-TS runs) and F3b's verdict on them existed",
                             "verdict_before": "none (not declared)"}])
    for prob in S["egpei_problems"]:
        _compare(claims, f"F6-{prob}", f"Figs. 6/7: EGP-EI beats GP-EI with each preselected kernel on {prob}",
                 "wins on 3 of 4 functions and both robots", prob, S["egpei_seeds"], method="EGP-EI", competitors=GP_EI4,
                 direction="lower", metric=SR, budget=f"{S['egpei_budget']} evaluations",
                 figure="fig7_egp_ei_robots" if prob.startswith("robot") else "fig6_egp_ei", cell="§6.7",
                 location="App. E, Fig. 7" if prob.startswith("robot") else "App. E, Fig. 6", **experiment)

    # ---- the paper's experiments this profile does not run
    dropped = "not in this profile's settings (compute); the paper profile runs it"
    for prob in PAPER_FUNCTIONS:
        if prob not in S["functions"]:
            claims.not_run(f"F1-{prob}", f"Fig. 1: EGP-TS (4-kernel dictionary) beats every competitor on {prob}",
                           "substantially better than GP-TS; better than the rest", dropped, cell="§6.2",
                           location="Sec. 6.1, Fig. 1", **experiment)
        if prob not in S["fig2_functions"]:
            claims.not_run(f"F2-{prob}", f"Fig. 2: EGP-TS (11-RBF dictionary) beats all baselines on {prob}", "outperforms all",
                           dropped, cell="§6.3", location="Sec. 6.1, Fig. 2", **experiment)
    for d in PAPER_ROBOT_DIMS:
        if d not in S["robot_dims"]:
            for part in ("a", "b"):
                claims.not_run(f"F3{part}-robot-push{d}", f"Fig. 3({part}): EGP-TS beats all competitors on robot-push{d}",
                               "outperforms all", dropped, cell="§6.4", location=f"Sec. 6.2, Fig. 3({part})", **experiment)
            claims.not_run(f"F3-speed-robot-push{d}", f"App. E: EGP-TS spends less time per evaluation than fully Bayesian "
                           f"GP-TS on robot-push{d}", "runs much more faster", dropped, cell="§6.4",
                           location="App. E, robot pushing (the paragraph on Fig. 3(b))", **experiment)
    for data in PAPER_NN_DATASETS:
        if data not in S["nn_datasets"]:
            claims.not_run(f"F4-mlp-{data}", f"Fig. 4: EGP-TS reaches the best validation accuracy on {data}",
                           "best on 4 of 5 data sets", dropped, cell="§6.5", location="Sec. 6.3, Fig. 4", **experiment)
    claims.not_run("F4-mlp-transportation", "Fig. 4: EGP-TS reaches the best validation accuracy on Transportation",
                   "best on 4 of 5 data sets", "the data set is not available offline and has no bundled stand-in", cell="§6.5",
                   location="Sec. 6.3, Fig. 4", **experiment)
    for K in (2, 4, 8):
        if K not in S["parallel_K"]:
            claims.not_run(f"F5-K{K}", f"Fig. 5: with K={K} synchronous workers EGP-TS beats every parallel TS baseline",
                           "stands out for every K", dropped, cell="§6.6", location="App. E, Fig. 5", **experiment)
    for prob in PAPER_EGPEI_PROBLEMS:
        if prob not in S["egpei_problems"]:
            claims.not_run(f"F6-{prob}", f"Figs. 6/7: EGP-EI beats GP-EI with each preselected kernel on {prob}",
                           "wins on 3 of 4 functions and both robots", dropped, cell="§6.7",
                           location="App. E, Fig. 7" if prob.startswith("robot") else "App. E, Fig. 6", **experiment)
    claims.protocol_revision(PROTOCOL_BEFORE)
    claims.revise({f"F1-{prob}": "inconclusive" if prob in ("ackley5-unit", "dropwave", "zakharov") else "not run at quick"
                   for prob in PAPER_FUNCTIONS},
                  date="2026-11-26", changed="the paper's value quoted from Sec. 6.1 (GP-EI beaten explicitly only on "
                  "Zakharov); before: 'better than the rest'; competitors unchanged",
                  why="the independent audit: the text claims less than the old quote; GP-EI stays a competitor on every "
                      "function, as Fig. 1 plots it")


#: the quick verdicts of the comparisons decided before their margins and seed stages were declared
#: (bolib.claims.book.PROTOCOL_REVISION)
PROTOCOL_BEFORE = {
    'E1-order-matern25-d1': 'reproduced',
    'E1-order-matern25-d2': 'reproduced',
    'E1-order-rbf-d1': 'reproduced',
    'E1-order-rbf-d2': 'reproduced',
    'E4-oracle': 'reproduced',
    'E4-random': 'reproduced',
    'E4-single': 'reproduced',
    'E8': 'not reproduced',
    'F1-ackley5-unit': 'inconclusive',
    'F1-dropwave': 'inconclusive',
    'F1-zakharov': 'inconclusive',
    'F1-zakharov-gpei': 'inconclusive',
    'F2-ackley5-unit': 'inconclusive',
    'F3a-robot-push3': 'inconclusive',
    'F3b-robot-push3': 'inconclusive',
    'F4-mlp-iris': 'inconclusive',
    'F4-mlp-wine': 'inconclusive',
    'F5-K2': 'inconclusive',
    'F5-K4': 'inconclusive',
    'F6-zakharov': 'inconclusive',
}
