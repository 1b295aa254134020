//! Building the model from the parsed (and, if older than 4.0, upgraded: `super::upgrade`)
//! document: bodies in tree order with their joints' mobilizers, gravity, forces and contact, and the left-out count.

use super::document::{child, objects, tag_of, Doc, OsimError, Res};
use super::{
    actuators, constraints, contact, controllers, equilibrate, external_loads, forces, joints,
    muscles, path_forces,
};
use super::{Coordinate, MotionType, OsimModel};
use crate::error::Error;
use crate::ids::BodyId;
use crate::model::{BodyDef, ModelBuilder};
use nalgebra::Vector3;
use roxmltree::Node;
use std::collections::{BTreeMap, HashMap};

/// The model's own list `tag` (`BodySet`, `JointSet`, …) as elements.
fn set_items<'a, 'i>(model: Node<'a, 'i>, tag: &str) -> Vec<Node<'a, 'i>> {
    child(model, tag).map(objects).unwrap_or_default()
}

/// Whether a component is a joint (OpenSim's joint classes all end in `Joint`).
fn is_joint(n: &Node) -> bool {
    n.tag_name().name().ends_with("Joint")
}

/// Bodies, joints and coordinates as added to the builder.
pub(super) struct Skeleton {
    pub bodies: HashMap<String, BodyId>,
    pub coordinates: Vec<Coordinate>,
    /// By name: the first coordinate of that name, as OpenSim's `CoordinateSet` finds it.
    pub coordinate_map: HashMap<String, (BodyId, usize, MotionType)>,
    /// By component path (`/jointset/hip/hip_flexion`): every coordinate.
    pub coordinate_at: HashMap<String, (BodyId, usize)>,
    pub joints: Vec<(String, String)>,
}

pub(super) fn build(doc: &Doc) -> Res<OsimModel> {
    let model_node = doc.model;
    let mut left_out = BTreeMap::new();
    let mut b = ModelBuilder::<f64>::new();
    b.accept_indefinite_inertias();
    let gravity = doc.fixed(model_node, "gravity", [0.0, -9.80665, 0.0])?;
    let skeleton = add_skeleton(doc, &mut b)?;
    b.add_gravity(Vector3::from(gravity));
    let mut added = constraints::Added::default();
    constraints::add_coordinate_constraints(doc, &mut b, &skeleton, &mut added)?;
    let constraint_set = set_items(model_node, "ConstraintSet");
    constraints::add_constraint_set(
        doc,
        &mut b,
        &skeleton,
        constraint_set,
        &mut left_out,
        &mut added,
    )?;
    let mut state_variables = Vec::new();
    let read = add_forces(doc, &mut b, &skeleton, &mut left_out, &mut state_variables)?;
    let model = b.build().map_err(|e| model_error(doc, model_node, e))?;
    let control_paths = model
        .control_names()
        .into_iter()
        .map(|name| read.paths.get(name).cloned().unwrap_or_default())
        .collect();
    let control_bounds = model
        .control_names()
        .into_iter()
        .map(|name| {
            let unbounded = [f64::NEG_INFINITY, f64::INFINITY];
            read.control_bounds.get(name).copied().unwrap_or(unbounded)
        })
        .collect();
    let mut state = model.default_state();
    for c in &skeleton.coordinates {
        state.q[c.q_index] = c.default_value;
        state.u[c.u_index] = c.default_speed;
    }
    constraints::assemble(&model, &mut state, &added.couplers, &added.free)
        .map_err(|e| doc.err(model_node, crate::error::message_chain(&e)))?;
    equilibrate::equilibrate_muscles(&model, &mut state)
        .map_err(|(name, e)| doc.err(model_node, format!("muscle '{name}': {e}")))?;
    Ok(OsimModel {
        name: model_node.attribute("name").unwrap_or("model").to_string(),
        model,
        default_state: state,
        coordinates: skeleton.coordinates,
        joints: skeleton.joints,
        forces: read.forces,
        control_paths,
        control_bounds,
        state_variables,
        left_out,
        warnings: Vec::new(),
        locks: added.locks,
        constraints: added.elements,
    })
}

