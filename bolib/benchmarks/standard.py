"""The standard synthetic test functions as benchmarks (each maximises ``-f``, see :mod:`bolib.benchmarks`).

Every builder takes the dimension ``d`` and returns a :class:`Problem` with the known optimum and
maximisers; ``tests/benchmarks/test_registry.py`` checks each against BoTorch's test functions or a
multistart certificate.
"""
from __future__ import annotations

import numpy as np

from bolib.benchmarks import synthetic as sf
from bolib.benchmarks.problem import Problem, benchmark


def _negated(fn):
    return lambda X: -fn(X)


def _box(lo, hi, dim):
    return np.array([np.broadcast_to(lo, (dim,)), np.broadcast_to(hi, (dim,))], dtype=float)


@benchmark(10)
def ackley(d):
    return Problem("ackley", _negated(sf.ackley), _box(-32.768, 32.768, d), 0.0, np.zeros((1, d)))


@benchmark(5, fixed=True)
def ackley5_unit(d):
    x = np.full(5, 0.5766715)
    x[:2] = 1.0
    return Problem("ackley5-unit", sf.ackley, _box(0, 1, 5), 4.710965, x[None],
                   meta={"paper_optimum": 4.6930, "paper_argmax": [0.6231, 0.6231, 1, 0.6231, 0.6231]})


@benchmark(10)
def rastrigin(d):
    return Problem("rastrigin", _negated(sf.rastrigin), _box(-5.12, 5.12, d), 0.0, np.zeros((1, d)))


@benchmark(10)
def levy(d):
    return Problem("levy", _negated(sf.levy), _box(-10, 10, d), 0.0, np.ones((1, d)))


@benchmark(4)
def zakharov(d):
    return Problem("zakharov", _negated(sf.zakharov), _box(-5, 10, d), 0.0, np.zeros((1, d)))


@benchmark(2, fixed=True)
def dropwave(d):
    return Problem("dropwave", _negated(sf.dropwave), _box(-5.12, 5.12, 2), 1.0, np.zeros((1, 2)))


@benchmark(2, fixed=True)
def eggholder(d):
    return Problem("eggholder", _negated(sf.eggholder), _box(-512, 512, 2), 959.6406627208,
                   np.array([[512.0, 404.2319]]))


@benchmark(2, fixed=True)
def branin(d):
    return Problem("branin", _negated(sf.branin), np.array([[-5.0, 0.0], [10.0, 15.0]]), -0.397887357729739,
                   np.array([[-np.pi, 12.275], [np.pi, 2.275], [9.42478, 2.475]]))


@benchmark(2, fixed=True)
def goldstein_price(d):
    return Problem("goldstein-price", _negated(sf.goldstein_price), _box(-2, 2, 2), -3.0, np.array([[0.0, -1.0]]))


@benchmark(2, fixed=True)
def six_hump_camel(d):
    return Problem("six-hump-camel", _negated(sf.six_hump_camel), np.array([[-3.0, -2.0], [3.0, 2.0]]),
                   1.0316284534898774, np.array([[0.0898, -0.7126], [-0.0898, 0.7126]]))


@benchmark(3, fixed=True)
def hartmann3(d):
    return Problem("hartmann3", _negated(sf.hartmann3), _box(0, 1, 3), 3.862779787332,
                   np.array([[0.114614, 0.555649, 0.852547]]))


@benchmark(6, fixed=True)
def hartmann6(d):
    return Problem("hartmann6", _negated(sf.hartmann6), _box(0, 1, 6), 3.32236801141551,
                   np.array([[0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573]]))


@benchmark(2)
def styblinski_tang(d):
    return Problem("styblinski-tang", _negated(sf.styblinski_tang), _box(-5, 5, d), 39.16616570377142 * d,
                   np.full((1, d), -2.903534018185960))


@benchmark(2)
def rosenbrock(d):
    return Problem("rosenbrock", _negated(sf.rosenbrock), _box(-5, 10, d), 0.0, np.ones((1, d)))


MICHALEWICZ_OPTIMA = {2: 1.80130341, 5: 4.687658, 10: 9.66015}


@benchmark(2)
def michalewicz(d):
    return Problem("michalewicz", _negated(sf.michalewicz), _box(0, np.pi, d),
                   MICHALEWICZ_OPTIMA.get(d, float("nan")),
                   np.array([[2.20290552, 1.57079633]]) if d == 2 else None)
