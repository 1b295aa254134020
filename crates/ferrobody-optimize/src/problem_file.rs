//! A problem as a TOML file (`ferrobody optimize problem.toml`):
//!
//! ```toml
//! model = "sliding_mass.osim"          # .osim, a scene .toml, or a .urdf (a motor per joint)
//! guess = "guess.sto"                  # optional: a table of states and controls
//! [time]
//! initial = 0.0
//! final = [0.0, 5.0]                   # a number (fixed) or [lower, upper] (free)
//! [[state]]
//! name = "/slider/position/value"      # Moco's name, or the coordinate's (`position`)
//! bounds = [-5.0, 5.0]
//! initial = 0.0                        # a number or [lower, upper]
//! final = 1.0
//! [[control]]
//! name = "/actuator"
//! bounds = [-50.0, 50.0]
//! [[goal]]
//! kind = "final_time"                  # or "control_effort" (weight, exponent,
//! weight = 1.0                         #   control_weights = { name = w }, divide_by_duration,
//!                                      #   divide_by_displacement), "state_tracking"
//!                                      #   (reference = "table.sto", state_weights =
//!                                      #   { name = w }), "periodicity" (pairs = [["q_r",
//!                                      #   "q_l"], ...]: a(t₀) = b(t_f)), "average_speed"
//!                                      #   (speed = 1.2: an endpoint constraint on the centre
//!                                      #   of mass, Moco's MocoAverageSpeedGoal),
//!                                      #   "contact_tracking" (external_loads = "grf.xml",
//!                                      #   contact_groups = [{ contacts = ["heel_r"],
//!                                      #   external_force = "Right_GRF" }], projection =
//!                                      #   "plane", projection_vector = [0, 0, 1],
//!                                      #   normalize_tracking_error: MocoContactTrackingGoal)
//! [[path_constraint]]                  # optional: "control_bound" (controls, lower, upper:
//! kind = "frame_distance"              #   numbers or { x = [...], y = [...] } in time),
//! pairs = [{ frame1 = "calcn_r", frame2 = "calcn_l", minimum_distance = 0.1,
//!            maximum_distance = 2.0 }]  #   "frame_distance" (see problem_file_path.rs)
//! [solver]
//! transcription = "hermite-simpson"    # or "trapezoidal"
//! mesh_intervals = 50
//! convergence_tolerance = 1e-6
//! constraint_tolerance = 1e-6
//! max_iterations = 3000
//! threads = 1                          # grid points' evaluation (default: every core)
//! [solver.ipopt]                       # any IPOPT option, passed through
//! mu_strategy = "adaptive"
//! [[solver.homotopy]]                  # optional continuation stages, solved first, each
//! hertz_smoothing = 10.0               #   from the last one's solution: force parameters
//! mesh_intervals = 25                  #   set on every element that has them, and
//!                                      #   optionally a coarser mesh
//! ```
//!
//! Paths are relative to the problem file. Errors name the file and line.

