"""Paper 001 (bolib.papers.gp_ucb_plus): the finite-domain runs of checks C3-C7 and the statistics
its claims are decided on, each with a case that satisfies the claim and one that violates it."""
import numpy as np
import pytest

from bolib.benchmarks import rkhs_function
from bolib.claims import rules
from bolib.models.grid import grid_kernel_matrix, unit_grid
from bolib.papers.gp_ucb_plus import (exponential_vs_power, grid_run, log_factor_exponent, power_log_exponent,
                                      proof_inequalities, slope_gap, spread_per_seed, theorem31_bound,
                                      theorem31_bound_holds, theorem31_exponent, theory_grid_job)
from bolib.runtime import rng
from bolib.stats import doubling_exponent
from bolib.theory import fill_distance_job


@pytest.mark.parametrize("kernel", ["matern05", "matern15", "matern25", "rbf"])
@pytest.mark.parametrize("rule", ["gp-ucb", "gp-ucb+", "exploit+"])
def test_proof_inequalities_hold_exactly(kernel, rule):
    """Check C3 (a)-(d): the deterministic steps of the proofs of Theorems 3.1 and 4.4."""
    grid = unit_grid(201, 1)
    K = grid_kernel_matrix(kernel, grid, 0.2)
    for seed in range(2):
        f = rkhs_function(kernel, 1, rng(seed, "c3"), n_centers=20, lengthscale=0.2)
        norm = f.meta["rkhs_norm"]
        out = grid_run(rule, K, f(grid), 60, seed, beta=norm ** 2, lambdas=(1e-6, 1e-3, 1.0))
        runs = [({"rule": rule}, {**out, "rkhs_norm": norm})]
        holds = proof_inequalities(runs, runs)  # (a) |f - mu| <= ||f|| sigma, (b) sigma_{t,0} <= sigma_{t,lambda},
        assert all(h.all() for h in holds.values())  # (c) r_t <= 2 ||f|| sigma_{t-1}(x_t), (d) r_t <= 2 ||f|| sup sigma
        assert len(holds["C3a"]) == 60 and len(holds["C3b"]) == 3
        assert len(holds["C3c"]) == (0 if rule == "exploit+" else 60) and len(holds["C3d"]) == (0 if rule == "gp-ucb" else 60)


@pytest.mark.parametrize("kernel", ["matern05", "matern15", "matern25", "rbf"])
def test_proof_inequality_checks_catch_violations(kernel):
    """Negative controls of C3a and C3c: the counted quantities detect a violation when there is one.

    (a) with ||f||_H halved the band |f - mu| <= (||f||/2) sigma fails somewhere (the smallest valid
    multiplier, ``rkhs_gap``, lies between ||f||/2 and ||f||); (c) EXPLOIT (beta = 0), which re-queries
    points it already knows (sigma_{t-1}(x_t) = 0) at a local maximum, breaks r_t <= 2 ||f|| sigma_{t-1}(x_t)."""
    grid = unit_grid(201, 1)
    K = grid_kernel_matrix(kernel, grid, 0.2)
    broken_c = 0
    for seed in range(2):
        f = rkhs_function(kernel, 1, rng(seed, "c3"), n_centers=20, lengthscale=0.2)
        norm = f.meta["rkhs_norm"]
        halved = grid_run("gp-ucb+", K, f(grid), 60, seed, beta=(norm / 2) ** 2)
        runs = [({"rule": "gp-ucb+"}, {**halved, "rkhs_norm": norm / 2})]
        assert not proof_inequalities(runs, runs)["C3a"].all()  # (a) with ||f||/2 is violated
        assert norm / 2 < halved["rkhs_gap"].max() <= norm * (1 + 1e-6)
        stuck = grid_run("exploit", K, f(grid), 60, seed, beta=0.0)
        runs = [({"rule": "gp-ucb"}, {**stuck, "rkhs_norm": norm})]  # EXPLOIT counted as a UCB rule
        broken_c += int(np.sum(~proof_inequalities(runs, runs)["C3c"]))
    assert broken_c > 0  # (c) fails without beta


