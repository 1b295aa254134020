"""Type stubs of ferrobody's Python API (the extension module ferrobody._ferrobody)."""

from os import PathLike
from typing import Any, Callable, Iterable, Mapping, Optional, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

class Model:
    """A loaded model with its run settings (immutable; `copy()` and `with_parameter` give copies).

    Picklable: it keeps its source text and its parameter changes and rebuilds from them.
    """

    @property
    def name(self) -> str: ...
    @property
    def body_names(self) -> list[str]:
        """Body names, Ground first."""
    @property
    def coordinate_names(self) -> list[str]:
        """Names of the generalized coordinates q: OpenSim's for .osim models, the joint's for URDF,
        else `BODY.SUFFIX` (`ball.qw … ball.pz` for a free body, `link.rz` for a pin); the
        column of `simulate` is `q:NAME`."""
    @property
    def speed_names(self) -> list[str]:
        """Names of the generalized speeds u: `COORDINATE/speed` for .osim and URDF, else
        `BODY.SUFFIX` (`ball.wx … ball.vz`); the column of `simulate` is `u:NAME`."""
    @property
    def auxiliary_names(self) -> list[str]:
        """Names of the auxiliary state variables z (`simulate`'s columns): OpenSim's
        state-variable paths for .osim models (`/forceset/NAME/activation`, `…/fiber_length`,
        `…/normalized_tendon_force`), else `z0, z1, …`."""
    @property
    def force_names(self) -> list[str]:
        """Names of the force elements (for `with_parameter`)."""
    @property
    def lockable_coordinates(self) -> list[str]:
        """Coordinates an .osim model locks (`<locked>true</locked>`): each can be unlocked
        and locked again in a state."""
    def is_locked(self, state: State, name: str) -> bool:
        """Whether coordinate `name` is locked in `state`."""
    def lock(self, state: State, name: str) -> None:
        """Locks coordinate `name` in `state` at its current value (OpenSim
        `Coordinate.setLocked(state, True)`)."""
    def unlock(self, state: State, name: str) -> None:
        """Unlocks coordinate `name` in `state` (OpenSim `Coordinate.setLocked(state, False)`)."""
    @property
    def muscle_names(self) -> list[str]:
        """Names of the muscles, in force order (the rows of `moment_arms`)."""
    def moment_arms(self, state: State | None = None) -> np.ndarray:
        """Every muscle's moment arm −∂ℓ/∂q (m or m/rad) about every coordinate at `state`'s
        pose (default: the initial state), exact: shape (len(muscle_names), nq), columns as
        `coordinate_names`; OpenSim's `Muscle.computeMomentArm` for unconstrained coordinates."""
    @property
    def actuator_names(self) -> list[str]:
        """Names of the actuators (the first controls, in control order)."""
    @property
    def control_names(self) -> list[str]:
        """Names of the controls: the actuators', then the excitations of the muscles and
        OpenSim actuators that no controller drives."""
    @property
    def nctrl(self) -> int:
        """Number of controls (len(control_names))."""
    def body_index(self, name: str) -> int:
        """Index of a body in body_names (Ground is 0, as in every per-body array); KeyError if none."""
    def q_index(self, name: str) -> int:
        """Index of a generalized coordinate by name; KeyError if none."""
    def u_index(self, name: str) -> int:
        """Index of a generalized speed by name; KeyError if none."""
    def ctrl_index(self, name: str) -> int:
        """Index of a control (an actuator or an uncontrolled muscle) by name; KeyError if none."""
    @property
    def nq(self) -> int: ...
    @property
    def nu(self) -> int: ...
    @property
    def nz(self) -> int: ...
    @property
    def nbodies(self) -> int:
        """Number of bodies, Ground included."""
    @property
    def duration(self) -> float:
        """The scene's simulated duration (s)."""
    @property
    def report_interval(self) -> float:
        """The scene's report interval (s)."""
    @property
    def integrator(self) -> str:
        """The scene's integrator name, e.g. "rk-merson"."""
    @property
    def accuracy(self) -> float: ...
    def default_state(self) -> State:
        """The scene's initial state (a new object each call)."""
    def copy(self) -> Model: ...
    def with_parameter(self, force: str, parameter: str, value: float) -> Model:
        """A copy with `parameter` of the force element `force` set to `value`.

        Contact: stiffness, dissipation, static_friction, dynamic_friction, viscous_friction,
        transition_velocity; smooth contact also constant_contact_force, hertz_smoothing,
        hunt_crossley_smoothing, sphere_radius; exponential springs d0, d1, d2,
        normal_viscosity, max_normal_force, friction_elasticity, friction_viscosity,
        settle_velocity; linear springs stiffness, rest_length, q0. Raises ValueError.
        """
    def parameter(self, force: str, parameter: str) -> float: ...

