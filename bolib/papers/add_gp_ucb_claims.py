"""The claims of notebooks/002_addgpucb.ipynb (paper 002, Add-GP-UCB), declared before any result.

:func:`declare` declares every comparison, rate, value and erratum of the notebook, and lists the
paper's claims that a profile does not run; :data:`INVARIANTS` holds the statements of the
identities and inequalities that the notebook counts where it computes them. Each claim says whose
it is: ``origin="paper"`` (a statement of the paper, with its location and whether it rests on the
paper's experiments or its theory) or ``origin="check"`` (ours). The method lists of Figs. 3-4
(:func:`variants`) and of Fig. 5 (:data:`FIG5`) live here because the claims name them.

Only the notebook and its experiment builders import this module; no job does, so editing it changes no
cached result. It reads its own paper module, :mod:`bolib.papers.add_gp_ucb`, for the levels z of the C10
calibration claims.
"""
from __future__ import annotations

import math

from scipy.stats import norm

from bolib.papers.add_gp_ucb import Z_LEVELS

#: the nine (D, d', M') panels of Figs. 3-4
PAPER_CONFIGS = [(10, 3, 3), (24, 6, 4), (24, 11, 2), (40, 5, 8), (40, 18, 2), (40, 35, 1), (96, 5, 19), (96, 29, 3),
                 (120, 55, 2)]
#: the panels where the paper says Add-* is best (small d'); on the others it is "not competitive with
#: the Add-d/M for small d"
ADD_STAR_BEST = {(10, 3, 3), (24, 6, 4), (40, 5, 8), (96, 5, 19)}
#: observation noise standard deviation of the C5 draws (f has variance M = D / 2)
C5_NOISE = 0.05
#: Fig. 5 stand-ins: label of the paper's best Add-d/M, its group size d, acquisition budget B, REMBO's d_e,
#: and what the stand-in replaces
FIG5 = {
    "supernova20": ("Add-5/4", 5, 500, 9, "a synthetic type-Ia supernova likelihood, 9 parameters in 20 dimensions, "
                    "for the SDSS luminous-red-galaxy likelihood"),
    "face-cascade20": ("Add-6/4", 6, 1000, 5, "the 20 stage thresholds of OpenCV's LBP face cascade on 1,000 LFW-subset "
                       "windows, for the 22 thresholds of its Haar cascade on Viola-Jones images"),
}
FIG5_PAPER = {"supernova20": "Add-5/4 slightly better than the other Add-d/M, which outperform GP-UCB (Sec. 5.2)",
              "face-cascade20": "Add-6/4 best; all Add-d/M but Add-1/22 better than GP-UCB and GP-EI (Sec. 5.3)"}

# ---------------------------------------------------------------- margins, each from the problem or the paper
#: eq. 7's group function is a log mixture with weights (0.1, 0.8, 0.1): one group left on a secondary mode
#: instead of the main one costs log(0.8 / 0.1) in f
MODE_GAP = math.log(8)
MODE_GAP_REASON = "log 8 = log(0.8 / 0.1): one group of eq. 7 left on a secondary mode instead of the main one"
#: C4 (Theorem 4): pools in D = 20 coordinates, consecutive groups of d = 2, SE bandwidth 0.25, eta^2 = 0.01
C4_DIM, C4_GROUP_DIM, C4_LENGTHSCALE, C4_NOISE = 20, 2, 0.25, 0.01
#: C4b: the design sizes between which the spectral gain's growth exponent in log T is measured. A gain
#: c T^q has exponent q log(T_high / T_low) / log(log T_high / log T_low) there (11.4 q): at Matérn-5/2's
#: q = d / (2 nu + d) = 2/7 in d = 2 (its eigenvalue decay s^{-(2 nu + d)/d}) that is 3.2, above d + 1 = 3,
#: plus 1 from a log T factor; at T <= 1e3 a power and (log T)^3 cannot be told apart this way (q = 2/7 gives
#: 2.6 over 1e3..1e5)
C4B_T = (10**4, 10**6)
#: C4a: the dimensions (groups of C4_GROUP_DIM) between which the gains' growth in D is measured, at T = C4B_T[1];
#: the full kernel's spectrum keeps products above C4A_FLOOR (the rest can add at most T / (2 eta^2) times their
#: sum, printed)
C4A_DIMS, C4A_FLOOR = (2, 6), 1e-13
#: C5-thm: Theorem 5's delta in beta_T and in the bound (the algorithm's default)
C5_DELTA = 0.1
#: accuracy of the face-cascade stand-in on 1,000 windows; the default thresholds score 0.633
FACE_WINDOWS, FACE_DEFAULT_ACCURACY = 1000, 0.633
FACE_SE = math.sqrt(FACE_DEFAULT_ACCURACY * (1 - FACE_DEFAULT_ACCURACY) / FACE_WINDOWS)
#: the supernova objective is a mean over 300 supernovae: a total log-likelihood difference of 2 (about the
#: 95% likelihood-ratio level of one parameter) is 2 / 300 of the mean
SUPERNOVA_N = 300
FIG5_MARGIN = {
    "supernova20": (2 / SUPERNOVA_N, "a total log-likelihood difference of 2 over the 300 supernovae (about the 95% "
                                     "likelihood-ratio level for one parameter), 2 / 300 of the mean"),
    "face-cascade20": (FACE_SE, f"one binomial standard error of an accuracy on {FACE_WINDOWS:,} windows at the "
                                f"default thresholds' {FACE_DEFAULT_ACCURACY} (sqrt(p (1 - p) / n))"),
}

#: the fit choices of the authors (their code, or their text where the code is silent) that ours depart from, each
#: run on one panel in place of ours (the settings of bolib.algorithms.add_gp_ucb.AddGPUCB): the key of its DEV-*
#: claims, the change to the variant (its settings, and the method where the choice is a method of its own) and
#: where the choice comes from. The authors' bandwidths are on [-1, 1]^D, twice ours on the unit cube.
DEVIATIONS = {
    "prior mean 0": ("mean", {"settings": {"prior_mean": "zero"}},
                     "the authors' synthetic demo: mean 0, observations scaled"),
    "h <= 2.5": ("hmax", {"settings": {"max_lengthscale": 2.5}},
                 "the upper end of the authors' fit box, h <= 5 on [-1, 1]^D"),
    "uniform start": ("start", {"settings": {"start_lengthscale": 1e-5}},
                      "Sec. 5: h = 1e-5 for the first 25 iterations, read as 25 uniform queries"),
    "DIRECT fit": ("fit", {"method": "add-gp-ucb-direct-fit"},
                   "the authors' fit: DIRECT on the log marginal likelihood in (log h, log sigma), h in [1e-5, 5] on "
                   "[-1, 1]^D, sigma in [0.03, 30] std(y_init), 20 iterations and about 50 evaluations"),
}
#: the methods of Figs. 3-4 on which every deviation is measured
DEV_METHODS = ("Add-*", "GP-UCB")
#: the deviations measured as well on the Add-d/M of the DEV panel with the smallest d > 1 (a learned grouping,
#: :func:`dev_learned_label`), each also set against GP-UCB with the same deviation: the authors' fit and prior mean,
#: which change the fit at which partialLearn scores its groupings (h <= 2.5 and the start phase are not repeated on
#: it, for cost)
DEV_LEARNED = ("prior mean 0", "DIRECT fit")
#: the quick verdicts of DEV-start-* before its start phase broke eq. 6's ties at random (DEV_START_REVISION)
DEV_START_BEFORE = {"Add-*": "not reproduced (S_T 37.4 higher, 0/8 seeds better)", "GP-UCB": "inconclusive at 16 seeds"}

