"""The Gymnasium-style CartPoleEnv: a random policy against a hand-tuned PD controller.

Code written for Gymnasium environments runs unchanged: only the construction differs
(`env = gauss.CartPoleEnv()` instead of `env = gymnasium.make(...)`).

    PYTHONPATH=build/python /usr/bin/python3 python/examples/cartpole.py
"""
import numpy as np

import gauss


def run_episode(env, policy, seed):
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs))
        total += reward
        if terminated or truncated:
            return total, info["time"]


def pd_policy(obs):
    x, angle, v, w = obs
    return np.clip([8.0 * angle + 1.5 * w + 0.3 * x + 0.5 * v], -1.0, 1.0)


def main():
    env = gauss.CartPoleEnv()
    random_policy = lambda obs: env.action_space.sample()  # noqa: E731
    for name, policy in (("random", random_policy), ("PD controller", pd_policy)):
        returns = [run_episode(env, policy, seed)[0] for seed in range(10)]
        print(f"{name:14} mean return over 10 episodes: {np.mean(returns):6.1f} "
              f"(max {env.max_episode_steps})")


if __name__ == "__main__":
    main()
