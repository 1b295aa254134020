//! In-place inversion of a small dense matrix by Gauss–Jordan elimination with partial
//! pivoting (Press et al., *Numerical Recipes*, 3rd ed., §2.1; Golub & Van Loan, *Matrix
//! Computations*, 4th ed., §3.4): n³ multiply–adds over contiguous rows, the identity's columns
//! built in the eliminated columns' places and the row swaps undone as column swaps at the end.
//! Used for the implicit integrator's Newton matrices (`newton_matrix`), whose inverses are
//! applied far more often than they are formed.

/// Replaces the row-major `n × n` matrix `a` by its inverse; `swaps` (length ≥ n) is scratch.
/// False if the matrix is singular to working precision (a zero or non-finite pivot, or a
/// non-finite entry of the result); `a` is then unusable.
pub fn invert_in_place(a: &mut [f64], n: usize, swaps: &mut [usize]) -> bool {
    let a = &mut a[..n * n];
    for k in 0..n {
        let p = (k..n)
            .max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))
            .unwrap_or(k);
        swaps[k] = p;
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
        let p = swaps[k];
        if p != k {
            for row in a.chunks_exact_mut(n) {
                row.swap(k, p);
            }
        }
    }
    a.iter().all(|x| x.is_finite())
}

/// `out ← M x` for the row-major `rows × x.len()` matrix `m`.
#[inline]
pub fn multiply(m: &[f64], x: &[f64], out: &mut [f64]) {
    let n = x.len();
    if n == 0 {
        out.fill(0.0);
        return;
    }
    for (y, row) in out.iter_mut().zip(m.chunks_exact(n)) {
        let mut sum = 0.0;
        for j in 0..n {
            sum += row[j] * x[j];
        }
        *y = sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_a_matrix_that_needs_pivoting() {
        let m = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let mut inverse = m;
        assert!(invert_in_place(&mut inverse, 3, &mut [0; 3]));
        for i in 0..3 {
            for j in 0..3 {
                let product: f64 = (0..3).map(|k| m[i * 3 + k] * inverse[k * 3 + j]).sum();
                let identity = if i == j { 1.0 } else { 0.0 };
                assert!((product - identity).abs() < 1e-15, "{i} {j}: {product}");
            }
        }
    }

    #[test]
    fn refuses_a_singular_matrix() {
        assert!(!invert_in_place(&mut [1.0, 2.0, 2.0, 4.0], 2, &mut [0; 2]));
    }
}
