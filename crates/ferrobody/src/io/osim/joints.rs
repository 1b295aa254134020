//! OpenSim joints as mobilizers, bodies in tree order, and coordinates with their defaults.
//!
//! | OpenSim | Simbody mobilizer (OpenSim 4.6) | ferrobody | coordinates |
//! |---|---|---|---|
//! | `WeldJoint` | Weld | `Weld` | — |
//! | `PinJoint` | Pin (about z of F and M) | `Pin` | angle |
//! | `SliderJoint` | Slider (along x) | `Slider` | translation |
//! | `PlanarJoint` | Planar | `Planar` | rz, tx, ty |
//! | `UniversalJoint` | Universal | `Universal` | rx, then ry |
//! | `GimbalJoint` | Gimbal | `Gimbal` | body-fixed x-y-z angles |
//! | `BallJoint` | Ball, Euler-angle mode | `BallEuler` | body-fixed x-y-z angles |
//! | `FreeJoint` | Free, Euler-angle mode | `FreeEuler` | x-y-z angles, tx, ty, tz |
//! | `EllipsoidJoint` | Ellipsoid, Euler-angle mode | `Ellipsoid` | x-y-z angles |
//! | `ScapulothoracicJoint` | Ellipsoid, Pin, Weld (two massless bodies) | `Ellipsoid`, `Pin`, `Weld` | x-y-z angles, winging |
//!
//! OpenSim's `Model::initSystem` switches Simbody's Ball and Free mobilizers to Euler angles
//! (`SimbodyMatterSubsystem::setUseEulerAngles`); their speeds stay the angular velocity in F.
//! Joints may come in any order: a joint is placed once its parent body is in the tree.

use super::document::{child, objects, Doc, Res};
use super::frames::{socket_frame, BodyFrame};
use super::{Coordinate, MotionType};
use crate::math::MassProperties;
use crate::mobilizer::{Mobilizer, SpatialTransform};
use crate::scalar::SIGNIFICANT_REAL;
use nalgebra::{Matrix3, Vector3};
use roxmltree::Node;
use std::collections::HashMap;

/// A joint read from the file, before it is placed in the tree.
pub(super) struct JointDef<'a, 'i> {
    pub node: Node<'a, 'i>,
    pub name: String,
    /// Its component path (`/jointset/NAME`).
    pub path: String,
    pub mobilizer: Mobilizer,
    pub parent: BodyFrame,
    pub child: BodyFrame,
    pub coordinates: Vec<CoordinateDef>,
    /// The spatial transform of a CustomJoint.
    pub spatial_transform: Option<SpatialTransform>,
    /// The ellipsoid (and winging axis) of an EllipsoidJoint or ScapulothoracicJoint.
    pub ellipsoid: Option<super::ellipsoid_joints::EllipsoidJointDef>,
}

/// OpenSim's default coordinate range.
const DEFAULT_RANGE: [f64; 2] = [-10.0, 10.0];

/// A coordinate as written in the joint.
pub(super) struct CoordinateDef {
    pub name: String,
    pub default_value: f64,
    pub default_speed: f64,
    pub motion: MotionType,
    /// `range` (OpenSim's default [−10, 10]).
    pub range: [f64; 2],
}

/// Motion types of the coordinates of the standard joints (by mobilizer).
fn standard_motion(mobilizer: Mobilizer, k: usize) -> MotionType {
    let translational = match mobilizer {
        Mobilizer::Slider => true,
        Mobilizer::Planar => k > 0,
        Mobilizer::FreeEuler => k >= 3,
        _ => false,
    };
    if translational {
        MotionType::Translational
    } else {
        MotionType::Rotational
    }
}

/// The mobilizer kind of an OpenSim joint tag, if supported.
fn mobilizer_of(tag: &str) -> Option<Mobilizer> {
    Some(match tag {
        "WeldJoint" => Mobilizer::Weld,
        "PinJoint" => Mobilizer::Pin,
        "SliderJoint" => Mobilizer::Slider,
        "PlanarJoint" => Mobilizer::Planar,
        "UniversalJoint" => Mobilizer::Universal,
        "GimbalJoint" => Mobilizer::Gimbal,
        "BallJoint" => Mobilizer::BallEuler,
        "FreeJoint" => Mobilizer::FreeEuler,
        _ => return None,
    })
}

