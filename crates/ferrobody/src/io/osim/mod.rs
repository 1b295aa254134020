//! OpenSim model files (`.osim`, OpenSim 4.x): skeleton, contact and springs as a ferrobody
//! [`Model`], its default state, and OpenSim's coordinates by name.
//!
//! The reader follows OpenSim 4.6 (`Model::initSystem`, which builds Simbody's system) element
//! by element; `docs/models/opensim.md` has the full mapping and the validation against
//! OpenSim's own runs. Read: `gravity`; `Ground`; `BodySet` (mass, mass centre, inertia about
//! the mass centre); `PhysicalOffsetFrame`s anywhere; `JointSet` (Weld, Pin, Slider, Planar,
//! Universal, Gimbal, Ball, Free: `joints.rs`; Custom: `custom_joint.rs`); `ContactGeometrySet`
//! (spheres, half spaces: `contact.rs`); forces in `ForceSet` or `components` (`forces.rs`). Elements that do not change
//! the skeleton's dynamics without inputs (muscles and actuators without controls, controllers,
//! markers, probes, display geometry) are left out and counted in [`OsimModel::left_out`];
//! elements that would change it and cannot be simulated (constraints, locked or prescribed
//! coordinates, unsupported joints, functions, forces and contact shapes) are errors. Every error names the file, the line and the
//! component path: `leg.osim:112: /jointset/knee: <socket_child_frame> 'x': …`.
//!
//! Citation: Seth et al. (2018), "OpenSim: Simulating musculoskeletal dynamics and neuromuscular
//! control to study human and animal movement", PLoS Comput Biol 14(7): e1006223.

mod actuators;
mod build;
mod bushings;
mod constraints;
mod contact;
mod controllers;
pub mod controls_file;
mod custom_joint;
pub mod data_table;
mod document;
mod elastic_foundation;
mod ellipsoid_joints;
mod equilibrate;
pub mod external_loads;
mod forces;
mod frames;
mod joints;
mod muscle_properties;
mod muscles;
mod path_forces;
mod prescribed_force;
mod station_frames;
mod upgrade;

use document::OsimError;

use crate::error::{Error, ParseError, Result};
use crate::model::Model;
use crate::state::State;
use document::Doc;
use std::collections::BTreeMap;
use std::path::Path;

/// One OpenSim coordinate and where it lives in the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Coordinate {
    /// OpenSim's name (unique in the model).
    pub name: String,
    /// The joint it belongs to.
    pub joint: String,
    /// Its component path (`/jointset/knee/knee_angle`; `/slider/position` for a joint in the
    /// model's `components`): states are `PATH/value` and `PATH/speed`.
    pub path: String,
    /// Index in `State::q`.
    pub q_index: usize,
    /// Index in `State::u` (its speed).
    pub u_index: usize,
    /// `default_value` (rad or m).
    pub default_value: f64,
    /// `default_speed_value` (rad/s or m/s).
    pub default_speed: f64,
    /// OpenSim's motion type (it sets the units of `CoordinateLimitForce`).
    pub motion: MotionType,
    /// `range` [min, max] (rad or m; OpenSim's default [−10, 10]). Not enforced (OpenSim
    /// clamps only where `clamped` asks, which issue 39 adds); a `MovingPathPoint` evaluates
    /// its location at the coordinate clamped to it, as OpenSim does.
    pub range: [f64; 2],
}

/// OpenSim's `Coordinate::MotionType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MotionType {
    /// An angle (rad).
    Rotational,
    /// A length (m).
    Translational,
    /// A CustomJoint coordinate that drives its axes through scaled or nonlinear functions only.
    Coupled,
}