# ---------------------------------------------------------------- revisions (changes made after results existed)
C10_REVISION = {"date": "2026-11-22", "changed": "the coverage of Lemma 10's band at its beta (claim C10, >= 0.9 over "
                "replications) was replaced by the calibration of the posterior at each z",
                "why": "the band at the Lemma's beta is so wide that it holds even on a wrong posterior",
                "verdict_before": "C10 reproduced (300 of 300)"}
C10_GROUP_REVISION = {"date": "2026-11-22", "changed": "claim added after the second audit",
                      "why": "the calibration of the full posterior alone would not catch a wrong sigma_j",
                      "verdict_before": "not declared"}
C4B_REVISIONS = [
    {"date": "2026-11-22", "changed": "from a bound on the additive gain's log-log slope over T = 30..300 (claimed "
     "0 to 0.58) to the fall of the local exponent between two windows, full 20-D SE kernel as contrast",
     "why": "a bound on one window's slope cannot tell a gain still leaving its linear cap from a polylogarithmic one",
     "verdict_before": "not reproduced (slope 0.635)"},
    {"date": "2026-11-22", "changed": "contrast from the full 20-D SE kernel to the additive Matern-1/2 kernel",
     "why": "Thm 4 covers the full SE kernel as well, so it cannot be the contrast",
     "verdict_before": "not recorded (no committed result)"},
    {"date": "2026-11-25", "changed": "contrast from the additive Matern-1/2 kernel to the additive Matern-5/2 kernel",
     "why": "issue 28: Matern-5/2 (Thm 4.2's polynomial rate) falls by 0.137, above the floor 0.0805, so the "
            "Matern-1/2 contrast did not test the polylogarithmic rate against the nearest rate it excludes",
     "verdict_before": "reproduced"},
    {"date": "2026-11-27", "changed": "from the fall of the greedy gain's local exponent between T = 33..100 and "
     "100..300 (claimed at least half the fall of (log T)^3) to the growth exponent in log T of the spectral gain "
     "1/2 sum_s log(1 + T lambda_s / eta^2) between T = 1e4 and 1e6 (claimed at most d + 1 = 3), the same "
     "Matern-5/2 contrast",
     "why": "issue 28: at T <= 300 both gains are still leaving their linear cap, so the Matern-5/2 gain fell "
            "as fast (0.137 against a floor of 0.081) and the check could not separate a polylogarithmic rate "
            "from a power; the spectral gain reaches design sizes where the two rates part",
     "verdict_before": "inconclusive (does not discriminate: the contrast met the range)"},
    {"date": "2026-11-27", "changed": "the spectrum from one group's Nystrom sample (n points in [0, 1]^2) with the "
     "additive structure written out exactly (bolib.papers.add_gp_ucb.additive_spectrum) instead of a Nystrom sample "
     "of all 20 coordinates",
     "why": "a 20-D sample of n points resolves about n / 10 eigenvalues per group, short of the Matern-5/2 tail that "
            "T = 1e6 reaches: the contrast's exponent grew with n (1.97, 2.55, 3.01 at n = 1,000, 2,000, 4,000) while "
            "the SE exponent stayed at 1.98; from one group's sample it is 3.26, 3.38, 3.42 (SE 1.98, 1.99, 1.99), "
            "and the gains at T = 1e4, where both samples resolve the SE spectrum, agree within 2%",
     "verdict_before": "inconclusive (does not discriminate: the contrast's exponent 2.55, the SE's 1.98)"},
]
C4A_REVISIONS = [
    {"date": "2026-11-27", "changed": "the full kernel's bandwidth from 0.25 sqrt(D / d) = 0.79 to the groups' 0.25",
     "why": "issue 28: the verdict turned on this choice (at h = 2.0 the full gain is 348 against the additive 397); "
            "the groups' bandwidth was taken for the full kernel (a choice of ours: the paper sets no such comparison)",
     "verdict_before": "reproduced (additive 397 against full 671)"},
    {"date": "2026-11-27", "changed": "from the level of the greedy gains at T = 300 and D = 20 to the growth in D of "
     "the spectral gain at T = 1e6 (D = 2 to 6), the paper's statement (linear in D against exponential)",
     "why": "independent review: at h = 0.25 in D = 20 the full kernel is white noise on the pool and its greedy gain "
            "sits at the cap T/2 log(1 + 1/eta^2) on every pool, so the comparison could not fail",
     "verdict_before": "reproduced (additive 397 against the cap 692)"},
    {"date": "2026-11-27", "changed": "from a bound on the additive kernel's exponent in D (at most 1, the full kernel "
     "as contrast) to a comparison of the two kernels' exponents (the additive lower, margin 1); D = 2..6 and "
     "T = 1e6 were chosen after a look at the full kernel's gains at D = 2, 4, 6 (334, 5,960, 63,204)",
     "why": "second review: the additive exponent is at most 1 by construction (the log-det subadditivity that C4-sub "
            "counts), so only the comparison with the full kernel can fail",
     "verdict_before": "reproduced (additive 0.853, full 4.78)"},
]
C5_THM_REVISION = {"date": "2026-11-27", "changed": "declared as a bound on R_T / (Thm 5's bound) of Algorithm 1, "
                   "RAND as the contrast, instead of listed as not run",
                   "why": "issue 28: Theorem 5 was never tested in its own setting",
                   "verdict_before": "not run"}
C5_THM_NOT_RUN_REVISION = {"date": "2026-11-27", "changed": "back to not run, with Algorithm 1 run and R_T / B_T of each "
                           "arm shown beside the bound",
                           "why": "independent review: the lower estimate of the bound (about 22,800 at T = 120) exceeds "
                                  "T times the largest regret of any query on the draws (about 3,400 to 3,900), so no "
                                  "run of any algorithm could fail it and the verdict was known before the run",
                           "verdict_before": "inconclusive (does not discriminate: RAND's R_T / B_T 0.095)"}
C5_THM_CONTRAST_REVISION = {"date": "2026-11-27", "changed": "from not run (its reason declared before the data) to a "
                            "bound on R_T / B_T decided by the data, with T (f* - min f) / B_T as the contrast (min f "
                            "found group by group)",
                            "why": "independent review: 'not testable' was written before the data and stood whatever "
                                   "the printed comparison showed; with the largest possible regret as the contrast the "
                                   "rule itself says whether the bound can separate anything",
                            "verdict_before": "not run"}
DEV_START_REVISION = {"date": "2026-11-27", "changed": "the start phase's queries drawn uniformly per group (our reading "
                      "of the text's 'explorative strategy') instead of DIRECT's first samples of eq. 6",
                      "why": "independent review: at h = 1e-5 eq. 6 is flat but for needles at the observations, so "
                             "DIRECT returned its own first samples, the box centre first (15 of Add-*'s 25 start-phase "
                             "queries; GP-UCB's the centre and axis thirds): the claim measured the centre, not an "
                             "explorative start"}
