"""Pre-registered claims of paper 003 (Oliveira, Tiao & Ramos, *Batch Bayesian Optimisation via
Density-ratio Estimation with Guarantees*, NeurIPS 2022, arXiv:2209.10715), declared for
``notebooks/003_bore.ipynb``.

:func:`declare` declares every decided and not-run claim in a notebook's :class:`~bolib.claims.ClaimBook`
before any experiment runs; :func:`invariants` gives the statements of the identities and bounds that
the notebook counts where it computes them (``claims.invariant(id, holds=..., **invariants(S)[id])``).
Each claim says whose it is: ``origin="paper"`` (a statement the paper makes, with its location and
whether it rests on the paper's experiments or its theory) or ``origin="check"`` (ours). Changes
made after results existed are listed in each claim's ``revisions``.

Section numbers follow the paper's arXiv text (Sec. 3 analysis, Sec. 4 BORE++, Sec. 5 batch BORE,
Sec. 6 related work, Sec. 7 experiments). Margins of comparisons come from the problems' noise,
scale or resolution, never from results. Not imported by any job module (its edits change no cache key).
"""
from __future__ import annotations

from bolib.benchmarks import fcnet_tables
from bolib.papers import bore as pb

#: the date of the first runs of the notebook (every earlier re-specification happened on it)
FIRST_RUNS = "2026-11-22"
#: the date margins and group-sequential stages were added to every comparison (issue 23)
MARGINS_ADDED = "2026-11-25"
#: the date the rate claims took their cut-offs from the bounds' own growth curves and discriminating
#: contrasts, and batch BORE's SVGD moved to the search space (issue 29)
BOUNDS_CUTOFF = "2026-11-27"
#: the date of the independent audit's fixes (issue 29)
AUDITED = "2026-11-27"
#: the date of the second independent audit's fixes (issue 29)
AUDITED_AGAIN = "2026-12-02"

#: Figure 1 stand-in panels: the problems the paper names in App. D.2 (the others are our guesses)
FIG1_NAMED = ("hartmann3", "six-hump-camel")
#: global minimum value of each Figure 1 function (Styblinski-Tang in 5-D: 5 x -39.16617)
FIG1_OPTIMUM = {"branin": 0.397887, "goldstein-price": 3.0, "six-hump-camel": -1.0316, "hartmann3": -3.86278,
                "hartmann6": -3.32237, "styblinski-tang": -195.83085}
#: Rosenbrock on [-5, 10]^d, x uniform: E f = (d - 1) (100 E(x2 - x1^2)^2 + E(1 - x1)^2) = 127,521 (d - 1)
ROSENBROCK_UNIFORM_MEAN = 127_521.0

RACE = ("analytic stadium track and point-mass speed profile (bolib.benchmarks.racing) for the UC Berkeley track "
        "and the F1/10 car model")
_FCNET = (f"mini-FCNet table (bolib.benchmarks.fcnet_tables: {len(fcnet_tables.cells())} cells of a small two-layer "
          f"regression network, {fcnet_tables.REPEATS} trainings each, on scikit-learn's {{data}}) for FCNet's "
          "{panel} table")
NAS = ("random-forest surrogate of a digits MLP's validation error (bolib.benchmarks.digits_nas, 6 inputs) "
       "for the MNIST ParamNet surrogate")
#: Figure 2 stand-ins: problem -> (the paper's panel, what stands in for it)
FIG2 = {"fcnet-diabetes": ("Parkinson's", _FCNET.format(data="diabetes data", panel="Parkinson's telemonitoring")),
        "fcnet-friedman": ("CT slice", _FCNET.format(data="Friedman #1 data", panel="CT slice")),
        "digits-nas": ("MNIST", NAS)}
#: practical difference of each Figure 2 metric, with its reason (the problem's scale or resolution)
FIG2_MARGIN = {
    "racing-line": (0.01, "lap times are timed to a hundredth of a second"),
    "fcnet-diabetes": (0.01, "validation MSE of standardised targets: 1% of the target variance"),
    "fcnet-friedman": (0.01, "validation MSE of standardised targets: 1% of the target variance"),
    "digits-nas": (0.005, "validation error on the 540 validation images of the digits split (resolution 1/540): "
                          "about three images"),
}
#: theory testbed (App. D.1): the regret is in units of f, whose observation noise has sd 0.1
THEORY_MARGIN = (0.01, "a tenth of the testbed's observation-noise standard deviation (0.1, App. D.1)")


#: paper statements the independent audit found neither decided nor listed (issue 29), listed as not run:
#: (id, statement, paper value, why not run, evidence, location, cell)
LEFT_OUT = (
    ("F1-most", "Batch BORE outperforms the GP baselines on most of the global optimisation benchmarks and keeps a "
     "steady performance throughout its runs", "better on most, steady", "'most' and 'steady' have no count or "
     "measure in the paper; the per-panel verdicts F1-* answer the comparison on each problem, and the figure shows "
     "each run's course", "experiment", "Sec. 7, global optimisation benchmarks", "§6.1"),
    ("S5-diversity", "SVGD's repulsion diversifies the batch and captures the possible multimodality of p_hat",
     "diverse, multimodal batches", "a qualitative property with no measure in the paper; Figure 1's ablation "
     "compares the coordinates SVGD's kernel and repulsion act in by the regret they reach", "theory", "Sec. 5.2",
     "§6.1"),
    ("S4-ucb", "Theoretically BORE++ performs no worse than GP-UCB, since they share similar regret bounds",
     "similar bounds", "a comparison of the orders of two bounds (both O(sqrt(T)(b sqrt(xi_T) + xi_T)) for the same "
     "kernel), which §3 derives; the runs are compared in T3-cmp", "theory", "Sec. 4.2", "§3"),
    ("S3-stuck-mechanism", "Once BORE observes a positive label at x_t other than x*, x_t becomes the classifier's "
     "maximiser, and sum_t sigma_{t-1}(x*) grows linearly", "stuck at a positive point; linear sum", "the mechanism "
     "behind T2-stuck: once BORE queries one single point, sigma_{t-1}(x*) stays constant and the sum grows linearly "
     "by construction, so a separate verdict would repeat T2-stuck", "theory", "Sec. 3.2", "§5.4"),
    ("S53-dirac", "With tau = f(x*) and small noise the batch distribution tends to a Dirac at the optimum, and batch "
     "BORE++'s regret after T rounds is lower by a factor xi_T / xi_MT than sequential BORE++'s after MT "
     "observations", "Dirac limit; factor xi_T / xi_MT", "an argument from the bounds under conditions (tau = f(x*), "
     "small noise) the D.1 testbed does not have; T4-equal (ours) compares the runs at equal observations on the "
     "testbed", "theory", "Sec. 5.3, the remark after Theorem 4", "§5.6"),
    ("E-why", "The advantage of batch BORE++ deteriorates with the dimension because the posterior variances lose "
     "their value as d grows", "explanation", "an explanation, not a measurable statement; E-d3, E-gain-d4 and the "
     "trend claim test what it explains", "experiment", "App. E", "§6.2"),
)


