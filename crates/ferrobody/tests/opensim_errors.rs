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
pub(crate) fn error_of(text: &str) -> String {
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
fn indefinite_or_impossible_inertia() {
    // Negative principal moments: OpenSim runs them as given (Simbody checks an `Inertia`
    // only in debug builds), so the model loads with a warning naming the body.
    let text = edit(
        &leg(),
        "<inertia>0.10000000000000001 0.02 0.10000000000000001 0 0 0</inertia>",
        "<inertia>-0.1 0.02 0.5 0 0 0</inertia>",
    );
    let model = osim::parse(&text, "model.osim").unwrap();
    assert_eq!(model.warnings.len(), 1, "{:?}", model.warnings);
    let w = &model.warnings[0];
    assert!(
        w.contains("/bodyset/thigh") && w.contains("positive semi-definite"),
        "{w}"
    );
    // Moments that break the triangle inequality: the same, with its own warning.
    let text = edit(
        &leg(),
        "<inertia>0.10000000000000001 0.02 0.10000000000000001 0 0 0</inertia>",
        "<inertia>0.1 0.02 0.5 0 0 0</inertia>",
    );
    let model = osim::parse(&text, "model.osim").unwrap();
    assert_eq!(model.warnings.len(), 1, "{:?}", model.warnings);
    let w = &model.warnings[0];
    assert!(
        w.starts_with("model.osim:") && w.contains("/bodyset/thigh") && w.contains("triangle"),
        "{w}"
    );
    // A massless body's inertia is reset to zero with a warning (OpenSim's `getInertia`).
    let text = edit(&leg(), "<mass>7</mass>", "<mass>0</mass>");
    let model = osim::parse(&text, "model.osim").unwrap();
    assert!(
        model
            .warnings
            .iter()
            .any(|w| w.contains("/bodyset/thigh") && w.contains("reset to zero")),
        "{:?}",
        model.warnings
    );
    // A non-finite entry is refused.
    let m = error_of(&edit(
        &leg(),
        "<inertia>0.10000000000000001 0.02 0.10000000000000001 0 0 0</inertia>",
        "<inertia>NaN 0.02 0.1 0 0 0</inertia>",
    ));
    assert!(m.contains("/bodyset/thigh") && m.contains("inertia"), "{m}");
}

fn model_file(name: &str) -> String {
    let path = format!(
        "{}/../../testdata/opensim/models/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn coupler_naming_a_missing_coordinate() {
    let m = error_of(&edit(
        &model_file("leg39.osim"),
        "<independent_coordinate_names>knee_angle_r</independent_coordinate_names>",
        "<independent_coordinate_names>knee_angle_x</independent_coordinate_names>",
    ));
    assert!(
        m.contains("/constraintset/knee_tx_r") && m.contains("no coordinate 'knee_angle_x'"),
        "{m}"
    );
    let m = error_of(&edit(
        &model_file("leg39.osim"),
        "<independent_coordinate_names>knee_angle_r</independent_coordinate_names>",
        "<independent_coordinate_names>knee_angle_r hip_flexion_r</independent_coordinate_names>",
    ));
    assert!(m.contains("only couplers with one independent"), "{m}");
}

#[test]
fn locked_coordinate_outside_its_range() {
    let text = model_file("leg39.osim");
    let at = text.find("<Coordinate name=\"pelvis_tilt\">").unwrap();
    let (head, tail) = text.split_at(at);
    let tail = tail
        .replacen(
            "<default_value>0</default_value>",
            "<default_value>2</default_value>",
            1,
        )
        .replacen("<clamped>true</clamped>", "<clamped>false</clamped>", 1);
    let m = error_of(&format!("{head}{tail}"));
    assert!(
        m.contains("/jointset/ground_pelvis/pelvis_tilt")
            && m.contains("locked at its default value 2"),
        "{m}"
    );
    // Clamped: OpenSim refuses a default value outside the range.
    let tail = tail.replacen("<clamped>false</clamped>", "<clamped>true</clamped>", 1);
    let m = error_of(&format!("{head}{tail}"));
    assert!(m.contains("clamped, but its default value 2"), "{m}");
}

#[test]
fn constraint_on_a_missing_body() {
    let m = error_of(&edit(
        &model_file("bouncing_block.osim"),
        "<socket_follower_body>/bodyset/block</socket_follower_body>",
        "<socket_follower_body>/bodyset/brick</socket_follower_body>",
    ));
    assert!(
        m.contains("/constraintset/lock_block_to_y_axis") && m.contains("brick"),
        "{m}"
    );
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
            "<ConstantCurvatureJoint name=\"knee\">",
        )
        .replacen(
            "</PinJoint>\n\t\t\t\t<PinJoint name=\"ankle\">",
            "</ConstantCurvatureJoint>\n\t\t\t\t<PinJoint name=\"ankle\">",
            1,
        ),
    );
    assert!(m.contains("ConstantCurvatureJoint"), "{m}");
}

