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


def cartpole_v0_steps(W, start, max_steps=200):
    """CartPole-v0's dynamics written out independently of gymnasium (Barto, Sutton & Anderson 1983 with the
    constants of gym's CartPole: g = 9.8, cart mass 1, pole mass 0.1, half-length 0.5, force 10, dt = 0.02,
    explicit Euler; the episode ends when |x| > 2.4 or |theta| > 12 degrees). The policy sees the state in
    float32, as the environment returns it."""
    g, m_cart, m_pole, half, force_mag, dt = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    total, pml = m_cart + m_pole, m_pole * half
    x, x_dot, theta, theta_dot = np.asarray(start, dtype=np.float64)
    for step in range(1, max_steps + 1):
        obs = np.array([x, x_dot, theta, theta_dot], dtype=np.float32)
        force = force_mag if int(np.argmax(W @ obs)) == 1 else -force_mag
        cos, sin = np.cos(theta), np.sin(theta)
        temp = (force + pml * theta_dot ** 2 * sin) / total
        theta_acc = (g * sin - cos * temp) / (half * (4.0 / 3.0 - m_pole * cos ** 2 / total))
        x_acc = temp - pml * theta_acc * cos / total
        x, x_dot = x + dt * x_dot, x_dot + dt * x_acc
        theta, theta_dot = theta + dt * theta_dot, theta_dot + dt * theta_acc
        if abs(x) > 2.4 or abs(theta) > 12 * 2 * np.pi / 360:
            return step
    return max_steps


def test_episode_length_matches_independently_written_dynamics():
    """The benchmark's episodes (gymnasium's environment) against the dynamics written out above, from the same
    start state (gymnasium's reset draw for the seed plus the task's centre): same length for every policy."""
    rng = np.random.default_rng(1)
    lengths = []
    for k in range(20):
        W = rng.uniform(-1, 1, (2, 4))
        center = rng.uniform(-0.1, 0.1, 4)
        env = gym.make("CartPole-v1").unwrapped
        env.reset(seed=k)
        start = center + np.asarray(env.state, dtype=np.float64)
        lengths.append(episode_return(W, center, k))
        assert lengths[-1] == cartpole_v0_steps(W, start), k
    assert len(set(lengths)) > 3 and max(lengths) == 200  # the policies differ, some balance to the cap
