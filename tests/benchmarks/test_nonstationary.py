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
    assert (loss, accuracy) == validation_scores([0.5, 0.2, 0.5], 1.0)  # deterministic
    assert 0.3 < loss < 0.69 and accuracy > 0.7  # better than the constant predictor's log 2


GRID = np.linspace(0, 1, 11)


def batch_lr_surface(fraction):
    """Validation log-loss over an 11 x 11 grid of (batch, learning rate) at the middle penalty u_2 = 0.5."""
    return np.array([[validation_scores([a, 0.5, c], fraction)[0] for c in GRID] for a in GRID])


def test_best_points_differ_between_training_sizes_and_avoid_the_corners():
    """The stand-in is built so that the tasks share structure without sharing an argmax at a box corner (its first
    version had every task's optimum at one corner): per training size the best cell of the (batch, learning rate)
    grid is not a corner, not all sizes share it, the loss varies over the square by more than 0.05, and the best
    learning rate grows with the batch size (the ridge the settings table states)."""
    best = {}
    for f in FRACTIONS:
        A = batch_lr_surface(f)
        i, j = np.unravel_index(np.argmin(A), A.shape)
        best[f] = (i, j)
        assert (i, j) not in {(0, 0), (0, 10), (10, 0), (10, 10)}, (f, i, j)
        assert np.ptp(A) > 0.05
        # the ridge: along the smallest batch the best learning rate is inside its range, and it is larger at the
        # largest batch (a larger batch takes a larger step for about the same step per training row)
        smallest, largest = int(np.argmin(A[0])), int(np.argmin(A[-1]))
        assert 0 < smallest < largest, (f, smallest, largest)
    assert len(set(best.values())) >= 3, best


def test_batch_axis_is_smooth_and_the_penalty_hardly_matters():
    """Neighbouring integer batch sizes give nearly the same loss (full batches cut from one stream of shuffles; the
    first version, a ragged last batch per epoch, differed by up to 0.0055 between neighbours at the target), and
    the penalty's range moves the loss far less than the learning rate's."""
    for lr in (0.5, 0.9):
        values = [validation_scores([(b - 20) / 40, 0.5, lr], 1.0)[0] for b in range(20, 61)]
        assert np.abs(np.diff(values)).max() < 0.003, lr
    lr_range = np.ptp([validation_scores([0.2, 0.5, c], 1.0)[0] for c in GRID])
    l2_range = np.ptp([validation_scores([0.2, b, 0.9], 1.0)[0] for b in GRID])
    assert l2_range < 0.2 * lr_range


def test_tasks_reach_problem_meta_and_bad_fraction_fails():
    tasks = [{"X": [[0.1, 0.2, 0.3]], "y": [-0.2]}]
    assert nonstationary_lr(3, fraction=0.4, tasks=tasks).meta["tasks"] == tasks
    with pytest.raises(ValueError, match="fraction"):
        nonstationary_lr(3, fraction=0.5)
