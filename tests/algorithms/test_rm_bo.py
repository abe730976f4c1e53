"""Paper 004: RM-GP-UCB / RM-GP-TS pieces (eq. 5, eq. 6-7, the nu rule) and the optimisers."""
import dataclasses

import numpy as np
import pytest
import torch
from scipy.optimize import minimize

from bolib import acquisition as acq
from bolib.algorithms import make_optimizer
from bolib.algorithms.baselines import GPUCB
from bolib.algorithms.rm_bo import (MetaSchedule, StackedPosterior, gap_estimate, hedge_weights, meta_ucb, nu_step,
                                    practical_beta, ts_draw, ucb_mix)
from bolib.models import GP
from bolib.benchmarks import get_benchmark
from bolib.loop import run


def meta_problem(M=3, N=8, seed=0, shift=0.0):
    """Branin with M previous tasks: Branin itself (plus ``shift``) at N random points each."""
    problem = get_benchmark("branin")
    rng = np.random.default_rng(seed)
    tasks = []
    for i in range(M):
        X = rng.random((N, 2))
        tasks.append({"X": X, "y": problem(X) + shift * i})
    return dataclasses.replace(problem, meta={"tasks": tasks})


def test_gap_identity_max_of_interval_distances():
    """max{|y - U|, |y - L|} = |y - mu| + beta sigma, for U, L = mu +- beta sigma (eq. 5)."""
    rng = np.random.default_rng(0)
    y, mu, sd = rng.normal(size=200), rng.normal(size=200), rng.random(200)
    beta = 1.7
    both = np.maximum(np.abs(y - (mu + beta * sd)), np.abs(y - (mu - beta * sd)))
    for j in range(200):
        assert gap_estimate(y[j:j + 1], mu[j:j + 1], sd[j:j + 1], beta, "max") == pytest.approx(both[j], abs=1e-12)
    assert gap_estimate(y, mu, sd, beta, "mean") == pytest.approx(both.mean())
    assert gap_estimate(y, mu, sd, beta, "max", noise_term=0.3) == pytest.approx(both.max() + 0.3)


@pytest.mark.parametrize("eta", [0.1, 1.0, 5.0])
def test_hedge_weights_solve_the_entropic_ftrl_problem(eta):
    """Eq. 7 = argmin_{w in simplex} w.L + (1/eta) sum w log w (eq. 6), against SLSQP."""
    rng = np.random.default_rng(1)
    L = rng.random((10, 5)).sum(axis=0)  # cumulative losses of M = 5 tasks over 10 rounds

    def objective(w):
        w = np.clip(w, 1e-300, None)
        return w @ L + np.sum(w * np.log(w)) / eta

    res = minimize(objective, np.full(5, 0.2), method="SLSQP", bounds=[(1e-12, 1)] * 5,
                   constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1}], options={"ftol": 1e-14, "maxiter": 500})
    assert np.max(np.abs(hedge_weights(L, eta) - res.x)) < 1e-5


def test_hedge_weights_do_not_underflow():
    w = hedge_weights([1000.0, 1001.0, 5000.0], 5.0)
    assert np.all(np.isfinite(w)) and w.sum() == pytest.approx(1.0) and w[0] > 0.99


def test_nu_never_increases_and_is_capped_by_r():
    rng = np.random.default_rng(2)
    schedule = MetaSchedule(4, r=0.7, eps=0.7)
    nus = [schedule.nu]
    for _ in range(30):
        schedule.update(rng.random(4) * rng.choice([0.01, 1.0, 10.0]))  # weighted gaps below and above 1
        nus.append(schedule.nu)
    nus = np.array(nus)
    assert np.all(nus[1:] <= 0.7 * nus[:-1] + 1e-15)
    assert np.all(nus <= 0.7 ** np.arange(len(nus)) + 1e-15)
    # without the cap the factor (sum w d)^-eps exceeds 1 when the tasks look similar
    assert nu_step(0.5, [1.0], [0.01], r=0.7, eps=0.7) == pytest.approx(0.35)
    assert 0.01 ** -0.7 > 1


def test_fixed_weights_and_constant_nu():
    s = MetaSchedule(3, weights="fixed", nu=0.5)
    w, nu = s.update([0.1, 5.0, 9.0])
    assert np.allclose(w, 1 / 3) and nu == 0.5
    with pytest.raises(ValueError, match="r must lie in"):
        MetaSchedule(2, r=1.0)


