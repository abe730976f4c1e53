"""The ask/tell protocol on a user's own problem: cold start, batches, bad input, the front door."""
import json
import re

import numpy as np
import pytest

import bolib
from bolib.algorithms import COUNT_SETTINGS, METHODS, make_optimizer
from bolib.algorithms.base import Optimizer, default_n_init
from bolib.errors import BadValueError, BolibError


def quadratic(X):
    return -((np.atleast_2d(X) - 0.3) ** 2).sum(axis=1)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_asks_a_batch_of_distinct_points(method):
    opt = make_optimizer(method, 2, seed=0, **METHODS[method].cheap_settings)
    X0 = np.random.default_rng(0).random((6, 2))
    opt.tell(X0, quadratic(X0))
    X = opt.ask(4)
    assert X.shape == (4, 2) and np.all((X >= 0) & (X <= 1))
    assert len(np.unique(X.round(9), axis=0)) == 4, X
    assert len(opt.pending) == 4


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_starts_cold_from_its_own_design(method):
    """No data at all: the first n_init points are a space-filling design, then the method runs."""
    opt = make_optimizer(method, 3, seed=1, **METHODS[method].cheap_settings)
    assert opt.n_init == default_n_init(3) == 6
    for _ in range(opt.n_init + 2):
        X = opt.ask(1)
        opt.tell(X, quadratic(X))
    design = opt.X[: opt.n_init]
    assert np.min(np.linalg.norm(design[:, None] - design[None], axis=-1)[np.triu_indices(6, 1)]) > 0.1
    assert len(np.unique(opt.X.round(9), axis=0)) == len(opt.X)


def test_the_design_counts_observations_told_from_outside():
    opt = make_optimizer("gp-ei", 2, seed=0, n_init=5, **METHODS["gp-ei"].cheap_settings)
    X0 = np.random.default_rng(2).random((3, 2))
    opt.tell(X0, quadratic(X0))
    X = opt.ask(3)  # 2 design points, then one from the model with the design points pending
    assert len(np.unique(X.round(9), axis=0)) == 3
    with pytest.raises(ValueError, match="n_init must be >= 1"):
        make_optimizer("gp-ei", 2, n_init=0)


def test_a_method_with_a_proper_prior_proposes_from_the_first_ask():
    class PriorDraws(Optimizer):
        proposes_from_prior = True

        def propose(self, n):
            return np.full((n, self.dim), 0.5)

    np.testing.assert_array_equal(PriorDraws(2, n_init=0).ask(3), np.full((3, 2), 0.5))
    X = PriorDraws(2, n_init=2).ask(3)  # a design, where one is asked for, still comes first
    assert not np.allclose(X[:2], 0.5) and np.all(X[2] == 0.5)
    with pytest.raises(ValueError, match="n_init must be >= 1"):
        PriorDraws(2, n_init=-1)


@pytest.mark.parametrize("method", ["gp-ucb", "egp-ts"])
def test_readme_example_moves_to_the_optimum(method):
    """The README's example: -(x - 0.3)^2 in 3-D, 25 evaluations from a cold start."""
    opt = make_optimizer(method, 3, seed=0)
    for _ in range(25):
        X = opt.ask(1)
        opt.tell(X, quadratic(X))
    x_best, y_best = opt.best
    print(method, "best", x_best.round(3), y_best)
    assert y_best > -0.01
    assert len(np.unique(opt.X.round(6), axis=0)) >= 20  # it does not sit on one point


def test_tell_refuses_non_finite_values_and_wrong_shapes():
    opt = make_optimizer("gp-ei", 2, seed=0)
    with pytest.raises(ValueError, match="non-finite values \\[nan\\]"):
        opt.tell([[0.1, 0.2]], [np.nan])
    with pytest.raises(ValueError, match="shape"):
        opt.tell([[0.1, 0.2, 0.3]], [1.0])
    assert len(opt.y) == 0