C5_SLOPE_REVISION = {"date": "2026-11-22", "changed": "from the log-log slope of R_T to the increment exponent "
                     "log2((R_T - R_T/2) / (R_T/2 - R_T/4))",
                     "why": "the log-log slope counted the initial design's regret and passed a run whose regret "
                            "still grows linearly",
                     "verdict_before": "not recorded (no committed result)"}
REF_REVISION = {"date": "2026-11-22", "changed": "from 'ours ends lower than dragonfly' to non-inferiority on log S_T "
                "within log 2", "why": "as a superiority claim an equal pair could never be reproduced",
                "verdict_before": "not recorded (no committed result; the statement then said none was looked at)"}
REF_CONTRAST_REVISION = {"date": "2026-11-27", "changed": "RAND (Figs. 3-4's runs on the same seeds) declared as the "
                         "contrast: 'no worse' stands only if ours is more than the margin better than RAND",
                         "why": "independent review: at quick random search was within the margin of dragonfly on 4 of "
                                "5 seeds, so the check would not have rejected random search",
                         "verdict_before": "reproduced (Add-3/4 - dragonfly -1.253, 4/5 seeds better)"}
C_ACQ_REVISION = {"date": "2026-11-27", "changed": "from a comparison decided at the largest D (per-group DIRECT "
                  "against one joint DIRECT and random search) to shown, not decided",
                  "why": "independent review: the comparison could not fail (gaps about 1e-3 against about 2 on every "
                         "seed), since the reference maximum is built group by group and a joint DIRECT in 64 "
                         "dimensions stops in its first trisections at that budget",
                  "verdict_before": "reproduced"}
C8A_REVISION = {"date": "2026-11-27", "changed": "contrast from the Matern-1/2 kernel to the Matern-5/2 kernel",
                "why": "independent review: Matern-1/2 is the polynomial decay farthest from the SE's; Matern-5/2, the "
                       "nearest one Thm 4 covers, is the contrast that tests whether the R^2 gap separates the two decays"}
#: C8a's quick verdicts with the Matern-1/2 contrast
C8A_BEFORE = {1: "reproduced (gap 0.0389; Matern-1/2 -0.140)", 2: "reproduced (gap 0.0777; Matern-1/2 -0.0401)",
              3: "reproduced (gap 0.0460; Matern-1/2 -0.0122)"}
F5_VJ_CONTRAST_REVISION = {"date": "2026-11-27", "changed": "the default thresholds declared as the contrast",
                           "why": "independent review: at quick even RAND was equivalent to the defaults, so an "
                                  "equivalence of the methods said nothing about them; the rules make a verdict that "
                                  "rests on the margin stand only where the method is more than the margin better than "
                                  "the contrast",
                           "verdict_before": "not reproduced (equivalent within 0.0152 to GP-UCB and RAND)"}
ORIGIN_REVISIONS = {
    "C11": {"date": "2026-11-27", "changed": "origin from paper to check",
            "why": "independent review: only the deterministic core of Lemma 11 is counted (the |y_t| bound is not), "
                   "and it holds with a wide slack on every posterior: a check of our posterior's code, not of the lemma",
            "verdict_before": "holds in every case"},
    "C-T1-order": {"date": "2026-11-27", "changed": "origin from paper to check",
                   "why": "independent review: the order is algebra on our corrected Table 1 formula",
                   "verdict_before": "holds in every case"},
}
DEV_REVISIONS = {
    "hmax": {"date": "2026-11-27", "changed": "the authors' upper end of h from 5 to 2.5 on the unit cube (the arm "
             "'h <= 5' renamed 'h <= 2.5')",
             "why": "issue 28: the authors' h is on the box [-1, 1]^D of the synthetic functions, twice the unit cube's "
                    "scale, so their h <= 5 is h <= 2.5 here; 5 was their number taken in our coordinates",
             "verdict_before": "reproduced (identical runs on 8 seeds)"},
    "start": {"date": "2026-11-27", "changed": "the arm 'small-h start' renamed 'uniform start'",
              "why": "independent review: the arm's 25 start-phase queries are uniform (our reading of the text); the "
                     "old name described the text, not the run",
              "verdict_before": "unchanged by the rename"},
    "fit": {"date": "2026-11-27", "changed": "claim added: the authors' DIRECT fit with their boxes of h and sigma, in "
            "place of ours", "why": "issue 28: the fit's optimiser, the scale box and the lower end of h were unmeasured "
            "deviations", "verdict_before": "not declared"},
}

#: the change of the placement of the optimum (issue 28), per experiment family: the synthetic functions of
#: Figs. 3-4 (and the runs on them: F-decomp, C-seq, REF-dragonfly) and the two Fig. 5 stand-ins
OFF_CENTRE_REVISIONS = {
    "synthetic": {"date": "2026-11-26", "changed": "the modes of the synthetic functions placed per run and group away "
                  "from the box centre (layout 'shifted' of bolib.benchmarks.additive: each coordinate's three centre "
                  "values of the authors' code dealt to the components in random order, then the group's centres "
                  "translated by a random offset that keeps every centre 0.1 inside the box), instead of the authors' "
                  "fixed centres",
                  "why": "issue 28: with the authors' centres the main mode lies 0.72 from the box centre at d' = 6 "
                         "(on (24, 6, 4) a regret of 86 at the centre against 172 for the best of 100 random "
                         "points), and DIRECT and GP-UCB's DIRECT acquisition start at the centre, so the comparisons "
                         "measured where the optimum sits"},
    "supernova20": {"date": "2026-11-26", "changed": "the supernova stand-in's parameter boxes moved off the truth (the "
                    "same widths, the truth at 0.18 to 0.77 of each width, at least a fifth of the width from the "
                    "middle; the best-known maximum recomputed)",
                    "why": "issue 28: the boxes were centred on the truth, so the point that DIRECT evaluates first "
                           "scored 0.10 against 0.42 at the maximum and about 0.005 for the best of 50 random points"},
    "face-cascade20": {"date": "2026-11-26", "changed": "the face-cascade stand-in's box (width 0.5 |tau_k| per stage) "
                       "placed per run off the default thresholds, each default 0.1 to 0.3 of the width from one end, "
                       "instead of centred on them",
                       "why": "issue 28: centred, the point that DIRECT evaluates first is OpenCV's own configuration"},
}


#: the deviations on the DEV panel's Add-d/M with the smallest d > 1 (declared after the first paper run)
DEV_LEARNED_REVISION = {"date": "2026-11-28", "changed": "claims added: the authors' prior mean 0 and DIRECT fit (our "
                        "add-gp-ucb-direct-fit, now with partialLearn as their addGPDecompMargLikelihood.m fits it) "
                        "run on the DEV panel's Add-d/M with the smallest d > 1, each against that Add-d/M as run and "
                        "against GP-UCB under the same choice",
                        "why": "independent audit of the first paper run: Add-3/8 reversed the paper on (24, 6, 4) with "
                               "short fitted bandwidths and near-uniform queries; whether the authors' fit choices "
                               "change that was unmeasured (add-gp-ucb-direct-fit did not take partialLearn)",
                        "verdict_before": "not declared (data seen: in that run, withdrawn for a fit defect since "
                                          "fixed, Add-3/8 ended 61.6 above GP-UCB, CI 36.6 to 86.6, better on 1 of 10 "
                                          "seeds; GP-UCB with prior mean 0 ended 4.75 below GP-UCB as run, CI -8.24 to "
                                          "-1.27, and with the DIRECT fit 1.24 below, both on 20 seeds)"}

