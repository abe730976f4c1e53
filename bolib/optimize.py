"""A front door for a user's own problem: ``bolib.minimize`` / ``bolib.maximize``.

In the style of scikit-optimize's ``gp_minimize``: give a function of one point in your own units and
its dimensions (:mod:`bolib.space`: reals, integers, log-uniform ranges, categories), get back the best
point, every evaluation, and the optimiser itself.

    >>> import bolib
    >>> res = bolib.minimize(lambda x: (x[0] - 0.3) ** 2 + x[1] ** 2, [(-1.0, 1.0), (-2.0, 2.0)],
    ...                      n_calls=30, random_state=0)
    >>> res.x, res.fun                               # doctest: +SKIP
    >>> bolib.plot_convergence(res)                  # doctest: +SKIP

The default method is BoTorch's noisy expected improvement (:data:`DEFAULT_METHOD`); any registered
method (``python -m bolib list``) works, and extra keyword arguments are its settings. With
``deterministic=True`` a point the method proposes again is answered from its earlier evaluation, not
evaluated twice.
The method works on the unit cube and maximises; :class:`bolib.space.Space` maps to and from the
user's dimensions and this module flips the sign for minimisation. The first points are ``x0`` (told
with ``y0`` if given, else evaluated), then the method's scrambled Sobol design up to
``n_initial_points`` points in all (default max(5, 2 d)), then the method.

Nothing is lost: an exception raised during the run (by the objective, a callback or the method, or an
interrupt) propagates unchanged, with the run so far on it (``err.result``); a value that is not one finite
number stops the run with :class:`ObjectiveError`, which carries the same. ``checkpoint=path`` writes every evaluation to a JSON file as it happens, and
``resume=path`` continues a run from such a file: the method is rebuilt with the same seed and the saved
evaluations are told again in order (each asked point must match the saved one), so the resumed run
asks what the uninterrupted run would have asked next.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bolib.errors import BolibError
from bolib.space import Space

#: the largest objective value in absolute terms (the squares of values near 1e154 overflow float64)
LARGEST_VALUE = 1e150
#: the format of a checkpoint file (``checkpoint=`` / ``resume=``)
CHECKPOINT_FORMAT = 2
#: the method when none is given: BoTorch's noisy expected improvement, measured against Optuna's
#: GPSampler and scikit-optimize's gp_minimize by ``python -m bolib bench --only front_door``
DEFAULT_METHOD = "botorch-lognei"
#: with ``deterministic=True``: consecutive proposals of evaluated points after which a random point not
#: yet evaluated is evaluated instead (as scikit-optimize does)
REPEATS_BEFORE_RANDOM = 5
#: modules whose warnings during a proposal are not shown (retried acquisition optimisations, jitter added
#: to a covariance matrix: notes on the method's internals, not on the user's problem)
QUIET_MODULES = r"(torch|gpytorch|linear_operator|botorch)(\.|$)"


@dataclasses.dataclass
class OptimizeResult:
    """The outcome of :func:`minimize` / :func:`maximize`, with scikit-optimize's field names.

    ``x``, ``fun``: the best point (in the user's units) and its value; ``x_iters``, ``func_vals``: every
    evaluation in order (``x_iters`` an (n, d) array when every dimension is real, else a list of points);
    ``space``: the :class:`bolib.space.Space`; ``sense``: ``"min"`` or ``"max"``; ``random_state``: the seed
    the run used (drawn and recorded here when none was given); ``optimizer``: the ask/tell object (its data
    on the unit cube, values to maximise); ``models``: its fitted surrogate where it keeps one. Points given
    with ``y0`` come first in ``x_iters`` and ``func_vals``, as in scikit-optimize.
    """

    x: object
    fun: float
    x_iters: object
    func_vals: np.ndarray
    space: Space
    sense: str
    method: str
    random_state: int
    optimizer: object = dataclasses.field(repr=False)

    @property
    def models(self) -> list:
        """The method's fitted surrogate, where it keeps one (``optimizer.gp``; empty otherwise)."""
        model = getattr(self.optimizer, "gp", None)
        return [] if model is None else [model]

    @property
    def best_so_far(self) -> np.ndarray:
        """Best value after each evaluation (running min for ``"min"``, max for ``"max"``)."""
        running = np.minimum.accumulate if self.sense == "min" else np.maximum.accumulate
        return running(self.func_vals)


class ObjectiveError(BolibError, ValueError):
    """The objective returned something that is not one finite number; ``result`` holds what came before."""

    def __init__(self, message: str, result: OptimizeResult | None):
        super().__init__(message)
        self.result = result


def _value(raw, x, source: str = "the objective returned") -> float:
    """The objective's return value (or a ``y0`` value: ``source``) as a float, or an explanation of why it is
    not one."""
    if isinstance(raw, (str, bytes, dict)) or isinstance(raw, complex) or np.iscomplexobj(raw):
        raise ObjectiveError(f"{source} {raw!r} at x = {x!r}, not one real number", None)
    try:
        value = np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        raise ObjectiveError(f"{source} {raw!r} at x = {x!r}, not one real number",
                             None) from None
    if value.size != 1:
        raise ObjectiveError(f"{source} an array of shape {value.shape} at x = {x!r}, not one number",
                             None)
    value = float(value.reshape(()))
    if not math.isfinite(value):
        raise ObjectiveError(f"{source} {value} at x = {x!r}; bolib does not fit non-finite values "
                             "(return a finite penalty instead)", None)
    if abs(value) > LARGEST_VALUE:
        raise ObjectiveError(f"{source} {value:.3g} at x = {x!r}; values beyond +-{LARGEST_VALUE:.0e} "
                             "overflow a GP's arithmetic (their squares exceed the floating-point range): rescale "
                             "the objective, e.g. return its logarithm", None)
    return value


def _count(name: str, value, low: int) -> int:
    """A whole number >= ``low`` (an integral float such as 30.0 is accepted; 10.7 is refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not float(value).is_integer() or value < low:
        raise BolibError(f"{name} must be a whole number >= {low}; got {value!r}")
    return int(value)


def _alias(new_name: str, new, old_name: str, old, default):
    """One of a parameter and its older alias (giving both is an error)."""
    if new is not None and old is not None:
        raise BolibError(f"give {new_name} or its alias {old_name}, not both")
    return new if new is not None else old if old is not None else default


def _seed(random_state) -> int:
    if random_state is None:
        return int(np.random.SeedSequence().entropy % 2 ** 32)
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, (int, np.integer)) \
            or random_state < 0:
        raise BolibError(f"random_state must be a non-negative int, or None for a fresh seed (recorded in the "
                         f"result); got {random_state!r}")
    return int(random_state)


def _points(x0, space: Space) -> list:
    """``x0`` as a list of points (a single point is accepted)."""
    if x0 is None:
        return []
    x0 = list(x0)
    if x0 and not isinstance(x0[0], (list, tuple, np.ndarray)):
        x0 = [x0]
    for x in x0:
        space.to_unit(x)  # refuses a point outside the space, naming it
    return x0


def _meta_tasks(tasks, space: Space, sense: str) -> list[dict]:
    """Previous tasks given in the user's units and sense (``{"X": points, "y": values}`` each), as the
    meta-BO methods take them: points on the unit cube, values to maximise."""
    sign = -1.0 if sense == "min" else 1.0
    try:
        return [{"X": np.array([space.to_unit(x) for x in task["X"]]).reshape(-1, space.n_dims),
                 "y": sign * np.asarray(task["y"], dtype=float)} for task in tasks]
    except (TypeError, KeyError) as err:
        raise BolibError("meta_tasks must be a list of {'X': points in your units, 'y': their values} (an empty "
                         f"list: no previous tasks); {err!r}") from None


def _refuse_problem_only(optimizer, method: str) -> None:
    """Refuse, with what to pass instead, a method whose settings need a benchmark problem or previous tasks."""
    from bolib.algorithms.baselines import GPUCB
    from bolib.algorithms.pem_bo import PEMBO
    from bolib.algorithms.rm_bo import MetaOptimizer

    if (isinstance(optimizer, MetaOptimizer) and optimizer.tasks is None
            or isinstance(optimizer, PEMBO) and optimizer.meta_tasks is None):
        raise BolibError(f"{method} learns from previous tasks: give meta_tasks=[{{'X': points in your units, "
                         "'y': their values}, ...] (an empty list runs it without any)")
    if isinstance(optimizer, GPUCB) and optimizer.beta == "sup":
        raise BolibError("gp-ucb's beta='sup' evaluates a benchmark problem at points outside the budget; give beta "
                         "as a number or a function of t")


def _jsonable(x):
    return x.tolist() if isinstance(x, np.ndarray) else [v.item() if isinstance(v, np.generic) else v for v in x]


def _as_json(value):
    """``value`` as a checkpoint file holds it (tuples become lists), to compare with what a file gives back."""
    return json.loads(json.dumps(value))


def _setting_text(value) -> str:
    """A setting as the checkpoint records it: functions by their qualified name, not their address."""
    if callable(value):
        return f"<function {getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', type(value).__name__)}>"
    return repr(value)


def _check_checkpoint(checkpoint, space: Space) -> None:
    """Refuse, before anything is evaluated, a checkpoint that could not be written: its folder, or
    categories that a JSON file cannot hold."""
    from bolib.errors import check_writable
    from bolib.space import Categorical

    check_writable(Path(checkpoint).resolve().parent, "checkpoint folder")
    for d in space.dimensions:
        if isinstance(d, Categorical):
            try:
                json.dumps(list(d.categories))
            except (TypeError, ValueError):
                raise BolibError(f"checkpoint: the categories {list(d.categories)!r} cannot be written to a JSON "
                                 "file; use strings or numbers as categories, or run without checkpoint") from None


def _optimize(func: Callable, dimensions, sense: str, method: str, n_calls, n_initial_points, x0, y0, callback,
              random_state, checkpoint, resume, verbose, deterministic: bool, settings: dict) -> OptimizeResult:
    from bolib.algorithms import make_optimizer
    from bolib.runtime import rng

    space = Space(dimensions)
    n_calls = _count("n_calls", n_calls, 1)
    n_init = None if n_initial_points is None else _count("n_initial_points", n_initial_points, 1)
    seed = _seed(random_state)
    callbacks = [] if callback is None else list(callback) if isinstance(callback, (list, tuple)) else [callback]
    if not all(callable(c) for c in callbacks):
        raise BolibError(f"callback must be a callable or a list of callables; got {callback!r}")
    x0 = _points(x0, space)
    y0 = None if y0 is None else list(np.atleast_1d(np.asarray(y0, dtype=float)))
    if y0 is not None and len(y0) != len(x0):
        raise BolibError(f"y0 needs one value per point of x0: {len(x0)} points, {len(y0)} values")
    if y0 is None and len(x0) > n_calls:
        raise BolibError(f"x0 has {len(x0)} points to evaluate but n_calls is {n_calls}: raise n_calls to at least "
                         f"{len(x0)}, or give their values as y0")
    _check_settings(method, settings)
    if settings.get("meta_tasks") is not None:
        settings = {**settings, "meta_tasks": _meta_tasks(settings["meta_tasks"], space, sense)}
    optimizer = make_optimizer(method, space.n_dims, seed, n_init=n_init, **settings)
    _refuse_problem_only(optimizer, method)
    to_evaluate = len(x0) if y0 is None else 0
    from bolib.algorithms.baselines import RandomSearch

    modelled = not (optimizer.proposes_from_prior or isinstance(optimizer, RandomSearch))
    if modelled and optimizer.n_init >= n_calls + (len(x0) if y0 is not None else 0):
        warnings.warn(f"the initial design ({optimizer.n_init} points) takes the whole budget of {n_calls} "
                      f"evaluations: no model will run; raise n_calls or lower n_initial_points", stacklevel=3)
    sign = -1.0 if sense == "min" else 1.0
    if checkpoint is not None:
        _check_checkpoint(checkpoint, space)
    config = _as_json({"format": CHECKPOINT_FORMAT, "method": method, "random_state": seed, "sense": sense,
                       "space": repr(space), "settings": repr(sorted((k, _setting_text(v)) for k, v in settings.items())),
                       "n_initial_points": n_init, "deterministic": bool(deterministic),
                       "x0": [_jsonable(x) for x in x0], "y0": y0})
    told_x = [np.asarray(x, dtype=float) if space.is_real else list(x) for x in x0] if y0 is not None else []
    told_y = [_value(value, x, f"y0[{i}] is") for i, (x, value) in enumerate(zip(x0, y0))] if y0 is not None else []
    xs, values = [], []
    seen: dict[str, float] = {}  # a point (as text) -> its value, for deterministic=True
    fresh = rng(seed, "front-door", "unevaluated")
    warned_repeat = False

    def result() -> OptimizeResult | None:
        if not values and not told_y:
            return None
        vals = np.array(told_y + values)
        i = int(np.argmin(vals) if sense == "min" else np.argmax(vals))
        X = np.array(told_x + xs) if space.is_real else list(told_x + xs)
        return OptimizeResult(X[i], float(vals[i]), X, vals, space, sense, method, seed, optimizer)

    def record(u, x, value) -> None:
        optimizer.tell(u[None], [sign * value])
        xs.append(x)
        values.append(value)
        seen[repr(_jsonable(x))] = value
        if checkpoint is not None:
            path = Path(checkpoint)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps({**config, "x_iters": [_jsonable(v) for v in xs], "func_vals": values}))
            os.replace(tmp, path)

    def unevaluated():
        """A uniformly random point not evaluated yet (None if 1,000 draws found none)."""
        for u in fresh.random((1000, space.n_dims)):
            if repr(_jsonable(space.from_unit(u))) not in seen:
                return u
        return None

    for x, value in zip(told_x, told_y):  # told, not evaluated, not counted in n_calls; first in x_iters
        u = space.to_unit(x)
        optimizer.tell(u[None], [sign * value])
        seen[repr(_jsonable(space.from_unit(u)))] = value
    saved = _resumed(resume, config) if resume is not None else {"x_iters": [], "func_vals": []}
    progress = _progress(verbose, n_calls)
    repeats = 0
    try:
        while len(values) < n_calls:
            k = len(values)
            u = space.to_unit(x0[k]) if k < to_evaluate else _ask(optimizer)
            x = space.from_unit(u)
            if not deterministic and not warned_repeat and k >= to_evaluate and repr(_jsonable(x)) in seen:
                warned_repeat = True
                warnings.warn(f"the method proposed {_jsonable(x)}, a point evaluated already, and it is evaluated "
                              "again (right for a noisy objective); for an objective that returns the same value at "
                              "the same point, pass deterministic=True to answer such points from memory",
                              stacklevel=3)
            if deterministic and k >= to_evaluate and repr(_jsonable(x)) in seen:
                optimizer.tell(u[None], [sign * seen[repr(_jsonable(x))]])  # answered, not evaluated twice
                repeats += 1
                if repeats < REPEATS_BEFORE_RANDOM:
                    continue
                u = unevaluated()
                if u is None:
                    warnings.warn(f"stopped after {k} evaluations: the method proposes evaluated points only and "
                                  "1,000 random points were all evaluated already (the space may be exhausted)",
                                  stacklevel=3)
                    break
                x = space.from_unit(u)
            repeats = 0
            if k < len(saved["func_vals"]):  # replay of a checkpoint
                if _as_json(_jsonable(x)) != saved["x_iters"][k]:
                    raise BolibError(f"resume: evaluation {k + 1} asks {_jsonable(x)} where the checkpoint has "
                                     f"{saved['x_iters'][k]}; the run cannot be continued identically (other "
                                     "library versions or processor?)")
                record(u, x, float(saved["func_vals"][k]))
            else:
                try:
                    value = _value(func(x.copy() if isinstance(x, np.ndarray) else list(x)), x)
                except BaseException as err:
                    _withdraw(optimizer, u)  # not left pending in err.result.optimizer
                    if isinstance(err, ObjectiveError):
                        raise ObjectiveError(f"{err} (evaluation {len(values) + 1} of {n_calls}; the {len(values)} "
                                             "before it are in err.result)", result()) from None
                    raise
                record(u, x, value)
            progress.update(1)
            res = result()
            if any([bool(c(res)) for c in callbacks]):  # a callback returning a true value stops the run
                break
    except BaseException as err:  # any error or interrupt, the objective's own unchanged, with the run so far
        if getattr(err, "result", None) is None:
            try:
                err.result = result()
            except AttributeError:  # an exception type without attributes: it propagates without the result
                pass
        raise
    finally:
        progress.close()
    return result()


def _withdraw(optimizer, u: np.ndarray) -> None:
    """Record the point ``u``, whose evaluation failed, as failed if the method had it pending (an ``x0``
    point was never asked)."""
    try:
        optimizer.fail(u[None])
    except ValueError:
        pass


#: scikit-optimize's names for what bolib sets otherwise
SKOPT_HINTS = {"n_random_starts": "n_initial_points", "acq_func": "a method: gp-ei, gp-pi, gp-ucb or botorch-lognei",
               "base_estimator": "a method (python -m bolib list)", "noise": "the default method, which fits the noise",
               "acq_optimizer": "the method's own maximiser settings", "n_jobs": "one process per run"}


def method_settings(method: str) -> set[str]:
    """The keyword settings ``method``'s constructors take (its class's and its bases')."""
    import inspect

    from bolib.algorithms import METHODS

    return {p for c in METHODS[method].__mro__ if "__init__" in vars(c)
            for p, par in inspect.signature(c.__init__).parameters.items() if par.kind is par.KEYWORD_ONLY}


def _check_settings(method: str, settings: dict) -> None:
    """Refuse a setting ``method`` does not take, naming the ones it takes (and scikit-optimize's equivalent)."""
    taken = method_settings(method)
    unknown = sorted(set(settings) - taken)
    if unknown:
        hints = "".join(f"; for {k} use {SKOPT_HINTS[k]}" for k in unknown if k in SKOPT_HINTS)
        raise BolibError(f"{method} does not take {', '.join(unknown)}{hints}; its settings: "
                         f"{', '.join(sorted(taken - {'n_init'})) or 'none'}")


def _ask(optimizer) -> np.ndarray:
    """One proposal on the unit cube, with the model libraries' numerical notes silenced and the caller's
    global torch random state left as it was (a method seeds torch from its own stream)."""
    import contextlib
    import sys

    torch = sys.modules.get("torch")
    with warnings.catch_warnings(), (torch.random.fork_rng(devices=[]) if torch else contextlib.nullcontext()):
        warnings.filterwarnings("ignore", module=QUIET_MODULES)
        return optimizer.ask(1)[0]


def _resumed(resume, config: dict) -> dict:
    """The evaluations saved by ``checkpoint=``, after checking that they come from the same set-up."""
    try:
        saved = json.loads(Path(resume).read_text())
    except FileNotFoundError:
        raise BolibError(f"resume: no checkpoint file {resume}") from None
    differs = [k for k in config if saved.get(k) != config[k]]
    if differs:
        raise BolibError(f"resume: the checkpoint {resume} was written by another set-up ({', '.join(differs)} "
                         f"differ: {[(saved.get(k), config[k]) for k in differs]}); give the same method, "
                         "dimensions, settings and random_state")
    return saved


def _progress(verbose: bool, total: int):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="evaluations", disable=not verbose)


