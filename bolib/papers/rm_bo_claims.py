"""Pre-registered claims of paper 004 (Dai et al., UAI 2022: RM-GP-UCB and RM-GP-TS).

:func:`declare` declares every decided claim and every claim that is not run of
``notebooks/004_rmbo.ipynb`` from the profile settings ``S``, before any experiment runs;
:data:`INVARIANTS` holds the statements of the invariants, which the notebook counts where it
computes them. Each claim says whose it is (``origin``: "paper" with its location and evidence,
or "check" for ours), and a change made after results existed is recorded in its ``revisions``.
Nothing here is imported by a job: the notebook imports it.
"""
from __future__ import annotations

import math

from bolib.benchmarks import image_tuning
from bolib.papers import rm_bo as theory

DELTA = 0.1
N_INIT = 5  # initial points of every real-data run (the authors' code: 5 random points, shared by all methods)
RATIO = theory.RATIO_MARGIN  # log 1.25: a factor 1.25 on a regret
BEST_AREA = "mean over the queries of the best value found so far (area under the best-value curve)"
AREA_S = "mean simple regret over t <= T (area under S_t)"
UNRECORDED = "not in a committed claims file"

# --- margins, each in its metric's units, with the reason (the problem's noise, resolution or the paper's scale)
SYN_M = 0.01
SYN_WHY = "a tenth of the observation noise's sd (noise variance 0.01, App. D.1), per query"
RATIO_WHY = ("a factor 1.25 on the regret (log 1.25 on its log): a gap smaller than a quarter of the regret itself is "
             "not one the paper's curves separate; the paper states no scale, so this is our reading")
NS_M = 0.0024
NS_FLAT = ("audit (2026-11-27): on this stand-in random search with 5 + 25 points reaches an area 0.0011 from the best "
           "of 400 random points, less than the margin, so 'equivalent' followed for any pair of methods")
NS_WHY = ("the stand-in's own resolution: neighbouring batch sizes near the target's best differ by up to 0.0024 in "
          "validation log-loss")
SEC_M = 0.01
SEC_WHY = "10 ms, the jitter of a wall-clock time per proposal on shared cores"
HAR_M = 1 / 60
HAR_FLAT = ("audit (2026-11-27): random search with 25 points comes within 0.025 of the grid maximum on average over "
            "subjects 21-27 (0.0001 on subject 22, constant over 54% of the square), about the margin, so 'equivalent' "
            "rested on the stand-in's flatness")
HAR_WHY = "one validation image of a subject's 60 (accuracy resolution 1/60)"
CP_M = 0.01
#: the normalised return's smallest step: one of the 200 steps of one of the 10 episodes
CP_RESOLUTION = 1 / (200 * 10)
CP_WHY = "2 of the 200 steps of an episode (a hundredth of the normalised return's range)"
#: the normalised return's maximum (every episode held for 200 steps): the best value of the CartPole areas
CP_CEILING = 1.0
CP_CEILING_REV = ("2026-12-02", "ceiling: a verdict resting on the margin stands only if the methods it rests on are not "
                  "both within the margin of the normalised return's maximum 1 on most seeds", "an independent audit: in the paper "
                  "run RM-GP-UCB and TAF both scored the maximum area on 10 of 10 seeds (Fig. 9a) and MTBO did (Fig. 2e), "
                  "so the set-up left no room to tell them apart; the random-search contrast guards only the floor")
SHARE_M = 0.1
SHARE_METRIC = ("share of the previous tasks' weight on {what}, mean over the queries at which the previous tasks hold "
                "any weight (a run in which they never do: the uniform share, nothing identified)")
SHARE_REV = ("2026-11-27", "metric: queries at which every previous task has weight 0 are left out of the mean (they "
             "counted as share 0), so the share measures how a method divides the previous tasks' weight",
             "an independent review: RGPE's queries with all the weight on its target model decided the comparison as "
             "share 0; the paper's Fig. 2f and App. D.2 are about which previous tasks get the weight")
SHARE_WHY = "a tenth of the previous tasks' weight (one task's share under uniform weights over CartPole's 10 tasks)"
IMG_M = 0.002
IMG_FLOOR_REV = ("2026-11-27", "metric: a run with no area regret is floored at the accuracy's resolution (1/540 over the "
                 "queries) instead of 1e-12", "as F2e-ts: the floor of a log must be the objective's own resolution, not an "
                 "arbitrary constant that can decide a ratio margin (issue 30)")
IMG_WHY = ("about one validation image of the digits' 540 (the accuracy's resolution, 0.0019); the tables are "
           "deterministic, so the margin is the objective's own resolution, though retraining one of the digits' three "
           "best cells with 5 other seeds moves its accuracy with sd 0.0008-0.0061, and the best cell's mean over them is "
           "0.0044 below its table value")
IMG_AREA_REV = ("2026-12-02", "metric and margin: from the log of the area regret with the factor 1.25 to the area with "
                "the margin IMG_M (one validation image), so that Figs. 1e-f and 8a-b are decided on one metric",
                "an independent audit: with the model of IMG_MODEL_REVISION GP-UCB's area regret on the digits is 0.0034, "
                "so a factor 1.25 tolerates 0.00085, under half a validation image, and one query's difference in when "
                "the best cell is found moves the floored log regret by about one unit; F1e-ts, F1e-rgpe and S63-* "
                "already used the area with IMG_M")
SVM_M = 0.005
SVM_WHY = "one validation row of the largest data sets' 200 (accuracy resolution 0.005)"

# --- C5 (Sec. 6.1, Figs. 1b and 4): the paper gives no numbers, only that eta N = 1 reduces the dissimilar tasks'
# weights "rapidly" (Fig. 1b), eta N = 0.01 is "unable to quickly reduce" them (Fig. 4a) and eta N = 5 "rapidly
# assigns a large weight to one of the two useful meta-tasks" (Fig. 4c); our reading of "rapidly" and "large":
C5_QUERY = 10  # the query at which the weights are read: the 10th, a few queries after the initial design
C5_SHARE = 0.95  # "a large weight": the similar tasks (eta N = 1), or one of them (eta N = 5), hold at least this share
C5_SLOW_SHARE = 0.7  # eta N = 0.01: the similar tasks hold less than this share, the dissimilar ones keep more than 0.3


#: the run a real-data stand-in must tell apart from the claimed method for an "equivalent" verdict to stand
CONTRAST = "random search"
CONTRAST_REV = ("2026-11-27", "an 'equivalent' verdict stands only if the method beats random search (same initial "
                "design and budget) by more than the margin; random search runs on this stand-in")


def _rev(date, changed, why, before):
    return {"date": date, "changed": changed, "why": why, "verdict_before": before}


ORIGIN_REV = ("2026-12-01", "origin: from the paper's to ours (check)")
S63_VALUE = "other methods perform either comparably with or worse than GP-UCB in some experiments (e.g., RGPE in Figs. 1e and 2a, TAF in Figs. 1e, 1f and 2d)"
S63_REV = ("2026-12-01", "declared", "an independent audit found Sec. 6.3's statements on RGPE and TAF listed only inside the "
           "not-run summary S63-only; seen before: the quick results of every method on the digits, non-stationary and HAR "
           "stand-ins (F1ef-digits, F2a, F2d list the pairwise differences)", "none (new claim)")


def _s63_ts(claims, cid: str, fig: str, where: dict, revisions=()) -> None:
    """Sec. 6.3: with many dissimilar previous tasks RM-GP-UCB does significantly better than RM-GP-TS in Fig. ``fig``
    (``where``: the figure's metric, margin, stages, place, contrast and ceiling; Fig. 2c's is F2c-ts), with the
    ``revisions`` made after its first results."""
    claims.comparison(cid, f"Sec. 6.3 (Fig. {fig}): with many dissimilar previous tasks RM-GP-UCB does better than RM-GP-TS",
                      "RM-GP-UCB performs significantly better than RM-GP-TS in those experiments with a large number of "
                      "dissimilar meta-tasks (Figs. 2c-e)", method="RM-GP-UCB", competitors=["RM-GP-TS"],
                      **{**where, "location": f"Sec. 6.3, Fig. {fig}"},
                      revisions=[_rev("2026-12-01", "declared", "a second independent audit found this statement of Sec. 6.3 "
                                      "decided only inside comparisons with every method at once (F2d, F2e); seen before: "
                                      "their pairwise differences", "none (new claim)"), *revisions])


def _s63(claims, cid: str, rival: str, fig: str, where: dict) -> None:
    """Sec. 6.3: ``rival`` does no better than GP-UCB in Fig. ``fig``: GP-UCB is not worse than it by the margin or more
    (``where``: the figure's metric, margin, stages and place, and its random-search contrast where it has one)."""
    claims.comparison(cid, f"Sec. 6.3 (Fig. {fig}): {rival} does no better than GP-UCB: GP-UCB is not behind it by the margin or "
                      "more", S63_VALUE, method="GP-UCB", competitors=[rival], relation="no worse",
                      **{**where, "location": f"Sec. 6.3, Fig. {fig}"}, revisions=[_rev(*S63_REV)])


SEEDS_REV = ("2026-12-01", "seeds: from the first 20 to every seed the claim's group ran (the group's comparisons set its "
             "stages)", "an independent audit: the groups run up to 200 seeds, and the rate and coverage claims used 20")
AREA_REV = ("2026-11-22", "metric: from S_T at T = 50 to the mean of S_t over t <= T",
            "S_T at T = 50 was 0 for both methods on 8 to 13 of 20 seeds, so the comparison was decided on ties")
RATIO_REV = ("2026-11-22", "margin: from an additive one to a factor 1.25 on the regret (log 1.25 on the log regret)")
IMG_RATIO_WHY = ("the additive margin, a tenth of the median cell's regret (0.0048 on the digits), was 1.5 times GP-UCB's "
                 "whole area regret (0.0032)")