@pytest.mark.parametrize("X", [[[0.1, 1.5]], [[-0.01, 0.2]], [[np.nan, 0.2]], [[0.3, np.inf]]])
def test_tell_refuses_points_outside_the_cube_and_keeps_what_it_had(X):
    opt = make_optimizer("random", 2, seed=0)
    opt.tell([[0.5, 0.5]], [1.0])
    with pytest.raises(ValueError, match="outside the unit cube"):
        opt.tell(X, [2.0])
    assert opt.X.tolist() == [[0.5, 0.5]] and opt.y.tolist() == [1.0]
    assert np.all(np.isfinite(opt.ask(2)))  # asking still works


def test_pending_points_can_be_forgotten_or_failed():
    opt = make_optimizer("gp-ei", 2, seed=0, n_init=2, **METHODS["gp-ei"].cheap_settings)
    X = opt.ask(3)
    assert len(opt.pending) == 3
    opt.tell(X[:1] + 1e-3, [0.0])  # told at other coordinates than asked: the asked point stays pending
    assert len(opt.pending) == 3
    opt.forget(X[0])
    opt.fail(X[1:2])
    assert opt.pending.tolist() == X[2:].tolist()
    assert opt.failed.tolist() == X[1:2].tolist() and len(opt.y) == 1  # a failure is not modelled
    with pytest.raises(ValueError, match="are not pending; the pending points are"):
        opt.forget(X[0])
    assert opt.pending.tolist() == X[2:].tolist()


@pytest.mark.parametrize("beta", [-1.0, float("nan"), float("inf"), "ucb", None])
def test_gp_ucb_refuses_a_bad_beta_at_construction(beta):
    with pytest.raises(ValueError, match="beta"):
        make_optimizer("gp-ucb", 2, seed=0, beta=beta)


@pytest.mark.parametrize("method, setting", [("bore++", "beta"), ("batch-bore-rff", "beta"), ("rm-gp-ucb", "beta"),
                                             ("rm-gp-ucb", "beta_scale"), ("rm-gp-ucb", "tau"), ("rm-gp-ts", "ts_beta"),
                                             ("pem-bo", "beta_scale")])
@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_exploration_weights_must_be_finite_and_non_negative(method, setting, bad):
    with pytest.raises(BadValueError, match=f"{re.escape(setting)}.* must be a finite number >= 0; got {bad!r}"):
        make_optimizer(method, 2, seed=0, **{setting: bad})


@pytest.mark.parametrize("method, setting", [("add-gp-ucb", "group_evals"), ("add-gp-ucb", "n_perms"),
                                             ("seq-add-gp-ucb", "group_evals"), ("seq-add-gp-ucb", "group_dim"),
                                             ("rembo", "acq_evals")])
def test_additive_methods_refuse_non_positive_counts(method, setting):
    with pytest.raises(BadValueError, match=f"{setting} must be"):
        make_optimizer(method, 3, seed=0, **{setting: 0})


def test_gp_ucb_refuses_a_schedule_that_gives_a_bad_beta():
    opt = make_optimizer("gp-ucb", 1, seed=0, beta=lambda t: -float(t), n_init=1,
                         **METHODS["gp-ucb"].cheap_settings)
    opt.tell([[0.5]], [1.0])
    with pytest.raises(ValueError, match="finite number >= 0"):
        opt.ask()


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_refuses_a_count_below_its_least_value_naming_the_range(method):
    from bolib.optimize import method_settings

    taken = sorted(method_settings(method) & set(COUNT_SETTINGS))
    for setting in taken:
        least = COUNT_SETTINGS[setting]
        for bad in (least - 1, least + 0.5):
            with pytest.raises(BadValueError, match=re.escape(f"{method}'s {setting} must be an integer >= {least}")):
                make_optimizer(method, 2, seed=0, **{setting: bad})
    if method in ("gp-ei", "botorch-lognei", "bore", "egp-ts"):
        assert taken, method  # the table covers the methods' own counts