#: ``random_state`` not given (its default, 0, differs from ``None``, a fresh seed)
_DEFAULT_STATE = object()


def minimize(func: Callable, dimensions: Sequence, *, method: str = DEFAULT_METHOD, n_calls: int | None = None,
             n_initial_points: int | None = None, x0=None, y0=None, callback=None, random_state=_DEFAULT_STATE,
             checkpoint: str | os.PathLike | None = None, resume: str | os.PathLike | None = None,
             verbose: bool = False, deterministic: bool = False, budget: int | None = None, seed: int | None = None,
             n_init: int | None = None, **settings) -> OptimizeResult:
    """Minimise ``func(x)`` over ``dimensions`` by Bayesian optimisation.

    Parameters
    ----------
    func : the objective: one point -> one finite number. A point is a 1-D float array when every dimension
        is real, else a list (ints and categories as such).
    dimensions : one entry per dimension: ``(low, high)`` (floats: real; ints: integer), ``(low, high,
        "log-uniform")``, a list of categories, or :class:`bolib.space.Real` / ``Integer`` / ``Categorical``.
    method : a registered method (``python -m bolib list``); the default, ``"botorch-lognei"``, is BoTorch's
        GP (noise fitted) with noisy expected improvement; ``"gp-ei"`` is bolib's GP with expected improvement.
    n_calls : evaluations of ``func`` (default 50), the initial design and an unlabelled ``x0`` included
        (alias ``budget``).
    n_initial_points : points before the method's model runs, ``x0`` included (default max(5, 2 d); alias
        ``n_init``).
    x0, y0 : points to start from (one point or a list), and their values if already known (told, not
        evaluated, not counted in ``n_calls``).
    callback : a callable or a list of them, called with the result so far after every evaluation; one that
        returns ``True`` stops the run.
    random_state : fixes the design and every random choice of the method (default 0; ``None``: a fresh
        seed, recorded in the result; alias ``seed``).
    checkpoint : a file to which every evaluation is written as it happens.
    resume : a checkpoint file to continue from (same method, dimensions, settings and seed).
    verbose : a progress bar.
    deterministic : ``True`` for an objective that returns the same value at the same point: a point proposed
        again is told its earlier value instead of being evaluated (not counted in ``n_calls``); after
        :data:`REPEATS_BEFORE_RANDOM` such proposals in a row, a random point not yet evaluated is evaluated.
    **settings : the method's own settings (a setting it does not take raises ``TypeError`` naming it).

    Returns
    -------
    OptimizeResult : ``x`` and ``fun`` (the best point and its value), every evaluation in ``x_iters`` and
    ``func_vals``, the ``space`` and the ask/tell ``optimizer``. An exception raised by ``func``
    propagates with the result so far as ``err.result``; a value that is not one finite number raises
    :class:`ObjectiveError`, whose ``result`` holds the evaluations before it.

    Examples
    --------
    >>> import bolib
    >>> res = bolib.minimize(lambda x: (x[0] - 0.3) ** 2 + x[1] ** 2, [(-1.0, 1.0), (-2.0, 2.0)], n_calls=12,
    ...                      random_state=0)
    >>> res.x.shape, len(res.func_vals), bool(res.fun <= res.func_vals[:6].min())
    ((2,), 12, True)
    """
    return _front_door(func, dimensions, "min", method, n_calls, n_initial_points, x0, y0, callback, random_state,
                       checkpoint, resume, verbose, deterministic, budget, seed, n_init, settings)


