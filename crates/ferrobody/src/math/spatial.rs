//! Spatial (6-D) vectors and their shifts between points.
//!
//! A spatial vector is a `Vector6` with the angular part first: a velocity `[w; v]`, an
//! acceleration `[α; a]` (classical: `a` is the acceleration of a point, not Featherstone's
//! spatial acceleration), a force `[m; f]` (moment about a point, then force). All of them here
//! are expressed in Ground.
//!
//! Shifting a force from point B to point P (r = p_P − p_B... see each function) and shifting a
//! rigid motion from P to B are adjoint: `Φ = [[I, [r]×], [0, I]]` for forces and `Φᵀ` for motions
//! (Jain, *Robot and Multibody Dynamics*, Springer 2011, ch. 2).

use crate::scalar::Real;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

/// A spatial vector: angular part (rows 0..3) then linear part (rows 3..6).
pub type SpatialVec<T> = Vector6<T>;

/// Builds a spatial vector from its angular and linear parts.
#[inline(always)]
pub fn spatial<T: Real>(w: Vector3<T>, v: Vector3<T>) -> SpatialVec<T> {
    Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z)
}

/// The angular (moment) part of a spatial vector.
#[inline(always)]
pub fn angular<T: Real>(s: &SpatialVec<T>) -> Vector3<T> {
    Vector3::new(s[0], s[1], s[2])
}

/// The linear (force) part of a spatial vector.
#[inline(always)]
pub fn linear<T: Real>(s: &SpatialVec<T>) -> Vector3<T> {
    Vector3::new(s[3], s[4], s[5])
}

/// Moves a force `[m; f]` acting at a point B to an equivalent one at point P, where
/// `p_pb = p_B − p_P`: `m_P = m_B + p_pb × f`.
#[inline(always)]
pub fn shift_force<T: Real>(f_b: &SpatialVec<T>, p_pb: &Vector3<T>) -> SpatialVec<T> {
    let f = linear(f_b);
    spatial(angular(f_b) + p_pb.cross(&f), f)
}

/// Moves a rigid-body velocity or (velocity-independent part of an) acceleration from point P
/// to point B of the same body, where `p_pb = p_B − p_P`: `v_B = v_P + w × p_pb`.
#[inline(always)]
pub fn shift_motion<T: Real>(v_p: &SpatialVec<T>, p_pb: &Vector3<T>) -> SpatialVec<T> {
    let w = angular(v_p);
    spatial(w, linear(v_p) + w.cross(p_pb))
}

/// The cross-product matrix `[r]×`, with `[r]× x = r × x`.
#[inline(always)]
pub fn cross_matrix<T: Real>(r: &Vector3<T>) -> Matrix3<T> {
    r.cross_matrix()
}

/// Shifts a symmetric 6×6 (articulated or composite) inertia about point B to point P and adds
/// it to `target`: `target += Φ P Φᵀ` with `Φ = [[I, [r]×], [0, I]]` and `r = p_pb = p_B − p_P`.
///
/// With `P = [[A, B], [Bᵀ, D]]` (A, D symmetric) and `R = [r]×` (so `Rᵀ = −R`):
/// `B' = B + R D`, `A' = A + R Bᵀ − B' R`, `D' = D`. Every product with R is a cross product:
/// column j of `R X` is `r × x_j`, and row i of `X R` is `−(r × row_i(X))ᵀ`. Nine cross
/// products, no 6×6 product.
#[inline]
pub fn add_shifted_inertia<T: Real>(target: &mut Matrix6<T>, p: &Matrix6<T>, r_pb: &Vector3<T>) {
    // Column-major storage: entry (i, j) is at 6 j + i.
    let (s, t) = (p.as_slice(), target.as_mut_slice());
    let r = r_pb;
    let v = |a: usize, b: usize, c: usize| Vector3::new(s[a], s[b], s[c]);
    // Columns of B' = B + R D (B: rows 0..3 of columns 3..6; D: rows 3..6 of columns 3..6).
    let b0 = v(18, 19, 20) + r.cross(&v(21, 22, 23));
    let b1 = v(24, 25, 26) + r.cross(&v(27, 28, 29));
    let b2 = v(30, 31, 32) + r.cross(&v(33, 34, 35));
    // Columns of R Bᵀ: r × (row j of B).
    let rbt0 = r.cross(&v(18, 24, 30));
    let rbt1 = r.cross(&v(19, 25, 31));
    let rbt2 = r.cross(&v(20, 26, 32));
    // Rows of B' R: −(r × row i of B').
    let bnr0 = -r.cross(&Vector3::new(b0.x, b1.x, b2.x));
    let bnr1 = -r.cross(&Vector3::new(b0.y, b1.y, b2.y));
    let bnr2 = -r.cross(&Vector3::new(b0.z, b1.z, b2.z));
    let (b_new, rbt, bnr) = ([b0, b1, b2], [rbt0, rbt1, rbt2], [bnr0, bnr1, bnr2]);
    // Whole columns are formed first and then added: `target` is read right after this by
    // the parent's products, column-wise, and entry-by-entry stores there would stall them.
    let mut shifted = [[T::zero(); 6]; 6];
    for j in 0..3 {
        for i in 0..3 {
            shifted[j][i] = s[6 * j + i] + rbt[j][i] - bnr[i][j];
            shifted[j][3 + i] = b_new[i][j];
            shifted[3 + j][i] = b_new[j][i];
            shifted[3 + j][3 + i] = s[6 * (3 + j) + 3 + i];
        }
    }
    for (t_col, col) in t.chunks_exact_mut(6).zip(&shifted) {
        for (x, &y) in t_col.iter_mut().zip(col) {
            *x += y;
        }
    }
}

/// `Φ P Φᵀ` for a symmetric inertia P (see [`add_shifted_inertia`]).
pub fn shift_inertia<T: Real>(p: &Matrix6<T>, p_pb: &Vector3<T>) -> Matrix6<T> {
    let mut out = Matrix6::zeros();
    add_shifted_inertia(&mut out, p, p_pb);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_inertia_matches_dense_product() {
        let p =
            Matrix6::from_fn(|i, j| ((i * 7 + j * 3) % 5) as f64 + if i == j { 10.0 } else { 0.0 });
        let p = p + p.transpose();
        let r = Vector3::new(0.3, -1.2, 0.7);
        let mut phi = Matrix6::identity();
        phi.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&r.cross_matrix());
        let dense = phi * p * phi.transpose();
        assert!((shift_inertia(&p, &r) - dense).norm() < 1e-12);
    }

    #[test]
    fn force_and_motion_shifts_are_adjoint() {
        // Power is independent of the point: f_P · v_P = f_B · v_B.
        let f_b = Vector6::<f64>::new(0.1, 0.2, -0.3, 1.0, -2.0, 0.5);
        let v_p = Vector6::new(0.4, -0.1, 0.2, 0.3, 0.8, -1.1);
        let p_pb = Vector3::new(0.5, 0.25, -0.75);
        let power_p = shift_force(&f_b, &p_pb).dot(&v_p);
        let power_b = f_b.dot(&shift_motion(&v_p, &p_pb));
        assert!((power_p - power_b).abs() < 1e-14);
    }
}
