//! The optimal-control problem, in the spirit of Moco's `MocoProblem`: a model, its states
//! y = [q, u, z] and controls c named as Moco names them, time bounds, bounds on every state
//! (over the whole path, at the initial and at the final time) and control, and the goals.
//!
//! ```text
//!   minimise    Σ goals(t_f, y(t), c(t))
//!   subject to  ẏ = f(y, c)                     (the model's forward dynamics)
//!               y_lo ≤ y(t) ≤ y_hi,  c_lo ≤ c(t) ≤ c_hi,  y(t₀) ∈ Y₀,  y(t_f) ∈ Y_f
//!               t_f fixed, or t_f ∈ [t_lo, t_hi]
//! ```
//!
//! Names: for an OpenSim model, a state is `COORDINATE_PATH/value` or `COORDINATE_PATH/speed`
//! (`/jointset/j0/q0/value`) or a muscle's state by its path (`/forceset/soleus_r/activation`,
//! `…/normalized_tendon_force`, `…/fiber_length`), and a control is its actuator's path
//! (`/tau0`, `/forceset/tau0`, `/forceset/soleus_r` for a muscle's excitation), as in Moco's
//! tables; the coordinate's or actuator's plain name also works (`q0`, `q0/speed`, `tau0`).
//! Actuators that a `PrescribedController` drives are not controls (as in Moco). For other
//! models, states are the tree's coordinate and speed names (`link.rz`, `link.rz/speed`... as
//! `Tree::coordinate_names`) then `z0`, `z1`… and controls the model's control names. Reference: Dembia et al., "OpenSim Moco", PLoS Comput. Biol. 16 (2020).

use crate::error::{OptimizeError, Result};
use crate::goals::Goal;
use ferrobody::io::osim::OsimModel;
use ferrobody::{Model, State};
use std::collections::HashMap;

/// A closed interval `[lower, upper]`; either end may be infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
}

impl Bounds {
    /// `[lower, upper]`.
    pub fn new(lower: f64, upper: f64) -> Self {
        Self { lower, upper }
    }

    /// The single value `value`.
    pub fn fixed(value: f64) -> Self {
        Self::new(value, value)
    }

    /// `(−∞, ∞)`.
    pub fn unbounded() -> Self {
        Self::new(f64::NEG_INFINITY, f64::INFINITY)
    }

    /// Moco's guess from bounds: the midpoint when both ends are finite, the finite end when
    /// one is, else zero.
    pub fn guess(&self) -> f64 {
        match (self.lower.is_finite(), self.upper.is_finite()) {
            (true, true) => 0.5 * (self.lower + self.upper),
            (true, false) => self.lower,
            (false, true) => self.upper,
            (false, false) => 0.0,
        }
    }

    fn intersects(&self, other: &Bounds) -> bool {
        self.lower.max(other.lower) <= self.upper.min(other.upper)
    }

    fn check(&self, what: &str) -> Result<()> {
        if self.lower.is_nan() || self.upper.is_nan() || self.lower > self.upper {
            return Err(OptimizeError::InfeasibleBounds(format!(
                "{what}: bounds [{}, {}] are empty",
                self.lower, self.upper
            )));
        }
        Ok(())
    }
}

/// Bounds on one state: over the whole path, and optionally at t₀ and t_f.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StateBounds {
    /// At every grid point.
    pub path: Bounds,
    /// At the initial time (within `path`).
    pub initial: Option<Bounds>,
    /// At the final time (within `path`).
    pub final_: Option<Bounds>,
}

/// The final time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FinalTime {
    /// A given final time (s).
    Fixed(f64),
    /// A variable of the problem within these bounds (s).
    Free(Bounds),
}

/// An optimal-control problem over a model (see the module documentation).
#[derive(Clone)]
pub struct Problem {
    pub(crate) model: Model<f64>,
    /// The state every grid point starts from (its discrete variables: locks, flags).
    pub(crate) base_state: State<f64>,
    pub(crate) state_names: Vec<String>,
    pub(crate) control_names: Vec<String>,
    /// Other names of states and controls (plain coordinate and actuator names).
    aliases: HashMap<String, Variable>,
    pub(crate) initial_time: f64,
    pub(crate) final_time: FinalTime,
    pub(crate) state_bounds: Vec<StateBounds>,
    pub(crate) control_bounds: Vec<Bounds>,
    pub(crate) goals: Vec<Goal>,
    /// Periodicity: (a, b) with a(t₀) = b(t_f).
    pub(crate) periodic_pairs: Vec<(Variable, Variable)>,
    /// Moco's `MocoAverageSpeedGoal` as an endpoint constraint:
    /// `v − ‖r(t_f) − r(t₀)‖/(t_f − t₀) = 0` for the centre of mass r (m/s).
    pub(crate) average_speed: Option<f64>,
    /// Path constraints, enforced at the mesh points.
    pub(crate) path_constraints: Vec<crate::PathConstraint>,
}

impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Problem")
            .field("state_names", &self.state_names)
            .field("control_names", &self.control_names)
            .field("initial_time", &self.initial_time)
            .field("final_time", &self.final_time)
            .field("state_bounds", &self.state_bounds)
            .field("control_bounds", &self.control_bounds)
            .field("goals", &self.goals)
            .field("average_speed", &self.average_speed)
            .finish_non_exhaustive()
    }
}

/// A state or a control, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Variable {
    /// Index in y = [q, u, z].
    State(usize),
    /// Index in the control vector.
    Control(usize),
}

impl Problem {
    /// A problem over `model` from `state` (its discrete variables are kept at every grid
    /// point), with the tree's coordinate, speed and actuator names, t ∈ [0, 1], no bounds and
    /// no goals.
    pub fn new(model: Model<f64>, state: State<f64>) -> Result<Self> {
        let mut state_names = model.coordinate_names();
        state_names.extend(
            model
                .speed_names()
                .into_iter()
                .map(|s| format!("{s}/speed")),
        );
        state_names.extend((0..model.nz()).map(|k| format!("z{k}")));
        let control_names = model
            .control_names()
            .into_iter()
            .map(str::to_string)
            .collect();
        Self::with_names(model, state, state_names, control_names, HashMap::new())
    }

    /// A problem over an OpenSim model, with Moco's names (and the plain names as aliases).
    pub fn from_osim(osim: &OsimModel) -> Result<Self> {
        let model = osim.model.clone();
        let ny = model.nq() + model.nu() + model.nz();
        let mut state_names: Vec<String> = model.coordinate_names();
        state_names.extend(
            model
                .speed_names()
                .into_iter()
                .map(|s| format!("{s}/speed")),
        );
        state_names.extend((0..model.nz()).map(|k| format!("z{k}")));
        for (path, z) in &osim.state_variables {
            state_names[model.nq() + model.nu() + z.0] = path.clone();
        }
        let mut aliases = HashMap::new();
        for c in &osim.coordinates {
            state_names[c.q_index] = format!("{}/value", c.path);
            state_names[model.nq() + c.u_index] = format!("{}/speed", c.path);
            aliases.insert(c.name.clone(), Variable::State(c.q_index));
            aliases.insert(format!("{}/value", c.name), Variable::State(c.q_index));
            let speed = Variable::State(model.nq() + c.u_index);
            aliases.insert(format!("{}/speed", c.name), speed);
        }
        debug_assert_eq!(state_names.len(), ny);
        let mut control_names = Vec::new();
        for (k, name) in model.control_names().into_iter().enumerate() {
            let path = osim.control_paths.get(k).filter(|p| !p.is_empty());
            control_names.push(path.cloned().unwrap_or_else(|| name.to_string()));
            aliases.insert(name.to_string(), Variable::Control(k));
        }
        let mut problem = Self::with_names(
            model,
            osim.default_state.clone(),
            state_names,
            control_names,
            aliases,
        )?;
        problem.bound_from_actuators(osim);
        Ok(problem)
    }

    /// Moco's default bounds: each control within its actuator's `[min_control,
    /// max_control]`, and each muscle's activation within its excitation's bounds
    /// (`MocoPhase::bound_activation_from_excitation`, default true).
    fn bound_from_actuators(&mut self, osim: &OsimModel) {
        for (k, [lower, upper]) in osim.control_bounds.iter().copied().enumerate() {
            self.control_bounds[k] = Bounds::new(lower, upper);
            let activation = format!("{}/activation", self.control_names[k]);
            if let Some(i) = self.state_names.iter().position(|n| *n == activation) {
                self.state_bounds[i].path = Bounds::new(lower, upper);
            }
        }
    }

    fn with_names(
        model: Model<f64>,
        base_state: State<f64>,
        state_names: Vec<String>,
        control_names: Vec<String>,
        aliases: HashMap<String, Variable>,
    ) -> Result<Self> {
        check_model(&model)?;
        let ny = state_names.len();
        let nc = control_names.len();
        Ok(Self {
            model,
            base_state,
            state_names,
            control_names,
            aliases,
            initial_time: 0.0,
            final_time: FinalTime::Fixed(1.0),
            state_bounds: vec![
                StateBounds {
                    path: Bounds::unbounded(),
                    initial: None,
                    final_: None,
                };
                ny
            ],
            control_bounds: vec![Bounds::unbounded(); nc],
            goals: Vec::new(),
            periodic_pairs: Vec::new(),
            average_speed: None,
            path_constraints: Vec::new(),
        })
    }

    /// The model.
    pub fn model(&self) -> &Model<f64> {
        &self.model
    }

