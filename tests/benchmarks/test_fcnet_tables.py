"""Mini-FCNet tables: deterministic, exhaustively maximised, noisy across the trainings of a cell."""
import numpy as np
import pytest

from bolib.benchmarks import fcnet_tables as ft
from bolib.benchmarks import get_benchmark


def test_cells_and_unit_cube_boxes_correspond_one_to_one():
    assert len(ft.cells()) == int(np.prod(ft.SIZES)) == 96
    centres = np.array([ft.cell_centre(i) for i in range(len(ft.cells()))])
    assert ft.cell_index(centres).tolist() == list(range(len(ft.cells())))
    assert ft.cell_index(np.ones((1, len(ft.GRID))))[0] == len(ft.cells()) - 1  # the upper faces belong to the last value


def test_a_training_is_deterministic():
    config = ft.cells()[5]
    assert ft.validation_mse("diabetes", config, 1) == ft.validation_mse("diabetes", config, 1)


@pytest.mark.parametrize("dataset", ft.DATASETS)
def test_stored_table_matches_a_recomputation(dataset):
    values = ft.table(dataset)
    assert values.shape == (96, ft.REPEATS) and np.all(np.isfinite(values)) and np.all(values > 0)
    for row in (0, 47, 95):
        assert values[row].tolist() == [ft.validation_mse(dataset, ft.cells()[row], r) for r in range(ft.REPEATS)]


@pytest.mark.parametrize("name", ["fcnet-diabetes", "fcnet-friedman"])
def test_optimum_is_the_best_cell_mean_over_the_whole_table(name):
    problem = get_benchmark(name)
    means = problem.meta["table"].mean(axis=1)
    assert problem.optimum == -means.min()
    assert np.all(-means <= problem.optimum)  # exhaustive: no cell has a better mean
    assert ft.cell_index(problem.argmax)[0] == np.argmin(means)


def test_the_objective_is_noisy_across_trainings_and_pure_in_the_query():
    problem = get_benchmark("fcnet-diabetes", repeat_seed=3)
    values = problem.meta["table"]
    assert np.mean(values.std(axis=1) > 0) > 0.9  # the trainings of a cell differ
    row = 10
    U = ft.cell_centre(row) + (np.random.default_rng(0).random((40, len(ft.GRID))) - 0.5) / np.array(ft.SIZES) * 0.9
    assert np.all(ft.cell_index(U) == row)
    observed = problem(U)
    assert len(set(observed.tolist())) > 1 and set(observed.tolist()) <= set((-values[row]).tolist())
    np.testing.assert_array_equal(problem(U), observed)  # the same points give the same trainings
    other = get_benchmark("fcnet-diabetes", repeat_seed=4)(U)
    assert not np.array_equal(other, observed)  # another run sees other trainings
