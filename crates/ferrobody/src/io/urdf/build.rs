//! A URDF robot as a model: links become bodies (named after the links), joints mobilizers.
//!
//! | URDF joint | mobilizer | frames |
//! |---|---|---|
//! | fixed | Weld | |
//! | revolute, continuous | Pin (about the common z) | z turned onto the joint axis |
//! | prismatic | Slider (along the common x) | x turned onto the joint axis |
//! | planar | Planar (rotation about z, translation in x-y) | z turned onto the axis (the normal) |
//! | floating | Free (quaternion) | |
//!
//! With the joint frame J in the parent link frame (`origin`) and the child link frame equal
//! to J when the joint is at zero (the URDF convention), a mobilizer with axis `a` gets
//! `X_PF = X_PJ · R` and `X_BM = R`, R a rotation taking the mobilizer's axis onto `a`. The
//! root link is welded to Ground, or mobilized by a Free joint (`floating_base`); a root link
//! named `world` without inertia is Ground itself. Gravity is −9.81 m/s² along z (REP 103).

use super::actuators::{add_actuators, UrdfActuators};
use super::document::{CollisionGeometry, JointKind, Robot, UrdfError};
use super::links::{combine, err, mass_properties, mobilizer};
use crate::ids::BodyId;
use crate::math::{MassProperties, Transform};
use crate::mobilizer::Mobilizer;
use crate::model::{BodyDef, Model, ModelBuilder};
use nalgebra::Vector3;
use std::collections::{BTreeMap, HashMap};

/// How the root link is attached to Ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootJoint {
    /// Welded (robot arms).
    #[default]
    Fixed,
    /// A Free mobilizer (legged robots, humanoids).
    Floating,
}

/// What a built robot adds to its model: where each link is, joint names per body and the
/// position limits.
#[derive(Clone, Debug)]
pub struct RobotInfo {
    /// Every link: its name, the body that carries it and its frame in that body's frame
    /// (identity for a link that is a body; links on fixed joints ride on their parent's).
    pub links: Vec<(String, BodyId, Transform<f64>)>,
    /// The mobilized joints (the root's Free joint, if any, is `root_joint`, Pinocchio's name).
    pub joints: Vec<RobotJoint>,
    /// The collision spheres, on the bodies that carry their links.
    pub collision_spheres: Vec<CollisionSphere>,
    /// The other collision shapes (not contact surfaces: no such geometry yet), by tag.
    pub collision_other: BTreeMap<String, usize>,
}

/// A `<collision>` sphere of a link, placed on the body that carries the link.
#[derive(Clone, Debug)]
pub struct CollisionSphere {
    /// The link's name.
    pub link: String,
    /// The body carrying it.
    pub body: BodyId,
    /// The sphere's frame (centre at its origin) in the body frame.
    pub x_bs: Transform<f64>,
    /// Radius (m).
    pub radius: f64,
}

/// Where and how a robot joins a model.
#[derive(Clone, Debug)]
pub struct Attach {
    /// How the root link is attached to Ground.
    pub root: RootJoint,
    /// A fixed root: the root link's frame in Ground (the weld). A root link named `world`
    /// (Ground itself): where its frame is in Ground. A floating base ignores it (its pose
    /// is its coordinates).
    pub x_gr: Transform<f64>,
    /// Put before every body and joint name (two copies of one robot need different ones).
    pub prefix: String,
}

impl Default for Attach {
    fn default() -> Self {
        Self {
            root: RootJoint::Fixed,
            x_gr: Transform::identity(),
            prefix: String::new(),
        }
    }
}

/// A mobilized joint.
#[derive(Clone, Debug)]
pub struct RobotJoint {
    /// The URDF joint name.
    pub name: String,
    /// The body it moves (the child link's).
    pub body: BodyId,
    /// Its URDF type.
    pub kind: JointKind,
    /// Its position limits (lower, upper), when the file gives them.
    pub limits: Option<(f64, f64)>,
    /// Its `<limit effort>` (N or N·m), when the file gives it.
    pub effort: Option<f64>,
}

/// The tree of a robot: link indices by name, each link's parent joint, each link's child
/// joints, the root link.
struct Tree<'r> {
    links: HashMap<&'r str, usize>,
    children: HashMap<&'r str, Vec<usize>>,
    root: &'r str,
}

