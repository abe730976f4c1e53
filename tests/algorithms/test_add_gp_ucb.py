"""Paper 002's optimisers (bolib.algorithms.add_gp_ucb): the additive posterior they use, the separable
acquisition maximisation, decomposition learning, the beta schedules, Alg. 5's round robin and the
DIRECT baseline."""
import itertools
import math

import numpy as np
import pytest
import torch
from scipy.optimize import Bounds, direct

from bolib.algorithms import make_optimizer
from bolib.algorithms.add_gp_ucb import beta_practical, beta_theory, direct_maximize, group_ucb
from bolib.benchmarks import get_benchmark
from bolib.loop import Trace, bo_job
from bolib.models import GP

GROUPS = [[0, 2], [1, 3]]


def _additive(X):
    return np.sin(4 * X[:, 0]) * np.cos(3 * X[:, 2]) + np.cos(5 * X[:, 1] - 2 * X[:, 3]) * X[:, 3]


def _fitted(groups=GROUPS, n=40, seed=0):
    X = np.random.default_rng(seed).random((n, 4))
    return GP("rbf", groups=groups, tie="all", noise=1e-3).fit(X, _additive(X))


def test_components_sum_to_the_full_mean_and_their_stds_bound_the_full_std():
    gp = _fitted()
    Xc = np.random.default_rng(1).random((500, 4))
    means, stds = gp.predict_groups(Xc)
    mean, std = gp.predict(Xc)
    assert np.abs(means.sum(0) + float(gp.y_mean) - mean).max() < 1e-9  # eq. 5: mu = m + sum_j mu_j
    assert np.all(std <= stds.sum(0) + 1e-12)  # sigma <= sum_j sigma_j (triangle inequality for std)
    # ... while sum_j sigma_j^2 != sigma^2: the components' posterior cross-covariance is not zero
    assert np.abs((stds ** 2).sum(0) - std ** 2).max() > 1e-3 * (std ** 2).max()


@pytest.mark.parametrize("beta", [0.5, 4.0])
def test_fast_group_acquisition_equals_the_gp_group_posterior(beta):
    gp = _fitted()
    Z = np.random.default_rng(2).random((50, 4))
    for j, g in enumerate(GROUPS):
        with torch.no_grad():
            mean, var = gp.group_posterior(j, torch.as_tensor(Z))
        ref = mean.numpy() + beta ** 0.5 * var.sqrt().numpy()
        phi = group_ucb(gp, j, beta)
        np.testing.assert_allclose([phi(z[g]) for z in Z], ref, rtol=1e-9, atol=1e-10)
    # negative control: the other group's acquisition is not this one's
    phi0 = group_ucb(gp, 0, beta)
    assert max(abs(phi0(z[GROUPS[1]]) - r) for z, r in zip(Z, ref)) > 1e-3


def _grid_acquisition(gp, groups, beta, n=12):
    """phi~(x) = sum_j mu_j + beta^{1/2} sigma_j on the n^4 product grid, and each group's values."""
    axis = (np.arange(n) + 0.5) / n
    per_group = []
    for j, g in enumerate(groups):
        Z = np.array(list(itertools.product(axis, axis)))
        phi = group_ucb(gp, j, beta)
        per_group.append((Z, np.array([phi(z) for z in Z])))
    return axis, per_group


def test_separable_argmax_equals_brute_force_joint_argmax_on_a_grid():
    gp = _fitted()
    beta, n = 2.0, 12
    axis, per_group = _grid_acquisition(gp, GROUPS, beta, n)
    # per group: the argmax of its own term
    x_sep = np.empty(4)
    for g, (Z, values) in zip(GROUPS, per_group):
        x_sep[g] = Z[np.argmax(values)]
    # jointly: all n^4 points of the full grid
    grid = np.array(list(itertools.product(axis, repeat=4)))
    means, stds = gp.predict_groups(grid)
    joint = (means + beta ** 0.5 * stds).sum(0)
    x_joint = grid[np.argmax(joint)]
    np.testing.assert_allclose(x_sep, x_joint)