def _margin_added(verdict: str, what: str) -> dict:
    """The revision of a comparison decided before margins and stages existed."""
    return {"date": MARGINS_ADDED, "changed": f"margin and group-sequential stages added ({what})",
            "why": "issue 23: every comparison declares a practical margin, and seeds come in stages",
            "verdict_before": verdict}


#: quick verdicts before the comparisons below named a contrast (:func:`_contrast_revision`)
CONTRAST_BEFORE = {"T3-cmp": "not reproduced", "T4-batch": "not reproduced", "F2-pp-fcnet-diabetes": "not reproduced",
                   "F2-mlp-fcnet-diabetes": "not reproduced", "F2-only-mlp-fcnet-diabetes": "reproduced",
                   "F2-only-pp-fcnet-diabetes": "reproduced", "F2-pp-fcnet-friedman": "inconclusive",
                   "F2-mlp-fcnet-friedman": "inconclusive", "F2-only-mlp-fcnet-friedman": "inconclusive",
                   "F2-only-pp-fcnet-friedman": "inconclusive", "F2-pp-digits-nas": "inconclusive",
                   "F2-ei-digits-nas": "inconclusive", "F2-pp-similar-digits-nas": "not reproduced",
                   "T4-equal": "not reproduced", "R-gp": "reproduced", "R-pp": "inconclusive",
                   "F2-pp-similar-racing-line": "inconclusive"}
#: quick verdicts before the F2-pls-random claims took the table's best cell as their ceiling
CEILING_BEFORE = {"F2-pls-random-fcnet-diabetes": "reproduced", "F2-pls-random-fcnet-friedman": "inconclusive",
                  "F2-pls-random-digits-nas": "inconclusive"}
#: quick verdicts before the SVGD ablation's claims took random search as their contrast
F1_ABLATION_BEFORE = {"F1-target-hartmann3": "inconclusive", "F1-space-hartmann3": "inconclusive",
                      "F1-target-six-hump-camel": "not reproduced", "F1-space-six-hump-camel": "inconclusive"}
#: why each set-up needs its contrast (the independent audit's findings, A1)
CONTRAST_WHY = {
    "theory": "uniform queries reach 0.0060 on this metric against 0.0033 (BORE++) and 0.0034 (GP-UCB), all within the "
              "margin 0.01 of each other, so any exploring rule came out equivalent",
    "batch": "with 10 exact draws per round on 100 points any sampler finds x* within a few rounds (M = 10: 0.00144, "
             "uniform M = 10: 0.00134, against the margin 0.01)",
    "fig2": "on the diabetes table the best of the 10 initial cells alone has mean regret 0.0086, below the margin 0.01 "
            "in 74% of draws, so every method came out equivalent; random search is the contrast on every Figure 2 panel",
    "race": "a verdict resting on the racing line's margin needs the methods to beat random search, which runs on the "
            "panel, by more than that margin"}


def _contrast_revision(claim: str, contrast: str, why: str, date: str = AUDITED) -> dict:
    """The revision of a comparison that names ``contrast`` (a verdict resting on the margin needs the method
    to beat it by more than the margin)."""
    audit = "the independent audit" if date == AUDITED else "the second independent audit"
    return {"date": date, "changed": f"an 'equivalent' or 'no worse' verdict stands only if the method beats "
                                     f"{contrast} by more than the margin (else: does not discriminate here)",
            "why": f"{audit}: {CONTRAST_WHY[why]}",
            "verdict_before": CONTRAST_BEFORE.get(claim, "not in a committed claims file")}


def _was(claim: str, decided: set, margin: float) -> list:
    """The margin revision of a Figure 2 claim that had a verdict before margins existed."""
    return [_margin_added("inconclusive", f"+-{margin:g}")] if claim in decided else []


def _cutoff_revision(verdict: str, contrast_before: str, contrast_now: str, extra: str = "") -> dict:
    """The revision of a rate claim whose cut-off 0.9 became the slope of its bound's growth curve."""
    return {"date": BOUNDS_CUTOFF, "changed": f"claimed range (0, 0.9] -> (0, slope of the bound's own growth curve "
            f"over the same window, bolib.papers.bore.bound_exponent]; contrast {contrast_before} -> {contrast_now}"
            + extra, "why": "issue 29: the cut-off 0.9 was fixed after a pilot, not from the theorem, and a contrast "
            "whose slope is 1 by construction cannot show that the slope test separates linear from sublinear "
            "growth; the new cut-off is computed from the bound (not chosen), declared after the quick results "
            "had been seen", "verdict_before": verdict}


def fig2_margin(problem: str) -> tuple[float, str]:
    """(margin, reason) of a Figure 2 comparison on ``problem``."""
    return FIG2_MARGIN[problem]


