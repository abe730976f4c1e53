"""Image-classifier tuning on four related tasks: an offline stand-in for the CNN hyperparameter-tuning
experiment of paper 004 (Dai et al. 2022, arXiv:2206.06872, Sec. 6.1, Figs. 1e-f, 6 and 8a-b), which
trains a CNN on MNIST, SVHN, CIFAR-10 and CIFAR-100 (downloads and GPU-scale training).

Four classification tasks of 1,797 rows with 64 features each, standing in for the four image sets:

* ``digits`` (MNIST): scikit-learn's bundled 8 x 8 digits;
* ``digits-noisy`` (SVHN, digits in harder images): the same images, each moved by a random shift of
  at most one pixel in each direction (zero fill) and with N(0, 4^2) noise added to every pixel
  (pixel values are 0..16); the shifts and the noise are fixed (seed 0);
* ``g10`` (CIFAR-10): ``make_classification(n_samples=1797, n_features=64, n_informative=20,
  n_classes=10, class_sep=0.8, random_state=0)``, a harder problem of a different kind;
* ``g20`` (CIFAR-100): the same with 20 classes.

The tuned model is a small neural network like the paper's CNN: scikit-learn's
``MLPClassifier(hidden_layer_sizes=(32,), solver="sgd", learning_rate="invscaling", batch_size=64, max_iter=20,
tol=0, n_iter_no_change=21, random_state=0)`` (one hidden layer of 32 ReLU units, SGD with momentum 0.9 on
mini-batches of 64, 20 epochs always run) on a fixed stratified 70/30 split (features standardised with the
training part), with the paper's three hyperparameters (learning rate, its decay and the L2 penalty) mapped from
the unit cube:

    learning_rate_init = 10^(-4 + 4 u_1) in [1e-4, 1] (log), power_t = u_2 in [0, 1], alpha = 10^(-7 + 6 u_3) in [1e-7, 1e-1] (log),

where scikit-learn's inverse scaling divides the learning rate by (samples seen)^power_t. Unlike a linear model's,
the network's accuracy falls steeply away from good settings (a small rate does not learn in 20 epochs, a large
one diverges, a fast decay stops learning early), so most of the box is clearly worse than its best cells and a
method has room to beat random search.

The objective is the validation accuracy (to be maximised; the figures plot the best validation error).
Each task is tabulated once on a grid of ``levels`` values per axis (the cell centres u = (i + 1/2) /
levels), stored by :func:`bolib.benchmarks.tables.cached_table`; a query at a unit-cube point returns
the value of the cell that contains it (coordinate i selects floor(u_i levels)), so the optimum is the
best cell of the table and a run's simple regret reaches 0 when it finds that cell.

``tasks`` (a benchmark option) are previous tasks' observations for meta-BO,
``[{"X": (N, 3) unit-cube points, "y": (N,) values}, ...]``; they go to ``Problem.meta["tasks"]``.
"""
from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.benchmarks.tables import cached_table
from bolib.errors import check_choice

TASKS = ("digits", "digits-noisy", "g10", "g20")
#: what each task stands in for (the paper's image sets)
STANDS_IN_FOR = {"digits": "MNIST", "digits-noisy": "SVHN", "g10": "CIFAR-10", "g20": "CIFAR-100"}
DIM = 3
#: SGD epochs per training (the paper: 20 epochs of RMSprop)
EPOCHS = 20
#: hidden units of the network's one hidden layer, and its mini-batch size
HIDDEN, BATCH = 32, 64


def hyperparameters(u) -> dict:
    """The MLPClassifier settings of unit-cube point ``u`` (see the module docstring)."""
    u = np.clip(np.asarray(u, dtype=float), 0.0, 1.0)
    return {"learning_rate_init": float(10 ** (-4.0 + 4.0 * u[0])), "power_t": float(u[1]),
            "alpha": float(10 ** (-7.0 + 6.0 * u[2]))}


