"""Paper 001's theory harness (bolib.papers.gp_ucb_plus): the finite-domain runs of checks C3-C7."""
import numpy as np
import pytest

from bolib.benchmarks import rkhs_function
from bolib.models.grid import grid_kernel_matrix, unit_grid
from bolib.papers.gp_ucb_plus import grid_run
from bolib.runtime import rng


@pytest.mark.parametrize("kernel", ["matern05", "matern15", "matern25", "rbf"])
@pytest.mark.parametrize("rule", ["gp-ucb", "gp-ucb+", "exploit+"])
def test_proof_inequalities_hold_exactly(kernel, rule):
    """Spec C3 (a)-(d): the deterministic steps of the proofs of Theorems 3.1 and 4.4."""
    grid = unit_grid(201, 1)
    K = grid_kernel_matrix(kernel, grid, 0.2)
    for seed in range(2):
        f = rkhs_function(kernel, 1, rng(seed, "c3"), n_centers=20, lengthscale=0.2)
        norm = f.meta["rkhs_norm"]
        out = grid_run(rule, K, f(grid), 60, seed, beta=norm ** 2, lambdas=(1e-6, 1e-3, 1.0))
        assert out["coverage"].max() <= 1e-7  # (a) |f - mu| <= ||f|| sigma
        assert out["lambda_gap"].max() <= 1e-9  # (b) sigma_{t,0} <= sigma_{t,lambda}
        assert np.all(out["regret"] <= 2 * norm * out["sup_sigma"] + 1e-7)  # (d)
        if rule != "exploit+":
            assert np.all(out["regret"] <= 2 * norm * out["sigma_at"] + 1e-7)  # (c)
