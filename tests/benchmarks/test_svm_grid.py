"""Paper 004's SVM tabular stand-in: the 288-configuration grid, its encoding, nearest-configuration queries and
deterministic tables."""
import numpy as np
import pytest

from bolib.benchmarks import svm_grid as sg
from bolib.candidates import nearest_rows


def test_grid_has_the_original_size_and_distinct_codes():
    configs = sg.configurations()
    assert len(configs) == 288 and len(sg.DATASETS) == 50
    assert [sum(c["kernel"] == k for c in configs) for k in ("linear", "poly", "rbf")] == [12, 48, 228]
    codes = sg.candidates()
    assert codes.shape == (288, 6) and len(np.unique(codes, axis=0)) == 288
    assert np.all((codes >= 0) & (codes <= 1)) and np.all(codes[:, :3].sum(1) == 1)
    np.testing.assert_array_equal(sg.encode({"kernel": "rbf", "C": 2.0 ** 6, "gamma": 2.0 ** 3}), [0, 0, 1, 1, 0, 1])


def test_queries_take_the_nearest_configuration():
    codes = sg.candidates()
    np.testing.assert_array_equal(nearest_rows(codes, codes), np.arange(288))
    nudged = codes + 0.01 * np.random.default_rng(0).standard_normal(codes.shape)
    np.testing.assert_array_equal(nearest_rows(codes, nudged), np.arange(288))
    np.testing.assert_array_equal(sg.svm_grid(6, dataset=2)(nudged), sg.table(2))  # the problem's queries


def test_table_is_the_training_it_caches_and_the_problem_reads_it():
    values = sg.table(2)  # iris
    k = 200  # an RBF configuration
    assert values[k] == sg.validation_accuracy(2, sg.configurations()[k])
    tasks = [{"X": [[0.0] * 6], "y": [0.5]}]
    problem = sg.svm_grid(6, dataset=2, tasks=tasks)
    assert problem.optimum == values.max() and problem(problem.argmax)[0] == values.max()
    np.testing.assert_array_equal(problem(sg.candidates()), values)
    assert problem.meta["tasks"] == tasks and problem.meta["candidates"].shape == (288, 6)
    with pytest.raises(ValueError, match="dataset"):
        sg.table(50)


def test_data_sets_differ():
    tables = np.array([sg.table(i) for i in (0, 2, 20)])  # breast cancer, iris, moons
    assert np.all(tables.max(1) - tables.min(1) > 0.05)  # the configuration matters on each
    assert len({tuple(t.round(6)) for t in tables}) == 3
