//! URDF robots inside scene files (`[[robot]]`): the same model as `ferrobody run ROBOT.urdf`,
//! placed where the scene says, with the scene's gravity and contact, collision spheres as
//! contact surfaces, and one-line errors for every wrong key.

use ferrobody::io::{parse_scene, urdf, Scene};
use ferrobody::prelude::*;
use ferrobody::rollout::{simulate, RecordOptions, Trajectory};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scene given as text, as if it were a file in `examples/scenes/` (robot paths are relative
/// to the scene file's folder).
fn scene(text: &str) -> ferrobody::Result<Scene> {
    let file = root().join("examples/scenes/inline.toml");
    parse_scene(text, &file.display().to_string(), "inline")
}

fn error(text: &str) -> String {
    match scene(text) {
        Ok(_) => panic!("the scene loaded"),
        Err(e) => e.to_string(),
    }
}

fn run(model: &Model<f64>, start: State<f64>, duration: f64) -> Trajectory {
    let options = RecordOptions {
        duration,
        report_interval: Some(0.01),
        step_to_reports: false,
        contacts: true,
        parallel_forces: false,
    };
    let t = simulate(model, start, IntegratorSettings::rk_merson(1e-6), &options).unwrap();
    assert!(t.error.is_none(), "{:?}", t.error);
    t
}

const PANDA_HEAD: &str = r#"
gravity = [0.0, 0.0, -9.81]
[simulation]
duration = 0.3
"#;

#[test]
fn a_robot_in_a_scene_is_the_robot_of_its_urdf_placed_at_its_frame() {
    // The frame turns the robot about the vertical: gravity is unchanged in the robot's frame,
    // so every joint moves exactly as in the robot run alone and every link origin is the
    // alone run's, turned and shifted.
    let angle: f64 = 0.7;
    let offset = [0.3, -0.2, 0.5];
    let text = format!(
        "{PANDA_HEAD}[[robot]]\nfile = \"../../testdata/urdf/panda.urdf\"\n\
         frame = {{ translation = [{}, {}, {}], rotation = {{ axis = [0.0, 0.0, 1.0], angle = {angle} }} }}\n",
        offset[0], offset[1], offset[2]
    );
    let placed = scene(&text).unwrap();
    let alone = urdf::load(
        &root().join("testdata/urdf/panda.urdf"),
        urdf::RootJoint::Fixed,
    )
    .unwrap()
    .into_default_scene();
    assert_eq!(placed.model.nbodies(), alone.model.nbodies());
    let a = run(&placed.model, placed.initial_state.clone(), 0.3);
    let b = run(&alone.model, alone.initial_state.clone(), 0.3);
    // The same joints and masses, computed in a turned Ground frame: the joint angles agree
    // to the round-off of 0.3 s of steps (measured 1e-15; angles below 2 rad).
    assert_eq!(a.q.len(), b.q.len());
    for (qa, qb) in a.q.iter().zip(&b.q) {
        assert!((qa - qb).abs() < 1e-12, "{qa} vs {qb}");
    }
    assert_eq!(a.stats.steps_taken, b.stats.steps_taken);
    let (c, s) = (angle.cos(), angle.sin());
    let n = placed.model.nbodies() - 1;
    for (pa, pb) in a.position.chunks(3).zip(b.position.chunks(3)) {
        let turned = [
            c * pb[0] - s * pb[1] + offset[0],
            s * pb[0] + c * pb[1] + offset[1],
            pb[2] + offset[2],
        ];
        for k in 0..3 {
            // The joint angles' round-off, carried out along links of about 1 m.
            assert!((pa[k] - turned[k]).abs() < 1e-12, "{pa:?} vs {turned:?}");
        }
    }
    assert_eq!(a.position.len(), a.time.len() * n * 3);
}

#[test]
fn a_robot_at_the_origin_runs_bit_for_bit_as_its_urdf() {
    let text = format!(
        "{PANDA_HEAD}[[robot]]\nfile = \"../../testdata/urdf/g1.urdf\"\nfloating_base = true\n"
    );
    let placed = scene(&text).unwrap();
    let alone = urdf::load(
        &root().join("testdata/urdf/g1.urdf"),
        urdf::RootJoint::Floating,
    )
    .unwrap()
    .into_default_scene();
    let a = run(&placed.model, placed.initial_state.clone(), 0.2);
    let b = run(&alone.model, alone.initial_state.clone(), 0.2);
    assert_eq!(a.q, b.q);
    assert_eq!(a.position, b.position);
}

#[test]
fn anymal_stands_on_its_collision_spheres() {
    let s = ferrobody::io::load_scene(&root().join("examples/scenes/anymal_stand.toml")).unwrap();
    // The four foot spheres (radius 0.031 m) joined the ground element; boxes and cylinders are
    // listed as left out.
    let Some(Force::HuntCrossley(hc)) = s.model.forces().iter().find(|f| f.name() == "ground")
    else {
        panic!("no ground contact element")
    };
    assert_eq!(hc.surfaces().len(), 5);
    assert_eq!(s.left_out["collision box (robot 'anymal')"], 13);
    assert_eq!(s.left_out["collision cylinder (robot 'anymal')"], 24);
    assert!(!s.left_out.keys().any(|k| k.starts_with("collision (")));
    let t = run(&s.model, s.initial_state.clone(), 1.5);
    let base = s.model.body_id("base").unwrap().0 - 1;
    let n = s.model.nbodies() - 1;
    let z_end = t.position[(t.time.len() - 1) * n * 3 + base * 3 + 2];
    // Dropped from 0.6 m, it comes to rest standing on its springs: the base about 0.49 m up.
    assert!((0.45..0.52).contains(&z_end), "base height {z_end}");
    // At rest the four feet carry the robot's weight.
    let mass: f64 = (1..s.model.nbodies())
        .map(|b| s.model.body(BodyId(b)).mass_properties.mass)
        .sum();
    let last = *t.contacts.report.last().unwrap();
    let fz: f64 = (0..t.contacts.report.len())
        .filter(|&k| t.contacts.report[k] == last)
        .map(|k| t.contacts.force[k][2].abs())
        .sum();
    // Still settling (the base sinks by 0.2 mm/s as the feet creep): within 2 %.
    assert!(
        (fz / (mass * 9.81) - 1.0).abs() < 0.02,
        "{fz} N for {mass} kg"
    );
    let feet = (0..t.contacts.report.len())
        .filter(|&k| t.contacts.report[k] == last)
        .count();
    assert_eq!(feet, 4);
}

#[test]
fn two_copies_of_a_robot_need_prefixes() {
    let one = "[[robot]]\nfile = \"../../testdata/urdf/ur5.urdf\"\n";
    let twice = format!("{PANDA_HEAD}{one}{one}");
    let e = error(&twice);
    assert!(
        e.contains("robot[1].file: ")
            && e.contains("ur5.urdf:58: joint 'shoulder_pan_joint': body 'shoulder_link': a body of this name already exists (give each copy of a robot its own `prefix`)"),
        "{e}"
    );
    let prefixed = format!(
        "{PANDA_HEAD}{one}prefix = \"left_\"\n{one}prefix = \"right_\"\n\
         frame = {{ translation = [1.0, 0.0, 0.0] }}\n\
         joint_positions = {{ shoulder_lift_joint = -1.0 }}\n"
    );
    let s = scene(&prefixed).unwrap();
    assert!(s.model.body_id("left_shoulder_link").is_some());
    let id = s.model.body_id("right_upper_arm_link").unwrap();
    assert_eq!(s.initial_state.body_q(&s.model, id), &[-1.0]);
    let left = s.model.body_id("left_upper_arm_link").unwrap();
    assert_eq!(s.initial_state.body_q(&s.model, left), &[0.0]);
}

#[test]
fn robot_keys_give_one_line_errors() {
    let robot = "[[robot]]\nfile = \"../../testdata/urdf/anymal.urdf\"\nfloating_base = true\n";
    let contact = "[material.m]\nstiffness = 1e6\n[[contact]]\nname = \"floor\"\nmodel = \"hunt_crossley\"\n\
                   [[contact.surface]]\nbody = \"ground\"\nshape = \"half_space\"\nmaterial = \"m\"\n";
    let cases = [
        (
            format!("{robot}contact = \"floor\"\n"),
            "robot[0].material: a robot in contact needs a material",
        ),
        (
            format!("{robot}material = \"m\"\n"),
            "robot[0].material: given without contact",
        ),
        (
            format!("{robot}contact = \"flor\"\nmaterial = \"m\"\n{contact}"),
            "robot[0].contact: no [[contact]] named 'flor' (named: floor)",
        ),
        (
            format!("{robot}contact = \"floor\"\nmaterial = \"x\"\n{contact}"),
            "robot[0].material: no [material.x] table",
        ),
        (
            format!("{robot}joint_positions = {{ LF_KNEE = 1.0 }}\n"),
            "robot[0].joint_positions.LF_KNEE: the robot has no moving joint of this name",
        ),
        (
            format!("{robot}joint_positions = {{ root_joint = 1.0 }}\n"),
            "robot[0].joint_positions.root_joint: a Floating joint has 7 coordinates",
        ),
        (
            "[[robot]]\nfile = \"missing.urdf\"\n".into(),
            "robot[0].file: cannot read '",
        ),
        (
            "[[robot]]\nfile = \"s1_hc_ball.toml\"\n".into(),
            "s1_hc_ball.toml:1: XML syntax error",
        ),
        (
            format!("{robot}frame = {{ translation = [0.0, 0.0, nan] }}\n"),
            "robot[0].frame.translation",
        ),
        (format!("{robot}colour = 1\n"), "unknown field `colour`"),
    ];
    for (body, expected) in cases {
        let e = error(&format!("{PANDA_HEAD}{body}"));
        assert!(e.contains(expected), "expected '{expected}' in: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn an_error_in_the_robot_file_names_the_file_line_and_element() {
    let dir = std::env::temp_dir().join(format!("ferrobody-urdf-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let urdf = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\">\n<collision><geometry><sphere radius=\"-1\"/></geometry></collision>\n</link>\n\
                <joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>\n";
    std::fs::write(dir.join("r.urdf"), urdf).unwrap();
    let text = format!("{PANDA_HEAD}[[robot]]\nfile = \"r.urdf\"\n");
    let e = parse_scene(&text, &dir.join("s.toml").display().to_string(), "s")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("r.urdf:4: link 'b': collision sphere.radius: must be positive, got -1"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
