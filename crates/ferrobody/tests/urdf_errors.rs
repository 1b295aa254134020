//! Bad URDF input: one clear line naming the file, the line and the element; never a panic.

use ferrobody::io::urdf::{parse, RootJoint};

const GOOD: &str = r#"<robot name="arm">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="upper">
    <inertial><origin xyz="0 0 0.2"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="tool"/>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1" rpy="0 0 0.3"/>
    <parent link="base"/><child link="upper"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
  <joint name="flange" type="fixed">
    <parent link="upper"/><child link="tool"/><axis xyz="0 0 0"/>
  </joint>
</robot>"#;

fn error_of(text: &str) -> String {
    match parse(text, "arm.urdf", RootJoint::Fixed) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            let e = e.to_string();
            assert!(!e.contains('\n'), "one line: {e}");
            e
        }
    }
}

#[test]
fn the_good_robot_loads_with_its_limits_and_fixed_link() {
    let robot = parse(GOOD, "arm.urdf", RootJoint::Fixed).unwrap();
    assert_eq!(robot.model.nq(), 1);
    let j = &robot.info.joints[0];
    assert_eq!((j.name.as_str(), j.limits), ("shoulder", Some((-1.0, 1.0))));
    // The tool link rides on 'upper' (a fixed joint makes no body).
    let tool = robot.info.links.iter().find(|l| l.0 == "tool").unwrap();
    assert_eq!(robot.model.body(tool.1).name, "upper");
    let floating = parse(GOOD, "arm.urdf", RootJoint::Floating).unwrap();
    assert_eq!((floating.model.nq(), floating.model.nu()), (8, 7));
}

#[test]
fn each_bad_input_names_its_element_and_line() {
    for (from, to, expected) in [
        (
            "<parent link=\"base\"/>",
            "<parent link=\"basis\"/>",
            "arm.urdf:9: joint 'shoulder': parent: no link named 'basis'",
        ),
        (
            "<child link=\"tool\"/>",
            "<child link=\"base\"/>",
            "the joints form a cycle",
        ),
        (
            "<mass value=\"2\"/>",
            "<mass value=\"-2\"/>",
            "arm.urdf:2: link 'base': inertial.mass: must be in [0, 1e30), got -2",
        ),
        ("<mass value=\"1\"/>", "<mass value=\"0\"/>", "'upper'"),
        (
            "ixx=\"0.01\" iyy=\"0.01\" izz=\"0.002\" ixy=\"0\"",
            "ixx=\"0.01\" iyy=\"0.01\" izz=\"0.002\" ixy=\"0.5\"",
            "arm.urdf:5: link 'upper': inertial.inertia: inertia is not positive semi-definite",
        ),
        (
            "type=\"revolute\"",
            "type=\"helical\"",
            "arm.urdf:9: joint 'shoulder': unknown joint type 'helical'",
        ),
        (
            "<mass value=\"2\"/>",
            "<mass value=\"nan\"/>",
            "arm.urdf:3: link 'base': mass.value: expected a finite number, got 'nan'",
        ),
        (
            "xyz=\"0 0 0.1\"",
            "xyz=\"0 NaN 0.1\"",
            "origin.xyz: expected a finite number, got 'NaN'",
        ),
        (
            "<axis xyz=\"0 1 0\"/>",
            "<axis xyz=\"0 0 0\"/>",
            "joint 'shoulder': axis.xyz: must not be zero",
        ),
        (
            "lower=\"-1\" upper=\"1\"",
            "lower=\"1\" upper=\"-1\"",
            "limit: lower 1 is above upper -1",
        ),
        (
            "<robot name=\"arm\">",
            "<robt name=\"arm\">",
            "XML syntax error",
        ),
        // roxmltree names the unexpected line break itself: still one line.
        (
            "<mass value=\"2\"/>",
            "<mass value=\"2\"/\n",
            "expected '>' not '\\n'",
        ),
        (
            "<link name=\"tool\"/>",
            "<link name=\"upper\"/>",
            "link 'upper': a second link of this name",
        ),
        (
            "<link name=\"tool\"/>",
            "<link name=\"tool\"/><link name=\"loose\"/>",
            "2 root links (base, loose)",
        ),
    ] {
        let text = GOOD.replacen(from, to, 1);
        assert_ne!(text, GOOD, "{from}");
        let e = error_of(&text);
        assert!(e.contains(expected), "{to}: {e}");
    }
}

#[test]
fn a_massless_moving_leaf_is_refused_but_a_massless_link_inside_a_chain_is_not() {
    // The human model composes hips from massless virtual links between revolute joints; only
    // a moving link with no mass anywhere outboard leaves its acceleration undefined.
    let leaf = GOOD
        .replacen("<mass value=\"1\"/>", "<mass value=\"0\"/>", 1)
        .replacen("izz=\"0.002\" ixy", "izz=\"0\" ixy", 1)
        .replacen("ixx=\"0.01\" iyy=\"0.01\"", "ixx=\"0\" iyy=\"0\"", 1);
    let e = error_of(&leaf);
    assert!(e.contains("'upper'"), "{e}");
}

/// Splits one CSV line as RFC 4180 reads it (quoted fields, doubled quotes inside).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted, mut chars) =
        (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[test]
fn a_link_named_with_a_comma_keeps_the_csv_columns_in_place() {
    use ferrobody::io::TrajectoryWriter;
    use ferrobody::pipeline::realize;
    use ferrobody::{Data, Stage};
    let text = r#"<robot name="r">
  <link name="base"/>
  <link name="a,b"><inertial><mass value="1"/><origin xyz="0.1 0 0"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="a,b"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"#;
    let robot =
        ferrobody::io::urdf::parse(text, "comma.urdf", ferrobody::io::urdf::RootJoint::Fixed)
            .unwrap();
    let (model, state) = (&robot.model, &robot.default_state);
    let mut data = Data::new(model);
    realize(model, state, &mut data, Stage::Acceleration).unwrap();
    let mut out = Vec::new();
    {
        let mut writer = TrajectoryWriter::new(&mut out, model).unwrap();
        writer.write_row(model, state, &data).unwrap();
        writer.flush().unwrap();
    }
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    let header = csv_fields(lines.next().unwrap());
    let row = csv_fields(lines.next().unwrap());
    assert_eq!(header.len(), row.len(), "{text}");
    assert!(header.iter().any(|h| h == "a,b.px"), "{header:?}");
    assert!(text.contains(",\"a,b.px\",\"a,b.py\","), "{text}");
}
