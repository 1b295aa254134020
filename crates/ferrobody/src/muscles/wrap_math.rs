//! OpenSim's `WrapMath` helpers, generic over the scalar (branches on the value part):
//! normalization that gives zero below machine epsilon, closest points on lines, the
//! intersection of two lines and of a segment with a plane, and `DSIGN`.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Wrap/WrapMath.{h,cpp}`, `OpenSim/Common/SimmMacros.h`.

use crate::scalar::Real;
use nalgebra::{Matrix3, Vector3};

/// OpenSim's `LINE_EPSILON`.
const LINE_EPSILON: f64 = 0.00001;
/// OpenSim's `ROUNDOFF_ERROR`.
const ROUNDOFF_ERROR: f64 = 0.0000000000002;

/// OpenSim's `EQUAL_WITHIN_ERROR`.
pub(super) fn equal_within_error(a: f64, b: f64) -> bool {
    (a - b).abs() <= ROUNDOFF_ERROR
}

/// `a·b` summed as SimTK's `~a*b` (x, then y, then z).
pub(super) fn dot<T: Real>(a: &Vector3<T>, b: &Vector3<T>) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn dsign<T: Real>(a: T) -> i8 {
    if a.re() >= 0.0 {
        1
    } else {
        -1
    }
}

/// `v/|v|`, or zero below machine epsilon; and |v|.
pub(super) fn normalize_or_zero<T: Real>(v: &Vector3<T>) -> (Vector3<T>, T) {
    let mag = v.norm();
    if mag.re() >= f64::EPSILON {
        (v * (T::one() / mag), mag)
    } else {
        (Vector3::zeros(), mag)
    }
}

/// The point of the line (through `line_pt` along `line`) closest to `pt`, and its parameter.
pub(super) fn closest_point_on_line<T: Real>(
    pt: &Vector3<T>,
    line_pt: &Vector3<T>,
    line: &Vector3<T>,
) -> (Vector3<T>, T) {
    let (v1, mag) = normalize_or_zero(&(pt - line_pt));
    let (v2, mag2) = normalize_or_zero(line);
    let t = v1.dot(&v2) * mag;
    (line_pt + v2 * t, t / mag2)
}

pub(super) fn distance_squared_to_line<T: Real>(
    pt: &Vector3<T>,
    line_pt: &Vector3<T>,
    line: &Vector3<T>,
) -> T {
    let to = line_pt - pt;
    let n = line.normalize();
    (to - n * to.dot(&n)).norm_squared()
}

/// Closest points of lines p1→p2 and p3→p4: (on the first, its parameter, on the second,
/// its parameter); parameters NaN for parallel lines.
pub(super) fn intersect_lines<T: Real>(
    p1: &Vector3<T>,
    p2: &Vector3<T>,
    p3: &Vector3<T>,
    p4: &Vector3<T>,
) -> (Vector3<T>, T, Vector3<T>, T) {
    let (vec1, mag1) = normalize_or_zero(&(p2 - p1));
    let (vec2, mag2) = normalize_or_zero(&(p4 - p3));
    let cross = vec1.cross(&vec2);
    let denom = cross.norm_squared();
    if denom.re().abs() <= ROUNDOFF_ERROR {
        let nan = T::c(f64::NAN);
        return (Vector3::zeros(), nan, Vector3::zeros(), nan);
    }
    let d = p3 - p1;
    let mut mat = Matrix3::from_rows(&[d.transpose(), vec1.transpose(), cross.transpose()]);
    let t = mat.determinant() / denom;
    let p_int2 = p3 + vec2 * t;
    mat.set_row(1, &vec2.transpose());
    let s = mat.determinant() / denom;
    let p_int1 = p1 + vec1 * s;
    (p_int1, s / mag1, p_int2, t / mag2)
}

/// Where segment pt1→pt2 meets the plane `n·x + d = 0`, if it does.
pub(super) fn intersect_segment_plane<T: Real>(
    pt1: &Vector3<T>,
    pt2: &Vector3<T>,
    n: &Vector3<T>,
    d: T,
) -> Option<Vector3<T>> {
    let vec = pt2 - pt1;
    let dot = vec.dot(n);
    if dot.re().abs() < LINE_EPSILON {
        return None;
    }
    let t = (-d - n[0] * pt1[0] - n[1] * pt1[1] - n[2] * pt1[2]) / dot;
    if t.re() < -LINE_EPSILON || t.re() > 1.0 + LINE_EPSILON {
        return None;
    }
    Some(pt1 + vec * t)
}