def test_minimize_returns_the_best_point_in_the_users_units():
    res = bolib.minimize(lambda x: (x[0] - 3.0) ** 2 + (x[1] + 20.0) ** 2, [(0.0, 10.0), (-50.0, 0.0)],
                         method="gp-ei", n_calls=25, random_state=0, n_candidates=500)
    assert res.x_iters.shape == (25, 2) and res.func_vals.shape == (25,)
    assert np.all(res.x_iters[:, 0] >= 0) and np.all(res.x_iters[:, 1] <= 0)
    assert res.fun == res.func_vals.min() and np.array_equal(res.x, res.x_iters[np.argmin(res.func_vals)])
    assert res.fun < 1.0, res
    assert np.all(np.diff(res.best_so_far) <= 0)
    up = bolib.maximize(lambda x: -abs(x[0] - 1.0), [(-2.0, 2.0)], method="random", n_calls=10)
    assert up.fun == up.func_vals.max()
    # the older names are aliases: the same run
    old = bolib.maximize(lambda x: -abs(x[0] - 1.0), [(-2.0, 2.0)], method="random", budget=10, seed=0)
    np.testing.assert_array_equal(old.x_iters, up.x_iters)


def test_skopt_dimensions_reach_the_objective_as_ints_floats_and_categories():
    seen = []

    def fn(x):
        seen.append(x)
        units, rate, activation = x
        return (units - 40) ** 2 / 100 + (np.log10(rate) + 3) ** 2 + (activation != "tanh")

    space = [(8, 64), (1e-5, 1e-1, "log-uniform"), ["relu", "tanh", "sigmoid"]]
    res = bolib.minimize(fn, space, method="gp-ei", n_calls=14, random_state=1, n_candidates=300)
    assert all(isinstance(x, list) and type(x[0]) is int and 8 <= x[0] <= 64 and isinstance(x[1], float)
               and 1e-5 <= x[1] <= 1e-1 and x[2] in ("relu", "tanh", "sigmoid") for x in seen)
    assert isinstance(res.x, list) and res.x == seen[int(np.argmin(res.func_vals))] and res.x_iters == seen
    assert {x[2] for x in seen} == {"relu", "tanh", "sigmoid"}
    # log-uniform: about as many draws of the design below 1e-3 as above
    design = [x[1] for x in seen[:6]]
    assert 1 <= sum(r < 1e-3 for r in design) <= 5
    assert res.space.n_dims == 3 and isinstance(res.space.dimensions[0], bolib.Integer)


def test_space_maps_each_value_to_its_own_cell_and_back():
    from bolib.space import Space

    space = Space([bolib.Integer(1, 100, "log-uniform"), (2, 5), ["a", 3, None], (0.5, 2.0, "log-uniform")])
    for x in ([1, 2, "a", 0.5], [100, 5, None, 2.0], [7, 3, 3, 1.0]):
        assert space.from_unit(space.to_unit(x)) == x
    cells = [space.dimensions[1].from_unit(u) for u in np.linspace(0, 1, 400)]
    assert [cells.count(v) for v in (2, 3, 4, 5)] == [100, 100, 100, 100]
    logs = [space.dimensions[0].from_unit(u) for u in np.linspace(0, 1, 1000)]
    assert sum(v <= 10 for v in logs) > 400  # log-uniform: 1..10 take about half of the interval
    with pytest.raises(BolibError, match="not a category"):
        space.to_unit([1, 2, "b", 1.0])
    with pytest.raises(BolibError, match="outside"):
        space.to_unit([1, 2, "a", 3.0])


def test_minimize_bad_input_gets_clear_errors():
    with pytest.raises(BolibError, match="low < high"):
        bolib.minimize(lambda x: 0.0, [(0, 1), (2, 2)])
    with pytest.raises(BolibError, match="a dimension is"):
        bolib.minimize(lambda x: 0.0, [0, 1])
    with pytest.raises(ValueError, match="valid choices: .*gp-ei"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], method="gp-eii")
    with pytest.raises(BolibError, match="one number"):
        bolib.minimize(lambda x: np.array([1.0, 2.0]), [(0.0, 1.0)], method="random")
    with pytest.raises(BolibError, match="n_calls must be a whole number"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], n_calls=10.7)
    with pytest.raises(BolibError, match="random_state must be"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], random_state="zero")
    with pytest.raises(BolibError, match="not both"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], n_calls=5, budget=5)
    with pytest.raises(BolibError, match="log-uniform dimension needs low > 0"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0, "log-uniform")])
    with pytest.raises(BolibError, match="prior must be one of uniform, log-uniform"):
        bolib.minimize(lambda x: 0.0, [(0.1, 1.0, "log")])
    with pytest.raises(BolibError, match="one real number"):
        bolib.minimize(lambda x: 1 + 2j, [(0.0, 1.0)], method="random")
    with pytest.raises(BolibError, match="rescale the objective"):
        bolib.minimize(lambda x: 1e160, [(0.0, 1.0)], method="random")
    with pytest.warns(UserWarning, match="takes the whole budget"):
        bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)] * 3, method="gp-ei", n_calls=5)


