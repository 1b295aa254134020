//! Per-state force enable/disable (Simbody `Force::disable`, `Force::enable`,
//! `Force::setDisabledByDefault`): a disabled element applies no force, stores no potential
//! energy, reports no contacts and updates none of its auto-update variables; enabling it again
//! restores it from the next evaluation; bad ids are errors.

use ferrobody::contact::ExponentialSpringForce;
use ferrobody::io::{load_scene, parse_scene};
use ferrobody::model::potential_energy;
use ferrobody::pipeline::contact_reports;
use ferrobody::prelude::*;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ids_where(model: &Model<f64>, pick: impl Fn(&Force<f64>) -> bool) -> Vec<ForceId> {
    (0..model.forces().len())
        .filter(|&i| pick(&model.forces()[i]))
        .map(ForceId)
        .collect()
}

fn spring(model: &Model<f64>, id: ForceId) -> &ExponentialSpringForce<f64> {
    match &model.forces()[id.0] {
        Force::ExponentialSpring(s) => s,
        _ => unreachable!("ids_where picked exponential springs only"),
    }
}

#[test]
fn disabled_exponential_springs_let_the_block_fall_freely_and_freeze_their_anchors() {
    let sc = load_scene(&root().join("examples/scenes/e2_es_rest.toml")).unwrap();
    let model = &sc.model;
    let springs = ids_where(model, |f| matches!(f, Force::ExponentialSpring(_)));
    let gravity = ids_where(model, |f| matches!(f, Force::Gravity(_)));
    assert_eq!((springs.len(), gravity.len()), (8, 1));
    let mut sim = Simulation::new(model, sc.initial_state.clone(), sc.integrator).unwrap();
    sim.advance_to(0.3).unwrap();
    let d = sim.data().unwrap().clone();
    let pe_enabled = potential_energy(model, sim.state(), &d);
    for &id in &springs {
        assert!(model.is_force_enabled(sim.state(), id));
        model.disable_force(sim.state_mut(), id).unwrap();
        assert!(!model.is_force_enabled(sim.state(), id));
    }
    let anchors: Vec<_> = springs
        .iter()
        .map(|&id| spring(model, id).anchor_in_state(model, sim.state()))
        .collect();
    // With the springs off only gravity acts: v̇_y = g exactly, and the potential energy is
    // gravity's alone (the compressed springs held a positive energy a moment ago).
    let d = sim.data().unwrap().clone();
    assert_eq!(d.udot().unwrap()[4], -9.8);
    let ctx = ForceContext::new(model, sim.state(), &d);
    let pe_gravity = model.forces()[gravity[0].0].potential_energy(&ctx);
    assert_eq!(potential_energy(model, sim.state(), &d), pe_gravity);
    assert!(pe_enabled > pe_gravity + 1e-3, "the springs stored energy");
    // Free fall under constant acceleration: RK-Merson integrates it exactly (to roundoff).
    let (t0, vy0) = (sim.state().t, sim.state().u[4]);
    sim.advance_to(0.35).unwrap();
    let fall = sim.state().u[4] - vy0;
    assert!(
        (fall + 9.8 * (sim.state().t - t0)).abs() < 1e-12,
        "Δv_y = {fall}"
    );
    for (k, &id) in springs.iter().enumerate() {
        let moved = (spring(model, id).anchor_in_state(model, sim.state()) - anchors[k]).norm();
        assert_eq!(moved, 0.0, "a disabled spring's anchor point stays put");
    }
    // Enabled again, the springs push the (now lower) block back up at once.
    for &id in &springs {
        model.enable_force(sim.state_mut(), id).unwrap();
    }
    assert!(sim.data().unwrap().udot().unwrap()[4] > 0.0);
}

