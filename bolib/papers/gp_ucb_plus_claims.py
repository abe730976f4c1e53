"""Paper 001 (GP-UCB+ / EXPLOIT+): the claims of notebook ``001_gpucbplus``, declared before any result.

:func:`declare` declares every decided claim of the notebook (the invariants C3 and C6-A2 are
counted where they are computed) with its origin: ``paper`` for a statement of Kim & Sanz-Alonso
(arXiv:2401.17037v1) with its location, ``check`` for ours (sanity checks, contrasts, implied but
unstated consequences). The constants the declarations need (methods, the paper's tables, the
stage lists' users) live here too, and the notebook imports them. No job module imports this one:
editing it changes no cache key.
"""
from __future__ import annotations

import math

from bolib.papers.gp_ucb_plus import power_log_exponent, theorem31_exponent

KERNELS = ("matern05", "matern15", "matern25", "rbf")
NU = {"matern05": 0.5, "matern15": 1.5, "matern25": 2.5, "rbf": math.inf}
RULES = ("gp-ucb", "gp-ucb+", "exploit+")  # the rules of Theorems 3.1 and 4.4
PLUS_RULES = ("gp-ucb+", "exploit+")
C5_CASES = [("matern25", 1), ("matern25", 2), ("rbf", 1), ("rbf", 2)]
METHODS = ["gp-ucb+", "gp-ucb", "exploit+", "exploit", "gp-ei", "gp-pi"]
LABEL = {"gp-ucb+": "GP-UCB+", "gp-ucb": "GP-UCB", "exploit+": "EXPLOIT+", "exploit": "EXPLOIT", "gp-ei": "EI",
         "gp-pi": "PI", "botorch-logei": "BoTorch LogEI (reference)",
         "gp-ei-nugget": "EI, fitted noise (reference)", "random": "random search (contrast)"}
#: the contrast of the tuning and sprinkler comparisons: a verdict resting on a margin stands only if the set-up
#: tells EXPLOIT+ or GP-UCB+ apart from random search (bolib.claims.rules.comparison)
CONTRAST = "random"
PLUS, OTHERS = ["gp-ucb+", "exploit+"], ["gp-ucb", "exploit", "gp-ei", "gp-pi"]
PAPER_BEST = {"ackley": "gp-ucb+", "rastrigin": "exploit+", "levy": "exploit+"}  # Table 1's best method per function
# Tables 1 and 4 (App. B), rows in the order of METHODS: mean and SD of the final simple regret over 20 runs at 400
# evaluations, each divided by the worst method's
PAPER_T1 = {"ackley": [0.222, 0.583, 0.342, 1.000, 0.832, 0.891], "rastrigin": [0.576, 0.930, 0.505, 1.000, 0.644, 0.698],
            "levy": [0.146, 0.768, 0.126, 1.000, 0.142, 0.507]}
PAPER_T4 = {"ackley": [0.075, 1.000, 0.306, 0.733, 0.466, 0.329], "rastrigin": [0.797, 1.000, 0.577, 0.976, 0.609, 0.360],
            "levy": [0.131, 0.719, 0.127, 1.000, 0.160, 0.312]}
# B1's competitors per function and "+" method: the other methods that Table 1 shows with a larger mean (Sec. 5.1's text
# says both '+' methods outperform all others; on Levy Table 1 prints EI below GP-UCB+, erratum E11)
T1_LARGER = {(fn, m): [o for o in OTHERS if PAPER_T1[fn][METHODS.index(o)] > PAPER_T1[fn][METHODS.index(m)]]
             for fn in PAPER_T1 for m in PLUS}
# B3's competitors per function and "+" method: the other methods that Table 4 shows with a larger SD (erratum E10)
T4_LARGER = {(fn, m): [o for o in OTHERS if PAPER_T4[fn][METHODS.index(o)] > PAPER_T4[fn][METHODS.index(m)]]
             for fn in PAPER_T4 for m in PLUS}
PAPER_T2 = {"gp-ucb+": "28.552 ± 1.971", "gp-ucb": "35.226 ± 1.467", "exploit+": "26.346 ± 1.404", "exploit": "35.026 ± 1.092",
            "gp-ei": "34.294 ± 0.987", "gp-pi": "33.438 ± 1.085"}
PAPER_T3 = {"gp-ucb+": "17.511 ± 1.603", "gp-ucb": "18.038 ± 2.026", "exploit+": "18.427 ± 1.825", "exploit": "17.352 ± 2.537",
            "gp-ei": "18.061 ± 1.657", "gp-pi": "17.105 ± 2.329"}