def test_a_nan_stops_the_run_and_keeps_what_came_before():
    calls = []

    def fn(x):
        calls.append(x)
        return float("nan") if len(calls) == 4 else float(x[0])

    with pytest.raises(bolib.ObjectiveError, match="returned nan .*evaluation 4 of 10") as err:
        bolib.minimize(fn, [(0.0, 1.0)], method="random", n_calls=10)
    assert len(err.value.result.func_vals) == 3
    assert err.value.result.fun == min(float(c[0]) for c in calls[:3])


def test_the_objectives_own_error_propagates_unchanged_with_the_run_so_far():
    class Crash(RuntimeError):
        pass

    def fn(x):
        if len(calls) == 5:
            raise Crash("simulator died")
        calls.append(x)
        return float(x[0])

    calls = []
    with pytest.raises(Crash, match="simulator died") as err:
        bolib.minimize(fn, [(0.0, 1.0)], method="random", n_calls=10)
    assert err.traceback[-1].name == "fn"  # the user's frame is where it was raised
    assert len(err.value.result.func_vals) == 5


def test_x0_y0_callbacks_and_a_fresh_seed():
    told = []
    res = bolib.minimize(lambda x: float((x[0] - 0.2) ** 2), [(0.0, 1.0)], method="gp-ei", n_calls=8,
                         x0=[[0.9]], y0=[0.49], callback=lambda r: told.append(len(r.func_vals)), n_candidates=200)
    # y0's point is told, not evaluated or counted, and comes first in the result, as in scikit-optimize
    assert len(res.func_vals) == 9 and told == list(range(2, 10))
    assert res.x_iters[0, 0] == 0.9 and res.func_vals[0] == 0.49 and res.optimizer.X.shape == (9, 1)
    known = bolib.minimize(lambda x: 5.0, [(0.0, 1.0)], method="random", n_calls=3, x0=[[0.2]], y0=[0.0])
    assert known.fun == 0.0 and known.x[0] == 0.2  # the best point may be one the user already knew
    evaluated = bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=4, x0=[0.75])
    assert evaluated.x_iters[0, 0] == 0.75
    stopped = bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=20,
                             callback=[lambda r: None, lambda r: len(r.func_vals) >= 6])
    assert len(stopped.func_vals) == 6
    numpy_true = bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=20,
                                callback=lambda r: np.int64(len(r.func_vals)) >= 4)  # a numpy bool stops it too
    assert len(numpy_true.func_vals) == 4
    a = bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=3, random_state=None)
    b = bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=3, random_state=a.random_state)
    np.testing.assert_array_equal(a.x_iters, b.x_iters)


def test_meta_bo_methods_take_previous_tasks_in_the_users_units_and_sense():
    def fn(x):
        return float((x[0] - 30.0) ** 2)

    rng = np.random.default_rng(0)
    X = rng.uniform(0.0, 100.0, (12, 1))
    tasks = [{"X": X, "y": [fn(x) for x in X]}]  # the same function, minimised, in the user's units
    res = bolib.minimize(fn, [(0.0, 100.0)], method="rm-gp-ucb", n_calls=8, meta_tasks=tasks, n_candidates=200)
    given = res.optimizer.tasks[0]
    np.testing.assert_allclose(given[0][:, 0], X[:, 0] / 100.0)
    np.testing.assert_allclose(given[1], [-fn(x) for x in X])  # maximised on the cube
    assert res.optimizer.history[-1]["weights"] == [1.0]
    with pytest.raises(BolibError, match="give meta_tasks"):
        bolib.minimize(fn, [(0.0, 100.0)], method="rgpe", n_calls=8)
    with pytest.raises(BolibError, match="beta='sup'"):
        bolib.minimize(fn, [(0.0, 100.0)], method="gp-ucb", beta="sup", n_calls=8)


