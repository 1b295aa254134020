//! The seed's UnilateralContact interface on every contact kind: sign convention, errors
//! (verr = d perr/dt, aerr = d verr/dt by central differences along a free motion), enable /
//! disable, COR / COF, slip, multipliers, and clear errors for bad input.

use ferrobody::math::Transform;
use ferrobody::prelude::*;
use ferrobody::unilateral::UnilateralKind;

fn ball_mp() -> MassProperties<f64> {
    MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity() * 0.004)
}

/// Two free bodies moving and spinning, a pendulum, and one contact of every kind.
fn model_with_every_kind() -> (Model, State) {
    let mut b = ModelBuilder::<f64>::new();
    let f = b
        .add_body(BodyDef::new(
            "f",
            BodyId::GROUND,
            Mobilizer::Free,
            ball_mp(),
        ))
        .unwrap();
    let m = b
        .add_body(BodyDef::new(
            "m",
            BodyId::GROUND,
            Mobilizer::Free,
            ball_mp(),
        ))
        .unwrap();
    let p = b
        .add_body(BodyDef::new("p", BodyId::GROUND, Mobilizer::Pin, ball_mp()))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let fr = FrictionCoefficients::new(0.6, 0.4, 0.1);
    let n = Vector3::new(0.3, 1.0, -0.2).normalize();
    let edge = |x: f64| Transform::from_axis_angle(Vector3::new(1.0, 0.5, 0.2).normalize(), x);
    let contacts = [
        UnilateralContact::hard_stop_upper(p, 0, 0.5, 0.5),
        UnilateralContact::hard_stop_lower(p, 0, -0.5, 0.5),
        UnilateralContact::rope(
            f,
            Vector3::new(0.1, 0.0, 0.0),
            m,
            Vector3::new(0.0, 0.05, 0.0),
            1.0,
            0.3,
        ),
        UnilateralContact::point_plane_frictionless(
            f,
            n,
            0.2,
            m,
            Vector3::new(0.0, -0.1, 0.0),
            0.5,
        ),
        UnilateralContact::point_plane(f, n, 0.2, m, Vector3::new(0.0, -0.1, 0.0), 0.5, fr),
        UnilateralContact::sphere_plane(f, n, 0.2, m, Vector3::new(0.01, 0.0, 0.0), 0.1, 0.5, fr),
        UnilateralContact::sphere_sphere(
            f,
            Vector3::zeros(),
            0.2,
            m,
            Vector3::zeros(),
            0.1,
            0.5,
            fr,
        ),
        UnilateralContact::edge_edge(f, edge(0.3), 0.5, m, edge(1.4), 0.5, 0.5, fr),
    ];
    for c in contacts {
        b.add_unilateral_contact(c).unwrap();
    }
    let model = b.build().unwrap();
    let mut s = model.default_state();
    let q_f = [0.9, 0.1, -0.3, 0.2, 0.1, -0.2, 0.05];
    let q_m = [0.8, -0.2, 0.4, 0.1, 0.4, 0.5, -0.3];
    s.set_body_q(&model, f, &q_f);
    s.set_body_q(&model, m, &q_m);
    s.set_body_u(&model, f, &[0.3, -0.5, 0.8, 0.2, -0.1, 0.4]);
    s.set_body_u(&model, m, &[-0.7, 0.4, 0.2, -0.3, 0.6, 0.1]);
    s.set_body_q(&model, p, &[0.2]);
    s.set_body_u(&model, p, &[1.3]);
    (model, s)
}

fn realized(model: &Model, s: &State) -> Data {
    let mut d = Data::new(model);
    realize(model, s, &mut d, Stage::Acceleration).unwrap();
    d
}

/// `state` moved by `dt` along its velocity: q ± dt q̇ and, with `with_u`, u ± dt u̇. Central
/// differences of such states give first derivatives along the motion to O(dt²): the
/// second-order terms of the state cancel.
fn shifted(state: &State, data: &Data, dt: f64, with_u: bool) -> State {
    let mut s = state.clone();
    s.q += data.qdot().unwrap() * dt;
    if with_u {
        s.u += data.udot().unwrap() * dt;
    }
    s
}

