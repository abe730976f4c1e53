"""SVGD on the unit cube (bolib.algorithms.svgd): in logit coordinates a flat target leaves the
particles spread over the cube; on the cube itself, clipped, it piles them on the faces."""
import numpy as np
import torch
from scipy import stats

from bolib.algorithms.svgd import svgd


def edge_share(X, tol=1e-3):
    return float(np.mean((X <= tol) | (X >= 1 - tol)))


def flat(Z):
    return torch.zeros(len(Z), dtype=Z.dtype) + 0 * Z.sum(1)


def test_flat_target_keeps_particles_spread_and_uniform_in_logit_coordinates():
    X = np.vstack([svgd(flat, np.random.default_rng(s).random((10, 2)), 1000, space="logit") for s in range(4)])
    assert edge_share(X) < 0.1
    assert stats.kstest(X.ravel(), "uniform").pvalue > 0.01


def test_flat_target_piles_particles_on_the_faces_on_the_clipped_cube():
    # the paper's reading (space="x"): only the repulsion acts, and the clipping stops the particles at the faces
    X = np.vstack([svgd(flat, np.random.default_rng(s).random((10, 2)), 1000, space="x") for s in range(4)])
    assert edge_share(X) > 0.3
    assert X.min() >= 0.0 and X.max() <= 1.0


def test_unknown_space_names_the_choices():
    try:
        svgd(flat, np.full((2, 2), 0.5), 1, space="z")
    except ValueError as error:
        assert "valid choices: logit, x" in str(error)
    else:
        raise AssertionError("an unknown space was accepted")


def test_edge_share_detects_a_target_that_lives_in_a_corner():
    # negative control of the statistic: a density piled at the corner (1, 1) puts most coordinates near the edge
    X = svgd(lambda Z: 2000 * Z.sum(1), np.random.default_rng(0).random((10, 2)), 1000, step_size=1e-2, space="logit")
    assert edge_share(X) > 0.5
    assert stats.kstest(X.ravel(), "uniform").pvalue < 0.01


def gaussian_target(centre, sd=0.05):
    return lambda Z: -((Z - centre) ** 2).sum(1) / (2 * sd ** 2)


def test_paper_step_reaches_a_narrow_target_in_the_middle_and_near_a_face():
    # the paper's step 1e-3 and 1000 steps (Table D.4) must carry uniform particles to a Gaussian of sd 0.05:
    # exact samples of it lie 0.05 sqrt(2 / pi) ~ 0.04 from its centre on average; the uniform start about 0.25-0.4
    for space in ("x", "logit"):
        for centre in (0.5, 0.85):
            for s in range(2):
                X0 = np.random.default_rng(s).random((10, 2))
                X = svgd(gaussian_target(centre), X0, 1000, space=space)
                assert np.abs(X0 - centre).mean() > 0.2
                assert np.abs(X - centre).mean() < 0.05


def test_a_step_in_logit_units_would_not_reach_the_target():
    # negative control of the test above: a step a quarter as large, what the step 1e-3 taken in z (our first
    # version) moves x at x = 1/2, leaves the particles short of the target
    X0 = np.random.default_rng(0).random((10, 2))
    X = svgd(gaussian_target(0.85), X0, 1000, step_size=1e-3 / 4, space="logit")
    assert np.abs(X - 0.85).mean() > 0.05
