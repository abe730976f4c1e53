"""The additive synthetic functions of paper 002 (Kandasamy, Schneider & Póczos, "High dimensional
Bayesian optimisation and bandits via additive models", ICML 2015, arXiv:1503.01673), Figs. 2-4.

Group function (Sec. 5, eq. 7, as the authors' experiments compute it). On [-1, 1]^{d'},

    f_{d'}(x) = max(-700, log sum_{i=1}^3 w_i N(x; c_i, s^2 I)),   s^2 = 0.01 d'^{0.1},

a log mixture of three isotropic Gaussian densities with weights w = (0.1, 0.8, 0.1) and centres
c_1 = (0.62, -0.38, -0.66, -0.66, ...), c_2 = (0.18, 0.58, -0.19, -0.19, ...),
c_3 = (-0.58, -0.56, 0.62, 0.62, ...) (coordinates from the third on repeat the third). Two
corrections to the printed eq. 7: s^2 is the *variance* of each Gaussian (the text calls it a
bandwidth h and writes h^2), and the exponent carries a minus sign. For d' = 1 the family is a
two-mode mixture: centres (-0.5, 0.4), weights (0.15, 0.85), s^2 = 0.01. The floor at -700 is where
the density underflows in double precision; we evaluate the log with logsumexp and then clip, which
gives the same values without the underflow.

The maximiser of a group is the heaviest centre c_2 (0.4 for d' = 1): the other components'
densities there are below exp(-40) of the main one, so their pull on the maximiser and on the value
is far below double-precision resolution, and f*_{d'} = f_{d'}(c_2) (about 3.76 at d' = 3).

Composite (Figs. 3-4). In D dimensions with group size d', M' = floor(D / d') groups: a random
permutation of the D coordinates, drawn per run, puts group k on coordinates perm[k d' : (k+1) d'];
the remaining D - M' d' coordinates do not affect f. Then f(x) = sum_k f_{d'}(x^{(k)}) on [-1, 1]^D
and f* = M' f*_{d'}.
"""
from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from bolib.benchmarks.problem import Problem, benchmark
from bolib.runtime import rng as make_rng

#: value below which the group function is clipped
FLOOR = -700.0
#: first two coordinates of the three centres, then the value repeated on every further coordinate
CENTRES_12 = np.array([[0.62, -0.38], [0.18, 0.58], [-0.58, -0.56]])
CENTRES_REST = np.array([-0.66, -0.19, 0.62])
WEIGHTS = np.array([0.1, 0.8, 0.1])
#: the one-dimensional family: centres, weights, variance
CENTRES_1D, WEIGHTS_1D, VARIANCE_1D = np.array([[-0.5], [0.4]]), np.array([0.15, 0.85]), 0.01


def mixture(d: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Centres (rows), weights and the common variance s^2 of the group function in ``d`` dimensions."""
    d = int(d)
    if d < 1:
        raise ValueError(f"the group dimension must be >= 1; got {d}")
    if d == 1:
        return CENTRES_1D, WEIGHTS_1D, VARIANCE_1D
    centres = np.hstack([CENTRES_12, np.repeat(CENTRES_REST[:, None], d - 2, axis=1)])
    return centres, WEIGHTS, 0.01 * d ** 0.1


def group_function(X, d: int | None = None) -> np.ndarray:
    """f_{d'}(x) = max(-700, log sum_i w_i N(x; c_i, s^2 I)) at the rows of ``X`` in [-1, 1]^{d'}
    (eq. 7 with its sign and variance corrected; see the module docstring)."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    centres, weights, var = mixture(X.shape[1] if d is None else d)
    sq = ((X[:, None, :] - centres[None]) ** 2).sum(-1)
    log_pdf = -0.5 * sq / var - 0.5 * X.shape[1] * np.log(2 * np.pi * var)
    return np.maximum(FLOOR, logsumexp(log_pdf, b=weights[None], axis=1))


def group_argmax(d: int) -> np.ndarray:
    """The maximiser of f_{d'}: the centre of the heaviest component."""
    centres, weights, _ = mixture(d)
    return centres[int(np.argmax(weights))]


def group_optimum(d: int) -> float:
    """f*_{d'} = f_{d'}(c_2) (exact to double precision, see the module docstring)."""
    return float(group_function(group_argmax(d)[None], d)[0])


def additive_groups(dim: int, group_dim: int, perm_seed: int) -> list[list[int]]:
    """The M' = floor(D / d') groups of coordinates of one run: consecutive blocks of d' entries of a
    uniformly random permutation of range(D), drawn from the stream ``rng(perm_seed, "additive-perm")``;
    coordinate perm[k d' + i] plays coordinate i of the group function (the authors' order)."""
    if not 1 <= group_dim <= dim:
        raise ValueError(f"group_dim must be in 1..{dim} (the dimension); got {group_dim}")
    perm = make_rng(perm_seed, "additive-perm").permutation(dim)
    return [[int(i) for i in perm[k * group_dim:(k + 1) * group_dim]] for k in range(dim // group_dim)]


def additive_function(dim: int, group_dim: int, perm_seed: int = 0) -> Problem:
    """The composite f(x) = sum_k f_{d'}(x^{(k)}) on [-1, 1]^D of Figs. 3-4 (module docstring).

    ``meta``: ``groups`` (the true decomposition, for Add-*), ``group_dim`` d', ``n_groups`` M',
    ``irrelevant`` (coordinates in no group) and ``group_optimum`` f*_{d'}.
    """
    groups = additive_groups(dim, group_dim, perm_seed)
    columns = np.array(groups)

    def fn(X):
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return group_function(X[:, columns].reshape(-1, group_dim), group_dim).reshape(len(X), -1).sum(1)

    argmax = np.zeros(dim)
    argmax[columns] = group_argmax(group_dim)
    used = set(columns.ravel().tolist())
    meta = {"groups": groups, "group_dim": group_dim, "n_groups": len(groups),
            "irrelevant": [i for i in range(dim) if i not in used], "group_optimum": group_optimum(group_dim),
            "perm_seed": perm_seed}
    return Problem(f"add-3modal-{dim}-{group_dim}", fn, np.array([-np.ones(dim), np.ones(dim)]),
                   len(groups) * group_optimum(group_dim), argmax[None], meta=meta)


@benchmark(10)
def add_3modal(d, group_dim: int = 3, perm_seed: int = 0):
    """Paper 002's Figs. 3-4 family (:func:`additive_function`): one random grouping per ``perm_seed``."""
    return additive_function(d, group_dim, perm_seed)
