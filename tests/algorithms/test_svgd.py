"""SVGD on the unit cube (bolib.algorithms.svgd): a flat target must leave the particles spread
over the cube, not piled on its faces."""
import numpy as np
import torch
from scipy import stats

from bolib.algorithms.svgd import svgd


def edge_share(X, tol=1e-3):
    return float(np.mean((X <= tol) | (X >= 1 - tol)))


def test_flat_target_keeps_particles_spread_and_uniform():
    X = np.vstack([svgd(lambda Z: torch.zeros(len(Z), dtype=Z.dtype) + 0 * Z.sum(1),
                        np.random.default_rng(s).random((10, 2)), 1000) for s in range(4)])
    assert edge_share(X) < 0.1
    assert stats.kstest(X.ravel(), "uniform").pvalue > 0.01


def test_edge_share_detects_a_target_that_lives_in_a_corner():
    # negative control of the statistic: a density piled at the corner (1, 1) puts most coordinates near the edge
    X = svgd(lambda Z: 2000 * Z.sum(1), np.random.default_rng(0).random((10, 2)), 1000, step_size=1e-2)
    assert edge_share(X) > 0.5
    assert stats.kstest(X.ravel(), "uniform").pvalue < 0.01
