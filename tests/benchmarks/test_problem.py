"""Problems (bolib.benchmarks.problem): the unit-cube view of a box and the observation-noise kinds."""
import numpy as np
import pytest

from bolib.benchmarks import get_benchmark


def test_unit_cube_mapping_and_errors():
    problem = get_benchmark("branin")
    U = np.random.default_rng(0).random((5, 2))
    np.testing.assert_allclose(problem.to_unit(problem.to_native(U)), U)
    np.testing.assert_allclose(problem(U), problem.fn(problem.to_native(U)))
    with pytest.raises(ValueError, match="valid choices"):
        get_benchmark("sphere")
    with pytest.raises(ValueError, match="2 dimensions only"):
        get_benchmark("branin", 3)


@pytest.mark.parametrize("kind", ["gaussian", "student_t3", "laplace", "cauchy"])
def test_noise_wrapper(kind):
    problem = get_benchmark("branin").with_noise(0.5, kind)
    z = np.random.default_rng(0).random(20_000)
    noise = problem.noise(z)
    assert abs(np.median(noise)) < 0.05
    if kind == "gaussian":
        assert noise.std() == pytest.approx(0.5, rel=0.05)
