"""The ask/tell protocol every bolib optimiser follows.

``opt.ask(n)`` returns ``n`` points in the unit cube [0, 1]^d; ``opt.tell(X, y)`` reports their
observed values (to be *maximised*). Points asked but not yet told are *pending*; batch and
asynchronous methods take them into account when proposing new points, and the points of one batch
are pending for each other. A pending point that will never be told is withdrawn with
``opt.forget(X)``, or with ``opt.fail(X)``, which also keeps it in ``opt.failed``. The optimiser keeps all
its randomness in ``self.rng``, seeded at construction, so a run is a pure function of its seed.

Cold start: while an optimiser holds fewer than ``n_init`` points (observed or pending), ``ask``
hands out the next points of a scrambled Sobol design seeded by the optimiser's seed; only then does
the method's own :meth:`Optimizer.propose` run. The default, ``n_init = max(5, 2 d)``, is the size of
the quasi-random initial design in Ax's default generation strategy. A method whose model is a
proper prior (:attr:`Optimizer.proposes_from_prior`, e.g. the exactly Bayesian setting of a regret
theorem) may take ``n_init = 0`` and propose from the first ask. An experiment that gives every
method a shared initial design (:func:`bolib.loop.run`) tells it before the first ask, so the
optimiser's own design is used only where the shared one is smaller.

Problem-level data: before anything is told, :func:`bolib.loop.run` calls :meth:`Optimizer.prepare`
with the :class:`~bolib.benchmarks.problem.Problem`, so a method can use what the problem offers
besides evaluations (its ``meta``, e.g. previous tasks' observations for meta-BO, or evaluations
that are not charged to the budget, as the SUP rule of GP-UCB does). What a method records per
proposal goes to ``history`` and what it determined once per run to ``info``; both are part of a
:func:`bolib.loop.bo_job` result.
"""
from __future__ import annotations

import abc
import contextlib

import numpy as np
from scipy.stats import qmc

from bolib.runtime import rng as make_rng


def default_n_init(dim: int) -> int:
    """Size of an optimiser's own initial design: max(5, 2 d)."""
    return max(5, 2 * int(dim))


def refit_due(n: int, fitted_at: int, every: int = 1, growth: float = 0.0, after: int = 0, until: int = 0) -> bool:
    """Whether a GP method refits its hyperparameters with ``n`` observations, the last fit having had
    ``fitted_at`` (0: never fitted). It refits once ``every`` observations have arrived since; once the
    last fit had at least ``after`` observations, also not before the data have grown by the fraction
    ``growth`` since it (``growth = 0``: every ``every`` observations throughout); with ``until > 0``,
    never with more than ``until`` observations. Between refits the GP is conditioned on all
    observations with the last hyperparameters."""
    if fitted_at == 0:
        return True
    if growth < 0 or every < 1 or until < 0:
        raise ValueError(f"refit schedule needs every >= 1, growth >= 0 and until >= 0; got every={every}, "
                         f"growth={growth}, until={until}")
    if until and n > until:
        return False
    step = n - fitted_at
    return step >= every and (fitted_at < after or step >= growth * fitted_at)


