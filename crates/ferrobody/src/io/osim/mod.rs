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

mod contact;
mod custom_joint;
mod document;
mod forces;
mod frames;
mod joints;

pub use document::OsimError;

use crate::error::{Error, Result};
use crate::ids::BodyId;
use crate::model::{BodyDef, Model, ModelBuilder};
use crate::state::State;
use document::{child, objects, tag_of, Doc, Res};
use nalgebra::Vector3;
use roxmltree::Node;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One OpenSim coordinate and where it lives in the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Coordinate {
    /// OpenSim's name (unique in the model).
    pub name: String,
    /// The joint it belongs to.
    pub joint: String,
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
}

/// OpenSim's `Coordinate::MotionType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Elements read but not simulated, counted by OpenSim type.
    pub left_out: BTreeMap<String, usize>,
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
            .ok_or_else(|| Error::Model(format!("the model has no coordinate named '{name}'")))
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
        let scene = crate::io::Scene {
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
        };
        let info = OsimInfo {
            coordinates: self.coordinates,
            joints: self.joints,
            forces: self.forces,
            left_out: self.left_out,
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
    /// Joints as (name, OpenSim type), in tree order.
    pub joints: Vec<(String, String)>,
    /// Simulated force elements as (name, OpenSim type).
    pub forces: Vec<(String, String)>,
    /// Elements read but not simulated, counted by OpenSim type.
    pub left_out: BTreeMap<String, usize>,
}

/// Reads an .osim file.
pub fn load(path: &Path) -> Result<OsimModel> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::Scene {
        file: file.clone(),
        message: format!("cannot read the file: {e}"),
    })?;
    parse(&text, &file)
}

/// Parses .osim text; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<OsimModel> {
    let text = document::escape_scoped_tags(text);
    let xml = roxmltree::Document::parse(&text).map_err(|e| Error::Scene {
        file: format!("{file}:{}", e.pos().row),
        message: format!("XML syntax error: {e}"),
    })?;
    let doc = Doc::new(&xml).map_err(|e| scene_error(file, e))?;
    build(&doc).map_err(|e| scene_error(file, e))
}

fn scene_error(file: &str, e: OsimError) -> Error {
    Error::Scene {
        file: format!("{file}:{}", e.line),
        message: format!("{}: {}", e.path, e.message),
    }
}

/// Oldest document version with a JointSet (OpenSim 4.0).
const FIRST_4X_VERSION: u32 = 40000;

fn check_version(doc: &Doc) -> Res<()> {
    let Some(root) = doc.model.parent_element() else {
        return Ok(());
    };
    if let Some(v) = root.attribute("Version") {
        let version: u32 = v
            .trim()
            .parse()
            .map_err(|_| doc.err(root, format!("Version '{v}' is not a number")))?;
        if version < FIRST_4X_VERSION {
            return Err(doc.err(
                root,
                format!("document version {version} is older than OpenSim 4.0: open and re-save the model in OpenSim 4.x"),
            ));
        }
    }
    Ok(())
}

/// The model's own list `tag` (`BodySet`, `JointSet`, …) as elements.
fn set_items<'a, 'i>(model: Node<'a, 'i>, tag: &str) -> Vec<Node<'a, 'i>> {
    child(model, tag).map(objects).unwrap_or_default()
}

/// Bodies, joints and coordinates as added to the builder.
struct Skeleton {
    bodies: HashMap<String, BodyId>,
    coordinates: Vec<Coordinate>,
    coordinate_map: HashMap<String, (BodyId, usize, MotionType)>,
    joints: Vec<(String, String)>,
}

fn build(doc: &Doc) -> Res<OsimModel> {
    check_version(doc)?;
    let model_node = doc.model;
    let mut left_out = BTreeMap::new();
    let mut b = ModelBuilder::<f64>::new();
    let gravity = doc.fixed(model_node, "gravity", [0.0, -9.80665, 0.0])?;
    let skeleton = add_skeleton(doc, &mut b)?;
    b.add_gravity(Vector3::from(gravity));
    let forces = add_forces(doc, &mut b, &skeleton, &mut left_out)?;
    let model = b.build().map_err(|e| model_error(doc, model_node, &e))?;
    let mut state = model.default_state();
    for c in &skeleton.coordinates {
        state.q[c.q_index] = c.default_value;
        state.u[c.u_index] = c.default_speed;
    }
    Ok(OsimModel {
        name: model_node.attribute("name").unwrap_or("model").to_string(),
        model,
        default_state: state,
        coordinates: skeleton.coordinates,
        joints: skeleton.joints,
        forces,
        left_out,
    })
}

fn model_error(doc: &Doc, at: Node, e: &Error) -> OsimError {
    doc.err(at, e.to_string().trim_start_matches("model: ").to_string())
}

