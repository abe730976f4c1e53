"""Finite candidate sets given as a table of points (rows): the row nearest to a query point, shared by the methods
that work on a finite set of candidates (PEM-BO) and the tabular benchmarks that answer a query with the nearest
configuration (the SVM grid)."""
from __future__ import annotations

import numpy as np


def nearest_rows(table, X) -> np.ndarray:
    """Index of the row of ``table`` (J x d) nearest to each row of ``X`` (Euclidean distance; the first on ties)."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    return np.argmin(((X[:, None, :] - np.asarray(table)[None]) ** 2).sum(-1), axis=1)
