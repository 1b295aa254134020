"""Results with one shape whatever the flags (issue 42): `simulate` returns a `Run`,
`rollouts` a `Rollouts`; both use trajectory.csv's names and orders (`t`, `ke`, `pe`,
`energy`; velocities `vx vy vz wx wy wz`), and per-body arrays list the bodies of
`Model.body_names`, Ground first."""

from __future__ import annotations

from typing import Any, Optional, TypedDict

import numpy as np

from ferrobody import _ferrobody


class Run(dict):
    """One recorded run: a dict of equal-length columns (trajectory.csv's, then coordinates
    as `q:NAME` and speeds as `u:NAME`), so `pandas.DataFrame(run)` is its table, with
    `run.contacts`: the columns of contacts.csv (an empty dict unless the run was asked
    for its contacts)."""

    def __init__(self, columns: dict[str, np.ndarray], contacts: dict[str, np.ndarray]):
        super().__init__(columns)
        self._contacts = contacts

    @property
    def contacts(self) -> dict[str, np.ndarray]:
        """The columns of contacts.csv (time, element, body1, body2, point, normal, depth,
        force, normal_force, friction_force, slip_speed), empty unless `contacts=True`."""
        return self._contacts


def simulate(*args: Any, **kwargs: Any) -> Run:
    """One recorded run as a `Run` (see `ferrobody.simulate` in docs/python.md)."""
    result = _ferrobody.simulate(*args, **kwargs)
    if isinstance(result, tuple):
        columns, contacts = result
    else:
        columns, contacts = result, {}
    return Run(columns, contacts)


class Rollouts(TypedDict):
    """Independent runs stacked (runs first; rows after a failed run's end are NaN)."""

    t: np.ndarray
    """Report times (runs × reports, s)."""
    q: np.ndarray
    """Generalized coordinates (runs × reports × nq), `Model.coordinate_names`' order."""
    u: np.ndarray
    """Generalized speeds (runs × reports × nu), `Model.speed_names`' order."""
    z: np.ndarray
    """Auxiliary states (runs × reports × nz), `Model.auxiliary_names`' order."""
    position: np.ndarray
    """Body origins in Ground (runs × reports × bodies × 3, m), `Model.body_names`' order."""
    quaternion: np.ndarray
    """Body orientations (runs × reports × bodies × 4, `[w, x, y, z]`)."""
    velocity: np.ndarray
    """Body velocities (runs × reports × bodies × 6): `vx vy vz` (m/s), `wx wy wz` (rad/s)."""
    ke: np.ndarray
    """Kinetic energy (runs × reports, J)."""
    pe: np.ndarray
    """Potential energy (runs × reports, J)."""
    energy: np.ndarray
    """ke + pe (runs × reports, J)."""
    ok: np.ndarray
    """Whether each run reached its end (runs, bool)."""
    error: list[Optional[str]]
    """Why each run stopped early, or None."""
    steps: np.ndarray
    """Integrator steps each run took (runs)."""


def rollouts(*args: Any, **kwargs: Any) -> Rollouts:
    """Independent runs on all cores as a `Rollouts` (see `ferrobody.rollouts` in
    docs/python.md)."""
    return Rollouts(**_ferrobody.rollouts(*args, **kwargs))
