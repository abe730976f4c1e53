"""Speed and model-quality cases, each against a reference timed in the same run:
``python -m bolib bench [--only NAME ...]`` (the optimisation problems are :mod:`bolib.benchmarks`).

Each case times our route and a reference route in the same run on the same machine and prints

    bench NAME ours=SECONDS reference=SECONDS ratio=R target<=T [ok|MISSED] [extra facts]

Ratios, not absolute times, are the figures of merit (the machine is shared and noisy). Paper
modules add their own cases with :func:`case`.
"""
from __future__ import annotations

import copy
import dataclasses
import statistics
import tempfile
import time
from collections.abc import Callable

import numpy as np

from bolib.errors import check_choice


@dataclasses.dataclass
class Case:
    name: str
    target: float
    run: Callable[[], tuple[float, float, str]]  # -> (ours seconds, reference seconds, extra)


@dataclasses.dataclass
class Line:
    """One printed line of a case that reports more than one (ours, reference) pair, or targets
    beyond the ratio: ``checks`` maps a label to whether that target was met."""

    name: str
    ours: float
    reference: float
    extra: str = ""
    checks: dict = dataclasses.field(default_factory=dict)


CASES: dict[str, Case] = {}


def case(name: str, target: float):
    """Register a benchmark case: a function returning (ours, reference, extra text)."""
    def wrap(fn):
        CASES[name] = Case(name, target, fn)
        return fn
    return wrap


