//! Solving the small symmetric positive semi-definite systems of constraint space
//! (`G M⁻¹ Gᵀ λ = aerr`, `A Aᵀ y = e` in projections) when constraints may be redundant.
//!
//! An LDLᵀ factorization in place, without pivoting, in which a pivot `d_k ≤ tol · max_i A_ii`
//! marks row k as dependent on the earlier rows: its unknown is set to zero and its column of L
//! is zeroed. For a consistent system (redundant constraints are consistent) the result solves
//! every equation; it is the solution of the independent rows, like the rank-revealing solves
//! Simbody uses (`FactorQTZ`, notes §8 / `docs/models/constraints.md`). No allocation.

use crate::scalar::Real;
use nalgebra::DMatrix;

/// Factors the leading `m × m` block of `a` in place (L below the diagonal, D on it; a
/// skipped pivot is stored as 0). Returns the number of dependent rows found.
pub(crate) fn factor_ldlt<T: Real>(a: &mut DMatrix<T>, m: usize, tol: f64) -> usize {
    let max_diag = (0..m).map(|i| a[(i, i)].re()).fold(0.0, f64::max);
    let threshold = tol * max_diag;
    let mut dependent = 0;
    for k in 0..m {
        let mut d = a[(k, k)];
        for j in 0..k {
            d -= a[(k, j)] * a[(k, j)] * a[(j, j)];
        }
        if d.re() <= threshold || max_diag <= 0.0 {
            a[(k, k)] = T::zero();
            for i in k + 1..m {
                a[(i, k)] = T::zero();
            }
            dependent += 1;
            continue;
        }
        a[(k, k)] = d;
        for i in k + 1..m {
            let mut s = a[(i, k)];
            for j in 0..k {
                s -= a[(i, j)] * a[(k, j)] * a[(j, j)];
            }
            a[(i, k)] = s / d;
        }
    }
    dependent
}

/// Solves with a factorization from [`factor_ldlt`], overwriting `b` (length `m`) with x.
pub(crate) fn solve_ldlt<T: Real>(a: &DMatrix<T>, m: usize, b: &mut [T]) {
    for k in 0..m {
        for j in 0..k {
            let l = a[(k, j)];
            b[k] -= l * b[j];
        }
    }
    for k in 0..m {
        let d = a[(k, k)];
        b[k] = if d.re() == 0.0 { T::zero() } else { b[k] / d };
    }
    for k in (0..m).rev() {
        for i in k + 1..m {
            let l = a[(i, k)];
            b[k] -= l * b[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_positive_definite_system() {
        let a0 = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0]);
        let mut a = a0.clone();
        assert_eq!(factor_ldlt(&mut a, 3, 1e-12), 0);
        let mut x = [1.0, 2.0, 3.0];
        solve_ldlt(&a, 3, &mut x);
        let r = &a0 * nalgebra::DVector::from_column_slice(&x);
        for (ri, bi) in r.iter().zip([1.0f64, 2.0, 3.0]) {
            assert!((ri - bi).abs() < 1e-14);
        }
    }

    #[test]
    fn redundant_rows_get_zero_and_consistent_equations_still_hold() {
        // Rows 0 and 2 are the same constraint: A = J Jᵀ with J rows (1, 0), (0, 1), (1, 0).
        let j = DMatrix::from_row_slice(3, 2, &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
        let a0 = &j * j.transpose();
        let mut a = a0.clone();
        assert_eq!(factor_ldlt(&mut a, 3, 1e-12), 1);
        let mut x = [2.0, 1.0, 2.0];
        solve_ldlt(&a, 3, &mut x);
        assert_eq!(x[2], 0.0);
        let r = &a0 * nalgebra::DVector::from_column_slice(&x);
        for (ri, bi) in r.iter().zip([2.0f64, 1.0, 2.0]) {
            assert!((ri - bi).abs() < 1e-14);
        }
    }
}
