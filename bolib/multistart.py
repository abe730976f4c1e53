"""The one multistart maximiser of bolib: candidates, then L-BFGS-B from the best of them.

:func:`multistart_maximize` maximises a vectorised function over a box. It

1. evaluates ``n_candidates`` uniform (or scrambled-Sobol) points of the box, plus any given
   ``extra_candidates``, in one vectorised call;
2. ranks them (highest first, NaN last; see :func:`ranking` for ties) and runs
   L-BFGS-B (:func:`scipy.optimize.minimize`, box bounds) from the best ``n_starts`` of them, plus
   any given ``extra_starts``;
3. returns the best point found and its value; the candidates compete too, so the result is never
   worse than the best candidate.

Gradients: an analytic one when ``grad`` is a callable, torch autograd when ``grad="autograd"``
(``fn`` then maps float64 tensors to tensors), else SciPy's finite differences.

Starts are polished one after another as separate problems (``batch=False``), or jointly as one
L-BFGS-B problem over the stacked starts (``batch=True``; the objective is the sum over the
starts, which is separable, so one vectorised call serves all of them). The two modes use the
same candidates and starts but are different optimisations, so their results can differ.

Callers: :func:`bolib.acquisition.maximize` (acquisitions, autograd, batch),
:func:`bolib.algorithms.egp_ts.maximize_features` (random-feature sample paths, analytic gradient)
and :func:`bolib.benchmarks.problem.multistart_maximum` (certified benchmark optima, Sobol
candidates, finite differences).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from scipy.optimize import Bounds, minimize
from scipy.stats import qmc

from bolib.errors import check_choice

SAMPLERS = ("uniform", "sobol")


def unit_cube(dim: int) -> np.ndarray:
    """Bounds of [0, 1]^dim in the (2, dim) form :func:`multistart_maximize` takes."""
    return np.array([np.zeros(dim), np.ones(dim)])


def _check_bounds(bounds) -> tuple[np.ndarray, np.ndarray]:
    b = np.asarray(bounds, dtype=float)
    if b.ndim != 2 or b.shape[0] != 2 or b.shape[1] < 1:
        raise ValueError(f"bounds must have shape (2, d) (lower and upper corners, d >= 1), "
                         f"not {b.shape}")
    if not np.all(np.isfinite(b)):
        raise ValueError("bounds must be finite")
    lo, hi = b
    if np.any(lo > hi):
        raise ValueError(f"every lower bound must be <= its upper bound: {lo} vs {hi}")
    return lo, hi


def _check_count(name: str, value) -> int:
    if isinstance(value, bool) or int(value) != value or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
    return int(value)


def _points(name: str, points, lo, hi) -> np.ndarray:
    """Given points as a (k, d) array inside the box (k may be 0)."""
    d = len(lo)
    if points is None:
        return np.empty((0, d))
    arr = np.asarray(points, dtype=float)
    if arr.size == 0:
        return np.empty((0, d))
    arr = np.atleast_2d(arr)
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"{name} must have shape (k, {d}), not {np.shape(points)}")
    if np.any(arr < lo) or np.any(arr > hi):
        raise ValueError(f"{name} must lie inside the bounds")
    return arr


def _objective(fn, grad, shape):
    """-(sum of fn over the rows of x.reshape(shape)) and its gradient (or None: finite differences)."""
    if grad == "autograd":
        def objective(flat):
            x = torch.tensor(flat.reshape(shape), requires_grad=True)
            total = -fn(x).sum()
            total.backward()
            return float(total.detach()), x.grad.numpy().ravel()
        return objective, True
    if callable(grad):
        def objective(flat):
            values, grads = zip(*(grad(x) for x in flat.reshape(shape)))
            return -float(np.sum(values)), -np.concatenate(grads)
        return objective, True
    return (lambda flat: -float(np.asarray(fn(flat.reshape(shape)), dtype=float).sum())), None


def _evaluate(fn, X: np.ndarray, autograd: bool) -> np.ndarray:
    """fn at the rows of X, as a float array, without gradients."""
    if autograd:
        with torch.no_grad():
            return np.asarray(fn(torch.as_tensor(X)).detach().numpy(), dtype=float).reshape(-1)
    return np.asarray(fn(X), dtype=float).reshape(-1)


def _rank_key(values: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(values), -np.inf, values)


def ranking(values) -> np.ndarray:
    """Indices of ``values`` from the highest to the lowest, NaN last.

    Exact ties are broken the way ``torch.argsort(descending=True)`` breaks them (not by index):
    acquisitions tie often (far from the data the posterior is the prior, so every candidate there
    has the same EI), and this is the order bolib's acquisition maximiser has always used, so the
    results of existing experiments stay the same bit for bit.
    """
    key = _rank_key(np.asarray(values, dtype=float))
    return torch.argsort(torch.as_tensor(key), descending=True).numpy()


def multistart_maximize(fn: Callable, bounds, rng: np.random.Generator, *, n_candidates: int = 2000,
                        n_starts: int = 5, sampler: str = "uniform", extra_candidates=None,
                        extra_starts=None, grad: None | str | Callable = None, maxiter: int | None = None,
                        batch: bool = False) -> tuple[np.ndarray, float]:
    """Maximise ``fn`` over the box ``bounds``; returns ``(x, fn(x))``.

    Parameters
    ----------
    fn : vectorised function, rows of an (n, d) array -> n values (torch tensors in and out when
        ``grad="autograd"``, NumPy arrays otherwise).
    bounds : (2, d) lower and upper corners.
    rng : draws the candidates (``n_candidates x d`` uniforms, or one scrambled Sobol sequence).
    n_candidates : number of drawn candidates (0: only ``extra_candidates``).
    n_starts : L-BFGS-B runs from the best candidates (0: no local search from candidates).
    sampler : ``"uniform"`` (``rng.random``) or ``"sobol"`` (scrambled Sobol seeded with ``rng``).
    extra_candidates : (k, d) points evaluated and ranked with the drawn ones (e.g. the incumbent).
    extra_starts : (k, d) points L-BFGS-B also starts from, after the best candidates; they are not
        candidates themselves (e.g. the best observed points).
    grad : ``None`` (finite differences), ``"autograd"`` (torch) or a callable ``x -> (fn(x), grad)``
        for one point ``x`` of shape (d,).
    maxiter : L-BFGS-B's iteration limit per problem (``None``: SciPy's default; ``<= 0``: no local
        search at all).
    batch : polish all starts jointly as one problem (True) or one after another (False).

    The value returned for a polished point is the objective's value where L-BFGS-B stopped
    (``batch=False``) or ``fn`` re-evaluated there (``batch=True``). A polished point replaces the
    best candidate only if its value is strictly larger (the first of equal polished values wins;
    NaN counts as -inf), so the result is never worse than the best candidate.
    """
    lo, hi = _check_bounds(bounds)
    d = len(lo)
    n_candidates = _check_count("n_candidates", n_candidates)
    n_starts = _check_count("n_starts", n_starts)
    check_choice("sampler", sampler, SAMPLERS)
    if not (grad is None or grad == "autograd" or callable(grad)):
        raise ValueError(f"grad must be None, 'autograd' or a callable, not {grad!r}")
    if maxiter is not None and (isinstance(maxiter, bool) or int(maxiter) != maxiter):
        raise ValueError(f"maxiter must be an integer or None, not {maxiter!r}")
    extra_candidates = _points("extra_candidates", extra_candidates, lo, hi)
    extra_starts = _points("extra_starts", extra_starts, lo, hi)
    if n_candidates + len(extra_candidates) == 0:
        raise ValueError("no candidates: n_candidates is 0 and no extra_candidates were given")
    autograd = grad == "autograd"

    if sampler == "sobol":
        unit = qmc.Sobol(d, scramble=True, seed=rng).random(n_candidates) if n_candidates else np.empty((0, d))
    else:
        unit = rng.random((n_candidates, d))
    X = lo + unit * (hi - lo)
    if len(extra_candidates):
        X = np.vstack([X, extra_candidates])
    values = _evaluate(fn, X, autograd)
    if values.shape != (len(X),):
        raise ValueError(f"fn must return one value per row: {len(X)} rows gave shape {values.shape}")
    order = ranking(values)
    best_x, best_value = X[order[0]], float(values[order[0]])

    starts = np.vstack([X[order[:n_starts]], extra_starts])
    if (maxiter is not None and maxiter <= 0) or len(starts) == 0:
        return best_x.copy(), best_value
    options = {} if maxiter is None else {"maxiter": int(maxiter)}

    if batch:
        k = len(starts)
        objective, jac = _objective(fn, grad, starts.shape)
        result = minimize(objective, starts.ravel(), jac=jac, method="L-BFGS-B",
                          bounds=Bounds(np.tile(lo, k), np.tile(hi, k)), options=options)
        polished = np.clip(result.x.reshape(starts.shape), lo, hi)
        polished_values = _evaluate(fn, polished, autograd)
    else:
        objective, jac = _objective(fn, grad, (1, d))
        polished, polished_values = np.empty_like(starts), np.empty(len(starts))
        for i, x0 in enumerate(starts):
            result = minimize(objective, x0, jac=jac, method="L-BFGS-B", bounds=Bounds(lo, hi),
                              options=options)
            polished[i], polished_values[i] = np.clip(result.x, lo, hi), -float(result.fun)
    keys = _rank_key(polished_values)
    i = int(np.argmax(keys))
    if keys[i] > _rank_key(np.array([best_value]))[0]:
        best_x, best_value = polished[i], float(polished_values[i])
    return best_x.copy(), best_value