def test_direct_per_group_reaches_the_grid_maximum():
    gp = _fitted()
    for j, g in enumerate(GROUPS):
        phi = group_ucb(gp, j, 2.0)
        axis = np.linspace(0, 1, 101)
        best_grid = max(phi(np.array(z)) for z in itertools.product(axis, axis))
        z = direct_maximize(phi, 2, 200)
        assert phi(z) >= best_grid - 1e-3 * abs(best_grid)


@pytest.mark.parametrize("seed", [0, 1])
def test_partial_learn_recovers_a_known_decomposition(seed):
    """Marginal likelihood over random groupings (Alg. 2) finds the true pairs of an easy additive f (60
    candidates, so that the truth, one of 15 pairings, is among them)."""
    def learned(truth):
        X = np.random.default_rng(seed).random((60, 6))
        y = sum(np.sin(3 * X[:, a] + 2 * X[:, b]) for a, b in truth)
        opt = make_optimizer("add-gp-ucb", 6, seed, group_dim=2, n_perms=60, n_init=1)
        opt.tell(X, y)
        opt.fit_model()
        return sorted(map(sorted, opt.groups))

    truth = [[0, 3], [1, 4], [2, 5]]
    assert learned(truth) == truth
    # control: the same search on data additive over other pairs follows the data
    other = [[0, 1], [2, 4], [3, 5]]
    assert learned(other) == other


def test_known_decomposition_uses_the_problem_groups_and_needs_them():
    problem = get_benchmark("add-3modal", 8, group_dim=3, perm_seed=2)
    r = bo_job("add-3modal", "add-gp-ucb", 0, 14, dim=8, n_init=10, benchmark_options={"group_dim": 3, "perm_seed": 2},
               settings={"decomposition": "known", "group_evals": 30, "fit_starts": 1})
    assert r["info"]["groups"] == problem.meta["groups"] and r["info"]["refits"][0]["groups"] == problem.meta["groups"]
    trace = Trace.from_dict(r)
    # the coordinate in no group (8 = 2 * 3 + 2) sits at the box centre for every proposal
    assert np.all(trace.X[10:, problem.meta["irrelevant"]] == 0.5)
    with pytest.raises(ValueError, match="needs a problem with meta"):
        bo_job("branin", "add-gp-ucb", 0, 6, n_init=4, settings={"decomposition": "known"})


def test_known_kernel_is_algorithm_1s_fixed_prior_and_is_checked():
    """known_kernel (Alg. 1): the GP has the given bandwidth, per-group variance and noise, prior mean 0 on the raw
    observations, and keeps them through the run (no refit, no stagnation cap); its posterior equals a GP built by
    hand on the same prior. Bad values are refused, naming what is valid."""
    from bolib.errors import BadValueError

    known = {"lengthscale": 0.3, "outputscale": 2.0, "noise": 0.01}
    r = bo_job("add-gp-draw", "add-gp-ucb", 0, 40, dim=6, n_init=5, noise_std=0.1,
               benchmark_options={"group_dim": 2, "draw_seed": 1},
               settings={"decomposition": "known", "beta": "theory", "group_evals": 30, "known_kernel": known})
    assert "refits" not in r["info"] and "stagnation" not in r["info"]
    trace = Trace.from_dict(r)
    opt = make_optimizer("add-gp-ucb", 6, 0, decomposition="known", known_kernel=known)
    opt.prepare(get_benchmark("add-gp-draw", 6, group_dim=2, draw_seed=1))
    opt.tell(trace.X, trace.y)
    gp = opt.fit_model()
    h = gp.hyperparameters
    assert h["lengthscale"][0][0] == pytest.approx(0.3) and h["outputscale"][0] == pytest.approx(2.0)
    assert h["noise"] == pytest.approx(0.01, rel=1e-6) and float(gp.y_mean) == 0.0 and float(gp.y_std) == 1.0
    hand = GP("rbf", groups=opt.groups, tie="all", lengthscale=0.3, outputscale=6.0, noise=0.01, fit=False,
              standardize=False).fit(trace.X, trace.y)
    Z = np.random.default_rng(0).random((5, 6))
    np.testing.assert_allclose(gp.predict(Z)[0], hand.predict(Z)[0], rtol=1e-10)
    for bad, match in [({"decomposition": "full"}, "needs decomposition='known'"),
                       ({"known_kernel": {"lengthscale": 0.3}}, "exactly the keys lengthscale, outputscale, noise"),
                       ({"known_kernel": {**known, "noise": 0.0}}, "finite number > 0"),
                       ({"start_lengthscale": 1e-5}, "apply to a fitted kernel only")]:
        with pytest.raises(BadValueError, match=match):
            make_optimizer("add-gp-ucb", 6, 0, **{"decomposition": "known", "known_kernel": known, **bad})


