"""Hyperparameter-tuning problems on datasets bundled with scikit-learn (no download at run time).

``random_forest_diabetes`` is the stand-in for paper 001's random-forest task (Sec. 5.2), which used
California housing (a run-time download, unavailable here). The diabetes data (442 x 10, bundled)
are split 80/20 with ``random_state=0`` and the target is standardised with the training split's
mean and SD, so a test MSE near 1 means "no better than the mean". The objective is minus the test
MSE of ``RandomForestRegressor(n_estimators=floor(x1), max_depth=floor(x2),
min_samples_split=floor(x3), max_features=x4, random_state=0)``; integer inputs are floored only here.
"""
from __future__ import annotations

import functools

import numpy as np

#: paper 001, App. C: (name, lower, upper); the first three are floored to integers
RF_SPACE = (("n_estimators", 10, 200), ("max_depth", 1, 20), ("min_samples_split", 2, 10),
            ("max_features", 0.1, 0.999))


@functools.lru_cache(maxsize=1)
def _diabetes_split():
    from sklearn.datasets import load_diabetes
    from sklearn.model_selection import train_test_split

    X, y = load_diabetes(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0)
    mean, sd = y_tr.mean(), y_tr.std()
    return X_tr, X_te, (y_tr - mean) / sd, (y_te - mean) / sd


def random_forest_test_mse(x) -> float:
    """Test MSE of the random forest with native hyperparameters ``x`` (see the module docstring)."""
    from sklearn.ensemble import RandomForestRegressor

    X_tr, X_te, y_tr, y_te = _diabetes_split()
    forest = RandomForestRegressor(n_estimators=int(np.floor(x[0])), max_depth=int(np.floor(x[1])),
                                   min_samples_split=int(np.floor(x[2])), max_features=float(x[3]),
                                   random_state=0, n_jobs=1)
    forest.fit(X_tr, y_tr)
    return float(np.mean((forest.predict(X_te) - y_te) ** 2))


def random_forest_objective(X) -> np.ndarray:
    """Minus the test MSE, row by row (to be maximised)."""
    return np.array([-random_forest_test_mse(x) for x in np.atleast_2d(X)])
