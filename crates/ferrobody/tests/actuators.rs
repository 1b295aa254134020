//! Actuators and controls: a position servo against its closed-form second-order response,
//! exact clamping, the zero-order hold, control derivatives against central differences,
//! scene and URDF inputs and their errors, and a Panda held by gravity compensation.

use ferrobody::actuators::{
    Actuator, ActuatorKind, GeneralActuator, JointMotor, PositionServo, VelocityServo,
};
use ferrobody::algorithms::rnea;
use ferrobody::derivatives::ForwardDynamicsJacobian;
use ferrobody::io::scene::parse_scene;
use ferrobody::io::urdf::{self, RootJoint, UrdfActuators};
use ferrobody::pipeline::realize;
use ferrobody::prelude::*;
use ferrobody::simulation::StepJacobian;
use nalgebra::DVector;
use std::path::PathBuf;

/// Inertia of the rotor about its pin axis (kg·m²).
const INERTIA: f64 = 0.5;

/// A rotor on a pin about z (no gravity torque: the pendulum swings in the horizontal plane)
/// driven by one actuator of `kind`.
fn rotor(kind: ActuatorKind<f64>, configure: impl FnOnce(&mut Actuator<f64>)) -> Model<f64> {
    let mut b = ModelBuilder::<f64>::new();
    let inertia = Matrix3::from_diagonal(&Vector3::new(0.3, 0.3, INERTIA));
    let mass = MassProperties::new(2.0, Vector3::zeros(), inertia);
    let body = b
        .add_body(BodyDef::new("rotor", BodyId::GROUND, Mobilizer::Pin, mass))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, 0.0, -9.81));
    let mut actuator = Actuator::new("drive", body, 0, kind);
    configure(&mut actuator);
    b.add_actuator(actuator).unwrap();
    b.build().unwrap()
}

fn udot_at(model: &Model<f64>, q: f64, u: f64, ctrl: f64) -> f64 {
    let mut state = model.default_state();
    state.q[0] = q;
    state.u[0] = u;
    model.set_controls(&mut state, &[ctrl]).unwrap();
    let mut data = Data::new(model);
    realize(model, &state, &mut data, Stage::Acceleration).unwrap();
    data.udot().unwrap()[0]
}

#[test]
fn position_servo_follows_the_closed_form_step_response() {
    let (kp, kv, target) = (8.0, 0.6, 0.7);
    let model = rotor(
        ActuatorKind::PositionServo(PositionServo { kp, kv }),
        |_| {},
    );
    let mut state = model.default_state();
    model.set_controls(&mut state, &[target]).unwrap();
    let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-12)).unwrap();
    // I q̈ + kv q̇ + kp q = kp c: underdamped, ζ = kv / (2 √(kp I)) ≈ 0.15.
    let wn = (kp / INERTIA).sqrt();
    let zeta = kv / (2.0 * (kp * INERTIA).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let mut worst: f64 = 0.0;
    for k in 1..=300 {
        let t = k as f64 * 0.01;
        sim.advance_to(t).unwrap();
        let exact = target
            * (1.0
                - (-zeta * wn * t).exp()
                    * ((wd * t).cos() + zeta / (1.0 - zeta * zeta).sqrt() * (wd * t).sin()));
        worst = worst.max((sim.state().q[0] - exact).abs());
    }
    // Accuracy 1e-12 per step: the global error stays orders below the 1e-6 rad asked.
    assert!(
        worst < 1e-6,
        "position servo is {worst} rad from the closed form"
    );
    // And it did move: after 3 s the envelope e^(−ζωn t) is 0.16, so q is near the target.
    assert!((sim.state().q[0] - target).abs() < 0.2 * target);
}

#[test]
fn forces_beyond_their_range_are_exactly_the_bound() {
    let model = rotor(ActuatorKind::Motor(JointMotor), |a| {
        a.gear = 3.0;
        a.force_range = Some([-2.0, 1.5]);
    });
    // Inside the range: τ = gear·ctrl.
    assert_eq!(udot_at(&model, 0.3, 0.1, 0.25), 3.0 * 0.25 / INERTIA);
    // Beyond it: exactly gear times the bound, on either side.
    assert_eq!(udot_at(&model, 0.3, 0.1, 40.0), 3.0 * 1.5 / INERTIA);
    assert_eq!(udot_at(&model, 0.3, 0.1, -7.0), 3.0 * -2.0 / INERTIA);
    let mut state = model.default_state();
    model.set_controls(&mut state, &[40.0]).unwrap();
    assert_eq!(model.actuator_forces(&state), vec![1.5]);
    // A control range clamps the control before the force law.
    let servo = rotor(
        ActuatorKind::VelocityServo(VelocityServo { kv: 2.0 }),
        |a| a.ctrl_range = Some([-1.0, 1.0]),
    );
    assert_eq!(udot_at(&servo, 0.0, 0.5, 9.0), 2.0 * (1.0 - 0.5) / INERTIA);
    assert_eq!(
        udot_at(&servo, 0.0, 0.5, 0.75),
        2.0 * (0.75 - 0.5) / INERTIA
    );
}

