"""The one multistart maximiser (bolib.multistart) and the callers built on it."""
import numpy as np
import pytest
import torch

from bolib import acquisition as acq
from bolib.algorithms.egp_ts import maximize_features
from bolib.benchmarks import multistart_maximum
from bolib.models.rff import RandomFeatures
from bolib.multistart import multistart_maximize, ranking, unit_cube

BOX = np.array([[-1.0, 0.0, 2.0], [2.0, 1.0, 5.0]])
INSIDE = np.array([0.3, 0.6, 4.1])
OUTSIDE = np.array([2.7, 0.4, 1.0])  # clipped into BOX: (2, 0.4, 2), on two faces


def quadratic(target):
    """-|x - target|^2 in NumPy and torch, and its analytic (value, gradient) at one point."""
    def fn(X):
        return -((X - (torch.as_tensor(target) if torch.is_tensor(X) else target)) ** 2).sum(-1)

    def grad(x):
        return -float(((x - target) ** 2).sum()), -2 * (x - target)
    return fn, grad


# (gradient mode, batch): finite differences, analytic one after another or jointly, autograd
MODES = [(None, False), ("analytic", False), ("analytic", True), ("autograd", False), ("autograd", True)]


def run(target, mode, batch, seed=0, **kw):
    fn, grad = quadratic(target)
    grad = grad if mode == "analytic" else mode
    settings = {"n_candidates": 200, "n_starts": 3, **kw}
    return multistart_maximize(fn, BOX, np.random.default_rng(seed), grad=grad, batch=batch, **settings)


@pytest.mark.parametrize("mode,batch", MODES)
def test_finds_an_interior_maximum(mode, batch):
    x, value = run(INSIDE, mode, batch)
    np.testing.assert_allclose(x, INSIDE, atol=1e-4)
    assert -1e-8 < value <= 0.0


@pytest.mark.parametrize("mode,batch", MODES)
def test_finds_a_maximum_on_the_boundary(mode, batch):
    x, value = run(OUTSIDE, mode, batch)
    corner = np.clip(OUTSIDE, *BOX)
    np.testing.assert_allclose(x, corner, atol=1e-6)
    assert x[0] == BOX[1, 0] and x[2] == BOX[0, 2]  # exactly on the faces, never outside
    assert value == pytest.approx(-np.sum((corner - OUTSIDE) ** 2), abs=1e-9)


@pytest.mark.parametrize("batch", [False, True])
def test_uses_the_analytic_gradient_when_given(batch):
    fn, grad = quadratic(INSIDE)
    calls = {"fn": 0, "grad": 0}

    def counted_fn(X):
        calls["fn"] += 1
        return fn(X)

    def counted_grad(x):
        calls["grad"] += 1
        assert x.shape == (3,)
        return grad(x)

    x, _ = multistart_maximize(counted_fn, BOX, np.random.default_rng(0), n_candidates=100, n_starts=2,
                               grad=counted_grad, batch=batch)
    assert calls["grad"] > 4
    # candidates in one vectorised call (plus one re-evaluation of the polished starts in batch
    # mode): no finite differences
    assert calls["fn"] == (2 if batch else 1)
    np.testing.assert_allclose(x, INSIDE, atol=1e-6)


def test_uses_torch_autograd_and_otherwise_finite_differences():
    fn, _ = quadratic(INSIDE)
    seen = []

    def spy(X):
        seen.append((torch.is_tensor(X), torch.is_tensor(X) and X.requires_grad, len(X)))
        return fn(X)

    multistart_maximize(spy, BOX, np.random.default_rng(0), n_candidates=50, n_starts=2, grad="autograd")
    assert seen[0] == (True, False, 50)  # the candidates, as one tensor, without gradients
    assert all(is_tensor and needs_grad for is_tensor, needs_grad, _ in seen[1:]) and len(seen) > 3
    seen.clear()
    multistart_maximize(spy, BOX, np.random.default_rng(0), n_candidates=50, n_starts=2)
    assert not any(is_tensor for is_tensor, _, _ in seen)
    assert len(seen) > 1 + 2 * 3  # finite differences: d + 1 calls per gradient


def candidates(seed, n, bounds=BOX):
    lo, hi = bounds
    return lo + np.random.default_rng(seed).random((n, bounds.shape[1])) * (hi - lo)


def bumps(X):
    """Many local maxima: the local search from a candidate can end lower than another candidate."""
    X = np.asarray(X)
    return np.sin(7 * X).sum(-1) + 0.3 * np.cos(19 * X[..., 0] * X[..., 1])


@pytest.mark.parametrize("n_starts,maxiter", [(0, None), (4, 0)])
def test_without_local_search_returns_the_best_candidate_exactly(n_starts, maxiter):
    x, value = multistart_maximize(bumps, BOX, np.random.default_rng(3), n_candidates=300, n_starts=n_starts,
                                   maxiter=maxiter)
    X = candidates(3, 300)
    i = np.argmax(bumps(X))
    assert x.tobytes() == X[i].tobytes() and value == bumps(X)[i]


@pytest.mark.parametrize("mode,batch", [(None, False), ("analytic", False), ("analytic", True)])
@pytest.mark.parametrize("seed", range(5))
def test_never_worse_than_the_best_candidate(seed, mode, batch):
    def grad(x):  # a wrong (sign-flipped) gradient: the local search cannot be trusted to improve
        return float(bumps(x)), -7 * np.cos(7 * x)
    x, value = multistart_maximize(bumps, BOX, np.random.default_rng(seed), n_candidates=64, n_starts=4,
                                   grad=grad if mode else None, batch=batch, maxiter=3)
    assert value >= bumps(candidates(seed, 64)).max()
    assert value == pytest.approx(float(bumps(x)), abs=1e-12)
    assert np.all(x >= BOX[0]) and np.all(x <= BOX[1])