def test_the_authors_fit_choices_as_settings():
    """prior_mean="zero": the GP sees y / std(y_init), not centred, so far from the data its mean is 0, not mean(y);
    max_lengthscale caps every fit; start_lengthscale holds the bandwidth for the first refit_every proposals (no
    marginal-likelihood fit before n_init + refit_every observations), and every start-phase proposal is a new
    uniform point (the text's "explorative strategy"; DIRECT on the needle-flat eq. 6 would start at the box centre);
    bad values are refused naming what is valid."""
    from bolib.errors import BadValueError, UnknownChoiceError

    options = {"group_dim": 3, "perm_seed": 0, "layout": "shifted"}
    base = {"decomposition": "known", "group_evals": 60}
    zero = bo_job("add-3modal", "add-gp-ucb", 0, 12, dim=6, n_init=10, benchmark_options=options,
                  settings={**base, "prior_mean": "zero"})
    opt = make_optimizer("add-gp-ucb", 6, 0, **base, prior_mean="zero")
    opt.prepare(get_benchmark("add-3modal", 6, **options))
    trace = Trace.from_dict(zero)
    opt.tell(trace.X, trace.y)
    gp = opt.fit_model()
    assert float(gp.y_mean) == 0.0 and float(gp.y_std) == 1.0
    assert opt.y_scale == pytest.approx(np.std(trace.y, ddof=1))  # std of the data at the first fit
    np.testing.assert_allclose(gp.y.numpy().ravel(), trace.y / opt.y_scale, rtol=1e-12)
    flat = GP("rbf", lengthscale=1e-3, fit=False, standardize=False).fit(trace.X, trace.y / opt.y_scale)
    assert abs(float(flat.predict(np.full((1, 6), 0.123))[0][0])) < 1e-9  # prior mean 0 away from the data
    capped = bo_job("add-3modal", "add-gp-ucb", 0, 40, dim=6, n_init=10, benchmark_options=options,
                    settings={**base, "max_lengthscale": 0.05})
    assert all(f["lengthscale"] <= 0.05 + 1e-9 for f in capped["info"]["refits"])
    start = bo_job("add-3modal", "add-gp-ucb", 0, 40, dim=6, n_init=10, benchmark_options=options,
                   settings={**base, "start_lengthscale": 1e-5})
    assert [f["n"] for f in start["info"]["refits"]] == [35]
    X = Trace.from_dict(start).X
    phase = X[10:35]
    assert len(np.unique(phase.round(12), axis=0)) == 25 and np.abs(phase - 0.5).min() > 1e-6
    assert np.all([h["lengthscale"] == 1e-5 for h in start["history"][:25]])
    one = make_optimizer("add-gp-ucb", 6, 0, **base, prior_mean="zero", n_init=5)
    one.prepare(get_benchmark("add-3modal", 6, **options))
    one.tell(trace.X[:10], trace.y[:10])
    with pytest.raises(BadValueError, match="one point at a time"):
        one.ask(2)
    assert len(one.pending) == 0 and one.ask(1).shape == (1, 6)
    for bad, error, match in [({"prior_mean": "mean"}, UnknownChoiceError, "valid choices: data, zero"),
                              ({"max_lengthscale": 0}, BadValueError, "number > 0"),
                              ({"start_lengthscale": float("inf")}, BadValueError, "finite number > 0")]:
        with pytest.raises(error, match=match):
            make_optimizer("add-gp-ucb", 6, 0, **bad)