#: Add-1/M in the per-variant claims of "almost all Add-d/M outperform GP-UCB" (declared after the first paper run)
ADD_ONE_REVISION = {"date": "2026-11-28", "changed": "Add-1/M declared among the Add-d/M that each end below GP-UCB",
                    "why": "independent audit of the first paper run: the statement 'almost all Add-d/M outperform "
                           "GP-UCB' names no exception on the panels where it is made (the paper calls Add-1/10 poor "
                           "on (10, 3, 3) and bars Add-1/22 in Fig. 5b, elsewhere), so d = 1 is counted with the "
                           "others and the reader counts how many hold",
                    "verdict_before": "not declared (data seen: in that run, withdrawn for a fit defect since fixed, "
                                      "Add-1/24 ended at a mean S_T of 89.0 against GP-UCB's 45.8 on 10 seeds)"}


def off_centre_family(claim_id: str) -> str | None:
    """The family of :data:`OFF_CENTRE_REVISIONS` whose experiment decides ``claim_id``, or None."""
    if claim_id in ("F-decomp", "C-seq", "REF-dragonfly") or any(
            claim_id == f"F{key(c)}" or claim_id.startswith(f"F{key(c)}-") for c in PAPER_CONFIGS):
        return "synthetic"
    return next((bench for bench in FIG5 if claim_id == f"F5-{bench}" or claim_id.startswith(f"F5-{bench}-")), None)


def off_centre_revision(claims) -> None:
    """Record :data:`OFF_CENTRE_REVISIONS` on every declared claim whose experiment moved, with its quick verdict
    before the move (:data:`OFF_CENTRE_BEFORE`; a claim the quick profile did not decide was not run there)."""
    for claim_id in list(claims.declared):
        family = off_centre_family(claim_id)
        if family:
            claims.revise({claim_id: OFF_CENTRE_BEFORE.get(claim_id, "not run at the quick profile")},
                          **OFF_CENTRE_REVISIONS[family])


# ---------------------------------------------------------------- the methods the claims name
def key(config) -> str:
    """A configuration (D, d', M') as the text of claim ids and figure names: ``10-3-3``."""
    return "-".join(map(str, config))


def configs(S) -> list[tuple[int, int, int]]:
    return [tuple(c) for c in S["configs"]]


def acquisition_budget(S, D: int) -> int:
    """B = min(cap, per_dim * D): the paper's B = min(5000, 100 D) at the paper profile."""
    return min(S["acq_cap"], S["acq_per_dim"] * D)


def variants(S, D: int, d_true: int, M_true: int) -> dict:
    """The methods of one panel of Figs. 3-4 with the authors' acquisition budgets."""
    B = acquisition_budget(S, D)
    add_dims = dict(zip(configs(S), S["add_dims"]))[D, d_true, M_true]
    out = {"Add-*": {"method": "add-gp-ucb", "settings": {"decomposition": "known",
                                                          "group_evals": math.ceil(B / M_true)}}}
    for d in add_dims:
        M = math.ceil(D / d)
        out[f"Add-{d}/{M}"] = {"method": "add-gp-ucb", "settings": {
            "decomposition": "partialLearn", "group_dim": d, "group_evals": math.ceil(0.9 * B / M),
            "n_perms": S["perms_per_dim"] * D}}
    out["GP-UCB"] = {"method": "add-gp-ucb", "settings": {"decomposition": "full", "group_evals": B}}
    out["RAND"] = {"method": "random"}
    out["DiRect"] = {"method": "direct"}
    return out


def dev_learned_label(S) -> str:
    """The Add-d/M of the DEV panel with the smallest d > 1 (Add-3/8 on (24, 6, 4))."""
    learned = {int(label[4:].partition("/")[0]): label for label in variants(S, *S["dev_config"])
               if label.startswith("Add-") and label != "Add-*"}
    return learned[min(d for d in learned if d > 1)]


def dev_arms(S) -> dict[str, tuple[str, ...]]:
    """Per method of the DEV panel, the deviations run on it (:data:`DEVIATIONS`)."""
    return {**{method: tuple(DEVIATIONS) for method in DEV_METHODS}, dev_learned_label(S): DEV_LEARNED}


def decomp_label(S) -> str:
    return f"Add-{S['decomp_dim']}/{math.ceil(S['decomp_config'][0] / S['decomp_dim'])}"


def ref_label(S) -> str:
    """Our partialLearn Add-d/M at the true d of the first panel (the dragonfly reference's pair)."""
    D, d, _ = configs(S)[0]
    return f"Add-{d}/{math.ceil(D / d)}"


def fig5_bo(S) -> dict:
    """The BO methods of Fig. 5a each compared with RAND."""
    return {"supernova20": [FIG5["supernova20"][0], "GP-UCB", *S["fig5_extra"]]}


# ---------------------------------------------------------------- invariants: counted where they are computed
#: C7: the two sides of Lemma 7 are one quantity computed two ways in float64 (a sum of about 100 logs
#: against a log-determinant), equal to about 1e-15 relative; a wrong variance misses by more than 1 nat
C7_TOLERANCE = 1e-8
#: C4-sub: relative slack of log det(I + sum_j K_j / eta^2) <= sum_j log det(I + K_j / eta^2) for the rounding
#: of the slogdets (about 1e-15 relative): a set where the inequality is tight is not counted as a violation
C4_SUB_TOLERANCE = 1e-12
#: C8b-tail: slack of tail_sum(k) <= tail_union(k), as a fraction of the trace: the eigenvalues of n x n
#: matrices (n up to 2,000) carry rounding errors of about n 1e-16 of the trace
C8B_TAIL_TOLERANCE = 1e-10
#: C-T1: the exponent of sqrt(8 C_1 beta_T M T gamma_T), measured between T = 1e40 and 1e80, exceeds its
#: limit by the log factors' 1 / log T (0.0075 there); 0.02 allows that, while leaving out Theorem 4's d(d + 1)
#: moves the exponent by 0.17 at nu = 2.5, d = 3
C_T1_TOLERANCE = 0.02
#: C-T1 and C-T1-order: the Matern smoothness nu and the largest dimension of the check
C_T1_NUS, C_T1_MAX_DIM = (2.5, 3.5, 5.0), 20


def _power_of_ten(x: float) -> str:
    """A tolerance that is a power of ten as the invariants' text writes it: 1e-8."""
    return f"1e{round(math.log10(x))}"


