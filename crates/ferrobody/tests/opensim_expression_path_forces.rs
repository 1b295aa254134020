//! OpenSim's `ExpressionBasedPathForce` against OpenSim 4.6's own run.
use crate::common;
use crate::opensim_errors::error_of;
use crate::opensim_muscles::{simulate, worst};
use ferrobody::io::osim;

/// A pendulum lifted by an ExpressionBasedPathForce over a via point (`300*s+40*s^2+2*ldot`,
/// stretch clamped: slack phases), and a free box hung from Ground by a second
/// (`150*s*exp(-s)+0.5*ldot*abs(s)`) and tied to the arm by a third whose stretch is not
/// clamped (`60*s+0.3*ldot`, pushing while shorter than its resting length)
/// (scripts/opensim/make_muscle_references.py `expression_paths`). The runs agree to
/// round-off: 4.4e-16 at 0.01 s, 1.4e-14 up to 0.6 s, then 7.7e-13 at worst (the swing speed
/// at 0.98 s) after a jump at 0.65 s. OpenSim's own run moves by 1.04e-12 under a one-ulp
/// change of the initial swing angle, with the same jump at 0.65 s
/// (`scripts/opensim/ulp_spread.py … 1.0 /jointset/pin/swing/value`): held to twice that,
/// 2e-12 (every coordinate, speed and body origin, every 0.01 s over 1 s).
#[test]
fn expression_based_path_forces_match_opensim() {
    let theirs = common::csv_rows("testdata/opensim/muscles/mus_expression_path_forces.csv");
    let ours = simulate("muscles/mus_expression_path_forces.osim", 1.0);
    let (d, col, t) = worst(&ours, &theirs, |_| true);
    eprintln!("mus_expression_path_forces: largest difference {d:e} ({col} at t = {t})");
    assert!(d < 2e-12, "{col} differs by {d:e} at t = {t}");
}

/// Without clamping the strut pushes while short: the same model with `clamp_stretch` true
/// on it moves differently (the test above would pass for a reader that ignored the flag
/// only if the strut never got shorter than 0.9 m).
#[test]
fn clamp_stretch_changes_the_motion() {
    let text = std::fs::read_to_string(
        common::repo_root().join("testdata/opensim/muscles/mus_expression_path_forces.osim"),
    )
    .unwrap();
    let clamped = text.replace(
        "<clamp_stretch>false</clamp_stretch>",
        "<clamp_stretch>true</clamp_stretch>",
    );
    assert_ne!(clamped, text);
    let dir = std::env::temp_dir().join("ferrobody_clamp_stretch");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("clamped.osim"), clamped).unwrap();
    let theirs = common::csv_rows("testdata/opensim/muscles/mus_expression_path_forces.csv");
    let ours = crate::opensim_muscles::simulate_model(
        &osim::load(&dir.join("clamped.osim")).unwrap(),
        1.0,
    );
    let (d, _, _) = worst(&ours, &theirs, |_| true);
    assert!(
        d > 1e-3,
        "clamping the strut's stretch changed nothing: {d:e}"
    );
}

/// A bad expression or a negative resting length is a one-line error naming the element.
#[test]
fn expression_path_force_errors_name_the_element() {
    let text = std::fs::read_to_string(
        common::repo_root().join("testdata/opensim/muscles/mus_expression_path_forces.osim"),
    )
    .unwrap();
    let bad = text.replace(
        "<expression>60*s+0.3*ldot</expression>",
        "<expression>60*x+0.3*ldot</expression>",
    );
    assert_ne!(bad, text);
    let e = error_of(&bad);
    assert!(
        e.contains("/forceset/strut") && e.contains("unknown variable 'x'"),
        "{e}"
    );
    let negative = text.replace(
        "<resting_length>1.3</resting_length>",
        "<resting_length>-0.9</resting_length>",
    );
    assert_ne!(negative, text);
    let e = error_of(&negative);
    assert!(
        e.contains("/forceset/strut") && e.contains("resting_length"),
        "{e}"
    );
}
