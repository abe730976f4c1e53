"""Library reference methods (bolib.algorithms.reference): BoTorch's LogEI behind the ask/tell protocol."""
import numpy as np

from bolib.algorithms import make_optimizer
from bolib.benchmarks import get_benchmark
from bolib.loop import run


def test_botorch_reference_runs_through_the_loop():
    trace = run(get_benchmark("branin"), make_optimizer("botorch-logei", 2, seed=0, num_restarts=2,
                                                        raw_samples=32), budget=7, seed=0, n_init=4)
    assert len(trace.f) == 7 and np.all(np.isfinite(trace.f))