/// Reads one joint element.
pub(super) fn read_joint<'a, 'i>(doc: &Doc<'a, 'i>, node: Node<'a, 'i>) -> Res<JointDef<'a, 'i>> {
    let tag = node.tag_name().name();
    if tag == "CustomJoint" {
        return read_custom_joint(doc, node);
    }
    let ellipsoid = match tag {
        "EllipsoidJoint" => Some(super::ellipsoid_joints::ellipsoid(doc, node)?),
        "ScapulothoracicJoint" => Some(super::ellipsoid_joints::scapulothoracic(doc, node)?),
        _ => None,
    };
    let mobilizer = match ellipsoid {
        Some(_) => Some(Mobilizer::Ellipsoid),
        None => mobilizer_of(tag),
    }
    .ok_or_else(|| doc.err(node, format!("joint type <{tag}> is not supported")))?;
    // A ScapulothoracicJoint's fourth coordinate is its winging Pin's.
    let n_coordinates = match &ellipsoid {
        Some(e) if e.winging.is_some() => 4,
        _ => mobilizer.nq(),
    };
    if doc.boolean(node, "reverse", false)? {
        return Err(doc.err(
            node,
            "reversed joints (<reverse>true</reverse>) are not supported",
        ));
    }
    let name = node.attribute("name").unwrap_or(tag).to_string();
    let parent = socket_frame(doc, node, "socket_parent_frame")?;
    let child_frame = socket_frame(doc, node, "socket_child_frame")?;
    let mut coordinates = read_coordinates(doc, node, &name, n_coordinates)?;
    for (k, c) in coordinates.iter_mut().enumerate() {
        c.motion = standard_motion(mobilizer, k);
    }
    Ok(JointDef {
        node,
        path: doc.path_of(node),
        name,
        mobilizer,
        parent,
        child: child_frame,
        coordinates,
        spatial_transform: None,
        ellipsoid,
    })
}

/// A CustomJoint: its coordinates in the order they first appear in its SpatialTransform
/// (OpenSim's `CustomJoint::constructCoordinates` reorders the listed ones so), with their
/// motion types, and the transform.
fn read_custom_joint<'a, 'i>(doc: &Doc<'a, 'i>, node: Node<'a, 'i>) -> Res<JointDef<'a, 'i>> {
    let name = node.attribute("name").unwrap_or("CustomJoint").to_string();
    let order = super::custom_joint::coordinate_order(doc, node)?;
    if order.is_empty() || order.len() > 6 {
        return Err(doc.err(
            node,
            format!(
                "a CustomJoint needs 1 to 6 coordinates in its SpatialTransform, got {}",
                order.len()
            ),
        ));
    }
    let listed = child(node, "coordinates").map(objects).unwrap_or_default();
    let mut listed = if listed.is_empty() {
        Vec::new()
    } else {
        read_coordinates(doc, node, &name, listed.len())?
    };
    if let Some(unknown) = order
        .iter()
        .find(|n| !listed.is_empty() && !listed.iter().any(|c| &c.name == *n))
    {
        return Err(doc.err(
            node,
            format!(
                "a TransformAxis names '{unknown}', which is not among the joint's <coordinates>"
            ),
        ));
    }
    if let Some(unused) = listed.iter().find(|c| !order.contains(&c.name)) {
        return Err(doc.err(
            node,
            format!(
                "coordinate '{}' is listed but no TransformAxis uses it",
                unused.name
            ),
        ));
    }
    let coordinates: Vec<CoordinateDef> = order
        .iter()
        .map(|n| match listed.iter().position(|c| &c.name == n) {
            Some(k) => listed.swap_remove(k),
            None => CoordinateDef {
                name: n.clone(),
                default_value: 0.0,
                default_speed: 0.0,
                motion: MotionType::Rotational,
                range: DEFAULT_RANGE,
            },
        })
        .collect();
    let (st, motions) = super::custom_joint::read_spatial_transform(doc, node, &order)?;
    let coordinates = coordinates
        .into_iter()
        .zip(motions)
        .map(|(c, motion)| CoordinateDef { motion, ..c })
        .collect();
    Ok(JointDef {
        node,
        path: doc.path_of(node),
        mobilizer: Mobilizer::FunctionBased(order.len() as u8),
        parent: socket_frame(doc, node, "socket_parent_frame")?,
        child: socket_frame(doc, node, "socket_child_frame")?,
        coordinates,
        spatial_transform: Some(st),
        ellipsoid: None,
        name,
    })
}

fn read_coordinates(doc: &Doc, joint: Node, name: &str, n: usize) -> Res<Vec<CoordinateDef>> {
    let listed = child(joint, "coordinates").map(objects).unwrap_or_default();
    if !listed.is_empty() && listed.len() != n {
        return Err(doc.err(
            joint,
            format!(
                "<coordinates> lists {} coordinates, the joint has {n}",
                listed.len()
            ),
        ));
    }
    if listed.is_empty() {
        return Ok((0..n)
            .map(|k| CoordinateDef {
                name: format!("{name}_coord_{k}"),
                default_value: 0.0,
                default_speed: 0.0,
                motion: MotionType::Rotational,
                range: DEFAULT_RANGE,
            })
            .collect());
    }
    listed
        .into_iter()
        .map(|c| {
            Ok(CoordinateDef {
                name: c.attribute("name").unwrap_or("").to_string(),
                default_value: doc.scalar(c, "default_value", 0.0)?,
                default_speed: doc.scalar(c, "default_speed_value", 0.0)?,
                motion: MotionType::Rotational,
                range: doc.fixed(c, "range", DEFAULT_RANGE)?,
            })
        })
        .collect()
}

