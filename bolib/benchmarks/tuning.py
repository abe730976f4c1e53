"""Hyperparameter-tuning problems on datasets bundled with scikit-learn (no download at run time).

``mlp_tuning`` is the stand-in for paper 000's neural-network task (Sec. 6, Table 2): validation
accuracy of a two-layer ReLU MLP trained with Adam, averaged over ``repeats`` trainings, on a 70/30
split. Search space (unit cube u): neurons n_i = round(2 + 98 u_i) for the two layers, learning rate
10^(-6 + 5 u_3), batch size 2^round(2 + 4 u_4). Data: ``digits`` (for MNIST), ``breast-cancer``
(Wisconsin diagnostic, for the paper's Ljubljana set), ``iris``, ``wine``; the paper's
"Transportation" set is not available and has no substitute here.

``rf_friedman1`` is the stand-in for paper 001's random-forest task (Sec. 5.2, App. C), which used
California housing (20,640 x 8, a run-time download, unavailable here). The data are generated in
code: Friedman's first regression function (scikit-learn's ``make_friedman1``: 1,000 samples, 10
inputs of which 5 matter, Gaussian noise SD 1, ``random_state=0``), split 80/20 with
``random_state=0``; the target is standardised with the training split's mean and SD, so a test MSE
near 1 means "no better than the mean". Unlike the small diabetes set bundled with scikit-learn
(where random configurations score within 0.55-0.71 of each other), the forest's hyperparameters
matter here: over random configurations the test MSE ranges from 0.13 to 0.73 (shallow trees are
poor), so a tuner's choices show in the cumulative error. The objective is minus the test MSE of
``RandomForestRegressor(n_estimators=floor(x1), max_depth=floor(x2), min_samples_split=floor(x3),
max_features=x4, random_state=0)``; integer inputs are floored only here.
"""
from __future__ import annotations

import functools

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark

#: paper 001, App. C: (name, lower, upper); the first three are floored to integers
RF_SPACE = (("n_estimators", 10, 200), ("max_depth", 1, 20), ("min_samples_split", 2, 10),
            ("max_features", 0.1, 0.999))


#: the Friedman #1 data of :func:`rf_friedman1`: samples, inputs, noise SD
FRIEDMAN1 = {"n_samples": 1000, "n_features": 10, "noise": 1.0}


@functools.lru_cache(maxsize=1)
def _friedman1_split():
    from sklearn.datasets import make_friedman1
    from sklearn.model_selection import train_test_split

    X, y = make_friedman1(**FRIEDMAN1, random_state=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0)
    mean, sd = y_tr.mean(), y_tr.std()
    return X_tr, X_te, (y_tr - mean) / sd, (y_te - mean) / sd


def random_forest_test_mse(x) -> float:
    """Test MSE of the random forest with native hyperparameters ``x`` (see the module docstring)."""
    from sklearn.ensemble import RandomForestRegressor

    X_tr, X_te, y_tr, y_te = _friedman1_split()
    forest = RandomForestRegressor(n_estimators=int(np.floor(x[0])), max_depth=int(np.floor(x[1])),
                                   min_samples_split=int(np.floor(x[2])), max_features=float(x[3]),
                                   random_state=0, n_jobs=1)
    forest.fit(X_tr, y_tr)
    return float(np.mean((forest.predict(X_te) - y_te) ** 2))


def random_forest_objective(X) -> np.ndarray:
    """Minus the test MSE, row by row (to be maximised)."""
    return np.array([-random_forest_test_mse(x) for x in np.atleast_2d(X)])


MLP_DATASETS = ("digits", "breast-cancer", "iris", "wine")


@functools.lru_cache(maxsize=8)
def _classification_split(dataset: str, max_samples: int | None):
    from sklearn import datasets
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    loader = {"digits": datasets.load_digits, "breast-cancer": datasets.load_breast_cancer,
              "iris": datasets.load_iris, "wine": datasets.load_wine}[dataset]
    X, y = loader(return_X_y=True)
    if max_samples and len(y) > max_samples:
        X, _, y, _ = train_test_split(X, y, train_size=max_samples, random_state=0, stratify=y)
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    scaler = StandardScaler().fit(X_tr)
    return scaler.transform(X_tr), scaler.transform(X_va), y_tr, y_va


def mlp_hyperparameters(u) -> dict:
    """Table 2 of paper 000, mapped from the unit cube."""
    u = np.clip(np.asarray(u, dtype=float), 0, 1)
    return {"hidden_layer_sizes": (int(round(2 + 98 * u[0])), int(round(2 + 98 * u[1]))),
            "learning_rate_init": float(10 ** (-6 + 5 * u[2])), "batch_size": int(2 ** round(2 + 4 * u[3]))}


def mlp_validation_accuracy(u, dataset: str, repeats: int = 10, epochs: int = 20,
                            max_samples: int | None = None) -> float:
    """Mean validation accuracy over ``repeats`` trainings (seeds 0..repeats-1) at unit-cube ``u``."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    X_tr, X_va, y_tr, y_va = _classification_split(dataset, max_samples)
    scores = []
    for r in range(repeats):
        model = MLPClassifier(solver="adam", max_iter=epochs, tol=0.0, n_iter_no_change=10 ** 9,
                              random_state=r, **mlp_hyperparameters(u))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X_tr, y_tr)
        scores.append(model.score(X_va, y_va))
    return float(np.mean(scores))


def mlp_tuning(dataset: str, repeats: int = 10, epochs: int = 20, max_samples: int | None = None):
    """A :class:`Problem` maximising validation accuracy (optimum 1, an upper bound)."""
    def fn(U):
        return np.array([mlp_validation_accuracy(u, dataset, repeats, epochs, max_samples) for u in np.atleast_2d(U)])

    return Problem(f"mlp-{dataset}", fn, np.array([np.zeros(4), np.ones(4)]), optimum=1.0,
                   meta={"dataset": dataset, "repeats": repeats, "epochs": epochs, "optimum": "upper bound"})


@benchmark(4, fixed=True)
def rf_friedman1(d):
    """Paper 001's tuning task (stand-in data): minus the test MSE of a random forest over :data:`RF_SPACE`
    (optimum unknown)."""
    bounds = np.array([[row[1] for row in RF_SPACE], [row[2] for row in RF_SPACE]], dtype=float)
    return Problem("rf-friedman1", random_forest_objective, bounds,
                   meta={"inputs": [row[0] for row in RF_SPACE], "stands_in_for": "California housing"})


def _mlp_benchmark(dataset: str):
    @benchmark(4, fixed=True)
    def build(d, repeats: int = 10, epochs: int = 20, max_samples: int | None = None):
        return mlp_tuning(dataset, repeats, epochs, max_samples)
    build.__doc__ = f"Paper 000's MLP tuning on {dataset} (:func:`mlp_tuning`)."
    return build


mlp_digits, mlp_breast_cancer, mlp_iris, mlp_wine = (_mlp_benchmark(name) for name in MLP_DATASETS)