#: invariants (counted where computed, never a verdict): statement, paper value, origin and place
INVARIANTS = {
    "C1-chain": dict(statement="Lemma 3's chain: |sum w (mu_bar - mu_tilde)| <= sum w ||k|| ||A^-1|| ||dy|| <= "
                               "sum w sqrt(N) sigma^-2 ||dy|| (<= alpha on Lemma 6's event)",
                     paper_value="each step holds", origin="paper", location="Lemma 3 and its proof (App. A.1)",
                     evidence="theory", cell="§5.1"),
    "C1": dict(statement="Lemma 3: |zeta_bar_t(x) - zeta_tilde_t(x)| <= nu_t alpha for all x (M = 4, N_i = 20, "
                         "d = (0.05, 0.05, 4, 4))",
               paper_value=">= 1 - delta/4 (delta = 0.1)", origin="paper", location="Lemma 3 (App. A)", evidence="theory",
               cell="§5.1",
               revisions=[_rev("2026-11-22", "from a coverage claim to an invariant",
                               "as a coverage claim it could not fail: the largest ratio to alpha over all draws was 8.3e-4",
                               "reproduced")]),
    "C2a": dict(statement="Theorem 1: R_T <= 2 (alpha' + tau) sum nu_t + beta_T sqrt(C_1 T gamma_T) for every T (||f|| = B = 2, "
                          "all d_i = 8, theory mode); RHS(T) exceeds the largest regret any policy can have",
                paper_value=">= 1 - 3 delta/4", origin="paper", location="Theorem 1 (Sec. 4.1)", evidence="theory", cell="§5.2",
                revisions=[_rev("2026-11-22", "from a coverage claim to an invariant; Lemma 8's per-step bound (C2-L8) is "
                                "the claim", "the bound lies above the largest regret any policy can have, so it cannot "
                                "discriminate", "reproduced")]),
    "C2-P1": dict(statement="Proposition 1: sum_t alpha_t nu_t <= (sum_t alpha_t)(sum_t nu_t), alpha_t from the weights "
                            "played at query t (true for any non-negative sequences)",
                  paper_value="always", origin="paper", location="Proposition 1 (Sec. 5.2, App. C.2)", evidence="theory",
                  cell="§5.2"),
    "C7-ftrl": dict(statement="eq. 7 (softmax of -eta L) equals the entropic FTRL solution of eq. 6", paper_value="closed form",
                    origin="paper", location="eqs. 6-7 (Sec. 5.2, App. C.3)", evidence="theory", cell="§5.4"),
    "C7-hedge": dict(statement="Hedge: sum_t w_t.l_t - min_i sum_t l_it <= ln M / eta + (eta/2) sum_t sum_i w_ti l_it^2",
                     paper_value="always", origin="check", cell="§5.4"),
    "E-TS": dict(statement="The public RM-GP-TS starts at nu = 0, which the rule only multiplies, so it never draws the meta "
                           "branch: its runs are GP-TS's, query for query (Fig. 1a's tasks, every seed)",
                 paper_value="public code: nu_1 = 0 (Sec. 5.2: nu_1 = 1)", origin="check", cell="§5.7",
                 location="Sec. 5.2 against the authors' code",
                 revisions=[_rev("2026-12-01", "from an erratum decided on the meta draws' shortfall to an invariant",
                                 "an independent audit: the nu_1 = 0 side was 1 by construction and the other side replayed "
                                 "our own rule against our own draws, so the erratum could hardly fail; that the nu_1 = 0 "
                                 "variant is GP-TS is a fact of the code, counted, not a verdict", "reproduced")]),
}


def constants(S: dict) -> dict:
    """Method lists, stand-in descriptions and budgets that the declarations and the notebook share."""
    ns_methods = ["GP-UCB", "RM-GP-UCB", "RM-GP-TS", "RGPE", "TAF"] + (["MTBO"] if S["ns_mtbo"] else [])
    cp_methods = ["GP-UCB", "RM-GP-UCB", "RM-GP-TS", "RGPE", "TAF"] + (["MTBO"] if S["cp_mtbo"] else [])
    img_methods = ["GP-UCB", "RM-GP-UCB", "RM-GP-TS", "RGPE", "TAF"] + (["MTBO"] if S["img_mtbo"] else [])
    return dict(
        DELTA=DELTA, N_INIT=N_INIT, BEST_AREA=BEST_AREA,
        NS_METHODS=ns_methods, CP_METHODS=cp_methods, IMG_METHODS=img_methods, CP_RESOLUTION=CP_RESOLUTION,
        HAR_METHODS=["GP-UCB", "RM-GP-UCB", "RM-GP-TS", "RGPE", "TAF"],
        CP9_METHODS=["GP-UCB", "RM-GP-UCB", "RM-GP-TS", "RGPE", "TAF"],
        SVM_METHODS=["GP-UCB", "RM-GP-UCB", "RM-GP-TS", "RGPE", "TAF", "PEM-BO"],
        CP9=f"{S['cp9_similar'] + S['cp9_dissimilar']} previous tasks ({S['cp9_similar']} similar) of {S['cp9_meta_n']} observations",
        NS_STAND_IN=("logistic regression with degree-2 features on growing training sets of scikit-learn's diabetes data "
                     "(progression cut at the median), scored by minus the validation log-loss (benchmark nonstationary-lr), "
                     "for the Pima diabetes data scored by the validation error"),
        HAR_STAND_IN=("30 'subjects' built from scikit-learn's digits, each with its own images, feature scale and pixel noise "
                      "(benchmark har-digits), for the UCI smartphone activity data of 30 subjects; C and gamma mapped linearly"),
        CP_STAND_IN=("gymnasium's CartPole-v1 cut at 200 steps (CartPole-v0's dynamics) with our start centres for the previous "
                     "tasks, for gym's CartPole-v0 with the paper's start states"),
        IMG_STAND_IN=(f"the dense part of the paper's CNN trained by RMSprop, tuned on scikit-learn's digits, noisy shifted "
                      f"digits and generated 10- and 20-class data (benchmark image-tuning, tabulated on a {S['img_levels']}^3 grid), "
                      "for a CNN tuned on MNIST, SVHN, CIFAR-10 and CIFAR-100"),
        SVM_STAND_IN=("SVC accuracies tabulated on the 288-configuration grid over 50 bundled or generated data sets (benchmark "
                      "svm-grid), for the SVM tables of Wistuba et al. (2015)"),
    )