@pytest.mark.parametrize("setting, match", [({"eta_n": -1.0}, "eta_n"), ({"eta_n": 0.0}, "eta_n"), ({"eps": 0.0}, "eps"),
                                            ({"tau": -0.5}, "tau"), ({"beta": lambda t: 2.0}, r"beta \(None: beta_t"),
                                            ({"beta": -1.0}, r"beta \(None: beta_t"), ({"beta": float("inf")}, "finite")])
def test_bad_settings_fail_with_a_message_naming_them(setting, match):
    """A negative eta_n would put the weight on the worst tasks, a callable beta is GP-UCB's convention, not this
    one's: each fails at construction, naming the setting and what it accepts."""
    with pytest.raises(ValueError, match=match):
        make_optimizer("rm-gp-ucb", 2, 0, **setting)


def test_eq2_mix_is_the_target_ucb_at_nu_zero_and_the_convex_mix_otherwise():
    meta, target = np.array([1.0, 3.0]), np.array([2.0, 0.0])
    assert ucb_mix(0.0, None, target) is target
    np.testing.assert_allclose(ucb_mix(0.25, meta, target), 0.25 * meta + 0.75 * target)


def test_eq2_meta_term_is_the_weighted_sum_of_the_previous_tasks_ucbs():
    """sum_i w_i (mu_bar_i + tau sigma_bar_i), the same on arrays and tensors; tau multiplies sigma only."""
    mean, sd = np.array([[1.0, 2.0], [3.0, -1.0]]), np.array([[0.5, 0.1], [0.2, 0.4]])
    w = np.array([0.25, 0.75])
    expected = [0.25 * (1.0 + 2 * 0.5) + 0.75 * (3.0 + 2 * 0.2), 0.25 * (2.0 + 2 * 0.1) + 0.75 * (-1.0 + 2 * 0.4)]
    np.testing.assert_allclose(meta_ucb(w, mean, sd, 2.0), expected)
    tensor = meta_ucb(torch.as_tensor(w), torch.as_tensor(mean), torch.as_tensor(sd), 2.0)
    np.testing.assert_allclose(tensor.numpy(), expected)
    assert not np.allclose(meta_ucb(w, mean, sd, 0.0), expected)


def test_eq3_draw_flips_one_coin_then_samples_the_branch_it_picks():
    """With nu = 1 the omega-weighted sum of the previous tasks' samples, drawn in task order; with nu = 0 the target's
    sample and no previous task's; either way the coin is the first number drawn from the generator."""
    calls = []

    def meta_sample(i):
        calls.append(i)
        return np.full(3, float(i + 1))

    def target_sample():
        calls.append("target")
        return np.array([7.0, 8.0, 9.0])

    rng, reference = np.random.default_rng(0), np.random.default_rng(0)
    values, meta = ts_draw(1.0, [0.5, 0.25, 0.25], meta_sample, target_sample, rng)
    assert meta and calls == [0, 1, 2]
    np.testing.assert_allclose(values, 0.5 * 1 + 0.25 * 2 + 0.25 * 3)
    reference.random()
    assert rng.random() == reference.random()  # one number used, the coin
    calls.clear()
    values, meta = ts_draw(0.0, [0.5, 0.5], meta_sample, target_sample, rng)
    assert not meta and calls == ["target"] and values.tolist() == [7.0, 8.0, 9.0]
    coin = np.random.default_rng(3).random()
    assert ts_draw(coin + 1e-12, [1.0], meta_sample, target_sample, np.random.default_rng(3))[1]
    assert not ts_draw(coin, [1.0], meta_sample, target_sample, np.random.default_rng(3))[1]


def test_exact_hedge_penalises_larger_tasks():
    s = MetaSchedule(2, hedge="exact", task_sizes=[10, 30])
    w, _ = s.update([1.0, 1.0])
    assert w[0] > w[1]
    assert np.allclose(MetaSchedule(2, task_sizes=[10, 30]).update([1.0, 1.0])[0], 0.5)


def test_practical_beta():
    assert practical_beta(1, 3) == pytest.approx(np.sqrt(0.2 * 3 * np.log(2)))


def test_rm_gp_ucb_with_nu_zero_is_gp_ucb():
    """Eq. 2 with nu = 0: same acquisition and same proposal as GP-UCB with the same beta_t."""
    problem = meta_problem()
    X0 = np.random.default_rng(3).random((6, 2))
    y0 = problem(X0)
    rm = make_optimizer("rm-gp-ucb", 2, 0, nu=0.0, n_candidates=200, maxiter=20)
    ucb = GPUCB(2, 0, beta=lambda t: practical_beta(t, 2) ** 2, kernel="matern25", ard=True, refit_every=5,
                n_candidates=200, maxiter=20)
    rm.prepare(problem)
    for opt in (rm, ucb):
        opt.tell(X0, y0)
        opt.rng = np.random.default_rng(11)
    x_rm, x_ucb = rm.ask(1), ucb.ask(1)
    np.testing.assert_allclose(x_rm, x_ucb, atol=1e-10)
    assert rm.history[-1]["nu"] == 0.0


