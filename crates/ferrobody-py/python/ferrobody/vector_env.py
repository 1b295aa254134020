"""Vector environments in the manner of Gymnasium's `VectorEnv` (gymnasium is not required):
`reset(seed=...)` and `step(actions)` returning observations, rewards, terminated, truncated
and infos for every environment at once, with Gymnasium's default "next-step" autoreset.

All environments are stepped together in Rust (`ferrobody.VectorSimulation`), in parallel
with the GIL released; the observation, reward and termination are the user's functions,
called once per step on the whole batch (numpy arrays in, numpy arrays out), so Python's cost
does not grow with a loop over environments. Each environment steps exactly as a
`ferrobody.Simulation` stepped alone with the same controls.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from ferrobody._ferrobody import Model, State, VectorSimulation


class VectorEnv:
    """`num_envs` copies of `model` driven by its actuators (an action is one row of controls
    per environment, held for `dt` seconds).

    * `observation(sim)` → array (num_envs × obs_dim), with `sim` the `VectorSimulation`
      (`sim.q`, `sim.u`, `sim.t`, `sim.controls`, `sim.body_positions()`);
    * `reward(sim, actions, observations)` → array (num_envs,);
    * `terminated(sim, observations)` → bool array (num_envs,) (default: never);
    * `initial_state(rng)` → a `ferrobody.State` for a reset (default: the model's initial
      state), with `rng` the environment's `numpy.random.Generator`;
    * `max_episode_steps`: truncation after that many steps (default: none).

    A member whose step fails (the integrator gives up) ends its episode as terminated, with
    the message in `infos["error"]`.
    """

    metadata = {"autoreset_mode": "NextStep"}

    def __init__(
        self,
        model: Model,
        num_envs: int,
        observation: Callable[[VectorSimulation], np.ndarray],
        reward: Callable[[VectorSimulation, np.ndarray, np.ndarray], np.ndarray],
        *,
        terminated: Optional[Callable[[VectorSimulation, np.ndarray], np.ndarray]] = None,
        initial_state: Optional[Callable[[np.random.Generator], State]] = None,
        dt: float = 0.01,
        max_episode_steps: Optional[int] = None,
        integrator: Optional[str] = None,
        fixed_step: Optional[float] = None,
        threads: Optional[int] = None,
    ) -> None:
        self.model = model
        self.num_envs = num_envs
        self.dt = dt
        self.max_episode_steps = max_episode_steps
        self._observation = observation
        self._reward = reward
        self._terminated = terminated
        self._initial_state = initial_state
        self.sim = VectorSimulation(
            model, num_envs, integrator=integrator, fixed_step=fixed_step, threads=threads
        )
        self._rng = np.random.default_rng()
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._autoreset = np.zeros(num_envs, dtype=bool)

    def _reset_member(self, i: int) -> None:
        state = self._initial_state(self._rng) if self._initial_state else None
        self.sim.reset(i, state)
        self._steps[i] = 0

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every environment; `seed` seeds the generator given to `initial_state`.
        Returns (observations, infos)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for i in range(self.num_envs):
            self._reset_member(i)
        self._autoreset[:] = False
        return self._observe(), {"t": self.sim.t}

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Holds `actions` (num_envs × nctrl) for `dt` and returns (observations, rewards,
        terminated, truncated, infos). An environment that ended at the previous step is
        reset instead (its action ignored, reward 0, not terminated), as Gymnasium's
        next-step autoreset does."""
        actions = np.ascontiguousarray(actions, dtype=np.float64)
        held = np.where(self._autoreset[:, None], self.sim.controls, actions)
        errors = self.sim.step(held, self.dt)
        for i in np.flatnonzero(self._autoreset):
            self._reset_member(int(i))
        self._steps += 1
        observations = self._observe()
        rewards = np.asarray(self._reward(self.sim, actions, observations), dtype=np.float64)
        failed = np.array([e is not None for e in errors])
        terminated = failed.copy()
        if self._terminated is not None:
            terminated |= np.asarray(self._terminated(self.sim, observations), dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        if self.max_episode_steps is not None:
            truncated = self._steps >= self.max_episode_steps
        reset_now = self._autoreset.copy()
        rewards[reset_now] = 0.0
        terminated[reset_now] = False
        truncated[reset_now] = False
        self._steps[reset_now] = 0
        self._autoreset = terminated | truncated
        infos = {"t": self.sim.t, "error": np.array([e or "" for e in errors])}
        return observations, rewards, terminated, truncated, infos

    def _observe(self) -> np.ndarray:
        return np.asarray(self._observation(self.sim), dtype=np.float64)

    def close(self) -> None:
        """Nothing to release (Gymnasium's API)."""
