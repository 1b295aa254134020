//! Forces, paths, constraints, controllers, contact geometry and markers of a pre-4.0 model in
//! 4.0's shape, as their `updateFromXMLNode` methods in OpenSim 4.6 convert them
//! (opensim-core `OpenSim/Simulation/Model/`, `SimbodyEngine/`, `Control/`):
//!
//! * a path point's `body` (before 30505) becomes its parent-frame socket `/bodyset/BODY`
//!   (`/ground`); a `ConditionalPathPoint`'s `coordinate` and a `MovingPathPoint`'s
//!   `x_coordinate` … `z_coordinate` become sockets to `/jointset/JOINT/COORDINATE`; before
//!   30000 a moving point's `XAttachment` … are its `x_location` …;
//! * a muscle's `MusclePointSet`/`MuscleWrapSet` (20301 and before) form its `GeometryPath`,
//!   `pennation_angle` is `pennation_angle_at_optimal`, and before 30513 a `min_control` of 0
//!   and a `max_control` of 1 are dropped so that the muscle's own defaults apply;
//! * `isDisabled` (before 30509) becomes a force's `appliesForce`, a constraint's
//!   `isEnforced` and a controller's `enabled`, negated;
//! * bodies named by two-body elements (`body_1`/`body_2`, `body1`/`body2`, `line_body`,
//!   `follower_body`, `body`, `body_name`) become sockets; a bushing's or weld's
//!   `location_body_1` … become offset frames where they are not the identity
//!   (`TwoFrameLinker`), rounded as a C++ stream writes them;
//! * before 10905 a `TorqueActuator`'s `body_A`, `body_B`, `direction_A` are its `bodyB`,
//!   `bodyA`, `axis` negated, and a `PointActuator`'s `body_B`, `point_B`, `direction_A` its
//!   `body`, `point`, `direction` negated, in Ground.

use super::skeleton::stream_vec3;
use super::tree::Element;
use super::{UpResult, Upgrade};
use std::collections::HashMap;

/// `XMLDocument::updateConnecteePath30517("bodyset", name)`.
fn body_path(name: &str) -> String {
    if name == "ground" {
        "/ground".into()
    } else {
        format!("/bodyset/{name}")
    }
}

/// Replaces property `old` (a body's name) by a socket `socket` to that body.
fn body_socket(up: &Upgrade, e: &mut Element, old: &str, socket: &str) {
    if let Some(b) = e.take_child(old) {
        up.add_connector(e, socket, &body_path(b.text.trim()));
    }
}

/// `isDisabled` as its negation under the 4.0 name.
fn negate_is_disabled(e: &mut Element, new_name: &str) {
    if let Some(c) = e.child_mut("isDisabled") {
        let disabled = c.text.trim().eq_ignore_ascii_case("true");
        c.tag = new_name.to_string();
        c.text = (!disabled).to_string();
    }
}

/// Which joint owns each coordinate (for the coordinate sockets of path points).
pub(super) fn coordinate_owners(model: &Element) -> HashMap<String, String> {
    let mut owners = HashMap::new();
    let mut joints: Vec<&Element> = Vec::new();
    if let Some(set) = model.child("JointSet") {
        joints.extend(set.child("objects").unwrap_or(set).children.iter());
    }
    if let Some(components) = model.child("components") {
        joints.extend(components.children.iter());
    }
    for joint in joints {
        if let Some(list) = joint.child("coordinates") {
            for c in &list.children {
                owners
                    .entry(c.name().to_string())
                    .or_insert_with(|| joint.name().to_string());
            }
        }
    }
    owners
}

fn coordinate_path(owners: &HashMap<String, String>, coordinate: &str) -> String {
    match owners.get(coordinate) {
        Some(joint) => format!("/jointset/{joint}/{coordinate}"),
        None => coordinate.to_string(),
    }
}