def median_time(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _data(n: int, d: int, seed: int = 0):
    from bolib.benchmarks import get_benchmark

    rng = np.random.default_rng(seed)
    problem = get_benchmark("levy", d)
    X = rng.random((n, d))
    return rng, X, problem(X)


@case("gp_posterior", target=0.2)
def gp_posterior():
    """Mean and variance on 5,000 candidates, GP on 200 points in 10-D: cached Cholesky vs BoTorch."""
    import torch

    from bolib.models import GP

    rng, X, y = _data(200, 10)
    gp = GP("rbf", ard=True).fit(X, y)
    Xc = torch.as_tensor(rng.random((5000, 10)))

    def ours():
        with torch.no_grad():
            return gp.posterior(Xc)

    def reference():
        with torch.no_grad():
            post = gp.model.posterior(Xc)
            return post.mean, post.variance

    mean, var = ours()
    ref_mean, ref_var = reference()
    scale = gp.y_std
    err = max(float((mean - (gp.y_mean + scale * ref_mean.squeeze(-1))).abs().max()),
              float((var - scale ** 2 * ref_var.squeeze(-1)).abs().max()))
    return median_time(ours), median_time(reference), f"max_abs_diff={err:.1e}"


@case("ucb_step", target=1.0)
def ucb_step():
    """One GP-UCB iteration (refit + maximise UCB) at n=200, d=10 vs the standard BoTorch loop."""
    import torch
    from botorch.acquisition import UpperConfidenceBound
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.optim import optimize_acqf
    from gpytorch.mlls import ExactMarginalLogLikelihood

    from bolib import acquisition as acq
    from bolib.algorithms import make_optimizer

    rng, X, y = _data(200, 10)
    beta = 4.0
    bounds = torch.stack([torch.zeros(10), torch.ones(10)]).double()

    def ours():
        opt = make_optimizer("gp-ucb", 10, seed=0, kernel="rbf", ard=True, beta=beta)
        opt.tell(X, y)
        t = time.perf_counter()
        x = opt.ask(1)[0]
        return time.perf_counter() - t, x, opt

    def reference():
        t = time.perf_counter()
        model = SingleTaskGP(torch.as_tensor(X), torch.as_tensor(y)[:, None])
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        x, _ = optimize_acqf(UpperConfidenceBound(model, beta=beta), bounds, q=1,
                             num_restarts=opt.n_starts + opt.n_best_starts, raw_samples=opt.n_candidates)
        return time.perf_counter() - t, x

    runs = [ours() for _ in range(3)]  # medians of 3 fresh runs each: one step is noisy on a shared machine
    _, x_ours, opt = runs[0]
    refs = [reference() for _ in range(3)]
    x_ref = refs[0][1]
    ours_time, reference_time = statistics.median(r[0] for r in runs), statistics.median(r[0] for r in refs)
    with torch.no_grad():  # both points scored under our fitted GP
        mean, var = opt.gp.posterior(torch.as_tensor(np.vstack([x_ours, x_ref.numpy()])))
        a_ours, a_ref = acq.ucb(mean, var.sqrt(), beta).tolist()
    return ours_time, reference_time, (f"ucb_ours={a_ours:.4g} ucb_botorch={a_ref:.4g} "
                                       f"shortfall={(a_ref - a_ours) / abs(a_ref):+.2%}")


@case("rff_update", target=0.1)
def rff_update():
    """One rank-1 update of a 100-feature Bayesian linear model vs refitting at n=500."""
    from bolib.models import BayesianLinearModel, RandomFeatures

    rng, X, y = _data(501, 4)
    features = RandomFeatures("rbf", 4, 50, rng, lengthscale=0.3)
    Phi = features(X)
    base = BayesianLinearModel(features.n_features, noise=0.1).fit(Phi[:500], y[:500])

    def ours():
        model = copy.deepcopy(base)
        t = time.perf_counter()
        model.update(Phi[500], y[500])
        return time.perf_counter() - t

    def reference():
        BayesianLinearModel(features.n_features, noise=0.1).fit(Phi, y)

    ours_time = statistics.median(ours() for _ in range(50))
    return ours_time, median_time(reference, 50), ""


@case("egpts_step", target=0.2)
def egpts_step():
    """One EGP-TS iteration (M = 11 kernels, 50 feature pairs, n = 200, d = 5: propose + recursive
    update of every member) vs one GP-TS iteration that refits an exact GP (the paper's baseline)."""
    from bolib.algorithms import make_optimizer

    rng, X, y = _data(201, 5)
    egp = make_optimizer("egp-ts", 5, seed=0, dictionary="rbf11", n_pairs=50, refit_every=10_000)
    egp.tell(X[:200], y[:200])
    gpts = make_optimizer("gp-ts", 5, seed=0)
    gpts.tell(X[:200], y[:200])

    def ours():
        model = copy.deepcopy(egp)
        t = time.perf_counter()
        model.ask(1)
        model.tell(X[200:], y[200:])
        return time.perf_counter() - t

    def reference():
        model = copy.deepcopy(gpts)
        t = time.perf_counter()
        model.ask(1)
        return time.perf_counter() - t

    ours_time = statistics.median(ours() for _ in range(5))
    reference_time = statistics.median(reference() for _ in range(3))
    return ours_time, reference_time, f"members={len(egp.ensemble)} features={egp.ensemble.features[0].n_features}"


#: the gp_fit datasets: (benchmark, dimension), 20 seeded designs each, n = 8..50, half with noise
GP_FIT_FUNCTIONS = [("branin", 2), ("hartmann3", 3), ("michalewicz", 5), ("hartmann6", 6),
                    ("styblinski-tang", 8), ("levy", 10)]


def gp_fit_datasets(per_function: int = 20):
    """Seeded regression datasets for ``gp_fit``: (label, X, y, exact?) on the unit cube."""
    from bolib.benchmarks import get_benchmark
    from bolib.runtime import rng as make_rng

    for name, dim in GP_FIT_FUNCTIONS:
        problem = get_benchmark(name, dim)
        for k in range(per_function):
            stream = make_rng(k, "gp-fit-bench", name)
            X = stream.random((int(stream.integers(8, 51)), dim))
            y = problem(X)
            exact = k % 2 == 0
            if not exact:
                y = y + 0.1 * y.std() * stream.standard_normal(len(y))
            yield f"{name}-{k}", X, y, exact


def noise_dominated(gp) -> bool:
    """The fit explains the data mainly as noise: noise variance >= the kernel's total output scale."""
    hyper = gp.hyperparameters
    return hyper["noise"] >= sum(hyper["outputscale"])


@case("gp_fit", target=1.5)
def gp_fit():
    """Hyperparameter fits of the default GP (Matérn-5/2, fitted noise) on 120 seeded datasets.

    For type-II ML (the default) and MAP (``hyperprior="botorch"``): the share of fits within 0.5 nats
    of the best of our fit and a 21-start reference fit (1 default + 20 random starts, other seeds;
    target >= 95%), and the share of noise-dominated fits on exact data (target 0 for MAP). Time:
    the ML fit against BoTorch's default ``SingleTaskGP`` + ``fit_gpytorch_mll`` on the same data
    (ratio <= 1.5); BoTorch's own share of noise-dominated fits on exact data is printed beside.
    """
    import torch
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from gpytorch.mlls import ExactMarginalLogLikelihood

    from bolib.models import GP

    stats = {p: {"time": 0.0, "within": [], "noise": [], "gap": []} for p in ("none", "botorch")}
    botorch_time, botorch_noise, worst = 0.0, [], {}
    for i, (label, X, y, exact) in enumerate(gp_fit_datasets()):
        for prior, s in stats.items():
            t = time.perf_counter()
            gp = GP("matern25", hyperprior=prior).fit(X, y)
            s["time"] += time.perf_counter() - t
            reference = GP("matern25", hyperprior=prior, starts=21, seed=10_000 + i).fit(X, y)
            gap = max(reference.fit_objective - gp.fit_objective, 0.0)
            s["gap"].append(gap)
            s["within"].append(gap <= 0.5)
            if gap > worst.get(prior, ("", -1.0))[1]:
                worst[prior] = (label, gap)
            if exact:
                s["noise"].append(noise_dominated(gp))
        t = time.perf_counter()
        model = SingleTaskGP(torch.as_tensor(X), torch.as_tensor(y)[:, None])
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        botorch_time += time.perf_counter() - t
        if exact:
            # standardised outputs and a kernel without output scale (unit prior variance)
            botorch_noise.append(float(model.likelihood.noise.detach()) >= 1.0)
    ml, mp = stats["none"], stats["botorch"]
    extra = (f"datasets={len(ml['within'])} within_0.5nats: ml={np.mean(ml['within']):.3f} "
             f"map={np.mean(mp['within']):.3f} (target>=0.95; worst ml {worst['none'][0]} "
             f"{worst['none'][1]:.2f} nats) noise_dominated_on_exact: ml={np.mean(ml['noise']):.3f} "
             f"map={np.mean(mp['noise']):.3f} (target 0 for map) botorch={np.mean(botorch_noise):.3f} "
             f"map_time={mp['time']:.3g}")
    checks = {"ml_within": np.mean(ml["within"]) >= 0.95, "map_within": np.mean(mp["within"]) >= 0.95,
              "map_noise": np.mean(mp["noise"]) == 0.0}
    return [Line("gp_fit", ml["time"], botorch_time, extra, checks)]


#: gp_scale_noise_fit: the data (benchmark, dimension) and sizes; paper 000's 11-RBF dictionary
SCALE_NOISE_FUNCTIONS = [("ackley5-unit", 5), ("zakharov", 5), ("dropwave", 2), ("levy", 5)]
SCALE_NOISE_SIZES = (30, 100, 200)


@case("gp_scale_noise_fit", target=0.2)
def gp_scale_noise_fit():
    """Fits of the output scale and noise with the lengthscale fixed (paper 000's 11-RBF members,
    refitted at every step by BanditBO and EXP3BO): the eigendecomposition route against the
    multi-start L-BFGS-B route (BoTorch's ``fit_gpytorch_mll``) on the same data, 4 functions x 3 sizes
    x 11 lengthscales. Targets: time ratio <= 0.2, and the route's evidence never more than 1e-4 nats
    below the reference's; the share of fits where it is more than 1 nat above is printed."""
    from bolib.algorithms.egp_ts import DICTIONARIES
    from bolib.benchmarks import get_benchmark
    from bolib.models import GP

    ours_time = reference_time = 0.0
    gaps = []
    for name, dim in SCALE_NOISE_FUNCTIONS:
        problem = get_benchmark(name, dim)
        for n in SCALE_NOISE_SIZES:
            X = np.random.default_rng(n).random((n, dim))
            y = problem(X)
            z = (y - y.mean()) / y.std()
            for kernel, _, lengthscale in DICTIONARIES["rbf11"]:
                t = time.perf_counter()
                ours = GP(kernel, lengthscale=lengthscale, fit_lengthscale=False, standardize=False).fit(X, z)
                ours_time += time.perf_counter() - t
                t = time.perf_counter()
                reference = GP(kernel, lengthscale=lengthscale, fit_lengthscale=False, standardize=False)
                reference.fit(X, z, refit=False)._maximise_likelihood_multistart(warm=False)
                reference._factorise()
                reference_time += time.perf_counter() - t
                gaps.append(ours.log_evidence - reference.log_evidence)
    gaps = np.array(gaps)
    extra = (f"fits={len(gaps)} evidence_gap: min={gaps.min():.2e} (target>=-1e-4) "
             f"above_1nat={np.mean(gaps > 1):.3f} max={gaps.max():.1f} nats")
    return [Line("gp_scale_noise_fit", ours_time, reference_time, extra, {"evidence": gaps.min() >= -1e-4})]


def _log_evidence(model) -> float:
    """The log marginal likelihood (nats) of a fitted BoTorch ``SingleTaskGP`` on its training data."""
    import torch
    from gpytorch.mlls import ExactMarginalLogLikelihood

    model.train()
    mll = ExactMarginalLogLikelihood(model.likelihood, model)
    with torch.no_grad():
        value = float(mll(model(*model.train_inputs), model.train_targets)) * len(model.train_targets)
    model.eval()
    return value


#: gp_refit_schedule: (last fit, n) at which the stale hyperparameters of paper 003's Fig. 1 GP baselines (the
#: paper profile's schedule) meet the data: the last round before a refit, and past the ceiling on refits, the
#: middle and the end of a 2,010-point run
REFIT_CHECKS = ((500, 620), (790, 980), (990, 1500), (990, 2010))


@case("gp_refit_schedule", target=0.3)
def gp_refit_schedule():
    """Paper 003's Fig. 1 GP baselines past n = 500: the model of a round between scheduled refits
    (a ``SingleTaskGP`` on all n points with the hyperparameters BoTorch fitted on the first m) against
    the every-round route (``fit_gpytorch_mll`` on all n), on the points of a batch-BORE run on Hartmann-6
    (BO data: dense near the optima), at the (m, n) of :data:`REFIT_CHECKS`. Targets: time ratio <= 0.3,
    and the stale hyperparameters' log evidence within 0.01 n nats of the refit's (1 nat per 100
    observations); the largest lengthscale ratio and both noise variances are printed."""
    import torch
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from gpytorch.mlls import ExactMarginalLogLikelihood

    from bolib.algorithms import make_optimizer
    from bolib.algorithms.base import refit_due
    from bolib.benchmarks import get_benchmark
    from bolib.loop import run as run_bo

    from bolib.pipeline import load_profile

    S = load_profile("003_bore", "paper")
    schedule = {"growth": S["gp_refit_growth"], "after": S["gp_refit_after"], "until": S["gp_refit_until"]}
    assert all(not refit_due(k, m, **schedule) for m, n in REFIT_CHECKS for k in range(m + 10, n + 1, 10))
    last = REFIT_CHECKS[-1][1]
    trace = run_bo(get_benchmark("hartmann6"), make_optimizer("batch-bore", 6, seed=0, svgd_steps=1000),
                   budget=last, seed=0, n_init=10, batch_size=10, mode="sync")

    def model_on(n, state=None):
        model = SingleTaskGP(torch.as_tensor(trace.X[:n]), torch.as_tensor(trace.y[:n])[:, None])
        if state is None:
            fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        else:
            model.load_state_dict(state, strict=False)
        model.eval()
        model.posterior(torch.as_tensor(trace.X[:1]))  # the posterior's factorisation, as a round needs it
        return model

    lines = []
    for m, n in REFIT_CHECKS:
        torch.manual_seed(0)
        state = {k: v for k, v in model_on(m).state_dict().items() if not k.startswith("outcome_transform.")}
        t = time.process_time()
        stale = model_on(n, state)
        ours = time.process_time() - t
        torch.manual_seed(0)
        t = time.process_time()
        fresh = model_on(n)
        reference = time.process_time() - t
        gap = _log_evidence(stale) - _log_evidence(fresh)
        ratio = float((stale.covar_module.lengthscale / fresh.covar_module.lengthscale).log().abs().max().exp())
        lines.append(Line(f"gp_refit_schedule[m={m},n={n}]", ours, reference,
                          f"evidence_gap={gap:.2f} nats (target>={-0.01 * n:.1f}) lengthscale_ratio_max={ratio:.2f} "
                          f"noise stale={float(stale.likelihood.noise):.1e} fresh={float(fresh.likelihood.noise):.1e}",
                          {"evidence": gap >= -0.01 * n}))
    return lines


#: qei_warm_fit: (last fit, next fit) of paper 003's Fig. 1 q-EI under the paper profile's refit schedule:
#: consecutive every-round fits, the first two past 500 and the last (at 1,000)
WARM_FIT_CHECKS = ((400, 410), (500, 630), (790, 990))


@case("qei_warm_fit", target=0.5)
def qei_warm_fit():
    """Paper 003's Fig. 1 q-EI at the paper profile: a scheduled refit started from the last fit's
    hyperparameters (``BoTorchLogEI(warm_start=True)``) against BoTorch's standard fit from
    ``SingleTaskGP``'s initial values, both ``fit_gpytorch_mll`` on the same n points, at the (last fit, n)
    of :data:`WARM_FIT_CHECKS`, on Hartmann-6 data dense near its maximiser (a third uniform, as BO data).
    Targets: time ratio <= 0.5, and the warm fit's log evidence within 0.001 n nats of the cold fit's
    (it may be higher: another local optimum); lengthscales' largest ratio printed."""
    import torch
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from gpytorch.mlls import ExactMarginalLogLikelihood

    from bolib.benchmarks import get_benchmark

    problem, d = get_benchmark("hartmann6"), 6
    n_max = WARM_FIT_CHECKS[-1][1]
    rng = np.random.default_rng(0)
    maximiser = np.array([0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573])
    X = np.where(rng.random((n_max, 1)) < 1 / 3, rng.random((n_max, d)),
                 np.clip(maximiser + 0.05 * rng.standard_normal((n_max, d)), 0.0, 1.0))
    X = torch.as_tensor(X)
    Y = torch.as_tensor(problem(X.numpy()))[:, None]

    def fit(n, state=None):
        torch.manual_seed(0)
        model = SingleTaskGP(X[:n], Y[:n])
        if state is not None:
            model.load_state_dict(state, strict=False)
        t = time.process_time()
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        seconds = time.process_time() - t
        return model, seconds, _log_evidence(model)

    lines = []
    for m, n in WARM_FIT_CHECKS:
        last, _, _ = fit(m)
        state = {k: v for k, v in last.state_dict().items() if not k.startswith("outcome_transform.")}
        warm, ours, warm_evidence = fit(n, state)
        cold, reference, cold_evidence = fit(n)
        gap = warm_evidence - cold_evidence
        ratio = float((warm.covar_module.lengthscale / cold.covar_module.lengthscale).log().abs().max().exp())
        lines.append(Line(f"qei_warm_fit[m={m},n={n}]", ours, reference,
                          f"evidence_gap={gap:.3f} nats (target>={-0.001 * n:.2f}) lengthscale_ratio_max={ratio:.3f}",
                          {"evidence": gap >= -0.001 * n}))
    return lines


#: beats_random: smooth problems, design size, budget and seeds
BEATS_RANDOM_PROBLEMS = ("branin", "hartmann3", "hartmann6")
BEATS_RANDOM_SETUP = {"n_init": 5, "budget": 30, "seeds": 5}
#: methods left out of beats_random: the baseline itself, and EXPLORE, which ignores the values
#: (argmax of the posterior SD: a space-filling design, paper 001's Fig. 1 baseline)
NOT_OPTIMISERS = ("random", "explore")
#: why a method may lose to random search in this setup (found on the first run of this case, not
#: declared in advance; each line still prints MISSED when it misses, with this reason beside it)
KNOWN_SHORTFALLS = {
    "exploit": "greedy argmax mu; with 5 exact points the ML-II optimum can be a white-noise-like "
               "lengthscale (about 0.01), and then argmax mu repeats an observed point for good",
    "gp-ucb+": "half of its evaluations are uniform random points, so at 30 evaluations it has run "
               "12-13 GP-UCB steps",
    "fb-gp-ts": "the paper's uniform prior on the lengthscale over [1e-3, 1e3] puts 99.9% of its mass "
                "on lengthscales above 1 (the whole unit cube)",
}


@case("beats_random", target=1.0)
def beats_random():
    """Every registered model-based method that needs no previous tasks against random search (5
    initial points, 30 evaluations, 5 seeds, default settings): mean final simple regret, worst
    problem first. Ratio = the largest over problems of (method's mean regret / random search's);
    it must be below 1 on every problem."""
    from bolib.algorithms import METHODS
    from bolib.algorithms.rm_bo import MetaOptimizer
    from bolib.executors import run_jobs
    from bolib.experiment import Job

    setup = BEATS_RANDOM_SETUP
    # meta-BO methods (paper 004) need previous tasks, which these problems do not have
    methods = ["random"] + sorted(m for m in METHODS if m not in NOT_OPTIMISERS
                                  and not issubclass(METHODS[m], MetaOptimizer))
    jobs = [Job("bolib.loop:bo_job", {"benchmark": p, "method": m, "seed": s, "budget": setup["budget"],
                                      "n_init": setup["n_init"]})
            for m in methods for p in BEATS_RANDOM_PROBLEMS for s in range(setup["seeds"])]
    with tempfile.TemporaryDirectory() as cache:
        results = run_jobs(jobs, executor="local", cache_dir=cache, progress=False)
    regret = {}
    for job, value in zip(jobs, results.values):
        final = value["optimum"] - np.max(value["f"])
        regret.setdefault((job.params["method"], job.params["benchmark"]), []).append(final)
    lines = []
    for m in methods[1:]:
        ratios = {p: np.mean(regret[m, p]) / np.mean(regret["random", p]) for p in BEATS_RANDOM_PROBLEMS}
        worst = max(ratios, key=ratios.get)
        detail = " ".join(f"{p}={np.mean(regret[m, p]):.3g}/{np.mean(regret['random', p]):.3g}"
                          for p in BEATS_RANDOM_PROBLEMS)
        known = f" known shortfall: {KNOWN_SHORTFALLS[m]}" if m in KNOWN_SHORTFALLS else ""
        lines.append(Line(f"beats_random[{m}]", np.mean(regret[m, worst]), np.mean(regret["random", worst]),
                          f"worst={worst} regret(method/random): {detail}{known}",
                          {"every_problem": all(r < 1 for r in ratios.values())}))
    return lines


#: fit_choice: the model-based methods whose GP fits take ``hyperprior``
FIT_CHOICE_METHODS = ("gp-ei", "gp-ucb", "gp-pi", "gp-ts", "exploit", "egp-ei", "rf-gp-ts", "egp-ts")


@case("fit_choice", target=1.0)
def fit_choice():
    """Which hyperparameter fit the ask/tell methods use by default: type-II ML (``hyperprior="none"``,
    the default) against MAP (``"botorch"``) on the beats_random setup. Ratio = geometric mean over
    methods and problems of the default's mean final regret / the alternative's; above 1 means the
    default should switch."""
    from bolib.executors import run_jobs
    from bolib.experiment import Job

    setup = BEATS_RANDOM_SETUP
    jobs = [Job("bolib.loop:bo_job", {"benchmark": p, "method": m, "seed": s, "budget": setup["budget"],
                                      "n_init": setup["n_init"], "settings": {"hyperprior": h}})
            for h in ("none", "botorch") for m in FIT_CHOICE_METHODS for p in BEATS_RANDOM_PROBLEMS
            for s in range(setup["seeds"])]
    with tempfile.TemporaryDirectory() as cache:
        results = run_jobs(jobs, executor="local", cache_dir=cache, progress=False)
    regret = {}
    for job, value in zip(jobs, results.values):
        key = (job.params["settings"]["hyperprior"], job.params["method"], job.params["benchmark"])
        regret.setdefault(key, []).append(value["optimum"] - np.max(value["f"]))
    log_mean = {h: np.mean([np.log(np.mean(regret[h, m, p]) + 1e-12) for m in FIT_CHOICE_METHODS
                            for p in BEATS_RANDOM_PROBLEMS]) for h in ("none", "botorch")}
    wins = sum(np.mean(regret["none", m, p]) <= np.mean(regret["botorch", m, p])
               for m in FIT_CHOICE_METHODS for p in BEATS_RANDOM_PROBLEMS)
    return [Line("fit_choice", float(np.exp(log_mean["none"])), float(np.exp(log_mean["botorch"])),
                 f"geometric-mean final regret ml={np.exp(log_mean['none']):.3g} map={np.exp(log_mean['botorch']):.3g}; "
                 f"ml lower or equal in {wins} of {len(FIT_CHOICE_METHODS) * len(BEATS_RANDOM_PROBLEMS)} "
                 "(method, problem) pairs")]


#: front_door: evaluations per run and seeds (every sampler gets the same seeds and noise draws)
FRONT_DOOR_SETUP = {"n_calls": 40, "seeds": 40}
#: front_door's mixed problem: a log-uniform real, a real, two integers and a category (minimum 0 at
#: lr = 10^-2.5, w = 1.3, width = 7, depth = 3, "relu")
MIXED_DIMENSIONS = [(1e-4, 1e-1, "log-uniform"), (-5.0, 5.0), (1, 32), (0, 10), ["relu", "tanh", "sigmoid"]]
MIXED_PENALTY = {"relu": 0.0, "tanh": 0.5, "sigmoid": 1.0}


def mixed_objective(x) -> float:
    """front_door's mixed-integer problem (a stand-in for a network's training settings): a log-scale
    bowl in the learning rate, a rippled bowl in w, bowls in the integers, a penalty per category."""
    lr, w, width, depth, activation = x
    return float((np.log10(lr) + 2.5) ** 2 + 0.2 * (w - 1.3) ** 2 + 0.5 * (1 - np.cos(3 * (w - 1.3)))
                 + 0.05 * (width - 7) ** 2 + 0.3 * (depth - 3) ** 2 + MIXED_PENALTY[activation])


def front_door_problem(name: str):
    """front_door's problems as a user writes them: ``(dimensions, objective(x, rng), true(x), minimum)``;
    ``objective`` draws its observation noise from ``rng``. None of them is used by the tests."""
    from bolib.benchmarks import get_benchmark

    if name == "mixed":
        return MIXED_DIMENSIONS, lambda x, rng: mixed_objective(x), mixed_objective, 0.0
    benchmark, dim, noise = {"smooth": ("styblinski-tang", 4, 0.0), "noisy": ("levy", 4, 1.0)}[name]
    problem = get_benchmark(benchmark, dim=dim)

    def true(x) -> float:
        return float(-problem.fn(np.asarray(x, dtype=float)[None])[0])

    dimensions = [(float(lo), float(hi)) for lo, hi in problem.bounds.T]
    return dimensions, lambda x, rng: true(x) + noise * rng.standard_normal(), true, -problem.optimum


#: front_door's problems: smooth (Styblinski-Tang, 4-D), noisy (Levy, 4-D, Gaussian noise of SD 1), mixed
FRONT_DOOR_PROBLEMS = ("smooth", "noisy", "mixed")
#: front_door's samplers, each at its defaults: bolib's front door, Optuna's GPSampler, skopt's gp_minimize
FRONT_DOOR_SAMPLERS = ("bolib", "optuna-gp", "skopt-gp")


def front_door_run(problem: str, sampler: str, seed: int) -> tuple[float, float]:
    """One run of ``sampler`` at its defaults on ``problem``: (true regret at the point it reports as best,
    i.e. its best observed value's point; seconds)."""
    import time
    import warnings

    dimensions, objective, true, minimum = front_door_problem(problem)
    rng = np.random.default_rng([seed, 7919])  # the noise stream, the same for every sampler
    n_calls = FRONT_DOOR_SETUP["n_calls"]

    def f(x):
        return objective(list(x), rng)

    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if sampler == "bolib":
            import bolib

            best = bolib.minimize(f, dimensions, n_calls=n_calls, random_state=seed).x
        elif sampler == "skopt-gp":
            from skopt import gp_minimize

            best = gp_minimize(f, dimensions, n_calls=n_calls, random_state=seed).x
        else:
            import optuna

            from bolib.space import Categorical, Space

            optuna.logging.set_verbosity(optuna.logging.WARNING)
            space = Space(dimensions)

            def suggest(trial, i, d):
                if isinstance(d, Categorical):
                    return trial.suggest_categorical(f"x{i}", list(d.categories))
                kind = trial.suggest_int if isinstance(d.low, int) else trial.suggest_float
                return kind(f"x{i}", d.low, d.high, log=d.prior == "log-uniform")

            study = optuna.create_study(sampler=optuna.samplers.GPSampler(seed=seed))
            study.optimize(lambda trial: f([suggest(trial, i, d) for i, d in enumerate(space.dimensions)]),
                           n_trials=n_calls)
            best = [study.best_params[f"x{i}"] for i in range(space.n_dims)]
    seconds = time.perf_counter() - t
    return true(list(best)) - minimum, seconds


@case("front_door", target=1.0)
def front_door():
    """The front door's default (``bolib.minimize`` without a method) against Optuna's GPSampler and
    scikit-optimize's ``gp_minimize``, each at its defaults, on a smooth, a noisy and a mixed-integer
    problem (:data:`FRONT_DOOR_PROBLEMS`), 40 evaluations, seeds 0-39, the same noise draws. Figure of
    merit: the true regret at the point each reports as best (its best observed point), averaged over
    seeds; one line per problem and competitor, ratio = default / competitor, at most 1 everywhere
    (at least as good as both). Printed beside: the medians, the paired mean difference (default minus
    competitor) with its 90% bootstrap interval and the one-sided signed-rank p-value of "the default is
    worse" (:func:`bolib.stats.paired_test`), and the mean seconds per run of each."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from bolib.runtime import set_single_thread_env
    from bolib.stats import paired_test

    set_single_thread_env()
    tasks = [(p, s, seed) for p in FRONT_DOOR_PROBLEMS for s in FRONT_DOOR_SAMPLERS
             for seed in range(FRONT_DOOR_SETUP["seeds"])]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        outcomes = dict(zip(tasks, pool.map(front_door_run, *zip(*tasks))))
    lines = []
    for p in FRONT_DOOR_PROBLEMS:
        regret = {s: [outcomes[p, s, seed][0] for seed in range(FRONT_DOOR_SETUP["seeds"])]
                  for s in FRONT_DOOR_SAMPLERS}
        seconds = {s: np.mean([outcomes[p, s, seed][1] for seed in range(FRONT_DOOR_SETUP["seeds"])])
                   for s in FRONT_DOOR_SAMPLERS}
        for other in FRONT_DOOR_SAMPLERS[1:]:
            test = paired_test(regret["bolib"], regret[other], alternative="greater", level=0.9)
            lines.append(Line(f"front_door[{p} vs {other}]", float(np.mean(regret["bolib"])),
                              float(np.mean(regret[other])),
                              f"median_regret={np.median(regret['bolib']):.3g}/{np.median(regret[other]):.3g} "
                              f"paired_diff={test.mean_diff:.3g} ci90=[{test.ci[0]:.3g},{test.ci[1]:.3g}] "
                              f"p_worse={test.p_value:.3g} "
                              f"seconds_per_run={seconds['bolib']:.1f}/{seconds[other]:.1f}"))
    return lines


def cpu_job(seed: int, size: int = 300, repeats: int = 60) -> float:
    """A CPU-bound job for the executor benchmark: repeated Cholesky factorisations."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((size, size))
    K = A @ A.T + size * np.eye(size)
    total = 0.0
    for _ in range(repeats):
        total += float(np.linalg.cholesky(K + rng.random() * np.eye(size))[-1, -1])
    return total


@case("local_workers", target=0.6)
def local_workers():
    """8 CPU-bound jobs on 2 local worker processes vs the serial executor (fresh caches)."""
    from bolib.executors import run_jobs
    from bolib.experiment import Job

    jobs = [Job("bolib.perf:cpu_job", {"seed": s, "repeats": 2400}) for s in range(8)]
    times = {}
    with tempfile.TemporaryDirectory() as cache:
        for executor in ("local", "serial"):
            t = time.perf_counter()
            run_jobs(jobs, executor=executor, workers=2, cache_dir=f"{cache}/{executor}", progress=False)
            times[executor] = time.perf_counter() - t
    return times["local"], times["serial"], "workers=2"


CODE_PATH_WORKLOAD = """
import bolib.pinned, time
from bolib.loop import bo_job
from bolib.runtime import single_threaded
with single_threaded():
    t = time.perf_counter()
    bo_job("ackley", "gp-ei", 0, budget=30, dim=4, n_init=8)
    bo_job("branin", "egp-ts", 0, budget=25, n_init=5)
    print(time.perf_counter() - t)
"""


@case("code_path", target=1.3)
def code_path():
    """Cost of the pinned code paths (bolib.codepath): a GP-EI and an EGP-TS run, each route in
    fresh processes (the pins act when the libraries load), medians of 3 alternating runs."""
    import os
    import subprocess
    import sys

    def timed(mode):
        from bolib.codepath import PINS

        env = {**{k: v for k, v in os.environ.items() if k not in PINS}, "BOLIB_CODE_PATH": mode}
        out = subprocess.run([sys.executable, "-c", CODE_PATH_WORKLOAD], env=env, capture_output=True,
                             text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])

    times = {"pinned": [], "native": []}
    for _ in range(3):
        for mode in times:
            times[mode].append(timed(mode))
    return statistics.median(times["pinned"]), statistics.median(times["native"]), "pinned vs native kernels"