def test_refits_from_the_last_fit_keep_the_lengthscale_box():
    """Each refit starts from the last fit; on white noise h falls to the box's lower end 1e-3, and the next start
    (moved to 1e-2) must not widen the box: every fit stays in LENGTHSCALE_BOUNDS. A stagnation cap below 1e-2
    does not widen it either: the fit starts at 1e-2 and one that ends above the cap is held there."""
    from bolib.models.kernels import LENGTHSCALE_BOUNDS

    opt = make_optimizer("add-gp-ucb", 6, 0, decomposition="random", group_dim=1, group_evals=30, refit_every=5)
    rng = np.random.default_rng(0)
    X, y = rng.random((60, 6)), rng.standard_normal(60)
    opt.tell(X[:10], y[:10])
    opt.fit_model()
    for n in range(15, 61, 5):
        opt.tell(X[n - 5:n], y[n - 5:n])
        opt.fit_model()
    fits = [f["lengthscale"] for f in opt.info["refits"]]
    assert len(fits) == 11 and min(fits) == pytest.approx(LENGTHSCALE_BOUNDS[0], rel=1e-3)  # the edge is reached
    assert min(fits) >= LENGTHSCALE_BOUNDS[0]
    bounds = [c.lower_bound.item() for name, _, c in opt.gp.model.named_parameters_and_constraints()
              if name.endswith("raw_lengthscale")]
    assert bounds == [pytest.approx(LENGTHSCALE_BOUNDS[0])]
    gp = opt._fit_on(opt.groups, (1e-3, 1.0))
    assert [c.lower_bound.item() for name, _, c in gp.model.named_parameters_and_constraints()
            if name.endswith("raw_lengthscale")] == [pytest.approx(LENGTHSCALE_BOUNDS[0])]
    opt.h_cap = 5e-3
    fitted = opt._hyper(opt._fit_on(opt.groups, (1e-3, 1.0)))[0]
    assert LENGTHSCALE_BOUNDS[0] <= fitted <= 5e-3 + 1e-12
    assert opt._warm_start(1e4) == pytest.approx(1e-2)  # capped, then into the box's inner part
    opt.h_cap = math.inf
    assert opt._warm_start(1e-3) == pytest.approx(1e-2) and opt._warm_start(1e4) == pytest.approx(1e2)


