"""Digits-MLP surrogate: a stand-in for the MNIST neural-architecture surrogate of paper 003
(arXiv:2209.10715, Fig. 2d), a random-forest surrogate of the validation error of a fully connected
network on MNIST (Falkner et al.'s ParamNet), which needs a download.

The same construction on scikit-learn's bundled digits data (1,797 8 x 8 images, 70/30 split, inputs
standardised with the training part): an MLPClassifier trained by SGD with an inverse-scaling learning
rate for ``EPOCHS`` epochs, with six hyperparameters on the unit cube,

    log10 learning rate in [-4, -1], log2 batch size in [4, 8], log2 units per layer in [4, 8],
    layers in {1, 2, 3} (floor(3 u)), log10 L2 penalty in [-6, -1], power_t of the schedule in [0.1, 0.9]

is trained at ``N_CONFIGS`` scrambled-Sobol configurations (seed 0); a RandomForestRegressor with 100
trees (random_state 0) fitted to their validation errors is the objective (minus its prediction, to
be maximised), deterministic like ParamNet. The training results are computed once (a few CPU minutes)
and stored under ``experiments/cache/tables/``. The optimum is the best prediction over
``N_OPTIMUM`` Sobol points (seed 1), the training configurations and the forest's best training
point: a lower estimate of the forest's maximum, so a run's regret can be slightly negative.
"""
from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.benchmarks.tables import cached_table

#: (name, lower, upper) of the six inputs, mapped linearly from the unit cube
SPACE = (("log10_learning_rate", -4.0, -1.0), ("log2_batch_size", 4.0, 8.0), ("log2_units", 4.0, 8.0),
         ("layers", 0.0, 1.0), ("log10_alpha", -6.0, -1.0), ("power_t", 0.1, 0.9))
#: training configurations of the surrogate (the NAS surrogate of the paper: a large set of runs)
N_CONFIGS = 64
#: SGD epochs per training
EPOCHS = 10
#: Sobol points of the optimum's estimate
N_OPTIMUM = 2 ** 16


def hyperparameters(u) -> dict:
    """The MLPClassifier settings of one unit-cube point (see the module docstring)."""
    u = np.clip(np.asarray(u, dtype=float), 0.0, 1.0)
    native = [lo + ui * (hi - lo) for ui, (_, lo, hi) in zip(u, SPACE)]
    layers = min(int(3 * u[3]), 2) + 1
    return {"learning_rate_init": 10 ** native[0], "batch_size": int(round(2 ** native[1])),
            "hidden_layer_sizes": (int(round(2 ** native[2])),) * layers, "alpha": 10 ** native[4],
            "power_t": native[5]}


@functools.lru_cache(maxsize=1)
def _split():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    X, y = load_digits(return_X_y=True)
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    mu, sd = X_tr.mean(0), X_tr.std(0) + 1e-9
    return (X_tr - mu) / sd, (X_va - mu) / sd, y_tr, y_va


def validation_error(u) -> float:
    """Validation error rate of the network at unit-cube point ``u`` (one training, seed 0)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    X_tr, X_va, y_tr, y_va = _split()
    net = MLPClassifier(solver="sgd", learning_rate="invscaling", max_iter=EPOCHS, n_iter_no_change=EPOCHS + 1,
                        tol=0.0, random_state=0, **hyperparameters(u))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X_tr, y_tr)
    return float(np.mean(net.predict(X_va) != y_va))


def configurations() -> np.ndarray:
    """The surrogate's training configurations: ``N_CONFIGS`` scrambled-Sobol points (seed 0)."""
    from scipy.stats import qmc

    return qmc.Sobol(len(SPACE), scramble=True, seed=0).random(N_CONFIGS)


@functools.lru_cache(maxsize=1)
def training_errors() -> np.ndarray:
    """Validation errors at :func:`configurations`, computed once (:func:`cached_table`)."""
    import sklearn

    key = {"space": SPACE, "n": N_CONFIGS, "epochs": EPOCHS, "sklearn": sklearn.__version__,
           "code": [inspect.getsource(f) for f in (hyperparameters, _split, validation_error)]}
    return cached_table("digits-nas", key, lambda: np.array([validation_error(u) for u in configurations()]))


@functools.lru_cache(maxsize=1)
def surrogate():
    """The random forest (100 trees, random_state 0) fitted to the training errors."""
    from sklearn.ensemble import RandomForestRegressor

    return RandomForestRegressor(n_estimators=100, random_state=0, n_jobs=1).fit(configurations(), training_errors())


@functools.lru_cache(maxsize=1)
def optimum() -> tuple[np.ndarray, float]:
    """(argmax, max) of minus the surrogate over N_OPTIMUM Sobol points and the training points."""
    from scipy.stats import qmc

    points = np.vstack([qmc.Sobol(len(SPACE), scramble=True, seed=1).random(N_OPTIMUM), configurations()])
    values = -surrogate().predict(points)
    best = int(np.argmax(values))
    return points[best], float(values[best])


@benchmark(len(SPACE), fixed=True)
def digits_nas(dim: int) -> Problem:
    """Minus the surrogate's validation error of a digits MLP (see the module docstring)."""
    forest = surrogate()
    x_best, best = optimum()
    return Problem("digits-nas", lambda U: -forest.predict(np.atleast_2d(U)),
                   np.array([np.zeros(len(SPACE)), np.ones(len(SPACE))]), optimum=best, argmax=x_best[None])
