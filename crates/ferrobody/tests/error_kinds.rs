//! One test per kind of `ferrobody::Error` (issue 42): each failure is the kind a program can
//! match on, with the place and cause it names, and one line for people (`Error::message`).

use crate::common::repo_root;
use ferrobody::io::{load_scene, parse_scene};
use ferrobody::math::MassProperties;
use ferrobody::mobilizer::Mobilizer;
use ferrobody::model::{BodyDef, ModelBuilder};
use ferrobody::{
    BodyId, Error, InertiaProblem, IntegratorSettings, ModelError, Simulation, SimulationFailure,
};
use nalgebra::{Matrix3, Vector3};
use std::error::Error as _;

fn body(name: &str, inertia: Matrix3<f64>) -> BodyDef<f64> {
    let mp = MassProperties::new(1.0, Vector3::zeros(), inertia);
    BodyDef::new(name, BodyId(0), Mobilizer::Free, mp)
}

#[test]
fn a_singular_inertia_names_its_body_and_problem() {
    let mut b = ModelBuilder::<f64>::new();
    let bad = Matrix3::from_diagonal(&Vector3::new(-1.0, 1.0, 1.0));
    match b.add_body(body("thigh", bad)) {
        Err(Error::Model(ModelError::Inertia { body, problem })) => {
            assert_eq!(body, "thigh");
            assert!(matches!(
                problem,
                InertiaProblem::NotPositiveSemiDefinite { moments } if moments[0] < 0.0
            ));
        }
        other => panic!("expected an inertia error, got {other:?}"),
    }
    // The triangle inequality is its own kind (OpenSim warns and runs such bodies).
    let rod = Matrix3::from_diagonal(&Vector3::new(0.0, 0.0, 1.0));
    let err = b.add_body(body("toes", rod)).unwrap_err();
    assert!(matches!(
        err,
        Error::Model(ModelError::Inertia {
            problem: InertiaProblem::TriangleInequality { .. },
            ..
        })
    ));
    assert!(err
        .message()
        .starts_with("model: body 'toes': principal moments"));
}

#[test]
fn a_duplicate_body_is_its_own_kind() {
    let mut b = ModelBuilder::<f64>::new();
    b.add_body(body("a", Matrix3::identity())).unwrap();
    let err = b.add_body(body("a", Matrix3::identity())).unwrap_err();
    assert!(matches!(
        &err,
        Error::Model(ModelError::Duplicate { kind: "body", name }) if name == "a"
    ));
    assert_eq!(
        err.message(),
        "model: body 'a': a body of this name already exists"
    );
}

#[test]
fn a_non_finite_parameter_is_named_with_its_value() {
    let mut model = load_scene(&repo_root().join("examples/scenes/s1_hc_ball.toml"))
        .unwrap()
        .model;
    match model.set_force_parameter("contact", "stiffness", f64::NAN) {
        Err(Error::Model(ModelError::NonFinite { what, value })) => {
            assert_eq!(what, "force 'contact'.stiffness");
            assert!(value.is_nan());
        }
        other => panic!("expected a non-finite error, got {other:?}"),
    }
}

#[test]
fn a_scene_error_has_file_line_and_column() {
    let err = parse_scene("name = \"x\"\nduration = [\n", "bad.toml", "bad")
        .err()
        .unwrap();
    let Error::Parse(p) = &err else {
        panic!("expected a parse error, got {err:?}")
    };
    assert_eq!(p.file, "bad.toml");
    assert!(p.line.is_some() && p.column.is_some(), "{p:?}");
    assert!(err.message().starts_with("bad.toml:"), "{}", err.message());
}

#[test]
fn a_scene_body_with_a_bad_inertia_is_placed_at_its_key() {
    let text = r#"
        [simulation]
        duration = 1.0
        report_interval = 0.1

        [[body]]
        name = "b"
        mobilizer = "free"
        mass = 1.0
        inertia = [-1.0, 1.0, 1.0]
    "#;
    let err = parse_scene(text, "s.toml", "s").err().unwrap();
    let message = err.message();
    assert!(matches!(err, Error::Parse(_)), "{err:?}");
    assert!(
        message.starts_with("s.toml: body[0] 'b'.inertia: inertia is not positive semi-definite"),
        "{message}"
    );
}

#[test]
fn an_osim_error_names_the_component_path() {
    let text = r#"<?xml version="1.0"?>
<OpenSimDocument Version="40000">
<Model name="m">
  <BodySet><objects>
    <Body name="b"><mass>-1</mass></Body>
  </objects></BodySet>
</Model>
</OpenSimDocument>"#;
    let err = ferrobody::io::osim::parse(text, "m.osim").err().unwrap();
    let Error::Parse(p) = &err else {
        panic!("expected a parse error, got {err:?}")
    };
    assert_eq!(p.file, "m.osim");
    assert_eq!(p.line, Some(5));
    // An unnamed BodySet is `bodyset` in paths, as OpenSim names it.
    assert_eq!(p.element.as_deref(), Some("/bodyset/b"));
}