# Theorem 4.4 in d = 2: exponent (d - nu)/d for d > nu, bounded (0) otherwise; GP-UCB's earlier exponents (Lyu et al.)
PREDICTED = {k: max(0.0, (2 - NU[k]) / 2) for k in KERNELS}
EARLIER_UCB = {k: (NU[k] + 2) / (2 * NU[k] + 2) if k != "rbf" else 0.5 for k in KERNELS}
# Mean regret of one uniformly random point in the 10-D box (Monte Carlo, 2e5 points; a property of each function):
# the scale of the benchmark margins
RANDOM_REGRET = {"ackley": 21.15, "rastrigin": 185.3, "levy": 120.1}
BENCH_MARGIN = {fn: round(0.01 * r, 2) for fn, r in RANDOM_REGRET.items()}
S1_MARGIN = 1.0  # 5% of the sprinkler's best known value 19.83
S2_MARGIN = 0.2  # 1% of the best known value; the paper's own gap between EXPLOIT+ and the next best is 0.37
RF_MARGIN_PER_QUERY = 0.01  # 1% of the standardised target's variance per query
FILL_MARGIN = 0.05  # 5% of the unit box's side
RATE_CONTRAST = "GP-UCB with the same beta = ||f||_H^2, same functions and seeds"
#: the (kernel, rule) pairs of Theorem 4.4 decided on C4's runs: all but GP-UCB+ at nu = 1/2, whose beta^1/2 = ||f||_H
#: makes it query almost uniformly, so its regret is still near-linear at any horizon run here (the working spec's pilot:
#: last-doubling exponent 1.04 at T = 400 against 0.75 predicted); listed as not run
C4_RATES = [(k, r) for k in KERNELS for r in PLUS_RULES if (k, r) != ("matern05", "gp-ucb+")]
#: the paper's remarks that compare bounds with the literature (nothing to measure here): id -> (location, statement)
LITERATURE_REMARKS = {
    "N-R3.2": ("Remark 3.2", "Theorem 3.1's gain over earlier bounds comes from the constant 1/log(1 + 1/lambda), which "
                             "offsets a sqrt(log T) growth as lambda -> 0"),
    "N-R3.3": ("Remark 3.3", "for Matérn kernels the same route does not improve the rate"),
    "N-R3.4": ("Remark 3.4", "Theorem 3.1 is deterministic, unlike noisy-observation bounds"),
    "N-R4.7": ("Remark 4.7", "against [27]: bounded regret for d < nu and the conjectured rate up to T^eps for d >= nu"),
    "N-R4.9": ("Remark 4.9", "under the GP assumption the noise-free setting gives no gain over the noisy one"),
    "N-R4.10": ("Remark 4.10", "the rates in expectation are faster than noisy GP-UCB's bounds of [32]"),
}
#: Remarks 4.1 and 4.3 on EXPLOIT+ in C4's setting: id -> (location, the run's exploration settings, what changes);
#: run on the kernels whose Theorem 4.4 rate grows (nu < d = 2)
REMARKS = {"R41": ("Remark 4.1", {"n_explore": 2}, "two exploration points per iteration"),
           "R43": ("Remark 4.3", {"exploration": "tilted"}, "P with density proportional to 1 + 3 x_1 (not uniform)")}
REMARK_KERNELS = ("matern05", "matern15")


#: invariants that are results the paper cites, not its own: counted as our checks ([13] Cor. 3.11; [16], Sec. 3.2)
CITED = ("C3a", "C3b")
#: Statements of the identities and bounds the notebook counts (``claims.invariant``), by id; the notebook adds
#: what they were counted over (``where``) and whether they held.
INVARIANTS = {
    "C3a": dict(statement="|f - mu_t-1| <= ||f||_H sigma_t-1 on the whole grid at every step (RKHS error bound)",
                paper_value="always (used in eq. A.1)", location="proof of Thm 3.1, eq. (A.1)", cell="§5 C3"),
    "C3b": dict(statement="sigma_t,0 <= sigma_t,lambda at every grid point and step, lambda in {1e-6, 1e-3, 1}",
                paper_value="always (step (iii) of A.2)", location="proof of Thm 3.1, eq. (A.2)", cell="§5 C3"),
    "C3c": dict(statement="r_t <= 2 ||f||_H sigma_t-1(x_t) for GP-UCB and GP-UCB+ with beta = ||f||^2",
                paper_value="always (eq. A.1)", location="proof of Thm 3.1, eq. (A.1)", cell="§5 C3"),
    "C3d": dict(statement="r_t <= 2 ||f||_H sup sigma_t-1 for GP-UCB+ and EXPLOIT+", paper_value="always (proof of Thm 4.4)",
                location="proof of Thm 4.4 (App. A)", cell="§5 C3"),
    "C6-A2": dict(statement="R_T <= sqrt(8 T ||f||_H^2 gamma_T,lambda / log(1 + 1/lambda)) along GP-UCB runs "
                  "(beta = ||f||^2)", paper_value="always (eq. A.2, proof of Thm 3.1)",
                  location="proof of Thm 3.1, eq. (A.2)", cell="§5 C6"),
}
for _id, _statement in INVARIANTS.items():
    if _id in CITED:
        _statement.update(origin="check", revisions=[{
            "date": "2026-11-27", "changed": "counted as our check (was the paper's)", "verdict_before": "holds in every case",
            "why": "a result the paper cites for its proofs, as C2 (independent audit, issue 27)"}])
    else:
        _statement.update(origin="paper", evidence="theory")


