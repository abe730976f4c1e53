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

The tuned model is the dense part of the paper's CNN (App. D.2: two fully connected layers of 64 ReLU units after
two convolutional layers, which 8 x 8 images and generated features leave no room for): a network of two hidden
layers of 64 ReLU units and a softmax output, trained by RMSprop (Keras's defaults: rho 0.9, epsilon 1e-7) on
mini-batches of 32 for 20 epochs (:func:`train`), on a fixed stratified 70/30 split (features standardised with
the training part). The paper's three hyperparameters, each on its range [1e-7, 1e-2], as Keras defines them, mapped
from the unit cube on a log scale (a deviation: the authors' code maps it linearly, which puts almost the whole box at
rates that train well; on the digits every cell of a 4 x 4 x 4 grid under the linear map reached 0.961-0.980, so random
search would be near the best at once):

    learning rate lr = 10^(-7 + 5 u_1), decay = 10^(-7 + 5 u_2), L2 lambda = 10^(-7 + 5 u_3);

the rate at update k is lr / (1 + decay k) and the loss adds lambda times the sum of the squared weights of each
layer (not the biases).

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

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.benchmarks.tables import cached_table
from bolib.errors import check_choice

TASKS = ("digits", "digits-noisy", "g10", "g20")
#: what each task stands in for (the paper's image sets)
STANDS_IN_FOR = {"digits": "MNIST", "digits-noisy": "SVHN", "g10": "CIFAR-10", "g20": "CIFAR-100"}
DIM = 3
#: RMSprop epochs per training (App. D.2: 20), the mini-batch size (Keras's default) and the hidden layers' widths
#: (the paper's fully connected layers)
EPOCHS, BATCH, HIDDEN = 20, 32, (64, 64)


def hyperparameters(u) -> dict:
    """The learning rate, its decay and the L2 penalty of unit-cube point ``u``, each on [1e-7, 1e-2], log scale."""
    u = np.clip(np.asarray(u, dtype=float), 0.0, 1.0)
    lr, decay, l2 = (float(10 ** (-7.0 + 5.0 * v)) for v in u)
    return {"lr": lr, "decay": decay, "l2": l2}


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


def train(X, y, n_classes: int, lr: float, decay: float, l2: float, seed: int = 0):
    """The network of the module docstring trained by RMSprop with time-based decay and an L2 penalty; returns it."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    widths = (X.shape[1], *HIDDEN, n_classes)
    layers = [torch.nn.Linear(a, b, dtype=torch.float32) for a, b in zip(widths[:-1], widths[1:])]
    with torch.no_grad():  # Keras's Glorot-uniform weights and zero biases, drawn from this training's own stream
        for layer in layers:
            bound = np.sqrt(6.0 / sum(layer.weight.shape))
            layer.weight.copy_(torch.rand(layer.weight.shape, generator=generator, dtype=torch.float32) * 2 * bound - bound)
            layer.bias.zero_()
    net = torch.nn.Sequential(*[m for layer in layers[:-1] for m in (layer, torch.nn.ReLU())], layers[-1])
    optimiser = torch.optim.RMSprop(net.parameters(), lr=lr, alpha=0.9, eps=1e-7)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda k: 1.0 / (1.0 + decay * k))
    X_t, y_t = torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y, dtype=torch.long)
    for _ in range(EPOCHS):
        order = torch.randperm(len(y_t), generator=generator)
        for batch in order.split(BATCH):
            loss = torch.nn.functional.cross_entropy(net(X_t[batch]), y_t[batch])
            loss = loss + l2 * sum(layer.weight.pow(2).sum() for layer in layers)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
    return net


def validation_accuracy(task: str, u) -> float:
    """Validation accuracy of one training (seed 0) with the hyperparameters of unit-cube point ``u`` (a diverged
    training, whose outputs are not finite, scores as predicting no class right)."""
    import torch

    X_tr, X_va, y_tr, y_va = _split(task)
    net = train(X_tr, y_tr, int(max(y_tr.max(), y_va.max())) + 1, **hyperparameters(u))
    with torch.no_grad():
        scores = net(torch.as_tensor(X_va, dtype=torch.float32)).numpy()
    if not np.all(np.isfinite(scores)):
        return 0.0
    return float(np.mean(scores.argmax(1) == y_va))


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
    """Validation accuracies at :func:`cell_centres`, computed once per task and grid (:func:`cached_table`). They hold
    on the pinned code paths (:mod:`bolib.pinning`): at the largest learning rates training is chaotic, and other
    kernels change the accuracy of some top cells, the best one included."""
    import sklearn
    import torch

    check_choice("task", task, TASKS)
    key = {"task": task, "levels": int(levels), "epochs": EPOCHS, "hidden": HIDDEN, "batch": BATCH, "sklearn": sklearn.__version__,
           "torch": torch.__version__,
           "code": [inspect.getsource(f) for f in (hyperparameters, _features, _split, train, validation_accuracy)]}
    return cached_table(f"image-tuning-{task}", key,
                        lambda: np.array([validation_accuracy(task, u) for u in cell_centres(levels)]))


def random_search_shortfall(values, n: int) -> float:
    """How far the best of ``n`` cells drawn at random without replacement falls short of the best cell, in
    expectation, over a table ``values``: with the values sorted, the k-th smallest is the best of the draw with
    probability C(k - 1, n - 1) / C(N, n). The stand-in's headroom: a method that beats random search by a margin
    needs a shortfall well above it."""
    from scipy.special import gammaln

    v = np.sort(np.asarray(values, dtype=float))
    N, k = len(v), np.arange(1, len(v) + 1)
    if not 1 <= n <= N:
        raise ValueError(f"n must be in 1..{N} (the table's cells); got {n}")
    valid = k >= n
    log_p = np.full(N, -np.inf)
    kk = k[valid]
    log_p[valid] = (gammaln(kk) - gammaln(n) - gammaln(kk - n + 1)) - (gammaln(N + 1) - gammaln(n + 1) - gammaln(N - n + 1))
    return float(v[-1] - np.sum(np.exp(log_p) * v))


def headroom(levels: int, draws=(5, 30)):
    """Per task, the best cell's accuracy, the median cell's, and :func:`random_search_shortfall` for each number of
    random cells in ``draws`` (a table: the stand-in's room to separate methods from random search)."""
    import pandas as pd

    rows = {}
    for task in TASKS:
        values = table(task, levels)
        rows[f"{task} ({STANDS_IN_FOR[task]} analogue)"] = {
            "best cell": values.max(), "median cell": float(np.median(values)),
            **{f"shortfall of the best of {n} random cells": random_search_shortfall(values, n) for n in draws}}
    return pd.DataFrame(rows).T


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