def test_the_authors_direct_fit_stays_in_their_box_and_matches_the_library_optimum():
    """add-gp-ucb-direct-fit fits h and sigma by DIRECT within the authors' boxes (h in [5e-6, 2.5] on the unit cube,
    sigma in [0.03, 30] std(y_init) in observation units, i.e. divided by var(y) in the GP's standardised units),
    the GP it returns holds exactly those values, its evidence is what grouping_log_evidences gives there, above
    the evidence at the centre of the (log) box where DIRECT starts and within 2 nats of the library fit's (L-BFGS-B,
    a wider box): DIRECT stops after about 50 evaluations, as the authors' call does; the stagnation cap lowers the
    box's top; a known kernel is refused, naming what is valid."""
    from bolib.algorithms.add_gp_ucb import grouping_log_evidences
    from bolib.algorithms.add_gp_ucb_direct_fit import H_HIGH, H_LOW, SCALE_BOX
    from bolib.errors import BadValueError

    options = {"group_dim": 3, "perm_seed": 1, "layout": "shifted"}
    problem = get_benchmark("add-3modal", 9, **options)
    X = np.random.default_rng(3).random((60, 9))
    y = problem(X)
    evidence = {}
    for method in ("add-gp-ucb", "add-gp-ucb-direct-fit"):
        opt = make_optimizer(method, 9, 0, decomposition="known", n_init=10)
        opt.prepare(problem)
        opt.tell(X, y)
        gp = opt.fit_model()
        h, s = opt._hyper()
        evidence[method] = grouping_log_evidences(X, y, [opt.groups], h, s, opt.noise_var)[0]
        if method == "add-gp-ucb-direct-fit":
            (h_low, h_high), (s_low, s_high) = opt.fit_box()
            assert (h_low, h_high) == (H_LOW, H_HIGH)
            unit = np.std(y, ddof=1) / np.var(y, ddof=1)  # std(y_init) = std(y): every point told at once
            np.testing.assert_allclose([s_low, s_high], np.array(SCALE_BOX) * unit, rtol=1e-8)
            assert h_low <= h <= h_high and s_low <= s <= s_high
            assert opt.info["fit_box"][0] == opt.fit_box()
            assert gp.log_evidence == pytest.approx(evidence[method], abs=1e-4)
            centre = grouping_log_evidences(X, y, [opt.groups], np.sqrt(h_low * h_high), np.sqrt(s_low * s_high),
                                            opt.noise_var)[0]
            opt.h_cap = 0.01
            assert opt.fit_box()[0] == (H_LOW, 0.01)
            opt.h_cap = 1e-6  # below the authors' lower end: h is held at the cap, only sigma is fitted
            assert opt.fit_box()[0] == (1e-6, 1e-6) and opt._fit_on(opt.groups, (None, None)).hyperparameters[
                "lengthscale"][0][0] == pytest.approx(1e-6)
    assert evidence["add-gp-ucb-direct-fit"] >= evidence["add-gp-ucb"] - 2.0  # about 50 evaluations: a coarse fit
    assert evidence["add-gp-ucb-direct-fit"] > centre  # ... that DIRECT improved beyond its first sample
    with pytest.raises(BadValueError, match="add-gp-ucb"):
        make_optimizer("add-gp-ucb-direct-fit", 9, 0, known_kernel={"lengthscale": 0.1, "outputscale": 1.0, "noise": 0.01})


def test_the_authors_direct_fit_with_partial_learn_scores_groupings_at_the_rotated_fit(monkeypatch):
    """partialLearn with the authors' fit (addGPDecompMargLikelihood.m): DIRECT fits h and sigma on the rotated
    inputs X A_0 (orthogonal: row norms kept) with consecutive groups, the candidate groupings are scored at
    exactly those values, the best is kept and refitted by DIRECT on X; two fit boxes are recorded."""
    import bolib.algorithms.add_gp_ucb as add_module

    problem = get_benchmark("add-3modal", 9, group_dim=3, perm_seed=1, layout="shifted")
    X = np.random.default_rng(5).random((40, 9))
    opt = make_optimizer("add-gp-ucb-direct-fit", 9, 0, decomposition="partialLearn", group_dim=3, n_perms=6,
                         n_init=10)
    opt.prepare(problem)
    opt.tell(X, problem(X))
    fits, scored = [], []
    direct_fit = opt.direct_fit

    def recording_fit(groups, X_fit, y_fit):
        gp = direct_fit(groups, X_fit, y_fit)
        fits.append((groups, X_fit, gp.hyperparameters))
        return gp

    def recording_scores(X_s, y_s, groupings, h, s, noise, standardize):
        out = evidences(X_s, y_s, groupings, h, s, noise, standardize)
        scored.append((groupings, h, s, out))
        return out

    evidences = add_module.grouping_log_evidences
    opt.direct_fit = recording_fit
    # the scoring in AddGPUCB._learn_groups reads add_gp_ucb's global; the DIRECT fit's own evidence calls go
    # through the name its module imported, so only the scoring is recorded
    monkeypatch.setattr(add_module, "grouping_log_evidences", recording_scores)
    opt.fit_model()
    assert len(fits) == 2 and len(opt.info["fit_box"]) == 2
    (blocks, X_rot, rot_hyper), (kept, X_kept, _) = fits
    assert blocks == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert not np.allclose(X_rot, X)
    np.testing.assert_allclose(np.linalg.norm(X_rot, axis=1), np.linalg.norm(X, axis=1))
    assert np.array_equal(X_kept, X) and kept == opt.groups
    [(groupings, h, s, scores)] = scored
    assert h == rot_hyper["lengthscale"][0][0] and s == rot_hyper["outputscale"][0]
    assert tuple(sorted(map(tuple, opt.groups))) == groupings[int(np.argmax(scores))]
    assert opt._hyper() == (fits[1][2]["lengthscale"][0][0], fits[1][2]["outputscale"][0])  # the model: the final fit


