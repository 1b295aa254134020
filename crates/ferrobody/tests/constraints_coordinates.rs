//! Coordinate constraints over time, against closed forms and equivalent models: a locked
//! joint moves as a weld, a gear coupler as one rotor of combined inertia, a nonlinear coupler
//! conserves energy, a prescribed coordinate follows its function with the inverse-dynamics
//! torque as its force, and locking mid-run holds the coordinate where it is.

use ferrobody::constraints::*;
use ferrobody::forces::MobilityConstantForce;
use ferrobody::math::function::Function;
use ferrobody::prelude::*;

fn rod(length: f64) -> MassProperties<f64> {
    let i = length * length / 12.0;
    MassProperties::new(
        1.0,
        Vector3::new(length / 2.0, 0.0, 0.0),
        Matrix3::from_diagonal(&Vector3::new(1e-3, i, i)),
    )
}

/// A double pendulum (pins about z, 1 m links) whose elbow is a pin, or a weld at `elbow`.
fn double_pendulum(elbow: f64, weld: bool) -> (ModelBuilder<f64>, BodyId, BodyId) {
    let mut b = ModelBuilder::<f64>::new();
    let upper = b
        .add_body(BodyDef::new(
            "upper",
            BodyId::GROUND,
            Mobilizer::Pin,
            rod(1.0),
        ))
        .unwrap();
    let at_tip = Transform::from_translation(Vector3::new(1.0, 0.0, 0.0));
    let lower = if weld {
        let turn = Transform::from_rotation(
            *nalgebra::Rotation3::from_axis_angle(&Vector3::z_axis(), elbow).matrix(),
        );
        b.add_body(BodyDef::new("lower", upper, Mobilizer::Weld, rod(1.0)).with_x_pf(at_tip * turn))
    } else {
        b.add_body(BodyDef::new("lower", upper, Mobilizer::Pin, rod(1.0)).with_x_pf(at_tip))
    }
    .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    (b, upper, lower)
}

fn shoulder_history(model: &Model<f64>, mut state: State<f64>) -> (Vec<f64>, Vec<State<f64>>) {
    state.q[0] = 0.3;
    let mut sim = Simulation::new(model, state, IntegratorSettings::rk_merson(1e-10)).unwrap();
    let (mut shoulder, mut states) = (Vec::new(), Vec::new());
    sim.run(2.0, 0.05, |_, s, _| {
        shoulder.push(s.q[0]);
        states.push(s.clone());
        Ok(())
    })
    .unwrap();
    (shoulder, states)
}

#[test]
fn locked_elbow_swings_as_a_welded_one() {
    let (mut b, _, lower) = double_pendulum(0.0, false);
    let lock = CoordinateLock::new(CoordinateRef::new(lower, 0), 0.7);
    b.add_constraint(Constraint::CoordinateLock(lock)).unwrap();
    let model = b.build().unwrap();
    let mut state = model.default_state();
    state.q[1] = 0.7;
    let (locked, states) = shoulder_history(&model, state);
    let (b, _, _) = double_pendulum(0.7, true);
    let welded = b.build().unwrap();
    let (reference, _) = shoulder_history(&welded, welded.default_state());
    // Both runs are accurate to 1e-10 per step; 2 s of swinging keeps them within 1e-8.
    for (a, r) in locked.iter().zip(&reference) {
        assert!((a - r).abs() < 1e-8, "{a} vs {r}");
    }
    for s in &states {
        assert!((s.q[1] - 0.7).abs() < 1e-9, "elbow moved to {}", s.q[1]);
    }
}

