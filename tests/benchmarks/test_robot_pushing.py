"""The robot-pushing simulator of paper 000, Sec. 6.4 (bolib.benchmarks.robot_pushing)."""
import numpy as np
import pytest


def test_robot_pushing_world_is_deterministic_for_a_seed():
    from bolib.benchmarks.robot_pushing import robot_pushing

    U = np.random.default_rng(0).random((4, 3))
    a, b = robot_pushing(3, seed=2), robot_pushing(3, seed=2)
    np.testing.assert_array_equal(a(U), b(U))
    assert not np.array_equal(a(U), robot_pushing(3, seed=3)(U))  # another goal
    assert np.all(a(U) <= 5.0)
    # pushing straight at the object for a long time moves it away from the origin
    from bolib.benchmarks.robot_pushing import push

    final = push((-3.0, 0.0), 0.0, (5.0, 0.0), duration=20)
    assert final[0] > 1.0 and abs(final[1]) < 0.5
    with pytest.raises(ValueError, match="3 or 4"):
        robot_pushing(5, 0)