/// A loaded OpenSim model.
pub struct OsimModel {
    /// The model's `name`.
    pub name: String,
    /// The multibody model (bodies named after OpenSim's bodies).
    pub model: Model<f64>,
    /// The default state: coordinates at their default values and speeds.
    pub default_state: State<f64>,
    /// Coordinates in OpenSim's order (JointSet order, then within each joint).
    pub coordinates: Vec<Coordinate>,
    /// Joints as (name, OpenSim type), in tree order.
    pub joints: Vec<(String, String)>,
    /// Simulated force elements as (name, OpenSim type).
    pub forces: Vec<(String, String)>,
    /// The component path of each control of the model's control vector, in control order
    /// (`/forceset/tau0`, or `/tau0` for an actuator in `components`): Moco's control names.
    pub control_paths: Vec<String>,
    /// Each control's `[min_control, max_control]` as the file gives them (OpenSim's
    /// defaults where it does not; unbounded for a control no actuator of the file has): they
    /// do not clamp a forward run's controls (OpenSim's muscles clamp their excitations
    /// themselves), but Moco bounds its control variables by them.
    pub control_bounds: Vec<[f64; 2]>,
    /// The components' continuous state variables by OpenSim path
    /// (`/forceset/NAME/activation`, `/forceset/NAME/normalized_tendon_force`) and z index.
    pub state_variables: Vec<(String, crate::ids::ZId)>,
    /// Elements read but not simulated, counted by OpenSim type.
    pub left_out: BTreeMap<String, usize>,
    /// What OpenSim accepts with a warning and ferrobody runs as OpenSim does, one line each
    /// (`file:line: path: message`), in reading order.
    pub warnings: Vec<String>,
    /// The lock of each coordinate locked in the file (`<locked>true</locked>`), by
    /// coordinate name: [`Model::lock_coordinate`] locks it where it is,
    /// [`Model::disable_constraint`] unlocks it.
    pub locks: Vec<(String, crate::constraints::ConstraintId)>,
    /// The ConstraintSet's elements as (name, OpenSim type).
    pub constraints: Vec<(String, String)>,
}

impl OsimModel {
    /// The coordinate with this OpenSim name.
    pub fn coordinate(&self, name: &str) -> Option<&Coordinate> {
        self.coordinates.iter().find(|c| c.name == name)
    }

    /// Sets a coordinate's value in `state` by OpenSim name.
    pub fn set_coordinate(&self, state: &mut State<f64>, name: &str, value: f64) -> Result<()> {
        let c = self.require(name)?;
        state.q[c.q_index] = value;
        Ok(())
    }

    /// Sets a coordinate's speed in `state` by OpenSim name.
    pub fn set_speed(&self, state: &mut State<f64>, name: &str, value: f64) -> Result<()> {
        let c = self.require(name)?;
        state.u[c.u_index] = value;
        Ok(())
    }

    /// A coordinate's value and speed in `state`.
    pub fn coordinate_value(&self, state: &State<f64>, name: &str) -> Result<(f64, f64)> {
        let c = self.require(name)?;
        Ok((state.q[c.q_index], state.u[c.u_index]))
    }

    fn require(&self, name: &str) -> Result<&Coordinate> {
        self.coordinate(name)
            .ok_or_else(|| Error::model(format!("the model has no coordinate named '{name}'")))
    }

    /// The scene `ferrobody run MODEL.osim` runs: [`RUN_DURATION`], reports every
    /// [`RUN_REPORT_INTERVAL`], RK-Merson at [`RUN_ACCURACY`] (OpenSim's forward tool).
    pub fn into_default_scene(self) -> (crate::io::Scene, OsimInfo) {
        self.into_scene(
            RUN_DURATION,
            RUN_REPORT_INTERVAL,
            crate::IntegratorSettings::rk_merson(RUN_ACCURACY),
        )
    }

    /// A runnable scene of this model (its default state, `duration` seconds, reports every
    /// `report_interval` s, each report time a step boundary as in OpenSim's `Manager`) and
    /// what the scene does not hold: coordinates, joints, forces, left-out elements.
    pub fn into_scene(
        self,
        duration: f64,
        report_interval: f64,
        integrator: crate::IntegratorSettings,
    ) -> (crate::io::Scene, OsimInfo) {
        let mut names = crate::io::MobilityNames::of(&self.model);
        for c in &self.coordinates {
            names.coordinates[c.q_index] = c.name.clone();
            names.speeds[c.u_index] = format!("{}/speed", c.name);
        }
        for (name, z) in &self.state_variables {
            names.auxiliary[z.0] = name.clone();
        }
        let scene = crate::io::Scene {
            names,
            name: self.name.clone(),
            description: format!(
                "OpenSim model '{}': {} bodies, {} coordinates",
                self.name,
                self.model.nbodies() - 1,
                self.coordinates.len()
            ),
            model: self.model,
            initial_state: self.default_state,
            duration,
            report_interval,
            integrator,
            step_to_reports: true,
            visuals: Vec::new(),
            left_out: self.left_out.clone(),
        };
        let info = OsimInfo {
            state_variables: self.state_variables,
            coordinates: self.coordinates,
            joints: self.joints,
            forces: self.forces,
            left_out: self.left_out,
            warnings: self.warnings,
            locks: self.locks,
            constraints: self.constraints,
        };
        (scene, info)
    }

