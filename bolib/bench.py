"""Speed benchmarks: ``python -m bolib bench [--only NAME ...]``.

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
    opt = make_optimizer("gp-ucb", 10, seed=0, kernel="rbf", ard=True, beta=beta)
    opt.tell(X, y)
    t = time.perf_counter()
    x_ours = opt.ask(1)[0]
    ours = time.perf_counter() - t

    t = time.perf_counter()
    model = SingleTaskGP(torch.as_tensor(X), torch.as_tensor(y)[:, None])
    fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
    bounds = torch.stack([torch.zeros(10), torch.ones(10)]).double()
    x_ref, _ = optimize_acqf(UpperConfidenceBound(model, beta=beta), bounds, q=1,
                             num_restarts=opt.n_starts + opt.n_best_starts, raw_samples=opt.n_candidates)
    reference = time.perf_counter() - t

    with torch.no_grad():  # both points scored under our fitted GP
        mean, var = opt.gp.posterior(torch.as_tensor(np.vstack([x_ours, x_ref.numpy()])))
        a_ours, a_ref = acq.ucb(mean, var.sqrt(), beta).tolist()
    return ours, reference, f"ucb_ours={a_ours:.4g} ucb_botorch={a_ref:.4g} shortfall={(a_ref - a_ours) / abs(a_ref):+.2%}"


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

    jobs = [Job("bolib.bench:cpu_job", {"seed": s, "repeats": 2400}) for s in range(8)]
    times = {}
    with tempfile.TemporaryDirectory() as cache:
        for executor in ("local", "serial"):
            t = time.perf_counter()
            run_jobs(jobs, executor=executor, workers=2, cache_dir=f"{cache}/{executor}", progress=False)
            times[executor] = time.perf_counter() - t
    return times["local"], times["serial"], "workers=2"


def run(only=None) -> list[tuple[str, float]]:
    """Run the selected cases, print one line each, return (name, ratio) pairs."""
    from bolib.runtime import single_threaded

    names = list(only) if only else list(CASES)
    for name in names:
        check_choice("benchmark case", name, CASES)
    ratios = []
    for name in names:
        c = CASES[name]
        with single_threaded():
            ours, reference, extra = c.run()
        ratio = ours / reference
        verdict = "ok" if ratio <= c.target else "MISSED"
        print(f"bench {name} ours={ours:.4g} reference={reference:.4g} ratio={ratio:.3f} "
              f"target<={c.target} {verdict} {extra}".rstrip(), flush=True)
        ratios.append((name, ratio))
    return ratios
