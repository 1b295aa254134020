//! The inverse of the implicit integrator's Newton matrix `I − d h J`, formed once per
//! factorization and applied as a matrix–vector product in every Newton iteration.
//!
//! The matrices are small (the state size: 13 for one free body, a few dozen for a leg) and
//! are applied tens of thousands of times per run but formed only when h or J changes (about
//! one attempt in three on the stiff block). Triangular solves of that size are chains of
//! dependent multiply–adds; the product with the explicit inverse is n independent dot
//! products, about four times faster on the block (`docs/integrators.md`). The inverse comes
//! from in-place Gauss–Jordan elimination with partial pivoting (Press et al., *Numerical
//! Recipes*, 3rd ed., §2.1; Golub & Van Loan, *Matrix Computations*, 4th ed., §3.4): n³
//! multiply–adds over contiguous rows, against n³/3 for LU, paid back after three solves.

use nalgebra::DMatrix;

/// `(I − dh J)⁻¹` of one `n × n` Jacobian, row-major.
pub struct NewtonMatrix {
    n: usize,
    inverse: Vec<f64>,
    /// The row swapped into place at elimination step `k`.
    swaps: Vec<usize>,
    /// The product's result before it is copied back.
    product: Vec<f64>,
}

impl NewtonMatrix {
    /// Space for an `n × n` matrix.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            inverse: vec![0.0; n * n],
            swaps: vec![0; n],
            product: vec![0.0; n],
        }
    }

    /// Forms `(I − dh J)⁻¹`; false if the matrix is singular to working precision (a zero or
    /// non-finite pivot; the inverse is then unusable).
    pub fn invert_shifted(&mut self, jacobian: &DMatrix<f64>, dh: f64) -> bool {
        let n = self.n;
        for i in 0..n {
            for j in 0..n {
                self.inverse[i * n + j] = -dh * jacobian[(i, j)];
            }
            self.inverse[i * n + i] += 1.0;
        }
        self.invert_in_place()
    }

    /// Gauss–Jordan: eliminate column k from every other row after scaling the pivot row;
    /// the identity's columns are built in the eliminated columns' places, and the row swaps
    /// are undone as column swaps at the end, in reverse.
    fn invert_in_place(&mut self) -> bool {
        let n = self.n;
        let a = &mut self.inverse;
        for k in 0..n {
            let p = (k..n)
                .max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))
                .unwrap_or(k);
            self.swaps[k] = p;
            let pivot = a[p * n + k];
            if pivot == 0.0 || !pivot.is_finite() {
                return false;
            }
            if p != k {
                for j in 0..n {
                    a.swap(k * n + j, p * n + j);
                }
            }
            let pivot_inverse = 1.0 / pivot;
            a[k * n + k] = 1.0;
            for x in &mut a[k * n..(k + 1) * n] {
                *x *= pivot_inverse;
            }
            let (before, rest) = a.split_at_mut(k * n);
            let (pivot_row, after) = rest.split_at_mut(n);
            for row in before.chunks_exact_mut(n).chain(after.chunks_exact_mut(n)) {
                let factor = row[k];
                if factor != 0.0 {
                    row[k] = 0.0;
                    for (x, r) in row.iter_mut().zip(pivot_row.iter()) {
                        *x -= factor * r;
                    }
                }
            }
        }
        for k in (0..n).rev() {
            let p = self.swaps[k];
            if p != k {
                for row in a.chunks_exact_mut(n) {
                    row.swap(k, p);
                }
            }
        }
        a.iter().all(|x| x.is_finite())
    }

    /// `b ← (I − dh J)⁻¹ b` with the inverse of the last successful
    /// [`NewtonMatrix::invert_shifted`].
    pub fn solve(&mut self, b: &mut [f64]) {
        let n = self.n;
        let b = &mut b[..n];
        for (y, row) in self.product.iter_mut().zip(self.inverse.chunks_exact(n)) {
            let mut sum = 0.0;
            for j in 0..n {
                sum += row[j] * b[j];
            }
            *y = sum;
        }
        b.copy_from_slice(&self.product);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(I − dh J) x` for checking a solve.
    fn shifted_times(jacobian: &DMatrix<f64>, dh: f64, x: &[f64]) -> Vec<f64> {
        let n = x.len();
        (0..n)
            .map(|i| x[i] - dh * (0..n).map(|j| jacobian[(i, j)] * x[j]).sum::<f64>())
            .collect()
    }

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        // I − J with J chosen so that the first pivot of I − J is zero.
        let j = DMatrix::from_row_slice(3, 3, &[1.0, -2.0, -1.0, -1.0, 0.0, 0.0, -3.0, 0.0, 0.0]);
        let x = [1.0, -2.0, 0.5];
        let mut b = shifted_times(&j, 1.0, &x);
        let mut m = NewtonMatrix::new(3);
        assert!(m.invert_shifted(&j, 1.0));
        m.solve(&mut b);
        for k in 0..3 {
            assert!((b[k] - x[k]).abs() < 1e-15, "{b:?}");
        }
    }

    #[test]
    fn solves_random_systems_to_round_off() {
        // Sizes around the state sizes of the scenes (13 for one free body, 26 for two).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [1, 2, 5, 8, 13, 26] {
            for dh in [1e-4, 0.01, 1.0] {
                let j = DMatrix::from_fn(n, n, |_, _| 50.0 * next());
                let x: Vec<f64> = (0..n).map(|_| next()).collect();
                let mut b = shifted_times(&j, dh, &x);
                let mut m = NewtonMatrix::new(n);
                assert!(m.invert_shifted(&j, dh));
                m.solve(&mut b);
                // Relative to the largest entry: cond(I − dh J) of these draws stays below
                // about 1e4, so 1e-10 is round-off with room, and a wrong swap is off by O(1).
                let scale = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                for k in 0..n {
                    assert!(
                        (b[k] - x[k]).abs() < 1e-10 * scale,
                        "n = {n}, dh = {dh}: {} vs {}",
                        b[k],
                        x[k]
                    );
                }
            }
        }
    }

    #[test]
    fn a_singular_matrix_is_refused() {
        // I − J = [[1, 2], [2, 4]].
        let j = DMatrix::from_row_slice(2, 2, &[0.0, -2.0, -2.0, -3.0]);
        assert!(!NewtonMatrix::new(2).invert_shifted(&j, 1.0));
    }
}
