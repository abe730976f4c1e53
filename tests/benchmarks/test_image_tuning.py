"""Paper 004's image-classifier tuning stand-in: deterministic tables, cells, and tasks related as designed."""
import numpy as np
import pytest

from bolib.benchmarks import image_tuning as it

LEVELS = 3  # the smoke profile's grid: 27 cells per task


def test_hyperparameter_ranges():
    """App. D.2: the learning rate, its decay and the L2 penalty, each on [1e-7, 1e-2], log scale."""
    low, high, mid = it.hyperparameters([0, 0, 0]), it.hyperparameters([1, 1, 1]), it.hyperparameters([0.4, 0.4, 0.4])
    assert all(v == pytest.approx(1e-7) for v in low.values()) and all(v == pytest.approx(1e-2) for v in high.values())
    assert all(v == pytest.approx(1e-5) for v in mid.values())
    assert set(low) == {"lr", "decay", "l2"}


def test_random_search_shortfall_is_the_expected_gap_of_the_best_of_n_draws():
    values = np.random.default_rng(1).random(40)
    stream = np.random.default_rng(0)
    for n in (1, 5, 20):
        sampled = np.mean([values.max() - values[stream.choice(40, n, replace=False)].max() for _ in range(20000)])
        assert it.random_search_shortfall(values, n) == pytest.approx(sampled, abs=3e-3)
    assert it.random_search_shortfall(values, 40) == 0.0
    with pytest.raises(ValueError, match="1..40"):
        it.random_search_shortfall(values, 41)


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
