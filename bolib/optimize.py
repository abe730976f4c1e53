"""A front door for a user's own problem: ``bolib.minimize`` / ``bolib.maximize``.

In the style of scikit-optimize's ``gp_minimize``: give a function of one point in your own units and
a box, get back the best point in your units, every evaluation, and the optimiser itself.

    >>> import bolib
    >>> res = bolib.minimize(lambda x: (x[0] - 0.3) ** 2 + x[1] ** 2, [(-1, 1), (-2, 2)],
    ...                      method="gp-ei", budget=30, seed=0)
    >>> res.x, res.fun                               # doctest: +SKIP
    >>> bolib.plot_convergence(res)                  # doctest: +SKIP

Any registered method (``python -m bolib list``) works; extra keyword arguments are its settings.
The method works on the unit cube and maximises; this module maps to and from the box and flips the
sign for minimisation. The first ``n_init`` points (default max(5, 2 d)) come from the method's own
scrambled Sobol design. A value that is not a finite number stops the run with
:class:`ObjectiveError`, which carries everything evaluated before it (``err.result``).
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

import numpy as np

from bolib.errors import BolibError


@dataclasses.dataclass
class OptimizeResult:
    """The outcome of :func:`minimize` / :func:`maximize` (all points in the user's units).

    ``x``, ``fun``: the best point and its value; ``x_iters``, ``func_vals``: every evaluation in
    order; ``sense``: ``"min"`` or ``"max"``; ``optimizer``: the ask/tell object (its data is on the
    unit cube, values to maximise).
    """

    x: np.ndarray
    fun: float
    x_iters: np.ndarray
    func_vals: np.ndarray
    sense: str
    method: str
    seed: int
    optimizer: object = dataclasses.field(repr=False)

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


def _check_bounds(bounds) -> np.ndarray:
    try:
        box = np.asarray(bounds, dtype=float)
    except (TypeError, ValueError) as err:
        raise BolibError(f"bounds must be a sequence of (low, high) pairs, one per dimension; got {bounds!r}") from err
    if box.ndim != 2 or box.shape[1] != 2 or len(box) == 0:
        raise BolibError(f"bounds must be a sequence of (low, high) pairs, one per dimension; got shape {box.shape}")
    if not np.all(np.isfinite(box)):
        raise BolibError(f"bounds must be finite; got {box.tolist()}")
    bad = np.flatnonzero(box[:, 0] >= box[:, 1])
    if len(bad):
        raise BolibError(f"each bound needs low < high; dimension(s) {bad.tolist()} have "
                         f"{[tuple(b) for b in box[bad].tolist()]}")
    return box


def _value(raw, x) -> float:
    """The objective's return value as a float, or an explanation of why it is not one."""
    value = np.asarray(raw, dtype=float) if not isinstance(raw, (str, bytes)) else None
    if value is None or value.size != 1:
        shape = "a string" if value is None else f"shape {value.shape}"
        raise ValueError(f"the objective must return one number; at x = {x.tolist()} it returned {shape}")
    value = float(value.reshape(()))
    if not math.isfinite(value):
        raise ValueError(f"the objective returned {value} at x = {x.tolist()}; bolib does not fit "
                         "non-finite values (return a finite penalty instead)")
    return value


def _optimize(fn: Callable, bounds, sense: str, method: str, budget: int, seed: int,
              n_init: int | None, settings: dict) -> OptimizeResult:
    from bolib.algorithms import make_optimizer

    box = _check_bounds(bounds)
    if int(budget) < 1:
        raise BolibError(f"budget must be a positive number of evaluations; got {budget}")
    lo, width = box[:, 0], box[:, 1] - box[:, 0]
    optimizer = make_optimizer(method, len(box), seed, n_init=n_init, **settings)
    sign = -1.0 if sense == "min" else 1.0
    xs, values = [], []

    def result() -> OptimizeResult | None:
        if not values:
            return None
        vals = np.array(values)
        i = int(np.argmin(vals) if sense == "min" else np.argmax(vals))
        X = np.array(xs)
        return OptimizeResult(X[i], float(vals[i]), X, vals, sense, method, int(seed), optimizer)

    for _ in range(int(budget)):
        u = optimizer.ask(1)[0]
        x = lo + u * width
        try:
            value = _value(fn(x.copy()), x)
        except ValueError as err:
            raise ObjectiveError(f"{err} (evaluation {len(values) + 1} of {budget}; the "
                                 f"{len(values)} before it are in err.result)", result()) from None
        optimizer.tell(u[None], [sign * value])
        xs.append(x)
        values.append(value)
    return result()


def minimize(fn: Callable[[np.ndarray], float], bounds: Sequence[tuple[float, float]], *,
             method: str = "gp-ei", budget: int = 50, seed: int = 0, n_init: int | None = None,
             **settings) -> OptimizeResult:
    """Minimise ``fn(x)`` over the box ``bounds`` by Bayesian optimisation.

    Parameters
    ----------
    fn : the objective: one point (a 1-D array in the box's units) -> one finite number.
    bounds : one ``(low, high)`` pair per dimension.
    method : a registered method (``python -m bolib list``); ``"gp-ei"`` is a GP with expected improvement.
    budget : evaluations of ``fn``, the initial design included.
    seed : fixes the design and every random choice of the method.
    n_init : points of the method's scrambled Sobol design (``None``: max(5, 2 d)).
    **settings : the method's own settings (a setting it does not take raises ``TypeError`` naming it).

    Returns
    -------
    OptimizeResult : ``x`` and ``fun`` (the best point and its value), every evaluation in
    ``x_iters`` and ``func_vals``, and the ask/tell ``optimizer``. A non-finite value of ``fn`` raises
    :class:`ObjectiveError`, whose ``result`` holds the evaluations before it.

    Examples
    --------
    >>> import bolib
    >>> res = bolib.minimize(lambda x: (x[0] - 0.3) ** 2 + x[1] ** 2, [(-1, 1), (-2, 2)], budget=12, seed=0)
    >>> res.x.shape, len(res.func_vals), bool(res.fun <= res.func_vals[:6].min())
    ((2,), 12, True)
    """
    return _optimize(fn, bounds, "min", method, budget, seed, n_init, settings)


def maximize(fn: Callable[[np.ndarray], float], bounds: Sequence[tuple[float, float]], *,
             method: str = "gp-ei", budget: int = 50, seed: int = 0, n_init: int | None = None,
             **settings) -> OptimizeResult:
    """Maximise ``fn(x)`` over the box ``bounds``: :func:`minimize`'s parameters and result, with
    ``fun`` the largest value found."""
    return _optimize(fn, bounds, "max", method, budget, seed, n_init, settings)


def plot_convergence(result: OptimizeResult, ax=None, **kwargs):
    """Best value so far against the number of evaluations (one run); returns the axes."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 3))
    n = np.arange(1, len(result.func_vals) + 1)
    ax.plot(n, result.func_vals, ".", color="0.6", label="evaluations")
    ax.plot(n, result.best_so_far, label=f"best so far ({result.method})", **kwargs)
    ax.set_xlabel("evaluation")
    ax.set_ylabel("minimum found" if result.sense == "min" else "maximum found")
    ax.legend()
    return ax