#[test]
fn a_missing_file_keeps_the_system_error_as_source() {
    let path = std::env::temp_dir().join("ferrobody-no-such-scene.toml");
    let err = load_scene(&path).err().unwrap();
    assert!(err.is_not_found());
    let source = err.source().expect("the io::Error is the source");
    let io = source.downcast_ref::<std::io::Error>().unwrap();
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    // Display is one level; the message is the whole chain, each part once.
    assert_eq!(
        err.to_string(),
        format!("{}: cannot read the file", path.display())
    );
    assert_eq!(err.message(), format!("{err}: {io}"));
}

#[test]
fn a_bad_setting_names_its_key() {
    let settings = IntegratorSettings {
        accuracy: 2.0,
        ..IntegratorSettings::rk_merson(1e-3)
    };
    match settings.validate() {
        Err(Error::Settings(s)) => {
            assert_eq!((s.section, s.key.as_str()), ("integrator", "accuracy"));
            assert!(s.problem.starts_with("must be at most 1"), "{}", s.problem);
        }
        other => panic!("expected a settings error, got {other:?}"),
    }
}

#[test]
fn a_step_size_underflow_stops_with_time_and_kind() {
    let scene = load_scene(&repo_root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    // No accuracy can be met this tightly in f64: the step shrinks until the floor stops it.
    let settings = IntegratorSettings::rk_merson(1e-300);
    let mut sim = Simulation::new(&scene.model, scene.initial_state.clone(), settings).unwrap();
    let err = sim.advance_to(0.1).unwrap_err();
    let Error::Simulation { t, failure } = &err else {
        panic!("expected a simulation failure, got {err:?}")
    };
    assert!(t.is_finite() && *t < 0.1);
    assert!(matches!(
        failure,
        SimulationFailure::StepSizeUnderflow { h, min, .. } if h < min
    ));
    assert!(err.message().contains("step size fell below 1e-12 s"));
}

#[test]
fn a_non_finite_initial_state_is_refused_with_its_kind() {
    let scene = load_scene(&repo_root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    let mut start = scene.initial_state.clone();
    start.u[0] = f64::NAN;
    let err = Simulation::new(&scene.model, start, IntegratorSettings::rk_merson(1e-3))
        .err()
        .expect("a NaN speed is refused");
    assert!(matches!(
        err,
        Error::Simulation {
            failure: SimulationFailure::InitialState(_),
            ..
        }
    ));
    assert!(
        err.message().contains("initial state is not finite"),
        "{}",
        err.message()
    );
}

#[test]
fn an_error_met_while_simulating_is_wrapped_once() {
    let inner = Error::model("a force failed");
    let wrapped = inner.at_time(0.5);
    assert!(matches!(
        &wrapped,
        Error::Simulation {
            failure: SimulationFailure::Cause(_),
            ..
        }
    ));
    assert_eq!(
        wrapped.message(),
        "simulation failed at t = 0.5: model: a force failed"
    );
    let again = wrapped.at_time(0.7);
    assert_eq!(
        again.message(),
        "simulation failed at t = 0.5: model: a force failed"
    );
}

/// Reading a stage's results before realizing it, or after invalidating it, is an error in
/// every build (this suite runs in release builds, where `debug_assert!` is off).
#[test]
fn a_stale_stage_read_fails_in_every_build() {
    use ferrobody::prelude::{realize, Data, Stage};
    let scene = load_scene(&repo_root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    let (model, state) = (&scene.model, &scene.initial_state);
    let mut data = Data::new(model);
    match data.poses() {
        Err(Error::StageNotRealized { needed, realized }) => {
            assert_eq!((needed, realized), ("Position", "Time"));
        }
        other => panic!("expected a stage error, got {other:?}"),
    }
    realize(model, state, &mut data, Stage::Position).unwrap();
    assert!(data.poses().is_ok());
    let err = data.velocities().unwrap_err();
    assert_eq!(
        err.message(),
        "data read at stage Velocity but realized only to Position: realize it first"
    );
    realize(model, state, &mut data, Stage::Acceleration).unwrap();
    assert!(data.udot().is_ok() && data.accelerations().is_ok() && data.body_forces().is_ok());
    // Changing u makes velocities and everything after them stale; poses stay readable.
    data.invalidate(Stage::Velocity);
    assert!(data.poses().is_ok());
    assert!(matches!(
        data.udot(),
        Err(Error::StageNotRealized {
            needed: "Acceleration",
            ..
        })
    ));
    assert!(data.velocities().is_err());
}

#[test]
fn forward_dynamics_with_the_wrong_number_of_forces_is_an_error_not_a_panic() {
    use ferrobody::pipeline::forward_dynamics;
    use ferrobody::prelude::Data;
    let scene = load_scene(&repo_root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    let mut data = Data::new(&scene.model);
    let err =
        forward_dynamics(&scene.model, &scene.initial_state, &mut data, &[0.0; 2]).unwrap_err();
    assert_eq!(
        err.message(),
        "model: forward dynamics: tau has 2 entries, the model 6 generalized speeds"
    );
}