def declare(claims, S: dict) -> dict:
    """Declare every claim of notebook 004 at settings ``S``; returns :func:`constants`."""
    C = constants(S)
    st = S["syn_stages"]
    T, TB, TT = S["T"], S["T_bound"], S["T_ts"]
    level_theory = 1 - 3 * DELTA / 4  # Theorems 1-2 hold with probability >= 1 - 3 delta / 4
    paper = dict(origin="paper", evidence="experiment")
    theory_ = dict(origin="paper", evidence="theory")
    check = dict(origin="check")

    # --- Lemma 3 (with Lemmas 5 and 6), Theorem 1
    claims.coverage("C1-L4", "Lemma 4: |f(x) - mu~_i(x)| <= tau sigma~_i(x) for every x and every meta-task, mu~_i and sigma~_i "
                    "the GP posterior of hypothetical target observations at task i's inputs with the target GP's regulariser "
                    "1 + eta, eta = 2/N_i (Theorem 1's 1 + 2/T form), tau of Theorem 1 at that regulariser (RKHS target, "
                    "||f|| = B = 2, M = 4, N_i = 20; control: f scaled by 10, outside the norm ball)", ">= 1 - delta/4", level=1 - DELTA / 4, margin=0.15,
                    unit="noise draw", cell="§5.1", location="Lemma 4 (App. A)", **theory_,
                    revisions=[_rev("2026-11-28", "declared", "Lemma 4 (the concentration of f around the hypothetical "
                                    "meta GPs behind Lemma 7) had no check; an independent review listed it as missing",
                                    "none (new claim)"),
                               _rev("2026-11-28", "statement: the regulariser sigma^2 named as our reading of the paper",
                                    "an independent audit: only Lemma 5 and the proof of Lemma 3 write sigma^2, while "
                                    "Chowdhury and Gopalan's theorem, which the lemma cites, takes 1 + eta",
                                    "not reproduced"),
                               _rev("2026-12-01", "regulariser: from sigma^2 (our reading) to 1 + 2/N_i; the erratum E-L4, "
                                    "declared earlier the same day on the sigma^2 reading, withdrawn",
                                    "an independent audit: App. A introduces mu~_i and sigma~_i as the same as mu_{t-1} and "
                                    "sigma_{t-1}, whose regulariser Theorem 1 sets to 1 + 2/T, so sigma^2 was not the paper's; "
                                    "seen before: coverage 0.901 with sigma^2, 1.000 with 1 + 2/N and 0.000 for the control",
                                    "not reproduced")])
    claims.erratum("C1-L6", "Lemma 3 uses Lemma 6's noise event for all M meta-tasks at once, but Lemma 6's union bound covers one "
                   "task's 2 N_i noise values: with M = 16, N_i = 20 the exact probability of the joint event is below 1 - delta/4; "
                   "the union bound over all tasks (8 M N_i / delta in the logarithm) restores it",
                   ">= 1 - delta/4 for all tasks at once", tolerance=1e-12, cell="§5.1", location="Lemmas 3 and 6 (App. A)", **check)
    claims.coverage("C2-L7", "Lemma 7: f(x*) <= zeta_bar_t(x_t) + nu_t alpha_t at every query t, alpha_t Lemma 3's alpha "
                    "under the weights played at query t (RKHS target, ||f|| = B = 2, all d_i = 8, theory mode)",
                    ">= 1 - 3 delta/4", level=level_theory, margin=0.15, unit="function (seed)", figure="c2_theorem1", cell="§5.2",
                    location="Lemma 7 (App. A.2)", **theory_,
                    revisions=[_rev("2026-11-28", "declared", "Lemma 7 (the optimism step of Theorem 1's proof) had no check; "
                                    "an independent review listed it as missing", "none (new claim)"),
                               _rev("2026-11-28", "decided at every query, as the lemma states it (for all t >= 1), not only "
                                    "at the queries with nu_t alpha_t < 0.1; those are printed apart",
                                    "an independent audit: the restriction was ours, and the reason given for it (the "
                                    "meta term exceeds max f - min f above the cut) was false: unchecked queries had "
                                    "nu_t alpha_t from 0.19 to 1.47 against a range of 1.6 to 2.0", "reproduced")])
    claims.coverage("C2-L8", "Lemma 8 (the per-step bound behind Theorem 1): r_t <= 2 nu_t (alpha' + tau) + 2 (1 - nu_t) beta_t "
                    "sigma_{t-1}(x_t) at every query (RKHS target, ||f|| = B = 2, all d_i = 8, theory mode)",
                    ">= 1 - 3 delta/4", level=level_theory, margin=0.15, unit="function (seed)", figure="c2_theorem1", cell="§5.2",
                    location="Lemma 8 (App. A.2)", **theory_,
                    revisions=[_rev("2026-11-22", "declared as the claim for Theorem 1's bound",
                                    "C2a, the bound itself, was found unable to discriminate in the first quick run",
                                    "none (new claim)"),
                               _rev("2026-12-01", "decided at every query, as the lemma states it, not only at the queries "
                                    "with nu_t alpha' < 0.1; those are printed apart", "an independent audit: the restriction "
                                    "was ours and had been dropped from C2-L7 for that reason", "reproduced")])
    claims.erratum("E-C1", "Theorem 1's constant is C_1 = 8 / log(1 + sigma^-2): with the printed 8 / (1 + sigma^-2) the proof's "
                   "step sigma^2 <= (C_1/8) log(1 + sigma^-2 sigma^2) fails", "C_1 = 8/(1 + sigma^-2) (main text)",
                   tolerance=1e-9, cell="§5.2", location="Theorem 1 (Sec. 4.1) against App. A.2", **check)
    claims.rate("C2b", f"Theorem 1: no regret whatever the meta-tasks: with all d_i = 8, RM-GP-UCB's R_T grows sublinearly (T = {TB})",
                "R_T = O~(gamma_T sqrt T) once nu_t -> 0", claimed=(-math.inf, 0.75),
                estimator="growth exponent over the last doubling, log2(R_T / R_{T/2})",
                contrast="RM-GP-UCB with nu fixed at 1 (outside Theorem 1)", figure="c2_theorem1", cell="§5.2",
                location="Theorem 1 (Sec. 4.1)", **theory_,
                revisions=[_rev("2026-11-22", "estimator: from the doubling exponent to the increment exponent "
                                "log2((R_T - R_{T/2}) / (R_{T/2} - R_{T/4}))", "first quick run", "reproduced"),
                           _rev("2026-11-22", "estimator: back to the doubling exponent",
                                "the increment exponent, a log of ratios of near-zero increments, ranged from -3.33 to +3.04 "
                                "over the 20 seeds, so it was decided by noise", UNRECORDED), _rev(*SEEDS_REV, "reproduced")])
    claims.comparison("C2b-ni", "With all d_i = 8 (beta = 2), RM-GP-UCB's mean regret per query is not 1.25 times GP-UCB's or more",
                      "dissimilar meta-tasks cost little", method="RM-GP-UCB", competitors=["GP-UCB"], direction="lower",
                      relation="no worse", margin=RATIO, margin_reason=RATIO_WHY, stages=st["c2b"],
                      metric="log(R_T / T)", budget=f"T = {TB} queries", figure="c2_theorem1", cell="§5.2", **check,
                      revisions=[_rev("2026-11-22", "declared", "the cost of early harm, which C2b's exponent hides",
                                      "none (new claim)"),
                                 _rev(*RATIO_REV, "the additive margin of 0.05 per query was 65% of GP-UCB's own R_T / T of "
                                      "0.077, so it accepted large harm", "reproduced")])
    # --- Fig. 1d: robustness in practice
    claims.comparison("C3", "Fig. 1d: with all meta-tasks dissimilar (d_i = 8, r = 0.99) RM-GP-UCB (epsilon = 0.7) performs "
                      "comparably to GP-UCB: its mean regret per query is not 1.25 times GP-UCB's or more",
                      "RM-GP-UCB comparable to GP-UCB", method="eps 0.7", competitors=["GP-UCB"], direction="lower",
                      relation="no worse", margin=RATIO, margin_reason=RATIO_WHY, stages=st["c3"],
                      metric="log(R_T / T)", budget=f"T = {TB} queries", figure="fig1d_epsilon", cell="§6.4",
                      location="Sec. 6.1, Fig. 1d", contrast="nu = 1", **paper,
                      revisions=[_rev("2026-11-22", "metric: from S_T at T = 150 to R_T / T",
                                      "S_T at T = 150 was 0 for every method", "reproduced"),
                                 _rev(*RATIO_REV, "the additive margin of 0.05 per query equalled the measured harm (R_T / T "
                                      "0.161 for epsilon 0.7 against 0.111 for GP-UCB, worse on 16 of 20 seeds)", "reproduced"),
                                 _rev("2026-12-02", "contrast: RM-GP-UCB with nu fixed at 1 (the meta-tasks always trusted), "
                                      "which was the separate check C3-nu1 (GP-UCB better than it; reproduced, 19 of 20 "
                                      "seeds); C3-nu1 withdrawn", "independent audits: as a claim of its own the control "
                                      "could hardly fail (GP-UCB ahead by 1.56 on the log scale against a margin of 0.22) "
                                      "and counted among our checks; as C3's contrast it decides whether a 'no worse' "
                                      "verdict rests on a set-up that tells harmful transfer apart", "inconclusive")])
    claims.comparison("C3-eps", "Fig. 1d: a larger epsilon is slightly better (epsilon = 1 against 0.1)", "slightly better",
                      method="eps 1.0", competitors=["eps 0.1"], direction="lower", margin=SYN_M, margin_reason=SYN_WHY,
                      stages=st["c3"], metric="mean regret per query R_T / T", budget=f"T = {TB} queries",
                      figure="fig1d_epsilon", cell="§6.4", location="Sec. 6.1, Fig. 1d", **paper,
                      revisions=[_rev("2026-11-22", "metric: from S_T at T = 150 to R_T / T",
                                      "S_T at T = 150 was 0 for every method", "inconclusive")])
    # --- App. A.3: acceleration
    claims.comparison("C4", "With similar meta-tasks (all d_i = 0.05) RM-GP-UCB has less regret than GP-UCB early on",
                      "meta-tasks accelerate the initial stage", method="RM-GP-UCB", competitors=["GP-UCB"], direction="lower",
                      margin=10 * SYN_M, margin_reason=SYN_WHY + ", over the 10 queries", stages=st["c4"],
                      metric="cumulative regret of the first 10 queries", budget="t = 10", figure="c4_acceleration",
                      cell="§5.5", location="Sec. 4.1 and App. A.3", **theory_,
                      revisions=[_rev(*ORIGIN_REV, "App. A.3 argues that the meta-tasks make the regret bound smaller early on, "
                                      "not that the regret itself is lower than GP-UCB's", "reproduced"),
                                 _rev("2026-12-01", "origin: back to the paper's", "a second audit: App. A.3 says the "
                                      "meta-tasks help RM-GP-UCB achieve a smaller regret upper bound 'hence converge faster' "
                                      "than GP-UCB, which is the claim", "reproduced")])
    claims.comparison("C4-explore", "With similar meta-tasks (all d_i = 0.05) RM-GP-UCB also has less regret early on than "
                      "GP-UCB with beta = 0 (the posterior mean's maximiser: a baseline that does not explore at all, so "
                      "its early regret is not raised by exploring)", "not in the paper",
                      method="RM-GP-UCB", competitors=["GP-UCB (beta = 0)"], direction="lower",
                      margin=10 * SYN_M, margin_reason=SYN_WHY + ", over the 10 queries", stages=st["c4"],
                      metric="cumulative regret of the first 10 queries", budget="t = 10", figure="c4_acceleration",
                      cell="§5.5", **check,
                      revisions=[_rev("2026-12-01", "declared", "an independent audit: C4's only competitor is the paper's "
                                      "GP-UCB (beta_t = sqrt(0.2 log 2t)), which explores little; these baselines were not run "
                                      "on C4's tasks before", "none (new claim)"),
                                 _rev("2026-12-01", "competitors: from GP-TS and the Srinivas-beta GP-UCB to GP-UCB with "
                                      "beta = 0", "a second audit: a baseline that explores more has more early regret by "
                                      "design, so against them the early-regret comparison could not fail (-6.57 and -15.75 "
                                      "against a margin of 0.1 on 20/20 seeds)", "reproduced")])
    claims.coverage("C4-eq20", "Eq. 20 (sum_i w_i sigma_bar_i(x_t) < (beta_t / tau) sigma_{t-1}(x_t)) holds at the first query "
                    "when all d_i = 0 (theory-mode beta_t and tau)", "highly likely in the early stage", level=0.8, margin=0.2,
                    unit="function (seed)", cell="§5.5", location="App. A.3, eq. 20", **theory_)
    # --- Figs. 1a-c, 4, 5 (synthetic); Fig. 8 on the synthetic tasks
    fig1 = dict(metric=AREA_S, budget=f"T = {T} queries", margin=SYN_M, margin_reason=SYN_WHY, stages=st["fig1"],
                direction="lower")
    claims.comparison("F1a-online", "Fig. 1a: RM-GP-UCB with online weights beats fixed weights and GP-UCB "
                      "(d = (0.05, 0.05, 4, 4))", "online << fixed", method="RM-GP-UCB", competitors=["fixed w", "GP-UCB"],
                      figure="fig1a_weights", cell="§6.2", location="Sec. 6.1, Fig. 1a", **paper, **fig1,
                      revisions=[_rev(*AREA_REV, "inconclusive")])
    claims.comparison("F1a-explore", "Fig. 1a's setting: RM-GP-UCB also beats baselines that explore, GP-TS and GP-UCB with "
                      "Srinivas et al.'s beta_t = 2 log(|D| t^2 pi^2 / (6 delta)), so its gain over the paper's GP-UCB "
                      "(beta_t = 0.2 log 2t) is not only that baseline's stalling", "not in the paper",
                      method="RM-GP-UCB", competitors=["GP-TS", "GP-UCB (Srinivas beta)"], figure="fig1a_weights",
                      cell="§6.2", **check, **fig1,
                      revisions=[_rev("2026-11-26", "declared", "an independent review found the paper's GP-UCB "
                                      "under-exploring: plain GP-TS (run here for E-TS) had a lower S_50 than RM-GP-UCB on "
                                      "three seed sets; the Srinivas-beta GP-UCB is new", "none (new claim)")])
    claims.comparison("F1a-nu1", "Fig. 1a's setting: playing Sec. 5.2's nu_1 = 1 and omega_1 = 1/M at the first query (no "
                      "update before it) instead of the authors' code's update before every query leaves RM-GP-UCB's area of "
                      "S_t within the margin", "Sec. 5.2 writes nu_1 = 1; Algorithm 1 and the authors' code update nu before each query, the first included",
                      method="RM-GP-UCB", competitors=["RM-GP-UCB (nu_1 = 1 played)"], relation="equivalent", figure="fig1a_weights", cell="§6.2", **check, **fig1,
                      revisions=[_rev("2026-12-01", "declared", "an independent audit: our update of nu before the first "
                                      "query (the authors' code) is a deviation from Sec. 5.2 never ablated; not run before",
                                      "none (new claim)"),
                                 _rev("2026-12-01", "paper value reworded: Algorithm 1 (its line 2, our reading of Sec. 4's "
                                      "text) also updates before each query", "reading the paper's Sec. 4 again", "inconclusive")])
    claims.comparison("F1a-fixed", "Fig. 1a: RM-GP-UCB with fixed weights 1/M still beats GP-UCB", "fixed < GP-UCB",
                      method="fixed w", competitors=["GP-UCB"], figure="fig1a_weights", cell="§6.2",
                      location="Sec. 6.3, Fig. 1a (the green curve)", **paper, **fig1,
                      revisions=[_rev(*AREA_REV, "inconclusive"),
                                 _rev("2026-12-01", "location: from Sec. 6.1 to Sec. 6.3", "an audit: Sec. 6.3 makes the "
                                      "statement (fixed weights still perform favourably)", "inconclusive")])
    claims.not_run("C5-eta1", f"Figs. 1b, 4: with eta N = 1 the two similar tasks hold >= {C5_SHARE:.0%} of the weight by "
                   f"query {C5_QUERY}", "weights of tasks 3-4 collapse within a few queries",
                   f"decided by eq. 7's arithmetic, not by the runs: the similar pair holds {C5_SHARE:.0%} once the dissimilar "
                   f"pair's summed gap estimates exceed its own by about log({C5_SHARE:g} / {1 - C5_SHARE:.2f}) / 1 = "
                   f"{math.log(C5_SHARE / (1 - C5_SHARE)):.1f}, a fraction of what this setting's gaps add up to in "
                   f"{C5_QUERY} queries (about 2 per query, see C5-eta001); that the gap estimates separate the tasks is "
                   "C6-sep", figure="fig4_eta", cell="§6.3", location="Sec. 6.1, Figs. 1b and 4b", **paper,
                   revisions=[_rev("2026-11-27", "from a coverage claim to not decided", "an independent audit: with the "
                                   "gap estimates this setting gives, eq. 7 puts >= 97.7% on the similar pair by query 4 "
                                   "in every seed, so the claim could not fail; C5-eta001 had been set aside for the "
                                   "same reason", "reproduced")])
    claims.not_run("C5-eta001", f"Fig. 4: with eta N = 0.01 the dissimilar tasks keep > {1 - C5_SLOW_SHARE:.0%} of the weight "
                   f"at query {C5_QUERY}", "too small eta: weights of dissimilar tasks fall too slowly",
                   f"decided by eq. 7's arithmetic, not by the runs: the dissimilar pair keeps more than "
                   f"{1 - C5_SLOW_SHARE:.0%} of the weight unless its summed gap estimates exceed the similar pair's by "
                   f"about log({C5_SLOW_SHARE:g} / {1 - C5_SLOW_SHARE:.1f}) / 0.01 = "
                   f"{math.log(C5_SLOW_SHARE / (1 - C5_SLOW_SHARE)) / 0.01:.0f} over the {C5_QUERY} queries, far more than "
                   "this setting's gaps sum to (a dissimilar task's estimate exceeds a similar one's by about its mean "
                   "offset, E|U(-4, 4)| = 2, per query); what a too small eta costs in regret is F1c-small", figure="fig4_eta", cell="§6.3", location="Sec. 6.1, Fig. 4a", **paper,
                   revisions=[_rev("2026-11-27", "from a coverage claim to not decided", "an independent review: the claim "
                                   "could not fail in this setting (eq. 7's arithmetic)", "reproduced")])
    claims.coverage("C5-eta5", f"Fig. 4c: with eta N = 5 one similar task (1 or 2) holds >= {C5_SHARE:.0%} of the weight by "
                    f"query {C5_QUERY}",
                    "eta N = 5 locks onto one of the similar tasks", level=0.9, margin=0.1, unit="function (seed)",
                    figure="fig4_eta", cell="§6.3", location="Sec. 6.1, Fig. 4c", **paper,
                    revisions=[_rev(*SEEDS_REV, "inconclusive")])
    claims.comparison("F1c-small", "Fig. 1c: eta N = 1 beats a too small eta N = 0.01", "eta N = 0.01 worse", method="RM-GP-UCB",
                      competitors=["eta 0.01"], figure="fig4_eta", cell="§6.3", location="Sec. 6.1, Fig. 1c", **paper, **fig1,
                      revisions=[_rev(*AREA_REV, "inconclusive")])
    claims.comparison("F1c-large", "Fig. 1c: eta N = 1 beats a too large eta N = 5", "eta N = 5 slightly worse",
                      method="RM-GP-UCB", competitors=["eta 5"], figure="fig4_eta", cell="§6.3", location="Sec. 6.1, Fig. 1c",
                      **paper, **fig1, revisions=[_rev(*AREA_REV, "inconclusive")])
    claims.comparison("F8", "Fig. 8 on the synthetic tasks of Fig. 1a: the gap estimate's mean over j works better than its max",
                      "mean recommended over max", method="RM-GP-UCB", competitors=["gap max"], figure="fig1a_weights",
                      cell="§6.3", location="App. D.3, Fig. 8", stand_in="the synthetic tasks of Fig. 1a for the MNIST, "
                      "CIFAR-10 and diabetes tasks", **check, **fig1,
                      revisions=[_rev(*AREA_REV, "inconclusive"),
                                 _rev(*ORIGIN_REV, "Fig. 8 compares the gap estimates on MNIST, CIFAR-10 and diabetes only; "
                                      "the synthetic tasks are our extension (F8a-b run the image stand-ins)", "inconclusive")])
    claims.comparison("C9", "Fig. 5: with unequal N_i = (15, 25, 10, 30) RM-GP-UCB (eq. 7, N_i taken equal) still beats GP-UCB",
                      "significantly better than GP-UCB", method="RM-GP-UCB", competitors=["GP-UCB"], figure="fig5_unequal",
                      cell="§6.5", location="App. D.1, Fig. 5", **paper, **fig1, revisions=[_rev(*AREA_REV, "inconclusive")])
    claims.comparison("C9-explore", "Fig. 5's setting (unequal N_i = (15, 25, 10, 30)): RM-GP-UCB also beats baselines that "
                      "explore, GP-TS and GP-UCB with Srinivas et al.'s beta_t", "not in the paper", method="RM-GP-UCB",
                      competitors=["GP-TS", "GP-UCB (Srinivas beta)"], figure="fig5_unequal", cell="§6.5", **check, **fig1,
                      revisions=[_rev("2026-12-01", "declared", "an independent audit: C9's only competitor is the paper's "
                                      "GP-UCB, which explores little; on Fig. 1a's tasks (equal N_i) F1a-explore found RM-GP-UCB "
                                      "behind both exploring baselines at quick (+0.033 and +0.031, inconclusive); not run with "
                                      "unequal N_i before", "none (new claim)")])
    claims.comparison("C9-equal", "Fig. 5: unequal N_i = (15, 25, 10, 30) do worse than equal N_i = 20 (the Fig. 1a runs of the "
                      "same seeds)", "worse than with equal N_i", method="equal N_i", competitors=["unequal N_i"],
                      figure="fig5_unequal", cell="§6.5", location="App. D.1, Fig. 5", **paper, **fig1)
    # --- Lemma 1 and the practical gap estimate
    claims.coverage("C6-lemma1", "Lemma 1: d_i <= d_bar_{i,t} for every task and query (max over j plus the noise term, "
                    "theory-mode beta)", ">= 1 - delta", level=1 - DELTA, margin=0.15, unit="function (seed)", figure="c6_gaps",
                    cell="§5.3", location="Lemma 1 (Sec. 5.1)", **theory_)
    claims.comparison("C6-sep", "The practical gap estimate (mean over j) separates similar from dissimilar meta-tasks: "
                      "log(cumulative estimate of tasks 3-4 / of tasks 1-2) is larger with d = (0.05, 0.5, 2, 4) than with all d_i = 2",
                      "gap estimates track the similarity", method="d = (0.05, 0.5, 2, 4)", competitors=["all d = 2"],
                      direction="higher", margin=RATIO, margin_reason="a factor 1.25 between cumulative gap estimates, the "
                      "factor convention of the regret claims", stages=st["c6"],
                      metric="log ratio of cumulative gap estimates, dissimilar / similar", budget=f"T = {T} queries",
                      figure="c6_gaps", cell="§5.3", **check,
                      revisions=[_rev("2026-11-22", "replaces C6-rank (all four tasks ranked exactly at the last query)",
                                      "the exact ranking is stricter than anything the paper states",
                                      "C6-rank: not reproduced (12 of 20 seeds)")])
    # --- Theorem 2: RM-GP-TS
    ctrl = ("2026-11-22", "contrast: from nu = 0.5 with eq. 7's weights to nu = 0.5 with fixed weights 1/8",
            "the first contrast put weight 1.00 on the similar task, so its regret was not linear")
    claims.rate("C8-ucb", f"Theorem 1 with M = 8 (one similar task): RM-GP-UCB's R_T grows sublinearly (T = {TT})", "no regret",
                claimed=(0.0, 0.75), estimator="growth exponent over the last doubling, log2(R_T / R_{T/2})",
                contrast="RM-GP-UCB with nu fixed at 0.5 and fixed weights 1/8", figure="c8_ts", cell="§5.6",
                location="Theorem 1 (Sec. 4.1)", **theory_,
                revisions=[_rev(*ctrl, "inconclusive"), _rev(*SEEDS_REV, "inconclusive")])
    claims.rate("C8-ts", f"Theorem 2: RM-GP-TS's R_T grows sublinearly when nu_t -> 0 (T = {TT})", "no regret",
                claimed=(0.0, 0.75), estimator="growth exponent over the last doubling, log2(R_T / R_{T/2})",
                contrast="RM-GP-TS with nu fixed at 0.5 and fixed weights 1/8 (nu_t -> 0 is needed)", figure="c8_ts",
                cell="§5.6", location="Theorem 2 (Sec. 4.2)", **theory_,
                revisions=[_rev(*ctrl, "inconclusive"), _rev(*SEEDS_REV, "inconclusive")])
    claims.comparison("C8-robust", "RM-GP-TS is less robust than RM-GP-UCB: with 7 of 8 tasks dissimilar, the meta-tasks add more "
                      "regret to GP-TS than to GP-UCB", "TS bound has an extra sum nu_t sqrt(gamma_t) term",
                      method="UCB: R(RM-GP-UCB) - R(GP-UCB)", competitors=["TS: R(RM-GP-TS) - R(GP-TS)"], direction="lower",
                      margin=TT * SYN_M, margin_reason=SYN_WHY + f", over the {TT} queries", stages=st["c8"],
                      metric="harm from the meta-tasks, R_T(meta) - R_T(plain), paired per seed", budget=f"T = {TT} queries",
                      figure="c8_ts", cell="§5.6", location="Sec. 4.2 (after Theorem 2)", **theory_,
                      revisions=[_rev("2026-11-22", "metric: from R_T of RM-GP-TS against RM-GP-UCB to the harm each "
                                      "suffers from the meta-tasks", "GP-TS has more regret than GP-UCB with no meta-tasks at all",
                                      "reproduced")])
    claims.not_run("C8-bound", "Theorem 2's regret bound itself (Lemma 18), evaluated along RM-GP-TS runs",
                   "R_T <= ... with the factor 1/((1 - nu_1) p), p = e^-1 / (4 sqrt(pi))",
                   "its d'_i needs f_i everywhere while the harness knows the previous tasks only at their inputs (the factor "
                   "1/(1 - nu_1) is finite in our runs: nu is updated before the first query, so the first query plays nu <= r "
                   "and the factor is at most 1/(1 - r) = 3.3; at Sec. 5.2's nu_1 = 1 it would be infinite); C8-ts and "
                   "C8-robust check the theorem's consequences instead", cell="§5.6", location="Theorem 2, Lemma 18 (App. B)", **theory_)
    claims.not_run("F7", "Fig. 7: hyperparameter tuning of a Siamese network for one-shot Omniglot", "RM-GP-UCB performs best",
                   "the Omniglot images cannot be downloaded here, no package ships them, and no offline stand-in with "
                   "alphabets of characters is built", cell="§2", location="Sec. 6.2, App. D.2, Fig. 7", **paper)

    # --- Figs. 2a-b and 8c (non-stationary stand-in)
    ns_budget = f"{N_INIT} initial points + {S['ns_T']} queries"
    ns = dict(budget=ns_budget, figure="fig2ab_nonstationary", cell="§6.7", stand_in=C["NS_STAND_IN"], stages=S["ns_seeds"],
              location="Sec. 6.2, Figs. 2a-b", **paper)
    ns_area = dict(metric=BEST_AREA + ", minus validation log-loss", direction="higher", margin=NS_M, margin_reason=NS_WHY)
    ns_wall = dict(metric="mean wall-clock seconds per proposal (objective evaluations excluded)", margin=SEC_M,
                   margin_reason=SEC_WHY)
    claims.comparison("F2a", "Fig. 2a: tuning on the full training set with the four smaller sets as previous tasks, RM-GP-TS "
                      "reaches a lower validation loss sooner than each other method", "RM-GP-TS outperforms all other methods",
                      method="RM-GP-TS", competitors=[m for m in C["NS_METHODS"] if m != "RM-GP-TS"], **ns_area, **ns,
                      revisions=[_rev("2026-11-22", "metric: the area under the best-value curve, not the final value",
                                      "in a timing run before the claim was declared most methods ended at the same best value",
                                      "none (not yet declared)"),
                                 _rev("2026-11-22", "stand-in redesigned (diabetes data, degree-2 features; best points off the "
                                      "box corners, differing between training sizes)", "in the first version every training "
                                      "size had its best value at one box corner that the L-BFGS-B-maximised methods reached "
                                      "within a few queries and RM-GP-TS's random candidates could not", "not reproduced"),
                                 _rev("2026-11-22", "stand-in's SGD batches cut from one stream of shuffles", "the jitter "
                                      "between neighbouring batch sizes (0.0055-0.0069) exceeded the methods' differences",
                                      "inconclusive"),
                                 _rev(*CONTRAST_REV, NS_FLAT, "not reproduced")], contrast=CONTRAST)
    claims.comparison("F2b-ts", "Fig. 2b: RM-GP-TS spends less time per proposal than each other method", "RM-GP-TS is "
                      "significantly more efficient than all other methods", method="RM-GP-TS",
                      competitors=[m for m in C["NS_METHODS"] if m != "RM-GP-TS"], direction="lower", **ns_wall, **ns)
    if S["ns_mtbo"]:
        claims.comparison("F2b-mtbo", "Fig. 2b: MTBO, one GP over all tasks' observations, spends more time per proposal than each "
                          "method with one GP per task (RM-GP-UCB, RGPE, TAF)", "RM-GP-UCB, RGPE and TAF are more efficient than "
                          "MTBO", method="MTBO", competitors=["RM-GP-UCB", "RGPE", "TAF"], direction="higher", **ns_wall, **ns)
    else:
        claims.not_run("F2b-mtbo", "Fig. 2b: MTBO slower per proposal than RM-GP-UCB, RGPE and TAF", "RM-GP-UCB, RGPE and TAF are "
                       "more efficient than MTBO", "MTBO is not run at this profile (it is switched off at smoke to keep the "
                       "smoke run short)", cell="§6.7", location="Sec. 6.2, Fig. 2b", **paper)
    claims.comparison("F8c", "Fig. 8c: on the non-stationary task RM-GP-UCB does better with the mean over j in the gap estimate "
                      "than with the max over j", "the difference can be larger in some other experiments (Fig. 8c)",
                      method="RM-GP-UCB", competitors=["RM-GP-UCB (gap max)"], **ns_area,
                      **{**ns, "location": "App. D.3, Fig. 8c"},
                      revisions=[_rev("2026-11-22", "stand-in redesigned (see F2a)", "on the first version both variants "
                                      "reached the corner optimum at once and tied on 4 of 5 seeds", "inconclusive"),
                                 _rev(*CONTRAST_REV, NS_FLAT, "not reproduced")], contrast=CONTRAST)
    _s63(claims, "S63-rgpe-2a", "RGPE", "2a", {**ns_area, **ns, "contrast": CONTRAST})
    # --- Fig. 2d (HAR)
    har_budget = (f"{N_INIT} initial points + {S['har_T']} queries; one unit = a target subject, its {S['har_inits']} "
                  "initial design(s) averaged")
    har_revs = [_rev("2026-11-22", "stand-in: C and gamma mapped linearly (as the authors' code) instead of on a log scale",
                     "under the log map most subjects sat at the majority-class accuracy over most of the square, and in one "
                     "run RGPE proposed one point 20 times on a tied plateau", "{}"),
                _rev("2026-11-22", "unit: a target subject with its initial designs averaged, not a (subject, design) pair",
                     "pairs count a subject once per design (at one design per subject nothing changes)", "{}")]
    har = dict(metric=BEST_AREA + ", validation accuracy", budget=har_budget, direction="higher", margin=HAR_M,
               margin_reason=HAR_WHY, stages=S["har_targets"], figure="fig2d_har", cell="§6.8", stand_in=C["HAR_STAND_IN"],
               location="Sec. 6.2, Fig. 2d", **paper)
    for cid, statement, value, method, rivals, before, before_contrast in (
            ("F2d", f"Fig. 2d: tuning an RBF SVM for a new subject with {S['har_meta']} other subjects as previous tasks, "
             "RM-GP-UCB reaches a high validation accuracy sooner than each other method", "RM-GP-UCB delivers the best "
             "performance", "RM-GP-UCB", [m for m in C["HAR_METHODS"] if m != "RM-GP-UCB"], "inconclusive",
             "not reproduced"),
            ("F2d-rgpe", "Fig. 2d: RGPE comes second: it reaches a high validation accuracy sooner than GP-UCB, RM-GP-TS and TAF",
             "followed by RGPE", "RGPE", ["GP-UCB", "RM-GP-TS", "TAF"], "inconclusive", "not reproduced"),
            ("F2d-ts", "Fig. 2d: RM-GP-TS fails to perform effectively: it does worse than GP-UCB, which uses no previous tasks "
             "(our reading)", "RM-GP-TS again fails to perform effectively", "GP-UCB", ["RM-GP-TS"], "reproduced",
             "inconclusive")):
        ours = cid == "F2d-ts"  # the paper says only that RM-GP-TS fails to perform effectively
        claims.comparison(cid, statement, value, method=method, competitors=rivals,
                          **{**har, **(dict(origin="check", evidence="") if ours else {})}, contrast=CONTRAST,
                          revisions=[{**har_revs[0], "verdict_before": before}, {**har_revs[1], "verdict_before": UNRECORDED},
                                     _rev(*CONTRAST_REV, HAR_FLAT, before_contrast),
                                     *([_rev(*ORIGIN_REV, "Fig. 2d's text says only that RM-GP-TS fails to perform "
                                             "effectively; worse than GP-UCB is our reading", "inconclusive")] if ours else [])])
    _s63(claims, "S63-taf-2d", "TAF", "2d", {**har, "contrast": CONTRAST})
    _s63_ts(claims, "S63-ts-2d", "2d", {**har, "contrast": CONTRAST})
    # --- Figs. 2e-f and 9 (CartPole)
    cp_budget = f"{N_INIT} initial points + {S['cp_T']} queries"
    cp = dict(budget=cp_budget, stages=S["cp_seeds"], figure="fig2ef_cartpole", cell="§6.9", stand_in=C["CP_STAND_IN"],
              location="Sec. 6.2, Figs. 2e-f", **paper)
    claims.comparison("F2e", f"Fig. 2e: on CartPole with {S['cp_similar']} similar and {S['cp_dissimilar']} dissimilar previous "
                      "tasks, RM-GP-UCB reaches high returns sooner than each other method"
                      + ("" if S["cp_mtbo"] else " (MTBO runs at the paper profile only)"),
                      "RM-GP-UCB achieves the best performance", method="RM-GP-UCB",
                      competitors=[m for m in C["CP_METHODS"] if m != "RM-GP-UCB"], direction="higher", margin=CP_M,
                      margin_reason=CP_WHY, metric=BEST_AREA + ", normalised return", **cp, contrast=CONTRAST,
                      ceiling=CP_CEILING, revisions=[_rev(*CP_CEILING_REV, "quick: inconclusive (undecided at the cap, 7 "
                                                          "seeds); paper: not reproduced (significantly worse than MTBO)")])
    _s63_ts(claims, "S63-ts-2e", "2e", {**cp, "direction": "higher", "margin": CP_M, "margin_reason": CP_WHY,
                                         "metric": BEST_AREA + ", normalised return", "contrast": CONTRAST,
                                         "ceiling": CP_CEILING},
            [_rev(*CP_CEILING_REV, "quick: inconclusive (undecided at the cap, 7 seeds); paper: reproduced")])
    claims.comparison("F2e-std", "CartPole (Fig. 2e's setting): RM-GP-UCB with the authors' meta GPs (zero prior mean on each "
                      "task's raw outputs) performs as with ours (each task's outputs standardised)", "not in the paper",
                      method="RM-GP-UCB", competitors=["RM-GP-UCB (raw meta GPs)"], direction="higher", relation="equivalent",
                      margin=CP_M, margin_reason=CP_WHY, metric=BEST_AREA + ", normalised return", budget=cp_budget,
                      stages=S["cp_seeds"], figure="fig2ef_cartpole", cell="§6.9", stand_in=C["CP_STAND_IN"], **check,
                      revisions=[_rev("2026-11-26", "declared", "an independent review found the meta GPs' standardisation "
                                      "unlike the authors' code and unmeasured; declared before the ablation ran",
                                      "none (new claim)"), _rev(*CP_CEILING_REV, "quick: reproduced; paper: reproduced")],
                      contrast=CONTRAST, ceiling=CP_CEILING)
    claims.comparison("F2e-ts", "Fig. 2e: RM-GP-TS performs comparably with GP-UCB: its area regret is within a factor 1.25 of "
                      "GP-UCB's", "RM-GP-TS only performs comparably with standard GP-UCB", method="RM-GP-TS",
                      competitors=["GP-UCB"], direction="lower", relation="equivalent", margin=RATIO, margin_reason=RATIO_WHY,
                      metric="log of the area regret (1, the 200-step cap, minus the area under the best normalised return "
                      "curve); a run with none counts as one step of one episode short at one query", **cp,
                      revisions=[_rev(*RATIO_REV, "the absolute margin of 0.05 normalised return was about half of GP-UCB's "
                                      "own area regret (0.11)", "one half reproduced, the other inconclusive"),
                                 _rev("2026-11-25", "the two one-sided halves F2e-ts-a and F2e-ts-b merged into one equivalence "
                                      "claim (same metric and margin)", "the claims' rules now decide equivalence",
                                      "F2e-ts-a reproduced, F2e-ts-b inconclusive"),
                                 _rev("2026-11-27", "metric: a run with no area regret is floored at the return's resolution "
                                      "(1/2000 over the queries) instead of 1e-12", "the independent audit: with the 1e-12 "
                                      "floor one RM-GP-TS seed sat at -27.6 against about -2 for GP-UCB in an earlier run, so "
                                      "a margin of log 1.25 depended on an arbitrary floor", "inconclusive")], contrast=CONTRAST)
    claims.comparison("F2f", f"Fig. 2f: RM-GP-UCB gives the {S['cp_similar']} similar previous tasks a larger share of the previous "
                      "tasks' weight than RGPE and TAF do", "RM-GP-UCB is more effective than RGPE and TAF at identifying the 3 "
                      "similar meta-tasks", method="RM-GP-UCB", competitors=["RGPE", "TAF"], direction="higher",
                      margin=SHARE_M, margin_reason=SHARE_WHY,
                      metric=SHARE_METRIC.format(what="the similar ones"), **cp,
                      revisions=[_rev("2026-11-22", "metric defined: RGPE's target weight left out, all-zero queries count "
                                      "as share 0, mean over the queries", "stated after the quick run", UNRECORDED),
                                 _rev(*SHARE_REV, "inconclusive")])
    if S["cp9_seeds"]:
        cp9 = dict(budget=cp_budget, stages=S["cp9_seeds"], figure="fig9_cartpole_large", cell="§6.9", stand_in=C["CP_STAND_IN"],
                   location="App. D.4, Fig. 9", **paper)
        claims.comparison("F9a", f"Fig. 9a: in the large CartPole set-up ({C['CP9']}) RM-GP-UCB reaches high returns sooner than "
                          "each other method", "RM-GP-UCB still performs the best", method="RM-GP-UCB",
                          competitors=[m for m in C["CP9_METHODS"] if m != "RM-GP-UCB"], direction="higher", margin=CP_M,
                          margin_reason=CP_WHY, metric=BEST_AREA + ", normalised return", **cp9, contrast=CONTRAST,
                          ceiling=CP_CEILING, revisions=[_rev(*CP_CEILING_REV, "paper: not reproduced (equivalent within "
                                                              "+-0.01 to TAF)")])
        claims.comparison("F9b", f"Fig. 9b: in the large CartPole set-up ({C['CP9']}) RM-GP-TS spends less time per proposal than "
                          "RM-GP-UCB, RGPE and TAF", "RM-GP-TS significantly more scalable than RM-GP-UCB, RGPE and TAF",
                          method="RM-GP-TS", competitors=["RM-GP-UCB", "RGPE", "TAF"], direction="lower", **ns_wall, **cp9)
        new = [_rev("2026-11-27", "declared", "an independent audit found this statement of App. D.4 neither declared nor "
                    "listed", "none (new claim)")]
        claims.comparison("F9a-ts", f"Fig. 9a: in the large CartPole set-up RM-GP-TS performs comparably with RGPE (area within "
                          f"{CP_M:g} of each other)", "RM-GP-TS performs comparably with RGPE", method="RM-GP-TS",
                          competitors=["RGPE"], direction="higher", relation="equivalent", margin=CP_M, margin_reason=CP_WHY,
                          metric=BEST_AREA + ", normalised return", **cp9, contrast=CONTRAST, ceiling=CP_CEILING,
                          revisions=[*new, _rev(*CP_CEILING_REV, "paper: inconclusive (undecided at the cap, 10 seeds)")])
        claims.comparison("F9b-gpucb", "Fig. 9b: in the large CartPole set-up RM-GP-TS's time per proposal is comparable with "
                          "GP-UCB's", "its computational cost is comparable with standard GP-UCB", method="RM-GP-TS",
                          competitors=["GP-UCB"], direction="lower", relation="equivalent", **ns_wall, **cp9, revisions=new)
    else:
        claims.not_run("F9", "Fig. 9: the large CartPole set-up (60 previous tasks of 130 observations): RM-GP-UCB best, RM-GP-TS "
                       "the fastest of the meta-BO methods, comparable with RGPE in return and with GP-UCB in cost",
                       "RM-GP-UCB performs the best; RM-GP-TS comparable with RGPE, significantly more scalable than "
                       "RM-GP-UCB, RGPE and TAF, its cost comparable with standard GP-UCB",
                       "run at the paper profile only: with 7,800 previous observations RGPE's ranking samples and TAF's "
                       "acquisition over 60 GPs make one run take minutes (at M = 10 they already take 0.3 and 0.5 s per query "
                       "on one core)", cell="§6.9", location="App. D.4, Fig. 9", **paper)

    # --- Figs. 1e-f, 6 and 8a-b (image-classifier tuning stand-in)
    img_targets = S["img_targets"]
    img_no_mtbo = "" if S["img_mtbo"] else " (MTBO runs at the paper profile only)"
    img = dict(budget=f"{N_INIT} initial points + {S['img_T']} queries", stages=S["img_seeds"], cell="§6.10",
               stand_in=C["IMG_STAND_IN"], **paper)
    img_area = dict(metric=BEST_AREA + ", validation accuracy", direction="higher", margin=IMG_M, margin_reason=IMG_WHY,
                    contrast=CONTRAST)
    for target in img_targets:
        name = f"{target}, the {image_tuning.STANDS_IN_FOR[target]} analogue"
        rivals = [m for m in C["IMG_METHODS"] if m not in ("RM-GP-UCB", "RM-GP-TS" if target == "digits" else "")]
        before = "reproduced" if target == "digits" else "not run (paper profile only)"
        floor_before = "inconclusive" if target == "digits" else "not run (paper profile only)"
        area_before = ("quick: {}; paper: not yet run with this model" if target == "digits" else
                       "quick: not run; paper: not yet run with this model")
        claims.comparison(f"F1ef-{target}", f"Figs. 1e-f, 6 ({name}): RM-GP-UCB is consistently good: its area is not "
                          f"below that of any of {', '.join(rivals)} by one validation image or more"
                          + ("; RM-GP-TS left out here, where the paper has it better (F1e-ts)" if target == "digits" else "")
                          + img_no_mtbo, "RM-GP-UCB is the only method that consistently performs well", method="RM-GP-UCB",
                          competitors=rivals, figure="fig1ef_image", location="Sec. 6.2, Figs. 1e-f and 6",
                          **{**img_area, "relation": "no worse"}, **img,
                          revisions=[_rev(*RATIO_REV, IMG_RATIO_WHY, before), _rev(*IMG_FLOOR_REV, floor_before),
                                     _rev(*IMG_AREA_REV, area_before.format("inconclusive (undecided at the last look, "
                                                                            "n = 7; leans for)"))])
        for rival, fig in (("RGPE", "1e"), ("TAF", "1e")) if target == "digits" else (("TAF", "1f"),) if target == "g10" else ():
            _s63(claims, f"S63-{rival.lower()}-{fig}", rival, fig, {**img_area, **img, "figure": "fig1ef_image"})
        if target == "digits":
            claims.comparison("F1e-ts", f"Fig. 1e ({name}): RM-GP-TS does better than each other method" + img_no_mtbo,
                              "RM-GP-TS performs much better than RM-GP-UCB (and other methods) for MNIST", method="RM-GP-TS",
                              competitors=[m for m in C["IMG_METHODS"] if m != "RM-GP-TS"], figure="fig1ef_image",
                              location="Sec. 6.2, Fig. 1e", **img_area, **img)
            claims.comparison("F1e-rgpe", f"App. D.2 ({name}): RM-GP-UCB reaches a higher validation accuracy sooner than "
                              "RGPE", "our RM-GP-UCB outperforms RGPE for MNIST", method="RM-GP-UCB", competitors=["RGPE"],
                              figure="fig1ef_image", location="App. D.2", **img_area, **img,
                              revisions=[_rev("2026-11-27", "declared", "an independent audit found App. D.2's comparison "
                                              "with RGPE on MNIST neither declared nor listed", "none (new claim)")])
            claims.comparison("F1e-weights-rgpe", f"App. D.2 ({name}): RGPE gives the CIFAR-10 analogue (g10) a larger share "
                              "of the previous tasks' weight than the SVHN analogue (digits-noisy)", "RGPE mistakenly assigns "
                              "more meta-weights to CIFAR-10", method="RGPE: g10", competitors=["RGPE: digits-noisy"],
                              direction="higher", margin=SHARE_M, margin_reason=SHARE_WHY,
                              metric=SHARE_METRIC.format(what="each task"), figure="fig1e_weights", location="App. D.2",
                              **img, revisions=[_rev("2026-11-27", "declared", "an independent audit: F1e-weights leaves out "
                                                     "the paper's statement about RGPE's own allocation", "none (new claim)")])
            claims.comparison("F1e-weights", f"App. D.2 ({name}): RM-GP-UCB gives the noisy digits (the SVHN analogue) a larger "
                              "share of the previous tasks' weight than RGPE does", "RM-GP-UCB assigns most weight to SVHN, RGPE "
                              "mistakenly more to CIFAR-10", method="RM-GP-UCB", competitors=["RGPE"], direction="higher",
                              margin=SHARE_M, margin_reason=SHARE_WHY,
                              metric=SHARE_METRIC.format(what="digits-noisy"), figure="fig1e_weights",
                              location="App. D.2", **{**img, "origin": "check", "evidence": ""},
                              revisions=[_rev("2026-11-22", "metric defined as for F2f", "stated after the quick run",
                                              UNRECORDED), _rev(*SHARE_REV, "reproduced"),
                                         _rev(*ORIGIN_REV, "App. D.2 states each method's allocation, not one method's share "
                                              "against the other's; F1e-weights-most and F1e-weights-rgpe declare those",
                                              "not reproduced")])
            for method, key in (("RM-GP-UCB", "F1e-weights-most"), ("RM-GP-TS", "F1e-weights-most-ts")):
                claims.comparison(key, f"App. D.2 ({name}): {method} gives the noisy digits (the SVHN analogue) a larger share "
                                  "of the previous tasks' weight than each of the two others (g10, g20)", "RM-GP-UCB (and "
                                  "RM-GP-TS) is able to assign most weights to SVHN", method=f"{method}: digits-noisy",
                                  competitors=[f"{method}: g10", f"{method}: g20"], direction="higher", margin=SHARE_M,
                                  margin_reason=SHARE_WHY, metric=SHARE_METRIC.format(what="each task"),
                                  figure="fig1e_weights", location="App. D.2", **img,
                                  revisions=[_rev("2026-12-01", "declared", "an independent audit found App. D.2's own "
                                                  "statement (most weight on SVHN) undeclared, F1e-weights being relative to "
                                                  "RGPE; seen before: RM-GP-UCB's share on digits-noisy 0.745 to 0.763 on 7 of "
                                                  "7 quick seeds; RM-GP-TS's not seen", "none (new claim)")])
        else:
            claims.coverage(f"F1f-same-{target}", f"App. D.2 ({name}): RM-GP-UCB and RGPE give most of the previous tasks' weight "
                            "to the same task (the largest share, mean over the queries, per seed)", "both RM-GP-UCB and RGPE "
                            "assign most meta-weights to the same meta-task (CIFAR-10, CIFAR-100, SVHN)", level=0.8, margin=0.1,
                            unit="seed (our reading: a seed where a method weighs no previous task agrees with nothing)",
                            figure="fig1ef_image", location="App. D.2",
                            **{k: v for k, v in img.items() if k != "budget"},
                            revisions=[_rev("2026-12-01", "declared", "an independent audit found this statement of App. D.2 "
                                            "undeclared; not run before (these targets run at the paper profile only)",
                                            "none (new claim)"),
                                       _rev("2026-12-01", "level: from 0.9 to 0.8 (most seeds), before any result", "a second "
                                            "audit: at the 10 seeds of a first look even 10/10 could not clear 0.9 - 0.1",
                                            "none (not yet run)"),
                                       _rev("2026-12-02", "decided in the image runs' seed stages (alpha spent over the "
                                            "looks, as for the comparisons) instead of once on the seeds the comparisons "
                                            "needed", "an independent audit: the later stage ran only for the comparisons' "
                                            "sake", "none (not yet run with the model of IMG_MODEL_REVISION)")])
            claims.comparison(f"F1ef-rgpe-{target}", f"App. D.2 ({name}): RM-GP-UCB performs similarly to RGPE: their "
                              "areas are within one validation image of each other", "RM-GP-UCB performs similarly to RGPE for "
                              "CIFAR-10, CIFAR-100 and SVHN", method="RM-GP-UCB", competitors=["RGPE"], figure="fig1ef_image",
                              location="App. D.2", **{**img_area, "relation": "equivalent"}, **img,
                              revisions=[_rev(*IMG_FLOOR_REV, floor_before), _rev(*IMG_AREA_REV, area_before)])
            claims.comparison(f"F1ef-ts-{target}", f"Figs. 1f, 6 ({name}): RM-GP-TS does worse than RM-GP-UCB away from the digits",
                              "RM-GP-TS worse than RM-GP-UCB in the tasks other than MNIST", method="RM-GP-UCB",
                              competitors=["RM-GP-TS"], figure="fig1ef_image", location="Sec. 6.2, Figs. 1f and 6",
                              **img_area, **img)
        if target in ("digits", "g10"):
            panel = "8a" if target == "digits" else "8b"
            claims.comparison(f"F{panel}", f"Fig. {panel} ({name}): the max over j in the gap estimate costs RM-GP-UCB only "
                              "marginally: the two areas are within one validation image of each other",
                              "the deficit from using the max is marginal (MNIST, CIFAR-10)", method="RM-GP-UCB",
                              competitors=["RM-GP-UCB (gap max)"], figure="fig8_image_gap", location=f"App. D.3, Fig. {panel}",
                              **{**img_area, "relation": "equivalent"}, **img,
                              revisions=[_rev(*RATIO_REV, IMG_RATIO_WHY, "reproduced (with 23% more regret for the mean "
                                              "than for the max)" if target == "digits" else before),
                                         _rev("2026-11-27", "relation: equivalent (was: the mean no worse than the max)",
                                              "an independent audit: a max variant far worse than the mean contradicts "
                                              "'marginal' and passed the one-sided test", "reproduced" if target == "digits"
                                              else before), _rev(*IMG_FLOOR_REV, floor_before),
                                         _rev(*IMG_AREA_REV, area_before.format(
                                             "inconclusive (does not discriminate here: the log regrets within log 1.25, "
                                             "RM-GP-UCB not shown ahead of random search by it)"))])
    img_cost = ("each image target costs about 150 CPU-seconds per seed for its methods (measured at the quick profile), so this "
                f"profile runs the target(s) {', '.join(img_targets)} only; the paper profile runs all four")
    for target in [t for t in image_tuning.TASKS if t not in img_targets]:
        name = f"{target}, the {image_tuning.STANDS_IN_FOR[target]} analogue"
        claims.not_run(f"F1ef-{target}", f"Figs. 1e-f, 6 ({name}): RM-GP-UCB consistently good", "RM-GP-UCB is the only method "
                       "that consistently performs well", img_cost, cell="§6.10", location="Sec. 6.2, Figs. 1e-f and 6", **paper)
        if target == "digits":
            claims.not_run("F1e-ts", f"Fig. 1e ({name}): RM-GP-TS best", "RM-GP-TS performs much better for MNIST", img_cost,
                           cell="§6.10", location="Sec. 6.2, Fig. 1e", **paper)
            claims.not_run("F1e-rgpe", f"App. D.2 ({name}): RM-GP-UCB better than RGPE", "our RM-GP-UCB outperforms RGPE "
                           "for MNIST", img_cost, cell="§6.10", location="App. D.2", **paper)
            claims.not_run("F1e-weights-rgpe", f"App. D.2 ({name}): RGPE's weight on the CIFAR-10 analogue above the SVHN "
                           "analogue's", "RGPE mistakenly assigns more meta-weights to CIFAR-10", img_cost, cell="§6.10",
                           location="App. D.2", **paper)
            claims.not_run("F1e-weights", f"App. D.2 ({name}): RM-GP-UCB's share on the SVHN analogue against RGPE's",
                           "RM-GP-UCB assigns most weight to SVHN, RGPE mistakenly more to CIFAR-10", img_cost, cell="§6.10",
                           location="App. D.2", **check)
            for method, key in (("RM-GP-UCB", "F1e-weights-most"), ("RM-GP-TS", "F1e-weights-most-ts")):
                claims.not_run(key, f"App. D.2 ({name}): {method}'s largest weight on the SVHN analogue", "RM-GP-UCB (and "
                               "RM-GP-TS) is able to assign most weights to SVHN", img_cost, cell="§6.10", location="App. D.2",
                               **paper)
        else:
            claims.not_run(f"F1f-same-{target}", f"App. D.2 ({name}): RM-GP-UCB and RGPE weigh the same task most", "both "
                           "RM-GP-UCB and RGPE assign most meta-weights to the same meta-task (CIFAR-10, CIFAR-100, SVHN)",
                           img_cost, cell="§6.10", location="App. D.2", **paper)
            claims.not_run(f"F1ef-rgpe-{target}", f"App. D.2 ({name}): RM-GP-UCB similar to RGPE", "RM-GP-UCB performs "
                           "similarly to RGPE for CIFAR-10, CIFAR-100 and SVHN", img_cost, cell="§6.10", location="App. D.2",
                           **paper)
            claims.not_run(f"F1ef-ts-{target}", f"Figs. 1f, 6 ({name}): RM-GP-TS worse than RM-GP-UCB", "RM-GP-TS worse than "
                           "RM-GP-UCB in the tasks other than MNIST", img_cost, cell="§6.10", location="Sec. 6.2, Figs. 1f and 6",
                           **paper)
        if target == "g10":
            claims.not_run("S63-taf-1f", f"Sec. 6.3 (Fig. 1f, {name}): TAF no better than GP-UCB", S63_VALUE, img_cost,
                           cell="§6.10", location="Sec. 6.3, Fig. 1f", **paper)
            claims.not_run("F8b", f"Fig. 8b ({name}): the gap estimate's mean at least as good as its max", "the deficit from "
                           "using the max is marginal (CIFAR-10)", img_cost, cell="§6.10", location="App. D.3, Fig. 8b", **paper)

    # --- Fig. 2c (SVM tabular benchmark with PEM-BO)
    if S["svm_targets"]:
        unit = (f"paired over the {S['svm_targets']} targets, each averaged over its {S['svm_inits']} initialisations, as the "
                "paper averages them")
        svm = dict(budget=f"{S['svm_n_init']} initial points + {S['svm_T']} queries", stages=[S["svm_targets"]],
                   figure="fig2c_svm", cell="§6.11", stand_in=C["SVM_STAND_IN"], location="Sec. 6.2, Fig. 2c", **paper)
        svm_area = dict(metric=BEST_AREA + ", validation accuracy", margin=SVM_M, margin_reason=SVM_WHY)
        claims.comparison("F2c", f"Fig. 2c: RM-GP-UCB does better than GP-UCB, RM-GP-TS, TAF and PEM-BO ({unit})",
                          "RM-GP-UCB outperforms the other methods (except RGPE)", method="RM-GP-UCB",
                          competitors=["GP-UCB", "RM-GP-TS", "TAF", "PEM-BO"], direction="higher", **svm_area, **svm, contrast=CONTRAST)
        claims.comparison("F2c-rgpe", f"Fig. 2c: RM-GP-UCB performs comparably to RGPE: their areas are within one validation "
                          f"row of each other ({unit})", "RM-GP-UCB performs comparably to RGPE", method="RM-GP-UCB",
                          competitors=["RGPE"], direction="higher", relation="equivalent", **svm_area, **svm, contrast=CONTRAST,
                          revisions=[_rev("2026-12-02", "metric and margin: from the log of the area regret with the factor "
                                          "1.25 to the area with the margin SVM_M (one validation row), as F2c and F2c-ts",
                                          "an independent audit: at area regrets near 0.01 a factor 1.25 tolerates under "
                                          "half a validation row, and the recorded result needed about 29,000 targets",
                                          "paper: inconclusive (undecided at the 25 targets)")])
        ts_rev = ("2026-12-02", "declared as two claims, RM-GP-UCB (F2c-ts) and RGPE (F2c-ts-rgpe) each better than "
                  "RM-GP-TS, in place of one claim with RM-GP-TS as the method and the direction reversed",
                  "an independent audit: with RM-GP-TS as the method the random-search contrast asked whether RM-GP-TS "
                  "was more than the margin below random search, not whether the set-up separates methods")
        for cid, better in (("F2c-ts", "RM-GP-UCB"), ("F2c-ts-rgpe", "RGPE")):
            claims.comparison(cid, f"Fig. 2c: RM-GP-TS does unsatisfactorily with these diverse tasks: {better} does better "
                              f"than it ({unit})", "RM-GP-TS performs unsatisfactorily", method=better,
                              competitors=["RM-GP-TS"], direction="higher", **svm_area, **svm, contrast=CONTRAST,
                              revisions=[_rev(*ts_rev, "paper: inconclusive (does not discriminate here), as one claim")])
    else:
        claims.not_run("F2c", "Fig. 2c: the SVM tabular benchmark with PEM-BO",
                       "RM-GP-UCB comparable with RGPE and better than the other methods, PEM-BO included; RM-GP-TS unsatisfactory",
                       "run at the paper profile only (benchmark svm-grid and method pem-bo; 25 targets x 5 initialisations with "
                       "49 previous tasks each; measured on one core for one run of 33 evaluations with M = 49: RM-GP-UCB 280 s, "
                       "RGPE 184 s, PEM-BO 2 s, so the paper profile's 125 runs per method take at least 125 x 466 s, about 16 "
                       "CPU-hours, 8 hours on 2 cores)", cell="§6.11", location="Sec. 6.2, Fig. 2c", **paper)
    claims.not_run("S63-only", "Sec. 6.3: RM-GP-UCB is the only method that consistently beats standard GP-UCB, while RGPE "
                   "(Figs. 1e, 2a) and TAF (Figs. 1e, 1f, 2d) do no better than GP-UCB in some experiments",
                   "RM-GP-UCB is the only method that consistently outperforms standard GP-UCB in all experiments",
                   "a summary of the per-figure comparisons (F1ef-*, F2a, F2d, F2e, S63-rgpe-*, S63-taf-*), which decide "
                   "its parts; the stand-ins "
                   "run here are not the paper's experiments, so their tally is not the paper's", cell="§7",
                   location="Sec. 6.3", **paper,
                   revisions=[_rev("2026-11-27", "listed", "an independent audit found it neither declared nor listed",
                                   "none (new entry)")])
    claims.not_run("S63-ts-competitive", "Sec. 6.3: RM-GP-TS performs competitively in the experiments with less dissimilar "
                   "previous tasks (Figs. 1e-f, 2a)", "RM-GP-TS performs competitively in some experiments with more favorable "
                   "settings", "no measure of 'competitively' is given; F1e-ts (Fig. 1e: RM-GP-TS best on MNIST), F1ef-ts-* "
                   "(Figs. 1f, 6: worse than RM-GP-UCB elsewhere) and F2a (Fig. 2a) decide RM-GP-TS's standing figure by figure",
                   cell="§7", location="Sec. 6.3", **paper,
                   revisions=[_rev("2026-12-02", "listed", "a third independent audit found it neither declared nor listed",
                                   "none (new entry)")])
    claims.not_run("F9-ts-better", "App. D.4: RM-GP-TS does better in the large CartPole set-up (Fig. 9a) than in Fig. 2e",
                   "RM-GP-TS has a better performance here than in Fig. 2e", "it compares two set-ups with different previous "
                   "tasks and no common unit to pair; F2e-ts and F9a-ts decide RM-GP-TS's standing within each",
                   cell="§6.9", location="App. D.4", **paper,
                   revisions=[_rev("2026-12-01", "listed", "a second independent audit found it neither declared nor listed",
                                   "none (new entry)")])
    claims.not_run("S63-early", "Sec. 6.3: RM-GP-UCB's advantage is most evident at the initial stage",
                   "the performance advantage of RM-GP-UCB is most evident at the initial stage", "a reading of the "
                   "curves' shape with no measure given; the area metrics of the per-figure claims weigh the early queries "
                   "as much as the late ones", cell="§7", location="Sec. 6.3", **paper,
                   revisions=[_rev("2026-11-27", "listed", "an independent audit found it neither declared nor listed",
                                   "none (new entry)")])
    claims.protocol_revision(PROTOCOL_BEFORE)
    claims.revise(STAGES_BEFORE, **STAGES_REVISION)
    claims.revise(TS_MAXIMISER_BEFORE, **TS_MAXIMISER_REVISION)
    claims.revise(IMG_CONTRAST_BEFORE, **IMG_CONTRAST_REVISION)
    claims.revise(CP_SVM_CONTRAST_BEFORE, **CP_SVM_CONTRAST_REVISION)
    claims.revise(IMG_MODEL_BEFORE, **IMG_MODEL_REVISION)
    claims.revise(IMG_MODEL_V1_BEFORE, **IMG_MODEL_V1_REVISION)
    return C