def test_a_checkpointed_run_resumes_where_it_stopped_and_asks_what_it_would_have(tmp_path):
    def fn(x):
        return float((x[0] - 0.3) ** 2 + x[1] ** 2)

    kwargs = dict(method="gp-ei", random_state=3, n_candidates=200, maxiter=10)
    whole = bolib.minimize(fn, [(0.0, 1.0), (-1.0, 1.0)], n_calls=11, **kwargs)
    path = tmp_path / "run.json"

    def interrupted(x):
        if interrupted.n == 8:
            raise KeyboardInterrupt
        interrupted.n += 1
        return fn(x)

    interrupted.n = 0
    with pytest.raises(KeyboardInterrupt):
        bolib.minimize(interrupted, [(0.0, 1.0), (-1.0, 1.0)], n_calls=11, checkpoint=path, **kwargs)
    assert len(json.loads(path.read_text())["func_vals"]) == 8
    counted = []
    resumed = bolib.minimize(lambda x: counted.append(x) or fn(x), [(0.0, 1.0), (-1.0, 1.0)], n_calls=11,
                             resume=path, checkpoint=path, **kwargs)
    assert len(counted) == 3  # only the evaluations after the checkpoint
    np.testing.assert_array_equal(resumed.x_iters, whole.x_iters)
    with pytest.raises(BolibError, match="another set-up .*random_state"):
        bolib.minimize(fn, [(0.0, 1.0), (-1.0, 1.0)], n_calls=11, resume=path,
                       **{**kwargs, "random_state": 4})


def test_an_error_outside_the_objective_carries_the_run_so_far():
    def callback(res):
        if len(res.func_vals) == 5:
            raise KeyboardInterrupt  # e.g. Ctrl-C, or the user's callback failing

    with pytest.raises(KeyboardInterrupt) as info:
        bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=20, callback=callback)
    assert len(info.value.result.func_vals) == 5

    class Broken(Exception):
        pass

    def ask_fails(self, n=1):
        raise Broken("the method failed")

    import bolib.algorithms.baselines as baselines

    original = baselines.RandomSearch.propose
    baselines.RandomSearch.propose = ask_fails
    try:
        with pytest.raises(Broken) as info:
            bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=10, n_initial_points=3)
    finally:
        baselines.RandomSearch.propose = original
    assert len(info.value.result.func_vals) == 3  # the initial design, evaluated before the method failed


def test_a_checkpoint_that_cannot_be_written_is_refused_before_any_evaluation(tmp_path):
    calls = []
    (tmp_path / "file").write_text("")  # a file where the checkpoint's folder should be
    with pytest.raises(BolibError, match="checkpoint folder"):
        bolib.minimize(lambda x: calls.append(x) or 0.0, [(0.0, 1.0)], method="random", n_calls=3,
                       checkpoint=tmp_path / "file" / "run.json")
    with pytest.raises(BolibError, match="cannot be written to a JSON file"):
        bolib.minimize(lambda x: calls.append(x) or 0.0, [[object(), object()]], method="random", n_calls=3,
                       checkpoint=tmp_path / "run.json")
    assert calls == []


def test_resume_checks_x0_and_y0_and_takes_functions_and_tuple_categories(tmp_path):
    space = [(0.0, 1.0), [("a", 1), ("b", 2)]]

    def fn(x):
        return float(x[0]) + x[1][1]

    def beta(t):
        return 4.0

    kwargs = dict(method="gp-ucb", random_state=0, n_candidates=50, maxiter=5, beta=beta)
    whole = bolib.minimize(fn, space, n_calls=8, x0=[[0.5, ("a", 1)]], y0=[1.5], checkpoint=tmp_path / "r.json",
                           **kwargs)
    again = bolib.minimize(fn, space, n_calls=8, x0=[[0.5, ("a", 1)]], y0=[1.5], resume=tmp_path / "r.json", **kwargs)
    assert again.x_iters == whole.x_iters and list(again.func_vals) == list(whole.func_vals)
    with pytest.raises(BolibError, match="another set-up .*x0"):
        bolib.minimize(fn, space, n_calls=8, resume=tmp_path / "r.json", **kwargs)


