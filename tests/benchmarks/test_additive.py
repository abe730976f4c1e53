"""Paper 002's additive synthetic functions (bolib.benchmarks.additive): the group function's optimum,
the composite's exact f*, its determinism per permutation seed and its additive structure."""
import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import multivariate_normal

from bolib.benchmarks import get_benchmark
from bolib.benchmarks.additive import FLOOR, additive_groups, group_argmax, group_function, group_optimum, mixture


@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_group_function_equals_the_log_mixture_density_with_a_floor(d):
    centres, weights, var = mixture(d)
    X = np.random.default_rng(d).uniform(-1, 1, (300, d))
    X[:20] = centres[1] + 0.05 * np.random.default_rng(1).standard_normal((20, d))  # near the main mode
    density = sum(w * multivariate_normal(c, var * np.eye(d)).pdf(X) for c, w in zip(centres, weights))
    with np.errstate(divide="ignore"):
        ref = np.maximum(FLOOR, np.log(density))
    np.testing.assert_allclose(group_function(X), ref, rtol=1e-10, atol=1e-10)


def test_floor_replaces_the_underflowed_log_density():
    far = np.array([[10.0], [-1.0]])  # the density at 10 underflows to 0 in double precision
    assert multivariate_normal(0.4, 0.01).pdf(10.0) == 0.0
    np.testing.assert_array_equal(group_function(far) == FLOOR, [True, False])


def test_group_function_value_and_centres_as_the_authors_define_them():
    # s^2 = 0.01 d^0.1 is a variance: f*_3 = log(0.8 (2 pi s^2)^(-3/2)), about 3.76
    s2 = 0.01 * 3 ** 0.1
    assert group_optimum(3) == pytest.approx(np.log(0.8 * (2 * np.pi * s2) ** -1.5), abs=1e-12)
    assert group_optimum(3) == pytest.approx(3.76, abs=0.005)
    np.testing.assert_array_equal(group_argmax(5), [0.18, 0.58, -0.19, -0.19, -0.19])
    np.testing.assert_array_equal(group_argmax(1), [0.4])
    # the printed eq. 7 (s^2 read as a bandwidth h, h^2 in the exponent, no minus sign) is not this function
    h = np.sqrt(s2)
    printed = np.log(sum(w * np.exp(+((group_argmax(3) - c) ** 2).sum() / h ** 2) for c, w in zip(*mixture(3)[:2])))
    assert abs(printed - group_optimum(3)) > 10


@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_group_optimum_is_not_beaten_by_local_search(d):
    rng = np.random.default_rng(0)
    best = group_optimum(d)
    starts = np.vstack([group_argmax(d) + 0.01 * rng.standard_normal((5, d)), rng.uniform(-1, 1, (20, d))])
    for x0 in starts:
        res = minimize(lambda x: -group_function(x[None])[0], x0, bounds=[(-1, 1)] * d, method="L-BFGS-B")
        assert -res.fun <= best + 1e-12
    # negative control: a point off the mode is measurably worse
    assert group_function((group_argmax(d) + 0.05)[None])[0] < best - 0.1


def test_composite_optimum_groups_and_irrelevant_coordinates():
    problem = get_benchmark("add-3modal", 10, group_dim=3, perm_seed=4)
    groups = problem.meta["groups"]
    assert len(groups) == 3 and all(len(g) == 3 for g in groups)
    assert len(problem.meta["irrelevant"]) == 1 and sorted(sum(groups, []) + problem.meta["irrelevant"]) == list(range(10))
    assert problem.optimum == pytest.approx(3 * group_optimum(3), abs=1e-12)
    assert problem.fn(problem.argmax)[0] == pytest.approx(problem.optimum, abs=1e-12)
    # the irrelevant coordinate does not change f; a relevant one does
    X = np.random.default_rng(0).uniform(-1, 1, (50, 10))
    Y = X.copy()
    Y[:, problem.meta["irrelevant"][0]] = -X[:, problem.meta["irrelevant"][0]]
    np.testing.assert_array_equal(problem.fn(X), problem.fn(Y))
    Y[:, groups[0][0]] *= -1
    assert np.abs(problem.fn(X) - problem.fn(Y)).max() > 1
    # additive: f = sum of the group function on each group, coordinates in permutation order
    ref = sum(group_function(X[:, g]) for g in groups)
    np.testing.assert_allclose(problem.fn(X), ref, rtol=1e-12)
    # random points stay below f*; unit-cube centre maps to the origin of [-1, 1]^D
    assert problem.fn(X).max() < problem.optimum
    np.testing.assert_array_equal(problem.to_native(np.full(10, 0.5)), np.zeros((1, 10)))


def test_composite_is_deterministic_per_seed_and_differs_across_seeds():
    a, b = (get_benchmark("add-3modal", 24, group_dim=6, perm_seed=7) for _ in range(2))
    c = get_benchmark("add-3modal", 24, group_dim=6, perm_seed=8)
    X = np.random.default_rng(1).uniform(-1, 1, (20, 24))
    np.testing.assert_array_equal(a.fn(X), b.fn(X))
    assert a.meta["groups"] == b.meta["groups"] != c.meta["groups"]
    assert not np.allclose(a.fn(X), c.fn(X))
    assert additive_groups(40, 35, 0) == get_benchmark("add-3modal", 40, group_dim=35).meta["groups"]


def test_bad_group_dimension_names_the_range():
    with pytest.raises(ValueError, match=r"group_dim must be in 1\.\.10"):
        get_benchmark("add-3modal", 10, group_dim=11)


def test_additive_gp_draw_is_a_sum_over_its_groups_with_a_certified_maximum():
    """add-gp-draw (Theorem 5's setting): f changes only through its groups' coordinates, one group at a
    time additively; its optimum is the sum of per-group maxima, which a dense grid per group does not beat
    and the stated argmax attains. Negative control: a function with an interaction across two groups
    fails the additivity identity."""
    problem = get_benchmark("add-gp-draw", 8, draw_seed=1)
    again = get_benchmark("add-gp-draw", 8, draw_seed=1)
    groups = problem.meta["groups"]
    assert sorted(i for g in groups for i in g) == list(range(8)) and all(len(g) == 2 for g in groups)
    X = np.random.default_rng(0).random((5, 8))
    np.testing.assert_array_equal(problem(X), again(X))
    assert problem.fn(problem.argmax)[0] == pytest.approx(problem.optimum, abs=1e-10)

    def additivity_gap(fn):
        """f(a) + f(b) - f(mix) - f(mix'), mixing the first two groups of a and b: 0 for an additive f."""
        a, b = np.random.default_rng(1).random((2, 8))
        mix, mix2 = a.copy(), b.copy()
        mix[groups[0]], mix2[groups[0]] = b[groups[0]], a[groups[0]]
        return float(fn(a[None])[0] + fn(b[None])[0] - fn(mix[None])[0] - fn(mix2[None])[0])

    assert abs(additivity_gap(problem.fn)) < 1e-10
    g0, g1 = groups[0][0], groups[1][0]
    assert abs(additivity_gap(lambda Z: problem.fn(Z) + np.sin(3 * Z[:, g0] * Z[:, g1]))) > 1e-3
    # each group's maximum against a 201 x 201 grid, the other groups held at their maximiser
    axis = np.linspace(0, 1, 201)
    grid = np.column_stack([a.ravel() for a in np.meshgrid(axis, axis)])
    for g in groups:
        Z = np.repeat(problem.argmax, len(grid), axis=0)
        Z[:, g] = grid
        assert problem.fn(Z).max() <= problem.optimum + 1e-9