#[test]
fn general_actuator_is_gain_times_control_plus_affine_bias() {
    let (gain, bias, gear) = (1.5, [0.2, -3.0, -0.4], 2.0);
    let model = rotor(ActuatorKind::General(GeneralActuator { gain, bias }), |a| {
        a.gear = gear
    });
    let (q, u, c) = (0.3, -0.7, 0.9);
    let f = gain * c + bias[0] + bias[1] * gear * q + bias[2] * gear * u;
    let got = udot_at(&model, q, u, c);
    assert!((got - gear * f / INERTIA).abs() <= 1e-15 * got.abs().max(1.0));
}

#[test]
fn controls_are_held_and_a_change_restarts_the_step() {
    let model = rotor(ActuatorKind::Motor(JointMotor), |_| {});
    let mut sim = Simulation::new(
        &model,
        model.default_state(),
        IntegratorSettings::rk_merson(1e-10),
    )
    .unwrap();
    sim.set_controls(&[1.0]).unwrap();
    sim.advance_to(0.5).unwrap();
    sim.set_controls(&[-1.0]).unwrap();
    sim.advance_to(1.0).unwrap();
    // Piecewise-constant torque: u = (1·0.5 − 1·0.5)/I = 0; q = ½(1/I)0.5² + (1/I)0.5·0.5 −
    // ½(1/I)0.5² = 0.25/I. Polynomial in t on each piece: exact but for round-off, because the
    // step restarted at the change instead of straddling it.
    assert!(sim.state().u[0].abs() < 1e-12);
    assert!((sim.state().q[0] - 0.25 / INERTIA).abs() < 1e-12);
    assert_eq!(sim.controls(), &[-1.0]);
    // Wrong length or a NaN: refused, the held control unchanged.
    let long = sim.set_controls(&[1.0, 2.0]).unwrap_err().to_string();
    assert!(
        long.contains("2 values given, the model has 1 controls"),
        "{long}"
    );
    let nan = sim.set_controls(&[f64::NAN]).unwrap_err().to_string();
    assert!(nan.contains("entry 0 ('drive') is NaN"), "{nan}");
    assert_eq!(sim.controls(), &[-1.0]);
}

/// A two-link arm with a servo and a motor: every input direction matters.
fn arm() -> Model<f64> {
    arm_with(None)
}

/// [`arm`] with `force_range` on its shoulder servo.
fn arm_with(force_range: Option<[f64; 2]>) -> Model<f64> {
    let mut b = ModelBuilder::<f64>::new();
    let link = MassProperties::new(1.0, Vector3::new(0.5, 0.0, 0.0), Matrix3::identity() * 0.02);
    let upper = b
        .add_body(BodyDef::new("upper", BodyId::GROUND, Mobilizer::Pin, link))
        .unwrap();
    let lower = b
        .add_body(
            BodyDef::new("lower", upper, Mobilizer::Pin, link)
                .with_x_pf(Transform::from_translation(Vector3::new(1.0, 0.0, 0.0))),
        )
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let servo = ActuatorKind::PositionServo(PositionServo { kp: 30.0, kv: 2.0 });
    let mut shoulder = Actuator::new("shoulder", upper, 0, servo);
    shoulder.gear = 1.5;
    shoulder.force_range = force_range;
    b.add_actuator(shoulder).unwrap();
    b.add_actuator(Actuator::new(
        "elbow",
        lower,
        0,
        ActuatorKind::Motor(JointMotor),
    ))
    .unwrap();
    b.build().unwrap()
}

fn arm_state(model: &Model<f64>) -> State<f64> {
    let mut state = model.default_state();
    state.q.copy_from_slice(&[0.4, -0.9]);
    state.u.copy_from_slice(&[0.3, 1.1]);
    model.set_controls(&mut state, &[0.2, -0.6]).unwrap();
    state
}

