"""Non-stationary hyperparameter tuning (paper 004, Dai et al. 2022, arXiv:2206.06872, Sec. 6.2, Figs. 2a-b
and 8c), offline stand-in.

The paper tunes a logistic-regression classifier for the Pima diabetes data, whose training set grows
over time: the tuning runs on the four earlier (smaller) training sets are the meta-tasks of the run on
the full set. Pima is not bundled with scikit-learn; the stand-in is scikit-learn's diabetes data (442
patients, 10 baseline variables), its target (disease progression after one year) cut at the median into
a binary label. A fixed permutation (seed 0) holds out 20% (88 rows) for validation (the paper: 10%; on
44 rows the loss surface is too rough to follow); the training sets are the first 20/40/60/80/100% of the
remaining 354 rows (``fraction``). The features are the 10 variables and their degree-2 products (65),
standardised with the full training set's mean and SD (the same map for every task); the products let
the model overfit a small training set, so how much training is best depends on the training size.

The model is logistic regression trained by mini-batch SGD (numpy, weights from zero): ``epochs`` = 20
shuffles of the training rows are laid end to end and cut into full batches (a ragged last batch is dropped,
so there are floor(20 n / batch) updates of equal size; nearby batch sizes then see nearly the same rows in the
same order, which keeps the objective smoother along the batch axis), with the paper's three
hyperparameters on the unit cube: batch size round(20 + 40 u_1) in [20, 60], L2 penalty 10^(-6 + 4 u_2)
in [1e-6, 1e-2] (log scale) and learning rate 0.01 + 0.09 u_3 in [0.01, 0.1]. The objective is minus
the validation log-loss (mean cross-entropy; the paper's validation error takes few values on a small
validation set), averaged over ``ORDERINGS`` = 4 fixed shuffle streams (seeds 0-3), which smooths the
SGD noise (near the target's best, neighbouring batch sizes still differ by up to 0.0024); it is deterministic and its optimum is unknown (NaN). Its shape, pinned by tests:
the best values lie on a ridge where a larger batch goes with a larger learning rate (about the same step per
row); the best point differs between training sizes and is not at a corner of the batch/learning-rate square;
the penalty range barely matters (as in the paper, whose L2 range is this one).

``tasks`` (a benchmark option) are previous tasks' observations for meta-BO,
``[{"X": (N, 3) unit-cube points, "y": (N,) values}, ...]``; they go to ``Problem.meta["tasks"]``.
"""
from __future__ import annotations

import functools

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark

FRACTIONS = (0.2, 0.4, 0.6, 0.8, 1.0)
VALIDATION = 88
ORDERINGS = 4


@functools.lru_cache(maxsize=1)
def _data():
    from sklearn.datasets import load_diabetes
    from sklearn.preprocessing import PolynomialFeatures

    X, progression = load_diabetes(return_X_y=True)
    y = (progression > np.median(progression)).astype(float)
    order = np.random.default_rng(0).permutation(len(y))
    X, y = X[order], y[order]
    X_val, y_val, X_tr, y_tr = X[:VALIDATION], y[:VALIDATION], X[VALIDATION:], y[VALIDATION:]
    mean, sd = X_tr.mean(0), X_tr.std(0)
    products = PolynomialFeatures(2, include_bias=False)
    F_tr, F_val = products.fit_transform((X_tr - mean) / sd), products.transform((X_val - mean) / sd)
    mean, sd = F_tr.mean(0), F_tr.std(0)
    return (F_tr - mean) / sd, y_tr, (F_val - mean) / sd, y_val


def hyperparameters(u) -> tuple[int, float, float]:
    """(batch size, L2 penalty, learning rate) of unit-cube point ``u``."""
    u = np.asarray(u, dtype=float)
    return int(round(20 + 40 * u[0])), float(10 ** (-6 + 4 * u[1])), float(0.01 + 0.09 * u[2])


def validation_scores(u, fraction: float = 1.0, epochs: int = 20) -> tuple[float, float]:
    """Validation log-loss and accuracy of mini-batch SGD logistic regression trained on the first
    ``fraction`` of the training rows with the hyperparameters of ``u``, each the mean over the
    ``ORDERINGS`` batch orders (see the module docstring)."""
    X_tr, y_tr, X_val, y_val = _data()
    n = int(round(fraction * len(y_tr)))
    X, y = X_tr[:n], y_tr[:n]
    batch, l2, lr = hyperparameters(u)
    losses, accuracies = [], []
    for order_seed in range(ORDERINGS):
        order = np.random.default_rng(order_seed)
        stream = np.concatenate([order.permutation(n) for _ in range(epochs)])
        w, b = np.zeros(X.shape[1]), 0.0
        for start in range(0, len(stream) - batch + 1, batch):
            rows = stream[start:start + batch]
            p = 1.0 / (1.0 + np.exp(-(X[rows] @ w + b)))
            err = p - y[rows]
            w -= lr * (X[rows].T @ err / batch + l2 * w)
            b -= lr * err.mean()
        logit = X_val @ w + b
        losses.append(np.mean(np.logaddexp(0.0, logit) - y_val * logit))
        accuracies.append(np.mean((logit > 0) == (y_val > 0.5)))
    return float(np.mean(losses)), float(np.mean(accuracies))


@benchmark(3, fixed=True)
def nonstationary_lr(d, fraction: float = 1.0, epochs: int = 20, tasks=None):
    """Logistic regression on a growing training set (see the module docstring): minus the validation log-loss."""
    if not any(np.isclose(fraction, f) for f in FRACTIONS):
        raise ValueError(f"fraction must be one of {FRACTIONS}; got {fraction}")

    def fn(U):
        return np.array([-validation_scores(u, fraction, epochs)[0] for u in np.atleast_2d(U)])

    meta = {"fraction": fraction, "epochs": epochs, "stands_in_for": "Pima diabetes"}
    if tasks is not None:
        meta["tasks"] = tasks
    return Problem("nonstationary-lr", fn, np.array([np.zeros(3), np.ones(3)]), meta=meta)
