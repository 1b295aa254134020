//! Inverses of the small symmetric positive-definite blocks of articulated-body inertia
//! (`D = Hᵀ P H`, one row per speed of a mobilizer): closed forms for 1×1 to 3×3, Cholesky above.

use crate::scalar::Real;
use nalgebra::Matrix6;

/// Inverse of the top-left n×n block of a symmetric positive-definite matrix. Returns `None`
/// when the block is not positive definite. Sizes 1 to 3 use the closed forms (the cofactors
/// over the determinant, as Simbody's `Mat::invert` does for these sizes: one division instead
/// of Cholesky's square roots and divisions, which were a tenth of a planar model's time);
/// larger blocks use Cholesky, with constant loop bounds for the Free size 6.
pub(crate) fn invert_spd<T: Real>(d: &Matrix6<T>, n: usize) -> Option<Matrix6<T>> {
    match n {
        1 => {
            let mut out = Matrix6::zeros();
            if d[(0, 0)].re() <= 0.0 {
                return None;
            }
            out[(0, 0)] = T::one() / d[(0, 0)];
            Some(out)
        }
        2 => invert_spd2(d),
        3 => invert_spd3(d),
        6 => invert_spd_n::<T, 6>(d),
        _ => invert_spd_dyn(d, n),
    }
}

/// 2×2: `[[d11, −d01], [−d10, d00]] / det`, positive definite iff `d00 > 0` and `det > 0`.
fn invert_spd2<T: Real>(d: &Matrix6<T>) -> Option<Matrix6<T>> {
    let det = d[(0, 0)] * d[(1, 1)] - d[(0, 1)] * d[(1, 0)];
    if d[(0, 0)].re() <= 0.0 || det.re() <= 0.0 {
        return None;
    }
    let ood = T::one() / det;
    let mut out = Matrix6::zeros();
    out[(0, 0)] = d[(1, 1)] * ood;
    out[(0, 1)] = -(d[(0, 1)] * ood);
    out[(1, 0)] = -(d[(1, 0)] * ood);
    out[(1, 1)] = d[(0, 0)] * ood;
    Some(out)
}

/// 3×3: the transposed cofactor matrix over the determinant (expanded along the first row);
/// positive definite iff the leading minors are positive.
fn invert_spd3<T: Real>(d: &Matrix6<T>) -> Option<Matrix6<T>> {
    let m = |i: usize, j: usize| d[(i, j)];
    let c00 = m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1);
    let c01 = m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2);
    let c02 = m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0);
    let det = m(0, 0) * c00 + m(0, 1) * c01 + m(0, 2) * c02;
    let minor2 = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
    if m(0, 0).re() <= 0.0 || minor2.re() <= 0.0 || det.re() <= 0.0 {
        return None;
    }
    let ood = T::one() / det;
    let mut out = Matrix6::zeros();
    out[(0, 0)] = c00 * ood;
    out[(1, 0)] = c01 * ood;
    out[(2, 0)] = c02 * ood;
    out[(0, 1)] = (m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2)) * ood;
    out[(1, 1)] = (m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0)) * ood;
    out[(2, 1)] = (m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1)) * ood;
    out[(0, 2)] = (m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1)) * ood;
    out[(1, 2)] = (m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2)) * ood;
    out[(2, 2)] = minor2 * ood;
    Some(out)
}

fn invert_spd_n<T: Real, const N: usize>(d: &Matrix6<T>) -> Option<Matrix6<T>> {
    invert_spd_dyn(d, N)
}

#[inline(always)]
fn invert_spd_dyn<T: Real>(d: &Matrix6<T>, n: usize) -> Option<Matrix6<T>> {
    let mut l = Matrix6::<T>::zeros();
    for j in 0..n {
        let mut s = d[(j, j)];
        for k in 0..j {
            s -= l[(j, k)] * l[(j, k)];
        }
        if s.re() <= 0.0 {
            return None;
        }
        l[(j, j)] = s.sqrt();
        for i in j + 1..n {
            let mut s = d[(i, j)];
            for k in 0..j {
                s -= l[(i, k)] * l[(j, k)];
            }
            l[(i, j)] = s / l[(j, j)];
        }
    }
    // Solve L Lᵀ X = I column by column.
    let mut out = Matrix6::zeros();
    for c in 0..n {
        let mut y = [T::zero(); 6];
        for i in 0..n {
            let mut s = if i == c { T::one() } else { T::zero() };
            for k in 0..i {
                s -= l[(i, k)] * y[k];
            }
            y[i] = s / l[(i, i)];
        }
        for i in (0..n).rev() {
            let mut s = y[i];
            for k in i + 1..n {
                s -= l[(k, i)] * out[(k, c)];
            }
            out[(i, c)] = s / l[(i, i)];
        }
    }
    Some(out)
}

#[cfg(test)]
mod invert_tests {
    use super::*;

    #[test]
    fn closed_forms_match_cholesky() {
        let a = Matrix6::<f64>::from_fn(|i, j| {
            ((i * 7 + j * 3) % 5) as f64 * 0.1 + if i == j { 2.0 } else { 0.0 }
        });
        let spd = a * a.transpose();
        for n in [2, 3] {
            let closed = invert_spd(&spd, n).unwrap();
            let cholesky = invert_spd_dyn(&spd, n).unwrap();
            assert!((closed - cholesky).norm() < 1e-13, "n = {n}");
        }
        let mut indefinite = spd;
        indefinite[(1, 1)] = -1.0;
        assert!(invert_spd(&indefinite, 2).is_none() && invert_spd(&indefinite, 3).is_none());
    }
}
