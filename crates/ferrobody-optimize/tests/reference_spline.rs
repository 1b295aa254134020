//! Moco's interpolation of reference data (OpenSim's `GCVSpline`, degree 5, error variance 0)
//! against OpenSim 4.6's own values.

use ferrobody_optimize::{ReferenceSpline, Table};
use std::path::Path;

fn grf_column(label: &str) -> (Vec<f64>, Vec<f64>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/optimal-control/gait2d_reference_grf.sto");
    let table = Table::read(&path).unwrap();
    let col = table.labels.iter().position(|l| l == label).unwrap();
    (
        table.time.clone(),
        table.rows.iter().map(|r| r[col]).collect(),
    )
}

/// OpenSim 4.6: `GCVSplineSet(TimeSeriesTable('gait2d_reference_grf.sto'),
/// ['ground_force_r_vy']).get(0)`, `calcValue` and `calcDerivative([0])` at these times.
/// OpenSim's spline comes from Woltring's GCVSPL with p driven to zero, ours from the exact
/// natural quintic interpolant: they agree to the solver's round-off on 1e3-N data, so 1e-7
/// relative on values and 1e-6 on slopes (a difference quotient of the same data).
#[test]
fn natural_quintic_matches_opensim_gcvspline() {
    let (time, values) = grf_column("ground_force_r_vy");
    let spline = ReferenceSpline::new(&time, &values, "ground_force_r_vy").unwrap();
    let opensim = [
        (0.0, 29.04783005, 3215.12680323),
        (0.003, 38.2107289124, 2903.39891068),
        (0.00959366, 58.17685056, 3895.54872018),
        (0.1234, 477.280145879, -2104.51547607),
        (0.3, 588.737149803, 341.293802921),
        (0.4700894, 559.982820507, -3160.70752298),
    ];
    for (t, value, slope) in opensim {
        let (v, s) = (spline.value(t), spline.slope(t));
        assert!(
            (v - value).abs() <= 1e-7 * value.abs().max(1.0),
            "t {t}: {v} vs {value}"
        );
        assert!(
            (s - slope).abs() <= 1e-6 * slope.abs().max(1.0),
            "t {t}: {s} vs {slope}"
        );
    }
}

#[test]
fn spline_needs_increasing_times() {
    let err = ReferenceSpline::new(&[0.0, 0.2, 0.1], &[1.0, 2.0, 3.0], "x").unwrap_err();
    assert!(err.to_string().contains("increase"), "{err}");
}