def test_beta_schedules():
    # practical: 0.2 d_j log 2t with the group dimension
    assert beta_practical(50, 3) == pytest.approx(0.6 * np.log(100))
    # theory (Thm 5) at t = 100, D = 10: about 94 for Add-2/5 and about 350 for GP-UCB (d = D, M = 1)
    assert beta_theory(100, 5, 2, 10, 0.1) == pytest.approx(93.9, abs=0.1)
    assert beta_theory(100, 1, 10, 10, 0.1) == pytest.approx(348.6, abs=0.3)
    opt = make_optimizer("add-gp-ucb", 10, 0, group_dim=3)
    opt.groups = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert opt.betas(10) == pytest.approx([0.6 * np.log(20)] * 3 + [0.2 * np.log(20)])


def test_buggy_round_robin_changes_one_group_per_step():
    r = bo_job("add-3modal", "add-gp-ucb-buggy", 0, 18, dim=6, n_init=8, benchmark_options={"group_dim": 2},
               settings={"decomposition": "known", "group_evals": 30, "fit_starts": 1})
    X, groups = np.array(r["X"]), r["info"]["groups"]
    for t in range(9, 18):
        changed = [j for j, g in enumerate(groups) if not np.array_equal(X[t, g], X[t - 1, g])]
        # row t is query number t + 1 (t observations before it): only group k = (t + 1) mod M moves
        assert changed in ([(t + 1) % 3], [])
    full = bo_job("add-3modal", "add-gp-ucb", 0, 18, dim=6, n_init=8, benchmark_options={"group_dim": 2},
                  settings={"decomposition": "known", "group_evals": 30, "fit_starts": 1})
    Xf = np.array(full["X"])
    assert max(sum(not np.array_equal(Xf[t, g], Xf[t - 1, g]) for g in groups) for t in range(9, 18)) > 1


def test_direct_search_follows_scipys_direct_sequence():
    fn = lambda x: -float(((x - 0.3) ** 2).sum() + np.sin(7 * x[0]))  # noqa: E731
    seen = []
    direct(lambda x: (seen.append(x.copy()), -fn(x))[1], Bounds(np.zeros(3), np.ones(3)), maxfun=40,
           maxiter=40, eps=1e-4, locally_biased=False)
    opt = make_optimizer("direct", 3, 0, n_init=1)
    design = np.full((1, 3), 0.9)  # a shared design point is not part of DIRECT's sequence
    opt.tell(design, [fn(design[0])])
    for i in range(40):
        x = opt.ask(1)
        np.testing.assert_array_equal(x[0], seen[i])
        opt.tell(x, [fn(x[0])])
    # a batch: DIRECT's next point, then random points
    X = opt.ask(3)
    assert X.shape == (3, 3) and np.all((X >= 0) & (X <= 1))