    /// Total count of left-out elements.
    pub fn left_out_count(&self) -> usize {
        self.left_out.values().sum()
    }
}

/// What an [`OsimModel`] knows beyond its model and state (see [`OsimModel::into_scene`]).
#[derive(Clone, Debug, Default)]
pub struct OsimInfo {
    /// Coordinates in OpenSim's order.
    pub coordinates: Vec<Coordinate>,
    /// The components' state variables by OpenSim path, with their z index.
    pub state_variables: Vec<(String, crate::ids::ZId)>,
    /// Joints as (name, OpenSim type), in tree order.
    pub joints: Vec<(String, String)>,
    /// Simulated force elements as (name, OpenSim type).
    pub forces: Vec<(String, String)>,
    /// Elements read but not simulated, counted by OpenSim type.
    pub left_out: BTreeMap<String, usize>,
    /// Warnings of the reader ([`OsimModel::warnings`]).
    pub warnings: Vec<String>,
    /// Coordinate locks by coordinate name ([`OsimModel::locks`]).
    pub locks: Vec<(String, crate::constraints::ConstraintId)>,
    /// The ConstraintSet's elements as (name, OpenSim type).
    pub constraints: Vec<(String, String)>,
}

/// Accuracy of .osim (and .urdf) runs unless told otherwise: OpenSim's forward tool default.
pub const RUN_ACCURACY: f64 = 1e-5;
/// Simulated time of .osim (and .urdf) runs unless told otherwise (s).
pub const RUN_DURATION: f64 = 1.0;
/// Report interval of .osim (and .urdf) runs unless told otherwise (s).
pub const RUN_REPORT_INTERVAL: f64 = 0.01;

/// Reads an .osim file.
pub fn load(path: &Path) -> Result<OsimModel> {
    let file = path.display().to_string();
    let text = crate::io::read_text_file(path, "cannot read the file")?;
    parse(&text, &file)
}

/// Reads an .osim file driven by a controls file (`ferrobody run --controls`, OpenSim's
/// forward tool's controls): each column's actuator gets that control as a function of time
/// ([`controls_file`]). A column naming no simulated muscle or actuator, or one a
/// `PrescribedController` already drives (OpenSim would add the two), is an error naming the
/// controls file's line.
pub fn load_with_controls(path: &Path, controls: &Path) -> Result<OsimModel> {
    load_with(
        path,
        &LoadOptions {
            controls: Some(controls),
            ..LoadOptions::default()
        },
    )
}

/// The forward tool's inputs besides the model: a controls file and an external loads file.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions<'a> {
    /// A controls file ([`load_with_controls`]).
    pub controls: Option<&'a Path>,
    /// An `ExternalLoads` file ([`external_loads`]): its forces are added to the model's.
    pub external_loads: Option<&'a Path>,
}

/// Reads an .osim file with the forward tool's other inputs ([`LoadOptions`]).
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<OsimModel> {
    let text = crate::io::read_text_file(path, "cannot read the file")?;
    parse_with_options(&text, &path.display().to_string(), options)
}

/// Parses .osim text (named `file` in errors) with the forward tool's other inputs
/// ([`LoadOptions`]), whose files are read here.
pub fn parse_with_options(text: &str, file: &str, options: &LoadOptions) -> Result<OsimModel> {
    let columns = match options.controls {
        Some(c) => controls_file::read(c)?,
        None => Vec::new(),
    };
    let loads = options
        .external_loads
        .map(external_loads::read)
        .transpose()?;
    let controls_name = options.controls.map(|c| c.display().to_string());
    parse_with(
        text,
        file,
        &columns,
        controls_name.as_deref().unwrap_or(""),
        loads.as_ref(),
    )
}