    /// The state every grid point starts from (its discrete variables: locks, flags).
    pub fn base_state(&self) -> &State<f64> {
        &self.base_state
    }

    /// The model's state at grid values `y` (= [q, u, z]) and controls `c`, at time `t`.
    pub fn state_at(&self, t: f64, y: &[f64], c: &[f64]) -> Result<State<f64>> {
        let mut state = self.base_state.clone();
        let (nq, nu) = (self.model.nq(), self.model.nu());
        state.t = t;
        state.q.as_mut_slice().copy_from_slice(&y[..nq]);
        state.u.as_mut_slice().copy_from_slice(&y[nq..nq + nu]);
        state.z.as_mut_slice().copy_from_slice(&y[nq + nu..]);
        self.model.set_controls(&mut state, c)?;
        Ok(state)
    }

    /// The states' names, in y = [q, u, z] order.
    pub fn state_names(&self) -> &[String] {
        &self.state_names
    }

    /// The controls' names, in control order.
    pub fn control_names(&self) -> &[String] {
        &self.control_names
    }

    /// The bounds of the state `name` (or alias).
    pub fn state_bounds_of(&self, name: &str) -> Result<StateBounds> {
        match self.variable(name)? {
            Variable::State(i) => Ok(self.state_bounds[i]),
            Variable::Control(_) => Err(OptimizeError::InfeasibleBounds(format!(
                "'{name}' is a control, not a state"
            ))),
        }
    }

    /// The bounds of the control `name` (or alias).
    pub fn control_bounds_of(&self, name: &str) -> Result<Bounds> {
        match self.variable(name)? {
            Variable::Control(k) => Ok(self.control_bounds[k]),
            Variable::State(_) => Err(OptimizeError::InfeasibleBounds(format!(
                "'{name}' is a state, not a control"
            ))),
        }
    }

    /// The goals.
    pub fn goals(&self) -> &[Goal] {
        &self.goals
    }

    /// The state or control a name (or alias) denotes.
    pub fn variable(&self, name: &str) -> Result<Variable> {
        if let Some(i) = self.state_names.iter().position(|n| n == name) {
            return Ok(Variable::State(i));
        }
        if let Some(k) = self.control_names.iter().position(|n| n == name) {
            return Ok(Variable::Control(k));
        }
        self.aliases
            .get(name)
            .copied()
            .ok_or_else(|| OptimizeError::UnknownName {
                name: name.to_string(),
                known: self.known_names(),
            })
    }

    fn known_names(&self) -> String {
        let mut all: Vec<&str> = self.state_names.iter().map(String::as_str).collect();
        all.extend(self.control_names.iter().map(String::as_str));
        all.join(", ")
    }

    /// Sets the time bounds: t₀ and the final time.
    pub fn set_time_bounds(&mut self, initial: f64, final_time: FinalTime) -> Result<()> {
        let lowest_final = match final_time {
            FinalTime::Fixed(tf) => tf,
            FinalTime::Free(b) => {
                b.check("final time")?;
                b.upper
            }
        };
        if !initial.is_finite()
            || lowest_final.partial_cmp(&initial) != Some(std::cmp::Ordering::Greater)
        {
            return Err(OptimizeError::InfeasibleBounds(format!(
                "time: the final time ({lowest_final} at most) must be after the initial time \
                 {initial}"
            )));
        }
        self.initial_time = initial;
        self.final_time = final_time;
        Ok(())
    }

    /// Bounds a state (by name) over the path and, when given, at t₀ and t_f.
    pub fn set_state_bounds(&mut self, name: &str, bounds: StateBounds) -> Result<()> {
        let Variable::State(i) = self.variable(name)? else {
            return Err(OptimizeError::InfeasibleBounds(format!(
                "'{name}' is a control, not a state"
            )));
        };
        bounds.path.check(name)?;
        for (end, b) in [("initial", bounds.initial), ("final", bounds.final_)] {
            if let Some(b) = b {
                b.check(&format!("{name} ({end})"))?;
                if !b.intersects(&bounds.path) {
                    return Err(OptimizeError::InfeasibleBounds(format!(
                        "{name}: {end} bounds [{}, {}] lie outside its bounds [{}, {}]",
                        b.lower, b.upper, bounds.path.lower, bounds.path.upper
                    )));
                }
            }
        }
        self.state_bounds[i] = bounds;
        Ok(())
    }

    /// Bounds a control (by name).
    pub fn set_control_bounds(&mut self, name: &str, bounds: Bounds) -> Result<()> {
        let Variable::Control(k) = self.variable(name)? else {
            return Err(OptimizeError::InfeasibleBounds(format!(
                "'{name}' is a state, not a control"
            )));
        };
        bounds.check(name)?;
        self.control_bounds[k] = bounds;
        Ok(())
    }