#[test]
fn a_disabled_hunt_crossley_force_reports_no_contact_and_applies_no_force() {
    let sc = load_scene(&root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    let model = &sc.model;
    let contact = ids_where(model, |f| matches!(f, Force::HuntCrossley(_)));
    assert_eq!(contact.len(), 1);
    let mut sim = Simulation::new(model, sc.initial_state.clone(), sc.integrator).unwrap();
    // Step until the ball touches the ground.
    let touching = |sim: &mut Simulation<f64>| {
        let d = sim.data().unwrap().clone();
        !contact_reports(model, sim.state(), &d).is_empty()
    };
    while !touching(&mut sim) {
        sim.step(2.0).unwrap();
        assert!(sim.state().t < 2.0, "the ball never touched the ground");
    }
    assert!(
        sim.data().unwrap().udot().unwrap()[4] > -9.81,
        "the ground pushes the ball"
    );
    model.disable_force(sim.state_mut(), contact[0]).unwrap();
    let d = sim.data().unwrap().clone();
    assert!(contact_reports(model, sim.state(), &d).is_empty());
    assert_eq!(d.udot().unwrap()[4], -9.81);
    assert_eq!(d.udot().unwrap()[3], 0.0, "no friction either");
}

#[test]
fn disabled_by_default_and_bad_ids() {
    let mut b = ModelBuilder::<f64>::new();
    b.add_body(BodyDef::new(
        "ball",
        BodyId::GROUND,
        Mobilizer::Free,
        MassProperties::new(2.0, Vector3::zeros(), Matrix3::identity()),
    ))
    .unwrap();
    let g = b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    b.set_force_disabled_by_default(g, true).unwrap();
    let err = b
        .set_force_disabled_by_default(ForceId(5), true)
        .unwrap_err();
    assert!(
        err.to_string().contains("force id 5 is out of range"),
        "{err}"
    );
    let model = b.build().unwrap();
    let mut state = model.default_state();
    assert!(!model.is_force_enabled(&state, g));
    let mut sim =
        Simulation::new(&model, state.clone(), IntegratorSettings::rk_merson(1e-6)).unwrap();
    assert_eq!(
        sim.data().unwrap().udot().unwrap()[4],
        0.0,
        "gravity starts disabled"
    );
    model.enable_force(&mut state, g).unwrap();
    let mut sim2 =
        Simulation::new(&model, state.clone(), IntegratorSettings::rk_merson(1e-6)).unwrap();
    assert_eq!(sim2.data().unwrap().udot().unwrap()[4], -9.81);
    assert!(!model.is_force_enabled(&state, ForceId(7)));
    let err = model.disable_force(&mut state, ForceId(7)).unwrap_err();
    assert!(
        err.to_string().contains("the model has 1 force elements"),
        "{err}"
    );
}

#[test]
fn scene_files_mark_forces_and_contacts_disabled_with_enabled_false() {
    let path = root().join("examples/scenes/s1_hc_ball.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let marked = text.replacen(
        "model = \"hunt_crossley\"",
        "model = \"hunt_crossley\"\nenabled = false",
        1,
    )
        + "\n[[force]]\ntype = \"constant_torque\"\nbody = \"ball\"\ntorque = [0.0, 0.0, 1.0]\n\
         enabled = false\n\n[[force]]\ntype = \"constant_force\"\nbody = \"ball\"\n\
         force = [1.0, 0.0, 0.0]\n";
    assert_ne!(marked, text);
    let sc = parse_scene(&marked, "marked.toml", "marked").unwrap();
    let model = &sc.model;
    let contact = ids_where(model, |f| matches!(f, Force::HuntCrossley(_)))[0];
    let torque = ids_where(model, |f| matches!(f, Force::ConstantTorque(_)))[0];
    let push = ids_where(model, |f| matches!(f, Force::ConstantForce(_)))[0];
    let s = &sc.initial_state;
    assert!(!model.is_force_enabled(s, contact));
    assert!(!model.is_force_enabled(s, torque));
    assert!(model.is_force_enabled(s, push), "enabled defaults to true");
    let Err(err) = parse_scene(
        &text.replacen(
            "model = \"hunt_crossley\"",
            "model = \"hunt_crossley\"\nenabled = 0",
            1,
        ),
        "bad.toml",
        "bad",
    ) else {
        panic!("enabled = 0 is not a boolean");
    };
    // The message names the file, line and column of the bad value and what was expected.
    assert!(
        err.to_string()
            .starts_with("bad.toml:34:11: invalid type: integer `0`, expected a boolean"),
        "{err}"
    );
}