def run(only=None, isolate: bool = False) -> list[tuple[str, float]]:
    """Run the selected cases, print one line each, return (name, ratio) pairs.

    ``isolate=True`` (the command line's default) runs every case in a fresh Python process, so a
    case's figure does not depend on which cases ran before it (imports, caches and worker pools
    of earlier cases changed the ``local_workers`` ratio from about 0.5 alone to 1.6 in a full run).
    """
    from bolib.runtime import single_threaded

    names = list(only) if only else list(CASES)
    for name in names:
        check_choice("benchmark case", name, CASES)
    ratios = []
    for name in names:
        if isolate:
            ratios += _run_isolated(name)
            continue
        c = CASES[name]
        with single_threaded():
            out = c.run()
        lines = out if isinstance(out, list) else [Line(name, *out)]
        for line in lines:
            ratio = line.ours / line.reference
            missed = [label for label, met in line.checks.items() if not met]
            verdict = "ok" if ratio <= c.target and not missed else "MISSED " + ",".join(missed or ["ratio"])
            print(f"bench {line.name} ours={line.ours:.4g} reference={line.reference:.4g} ratio={ratio:.3f} "
                  f"target<={c.target} {verdict} {line.extra}".rstrip(), flush=True)
            ratios.append((line.name, ratio))
    return ratios


