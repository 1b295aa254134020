//! GCVSPL's unit tests; the agreement with OpenSim is `tests/opensim_gcv_spline.rs`.

use super::*;
use num_dual::Dual64;

fn knots() -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..14)
        .map(|i| 0.1 * i as f64 + 0.02 * (i % 3) as f64)
        .collect();
    let y = x.iter().map(|t| (2.0 * t).sin() + 0.3 * t).collect();
    (x, y)
}

#[test]
fn zero_error_variance_interpolates() {
    let (x, y) = knots();
    for degree in [1, 3, 5, 7] {
        let s = GcvSpline::fit(degree, x.clone(), &y, Smoothing::ErrorVariance(0.0)).unwrap();
        for (xi, yi) in x.iter().zip(&y) {
            // p = 1e-15/‖W‖ leaves a residual of that relative order.
            let v: f64 = s.derivative_at(0, *xi);
            assert!(
                (v - yi).abs() < 1e-9,
                "degree {degree} at {xi}: {v} vs {yi}"
            );
        }
    }
}

#[test]
fn straight_lines_are_kept_by_every_smoothing() {
    // A line is in the penalty's null space for m ≥ 2: any p reproduces it, and beyond
    // the knots the natural spline continues it.
    let x: Vec<f64> = (0..10).map(|i| (i * i) as f64 * 0.05).collect();
    let y: Vec<f64> = x.iter().map(|t| 2.0 * t - 1.0).collect();
    for smoothing in [
        Smoothing::Parameter(0.5),
        Smoothing::Gcv,
        Smoothing::ErrorVariance(0.0),
        Smoothing::DegreesOfFreedom(2.0),
    ] {
        let s = GcvSpline::fit(3, x.clone(), &y, smoothing).unwrap();
        for t in [-1.0, 0.0, 0.7, 2.0, 4.05, 6.0] {
            let (v, d1, d2): (f64, f64, f64) = (
                s.derivative_at(0, t),
                s.derivative_at(1, t),
                s.derivative_at(2, t),
            );
            assert!(
                (v - (2.0 * t - 1.0)).abs() < 1e-9,
                "{smoothing:?} at {t}: {v}"
            );
            assert!(
                (d1 - 2.0).abs() < 1e-9 && d2.abs() < 1e-8,
                "{smoothing:?}: {d1} {d2}"
            );
        }
    }
}

#[test]
fn derivatives_are_the_dual_numbers_and_vanish_from_order_2m() {
    let (x, y) = knots();
    let s = GcvSpline::fit(5, x, &y, Smoothing::Gcv).unwrap();
    for t in [-0.2, 0.0, 0.33, 0.8, 1.35, 1.6] {
        for order in 0..5 {
            let dual = s.derivative_at(order, Dual64::new(t, 1.0));
            let next: f64 = s.derivative_at(order + 1, t);
            let scale = next.abs().max(1.0);
            assert!(
                (dual.eps - next).abs() < 1e-9 * scale,
                "order {order} at {t}"
            );
        }
        assert_eq!(s.derivative_at(6, t), 0.0);
    }
}

#[test]
fn bad_input_is_refused() {
    let (x, y) = knots();
    let fit = |degree, x: &[f64], y: &[f64], s| GcvSpline::fit(degree, x.to_vec(), y, s);
    assert!(fit(4, &x, &y, Smoothing::Gcv).is_err());
    assert!(fit(33, &x, &y, Smoothing::Gcv).is_err());
    assert!(fit(5, &x[..5], &y[..5], Smoothing::Gcv).is_err());
    assert!(fit(5, &x, &y[1..], Smoothing::Gcv).is_err());
    let mut repeated = x.clone();
    repeated[3] = repeated[2];
    assert!(fit(3, &repeated, &y, Smoothing::Gcv).is_err());
    let mut nan = y.clone();
    nan[4] = f64::NAN;
    assert!(fit(3, &x, &nan, Smoothing::Gcv).is_err());
    assert!(fit(3, &x, &y, Smoothing::ErrorVariance(-1.0)).is_err());
    assert!(fit(3, &x, &y, Smoothing::DegreesOfFreedom(100.0)).is_err());
    assert!(fit(3, &x, &y, Smoothing::Parameter(f64::INFINITY)).is_err());
}