#: the synthetic comparisons' seed stages extended to a cap of 200 (quick and paper) after quick runs, with the
#: quick verdicts before
STAGES_REVISION = dict(date="2026-11-26", changed="seed stages of the synthetic comparisons extended: cap 60 -> 200 "
                       "(fig1, c3, c4, c6 at quick; all six groups at the paper profile; c8 at quick 20 -> 100)",
                       why="an independent review found claims undecided at 60 seeds that flipped between seed sets while "
                           "the harness costs seconds per seed; more seeds decide them instead of leaving them to read "
                           "as underpowered")
TS_MAXIMISER_REVISION = dict(date="2026-11-27", changed="RM-GP-TS maximises its random-feature sample with the other "
                             "methods' multi-start L-BFGS-B (2,000 candidates, 4 starts plus the 3 best points), not by "
                             "the best of 1,000 random candidates",
                             why="an independent review found that every real-data claim with RM-GP-TS compared maximisers "
                                 "as well as algorithms (the authors maximise every method's acquisition with DIRECT)")
TS_MAXIMISER_BEFORE = {
    'F1e-ts': 'inconclusive', 'F2a': 'not reproduced', 'F2b-ts': 'reproduced', 'F2d': 'not reproduced',
    'F2d-rgpe': 'not reproduced', 'F2d-ts': 'inconclusive', 'F2e': 'inconclusive', 'F2e-ts': 'inconclusive',
}
IMG_CONTRAST_REVISION = dict(date="2026-12-01", changed=CONTRAST_REV[1].replace("this stand-in", "the image stand-in"),
                             why="an independent audit: on the image stand-in the methods' differences (at most 0.0015) sit "
                                 "below the margin (0.002), and nothing showed whether the set-up can separate methods at all")
