"""CartPole policy search (paper 004): episodes are gymnasium's own, tasks differ by their start region."""
import gymnasium as gym
import numpy as np

from bolib.benchmarks.cartpole import cartpole, episode_return, policy_value


def reference_episode(W, center, reset_seed, max_steps=200):
    """A plain gymnasium loop through the public wrappers: reset, move the start, step the greedy policy."""
    env = gym.make("CartPole-v1")
    env.reset(seed=reset_seed)
    env.unwrapped.state = np.asarray(center, dtype=np.float64) + env.unwrapped.state
    state = np.array(env.unwrapped.state, dtype=np.float32)
    steps = 0
    for _ in range(max_steps):
        state, reward, terminated, truncated, _ = env.step(int(np.argmax(W @ state)))
        steps += int(reward)
        if terminated or truncated:
            break
    return steps


def test_episode_matches_gymnasium_for_a_fixed_seed_and_policy():
    rng = np.random.default_rng(0)
    for k in range(10):
        W = rng.uniform(-1, 1, (2, 4))
        center = rng.uniform(-0.1, 0.1, 4)
        assert episode_return(W, center, k) == reference_episode(W, center, k)


def test_a_balancing_policy_reaches_the_cap_and_a_constant_push_does_not():
    balance = np.array([[0.0, 0.0, -1.0, -1.0], [0.0, 0.0, 1.0, 1.0]])  # push towards the side the pole falls
    push_left = np.zeros((2, 4))  # equal scores: argmax is always action 0 (push left)
    assert episode_return(balance, np.zeros(4), 0) == 200
    assert episode_return(push_left, np.zeros(4), 0) < 30


def test_objective_is_deterministic_and_depends_on_the_task():
    u = np.full(8, 0.5)
    u[2], u[3], u[6], u[7] = 0.0, 0.0, 1.0, 1.0  # the balancing policy
    assert policy_value(u, np.zeros(4)) == policy_value(u, np.zeros(4)) == 1.0
    far = (1.5, 1.0, 0.15, 1.0)
    assert policy_value(u, far) < 1.0
    problem = cartpole(8, center=far, n_episodes=3, tasks=[{"X": [u.tolist()], "y": [0.5]}])
    assert problem.meta["tasks"][0]["y"] == [0.5] and problem.optimum == 1.0
    np.testing.assert_array_equal(problem(u[None]), problem(u[None]))