class State:
    """A simulation state. `q`, `u`, `z` are the state's own float64 arrays: writing into
    them changes the state; assigning a new array copies it in (shape and dtype checked)."""

    t: float
    q: npt.NDArray[np.float64]
    u: npt.NDArray[np.float64]
    z: npt.NDArray[np.float64]
    def copy(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...

class Simulation:
    """Steps a model forward from a state, the GIL released while stepping."""

    def __init__(
        self,
        model: Model,
        state: Optional[State] = None,
        integrator: Optional[str] = None,
        accuracy: Optional[float] = None,
        fixed_step: Optional[float] = None,
    ) -> None: ...
    def advance_to(self, t: float) -> None:
        """Steps until the time is exactly `t` (s). Raises RuntimeError if the run fails."""
    def step(self, t_max: float) -> None:
        """Takes one accepted step, never past `t_max` (s)."""
    @property
    def t(self) -> float: ...
    @property
    def controls(self) -> npt.NDArray[np.float64]:
        """The controls held over the next advance_to or step (float64, one per actuator):
        write into it or assign it; read at the start of each call (zero-order hold)."""
    @controls.setter
    def controls(self, value: npt.NDArray[np.float64]) -> None: ...
    @property
    def state(self) -> State:
        """The current state, a read-only snapshot: writes through it raise (numpy's
        read-only error for its arrays, AttributeError for its setters)."""
    @state.setter
    def state(self, value: State) -> None:
        """Restarts from `value` (checked; quaternions normalized, constraints projected),
        keeping the integrator's settings, statistics and step size."""
    @property
    def stats(self) -> dict[str, int]:
        """steps_taken, steps_attempted, steps_failed, realizations, jacobians and newton_matrices
        (the implicit method's; 0 for the others)."""

class Dynamics:
    """The rigid-body algorithms one call at a time on a model (Pinocchio's aba, rnea, crba and
    computeABADerivatives), with the model's forces (gravity, springs, contact); the object is
    the workspace, made once per model."""

    def __init__(self, model: Model) -> None: ...
    def forward_dynamics(
        self,
        q: npt.NDArray[np.float64],
        u: npt.NDArray[np.float64],
        tau: Optional[npt.NDArray[np.float64]] = None,
        t: float = 0.0,
        ctrl: Optional[npt.NDArray[np.float64]] = None,
    ) -> npt.NDArray[np.float64]:
        """u̇ (nu) from q (nq), u (nu), applied generalized forces tau (nu; default zero) and
        the actuators' controls ctrl (nctrl; default zero)."""
    def inverse_dynamics(
        self,
        q: npt.NDArray[np.float64],
        u: npt.NDArray[np.float64],
        udot: npt.NDArray[np.float64],
        t: float = 0.0,
        ctrl: Optional[npt.NDArray[np.float64]] = None,
    ) -> npt.NDArray[np.float64]:
        """The generalized forces τ (nu) that give accelerations udot (RNEA), the actuators at
        ctrl (default zero) counted as applied: at u = udot = 0, gravity compensation."""
    def mass_matrix(self, q: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """M(q), nu × nu (CRBA)."""
    def forward_dynamics_derivatives(
        self,
        q: npt.NDArray[np.float64],
        u: npt.NDArray[np.float64],
        tau: Optional[npt.NDArray[np.float64]] = None,
        t: float = 0.0,
        ctrl: Optional[npt.NDArray[np.float64]] = None,
    ) -> tuple[
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
    ]:
        """(u̇, ∂u̇/∂q (nu × nq), ∂u̇/∂u, ∂u̇/∂τ), exact (analytical or dual numbers)."""
    def control_derivatives(
        self,
        q: npt.NDArray[np.float64],
        u: npt.NDArray[np.float64],
        ctrl: Optional[npt.NDArray[np.float64]] = None,
        tau: Optional[npt.NDArray[np.float64]] = None,
        t: float = 0.0,
    ) -> npt.NDArray[np.float64]:
        """∂u̇/∂ctrl (nu × nctrl), exact; zero columns where a range clamps."""

class VectorSimulation:
    """Simulations of one model stepped together, in parallel in Rust with the GIL released;
    each member steps exactly as a Simulation alone."""

    def __init__(
        self,
        model: Model,
        num_envs: int,
        state: Optional[State] = None,
        integrator: Optional[str] = None,
        accuracy: Optional[float] = None,
        fixed_step: Optional[float] = None,
        threads: Optional[int] = None,
    ) -> None: ...
    @property
    def num_envs(self) -> int:
        """Number of simulations."""
    def step(self, controls: npt.NDArray[np.float64], dt: float) -> list[Optional[str]]:
        """Holds row i of controls (num_envs × nctrl) in member i and advances every member by
        dt; one error message (or None) per member."""
    def reset(self, index: int, state: Optional[State] = None) -> None:
        """Restarts member index from state (default: the batch's start)."""
    def state(self, index: int) -> State:
        """A copy of member index's state."""
    @property
    def t(self) -> npt.NDArray[np.float64]: ...
    @property
    def q(self) -> npt.NDArray[np.float64]:
        """num_envs × nq."""
    @property
    def u(self) -> npt.NDArray[np.float64]:
        """num_envs × nu."""
    @property
    def controls(self) -> npt.NDArray[np.float64]:
        """num_envs × nctrl, the controls held."""
    def body_positions(self) -> npt.NDArray[np.float64]:
        """num_envs × bodies × 3: body origins in Ground, bodies as Model.body_names (Ground
        first)."""

class VectorEnv:
    """Gymnasium-style vector environment (next-step autoreset) over a VectorSimulation, with
    the user's batch observation, reward and termination functions. Attributes: model,
    num_envs, dt, max_episode_steps, sim (the VectorSimulation)."""

    metadata: dict[str, str]
    def __init__(
        self,
        model: Model,
        num_envs: int,
        observation: Callable[[VectorSimulation], npt.NDArray[np.float64]],
        reward: Callable[
            [VectorSimulation, npt.NDArray[np.float64], npt.NDArray[np.float64]],
            npt.NDArray[np.float64],
        ],
        *,
        terminated: Optional[
            Callable[[VectorSimulation, npt.NDArray[np.float64]], npt.NDArray[np.bool_]]
        ] = None,
        initial_state: Optional[Callable[[np.random.Generator], State]] = None,
        dt: float = 0.01,
        max_episode_steps: Optional[int] = None,
        integrator: Optional[str] = None,
        fixed_step: Optional[float] = None,
        threads: Optional[int] = None,
    ) -> None: ...
    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[npt.NDArray[np.float64], dict[str, object]]:
        """Resets every environment: (observations, infos)."""
    def step(
        self, actions: npt.NDArray[np.float64]
    ) -> tuple[
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, object],
    ]:
        """(observations, rewards, terminated, truncated, infos) after holding actions for dt."""
    def close(self) -> None:
        """Nothing to release."""

def load(
    path: Union[str, "PathLike[str]"],
    floating_base: bool = False,
    actuators: str = "none",
    kp: float = 1.0,
    kv: float = 0.0,
    controls: Union[None, str, "PathLike[str]"] = None,
    external_loads: Union[None, str, "PathLike[str]"] = None,
) -> Model:
    """Loads a scene file (.toml), an OpenSim model (.osim; with the forward tool's controls
    file, a .sto/.mot of excitations by actuator, and its external loads file, an
    ExternalLoads .xml, as `ferrobody run --controls FILE --external-loads FILE` reads them)
    or a URDF robot (.urdf; with floating_base=True its root link is free; actuators="motors"
    or "position" (gains kp, kv) puts one actuator on each actuated joint). Raises
    FileNotFoundError or ValueError with the command line's message."""

class Solution:
    """The optimal trajectory on the collocation grid and IPOPT's report (a frozen
    dataclass; `states[i, j]` is `state_names[j]` at `time[i]`)."""

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
    @property
    def final_time(self) -> float:
        """The last grid time (s)."""

def optimize(
    problem: Union[str, PathLike, Mapping[str, Any]],
    base: Union[str, PathLike, None] = None,
    progress: bool = False,
) -> Solution:
    """Solves an optimal-control problem posed as Moco poses it (a TOML problem file's path,
    or a dict with its keys) with IPOPT and exact derivatives. Raises ValueError,
    FileNotFoundError, or RuntimeError when IPOPT does not converge."""

class Rollouts(TypedDict):
    """Independent runs stacked (runs first; rows after a failed run's end are NaN)."""

    t: npt.NDArray[np.float64]
    q: npt.NDArray[np.float64]
    u: npt.NDArray[np.float64]
    z: npt.NDArray[np.float64]
    position: npt.NDArray[np.float64]
    quaternion: npt.NDArray[np.float64]
    velocity: npt.NDArray[np.float64]
    ke: npt.NDArray[np.float64]
    pe: npt.NDArray[np.float64]
    energy: npt.NDArray[np.float64]
    ok: npt.NDArray[np.bool_]
    error: list[Optional[str]]
    steps: npt.NDArray[np.uint64]

class Run(dict[str, np.ndarray]):
    """One recorded run: a dict of equal-length columns (pandas.DataFrame(run) is its
    table) with the run's contacts."""
    @property
    def contacts(self) -> dict[str, np.ndarray]:
        """The columns of contacts.csv, empty unless simulate(..., contacts=True)."""

def simulate(
    model: Model,
    state: Optional[State] = None,
    duration: Optional[float] = None,
    report_interval: Optional[float] = None,
    contacts: bool = False,
    integrator: Optional[str] = None,
    accuracy: Optional[float] = None,
    controls: Union[
        None, npt.NDArray[np.float64], Callable[[State], npt.NDArray[np.float64]]
    ] = None,
) -> Run:
    """One recorded run, a `Run` whatever the flags: equal-length columns (trajectory.csv's,
    plus coordinates and speeds by name) and `run.contacts` (contacts.csv's columns with
    contacts=True, else empty). controls: one row of nctrl controls per report interval, or
    a callable state -> controls called at each report time (held until the next). Raises
    RuntimeError if the run fails. Without a callable, a model of 24 muscles or more (12
    or more when none is wrapped) evaluates them on rayon's threads or a helper thread where
    the run measures that this pays, with the one-thread results bit for bit; set RAYON_NUM_THREADS=1 in process pools (Ray's workers, multiprocessing) whose runs already
    fill the cores."""

def rollouts(
    model: Model,
    states: Iterable[State],
    duration: Optional[float] = None,
    report_interval: Optional[float] = None,
    threads: Optional[int] = None,
    integrator: Optional[str] = None,
    accuracy: Optional[float] = None,
    controls: Optional[npt.NDArray[np.float64]] = None,
) -> Rollouts:
    """Independent runs from every state on all cores (GIL released), as stacked arrays
    with trajectory.csv's names and orders: t, ke, pe, energy (runs x rows), q, u, z (runs x
    rows x n), position, quaternion, velocity (runs x rows x bodies x 3, 4, 6; bodies as
    Model.body_names, Ground first; velocity vx vy vz wx wy wz), and per run ok, error,
    steps. Bit-identical to separate simulate calls. controls (runs x report intervals x
    nctrl) gives each run an open-loop control sequence."""

def step_jacobian(
    model: Model,
    state: State,
    h: float,
    parameters: Iterable[tuple[str, str]] = (),
    integrator: Optional[str] = None,
    controls: Optional[npt.NDArray[np.float64]] = None,
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
]:
    """One step of size h from state, holding controls (default: the state's), and its exact
    Jacobians (dual numbers): (x₊ = [q, u, z] after the step, ∂x₊/∂x, ∂x₊/∂p for the
    (force, parameter) pairs in parameters, ∂x₊/∂ctrl). An error-controlled integrator takes
    one attempt of exactly h."""