def test_the_front_door_keeps_the_users_torch_random_state_and_warns_of_repeated_points():
    import torch

    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    bolib.minimize(lambda x: float((x[0] - 0.3) ** 2), [(0.0, 1.0)], n_calls=6, random_state=0)
    assert torch.equal(torch.rand(3), expected)
    with pytest.warns(UserWarning, match="a point evaluated already.*deterministic=True"):
        bolib.minimize(lambda x: float((x[0] - 2) ** 2), [(0, 3)], method="gp-ei", n_calls=10, random_state=0,
                       n_candidates=50, maxiter=5)


def test_skopt_log_uniform_with_a_base_pem_bo_without_tasks_and_the_models_field():
    from bolib.space import Real, dimension

    assert dimension((1e-5, 1e-1, "log-uniform", 10)) == Real(1e-5, 1e-1, "log-uniform")
    with pytest.raises(BolibError, match="give meta_tasks"):
        bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="pem-bo", n_calls=4)
    res = bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="gp-ei", n_calls=6, n_candidates=50, maxiter=5)
    assert res.models == [res.optimizer.gp]
    assert bolib.minimize(lambda x: float(x[0]), [(0.0, 1.0)], method="random", n_calls=3).models == []


@pytest.mark.slow
@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_listed_method_runs_through_the_front_door_or_is_refused_with_what_to_pass(method):
    """Each method at its cheap settings, 5 evaluations (3 of them the initial design) of a 2-D problem in
    the user's units; the meta-BO methods take one previous task in the same units and sense."""
    def fn(x):
        return float((x[0] - 3.0) ** 2 + (x[1] + 1.0) ** 2)

    space, cheap = [(0.0, 10.0), (-5.0, 5.0)], METHODS[method].cheap_settings
    try:
        res = bolib.minimize(fn, space, method=method, n_calls=5, n_initial_points=3, random_state=0, **cheap)
    except BolibError as err:
        assert "give meta_tasks" in str(err), err
        X = np.random.default_rng(1).uniform([0.0, -5.0], [10.0, 5.0], (6, 2))
        res = bolib.minimize(fn, space, method=method, n_calls=5, n_initial_points=3, random_state=0,
                             meta_tasks=[{"X": X, "y": [fn(x) for x in X]}], **cheap)
    assert len(res.func_vals) == 5 and np.all(np.isfinite(res.func_vals)) and res.fun == res.func_vals.min()


def test_front_door_details_a_skopt_user_meets():
    import skopt.space

    from bolib.space import Categorical, Space

    with pytest.raises(BolibError, match="random does not take acq_func; for acq_func use a method: gp-ei"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], method="random", n_calls=3, acq_func="EI")
    with pytest.raises(BolibError, match="gp-ei does not take meta_tasks; its settings: .*n_candidates"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], method="gp-ei", n_calls=3, meta_tasks=[])
    with pytest.raises(BolibError, match="x0 has 4 points to evaluate but n_calls is 3"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], method="random", n_calls=3, x0=[[0.1], [0.2], [0.3], [0.4]])
    with pytest.raises(BolibError, match=r"y0\[0\] is nan at x = \[0.5\]"):
        bolib.minimize(lambda x: 0.0, [(0.0, 1.0)], method="random", n_calls=3, x0=[[0.5]], y0=[float("nan")])
    assert Categorical([16, 32, 64]).to_unit(np.int64(32)) == Categorical([16, 32, 64]).to_unit(32.0) == 0.5
    assert Categorical(["relu", "tanh"]).to_unit(np.str_("tanh")) == 0.75
    with pytest.raises(BolibError, match="True is not a category"):
        Categorical([1, 2]).to_unit(True)
    space = Space([skopt.space.Real(1e-5, 1e-1, "log-uniform", name="lr"), skopt.space.Integer(1, 32),
                   skopt.space.Categorical(["relu", "tanh"])])
    assert [type(d).__name__ for d in space.dimensions] == ["Real", "Integer", "Categorical"]
    assert space.dimensions[0].prior == "log-uniform" and space.dimensions[0].name == "lr"


