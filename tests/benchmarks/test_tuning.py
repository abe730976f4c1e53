"""Hyperparameter-tuning tasks (bolib.benchmarks.tuning): paper 001's random forest, paper 000's MLPs (Table 2)."""
import numpy as np
import pytest

from bolib.benchmarks import get_benchmark


def test_random_forest_objective_floors_integers_and_is_deterministic():
    problem = get_benchmark("rf-diabetes")
    a = problem.fn(np.array([[20.2, 5.1, 3.9, 0.5], [20.9, 5.8, 3.1, 0.5]]))
    assert a[0] == a[1] and a[0] < 0
    assert problem.fn(np.array([[20.2, 5.1, 3.9, 0.5]]))[0] == a[0]


def test_mlp_search_space_matches_table_2():
    from bolib.benchmarks.tuning import mlp_hyperparameters

    low, high = mlp_hyperparameters([0, 0, 0, 0]), mlp_hyperparameters([1, 1, 1, 1])
    assert low["hidden_layer_sizes"] == (2, 2) and high["hidden_layer_sizes"] == (100, 100)
    assert low["learning_rate_init"] == pytest.approx(1e-6) and high["learning_rate_init"] == pytest.approx(0.1)
    assert (low["batch_size"], high["batch_size"]) == (4, 64)
    problem = get_benchmark("mlp-iris", repeats=1, epochs=3)
    u = np.array([[0.5, 0.5, 0.8, 0.5]])
    assert problem(u)[0] == problem(u)[0]  # deterministic (seeded trainings)