IMG_CONTRAST_BEFORE = {
    'F1ef-digits': 'inconclusive', 'F1e-ts': 'inconclusive', 'F1e-rgpe': 'inconclusive', 'F8a': 'inconclusive',
    'S63-rgpe-1e': 'reproduced', 'S63-taf-1e': 'reproduced',
    **{f"{cid}-{t}": 'not run (paper profile only)' for t in ("digits-noisy", "g10", "g20") for cid in ("F1ef", "F1ef-rgpe", "F1ef-ts")},
    'F8b': 'not run (paper profile only)', 'S63-taf-1f': 'not run (paper profile only)',
}
#: the image stand-in's model changed after results (its verdicts before: quick and paper profile)
IMG_MODEL_REVISION = dict(date="2026-12-02", changed="stand-in model: the dense part of the paper's CNN (two hidden layers of "
                          "64 ReLU units) trained as App. D.2 trains the CNN (RMSprop, 20 epochs, the learning rate, its time "
                          "decay and the L2 penalty each on [1e-7, 1e-2], log scale, where the authors' code maps the unit cube "
                          "linearly), in place of a linear softmax classifier "
                          "trained by SGD on boxes of our own (rate [1e-4, 1], inverse-scaling exponent [0, 1], L2 [1e-7, 1e-1]); "
                          "the same tasks, grid and budgets",
                          why="the linear model's accuracy was flat over most of its box (on the digits half of the cells lay "
                              "within 0.05 of the best; the best of 30 random cells fell short of the best cell by 0.004, "
                              "0.010, 0.002 and 0.002 on the four tasks, one to five validation images), so methods could "
                              "hardly be told from random search (7 of the 24 image claims at the paper profile and 2 of 10 at "
                              "quick read 'does not discriminate here', the others mostly undecided at the seed cap); its "
                              "three settings and ranges were not the paper's. The new model was fixed from App. D.2 and its "
                              "tables (headroom printed in §6.10) before any method ran on it: the best of 30 random cells "
                              "falls short by 0.0024, 0.0296, 0.0407 and 0.0211 (of 5: 0.040, 0.122, 0.092, 0.051). It also "
                              "makes the previous tasks more alike: every task's best cell has the largest learning rate; "
                              "the digits' shortfall at the other tasks' best cells is 0.009, 0.009 and 0.017 (was 0.004, "
                              "0.091 and 0.091) and their rank correlations with the digits 0.98, 0.97 and 0.64 (were 0.79, "
                              "0.34 and 0.41), so the CIFAR-10 analogue is about as useful to the digits as the SVHN "
                              "analogue, against App. D.2's premise for its RGPE statements (F1e-rgpe, F1e-weights-rgpe)")
