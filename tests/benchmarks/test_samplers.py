"""Function samplers (bolib.benchmarks.samplers): RKHS functions of a given norm and GP draws."""
import numpy as np
import pytest

from bolib.benchmarks import gp_sample, rkhs_function


def test_rkhs_function_norm_and_gp_sample():
    f = rkhs_function("rbf", 2, np.random.default_rng(0), n_centers=10, lengthscale=0.3, norm=2.0)
    assert f.meta["rkhs_norm"] == 2.0
    alpha, centers = f.meta["alpha"], f.meta["centers"]
    from bolib.models.kernels import kernel_matrix, make_kernel
    K = kernel_matrix(make_kernel("rbf", 2, lengthscale=0.3, outputscale=1.0), centers).detach().numpy()
    assert np.sqrt(alpha @ K @ alpha) == pytest.approx(2.0)
    g = gp_sample("matern25", 2, np.random.default_rng(0), lengthscale=0.2)
    values = g(np.random.default_rng(1).random((2000, 2)))
    assert values.max() <= g.optimum + 1e-9 and 0.3 < values.std() < 3