def test_a_failed_evaluation_is_not_left_pending():
    def fn(x):
        if fn.n == 4:
            raise RuntimeError("the simulator crashed")
        fn.n += 1
        return float(x[0])

    fn.n = 0
    with pytest.raises(RuntimeError) as info:
        bolib.minimize(fn, [(0.0, 1.0)], method="random", n_calls=8, n_initial_points=2)
    opt = info.value.result.optimizer
    assert len(opt.pending) == 0 and len(opt.failed) == 1 and len(info.value.result.func_vals) == 4


def test_plot_convergence_takes_skopts_call_forms():
    import matplotlib

    matplotlib.use("Agg")
    runs = [bolib.minimize(lambda x: float(x[0] ** 2), [(-1.0, 1.0)], method="random", n_calls=6, random_state=s)
            for s in range(2)]
    assert len(bolib.plot_convergence(*runs).lines) == 2  # one curve each
    ax = bolib.plot_convergence(("random", runs), true_minimum=0.0, yscale="log")
    np.testing.assert_allclose(ax.lines[2].get_ydata(), np.mean([r.best_so_far for r in runs], axis=0))
    assert ax.get_yscale() == "log" and ax.get_legend_handles_labels()[1] == ["random", "true minimum"]
    with pytest.raises(TypeError, match="results of bolib.minimize"):
        bolib.plot_convergence([1, 2])


def test_plot_convergence_draws_the_running_best():
    import matplotlib

    matplotlib.use("Agg")
    res = bolib.minimize(lambda x: float(x[0] ** 2), [(-1.0, 1.0)], method="random", n_calls=8)
    ax = bolib.plot_convergence(res)
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), res.best_so_far)


def test_the_default_method_is_botorchs_noisy_expected_improvement():
    from bolib.algorithms.reference import BoTorchLogNEI
    from bolib.optimize import DEFAULT_METHOD

    res = bolib.minimize(lambda x: float((x[0] - 0.3) ** 2), [(0.0, 1.0)], n_calls=6, random_state=0)
    assert res.method == DEFAULT_METHOD == "botorch-lognei" and type(res.optimizer) is BoTorchLogNEI


def test_a_deterministic_objective_is_not_evaluated_twice_at_one_point(tmp_path):
    """On a grid of 12 points a GP method proposes evaluated points again; with deterministic=True they are
    told their earlier values, so every evaluation is a new point, and the run stops, with a warning, once
    the grid is exhausted. A checkpointed run resumes identically."""
    def fn(x):
        fn.calls.append(tuple(x))
        return float((x[0] - 2) ** 2 + (x[1] - 1) ** 2)

    space, kwargs = [(0, 3), (0, 2)], dict(method="gp-ei", random_state=0, n_candidates=100, maxiter=10)
    fn.calls = []
    bolib.minimize(fn, space, n_calls=12, **kwargs)
    assert len(set(fn.calls)) < 12  # without it, evaluated points come back
    fn.calls = []
    res = bolib.minimize(fn, space, n_calls=12, deterministic=True, checkpoint=tmp_path / "run.json", **kwargs)
    assert len(fn.calls) == 12 == len(set(fn.calls)) and res.fun == 0.0
    fn.calls = []
    resumed = bolib.minimize(fn, space, n_calls=12, deterministic=True, resume=tmp_path / "run.json", **kwargs)
    assert fn.calls == [] and resumed.x_iters == res.x_iters
    with pytest.warns(UserWarning, match="stopped after 12 evaluations: the method proposes evaluated points"):
        more = bolib.minimize(fn, space, n_calls=15, deterministic=True, **kwargs)
    assert len(more.func_vals) == 12