#: an intermediate model, run at quick only, replaced after an audit (its quick verdicts before)
IMG_MODEL_V1_REVISION = dict(date="2026-12-02", changed="stand-in model: from a network of one hidden layer of 32 units "
                             "trained by SGD with momentum and scikit-learn's inverse-scaling decay, on the linear model's "
                             "boxes, to the model of IMG_MODEL_REVISION",
                             why="an independent audit of the intermediate model: its L2 axis was inert (scikit-learn divides "
                                 "the penalty by the batch size, leaving the range below the paper's), its decay acted unlike "
                                 "the paper's and its rate range was ours; it had run at quick only")
IMG_MODEL_V1_BEFORE = {
    'F1ef-digits': 'quick: inconclusive (undecided at the seed cap)', 'F1e-ts': 'quick: not reproduced',
    'F1e-rgpe': 'quick: inconclusive (undecided at the seed cap)', 'S63-rgpe-1e': 'quick: inconclusive (undecided at the seed cap)',
    'S63-taf-1e': 'quick: inconclusive (undecided at the seed cap)', 'F8a': 'quick: inconclusive (undecided at the seed cap)',
    'F1e-weights': 'quick: reproduced', 'F1e-weights-rgpe': 'quick: inconclusive (undecided at the seed cap)',
    'F1e-weights-most': 'quick: reproduced', 'F1e-weights-most-ts': 'quick: reproduced',
}
IMG_MODEL_BEFORE = {
    'F1ef-digits': 'quick: inconclusive (undecided at the seed cap); paper: inconclusive (undecided at the seed cap)',
    'F1e-ts': 'quick: inconclusive (undecided at the seed cap); paper: inconclusive (does not discriminate here)',
    'F1e-rgpe': 'quick: inconclusive (undecided at the seed cap); paper: inconclusive (undecided at the seed cap)',
    'S63-rgpe-1e': 'quick: inconclusive (does not discriminate here); paper: inconclusive (does not discriminate here)',
    'S63-taf-1e': 'quick: inconclusive (does not discriminate here); paper: inconclusive (does not discriminate here)',
    'F8a': 'quick: inconclusive (undecided at the seed cap); paper: inconclusive (does not discriminate here)',
    'F1e-weights': 'quick: not reproduced; paper: inconclusive (undecided at the seed cap)',
    'F1e-weights-rgpe': 'quick: not reproduced; paper: not reproduced',
    'F1e-weights-most': 'quick: reproduced; paper: reproduced',
    'F1e-weights-most-ts': 'quick: reproduced; paper: reproduced',
    'F1ef-digits-noisy': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-rgpe-digits-noisy': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-ts-digits-noisy': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-g10': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-rgpe-g10': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-ts-g10': 'quick: not run; paper: inconclusive (does not discriminate here)',
    'S63-taf-1f': 'quick: not run; paper: inconclusive (does not discriminate here)',
    'F8b': 'quick: not run; paper: inconclusive (does not discriminate here)',
    'F1ef-g20': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-rgpe-g20': 'quick: not run; paper: inconclusive (undecided at the seed cap)',
    'F1ef-ts-g20': 'quick: not run; paper: inconclusive (does not discriminate here)',
    'F1f-same-digits-noisy': 'quick: not run; paper: not reproduced',
    'F1f-same-g10': 'quick: not run; paper: inconclusive',
    'F1f-same-g20': 'quick: not run; paper: inconclusive',
}
CP_SVM_CONTRAST_REVISION = dict(date="2026-12-01", changed=CONTRAST_REV[1].replace("this stand-in",
                                                                                      "the CartPole and SVM stand-ins"),
                                 why="a second independent audit: the CartPole and SVM equivalence claims had no contrast "
                                     "while the other stand-ins' had")
