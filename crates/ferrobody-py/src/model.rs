//! `ferrobody.Model` and `ferrobody.load`: a scene file (TOML) or an OpenSim model (.osim)
//! with its run settings, picklable (it keeps its source text and rebuilds from it).

use crate::state::PyState;
use crate::to_py_err;
use ferrobody::io::{osim, parse_scene, urdf, Scene};
use ferrobody::{IntegratorSettings, Model, State};
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::path::Path;
use std::sync::Arc;

/// Where a model comes from: its text, its file name, its kind ("toml", "osim" or "urdf");
/// for URDF robots, whether the base floats and which actuators it gets (`"none"`,
/// `"motors"` or `"position"`, with the servos' kp and kv); for OpenSim models, the forward
/// tool's controls file and external loads file (read again when unpickling, as the model's
/// mesh files are).
type Source = (
    String,
    String,
    String,
    bool,
    (String, f64, f64),
    (Option<String>, Option<String>),
);

/// A loaded model with its run settings (immutable; `copy()` for a copy).
#[pyclass(module = "ferrobody", name = "Model", frozen)]
pub struct PyModel {
    pub(crate) model: Arc<Model<f64>>,
    pub(crate) initial_state: State<f64>,
    pub(crate) integrator: IntegratorSettings,
    pub(crate) duration: f64,
    pub(crate) report_interval: f64,
    pub(crate) step_to_reports: bool,
    name: String,
    coordinate_names: Vec<String>,
    speed_names: Vec<String>,
    auxiliary_names: Vec<String>,
    source: Source,
    /// Parameter changes made since loading, in order (re-applied when unpickling).
    overrides: Vec<(String, String, f64)>,
    /// Coordinate locks of an .osim model, by coordinate name.
    locks: Vec<(String, ferrobody::constraints::ConstraintId)>,
}

impl PyModel {
    fn from_source(source: Source) -> PyResult<Self> {
        let (text, file, kind, floating_base, (actuators, kp, kv), (controls, loads)) = &source;
        let (text, file) = (text.clone(), file.clone());
        let mut locks = Vec::new();
        let scene = if kind == "urdf" {
            let root = if *floating_base {
                urdf::RootJoint::Floating
            } else {
                urdf::RootJoint::Fixed
            };
            let actuators = urdf::UrdfActuators::from_name(actuators, *kp, *kv)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let robot = urdf::parse_actuated(&text, &file, root, actuators).map_err(to_py_err)?;
            robot.into_default_scene()
        } else if kind == "osim" {
            let m = parse_osim(&text, &file, controls.as_deref(), loads.as_deref())?;
            let (scene, info) = m.into_default_scene();
            locks = info.locks;
            scene
        } else {
            let stem = Path::new(&file)
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            parse_scene(&text, &file, &stem).map_err(to_py_err)?
        };
        let Scene {
            name,
            model,
            initial_state,
            duration,
            report_interval,
            integrator,
            step_to_reports,
            names,
            ..
        } = scene;
        Ok(Self {
            model: Arc::new(model),
            initial_state,
            integrator,
            duration,
            report_interval,
            step_to_reports,
            name,
            coordinate_names: names.coordinates,
            speed_names: names.speeds,
            auxiliary_names: names.auxiliary,
            source,
            overrides: Vec::new(),
            locks,
        })
    }
}

impl PyModel {
    fn clone_model(&self) -> PyModel {
        PyModel {
            model: self.model.clone(),
            initial_state: self.initial_state.clone(),
            integrator: self.integrator,
            duration: self.duration,
            report_interval: self.report_interval,
            step_to_reports: self.step_to_reports,
            name: self.name.clone(),
            coordinate_names: self.coordinate_names.clone(),
            speed_names: self.speed_names.clone(),
            auxiliary_names: self.auxiliary_names.clone(),
            source: self.source.clone(),
            overrides: self.overrides.clone(),
            locks: self.locks.clone(),
        }
    }

    pub(crate) fn coordinate_names_ref(&self) -> &[String] {
        &self.coordinate_names
    }
    pub(crate) fn speed_names_ref(&self) -> &[String] {
        &self.speed_names
    }
    pub(crate) fn auxiliary_names_ref(&self) -> &[String] {
        &self.auxiliary_names
    }
}

