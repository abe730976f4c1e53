"""Paper 002's Fig. 5a stand-in (bolib.benchmarks.supernova): determinism, the embedding, and the
likelihood's maximum near the parameters the data were drawn at."""
import numpy as np
import pytest
from scipy.optimize import minimize

from bolib.benchmarks import get_benchmark
from bolib.benchmarks import supernova as sn


def test_deterministic_and_only_the_nine_relevant_coordinates_matter():
    a, b = get_benchmark("supernova20"), get_benchmark("supernova20")
    U = np.random.default_rng(0).random((20, 20))
    np.testing.assert_array_equal(a(U), b(U))
    np.testing.assert_array_equal(sn.data(0)["m"], sn.data(0)["m"])
    assert not np.array_equal(sn.data(0)["m"], sn.data(1)["m"])
    irrelevant = [i for i in range(20) if i not in a.meta["relevant"]]
    assert len(irrelevant) == 11
    V = U.copy()
    V[:, irrelevant] = np.random.default_rng(1).random((20, 11))
    np.testing.assert_array_equal(a(U), a(V))
    W = U.copy()
    W[:, a.meta["relevant"][5]] = 1 - W[:, a.meta["relevant"][5]]  # M_B moves
    assert np.all(a(U) != a(W))


def test_flat_lambda_cdm_distance_matches_the_closed_form_integral():
    """Om = 1 (Einstein-de Sitter): D_C = 2 D_H (1 - 1/sqrt(1+z)), so m is known in closed form."""
    data = sn.data(0)
    theta = np.array([[1.0, 0.0, -1.0, 0.0, 0.7, -19.3, 0.0, 0.0, 0.1]])
    d_h = sn.C_KM_S / 70.0
    exact = 5 * np.log10((1 + data["z"]) * 2 * d_h * (1 - 1 / np.sqrt(1 + data["z"]))) + 25 - 19.3
    np.testing.assert_allclose(sn.magnitudes(theta, data)[0], exact, atol=1e-4)


def test_maximum_is_near_the_truth_and_not_improved_by_local_search():
    data = sn.data(0)
    lo, hi = sn.BOXES.T
    best = sn.log_likelihood(sn.BEST_PARAMS, data)[0]
    assert best == pytest.approx(sn.BEST_KNOWN, abs=1e-12)
    assert best >= sn.log_likelihood(sn.TRUTH, data)[0]
    # the well-constrained parameters are recovered: M_B, alpha, beta, sigma_int and h near the truth
    for i, tol in ((5, 0.1), (6, 0.03), (7, 0.3), (8, 0.04), (4, 0.02)):
        assert abs(sn.BEST_PARAMS[i] - sn.TRUTH[i]) < tol, sn.NAMES[i]
    # a local search from the best point and from the truth finds nothing better
    f = lambda u: -sn.log_likelihood(lo + u * (hi - lo), data)[0]  # noqa: E731
    for start in (sn.BEST_PARAMS, sn.TRUTH):
        res = minimize(f, (start - lo) / (hi - lo), method="L-BFGS-B", bounds=[(0, 1)] * 9)
        assert -res.fun <= sn.BEST_KNOWN + 1e-8
    problem = get_benchmark("supernova20")
    assert problem(problem.to_unit(problem.argmax))[0] == pytest.approx(sn.BEST_KNOWN, abs=1e-12)


def test_no_valid_expansion_history_scores_the_floor():
    theta = np.array([[0.05, 1.2, -2.0, -2.0, 0.7, -19.3, 0.14, 3.1, 0.1]])  # E^2 < 0 near z = 1.6
    assert sn.log_likelihood(theta, sn.data(0))[0] == sn.FLOOR


def test_boxes_are_placed_off_the_truth_and_their_centre_has_no_head_start():
    """Every parameter's truth lies at least a fifth of its box's width from the middle (TRUTH_FRACTIONS), so
    the box centre (DIRECT's first point) is far from the maximum: it scores below the best of 50 uniform
    points of the box in most draws, and the well-constrained parameters of the best-known maximum (h, M_B,
    alpha, beta, sigma_int) sit off the middle too. Negative control: boxes of the same widths centred on the
    truth score within 0.03 of the maximum at their centre."""
    lo, hi = sn.BOXES.T
    width = hi - lo
    np.testing.assert_allclose(sn.TRUTH_FRACTIONS, (sn.TRUTH - lo) / width)
    assert np.all(np.abs(sn.TRUTH_FRACTIONS - 0.5) >= 0.2 - 1e-12)
    assert np.all(np.abs((sn.BEST_PARAMS[4:] - lo[4:]) / width[4:] - 0.5) >= 0.2)
    problem = get_benchmark("supernova20")
    centre = problem(np.full((1, 20), 0.5))[0]
    best_random = [problem(np.random.default_rng(s).random((50, 20))).max() for s in range(20)]
    assert np.mean(centre < np.array(best_random)) >= 0.9
    assert centre < sn.BEST_KNOWN - 1
    data = sn.data(0)
    centred = sn.log_likelihood(sn.TRUTH, data)[0]  # the centre of truth-centred boxes is the truth
    assert centred > sn.BEST_KNOWN - 0.03
