//! The error-controlled integrators beyond RK-Merson (Simbody's rk2, rk3, rk-feldberg,
//! explicit-euler, semi-explicit-euler2, verlet, and the implicit TR-BDF2) on closed-form
//! problems: each converges to the exact solution as the accuracy tightens, reports land on
//! the requested times, the two that project their own states refuse bilateral constraints
//! with a clear error, and the implicit method crosses a stiff problem in few steps.
//! (The Simbody methods' agreement with OpenSim's runs is in tests/opensim_models.rs.)

use crate::common;

use ferrobody::forces::MobilityLinearSpring;
use ferrobody::prelude::*;

const KINDS: [IntegratorKind; 7] = [
    IntegratorKind::RungeKutta2,
    IntegratorKind::RungeKutta3,
    IntegratorKind::RungeKuttaFeldberg,
    IntegratorKind::ExplicitEuler,
    IntegratorKind::SemiExplicitEuler2,
    IntegratorKind::Verlet,
    IntegratorKind::Implicit,
];

/// A 1 kg mass on a slider with a 4 N/m spring from q = 0.2: q(t) = 0.2 cos 2t.
fn oscillator() -> (Model<f64>, State<f64>) {
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    let body = b
        .add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
        .unwrap();
    b.add_force(Force::MobilityLinearSpring(MobilityLinearSpring {
        body,
        coordinate: 0,
        stiffness: 4.0,
        q0: 0.0,
    }))
    .unwrap();
    let model = b.build().unwrap();
    let mut s = model.default_state();
    s.q[0] = 0.2;
    (model, s)
}

/// The largest error of q over reports every 0.1 s for 3 s.
fn max_error(kind: IntegratorKind, accuracy: f64) -> f64 {
    let (model, start) = oscillator();
    let settings = IntegratorSettings {
        kind,
        ..IntegratorSettings::rk_merson(accuracy)
    };
    let mut sim = Simulation::new(&model, start, settings).unwrap();
    let mut worst: f64 = 0.0;
    let mut rows = 0;
    sim.run(3.0, 0.1, |_, s, _| {
        rows += 1;
        worst = worst.max((s.q[0] - 0.2 * (2.0 * s.t).cos()).abs());
        Ok(())
    })
    .unwrap();
    assert_eq!(rows, 31, "{kind:?}: a report every 0.1 s");
    worst
}

#[test]
fn each_method_converges_as_the_accuracy_tightens() {
    for kind in KINDS {
        let loose = max_error(kind, 1e-3);
        let tight = max_error(kind, 1e-7);
        // Error control bounds the local error per step. The first-order methods' global
        // error is the sum of thousands of steps' local errors and shrinks only as
        // h ∝ acc^(1/2) (measured: explicit Euler 4.4e-2 -> 4.5e-4 m, semi-explicit Euler 2
        // to 6.6e-5 m); the others stay near the requested accuracy (1e-7 to 1.3e-6 m at
        // 1e-7). Every method's error must fall at least 50-fold for the 1e4-fold tighter
        // accuracy.
        let first_order = matches!(
            kind,
            IntegratorKind::ExplicitEuler | IntegratorKind::SemiExplicitEuler2
        );
        // TR-BDF2 (order 2) controls an O(h³) local error estimate with steps about 12 ms
        // here: its global error is the sum of ~260 local errors (measured 1.4e-5 m).
        let bound = if first_order {
            1e-3
        } else if kind == IntegratorKind::Implicit {
            1e-4
        } else {
            1e-5
        };
        assert!(tight < bound, "{kind:?}: error {tight:e} at accuracy 1e-7");
        assert!(tight * 50.0 < loose, "{kind:?}: {loose:e} -> {tight:e}");
    }
}

#[test]
fn methods_that_project_their_own_states_refuse_constraints() {
    let mut b = ModelBuilder::<f64>::new();
    common::add_ball_on_sphere(&mut b, BodyId::GROUND, false);
    let model = b.build().unwrap();
    let mut s = model.default_state();
    s.q[5] = 1.25;
    for kind in KINDS {
        let settings = IntegratorSettings {
            kind,
            ..IntegratorSettings::rk_merson(1e-4)
        };
        let made = Simulation::new(&model, s.clone(), settings);
        let refused = matches!(
            kind,
            IntegratorKind::SemiExplicitEuler2 | IntegratorKind::Verlet
        );
        match made {
            Ok(_) => assert!(!refused, "{kind:?} accepted a constraint"),
            Err(e) => {
                assert!(refused, "{kind:?}: {e}");
                assert!(
                    e.to_string()
                        .contains("does not enforce bilateral constraints yet"),
                    "{e}"
                );
            }
        }
    }
}

