"""Paper 000's methods (bolib.algorithms.egp_ts): EGP-TS (Algs. 1, 2) and its baselines of Sec. 6."""
import numpy as np
import pytest

from bolib.algorithms import make_optimizer
from bolib.algorithms.egp_ts import DICTIONARIES, maximize_features
from bolib.benchmarks import get_benchmark
from bolib.loop import run
from bolib.models.rff import RandomFeatures
from bolib.runtime import rng

FAST = {"n_candidates": 200, "n_starts": 1}


def test_feature_maximiser_finds_the_optimum():
    """The analytic gradient it follows is RandomFeatures.value_and_gradient (checked in tests/models/test_rff.py)."""
    stream = rng(0, "max")
    features = RandomFeatures("matern25", 3, 40, stream, 0.3, 2.0)
    theta = stream.standard_normal(features.n_features)
    u = maximize_features(features, theta, stream, n_candidates=2000, n_starts=5)
    dense = stream.random((20000, 3))
    assert features.value_and_gradient(u, theta)[0] >= (features(dense) @ theta).max() - 1e-6


@pytest.mark.parametrize("mode,batch", [("sequential", 1), ("sync", 3), ("async", 3)])
def test_egp_ts_runs_in_every_mode(mode, batch):
    opt = make_optimizer("egp-ts", 2, seed=0, refit_every=6, **FAST)
    trace = run(get_benchmark("branin"), opt, budget=16, seed=0, n_init=5, mode=mode, batch_size=batch)
    assert len(trace.f) == 16 and np.all(np.isfinite(trace.f))
    assert len(opt.history) == 11 and np.isclose(opt.ensemble.weights.sum(), 1.0)
    assert opt.labels == ["rbf", "rbf-ard", "matern15", "matern25"]


def test_rbf11_dictionary_keeps_lengthscales_fixed(wave_data):
    opt = make_optimizer("egp-ts", 2, seed=0, dictionary="rbf11", **FAST)
    X, y = wave_data(15)
    opt.tell(X, y)
    fitted = [1.0 / np.abs(f.omega).mean() for f in opt.ensemble.features]
    assert len(opt.ensemble) == 11
    # the frequency scale follows the fixed lengthscales 10^c (ratio 10 between neighbours)
    assert np.allclose(np.diff(np.log10(fitted)), 1.0, atol=0.35)
    with pytest.raises(ValueError, match="rbf11"):
        make_optimizer("egp-ts", 2, dictionary="five")


def test_lengthscale_units_divide_the_fixed_lengthscales_by_each_input_width(wave_data):
    X, y = wave_data(15)
    members = [("rbf", False, 10.0)]
    widths = {"none": None, "equal": [20.0, 20.0], "mixed": [10.0, 40.0]}
    scales = {}
    for name, w in widths.items():
        opt = make_optimizer("egp-ts", 2, seed=0, members=members, lengthscale_units=w, **FAST)
        opt.tell(X, y)
        scales[name] = opt.ensemble.features[0].lengthscale
    np.testing.assert_allclose(scales["none"], [10.0, 10.0])
    np.testing.assert_allclose(scales["equal"], [0.5, 0.5])
    np.testing.assert_allclose(scales["mixed"], [1.0, 0.25])  # an ARD member where the widths differ
    # FB-GP-TS reads its lengthscale box in the same units
    fb = make_optimizer("fb-gp-ts", 2, seed=0, burn_in=20, steps=3, lengthscale_units=[10.0, 40.0])
    fb.tell(X, y)
    ls = fb.ensemble.features[0].lengthscale
    assert ls[0] == pytest.approx(4 * ls[1])
    for bad in ([1.0, 0.0], [1.0, np.inf], [-2.0, 1.0]):
        with pytest.raises(ValueError, match="lengthscale_units"):
            make_optimizer("egp-ts", 2, lengthscale_units=bad)


