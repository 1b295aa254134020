//! The inverse of the implicit integrator's Newton matrix `I − d h J`, formed once per
//! factorization and applied as matrix–vector products in every Newton iteration.
//!
//! The matrices are small (the state size: 13 for one free body, a few dozen for a leg) and
//! are applied tens of thousands of times per run but formed only when h or J changes (about
//! one attempt in three on the stiff block). Triangular solves of that size are chains of
//! dependent multiply–adds; products with explicit inverses are independent dot products,
//! about four times faster on the block (`docs/integrators.md`). Where `∂q̇/∂q` is block
//! diagonal by joints (always, since `q̇ = N(q) u` joint by joint; checked each time), the
//! inverse is kept in Schur-complement form on the speeds (`newton_schur`: about a third of the
//! work to form for one free body); otherwise it is the dense inverse (`gauss_jordan`).

use super::gauss_jordan::{invert_in_place, multiply};
use super::newton_schur::SchurNewtonMatrix;
use nalgebra::DMatrix;
use std::ops::Range;

/// `(I − dh J)⁻¹` of one `n × n` Jacobian.
pub struct NewtonMatrix {
    n: usize,
    /// The dense inverse, row-major (when the Schur form does not apply).
    inverse: Vec<f64>,
    swaps: Vec<usize>,
    /// The product's result before it is copied back.
    product: Vec<f64>,
    /// The Schur-complement form, where the coordinates' blocks are known.
    schur: Option<SchurNewtonMatrix>,
    /// Whether the last inverse is the Schur form.
    using_schur: bool,
}

impl NewtonMatrix {
    /// Space for an `n × n` matrix, always inverted densely.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            inverse: vec![0.0; n * n],
            swaps: vec![0; n],
            product: vec![0.0; n],
            schur: None,
            using_schur: false,
        }
    }

    /// Space for an `n × n` matrix whose first `nq` variables are coordinates grouped in
    /// `blocks` (each joint's q): the Schur form is used wherever `∂q̇/∂q` is block diagonal.
    pub fn with_coordinate_blocks(n: usize, nq: usize, blocks: Vec<Range<usize>>) -> Self {
        Self {
            schur: Some(SchurNewtonMatrix::new(n, nq, blocks)),
            ..Self::new(n)
        }
    }

    /// Forms `(I − dh J)⁻¹`; false if the matrix is singular to working precision (a zero or
    /// non-finite pivot; the inverse is then unusable).
    pub fn invert_shifted(&mut self, jacobian: &DMatrix<f64>, dh: f64) -> bool {
        if let Some(schur) = self.schur.as_mut() {
            if schur.fits(jacobian) && schur.invert_shifted(jacobian, dh) {
                self.using_schur = true;
                return true;
            }
        }
        self.using_schur = false;
        let n = self.n;
        for i in 0..n {
            for j in 0..n {
                self.inverse[i * n + j] = -dh * jacobian[(i, j)];
            }
            self.inverse[i * n + i] += 1.0;
        }
        invert_in_place(&mut self.inverse, n, &mut self.swaps)
    }

    /// `b ← (I − dh J)⁻¹ b` with the inverse of the last successful
    /// [`NewtonMatrix::invert_shifted`].
    pub fn solve(&mut self, b: &mut [f64]) {
        if self.using_schur {
            if let Some(schur) = self.schur.as_mut() {
                schur.solve(b);
                return;
            }
        }
        let b = &mut b[..self.n];
        multiply(&self.inverse, b, &mut self.product);
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

    /// A random Jacobian of `nq` coordinates in `blocks` and `nw` further variables, with
    /// `∂q̇/∂q` block diagonal.
    fn structured_jacobian(
        nq: usize,
        nw: usize,
        blocks: &[std::ops::Range<usize>],
        next: &mut impl FnMut() -> f64,
    ) -> DMatrix<f64> {
        let n = nq + nw;
        DMatrix::from_fn(n, n, |r, c| {
            let in_block = blocks.iter().any(|b| b.contains(&r) && b.contains(&c));
            if r < nq && c < nq && !in_block {
                0.0
            } else {
                50.0 * next()
            }
        })
    }

    #[test]
    fn the_schur_form_solves_as_the_dense_inverse_does() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        // One free body (quaternion and translation), a chain of pins and a ball, and a model
        // without speeds' partners (nw = 0 does not occur; nq = 0 does for z-only systems).
        let cases: [(usize, usize, Vec<std::ops::Range<usize>>); 4] = [
            (7, 6, vec![0..7]),
            (7, 6, vec![0..4, 4..7]),
            (9, 8, vec![0..1, 1..2, 2..6, 6..9]),
            (0, 3, vec![]),
        ];
        for (nq, nw, blocks) in cases {
            for dh in [1e-4, 0.01, 0.3] {
                let j = structured_jacobian(nq, nw, &blocks, &mut next);
                let x: Vec<f64> = (0..nq + nw).map(|_| next()).collect();
                let mut b = shifted_times(&j, dh, &x);
                let mut m = NewtonMatrix::with_coordinate_blocks(nq + nw, nq, blocks.clone());
                assert!(m.invert_shifted(&j, dh));
                assert!(m.using_schur);
                m.solve(&mut b);
                // As for the dense inverse above: round-off of well-conditioned draws.
                let scale = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                for k in 0..nq + nw {
                    assert!((b[k] - x[k]).abs() < 1e-10 * scale, "{nq}+{nw}, dh {dh}");
                }
            }
        }
    }

    #[test]
    fn a_jacobian_that_couples_joints_coordinates_takes_the_dense_inverse() {
        let mut next = {
            let mut k = 0.0;
            move || {
                k += 0.37;
                f64::sin(k)
            }
        };
        let blocks = vec![0..2, 2..4];
        let mut j = structured_jacobian(4, 3, &blocks, &mut next);
        j[(0, 3)] = 0.7;
        let x = [0.3, -0.2, 0.9, 0.1, -0.5, 0.25, 0.6];
        let mut b = shifted_times(&j, 0.05, &x);
        let mut m = NewtonMatrix::with_coordinate_blocks(7, 4, blocks);
        assert!(m.invert_shifted(&j, 0.05));
        assert!(!m.using_schur);
        m.solve(&mut b);
        for k in 0..7 {
            assert!((b[k] - x[k]).abs() < 1e-12, "{b:?}");
        }
    }

    #[test]
    fn a_singular_matrix_is_refused() {
        // I − J = [[1, 2], [2, 4]].
        let j = DMatrix::from_row_slice(2, 2, &[0.0, -2.0, -2.0, -3.0]);
        assert!(!NewtonMatrix::new(2).invert_shifted(&j, 1.0));
    }
}
