"""A Gymnasium-style environment over a Gauss engine, without depending on gymnasium.

It follows the Gymnasium API by duck typing: `reset(seed=None, options=None) -> (obs, info)`,
`step(action) -> (obs, reward, terminated, truncated, info)`, `observation_space` and
`action_space` with `shape`, `dtype`, `low`, `high`, `sample()` and `contains()`, `close()`.
RL code written for Gymnasium runs unchanged; wrap it in gymnasium.Env only if a library checks
isinstance.

Subclass GaussEnv and override the hooks `observation`, `reward`, `terminated`, and optionally
`initial_state` (randomize the state after reset) and `apply_action`. CartPoleEnv is the example
task.
"""
import os

import numpy as np

from . import Engine, load_model

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")


class Box:
    """A box-shaped space (the subset of gymnasium.spaces.Box that RL code uses)."""

    def __init__(self, low, high, shape=None, dtype=np.float64, seed=None):
        self.dtype = np.dtype(dtype)
        shape = tuple(shape) if shape is not None else np.shape(low)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), shape).copy()
        self.shape = shape
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)

    def sample(self):
        """Uniform in the box (infinite bounds: a standard normal in that coordinate)."""
        low = np.where(np.isfinite(self.low), self.low, -1.0)
        high = np.where(np.isfinite(self.high), self.high, 1.0)
        u = self.np_random.uniform(low, high)
        unbounded = ~(np.isfinite(self.low) & np.isfinite(self.high))
        u[unbounded] = self.np_random.standard_normal(np.count_nonzero(unbounded))
        return u.astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class GaussEnv:
    """Base class: one Engine and one Data; `frame_skip` physics steps per env step.

    model: a gauss.Model or an MJCF path; config / set_keys: as for gauss.Engine.
    Hooks (override): observation(), reward(action), terminated(), initial_state(rng),
    apply_action(action)."""

    metadata = {"render_modes": []}
    render_mode = None

    def __init__(self, model, frame_skip=1, max_episode_steps=None, config=None, **set_keys):
        if isinstance(model, (str, os.PathLike)):
            model = load_model(model)
        self.engine = Engine(model, config, **set_keys)
        self.model = self.engine.model
        self.data = self.engine.make_data()
        self.frame_skip = int(frame_skip)
        self.max_episode_steps = max_episode_steps
        self.elapsed_steps = 0
        self.np_random = np.random.default_rng()
        ctrlrange = np.array(self.model.actuator_ctrlrange, dtype=np.float64)
        limited = np.array(self.model.actuator_ctrllimited, dtype=bool)
        low = np.where(limited, ctrlrange[:, 0], -np.inf) if self.model.nu else np.zeros(0)
        high = np.where(limited, ctrlrange[:, 1], np.inf) if self.model.nu else np.zeros(0)
        self.action_space = Box(low, high)
        obs = self.observation()
        self.observation_space = Box(-np.inf, np.inf, shape=np.shape(obs))

    # ---------------------------------------------------------------- hooks
    def observation(self):
        """Default: qpos and qvel concatenated (a copy, so it is not changed by later steps)."""
        return np.concatenate([self.data.qpos, self.data.qvel])

    def reward(self, action):
        return 0.0

    def terminated(self):
        return False

    def initial_state(self, rng):
        """Called after the reset to the reference configuration: randomize self.data here."""

    def apply_action(self, action):
        self.data.ctrl[:] = action

    # ---------------------------------------------------------------- the Gymnasium API
    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
            self.action_space.seed(seed)
        self.engine.reset(self.data)
        self.initial_state(self.np_random)
        self.engine.forward(self.data)
        self.elapsed_steps = 0
        return self.observation(), {}

    def step(self, action):
        action = np.asarray(action, dtype=np.float64)
        if action.shape != self.action_space.shape:
            raise ValueError(f"action has shape {action.shape}, expected {self.action_space.shape}")
        self.apply_action(action)
        self.engine.step(self.data, self.frame_skip)
        self.elapsed_steps += 1
        obs = self.observation()
        reward = float(self.reward(action))
        terminated = bool(self.terminated())
        truncated = (self.max_episode_steps is not None
                     and self.elapsed_steps >= self.max_episode_steps and not terminated)
        return obs, reward, terminated, bool(truncated), {"time": self.data.time}

    def render(self):
        return None

    def close(self):
        pass

    @property
    def unwrapped(self):
        return self


class CartPoleEnv(GaussEnv):
    """Balance the pole upright on the cart (models/cartpole.xml, installed with the package).

    Observation: cart position, pole angle (0 = upright), cart velocity, pole angular velocity.
    Action: motor command in [-1, 1]. Reward 1 per step while |angle| < 0.2 rad and the cart
    stays on the rail; the episode terminates otherwise, and is truncated after 500 steps."""

    angle_limit = 0.2
    position_limit = 1.3

    def __init__(self, **kwargs):
        kwargs.setdefault("frame_skip", 2)
        kwargs.setdefault("max_episode_steps", 500)
        super().__init__(os.path.join(MODELS_DIR, "cartpole.xml"), **kwargs)

    def observation(self):
        # qpos/qvel, not the sensors: a step evaluates the sensors at the state it starts from
        return np.array([self.data.qpos[0], self.data.qpos[1], self.data.qvel[0], self.data.qvel[1]])

    def initial_state(self, rng):
        self.data.qpos[:] = rng.uniform(-0.05, 0.05, size=2)
        self.data.qvel[:] = rng.uniform(-0.05, 0.05, size=2)

    def terminated(self):
        x, angle = self.data.qpos
        return abs(angle) > self.angle_limit or abs(x) > self.position_limit

    def reward(self, action):
        return 0.0 if self.terminated() else 1.0
