"""Optimal control from Python: `ferrobody.optimize(problem)` solves a problem posed as
Moco poses it (a TOML problem file, or a dict with the same keys) with IPOPT and exact
derivatives, and returns a `Solution`. See docs/optimal-control.md.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Mapping, Union

import numpy as np

from ferrobody._ferrobody import _optimize


@dataclass(frozen=True)
class Solution:
    """The optimal trajectory on the collocation grid and IPOPT's report.

    `states[i, j]` is state `state_names[j]` at `time[i]` (y = [q, u] order, Moco's names for
    an OpenSim model), `controls[i, k]` control `control_names[k]`.
    """

    time: np.ndarray
    states: np.ndarray
    controls: np.ndarray
    state_names: list[str]
    control_names: list[str]
    objective: float
    goals: list[tuple[str, float]]
    status: str
    success: bool
    iterations: int
    solver_duration: float

    def column(self, name: str) -> np.ndarray:
        """The values of one state or control over time, by name."""
        if name in self.state_names:
            return self.states[:, self.state_names.index(name)]
        if name in self.control_names:
            return self.controls[:, self.control_names.index(name)]
        raise KeyError(f"'{name}' is not a state or control of the solution")

    @property
    def final_time(self) -> float:
        """The last grid time (s)."""
        return float(self.time[-1])


def optimize(
    problem: Union[str, os.PathLike, Mapping[str, Any]],
    base: Union[str, os.PathLike, None] = None,
    progress: bool = False,
) -> Solution:
    """Solves an optimal-control problem.

    `problem` is a TOML problem file's path, or a dict with the file's keys (`model`,
    `time`, `state`, `control`, `goal`, `solver`, `guess`), its file names relative to `base`
    (default: the working directory). IPOPT's progress goes to stderr when `progress`.
    Raises `ValueError` for a bad problem (a name not in the model, empty bounds),
    `FileNotFoundError` for a missing file and `RuntimeError` when IPOPT does not converge
    (its status in the message).
    """
    if isinstance(problem, Mapping):
        result = _optimize(json=json.dumps(problem), base=os.fspath(base or "."), progress=progress)
    else:
        result = _optimize(path=os.fspath(problem), progress=progress)
    return Solution(**result)