use crate::contact_tracking::Projection;
use crate::error::{OptimizeError, Result};
use crate::external_loads::ExternalLoads;
use crate::goals::Goal;
use crate::grid::Transcription;
use crate::guess::Guess;
use crate::problem::{Bounds, FinalTime, Problem, StateBounds};
use crate::solve::{IpoptValue, SolverSettings};
use crate::trajectory::Table;
use ferrobody::nalgebra::Vector3;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A problem file, read: the problem, the solver settings and the guess.
#[derive(Clone, Debug)]
pub struct ProblemFile {
    /// The problem.
    pub problem: Problem,
    /// The solver settings.
    pub settings: SolverSettings,
    /// The initial guess.
    pub guess: Guess,
    /// The model file, as resolved.
    pub model_path: PathBuf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    model: String,
    guess: Option<String>,
    time: TimeSpec,
    #[serde(default)]
    state: Vec<StateSpec>,
    #[serde(default)]
    control: Vec<ControlSpec>,
    #[serde(default)]
    goal: Vec<GoalSpec>,
    #[serde(default)]
    path_constraint: Vec<crate::problem_file_path::PathConstraintSpec>,
    #[serde(default)]
    solver: SolverSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeSpec {
    #[serde(default)]
    initial: f64,
    #[serde(rename = "final")]
    final_time: Range,
}

/// A number or `[lower, upper]`.
#[derive(Deserialize, Clone, Copy)]
#[serde(untagged)]
enum Range {
    Value(f64),
    Interval([f64; 2]),
}

impl Range {
    fn bounds(self) -> Bounds {
        match self {
            Range::Value(v) => Bounds::fixed(v),
            Range::Interval([lo, hi]) => Bounds::new(lo, hi),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateSpec {
    name: String,
    bounds: Option<[f64; 2]>,
    initial: Option<Range>,
    #[serde(rename = "final")]
    final_value: Option<Range>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ControlSpec {
    name: String,
    bounds: [f64; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalSpec {
    kind: String,
    #[serde(default = "one")]
    weight: f64,
    #[serde(default = "two")]
    exponent: u32,
    #[serde(default)]
    control_weights: BTreeMap<String, f64>,
    #[serde(default)]
    divide_by_duration: bool,
    #[serde(default)]
    divide_by_displacement: bool,
    /// `average_speed`: the desired average speed (m/s).
    speed: Option<f64>,
    /// `state_tracking`: the reference table (relative to the problem file).
    reference: Option<String>,
    /// `state_tracking`: weights by state name (1 for the others).
    #[serde(default)]
    state_weights: BTreeMap<String, f64>,
    /// `periodicity`: pairs `[a, b]` with a(t₀) = b(t_f).
    #[serde(default)]
    pairs: Vec<[String; 2]>,
    /// `contact_tracking`: the ExternalLoads XML file (relative to the problem file).
    external_loads: Option<String>,
    /// `contact_tracking`: the groups of contacts and the measured force each tracks.
    #[serde(default)]
    contact_groups: Vec<ContactGroupSpec>,
    /// `contact_tracking`: "none" (default), "vector" or "plane".
    projection: Option<String>,
    /// `contact_tracking`: the projection's vector.
    projection_vector: Option<[f64; 3]>,
    /// `contact_tracking`: divide each axis' error by the measured force's peak.
    #[serde(default)]
    normalize_tracking_error: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContactGroupSpec {
    contacts: Vec<String>,
    external_force: String,
}

fn one() -> f64 {
    1.0
}

fn two() -> u32 {
    2
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SolverSpec {
    transcription: Option<Transcription>,
    mesh_intervals: Option<usize>,
    convergence_tolerance: Option<f64>,
    constraint_tolerance: Option<f64>,
    max_iterations: Option<usize>,
    /// Threads for the grid points (default: every core).
    threads: Option<usize>,
    #[serde(default)]
    ipopt: BTreeMap<String, IpoptValue>,
    /// Continuation stages (`[[solver.homotopy]]`).
    #[serde(default)]
    homotopy: Vec<StageSpec>,
}

/// A continuation stage: `mesh_intervals` and force parameters by name.
#[derive(Deserialize)]
struct StageSpec {
    mesh_intervals: Option<usize>,
    #[serde(flatten)]
    parameters: BTreeMap<String, f64>,
}

impl ProblemFile {
    /// Reads a problem file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| OptimizeError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses a problem file's text (`path` locates the files it names and errors).
    pub fn parse(text: &str, path: &Path) -> Result<Self> {
        let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
        let spec: Spec = toml::from_str(text).map_err(|e| OptimizeError::File {
            file: path.display().to_string(),
            line: e.span().map_or(0, |s| line_of(s.start)),
            message: e.message().to_string(),
        })?;
        // Errors after parsing name the line of the entry they concern.
        Self::from_spec(spec, path, &|needle| text.find(needle).map_or(0, line_of))
    }

    /// The same problem as JSON (what Python's `ferrobody.optimize` sends for a dict): the
    /// keys and values of the TOML file; `base` is the folder the file names are relative to.
    pub fn parse_json(text: &str, base: &Path) -> Result<Self> {
        let spec: Spec = serde_json::from_str(text).map_err(|e| OptimizeError::File {
            file: "problem".into(),
            line: 0,
            message: e.to_string(),
        })?;
        Self::from_spec(spec, &base.join("problem"), &|_| 0)
    }

    fn from_spec(spec: Spec, path: &Path, at: &dyn Fn(&str) -> usize) -> Result<Self> {
        let file = path.display().to_string();
        let in_file = |needle: &str, e: OptimizeError| OptimizeError::File {
            file: file.clone(),
            line: at(needle),
            message: e.message(),
        };
        let dir = path.parent().unwrap_or(Path::new(""));
        let model_path = dir.join(&spec.model);
        let mut problem = load_model(&model_path).map_err(|e| in_file("model", e))?;
        let final_time = match spec.time.final_time {
            Range::Value(tf) => FinalTime::Fixed(tf),
            Range::Interval([lo, hi]) => FinalTime::Free(Bounds::new(lo, hi)),
        };
        problem
            .set_time_bounds(spec.time.initial, final_time)
            .map_err(|e| in_file("[time]", e))?;
        for s in &spec.state {
            let bounds = StateBounds {
                path: s
                    .bounds
                    .map_or(Bounds::unbounded(), |[lo, hi]| Bounds::new(lo, hi)),
                initial: s.initial.map(Range::bounds),
                final_: s.final_value.map(Range::bounds),
            };
            problem
                .set_state_bounds(&s.name, bounds)
                .map_err(|e| in_file(&s.name, e))?;
        }
        for c in &spec.control {
            let [lo, hi] = c.bounds;
            problem
                .set_control_bounds(&c.name, Bounds::new(lo, hi))
                .map_err(|e| in_file(&c.name, e))?;
        }
        for g in &spec.goal {
            add_goal(&mut problem, g, dir).map_err(|e| in_file(&g.kind, e))?;
        }
        for c in &spec.path_constraint {
            crate::problem_file_path::add_path_constraint(&mut problem, c)
                .map_err(|e| in_file(&c.kind, e))?;
        }
        let guess = match &spec.guess {
            Some(g) => Guess::Table(Table::read(&dir.join(g))?),
            None => Guess::Bounds,
        };
        Ok(Self {
            problem,
            settings: settings(spec.solver),
            guess,
            model_path,
        })
    }
}

fn load_model(path: &Path) -> Result<Problem> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "osim" => Problem::from_osim(&ferrobody::io::osim::load(path)?),
        "urdf" => {
            let robot = ferrobody::io::urdf::load_actuated(
                path,
                ferrobody::io::urdf::RootJoint::Fixed,
                ferrobody::io::urdf::UrdfActuators::Motors,
            )?;
            Problem::new(robot.model, robot.default_state)
        }
        _ => {
            let scene = ferrobody::io::load_scene(path)?;
            Problem::new(scene.model, scene.initial_state)
        }
    }
}

fn add_goal(problem: &mut Problem, g: &GoalSpec, dir: &Path) -> Result<()> {
    match g.kind.as_str() {
        "periodicity" => {
            let pairs: Vec<(&str, &str)> = g
                .pairs
                .iter()
                .map(|[a, b]| (a.as_str(), b.as_str()))
                .collect();
            problem.add_periodicity(&pairs)
        }
        "average_speed" => {
            let speed = g.speed.ok_or_else(|| {
                OptimizeError::InvalidGoal("average_speed needs speed = METRES_PER_SECOND".into())
            })?;
            problem.set_average_speed(speed)
        }
        "state_tracking" => {
            let reference = g.reference.as_ref().ok_or_else(|| {
                OptimizeError::InvalidGoal("state_tracking needs reference = \"table.sto\"".into())
            })?;
            let table = Table::read(&dir.join(reference))?;
            let weights = |name: &str| g.state_weights.get(name).copied();
            problem.add_state_tracking(g.weight, table, &weights)
        }
        "contact_tracking" => add_contact_tracking(problem, g, dir),
        _ => {
            let goal = goal(problem, g)?;
            problem.add_goal(goal)
        }
    }
}

fn add_contact_tracking(problem: &mut Problem, g: &GoalSpec, dir: &Path) -> Result<()> {
    let bad = |m: &str| Err(OptimizeError::InvalidGoal(format!("contact_tracking: {m}")));
    let Some(file) = &g.external_loads else {
        return bad("needs external_loads = \"loads.xml\"");
    };
    if g.contact_groups.is_empty() {
        return bad("needs contact_groups = [{ contacts = [...], external_force = \"...\" }]");
    }
    let loads = ExternalLoads::read(&dir.join(file))?;
    let vector = || {
        g.projection_vector
            .map(|[x, y, z]| Vector3::new(x, y, z))
            .ok_or_else(|| {
                OptimizeError::InvalidGoal("contact_tracking: needs projection_vector".into())
            })
    };
    let projection = match g.projection.as_deref().unwrap_or("none") {
        "none" => Projection::None,
        "vector" => Projection::Vector(vector()?),
        "plane" => Projection::Plane(vector()?),
        other => {
            return bad(&format!(
                "projection '{other}' is not none, vector or plane"
            ))
        }
    };
    let groups: Vec<(Vec<String>, String)> = g
        .contact_groups
        .iter()
        .map(|c| (c.contacts.clone(), c.external_force.clone()))
        .collect();
    problem.add_contact_tracking(
        g.weight,
        &loads,
        &groups,
        projection,
        g.normalize_tracking_error,
    )
}

fn goal(problem: &Problem, g: &GoalSpec) -> Result<Goal> {
    match g.kind.as_str() {
        "final_time" => Ok(Goal::FinalTime { weight: g.weight }),
        "control_effort" => {
            let mut control_weights = Vec::new();
            if !g.control_weights.is_empty() {
                control_weights = vec![1.0; problem.control_names().len()];
                for (name, w) in &g.control_weights {
                    match problem.variable(name)? {
                        crate::Variable::Control(k) => control_weights[k] = *w,
                        crate::Variable::State(_) => {
                            return Err(OptimizeError::InvalidGoal(format!(
                                "control_weights: '{name}' is a state, not a control"
                            )))
                        }
                    }
                }
            }
            Ok(Goal::ControlEffort {
                weight: g.weight,
                exponent: g.exponent,
                control_weights,
                divide_by_duration: g.divide_by_duration,
                divide_by_displacement: g.divide_by_displacement,
            })
        }
        other => Err(OptimizeError::InvalidGoal(format!(
            "unknown goal kind '{other}' (final_time, control_effort, state_tracking, \
             contact_tracking, periodicity, average_speed)"
        ))),
    }
}

fn settings(s: SolverSpec) -> SolverSettings {
    let d = SolverSettings::default();
    SolverSettings {
        transcription: s.transcription.unwrap_or(d.transcription),
        mesh_intervals: s.mesh_intervals.unwrap_or(d.mesh_intervals),
        convergence_tolerance: s.convergence_tolerance.unwrap_or(d.convergence_tolerance),
        constraint_tolerance: s.constraint_tolerance.unwrap_or(d.constraint_tolerance),
        max_iterations: s.max_iterations.unwrap_or(d.max_iterations),
        ipopt_options: s.ipopt.into_iter().collect(),
        progress: d.progress,
        threads: s.threads,
        homotopy: s
            .homotopy
            .into_iter()
            .map(|stage| crate::solve::HomotopyStage {
                parameters: stage.parameters.into_iter().collect(),
                mesh_intervals: stage.mesh_intervals,
            })
            .collect(),
    }
}