def c4_bound(T: int) -> dict:
    """Claimed upper bounds on the last-doubling exponent of C4: 0.1 above the predicted exponent,
    except at nu = 1/2, where the allowance is the theorem's log factor (T^(3/4) log^(1/4) T)."""
    bound = {k: PREDICTED[k] + 0.1 for k in KERNELS}
    bound["matern05"] = power_log_exponent(T, 1 - NU["matern05"] / 2, NU["matern05"] / 2)
    return bound


def declare(claims, S: dict) -> None:
    """Declare every decided claim of notebook 001 at the settings ``S`` of its profile."""
    T4, T5 = S["c4_T"], S["c5_T"]
    bound4 = c4_bound(T4)
    last_doubling = "last-doubling exponent log2(R_T / R_T/2) of the acquisition points' cumulative regret"
    c4_stages, bench_stages = S["c4_seeds"], S["bench_seeds"]

    for d in (1, 2, 3):
        claims.rate(f"C1-logfactor-d{d}", f"i.i.d. uniform points have fill distance of order (log n/n)^(1/d), not n^(-1/d) (d={d})",
                    "not stated: Sec. 4.1 gives Theta(t^(-1/d)) for quasi-uniform points; the proof of Thm 4.4 uses "
                    "E h_t^nu <~ t^(-nu/d+eps)", claimed=(1 / (2 * d), 2 / d),
                    estimator="coefficient of log(h n^(1/d)) on log log n over n = 16..2^max, per design replicate "
                              "(1/d for (log n/n)^(1/d), 0 for n^(-1/d))",
                    contrast="scrambled Sobol designs (quasi-uniform, coefficient 0)", figure="c1_fill_distance",
                    cell="§5 C1", origin="check")
        claims.comparison(f"C1-sobol-d{d}", f"scrambled Sobol points fill [0,1]^d better than i.i.d. uniform points (d={d})",
                          "implied by Sec. 4.1: quasi-uniform Theta(t^(-1/d)) is the fastest possible decay", method="sobol",
                          competitors=["uniform"], direction="lower", metric="mean log fill distance over n >= 64, per replicate",
                          budget=f"n = 64..{2 ** S['c1_max_log2n']}", margin=0.05,
                          margin_reason="5% in fill distance (0.05 in log h)",
                          figure="c1_fill_distance", cell="§5 C1", origin="check")
    c2_revision = {"date": "2026-11-22", "changed": "claimed range made one-sided, slope >= nu - 0.2 (was nu +- 0.2)",
                   "why": "the paper bounds sup sigma from above only, which bounds the slope from below"}
    c2_origin = {"date": "2026-11-26", "changed": "counted as our check (was the paper's claim)",
                 "why": "the power-function bounds are results the paper cites ([35], Wendland) for its proof, not its own "
                        "(an independent reader, issue 25)"}
    for kernel, before in (("matern05", "reproduced"), ("matern15", "reproduced"), ("matern25", "inconclusive")):
        nu = NU[kernel]
        claims.rate(f"C2-{kernel}", f"power function sup sigma <= C h^nu for Matérn nu={nu}: log-log slope of sup sigma on h at least nu",
                    f"sup sigma <= C h^{nu} (slope >= {nu})", claimed=(nu - 0.2, math.inf),
                    estimator="least-squares slope of log sup sigma on log h over n = 32..512, per replicate",
                    figure="c2_power_function", cell="§5 C2", origin="check",
                    location="App. A, proof of Thm 4.4 (the bound cited from [35])",
                    revisions=[{**c2_revision, "verdict_before": before}, {**c2_origin, "verdict_before": "reproduced"}])
    claims.rate("C2-rbf", "SE power function decays like exp(-c/h), faster than any power of h",
                "sup sigma <= exp(-c/h) (Wendland Thm 11.22, proof of Thm 4.4)", claimed=(0.0, math.inf),
                estimator="log(RSS of a power-law fit / RSS of an exponential-in-1/h fit) of log sup sigma, per replicate",
                contrast="Matérn 5/2 designs (a power law, nu = 5/2)", figure="c2_power_function", cell="§5 C2",
                origin="check", location="App. A, proof of Thm 4.4 (Wendland's Thm 11.22)",
                revisions=[{**c2_origin, "verdict_before": "inconclusive"}])

    contrast_revision = {"date": "2026-11-25", "changed": "contrast GP-UCB with the same beta (was EXPLOIT, beta = 0)",
                         "why": "GP-UCB also settles on the grid's maximiser, so it, not EXPLOIT, shows whether the bound separates "
                                "the theorem's rate from GP-UCB's (issue 27)", "verdict_before": "reproduced"}
    claims.not_run("C4-gp-ucb+-matern05", "Thm 4.4: gp-ucb+ cumulative regret grows at most like T^0.75 (matern05, d=2, "
                   "f in the RKHS)", "exponent <= 0.75 (+ epsilon)",
                   "pre-asymptotic at every horizon run here: with beta^1/2 = ||f||_H GP-UCB+ queries almost uniformly and its "
                   "regret still grows near-linearly (the working spec's pilot: exponent 1.04 at T = 400); its per-seed "
                   "exponents are printed beside the others", cell="§5 C4", origin="paper", evidence="theory",
                   location="Thm 4.4",
                   revisions=[{"date": "2026-11-27", "changed": "listed as not run (was decided on the last doubling at T)",
                               "why": "the working spec said not to assert this case (pre-asymptotic); an independent audit "
                                      "found it decided against the paper from one doubling (issue 27)",
                               "verdict_before": "not reproduced"}])
    for kernel, rule in C4_RATES:
        growth = f"grows at most like T^{PREDICTED[kernel]:g}" if PREDICTED[kernel] > 0 else "stays bounded"
        revisions = [contrast_revision]
        if kernel == "matern05":
            revisions = [{"date": "2026-11-22", "changed": f"bound {bound4[kernel]:.3g} from the log factor at T (was 0.85)",
                          "why": "0.85 exceeded GP-UCB's earlier exponent 0.83", "verdict_before": "reproduced"},
                         {**contrast_revision, "verdict_before": "reproduced"}]
        claims.rate(f"C4-{rule}-{kernel}", f"Thm 4.4: {rule} cumulative regret {growth} ({kernel}, d=2, f in the RKHS)",
                    f"exponent <= {PREDICTED[kernel]:g} (+ epsilon)", claimed=(-math.inf, bound4[kernel]),
                    estimator=f"{last_doubling}, T={T4}", contrast=RATE_CONTRAST, figure="c4_theorem44_rates",
                    cell="§5 C4", origin="paper", evidence="theory", location="Thm 4.4", revisions=revisions)
    for kernel in KERNELS:
        claims.comparison(f"C4-cmp-{kernel}", f"EXPLOIT+ has lower cumulative regret than GP-UCB with beta = ||f||^2 ({kernel}, d=2)",
                          "implied by Remark 4.6 (improved bounds over GP-UCB)", method="exploit+", competitors=["gp-ucb"],
                          direction="lower", metric="cumulative regret of the acquisition points", budget=f"T = {T4}",
                          margin=1.0, margin_reason="the regret of one bad query: f is of order 1 (k(x,x) = 1)",
                          stages=c4_stages, figure="c4_theorem44_rates", cell="§5 C4", origin="check")
    for remark, (location, _, change) in REMARKS.items():
        for kernel in REMARK_KERNELS:
            claims.rate(f"C4-{remark}-{kernel}", f"{location}: EXPLOIT+ with {change} keeps Thm 4.4's rate, cumulative regret "
                        f"growing at most like T^{PREDICTED[kernel]:g} ({kernel}, d=2, f in the RKHS)",
                        f"the bounds of Thm 4.4 remain valid (exponent <= {PREDICTED[kernel]:g} + epsilon)",
                        claimed=(-math.inf, bound4[kernel]), estimator=f"{last_doubling}, T={T4}", contrast=RATE_CONTRAST,
                        cell="§5 C4", origin="paper", evidence="theory", location=location,
                        revisions=[{"date": "2026-11-27", "changed": "declared", "verdict_before": "not declared",
                                    "why": "Remarks 4.1 and 4.3 were untested (issue 27); declared after C4's results, "
                                           "whose GP-UCB runs are the contrast, were known"}])
    for kernel, d in C5_CASES:
        for rule in PLUS_RULES:
            claims.coverage(f"C5-band-{rule}-{kernel}-d{d}", f"|f - mu_t-1| <= beta_t^(1/2) sigma_t-1 on the whole grid for all t "
                            f"along {rule} runs, f ~ GP ({kernel}, d={d}), finite-domain beta_t (Srinivas et al. Lemma 5.1, "
                            "delta = 0.1)", "not Thm 4.8's beta_t (constants a, b not given); >= 1 - delta = 0.9",
                            level=0.9, margin=0.05, unit="GP draw", figure="c5_theorem48_gp_draws", cell="§5 C5", origin="check")
            claims.rate(f"C5-rate-{rule}-{kernel}-d{d}", f"Thm 4.8: {rule} regret grows at most like log^(1/2) T, f ~ GP ({kernel}, d={d})",
                        "O(log^(1/2) T)", claimed=(-math.inf, 0.2), estimator=f"{last_doubling}, T={T5}, per GP draw",
                        contrast="GP-UCB with the same finite-domain beta, same draws", figure="c5_theorem48_gp_draws",
                        cell="§5 C5", origin="paper", evidence="theory", location="Thm 4.8",
                        stand_in="finite-domain beta_t in place of Thm 4.8's" if rule == "gp-ucb+" else "",
                        revisions=[{**contrast_revision, "changed": "contrast GP-UCB with the same finite-domain beta "
                                    "(was EXPLOIT, beta = 0)"}])
    for d in (1, 2):
        claims.rate(f"C6-d{d}", f"Thm 3.1: SE GP-UCB (beta = ||f||^2) regret grows at most like sqrt(T) log^(d/2) T (d={d})",
                    "O(T^(1/2) log^(d/2) T)", claimed=(-math.inf, theorem31_exponent(T4, d)),
                    estimator=f"{last_doubling}, T={T4}; bound: the exponent of sqrt(T) log^(d/2) T over the same doubling",
                    contrast="EXPLOIT (beta = 0) on the same SE targets and grid",
                    figure="c6_theorem31", cell="§5 C6", origin="paper", evidence="theory", location="Thm 3.1",
                    revisions=[{**contrast_revision, "changed": "contrast GP-UCB on Matérn 1/2 targets (was EXPLOIT, beta = 0)",
                                "why": "a rule that settles on the grid's maximiser meets any bound on a finite grid; a kernel "
                                       "outside the theorem shows whether the bound separates anything (issue 27)"},
                               {"date": "2026-11-27", "changed": "contrast EXPLOIT (beta = 0) on the same SE targets (was "
                                "GP-UCB on Matérn 1/2 targets)",
                                "why": "a harder target outside the theorem's class is not a rule or regime inside it that "
                                       "breaks the bound; EXPLOIT on the same targets and grid is such a rule (it has no "
                                       "exploration term), so it shows whether the bound separates anything (independent "
                                       "audit H3, issue 27)",
                                "verdict_before": "inconclusive" if d == 1 else "reproduced"}])
    for kernel in ("matern05", "matern15", "matern25"):
        claims.comparison(f"C7-level-{kernel}", f"EXPLOIT+ with Sobol exploration has smaller sup sigma_t than with i.i.d. uniform ({kernel}, d=2)",
                          "implied by Remark 4.5 (quasi-uniform sampling attains the conjectured rate)", method="sobol",
                          competitors=["uniform"], direction="lower", metric="mean of sup sigma_t over t >= 32", budget=f"T = {T4}",
                          margin=0.01, margin_reason="1% of the prior standard deviation (k(x,x) = 1)", stages=c4_stages,
                          figure="c7_sobol_exploration", cell="§5 C7", origin="check")
        claims.rate(f"C7-slope-{kernel}", f"sup sigma_t decays faster with Sobol than with i.i.d. exploration ({kernel}, d=2)",
                    "implied by Remark 4.5: n^(-nu/d) against (log n / n)^(nu/d)", claimed=(-math.inf, 0.0),
                    estimator="log-log slope of sup sigma_t over t >= 32, Sobol minus uniform, per seed (paired; paper.slope_gap)",
                    figure="c7_sobol_exploration", cell="§5 C7", origin="check")

    c8_estimator = {"date": "2026-11-27", "changed": "fill distance estimated over 10^4 uniform points (was a 100-point "
                    "Latin hypercube X_D, printed beside)",
                    "why": "100 points in 10-D estimate the largest empty ball poorly, and the caption's X_D may as well "
                           "name the SUP rule's set as a fill-distance reference set (independent audit M6, issue 27)"}
    fill = dict(metric="fill distance of the queries, estimated over 10^4 uniform points", budget=f"{S['fig1_budget']} evaluations",
                margin=FILL_MARGIN, margin_reason="5% of the unit box's side", stages=S["fig1_seeds"],
                figure="fig1_fill_distance", cell="§5 C8", origin="paper", evidence="experiment", location="Sec. 4.1, Fig. 1")
    claims.comparison("C8-uniform", "Fig. 1: UNIFORM queries have a smaller fill distance than EXPLORE, GP-UCB (SUP) and EXPLOIT "
                      "(the ordering; the paper does not quantify 'drastically', whose size the table reports)",
                      "'a drastically smaller fill-distance even when compared with EXPLORE'", method="random",
                      competitors=["explore", "gp-ucb", "exploit"], direction="lower",
                      revisions=[{**c8_estimator, "verdict_before": "reproduced"}], **fill)
    claims.comparison("C8-explore-vs-ucb", "Fig. 1: EXPLORE fills better than GP-UCB (SUP)", "GP-UCB lies between EXPLORE and EXPLOIT",
                      method="explore", competitors=["gp-ucb"], direction="lower",
                      revisions=[{**c8_estimator, "verdict_before": "inconclusive"}], **fill)
    claims.comparison("C8-ucb-vs-exploit", "Fig. 1: GP-UCB (SUP) fills better than EXPLOIT", "GP-UCB lies between EXPLORE and EXPLOIT",
                      method="gp-ucb", competitors=["exploit"], direction="lower",
                      revisions=[{**c8_estimator, "verdict_before": "reproduced"}], **fill)

    bench_contrast = {"date": "2026-11-27", "changed": "random search added as the contrast",
                      "why": "a verdict resting on the margin (equivalent) must separate the method from random search "
                             "(independent audit, issue 27)", "verdict_before": "inconclusive"}
    b1_added = {"date": "2026-11-27", "changed": "declared: the second '+' method against the methods Table 1 prints worse",
                "why": "Sec. 5.1 says both '+' methods outperform the others; only Table 1's best was declared "
                       "(independent audit, issue 27)", "verdict_before": "not declared"}
    bench_budget = f"{S['bench_budget']} evaluations"
    at_bench = f"at {S['bench_budget']} evaluations; paper: 400"
    bench = dict(budget=bench_budget, stages=bench_stages, figure="fig2_benchmarks", cell="§6.1", origin="paper",
                 evidence="experiment")
    for fn in S["functions"]:
        margin = BENCH_MARGIN[fn]
        why = f"1% of the mean regret of a uniformly random point on {fn} ({RANDOM_REGRET[fn]:g})"
        if fn in PAPER_BEST:
            best = PAPER_BEST[fn]
            claims.comparison(f"B1-{fn}", f"Table 1: {LABEL[best]} reaches a lower simple regret than GP-UCB, EXPLOIT, EI and PI on {fn} ({at_bench})",
                              f"{LABEL[best]} best", method=best, competitors=OTHERS, direction="lower",
                              metric="final simple regret", margin=margin, margin_reason=why,
                              location="Sec. 5.1, Table 1, Fig. 2", contrast=CONTRAST, revisions=[bench_contrast], **bench)
            other = next(m for m in PLUS if m != best)
            rivals = T1_LARGER[fn, other]
            t1 = ", ".join(f"{LABEL[o]} {PAPER_T1[fn][METHODS.index(o)]:.3f}" for o in rivals)
            claims.comparison(f"B1-{fn}-{other}", f"Sec. 5.1: {LABEL[other]} also reaches a lower simple regret than each of "
                              f"{', '.join(LABEL[o] for o in rivals)} on {fn} ({at_bench})",
                              f"'GP-UCB+ and EXPLOIT+ outperform the other methods' ({LABEL[other]} "
                              f"{PAPER_T1[fn][METHODS.index(other)]:.3f} vs {t1} in Table 1)", method=other, competitors=rivals,
                              direction="lower", metric="final simple regret", margin=margin, margin_reason=why,
                              location="Sec. 5.1, Table 1, Fig. 2", contrast=CONTRAST, revisions=[b1_added], **bench)
        claims.comparison(f"B2-{fn}", f"Table 1: EXPLOIT has a higher simple regret than every other method on {fn} ({at_bench})",
                          "EXPLOIT worst (1.000)", method="exploit", competitors=[m for m in METHODS if m != "exploit"],
                          direction="higher", metric="final simple regret", margin=margin, margin_reason=why,
                          location="Table 1", **bench)
        for m in PLUS:
            rivals = T4_LARGER[fn, m]
            t4 = ", ".join(f"{LABEL[o]} {PAPER_T4[fn][METHODS.index(o)]:.3f}" for o in rivals)
            revisions = []
            if fn == "rastrigin":
                revisions = [{"date": "2026-11-22", "changed": "competitors: only the methods Table 4 prints with a larger SD "
                              "(was every other method, as one ratio-of-SDs claim B3-rastrigin)",
                              "why": "App. B's text and Table 4 disagree on Rastrigin (erratum E10)",
                              "verdict_before": "not reproduced (B3-rastrigin)"}]
            claims.comparison(f"B3-{fn}-{m}", f"Table 4: the final simple regret of {LABEL[m]} varies less over runs than that of "
                              f"each of {', '.join(LABEL[o] for o in rivals)} on {fn} ({at_bench})",
                              f"{LABEL[m]} {PAPER_T4[fn][METHODS.index(m)]:.3f} vs {t4}", method=m, competitors=rivals,
                              direction="lower", margin=margin, margin_reason=why,
                              metric="absolute deviation of the final simple regret from the method's median over runs (Brown-Forsythe)",
                              location="App. B, Table 4", revisions=revisions, **bench)
        for metric in ("simple", "cumulative"):
            scale = 1 if metric == "simple" else S["bench_budget"]
            b4 = bench if metric == "simple" else {
                **{k: v for k, v in bench.items() if k != "evidence"}, "origin": "check",
                "revisions": [{"date": "2026-11-27", "changed": "origin check (was paper)",
                               "why": "one App. B sentence was counted twice per function; the caption's simple regret "
                                      "(erratum E3) carries it and the cumulative regret is reported beside it "
                                      "(independent audit M3, issue 27)", "verdict_before": "reproduced"}]}
            claims.comparison(f"B4-{metric}-{fn}", f"Fig. 5: GP-UCB+ with TWO (beta^1/2 = 2) reaches a lower {metric} regret than with SUP on {fn} ({at_bench})",
                              "GP-UCB+ works better with the smaller beta (App. B text: cumulative regret; caption: simple regret)",
                              method="gp-ucb+ TWO", competitors=["gp-ucb+ SUP"], direction="lower", metric=f"final {metric} regret",
                              margin=margin * scale, margin_reason=why + ("" if scale == 1 else ", per evaluation"),
                              location="Sec. 5.1 and App. B, Fig. 5", **b4)
        claims.comparison(f"B5-{fn}", f"App. B: GP-UCB is sensitive to beta: with TWO (beta^1/2 = 2) it reaches a lower simple "
                          f"regret than with SUP on {fn} ({at_bench})",
                          "'in all three benchmark functions, GP-UCB exhibits sensitivity to the choice of parameter beta' "
                          "(TWO is the well-tuned value of Sec. 5.1)", method="gp-ucb TWO", competitors=["gp-ucb SUP"],
                          direction="lower", metric="final simple regret", margin=margin, margin_reason=why,
                          location="App. B, Fig. 5",
                          revisions=[{"date": "2026-11-27", "changed": "declared",
                                      "why": "a statement of App. B left out although its runs existed (independent audit "
                                             "M2, issue 27)", "verdict_before": "not declared"}], **bench)
    rf_revision = {"date": "2026-11-27", "changed": "stand-in data Friedman #1 (generated in code, 1,000 x 10, noise SD 1) "
                   "in place of scikit-learn's diabetes data; random search added as the contrast",
                   "why": "on diabetes every forest scored a test MSE within 0.55-0.71 and every method's best was 0.54-0.59, "
                          "so the set-up could not separate tuners (issue 27)", "verdict_before": "not reproduced"}
    for m in PLUS:
        claims.comparison(f"R1-{m}", f"Table 2: {LABEL[m]} has a lower cumulative test error than GP-UCB, EXPLOIT, EI and PI "
                          f"(random-forest tuning; at {S['rf_budget']} evaluations; paper: 80)",
                          "GP-UCB+ 28.55, EXPLOIT+ 26.35 vs 33.4-35.2 (California housing)", method=m, competitors=OTHERS,
                          direction="lower", metric="cumulative test MSE over all queries", budget=f"{S['rf_budget']} evaluations",
                          margin=RF_MARGIN_PER_QUERY * S["rf_budget"],
                          margin_reason="1% of the standardised target's variance per query, over the budget",
                          stages=S["rf_seeds"], stand_in="Friedman #1 data generated in code for California housing",
                          figure="fig3_fig6_random_forest", cell="§6.3", origin="paper", evidence="experiment",
                          location="Sec. 5.2, Table 2, Fig. 3", contrast=CONTRAST, revisions=[rf_revision])
    at_sprinkler = f"at {S['sprinkler_budget']} evaluations; paper: 100"
    sprinkler = dict(method="exploit+", competitors=[m for m in METHODS if m != "exploit+"], direction="higher",
                     metric="best value found", budget=f"{S['sprinkler_budget']} evaluations", stages=S["sprinkler_seeds"],
                     figure="fig4_sprinkler", cell="§6.4", origin="paper", evidence="experiment", location="Sec. 5.3, Table 3",
                     contrast=CONTRAST)
    sprinkler_contrast = {"date": "2026-11-27", "changed": "random search added as the contrast",
                          "why": "on the unit cube every method ends within 0.1 of the best known 19.83 (GP-UCB 19.80 +- 0.01), "
                                 "so a verdict resting on the margin says nothing unless random search falls short (issue 27)"}
    claims.comparison("S1", f"Table 3: EXPLOIT+ is competitive on the garden sprinkler: its best value is not below any other "
                      f"method's by {S1_MARGIN:g} or more ({at_sprinkler})",
                      "'the new algorithms achieve competitive performance' (EXPLOIT+ 18.43 vs 17.11-18.06)",
                      relation="no worse", margin=S1_MARGIN, margin_reason="5% of the best known value 19.83",
                      revisions=[{"date": "2026-11-22", "changed": "re-specified as non-inferiority with margin 1.0 (was: EXPLOIT+ "
                                  "higher than every other method, now S2)",
                                  "why": "the paper's word is 'competitive'; the margin was chosen after a run on seeds 0-5 had "
                                         "shown EXPLOIT+ behind GP-UCB, so only fresh seeds test it",
                                  "verdict_before": "not reproduced"},
                                 {**sprinkler_contrast, "verdict_before": "reproduced"}], **sprinkler)
    claims.comparison("S2", f"Sec. 5.3: EXPLOIT+ attains the largest best value on the garden sprinkler, higher than each other "
                      f"method's ({at_sprinkler})", "'EXPLOIT+ attains on average the largest maximum value' (18.43 vs 17.11-18.06)",
                      margin=S2_MARGIN, margin_reason="1% of the best known value 19.83 (the paper's gap to the next best is 0.37)",
                      revisions=[{"date": "2026-11-22", "changed": "added after S1 was re-specified",
                                  "why": "the paper's specific statement, which S1 no longer tests", "verdict_before": "not declared"},
                                 {**sprinkler_contrast, "verdict_before": "inconclusive"}],
                      **sprinkler)
    for cid, (location, statement) in LITERATURE_REMARKS.items():
        claims.not_run(cid, statement, "a statement about bounds, not about runs",
                       "it compares the paper's bounds with bounds in the literature; no run can measure it",
                       cell="§1", location=location, origin="paper", evidence="theory")
    claims.protocol_revision(PROTOCOL_BEFORE)


