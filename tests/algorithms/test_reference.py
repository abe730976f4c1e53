"""Library reference methods (bolib.algorithms.reference): BoTorch's LogEI behind the ask/tell protocol."""
import numpy as np
import pytest

from bolib.algorithms import make_optimizer
from bolib.algorithms.base import refit_due
from bolib.benchmarks import get_benchmark
from bolib.loop import run


def test_botorch_reference_runs_through_the_loop():
    trace = run(get_benchmark("branin"), make_optimizer("botorch-logei", 2, seed=0, num_restarts=2,
                                                        raw_samples=32), budget=7, seed=0, n_init=4)
    assert len(trace.f) == 7 and np.all(np.isfinite(trace.f))


def test_refit_schedule_counts_observations_then_growth():
    fits, fitted = [], 0
    for n in range(10, 2011, 10):
        if refit_due(n, fitted, 1, growth=0.25, after=500):
            fits.append(n)
            fitted = n
    assert fits[:50] == list(range(10, 510, 10))  # every round while the last fit had < 500 points
    assert fits[50:] == [630, 790, 990, 1240, 1550, 1940]  # then once 25% larger than the last fit
    fits, fitted = [], 0
    for n in range(3, 40):
        if refit_due(n, fitted, 7):
            fits.append(n)
            fitted = n
    assert fits == [3, 10, 17, 24, 31, 38]  # growth 0: every 7 observations throughout
    fits, fitted = [], 0
    for n in range(10, 2011, 10):
        if refit_due(n, fitted, 1, growth=0.25, after=500, until=1000):
            fits.append(n)
            fitted = n
    assert fits[49:] == [500, 630, 790, 990]  # none with more than 1,000 observations
    with pytest.raises(ValueError, match="growth >= 0"):
        refit_due(20, 10, 1, growth=-1.0)


def test_reference_keeps_its_hyperparameters_between_scheduled_refits(monkeypatch):
    import botorch.fit
    calls = []
    original = botorch.fit.fit_gpytorch_mll
    monkeypatch.setattr(botorch.fit, "fit_gpytorch_mll", lambda mll, **kw: calls.append(len(mll.model.train_targets))
                        or original(mll, **kw))
    opt = make_optimizer("botorch-logei", 2, seed=0, num_restarts=2, raw_samples=32, mc_samples=64,
                         refit_growth=0.5, refit_after=6, n_init=4)
    problem = get_benchmark("branin")
    used = {}  # observations at each proposal -> the lengthscales it used
    for _ in range(9):
        n = len(opt.y)
        X = opt.ask(2)
        if n >= 4:
            used[n] = opt._hyperparameters["covar_module.raw_lengthscale"].clone()
        opt.tell(X, problem(X))
    assert calls == [4, 6, 10, 16]  # every step until a fit on >= 6 points, then once the data grew by half
    assert (used[8] == used[6]).all() and (used[14] == used[12]).all() and (used[12] == used[10]).all()
    assert not (used[10] == used[8]).all()
    for method in ("botorch-logei", "lp-ei"):
        with pytest.raises(ValueError, match="growth >= 0"):
            make_optimizer(method, 2, refit_growth=-0.1)


@pytest.mark.parametrize("warm", [False, True])
def test_a_warm_started_refit_begins_at_the_last_fits_hyperparameters(monkeypatch, warm):
    import botorch.fit
    import torch
    starts, ends = [], []  # the lengthscales each fit begins and ends at
    original = botorch.fit.fit_gpytorch_mll

    def recorded(mll, **kw):
        starts.append(mll.model.covar_module.lengthscale.detach().clone())
        result = original(mll, **kw)
        ends.append(mll.model.covar_module.lengthscale.detach().clone())
        return result

    monkeypatch.setattr(botorch.fit, "fit_gpytorch_mll", recorded)
    opt = make_optimizer("botorch-logei", 2, seed=0, num_restarts=2, raw_samples=32, warm_start=warm, n_init=4)
    problem = get_benchmark("branin")
    for _ in range(8):
        X = opt.ask(1)
        opt.tell(X, problem(X))
    assert len(starts) == 4  # a fit at every step once the 4 design points are in
    for i in range(1, 4):
        assert not torch.equal(ends[i - 1], starts[0])  # each fit moved from the initial value
        if warm:
            assert torch.equal(starts[i], ends[i - 1])
        else:
            assert torch.equal(starts[i], starts[0])  # SingleTaskGP's initial value every time
