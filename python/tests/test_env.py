"""The Gymnasium-style environment (duck-typed API) and its example task, CartPoleEnv."""
import numpy as np

import gauss


def balance(obs):
    """A PD controller on the pole angle and cart position (gains chosen by hand)."""
    x, angle, v, w = obs
    return np.clip([8.0 * angle + 1.5 * w + 0.3 * x + 0.5 * v], -1.0, 1.0)


def test_api_shapes_and_seeding():
    env = gauss.CartPoleEnv()
    assert env.action_space.shape == (1,) and env.observation_space.shape == (4,)
    assert env.action_space.low.tolist() == [-1.0] and env.action_space.high.tolist() == [1.0]
    obs1, info = env.reset(seed=3)
    obs2, _ = env.reset(seed=3)
    obs3, _ = env.reset(seed=4)
    assert isinstance(info, dict) and obs1.shape == (4,)
    assert np.array_equal(obs1, obs2) and not np.array_equal(obs1, obs3)
    assert env.observation_space.contains(obs1)
    a = env.action_space.sample()
    assert env.action_space.contains(a)
    obs, reward, terminated, truncated, info = env.step(a)
    assert obs.shape == (4,) and isinstance(reward, float)
    assert isinstance(terminated, bool) and isinstance(truncated, bool)
    assert info["time"] == env.model.opt["timestep"] * env.frame_skip


def test_observation_is_the_state_after_the_step():
    env = gauss.CartPoleEnv()
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(np.array([0.5]))
    assert np.array_equal(obs, np.concatenate([env.data.qpos, env.data.qvel]))


def test_without_control_the_pole_falls_and_the_episode_terminates():
    env = gauss.CartPoleEnv()
    obs, _ = env.reset(seed=1)
    total, steps = 0.0, 0
    while True:
        obs, reward, terminated, truncated, _ = env.step(np.zeros(1))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert terminated and not truncated
    assert abs(obs[1]) > env.angle_limit
    assert steps < 200 and total == steps - 1


def test_a_balancing_controller_survives_until_truncation():
    env = gauss.CartPoleEnv()
    obs, _ = env.reset(seed=2)
    total = 0.0
    for _ in range(1000):
        obs, reward, terminated, truncated, _ = env.step(balance(obs))
        total += reward
        if terminated or truncated:
            break
    assert truncated and not terminated
    assert total == env.max_episode_steps
    assert abs(obs[1]) < 0.05 and abs(obs[0]) < 0.5


def test_a_custom_task_by_subclassing(models):
    class Swing(gauss.GaussEnv):
        def reward(self, action):
            return float(self.data.qvel[1] ** 2)

    env = Swing(str(models / "cartpole.xml"), frame_skip=5, max_episode_steps=3, integrator="euler")
    assert env.engine.model.opt["integrator"] == "euler"
    obs, _ = env.reset()
    for i in range(3):
        obs, r, term, trunc, _ = env.step(np.ones(1))
    assert trunc and env.data.time == 15 * env.model.opt["timestep"]
    assert obs.shape == (4,)  # default observation: qpos and qvel
