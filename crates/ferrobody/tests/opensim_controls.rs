//! Muscles and OpenSim actuators without a controller take their excitation from the model's
//! control vector (issue 37, item 4 and item 7; the optimal-control issue 40 sets them): the
//! controls are named after the actuators, start at zero (OpenSim's excitation without a
//! controller), change the motion when set, and ∂ẏ/∂c through activation dynamics, muscle
//! forces, path actuators and point, torque and activation-coordinate actuators is exact
//! (dual numbers) — it agrees with central differences.

use crate::common;
use ferrobody::derivatives::{ForwardDynamicsJacobian, StateDerivativeJacobian};
use ferrobody::io::osim::{self, OsimModel};
use ferrobody::prelude::*;
use ferrobody::{pipeline, Model};

fn load(relative: &str) -> OsimModel {
    osim::load(&common::repo_root().join("testdata/opensim").join(relative)).unwrap()
}

/// A model of testdata/opensim/muscles with its `ControllerSet` removed: every actuator is
/// then on the control vector.
fn without_controllers(name: &str) -> OsimModel {
    let file = common::repo_root()
        .join("testdata/opensim/muscles")
        .join(name);
    let text = std::fs::read_to_string(&file).unwrap();
    let (start, end) = (
        text.find("<ControllerSet").unwrap(),
        text.find("</ControllerSet>").unwrap() + "</ControllerSet>".len(),
    );
    let edited = format!("{}{}", &text[..start], &text[end..]);
    osim::parse(&edited, name).unwrap()
}

fn ydot(model: &Model<f64>, state: &State<f64>) -> Vec<f64> {
    let mut out = vec![0.0; model.nq() + model.nu() + model.nz()];
    let mut data = Data::new(model);
    pipeline::state_derivative(model, state, &mut data, &mut out).unwrap();
    out
}

/// Checks `exact` (ny × nctrl) against central differences of ẏ in each control.
fn check_against_central_differences(
    model: &Model<f64>,
    state: &State<f64>,
    exact: &ferrobody::nalgebra::DMatrix<f64>,
) {
    let controls = model.controls(state).to_vec();
    for k in 0..model.nctrl() {
        let h = 1e-6;
        let shifted = |dc: f64| {
            let mut s = state.clone();
            let mut c = controls.clone();
            c[k] += dc;
            model.set_controls(&mut s, &c).unwrap();
            ydot(model, &s)
        };
        let (plus, minus) = (shifted(h), shifted(-h));
        for i in 0..plus.len() {
            let fd = (plus[i] - minus[i]) / (2.0 * h);
            // ẏ is smooth in c away from the excitation clamps (controls kept inside
            // [min_control, max_control]); h = 1e-6 on entries up to ~1e3: truncation h²f'''
            // and cancellation 1e-16·|f|/h stay below 1e-6 relative.
            let tolerance = 1e-6 * (1.0 + exact[(i, k)].abs());
            assert!(
                (fd - exact[(i, k)]).abs() < tolerance,
                "∂ẏ{i}/∂c{k}: exact {} vs central difference {fd}",
                exact[(i, k)]
            );
        }
    }
}

#[test]
fn arm26_muscles_are_on_the_control_vector_by_name_and_path() {
    let m = load("models/arm26.osim");
    let names = m.model.control_names();
    assert_eq!(
        names,
        ["TRIlong", "TRIlat", "TRImed", "BIClong", "BICshort", "BRA"]
    );
    assert_eq!(m.control_paths[0], "/forceset/TRIlong");
    assert_eq!(m.model.control_index("BRA"), Some(5));
    // Zero until set: the default state is OpenSim's run without a controller.
    assert!(m.model.controls(&m.default_state).iter().all(|&c| c == 0.0));
}

#[test]
fn setting_a_muscle_control_excites_it() {
    let m = load("models/arm26.osim");
    let model = &m.model;
    let mut s = m.default_state.clone();
    let activation = |state: &State<f64>| {
        let mut sim =
            Simulation::new(model, state.clone(), IntegratorSettings::rk_merson(1e-6)).unwrap();
        sim.advance_to(0.05).unwrap();
        sim.state().z[0]
    };
    let passive = activation(&s);
    let mut c = vec![0.0; model.nctrl()];
    c[0] = 1.0;
    model.set_controls(&mut s, &c).unwrap();
    let excited = activation(&s);
    // TRIlong's activation (its first state) rises toward 1 within its 10 ms activation time
    // constant; unexcited it decays toward the minimum activation.
    assert!(excited > 0.9 && passive < 0.1, "{excited} vs {passive}");
}

#[test]
fn state_jacobian_in_muscle_excitations_matches_central_differences() {
    let m = load("models/arm26.osim");
    let model = &m.model;
    let mut jac = StateDerivativeJacobian::new(model)
        .unwrap()
        .with_control_columns();
    let mut s = m.default_state.clone();
    s.u[0] = 0.4;
    s.u[1] = -0.7;
    let controls: Vec<f64> = (0..model.nctrl()).map(|k| 0.2 + 0.1 * k as f64).collect();
    model.set_controls(&mut s, &controls).unwrap();
    jac.compute(&s).unwrap();
    // An excitation moves its own activation rate (Thelen's first-order dynamics) and nothing
    // else directly.
    let activation_row = model.nq() + model.nu();
    assert!(jac.control_jacobian[(activation_row, 0)] > 1.0);
    check_against_central_differences(model, &s, &jac.control_jacobian);
}

#[test]
fn actuator_and_path_actuator_controls_have_exact_derivatives() {
    for name in ["mus_actuators.osim", "mus_path_forces.osim"] {
        let m = without_controllers(name);
        let model = &m.model;
        assert!(model.nctrl() > 0, "{name}: {:?}", model.control_names());
        let mut s = m.default_state.clone();
        let controls: Vec<f64> = (0..model.nctrl()).map(|k| 0.3 + 0.2 * k as f64).collect();
        model.set_controls(&mut s, &controls).unwrap();
        let mut jac = StateDerivativeJacobian::new(model)
            .unwrap()
            .with_control_columns();
        jac.compute(&s).unwrap();
        assert!(
            jac.control_jacobian.iter().any(|x| x.abs() > 1e-3),
            "{name}: the controls move the model"
        );
        check_against_central_differences(model, &s, &jac.control_jacobian);
        // The forward-dynamics Jacobian's u̇ rows agree (u̇ reads the controls directly or
        // not at all: the activation-coordinate actuator's acts through its state).
        let mut forward = ForwardDynamicsJacobian::new(model).unwrap();
        forward.compute(&s, &vec![0.0; model.nu()]).unwrap();
        let nq = model.nq();
        for k in 0..model.nctrl() {
            for r in 0..model.nu() {
                let (a, b) = (
                    forward.dudot_dctrl[(r, k)],
                    jac.control_jacobian[(nq + r, k)],
                );
                assert!(
                    (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                    "{name}: {a} vs {b}"
                );
            }
        }
    }
}