def test_band_coverage_needs_beta():
    """C5-band negative control: the same GP draws with beta = 0 give coverage 'not reproduced'
    through the coverage rule; with the finite-domain beta_t (Srinivas et al., Lemma 5.1), 'reproduced'."""
    def hits(beta):
        return [theory_grid_job("matern25", "exploit+", s, T=20, dim=1, points_per_dim=101, target="gp",
                                beta=beta)["coverage"].max() <= 1e-9 for s in range(20)]

    assert rules.coverage(hits("zero"), 0.9, 0.05).verdict == "not reproduced"
    assert rules.coverage(hits("finite"), 0.9, 0.05).verdict == "reproduced"


def test_power_log_exponent_is_what_doubling_exponent_measures():
    """C4/C6 bounds: on exact curves T^a log^b T the measured last-doubling exponent equals
    power_log_exponent; theorem31_exponent is the case a = 1/2, b = d/2."""
    T = np.arange(1, 201, dtype=float)
    for a, b in ((0.75, 0.25), (0.5, 1.0), (1.0, 0.0)):
        curve = T ** a * np.log(np.maximum(T, 2)) ** b
        assert doubling_exponent(curve)[0] == pytest.approx(power_log_exponent(200, a, b), abs=1e-9)
    assert theorem31_exponent(200, 2) == pytest.approx(power_log_exponent(200, 0.5, 1.0))
    assert power_log_exponent(200, 0.75, 0.0) == pytest.approx(0.75)
    with pytest.raises(ValueError):
        power_log_exponent(3, 0.5)


def test_matern05_bound_separates_the_earlier_rate():
    """C4-gp-ucb+-matern05: the claimed bound, the last-doubling exponent of T^(3/4) log^(1/4) T, is
    met by runs growing at that rate and missed by runs growing at GP-UCB's earlier exponent
    (nu + d)/(2 nu + d) = 5/6 (nu = 1/2, d = 2)."""
    T = np.arange(1, 201, dtype=float)
    bound = (-np.inf, power_log_exponent(200, 0.75, 0.25))
    assert bound[1] < 5 / 6
    noise = np.exp(0.02 * np.random.default_rng(0).standard_normal((12, 1)))
    theorem = doubling_exponent(noise * T ** 0.75 * np.log(np.maximum(T, 2)) ** 0.25)
    earlier = doubling_exponent(noise * T ** (5 / 6))
    assert rules.rate(theorem, bound).verdict == "reproduced"
    assert rules.rate(earlier, bound).verdict == "not reproduced"


def test_slope_gap_separates_quasi_uniform_decay():
    """C7-slope: sup sigma decaying like t^(-a) (Sobol) against (log t / t)^a (i.i.d.) gives a negative
    gap (reproduced against the claimed range below 0); the roles swapped give a positive one."""
    t = np.arange(32, 201, dtype=float)
    stream = np.random.default_rng(0)
    noisy = lambda curve: curve * np.exp(0.01 * stream.standard_normal((10, len(t))))  # noqa: E731
    quasi, iid = noisy(t ** -0.75), noisy((np.log(t) / t) ** 0.75)
    assert rules.rate(slope_gap(t, quasi, iid), (-np.inf, 0.0)).verdict == "reproduced"
    assert rules.rate(slope_gap(t, iid, quasi), (-np.inf, 0.0)).verdict == "not reproduced"


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
        return int(np.sum(~theorem31_bound_holds(_grid_runs("rbf", rule, beta, range(4), lambdas=lambdas), lambdas)))

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
    assert rules.comparison(values, "tight", ["wide"], "lower", "better", 1e-6).verdict == "reproduced"
    assert rules.comparison(values, "wide", ["tight"], "lower", "better", 1e-6).verdict == "not reproduced"