INVARIANTS = {
    "C7": dict(statement="Lemma 7: 1/2 sum_t log(1 + sigma_{t-1}^2 / eta^2) = 1/2 log det(I + K / eta^2)",
               paper_value="equal", where=f"relative difference <= {_power_of_ten(C7_TOLERANCE)}", cell="§5.1",
               origin="paper", location="App. B.1, Lemma 7", evidence="theory"),
    "C4-sub": dict(statement="log det(I + sum_j K_j / eta^2) <= sum_j log det(I + K_j / eta^2)", paper_value="holds",
                   where="one set per D", cell="§5.4", origin="check"),
    "C8b-tail": dict(statement="tail of the sum's spectrum <= tail of the union's, for every k",
                     paper_value="needed by Thm 4",
                     where=f"k = 1..n, tolerance {_power_of_ten(C8B_TAIL_TOLERANCE)} trace", cell="§5.5", origin="check"),
    "C11": dict(statement="Lemma 11 (core): |mu(x) - mu(x')| <= ||Y|| eta^-2 L sqrt(t - 1) ||x - x'||",
                paper_value="holds", where="pairs of points, all posteriors", cell="§5.6", origin="check",
                location="App. B.2, Lemma 11", revisions=[ORIGIN_REVISIONS["C11"]]),
    "C-T1": dict(statement="Table 1 (Matern), corrected: the exponent of Thm 5's bound with Thm 4's gamma_T is "
                           "(nu + d(d+1)) / (2 nu + d(d+1))", paper_value="corrected cells",
                 where=f"nu in {{{', '.join(f'{nu:g}' for nu in C_T1_NUS)}}}, d = 1..{C_T1_MAX_DIM}, "
                       f"within {C_T1_TOLERANCE:g}", cell="§5.7", origin="check"),
    "C-T1-order": dict(statement="Table 1 (Matern): the Add-GP-UCB exponent (d) is below GP-UCB's (D) for d < D",
                       paper_value="Add better", where=f"D <= {C_T1_MAX_DIM}", cell="§5.7", origin="check",
                       location="Table 1", revisions=[ORIGIN_REVISIONS["C-T1-order"]]),
}