/// Parses .osim text with the columns of a controls file (named `controls_file` in errors).
pub fn parse_with_controls(
    text: &str,
    file: &str,
    columns: &[controls_file::ControlColumn],
    controls_file: &str,
) -> Result<OsimModel> {
    parse_with(text, file, columns, controls_file, None)
}

/// Parses .osim text with the columns of a controls file and external loads.
pub fn parse_with(
    text: &str,
    file: &str,
    columns: &[controls_file::ControlColumn],
    controls_file: &str,
    loads: Option<&external_loads::ExternalLoads>,
) -> Result<OsimModel> {
    let escaped = document::escape_scoped_tags(text);
    let upgraded = upgrade_old_document(&escaped, file)?;
    let escaped = upgraded
        .as_ref()
        .map_or(escaped, |u| u.text.as_str().into());
    let text = document::with_default_ground(&escaped);
    let xml = parse_xml(&text, file)?;
    let mut doc = Doc::new(&xml).map_err(|e| scene_error(file, e))?;
    doc.dir = Path::new(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let prescribed = controllers::prescribed_excitations(&doc).map_err(|e| scene_error(file, e))?;
    let err = |c: &controls_file::ControlColumn, message: String| {
        Error::Parse(ParseError::in_file(controls_file, message).at_line(c.line))
    };
    for c in columns {
        if prescribed.contains_key(&c.actuator) {
            return Err(err(c, format!("actuator '{}' is already driven by a PrescribedController of the model (OpenSim would add the two; not supported)", c.actuator)));
        }
        doc.extra_controls
            .insert(c.actuator.clone(), c.function.clone());
    }
    if let Some(loads) = loads {
        doc.external_forces = external_loads::resolve(&doc, loads)?;
    }
    let mut model = build::build(&doc).map_err(|e| scene_error(file, e))?;
    model.warnings = upgraded
        .iter()
        .map(|u| format!("{file}: document version {} read in OpenSim 4's layout, as OpenSim 4.6 upgrades it", u.from_version))
        .chain(
            doc.warnings
                .take()
                .into_iter()
                .map(|w| format!("{file}:{}: {}: {}", w.line, w.path, w.problem)),
        )
        .collect();
    for c in columns {
        let drives = |(name, tag): &(String, String)| {
            name == &c.actuator
                && (muscles::SUPPORTED.contains(&tag.as_str())
                    || actuators::SUPPORTED.contains(&tag.as_str())
                    || tag == "PathActuator")
        };
        if !model.forces.iter().any(drives) {
            return Err(err(
                c,
                format!(
                    "column '{}' names no simulated muscle or actuator of the model",
                    c.actuator
                ),
            ));
        }
    }
    Ok(model)
}

/// The XML document of `text`, or a syntax error naming `file` and the line.
fn parse_xml<'t>(text: &'t str, file: &str) -> Result<roxmltree::Document<'t>> {
    roxmltree::Document::parse(text).map_err(|e| {
        Error::Parse(
            ParseError::in_file(
                file,
                format!("XML syntax error: {}", crate::io::one_line(&e.to_string())),
            )
            .at_line(e.pos().row),
        )
    })
}

/// A document older than OpenSim 4.0 in 4.0's layout ([`upgrade`]); `None` for a 4.x one.
fn upgrade_old_document(text: &str, file: &str) -> Result<Option<upgrade::Upgraded>> {
    if !upgrade::may_need_upgrade(text) {
        return Ok(None);
    }
    let xml = parse_xml(text, file)?;
    upgrade::upgrade(&xml).map_err(|e| {
        let error = ParseError::in_file(file, e.message).at_line(e.line);
        Error::Parse(if e.path.is_empty() {
            error
        } else {
            error.in_element(e.path)
        })
    })
}

/// Parses .osim text; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<OsimModel> {
    parse_with_controls(text, file, &[], "")
}

fn scene_error(file: &str, e: OsimError) -> Error {
    Error::Parse(
        ParseError::in_file(file, e.problem)
            .at_line(e.line)
            .in_element(e.path),
    )
}