/// A path point of any kind (`AbstractPathPoint`, `ConditionalPathPoint`, `MovingPathPoint`).
pub(super) fn upgrade_path_point(
    up: &Upgrade,
    owners: &HashMap<String, String>,
    point: &mut Element,
) {
    if up.version < 30000 && point.tag == "MovingPathPoint" {
        point.rename_child("XAttachment", "x_location");
        point.rename_child("YAttachment", "y_location");
        point.rename_child("ZAttachment", "z_location");
    }
    if up.version >= 30505 {
        return;
    }
    if point.tag == "ConditionalPathPoint" {
        if up.version <= 20001 {
            point.rename_child("coordinates", "coordinate");
        }
        let name = point
            .take_child("coordinate")
            .map(|c| c.text.trim().to_string())
            .unwrap_or_default();
        up.add_connector(point, "coordinate", &coordinate_path(owners, &name));
    }
    if point.tag == "MovingPathPoint" {
        for axis in ["x_coordinate", "y_coordinate", "z_coordinate"] {
            if let Some(c) = point.take_child(axis) {
                let name = c.text.trim().to_string();
                if !name.is_empty() {
                    up.add_connector(point, axis, &coordinate_path(owners, &name));
                }
            }
        }
    }
    body_socket(up, point, "body", "parent_frame");
}

/// `Muscle::updateFromXMLNode`: the path's old names and the control bounds' defaults.
fn upgrade_muscle(up: &Upgrade, muscle: &mut Element) {
    if up.version <= 20301 {
        if let Some(path) = muscle.child_mut("GeometryPath") {
            path.rename_child("MusclePointSet", "PathPointSet");
            path.rename_child("MuscleWrapSet", "PathWrapSet");
        } else {
            let mut path = Element::with_text("GeometryPath", "", muscle.line);
            for (old, new) in [
                ("MusclePointSet", "PathPointSet"),
                ("MuscleWrapSet", "PathWrapSet"),
            ] {
                if let Some(mut set) = muscle.take_child(old).or_else(|| muscle.take_child(new)) {
                    set.tag = new.to_string();
                    path.children.push(set);
                }
            }
            muscle.children.push(path);
        }
        muscle.rename_child("pennation_angle", "pennation_angle_at_optimal");
    }
    if up.version < 30513 {
        for (tag, default) in [("min_control", 0.0), ("max_control", 1.0)] {
            let is_default = muscle
                .child_text(tag)
                .and_then(|t| t.parse::<f64>().ok())
                .is_some_and(|v| (v - default).abs() <= f64::EPSILON * (1.0 + default));
            if is_default {
                muscle.take_child(tag);
            }
        }
    }
}

/// `TwoFrameLinker::updateFromXMLNode` (bushings, welds): offset frames where not identity.
fn upgrade_two_frame_linker(up: &Upgrade, e: &mut Element) -> UpResult<()> {
    let mut sockets = Vec::new();
    for k in ["1", "2"] {
        let body = e
            .take_child(&format!("body_{k}"))
            .map(|b| b.text.trim().to_string())
            .unwrap_or_default();
        let location = up.vec3(e, &format!("location_body_{k}"))?;
        let orientation = up.vec3(e, &format!("orientation_body_{k}"))?;
        e.take_child(&format!("location_body_{k}"));
        e.take_child(&format!("orientation_body_{k}"));
        let norm = |v: [f64; 3]| v.iter().map(|x| x * x).sum::<f64>();
        if norm(location) > 0.0 || norm(orientation) > 0.0 {
            let name = format!("{body}_offset");
            let mut frame = Element::with_text("PhysicalOffsetFrame", "", e.line);
            frame.set_attribute("name", &name);
            up.add_connector(
                &mut frame,
                "parent",
                &format!("../../..{}", body_path(&body)),
            );
            frame.push_text_child("translation", stream_vec3(location));
            frame.push_text_child("orientation", stream_vec3(orientation));
            match e.child_mut("frames") {
                Some(list) => list.children.push(frame),
                None => {
                    let mut list = Element::with_text("frames", "", e.line);
                    list.children.push(frame);
                    e.children.insert(0, list);
                }
            }
            sockets.push((format!("frame{k}"), name));
        } else {
            sockets.push((format!("frame{k}"), body_path(&body)));
        }
    }
    for (socket, target) in sockets {
        up.add_connector(e, &socket, &target);
    }
    Ok(())
}

