"""Reaching with the Panda: a cross-entropy method (CEM) search over the targets of its
joint position servos, every candidate an environment of a ferrobody.VectorEnv stepped in
parallel in Rust.

The Panda of example-robot-data (testdata/urdf/panda.urdf) gets a position servo on each of
its nine joints (`actuators="position"`); a candidate is the seven arm joints' targets
(the fingers stay shut), held for an episode. The reward is minus the distance from the
origin of panda_link7 (the wrist, which carries the hand) to a goal point. CEM keeps the best
fifth of each generation and refits a Gaussian to it.

    python examples/python/panda_reach_cem.py --generations 30 --envs 64

The test suite runs it on a small budget (crates/ferrobody-py/tests/test_vector_env.py).
"""

from __future__ import annotations

import argparse
import pathlib

import numpy as np

import ferrobody

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOAL = np.array([0.45, 0.25, 0.55])


def make_env(num_envs: int, episode_steps: int, threads=None) -> ferrobody.VectorEnv:
    model = ferrobody.load(
        ROOT / "testdata" / "urdf" / "panda.urdf", actuators="position", kp=200.0, kv=5.0
    )
    wrist = model.body_index("panda_link7")  # per-body arrays put Ground first

    def observation(sim):
        return sim.body_positions()[:, wrist, :]

    def reward(sim, actions, observations):
        return -np.linalg.norm(observations - GOAL, axis=1)

    return ferrobody.VectorEnv(
        model,
        num_envs,
        observation,
        reward,
        dt=0.02,
        max_episode_steps=episode_steps,
        integrator="rk4",
        fixed_step=1e-3,
        threads=threads,
    )


def episode_returns(env: ferrobody.VectorEnv, targets: np.ndarray, steps: int) -> np.ndarray:
    """Runs one episode of every environment holding its targets; the final reward each."""
    env.reset(seed=0)
    actions = np.zeros((env.num_envs, env.model.nctrl))
    actions[:, :7] = targets
    rewards = np.zeros(env.num_envs)
    for _ in range(steps):
        _, rewards, _, _, _ = env.step(actions)
    return rewards


def cem(generations: int, num_envs: int, episode_steps: int, seed: int = 1):
    """Returns (best targets, best distance, the distance of the mean per generation)."""
    rng = np.random.default_rng(seed)
    env = make_env(num_envs, episode_steps)
    mean, std = np.zeros(7), np.full(7, 0.8)
    elite = max(2, num_envs // 5)
    history = []
    best, best_reward = mean, -np.inf
    for _ in range(generations):
        candidates = mean + std * rng.standard_normal((num_envs, 7))
        candidates[0] = mean
        rewards = episode_returns(env, candidates, episode_steps)
        history.append(-rewards[0])
        order = np.argsort(rewards)[::-1][:elite]
        if rewards[order[0]] > best_reward:
            best, best_reward = candidates[order[0]], rewards[order[0]]
        mean = candidates[order].mean(axis=0)
        std = candidates[order].std(axis=0) + 0.02
    return best, -best_reward, history


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--episode-steps", type=int, default=40)
    args = parser.parse_args()
    best, distance, history = cem(args.generations, args.envs, args.episode_steps)
    for g, d in enumerate(history):
        print(f"generation {g:3d}: mean's distance {d:.4f} m")
    print(f"best targets {np.round(best, 3)}: wrist {distance:.4f} m from the goal")


if __name__ == "__main__":
    main()