fn tree(robot: &Robot) -> Result<Tree<'_>, UrdfError> {
    let mut links = HashMap::new();
    for (k, l) in robot.links.iter().enumerate() {
        if links.insert(l.name.as_str(), k).is_some() {
            let path = format!("link '{}'", l.name);
            return Err(err(l.line, path, "a second link of this name"));
        }
    }
    let mut parent_joint: HashMap<&str, usize> = HashMap::new();
    let mut children: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, j) in robot.joints.iter().enumerate() {
        let path = format!("joint '{}'", j.name);
        for (role, name) in [("parent", &j.parent), ("child", &j.child)] {
            if !links.contains_key(name.as_str()) {
                return Err(err(j.line, path, format!("{role}: no link named '{name}'")));
            }
        }
        if parent_joint.insert(j.child.as_str(), k).is_some() {
            let message = format!("link '{}' is already the child of another joint", j.child);
            return Err(err(j.line, path, message));
        }
        children.entry(j.parent.as_str()).or_default().push(k);
    }
    let roots: Vec<&str> = robot
        .links
        .iter()
        .map(|l| l.name.as_str())
        .filter(|n| !parent_joint.contains_key(n))
        .collect();
    let root = match roots.as_slice() {
        [one] => *one,
        [] => {
            let j = &robot.joints[0];
            let path = format!("joint '{}'", j.name);
            return Err(err(j.line, path, "the joints form a cycle: no root link"));
        }
        many => {
            let message = format!(
                "{} root links ({}): a URDF robot is one tree",
                many.len(),
                many.join(", ")
            );
            return Err(err(1, "robot".into(), message));
        }
    };
    Ok(Tree {
        links,
        children,
        root,
    })
}

/// Where each link rides and what each body weighs: a link on a fixed joint rides on its
/// parent's host at a fixed frame and adds its mass there.
struct Hosts<'r> {
    /// Link → (host link, the link's frame in the host's frame).
    host: HashMap<&'r str, (&'r str, Transform<f64>)>,
    /// Host link → its total mass properties, in its frame.
    mass: HashMap<&'r str, MassProperties<f64>>,
    /// The joints that make bodies, in tree order.
    body_joints: Vec<usize>,
}

fn hosts<'r>(robot: &'r Robot, t: &Tree<'r>) -> Result<Hosts<'r>, UrdfError> {
    let root_link = &robot.links[t.links[t.root]];
    let mut h = Hosts {
        host: HashMap::from([(t.root, (t.root, Transform::identity()))]),
        mass: HashMap::from([(
            t.root,
            mass_properties(root_link.inertial.as_ref(), root_link.line, t.root)?,
        )]),
        body_joints: Vec::new(),
    };
    let mut queue = std::collections::VecDeque::from([t.root]);
    while let Some(parent) = queue.pop_front() {
        for &k in t.children.get(parent).map_or(&[][..], |v| v.as_slice()) {
            let j = &robot.joints[k];
            let link = &robot.links[t.links[j.child.as_str()]];
            let own = mass_properties(link.inertial.as_ref(), link.line, &link.name)?;
            let child = j.child.as_str();
            if j.kind == JointKind::Fixed {
                let (host, x_hp) = h.host[parent];
                let x_hl = x_hp * j.x_pj;
                let total = combine(&h.mass[host], &own, &x_hl);
                h.mass.insert(host, total);
                h.host.insert(child, (host, x_hl));
            } else {
                h.host.insert(child, (child, Transform::identity()));
                h.mass.insert(child, own);
                h.body_joints.push(k);
            }
            queue.push_back(child);
        }
    }
    if let Some(j) = robot
        .joints
        .iter()
        .find(|j| !h.host.contains_key(j.child.as_str()))
    {
        return Err(err(
            j.line,
            format!("joint '{}'", j.name),
            "the joints form a cycle",
        ));
    }
    Ok(h)
}

/// Builds the model of a robot alone: gravity −9.81 m/s² along z, the root at Ground's
/// origin. As in Pinocchio, a link attached by a fixed joint is not a body of its own: its
/// mass joins the body it is welded to, and its frame is kept as a frame on that body
/// (children attach to it there). Bodies come in tree order from the root. With actuators on the robot's joints ([`UrdfActuators`]).
pub(crate) fn build_actuated(
    robot: &Robot,
    root_joint: RootJoint,
    actuators: UrdfActuators,
) -> Result<(Model<f64>, RobotInfo), UrdfError> {
    let mut b = ModelBuilder::<f64>::new();
    b.add_gravity(Vector3::new(0.0, 0.0, -9.81));
    let attach = Attach {
        root: root_joint,
        ..Attach::default()
    };
    let info = add_robot(&mut b, robot, &attach)?;
    add_actuators(&mut b, robot, &info, actuators)?;
    let model = b
        .build()
        .map_err(|e| err(1, "robot".into(), e.into_model_error()))?;
    Ok((model, info))
}

