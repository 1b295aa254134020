//! The URDF document as plain data, read with roxmltree so that every error names the element
//! and its line: links (inertial), joints (type, origin, parent, child, axis, limits),
//! and what is read but not simulated (visual and collision geometry, transmissions, gazebo
//! extensions, mimic tags), counted by tag.
//!
//! URDF conventions (ROS REP 103 and the URDF XML spec): lengths in m, angles in rad, masses
//! in kg, inertia in kg·m² about the centre of mass in the inertial frame; `rpy` are fixed-axis
//! roll, pitch, yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll).

use crate::error::ModelError;
use crate::math::Transform;
use nalgebra::{Matrix3, Rotation3, Vector3};
use roxmltree::Node;
use std::collections::BTreeMap;

/// An error at an element: its line, a path such as `joint 'elbow'`, and what is wrong.
#[derive(Debug)]
pub(crate) struct UrdfError {
    /// Line of the element.
    pub line: u32,
    /// The element, e.g. `joint 'elbow'`.
    pub path: String,
    /// What is wrong.
    pub problem: ModelError,
}

/// A link's mass properties, in the link frame.
#[derive(Clone, Debug)]
pub struct Inertial {
    /// Mass (kg).
    pub mass: f64,
    /// The inertial frame in the link frame (COM at its origin).
    pub x_li: Transform<f64>,
    /// Inertia about the COM in the inertial frame.
    pub inertia: Matrix3<f64>,
}

/// One link.
#[derive(Clone, Debug)]
pub struct Link {
    /// Link name.
    pub name: String,
    /// Line of `<link>`.
    pub line: u32,
    /// Mass properties (none: massless).
    pub inertial: Option<Inertial>,
    /// Collision shapes, in file order.
    pub collisions: Vec<Collision>,
}

/// A collision shape of a link.
#[derive(Clone, Debug)]
pub struct Collision {
    /// The shape frame C in the link frame (`origin`).
    pub x_lc: Transform<f64>,
    /// The shape.
    pub geometry: CollisionGeometry,
}

/// The shape of a `<collision>`'s `<geometry>`. Spheres are checked (radius positive and
/// finite); the others are kept by kind, since only spheres become contact surfaces.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CollisionGeometry {
    /// `<sphere radius>` (m), centred at the shape frame's origin.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// Any other shape (`box`, `cylinder`, `mesh`, `capsule`, ...), by its tag.
    Other(String),
}

/// URDF joint types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JointKind {
    /// `fixed`.
    Fixed,
    /// `revolute`.
    Revolute,
    /// `continuous`.
    Continuous,
    /// `prismatic`.
    Prismatic,
    /// `floating`.
    Floating,
    /// `planar`.
    Planar,
}

/// One joint.
#[derive(Clone, Debug)]
pub struct Joint {
    /// Joint name.
    pub name: String,
    /// Line of `<joint>`.
    pub line: u32,
    /// Joint type.
    pub kind: JointKind,
    /// The joint frame J in the parent link frame.
    pub x_pj: Transform<f64>,
    /// Parent link name.
    pub parent: String,
    /// Child link name.
    pub child: String,
    /// Unit axis in J (default x).
    pub axis: Vector3<f64>,
    /// (lower, upper) position limits, when given (revolute, prismatic).
    pub limits: Option<(f64, f64)>,
    /// `<limit effort>`: the largest joint force or torque (N or N·m), when given.
    pub effort: Option<f64>,
}

/// The whole document.
#[derive(Clone, Debug)]
pub struct Robot {
    /// The robot name.
    pub name: String,
    /// Links in file order.
    pub links: Vec<Link>,
    /// Joints in file order.
    pub joints: Vec<Joint>,
    /// The joints named by `<transmission>` elements, in file order (empty when none).
    pub transmission_joints: Vec<String>,
    /// Elements read but not simulated, by tag.
    pub left_out: BTreeMap<String, usize>,
}

struct Reader<'a, 'input> {
    xml: &'a roxmltree::Document<'input>,
}

impl Reader<'_, '_> {
    fn line(&self, n: Node) -> u32 {
        self.xml.text_pos_at(n.range().start).row
    }

    fn err(&self, n: Node, path: &str, message: impl Into<ModelError>) -> UrdfError {
        UrdfError {
            line: self.line(n),
            path: path.to_string(),
            problem: message.into(),
        }
    }

