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

/// `a · v` for a 3×3 matrix.
#[inline(always)]
pub fn mul3v<T: Real>(a: &Matrix3<T>, v: &Vector3<T>) -> Vector3<T> {
    Vector3::new(
        a[(0, 0)] * v.x + a[(0, 1)] * v.y + a[(0, 2)] * v.z,
        a[(1, 0)] * v.x + a[(1, 1)] * v.y + a[(1, 2)] * v.z,
        a[(2, 0)] * v.x + a[(2, 1)] * v.y + a[(2, 2)] * v.z,
    )
}

/// `aᵀ · v` for a 3×3 matrix, each entry a left-to-right sum down a column of `a` (SimTK's
/// `~Rotation * Vec3`).
#[inline(always)]
pub fn mul3tv<T: Real>(a: &Matrix3<T>, v: &Vector3<T>) -> Vector3<T> {
    Vector3::new(
        a[(0, 0)] * v.x + a[(1, 0)] * v.y + a[(2, 0)] * v.z,
        a[(0, 1)] * v.x + a[(1, 1)] * v.y + a[(2, 1)] * v.z,
        a[(0, 2)] * v.x + a[(1, 2)] * v.y + a[(2, 2)] * v.z,
    )
}

/// `m · v` for a 6×6 matrix.
#[inline(always)]
pub fn mul6v<T: Real>(m: &Matrix6<T>, v: &Vector6<T>) -> Vector6<T> {
    // Six scaled columns of the column-major storage: contiguous, so it vectorizes.
    let mut acc = [T::zero(); 6];
    for (col, &s) in m.as_slice().chunks_exact(6).zip(v.iter()) {
        for (a, &x) in acc.iter_mut().zip(col) {
            *a += x * s;
        }
    }
    Vector6::from(acc)
}

/// `m · [w; 0]` for a 6×6 matrix: only its first three columns are read.
#[inline(always)]
pub fn mul6x3v<T: Real>(m: &Matrix6<T>, w: &Vector3<T>) -> Vector6<T> {
    let mut acc = [T::zero(); 6];
    for (col, &s) in m.as_slice()[..18].chunks_exact(6).zip(w.iter()) {
        for (a, &x) in acc.iter_mut().zip(col) {
            *a += x * s;
        }
    }
    Vector6::from(acc)
}

/// `(m · a, m · b)` for a 6×6 matrix, reading `m` once.
#[inline(always)]
pub fn mul6v_pair<T: Real>(
    m: &Matrix6<T>,
    a: &Vector6<T>,
    b: &Vector6<T>,
) -> (Vector6<T>, Vector6<T>) {
    let mut ma = [T::zero(); 6];
    let mut mb = [T::zero(); 6];
    for ((col, &sa), &sb) in m.as_slice().chunks_exact(6).zip(a.iter()).zip(b.iter()) {
        for ((x, y), &c) in ma.iter_mut().zip(mb.iter_mut()).zip(col) {
            *x += c * sa;
            *y += c * sb;
        }
    }
    (Vector6::from(ma), Vector6::from(mb))
}

/// `r · s · rᵀ` for a symmetric `s` in Simbody's arithmetic (`Rotation::reexpressSymMat33`,
/// 57 flops, SimTKcommon/Mechanics/src/Rotation.cpp): with `s = [[a, d, e], [d, b, f],
/// [e, f, c]]` it rotates only `s − c·1` (its L = `[[a−c, d], [d, b−c], [2e, 2f]]`) and adds
/// `c` back on the diagonal, so an isotropic `s` (a sphere's inertia) comes back exactly
/// `c·1` whatever `r` — where the plain product leaves round-off off the diagonal, which a
/// spinning sphere then turns into a spurious gyroscopic torque.
#[inline(always)]
pub fn reexpress_symmetric<T: Real>(r: &Matrix3<T>, s: &Matrix3<T>) -> Matrix3<T> {
    let (a, b, c) = (s[(0, 0)], s[(1, 1)], s[(2, 2)]);
    let (d, e, f) = (s[(1, 0)], s[(2, 0)], s[(2, 1)]);
    let two = T::c(2.0);
    let l = [[a - c, d], [d, b - c], [two * e, two * f]];
    let row_dot_l =
        |i: usize, k: usize| r[(i, 0)] * l[0][k] + r[(i, 1)] * l[1][k] + r[(i, 2)] * l[2][k];
    let y = [
        [row_dot_l(1, 0), row_dot_l(1, 1)],
        [row_dot_l(2, 0), row_dot_l(2, 1)],
    ];
    let z = |row: usize, i: usize| y[row][0] * r[(i, 0)] + y[row][1] * r[(i, 1)];
    let (z10, z11, z20, z21, z22) = (z(0, 0), z(0, 1), z(1, 0), z(1, 1), z(1, 2));
    let z00 = (l[0][0] + l[1][1]) - (z11 + z22);
    let rv = [
        r[(0, 1)] * e - r[(0, 0)] * f,
        r[(1, 1)] * e - r[(1, 0)] * f,
        r[(2, 1)] * e - r[(2, 0)] * f,
    ];
    let (s00, s11, s22) = (z00 + c, z11 + c, z22 + c);
    let (s10, s20, s21) = (z10 + rv[2], z20 - rv[1], z21 + rv[0]);
    Matrix3::new(s00, s10, s20, s10, s11, s21, s20, s21, s22)
}

/// `m −= a bᵀ` for 6-vectors (a rank-one update).
#[inline(always)]
pub fn sub_outer6<T: Real>(m: &mut Matrix6<T>, a: &Vector6<T>, b: &Vector6<T>) {
    for (col, &bj) in m.as_mut_slice().chunks_exact_mut(6).zip(b.iter()) {
        for (x, &ai) in col.iter_mut().zip(a.iter()) {
            *x -= ai * bj;
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
        assert!((mul3v(&a, &v) - a * v).norm() < 1e-14);
        let sym = a + a.transpose();
        let rot = nalgebra::Rotation3::from_euler_angles(0.3, -1.1, 2.0).into_inner();
        assert!((reexpress_symmetric(&rot, &sym) - rot * sym * rot.transpose()).norm() < 1e-12);
        let sphere = Matrix3::identity() * 0.00576;
        assert_eq!(reexpress_symmetric(&rot, &sphere), sphere);
        let m = Matrix6::from_fn(|i, j| (i * 6 + j) as f64 * 0.1 - 1.0);
        let w = Vector6::new(1.0, -1.0, 0.5, 2.0, 0.0, 3.0);
        assert!((mul6v(&m, &w) - m * w).norm() < 1e-12);
        let w3 = Vector3::new(0.7, -0.2, 1.3);
        let w3_6 = Vector6::new(0.7, -0.2, 1.3, 0.0, 0.0, 0.0);
        assert!((mul6x3v(&m, &w3) - m * w3_6).norm() < 1e-12);
        let w2 = Vector6::new(0.3, 0.1, -0.5, 1.0, 2.0, -1.0);
        let (mw, mw2) = mul6v_pair(&m, &w, &w2);
        assert!((mw - m * w).norm() < 1e-12 && (mw2 - m * w2).norm() < 1e-12);
        let mut m2 = m;
        sub_outer6(&mut m2, &w, &v.push(1.0).push(2.0).push(3.0));
        assert!((m2 - (m - w * v.push(1.0).push(2.0).push(3.0).transpose())).norm() < 1e-12);
    }
}
