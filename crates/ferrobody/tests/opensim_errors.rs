//! Bad .osim input gives one clear error naming the file, the line and the component path
//! (never a panic): each case edits the public leg model in one place.

use ferrobody::io::osim;

fn leg() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/opensim/osim_leg_hc.osim"
    );
    std::fs::read_to_string(path).unwrap()
}

fn custom() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/opensim/osim_custom_joints.osim"
    );
    std::fs::read_to_string(path).unwrap()
}

/// Parses `text` and returns the one-line error.
fn error_of(text: &str) -> String {
    match osim::parse(text, "model.osim") {
        Ok(_) => panic!("the model loaded"),
        Err(e) => {
            let m = e.to_string();
            assert!(!m.contains('\n'), "multi-line error: {m}");
            assert!(m.starts_with("model.osim:"), "no file and line: {m}");
            m
        }
    }
}

/// Replaces the first occurrence of `from` (which must exist) with `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from} not in the model");
    text.replacen(from, to, 1)
}

#[test]
fn the_unedited_models_load() {
    assert!(osim::parse(&leg(), "leg.osim").is_ok());
    assert!(osim::parse(&custom(), "custom.osim").is_ok());
}

#[test]
fn xml_syntax_error() {
    let m = error_of(&edit(&leg(), "</BodySet>", "</BodySetX>"));
    assert!(m.contains("XML syntax error"), "{m}");
}

#[test]
fn unknown_socket_target() {
    let m = error_of(&edit(
        &leg(),
        "<socket_child_frame>thigh_offset<",
        "<socket_child_frame>thigh_offsetX<",
    ));
    assert!(
        m.contains("/jointset/hip") && m.contains("thigh_offsetX"),
        "{m}"
    );
}

#[test]
fn negative_mass() {
    let m = error_of(&edit(&leg(), "<mass>7</mass>", "<mass>-7</mass>"));
    assert!(m.contains("/bodyset/thigh") && m.contains("mass"), "{m}");
}

#[test]
fn singular_or_impossible_inertia() {
    let m = error_of(&edit(
        &leg(),
        "<inertia>0.10000000000000001 0.02 0.10000000000000001 0 0 0</inertia>",
        "<inertia>0.1 0.02 0.5 0 0 0</inertia>",
    ));
    assert!(m.contains("/bodyset/thigh") && m.contains("inertia"), "{m}");
}

#[test]
fn nan_in_a_number() {
    let m = error_of(&edit(
        &leg(),
        "<stiffness>900</stiffness>",
        "<stiffness>NaN</stiffness>",
    ));
    assert!(
        m.contains("/forceset/spring_hip_coord_0") && m.contains("not finite"),
        "{m}"
    );
    let m = error_of(&edit(
        &leg(),
        "<gravity>0 -9.8100000000000005 0</gravity>",
        "<gravity>0 nan 0</gravity>",
    ));
    assert!(m.contains("gravity"), "{m}");
}

#[test]
fn zero_length_spline() {
    let text = custom();
    let start = text.find("<SimmSpline").unwrap();
    let x_open = start + text[start..].find("<x>").unwrap();
    let x_close = x_open + text[x_open..].find("</x>").unwrap();
    let edited = format!("{}<x></x>{}", &text[..x_open], &text[x_close + 4..]);
    let m = error_of(&edited);
    assert!(
        m.contains("/jointset/knee") && m.contains("SimmSpline"),
        "{m}"
    );
}

#[test]
fn unknown_coordinate_in_a_transform_axis() {
    let text = custom();
    let m = error_of(&edit(
        &text,
        "<coordinates>knee_angle</coordinates>",
        "<coordinates>knee_angel</coordinates>",
    ));
    assert!(
        m.contains("/jointset/knee") && m.contains("knee_angel"),
        "{m}"
    );
}

#[test]
fn unsupported_joint_and_missing_body_joint() {
    let m = error_of(
        &edit(
            &leg(),
            "<PinJoint name=\"knee\">",
            "<EllipsoidJoint name=\"knee\">",
        )
        .replacen(
            "</PinJoint>\n\t\t\t\t<PinJoint name=\"ankle\">",
            "</EllipsoidJoint>\n\t\t\t\t<PinJoint name=\"ankle\">",
            1,
        ),
    );
    assert!(m.contains("EllipsoidJoint"), "{m}");
}

#[test]
fn old_document_version() {
    let m = error_of(&edit(&leg(), "Version=\"40600\"", "Version=\"30000\""));
    assert!(m.contains("re-save"), "{m}");
}