/// An element of the ForceSet (or a muscle anywhere).
pub(super) fn upgrade_force(up: &Upgrade, force: &mut Element) -> UpResult<()> {
    if up.version < 30509 {
        negate_is_disabled(force, "appliesForce");
    }
    if force.tag.contains("Muscle") {
        upgrade_muscle(up, force);
    }
    match force.tag.as_str() {
        "BushingForce" | "FunctionBasedBushingForce" | "ExpressionBasedBushingForce"
            if up.version < 30505 =>
        {
            upgrade_two_frame_linker(up, force)?;
        }
        "PointToPointSpring" if up.version < 30500 => {
            body_socket(up, force, "body1", "body1");
            body_socket(up, force, "body2", "body2");
        }
        "PrescribedForce" if up.version < 30506 => body_socket(up, force, "body", "frame"),
        "TorqueActuator" if up.version < 10905 => {
            force.rename_child("body_A", "bodyB");
            force.rename_child("body_B", "bodyA");
            force.rename_child("direction_A", "axis");
            negate_vec3(up, force, "axis")?;
        }
        "PointActuator" if up.version < 10905 => {
            force.rename_child("body_B", "body");
            force.rename_child("point_B", "point");
            force.rename_child("direction_A", "direction");
            negate_vec3(up, force, "direction")?;
            force.set_child_text("force_is_global", "true");
        }
        _ => {}
    }
    Ok(())
}

/// Child `tag` of `e` negated, where present (the 1.9 actuators' directions pointed the other
/// way: `TorqueActuator::updateFromXMLNode`, `PointActuator::updateFromXMLNode`).
fn negate_vec3(up: &Upgrade, e: &mut Element, tag: &str) -> UpResult<()> {
    if e.child(tag).is_some() {
        let v = up.vec3(e, tag)?;
        e.set_child_text(tag, v.map(|x| format!("{}", -x)).join(" "));
    }
    Ok(())
}

/// An element of the ConstraintSet.
pub(super) fn upgrade_constraint(up: &Upgrade, c: &mut Element) -> UpResult<()> {
    if up.version < 30509 {
        negate_is_disabled(c, "isEnforced");
    }
    if up.version >= 30505 {
        return Ok(());
    }
    match c.tag.as_str() {
        "WeldConstraint" => upgrade_two_frame_linker(up, c)?,
        "PointConstraint" | "ConstantDistanceConstraint" if up.version < 30500 => {
            body_socket(up, c, "body_1", "body_1");
            body_socket(up, c, "body_2", "body_2");
        }
        "PointOnLineConstraint" if up.version < 30500 => {
            body_socket(up, c, "line_body", "line_body");
            body_socket(up, c, "follower_body", "follower_body");
        }
        _ => {}
    }
    Ok(())
}

/// An element of the ControllerSet.
pub(super) fn upgrade_controller(up: &Upgrade, c: &mut Element) {
    if up.version < 30509 {
        negate_is_disabled(c, "enabled");
    }
}

/// An element of the ContactGeometrySet: `body_name` as the `frame` socket.
pub(super) fn upgrade_contact_geometry(up: &Upgrade, g: &mut Element) {
    if up.version < 30505 {
        let body = g
            .take_child("body_name")
            .map(|b| b.text.trim().to_string())
            .unwrap_or_default();
        up.add_connector(g, "frame", &body_path(&body));
    }
}

/// A marker's `body` as its `parent_frame` socket.
pub(super) fn upgrade_marker(up: &Upgrade, m: &mut Element) {
    if up.version < 30505 {
        body_socket(up, m, "body", "parent_frame");
    }
}
