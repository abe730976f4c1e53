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
    assert loss == pytest.approx(0.4565096196, abs=1e-8)  # a fixed cell, pinned
    assert 0.3 < loss < 0.69 and accuracy > 0.7  # better than the constant predictor's log 2


def test_best_learning_rate_is_interior_and_moves_with_training_size():
    """The stand-in is built so that the tasks share structure without sharing an argmax at a box corner:
    along the learning rate (smallest batch and penalty) every training size has its best value inside the
    range, and the 40% task's best lies below the full task's. The smallest batch beats the largest, and the
    penalty range moves the loss far less than the learning rate does (the settings table states all three)."""
    grid = np.linspace(0, 1, 11)
    best = {}
    for f in FRACTIONS:
        losses = np.array([validation_scores([0, 0, a], f)[0] for a in grid])
        best[f] = int(np.argmin(losses))
        assert 0 < best[f] < len(grid) - 1, (f, losses.round(3))
    assert best[0.4] < best[1.0]
    lr_best = grid[best[1.0]]
    assert validation_scores([0, 0, lr_best], 1.0)[0] < validation_scores([1, 0, lr_best], 1.0)[0]
    lr_range = np.ptp([validation_scores([0, 0, a], 1.0)[0] for a in grid])
    l2_range = np.ptp([validation_scores([0, b, lr_best], 1.0)[0] for b in grid])
    assert l2_range < 0.2 * lr_range


def test_tasks_reach_problem_meta_and_bad_fraction_fails():
    tasks = [{"X": [[0.1, 0.2, 0.3]], "y": [-0.2]}]
    assert nonstationary_lr(3, fraction=0.4, tasks=tasks).meta["tasks"] == tasks
    with pytest.raises(ValueError, match="fraction"):
        nonstationary_lr(3, fraction=0.5)