#[test]
fn acceleration_derivative_with_respect_to_controls_matches_central_differences() {
    let model = arm();
    let state = arm_state(&model);
    let mut jacobian = ForwardDynamicsJacobian::new(&model).unwrap();
    jacobian.compute(&state, &[0.0, 0.0]).unwrap();
    let udot = |c: &[f64]| {
        let mut s = state.clone();
        model.set_controls(&mut s, c).unwrap();
        let mut data = Data::new(&model);
        realize(&model, &s, &mut data, Stage::Acceleration).unwrap();
        data.udot().unwrap().clone()
    };
    let h = 1e-6;
    for k in 0..2 {
        let (mut plus, mut minus) = ([0.2, -0.6], [0.2, -0.6]);
        plus[k] += h;
        minus[k] -= h;
        let difference = (udot(&plus) - udot(&minus)) / (2.0 * h);
        let exact = jacobian.dudot_dctrl.column(k);
        // Affine in the control: the central difference is exact but for round-off, ~1e-10.
        assert!((difference - exact).amax() < 1e-8, "column {k}");
        assert!(exact.amax() > 0.1);
    }
}

#[test]
fn step_derivative_with_respect_to_controls_matches_central_differences() {
    let model = arm();
    let state = arm_state(&model);
    let settings = IntegratorSettings::fixed(IntegratorKind::RungeKutta4, 0.01);
    let mut jacobian = StepJacobian::new(&model, settings, 0.01, &[]).unwrap();
    jacobian.compute(&state).unwrap();
    let step = |c: &[f64]| {
        let mut s = state.clone();
        model.set_controls(&mut s, c).unwrap();
        let mut sim = Simulation::new(&model, s, settings).unwrap();
        sim.advance_to(0.01).unwrap();
        let end = sim.state();
        DVector::from_iterator(4, end.q.iter().chain(end.u.iter()).copied())
    };
    assert!((&jacobian.x_next - step(&[0.2, -0.6])).amax() < 1e-14);
    let h = 1e-6;
    for k in 0..2 {
        let (mut plus, mut minus) = ([0.2, -0.6], [0.2, -0.6]);
        plus[k] += h;
        minus[k] -= h;
        let difference = (step(&plus) - step(&minus)) / (2.0 * h);
        let exact = jacobian.dx_dctrl.column(k);
        // Central differences of a smooth step: truncation O(h²) ≈ 1e-12, round-off ≈ 1e-10.
        assert!((difference - exact).amax() < 1e-8, "column {k}");
        assert!(exact.amax() > 1e-4);
    }
}

const SERVO_SCENE: &str = r#"
[simulation]
duration = 0.5

[[body]]
name = "rotor"
mobilizer = "pin"
mass = 2.0
inertia = [0.3, 0.3, 0.5]

[[actuator]]
name = "drive"
joint = "rotor"
kind = "position"
kp = 8.0
kv = 0.6
ctrl_range = [-1.0, 1.0]
ctrl = 0.7
"#;

#[test]
fn scene_actuators_build_the_same_servo() {
    let scene = parse_scene(SERVO_SCENE, "servo.toml", "servo").unwrap();
    let model = &scene.model;
    assert_eq!(model.nctrl(), 1);
    assert_eq!(model.actuator_index("drive"), Some(0));
    assert_eq!(model.controls(&scene.initial_state), &[0.7]);
    let a = &model.actuators()[0];
    assert_eq!(
        a.kind,
        ActuatorKind::PositionServo(PositionServo { kp: 8.0, kv: 0.6 })
    );
    assert_eq!(a.ctrl_range, Some([-1.0, 1.0]));
}

#[test]
fn bad_scene_actuators_are_one_line_errors_with_file_and_line() {
    let unknown = SERVO_SCENE.replace("joint = \"rotor\"", "joint = \"elbow\"");
    let e = parse_scene(&unknown, "servo.toml", "servo").err().unwrap();
    assert_eq!(
        e.to_string(),
        "servo.toml:11: actuator[0] 'drive'.joint: no body or robot joint named 'elbow'"
    );
    let inverted = SERVO_SCENE.replace("ctrl_range = [-1.0, 1.0]", "ctrl_range = [1.0, -1.0]");
    let e = parse_scene(&inverted, "servo.toml", "servo").err().unwrap();
    assert_eq!(
        e.to_string(),
        "servo.toml:11: actuator[0] 'drive': ctrl_range [1, -1] is not a range (lower bound above the upper, or NaN)"
    );
    let foreign = SERVO_SCENE.replace("kind = \"position\"", "kind = \"velocity\"");
    let e = parse_scene(&foreign, "servo.toml", "servo").err().unwrap();
    assert_eq!(
        e.to_string(),
        "servo.toml:11: actuator[0] 'drive'.kp: not a parameter of a velocity actuator"
    );
    for e in [unknown, inverted, foreign]
        .iter()
        .map(|t| parse_scene(t, "servo.toml", "s").err().unwrap().to_string())
    {
        assert!(!e.contains('\n'));
    }
}