class Optimizer(abc.ABC):
    """Base class: keeps the data, the pending points and the initial design; subclasses implement
    :meth:`propose`."""

    #: registry name (the key of :data:`bolib.algorithms.METHOD_PATHS`)
    name = "optimizer"
    #: settings under which one ask/tell step is cheap (seconds), for the every-method tests
    cheap_settings: dict = {}
    #: True for a method whose model is a proper prior (known hyperparameters, as in a theory
    #: setting): it proposes before any observation, and ``n_init`` may be 0
    proposes_from_prior = False

    def __init__(self, dim: int, seed: int = 0, *, n_init: int | None = None):
        self.dim = int(dim)
        self.seed = int(seed)
        if self.dim < 1:
            raise ValueError(f"dim must be >= 1; got {dim}")
        self.n_init = default_n_init(self.dim) if n_init is None else int(n_init)
        if self.n_init < 1 and not (self.proposes_from_prior and self.n_init == 0):
            raise ValueError(f"n_init must be >= 1 (a model needs data; 0 only for a method that proposes "
                             f"from its prior); got {n_init}")
        self.rng = make_rng(seed, "method", self.name)
        self._design = qmc.Sobol(self.dim, scramble=True, seed=make_rng(seed, "method-init", self.name))
        self.X = np.empty((0, self.dim))
        self.y = np.empty(0)
        self.pending = np.empty((0, self.dim))
        self.failed = np.empty((0, self.dim))  # points whose evaluation failed (:meth:`fail`)
        self.history: list[dict] = []  # one entry per proposal, if the method records any
        self.info: dict = {}  # facts the method determined once per run (e.g. a SUP beta)

    def prepare(self, problem) -> None:
        """Hook: receive the problem (and its ``meta``) before the first observation; no-op here."""

    def ask(self, n: int = 1) -> np.ndarray:
        """Propose ``n`` new points (rows of an (n, d) array in the unit cube)."""
        n = int(n)
        if n < 1:
            raise ValueError(f"ask needs n >= 1; got {n}")
        n_design = min(n, max(0, self.n_init - len(self.y) - len(self.pending)))
        if len(self.y) == 0 and not self.proposes_from_prior:
            n_design = n  # nothing to model yet: the whole batch comes from the design
        X = self._design.random(n_design) if n_design else np.empty((0, self.dim))
        if n > n_design:
            with self.also_pending(X):
                proposed = np.asarray(self.propose(n - n_design), dtype=float).reshape(n - n_design, self.dim)
            X = np.vstack([X, np.clip(proposed, 0.0, 1.0)])
        self.pending = np.vstack([self.pending, X])
        return X

    def tell(self, X, y) -> None:
        """Report observed values ``y`` at points ``X`` (asked before, or any other points of the cube).

        Refused, with the offending rows named and nothing recorded: non-finite values (a GP would
        silently fit them), and points that are not finite or lie outside [0, 1]^d.
        """
        X = self._points(X, "tell")
        y = np.asarray(y, dtype=float).reshape(-1)
        if len(X) != len(y):
            raise ValueError(f"tell needs as many values as points; got {len(X)} points and {len(y)} values")
        bad = ~np.isfinite(y)
        if bad.any():
            raise ValueError(f"tell got non-finite values {y[bad].tolist()} at points {X[bad].tolist()}; "
                             "report a finite value (e.g. a penalty) or leave the point out")
        self._release(X)
        self.X = np.vstack([self.X, X])
        self.y = np.concatenate([self.y, y])
        self.observe(X, y)

    def forget(self, X) -> None:
        """Withdraw pending points ``X`` (asked, never to be told): they no longer count as pending.
        A row that is not pending is refused, naming the pending points."""
        X = self._points(X, "forget")
        missing = [x.tolist() for x in X if not len(self._pending_rows(x))]
        if missing:
            raise ValueError(f"forget: {missing} are not pending; the pending points are {self.pending.tolist()}")
        self._release(X)

    def fail(self, X) -> None:
        """Report that evaluating the pending points ``X`` failed: they are withdrawn as by :meth:`forget`
        and kept in ``self.failed`` (not modelled)."""
        self.forget(X)
        self.failed = np.vstack([self.failed, self._points(X, "fail")])

    def _points(self, X, verb: str) -> np.ndarray:
        """``X`` as an (n, d) array of finite points of [0, 1]^d, or a ``ValueError`` naming the bad rows."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        if X.ndim != 2 or X.shape[1] != self.dim:
            raise ValueError(f"{verb} needs points of shape (n, {self.dim}); got {X.shape}")
        bad = ~np.all(np.isfinite(X) & (X >= 0.0) & (X <= 1.0), axis=1)
        if bad.any():
            raise ValueError(f"{verb} got points outside the unit cube [0, 1]^{self.dim} or not finite: "
                             f"{X[bad].tolist()}; optimisers work in the cube (bolib.minimize maps a space to it)")
        return X

    def _pending_rows(self, x: np.ndarray) -> np.ndarray:
        return np.flatnonzero(np.all(np.isclose(self.pending, x, rtol=0, atol=1e-12), axis=1))

    def _release(self, X: np.ndarray) -> None:
        """Drop one pending row per row of ``X`` that matches one."""
        for x in X:
            match = self._pending_rows(x)
            if len(match):
                self.pending = np.delete(self.pending, match[0], axis=0)

    @contextlib.contextmanager
    def also_pending(self, X):
        """Treat the rows of ``X`` as pending inside the block (points already chosen in a batch)."""
        saved = self.pending
        self.pending = np.vstack([saved, np.asarray(X, dtype=float).reshape(-1, self.dim)])
        try:
            yield
        finally:
            self.pending = saved

    @abc.abstractmethod
    def propose(self, n: int) -> np.ndarray:
        """Return ``n`` new points given ``self.X``, ``self.y`` and ``self.pending`` (at least one
        observation exists when this is called, unless :attr:`proposes_from_prior`)."""

    def observe(self, X: np.ndarray, y: np.ndarray) -> None:
        """Hook for incremental updates after :meth:`tell` (the data is already appended)."""

    def best_rows(self, k: int) -> np.ndarray:
        """The ``k`` best observed points, best first (extra starts for acquisition maximisers)."""
        return self.X[np.argsort(self.y)[::-1][:k]]

    @property
    def best(self) -> tuple[np.ndarray, float]:
        """The best observed point and its value."""
        if len(self.y) == 0:
            raise RuntimeError("no observations yet: tell the optimiser some values first")
        i = int(np.argmax(self.y))
        return self.X[i], float(self.y[i])