def test_fitted_models_reports_the_noise_fit():
    """§6.1's model table: noise-free fits report a noise SD at the jitter floor, fitted ones a positive noise SD,
    one row per function with the final simple regret of the runs."""
    from bolib.loop import bo_job
    from bolib.papers.gp_ucb_plus_experiments import fitted_models

    runs = [({"benchmark": "ackley", "method": "gp-ei", "seed": s},
             bo_job("ackley", "random", s, 40, dim=3, n_init=10)) for s in range(2)]
    (fn, noise, lengthscale, outputscale, noise_sd, regret), = fitted_models(runs, ["ackley"], noise=0.0)
    (_, fitted, _, _, fitted_sd, fitted_regret), = fitted_models(runs, ["ackley"], noise=None)
    assert (fn, noise, fitted) == ("ackley", "fixed at 0", "fitted")
    assert noise_sd < 1e-3 < fitted_sd and lengthscale > 0 and outputscale > 0
    best = [r["optimum"] - max(r["f"]) for _, r in runs]
    assert regret == fitted_regret == pytest.approx(np.median(best))


def test_grid_run_batch_and_tilted_exploration():
    """Remarks 4.1 and 4.3 in the grid runs: more exploration points per iteration shrink sup sigma faster; the
    tilted P is a different, reproducible draw; bad settings are refused with the valid choices."""
    grid = unit_grid(31, 2)
    K = grid_kernel_matrix("matern15", grid, 0.2)
    f = rkhs_function("matern15", 2, rng(0, "remarks"), n_centers=10, lengthscale=0.2)(grid)
    late_sup = {n: np.mean([grid_run("exploit+", K, f, 40, s, grid=grid, n_explore=n)["sup_sigma"][20:].mean()
                            for s in range(3)]) for n in (1, 3)}
    assert late_sup[3] < 0.9 * late_sup[1]
    tilted = grid_run("exploit+", K, f, 40, 0, grid=grid, exploration="tilted")
    again = grid_run("exploit+", K, f, 40, 0, grid=grid, exploration="tilted")
    uniform = grid_run("exploit+", K, f, 40, 0, grid=grid)
    assert np.array_equal(tilted["sup_sigma"], again["sup_sigma"])
    assert not np.array_equal(tilted["sup_sigma"], uniform["sup_sigma"])
    with pytest.raises(ValueError, match="n_explore must be >= 1"):
        grid_run("exploit+", K, f, 5, 0, grid=grid, n_explore=0)
    with pytest.raises(ValueError, match="pass grid"):
        grid_run("exploit+", K, f, 5, 0, exploration="tilted")
    with pytest.raises(ValueError, match="tilted"):
        grid_run("exploit+", K, f, 5, 0, grid=grid, exploration="beta")


def test_plus_total_floor_bounds_the_plus_methods():
    """R1's feasibility table: the least total of a '+' method is its initial design, half its later queries at random
    search's mean and half at the floor; it lies above the others exactly when they sit at the floor."""
    from bolib.papers.gp_ucb_plus_claims import CONTRAST, METHODS
    from bolib.papers.gp_ucb_plus_experiments import plus_total_floor

    n_init, budget = 2, 6
    at_floor = {m: np.full((3, budget), 0.1) for m in METHODS}
    mse = {**at_floor, "gp-ucb+": np.full((3, budget), 0.3), "exploit+": np.full((3, budget), 0.3),
           CONTRAST: np.full((3, budget), 0.5)}
    rows = dict((m, rest) for m, *rest in plus_total_floor(mse, n_init))
    total, least, others = rows["gp-ucb+"]
    assert total == pytest.approx(1.8) and others == pytest.approx(0.6)
    assert least == pytest.approx(2 * 0.3 + 2 * 0.5 + 2 * 0.1)  # above the others: no '+' method can win here
    mse["gp-ei"] = mse["exploit"] = mse["gp-ucb"] = mse["gp-pi"] = np.full((3, budget), 0.6)
    assert dict((m, rest) for m, *rest in plus_total_floor(mse, n_init))["gp-ucb+"][1] < 3.6  # now it could
