"""Vector environments: members step bit for bit as they would alone, Gymnasium's reset/step
and next-step autoreset, bad actions refused, and the CEM reaching example on a small budget."""

import importlib.util

import numpy as np
import pytest

import ferrobody


@pytest.fixture
def panda(root):
    return ferrobody.load(root / "testdata" / "urdf" / "panda.urdf", actuators="motors")


def test_members_step_bitwise_as_single_simulations(panda):
    rng = np.random.default_rng(7)
    batch = ferrobody.VectorSimulation(panda, 4, integrator="rk-merson", accuracy=1e-6)
    alone = [ferrobody.Simulation(panda, integrator="rk-merson", accuracy=1e-6) for _ in range(4)]
    for _ in range(10):
        controls = rng.uniform(-5.0, 5.0, size=(4, panda.nctrl))
        assert batch.step(controls, 0.01) == [None] * 4
        for i, sim in enumerate(alone):
            sim.controls = controls[i]
            sim.advance_to(sim.t + 0.01)
    for i, sim in enumerate(alone):
        assert np.array_equal(batch.q[i], sim.state.q)
        assert np.array_equal(batch.u[i], sim.state.u)
        assert batch.t[i] == sim.t
    one_thread = ferrobody.VectorSimulation(panda, 4, integrator="rk-merson", accuracy=1e-6, threads=1)
    rng = np.random.default_rng(7)
    for _ in range(10):
        one_thread.step(rng.uniform(-5.0, 5.0, size=(4, panda.nctrl)), 0.01)
    assert np.array_equal(one_thread.q, batch.q)


def test_bad_actions_are_value_errors(panda):
    batch = ferrobody.VectorSimulation(panda, 2)
    with pytest.raises(ValueError, match=r"controls: expected shape \(2, 9\), got \[3, 9\]"):
        batch.step(np.zeros((3, 9)), 0.01)
    bad = np.zeros((2, 9))
    bad[1, 4] = np.nan
    with pytest.raises(ValueError, match=r"controls\[1, 4\] is NaN"):
        batch.step(bad, 0.01)
    with pytest.raises(ValueError, match="dt: must be positive"):
        batch.step(np.zeros((2, 9)), 0.0)
    with pytest.raises(IndexError):
        batch.reset(2)


def test_reset_step_and_next_step_autoreset(panda):
    wrist = panda.body_index("panda_link7")

    def observation(sim):
        return np.concatenate([sim.q, sim.body_positions()[:, wrist, :]], axis=1)

    def reward(sim, actions, obs):
        return -obs[:, -1]

    def start(rng):
        s = panda.default_state()
        s.q[0] = rng.uniform(-0.5, 0.5)
        return s

    env = ferrobody.VectorEnv(
        panda, 3, observation, reward, initial_state=start, dt=0.01, max_episode_steps=2
    )
    obs, infos = env.reset(seed=3)
    assert obs.shape == (3, panda.nq + 3) and np.all(infos["t"] == 0.0)
    again, _ = env.reset(seed=3)
    assert np.array_equal(obs, again), "a seed gives the same starts"
    actions = np.ones((3, panda.nctrl))
    _, r1, term, trunc, infos = env.step(actions)
    assert r1.shape == (3,) and not term.any() and not trunc.any()
    assert np.allclose(infos["t"], 0.01)
    _, _, term, trunc, _ = env.step(actions)
    assert trunc.all() and not term.any()
    obs3, r3, term, trunc, infos = env.step(actions)
    # Next-step autoreset: the ended episodes restart, their actions ignored, reward 0.
    assert np.all(r3 == 0.0) and not trunc.any() and np.all(infos["t"] == 0.0)
    assert np.all(np.abs(obs3[:, 0]) <= 0.5) and np.all(obs3[:, panda.nq :] != 0.0)


def test_cem_reaches_toward_the_goal_on_a_small_budget(root):
    path = root / "examples" / "python" / "panda_reach_cem.py"
    spec = importlib.util.spec_from_file_location("panda_reach_cem", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    best, distance, history = example.cem(generations=6, num_envs=16, episode_steps=20)
    assert best.shape == (7,)
    # From the neutral pose the wrist starts 0.6 m away; six generations bring it well in.
    assert history[0] > 0.5 and distance < 0.3 and distance < history[0] / 2