#[test]
fn old_document_version() {
    let m = error_of(&edit(&leg(), "Version=\"40600\"", "Version=\"10600\""));
    assert!(m.contains("older than OpenSim 1.9.1"), "{m}");
}

/// Hostile input: 400 mutants of the leg and custom-joint models (lines deleted, duplicated or
/// cut short; numbers replaced by NaN, inf, huge, negative or garbage; names mangled). Each must
/// load or give one clean error line, never panic; a mutant that loads must start and take a
/// few steps, or stop with an error.
#[test]
fn mutated_models_never_panic() {
    mutants_load_or_fail_cleanly(&[leg(), custom()], 400);
}

/// `cases` mutants of `sources` (taken in turn): each must load or give one clean error line,
/// never panic; a mutant that loads must start and take a few steps, or stop with an error.
pub(crate) fn mutants_load_or_fail_cleanly(sources: &[String], cases: usize) {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let replacements = [
        "nan", "inf", "-1e308", "1e308", "-3", "0", "abc", "", "1e-320",
    ];
    let (mut refused, mut loaded) = (0, 0);
    for case in 0..cases {
        let text = &sources[case % sources.len()];
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let at = next(lines.len());
        match next(5) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let l = lines[at].clone();
                lines.insert(at, l);
            }
            2 => {
                let cut = next(lines[at].len().max(1));
                lines[at].truncate(cut);
            }
            3 => {
                let r = replacements[next(replacements.len())];
                let l = &lines[at];
                if let (Some(open), Some(close)) = (l.find('>'), l.rfind("</")) {
                    if open < close {
                        lines[at] = format!("{}{r}{}", &l[..=open], &l[close..]);
                    }
                }
            }
            _ => lines[at] = lines[at].replacen("name=\"", "name=\"x", 1),
        }
        let mutated = lines.join("\n");
        match osim::parse(&mutated, "mutant.osim") {
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().contains('\n'), "case {case}: {e}");
            }
            Ok(m) => {
                loaded += 1;
                let settings = ferrobody::IntegratorSettings::rk_merson(1e-3);
                if let Ok(mut sim) = ferrobody::Simulation::new(&m.model, m.default_state, settings)
                {
                    for k in 1..=5 {
                        if sim.advance_to(0.002 * k as f64).is_err() {
                            break;
                        }
                    }
                }
            }
        }
    }
    // Both outcomes must be exercised for the test to mean anything.
    assert!(
        refused > cases / 8 && loaded > cases / 8,
        "refused {refused}, loaded {loaded}"
    );
}

/// A ScapulothoracicJoint or EllipsoidJoint without its radii (OpenSim's default is NaN) or
/// with a radius that is not positive: one line naming the file, the line and the joint.
#[test]
fn ellipsoid_joints_without_positive_radii() {
    let model = model_file("thoracoscapular.osim");
    let radii = "<thoracic_ellipsoid_radii_x_y_z>0.082997500000000002 0.199991 0.083001000000000005</thoracic_ellipsoid_radii_x_y_z>";
    let m = error_of(&edit(&model, radii, ""));
    assert!(
        m.contains("/jointset/scapulothoracic") && m.contains("thoracic_ellipsoid_radii_x_y_z"),
        "{m}"
    );
    let m = error_of(&edit(
        &model,
        radii,
        "<thoracic_ellipsoid_radii_x_y_z>0.08 -0.2 0.08</thoracic_ellipsoid_radii_x_y_z>",
    ));
    assert!(
        m.contains("/jointset/scapulothoracic") && m.contains("must be positive"),
        "{m}"
    );
    assert_eq!(m.lines().count(), 1, "{m}");
    let shoulder = model_file("shoulder_ellipsoid_joint_v30000.osim");
    let m = error_of(&edit(
        &shoulder,
        "<radii_x_y_z>0.09 0.27 0.08</radii_x_y_z>",
        "<radii_x_y_z>0.09 0 0.08</radii_x_y_z>",
    ));
    assert!(
        m.contains("scapulothoracic") && m.contains("radii_x_y_z"),
        "{m}"
    );
}