/// Adds a robot's bodies to a model being built (a scene's `[[robot]]`); the caller adds
/// gravity. Body and joint names get `attach.prefix`.
pub(crate) fn add_robot(
    b: &mut ModelBuilder<f64>,
    robot: &Robot,
    attach: &Attach,
) -> Result<RobotInfo, UrdfError> {
    let t = tree(robot)?;
    let h = hosts(robot, &t)?;
    let root = t.root;
    let root_link = &robot.links[t.links[root]];
    let prefix = attach.prefix.as_str();
    let mut info = RobotInfo {
        links: Vec::new(),
        joints: Vec::new(),
        collision_spheres: Vec::new(),
        collision_other: BTreeMap::new(),
    };
    // Each host link's body, and where the host's frame sits in that body (the base frame
    // for a root link that is Ground itself, identity otherwise).
    let mut body_of: HashMap<&str, (BodyId, Transform<f64>)> = HashMap::new();
    if root == "world" && root_link.inertial.is_none() {
        body_of.insert(root, (BodyId::GROUND, attach.x_gr));
    } else {
        let m = h.mass[root];
        let path = format!("link '{root}'");
        if attach.root == RootJoint::Floating && m.mass <= 0.0 {
            let message = format!("a floating base needs a positive mass, got {}", m.mass);
            return Err(err(root_link.line, path, message));
        }
        let def = match attach.root {
            RootJoint::Fixed => BodyDef::new(
                &format!("{prefix}{root}"),
                BodyId::GROUND,
                Mobilizer::Weld,
                m,
            )
            .with_x_pf(attach.x_gr),
            RootJoint::Floating => BodyDef::new(
                &format!("{prefix}{root}"),
                BodyId::GROUND,
                Mobilizer::Free,
                m,
            ),
        };
        let id = b
            .add_body(def)
            .map_err(|e| err(root_link.line, path, e.into_model_error()))?;
        body_of.insert(root, (id, Transform::identity()));
        if attach.root == RootJoint::Floating {
            info.joints.push(RobotJoint {
                name: format!("{prefix}root_joint"),
                body: id,
                kind: JointKind::Floating,
                limits: None,
                effort: None,
            });
        }
    }
    for &k in &h.body_joints {
        let j = &robot.joints[k];
        let (host, x_hp) = h.host[j.parent.as_str()];
        let (parent, x_bh) = body_of[host];
        let (mobilizer, r) = mobilizer(j);
        let def = BodyDef::new(
            &format!("{prefix}{}", j.child),
            parent,
            mobilizer,
            h.mass[j.child.as_str()],
        )
        .with_x_pf(x_bh * x_hp * j.x_pj * Transform::from_rotation(r))
        .with_x_bm(Transform::from_rotation(r));
        let id = b
            .add_body(def)
            .map_err(|e| err(j.line, format!("joint '{}'", j.name), e.into_model_error()))?;
        body_of.insert(j.child.as_str(), (id, Transform::identity()));
        info.joints.push(RobotJoint {
            name: format!("{prefix}{}", j.name),
            body: id,
            kind: j.kind,
            limits: j.limits,
            effort: j.effort,
        });
    }
    for l in &robot.links {
        let (host, x_hl) = h.host[l.name.as_str()];
        let (body, x_bh) = body_of[host];
        let x_bl = x_bh * x_hl;
        for c in &l.collisions {
            match &c.geometry {
                CollisionGeometry::Sphere { radius } => {
                    info.collision_spheres.push(CollisionSphere {
                        link: format!("{prefix}{}", l.name),
                        body,
                        x_bs: x_bl * c.x_lc,
                        radius: *radius,
                    })
                }
                CollisionGeometry::Other(tag) => {
                    *info.collision_other.entry(tag.clone()).or_default() += 1
                }
            }
        }
        info.links.push((format!("{prefix}{}", l.name), body, x_bl));
    }
    Ok(info)
}
