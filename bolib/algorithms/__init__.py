"""Registry of ask/tell optimisers: ``make_optimizer(name, dim, seed, **settings)``.

Paper modules register their methods with :func:`register`; ``python -m bolib list`` shows them.
"""
from __future__ import annotations

from bolib.algorithms.base import Optimizer
from bolib.algorithms.baselines import GPEI, GPPI, GPTS, GPUCB, GPOptimizer, RandomSearch
from bolib.errors import check_choice

METHODS: dict[str, type[Optimizer]] = {}


def register(cls: type[Optimizer]) -> type[Optimizer]:
    """Class decorator: make an optimiser available by its ``name``."""
    if cls.name in METHODS and METHODS[cls.name] is not cls:
        raise ValueError(f"method name {cls.name!r} is already registered")
    METHODS[cls.name] = cls
    return cls


for _cls in (RandomSearch, GPUCB, GPEI, GPPI, GPTS):
    register(_cls)

from bolib.algorithms.egp_ts import EGPEI, EGPTS, EXP3BO, FBGPTS, RFGPTS, BanditBO  # noqa: E402
from bolib.algorithms.gp_ucb_plus import Exploit, ExploitPlus, Explore, GPUCBPlus  # noqa: E402
from bolib.algorithms.reference import BoTorchLogEI  # noqa: E402

for _cls in (Exploit, Explore, GPUCBPlus, ExploitPlus, BoTorchLogEI, EGPTS, RFGPTS, BanditBO, EXP3BO, EGPEI, FBGPTS):
    register(_cls)


def make_optimizer(name: str, dim: int, seed: int = 0, **settings) -> Optimizer:
    """Build the registered optimiser ``name``; unknown settings raise a ``TypeError`` naming them."""
    cls = METHODS[check_choice("method", name, METHODS)]
    return cls(dim, seed, **settings)


__all__ = ["METHODS", "Optimizer", "GPOptimizer", "make_optimizer", "register"]
