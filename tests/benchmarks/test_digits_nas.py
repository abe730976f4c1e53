"""Digits-MLP surrogate: the input mapping, a deterministic surrogate and its optimum estimate."""
import numpy as np

from bolib.benchmarks import digits_nas as dn
from bolib.benchmarks import get_benchmark


def test_hyperparameter_mapping_covers_the_stated_ranges():
    low, high = dn.hyperparameters(np.zeros(6)), dn.hyperparameters(np.ones(6))
    assert low["learning_rate_init"] == 1e-4 and np.isclose(high["learning_rate_init"], 1e-1)
    assert (low["batch_size"], high["batch_size"]) == (16, 256)
    assert low["hidden_layer_sizes"] == (16,) and high["hidden_layer_sizes"] == (256, 256, 256)
    assert dn.hyperparameters(np.full(6, 0.5))["hidden_layer_sizes"] == (64, 64)


def test_surrogate_is_deterministic_and_its_optimum_is_at_least_every_checked_point():
    problem = get_benchmark("digits-nas")
    U = np.random.default_rng(0).random((200, 6))
    np.testing.assert_array_equal(problem(U), get_benchmark("digits-nas")(U))
    assert np.all(problem(np.vstack([U, dn.configurations()])) <= problem.optimum)
    assert problem(problem.argmax)[0] == problem.optimum
    # the forest follows its training data: errors in [0, 1], best configuration among the best predicted
    errors = dn.training_errors()
    assert np.all((errors >= 0) & (errors <= 1)) and np.ptp(errors) > 0.05
    assert np.corrcoef(-problem(dn.configurations()), errors)[0, 1] > 0.8
