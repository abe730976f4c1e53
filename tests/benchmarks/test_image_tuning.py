"""Paper 004's image-classifier tuning stand-in: deterministic tables, cells, and tasks related as designed."""
import numpy as np
import pytest

from bolib.benchmarks import image_tuning as it

LEVELS = 3  # the smoke profile's grid: 27 cells per task


def test_hyperparameter_ranges():
    low, high = it.hyperparameters([0, 0, 0]), it.hyperparameters([1, 1, 1])
    assert (low["learning_rate_init"], low["power_t"], low["alpha"]) == (pytest.approx(1e-4), 0.0, pytest.approx(1e-7))
    assert (high["learning_rate_init"], high["power_t"], high["alpha"]) == (pytest.approx(1.0), 1.0, pytest.approx(1e-1))


def test_cells_round_trip():
    centres = it.cell_centres(LEVELS)
    np.testing.assert_array_equal(it.cell_index(centres, LEVELS), np.arange(LEVELS ** 3))
    assert it.cell_index([[1.0, 1.0, 1.0]], LEVELS)[0] == LEVELS ** 3 - 1  # the upper edge belongs to the last cell


@pytest.mark.parametrize("task", it.TASKS)
def test_table_is_the_training_it_caches(task):
    values = it.table(task, LEVELS)
    k = 13  # the centre cell
    assert values[k] == it.validation_accuracy(task, it.cell_centres(LEVELS)[k])  # a fresh training, same number
    assert values.shape == (LEVELS ** 3,) and np.all((values >= 0) & (values <= 1))


def test_problem_reads_the_table_and_takes_tasks():
    tasks = [{"X": [[0.1, 0.2, 0.3]], "y": [0.5]}]
    problem = it.image_tuning(3, task="g10", levels=LEVELS, tasks=tasks)
    values = it.table("g10", LEVELS)
    assert problem.optimum == values.max() and problem(problem.argmax)[0] == values.max()
    U = np.random.default_rng(0).random((20, 3))
    np.testing.assert_array_equal(problem(U), values[it.cell_index(U, LEVELS)])
    assert problem.meta["tasks"] == tasks and problem.meta["stands_in_for"] == "CIFAR-10"
    with pytest.raises(ValueError, match="task"):
        it.image_tuning(3, task="mnist")


def test_tasks_are_related_as_designed():
    """The noisy digits are a harder version of the digits (SVHN for MNIST): their values lie closer to the
    digits' than the generated tasks' do, and G20 (more classes) is harder than G10."""
    tables = {task: it.table(task, LEVELS) for task in it.TASKS}
    gap = {task: np.abs(tables["digits"] - tables[task]).mean() for task in it.TASKS[1:]}
    assert gap["digits-noisy"] < gap["g10"] < gap["g20"]
    assert np.corrcoef(tables["digits"], tables["digits-noisy"])[0, 1] > np.corrcoef(tables["digits"], tables["g10"])[0, 1]
    assert tables["g20"].max() < tables["g10"].max() < tables["digits"].max()


def test_most_of_the_box_is_clearly_worse_than_its_best_cell():
    """The stand-in's headroom: on every task the median cell's accuracy lies well below the best cell's (a small
    learning rate does not learn in 20 epochs, a large one diverges), so random search does not find a good cell
    at once."""
    for task in it.TASKS:
        values = it.table(task, LEVELS)
        assert values.max() - np.median(values) > 0.05, task