impl PyModel {
    fn lock_id(&self, name: &str) -> PyResult<ferrobody::constraints::ConstraintId> {
        self.locks
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
            .ok_or_else(|| {
                pyo3::exceptions::PyKeyError::new_err(format!(
                    "no lockable coordinate named '{name}' (the model file locks: {})",
                    self.locks
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
}

/// An .osim model's text with the forward tool's controls file and external loads file, as
/// `ferrobody run --controls FILE --external-loads FILE` reads them.
fn parse_osim(
    text: &str,
    file: &str,
    controls: Option<&str>,
    loads: Option<&str>,
) -> PyResult<osim::OsimModel> {
    let options = osim::LoadOptions {
        controls: controls.map(Path::new),
        external_loads: loads.map(Path::new),
    };
    osim::parse_with_options(text, file, &options).map_err(to_py_err)
}

/// The position of `name` in `names`, or a `KeyError` naming the kind.
fn index_of(names: &[String], name: &str, kind: &str) -> PyResult<usize> {
    names
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no {kind} named '{name}'")))
}

/// Loads a scene file (`.toml`), an OpenSim model (`.osim`, with the forward tool's
/// `controls` file and `external_loads` file if given) or a URDF robot (`.urdf`, with
/// `floating_base=True` for a free root link and `actuators="motors"` or `"position"` (gains
/// `kp`, `kv`) for one actuator per actuated joint), run as `ferrobody run` runs it.
#[pyfunction]
#[pyo3(signature = (path, floating_base=false, actuators="none", kp=1.0, kv=0.0, controls=None, external_loads=None))]
pub fn load(
    path: std::path::PathBuf,
    floating_base: bool,
    actuators: &str,
    kp: f64,
    kv: f64,
    controls: Option<std::path::PathBuf>,
    external_loads: Option<std::path::PathBuf>,
) -> PyResult<PyModel> {
    let file = path.display().to_string();
    let extension = path
        .extension()
        .map_or(String::new(), |e| e.to_string_lossy().to_ascii_lowercase());
    let kind = match extension.as_str() {
        "osim" | "urdf" => extension,
        _ => "toml".to_string(),
    };
    let bytes = std::fs::read(&path).map_err(|e| {
        let message = format!("{file}: cannot read the file: {e}");
        if e.kind() == std::io::ErrorKind::NotFound {
            PyFileNotFoundError::new_err(message)
        } else {
            PyValueError::new_err(message)
        }
    })?;
    // XML files may hold Latin-1 bytes, as OpenSim writes them (`ferrobody::io::decode_text`);
    // TOML is UTF-8 by definition, as the command line reads it.
    let text = if kind == "toml" {
        String::from_utf8(bytes).map_err(|e| {
            PyValueError::new_err(format!("{file}: cannot read the file: {}", e.utf8_error()))
        })?
    } else {
        ferrobody::io::decode_text(bytes)
    };
    urdf::UrdfActuators::from_name(actuators, kp, kv)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if kind != "urdf" && actuators != "none" {
        return Err(PyValueError::new_err(format!(
            "{file}: actuators=\"{actuators}\" is for URDF robots; a scene declares its own with [[actuator]]"
        )));
    }
    if kind != "osim" && (controls.is_some() || external_loads.is_some()) {
        return Err(PyValueError::new_err(format!(
            "{file}: controls= and external_loads= are the OpenSim forward tool's inputs, for .osim models"
        )));
    }
    let actuation = (actuators.to_string(), kp, kv);
    let inputs = (
        controls.map(|c| c.display().to_string()),
        external_loads.map(|l| l.display().to_string()),
    );
    PyModel::from_source((text, file, kind, floating_base, actuation, inputs))
}

/// Rebuilds a model from its source and parameter changes (what unpickling calls).
#[pyfunction]
#[pyo3(name = "_model_from_source")]
pub fn model_from_source(
    source: Source,
    overrides: Vec<(String, String, f64)>,
) -> PyResult<PyModel> {
    let mut m = PyModel::from_source(source)?;
    for (force, parameter, value) in overrides {
        m = m.with_parameter(&force, &parameter, value)?;
    }
    Ok(m)
}

#[pymethods]
impl PyModel {
    /// The scene's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Body names, Ground first.
    #[getter]
    fn body_names(&self) -> Vec<String> {
        self.model.bodies().iter().map(|b| b.name.clone()).collect()
    }
    /// Names of the generalized coordinates q: OpenSim's for .osim models, the joint's for URDF,
    /// else `BODY.SUFFIX` (`ball.qw … ball.pz` for a free body); `simulate`'s column is `q:NAME`.
    #[getter]
    fn coordinate_names(&self) -> Vec<String> {
        self.coordinate_names.clone()
    }
    /// Names of the generalized speeds u: `COORDINATE/speed` for .osim and URDF models, else
    /// `BODY.SUFFIX` (`ball.wx … ball.vz`); `simulate`'s column is `u:NAME`.
    #[getter]
    fn speed_names(&self) -> Vec<String> {
        self.speed_names.clone()
    }

    /// Names of the auxiliary state variables z: for .osim models OpenSim's state-variable
    /// paths (`/forceset/NAME/activation`, `/forceset/NAME/fiber_length`,
    /// `/forceset/NAME/normalized_tendon_force`), else `z0, z1, …`; the columns of `simulate`.
    #[getter]
    fn auxiliary_names(&self) -> Vec<String> {
        self.auxiliary_names.clone()
    }
    /// Number of generalized coordinates.
    #[getter]
    fn nq(&self) -> usize {
        self.model.nq()
    }
    /// Number of generalized speeds.
    #[getter]
    fn nu(&self) -> usize {
        self.model.nu()
    }
    /// Number of auxiliary continuous states.
    #[getter]
    fn nz(&self) -> usize {
        self.model.nz()
    }
    /// Number of bodies, Ground included.
    #[getter]
    fn nbodies(&self) -> usize {
        self.model.nbodies()
    }
    /// The scene's simulated duration (s).
    #[getter]
    fn duration(&self) -> f64 {
        self.duration
    }
    /// The scene's report interval (s).
    #[getter]
    fn report_interval(&self) -> f64 {
        self.report_interval
    }
    /// The scene's integrator name.
    #[getter]
    fn integrator(&self) -> &'static str {
        self.integrator.kind.name()
    }
    /// The scene's integrator accuracy.
    #[getter]
    fn accuracy(&self) -> f64 {
        self.integrator.accuracy
    }
    /// The scene's initial state (a new object each call).
    fn default_state(&self, py: Python<'_>) -> PyResult<PyState> {
        PyState::from_state(py, &self.initial_state)
    }
    /// A copy of the model.
    fn copy(&self) -> PyModel {
        self.clone_model()
    }
    /// A copy of the model with `parameter` of the force element named `force` set to
    /// `value`: contact `stiffness`, `dissipation`, `static_friction`, `dynamic_friction`,
    /// `viscous_friction`, `transition_velocity`; the smooth model's `constant_contact_force`,
    /// `hertz_smoothing`, `hunt_crossley_smoothing`, `sphere_radius`; the exponential spring's
    /// `d0`, `d1`, `d2`, `normal_viscosity`, `max_normal_force`, `friction_elasticity`,
    /// `friction_viscosity`, `settle_velocity`; linear springs' `stiffness`, `rest_length`,
    /// `q0`. Raises `ValueError` naming what is wrong.
    fn with_parameter(&self, force: &str, parameter: &str, value: f64) -> PyResult<PyModel> {
        let mut model = (*self.model).clone();
        model
            .set_force_parameter(force, parameter, value)
            .map_err(to_py_err)?;
        let mut copy = self.clone_model();
        copy.model = Arc::new(model);
        copy.overrides
            .push((force.to_string(), parameter.to_string(), value));
        Ok(copy)
    }
    /// The value of `parameter` of the force element named `force`.
    fn parameter(&self, force: &str, parameter: &str) -> PyResult<f64> {
        self.model
            .force_parameter(force, parameter)
            .map_err(to_py_err)
    }
    /// Names of the actuators, in control order.
    #[getter]
    fn actuator_names(&self) -> Vec<String> {
        self.model
            .actuators()
            .iter()
            .map(|a| a.name.clone())
            .collect()
    }
    /// Names of the controls, in control order: the actuators', then the muscles' and OpenSim
    /// actuators' that no controller drives (their excitations).
    #[getter]
    fn control_names(&self) -> Vec<String> {
        self.model
            .control_names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }
    /// Number of controls (`control_names`).
    #[getter]
    fn nctrl(&self) -> usize {
        self.model.nctrl()
    }
    /// Index of a body by name (`body_names`: Ground is 0, as in every per-body array);
    /// `KeyError` if none.
    fn body_index(&self, name: &str) -> PyResult<usize> {
        self.model
            .body_id(name)
            .map(|id| id.0)
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no body named '{name}'")))
    }
    /// Index of a generalized coordinate by name (`coordinate_names`); `KeyError` if none.
    fn q_index(&self, name: &str) -> PyResult<usize> {
        index_of(&self.coordinate_names, name, "coordinate")
    }
    /// Index of a generalized speed by name (`speed_names`); `KeyError` if none.
    fn u_index(&self, name: &str) -> PyResult<usize> {
        index_of(&self.speed_names, name, "speed")
    }
    /// Index of a control (`control_names`: an actuator or an uncontrolled muscle) by name;
    /// `KeyError` if none.
    fn ctrl_index(&self, name: &str) -> PyResult<usize> {
        self.model.control_index(name).ok_or_else(|| {
            pyo3::exceptions::PyKeyError::new_err(format!("no control named '{name}'"))
        })
    }
    /// Names of the muscles, in force order (the rows of `moment_arms`).
    #[getter]
    fn muscle_names(&self) -> Vec<String> {
        ferrobody::derivatives::MomentArms::new(&self.model)
            .map(|a| a.muscles)
            .unwrap_or_default()
    }
    /// Every muscle's moment arm −∂ℓ/∂q (m or m/rad) about every coordinate at `state`'s pose
    /// (default: the model's initial state), exact (dual numbers through the path and its
    /// wrapping): a float64 array of shape (len(muscle_names), nq), columns as
    /// `coordinate_names`. OpenSim's `Muscle.computeMomentArm` for unconstrained coordinates.
    #[pyo3(signature = (state=None))]
    fn moment_arms<'py>(
        &self,
        py: Python<'py>,
        state: Option<PyRef<'_, PyState>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = match state {
            Some(s) => s.to_state(py, &self.model)?,
            None => self.initial_state.clone(),
        };
        let mut arms = ferrobody::derivatives::MomentArms::new(&self.model).map_err(to_py_err)?;
        arms.compute(&s).map_err(to_py_err)?;
        let (rows, cols) = arms.matrix.shape();
        let values: Vec<f64> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| arms.matrix[(r, c)])
            .collect();
        crate::arrays::shaped(py, values, &[rows, cols])
    }
    /// Names of the coordinates an .osim model locks (`<locked>true</locked>`): each can be
    /// unlocked and locked again in a state.
    #[getter]
    fn lockable_coordinates(&self) -> Vec<String> {
        self.locks.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Whether coordinate `name` is locked in `state`.
    fn is_locked(&self, state: PyRef<'_, PyState>, name: &str) -> PyResult<bool> {
        let id = self.lock_id(name)?;
        let s = state.to_state(state.py(), &self.model)?;
        Ok(self.model.is_constraint_enabled(&s, id))
    }

    /// Locks coordinate `name` in `state` at its current value (OpenSim
    /// `Coordinate.setLocked(state, True)`); set its speed to zero or let the simulation's
    /// projection do it.
    fn lock(&self, mut state: PyRefMut<'_, PyState>, name: &str) -> PyResult<()> {
        let id = self.lock_id(name)?;
        let mut s = state.to_state(state.py(), &self.model)?;
        self.model.lock_coordinate(&mut s, id).map_err(to_py_err)?;
        state.set_rest(s);
        Ok(())
    }

    /// Unlocks coordinate `name` in `state` (OpenSim `Coordinate.setLocked(state, False)`).
    fn unlock(&self, mut state: PyRefMut<'_, PyState>, name: &str) -> PyResult<()> {
        let id = self.lock_id(name)?;
        let mut s = state.to_state(state.py(), &self.model)?;
        self.model
            .disable_constraint(&mut s, id)
            .map_err(to_py_err)?;
        state.set_rest(s);
        Ok(())
    }

    /// Names of the force elements.
    #[getter]
    fn force_names(&self) -> Vec<String> {
        self.model
            .forces()
            .iter()
            .map(|f| f.name().to_string())
            .collect()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let rebuild = py
            .import("ferrobody._ferrobody")?
            .getattr("_model_from_source")?;
        let me = slf.get();
        (rebuild, (me.source.clone(), me.overrides.clone())).into_pyobject(py)
    }
    fn __repr__(&self) -> String {
        format!(
            "<ferrobody.Model '{}': {} bodies, nq={}, nu={}, nz={}>",
            self.name,
            self.model.nbodies() - 1,
            self.model.nq(),
            self.model.nu(),
            self.model.nz()
        )
    }
}