def test_rm_gp_ucb_logs_and_uses_meta_tasks_through_the_loop():
    problem = meta_problem(shift=500.0)  # task 0 equals the target, tasks 1-2 are shifted by 500 and 1000
    opt = make_optimizer("rm-gp-ucb", 2, 0, n_init=4, n_candidates=200, maxiter=10)
    trace = run(problem, opt, 9, 0, n_init=4)
    assert len(trace.y) == 9 and len(opt.history) == 5
    first = opt.history[0]
    assert set(first) == {"t", "beta", "gaps", "weights", "nu"} and first["nu"] <= 0.7
    assert np.argmax(opt.history[-1]["weights"]) == 0  # the identical task gets the weight
    assert np.all(np.diff([h["nu"] for h in opt.history]) <= 0)


@pytest.mark.parametrize("method", ["rm-gp-ucb", "rm-gp-ts"])
def test_meta_methods_need_previous_tasks(method):
    opt = make_optimizer(method, 2, 0, n_init=3)
    with pytest.raises(ValueError, match="meta\\['tasks'\\]"):
        opt.prepare(get_benchmark("branin"))
    X = np.random.default_rng(0).random((3, 2))
    opt.tell(X, X.sum(axis=1))
    with pytest.raises(ValueError, match="no previous tasks"):
        opt.ask(1)
    with pytest.raises(ValueError, match="meta-task 0"):
        make_optimizer(method, 2, 0, meta_tasks=[{"X": np.zeros((3, 3)), "y": np.zeros(3)}])


def test_rm_gp_ts_branches_follow_nu():
    problem = meta_problem()
    always_meta = make_optimizer("rm-gp-ts", 2, 0, n_init=4, nu=1.0, n_candidates=100)
    never_meta = make_optimizer("rm-gp-ts", 2, 0, n_init=4, nu=0.0, n_candidates=100)
    for opt in (always_meta, never_meta):
        run(problem, opt, 8, 0, n_init=4)
    assert [h["branch"] for h in always_meta.history] == [["meta"]] * 4
    assert [h["branch"] for h in never_meta.history] == [["target"]] * 4


def test_rm_gp_ts_meta_sample_is_previous_task_i_scaled_by_tau():
    """tau = 0 leaves the posterior mean of task i's GP (eq. 3's scaling acts on the deviation from the mean only)."""
    opt = make_optimizer("rm-gp-ts", 2, 0, n_init=4, tau=0.0, sampler="exact", n_candidates=50)
    opt.prepare(meta_problem(shift=500.0))
    candidates = np.random.default_rng(1).random((20, 2))
    for i, gp in enumerate(opt.meta_gps):
        np.testing.assert_allclose(opt.sample_meta(i, candidates), gp.predict(candidates)[0])
    assert np.all(opt.sample_meta(1, candidates) - opt.sample_meta(0, candidates) > 100.0)  # task 1 is shifted by 500


def test_rm_gp_ts_with_nu_start_zero_never_uses_the_meta_tasks():
    """The public code's initial nu = 0: adaptive nu stays 0, so RM-GP-TS is plain GP-TS."""
    opt = make_optimizer("rm-gp-ts", 2, 0, n_init=4, nu_start=0.0, n_candidates=100)
    run(meta_problem(), opt, 9, 0, n_init=4)
    assert all(h["nu"] == 0.0 and h["branch"] == ["target"] for h in opt.history)