def test_extra_candidates_and_starts():
    fn, _ = quadratic(INSIDE)
    x, value = multistart_maximize(fn, BOX, np.random.default_rng(0), n_candidates=20, n_starts=0,
                                   extra_candidates=INSIDE[None])
    assert x.tobytes() == INSIDE.tobytes() and value == 0.0
    x, value = multistart_maximize(fn, BOX, np.random.default_rng(0), n_candidates=0, n_starts=0,
                                   extra_candidates=[BOX[0], BOX[1]])
    assert x.tobytes() == BOX[1].tobytes()  # only the given candidates
    x, _ = multistart_maximize(fn, BOX, np.random.default_rng(0), n_candidates=20, n_starts=0,
                               extra_starts=BOX[:1], grad="autograd", batch=True)
    np.testing.assert_allclose(x, INSIDE, atol=1e-5)  # polished from the extra start alone


def test_nan_values_rank_last_and_ties_are_broken_reproducibly():
    values = np.array([1.0, np.nan, 3.0, 3.0, -np.inf, 2.0])
    order = ranking(values)
    assert list(order[:2]) in ([2, 3], [3, 2]) and list(order[2:4]) == [5, 0] and order[-1] in (1, 4)
    assert list(ranking(values)) == list(order)
    ties = np.zeros(500)
    np.testing.assert_array_equal(ranking(ties), torch.argsort(torch.zeros(500, dtype=torch.float64),
                                                               descending=True).numpy())
    x, value = multistart_maximize(lambda X: np.where(X[:, 0] > 0.5, np.nan, X[:, 0]), unit_cube(1),
                                   np.random.default_rng(0), n_candidates=100, n_starts=2)
    assert 0 <= x[0] <= 0.5 and value == x[0]


def test_sobol_candidates_are_reproducible():
    fn, _ = quadratic(INSIDE)
    runs = [multistart_maximize(fn, BOX, np.random.default_rng(5), n_candidates=64, n_starts=0, sampler="sobol")
            for _ in range(2)]
    assert runs[0][0].tobytes() == runs[1][0].tobytes()
    other = multistart_maximize(fn, BOX, np.random.default_rng(6), n_candidates=64, n_starts=0, sampler="sobol")
    assert other[0].tobytes() != runs[0][0].tobytes()


@pytest.mark.parametrize("kwargs,message", [
    ({"bounds": np.zeros((3, 2))}, "shape"),
    ({"bounds": np.array([0.0, 1.0])}, "shape"),
    ({"bounds": np.array([[1.0, 0.0], [0.0, 1.0]])}, "lower bound"),
    ({"bounds": np.array([[0.0, 0.0], [1.0, np.inf]])}, "finite"),
    ({"n_starts": -1}, "n_starts"),
    ({"n_starts": 1.5}, "n_starts"),
    ({"n_candidates": -3}, "n_candidates"),
    ({"n_candidates": 0}, "no candidates"),
    ({"sampler": "grid"}, "sampler"),
    ({"grad": "finite-differences"}, "grad"),
    ({"extra_candidates": np.zeros((2, 3))}, "extra_candidates"),
    ({"extra_starts": np.array([[2.0, 0.5]])}, "inside"),
    ({"fn": lambda X: np.zeros(3)}, "one value per row"),
])
def test_bad_input_raises_a_clear_error(kwargs, message):
    args = {"fn": lambda X: -np.sum(X ** 2, axis=1), "bounds": unit_cube(2), "n_candidates": 10, "n_starts": 1,
            **kwargs}
    fn, bounds = args.pop("fn"), args.pop("bounds")
    with pytest.raises(ValueError, match=message):
        multistart_maximize(fn, bounds, np.random.default_rng(0), **args)


def test_the_three_callers_are_the_one_maximiser():
    target = torch.tensor([0.3, 1.0, 0.7], dtype=torch.float64)
    fn = lambda X: -((X - target) ** 2).sum(-1)  # noqa: E731
    best = np.array([[0.5, 0.5, 0.5]])
    x, value = acq.maximize(fn, 3, np.random.default_rng(0), n_candidates=100, extra_starts=best)
    y, same = multistart_maximize(fn, unit_cube(3), np.random.default_rng(0), n_candidates=100, n_starts=4,
                                  extra_starts=best, grad="autograd", maxiter=50, batch=True)
    assert x.tobytes() == y.tobytes() and value == same

    stream = np.random.default_rng(1)
    features = RandomFeatures("rbf", 2, 30, stream, 0.2)
    theta = stream.standard_normal(features.n_features)
    u = maximize_features(features, theta, np.random.default_rng(2), 500, 3, incumbent=best[:, :2])
    v, _ = multistart_maximize(lambda U: features(U) @ theta, unit_cube(2), np.random.default_rng(2),
                               n_candidates=500, n_starts=3, extra_candidates=best[:, :2], maxiter=100,
                               grad=lambda x: features.value_and_gradient(x, theta))
    assert u.tobytes() == v.tobytes()

    bounds = np.array([[-1.0, -1.0], [1.0, 2.0]])
    x, value = multistart_maximum(lambda X: -np.sum(X ** 2, axis=1), bounds, np.random.default_rng(3), 256, 2)
    y, same = multistart_maximize(lambda X: -np.sum(X ** 2, axis=1), bounds, np.random.default_rng(3),
                                  n_candidates=256, n_starts=2, sampler="sobol")
    assert x.tobytes() == y.tobytes() and value == same
    np.testing.assert_allclose(x, [0.0, 0.0], atol=1e-6)
