import numpy as np
import pytest

from bolib.theory import fill_distance, fill_distance_1d, greedy_information_gain


def test_fill_distance():
    assert fill_distance_1d([0.5]) == 0.5
    assert fill_distance_1d([0.1, 0.5, 0.9]) == pytest.approx(0.2)
    x = np.random.default_rng(0).random(50)
    grid = np.linspace(0, 1, 200_001)
    brute = np.abs(grid[:, None] - x[None]).min(1).max()
    assert fill_distance(x[:, None]) == pytest.approx(brute, abs=1e-5)
    X = np.random.default_rng(1).random((100, 2))
    assert fill_distance(X) <= fill_distance(X, n_reference=2 ** 18) + 1e-12


def test_greedy_information_gain_matches_log_det():
    rng = np.random.default_rng(0)
    Z = rng.random((60, 2))
    K = np.exp(-((Z[:, None] - Z[None]) ** 2).sum(-1) / (2 * 0.2 ** 2))
    gains = greedy_information_gain(K, noise=0.1, T=10)
    # recompute the greedy selection independently and compare with 1/2 log det(I + K_AA / noise)
    chosen = []
    for _ in range(10):
        best = max(range(60), key=lambda i: np.linalg.slogdet(
            np.eye(len(chosen) + 1) + K[np.ix_(chosen + [i], chosen + [i])] / 0.1)[1])
        chosen.append(best)
    assert gains[-1] == pytest.approx(0.5 * np.linalg.slogdet(np.eye(10) + K[np.ix_(chosen, chosen)] / 0.1)[1])
    assert np.all(np.diff(gains) > 0)
