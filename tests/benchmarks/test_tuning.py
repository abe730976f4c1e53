"""Hyperparameter-tuning tasks (bolib.benchmarks.tuning): paper 001's random forest, paper 000's MLPs (Table 2)."""
import numpy as np
import pytest

from bolib.benchmarks import get_benchmark


def test_random_forest_objective_floors_integers_and_is_deterministic():
    problem = get_benchmark("rf-friedman1")
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


def test_random_forest_stand_in_has_headroom():
    """The Friedman #1 stand-in separates tuners: stumps (max_depth 1) are far worse than deep forests."""
    problem = get_benchmark("rf-friedman1")
    shallow, deep = problem.fn(np.array([[100.0, 1.0, 2.0, 0.5], [100.0, 15.0, 2.0, 0.5]]))
    assert deep - shallow > 0.3 and -deep < 0.3  # test MSE (standardised target): deep forests well under the mean's 1