#[test]
fn errors_are_time_derivatives_of_each_other_for_every_kind() {
    let (model, s) = model_with_every_kind();
    let d = realized(&model, &s);
    let dt = 1e-5;
    let (sp, sm) = (shifted(&s, &d, dt, true), shifted(&s, &d, -dt, true));
    let (dp, dm) = (realized(&model, &sp), realized(&model, &sm));
    for (i, c) in model.unilateral_contacts().iter().enumerate() {
        let id = UnilateralContactId(i);
        let perr = |s: &State, d: &Data| model.unilateral_position_error(s, d, id).unwrap();
        let verr = |s: &State, d: &Data| model.unilateral_velocity_error(s, d, id).unwrap();
        let v_fd = (perr(&sp, &dp) - perr(&sm, &dm)) / (2.0 * dt);
        let a_fd = (verr(&sp, &dp) - verr(&sm, &dm)) / (2.0 * dt);
        let (v, a) = (
            verr(&s, &d),
            model.unilateral_acceleration_error(&s, &d, id).unwrap(),
        );
        // Central differences with dt = 1e-5: truncation O(dt²) ≈ 1e-9 relative, roundoff
        // eps/dt ≈ 1e-11 of the magnitudes involved.
        assert!(
            (v - v_fd).abs() < 1e-7 * (1.0 + v.abs()),
            "{}: verr {v} vs {v_fd}",
            c.kind.name()
        );
        assert!(
            (a - a_fd).abs() < 1e-6 * (1.0 + a.abs()),
            "{}: aerr {a} vs {a_fd}",
            c.kind.name()
        );
    }
}

#[test]
fn sign_convention_friction_and_display() {
    let (model, s) = model_with_every_kind();
    let d = realized(&model, &s);
    for (i, c) in model.unilateral_contacts().iter().enumerate() {
        let id = UnilateralContactId(i);
        let expected_sign = match c.kind {
            UnilateralKind::HardStopUpper | UnilateralKind::Rope => -1.0,
            _ => 1.0,
        };
        assert_eq!(c.sign(), expected_sign, "{}", c.kind.name());
        let slip = model.unilateral_slip_velocity(&s, &d, id).unwrap();
        assert_eq!(slip.is_some(), c.has_friction(), "{}", c.kind.name());
        let perr = model.unilateral_position_error(&s, &d, id).unwrap();
        let proximal = model.is_unilateral_proximal(&s, &d, id, 1e-3).unwrap();
        if !matches!(c.kind, UnilateralKind::EdgeEdge) {
            assert_eq!(proximal, c.sign() * perr <= 1e-3, "{}", c.kind.name());
        }
        assert!(model
            .unilateral_display_point(&s, &d, id)
            .unwrap()
            .iter()
            .all(|x| x.is_finite()));
        assert_eq!(model.unilateral_multipliers(&s, id).unwrap(), [0.0; 3]);
    }
    // Hard stops: perr = q − limit exactly.
    let q = s.q[14];
    assert_eq!(
        model
            .unilateral_position_error(&s, &d, UnilateralContactId(0))
            .unwrap(),
        q - 0.5
    );
    assert_eq!(
        model
            .unilateral_position_error(&s, &d, UnilateralContactId(1))
            .unwrap(),
        q + 0.5
    );
    // COF: μs at zero slip with a zero transition speed, μd + μv·s above it.
    let pp = &model.unilateral_contacts()[4];
    assert_eq!(pp.effective_cof(0.0, 0.0), 0.6);
    assert!((pp.effective_cof(0.0, 2.0) - 0.6).abs() < 1e-15);
    assert_eq!(pp.effective_cor(0.002, 0.002, 1.0), 0.5);
    assert_eq!(pp.effective_cor(0.002, 0.002, 0.001), 0.0);
}

