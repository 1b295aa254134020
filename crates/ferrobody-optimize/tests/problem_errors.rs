//! Bad problems give one clear error: names not in the model, infeasible bounds, bad files.

use super::moco_problems::example;
use ferrobody_optimize::{Bounds, FinalTime, OptimizeError, ProblemFile, StateBounds};
use std::path::Path;

fn problem() -> ferrobody_optimize::Problem {
    ProblemFile::load(&example("double_pendulum_swingup.toml"))
        .unwrap()
        .problem
}

#[test]
fn a_name_not_in_the_model_is_refused_with_the_known_names() {
    let mut p = problem();
    let e = p
        .set_control_bounds("/tau9", Bounds::new(-1.0, 1.0))
        .unwrap_err();
    assert!(matches!(e, OptimizeError::UnknownName { .. }));
    let msg = e.to_string();
    assert!(msg.contains("'/tau9'") && msg.contains("/tau0"), "{msg}");
}

#[test]
fn infeasible_bounds_are_refused() {
    let mut p = problem();
    let empty = p.set_control_bounds("/tau0", Bounds::new(1.0, -1.0));
    assert!(matches!(empty, Err(OptimizeError::InfeasibleBounds(_))));
    let outside = p.set_state_bounds(
        "q0",
        StateBounds {
            path: Bounds::new(-1.0, 1.0),
            initial: Some(Bounds::fixed(2.0)),
            final_: None,
        },
    );
    let msg = outside.unwrap_err().to_string();
    assert!(msg.contains("initial bounds [2, 2] lie outside"), "{msg}");
    let time = p.set_time_bounds(1.0, FinalTime::Fixed(0.5));
    assert!(matches!(time, Err(OptimizeError::InfeasibleBounds(_))));
}

#[test]
fn a_problem_file_error_names_file_and_line() {
    let text = std::fs::read_to_string(example("double_pendulum_swingup.toml")).unwrap();
    let path = example("bad.toml");
    let bad = text.replace("name = \"/tau1\"", "name = \"/tau7\"");
    let e = ProblemFile::parse(&bad, &path).unwrap_err().to_string();
    let line = bad.lines().position(|l| l.contains("/tau7")).unwrap() + 1;
    assert!(e.contains(&format!("bad.toml:{line}:")), "{e}");
    assert!(e.contains("'/tau7' is not a state or control"), "{e}");
    let typo = text.replace("mesh_intervals", "mesh_intervalz");
    let e = ProblemFile::parse(&typo, &path).unwrap_err().to_string();
    assert!(
        e.contains("bad.toml:") && e.contains("mesh_intervalz"),
        "{e}"
    );
    let e = ProblemFile::parse(&text.replace("final = 1.0", "final = [2.0, 1.0]"), &path)
        .unwrap_err()
        .to_string();
    assert!(e.contains("final time: bounds [2, 1] are empty"), "{e}");
}

/// Muscle states and excitations are the problem's states and controls, named as Moco names
/// them, bounded as Moco bounds them by default: each control by its actuator's
/// `[min_control, max_control]`, each activation by its excitation's bounds.
#[test]
fn a_muscle_driven_model_has_moco_names_and_default_bounds() {
    let gait = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim/models/gait10dof18musc.osim");
    let osim = ferrobody::io::osim::load(&gait).unwrap();
    let p = ferrobody_optimize::Problem::from_osim(&osim).unwrap();
    let model = p.model();
    assert_eq!(p.state_names().len(), model.nq() + model.nu() + model.nz());
    assert_eq!(p.control_names().len(), 18);
    assert!(p
        .control_names()
        .contains(&"/forceset/hamstrings_r".to_string()));
    let activation = p.variable("/forceset/hamstrings_r/activation").unwrap();
    let fiber = p.variable("/forceset/hamstrings_r/fiber_length").unwrap();
    assert!(matches!(activation, ferrobody_optimize::Variable::State(_)));
    assert!(matches!(fiber, ferrobody_optimize::Variable::State(_)));
    assert_eq!(
        p.variable("hamstrings_r").unwrap(),
        p.variable("/forceset/hamstrings_r").unwrap()
    );
    // Millard's min_control defaults to its minimum activation (0.01 in this file).
    let bounds = p.control_bounds_of("/forceset/hamstrings_r").unwrap();
    assert_eq!((bounds.lower, bounds.upper), (0.01, 1.0));
    let a = p
        .state_bounds_of("/forceset/hamstrings_r/activation")
        .unwrap();
    assert_eq!((a.path.lower, a.path.upper), (0.01, 1.0));
}

#[test]
fn csv_quotes_names_that_hold_commas() {
    let t = ferrobody_optimize::Trajectory {
        time: vec![0.0, 1.0],
        state_names: vec!["a,b".into()],
        control_names: vec!["c\"d".into()],
        states: vec![vec![1.0], vec![2.0]],
        controls: vec![vec![3.0], vec![4.0]],
        ..Default::default()
    };
    let dir = std::env::temp_dir().join(format!("ferrobody-optimize-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.csv");
    t.write_csv(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, "time,\"a,b\",\"c\"\"d\"\n0,1,3\n1,2,4\n");
    // And the table reader takes the .sto layout back.
    let sto = dir.join("t.sto");
    t.write_sto(&sto).unwrap();
    let table = ferrobody_optimize::Table::read(&sto).unwrap();
    assert_eq!(table.labels, ["a,b", "c\"d"]);
    assert_eq!(table.rows[1], [2.0, 4.0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Continuation stages read from a problem file set their parameters on every element that
/// has them; a parameter no element has, or an average speed that is not positive, is a
/// clear error.
#[test]
fn homotopy_stages_and_average_speed_are_read_and_checked() {
    let file = ProblemFile::load(&example("gait2d_predictive.toml")).unwrap();
    let stages = &file.settings.homotopy;
    assert_eq!(stages.len(), 3);
    assert_eq!(
        stages[0].parameters,
        [("hertz_smoothing".to_string(), 10.0)]
    );
    assert_eq!(stages[0].mesh_intervals, None);
    let soft = file
        .problem
        .with_force_parameters(&stages[0].parameters)
        .unwrap();
    let contacts: Vec<&str> = soft
        .model()
        .forces()
        .iter()
        .map(|f| f.name())
        .filter(|n| n.starts_with("contact"))
        .collect();
    assert_eq!(contacts.len(), 4, "{contacts:?}");
    for name in contacts {
        assert_eq!(
            soft.model()
                .force_parameter(name, "hertz_smoothing")
                .unwrap(),
            10.0
        );
        let given = file
            .problem
            .model()
            .force_parameter(name, "hertz_smoothing");
        assert_eq!(given.unwrap(), 300.0, "the problem itself is unchanged");
    }
    let e = file
        .problem
        .with_force_parameters(&[("stiffnes".to_string(), 1.0)])
        .unwrap_err();
    assert!(e.to_string().contains("'stiffnes'"), "{e}");
    let mut p = problem();
    let e = p.set_average_speed(-1.0).unwrap_err();
    assert!(e.to_string().contains("average_speed"), "{e}");
}