CP_SVM_CONTRAST_BEFORE = {
    'F2e': 'inconclusive (paper profile, first part: not reproduced)', 'F2e-ts': 'inconclusive', 'F2e-std': 'reproduced',
    **dict.fromkeys(("F9a", "F9a-ts", "F2c", "F2c-ts", "F2c-rgpe"), 'not run (paper profile only)'),
}
STAGES_BEFORE = {
    'C3': 'inconclusive', 'C3-eps': 'reproduced', 'C3-nu1': 'reproduced', 'C4': 'reproduced', 'C6-sep': 'reproduced',
    'C8-robust': 'inconclusive', 'C9': 'reproduced', 'C9-equal': 'inconclusive', 'F1a-fixed': 'inconclusive',
    'F1a-online': 'inconclusive', 'F1c-large': 'inconclusive', 'F1c-small': 'inconclusive', 'F8': 'inconclusive',
}


#: the quick verdicts of the comparisons decided before their margins and seed stages were declared
#: (bolib.claims.book.PROTOCOL_REVISION)
PROTOCOL_BEFORE = {
    'C2b-ni': 'reproduced',
    'C3': 'not reproduced',
    'C3-eps': 'reproduced',
    'C3-nu1': 'reproduced',
    'C4': 'reproduced',
    'C6-sep': 'reproduced',
    'C8-robust': 'inconclusive',
    'C9': 'reproduced',
    'C9-equal': 'inconclusive',
    'F1a-fixed': 'inconclusive',
    'F1a-online': 'inconclusive',
    'F1c-large': 'inconclusive',
    'F1c-small': 'reproduced',
    'F1e-ts': 'inconclusive',
    'F1e-weights': 'reproduced',
    'F1ef-digits': 'inconclusive',
    'F2a': 'inconclusive',
    'F2b-mtbo': 'reproduced',
    'F2b-ts': 'reproduced',
    'F2d': 'inconclusive',
    'F2d-rgpe': 'inconclusive',
    'F2d-ts': 'inconclusive',
    'F2e': 'inconclusive',
    'F2f': 'inconclusive',
    'F8': 'inconclusive',
    'F8a': 'reproduced',
    'F8c': 'inconclusive',
}
