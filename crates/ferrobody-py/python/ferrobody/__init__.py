"""ferrobody: multibody dynamics with Simbody's contact models, from Python.

>>> import ferrobody
>>> model = ferrobody.load("examples/scenes/s1_hc_ball.toml")
>>> run = ferrobody.simulate(model, duration=1.0, report_interval=0.01)
>>> run["ball.py"][-1]          # the ball's height at t = 1 s

See docs/python.md for the whole API.
"""

from ferrobody._ferrobody import (
    Dynamics,
    Model,
    Simulation,
    State,
    VectorSimulation,
    __version__,
    load,
    step_jacobian,
)
from ferrobody.optimal_control import Solution, optimize
from ferrobody.results import Rollouts, Run, rollouts, simulate
from ferrobody.vector_env import VectorEnv

__all__ = [
    "Dynamics",
    "Model",
    "Simulation",
    "Solution",
    "Rollouts",
    "Run",
    "State",
    "VectorEnv",
    "VectorSimulation",
    "__version__",
    "load",
    "optimize",
    "rollouts",
    "simulate",
    "step_jacobian",
]