    /// A required attribute.
    fn attr<'b>(&self, n: Node<'b, '_>, path: &str, key: &str) -> Result<&'b str, UrdfError> {
        n.attribute(key).ok_or_else(|| {
            self.err(
                n,
                path,
                format!("<{}> needs the attribute '{key}'", n.tag_name().name()),
            )
        })
    }

    /// A finite number.
    fn number(&self, n: Node, path: &str, key: &str, text: &str) -> Result<f64, UrdfError> {
        match text.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(self.err(
                n,
                path,
                format!(
                    "{}.{key}: expected a finite number, got '{text}'",
                    n.tag_name().name()
                ),
            )),
        }
    }

    /// Three finite numbers separated by spaces.
    fn triple(&self, n: Node, path: &str, key: &str) -> Result<Option<Vector3<f64>>, UrdfError> {
        let Some(text) = n.attribute(key) else {
            return Ok(None);
        };
        let parts: Vec<&str> = text.split_whitespace().collect();
        if parts.len() != 3 {
            return Err(self.err(
                n,
                path,
                format!(
                    "{}.{key}: expected 3 numbers, got '{text}'",
                    n.tag_name().name()
                ),
            ));
        }
        let mut v = Vector3::zeros();
        for (k, p) in parts.iter().enumerate() {
            v[k] = self.number(n, path, key, p)?;
        }
        Ok(Some(v))
    }

    /// An `<origin xyz rpy>` child as a transform (identity if absent).
    fn origin(&self, parent: Node, path: &str) -> Result<Transform<f64>, UrdfError> {
        let Some(o) = child(parent, "origin") else {
            return Ok(Transform::identity());
        };
        let xyz = self.triple(o, path, "xyz")?.unwrap_or_else(Vector3::zeros);
        let rpy = self.triple(o, path, "rpy")?.unwrap_or_else(Vector3::zeros);
        let r = Rotation3::from_euler_angles(rpy.x, rpy.y, rpy.z);
        let mut x = Transform::from_rotation(*r.matrix());
        x.p = xyz;
        Ok(x)
    }
}

fn child<'a, 'i>(n: Node<'a, 'i>, tag: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| c.has_tag_name(tag))
}

/// Reads a URDF document.
pub fn read(xml: &roxmltree::Document) -> Result<Robot, UrdfError> {
    let r = Reader { xml };
    let root = xml.root_element();
    if !root.has_tag_name("robot") {
        return Err(r.err(
            root,
            "/",
            format!("expected <robot>, found <{}>", root.tag_name().name()),
        ));
    }
    let mut robot = Robot {
        name: root.attribute("name").unwrap_or("robot").to_string(),
        links: Vec::new(),
        joints: Vec::new(),
        transmission_joints: Vec::new(),
        left_out: BTreeMap::new(),
    };
    for n in root.children().filter(Node::is_element) {
        match n.tag_name().name() {
            "link" => robot.links.push(read_link(&r, n, &mut robot.left_out)?),
            "joint" => robot.joints.push(read_joint(&r, n, &mut robot.left_out)?),
            "transmission" => robot
                .transmission_joints
                .extend(transmission_joints(&r, n)?),
            other => *robot.left_out.entry(other.to_string()).or_default() += 1,
        }
    }
    Ok(robot)
}

fn read_link(
    r: &Reader,
    n: Node,
    left_out: &mut BTreeMap<String, usize>,
) -> Result<Link, UrdfError> {
    let name = r.attr(n, "link", "name")?.to_string();
    let path = format!("link '{name}'");
    let mut inertial = None;
    let mut collisions = Vec::new();
    for c in n.children().filter(Node::is_element) {
        match c.tag_name().name() {
            "inertial" => inertial = Some(read_inertial(r, c, &path)?),
            "collision" => {
                collisions.push(read_collision(r, c, &path)?);
                *left_out.entry("collision".into()).or_default() += 1;
            }
            other => *left_out.entry(other.to_string()).or_default() += 1,
        }
    }
    Ok(Link {
        name,
        line: r.line(n),
        inertial,
        collisions,
    })
}

fn read_collision(r: &Reader, n: Node, path: &str) -> Result<Collision, UrdfError> {
    let g = child(n, "geometry").ok_or_else(|| r.err(n, path, "<collision> needs <geometry>"))?;
    let shape = g.children().find(Node::is_element).ok_or_else(|| {
        r.err(
            g,
            path,
            "<geometry> needs a shape (sphere, box, cylinder, mesh)",
        )
    })?;
    let geometry = match shape.tag_name().name() {
        "sphere" => {
            let radius = r.number(shape, path, "radius", r.attr(shape, path, "radius")?)?;
            if radius <= 0.0 {
                let message = format!("collision sphere.radius: must be positive, got {radius}");
                return Err(r.err(shape, path, message));
            }
            CollisionGeometry::Sphere { radius }
        }
        other => CollisionGeometry::Other(other.to_string()),
    };
    Ok(Collision {
        x_lc: r.origin(n, path)?,
        geometry,
    })
}

