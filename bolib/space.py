"""Search spaces in a user's own units, as scikit-optimize writes them, mapped to and from the unit cube
on which every bolib method works (one coordinate per dimension).

Dimensions (:func:`dimension` reads skopt's shorthands):

* :class:`Real` ``(low, high)`` with a float, or ``(low, high, "log-uniform")``: u -> low + u (high - low),
  or log-uniformly, low (high / low)^u (skopt's ``(low, high, "log-uniform", base)`` is the same
  distribution for every base);
* :class:`Integer` ``(low, high)`` with two ints (both ends included), or ``(low, high, "log-uniform")``:
  the unit interval is cut into one cell per integer (per integer's share of the log scale with
  ``log-uniform``), and the objective receives a Python ``int``;
* :class:`Categorical` a list (or a tuple of other than two numbers): one cell per category on the
  unit interval, in the order given; the objective receives the category itself.

A point goes to the objective as a 1-D float array when every dimension is real, and as a list (ints
and categories as such) otherwise. Integer and categorical cells are ordinal coordinates for the model
(skopt one-hot encodes categories instead); two points of one cell are the same point to the objective.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from bolib.errors import BolibError

PRIORS = ("uniform", "log-uniform")


@dataclasses.dataclass(frozen=True)
class _Range:
    """What :class:`Real` and :class:`Integer` share: the ends, the prior and a name."""

    low: float
    high: float
    prior: str = "uniform"
    name: str | None = None

    def __post_init__(self):
        if self.prior not in PRIORS:
            raise BolibError(f"prior must be one of {', '.join(PRIORS)}; got {self.prior!r}")
        self._check_ends()
        if self.prior == "log-uniform" and self.low <= 0:
            raise BolibError(f"a log-uniform dimension needs low > 0; got ({self.low}, {self.high})")

    def _check_ends(self) -> None:
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Real(_Range):
    """A real interval [low, high]; ``prior="log-uniform"`` spreads the unit interval on a log scale."""

    def _check_ends(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise BolibError(f"a real dimension needs finite low < high; got ({self.low}, {self.high})")

    def from_unit(self, u: float) -> float:
        u = min(max(float(u), 0.0), 1.0)
        if self.prior == "log-uniform":
            return float(min(self.high, self.low * (self.high / self.low) ** u))
        return float(min(self.high, self.low + u * (self.high - self.low)))

    def to_unit(self, x) -> float:
        x = float(x)
        if not self.low <= x <= self.high:
            raise BolibError(f"{x} lies outside the dimension {self}")
        if self.prior == "log-uniform":
            return math.log(x / self.low) / math.log(self.high / self.low)
        return (x - self.low) / (self.high - self.low)


@dataclasses.dataclass(frozen=True)
class Integer(_Range):
    """The integers low, ..., high (both included; low < high)."""

    def _check_ends(self) -> None:
        if not (isinstance(self.low, (int, np.integer)) and isinstance(self.high, (int, np.integer))
                and self.low < self.high):
            raise BolibError(f"an integer dimension needs integers low < high; got ({self.low!r}, {self.high!r})")

    def _edge(self, k: float) -> float:
        """The lower boundary on [0, 1] of integer k's cell: equal cells, or k's share [k - 1/2, k + 1/2] of the
        log scale from low - 1/2 to high + 1/2 (low >= 1 there)."""
        if self.prior == "uniform":
            return (k - self.low) / (self.high - self.low + 1)
        lo, hi = math.log(self.low - 0.5), math.log(self.high + 0.5)
        return (math.log(k - 0.5) - lo) / (hi - lo)

    def from_unit(self, u: float) -> int:
        u = min(max(float(u), 0.0), 1.0)
        if self.prior == "uniform":
            k = self.low + math.floor(u * (self.high - self.low + 1))
        else:
            lo, hi = math.log(self.low - 0.5), math.log(self.high + 0.5)
            k = math.floor(math.exp(lo + u * (hi - lo)) + 0.5)
        return int(min(max(k, self.low), self.high))

    def to_unit(self, x) -> float:
        if isinstance(x, (bool, np.bool_)) or not float(x).is_integer() or not self.low <= x <= self.high:
            raise BolibError(f"{x!r} is not an integer of the dimension {self}")
        k = int(x)
        return float((self._edge(k) + self._edge(k + 1)) / 2)


@dataclasses.dataclass(frozen=True)
class Categorical:
    """One of ``categories`` (any values), each a cell of the unit interval in the order given."""

    categories: tuple
    name: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "categories", tuple(self.categories))
        if len(self.categories) < 1:
            raise BolibError("a categorical dimension needs at least one category")
        if len(set(map(repr, self.categories))) != len(self.categories):
            raise BolibError(f"the categories must differ; got {list(self.categories)}")

    def from_unit(self, u: float):
        k = len(self.categories)
        return self.categories[min(int(min(max(float(u), 0.0), 1.0) * k), k - 1)]

    def to_unit(self, x) -> float:
        """The cell centre of category ``x``; a numpy scalar counts as its Python value, and numbers match by
        value (32.0 is the category 32) but never a bool (True is not the category 1)."""
        x = x.item() if isinstance(x, np.generic) else x
        for i, category in enumerate(self.categories):
            if category == x and (type(category) is type(x) or _is_number(category) and _is_number(x)):
                return (i + 0.5) / len(self.categories)
        raise BolibError(f"{x!r} is not a category of {list(self.categories)}")


Dimension = Real | Integer | Categorical


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def dimension(spec) -> Dimension:
    """One dimension from skopt's shorthands (module docstring) or a :class:`Real`, :class:`Integer` or
    :class:`Categorical`."""
    if isinstance(spec, (Real, Integer, Categorical)):
        return spec
    kind = type(spec).__name__  # scikit-optimize's own dimension objects, read by their fields
    if kind == "Categorical" and hasattr(spec, "categories"):
        return Categorical(tuple(spec.categories), getattr(spec, "name", None))
    if kind in ("Real", "Integer") and hasattr(spec, "low") and hasattr(spec, "prior"):
        cls, cast = (Real, float) if kind == "Real" else (Integer, int)
        return cls(cast(spec.low), cast(spec.high), spec.prior, getattr(spec, "name", None))
    if isinstance(spec, list):
        return Categorical(spec)
    if isinstance(spec, tuple):
        if len(spec) == 2 and all(_is_number(v) for v in spec):
            if all(isinstance(v, (int, np.integer)) for v in spec):
                return Integer(int(spec[0]), int(spec[1]))
            return Real(float(spec[0]), float(spec[1]))
        if len(spec) in (3, 4) and all(_is_number(v) for v in spec[:2]) and isinstance(spec[2], str) \
                and (len(spec) == 3 or _is_number(spec[3])):  # skopt's base of the log: the same distribution
            if all(isinstance(v, (int, np.integer)) for v in spec[:2]):
                return Integer(int(spec[0]), int(spec[1]), spec[2])
            return Real(float(spec[0]), float(spec[1]), spec[2])
        return Categorical(spec)
    if isinstance(spec, np.ndarray) and spec.shape == (2,):
        return Real(float(spec[0]), float(spec[1]))
    raise BolibError(f"a dimension is (low, high), (low, high, 'log-uniform'), a list of categories, or a Real, "
                     f"Integer or Categorical; got {spec!r}")


class Space:
    """The product of ``dimensions`` (each read by :func:`dimension`), with the maps to and from [0, 1]^d."""

    def __init__(self, dimensions: Sequence):
        if isinstance(dimensions, np.ndarray):
            dimensions = [tuple(row) for row in dimensions.tolist()] if dimensions.ndim == 2 else list(dimensions)
        if isinstance(dimensions, (str, bytes)) or not isinstance(dimensions, Sequence) or len(dimensions) == 0:
            raise BolibError(f"dimensions must be a non-empty sequence, one entry per dimension; got {dimensions!r}")
        self.dimensions = [dimension(spec) for spec in dimensions]

    @property
    def n_dims(self) -> int:
        return len(self.dimensions)

    @property
    def is_real(self) -> bool:
        """Whether every dimension is real (points are float arrays)."""
        return all(isinstance(d, Real) for d in self.dimensions)

    def from_unit(self, u):
        """The point of the unit-cube point ``u`` in the user's units (array if :attr:`is_real`, else list)."""
        values = [d.from_unit(v) for d, v in zip(self.dimensions, np.asarray(u, dtype=float).reshape(-1))]
        return np.array(values, dtype=float) if self.is_real else values

    def to_unit(self, x) -> np.ndarray:
        """The unit-cube coordinates of a point ``x`` given in the user's units."""
        x = list(np.asarray(x).tolist()) if isinstance(x, np.ndarray) else list(x)
        if len(x) != self.n_dims:
            raise BolibError(f"a point needs {self.n_dims} values, one per dimension; got {x!r}")
        return np.array([d.to_unit(v) for d, v in zip(self.dimensions, x)])

    def __repr__(self) -> str:
        return f"Space({self.dimensions!r})"
