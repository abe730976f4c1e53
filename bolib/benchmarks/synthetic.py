"""Synthetic test functions used by the five papers, in their standard *minimisation* form.

Each takes native inputs as rows of ``X`` and returns a vector. :mod:`bolib.benchmarks` turns
them into :class:`~bolib.benchmarks.problem.Problem` objects to *maximise* (usually ``-f``).
Definitions follow Surjanovic & Bingham's Virtual Library of Simulation Experiments; the optima are
checked against BoTorch's test functions, or multistart L-BFGS-B, in ``tests/benchmarks/test_registry.py``.
"""
from __future__ import annotations

import numpy as np


def ackley(X, a=20.0, b=0.2, c=2 * np.pi):
    X = np.atleast_2d(X)
    d = X.shape[1]
    return (-a * np.exp(-b * np.sqrt((X ** 2).sum(1) / d)) - np.exp(np.cos(c * X).sum(1) / d)
            + a + np.e)


def rastrigin(X):
    X = np.atleast_2d(X)
    return 10 * X.shape[1] + (X ** 2 - 10 * np.cos(2 * np.pi * X)).sum(1)


def levy(X):
    W = 1 + (np.atleast_2d(X) - 1) / 4
    head = np.sin(np.pi * W[:, 0]) ** 2
    mid = ((W[:, :-1] - 1) ** 2 * (1 + 10 * np.sin(np.pi * W[:, :-1] + 1) ** 2)).sum(1)
    tail = (W[:, -1] - 1) ** 2 * (1 + np.sin(2 * np.pi * W[:, -1]) ** 2)
    return head + mid + tail


def zakharov(X):
    X = np.atleast_2d(X)
    s = (0.5 * np.arange(1, X.shape[1] + 1) * X).sum(1)
    return (X ** 2).sum(1) + s ** 2 + s ** 4


def dropwave(X):
    X = np.atleast_2d(X)
    r2 = (X ** 2).sum(1)
    return -(1 + np.cos(12 * np.sqrt(r2))) / (0.5 * r2 + 2)


def eggholder(X):
    x1, x2 = np.atleast_2d(X).T
    return (-(x2 + 47) * np.sin(np.sqrt(np.abs(x2 + x1 / 2 + 47)))
            - x1 * np.sin(np.sqrt(np.abs(x1 - (x2 + 47)))))


def branin(X):
    x1, x2 = np.atleast_2d(X).T
    b, c, t = 5.1 / (4 * np.pi ** 2), 5 / np.pi, 1 / (8 * np.pi)
    return (x2 - b * x1 ** 2 + c * x1 - 6) ** 2 + 10 * (1 - t) * np.cos(x1) + 10


def goldstein_price(X):
    x1, x2 = np.atleast_2d(X).T
    a = 1 + (x1 + x2 + 1) ** 2 * (19 - 14 * x1 + 3 * x1 ** 2 - 14 * x2 + 6 * x1 * x2 + 3 * x2 ** 2)
    b = 30 + (2 * x1 - 3 * x2) ** 2 * (18 - 32 * x1 + 12 * x1 ** 2 + 48 * x2 - 36 * x1 * x2 + 27 * x2 ** 2)
    return a * b


def six_hump_camel(X):
    x1, x2 = np.atleast_2d(X).T
    return (4 - 2.1 * x1 ** 2 + x1 ** 4 / 3) * x1 ** 2 + x1 * x2 + (-4 + 4 * x2 ** 2) * x2 ** 2


HARTMANN_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
HARTMANN3_A = np.array([[3, 10, 30], [0.1, 10, 35], [3, 10, 30], [0.1, 10, 35]], dtype=float)
HARTMANN3_P = 1e-4 * np.array([[3689, 1170, 2673], [4699, 4387, 7470],
                               [1091, 8732, 5547], [381, 5743, 8828]], dtype=float)
HARTMANN6_A = np.array([[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14],
                        [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]], dtype=float)
HARTMANN6_P = 1e-4 * np.array([[1312, 1696, 5569, 124, 8283, 5886],
                               [2329, 4135, 8307, 3736, 1004, 9991],
                               [2348, 1451, 3522, 2883, 3047, 6650],
                               [4047, 8828, 8732, 5743, 1091, 381]], dtype=float)


def _hartmann(X, A, P):
    X = np.atleast_2d(X)
    inner = (A[None] * (X[:, None, :] - P[None]) ** 2).sum(-1)
    return -(HARTMANN_ALPHA * np.exp(-inner)).sum(1)


def hartmann3(X):
    return _hartmann(X, HARTMANN3_A, HARTMANN3_P)


def hartmann6(X):
    return _hartmann(X, HARTMANN6_A, HARTMANN6_P)


def styblinski_tang(X):
    X = np.atleast_2d(X)
    return 0.5 * (X ** 4 - 16 * X ** 2 + 5 * X).sum(1)


def rosenbrock(X):
    X = np.atleast_2d(X)
    return (100 * (X[:, 1:] - X[:, :-1] ** 2) ** 2 + (1 - X[:, :-1]) ** 2).sum(1)


def michalewicz(X, m=10):
    X = np.atleast_2d(X)
    i = np.arange(1, X.shape[1] + 1)
    return -(np.sin(X) * np.sin(i * X ** 2 / np.pi) ** (2 * m)).sum(1)