/// Adds the bodies in tree order, each with the mobilizer of its joint.
fn add_skeleton(doc: &Doc, b: &mut ModelBuilder<f64>) -> Res<Skeleton> {
    let mut body_paths = Vec::new();
    for n in set_items(doc.model, "BodySet") {
        if !n.has_tag_name("Body") {
            return Err(doc.err(n, format!("<{}> in the BodySet is not a Body", tag_of(n))));
        }
        body_paths.push(doc.path_of(n));
    }
    let joint_nodes = set_items(doc.model, "JointSet");
    let joints = joint_nodes
        .iter()
        .map(|&n| joints::read_joint(doc, n))
        .collect::<Res<Vec<_>>>()?;
    let ordered = joints::tree_order(doc, joints, &body_paths)?;
    let mut sk = Skeleton {
        bodies: HashMap::new(),
        coordinates: Vec::new(),
        coordinate_map: HashMap::new(),
        joints: ordered
            .iter()
            .map(|j| (j.name.clone(), tag_of(j.node)))
            .collect(),
    };
    for j in &ordered {
        let body_node = doc.at_path(&j.child.body).unwrap_or(doc.model);
        let mass = joints::mass_properties(doc, body_node)?;
        let parent = if j.parent.body == "/ground" {
            BodyId::GROUND
        } else {
            sk.bodies[&j.parent.body]
        };
        let name = body_node.attribute("name").unwrap_or_default();
        let def = match &j.spatial_transform {
            Some(st) => BodyDef::function_based(name, parent, st.clone(), mass),
            None => BodyDef::new(name, parent, j.mobilizer, mass),
        };
        let def = def.with_x_pf(j.parent.x_bf).with_x_bm(j.child.x_bf);
        let id = b
            .add_body(def)
            .map_err(|e| model_error(doc, body_node, &e))?;
        sk.bodies.insert(j.child.body.clone(), id);
        let (q0, u0) = b.body_offsets(id);
        for (k, c) in joints::coordinates_of(j, q0, u0).into_iter().enumerate() {
            if sk
                .coordinate_map
                .insert(c.name.clone(), (id, k, c.motion))
                .is_some()
            {
                return Err(doc.err(j.node, format!("two coordinates are named '{}'", c.name)));
            }
            sk.coordinates.push(c);
        }
    }
    // OpenSim lists coordinates in JointSet order, not tree order.
    let set_position = |joint: &str| {
        joint_nodes
            .iter()
            .position(|n| n.attribute("name") == Some(joint))
    };
    sk.coordinates.sort_by_key(|c| set_position(&c.joint));
    Ok(sk)
}

/// Adds the supported forces; counts the rest (and unused contact geometry) as left out.
fn add_forces(
    doc: &Doc,
    b: &mut ModelBuilder<f64>,
    sk: &Skeleton,
    left_out: &mut BTreeMap<String, usize>,
) -> Res<Vec<(String, String)>> {
    let (geometry_nodes, force_nodes) = collect_components(doc, left_out)?;
    let geometry = contact::read_all(doc, &geometry_nodes)?;
    let mut used = std::collections::HashSet::new();
    let mut forces = Vec::new();
    let mut ctx = forces::ForceCtx {
        doc,
        builder: b,
        bodies: &sk.bodies,
        coordinates: &sk.coordinate_map,
    };
    for n in force_nodes {
        let tag = tag_of(n);
        if forces::SUPPORTED.contains(&tag.as_str()) {
            ctx.add(n, &geometry)?;
            used.extend(geometry_users(doc, n));
            forces.push((n.attribute("name").unwrap_or(&tag).to_string(), tag));
        } else if forces::is_unsupported_force(&tag) {
            return Err(forces::unsupported(doc, n));
        } else {
            *left_out.entry(tag).or_insert(0) += 1;
        }
    }
    for (name, g) in &geometry {
        if !used.contains(name) {
            let tag = match g {
                contact::ContactGeometry::Sphere { .. } => "ContactSphere",
                contact::ContactGeometry::HalfSpace { .. } => "ContactHalfSpace",
                contact::ContactGeometry::Other(t) => t.as_str(),
            };
            *left_out
                .entry(format!("{tag} (no force uses it)"))
                .or_insert(0) += 1;
        }
    }
    Ok(forces)
}

/// The names of the contact geometries a force refers to (its `geometry` lists and sockets).
fn geometry_users(doc: &Doc, force: Node) -> Vec<String> {
    let mut out = Vec::new();
    for n in force.descendants().filter(|n| n.is_element()) {
        let text = n.text().unwrap_or("").trim();
        if n.has_tag_name("geometry") {
            out.extend(text.split_whitespace().map(String::from));
        } else if n.has_tag_name("socket_sphere") || n.has_tag_name("socket_half_space") {
            if let Ok(t) = doc.resolve(force, n, text) {
                out.extend(t.attribute("name").map(String::from));
            }
        }
    }
    out
}

/// Sorts the model's other elements: contact geometry and forces (from their sets and from
/// `components`) to build, the rest counted as left out; constraints are errors.
fn collect_components<'a, 'i>(
    doc: &Doc<'a, 'i>,
    left_out: &mut BTreeMap<String, usize>,
) -> Res<(Vec<Node<'a, 'i>>, Vec<Node<'a, 'i>>)> {
    let model = doc.model;
    let mut geometry = set_items(model, "ContactGeometrySet");
    let mut forces = set_items(model, "ForceSet");
    for n in set_items(model, "components") {
        let tag = n.tag_name().name();
        if contact::is_contact_geometry(tag) {
            geometry.push(n);
        } else if tag.ends_with("Force") || forces::is_unsupported_force(tag) {
            forces.push(n);
        } else if tag != "PhysicalOffsetFrame" {
            *left_out.entry(tag.to_string()).or_insert(0) += 1;
        }
    }
    for n in set_items(model, "ConstraintSet") {
        if doc.boolean(n, "isEnforced", true)? {
            let tag = n.tag_name().name();
            return Err(doc.err(n, format!("constraint <{tag}> is not supported yet")));
        }
        *left_out.entry(tag_of(n)).or_insert(0) += 1;
    }
    for set in ["ControllerSet", "MarkerSet", "ProbeSet"] {
        for n in set_items(model, set) {
            *left_out.entry(tag_of(n)).or_insert(0) += 1;
        }
    }
    for n in model
        .descendants()
        .filter(|n| n.has_tag_name("attached_geometry"))
    {
        for g in n.children().filter(|c| c.is_element()) {
            *left_out
                .entry(format!("{} (display geometry)", tag_of(g)))
                .or_insert(0) += 1;
        }
    }
    Ok((geometry, forces))
}
