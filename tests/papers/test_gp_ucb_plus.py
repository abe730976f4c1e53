"""Paper 001 (bolib.papers.gp_ucb_plus): the finite-domain runs of checks C3-C7 and the statistics
its claims are decided on, each with a case that satisfies the claim and one that violates it."""
import numpy as np
import pytest

from bolib.benchmarks import rkhs_function
from bolib.claims import rules
from bolib.models.grid import grid_kernel_matrix, unit_grid
from bolib.papers.gp_ucb_plus import (exponential_vs_power, grid_run, log_factor_exponent, spread_per_seed,
                                      theorem31_bound, theory_grid_job)
from bolib.runtime import rng
from bolib.stats import doubling_exponent
from bolib.theory import fill_distance_job


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


# ------------------------------------------------------------------ statistics of the claims, with negative controls
SIZES = 2 ** np.arange(4, 11)


def _designs(law, dim, reps=30, seed=0):
    noise = np.exp(0.05 * np.random.default_rng(seed).standard_normal((reps, len(SIZES))))
    return law(SIZES.astype(float)) ** (1 / dim) * noise


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_log_factor_exponent_separates_random_from_quasi_uniform(dim):
    """C1: (log n / n)^(1/d) gives e = 1/d (reproduced, quasi-uniform contrast outside); n^(-1/d) gives
    e = 0, not reproduced."""
    claimed = (1 / (2 * dim), 2 / dim)
    iid = log_factor_exponent(SIZES, _designs(lambda n: np.log(n) / n, dim), dim)
    quasi = log_factor_exponent(SIZES, _designs(lambda n: 1 / n, dim, seed=1), dim)
    assert abs(iid.mean() - 1 / dim) < 0.05 and abs(quasi.mean()) < 0.05
    assert rules.rate(iid, claimed, contrast=quasi).verdict == "reproduced"
    assert rules.rate(quasi, claimed).verdict == "not reproduced"


def test_log_factor_exponent_on_real_designs():
    """C1 on the designs the notebook uses (d = 1, exact fill distance): i.i.d. inside, Sobol outside."""
    sizes = [2 ** k for k in range(4, 11)]
    uniform = fill_distance_job("uniform", 1, sizes, reps=20, seed=0)
    sobol = fill_distance_job("sobol", 1, sizes, reps=20, seed=0)
    decision = rules.rate(log_factor_exponent(sizes, uniform, 1), (0.5, 2.0),
                          contrast=log_factor_exponent(sizes, sobol, 1))
    assert decision.verdict == "reproduced", decision.measured


def test_exponential_vs_power_separates_the_laws():
    """C2-rbf: exp(-c/h) data give a positive statistic (reproduced); an h^3 power law, which decays
    fast too, gives a negative one (not reproduced)."""
    stream = np.random.default_rng(0)
    h = np.linspace(0.05, 0.25, 6)
    noise = lambda: np.exp(0.3 * stream.standard_normal(len(h)))  # noqa: E731
    exponential = [exponential_vs_power(h, np.exp(-0.5 / h) * noise()) for _ in range(20)]
    power = [exponential_vs_power(h, h ** 3 * noise()) for _ in range(20)]
    assert rules.rate(exponential, (0.0, np.inf), contrast=power).verdict == "reproduced"
    assert rules.rate(power, (0.0, np.inf)).verdict == "not reproduced"
    with pytest.raises(ValueError):
        exponential_vs_power(h[:2], h[:2])


def _grid_runs(kernel, rule, beta, seeds, T=100, points=201, **extra):
    return [theory_grid_job(kernel, rule, s, T=T, dim=1, points_per_dim=points, beta=beta, **extra) for s in seeds]


def test_theorem31_bound_holds_for_gp_ucb_and_fails_without_beta():
    """C6 invariant (A.2): holds along every GP-UCB run with beta = ||f||^2; EXPLOIT (beta = 0) breaks it."""
    lambdas = (1e-6, 1e-3, 1.0)

    def violations(rule, beta):
        count = 0
        for out in _grid_runs("rbf", rule, beta, range(4), lambdas=lambdas):
            R = np.cumsum(out["regret"])
            count += sum(int(np.sum(R > theorem31_bound(g, lam, out["rkhs_norm"]) + 1e-7))
                         for g, lam in zip(out["info_gain"], lambdas))
        return count

    assert violations("gp-ucb", "rkhs") == 0
    assert violations("exploit", "zero") > 0


def test_theorem31_bound_by_hand():
    gain = np.array([0.5, 0.75])
    expected = np.sqrt(8 * np.array([1, 2]) * 4.0 * gain / np.log(2.0))
    np.testing.assert_allclose(theorem31_bound(gain, 1.0, 2.0), expected)


def test_exploit_contrast_separates_bounded_regret():
    """C4-C6: the bounded-regret claim (exponent <= 0.1) reproduces for EXPLOIT+ against the EXPLOIT
    contrast (no random exploration, stuck at a local maximum), and fails when EXPLOIT is the method."""
    exponent = lambda runs: doubling_exponent(np.array([np.cumsum(o["regret"]) for o in runs]))  # noqa: E731
    plus = exponent(_grid_runs("rbf", "exploit+", "zero", range(6)))
    stuck = exponent(_grid_runs("rbf", "exploit", "zero", range(6)))
    assert rules.rate(plus, (-np.inf, 0.1), contrast=stuck).verdict == "reproduced"
    assert rules.rate(stuck, (-np.inf, 0.1)).verdict == "not reproduced"


def test_spread_per_seed_decides_smaller_spread():
    """B3: a method whose results vary less over seeds reproduces "smaller spread"; reversed, not."""
    stream = np.random.default_rng(0)
    tight, wide = 1 + 0.1 * stream.standard_normal(12), 1 + 2.0 * stream.standard_normal(12)
    values = {"tight": spread_per_seed(tight), "wide": spread_per_seed(wide)}
    assert rules.comparison(values, "tight", ["wide"], "lower").verdict == "reproduced"
    assert rules.comparison(values, "wide", ["tight"], "lower").verdict == "not reproduced"