/// A 1 kg slider on a very stiff, heavily damped spring (k = 1e8 N/m, c = 2.5e4 N·s/m: both
/// roots real, −5e3 and −2e4 s⁻¹, far beyond the explicit methods' stable steps) and a
/// constant push: after the fast transient, q rests at F/k.
fn stiff_slider() -> (Model<f64>, State<f64>) {
    use ferrobody::forces::{MobilityConstantForce, MobilityLinearDamper};
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    let body = b
        .add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
        .unwrap();
    let spring = MobilityLinearSpring {
        body,
        coordinate: 0,
        stiffness: 1e8,
        q0: 0.0,
    };
    b.add_force(Force::MobilityLinearSpring(spring)).unwrap();
    let damper = MobilityLinearDamper {
        body,
        speed: 0,
        damping: 2.5e4,
    };
    b.add_force(Force::MobilityLinearDamper(damper)).unwrap();
    let push = MobilityConstantForce {
        body,
        speed: 0,
        force: 1e3,
    };
    b.add_force(Force::MobilityConstantForce(push)).unwrap();
    let model = b.build().unwrap();
    let s = model.default_state();
    (model, s)
}

#[test]
fn the_implicit_method_crosses_a_stiff_problem_in_few_steps() {
    let (model, start) = stiff_slider();
    let run = |kind| {
        let settings = IntegratorSettings {
            kind,
            ..IntegratorSettings::rk_merson(1e-6)
        };
        let mut sim = Simulation::new(&model, start.clone(), settings).unwrap();
        sim.advance_to(1.0).unwrap();
        (sim.state().q[0], sim.stats())
    };
    let (q_implicit, implicit) = run(IntegratorKind::Implicit);
    let (q_merson, merson) = run(IntegratorKind::RungeKuttaMerson);
    let (steps_implicit, steps_merson) = (implicit.steps_taken, merson.steps_taken);
    // The statistics count the implicit method's Jacobians and Newton matrices: at least one
    // of each, a matrix for every Jacobian, and none for an explicit method.
    assert!(implicit.jacobians >= 1, "{implicit:?}");
    assert!(
        implicit.newton_matrices >= implicit.jacobians,
        "{implicit:?}"
    );
    assert_eq!((merson.jacobians, merson.newton_matrices), (0, 0));
    // The rest position F/k = 1e-5 m, reached long before t = 1 s (time constants ≤ 4e-3 s).
    for q in [q_implicit, q_merson] {
        assert!((q - 1e-5).abs() < 1e-10, "q(1) = {q}");
    }
    // The explicit method's steps are bounded by stability (about 2.8/2.5e4 s) for the whole
    // second; the implicit one's grow once the transient is over.
    assert!(
        steps_implicit * 20 < steps_merson,
        "implicit {steps_implicit} steps, rk-merson {steps_merson}"
    );
}

#[test]
fn the_implicit_method_refuses_dual_numbers() {
    let (model, start) = oscillator();
    let dual = model.cast::<num_dual::Dual64>().unwrap();
    let settings = IntegratorSettings {
        kind: IntegratorKind::Implicit,
        ..IntegratorSettings::rk_merson(1e-6)
    };
    let e = Simulation::new(&dual, start.cast(), settings)
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .contains("implicit integrator runs on f64 only"),
        "{e}"
    );
}

#[test]
fn after_an_implicit_step_the_data_is_the_advanced_states() {
    // The implicit method takes the next step's start derivative from its last stage's
    // equation instead of realizing the end state; `Simulation::data` must still describe
    // the advanced state, not the last Newton iterate.
    let (model, start) = oscillator();
    let settings = IntegratorSettings {
        kind: IntegratorKind::Implicit,
        ..IntegratorSettings::rk_merson(1e-6)
    };
    let mut sim = Simulation::new(&model, start, settings).unwrap();
    for k in 1..=20 {
        sim.step(0.05 * f64::from(k)).unwrap();
        let q = sim.state().q[0];
        let udot = sim.data().unwrap().udot().unwrap()[0];
        // u̇ = −k q / m with k = 4 N/m, m = 1 kg: exact up to round-off.
        assert!(
            (udot + 4.0 * q).abs() < 1e-14,
            "t = {}: {udot} vs {}",
            sim.state().t,
            -4.0 * q
        );
    }
}