#: the quick verdicts of the comparisons decided before their margins and seed stages were declared
#: (bolib.claims.book.PROTOCOL_REVISION)
PROTOCOL_BEFORE = {
    'B1-ackley': 'inconclusive',
    'B1-levy': 'inconclusive',
    'B1-rastrigin': 'inconclusive',
    'B2-ackley': 'inconclusive',
    'B2-levy': 'inconclusive',
    'B2-rastrigin': 'inconclusive',
    'B3-ackley-exploit+': 'inconclusive',
    'B3-ackley-gp-ucb+': 'inconclusive',
    'B3-levy-exploit+': 'inconclusive',
    'B3-levy-gp-ucb+': 'inconclusive',
    'B3-rastrigin-exploit+': 'inconclusive',
    'B3-rastrigin-gp-ucb+': 'inconclusive',
    'B4-cumulative-ackley': 'reproduced',
    'B4-cumulative-levy': 'reproduced',
    'B4-cumulative-rastrigin': 'reproduced',
    'B4-simple-ackley': 'reproduced',
    'B4-simple-levy': 'reproduced',
    'B4-simple-rastrigin': 'reproduced',
    'C1-sobol-d1': 'reproduced',
    'C1-sobol-d2': 'reproduced',
    'C1-sobol-d3': 'reproduced',
    'C4-cmp-matern05': 'reproduced',
    'C4-cmp-matern15': 'reproduced',
    'C4-cmp-matern25': 'reproduced',
    'C4-cmp-rbf': 'reproduced',
    'C7-level-matern05': 'reproduced',
    'C7-level-matern15': 'reproduced',
    'C7-level-matern25': 'reproduced',
    'C8-explore-vs-ucb': 'inconclusive',
    'C8-ucb-vs-exploit': 'reproduced',
    'C8-uniform': 'reproduced',
    'R1-exploit+': 'not reproduced',
    'R1-gp-ucb+': 'not reproduced',
    'S1': 'reproduced',
    'S2': 'inconclusive',
}
