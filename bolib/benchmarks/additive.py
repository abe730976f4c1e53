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

With these centres the maximiser of a group is the heaviest centre c_2 (0.4 for d' = 1): the other
components' densities there are below exp(-40) of the main one, so their pull on the maximiser and on the value
is far below double-precision resolution, and f*_{d'} = f_{d'}(c_2) (about 3.76 at d' = 3).

Composite (Figs. 3-4). In D dimensions with group size d', M' = floor(D / d') groups: a random
permutation of the D coordinates, drawn per run, puts group k on coordinates perm[k d' : (k+1) d'];
the remaining D - M' d' coordinates do not affect f. Then f(x) = sum_k f_{d'}(x^{(k)}) on [-1, 1]^D
and f* = M' f*_{d'} (with the shifted layout below, the sum of the groups' own maxima).

Placement of the modes (``layout``). The paper gives no centres ("v_1, v_2, v_3 are fixed d'
dimensional vectors", Sec. 5.1); the authors' code (``get3ModalFunction.m`` and
``getAdditiveFunction.m`` of their Add-GP-UCB library) fixes the ones above for every run and group,
on the box [-1, 1]^D (``layout="authors"``, the default here). They sit around the box centre: the heavy centre c_2 is 0.72 from
the origin at d' = 6 (root-mean-square coordinate 0.29, against 0.58 for a uniform point of the box),
and the three centres straddle the origin in every coordinate, so no translation that keeps all three
inside the box takes every mode away from it. DIRECT evaluates the box centre first, and a DIRECT
acquisition with a small budget stays near it, so with the authors' placement the first query of those
methods already lies close to the main mode. ``layout="shifted"`` removes that: for each group, drawn
from the stream ``rng(perm_seed, "additive-layout")``,

* each coordinate's three centre values (the authors' numbers above) are dealt to the three components
  in a uniformly random order (the weights stay with the components: w = (0.1, 0.8, 0.1)), and
* the group's three centres are translated together by an offset drawn uniformly, coordinate by
  coordinate, from the offsets that keep every centre at least ``SHIFT_MARGIN`` = 0.1 (about one
  standard deviation s) inside [-1, 1].

Each coordinate's projection of the three centres is then the authors' set, moved as a whole; two
components differ in every coordinate, by at least 0.18 (the smallest gap between two of the authors'
values of one coordinate), and lie at least 0.47 apart (4.6 s at d' = 2, more at larger d'), so each
group keeps three modes and f keeps 3^{M'} of them. Over the
relevant coordinates of the composite, the maximiser's root-mean-square coordinate is then 0.55 on
average and at least 0.41 on seeds 0-39 of each of the paper's nine (D, d', M') configurations, against
0.20 to 0.37 with the authors' centres and 0.58 on average for a point drawn uniformly from the box
(for d' = 1, a family no configuration uses, the shift can leave the mode anywhere in [-0.9, 0.9]).
The components now come closer to each other than with the authors' centres, so at small d' the other
components' pull on the maximiser is no longer below double precision (up to 3e-6 in the value at
d' = 2, 3e-10 at d' = 3): :func:`group_argmax` refines the heavy centre by the mean-shift iteration x <- sum_i
r_i(x) c_i (r_i the components' posterior weights at x), whose fixed point is where the gradient of
the log mixture vanishes, and f* is the value there.
"""
from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from bolib.benchmarks.problem import Problem, benchmark
from bolib.errors import check_choice
from bolib.runtime import rng as make_rng

#: value below which the group function is clipped
FLOOR = -700.0
#: first two coordinates of the three centres, then the value repeated on every further coordinate
CENTRES_12 = np.array([[0.62, -0.38], [0.18, 0.58], [-0.58, -0.56]])
CENTRES_REST = np.array([-0.66, -0.19, 0.62])
WEIGHTS = np.array([0.1, 0.8, 0.1])
#: the one-dimensional family: centres, weights, variance
CENTRES_1D, WEIGHTS_1D, VARIANCE_1D = np.array([[-0.5], [0.4]]), np.array([0.15, 0.85]), 0.01
#: the placements of the modes (module docstring): the authors' fixed centres, or shuffled and shifted per group
LAYOUTS = ("authors", "shifted")
#: in a shifted layout, the least distance between any centre and a face of [-1, 1]^{d'}
SHIFT_MARGIN = 0.1


def mixture(d: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Centres (rows), weights and the common variance s^2 of the group function in ``d`` dimensions,
    as the authors place them."""
    d = int(d)
    if d < 1:
        raise ValueError(f"the group dimension must be >= 1; got {d}")
    if d == 1:
        return CENTRES_1D, WEIGHTS_1D, VARIANCE_1D
    centres = np.hstack([CENTRES_12, np.repeat(CENTRES_REST[:, None], d - 2, axis=1)])
    return centres, WEIGHTS, 0.01 * d ** 0.1


def shifted_mixture(d: int, stream: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float]:
    """One group's shifted layout (module docstring), drawn from ``stream``: per coordinate, the authors'
    centre values in a random order among the components, then one offset per coordinate, uniform on the
    offsets that keep every centre at least :data:`SHIFT_MARGIN` inside [-1, 1]."""
    centres, weights, var = mixture(d)
    dealt = np.column_stack([stream.permutation(centres[:, i]) for i in range(centres.shape[1])])
    low, high = -1 + SHIFT_MARGIN - dealt.min(axis=0), 1 - SHIFT_MARGIN - dealt.max(axis=0)
    return dealt + stream.uniform(low, high), weights, var


def group_function(X, d: int | None = None, layout: tuple | None = None) -> np.ndarray:
    """f_{d'}(x) = max(-700, log sum_i w_i N(x; c_i, s^2 I)) at the rows of ``X`` in [-1, 1]^{d'}
    (eq. 7 with its sign and variance corrected; see the module docstring). ``layout``: (centres,
    weights, s^2) of a shifted group; None, the authors' :func:`mixture`."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    centres, weights, var = mixture(X.shape[1] if d is None else d) if layout is None else layout
    sq = ((X[:, None, :] - centres[None]) ** 2).sum(-1)
    log_pdf = -0.5 * sq / var - 0.5 * X.shape[1] * np.log(2 * np.pi * var)
    return np.maximum(FLOOR, logsumexp(log_pdf, b=weights[None], axis=1))


def group_argmax(d: int, layout: tuple | None = None) -> np.ndarray:
    """The maximiser of f_{d'}. With the authors' centres (``layout`` None) it is the heavy centre c_2
    (the other components' pull is below double precision there); with a shifted ``layout``, the heavy
    centre refined by mean-shift steps x <- sum_i r_i(x) c_i to the stationary point of the log mixture."""
    if layout is None:
        centres, weights, _ = mixture(d)
        return centres[int(np.argmax(weights))]
    centres, weights, var = layout
    x = centres[int(np.argmax(weights))].copy()
    for _ in range(200):
        log_r = np.log(weights) - 0.5 * ((centres - x) ** 2).sum(1) / var
        r = np.exp(log_r - logsumexp(log_r))
        step = r @ (centres - x)  # at the heavy centre its own term is exactly zero
        x = x + step
        if np.abs(step).max() <= 1e-15:
            break
    return x


def group_optimum(d: int, layout: tuple | None = None) -> float:
    """f*_{d'} = f_{d'} at :func:`group_argmax` (exact to double precision, see the module docstring)."""
    return float(group_function(group_argmax(d, layout)[None], d, layout)[0])


def additive_groups(dim: int, group_dim: int, perm_seed: int) -> list[list[int]]:
    """The M' = floor(D / d') groups of coordinates of one run: consecutive blocks of d' entries of a
    uniformly random permutation of range(D), drawn from the stream ``rng(perm_seed, "additive-perm")``;
    coordinate perm[k d' + i] plays coordinate i of the group function (the authors' order)."""
    if not 1 <= group_dim <= dim:
        raise ValueError(f"group_dim must be in 1..{dim} (the dimension); got {group_dim}")
    perm = make_rng(perm_seed, "additive-perm").permutation(dim)
    return [[int(i) for i in perm[k * group_dim:(k + 1) * group_dim]] for k in range(dim // group_dim)]


def group_layouts(n_groups: int, group_dim: int, perm_seed: int) -> list[tuple]:
    """The shifted layouts of one run's groups, in group order, from ``rng(perm_seed, "additive-layout")``."""
    stream = make_rng(perm_seed, "additive-layout")
    return [shifted_mixture(group_dim, stream) for _ in range(n_groups)]


def additive_function(dim: int, group_dim: int, perm_seed: int = 0, layout: str = "authors") -> Problem:
    """The composite f(x) = sum_k f_{d'}(x^{(k)}) on [-1, 1]^D of Figs. 3-4 (module docstring), with the
    authors' centres in every group (``layout="authors"``) or each group's own shifted layout
    (``"shifted"``, drawn from ``perm_seed``).

    ``meta``: ``groups`` (the true decomposition, for Add-*), ``group_dim`` d', ``n_groups`` M',
    ``irrelevant`` (coordinates in no group), ``layout``, ``group_optima`` (f*_{d'} of each group) and
    ``group_argmax`` (the maximiser of each group).
    """
    check_choice("layout", layout, LAYOUTS)
    groups = additive_groups(dim, group_dim, perm_seed)
    columns = np.array(groups)
    mixtures = group_layouts(len(groups), group_dim, perm_seed) if layout == "shifted" else [None] * len(groups)

    if layout == "authors":
        def fn(X):
            X = np.atleast_2d(np.asarray(X, dtype=float))
            return group_function(X[:, columns].reshape(-1, group_dim), group_dim).reshape(len(X), -1).sum(1)
    else:
        def fn(X):
            X = np.atleast_2d(np.asarray(X, dtype=float))
            return np.column_stack([group_function(X[:, g], group_dim, mix) for g, mix in zip(groups, mixtures)]).sum(1)

    maximisers = [group_argmax(group_dim, mix) for mix in mixtures]
    optima = [group_optimum(group_dim, mix) for mix in mixtures]
    argmax = np.zeros(dim)
    for g, x in zip(groups, maximisers):
        argmax[g] = x
    used = set(columns.ravel().tolist())
    meta = {"groups": groups, "group_dim": group_dim, "n_groups": len(groups),
            "irrelevant": [i for i in range(dim) if i not in used], "group_optima": optima,
            "group_argmax": [x.tolist() for x in maximisers], "perm_seed": perm_seed, "layout": layout}
    optimum = len(groups) * optima[0] if layout == "authors" else float(sum(optima))
    return Problem(f"add-3modal-{dim}-{group_dim}", fn, np.array([-np.ones(dim), np.ones(dim)]), optimum,
                   argmax[None], meta=meta)


@benchmark(10)
def add_3modal(d, group_dim: int = 3, perm_seed: int = 0, layout: str = "authors"):
    """Paper 002's Figs. 3-4 family (:func:`additive_function`): one random grouping per ``perm_seed``, and
    with ``layout="shifted"`` one placement of the modes per group and ``perm_seed``."""
    return additive_function(d, group_dim, perm_seed, layout)
