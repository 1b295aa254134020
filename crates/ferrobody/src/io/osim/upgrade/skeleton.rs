//! The skeleton of a pre-4.0 model in 4.0's shape, step by step as OpenSim 4.6's
//! `Model::updateFromXMLNode`, `Body::updateFromXMLNode`, `Joint::updateFromXMLNode` and
//! `Coordinate::updateFromXMLNode` do it (opensim-core, `OpenSim/Simulation/Model/Model.cpp`
//! and `OpenSim/Simulation/SimbodyEngine/`):
//!
//! * before 30501 each body held its `<Joint>` (`parent_body`, `location_in_parent`, …); the
//!   body named `ground` becomes `<Ground>` and the joints move to a `<JointSet>` after the
//!   `<BodySet>`, their parent the `parent_body` and their child the body that held them;
//! * before 30505 a joint's `location_in_parent`/`orientation_in_parent` and
//!   `location_in_child`/`orientation_in_child` (`location`/`orientation` before 30500)
//!   become two `PhysicalOffsetFrame`s named `PARENT_offset` and `CHILD_offset`, always, with
//!   the numbers written by a C++ stream, that is rounded to six significant digits
//!   ([`stream_number`]): a joint located at 0.0123456789 sits at 0.0123457 in OpenSim 4;
//! * before 30507 the joint's `CoordinateSet` becomes its `coordinates` list; before 30514
//!   `reverse = true` swaps the joint's parent and child frames, and `motion_type` goes;
//! * before 30500 a body's `inertia_xx` … `inertia_yz` become `inertia`, OpenSim's default
//!   1 1 1 0 0 0 standing for those missing, again through a C++ stream;
//! * before 30512 the `FrameSet`'s frames move to the model's `components`.

use super::tree::Element;
use super::{UpResult, Upgrade, UpgradeError};

/// A number as a C++ `std::ostream` writes it by default (six significant digits), read back.
pub(super) fn stream_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let rounded: f64 = format!("{x:.5e}").parse().unwrap_or(x);
    format!("{rounded}")
}

/// Three numbers through [`stream_number`], space-separated.
pub(super) fn stream_vec3(v: [f64; 3]) -> String {
    v.map(stream_number).join(" ")
}

/// The model's bodies and joints in 4.0's layout (the steps of `Model::updateFromXMLNode`).
pub(super) fn upgrade_model_layout(up: &Upgrade, model: &mut Element) {
    if up.version < 30501 {
        move_ground_out_of_body_set(model);
        move_joints_out_of_bodies(up, model);
    }
    if up.version < 30512 {
        move_frame_set_to_components(model);
    }
}

fn move_ground_out_of_body_set(model: &mut Element) {
    let Some(body_set_at) = model.children.iter().position(|c| c.tag == "BodySet") else {
        return;
    };
    let bodies = model.children[body_set_at].items_mut();
    let Some(at) = bodies.iter().position(|b| b.name() == "ground") else {
        return;
    };
    let old = bodies.remove(at);
    let mut ground = Element::with_text("Ground", "", old.line);
    ground.set_attribute("name", "ground");
    for tag in ["geometry", "VisibleObject", "WrapObjectSet"] {
        if let Some(c) = old.child(tag) {
            ground.children.push(c.clone());
        }
    }
    model.children.insert(body_set_at, ground);
}

fn move_joints_out_of_bodies(up: &Upgrade, model: &mut Element) {
    let Some(body_set_at) = model.children.iter().position(|c| c.tag == "BodySet") else {
        return;
    };
    let set_line = model.children[body_set_at].line;
    let mut joints = Vec::new();
    for body in model.children[body_set_at].items_mut() {
        let Some(mut holder) = body.take_child("Joint") else {
            continue;
        };
        if holder.children.is_empty() {
            continue;
        }
        let mut joint = holder.children.remove(0);
        let parent = joint
            .take_child("parent_body")
            .map(|p| p.text.trim().to_string())
            .unwrap_or_else(|| "ground".into());
        let relative = |name: &str| {
            if name.is_empty() {
                String::new()
            } else {
                format!("../{name}")
            }
        };
        up.add_connector(&mut joint, "parent_frame", &relative(&parent));
        up.add_connector(&mut joint, "child_frame", &relative(body.name()));
        joints.push(joint);
    }
    let mut objects = Element::with_text("objects", "", set_line);
    objects.children = joints;
    let mut joint_set = Element::with_text("JointSet", "", set_line);
    joint_set.children.push(objects);
    model.children.insert(body_set_at + 1, joint_set);
}

fn move_frame_set_to_components(model: &mut Element) {
    let Some(mut frame_set) = model.take_child("FrameSet") else {
        return;
    };
    let frames = std::mem::take(frame_set.items_mut());
    match model.child_mut("components") {
        Some(components) => components.children.extend(frames),
        None => {
            let mut components = Element::with_text("components", "", frame_set.line);
            components.children = frames;
            model.children.push(components);
        }
    }
}

/// `Body::updateFromXMLNode`: the six inertia elements as one `inertia`.
pub(super) fn upgrade_body(up: &Upgrade, body: &mut Element) -> UpResult<()> {
    if up.version >= 30500 {
        return Ok(());
    }
    let tags = [
        "inertia_xx",
        "inertia_yy",
        "inertia_zz",
        "inertia_xy",
        "inertia_xz",
        "inertia_yz",
    ];
    let mut inertia = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    for (value, tag) in inertia.iter_mut().zip(tags) {
        if let Some(e) = body.take_child(tag) {
            *value = up.number(&e)?;
        }
    }
    body.push_text_child("inertia", inertia.map(stream_number).join(" "));
    Ok(())
}

