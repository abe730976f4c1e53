"""The garden-sprinkler simulator of paper 001 (bolib.benchmarks.sprinkler)."""
import numpy as np
import pytest

from bolib.benchmarks import get_benchmark
from bolib.benchmarks.sprinkler import DOCUMENTED_OUTPUTS, DOCUMENTED_POINT, sprinkler_outputs


def test_sprinkler_matches_the_documented_example():
    np.testing.assert_allclose(sprinkler_outputs(DOCUMENTED_POINT), DOCUMENTED_OUTPUTS, atol=1e-6)


def test_sprinkler_best_known_point():
    problem = get_benchmark("sprinkler")
    assert problem(problem.to_unit(problem.argmax))[0] == pytest.approx(problem.optimum)
    values = problem(np.random.default_rng(0).random((500, 8)))
    assert values.max() < problem.optimum
    assert 0.1 < np.mean(values == 0) < 0.35  # the zero plateau (about 23% of the box)