def declare(claims, S) -> None:
    """Declare every claim of the notebook at the profile settings ``S``."""
    T = S["budget"]
    paper_exp = dict(origin="paper", evidence="experiment")
    paper_thy = dict(origin="paper", evidence="theory")
    seeds = S["seeds"]

    # ------------------------------------------------ Figs. 3-4 (Sec. 5.1)
    for config in configs(S):
        labels = list(variants(S, *config))
        add_labels = [label for label in labels if label.startswith("Add-") and label != "Add-*"]
        where = dict(metric="final simple regret S_T", budget=f"T = {T} queries", figure=f"synthetic_{key(config)}",
                     cell="§6.2", margin=MODE_GAP, margin_reason=MODE_GAP_REASON, stages=seeds, **paper_exp)
        figs = "Sec. 5.1, Figs. 3-4"
        claims.comparison(f"F{key(config)}-star", f"{config}: Add-* ends below GP-UCB", "Add-* outperforms GP-UCB",
                          method="Add-*", competitors=["GP-UCB"], direction="lower", location=figs, **where)
        if config in ADD_STAR_BEST:
            claims.comparison(f"F{key(config)}-best", f"{config}: Add-* ends below every other method",
                              "Add-* does best", method="Add-*",
                              competitors=[label for label in labels if label != "Add-*"], direction="lower",
                              location=figs, **where)
            claims.comparison(f"F{key(config)}-RT", f"{config}: Add-* has a lower R_T / T than GP-UCB",
                              "Add-* does best (R_T / T rows)", method="Add-*", competitors=["GP-UCB"],
                              direction="lower", location=f"{figs}, R_T / T rows",
                              **{**where, "metric": "time-averaged cumulative regret R_T / T"})
            # (10, 3, 3): the paper names Add-3/4 and Add-5/2; elsewhere "almost all Add-d/M", each on its own
            named = ([label for label in ("Add-3/4", "Add-5/2") if label in labels] if config == (10, 3, 3)
                     else add_labels)
            for label in named:
                claims.comparison(f"F{key(config)}-{label}", f"{config}: {label} ends below GP-UCB",
                                  f"{label} outperforms GP-UCB" if config == (10, 3, 3)
                                  else "almost all Add-d/M outperform GP-UCB", method=label, competitors=["GP-UCB"],
                                  direction="lower", location=figs,
                                  revisions=[ADD_ONE_REVISION] if label.startswith("Add-1/") else [], **where)
        else:  # large d': Add-* "not competitive with the Add-d/M for small d" (smallest d > 1 of the panel)
            small = next(label for label in add_labels if not label.startswith("Add-1/"))
            claims.comparison(f"F{key(config)}-small", f"{config}: {small} ends below Add-*",
                              "Add-* not competitive with the Add-d/M for small d", method=small,
                              competitors=["Add-*"], direction="lower", location=figs, **where)
        if config == (10, 3, 3) and "Add-1/10" in labels:
            claims.comparison(f"F{key(config)}-Add-1/10", f"{config}: Add-1/10 ends above Add-*, Add-3/4 and Add-5/2",
                              "Add-1/10 performs poorly", method="Add-1/10",
                              competitors=[label for label in ("Add-*", "Add-3/4", "Add-5/2") if label in labels],
                              direction="higher", location=figs, **where)
        elif config == (10, 3, 3):
            claims.not_run(f"F{key(config)}-Add-1/10", f"{config}: Add-1/10 ends above Add-*, Add-3/4 and Add-5/2",
                           "Add-1/10 performs poorly", "Add-1/10 runs at the paper profile only (time budget)",
                           location=figs, figure=where["figure"], cell="§6.2", **paper_exp)
        if config[0] >= 96:
            claims.comparison(f"F{key(config)}-DiRect", f"{config}: DiRect ends below GP-UCB and {add_labels[-1]}",
                              "GP-UCB and Add-d/M with large d perform worse than DiRect at large D", method="DiRect",
                              competitors=["GP-UCB", add_labels[-1]], direction="lower", location=figs, **where)
    for config in PAPER_CONFIGS:
        if config not in configs(S):
            claims.not_run(f"F{key(config)}", f"Figs. 3-4, panel {config}", "Sec. 5.1's statements on this panel",
                           "the panel runs at the paper profile only (time budget)", location="Sec. 5.1, Figs. 3-4",
                           figure=f"synthetic_{key(config)}", cell="§6.2", **paper_exp)
    dev_config = tuple(S["dev_config"])
    dev = dict(metric="final simple regret S_T", budget=f"T = {T} queries", margin=MODE_GAP,
               margin_reason=MODE_GAP_REASON, stages=seeds, figure="deviations", cell="§6.2", origin="check")
    learned = dev_learned_label(S)
    for deviation, (dev_key, _extra, source) in DEVIATIONS.items():
        for method, arms in dev_arms(S).items():
            if deviation not in arms:
                continue
            claims.comparison(f"DEV-{dev_key}-{method}", f"{dev_config}: {method} with {deviation} ({source}) ends within "
                              f"log 8 of {method} as run", "not in the paper (the effect of one of our deviations)",
                              method=f"{method}, {deviation}", competitors=[method], direction="lower",
                              relation="equivalent", revisions=(
                                  ([{**DEV_START_REVISION, "verdict_before": DEV_START_BEFORE[method]}]
                                   if dev_key == "start" and method in DEV_METHODS else [])
                                  + ([DEV_REVISIONS[dev_key]] if dev_key in DEV_REVISIONS and method in DEV_METHODS
                                     else [])
                                  + ([DEV_LEARNED_REVISION] if method == learned else [])), **dev)
        if deviation in DEV_LEARNED:
            claims.comparison(f"DEV-{dev_key}-{learned}-vs-GP-UCB", f"{dev_config}: with {deviation} in both, "
                              f"{learned} ends below GP-UCB", "almost all Add-d/M outperform GP-UCB (Sec. 5.1), "
                              "under one of the authors' fit choices", method=f"{learned}, {deviation}",
                              competitors=[f"GP-UCB, {deviation}"], direction="lower",
                              revisions=[DEV_LEARNED_REVISION], **dev)
    label = decomp_label(S)
    claims.comparison("F-decomp", f"{label} with partialLearn ends below the same model with a fresh random grouping at "
                      f"each refit, on {tuple(S['decomp_config'])}",
                      "partially optimising the decomposition performed slightly better than a random one",
                      method=label, competitors=[f"{label} random"], direction="lower", metric="final simple regret S_T",
                      budget=f"T = {T} queries", margin=MODE_GAP, margin_reason=MODE_GAP_REASON, stages=seeds,
                      figure="decomposition", cell="§6.2", location="Sec. 4.4", **paper_exp)
    claims.not_run("F-decomp-fixed", f"{label} with partialLearn ends below the same model with one fixed random grouping",
                   "partially optimising the decomposition performed slightly better than a fixed one",
                   "the fixed-grouping arm is not run; F-decomp compares with a random grouping at each refit",
                   location="Sec. 4.4", cell="§6.2", **paper_exp)

    # ------------------------------------------------ theory
    claims.erratum("C5-bug", "Eq. 14 summed over t, sum_t sum_j sigma_j^2 <= C_1 sum_t log(1 + sigma^2 / eta^2), fails "
                   "for an additive kernel at eta^2 = 1; its form with the full sigma^2 holds",
                   "eq. 14 holds (proof of Thm 5); the paper's closing note says eq. 14 has an error", tolerance=0.0,
                   figure="eq14", cell="§5.2", location="App. B.2, eq. 14 (proof of Thm 5); note after the Acknowledgements",
                   revisions=[{"date": "2026-11-26", "changed": "paper value and location cite the paper's own note retracting eq. 14",
                               "why": "the erratum is the paper's, not ours (an independent reader, issue 25)",
                               "verdict_before": "reproduced"}], **paper_thy)
    for z in Z_LEVELS:  # tolerance: 3 standard errors of a proportion at c10_reps replications
        exact = 2 * norm.cdf(z) - 1
        tolerance = 3 * math.sqrt(exact * (1 - exact) / S["c10_reps"])
        claims.value(f"C10-cal-z{z:g}", f"The additive GP's full posterior: |f - mu| <= {z:g} sigma at a random point "
                     "with probability 2 Phi(z) - 1 for f drawn from the prior", round(exact, 4), tolerance=tolerance,
                     cell="§5.3", origin="check", revisions=[C10_REVISION])
        claims.value(f"C10-cal-group-z{z:g}", f"Eq. 5's per-group posterior, on which Lemma 10's band is built: "
                     f"|f_j - mu_j| <= {z:g} sigma_j with probability 2 Phi(z) - 1", round(exact, 4),
                     tolerance=tolerance, cell="§5.3", origin="check", revisions=[C10_GROUP_REVISION])
    D_low, D_high = C4A_DIMS
    claims.comparison("C4a", f"The additive kernel's information gain grows more slowly in D (groups of {C4_GROUP_DIM}) "
                      f"than the full SE kernel's of the same bandwidth: the exponent in D of the spectral gain at "
                      f"T = {C4B_T[1]:.0e} from D = {D_low} to {D_high} is lower",
                      "additive gain linear in D against exponential in D for the D-th order kernel (Sec. 4.3)",
                      method="additive", competitors=["full SE"], direction="lower",
                      metric=f"exponent in D, log(g(D_high) / g(D_low)) / log(D_high / D_low), of the spectral gain g "
                             f"(kappa(x, x) = 1, h = {C4_LENGTHSCALE}; the full kernel's spectrum the products of its "
                             f"1-D eigenvalues)", budget=f"T = {C4B_T[1]:.0e}, D = {D_low} to {D_high}",
                      margin=1.0, margin_reason="one power of D: linear against quadratic growth",
                      stages=S["c4_seeds"], figure="c4_gain", cell="§5.4", location="Sec. 4.3, Thm 4",
                      revisions=C4A_REVISIONS, **paper_thy)
    T_low, T_high = C4B_T
    claims.rate("C4b", f"The additive SE kernel's spectral gain grows at most like (log T)^(d+1): its growth exponent in log T between "
                f"T = {T_low:.0e} and {T_high:.0e} is at most d + 1 = {C4_GROUP_DIM + 1}",
                "gamma_T = O(D d^d (log T)^{d+1}) (SE)", claimed=(0.0, C4_GROUP_DIM + 1.0),
                estimator=f"log(g(T_high) / g(T_low)) / log(log T_high / log T_low) of the spectral gain g(T) = 1/2 "
                          f"sum_s log(1 + T lambda_s / eta^2), lambda_s the additive kernel's eigenvalues from the "
                          f"Nystrom spectrum of one group on {S['c4_spectrum_n']:,} uniform points",
                contrast="additive Matern-5/2 kernel, D = 20, d = 2 (Thm 4.2: gain a power of T)",
                figure="c4_gain", cell="§5.4", location="Sec. 4.3, Thm 4.1", revisions=C4B_REVISIONS, **paper_thy)
    for d in (1, 2, 3):
        claims.rate(f"C8a-d{d}", f"SE eigenvalues decay exponentially in s^(1/d) (d = {d}), the bound used for Thm 4",
                    "lambda_s <= c^d B^(s^(1/d)) [corrected; printed c^d B s^(1/d)]", claimed=(0.0, 1.0),
                    estimator="R^2(log lambda_s on s^(1/d)) - R^2(log lambda_s on log s), s = 5..150",
                    quantity="R^2 gap",
                    contrast="Matern-5/2 kernel (polynomial decay, Thm 4.2's kernel)", figure="c8_spectra", cell="§5.5",
                    location="App. B.1.1 (proof of Thm 4.1, after Seeger et al. 2008)",
                    revisions=[{**C8A_REVISION, "verdict_before": C8A_BEFORE[d]}], **paper_thy)
    claims.erratum("C8b", "The spectrum of an additive kernel is not the union of its components' spectra; what holds "
                   "is the tail inequality sum_{s>k} lambda_s(sum) <= sum_{s>k} lambda_s(union) for every k",
                   "spectrum of the sum = union of spectra", tolerance=1e-6, figure="c8_spectra", cell="§5.5",
                   location="App. B.1.1 (proof of Thm 4.1)", **paper_thy)
    acq_D = max(S["acq_dims"])
    claims.not_run("C-acq", f"Per-group DIRECT gets closer to the maximum of eq. 6 than one {acq_D}-D DIRECT or random "
                   "search with the same number of evaluations", "phi~ is maximised group by group (Sec. 4.2)",
                   "shown, not decided: the reference maximum is itself the sum of the groups' maxima, and one DIRECT "
                   f"over {acq_D} coordinates with 100 evaluations per group cannot get past its first trisections, so "
                   "the outcome follows from separability; the gaps and CPU times of the three routes are plotted",
                   figure="c_acq", cell="§5.7", origin="check", revisions=[C_ACQ_REVISION])

    # ------------------------------------------------ Theorem 5 on draws from the additive prior (§6.5)
    c5_dim, c5_T = S["c5_dim"], S["c5_budget"]
    claims.rate("C5-thm", f"Thm 5 in its own setting: Algorithm 1 (Thm 5's beta_t, the known kernel) ends with R_T at "
                f"most the bound B_T = sqrt(8 C_1 beta_T M T gamma_T) on the draws (D = {c5_dim}, d = 2, T = {c5_T})",
                "R_T <= sqrt(8 C_1 beta_T M T gamma_T) + 2 zeta_0 sqrt(T) + C_2 with probability > 1 - delta",
                claimed=(-math.inf, 1.0), quantity="R_T / B_T",
                estimator=f"R_T / B_T of Algorithm 1 at T = {c5_T}, B_T a lower estimate of the bound (greedy gamma_T, "
                          "zeta_0 = C_2 = 0)",
                contrast="T (f* - min f) / B_T, the largest R_T / B_T any algorithm can have on the draw",
                figure="c5_regret", cell="§6.5", location="Sec. 4.3, Thm 5",
                revisions=[C5_THM_REVISION, C5_THM_NOT_RUN_REVISION, C5_THM_CONTRAST_REVISION], **paper_thy)
    claims.not_run("T6", "Thm 6: GP-UCB with the additive kernel and its acquisition maximised over all D coordinates "
                   "at once has regret of the order of Thm 5's", "the additive kernel's regret bound holds for a joint "
                   "maximisation too", "GP-UCB with the additive kernel is not run: C5 runs Alg. 1, Add-* and GP-UCB with "
                   "the full SE kernel", location="Sec. 4.3, Thm 6", cell="§6.5", **paper_thy)
    claims.rate("C5-slope", f"On draws from an additive GP prior (D = {c5_dim}, d = 2), Add-* (Algorithm 2, practical "
                "beta_t) has sublinear cumulative regret: increment exponent at most 0.9",
                "R_T = O(sqrt(D gamma_T T log T)), sublinear (Thm 5)", claimed=(-math.inf, 0.9),
                estimator=f"increment exponent log2((R_T - R_T/2) / (R_T/2 - R_T/4)), T = {c5_T}",
                contrast="RAND (linear regret, exponent 1)", figure="c5_regret", cell="§6.5", origin="check",
                revisions=[C5_SLOPE_REVISION])
    claims.comparison("C5-regret", "On the same draws Add-* ends with lower cumulative regret than GP-UCB (full SE "
                      "kernel) and RAND", "Add-GP-UCB's bound linear in D, GP-UCB's exponential (Sec. 4.3)",
                      method="Add-*", competitors=["GP-UCB", "RAND"], direction="lower", metric="cumulative regret R_T",
                      budget=f"T = {c5_T} queries", margin=c5_T * C5_NOISE,
                      margin_reason=f"T x the noise standard deviation ({c5_T} x {C5_NOISE}): a regret per query "
                                    "below the observation noise",
                      stages=S["c5_seeds"], figure="c5_regret", cell="§6.5", origin="check")
    seq_config = configs(S)[0]
    claims.comparison("C-seq", f"Add-GP-UCB has lower cumulative regret than Add-GP-UCB-Buggy (Alg. 5) and "
                      f"Seq-Add-GP-UCB (Alg. 4) on {seq_config}, all with the true decomposition",
                      "Algs. 4 and 5 have deficiencies; Alg. 5's bound is a factor M larger (App. A.2)",
                      method="Add-*", competitors=["Add-Buggy-*", "Seq-Add-*"], direction="lower",
                      metric="cumulative regret R_T", budget=f"T = {T} queries", margin=T * MODE_GAP,
                      margin_reason=f"T x log 8 ({T} x {MODE_GAP:.2f}): one group of eq. 7 on a secondary mode "
                                    "throughout the run",
                      stages=S["seq_seeds"], figure=f"cseq_{key(seq_config)}", cell="§6.3", origin="check")

    # ------------------------------------------------ Fig. 5 through stand-ins (Secs. 5.2-5.3)
    fig5_where = dict(metric="best value found", budget=f"T = {S['fig5_budget']} queries", figure="fig5_standins",
                      cell="§6.4", stages=S["fig5_seeds"])
    where5 = {bench: dict(margin=FIG5_MARGIN[bench][0], margin_reason=FIG5_MARGIN[bench][1], stand_in=FIG5[bench][4],
                          **fig5_where) for bench in FIG5}
    loc5 = {"supernova20": "Sec. 5.2, Fig. 5a", "face-cascade20": "Sec. 5.3, Fig. 5b"}
    for bench, (label, *_rest) in FIG5.items():
        contrast = {"contrast": "default thresholds", "revisions": [F5_VJ_CONTRAST_REVISION]} if bench == "face-cascade20" else {}
        claims.comparison(f"F5-{bench}", f"{label} finds a higher value than GP-UCB and RAND", FIG5_PAPER[bench],
                          method=label, competitors=["GP-UCB", "RAND"], direction="higher", location=loc5[bench],
                          **where5[bench], **contrast, **paper_exp)
        claims.not_run(f"F5-{bench}-Add-d/M", f"{label} ends above the other Add-d/M", FIG5_PAPER[bench],
                       "one Add-d/M per task is run", location=loc5[bench], figure="fig5_standins", cell="§6.4",
                       stand_in=FIG5[bench][4], **paper_exp)
    for label in fig5_bo(S)["supernova20"]:
        claims.comparison(f"F5-supernova20-{label}-RAND", f"{label} finds a higher value than RAND",
                          "all BO methods do better than RAND", method=label, competitors=["RAND"], direction="higher",
                          location=loc5["supernova20"], **where5["supernova20"], **paper_exp)
    for label in ("GP-EI", "REMBO"):
        if label not in S["fig5_extra"]:
            claims.not_run(f"F5-supernova20-{label}-RAND", f"{label} finds a higher value than RAND",
                           "all BO methods do better than RAND", f"{label} runs at the paper profile only (time budget)",
                           location=loc5["supernova20"], figure="fig5_standins", cell="§6.4",
                           stand_in=FIG5["supernova20"][4], **paper_exp)
    best_vj = FIG5["face-cascade20"][0]
    extra = {
        "F5-face-cascade20-GP-EI": ("GP-EI", dict(statement=f"{best_vj} finds a higher value than GP-EI",
                                                  paper_value="all Add-d/M but Add-1/22 better than GP-UCB and GP-EI",
                                                  method=best_vj, competitors=["GP-EI"], direction="higher"),
                                    "face-cascade20"),
        "F5-face-cascade20-REMBO": ("REMBO", dict(statement="REMBO finds a lower value than every other method of the "
                                                            "panel", paper_value="REMBO performs worst",
                                                  method="REMBO", direction="lower",
                                                  competitors=[best_vj, "GP-UCB", "RAND", "DiRect",
                                                               *[m for m in S["fig5_extra"] if m != "REMBO"]]),
                                    "face-cascade20"),
        "F5-supernova20-REMBO": ("REMBO", dict(statement=f"REMBO finds a lower value than {FIG5['supernova20'][0]}",
                                               paper_value="REMBO not competitive with the Add-d/M", method="REMBO",
                                               direction="lower", competitors=[FIG5["supernova20"][0]]),
                                 "supernova20"),
    }
    for cid, (needs, spec, bench) in extra.items():
        if needs in S["fig5_extra"]:
            claims.comparison(cid, spec.pop("statement"), spec.pop("paper_value"), location=loc5[bench], **spec,
                              **where5[bench], **paper_exp)
        else:
            claims.not_run(cid, spec["statement"], spec["paper_value"], f"{needs} runs at the paper profile only "
                           "(time budget)", location=loc5[bench], figure="fig5_standins", cell="§6.4",
                           stand_in=FIG5[bench][4], **paper_exp)
    claims.comparison("F5-supernova20-RAND-DiRect", "RAND finds a higher value than DiRect",
                      "RAND outperforms DiRect (9 of 20 coordinates matter)", method="RAND", competitors=["DiRect"],
                      direction="higher", location=loc5["supernova20"], **where5["supernova20"], **paper_exp)
    claims.comparison("F5-face-cascade20-default", f"{best_vj} finds thresholds more accurate than the cascade's own",
                      "a value for the thresholds that outperforms OpenCV's configuration", method=best_vj,
                      competitors=["default thresholds"], direction="higher", location=loc5["face-cascade20"],
                      **where5["face-cascade20"], **paper_exp)
    claims.comparison("F5-face-cascade20-default-RAND", "Contrast of F5-face-cascade20-default: RAND finds thresholds "
                      "more accurate than the cascade's own", "not in the paper (does the claim need BO?)",
                      method="RAND", competitors=["default thresholds"], direction="higher", origin="check",
                      **where5["face-cascade20"])

    # ------------------------------------------------ external reference (§6.6)
    ref_config = configs(S)[0]
    claims.comparison("REF-dragonfly", f"On {ref_config}, our {ref_label(S)} (Alg. 2, partialLearn) ends with a simple "
                      "regret no worse than twice that of dragonfly's add_ucb, the authors' later implementation",
                      "not in the paper (a check of this implementation)", method=ref_label(S),
                      competitors=["dragonfly add_ucb"], direction="lower", relation="no worse", margin=math.log(2),
                      margin_reason="log 2 on log S_T: a factor 2 in the simple regret, which the paper reads on "
                                    "log axes spanning decades",
                      metric="log final simple regret log S_T", budget=f"T = {T} queries",
                      stages=S["dragonfly_seeds"], figure="dragonfly_reference", cell="§6.6", origin="check",
                      contrast="RAND", revisions=[REF_REVISION, REF_CONTRAST_REVISION])
    claims.protocol_revision(PROTOCOL_BEFORE)
    off_centre_revision(claims)