/// `Joint::updateFromXMLNode`: offset frames, the coordinates list, `reverse`.
pub(super) fn upgrade_joint(up: &Upgrade, joint: &mut Element) -> UpResult<()> {
    if up.version < 30500 {
        joint.rename_child("location", "location_in_child");
        joint.rename_child("orientation", "orientation_in_child");
    }
    if up.version < 30501 {
        if let Some(connectors) = joint.child_mut("connectors") {
            for c in &mut connectors.children {
                if c.tag == "Connector_Body_" {
                    c.tag = "Connector_PhysicalFrame_".into();
                }
            }
        }
    }
    if up.version < 30505 {
        add_offset_frames(up, joint)?;
    }
    if up.version < 30507 {
        coordinate_set_to_list(joint);
    }
    if up.version < 30514 {
        if let Some(reverse) = joint.take_child("reverse") {
            if reverse.text.trim().eq_ignore_ascii_case("true") {
                swap_parent_and_child(joint);
            }
        }
        if let Some(coordinates) = joint.child_mut("coordinates") {
            for c in &mut coordinates.children {
                c.take_child("motion_type");
            }
        }
    }
    Ok(())
}

/// The connector elements of `joint` named `name` (either of `names`).
fn connector_mut<'e>(joint: &'e mut Element, names: &[&str]) -> Option<&'e mut Element> {
    joint
        .child_mut("connectors")?
        .children
        .iter_mut()
        .find(|c| c.tag == "Connector_PhysicalFrame_" && names.contains(&c.name()))
}

fn add_offset_frames(up: &Upgrade, joint: &mut Element) -> UpResult<()> {
    let mut frames = Vec::new();
    for (side, old_name, new_name) in [
        ("parent", "parent_body", "parent_frame"),
        ("child", "child_body", "child_frame"),
    ] {
        let location = up.vec3(joint, &format!("location_in_{side}"))?;
        let orientation = up.vec3(joint, &format!("orientation_in_{side}"))?;
        joint.take_child(&format!("location_in_{side}"));
        joint.take_child(&format!("orientation_in_{side}"));
        let line = joint.line;
        let Some(connector) = connector_mut(joint, &[old_name, new_name]) else {
            return Err(UpgradeError {
                line: joint.line,
                path: String::new(),
                message: format!("joint '{}' names no {side} body", joint.name()),
            });
        };
        connector.set_attribute("name", new_name);
        let connectee = connector.child_text("connectee_name").unwrap_or("");
        let body = connectee.rsplit('/').next().unwrap_or("").to_string();
        let frame_name = format!("{body}_offset");
        connector.set_child_text("connectee_name", frame_name.clone());
        let mut frame = Element::with_text("PhysicalOffsetFrame", "", line);
        frame.set_attribute("name", &frame_name);
        let parent = if body == "ground" {
            format!("../../../{body}")
        } else {
            format!("../../../bodyset/{body}")
        };
        up.add_connector(&mut frame, "parent", &parent);
        frame.push_text_child("translation", stream_vec3(location));
        frame.push_text_child("orientation", stream_vec3(orientation));
        frames.push(frame);
    }
    match joint.child_mut("frames") {
        Some(list) => list.children.extend(frames),
        None => {
            let mut list = Element::with_text("frames", "", joint.line);
            list.children = frames;
            joint.children.insert(0, list);
        }
    }
    Ok(())
}

fn coordinate_set_to_list(joint: &mut Element) {
    let Some(at) = joint.children.iter().position(|c| c.tag == "CoordinateSet") else {
        return;
    };
    let mut set = joint.children.remove(at);
    let coordinates: Vec<Element> = std::mem::take(set.items_mut())
        .into_iter()
        .filter(|c| c.tag == "Coordinate")
        .collect();
    if !coordinates.is_empty() {
        let mut list = Element::with_text("coordinates", "", set.line);
        list.children = coordinates;
        joint.children.insert(at, list);
    }
}

fn swap_parent_and_child(joint: &mut Element) {
    let name_of = |joint: &mut Element, name: &str| {
        connector_mut(joint, &[name])
            .and_then(|c| c.child_text("connectee_name").map(str::to_string))
            .unwrap_or_default()
    };
    let parent = name_of(joint, "parent_frame");
    let child = name_of(joint, "child_frame");
    let Some(connectors) = joint.child_mut("connectors") else {
        return;
    };
    for c in &mut connectors.children {
        match c.name() {
            "parent_frame" => c.set_child_text("connectee_name", child.clone()),
            "child_frame" => c.set_child_text("connectee_name", parent.clone()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_rounded_to_six_significant_digits_as_a_cpp_stream_writes_them() {
        assert_eq!(stream_number(0.0123456789), "0.0123457");
        assert_eq!(stream_number(-0.0707), "-0.0707");
        assert_eq!(stream_number(1234567.0), "1234570");
        assert_eq!(stream_number(1.0), "1");
        assert_eq!(stream_number(0.0), "0");
        assert_eq!(stream_number(2.5e-7), "0.00000025");
        assert_eq!(stream_vec3([0.1, -0.123456789, 3.0]), "0.1 -0.123457 3");
    }
}