fn station_frames() -> String {
    let path = format!(
        "{}/../../testdata/opensim/muscles/station_frames_pin.osim",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// A StationDefinedFrame's stations must all be on one body (OpenSim asserts it).
#[test]
fn station_defined_frame_with_stations_on_two_bodies() {
    let m = error_of(&edit(
        &station_frames(),
        "<socket_point_c>/p3_in_pof3</socket_point_c>",
        "<socket_point_c>/p3_in_child_body</socket_point_c>",
    ));
    assert!(
        m.contains("/parent_sdf") && m.contains("socket_point_c") && m.contains("one body"),
        "{m}"
    );
}

/// Its points must form a triangle, and its sockets must name Stations.
#[test]
fn station_defined_frame_degenerate_or_not_on_stations() {
    let m = error_of(&edit(
        &station_frames(),
        "<socket_point_c>/p3_in_pof3</socket_point_c>",
        "<socket_point_c>/p1_in_pof1</socket_point_c>",
    ));
    assert!(m.contains("/parent_sdf") && m.contains("triangle"), "{m}");
    let m = error_of(&edit(
        &station_frames(),
        "<socket_point_a>/p1_in_pof1</socket_point_a>",
        "<socket_point_a>/bodyset/root_body</socket_point_a>",
    ));
    assert!(
        m.contains("socket_point_a") && m.contains("not a Station"),
        "{m}"
    );
}

/// An axis that does not parse falls back as OpenSim's does, with a warning.
#[test]
fn station_defined_frame_axis_that_does_not_parse_warns() {
    let text = edit(
        &station_frames(),
        "<ab_axis>z</ab_axis>",
        "<ab_axis>w</ab_axis>",
    );
    let loaded = osim::parse(&text, "model.osim").unwrap();
    assert!(
        loaded
            .warnings
            .iter()
            .any(|w| w.contains("ab_axis") && w.contains("'w'")),
        "{:?}",
        loaded.warnings
    );
}

/// A force class of OpenSim's own that changes the motion and is not simulated is an error
/// naming it (issue 39, item 4); disabled, it changes nothing and is listed as left out; a
/// class OpenSim does not know either (a plugin's) is left out and listed, as OpenSim skips it.
#[test]
fn unsupported_opensim_force_is_an_error_unless_disabled() {
    let force = r#"<ClutchedPathSpring name="rtm"><GeometryPath name="path"><PathPointSet><objects>
        <PathPoint name="a"><socket_parent_frame>/ground</socket_parent_frame><location>0 0 0</location></PathPoint>
        <PathPoint name="b"><socket_parent_frame>/bodyset/thigh</socket_parent_frame><location>0 0 0</location></PathPoint>
        </objects></PathPointSet></GeometryPath>APPLIES</ClutchedPathSpring>"#;
    let with = |applies: &str, tag: &str| {
        let f = force
            .replace("APPLIES", applies)
            .replace("ClutchedPathSpring", tag);
        edit(
            &leg(),
            "<ForceSet name=\"forceset\">\n\t\t\t<objects>",
            &format!("<ForceSet name=\"forceset\">\n\t\t\t<objects>{f}"),
        )
    };
    let m = error_of(&with("", "ClutchedPathSpring"));
    assert!(
        m.contains("/forceset/rtm") && m.contains("<ClutchedPathSpring> changes the motion"),
        "{m}"
    );
    let disabled = osim::parse(
        &with("<appliesForce>false</appliesForce>", "ClutchedPathSpring"),
        "m.osim",
    )
    .unwrap();
    assert_eq!(
        disabled.left_out.get("ClutchedPathSpring (disabled)"),
        Some(&1)
    );
    let plugin = osim::parse(&with("", "BodyDragForce"), "m.osim").unwrap();
    assert_eq!(plugin.left_out.get("BodyDragForce"), Some(&1));
}

/// An ExpressionBasedPointToPointForce names its bodies by name or path: a missing one, or a
/// bad expression, is a one-line error naming the element and the line.
#[test]
fn point_to_point_expression_on_a_missing_body_or_with_a_bad_expression() {
    let with = |body2: &str, expression: &str| {
        let force = format!(
            "<ExpressionBasedPointToPointForce name=\"p2p\">\n<body1>ground</body1>\n\
             <body2>{body2}</body2>\n<expression>{expression}</expression>\n\
             </ExpressionBasedPointToPointForce>"
        );
        edit(
            &leg(),
            "<ForceSet name=\"forceset\">\n\t\t\t<objects>",
            &format!("<ForceSet name=\"forceset\">\n\t\t\t<objects>{force}"),
        )
    };
    osim::parse(&with("thigh", "10*(d-1)"), "m.osim").unwrap();
    osim::parse(&with("/bodyset/thigh", "10*(d-1)"), "m.osim").unwrap();
    let m = error_of(&with("femur", "10*(d-1)"));
    assert!(
        m.contains("/forceset/p2p") && m.contains("<body2> 'femur' names no body or frame"),
        "{m}"
    );
    let m = error_of(&with("thigh", "10*(x-1)"));
    assert!(
        m.contains("/forceset/p2p") && m.contains("unknown variable 'x'"),
        "{m}"
    );
}

/// A PrescribedForce's function set holds three components or none, as OpenSim requires.
#[test]
fn prescribed_force_with_two_components() {
    let force = r#"<PrescribedForce name="pf"><socket_frame>/bodyset/thigh</socket_frame>
        <FunctionSet name="forceFunctions"><objects><Constant><value>1</value></Constant>
        <Constant><value>2</value></Constant></objects></FunctionSet></PrescribedForce>"#;
    let m = error_of(&edit(
        &leg(),
        "<ForceSet name=\"forceset\">\n\t\t\t<objects>",
        &format!("<ForceSet name=\"forceset\">\n\t\t\t<objects>{force}"),
    ));
    assert!(
        m.contains("/forceset/pf")
            && m.contains("forceFunctions: three components must be given, or none, not 2"),
        "{m}"
    );
}

/// A Ligament's resting length must be positive and a Blankevoort ligament's properties not
/// negative, as OpenSim requires: one-line errors naming the element.
#[test]
fn ligament_properties_out_of_range() {
    let path = r#"<GeometryPath name="path"><PathPointSet><objects>
        <PathPoint name="a"><socket_parent_frame>/ground</socket_parent_frame><location>0 0 0</location></PathPoint>
        <PathPoint name="b"><socket_parent_frame>/bodyset/thigh</socket_parent_frame><location>0 0 0</location></PathPoint>
        </objects></PathPointSet></GeometryPath>"#;
    for (force, expected) in [
        (
            format!(r#"<Ligament name="lig">{path}<pcsa_force>10</pcsa_force></Ligament>"#),
            "resting_length must be finite and positive, got 0",
        ),
        (
            format!(
                r#"<Blankevoort1991Ligament name="lig">{path}<slack_length>0.1</slack_length><linear_stiffness>-3</linear_stiffness></Blankevoort1991Ligament>"#
            ),
            "linear_stiffness must be finite and not negative, got -3",
        ),
    ] {
        let m = error_of(&edit(
            &leg(),
            "<ForceSet name=\"forceset\">\n\t\t\t<objects>",
            &format!("<ForceSet name=\"forceset\">\n\t\t\t<objects>{force}"),
        ));
        assert!(m.contains("/forceset/lig") && m.contains(expected), "{m}");
    }
}

/// An ExpressionBasedCoordinateForce whose expression names an unknown variable is a one-line
/// error naming the element, the expression and the name.
#[test]
fn coordinate_expression_with_an_unknown_variable() {
    let force = r#"<ExpressionBasedCoordinateForce name="spring"><coordinate>ground_pelvis_coord_2</coordinate>
        <expression>-10*theta</expression></ExpressionBasedCoordinateForce>"#;
    let m = error_of(&edit(
        &leg(),
        "<ForceSet name=\"forceset\">\n\t\t\t<objects>",
        &format!("<ForceSet name=\"forceset\">\n\t\t\t<objects>{force}"),
    ));
    assert!(
        m.contains("/forceset/spring") && m.contains("unknown variable 'theta'"),
        "{m}"
    );
}
