//! OpenSim's expressions evaluated with Lepton's rounding (its optimizer's rewrites), against
//! OpenSim 4.6's own run.
use crate::common;
use crate::opensim_muscles::{simulate, worst};

/// A pendulum held by an ExpressionBasedCoordinateForce whose terms Lepton's optimizer
/// rewrites with another rounding: divisions by constants (`q/3`, `(4*q)/7`,
/// `qdot/(1/0.3)/9`), merged constant factors (`2*(3*qdot)/7`, `-(5*(0.1*q))`), a reciprocal
/// multiplied in and divided by, and constant powers (`^0.5`, `^-2`, `^2.5`)
/// (scripts/opensim/make_muscle_references.py `lepton_optimizer`). Evaluated as Lepton
/// evaluates the optimized expression, the run is OpenSim's bit for bit, every row and
/// column; evaluated as written, it was not.
#[test]
fn lepton_optimized_expressions_match_opensim_bit_for_bit() {
    let theirs = common::csv_rows("testdata/opensim/muscles/mus_pendulum_lepton_optimizer.csv");
    let ours = simulate("muscles/mus_pendulum_lepton_optimizer.osim", 1.0);
    let (d, col, t) = worst(&ours, &theirs, |_| true);
    assert!(d == 0.0, "{col} differs by {d:e} at t = {t}");
}