pub(super) fn model_error(doc: &Doc, at: Node, e: Error) -> OsimError {
    doc.err(at, e.into_model_error())
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
    // Bodies and joints a script added with `Model::addComponent` sit in `components`.
    let components = set_items(doc.model, "components");
    body_paths.extend(
        components
            .iter()
            .filter(|n| n.has_tag_name("Body"))
            .map(|&n| doc.path_of(n)),
    );
    let mut joint_nodes = set_items(doc.model, "JointSet");
    joint_nodes.extend(components.iter().filter(|n| is_joint(n)));
    let joints = joint_nodes
        .iter()
        .map(|&n| joints::read_joint(doc, n))
        .collect::<Res<Vec<_>>>()?;
    let ordered = joints::tree_order(doc, joints, &body_paths)?;
    let mut sk = Skeleton {
        bodies: HashMap::new(),
        coordinates: Vec::new(),
        coordinate_map: HashMap::new(),
        coordinate_at: HashMap::new(),
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
        let (id, mobilities) = match &j.ellipsoid {
            Some(e) => add_ellipsoid_joint_bodies(doc, b, j, e, (parent, name, mass))?,
            None => {
                let def = match &j.spatial_transform {
                    Some(st) => BodyDef::function_based(name, parent, st.clone(), mass),
                    None => BodyDef::new(name, parent, j.mobilizer, mass),
                };
                let def = def.with_x_pf(j.parent.x_bf).with_x_bm(j.child.x_bf);
                let id = b
                    .add_body(def)
                    .map_err(|e| model_error(doc, body_node, e))?;
                (id, (0..j.coordinates.len()).map(|k| (id, k)).collect())
            }
        };
        sk.bodies.insert(j.child.body.clone(), id);
        let (q0, u0) = b.body_offsets(mobilities.first().map_or(id, |m| m.0));
        for (c, (body, k)) in joints::coordinates_of(j, q0, u0)
            .into_iter()
            .zip(mobilities)
        {
            // OpenSim's CoordinateSet finds a name's first coordinate (`Set::get`), so a
            // reference by name means the first of two joints' same-named coordinates.
            if sk.coordinate_map.contains_key(&c.name) {
                doc.warn(
                    j.node,
                    format!(
                        "a coordinate of another joint is also named '{}': a reference by that \
                         name means the first, as in OpenSim",
                        c.name
                    ),
                );
            } else {
                sk.coordinate_map
                    .insert(c.name.clone(), (body, k, c.motion));
            }
            sk.coordinate_at.insert(c.path.clone(), (body, k));
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

/// The bodies of an EllipsoidJoint (one) or ScapulothoracicJoint (two massless, then the
/// child welded on: `ellipsoid_joints`); returns the child's id and each coordinate's
/// (body, index in its q). The bodies' q and u follow one another, so the joint's
/// coordinates are consecutive from the first body's.
fn add_ellipsoid_joint_bodies(
    doc: &Doc,
    b: &mut ModelBuilder<f64>,
    j: &joints::JointDef,
    e: &super::ellipsoid_joints::EllipsoidJointDef,
    (parent, name, mass): (BodyId, &str, crate::math::MassProperties<f64>),
) -> Res<(BodyId, Vec<(BodyId, usize)>)> {
    use super::ellipsoid_joints::{scapulothoracic_x_bm, scapulothoracic_x_pf};
    let add = |b: &mut ModelBuilder<f64>, def: BodyDef<f64>| {
        b.add_body(def).map_err(|err| model_error(doc, j.node, err))
    };
    let Some(winging) = e.winging else {
        let def = BodyDef::ellipsoid(name, parent, e.radii, mass)
            .with_x_pf(j.parent.x_bf)
            .with_x_bm(j.child.x_bf);
        let id = add(b, def)?;
        return Ok((id, (0..3).map(|k| (id, k)).collect()));
    };
    let massless =
        crate::math::MassProperties::new(0.0, Vector3::zeros(), nalgebra::Matrix3::zeros());
    let ellipsoid_name = format!("{}_ellipsoid", j.name);
    let def = BodyDef::ellipsoid(&ellipsoid_name, parent, e.radii, massless)
        .with_x_pf(scapulothoracic_x_pf(&j.parent.x_bf))
        .with_x_bm(scapulothoracic_x_bm());
    let ellipsoid = add(b, def)?;
    let def = BodyDef::new(
        &format!("{}_winging", j.name),
        ellipsoid,
        crate::mobilizer::Mobilizer::Pin,
        massless,
    )
    .with_x_pf(winging)
    .with_x_bm(winging);
    let wing = add(b, def)?;
    let def =
        BodyDef::new(name, wing, crate::mobilizer::Mobilizer::Weld, mass).with_x_bm(j.child.x_bf);
    let child = add(b, def)?;
    Ok((
        child,
        vec![(ellipsoid, 0), (ellipsoid, 1), (ellipsoid, 2), (wing, 0)],
    ))
}

/// Elements as (name, OpenSim type).
type NamedTypes = Vec<(String, String)>;

/// Adds the supported forces (returned with every force's component path by name); counts the rest (and unused contact geometry) as left out.
fn add_forces(
    doc: &Doc,
    b: &mut ModelBuilder<f64>,
    sk: &Skeleton,
    left_out: &mut BTreeMap<String, usize>,
    state_variables: &mut Vec<(String, crate::ids::ZId)>,
) -> Res<ForceSetRead> {
    let (geometry_nodes, force_nodes) = collect_components(doc, left_out)?;
    let geometry = contact::read_all(doc, &geometry_nodes)?;
    let mut used = std::collections::HashSet::new();
    let mut forces = Vec::new();
    let mut excitations = controllers::prescribed_excitations(doc)?;
    excitations.extend(doc.extra_controls.clone());
    let reflex_gains = controllers::reflex_gains(doc)?;
    let ranges = sk
        .coordinates
        .iter()
        .map(|c| (c.name.clone(), c.range))
        .collect();
    let mut ctx = forces::ForceCtx {
        doc,
        builder: b,
        bodies: &sk.bodies,
        coordinates: &sk.coordinate_map,
        excitations: &excitations,
        reflex_gains: &reflex_gains,
        ranges: &ranges,
        control_bounds: HashMap::new(),
        curves: Vec::new(),
        state_variables: Vec::new(),
    };
    let mut paths = HashMap::new();
    for n in force_nodes {
        let tag = tag_of(n);
        if let Some(name) = n.attribute("name") {
            paths.insert(name.to_string(), doc.path_of(n));
        }
        if muscles::SUPPORTED.contains(&tag.as_str()) {
            state_variables.extend(ctx.muscle(n)?);
            forces.push((n.attribute("name").unwrap_or(&tag).to_string(), tag));
        } else if actuators::SUPPORTED.contains(&tag.as_str()) {
            state_variables.extend(ctx.scalar_actuator(n)?);
            forces.push((n.attribute("name").unwrap_or(&tag).to_string(), tag));
        } else if path_forces::SUPPORTED.contains(&tag.as_str()) {
            ctx.path_force(n)?;
            forces.push((n.attribute("name").unwrap_or(&tag).to_string(), tag));
        } else if forces::SUPPORTED.contains(&tag.as_str()) {
            ctx.add(n, &geometry)?;
            used.extend(geometry_users(doc, n));
            forces.push((n.attribute("name").unwrap_or(&tag).to_string(), tag));
        } else if forces::is_unsupported_force(&tag) {
            // A disabled one changes nothing (until enabled, which its absence forbids).
            if doc.boolean(n, "appliesForce", true)? {
                return Err(forces::unsupported(doc, n));
            }
            *left_out.entry(format!("{tag} (disabled)")).or_insert(0) += 1;
        } else {
            *left_out.entry(tag).or_insert(0) += 1;
        }
    }
    // The forward tool's external loads, after the model's forces (OpenSim adds its
    // ExternalLoads as a model component after the ForceSet).
    for r in &doc.external_forces {
        let force = external_loads::prescribed_force(r, |path| ctx.body(doc.model, path))?;
        ctx.push(doc.model, crate::model::Force::Prescribed(Box::new(force)))?;
        forces.push((r.data.name.clone(), "ExternalForce".to_string()));
    }
    state_variables.append(&mut ctx.state_variables);
    let simulated: std::collections::HashSet<&str> =
        forces.iter().map(|(name, _)| name.as_str()).collect();
    controllers::count_left_out(doc, &simulated, left_out);
    for (name, g) in &geometry {
        if !used.contains(name) {
            let tag = match g {
                contact::ContactGeometry::Sphere { .. } => "ContactSphere",
                contact::ContactGeometry::HalfSpace { .. } => "ContactHalfSpace",
                contact::ContactGeometry::Ellipsoid { .. } => "ContactEllipsoid",
                contact::ContactGeometry::Mesh { .. } => "ContactMesh",
                contact::ContactGeometry::Other(t) => t.as_str(),
            };
            *left_out
                .entry(format!("{tag} (no force uses it)"))
                .or_insert(0) += 1;
        }
    }
    Ok(ForceSetRead {
        forces,
        paths,
        control_bounds: ctx.control_bounds,
    })
}

/// What reading the force set gives besides the builder's elements.
struct ForceSetRead {
    /// The simulated forces as (name, OpenSim type).
    forces: NamedTypes,
    /// Every force's component path by name.
    paths: HashMap<String, String>,
    /// Every actuator's `[min_control, max_control]` by name.
    control_bounds: HashMap<String, [f64; 2]>,
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
        } else if tag.ends_with("Force")
            || muscles::SUPPORTED.contains(&tag)
            || actuators::SUPPORTED.contains(&tag)
            || path_forces::SUPPORTED.contains(&tag)
            || forces::is_unsupported_force(tag)
        {
            forces.push(n);
        } else if !["PhysicalOffsetFrame", "StationDefinedFrame", "Body"].contains(&tag)
            && !is_joint(&n)
        {
            *left_out.entry(tag.to_string()).or_insert(0) += 1;
        }
    }
    for set in ["MarkerSet", "ProbeSet"] {
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
