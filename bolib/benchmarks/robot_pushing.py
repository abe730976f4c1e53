"""Robot pushing on Box2D (paper 000, Figs. 3 and 7; the task of Wang & Jegelka 2017).

A rectangular hand (half-extents 0.3 x 1) pushes a circular object (radius 1, at the origin) on a
frictional table (gravity off; friction joints to a static base: object max force 5 and torque 2,
hand 2 and 2). The hand is driven towards a desired velocity by a force mass * (v_des - v) * 30
(and its rotation damped by a torque mass * (0 - omega) * 30) for ``int(10 * duration)`` steps of
0.01 s, then the world runs 100 more steps. The objective is f = 5 - ||goal - final object position||.

* 3-D: x = (r_x, r_y, duration) in [-5, 5]^2 x [1, 30]; the hand faces the object
  (angle arctan(r_y / r_x)) and v_des = 5 * unit vector from the hand to the object.
* 4-D: x = (r_x, r_y, duration, angle) with angle in [0, 2 pi]; v_des = 10 * (-r_x, -r_y) / ||.||.

The desired velocity gets N(0, 0.1^2) noise per component, drawn once per evaluation. Here that
noise is seeded from the goal's seed and the input itself, so the objective is a deterministic
(though rough) function: the same seed and input always give the same value.
"""
from __future__ import annotations

import hashlib
import math

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark

TIME_STEP, VELOCITY_ITERATIONS, POSITION_ITERATIONS = 0.01, 10, 10
FORCE_GAIN = 30.0
FREE_STEPS = 100
BOUNDS = {3: np.array([[-5.0, -5.0, 1.0], [5.0, 5.0, 30.0]]),
          4: np.array([[-5.0, -5.0, 1.0, 0.0], [5.0, 5.0, 30.0, 2 * math.pi]])}


def push(hand_xy, angle, v_des, duration) -> np.ndarray:
    """Simulate one push; returns the object's final position."""
    from Box2D import b2CircleShape, b2PolygonShape, b2Vec2, b2World

    world = b2World(gravity=(0.0, 0.0), doSleep=True)
    base = world.CreateStaticBody(position=(0, 0), shapes=b2PolygonShape(box=(500, 500)))
    thing = world.CreateDynamicBody(position=(0, 0))
    thing.CreateFixture(shape=b2CircleShape(radius=1), density=0.05, friction=0.01)
    world.CreateFrictionJoint(bodyA=base, bodyB=thing, maxForce=5, maxTorque=2)
    hand = world.CreateDynamicBody(position=tuple(hand_xy), angle=float(angle))
    hand.CreateFixture(shape=b2PolygonShape(box=(0.3, 1)), density=0.1, friction=0.1)
    world.CreateFrictionJoint(bodyA=base, bodyB=hand, maxForce=2, maxTorque=2)
    target = b2Vec2(float(v_des[0]), float(v_des[1]))
    steps = int(10 * duration)
    for t in range(steps + FREE_STEPS):
        if t < steps:
            hand.ApplyTorque(hand.mass * (0.0 - hand.angularVelocity) * FORCE_GAIN, wake=True)
            hand.ApplyForce(hand.mass * (target - hand.linearVelocity) * FORCE_GAIN, hand.position, wake=True)
        world.Step(TIME_STEP, VELOCITY_ITERATIONS, POSITION_ITERATIONS)
    return np.array(thing.position)


def _velocity_noise(seed: int, x: np.ndarray) -> np.ndarray:
    digest = hashlib.sha256(np.asarray(x, dtype=np.float64).tobytes() + str(seed).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little")).normal(0.0, 0.1, 2)


def push_distance(x, goal, seed: int) -> float:
    """||goal - final object position|| for one native input ``x`` (3-D or 4-D)."""
    x = np.asarray(x, dtype=float)
    rx, ry, duration = x[:3]
    away = np.array([-rx, -ry])
    norm = max(float(np.hypot(rx, ry)), 1e-12)  # guard r = 0
    if len(x) == 3:
        angle = math.atan(ry / rx) if rx != 0 else math.pi / 2
        v_des = 5.0 * away / norm
    else:
        angle = x[3]
        v_des = 10.0 * away / norm
    final = push((rx, ry), angle, v_des + _velocity_noise(seed, x), duration)
    return float(np.linalg.norm(np.asarray(goal) - final))


def robot_pushing(dim: int, seed: int) -> Problem:
    """The pushing task in ``dim`` = 3 or 4 dimensions with the goal of ``seed`` (uniform on [-5, 5]^2)."""
    if dim not in BOUNDS:
        raise ValueError(f"robot pushing is defined for dim 3 or 4, not {dim}")
    goal = np.random.default_rng([seed, 7919]).uniform(-5, 5, 2)

    def fn(X):
        return np.array([5.0 - push_distance(x, goal, seed) for x in np.atleast_2d(X)])

    return Problem(f"robot-push{dim}", fn, BOUNDS[dim], optimum=5.0, meta={"goal": goal, "seed": seed,
                                                                           "optimum": "upper bound 5 (distance 0)"})


@benchmark(3, fixed=True)
def robot_push3(d, goal_seed: int = 0):
    """Paper 000's 3-D pushing task (:func:`robot_pushing`) with the goal of ``goal_seed``."""
    return robot_pushing(3, goal_seed)


@benchmark(4, fixed=True)
def robot_push4(d, goal_seed: int = 0):
    """Paper 000's 4-D pushing task (:func:`robot_pushing`) with the goal of ``goal_seed``."""
    return robot_pushing(4, goal_seed)
