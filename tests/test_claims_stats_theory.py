import json

import numpy as np
import pytest

from bolib import stats
from bolib.claims import ClaimBook, load_claims, verdict_from_interval, verdict_from_paired
from bolib.theory import fill_distance, fill_distance_1d, greedy_information_gain


def test_paired_verdicts_go_each_way():
    rng = np.random.default_rng(0)
    base = rng.random(20)
    better, worse, same = base - 0.5, base + 0.5, base + 0.01 * rng.standard_normal(20)
    assert verdict_from_paired(stats.paired_test(better, base, "less")) == "reproduced"
    assert verdict_from_paired(stats.paired_test(worse, base, "less")) == "not reproduced"
    assert verdict_from_paired(stats.paired_test(same, base, "less")) == "inconclusive"
    assert verdict_from_paired(stats.paired_test(worse, base, "greater")) == "reproduced"


def test_interval_verdicts():
    assert verdict_from_interval((-0.52, -0.48), (-0.55, -0.45)) == "reproduced"
    assert verdict_from_interval((-0.3, -0.2), (-0.55, -0.45)) == "not reproduced"
    assert verdict_from_interval((-0.6, -0.5), (-0.55, -0.45)) == "inconclusive"


def test_claim_book_writes_json_and_rejects_bad_verdicts(tmp_path):
    book = ClaimBook("p", "smoke", tmp_path / "p.claims.json")
    book.record("C1", "statement", 1.0, 0.98765, "test", "reproduced")
    book.record("C1", "statement", 1.0, 0.5, "test", "not reproduced")  # re-recording replaces
    saved = json.loads((tmp_path / "p.claims.json").read_text())
    assert len(saved) == 1 and saved[0]["verdict"] == "not reproduced" and saved[0]["measured"] == "0.5"
    assert load_claims([tmp_path / "p.claims.json"]).shape[0] == 1
    with pytest.raises(ValueError, match="valid choices"):
        book.record("C2", "s", 1, 1, "t", "probably")


def test_mean_ci_covers_true_mean_at_nominal_rate():
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(400):
        band = stats.mean_ci(rng.standard_normal((8, 1)))
        hits += band.lower[0] <= 0 <= band.upper[0]
    assert 0.91 < hits / 400 < 0.99


def test_regret_helpers():
    f = np.array([[1.0, 3.0, 2.0, 4.0]])
    np.testing.assert_array_equal(stats.simple_regret(f, 5.0), [[4, 2, 2, 1]])
    np.testing.assert_array_equal(stats.cumulative_regret(f, 5.0), [[4, 6, 9, 10]])
    np.testing.assert_array_equal(stats.per_round(np.arange(6), np.array([0, 0, 1, 1, 1, 2])), [1, 4, 5])
    slope, ci = stats.loglog_slope([1, 2, 4, 8], [1, 0.5, 0.25, 0.125])
    assert slope == pytest.approx(-1) and ci[0] <= -1 <= ci[1]


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
