"""dragonfly's additive GP-UCB (paper 002's external reference) through bolib's ask/tell loop."""
import numpy as np
import pytest

from bolib.algorithms.dragonfly_add_ucb import PYTHON_VARIABLE, DragonflyAddUCB
from bolib.loop import Trace, bo_job


def run(seed, budget=12):
    result = bo_job("add-3modal", "dragonfly-add-ucb", seed, budget, dim=4, n_init=5,
                    benchmark_options={"group_dim": 2, "perm_seed": seed}, settings=DragonflyAddUCB.cheap_settings)
    return Trace.from_dict(result), result


def test_runs_in_the_unit_cube_after_the_shared_design_and_is_deterministic():
    trace, result = run(0)
    design, _ = run(0, budget=5)
    assert np.array_equal(trace.X[:5], design.X)  # the shared initial design comes first
    assert np.all((trace.X >= 0) & (trace.X <= 1))
    assert len(np.unique(trace.X.round(9), axis=0)) == len(trace.X)  # it proposes new points
    print("dragonfly", result["info"], "S_T", trace.simple_regret[-1])
    assert result["info"]["dragonfly_version"] == "0.1.7"  # the pinned dragonfly answered
    again, _ = run(0)
    assert np.array_equal(trace.y, again.y)  # dragonfly's global generators are seeded per run
    other, _ = run(1)
    assert not np.array_equal(trace.X[5:], other.X[5:])


def test_a_missing_interpreter_says_how_to_create_it(monkeypatch, tmp_path):
    monkeypatch.setenv(PYTHON_VARIABLE, str(tmp_path / "no-python"))
    opt = DragonflyAddUCB(2, 0, n_init=2)
    opt.tell(np.array([[0.1, 0.2], [0.7, 0.4]]), np.array([0.0, 1.0]))
    with pytest.raises(FileNotFoundError, match="make dragonfly-env"):
        opt.ask()


def test_the_server_is_reaped_when_the_run_is_dropped():
    """A finished run leaves no defunct process: the finaliser kills the server and waits for it."""
    import gc

    opt = DragonflyAddUCB(2, 0, n_init=2, **DragonflyAddUCB.cheap_settings)
    opt.tell(np.array([[0.1, 0.2], [0.7, 0.4]]), np.array([0.0, 1.0]))
    opt.ask()
    server = opt._server
    assert server.poll() is None  # running while the run lives
    del opt
    gc.collect()
    assert server.returncode is not None  # set only by a wait: the process was reaped, not just killed