fn panda(actuators: UrdfActuators) -> urdf::UrdfModel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/urdf/panda.urdf");
    let text = std::fs::read_to_string(&path).unwrap();
    urdf::parse_actuated(&text, "panda.urdf", RootJoint::Fixed, actuators).unwrap()
}

#[test]
fn urdf_motors_follow_the_joints_and_their_effort_limits() {
    let robot = panda(UrdfActuators::Motors);
    let model = &robot.model;
    // Seven revolute arm joints and two prismatic finger joints, in model order.
    assert_eq!(model.nctrl(), 9);
    let names: Vec<&str> = model.actuators().iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names[0], "panda_joint1");
    assert_eq!(names[8], "panda_finger_joint2");
    assert_eq!(model.actuators()[0].force_range, Some([-87.0, 87.0]));
    assert_eq!(model.actuators()[6].force_range, Some([-12.0, 12.0]));
    assert_eq!(panda(UrdfActuators::None).model.nctrl(), 0);
}

/// Gravity compensation: τ = RNEA(q, 0, 0) with the controls at zero.
fn gravity_torques(model: &Model<f64>, state: &State<f64>) -> Vec<f64> {
    let mut at_rest = state.clone();
    at_rest.u.fill(0.0);
    model
        .set_controls(&mut at_rest, &vec![0.0; model.nctrl()])
        .unwrap();
    let mut data = Data::new(model);
    realize(model, &at_rest, &mut data, Stage::Dynamics).unwrap();
    rnea(model, &mut data, &DVector::zeros(model.nu()))
        .iter()
        .copied()
        .collect()
}

#[test]
fn panda_motors_hold_the_neutral_pose_with_gravity_compensation() {
    let robot = panda(UrdfActuators::Motors);
    let model = &robot.model;
    let start = robot.default_state.clone();
    let settings = IntegratorSettings::rk_merson(1e-8);
    let mut sim = Simulation::new(model, start.clone(), settings).unwrap();
    for k in 1..=1000 {
        let torques = gravity_torques(model, sim.state());
        sim.set_controls(&torques).unwrap();
        sim.advance_to(k as f64 * 1e-3).unwrap();
        let drift = (&sim.state().q - &start.q).amax();
        assert!(drift < 1e-6, "drifted {drift} rad by t = {}", sim.state().t);
    }
    // Without the controls it falls.
    let mut fall = Simulation::new(model, start.clone(), settings).unwrap();
    fall.advance_to(1.0).unwrap();
    assert!((&fall.state().q - &start.q).amax() > 0.1);
}

#[test]
fn analytical_and_dual_paths_agree_with_actuators_clamped_or_not() {
    // A force range on the servo: clamped at this state (its force is about −13 N·m).
    for clamp in [None, Some([-0.5, 0.5])] {
        let model = arm_with(clamp);
        let state = arm_state(&model);
        let mut analytical = ForwardDynamicsJacobian::new(&model).unwrap();
        analytical.compute_analytical(&state, &[0.1, -0.2]).unwrap();
        let mut dual = ForwardDynamicsJacobian::new(&model).unwrap();
        dual.compute_dual(&state, &[0.1, -0.2]).unwrap();
        // Both exact: they differ by round-off of the two recursions.
        assert!((&analytical.dudot_dq - &dual.dudot_dq).amax() < 1e-11);
        assert!((&analytical.dudot_du - &dual.dudot_du).amax() < 1e-11);
        assert!((&analytical.dudot_dctrl - &dual.dudot_dctrl).amax() < 1e-11);
        let servo_column = analytical.dudot_dctrl.column(0).amax();
        assert_eq!(
            servo_column == 0.0,
            clamp.is_some(),
            "a clamped servo has no slope"
        );
    }
}