def test_seq_add_gp_ucb_moves_one_group_per_phase_and_keeps_the_last_query():
    """Alg. 4: during phase j only group j's coordinates change (the rest stay at theta); at the end of
    a phase theta^(j) becomes the phase's last query."""
    r = bo_job("add-3modal", "seq-add-gp-ucb", 0, 8 + 3 * 4, dim=6, n_init=8, benchmark_options={"group_dim": 2},
               settings={"phase_length": 4, "group_evals": 30, "fit_starts": 1})
    X = np.array(r["X"])[8:]
    groups = r["info"]["groups"]
    assert [h["group"] for h in r["history"]] == [groups[k // 4] for k in range(12)]
    for phase, group in enumerate(groups):
        block = X[4 * phase:4 * phase + 4]
        others = [i for i in range(6) if i not in group]
        assert np.ptp(block[:, others], axis=0).max() == 0  # the other coordinates are held at theta
        assert np.ptp(block[:, group], axis=0).max() > 0  # this group moves
        if phase + 1 < len(groups):
            np.testing.assert_array_equal(X[4 * phase + 4, group], block[-1, group])  # theta^(j) <- last query
    assert r["history"][0]["beta"] is None and r["history"][1]["beta"] == pytest.approx(beta_practical(2, 2))


def test_rembo_queries_lie_on_its_random_embedding_and_its_gp_sees_only_its_own_queries():
    opt = make_optimizer("rembo", 12, seed=3, n_init=5, embed_dim=3, acq_evals=40, fit_starts=1)
    fn = lambda X: -((X[:, :2] - 0.3) ** 2).sum(1)  # noqa: E731
    X0 = np.random.default_rng(0).random((5, 12))
    opt.tell(X0, fn(X0))  # a shared initial design: no preimage on the embedding, not in REMBO's GP
    for step in range(6):
        x = opt.ask(1)
        z = opt._asked[x[0].tobytes()]
        y = (2 * z - 1) * np.sqrt(3)
        np.testing.assert_array_equal(x[0], (np.clip(opt.A @ y, -1, 1) + 1) / 2)  # x = p(A y), y in the box
        assert np.all(np.abs(y) <= np.sqrt(3))
        opt.tell(x, fn(x))
        assert len(opt.values) == step + 1
    assert opt.A.shape == (12, 3) and len(opt.y) == 11


def test_grouping_scores_equal_the_gp_evidence_of_each_grouping():
    """partialLearn's batched scores (one set of per-coordinate factors for all groupings) against
    GP(...).log_evidence on a model built for each grouping, as the scoring did before, at the values the
    model holds (its noise constraint stores 0.05 as 0.05 + 5e-9)."""
    from bolib.algorithms.add_gp_ucb import grouping_log_evidences, random_groups
    from bolib.models import GP

    rng = np.random.default_rng(3)
    X, y = rng.random((40, 9)), rng.standard_normal(40)
    groupings = [random_groups(9, d, rng) for d in (1, 2, 3, 4, 9) for _ in range(2)]
    for g in groupings:
        gp = GP("rbf", groups=g, tie="all", lengthscale=0.37, outputscale=0.8 * len(g), noise=0.05, fit=False).fit(X, y)
        h, scale = (float(v) for v in (gp.hyperparameters["lengthscale"][0][0], gp.hyperparameters["outputscale"][0]))
        assert grouping_log_evidences(X, y, [g], h, scale, gp.tau)[0] == pytest.approx(gp.log_evidence, abs=1e-9)
    together = grouping_log_evidences(X, y, groupings, 0.37, 0.8, 0.05)
    alone = [grouping_log_evidences(X, y, [g], 0.37, 0.8, 0.05)[0] for g in groupings]
    np.testing.assert_allclose(together, alone, rtol=0, atol=1e-12)
    assert len(set(np.round(together[2:], 6))) > 4  # the groupings do differ in evidence