def test_rf_gp_ts_is_a_single_member_refitted_every_step():
    opt = make_optimizer("rf-gp-ts", 2, seed=0, kernel="matern25", **FAST)
    run(get_benchmark("branin"), opt, budget=9, seed=0, n_init=5)
    assert len(opt.ensemble) == 1 and opt._fitted_at == 9
    assert DICTIONARIES["four"][3] == ("matern25", False, None)


@pytest.mark.parametrize("method", ["bandit-bo", "exp3-bo", "egp-ei", "fb-gp-ts"])
def test_ensemble_baselines_run_and_record_their_member(method):
    extra = {"burn_in": 20, "steps": 3} if method == "fb-gp-ts" else {}
    opt = make_optimizer(method, 2, seed=0, n_candidates=200, n_starts=1, **extra)
    trace = run(get_benchmark("branin"), opt, budget=9, seed=0, n_init=5)
    assert np.all(np.isfinite(trace.f)) and len(opt.history) == 4
    assert all(0 <= h["member"] < (1 if method == "fb-gp-ts" else 4) for h in opt.history)


def test_egp_ei_fits_one_gp_per_member_with_the_noise_setting(wave_data):
    opt = make_optimizer("egp-ei", 2, seed=0, noise=1e-3, n_candidates=100, maxiter=10)
    assert not hasattr(opt, "gp") and len(opt.gps) == 4  # no single-kernel GP beside the members
    X, y = wave_data(8)
    opt.tell(X, y)
    opt.ask(1)
    assert all(gp.hyperparameters["noise"] == pytest.approx(1e-3) for gp in opt.gps)
    assert np.isclose(opt.history[-1]["weights"].sum(), 1.0)


def test_exp3_rewards_the_pulled_member(wave_data):
    opt = make_optimizer("exp3-bo", 2, seed=0, horizon=20, n_candidates=100, n_starts=1)
    X, y = wave_data(6)
    opt.tell(X, y)
    x = opt.ask(1)
    m = opt.history[-1]["member"]
    opt.tell(x, [y.max() + 1.0])  # the best value so far: reward 1
    assert opt.log_omega[m] > 0 and np.count_nonzero(opt.log_omega) == 1


def test_fb_gp_ts_draws_hyperparameters_inside_the_prior_box(wave_data):
    from bolib.algorithms.egp_ts import FB_PRIOR

    opt = make_optimizer("fb-gp-ts", 2, seed=0, burn_in=30, steps=5)
    X, y = wave_data(12)
    opt.tell(X, y)
    features = opt.ensemble.features[0]
    assert FB_PRIOR[0, 0] <= features.outputscale <= FB_PRIOR[1, 0]
    assert FB_PRIOR[0, 1] <= features.lengthscale[0] <= FB_PRIOR[1, 1]
    assert FB_PRIOR[0, 2] <= opt.ensemble.models[0].noise <= FB_PRIOR[1, 2]


def test_bo_job_returns_the_weight_history_of_egp_ts_on_a_gp_draw():
    from bolib.benchmarks import get_benchmark
    from bolib.loop import bo_job

    draw = {"kernel": "matern15", "lengthscale": 0.1, "stream": "e8", "n_pairs": 200, "certify": False}
    out = bo_job("gp-draw", "egp-ts", 0, budget=8, n_init=5, settings={"n_candidates": 100, "n_starts": 1},
                 benchmark_options={**draw, "draw_seed": 0})
    weights = np.array([h["weights"] for h in out["history"]])
    assert weights.shape == (3, 4) and np.allclose(weights.sum(1), 1.0)
    U = np.random.default_rng(0).random((5, 2))
    same = get_benchmark("gp-draw", **draw, draw_seed=0)(U)
    assert np.array_equal(same, get_benchmark("gp-draw", **draw, draw_seed=0)(U))
    assert not np.allclose(same, get_benchmark("gp-draw", **draw, draw_seed=1)(U))