/// Mass properties of a `<Body>`: mass, mass_center, inertia `[Ixx Iyy Izz Ixy Ixz Iyz]`
/// about the mass centre.
pub(super) fn mass_properties(doc: &Doc, body: Node) -> Res<MassProperties<f64>> {
    let mass = doc.scalar(body, "mass", 0.0)?;
    if mass < 0.0 {
        return Err(doc.err(body, format!("<mass> must not be negative, got {mass}")));
    }
    let c = doc.fixed(body, "mass_center", [0.0; 3])?;
    let mut i = doc.fixed(body, "inertia", [0.0; 6])?;
    let norm = i.iter().map(|x| x * x).sum::<f64>().sqrt();
    // OpenSim's `Body::getInertia`: a massless body's inertia is reset to zero.
    if mass.abs() <= SIGNIFICANT_REAL && norm > SIGNIFICANT_REAL {
        doc.warn(
            body,
            "massless body with a nonzero <inertia>: inertia reset to zero, as OpenSim does",
        );
        i = [0.0; 6];
    }
    let inertia = Matrix3::new(i[0], i[3], i[4], i[3], i[1], i[5], i[4], i[5], i[2]);
    let problem = match crate::math::inertia::check_inertia_definite(&inertia) {
        Ok(()) => crate::math::inertia::triangle_inequality_violation(&inertia),
        Err(m @ crate::error::InertiaProblem::NotPositiveSemiDefinite { .. }) => Some(m),
        Err(m) => return Err(doc.err(body, format!("<inertia>: {m}"))),
    };
    if let Some(m) = problem {
        doc.warn(
            body,
            format!("<inertia>: {m}; used as given, as OpenSim does"),
        );
    }
    Ok(MassProperties::new(mass, Vector3::from(c), inertia))
}

/// Orders joints parent-first from Ground; errors on bodies without a joint, bodies with two,
/// and joints whose parent never joins the tree.
pub(super) fn tree_order<'a, 'i>(
    doc: &Doc<'a, 'i>,
    joints: Vec<JointDef<'a, 'i>>,
    body_paths: &[String],
) -> Res<Vec<JointDef<'a, 'i>>> {
    let mut owner: HashMap<&str, &JointDef> = HashMap::new();
    for j in &joints {
        if j.child.body == "/ground" {
            return Err(doc.err(j.node, "Ground as a joint's child frame is not supported"));
        }
        if let Some(other) = owner.insert(j.child.body.as_str(), j) {
            return Err(doc.err(
                j.node,
                format!(
                    "body {} is already the child of joint '{}'",
                    j.child.body, other.name
                ),
            ));
        }
    }
    for b in body_paths {
        if !owner.contains_key(b.as_str()) {
            let node = doc.at_path(b).unwrap_or(doc.model);
            return Err(doc.err(
                node,
                "this body has no joint: connect it with a joint in the JointSet",
            ));
        }
    }
    let mut placed: Vec<String> = vec!["/ground".into()];
    let mut pending = joints;
    let mut ordered = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        let before = pending.len();
        let (ready, rest): (Vec<_>, Vec<_>) = pending
            .into_iter()
            .partition(|j| placed.contains(&j.parent.body));
        for j in ready {
            placed.push(j.child.body.clone());
            ordered.push(j);
        }
        pending = rest;
        if pending.len() == before {
            let j = &pending[0];
            return Err(doc.err(
                j.node,
                format!(
                    "parent body {} is not connected to Ground (a loop or a missing joint)",
                    j.parent.body
                ),
            ));
        }
    }
    Ok(ordered)
}

/// The coordinates of a placed joint, with their state indices.
pub(super) fn coordinates_of(j: &JointDef, q_start: usize, u_start: usize) -> Vec<Coordinate> {
    j.coordinates
        .iter()
        .enumerate()
        .map(|(k, c)| Coordinate {
            name: c.name.clone(),
            joint: j.name.clone(),
            path: format!("{}/{}", j.path, c.name),
            q_index: q_start + k,
            u_index: u_start + k,
            default_value: c.default_value,
            default_speed: c.default_speed,
            motion: c.motion,
            range: c.range,
        })
        .collect()
}