    /// Adds a goal (checked against the model's states and controls).
    pub fn add_goal(&mut self, goal: Goal) -> Result<()> {
        goal.check(self.state_names.len(), self.control_names.len())?;
        self.goals.push(goal);
        Ok(())
    }

    /// Periodicity (Moco's `MocoPeriodicityGoal`, an endpoint constraint): for each pair of
    /// names (a, b), `a(t₀) = b(t_f)` — a state or control with itself, or a left/right pair.
    pub fn add_periodicity(&mut self, pairs: &[(&str, &str)]) -> Result<()> {
        let mut resolved = Vec::new();
        for (a, b) in pairs {
            let (va, vb) = (self.variable(a)?, self.variable(b)?);
            if matches!(va, Variable::State(_)) != matches!(vb, Variable::State(_)) {
                return Err(OptimizeError::InvalidGoal(format!(
                    "periodicity: '{a}' and '{b}' pair a state with a control"
                )));
            }
            resolved.push((va, vb));
        }
        self.periodic_pairs.extend(resolved);
        Ok(())
    }

    /// Moco's `MocoAverageSpeedGoal` as an endpoint constraint: the centre of mass moves at
    /// `speed` (m/s) on average, `‖r(t_f) − r(t₀)‖ = speed·(t_f − t₀)`.
    pub fn set_average_speed(&mut self, speed: f64) -> Result<()> {
        if !(speed.is_finite() && speed > 0.0) {
            return Err(OptimizeError::InvalidGoal(format!(
                "average_speed: speed {speed} must be finite and positive"
            )));
        }
        self.average_speed = Some(speed);
        Ok(())
    }

    /// Whether a goal or constraint reads the centre of mass's displacement.
    pub(crate) fn needs_displacement(&self) -> bool {
        self.average_speed.is_some() || self.goals.iter().any(Goal::needs_displacement)
    }

    /// A state-tracking goal (Moco's `MocoStateTrackingGoal`): every column of `reference`
    /// that names a state is tracked, with weight `weights(name)` (1 when `None`); columns
    /// naming controls or nothing in the model are errors.
    pub fn add_state_tracking(
        &mut self,
        weight: f64,
        reference: crate::Table,
        weights: &dyn Fn(&str) -> Option<f64>,
    ) -> Result<()> {
        let (mut columns, mut splines) = (Vec::new(), Vec::new());
        for (col, label) in reference.labels.iter().enumerate() {
            match self.variable(label)? {
                Variable::State(j) => {
                    columns.push((j, col, weights(label).unwrap_or(1.0)));
                    splines.push(crate::spline::column_spline(&reference, col, label)?);
                }
                Variable::Control(_) => {
                    return Err(OptimizeError::InvalidGoal(format!(
                        "state_tracking: '{label}' is a control, not a state"
                    )))
                }
            }
        }
        self.add_goal(Goal::StateTracking {
            weight,
            reference,
            columns,
            splines,
        })
    }

    /// This problem with force parameters changed: each `(parameter, value)` set on every
    /// force element that has the parameter (`hertz_smoothing` on every smooth contact, as
    /// [`ferrobody::Model::set_force_parameter`] names them). An error if no element has one.
    pub fn with_force_parameters(&self, parameters: &[(String, f64)]) -> Result<Problem> {
        let mut changed = self.clone();
        for (parameter, value) in parameters {
            let names: Vec<String> = self
                .model
                .forces()
                .iter()
                .map(|f| f.name().to_string())
                .filter(|name| self.model.force_parameter(name, parameter).is_ok())
                .collect();
            if names.is_empty() {
                return Err(OptimizeError::Solver(format!(
                    "homotopy: no force element of the model has the parameter '{parameter}'"
                )));
            }
            for name in &names {
                changed.model.set_force_parameter(name, parameter, *value)?;
            }
        }
        Ok(changed)
    }

    /// Whether the final time is a variable.
    pub fn free_final_time(&self) -> bool {
        matches!(self.final_time, FinalTime::Free(_))
    }
}

/// The models this transcription covers: q̇ = u for every mobilizer.
fn check_model(model: &Model<f64>) -> Result<()> {
    if let Some(b) = model.bodies()[1..]
        .iter()
        .find(|b| !b.mobilizer.qdot_is_u())
    {
        return Err(OptimizeError::UnsupportedModel(format!(
            "body '{}' has a {} mobilizer, whose q̇ is not u: the transcription takes joints \
             whose coordinates' derivatives are their speeds",
            b.name, b.mobilizer
        )));
    }
    if model.nq() + model.nu() == 0 {
        return Err(OptimizeError::UnsupportedModel(
            "the model has no coordinates".to_string(),
        ));
    }
    Ok(())
}