__all__ = ["ADD_STAR_BEST", "C4_DIM", "C4_GROUP_DIM", "C4_LENGTHSCALE", "C4_NOISE", "C4_SUB_TOLERANCE", "C5_NOISE",
           "C4A_DIMS", "C4A_FLOOR", "C4B_T", "C5_DELTA", "C7_TOLERANCE", "C8B_TAIL_TOLERANCE", "DEVIATIONS",
           "DEV_LEARNED", "DEV_LEARNED_REVISION", "DEV_METHODS", "DEV_START_BEFORE", "C_T1_MAX_DIM", "C_T1_NUS",
           "C_T1_TOLERANCE", "FIG5", "FIG5_MARGIN", "FIG5_PAPER", "INVARIANTS", "MODE_GAP", "OFF_CENTRE_BEFORE",
           "OFF_CENTRE_REVISIONS", "PAPER_CONFIGS", "acquisition_budget", "configs", "declare", "decomp_label",
           "dev_arms", "dev_learned_label", "fig5_bo", "key", "off_centre_family",
           "off_centre_revision", "ref_label", "variants"]


#: the quick verdicts of the comparisons decided before their margins and seed stages were declared
#: (bolib.claims.book.PROTOCOL_REVISION)
PROTOCOL_BEFORE = {
    'C-acq': 'reproduced',
    'C-seq': 'reproduced',
    'C4a': 'reproduced',
    'C5-regret': 'reproduced',
    'F-decomp': 'inconclusive',
    'F10-3-3-Add-3/4': 'inconclusive',
    'F10-3-3-Add-5/2': 'reproduced',
    'F10-3-3-RT': 'reproduced',
    'F10-3-3-best': 'reproduced',
    'F10-3-3-star': 'reproduced',
    'F24-6-4-Add-12/2': 'reproduced',
    'F24-6-4-Add-3/8': 'not reproduced',
    'F24-6-4-Add-6/4': 'inconclusive',
    'F24-6-4-RT': 'not reproduced',
    'F24-6-4-best': 'inconclusive',
    'F24-6-4-star': 'reproduced',
    'F5-face-cascade20': 'inconclusive',
    'F5-face-cascade20-default': 'reproduced',
    'F5-supernova20': 'inconclusive',
    'F5-supernova20-Add-5/4-RAND': 'inconclusive',
    'F5-supernova20-GP-UCB-RAND': 'inconclusive',
    'F5-supernova20-RAND-DiRect': 'not reproduced',
    'REF-dragonfly': 'reproduced',
}


