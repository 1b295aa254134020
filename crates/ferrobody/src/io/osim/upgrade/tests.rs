//! The upgrade's steps on small documents, checked on the 4.0 text they give.

use super::upgrade;

/// The upgraded text of `model` (the body of a `<Model>`) written at `version`.
fn upgraded(version: u32, model: &str) -> String {
    let text = format!("<OpenSimDocument Version=\"{version}\"><Model name=\"m\">{model}</Model></OpenSimDocument>");
    let xml = roxmltree::Document::parse(&text).unwrap();
    upgrade(&xml).unwrap().expect("an old document").text
}

/// The text of the first element `tag` below an element named `owner`.
fn text_in(xml: &str, owner: &str, tag: &str) -> String {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let owner = doc
        .descendants()
        .find(|n| n.attribute("name") == Some(owner))
        .unwrap_or_else(|| panic!("no {owner} in {xml}"));
    owner
        .descendants()
        .find(|n| n.has_tag_name(tag))
        .unwrap_or_else(|| panic!("no {tag} in {owner:?}: {xml}"))
        .text()
        .unwrap_or("")
        .trim()
        .to_string()
}

const BODIES_3X: &str = r#"<BodySet><objects>
  <Body name="ground"><mass>0</mass><Joint/><WrapObjectSet><objects/></WrapObjectSet></Body>
  <Body name="thigh"><mass>2</mass><inertia_xx>0.0123456789</inertia_xx><inertia_yz>0.5</inertia_yz>
    <Joint><PinJoint name="hip">
      <parent_body>ground</parent_body>
      <location_in_parent>0.0123456789 1 0</location_in_parent>
      <orientation_in_parent>0 0 0</orientation_in_parent>
      <location>0 0.25 0</location>
      <orientation>0 0 0</orientation>
      <CoordinateSet><objects><Coordinate name="hip angle"><motion_type>rotational</motion_type></Coordinate></objects></CoordinateSet>
      <reverse>false</reverse>
    </PinJoint></Joint></Body>
  <Body name="shank"><mass>1</mass>
    <Joint><PinJoint name="knee">
      <parent_body>thigh</parent_body>
      <CoordinateSet><objects><Coordinate name="knee"/></objects></CoordinateSet>
      <reverse>true</reverse>
    </PinJoint></Joint></Body>
</objects></BodySet>"#;

#[test]
fn joints_leave_their_bodies_with_offset_frames_rounded_as_a_cpp_stream() {
    let xml = upgraded(30000, BODIES_3X);
    assert!(xml.contains("<Ground name=\"ground\""), "{xml}");
    assert!(xml.contains("<JointSet name=\"jointset\""), "{xml}");
    assert_eq!(text_in(&xml, "hip", "socket_parent_frame"), "ground_offset");
    assert_eq!(text_in(&xml, "hip", "socket_child_frame"), "thigh_offset");
    assert_eq!(
        text_in(&xml, "ground_offset", "socket_parent"),
        "../../../ground"
    );
    assert_eq!(
        text_in(&xml, "ground_offset", "translation"),
        "0.0123457 1 0"
    );
    assert_eq!(
        text_in(&xml, "thigh_offset", "socket_parent"),
        "../../../bodyset/thigh"
    );
    assert_eq!(text_in(&xml, "thigh_offset", "translation"), "0 0.25 0");
    // Whitespace leaves names; the coordinate set becomes a list; motion_type goes.
    assert!(xml.contains("<coordinates"), "{xml}");
    assert!(xml.contains("name=\"hipangle\""), "{xml}");
    assert!(
        !xml.contains("motion_type") && !xml.contains("CoordinateSet"),
        "{xml}"
    );
}

#[test]
fn a_reversed_joint_swaps_its_parent_and_child_frames() {
    let xml = upgraded(30000, BODIES_3X);
    assert_eq!(text_in(&xml, "knee", "socket_parent_frame"), "shank_offset");
    assert_eq!(text_in(&xml, "knee", "socket_child_frame"), "thigh_offset");
    assert!(!xml.contains("<reverse"), "{xml}");
}

#[test]
fn six_inertia_elements_become_one_with_opensims_defaults_for_the_missing() {
    let xml = upgraded(30000, BODIES_3X);
    assert_eq!(text_in(&xml, "thigh", "inertia"), "0.0123457 1 1 0 0 0.5");
    assert_eq!(text_in(&xml, "shank", "inertia"), "1 1 1 0 0 0");
}

