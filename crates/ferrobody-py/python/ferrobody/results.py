"""Results with one shape whatever the flags (issue 42): `simulate` returns a `Run`."""

from __future__ import annotations

from typing import Any

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