def maximize(func: Callable, dimensions: Sequence, *, method: str = DEFAULT_METHOD, n_calls: int | None = None,
             n_initial_points: int | None = None, x0=None, y0=None, callback=None, random_state=_DEFAULT_STATE,
             checkpoint: str | os.PathLike | None = None, resume: str | os.PathLike | None = None,
             verbose: bool = False, deterministic: bool = False, budget: int | None = None, seed: int | None = None,
             n_init: int | None = None, **settings) -> OptimizeResult:
    """Maximise ``func(x)`` over ``dimensions``: :func:`minimize`'s parameters and result, with ``fun`` the
    largest value found."""
    return _front_door(func, dimensions, "max", method, n_calls, n_initial_points, x0, y0, callback, random_state,
                       checkpoint, resume, verbose, deterministic, budget, seed, n_init, settings)


def _front_door(func, dimensions, sense, method, n_calls, n_initial_points, x0, y0, callback, random_state,
                checkpoint, resume, verbose, deterministic, budget, seed, n_init, settings) -> OptimizeResult:
    """Resolve the aliases (``budget``, ``n_init``, ``seed``) and run :func:`_optimize`."""
    if random_state is _DEFAULT_STATE:
        random_state = 0 if seed is None else seed
    elif seed is not None:
        raise BolibError("give random_state or its alias seed, not both")
    return _optimize(func, dimensions, sense, method, _alias("n_calls", n_calls, "budget", budget, 50),
                     _alias("n_initial_points", n_initial_points, "n_init", n_init, None), x0, y0, callback,
                     random_state, checkpoint, resume, verbose, bool(deterministic), settings)