#: the quick verdicts (experiments/quick/002_addgpucb.claims.json) of the claims whose experiments moved the
#: optimum off the box centre (:data:`OFF_CENTRE_REVISIONS`), before the move
OFF_CENTRE_BEFORE = {
    'C-seq': 'reproduced',
    'F-decomp': 'inconclusive',
    'F10-3-3-Add-3/4': 'inconclusive',
    'F10-3-3-Add-5/2': 'reproduced',
    'F10-3-3-RT': 'reproduced',
    'F10-3-3-best': 'reproduced',
    'F10-3-3-star': 'reproduced',
    'F24-6-4-Add-12/2': 'reproduced',
    'F24-6-4-Add-3/8': 'not reproduced',
    'F24-6-4-Add-6/4': 'inconclusive',
    'F24-6-4-RT': 'not reproduced',
    'F24-6-4-best': 'inconclusive',
    'F24-6-4-star': 'reproduced',
    'F5-face-cascade20': 'not reproduced',
    'F5-face-cascade20-default': 'reproduced',
    'F5-face-cascade20-default-RAND': 'reproduced',
    'F5-supernova20': 'not reproduced',
    'F5-supernova20-Add-5/4-RAND': 'inconclusive',
    'F5-supernova20-GP-UCB-RAND': 'inconclusive',
    'F5-supernova20-RAND-DiRect': 'not reproduced',
    'REF-dragonfly': 'reproduced',
}
