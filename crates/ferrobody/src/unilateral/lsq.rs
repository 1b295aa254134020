//! Least-squares solution of small, possibly rank-deficient linear systems by Householder QR
//! with column pivoting (Businger & Golub 1965; Golub & Van Loan, *Matrix Computations*, 4th ed.,
//! §5.4.2). The impulse solvers meet singular matrices whenever contacts are redundant (four
//! corners of a block on a floor give four normal rows of rank three); Simbody's `FactorQTZ`
//! solves them in the least-squares sense, and so does this, returning the basic solution
//! (unknowns of negligible pivots set to zero). Columns whose pivot is below
//! `m·eps^¾·|R₀₀|` are dropped. Buffers are sized once; nothing is allocated per solve.

use crate::scalar::Real;
use nalgebra::DMatrix;

/// `eps^(3/4)`, the relative rank tolerance per equation (as for `G M⁻¹ Gᵀ`).
const EPS_34: f64 = 1.818_989_403_545_856_5e-12;

/// Workspace of [`LeastSquares::solve`].
#[derive(Clone, Debug)]
pub struct LeastSquares<T: Real> {
    a: DMatrix<T>,
    b: Vec<T>,
    perm: Vec<usize>,
    col_norms: Vec<f64>,
}

impl<T: Real> LeastSquares<T> {
    /// A workspace for systems of at most `n` rows and `n` columns.
    pub fn new(n: usize) -> Self {
        Self {
            a: DMatrix::zeros(n, n),
            b: vec![T::zero(); n],
            perm: vec![0; n],
            col_norms: vec![0.0; n],
        }
    }

    /// Capacity (rows and columns).
    pub fn capacity(&self) -> usize {
        self.b.len()
    }

    /// Mutable access to the matrix to fill (only the leading `rows × cols` block is used).
    pub fn matrix_mut(&mut self) -> &mut DMatrix<T> {
        &mut self.a
    }

    /// Solves `min ‖A x − b‖` for the leading `n × n` block of the matrix filled through
    /// [`Self::matrix_mut`] (destroyed) and right-hand side `rhs`; writes `x` (length `n`) and
    /// returns the numerical rank.
    pub fn solve(&mut self, n: usize, rhs: &[T], x: &mut [T]) -> usize {
        self.b[..n].copy_from_slice(&rhs[..n]);
        for (j, p) in self.perm[..n].iter_mut().enumerate() {
            *p = j;
        }
        let rank = self.factor_and_reduce(n);
        for xi in x[..n].iter_mut() {
            *xi = T::zero();
        }
        for i in (0..rank).rev() {
            let mut s = self.b[i];
            for j in i + 1..rank {
                s -= self.a[(i, j)] * x[self.perm[j]];
            }
            x[self.perm[i]] = s / self.a[(i, i)];
        }
        rank
    }

    /// QR with column pivoting of the leading block, applying the reflections to `b`.
    fn factor_and_reduce(&mut self, n: usize) -> usize {
        let tol_rel = n as f64 * EPS_34;
        let mut r00 = 0.0;
        for k in 0..n {
            for j in k..n {
                self.col_norms[j] = (k..n).map(|i| sq(self.a[(i, j)].re())).sum();
            }
            let (jmax, nmax) = (k..n)
                .map(|j| (j, self.col_norms[j]))
                .fold((k, -1.0), |best, c| if c.1 > best.1 { c } else { best });
            let norm = nmax.sqrt();
            if k == 0 {
                r00 = norm;
            }
            if norm <= tol_rel * r00 || norm == 0.0 {
                return k;
            }
            if jmax != k {
                self.a.swap_columns(k, jmax);
                self.perm.swap(k, jmax);
            }
            self.householder(k, n);
        }
        n
    }

    /// Reflects rows k.. so that column k becomes `(α, 0, …, 0)`.
    fn householder(&mut self, k: usize, n: usize) {
        let mut norm2 = T::zero();
        for i in k..n {
            norm2 += self.a[(i, k)] * self.a[(i, k)];
        }
        let norm = norm2.sqrt();
        let alpha = if self.a[(k, k)].re() > 0.0 {
            -norm
        } else {
            norm
        };
        self.a[(k, k)] -= alpha;
        let mut beta = T::zero();
        for i in k..n {
            beta += self.a[(i, k)] * self.a[(i, k)];
        }
        let two_over_beta = T::c(2.0) / beta;
        for j in k + 1..n {
            let mut s = T::zero();
            for i in k..n {
                s += self.a[(i, k)] * self.a[(i, j)];
            }
            let f = s * two_over_beta;
            for i in k..n {
                let v = self.a[(i, k)];
                self.a[(i, j)] -= f * v;
            }
        }
        let mut s = T::zero();
        for i in k..n {
            s += self.a[(i, k)] * self.b[i];
        }
        let f = s * two_over_beta;
        for i in k..n {
            let v = self.a[(i, k)];
            self.b[i] -= f * v;
        }
        self.a[(k, k)] = alpha;
    }
}

fn sq(x: f64) -> f64 {
    x * x
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_regular_system_exactly() {
        let mut ls = LeastSquares::<f64>::new(3);
        let a = [[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]];
        for i in 0..3 {
            for j in 0..3 {
                ls.matrix_mut()[(i, j)] = a[i][j];
            }
        }
        let x_true = [1.0, -2.0, 0.25];
        let b: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| a[i][j] * x_true[j]).sum())
            .collect();
        let mut x = [0.0; 3];
        assert_eq!(ls.solve(3, &b, &mut x), 3);
        for i in 0..3 {
            assert!((x[i] - x_true[i]).abs() < 1e-14, "{x:?}");
        }
    }

    #[test]
    fn consistent_singular_system_is_satisfied() {
        // Row 3 = row 1 + row 2 (redundant contacts): rank 2, the equations still hold.
        let a = [[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [3.0, 3.0, 2.0]];
        let b = [1.0, 2.0, 3.0];
        let mut ls = LeastSquares::<f64>::new(4);
        for i in 0..3 {
            for j in 0..3 {
                ls.matrix_mut()[(i, j)] = a[i][j];
            }
        }
        let mut x = [0.0; 3];
        assert_eq!(ls.solve(3, &b, &mut x), 2);
        for i in 0..3 {
            let r: f64 = (0..3).map(|j| a[i][j] * x[j]).sum::<f64>() - b[i];
            assert!(r.abs() < 1e-13, "row {i}: residual {r}");
        }
    }
}