def _run_isolated(name: str) -> list[tuple[str, float]]:
    """One case in a fresh interpreter; its lines are echoed and parsed back."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "bolib", "bench", "--in-process", "--only", name],
                         capture_output=True, text=True, check=False)
    lines = [line for line in out.stdout.splitlines() if line.startswith("bench ")]
    for line in lines:
        print(line, flush=True)
    if out.returncode != 0 or not lines:
        raise RuntimeError(f"bench case {name} failed in its own process:\n{out.stderr[-2000:]}")
    return [(line.split()[1], float(line.split("ratio=")[1].split()[0])) for line in lines]


@case("bore_batch", target=0.3)
def bore_batch():
    """Paper 003's scaling claim: one batch-BORE round (network fit, 100 Adam steps, then 1000 SVGD
    steps for a batch of 10) against one BoTorch q-EI round (``SingleTaskGP`` fit, then
    ``qLogExpectedImprovement`` by ``optimize_acqf`` with q = 10, 10 restarts, 512 raw samples) on the
    same data in 6-D, at n = 100, 200, 400 and 800 points (one line each, the target applies to each)."""
    import torch
    from botorch.acquisition import qLogExpectedImprovement
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.optim import optimize_acqf
    from gpytorch.mlls import ExactMarginalLogLikelihood

    from bolib.algorithms import make_optimizer

    d, q = 6, 10
    bounds = torch.stack([torch.zeros(d), torch.ones(d)]).double()
    lines = []
    for n in (100, 200, 400, 800):
        _, X, y = _data(n, d)

        def ours():
            opt = make_optimizer("batch-bore", d, seed=0, n_init=1)
            opt.tell(X, y)
            t = time.perf_counter()
            opt.ask(q)
            return time.perf_counter() - t

        def reference():
            t = time.perf_counter()
            model = SingleTaskGP(torch.as_tensor(X), torch.as_tensor(y)[:, None])
            fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
            optimize_acqf(qLogExpectedImprovement(model, best_f=float(y.max())), bounds, q=q, num_restarts=10,
                          raw_samples=512)
            return time.perf_counter() - t

        lines.append(Line(f"bore_batch[n={n}]", ours(), reference(), f"n={n} d={d} q={q}"))
    return lines


@case("qei_posterior", target=0.5)
def qei_posterior():
    """Paper 003's Fig. 1 q-EI round at large n: BoTorch's greedy ``optimize_acqf`` (q = 10, 10 restarts,
    512 raw samples, 256 Sobol samples of ``qLogExpectedImprovement``) on the posterior of
    :class:`bolib.models.cached_posterior.CachedPosteriorGP` against the same call on the ``SingleTaskGP``
    itself, at n = 1000 and 2000 points of a Branin-like BO run (dense near the three minima; the
    hyperparameters fitted on the first 500, as the paper profile's refit schedule leaves them), one line
    per n. Also required: posterior means and covariances of 16 sets of 1 + 9 points (the 9 pending) and
    the acquisition at 64 points within 1e-8 of the reference's (relative to their scale)."""
    import torch
    from botorch.acquisition import qLogExpectedImprovement
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.optim import optimize_acqf
    from botorch.sampling import SobolQMCNormalSampler
    from gpytorch.mlls import ExactMarginalLogLikelihood

    from bolib.benchmarks import get_benchmark
    from bolib.models.cached_posterior import CachedPosteriorGP

    d, q, problem = 2, 10, get_benchmark("branin", 2)
    minima = np.array([[0.1239, 0.8183], [0.5428, 0.1517], [0.9617, 0.1650]])
    bounds = torch.stack([torch.zeros(d), torch.ones(d)]).double()
    lines = []
    for n in (1000, 2000):
        rng = np.random.default_rng(n)
        near = minima[rng.integers(3, size=n)] + 0.02 * rng.random((n, 1)) * rng.standard_normal((n, d))
        X = np.clip(np.where(rng.random((n, 1)) < 0.1, rng.random((n, d)), near), 0.0, 1.0)
        X, Y = torch.as_tensor(X), torch.as_tensor(-problem(X))[:, None]
        torch.manual_seed(0)
        first = SingleTaskGP(X[:500], Y[:500])
        fit_gpytorch_mll(ExactMarginalLogLikelihood(first.likelihood, first))
        model = SingleTaskGP(X, Y)
        model.load_state_dict({k: v for k, v in first.state_dict().items() if not k.startswith("outcome_transform.")},
                              strict=False)
        model.eval()
        cached = CachedPosteriorGP(model)
        pending = torch.as_tensor(rng.random((q - 1, d)))
        Z = torch.cat([torch.as_tensor(rng.random((16, 1, d))), pending.expand(16, q - 1, d)], dim=1)
        a, b = model.posterior(Z), cached.posterior(Z)
        mean_gap = float((a.mean - b.mean).abs().max() / a.mean.abs().max())
        cov_gap = float((a.mvn.covariance_matrix - b.mvn.covariance_matrix).abs().max() / a.variance.max())
        sampler = SobolQMCNormalSampler(torch.Size([256]), seed=0)
        points = torch.as_tensor(rng.random((64, 1, d)))
        values = [qLogExpectedImprovement(m, best_f=Y.max(), sampler=sampler, X_pending=pending)(points)
                  for m in (model, cached)]
        acq_gap = float((values[0] - values[1]).abs().max() / values[0].abs().max())

        def round_on(m):
            torch.manual_seed(0)
            t = time.process_time()
            optimize_acqf(qLogExpectedImprovement(m, best_f=Y.max(), sampler=SobolQMCNormalSampler(torch.Size([256]))),
                          bounds, q=q, num_restarts=10, raw_samples=512, sequential=True)
            return time.process_time() - t

        reference = round_on(model)
        lines.append(Line(f"qei_posterior[n={n}]", round_on(cached), reference,
                          f"relative gaps: mean={mean_gap:.1e} covariance={cov_gap:.1e} acquisition={acq_gap:.1e}",
                          {"same posterior": max(mean_gap, cov_gap, acq_gap) <= 1e-8}))
    return lines


@case("add_acq", target=0.5)
def add_acq():
    """Paper 002's Sec. 4.2: maximising the additive UCB of eq. 6 group by group (DIRECT, 100 evaluations
    for each of the 32 groups of D = 64, d = 2) against one 64-dimensional DIRECT on the same acquisition
    with the same 3,200 evaluations, on a posterior from 50 points of an additive prior
    (:func:`bolib.papers.add_gp_ucb.acquisition_gaps`). Also required: the acquisition value found group by
    group is at least the joint one (both printed, with the maximum from a grid per group)."""
    from bolib.papers.add_gp_ucb import acquisition_gaps

    out = acquisition_gaps(64, 2, 50, 100, seed=0)
    per_group, joint = out["maximum"] - out["gap_per_group"], out["maximum"] - out["gap_joint"]
    return [Line("add_acq", out["time_per_group"], out["time_joint"],
                 f"D=64 d=2 evals=3200 value per-group={per_group:.4f} joint={joint:.4f} max={out['maximum']:.4f}",
                 {"value_at_least_joint": per_group >= joint})]


@case("add_step", target=0.5)
def add_step():
    """Paper 002's Fig. 3 at its largest (D = 96, 96 groups of one coordinate, tied hyperparameters), one
    Add-GP-UCB proposal at n = 400: the group acquisitions of eq. 6 (DIRECT, 47 evaluations each) sharing
    one L^{-1} (:func:`bolib.algorithms.add_gp_ucb.inverse_factor`) against each group computing its own
    (the route it replaced). Also required: the same proposal, bit for bit."""
    from bolib.algorithms.add_gp_ucb import beta_practical, direct_maximize, group_ucb, inverse_factor
    from bolib.models import GP

    dim, n, evals = 96, 400, 47
    groups = [[j] for j in range(dim)]
    rng = np.random.default_rng(0)
    X = rng.random((n, dim))
    gp = GP("rbf", groups=groups, tie="all").fit(X, np.sin(6 * X).sum(1))
    beta = beta_practical(n + 1, 1)

    def propose(shared: bool) -> np.ndarray:
        Linv = inverse_factor(gp) if shared else None
        return np.concatenate([direct_maximize(group_ucb(gp, j, beta, Linv), 1, evals) for j in range(dim)])

    times, proposals = {}, {}
    for shared in (True, False):
        t = time.process_time()
        proposals[shared] = propose(shared)
        times[shared] = time.process_time() - t
    same = bool(np.array_equal(proposals[True], proposals[False]))
    return [Line("add_step", times[True], times[False], f"D={dim} n={n} evals/group={evals} same_proposal={same}",
                 {"same_proposal": same})]


@case("add_group_scores", target=0.5)
def add_group_scores():
    """Paper 002's partialLearn (Alg. 2): scoring 100 random groupings of D = 120 coordinates into groups of
    4 by the marginal likelihood at fixed h and sigma, on n = 200 and 400 points of the 120-D Fig. 3
    function: :func:`bolib.algorithms.add_gp_ucb.grouping_log_evidences` (one set of per-coordinate kernel
    factors for all groupings) against a ``GP`` built and factorised per grouping (the route it replaced),
    one line per n. Also required: the same best grouping, and scores within 1e-3 nats (the GP stores the
    noise variance through its constraint, about 1e-7 off). The target, 0.5, is what the per-grouping
    kernel matrix allows at n = 400, where building it is bound by memory traffic (30 n x n matrices per
    grouping); a grouping drawn twice (every grouping, with groups of one) is scored once besides."""
    from bolib.algorithms.add_gp_ucb import grouping_log_evidences, random_groups
    from bolib.benchmarks import get_benchmark
    from bolib.models import GP

    dim, group_dim, h, scale, noise = 120, 4, 0.6, 0.05, 1e-3
    problem = get_benchmark("add-3modal", dim, group_dim=55, perm_seed=0)
    lines = []
    for n in (200, 400):
        rng = np.random.default_rng(n)
        X = rng.random((n, dim))
        y = problem(X)
        groupings = [random_groups(dim, group_dim, rng) for _ in range(100)]
        t = time.process_time()
        ours = grouping_log_evidences(X, y, groupings, h, scale, noise)
        ours_time = time.process_time() - t
        t = time.process_time()
        reference = np.array([GP("rbf", groups=g, tie="all", lengthscale=h, outputscale=scale * len(g), noise=noise,
                                 fit=False).fit(X, y).log_evidence for g in groupings])
        reference_time = time.process_time() - t
        gap = float(np.abs(ours - reference).max())
        lines.append(Line(f"add_group_scores[n={n}]", ours_time, reference_time,
                          f"groupings=100 D={dim} d={group_dim} max_score_gap={gap:.1e} nats "
                          f"best={int(np.argmax(ours))}/{int(np.argmax(reference))}",
                          {"same_best": int(np.argmax(ours)) == int(np.argmax(reference)), "scores": gap < 1e-3}))
    return lines


@case("gp_condition", target=0.5)
def gp_condition():
    """Conditioning a fitted GP on one more point without a refit, as every BO step between refits does
    (:meth:`bolib.models.GP.fit` with ``refit=False``): the fitted model given the new data against a model
    built afresh and loaded with the fitted hyperparameters (the route it replaced), each then factorised.
    One line each for a Matérn-5/2 ARD GP (n = 200, d = 10) and paper 002's additive GP with 96 groups of
    one coordinate and tied hyperparameters (n = 200, D = 96, Fig. 3's largest). Also required: the same
    posterior means and variances, bit for bit."""
    import copy

    from bolib.models import GP

    class Rebuilt(GP):
        def _condition(self, X, z):
            previous = self.model
            self.model = self._build(X, z)
            if previous is not None:
                self.model.load_state_dict(previous.state_dict(), strict=False)

    lines = []
    for label, d, settings in (("matern-ard", 10, {"ard": True}),
                               ("additive-96", 96, {"kernel": "rbf", "groups": [[j] for j in range(96)], "tie": "all"})):
        rng = np.random.default_rng(d)
        X = rng.random((201, d))
        y = np.sin(6 * X).sum(1) + 0.01 * rng.standard_normal(201)
        Xc = rng.random((500, d))
        timings, predictions = {}, {}
        for name, cls in (("ours", GP), ("reference", Rebuilt)):
            gp = cls(**settings).fit(X[:200], y[:200])
            copies = [copy.deepcopy(gp) for _ in range(5)]
            t = time.process_time()
            for g in copies:
                g.fit(X, y, refit=False)
            timings[name] = (time.process_time() - t) / len(copies)
            predictions[name] = copies[0].predict(Xc)
        same = all(np.array_equal(a, b) for a, b in zip(predictions["ours"], predictions["reference"]))
        lines.append(Line(f"gp_condition[{label}]", timings["ours"], timings["reference"],
                          f"n=200 d={d} same_posterior={same}", {"same_posterior": same}))
    return lines


@case("rm_step", target=1.5)
def rm_step():
    """Paper 004: one RM-GP-UCB query with M = 20 previous tasks of N = 50 observations each (their GPs
    fitted beforehand, as once per run) against one GP-UCB query on the same 20 target points in 4-D (the
    same optimiser with no previous tasks: same target GP refit, beta_t and acquisition maximiser). Then
    the same RM-GP-UCB query against one RGPE query and one MTBO query with the same tasks (Fig. 2b's
    runtime comparison: ratio below 1 means RM-GP-UCB is the cheaper one)."""
    from bolib.algorithms import make_optimizer

    d, M, N = 4, 20, 50
    rng, X, y = _data(20, d, seed=1)
    tasks = [{"X": rng.random((N, d)), "y": _data(N, d, seed=100 + i)[2] + 0.1 * i} for i in range(M)]

    def step(method, meta_tasks):
        opt = make_optimizer(method, d, seed=0, n_init=1, meta_tasks=meta_tasks)
        opt.tell(X, y)
        t = time.perf_counter()
        opt.ask(1)
        return time.perf_counter() - t

    ours = statistics.median(step("rm-gp-ucb", tasks) for _ in range(3))
    detail = f"M={M} N={N} d={d} n=20 (meta GPs fitted before the timed query)"
    return [Line("rm_step", ours, statistics.median(step("rm-gp-ucb", []) for _ in range(3)), detail),
            *(Line(f"rm_step[vs {m}]", ours, step(m, tasks), detail) for m in ("rgpe", "mtbo"))]