#[test]
fn enable_disable_report_changes() {
    let (model, mut s) = model_with_every_kind();
    let id = UnilateralContactId(5);
    assert!(
        !model.is_unilateral_enabled(&s, id),
        "contacts start disabled"
    );
    assert!(model.enable_unilateral(&mut s, id).unwrap());
    assert!(!model.enable_unilateral(&mut s, id).unwrap());
    assert!(model.is_unilateral_enabled(&s, id));
    assert!(model.disable_unilateral(&mut s, id).unwrap());
    assert!(!model.disable_unilateral(&mut s, id).unwrap());
    assert!(model
        .enable_unilateral(&mut s, UnilateralContactId(99))
        .is_err());
}

#[test]
fn plane_height_is_honoured_by_the_constraint() {
    // Simbody 3.7 drops the height from the underlying constraint (notes §9.7); here a ball
    // resting on a plane at height 0.3 comes to rest at 0.3 + r.
    let mut b = ModelBuilder::<f64>::new();
    let ball = b
        .add_body(BodyDef::new(
            "ball",
            BodyId::GROUND,
            Mobilizer::Free,
            ball_mp(),
        ))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let fr = FrictionCoefficients::new(0.5, 0.5, 0.0);
    b.add_unilateral_contact(UnilateralContact::sphere_plane(
        BodyId::GROUND,
        Vector3::y(),
        0.3,
        ball,
        Vector3::zeros(),
        0.1,
        0.0,
        fr,
    ))
    .unwrap();
    let model = b.build().unwrap();
    let mut s = model.default_state();
    s.q[5] = 0.5;
    let mut sim =
        Simulation::new(&model, s, IntegratorSettings::semi_explicit_euler(1e-3)).unwrap();
    sim.advance_to(1.0).unwrap();
    let y = sim.state().q[5];
    assert!((y - 0.4).abs() < 1e-3, "rests at {y}");
    let lambda = model
        .unilateral_multipliers(sim.state(), UnilateralContactId(0))
        .unwrap();
    // A pushing contact (sign +1) has a negative normal multiplier: −m g.
    assert!(
        (lambda[0] + 9.81).abs() < 1e-9,
        "normal multiplier {}",
        lambda[0]
    );
}

#[test]
fn bad_input_is_rejected_with_a_clear_error() {
    let mut b = ModelBuilder::<f64>::new();
    let ball = b
        .add_body(BodyDef::new(
            "ball",
            BodyId::GROUND,
            Mobilizer::Free,
            ball_mp(),
        ))
        .unwrap();
    let fr = FrictionCoefficients::new(0.5, 0.5, 0.0);
    let err = |c: UnilateralContact| {
        let mut b2 = ModelBuilder::<f64>::new();
        b2.add_body(BodyDef::new(
            "ball",
            BodyId::GROUND,
            Mobilizer::Free,
            ball_mp(),
        ))
        .unwrap();
        b2.add_unilateral_contact(c).unwrap_err().to_string()
    };
    let sp = |e: f64, f: FrictionCoefficients| {
        UnilateralContact::sphere_plane(
            BodyId::GROUND,
            Vector3::y(),
            0.0,
            ball,
            Vector3::zeros(),
            0.1,
            e,
            f,
        )
    };
    assert!(err(sp(1.5, fr)).contains("restitution"));
    assert!(err(sp(0.5, FrictionCoefficients::new(0.3, 0.5, 0.0))).contains("exceeds"));
    assert!(err(sp(0.5, FrictionCoefficients::new(-0.1, -0.1, 0.0))).contains("non-negative"));
    assert!(err(UnilateralContact::hard_stop_upper(ball, 0, 1.0, 0.5)).contains("q̇ = u"));
    assert!(err(UnilateralContact::rope(
        BodyId::GROUND,
        Vector3::zeros(),
        ball,
        Vector3::zeros(),
        -1.0,
        0.5
    ))
    .contains("length"));
    // Unilateral contacts need the rigid-contact stepper.
    b.add_unilateral_contact(sp(0.5, fr)).unwrap();
    let model = b.build().unwrap();
    let e = Simulation::new(
        &model,
        model.default_state(),
        IntegratorSettings::rk_merson(1e-3),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("semi-explicit-euler"), "{e}");
}