#[test]
fn locking_mid_run_holds_the_coordinate_where_it_is() {
    let (mut b, _, lower) = double_pendulum(0.0, false);
    let lock = CoordinateLock::new(CoordinateRef::new(lower, 0), 0.0);
    let id = b.add_constraint(Constraint::CoordinateLock(lock)).unwrap();
    b.set_constraint_disabled_by_default(id, true).unwrap();
    let model = b.build().unwrap();
    let mut state = model.default_state();
    state.q[0] = 0.3;
    let settings = IntegratorSettings::rk_merson(1e-10);
    let mut sim = Simulation::new(&model, state, settings).unwrap();
    sim.run(0.5, 0.5, |_, _, _| Ok(())).unwrap();
    let mut state = sim.state().clone();
    let held = state.q[1];
    assert!(held.abs() > 1e-3, "the free elbow should have moved");
    // The elbow still turns: locking must also stop it (the velocity error is projected).
    model.lock_coordinate(&mut state, id).unwrap();
    let mut sim = Simulation::new(&model, state, settings).unwrap();
    sim.run(1.0, 0.1, |_, s, _| {
        assert!((s.q[1] - held).abs() < 1e-9, "{} moved from {held}", s.q[1]);
        assert!(s.u[1].abs() < 1e-9);
        Ok(())
    })
    .unwrap();
    let not_a_lock = Constraint::Rod(Rod {
        body1: BodyId::GROUND,
        point1: Vector3::zeros(),
        body2: lower,
        point2: Vector3::zeros(),
        length: 1.0,
    });
    let (mut b, _, _) = double_pendulum(0.0, false);
    let rod = b.add_constraint(not_a_lock).unwrap();
    let model = b.build().unwrap();
    let err = model
        .lock_coordinate(&mut model.default_state(), rod)
        .unwrap_err();
    assert!(err.to_string().contains("not a CoordinateLock"), "{err}");
}

/// Two rotors pinned to Ground (inertias `i1`, `i2` about z), rotor 2 geared to rotor 1.
fn geared_rotors(function: Function, gravity: bool) -> (Model<f64>, State<f64>) {
    let mut b = ModelBuilder::<f64>::new();
    let rotor = |i: f64| {
        MassProperties::new(
            2.0,
            Vector3::new(0.5, 0.0, 0.0),
            Matrix3::from_diagonal(&Vector3::new(i, i, i)),
        )
    };
    let r1 = b
        .add_body(BodyDef::new(
            "r1",
            BodyId::GROUND,
            Mobilizer::Pin,
            rotor(0.3),
        ))
        .unwrap();
    let r2 = b
        .add_body(
            BodyDef::new("r2", BodyId::GROUND, Mobilizer::Pin, rotor(0.7))
                .with_x_pf(Transform::from_translation(Vector3::new(3.0, 0.0, 0.0))),
        )
        .unwrap();
    if gravity {
        b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    }
    let coupler = CoordinateCoupler {
        independent: CoordinateRef::new(r1, 0),
        dependent: CoordinateRef::new(r2, 0),
        function,
        scale: 1.0,
    };
    b.add_constraint(Constraint::CoordinateCoupler(coupler))
        .unwrap();
    if !gravity {
        b.add_force(Force::MobilityConstantForce(MobilityConstantForce {
            body: r1,
            speed: 0,
            force: 1.5,
        }))
        .unwrap();
    }
    let model = b.build().unwrap();
    let state = model.default_state();
    (model, state)
}

#[test]
fn gear_coupler_turns_as_one_rotor_of_combined_inertia() {
    // q2 = 2 q1.
    let (model, state) = geared_rotors(
        Function::Linear {
            slope: 2.0,
            intercept: 0.0,
        },
        false,
    );
    let model_state = state;
    // About the pin: I + m d² = 0.3 + 2·0.25 = 0.8 and 0.7 + 0.5 = 1.2; gear ratio 2.
    let inertia = 0.8 + 4.0 * 1.2;
    let mut sim =
        Simulation::new(&model, model_state, IntegratorSettings::rk_merson(1e-12)).unwrap();
    sim.run(1.0, 0.1, |m, s, d| {
        let expected = 0.5 * 1.5 / inertia * s.t * s.t;
        assert!(
            (s.q[0] - expected).abs() < 1e-10,
            "{} vs {expected}",
            s.q[0]
        );
        assert!((s.q[1] - 2.0 * s.q[0]).abs() < 1e-10);
        // The coupler's generalized forces: what rotor 2 needs, taken from rotor 1 geared.
        let f = m.constraint_mobility_forces(s, d, ConstraintId(0)).unwrap();
        let alpha1 = 1.5 / inertia;
        assert!((f[1] - 1.2 * 2.0 * alpha1).abs() < 1e-8, "{f:?}");
        assert!((f[0] + 2.0 * f[1]).abs() < 1e-8, "{f:?}");
        Ok(())
    })
    .unwrap();
}

