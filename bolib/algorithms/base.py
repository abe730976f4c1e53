"""The ask/tell protocol every bolib optimiser follows.

``opt.ask(n)`` returns ``n`` points in the unit cube [0, 1]^d; ``opt.tell(X, y)`` reports their
observed values (to be *maximised*). Points asked but not yet told are *pending*; batch and
asynchronous methods take them into account when proposing new points. The optimiser keeps all its
randomness in ``self.rng``, seeded at construction, so a run is a pure function of its seed.
"""
from __future__ import annotations

import abc

import numpy as np

from bolib.runtime import rng as make_rng


class Optimizer(abc.ABC):
    """Base class: keeps the data and the pending points; subclasses implement :meth:`propose`."""

    #: registry name, set by :func:`bolib.algorithms.register`
    name = "optimizer"

    def __init__(self, dim: int, seed: int = 0):
        self.dim = int(dim)
        self.seed = int(seed)
        self.rng = make_rng(seed, "method", self.name)
        self.X = np.empty((0, self.dim))
        self.y = np.empty(0)
        self.pending = np.empty((0, self.dim))

    def ask(self, n: int = 1) -> np.ndarray:
        """Propose ``n`` new points (rows of an (n, d) array in the unit cube)."""
        X = np.clip(np.asarray(self.propose(int(n)), dtype=float).reshape(n, self.dim), 0.0, 1.0)
        self.pending = np.vstack([self.pending, X])
        return X

    def tell(self, X, y) -> None:
        """Report observed values ``y`` at points ``X`` (asked before, or any other points)."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        y = np.asarray(y, dtype=float).reshape(-1)
        if len(X) != len(y):
            raise ValueError(f"tell got {len(X)} points but {len(y)} values")
        for x in X:
            match = np.flatnonzero(np.all(np.isclose(self.pending, x, rtol=0, atol=1e-12), axis=1))
            if len(match):
                self.pending = np.delete(self.pending, match[0], axis=0)
        self.X = np.vstack([self.X, X])
        self.y = np.concatenate([self.y, y])
        self.observe(X, y)

    @abc.abstractmethod
    def propose(self, n: int) -> np.ndarray:
        """Return ``n`` new points given ``self.X``, ``self.y`` and ``self.pending``."""

    def observe(self, X: np.ndarray, y: np.ndarray) -> None:
        """Hook for incremental updates after :meth:`tell` (the data is already appended)."""

    @property
    def best(self) -> tuple[np.ndarray, float]:
        """The best observed point and its value."""
        i = int(np.argmax(self.y))
        return self.X[i], float(self.y[i])
