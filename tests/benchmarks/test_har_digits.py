"""Paper 004's HAR stand-in: deterministic digits "subjects" whose best RBF width differs with their feature scale."""
import numpy as np
import pytest

from bolib.benchmarks.har_digits import SUBJECTS, har_digits, hyperparameters, subject, validation_accuracy


def test_hyperparameter_ranges_are_the_papers_mapped_linearly():
    assert hyperparameters([0, 0]) == (pytest.approx(0.01), pytest.approx(0.01))
    assert hyperparameters([1, 1]) == (pytest.approx(10.0), pytest.approx(1.0))
    assert hyperparameters([0.5, 0.5]) == (pytest.approx(5.005), pytest.approx(0.505))  # a log map gives (0.32, 0.1)


def test_subjects_are_deterministic_and_halved():
    first = subject(3)
    subject.cache_clear()
    again = subject(3)
    for key in ("X_train", "y_train", "X_val", "y_val"):
        np.testing.assert_array_equal(first[key], again[key])
    assert len(first["y_train"]) == len(first["y_val"]) == 60
    assert 0.3 <= first["scale"] <= 3.0 and 0.0 <= first["noise"] <= 4.0
    problem = har_digits(2, subject=3)
    U = np.random.default_rng(0).random((4, 2))
    np.testing.assert_array_equal(problem(U), har_digits(2, subject=3)(U))
    with pytest.raises(ValueError, match="subject"):
        subject(SUBJECTS)


def test_a_fixed_cell_and_the_task_differences_the_stand_in_is_built_for():
    """Subject 27 (feature scale 0.33) needs a much larger gamma than subject 0 (scale 2.8): at C = 5,
    gamma = 0.01 suits subject 0 and gamma = 0.8 suits subject 27, and each is a poor choice for the other,
    so the tasks are dissimilar; the accuracies of the fixed cells are pinned."""
    assert subject(0)["scale"] > 2.5 and subject(27)["scale"] < 0.4
    small_gamma, large_gamma = [0.5, 0.0], [0.5, 0.8]
    assert validation_accuracy(small_gamma, 0) == pytest.approx(0.6666666667)
    assert validation_accuracy(large_gamma, 27) == pytest.approx(0.85)
    assert validation_accuracy(large_gamma, 0) < 0.2 and validation_accuracy(small_gamma, 27) < 0.5


def test_tasks_reach_problem_meta():
    tasks = [{"X": [[0.1, 0.2]], "y": [0.5]}]
    problem = har_digits(2, subject=1, tasks=tasks)
    assert problem.meta["tasks"] == tasks and np.isnan(problem.optimum) and problem.dim == 2


def test_lowest_accuracy_covers_little_of_the_grid_for_the_targets():
    """On a 10 x 10 grid of cell centres, the share at a subject's lowest accuracy (a plateau where BO has
    nothing to follow) is small for the target subjects 21-29 under the linear map: under a quarter on
    average and under two thirds for every target; a subject with a large feature scale (subject 0, a
    previous task) keeps a plateau over most of the grid, every cell with u_2 > 0.1."""
    g = (np.arange(10) + 0.5) / 10

    def lowest(k):
        A = np.array([[validation_accuracy(np.array([a, b]), k) for b in g] for a in g])
        return A <= A.min() + 1e-12

    targets = np.array([lowest(k).mean() for k in range(21, 30)])
    assert targets.mean() < 0.25 and targets.max() < 2 / 3
    low = lowest(0)
    assert low.mean() > 0.8 and low[:, g > 0.1].all()