#[test]
fn nonlinear_coupler_conserves_energy_and_holds() {
    use ferrobody::algorithms::kinetic_energy;
    use ferrobody::model::potential_energy;
    let sine = Function::Sine {
        amplitude: 0.8,
        omega: 1.3,
        phase: 0.2,
        offset: 0.1,
    };
    let (model, mut state) = geared_rotors(sine.clone(), true);
    state.q[0] = 0.4;
    state.u[0] = 2.0;
    let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-10)).unwrap();
    let mut e0 = None;
    sim.run(3.0, 0.05, |m, s, d| {
        let e = kinetic_energy(m, d) + potential_energy(m, s, d);
        let e0 = *e0.get_or_insert(e);
        // Accuracy 1e-10 per step over 60 reports: the energy holds to 1e-7 relative.
        assert!(((e - e0) / e0).abs() < 1e-7, "energy {e} from {e0}");
        assert!((s.q[1] - sine.value(s.q[0])).abs() < 1e-9);
        assert!((s.u[1] - sine.derivative(s.q[0]) * s.u[0]).abs() < 1e-8);
        Ok(())
    })
    .unwrap();
}

#[test]
fn prescribed_coordinate_follows_its_function_with_the_inverse_dynamics_torque() {
    let mut b = ModelBuilder::<f64>::new();
    let arm = b
        .add_body(BodyDef::new(
            "arm",
            BodyId::GROUND,
            Mobilizer::Pin,
            rod(1.0),
        ))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let motion = Function::Sine {
        amplitude: 0.5,
        omega: 2.0,
        phase: 0.0,
        offset: 0.1,
    };
    let prescribed = PrescribedCoordinate {
        coordinate: CoordinateRef::new(arm, 0),
        function: motion.clone(),
    };
    let id = b
        .add_constraint(Constraint::PrescribedCoordinate(prescribed))
        .unwrap();
    let model = b.build().unwrap();
    let mut sim = Simulation::new(
        &model,
        model.default_state(),
        IntegratorSettings::rk_merson(1e-10),
    )
    .unwrap();
    sim.run(2.0, 0.1, |m, s, d| {
        assert!((s.q[0] - motion.value(s.t)).abs() < 1e-9);
        // τ = I q̈ + m g (l/2) cos q about the pin (I = 1/3 m l² + 1e-3 about x only).
        let i = 1.0 / 12.0 + 0.25;
        let torque = i * motion.second_derivative(s.t) + 9.81 * 0.5 * s.q[0].cos();
        let f = m.constraint_mobility_forces(s, d, id).unwrap();
        assert!((f[0] - torque).abs() < 1e-6, "{} vs {torque}", f[0]);
        Ok(())
    })
    .unwrap();
}

#[test]
fn coordinate_constraints_on_missing_or_ball_coordinates_are_refused() {
    let mut b = ModelBuilder::<f64>::new();
    let ball = b
        .add_body(BodyDef::new(
            "ball",
            BodyId::GROUND,
            Mobilizer::Ball,
            rod(1.0),
        ))
        .unwrap();
    let pin = b
        .add_body(BodyDef::new(
            "pin",
            BodyId::GROUND,
            Mobilizer::Pin,
            rod(1.0),
        ))
        .unwrap();
    let lock =
        |body, k| Constraint::CoordinateLock(CoordinateLock::new(CoordinateRef::new(body, k), 0.0));
    let err = b.add_constraint(lock(ball, 0)).unwrap_err().to_string();
    assert!(
        err.contains("body 'ball'") && err.contains("q̇ = u"),
        "{err}"
    );
    let err = b.add_constraint(lock(pin, 1)).unwrap_err().to_string();
    assert!(err.contains("no coordinate number 1"), "{err}");
    let err = b
        .add_constraint(Constraint::CoordinateCoupler(CoordinateCoupler {
            independent: CoordinateRef::new(pin, 0),
            dependent: CoordinateRef::new(pin, 0),
            function: Function::Constant(0.0),
            scale: 1.0,
        }))
        .unwrap_err()
        .to_string();
    assert!(err.contains("also the independent"), "{err}");
}
