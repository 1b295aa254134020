//! OpenSim's `GCVSpline` (Woltring's GCVSPL through Simbody's `SplineFitter`) against OpenSim
//! 4.6's own evaluation: splines of half-order 1 to 4 fitted by error variance 0 (interpolating,
//! the default), by positive variances and by GCV (a negative variance), each evaluated with
//! its first two derivatives at every knot, between knots and beyond both ends
//! (`scripts/opensim/make_gcv_spline_reference.py testdata/opensim/functions`).

use crate::common;
use ferrobody::math::gcv_spline::{GcvSpline, Smoothing};

/// The text between `<tag>` and `</tag>` in `block`.
fn field<'a>(block: &'a str, tag: &str) -> &'a str {
    let start = block.find(&format!("<{tag}>")).unwrap() + tag.len() + 2;
    let end = block.find(&format!("</{tag}>")).unwrap();
    &block[start..end]
}

fn numbers(text: &str) -> Vec<f64> {
    text.split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

/// The splines of the reference file, fitted as OpenSim fits them.
fn reference_splines() -> Vec<GcvSpline> {
    let path = common::repo_root().join("testdata/opensim/functions/gcv_splines.osim");
    let text = std::fs::read_to_string(path).unwrap();
    text.split("<GCVSpline ")
        .skip(1)
        .map(|block| {
            let half_order: usize = field(block, "half_order").parse().unwrap();
            let variance: f64 = field(block, "error_variance").parse().unwrap();
            let smoothing = if variance < 0.0 {
                Smoothing::Gcv
            } else {
                Smoothing::ErrorVariance(variance)
            };
            let (x, y) = (numbers(field(block, "x")), numbers(field(block, "y")));
            GcvSpline::fit(2 * half_order - 1, x, &y, smoothing).unwrap()
        })
        .collect()
}

#[test]
fn gcv_splines_match_opensim() {
    let splines = reference_splines();
    assert_eq!(splines.len(), 8);
    let mut worst = [0.0f64; 3];
    for row in common::csv_rows("testdata/opensim/functions/gcv_splines.csv") {
        let spline = &splines[row["spline"] as usize];
        let t = row["t"];
        for (order, column) in ["value", "d1", "d2"].iter().enumerate() {
            let expected = row[*column];
            let got: f64 = spline.derivative_at(order, t);
            // Bit for bit: the fit and the evaluation are GCVSPL's arithmetic operation for
            // operation (no library functions), so any difference is a porting error.
            let error = (got - expected).abs() / expected.abs().max(1.0);
            worst[order] = worst[order].max(error);
            assert!(
                got == expected,
                "spline {} {column} at {t}: {got} against OpenSim's {expected}",
                row["spline"]
            );
        }
    }
    eprintln!("worst relative differences (value, d1, d2): {worst:?}");
}
