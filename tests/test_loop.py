import numpy as np
import pytest

from bolib.algorithms import METHODS, make_optimizer
from bolib.benchmarks import get_benchmark
from bolib.loop import Trace, bo_job, run

FAST = {"n_candidates": 100, "maxiter": 10}


def fast_settings(method: str) -> dict:
    """The cheap settings each method declares for tests."""
    return METHODS[method].cheap_settings


@pytest.mark.parametrize("mode,batch", [("sequential", 1), ("sync", 3), ("async", 3)])
@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_runs_in_every_mode(method, mode, batch):
    settings = fast_settings(method)
    trace = Trace.from_dict(bo_job("branin", method, 0, 12, n_init=4, mode=mode, batch_size=batch,
                                   durations="exponential", settings=settings))
    assert len(trace.y) == 12 and trace.X.shape == (12, 2)
    assert np.all((trace.X >= 0) & (trace.X <= 1))
    np.testing.assert_allclose(trace.f, get_benchmark("branin")(trace.X))  # f: the noise-free values at X
    assert trace.f.max() <= trace.optimum + 1e-9  # no point beats the certified optimum


def test_methods_share_initial_design_and_noise():
    a = Trace.from_dict(bo_job("branin", "random", 3, 10, n_init=5, noise_std=0.1))
    b = Trace.from_dict(bo_job("branin", "gp-ei", 3, 10, n_init=5, noise_std=0.1, settings=FAST))
    np.testing.assert_array_equal(a.X[:5], b.X[:5])
    np.testing.assert_array_equal(a.y[:5] - a.f[:5], b.y[:5] - b.f[:5])
    assert not np.array_equal(a.X[5:], b.X[5:])


def test_same_seed_same_numbers():
    a = bo_job("branin", "gp-ucb", 1, 10, n_init=4, settings=FAST)
    b = bo_job("branin", "gp-ucb", 1, 10, n_init=4, settings=FAST)
    np.testing.assert_array_equal(a["X"], b["X"])


def test_async_keeps_workers_busy_and_uses_pending_points():
    problem = get_benchmark("branin")
    opt = make_optimizer("gp-ucb", 2, 0, n_init=4, **FAST)
    trace = run(problem, opt, 14, 0, n_init=4, batch_size=3, mode="async", durations="exponential")
    finished = trace.end[4:]
    assert np.all(np.diff(finished) >= 0)  # rows are in finishing order
    assert set(trace.worker[4:]) == {0, 1, 2}
    assert len(opt.pending) == 0
    assert len(np.unique(trace.X.round(12), axis=0)) == 14  # pending points are not proposed twice
    assert sorted(trace.round[4:]) == list(range(1, 11))  # one round per proposal, after the design


def test_sync_rounds_last_as_long_as_the_slowest_evaluation():
    trace = Trace.from_dict(bo_job("branin", "random", 0, 13, n_init=4, mode="sync", batch_size=3,
                                   durations="exponential"))
    for r in range(1, trace.round.max() + 1):
        rows = trace.round == r
        assert np.all(trace.start[rows] == trace.start[rows][0])


def test_bad_input_names_choices():
    with pytest.raises(ValueError, match="valid choices"):
        bo_job("branin", "nelder-mead", 0, 5)
    with pytest.raises(ValueError, match="valid choices: async, sequential, sync"):
        bo_job("branin", "random", 0, 5, mode="parallel")
    with pytest.raises(TypeError):
        make_optimizer("random", 2, 0, beta=2.0)


@pytest.mark.parametrize("mode,batch", [("sequential", 1), ("sync", 2), ("async", 2)])
def test_tell_time_is_recorded_apart_from_ask_time(mode, batch):
    """A method that refits in ``tell`` is charged for it in ``tell_wall`` (``wall`` times ``ask`` only)."""
    import time

    class SlowTell(type(make_optimizer("random", 2))):
        def tell(self, X, y):
            time.sleep(0.02 * len(y))
            super().tell(X, y)

    trace = run(get_benchmark("branin"), SlowTell(2, 0), 8, 0, n_init=2, mode=mode, batch_size=batch)
    assert np.all(trace.tell_wall >= 0.02) and np.all(trace.tell_wall < 1.0)
    assert np.all(trace.wall < 0.5 * trace.tell_wall)  # the sleeps in tell are not charged to ask