@pytest.mark.parametrize("kernel", ["matern25", "rbf"])
def test_stacked_posterior_equals_each_gp(kernel):
    rng = np.random.default_rng(4)
    gps = []
    for n in (7, 12, 4):
        X = rng.random((n, 3))
        gps.append(GP(kernel, ard=True, starts=1).fit(X, np.sin(5 * X).sum(1) + rng.normal(0, 0.1, n)))
    Xc = torch.as_tensor(rng.random((50, 3)))
    mean, sd = StackedPosterior(gps).posterior(Xc)
    for i, gp in enumerate(gps):
        m, v = gp.posterior(Xc)
        torch.testing.assert_close(mean[i], m.detach(), atol=1e-8, rtol=1e-8)
        torch.testing.assert_close(sd[i], v.detach().clamp_min(0).sqrt(), atol=1e-6, rtol=1e-6)
    # the differentiable path (the maximiser's gradient steps) gives the same values and finite gradients
    Xg = Xc.clone().requires_grad_(True)
    mean_g, sd_g = StackedPosterior(gps).posterior(Xg)
    torch.testing.assert_close(mean_g.detach(), mean, atol=1e-12, rtol=1e-12)
    torch.testing.assert_close(sd_g.detach(), sd, atol=1e-10, rtol=1e-10)
    (mean_g + sd_g).sum().backward()
    assert torch.all(torch.isfinite(Xg.grad)) and Xg.grad.abs().sum() > 0


def test_rff_samples_use_per_dimension_lengthscales():
    """App. D.5 with ARD: a sample varies fast along a short-lengthscale axis and hardly along a long one."""
    rng = np.random.default_rng(5)
    X = rng.random((10, 2))
    gp = GP("rbf", ard=True, lengthscale=[0.05, 5.0], outputscale=1.0, noise=0.01, fit=False,
            standardize=False).fit(X, np.zeros(10))
    opt = make_optimizer("rm-gp-ts", 2, 0, meta_tasks=[])
    line = np.linspace(0, 1, 200)
    along0 = np.column_stack([line, np.full(200, 0.5)])
    along1 = np.column_stack([np.full(200, 0.5), line])
    spread0 = np.mean([np.ptp(opt.sample(gp, along0, 1.0)) for _ in range(20)])
    spread1 = np.mean([np.ptp(opt.sample(gp, along1, 1.0)) for _ in range(20)])
    assert spread0 > 10 * spread1


def test_meta_gps_standardise_each_task_unless_asked_not_to():
    """meta_standardize=False fits each previous task's GP on its raw outputs with a zero prior mean (the authors' code), the
    default on the task's standardised outputs: each is the library GP with that setting, and the two differ."""
    X = np.random.default_rng(0).random((12, 2))
    y = 10.0 + np.sin(6 * X[:, 0])
    far = np.array([[0.95, 0.95], [0.5, 0.02]])
    means = {}
    for standardize in (True, False):
        opt = make_optimizer("rm-gp-ucb", 2, seed=0, meta_tasks=[{"X": X, "y": y}], meta_standardize=standardize)
        reference = GP("matern25", ard=True, hyperprior="none", seed=0, standardize=standardize).fit(X, y)
        means[standardize] = opt.meta_gps[0].predict(far)[0]
        np.testing.assert_allclose(means[standardize], reference.predict(far)[0])
    assert not np.allclose(means[True], means[False])


def test_rm_gp_ts_maximises_its_rff_sample_path_with_the_shared_maximiser():
    """The point proposed is the multi-start L-BFGS-B maximiser (the GP methods' own, same settings) of the
    drawn random-feature path (App. D.5): replaying the coin and the draw gives the same point, a point above
    the best of the uniform candidates the maximiser started from. A path takes numpy arrays and tensors alike,
    and a weighted sum of paths is the weighted sum of their values."""
    problem = meta_problem()
    opt = make_optimizer("rm-gp-ts", 2, 0, n_init=4, nu=0.0)
    run(problem, opt, 6, 0, n_init=4)
    state = opt.rng.bit_generator.state
    proposed = opt.propose(1)[0]
    opt.rng.bit_generator.state = state
    opt.rng.random()  # the coin of eq. 3
    path = opt.sample_path(opt.gp, 1.0)
    state = opt.rng.bit_generator.state
    replayed, value = acq.maximize(path, 2, opt.rng, n_candidates=opt.n_candidates, n_starts=opt.n_starts,
                                   extra_starts=opt.best_rows(opt.n_best_starts), maxiter=opt.maxiter)
    np.testing.assert_allclose(proposed, replayed, atol=1e-12)
    opt.rng.bit_generator.state = state
    assert value > path(opt.rng.random((opt.n_candidates, 2))).max()
    grid = np.random.default_rng(7).random((5, 2))
    np.testing.assert_allclose(path(torch.as_tensor(grid)).numpy(), path(grid), rtol=1e-12)
    other = opt.sample_path(opt.gp, 1.0)
    np.testing.assert_allclose((0.25 * path + np.float64(0.75) * other)(grid),
                               0.25 * path(grid) + 0.75 * other(grid), rtol=1e-12)
    np.testing.assert_allclose((0.0 + path)(grid), path(grid), rtol=0)
