"""Policy search on CartPole (paper 004, Dai et al. 2022, arXiv:2206.06872, Sec. 6.4, Figs. 2e-f and 9).

The environment is gymnasium's ``CartPole-v1`` itself (its dynamics are those of gym's CartPole-v0,
which the paper used; v1 only lengthens the episode limit, and we stop every episode at 200 steps as
v0 does). A task is a *start region*: every episode starts at ``center`` + U(-0.05, 0.05)^4 (the
environment's own reset noise added to the task's centre), so tasks differ by where the cart and pole
start. The policy is the paper's linear softmax policy acting greedily: action = argmax_a (W s)_a with
W a 2 x 4 matrix, i.e. 8 parameters, each in [-1, 1] (the unit cube mapped linearly). The objective
is the return divided by 200 (1 = the pole stays up for all 200 steps), averaged over ``n_episodes``
episodes whose reset seeds are fixed by ``episode_seed``: the same W always gets the same value.

``tasks`` (a benchmark option) are previous tasks' observations for meta-BO,
``[{"X": (N, 8) unit-cube points, "y": (N,) values}, ...]``; they go to ``Problem.meta["tasks"]``.
"""
from __future__ import annotations

import functools

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.runtime import rng as make_rng

MAX_STEPS = 200
N_PARAMS = 8


@functools.lru_cache(maxsize=1)
def _env():
    import gymnasium as gym

    return gym.make("CartPole-v1").unwrapped


def episode_return(W: np.ndarray, center, reset_seed: int, max_steps: int = MAX_STEPS) -> int:
    """Steps of one episode (the environment's reward sum) of the greedy linear policy ``W`` (2 x 4)
    started at ``center`` + the environment's reset draw with ``reset_seed``, at most ``max_steps``."""
    env = _env()
    state, _ = env.reset(seed=int(reset_seed))
    env.state = np.asarray(center, dtype=np.float64) + env.state
    state = np.array(env.state, dtype=np.float32)
    total = 0
    for _ in range(max_steps):
        state, reward, terminated, _, _ = env.step(int(np.argmax(W @ state)))
        total += int(reward)
        if terminated:
            break
    return total


def policy_value(u, center, n_episodes: int = 10, episode_seed: int = 0, max_steps: int = MAX_STEPS) -> float:
    """Mean normalised return of the policy with unit-cube parameters ``u`` (8,) on one task."""
    W = (2.0 * np.asarray(u, dtype=float) - 1.0).reshape(2, 4)
    seeds = np.random.default_rng(episode_seed).integers(2 ** 31, size=n_episodes)
    return float(np.mean([episode_return(W, center, s, max_steps) for s in seeds]) / max_steps)


@benchmark(N_PARAMS, fixed=True)
def cartpole(d, center=(0.0, 0.0, 0.0, 0.0), n_episodes: int = 10, episode_seed: int = 0, tasks=None):
    """CartPole policy search for one start region (see the module docstring); optimum 1 (an upper bound)."""
    center = tuple(float(c) for c in center)

    def fn(U):
        return np.array([policy_value(u, center, n_episodes, episode_seed) for u in np.atleast_2d(U)])

    meta = {"center": center, "n_episodes": n_episodes, "optimum": "upper bound"}
    if tasks is not None:
        meta["tasks"] = tasks
    return Problem("cartpole", fn, np.array([np.zeros(N_PARAMS), np.ones(N_PARAMS)]), optimum=1.0, meta=meta)


# ---------------------------------------------------------- previous tasks of paper 004 (Figs. 2e-f, 9)
#: half-widths of the box the dissimilar tasks' start centres are drawn from (cart position, cart velocity,
#: pole angle, pole angular velocity)
CARTPOLE_BOX = (1.5, 1.0, 0.15, 1.0)


def cartpole_centres(n_similar: int, n_dissimilar: int, stream: str = "cartpole-centres", similar_sd: float = 0.02) -> np.ndarray:
    """Start-region centres of the previous tasks of paper 004's RL experiment (Sec. 6.2; the target's
    centre is 0).

    The paper says only that 3 start states are close to the target's and 7 random; here the first
    ``n_similar`` rows are N(0, similar_sd^2 I) and the other ``n_dissimilar`` uniform on
    [-1.5, 1.5] x [-1, 1] x [-0.15, 0.15] x [-1, 1] (:data:`CARTPOLE_BOX`), drawn from a fixed stream, so
    the previous tasks are the same in every run.
    """
    draw = make_rng(0, stream)
    box = np.asarray(CARTPOLE_BOX)
    return np.vstack([draw.normal(0.0, similar_sd, (n_similar, 4)), draw.uniform(-box, box, (n_dissimilar, 4))])