def _features(task: str) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits, make_classification

    if task in ("digits", "digits-noisy"):
        X, y = load_digits(return_X_y=True)
        if task == "digits-noisy":
            stream = np.random.default_rng(0)
            images = np.zeros((len(X), 10, 10))
            images[:, 1:9, 1:9] = X.reshape(-1, 8, 8)
            shifts = stream.integers(-1, 2, size=(len(X), 2))
            X = np.array([img[1 - dy:9 - dy, 1 - dx:9 - dx].ravel() for img, (dy, dx) in zip(images, shifts)])
            X = X + 4.0 * stream.standard_normal(X.shape)
        return X, y
    return make_classification(n_samples=1797, n_features=64, n_informative=20, n_classes=10 if task == "g10" else 20,
                               class_sep=0.8, random_state=0)


@functools.lru_cache(maxsize=4)
def _split(task: str):
    from sklearn.model_selection import train_test_split

    check_choice("task", task, TASKS)
    X, y = _features(task)
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    mu, sd = X_tr.mean(0), X_tr.std(0) + 1e-9
    return (X_tr - mu) / sd, (X_va - mu) / sd, y_tr, y_va


def validation_accuracy(task: str, u) -> float:
    """Validation accuracy of one training (seed 0) with the hyperparameters of unit-cube point ``u``."""
    from sklearn.neural_network import MLPClassifier

    X_tr, X_va, y_tr, y_va = _split(task)
    model = MLPClassifier(hidden_layer_sizes=(HIDDEN,), solver="sgd", learning_rate="invscaling", batch_size=BATCH,
                          max_iter=EPOCHS, tol=0.0, n_iter_no_change=EPOCHS + 1, random_state=0, **hyperparameters(u))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning after 20 epochs; a diverging run (large rate) overflows
        with np.errstate(all="ignore"):
            model.fit(X_tr, y_tr)
    return float(np.mean(model.predict(X_va) == y_va))


def cell_centres(levels: int) -> np.ndarray:
    """The centres of the grid's cells, (levels^3, 3), in table order (row-major over the three axes)."""
    axis = (np.arange(levels) + 0.5) / levels
    return np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), axis=-1).reshape(-1, DIM)


def cell_index(U, levels: int) -> np.ndarray:
    """Table row of each unit-cube point (rows of ``U``): coordinate i selects floor(u_i levels)."""
    U = np.clip(np.atleast_2d(np.asarray(U, dtype=float)), 0.0, 1.0)
    digits = np.minimum((U * levels).astype(int), levels - 1)
    return np.ravel_multi_index(tuple(digits.T), (levels,) * DIM)


@functools.lru_cache(maxsize=8)
def table(task: str, levels: int) -> np.ndarray:
    """Validation accuracies at :func:`cell_centres`, computed once per task and grid (:func:`cached_table`)."""
    import sklearn

    check_choice("task", task, TASKS)
    key = {"task": task, "levels": int(levels), "epochs": EPOCHS, "hidden": HIDDEN, "batch": BATCH, "sklearn": sklearn.__version__,
           "code": [inspect.getsource(f) for f in (hyperparameters, _features, _split, validation_accuracy)]}
    return cached_table(f"image-tuning-{task}", key,
                        lambda: np.array([validation_accuracy(task, u) for u in cell_centres(levels)]))


@benchmark(DIM, fixed=True)
def image_tuning(dim: int, task: str = "digits", levels: int = 8, tasks=None) -> Problem:
    """Validation accuracy of the network on one of the four tasks, over a tabulated grid (module docstring)."""
    check_choice("task", task, TASKS)
    levels = int(levels)
    if levels < 2:
        raise ValueError(f"levels must be >= 2; got {levels}")
    values = table(task, levels)
    best = int(np.argmax(values))
    meta = {"task": task, "levels": levels, "stands_in_for": STANDS_IN_FOR[task], "table": values}
    if tasks is not None:
        meta["tasks"] = tasks
    return Problem(f"image-tuning-{task}", lambda U: values[cell_index(U, levels)],
                   np.array([np.zeros(DIM), np.ones(DIM)]), optimum=float(values[best]),
                   argmax=cell_centres(levels)[best][None], meta=meta)