def declare(claims, S: dict) -> None:
    """Declare paper 003's claims in ``claims`` with the profile settings ``S``."""
    T, T_rate, M_max = S["theory_T"], S["rate_T"], max(S["batch_sizes"])
    trial = "D.1 trial (one pi*, domain and noise sequence)"
    slope = "log-log slope of the cumulative regret R_t over t in [T/4, T], per trial"
    slope_long = f"log-log slope of the cumulative regret R_t over t in [T/4, T] at T = {T_rate}, per trial"
    theory = dict(origin="paper", evidence="theory")
    m_theory, why_theory = THEORY_MARGIN

    # ---------------------------------------------------------------- Lemma 1, Theorems 1-3 (Secs. 3-4)
    claims.coverage("L1-mc", "Lemma 1's premise from samples: the frequency of 1[y <= tau] among 1,000 noisy "
                    "observations at a point matches Phi_eps(tau - f(x)) (eq. 10), five noise families (a check of "
                    "our labels and noise scales; it cannot test the lemma's logic, which L1 counts)",
                    "exact", level=0.95, margin=0.02, unit="(noise family, threshold, point), 95% Clopper-Pearson "
                    "interval", origin="check", cell="§5.1")
    claims.erratum("L1-fn", "Footnote 3 says Lemma 1 extends to noise with bounded support whenever its CDF increases "
                   "on the support. For noise on [-a, a] it needs tau in (min f - a, min f + a]: otherwise the "
                   "maximisers of p(y <= tau | x) include points that do not minimise f",
                   "the extension holds for bounded support", tolerance=1e-12, location="Sec. 3, Lemma 1, footnote 3",
                   cell="§5.1", **theory)
    claims.coverage("T1", "Theorem 1: |pi*(x) - pi_hat_t(x)| <= beta_t(delta) sigma_t(x) for every t <= T and every "
                    "domain point, with probability >= 1 - delta (delta = 0.1; queries chosen by BORE++)", ">= 0.9",
                    level=0.9, margin=0.05, unit=trial, location="Sec. 3.1, Theorem 1", figure="band_ratio",
                    cell="§5.3", **theory)
    claims.rate("T1-ratio", "Theorem 1's band needs its beta_t: the mean over trials of the largest error-to-band ratio "
                "max_{t, x} |pi* - pi_hat_t| / (beta_t sigma_t) lies in [0, 1], that of the one-sigma band (beta = 1) "
                "does not (the rate rule's 'exponent' is this ratio)", "<= 1", claimed=(0.0, 1.0),
                estimator="largest |pi* - pi_hat_t| / (beta_t sigma_t) over t <= T and the domain",
                contrast="beta = 1", quantity="ratio", origin="check", figure="band_ratio", cell="§5.3")
    claims.coverage("T2-stuck", "BORE with the optimal PLS classifier gets stuck: it queries one single point over "
                    "the second half of the run in most trials (the paper's BORE stays at its initial point; ours, "
                    "with random tie-breaking, may first move while every label is 0)",
                    "BORE stays where it started", level=0.5, margin=0.0,
                    unit=trial + ": stuck if it queries one single domain point over t in [T/2, T]",
                    origin="paper", evidence="experiment", location="Sec. 7, the theory-assessment figure",
                    figure="theory_regret", cell="§5.4",
                    revisions=[{"date": FIRST_RUNS, "changed": "decided by 'one single point over [T/2, T]' instead "
                                "of the log-log slope of R_t in [0.9, 1.1]",
                                "why": "a slope cannot detect a run that stops moving (R_t = c + r t)",
                                "verdict_before": "inconclusive (BORE's slope 0.90)"},
                               {"date": FIRST_RUNS, "changed": "the share of stuck trials decided by the binomial "
                                "coverage rule instead of the bootstrap rate rule",
                                "why": "the rate rule reported the share as an 'exponent'",
                                "verdict_before": "reproduced (share 0.98)"}])
    cut3 = pb.bound_exponent("theorem3", T_rate)
    stuck_contrast = "BORE (PLS), which gets stuck (Theorem 2): linear regret R_t = c + r t"
    claims.rate("T3-rate", "Theorem 3: BORE++'s cumulative regret is sublinear (SE kernel: R_T = O(sqrt(T) "
                "(b sqrt(xi_T) + xi_T)), xi_T polylogarithmic), with beta_t of Theorem 1 taken literally: its slope "
                f"is at most that of the bound's own growth curve sqrt(T) (b log T + log^2 T) over the window, "
                f"{cut3:.3f} at T = {T_rate}", "sublinear", claimed=(0.0, round(cut3, 4)), estimator=slope_long,
                contrast=stuck_contrast, location="Sec. 4.2, Theorem 3", figure="theory_long", cell="§5.4", **theory,
                revisions=[{"date": FIRST_RUNS, "changed": "contrast BORE (PLS) replaced by uniform queries",
                            "why": "a stuck run's R_t = c + r t has a slope below 1, so it is no contrast for a slope",
                            "verdict_before": "not recorded"},
                           {"date": FIRST_RUNS, "changed": f"decided on separate runs of T = {T_rate} instead of "
                            f"T = {T}; T = 2000 chosen after a 3-trial pilot (BORE++ slopes 0.80-0.89 at 2000)",
                            "why": "at T = 200 BORE++ with Theorem 1's beta_t queried much as uniform queries do",
                            "verdict_before": "not reproduced (mean slope 0.941 at T = 200)"},
                           _cutoff_revision("reproduced (mean slope 0.8252, 95% CI 0.8123 to 0.8383, at T = 2000)",
                                            "uniform queries", "BORE (PLS) at the same horizon")])
    claims.comparison("T3-cmp", "Theory assessment: BORE++ progresses towards the optimum and outperforms GP-UCB, "
                      "while BORE stays where it started (the paper's figure plots 'regret' without saying which)",
                      "BORE++ below both", method="BORE++", competitors=["BORE (PLS)", "GP-UCB"], direction="lower",
                      metric="simple regret min_{s <= t} r_s averaged over t = 1..T", budget=f"T = {T} steps",
                      margin=m_theory, margin_reason=why_theory, stages=S["theory_trials"],
                      origin="paper", evidence="experiment", location="Sec. 7, the theory-assessment figure",
                      figure="theory_regret", cell="§5.4",
                      revisions=[{"date": FIRST_RUNS, "changed": "metric: cumulative regret R_T -> simple regret at T",
                                  "why": "the paper compares progress towards the optimum",
                                  "verdict_before": "not reproduced (BORE++ higher: +14.2 against BORE (PLS), +4.7 "
                                                    "against GP-UCB)"},
                                 {"date": FIRST_RUNS, "changed": "metric: simple regret at T -> simple regret averaged "
                                  "over the run", "why": "the final simple regret saturates at 0 on the 100-point "
                                  "domain (43 and 45 of 50 trials of BORE++ and GP-UCB)",
                                  "verdict_before": "inconclusive"},
                                 _margin_added("inconclusive", f"+-{m_theory:g}"),
                                 _contrast_revision("T3-cmp", "uniform", "theory")], contrast="uniform")
    claims.comparison("T3-cum", "Theorem 3's own quantity on the theory testbed: BORE++ with Theorem 1's beta_t has a "
                      "lower cumulative regret R_T than BORE (PLS) and GP-UCB (ours: the paper's figure plots 'regret' "
                      "without saying which; T3-cmp decides progress towards the optimum)", "BORE++ below both",
                      method="BORE++", competitors=["BORE (PLS)", "GP-UCB"], direction="lower",
                      metric="cumulative regret R_T", budget=f"T = {T} steps", margin=round(T * m_theory, 6),
                      margin_reason=f"T = {T} steps of T3-cmp's margin {m_theory:g} (a tenth of the noise sd per step)",
                      stages=S["theory_trials"], origin="check", figure="theory_regret", cell="§5.4",
                      contrast="uniform",
                      revisions=[{"date": AUDITED_AGAIN, "changed": "declared (T3-cmp's first metric, R_T, was "
                                  "replaced before; the result on it was a revision note only)",
                                  "why": "the second independent audit: the unfavourable result on the quantity Theorem "
                                         "3 bounds should be a counted verdict; declared after the audit read the "
                                         "committed quick runs (mean R_T: BORE++ 29.95, GP-UCB 25.25, BORE (PLS) "
                                         "15.74, uniform 33.81)", "verdict_before": "not declared"}])
    claims.erratum("E-xi", "Sec. 4.2 reads Theorem 3 as making BORE++'s regret vanish whenever xi_T grows sublinearly. "
                   "Eq. 22's order sqrt(T) (b sqrt(xi_T) + xi_T) is sublinear only where xi_T = o(sqrt T): xi_T = T^0.6 "
                   "gives a log-log slope of about 1.1 (the average regret grows), xi_T = T^0.4 one of about 0.9",
                   "any sublinear xi_T", tolerance=0.01, location="Sec. 4.2, after Theorem 3", cell="§5.4", **theory,
                   revisions=[{"date": AUDITED_AGAIN, "changed": "declared (the derivation in §3 showed it; §8 listed "
                               "it as a note only)", "why": "the second independent audit", "verdict_before": "not declared"}])

    # ---------------------------------------------------------------- App. B, App. C
    cut_b = pb.bound_exponent("bayes", T)
    bayes_curve = (f"the slope of the Bayesian bound's growth curve sqrt(T xi_T log(|X| T^2 / sqrt(2 pi))) over the "
                   f"window, {cut_b:.3f} at T = {T}")
    claims.rate("B-ts", "BORE whose classifier is a posterior draw (Thompson sampling, App. B's view of BORE) does not "
                f"get stuck on the fixed D.1 function: sublinear cumulative regret, its slope at most {bayes_curve} (App. "
                "B bounds the Bayesian regret, f drawn from the prior, which B-bayes checks; this frequentist run is "
                "ours)", "sublinear (Bayesian regret bound)",
                claimed=(0.0, round(cut_b, 4)), estimator=slope, contrast=stuck_contrast, origin="check",
                figure="theory_regret", cell="§5.4",
                revisions=[{"date": FIRST_RUNS, "changed": "contrast BORE (PLS) replaced by uniform queries",
                            "why": "a stuck run's R_t = c + r t has a slope below 1, so it is no contrast for a slope",
                            "verdict_before": "inconclusive (BORE (PLS)'s slope 0.90 not clearly outside the range)"},
                           _cutoff_revision("reproduced (mean slope 0.5043, 95% CI 0.4334 to 0.5749)",
                                            "uniform queries", "BORE (PLS)"),
                           {"date": AUDITED, "changed": "counted as our check (was the paper's, App. B)",
                            "why": "App. B bounds the Bayesian regret of f drawn from a GP prior, a different analysis "
                                   "from this fixed-f run (independent audit, issue 29)",
                            "verdict_before": "reproduced"}])
    claims.rate("B-bayes", "Thompson sampling on f drawn from the GP prior (SE kernel, lengthscale 0.1, noise variance "
                f"0.01) has sublinear cumulative regret (Russo & Van Roy's Bayesian bound, which App. B cites): its "
                f"slope at most {bayes_curve}", "sublinear (Bayesian regret bound)", claimed=(0.0, round(cut_b, 4)),
                estimator=slope + " (one prior draw f per trial)", contrast="Thompson sampling whose posterior "
                "stops learning after the first eighth of the steps: linear regret R_t = c + r t", origin="check",
                figure="theory_regret", cell="§5.4",
                revisions=[_cutoff_revision("reproduced (mean slope 0.1545, 95% CI 0.116 to 0.1984)",
                                            "uniform queries (slope 1 in expectation by construction)",
                                            "GP-TS that stops learning after T/8")])
    claims.rate("C-moving", "App. C: with the empirical quantile tau_t in place of a fixed tau, BORE++'s guarantees "
                f"hold asymptotically: sublinear cumulative regret, its slope at most Theorem 3's curve's, {cut3:.3f} "
                f"at T = {T_rate}", "asymptotically valid", claimed=(0.0, round(cut3, 4)), estimator=slope_long,
                contrast=stuck_contrast, location="App. C", figure="theory_long", cell="§5.4", **theory,
                revisions=[{"date": FIRST_RUNS, "changed": "contrast BORE (PLS) replaced by uniform queries",
                            "why": "a stuck run's R_t = c + r t has a slope below 1, so it is no contrast for a slope",
                            "verdict_before": "not recorded"},
                           {"date": FIRST_RUNS, "changed": f"decided on separate runs of T = {T_rate} instead of T = {T} "
                            "(not run at quick in the second round, before the relabelling was made incremental)",
                            "why": "at T = 200 BORE++ with Theorem 1's beta_t queried much as uniform queries do",
                            "verdict_before": "not reproduced (mean slope 0.946 at T = 200)"},
                           _cutoff_revision("reproduced (mean slope 0.8739, 95% CI 0.8685 to 0.8795, at T = 2000)",
                                            "uniform queries", "BORE (PLS) at the same horizon")])
    claims.not_run("C-tau", "App. C: tau_t converges to a fixed value as the observations accumulate", "tau_t converges",
                   "the paper gives no rate and no horizon: a finite run shows how far tau_t has settled by T, not "
                   "whether it converges, and while BORE++ still concentrates its queries tau_t keeps falling, so a "
                   "verdict at any horizon we can run would measure the horizon; §5.4 prints the changes over the last "
                   "two doublings of the run as a description", location="App. C", cell="§5.4", **theory,
                   revisions=[{"date": FIRST_RUNS, "changed": "decided as |tau_T - tau_(3T/4)| < |tau_(T/2) - tau_(T/4)| "
                               "-> not run", "why": "windows of equal length in t accept any concave drift, -c log t "
                               "included, which never settles",
                               "verdict_before": "reproduced (diff -0.0056, p = 1e-4)"}])
    claims.erratum("A2-lambda", "Lemma A.2 as stated, sum_i sigma_{i-1}(x_i) <= sqrt(4 (N + 2) xi_N), needs a "
                   "condition on lambda (lambda <= 1 / (e^{1/2} - 1) ~ 1.54 suffices on the proof's route; it fails at "
                   "lambda = 100); sqrt(2 N I_N / log(1 + 1/lambda)) holds for every lambda",
                   "no condition on lambda", tolerance=1e-9, location="App. A.1, Lemma A.2", cell="§5.5", **theory)

    # ---------------------------------------------------------------- Theorem 4 (Sec. 5.3), exact sampling
    beta_B = S["batch_beta"]
    fixed_beta = (f"beta = {beta_B:g}, outside Theorem 4, whose beta_t of Theorem 1 makes p_hat_t uniform in most "
                  "rounds at these T")
    fixed_revision = {"date": FIRST_RUNS, "changed": f"runs with beta = {beta_B:g} instead of Theorem 1's beta_t; "
                      "retitled as a practical-beta check, not Theorem 4", "why": "with Theorem 1's beta_t p_hat_t was "
                      "uniform in every round", "verdict_before": "not reproduced (slope 1 at M = 1, 5 and 10)"}
    frozen = "the same rule whose classifier stops learning after the first eighth of the rounds: linear regret R_t = c + r t"
    frozen_half = ("the same rule whose classifier stops learning after the first half of the rounds (past the ~1,200 "
                   "observations in which Theorem 1's beta_t keeps p_hat_t uniform): linear regret R_t = c + r t")
    before_fixed = {1: "0.7801", 5: "0.6923", 10: "0.6816"}
    for M in S["batch_sizes"]:
        rounds = T_rate // M
        cut4 = pb.bound_exponent("theorem4-fixed", rounds, M)
        claims.rate(f"T4-rate-M{M}", f"At a practical beta, batch BORE++'s cumulative distributional regret grows "
                    f"sublinearly (M = {M}, exact sampling, {rounds} rounds = {T_rate} observations; {fixed_beta}): its "
                    f"slope at most that of Theorem 4's proof with beta fixed, sqrt(T xi_T) = sqrt(T) log T, over the "
                    f"window, {cut4:.3f}", "sublinear", claimed=(0.0, round(cut4, 4)),
                    estimator="log-log slope of sum_t r_bar_t over rounds in [T/4, T], per trial",
                    contrast=frozen, origin="check", figure="theorem4", cell="§5.6",
                    revisions=[fixed_revision,
                               _cutoff_revision(f"reproduced (mean slope {before_fixed.get(M, '?')} over "
                                                f"{S['batch_rounds']} rounds)", "uniform sampling (slope 1 by "
                                                "construction)", "the classifier that stops learning",
                                                f"; decided on runs of {T_rate} observations per trial instead of "
                                                f"{S['batch_rounds']} rounds, over which the bound's own curve has a "
                                                "slope of 0.99 to 1.08 and no growth claim can be tested"),
                               {"date": AUDITED_AGAIN, "changed": f"cut-off from the fixed-beta curve sqrt(T) log T "
                                f"({cut4:.3f}) instead of eq. 28's ({pb.bound_exponent('theorem4', rounds, M):.3f})",
                                "why": "the second independent audit: eq. 28's second term comes from beta_T's growth "
                                       "(A.23-A.24); with beta fixed, A.16-A.22 give sqrt(T xi_T)",
                                "verdict_before": {1: "reproduced (slope 0.7115)", 5: "reproduced (slope 0.6938)",
                                                   10: "inconclusive (slope 0.6901)"}.get(M, "not decided")}])
    T4_obs = S["t4_theory_obs"]
    t4_revision = {"date": FIRST_RUNS, "changed": f"decided at {T4_obs} observations per trial (paper profile only) "
                   "instead of 2000 (T3-rate's horizon)", "why": "p_hat_t was uniform in 61% of the rounds at 2000 "
                   "observations, so the slope window lay mostly in the clipped regime",
                   "verdict_before": "not reproduced (mean slopes 0.9954, 0.9957, 0.9960 at M = 1, 5, 10; uniform 1)"}
    for M in S["batch_sizes"]:
        statement = (f"Theorem 4 with its own beta_t (Theorem 1's): batch BORE++'s cumulative distributional regret "
                     f"grows sublinearly (M = {M}, exact sampling)")
        where = dict(location="Sec. 5.3, Theorem 4 and the remark after it", cell="§5.6", revisions=[t4_revision],
                     **theory)
        if S["t4_theory_decide"]:
            cut = pb.bound_exponent("theorem4", T4_obs // M, M)
            where["revisions"] = where["revisions"] + [_cutoff_revision(
                "not decided before (not run at quick)", "uniform sampling (slope 1 by construction)",
                "the classifier that stops learning after half of the rounds (after T/8 in a first version of the "
                "same day, inside the uniform regime, changed on the independent audit before any paper run)")]
            claims.rate(f"T4-rate-theory-M{M}", statement + f": its slope at most that of eq. 28's growth curve over "
                        f"the window, {cut:.3f}", "sublinear", claimed=(0.0, round(cut, 4)),
                        estimator=f"log-log slope of sum_t r_bar_t over rounds in [T/4, T] at T = {T4_obs} / M rounds, "
                                  "per trial", contrast=frozen_half, figure="theorem4_long", **where)
        else:
            claims.not_run(f"T4-rate-theory-M{M}", statement, "sublinear",
                           f"at {T4_obs} observations per trial the rate cannot be observed: with Theorem 1's beta_t, "
                           "p_hat_t is uniform for about the first 1000 observations and r_bar_t is still about 96% of "
                           "uniform sampling's at 2000; decided only at a profile with about 10^4 observations per "
                           "trial (the paper profile); §5.6 describes the runs of this profile", **where)
    n_equal = M_max * S["batch_rounds"]
    claims.comparison("T4-batch", f"Per round, batch BORE++ reaches a lower regret than sequential BORE++, and the gain "
                      f"is the classifier's (M = {M_max} against M = 1 and against uniform sampling with M = {M_max}; "
                      f"exact sampling; {fixed_beta})", "lower per round", method=f"M = {M_max}",
                      competitors=["M = 1", f"uniform, M = {M_max}"], direction="lower",
                      metric="simple regret averaged over rounds 1..T", budget=f"{S['batch_rounds']} rounds",
                      margin=m_theory, margin_reason=why_theory, stages=S["batch_trials"], origin="check",
                      figure="theorem4", cell="§5.6",
                      revisions=[fixed_revision,
                                 {"date": FIRST_RUNS, "changed": "metric: final simple regret -> simple regret averaged "
                                  f"over rounds; competitor uniform, M = {M_max} added",
                                  "why": "per round alone uniform sampling with M = 10 also beats M = 1, and the final "
                                  "simple regret ties at 0 once the optimum is found",
                                  "verdict_before": "reproduced (diff -0.0047, p = 1e-4)"},
                                 _margin_added("inconclusive", f"+-{m_theory:g}"),
                                 _contrast_revision("T4-batch", "uniform, M = 1", "batch")], contrast="uniform, M = 1")
    claims.comparison("T4-equal", f"Batch BORE++ achieves lower regret per runtime than sequential BORE++ with an "
                      f"equivalent number of observations: r_bar after {S['batch_rounds']} rounds of M = {M_max} below "
                      f"that of M = 1 after {n_equal} rounds (sequential: one exact sample of p_hat_t per round; "
                      f"exact sampling; {fixed_beta}; ours: the remark after Theorem 4 argues it from the bounds "
                      "with tau = f(x*), small noise and non-batch BORE++ maximising its bound, none of which holds "
                      "here)", "batch lower at equal observations", method=f"M = {M_max}",
                      competitors=[f"M = 1, {n_equal} rounds"], direction="lower",
                      metric="distributional regret r_bar at the last round", budget=f"{n_equal} observations",
                      margin=m_theory, margin_reason=why_theory, stages=S["batch_trials"], origin="check",
                      figure="theorem4", cell="§5.6", contrast=f"uniform, M = {M_max}",
                      revisions=[_margin_added("inconclusive", f"+-{m_theory:g}"),
                                 _contrast_revision("T4-equal", f"uniform, M = {M_max}", "batch", AUDITED_AGAIN),
                                 {"date": AUDITED, "changed": "counted as our check (was the paper's, Sec. 5.3)",
                                  "why": "the remark's conditions (tau = f(x*), small noise), its competitor (BORE++ "
                                         "maximising its bound) and its measure (regret bounds) are not this run's "
                                         "(independent audit, issue 29)", "verdict_before": "not reproduced"}])

    # ---------------------------------------------------------------- Figure 1 (Sec. 7, App. D.2)
    previous_f1 = {"branin": "not reproduced", "hartmann3": "not reproduced"}
    f1_before = {"branin": "not reproduced (quick, 8 rounds: q-EI lower by 0.36)",
                 "hartmann3": "inconclusive (quick, 8 rounds: q-EI lower by 0.11)"}
    for problem in S["fig1_problems"]:
        named = problem in FIG1_NAMED
        margin = round(0.01 * abs(FIG1_OPTIMUM[problem]), 6)
        guess = "" if named else " (a panel the paper does not name" + (
            "; Styblinski-Tang in 5-D is our guess for its sixth panel)" if problem == "styblinski-tang" else ")")
        revisions = [{"date": FIRST_RUNS, "changed": "competitor LP-EI added, as the paper declares it",
                      "why": "the first version named q-EI only because LP-EI was not implemented",
                      "verdict_before": "not reproduced (5 trials)"}] if problem in previous_f1 else []
        if problem in previous_f1:
            revisions.append(_margin_added(previous_f1[problem], f"+-{margin:g}"))
            revisions.append({"date": BOUNDS_CUTOFF, "changed": "batch BORE's SVGD runs on the search space (kernel, "
                              "bandwidth and repulsion in x, steps clipped to the cube), the paper's reading, instead of "
                              "in logit coordinates (now an ablation, F1-space-*)",
                              "why": "issue 29: run batch BORE as the paper specifies it",
                              "verdict_before": f1_before[problem]})
        claims.comparison(f"F1-{problem}", f"Figure 1: batch BORE reaches a lower simple regret than q-EI and LP-EI on "
                          f"{problem}{guess} (batches of {S['fig1_batch']})", "batch BORE better on most problems",
                          method="batch BORE", competitors=["q-EI", "LP-EI"], direction="lower", metric="simple regret",
                          budget=f"{S['fig1_rounds']} rounds of {S['fig1_batch']}", margin=margin,
                          margin_reason="1% of the magnitude of the function's global minimum value",
                          stages=S["fig1_seeds"], figure="fig1", cell="§6.1",
                          **(dict(origin="paper", evidence="experiment", location="Sec. 7, Fig. 1; App. D.2")
                             if named else dict(origin="check")), revisions=revisions)
    ablated = [p for p in S["fig1_problems"] if p in FIG1_NAMED]
    for problem in ablated:
        margin = round(0.01 * abs(FIG1_OPTIMUM[problem]), 6)
        common = dict(direction="lower", metric="simple regret", budget=f"{S['fig1_rounds']} rounds of {S['fig1_batch']}",
                      margin=margin, margin_reason="1% of the magnitude of the function's global minimum value "
                      "(Figure 1's margin)", relation="equivalent", stages=S["fig1_seeds"], origin="check",
                      figure="fig1", cell="§6.1", contrast="random search")

        def contrast_added(claim: str) -> list:
            return [{"date": AUDITED_AGAIN, "changed": "random search (batches of uniform points, run beside the "
                     "variants) as the contrast", "why": "the second independent audit: an 'equivalent' verdict needs "
                     "a set-up in which the variants beat random search",
                     "verdict_before": F1_ABLATION_BEFORE.get(claim, "not decided")}]
        claims.comparison(f"F1-target-{problem}", "Batch BORE's SVGD target makes no practical difference on "
                          f"{problem}: log pi_hat (eq. 26) and the network's logit (the original authors' code) reach "
                          "equivalent simple regrets (SVGD on the search space)", "no difference (our ablation)",
                          method="batch BORE (logit target)", competitors=["batch BORE"], **common,
                          revisions=contrast_added(f"F1-target-{problem}"))
        claims.comparison(f"F1-space-{problem}", "Where batch BORE's SVGD particles move makes no practical difference "
                          f"on {problem}: on the search space, clipped (the paper's reading) and in logit coordinates "
                          "(kernel, bandwidth and repulsion in z, ours) reach equivalent simple regrets (target log "
                          "pi_hat)", "no difference (our ablation)",
                          method="batch BORE (SVGD in logit coordinates)", competitors=["batch BORE"], **common,
                          revisions=contrast_added(f"F1-space-{problem}"))
    claims.not_run("F1-lpei-time", "LP-EI becomes computationally infeasible after about 100 iterations in some cases "
                   "and had to be aborted", "aborted after ~100 iterations", "a wall-time statement about GPyOpt's "
                   "LP-EI on the authors' hardware, with no threshold for 'infeasible'; our LP-EI runs every round at "
                   "every profile", origin="paper", evidence="experiment", location="Sec. 7, global optimisation "
                   "benchmarks", cell="§6.1")
    claims.not_run("S6-batch-cost", "SVGD selects a batch in one vectorised computation, without the inter-dependent "
                   "optimisation problems of GP batch methods", "batch selection scales", "a statement about "
                   "computation time, which this notebook does not time; `python -m bolib bench --only bore_batch` "
                   "measures one batch-BORE round against one q-EI round from n = 100 to 800 observations",
                   origin="paper", evidence="theory", location="Sec. 6", cell="§6.1")

    # ---------------------------------------------------------------- App. E
    e_dims, e_evals = S["appe_dims"], S["appe_rounds"] * S["appe_batch"]
    e_budget = f"{S['appe_rounds']} rounds of {S['appe_batch']}"
    appe = dict(origin="paper", evidence="experiment", location="App. E, Fig. E.1", figure="appe", cell="§6.2",
                stages=S["appe_seeds"])
    e_reason = (f"1% of the cumulative regret of uniform search over the same {e_evals} evaluations "
                "(E f = 127,521 (d - 1) on [-5, 10]^d)")
    d_lo, d_hi = min(e_dims), max(e_dims)
    def e_space(verdict: str) -> dict:
        return {"date": BOUNDS_CUTOFF, "changed": "SVGD on the search space, clipped to the cube (the paper's reading), "
                "instead of in logit coordinates", "why": "issue 29: batch BORE as the paper specifies it",
                "verdict_before": verdict}

    m_lo = round(0.01 * e_evals * ROSENBROCK_UNIFORM_MEAN * (d_lo - 1))
    claims.comparison(f"E-d{d_lo}", f"Batch BORE++ has a clear advantage over batch BORE in low dimension "
                      f"(Rosenbrock, d = {d_lo}, random-feature logistic classifier)", "BORE++ lower",
                      method="batch BORE++", competitors=["batch BORE"], direction="lower", metric="cumulative regret",
                      budget=e_budget, margin=m_lo, margin_reason=e_reason, **appe,
                      revisions=[_margin_added("inconclusive", f"+-{m_lo:g}"), e_space("inconclusive (quick: BORE++ higher by 4.8e5)")]
                      if d_lo == 3 else [])
    if d_hi > d_lo:
        m_hi = round(0.01 * e_evals * ROSENBROCK_UNIFORM_MEAN * (d_hi - 1))  # the margin of its first reading
        claims.comparison(f"E-d{d_hi}", f"At higher dimension the advantage of batch BORE++ deteriorates: the relative "
                          f"gain (R_BORE - R_BORE++) / R_BORE of each trial is lower at d = {d_hi} than at d = {d_lo} "
                          "(trials of the same seed paired across the two dimensions)", "BORE++ deteriorates",
                          method=f"d = {d_hi}", competitors=[f"d = {d_lo}"], direction="lower",
                          metric="relative cumulative-regret gain of batch BORE++ over batch BORE", budget=e_budget,
                          margin=0.05, margin_reason="five percentage points of batch BORE's cumulative regret", **appe,
                          revisions=[_margin_added("inconclusive", f"+-{m_hi:g}"),
                                     e_space("reproduced (quick: BORE lower by 3.9e5)"),
                                     {"date": AUDITED, "changed": f"decided on the trend, the relative gain at d = {d_hi} "
                                      f"against d = {d_lo} (as E-gain-d4), instead of the sign at d = {d_hi} (batch BORE "
                                      "lower)", "why": "App. E says the advantage deteriorates with the dimension; a "
                                      "lower batch BORE at d = 5 reads a deterioration as a reversal, and with BORE++ "
                                      "worse at every dimension it was counted as the paper's trend while the gain grew "
                                      "with d (independent audit, issue 29)",
                                      "verdict_before": "reproduced (quick: batch BORE lower by 8.3e6 at d = 5; relative "
                                      "gains -0.225, -0.206, -0.129 at d = 3, 4, 5)"}] if d_hi == 5 else [])
    if 3 in e_dims and 4 in e_dims:
        claims.comparison("E-gain-d4", "At d = 4 the gain of batch BORE++ over batch BORE becomes less obvious than at "
                          "d = 3: the relative gain (R_BORE - R_BORE++) / R_BORE of each trial is lower at d = 4 "
                          "(trials of the same seed paired across the two dimensions)", "gain less obvious at d = 4",
                          method="d = 4", competitors=["d = 3"], direction="lower",
                          metric="relative cumulative-regret gain of batch BORE++ over batch BORE", budget=e_budget,
                          margin=0.05, margin_reason="five percentage points of batch BORE's cumulative regret",
                          **appe, revisions=[_margin_added("inconclusive", "+-0.05"), e_space("inconclusive (quick: +0.011)")])

    # ---------------------------------------------------------------- Figure 2 (Sec. 7, App. D.3)
    fig2_text = dict(origin="paper", evidence="experiment", cell="§6.4")
    new_from_not_run = {"date": MARGINS_ADDED, "changed": "not run -> a per-panel comparison with a margin",
                        "why": "issue 23: 'comparable' and 'similar' are decided by a margin from the problem's "
                               "resolution (the reason for not running it was the missing margin); declared after the quick "
                               "runs of these methods on these panels had been seen, with the panel's margin shared by "
                               "every Figure 2 claim",
                        "verdict_before": "not run"}
    m_race, why_race = fig2_margin("racing-line")
    race = dict(stand_in=RACE, figure="racing", cell="§6.3", origin="paper", evidence="experiment",
                margin=m_race, margin_reason=why_race, stages=S["race_seeds"], direction="lower",
                metric="best lap time", budget=f"{S['race_budget']} evaluations")
    claims.comparison("R-gp", "On the smooth racing-line problem both BORE versions are surpassed by GP-based BO "
                      "(GP-EI stands for it; GP-UCB is drawn but not part of the claim)", "GP-BO best", method="GP-EI",
                      competitors=["BORE (MLP)", "BORE++"], location="Sec. 7, Fig. 2c", **race, contrast="random",
                      revisions=[_margin_added("reproduced", f"+-{m_race:g}"),
                                 _contrast_revision("R-gp", "random", "race", AUDITED_AGAIN)])
    claims.comparison("R-pp", "BORE++ performs significantly better than BORE with the PLS classifier (racing panel)",
                      "BORE++ better", method="BORE++", competitors=["BORE (PLS)"], location="Sec. 7, Fig. 2c", **race,
                      contrast="random", revisions=[_margin_added("inconclusive", f"+-{m_race:g}"),
                                                    _contrast_revision("R-pp", "random", "race", AUDITED_AGAIN)])
    claims.comparison("F2-pls-random-racing-line", "BORE (PLS) performs comparably to, or at times worse than, random "
                      "search (racing panel): random search is no worse than BORE (PLS)", "PLS ~ random",
                      method="random", competitors=["BORE (PLS)"], relation="no worse", location="Sec. 7, Fig. 2c",
                      **race, revisions=[new_from_not_run])
    claims.comparison("F2-pp-similar-racing-line", "BORE++ performs similarly to the original BORE (MLP) on the racing "
                      "panel", "similar", method="BORE++", competitors=["BORE (MLP)"], relation="equivalent",
                      location="Sec. 7, Fig. 2c", **race, contrast="random",
                      revisions=[new_from_not_run, _contrast_revision("F2-pp-similar-racing-line", "random", "race",
                                                                      AUDITED_AGAIN)])
    old = {"F2-pp-fcnet-diabetes", "F2-mlp-fcnet-diabetes", "F2-pp-fcnet-friedman", "F2-mlp-fcnet-friedman",
           "F2-pp-digits-nas", "F2-ei-digits-nas"}
    for problem in S["fig2_problems"]:
        panel, stand_in = FIG2[problem]
        margin, reason = fig2_margin(problem)
        letter = {"fcnet-diabetes": "2a", "fcnet-friedman": "2b", "digits-nas": "2d"}[problem]
        def contrast(claim):
            return _contrast_revision(claim, "random", "fig2")

        common = dict(direction="lower", metric="simple regret", margin=margin, margin_reason=reason,
                      budget=f"{S['fig2_nas_budget' if problem == 'digits-nas' else 'fig2_fcnet_budget']} evaluations",
                      stages=S["fig2_seeds"], stand_in=stand_in, figure="fig2", location=f"Sec. 7, Fig. {letter}",
                      **fig2_text)
        claims.comparison(f"F2-pp-{problem}", f"BORE++ performs significantly better than BORE with the PLS classifier "
                          f"({panel} panel)", "BORE++ better", method="BORE++", competitors=["BORE (PLS)"], **common,
                          contrast="random", revisions=_was(f"F2-pp-{problem}", old, margin) + [contrast(f"F2-pp-{problem}")])
        claims.comparison(f"F2-pls-random-{problem}", f"BORE (PLS) performs comparably to, or at times worse than, "
                          f"random search ({panel} panel): random search is no worse than BORE (PLS)", "PLS ~ random",
                          method="random", competitors=["BORE (PLS)"], relation="no worse", **common, ceiling=0.0,
                          revisions=[new_from_not_run, {"date": AUDITED_AGAIN, "changed": "ceiling 0 (the table's best "
                                     "cell): 'no worse' stands only where random search and BORE (PLS) are not both "
                                     "within the margin of the best cell on most seeds",
                                     "why": "the second independent audit: the method is random search, so no contrast "
                                            "can test the set-up, and on the diabetes table 12 of 96 cells lie within "
                                            "the margin of the best (random search reaches one in about 96% of runs)",
                                     "verdict_before": CEILING_BEFORE.get(f"F2-pls-random-{problem}", "not decided")}])
        if problem == "digits-nas":
            claims.comparison("F2-ei-digits-nas", "Both BORE versions are surpassed by GP-EI in the final iterations of "
                              "the MNIST panel", "GP-EI below both BORE versions at the end", method="GP-EI",
                              competitors=["BORE (MLP)", "BORE++"], **common, contrast="random",
                              revisions=_was("F2-ei-digits-nas", old, margin) + [contrast("F2-ei-digits-nas")])
            claims.comparison("F2-pp-similar-digits-nas", "BORE++ performs similarly to the original BORE (MLP) on the "
                              "MNIST panel", "similar", method="BORE++", competitors=["BORE (MLP)"],
                              relation="equivalent", **common, contrast="random",
                              revisions=[new_from_not_run, contrast("F2-pp-similar-digits-nas")])
        else:
            claims.comparison(f"F2-mlp-{problem}", f"BORE++ surpasses the original BORE (MLP classifier) on the {panel} "
                              "panel", "BORE++ better", method="BORE++", competitors=["BORE (MLP)"], **common,
                              contrast="random", revisions=_was(f"F2-mlp-{problem}", old, margin) + [contrast(f"F2-mlp-{problem}")])
            late = {"date": AUDITED, "changed": "declared (left out before)", "why": "the independent audit found the "
                    "statement neither decided nor listed; declared after the quick runs of these methods had been seen",
                    "verdict_before": "not declared"}
            for label, key in (("BORE (MLP)", "mlp"), ("BORE++", "pp")):
                claims.comparison(f"F2-only-{key}-{problem}", f"The BORE versions are surpassed by GP-based BO only on the "
                                  f"racing line and at the end of MNIST: on the {panel} panel {label} is no worse than "
                                  "GP-EI and GP-UCB", "not surpassed by GP-BO", method=label,
                                  competitors=["GP-EI", "GP-UCB"], relation="no worse", **common,
                                  contrast="random", revisions=[late, contrast(f"F2-only-{key}-{problem}")])
    audit_late = {"date": AUDITED, "changed": "listed as not run (left out before)",
                  "why": "the independent audit found the statement neither decided nor listed", "verdict_before": "not declared"}
    for id, statement, paper_value, reason, evidence, location, cell in LEFT_OUT:
        claims.not_run(id, statement, paper_value, reason, origin="paper", evidence=evidence, location=location,
                       cell=cell, revisions=[audit_late])
    claims.not_run("F2-mlp-top", "The original BORE (MLP classifier) achieves top performance in most benchmarks",
                   "BORE (MLP) top on most", "the paper's own statements place another method ahead at the end of "
                   "every panel (GP-BO on the racing line, GP-EI on MNIST, BORE++ on Parkinson's and CT slice), so no "
                   "panel is left on which 'top' can be tested without contradicting the same paragraph",
                   location="Sec. 7, Fig. 2", **fig2_text)


def invariants(S: dict) -> dict:
    """Statements of the identities and bounds the notebook counts (``claims.invariant``), by id."""
    theory = dict(origin="paper", evidence="theory")
    out = {
        "L1": dict(statement="Lemma 1: argmax_x Phi_eps(tau - f(x)) = argmin_x f for noise CDFs increasing on R",
                   paper_value="for every tau", where="2 functions x 4 noise families x 20 thresholds",
                   location="Sec. 3, Lemma 1", cell="§5.1", **theory),
        "E10": dict(statement="eq. 10: pi* = Phi_eps(tau - f) for f = tau - Phi_eps^{-1}(pi*)", paper_value="identity",
                    where="every domain point of every trial, 1e-10", location="Sec. 3, eq. 10", cell="§5.2", **theory),
        "E11": dict(statement="eq. 11: r_t <= L (pi*(x*) - pi*(x_t)), L the Lipschitz constant of Phi_eps^{-1} on the "
                    "interval", paper_value="every step", where="every step of every rule and trial",
                    location="Sec. 3, eq. 11", cell="§5.2", **theory),
        "T2-bound": dict(statement="Theorem 2: eq. 17, r_t <= L beta_{t-1} (sigma_{t-1}(x_t) + sigma_{t-1}(x*)), at every "
                         "step and eq. 18 at T (realised information gain in place of xi_T) for BORE (PLS); uniform "
                         "queries are counted beside it", paper_value="w.p. >= 0.9", where="every trial",
                         location="Sec. 3.2, Theorem 2", cell="§5.4", **theory),
        "T3-bound": dict(statement="Theorem 3: eq. 21 (with the proof's indices, r_t <= 2 L beta_{t-1} "
                         "sigma_{t-1}(x_t)) at every step and eq. 22 at T for BORE++; uniform queries are counted "
                         "beside it", paper_value="w.p. >= 0.9", where="every trial", location="Sec. 4.2, Theorem 3",
                         cell="§5.4", **theory),
        "A1": dict(statement="Lemma A.1: 1/2 log|I + K_T / lambda| = 1/2 sum_t log(1 + sigma_{t-1}^2(x_t) / lambda)",
                   paper_value="identity", where="every run, relative 1e-8", location="App. A.1, Lemma A.1",
                   cell="§5.5", **theory),
        "A3": dict(statement="Lemma A.3: sigma_t^2 <= sigma_{t-1}^2 everywhere", paper_value="always",
                   where="every update of every run", location="App. A.1, Lemma A.3", cell="§5.5", **theory),
        "A2": dict(statement="Lemma A.2: sum_t sigma_{t-1}(x_t) <= sqrt(4 (T + 2) I_T) <= sqrt(4 (T + 2) xi_T) "
                   "(lambda <= 1.54)", paper_value="always", where="every run", location="App. A.1, Lemma A.2",
                   cell="§5.5", **theory),
        "T4-pinsker": dict(statement="r_bar_t <= (max f - min f) TV(p_hat_t, l) <= (max f - min f) sqrt(KL(p_hat_t || l) "
                           "/ 2) (our chain in place of A.12)", paper_value="always (Pinsker)",
                           where="every trial of every M, rule and beta", origin="check", cell="§5.6"),
    }
    for M in S["batch_sizes"]:
        out[f"T4-M{M}"] = dict(statement=f"Theorem 4 with {M} exact samples per round and beta_t of Theorem 1: eqs. 27, "
                               "28 and the KL bounds A.13-A.14, A.22 at every round; uniform sampling is counted beside "
                               "it", paper_value="w.p. >= 0.9", where="every trial", location="Sec. 5.3, Theorem 4",
                               cell="§5.6", **theory)
    return out
