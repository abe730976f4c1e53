"""Draws from an additive GP prior: the setting of Theorem 5 of paper 002 (Kandasamy, Schneider &
Póczos, "High dimensional Bayesian optimisation and bandits via additive models", ICML 2015,
arXiv:1503.01673), f = sum_j f_j(x^(j)) with independent f_j ~ GP(0, kappa_j) on disjoint groups of
coordinates (eq. 4). The groups are drawn as for the synthetic functions of Figs. 3-4
(:func:`bolib.benchmarks.additive.additive_groups`).
"""
from __future__ import annotations

import numpy as np

from bolib.benchmarks.additive import additive_groups
from bolib.benchmarks.problem import Problem, benchmark, multistart_maximum
from bolib.benchmarks.samplers import gp_sample
from bolib.runtime import rng as make_rng



def additive_gp_draw(dim: int, group_dim: int = 2, lengthscale: float = 0.25, draw_seed: int = 0,
                     n_pairs: int = 300) -> Problem:
    """A draw from an additive GP prior on [0, 1]^D, the setting of Theorem 5 (f ~ GP(0, kappa), eq. 4).

    The D coordinates are split into M = floor(D / d) groups by :func:`additive_groups` (seed
    ``draw_seed``); each component f_j is an independent random-feature draw from the d-dimensional SE
    GP of bandwidth ``lengthscale`` and variance 1 (:func:`bolib.benchmarks.samplers.gp_sample` with
    ``n_pairs`` feature pairs, stream ``rng(draw_seed, "add-gp-draw", j)``). f = sum_j f_j, so its maximum
    is the sum of the components' maxima, each certified in d dimensions by multistart L-BFGS-B (1,024
    Sobol candidates, 5 polished starts; tests compare it with a dense grid). ``meta["groups"]`` is the
    true decomposition (for Add-*).
    """
    groups = additive_groups(dim, group_dim, draw_seed)
    parts = [gp_sample("rbf", group_dim, make_rng(draw_seed, "add-gp-draw", j), lengthscale=lengthscale,
                       n_pairs=n_pairs, certify=False) for j in range(len(groups))]
    box = np.array([np.zeros(group_dim), np.ones(group_dim)])
    maxima = [multistart_maximum(part.fn, box, make_rng(draw_seed, "add-gp-draw-max", j), n_candidates=1024,
                                 n_starts=5) for j, part in enumerate(parts)]
    columns = np.array(groups)

    def fn(X):
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return sum(part.fn(X[:, g]) for part, g in zip(parts, columns))

    argmax = np.full(dim, 0.5)
    for (x, _), g in zip(maxima, columns):
        argmax[g] = x
    used = set(columns.ravel().tolist())
    meta = {"groups": groups, "group_dim": group_dim, "n_groups": len(groups), "lengthscale": lengthscale,
            "irrelevant": [i for i in range(dim) if i not in used], "draw_seed": draw_seed}
    return Problem(f"add-gp-draw-{dim}-{group_dim}", fn, np.array([np.zeros(dim), np.ones(dim)]),
                   float(sum(value for _, value in maxima)), argmax[None], meta=meta)


@benchmark(20)
def add_gp_draw(d, group_dim: int = 2, lengthscale: float = 0.25, draw_seed: int = 0):
    """Paper 002's Theorem 5 setting (:func:`additive_gp_draw`): one additive GP draw per ``draw_seed``."""
    return additive_gp_draw(d, group_dim, lengthscale, draw_seed)
