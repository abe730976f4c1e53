"""Paper 004's non-stationary tuning stand-in: deterministic, related tasks on growing training sets."""
import numpy as np
import pytest

from bolib.benchmarks.nonstationary import FRACTIONS, hyperparameters, nonstationary_lr, validation_scores


def test_hyperparameter_ranges():
    assert hyperparameters([0, 0, 0]) == (20, pytest.approx(1e-6), pytest.approx(0.01))
    assert hyperparameters([1, 1, 1]) == (60, pytest.approx(1e-2), pytest.approx(0.1))


def test_objective_is_deterministic_and_tasks_differ():
    U = np.random.default_rng(0).random((5, 3))
    problems = [nonstationary_lr(3, fraction=f) for f in FRACTIONS]
    values = np.array([p(U) for p in problems])
    np.testing.assert_array_equal(values, np.array([p(U) for p in problems]))  # same numbers again
    assert np.all(values < 0) and np.all(np.isnan([p.optimum for p in problems]))
    assert len({tuple(v.round(12)) for v in values}) == len(FRACTIONS)  # the tasks are different functions
    assert np.mean(values[-1]) > np.mean(values[0])  # more training data, lower validation loss on average


def test_log_loss_and_accuracy_are_sensible():
    loss, accuracy = validation_scores([0.5, 0.2, 0.5], 1.0)
    assert 0 < loss < 0.3 and accuracy > 0.9


def test_tasks_reach_problem_meta_and_bad_fraction_fails():
    tasks = [{"X": [[0.1, 0.2, 0.3]], "y": [-0.2]}]
    assert nonstationary_lr(3, fraction=0.4, tasks=tasks).meta["tasks"] == tasks
    with pytest.raises(ValueError, match="fraction"):
        nonstationary_lr(3, fraction=0.5)
