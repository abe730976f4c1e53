import math

import numpy as np
import pytest

from bolib.benchmarks.racing import TRACK, lap_time, racing_line


def test_a_circle_at_the_grip_limit_takes_its_circumference_over_the_cornering_speed():
    r = 1.5
    v = min(TRACK["v_max"], math.sqrt(TRACK["mu_g"] * r))
    assert lap_time(np.zeros(20), straight=0.0, radius=r) == pytest.approx(2 * math.pi * r / v, rel=2e-3)


def test_lap_time_is_deterministic_and_rewards_the_inside_line():
    problem = racing_line()
    U = np.random.default_rng(0).random((4, 20))
    np.testing.assert_array_equal(problem(U), problem(U))
    centre, inside = lap_time(np.zeros(20)), lap_time(np.full(20, -0.3))
    assert inside < centre < lap_time(np.full(20, 0.3))
    assert np.all(-problem(U) > inside)  # random wiggly lines are slower than a smooth inside line
    assert problem.dim == 20 and math.isnan(problem.optimum)