def plot_convergence(*args, ax=None, true_minimum=None, yscale=None, **kwargs):
    """Best value so far against the number of evaluations, with scikit-optimize's call forms: each argument
    is a result, a list of results (their mean curve, each run faintly) or a ``(name, results)`` pair. One
    result also shows its evaluations as dots. ``true_minimum`` draws a line at the known optimum; ``yscale``
    (e.g. ``"log"``) overrides the automatic choice, a log axis when every value is positive and they span
    more than two decades. ``kwargs`` go to the curves. Returns the axes."""
    import matplotlib.pyplot as plt

    if not args:
        raise TypeError("plot_convergence needs at least one result, list of results or (name, results) pair")
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 3))
    shown = []
    for arg in args:
        name, runs = arg if isinstance(arg, tuple) else (None, arg)
        runs = list(runs) if isinstance(runs, (list, tuple)) else [runs]
        if not all(isinstance(r, OptimizeResult) for r in runs):
            raise TypeError(f"plot_convergence takes results of bolib.minimize / maximize, lists of them or "
                            f"(name, results) pairs; got {arg!r}")
        label = name or (f"best so far ({runs[0].method})" if len(runs) == 1 else f"mean best so far ({runs[0].method})")
        if len(runs) == 1:
            n = np.arange(1, len(runs[0].func_vals) + 1)
            if len(args) == 1:
                ax.plot(n, runs[0].func_vals, ".", color="0.6", label="evaluations")
            ax.plot(n, runs[0].best_so_far, label=label, **kwargs)
        else:
            length = min(len(r.func_vals) for r in runs)
            curves = np.array([r.best_so_far[:length] for r in runs])
            n = np.arange(1, length + 1)
            for curve in curves:
                ax.plot(n, curve, color="0.8", lw=0.6)
            ax.plot(n, curves.mean(axis=0), label=label, **kwargs)
        shown.extend(runs)
    if true_minimum is not None:
        ax.axhline(true_minimum, ls="--", color="k", lw=0.8, label="true minimum")
    values = np.concatenate([r.func_vals for r in shown])
    if yscale is not None:
        ax.set_yscale(yscale)
    elif np.all(values > 0) and values.max() / values.min() > 100:
        ax.set_yscale("log")
    ax.set_xlabel("evaluation")
    senses = {r.sense for r in shown}
    ax.set_ylabel("minimum found" if senses == {"min"} else "maximum found" if senses == {"max"} else "best found")
    ax.legend()
    return ax