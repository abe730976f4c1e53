"""The random-feature GP ensemble (bolib.models.ensemble): paper 000, eqs. 7, 8, 10, 11, 17."""
import numpy as np

from bolib.models.ensemble import RFEnsemble
from bolib.models.rff import RandomFeatures
from bolib.runtime import rng


def _ensemble(seed=0, dim=2):
    stream = rng(seed, "ens")
    features = [RandomFeatures(k, dim, 30, stream, ls) for k, ls in
                (("rbf", 0.1), ("rbf", 0.5), ("matern15", 0.3), ("matern25", 1.0))]
    return RFEnsemble(features, [0.01, 0.02, 0.05, 0.01])


def test_recursive_weights_and_posteriors_equal_the_batch_ones(wave_data):
    X, y = wave_data()
    recursive, batch = _ensemble(), _ensemble().fit(X, y)
    for x, value in zip(X, y):
        recursive.update(x[None], value)
    np.testing.assert_allclose(recursive.log_weights, batch.log_weights, rtol=0, atol=1e-8)
    for a, b in zip(recursive.models, batch.models):
        np.testing.assert_allclose(a.mean, b.mean, atol=1e-8)
        np.testing.assert_allclose(a.cov, b.cov, atol=1e-8)
    assert np.isclose(recursive.weights.sum(), 1.0)


def test_a_synchronous_batch_gives_the_same_posterior_in_any_order(wave_data):
    X, y = wave_data(12)
    first, second = _ensemble().fit(X[:4], y[:4]), _ensemble().fit(X[:4], y[:4])
    for i in range(4, 12):
        first.update(X[i][None], y[i])
    for i in reversed(range(4, 12)):
        second.update(X[i][None], y[i])
    np.testing.assert_allclose(first.log_weights, second.log_weights, atol=1e-8)
    np.testing.assert_allclose(first.models[2].mean, second.models[2].mean, atol=1e-8)


def test_thompson_samples_have_the_posterior_mean_on_average(wave_data):
    X, y = wave_data()
    ens = _ensemble().fit(X, y)
    stream = rng(0, "ts")
    draws = {}
    for _ in range(4000):
        m, theta = ens.sample(stream)
        draws.setdefault(m, []).append(theta)
    grid = np.random.default_rng(3).random((50, 2))
    for m, thetas in draws.items():
        if len(thetas) < 500:
            continue
        phi = ens.features[m](grid)
        np.testing.assert_allclose(phi @ np.mean(thetas, axis=0), phi @ ens.models[m].mean, atol=0.05)
    counts = np.bincount([m for m, v in draws.items() for _ in v], minlength=4) / 4000
    np.testing.assert_allclose(counts, ens.weights, atol=0.03)


def test_weight_floor_only_changes_the_sampling(wave_data):
    X, y = wave_data()
    ens = _ensemble().fit(X, y)
    before = ens.log_weights.copy()
    stream = rng(0, "floor")
    picks = np.bincount([ens.sample(stream, floor=0.2)[0] for _ in range(2000)], minlength=4) / 2000
    assert picks.min() > 0.1
    np.testing.assert_array_equal(ens.log_weights, before)


def test_sample_from_given_weights_is_the_thompson_step_with_those_weights(wave_data):
    # eq. 8 in one place: sample(weights=w) draws m ~ Cat(w), then theta from member m's posterior, with
    # the generator's calls in that order (what ExactEnsembleTS's tempered draws rely on)
    X, y = wave_data()
    ens = _ensemble().fit(X, y)
    w = np.array([0.1, 0.2, 0.3, 0.4])
    by_hand, stream = [], rng(0, "given")
    for _ in range(30):
        m = int(stream.choice(4, p=w))
        by_hand.append((m, ens.models[m].sample_weights(stream)[0]))
    stream = rng(0, "given")
    drawn = [ens.sample(stream, weights=w) for _ in range(30)]
    assert [m for m, _ in drawn] == [m for m, _ in by_hand]
    for (_, a), (_, b) in zip(drawn, by_hand):
        np.testing.assert_array_equal(a, b)
    # without weights it draws from the posterior weights, the same as passing them
    first, second = rng(1, "given"), rng(1, "given")
    for _ in range(10):
        (m1, t1), (m2, t2) = ens.sample(first), ens.sample(second, weights=ens.weights)
        assert m1 == m2 and np.array_equal(t1, t2)
    assert set(m for m, _ in drawn) > {0} and all(m in range(4) for m, _ in drawn)