#[test]
fn is_disabled_becomes_the_negated_4_0_flag_of_each_kind() {
    let xml = upgraded(
        30000,
        r#"<ForceSet><objects>
             <PointToPointSpring name="spring"><isDisabled>true</isDisabled><body1>ground</body1><body2>thigh</body2></PointToPointSpring>
           </objects></ForceSet>
           <ConstraintSet><objects>
             <PointConstraint name="pc"><isDisabled>false</isDisabled><body_1>a</body_1><body_2>b</body_2></PointConstraint>
           </objects></ConstraintSet>
           <ControllerSet><objects><PrescribedController name="c"><isDisabled>true</isDisabled></PrescribedController></objects></ControllerSet>"#,
    );
    assert_eq!(text_in(&xml, "spring", "appliesForce"), "false");
    assert_eq!(text_in(&xml, "spring", "socket_body1"), "/ground");
    assert_eq!(text_in(&xml, "spring", "socket_body2"), "/bodyset/thigh");
    assert_eq!(text_in(&xml, "pc", "isEnforced"), "true");
    assert_eq!(text_in(&xml, "pc", "socket_body_2"), "/bodyset/b");
    assert_eq!(text_in(&xml, "c", "enabled"), "false");
}

#[test]
fn a_bushing_gets_offset_frames_only_where_they_are_not_the_identity() {
    let xml = upgraded(
        30000,
        r#"<ForceSet><objects><BushingForce name="bushing">
             <body_1>ground</body_1><location_body_1>0 0 0</location_body_1>
             <body_2>thigh</body_2><location_body_2>0 0.123456789 0</location_body_2>
           </BushingForce></objects></ForceSet>"#,
    );
    assert_eq!(text_in(&xml, "bushing", "socket_frame1"), "/ground");
    assert_eq!(text_in(&xml, "bushing", "socket_frame2"), "thigh_offset");
    assert_eq!(text_in(&xml, "thigh_offset", "translation"), "0 0.123457 0");
}

#[test]
fn old_muscles_get_a_geometry_path_and_drop_default_control_bounds() {
    let xml = upgraded(
        20300,
        r#"<ActuatorSet><objects><Thelen2003Muscle name="m">
             <min_control>0</min_control><max_control>1</max_control><pennation_angle>0.1</pennation_angle>
             <MusclePointSet><objects>
               <MusclePoint name="p1"><location>0 0 0</location><body>ground</body></MusclePoint>
               <MuscleViaPoint name="p2"><location>0 0 0</location><body>thigh</body><coordinate>hip</coordinate><range>0 1</range></MuscleViaPoint>
             </objects></MusclePointSet>
           </Thelen2003Muscle></objects></ActuatorSet>"#,
    );
    assert!(xml.contains("<ForceSet name=\"forceset\""), "{xml}");
    assert!(
        !xml.contains("min_control") && !xml.contains("max_control"),
        "{xml}"
    );
    assert_eq!(text_in(&xml, "m", "pennation_angle_at_optimal"), "0.1");
    assert_eq!(text_in(&xml, "p1", "socket_parent_frame"), "/ground");
    assert_eq!(text_in(&xml, "p2", "socket_parent_frame"), "/bodyset/thigh");
    assert_eq!(text_in(&xml, "p2", "socket_coordinate"), "hip");
    assert!(xml.contains("<GeometryPath"), "{xml}");
    assert!(xml.contains("<ConditionalPathPoint"), "{xml}");
}

#[test]
fn four_point_x_documents_are_left_alone() {
    let text = "<OpenSimDocument Version=\"40000\"><Model name=\"m\"/></OpenSimDocument>";
    let xml = roxmltree::Document::parse(text).unwrap();
    assert!(upgrade(&xml).unwrap().is_none());
    assert!(!super::may_need_upgrade(text));
    assert!(super::may_need_upgrade(
        "<OpenSimDocument Version=\"30000\">"
    ));
    let long_comment = format!(
        "<!--{}-->\n<OpenSimDocument Version='20303'>",
        "x".repeat(9000)
    );
    assert!(super::may_need_upgrade(&long_comment));
    assert!(!super::may_need_upgrade("<Model name=\"m\"/>"));
}
