//! Unrolled products of small fixed-size matrices. nalgebra's generic products are not inlined
//! for every scalar type; these are, and they are what the per-body loops use.

use crate::scalar::Real;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

/// `a · b` for 3×3 matrices.
#[inline(always)]
pub fn mul3<T: Real>(a: &Matrix3<T>, b: &Matrix3<T>) -> Matrix3<T> {
    let e =
        |i: usize, j: usize| a[(i, 0)] * b[(0, j)] + a[(i, 1)] * b[(1, j)] + a[(i, 2)] * b[(2, j)];
    Matrix3::new(
        e(0, 0),
        e(0, 1),
        e(0, 2),
        e(1, 0),
        e(1, 1),
        e(1, 2),
        e(2, 0),
        e(2, 1),
        e(2, 2),
    )
}

/// `a · bᵀ` for 3×3 matrices.
#[inline(always)]
pub fn mul3_bt<T: Real>(a: &Matrix3<T>, b: &Matrix3<T>) -> Matrix3<T> {
    let e =
        |i: usize, j: usize| a[(i, 0)] * b[(j, 0)] + a[(i, 1)] * b[(j, 1)] + a[(i, 2)] * b[(j, 2)];
    Matrix3::new(
        e(0, 0),
        e(0, 1),
        e(0, 2),
        e(1, 0),
        e(1, 1),
        e(1, 2),
        e(2, 0),
        e(2, 1),
        e(2, 2),
    )
}

/// `a · v` for a 3×3 matrix.
#[inline(always)]
pub fn mul3v<T: Real>(a: &Matrix3<T>, v: &Vector3<T>) -> Vector3<T> {
    Vector3::new(
        a[(0, 0)] * v.x + a[(0, 1)] * v.y + a[(0, 2)] * v.z,
        a[(1, 0)] * v.x + a[(1, 1)] * v.y + a[(1, 2)] * v.z,
        a[(2, 0)] * v.x + a[(2, 1)] * v.y + a[(2, 2)] * v.z,
    )
}

/// `m · v` for a 6×6 matrix.
#[inline(always)]
pub fn mul6v<T: Real>(m: &Matrix6<T>, v: &Vector6<T>) -> Vector6<T> {
    // Six scaled columns (column-major storage), which vectorizes without shuffles.
    let col = |j: usize| {
        let s = v[j];
        [
            m[(0, j)] * s,
            m[(1, j)] * s,
            m[(2, j)] * s,
            m[(3, j)] * s,
            m[(4, j)] * s,
            m[(5, j)] * s,
        ]
    };
    let mut acc = col(0);
    for j in 1..6 {
        let c = col(j);
        for i in 0..6 {
            acc[i] += c[i];
        }
    }
    Vector6::new(acc[0], acc[1], acc[2], acc[3], acc[4], acc[5])
}

/// `m −= a bᵀ` for 6-vectors (a rank-one update).
#[inline(always)]
pub fn sub_outer6<T: Real>(m: &mut Matrix6<T>, a: &Vector6<T>, b: &Vector6<T>) {
    for j in 0..6 {
        for i in 0..6 {
            m[(i, j)] -= a[i] * b[j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_nalgebra() {
        let a = Matrix3::new(1.0, 2.0, 3.0, -1.0, 0.5, 2.0, 0.0, 4.0, -2.0);
        let b = Matrix3::new(0.3, -2.0, 1.0, 1.0, 1.5, -2.0, 2.0, 0.0, 1.0);
        let v = Vector3::new(0.1, 0.2, -0.3);
        assert!((mul3(&a, &b) - a * b).norm() < 1e-14);
        assert!((mul3_bt(&a, &b) - a * b.transpose()).norm() < 1e-14);
        assert!((mul3v(&a, &v) - a * v).norm() < 1e-14);
        let m = Matrix6::from_fn(|i, j| (i * 6 + j) as f64 * 0.1 - 1.0);
        let w = Vector6::new(1.0, -1.0, 0.5, 2.0, 0.0, 3.0);
        assert!((mul6v(&m, &w) - m * w).norm() < 1e-12);
        let mut m2 = m;
        sub_outer6(&mut m2, &w, &v.push(1.0).push(2.0).push(3.0));
        assert!((m2 - (m - w * v.push(1.0).push(2.0).push(3.0).transpose())).norm() < 1e-12);
    }
}
