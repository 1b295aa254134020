//! `[[robot]]`: a URDF robot in a scene, with the scene's gravity and ground.
//!
//! The robot's links become bodies as for `ferrobody run ROBOT.urdf` ([`crate::io::urdf`]),
//! welded to Ground at `frame` or on a Free joint whose initial pose is `frame`; its
//! `<collision>` spheres become contact surfaces of the `[[contact]]` element named by
//! `contact`, with the material named by `material` (the element's model and transition
//! velocity apply to them). Shapes our geometry lacks (boxes, cylinders, meshes) are listed in
//! the scene's `left_out`, as the robot's visuals and transmissions are.

use super::scene_build::frame;
use super::scene_types::FrameSection;
use crate::error::{invalid, ModelError};
use crate::geometry::{ContactSurface, Shape};
use crate::io::urdf::{self, Attach, RobotInfo, RootJoint};
use crate::math::quaternion::quaternion_from_rotation;
use crate::math::Transform;
use crate::model::{Model, ModelBuilder};
use crate::state::State;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

type Res<T> = std::result::Result<T, ModelError>;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct RobotSection {
    pub file: String,
    pub floating_base: Option<bool>,
    pub frame: Option<FrameSection>,
    pub prefix: Option<String>,
    pub joint_positions: Option<BTreeMap<String, f64>>,
    pub contact: Option<String>,
    pub material: Option<String>,
}

/// A robot added to the model being built.
pub(super) struct AddedRobot {
    pub(super) info: RobotInfo,
    /// The floating base's initial pose (None: welded).
    x_gb: Option<Transform<f64>>,
}

/// Reads each robot's file (relative to `scene_dir`) and adds its bodies; counts what is
/// left out into `left_out`.
pub(super) fn add_robots(
    b: &mut ModelBuilder<f64>,
    sections: &[RobotSection],
    scene_dir: &Path,
    left_out: &mut BTreeMap<String, usize>,
) -> Res<Vec<AddedRobot>> {
    let mut added = Vec::with_capacity(sections.len());
    for (i, s) in sections.iter().enumerate() {
        let robot = add_robot(b, s, scene_dir, left_out).map_err(|m| invalid!("robot[{i}].{m}"))?;
        added.push(robot);
    }
    Ok(added)
}

fn add_robot(
    b: &mut ModelBuilder<f64>,
    s: &RobotSection,
    scene_dir: &Path,
    left_out: &mut BTreeMap<String, usize>,
) -> Res<AddedRobot> {
    match (&s.contact, &s.material) {
        (Some(_), None) => return Err("material: a robot in contact needs a material".into()),
        (None, Some(_)) => return Err("material: given without contact".into()),
        _ => {}
    }
    let path = scene_dir.join(&s.file);
    let text = std::fs::read(&path)
        .map(crate::io::decode_text)
        .map_err(|e| invalid!("file: cannot read '{}': {e}", path.display()))?;
    let shown = path.display().to_string();
    let xml = roxmltree::Document::parse(&text).map_err(|e| {
        let reason = crate::io::one_line(&e.to_string());
        invalid!("file: {shown}:{}: XML syntax error: {reason}", e.pos().row)
    })?;
    let described = |e: urdf::document::UrdfError| {
        invalid!("file: {shown}:{}: {}: {}", e.line, e.path, e.problem)
    };
    let robot = urdf::document::read(&xml).map_err(described)?;
    let floating = s.floating_base.unwrap_or(false);
    let x_gr = frame(s.frame.as_ref(), "frame")
        .map_err(|m| invalid!("{}", m.to_string().trim_start_matches('.')))?;
    let attach = Attach {
        root: if floating {
            RootJoint::Floating
        } else {
            RootJoint::Fixed
        },
        x_gr,
        prefix: s.prefix.clone().unwrap_or_default(),
    };
    let info = urdf::add_robot(b, &robot, &attach).map_err(|mut e| {
        if let ModelError::Duplicate { .. } = e.problem {
            e.problem = invalid!("{} (give each copy of a robot its own `prefix`)", e.problem);
        }
        described(e)
    })?;
    let who = format!("robot '{}'", robot.name);
    for (tag, n) in &robot.left_out {
        if tag == "collision" && s.contact.is_some() {
            continue;
        }
        *left_out.entry(format!("{tag} ({who})")).or_default() += n;
    }
    if s.contact.is_some() {
        for (tag, n) in &info.collision_other {
            *left_out
                .entry(format!("collision {tag} ({who})"))
                .or_default() += n;
        }
    }
    Ok(AddedRobot {
        info,
        x_gb: floating.then_some(x_gr),
    })
}

/// The collision spheres of the robots in contact element `name`, with their material names.
pub(super) fn robot_surfaces<'a>(
    sections: &'a [RobotSection],
    added: &[AddedRobot],
    name: &str,
) -> Vec<(ContactSurface<f64>, &'a str)> {
    let mut out = Vec::new();
    for (s, r) in sections.iter().zip(added) {
        if s.contact.as_deref() != Some(name) {
            continue;
        }
        let material = s.material.as_deref().unwrap_or_default();
        for c in &r.info.collision_spheres {
            let shape = Shape::Sphere { radius: c.radius };
            out.push((
                ContactSurface {
                    body: c.body,
                    x_bs: c.x_bs,
                    shape,
                },
                material,
            ));
        }
    }
    out
}

/// Checks that every robot's `contact` names one of the `elements` and its `material` one of
/// the `materials`.
pub(super) fn check_contact_names<V>(
    sections: &[RobotSection],
    elements: &[String],
    materials: &BTreeMap<String, V>,
) -> Res<()> {
    for (i, s) in sections.iter().enumerate() {
        if let Some(m) = s.material.as_ref().filter(|m| !materials.contains_key(*m)) {
            return Err(invalid!("robot[{i}].material: no [material.{m}] table"));
        }
        if let Some(c) = &s.contact {
            if !elements.contains(c) {
                return Err(invalid!(
                    "robot[{i}].contact: no [[contact]] named '{c}' (named: {})",
                    elements.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// Sets the robots' initial states: the floating bases' poses and `joint_positions`.
pub(super) fn set_robot_states(
    model: &Model<f64>,
    state: &mut State<f64>,
    sections: &[RobotSection],
    added: &[AddedRobot],
) -> Res<()> {
    for (i, (s, r)) in sections.iter().zip(added).enumerate() {
        if let (Some(x), Some(base)) = (r.x_gb, r.info.joints.first()) {
            let quaternion = quaternion_from_rotation(&x.r);
            let q = [
                quaternion[0],
                quaternion[1],
                quaternion[2],
                quaternion[3],
                x.p.x,
                x.p.y,
                x.p.z,
            ];
            state.set_body_q(model, base.body, &q);
        }
        let prefix = s.prefix.as_deref().unwrap_or_default();
        for (joint, value) in s.joint_positions.iter().flatten() {
            let key = format!("robot[{i}].joint_positions.{joint}");
            let name = format!("{prefix}{joint}");
            let j = r
                .info
                .joints
                .iter()
                .find(|j| j.name == name)
                .ok_or_else(|| invalid!("{key}: the robot has no moving joint of this name"))?;
            let nq = model.body(j.body).mobilizer.nq();
            if nq != 1 {
                return Err(invalid!(
                    "{key}: a {:?} joint has {nq} coordinates; give revolute, continuous or prismatic joints",
                    j.kind
                ));
            }
            if !value.is_finite() {
                return Err(invalid!("{key}: must be finite, got {value}"));
            }
            state.set_body_q(model, j.body, &[*value]);
        }
    }
    Ok(())
}