fn read_inertial(r: &Reader, n: Node, path: &str) -> Result<Inertial, UrdfError> {
    let mass_node = child(n, "mass").ok_or_else(|| r.err(n, path, "<inertial> needs <mass>"))?;
    let mass = r.number(mass_node, path, "value", r.attr(mass_node, path, "value")?)?;
    let i = child(n, "inertia").ok_or_else(|| r.err(n, path, "<inertial> needs <inertia>"))?;
    let mut e = [0.0; 6];
    for (k, key) in ["ixx", "iyy", "izz", "ixy", "ixz", "iyz"]
        .iter()
        .enumerate()
    {
        e[k] = r.number(i, path, key, r.attr(i, path, key)?)?;
    }
    let inertia = Matrix3::new(e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2]);
    Ok(Inertial {
        mass,
        x_li: r.origin(n, path)?,
        inertia,
    })
}

fn read_joint(
    r: &Reader,
    n: Node,
    left_out: &mut BTreeMap<String, usize>,
) -> Result<Joint, UrdfError> {
    let name = r.attr(n, "joint", "name")?.to_string();
    let path = format!("joint '{name}'");
    let kind = match r.attr(n, &path, "type")? {
        "fixed" => JointKind::Fixed,
        "revolute" => JointKind::Revolute,
        "continuous" => JointKind::Continuous,
        "prismatic" => JointKind::Prismatic,
        "floating" => JointKind::Floating,
        "planar" => JointKind::Planar,
        other => {
            return Err(r.err(
                n,
                &path,
                format!(
                    "unknown joint type '{other}' (fixed, revolute, continuous, prismatic, floating, planar)"
                ),
            ))
        }
    };
    let link_of = |tag: &str| -> Result<String, UrdfError> {
        let c = child(n, tag).ok_or_else(|| r.err(n, &path, format!("<joint> needs <{tag}>")))?;
        Ok(r.attr(c, &path, "link")?.to_string())
    };
    let (parent, child_link) = (link_of("parent")?, link_of("child")?);
    let axis = match child(n, "axis") {
        // A fixed joint's axis means nothing (files carry "0 0 0" there).
        Some(_) if kind == JointKind::Fixed => Vector3::x(),
        Some(a) => {
            let v = r.triple(a, &path, "xyz")?.unwrap_or_else(Vector3::x);
            if v.norm() < 1e-12 {
                return Err(r.err(a, &path, "axis.xyz: must not be zero"));
            }
            v.normalize()
        }
        None => Vector3::x(),
    };
    let mut limits = None;
    let mut effort = None;
    if let Some(l) = child(n, "limit") {
        let bound = |key: &str| -> Result<Option<f64>, UrdfError> {
            l.attribute(key)
                .map(|t| r.number(l, &path, key, t))
                .transpose()
        };
        if let (Some(lo), Some(hi)) = (bound("lower")?, bound("upper")?) {
            if lo > hi {
                return Err(r.err(l, &path, format!("limit: lower {lo} is above upper {hi}")));
            }
            limits = Some((lo, hi));
        }
        effort = bound("effort")?;
        if let Some(e) = effort.filter(|e| *e < 0.0) {
            return Err(r.err(l, &path, format!("limit: effort {e} is negative")));
        }
    }
    for c in n.children().filter(Node::is_element) {
        let tag = c.tag_name().name();
        if !["origin", "parent", "child", "axis", "limit"].contains(&tag) {
            *left_out.entry(format!("joint {tag}")).or_default() += 1;
        }
    }
    Ok(Joint {
        name,
        line: r.line(n),
        kind,
        x_pj: r.origin(n, &path)?,
        parent,
        child: child_link,
        axis,
        limits,
        effort,
    })
}

/// The joints a `<transmission>` drives (its `<joint name>` children; ROS's
/// `transmission_interface` format).
fn transmission_joints(r: &Reader, n: Node) -> Result<Vec<String>, UrdfError> {
    let path = format!("transmission '{}'", n.attribute("name").unwrap_or_default());
    n.children()
        .filter(|c| c.has_tag_name("joint"))
        .map(|j| Ok(r.attr(j, &path, "name")?.to_string()))
        .collect()
}
