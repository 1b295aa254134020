//! The implicit integrator's Newton matrix `I − dh J` inverted through its Schur complement on
//! the speeds and auxiliary variables.
//!
//! With `y = [q, w]`, `w = [u, z]`, and `q̇ = N(q) u` joint by joint, `J_qq = ∂q̇/∂q` is block
//! diagonal (one block per joint's q). Writing `A = I − dh J_qq`:
//!
//! ```text
//! (I − dh J) [x_q; x_w] = [r_q; r_w]
//!   a   = A⁻¹ r_q                                        (block by block)
//!   S   = I − dh J_ww − dh² J_wq A⁻¹ J_qw                (nw × nw, inverted once)
//!   x_w = S⁻¹ (r_w + dh J_wq a)
//!   x_q = a + dh A⁻¹ J_qw x_w
//! ```
//!
//! Forming costs about `Σ nq_j² nw + nw² nq + nw³` multiply–adds instead of `(nq + nw)³`
//! (one free body: about 700 against 2 200); a solve costs about what the dense inverse's
//! product does. Golub & Van Loan, *Matrix Computations*, 4th ed., §3.2.10 (block
//! elimination); Hairer & Wanner, *Solving ODEs II*, §IV.8 (exploiting the structure of the
//! Newton matrix of second-order systems).

use super::gauss_jordan::{invert_in_place, multiply};
use nalgebra::DMatrix;
use std::ops::Range;

/// `(I − dh J)⁻¹` in Schur-complement form for a Jacobian whose q rows are block diagonal in q.
pub struct SchurNewtonMatrix {
    nq: usize,
    nw: usize,
    /// Each joint's q indices: `J_qq` is zero outside these diagonal blocks.
    blocks: Vec<Range<usize>>,
    /// `(I − dh J_bb)⁻¹` of each block, row-major, packed one after another.
    block_inverses: Vec<f64>,
    /// `dh A⁻¹ J_qw` (nq × nw, row-major).
    p: Vec<f64>,
    /// `dh J_wq` (nw × nq, row-major).
    coupling: Vec<f64>,
    /// `S⁻¹` (nw × nw, row-major).
    schur_inverse: Vec<f64>,
    swaps: Vec<usize>,
    a: Vec<f64>,
    rhs: Vec<f64>,
}

impl SchurNewtonMatrix {
    /// Space for `n` variables whose first `nq` are the coordinates, in `blocks` (covering
    /// `0..nq` without overlap).
    pub fn new(n: usize, nq: usize, blocks: Vec<Range<usize>>) -> Self {
        let nw = n - nq;
        let packed = blocks.iter().map(|b| b.len() * b.len()).sum();
        Self {
            nq,
            nw,
            blocks,
            block_inverses: vec![0.0; packed],
            p: vec![0.0; nq * nw],
            coupling: vec![0.0; nw * nq],
            schur_inverse: vec![0.0; nw * nw],
            swaps: vec![0; n],
            a: vec![0.0; nq],
            rhs: vec![0.0; nw],
        }
    }

    /// Whether `J_qq` of `jacobian` is zero outside the blocks (else the dense inverse must be
    /// used).
    pub fn fits(&self, jacobian: &DMatrix<f64>) -> bool {
        self.blocks.iter().all(|block| {
            block
                .clone()
                .all(|row| (0..self.nq).all(|c| block.contains(&c) || jacobian[(row, c)] == 0.0))
        })
    }

    /// Forms the blocks' inverses, `dh A⁻¹ J_qw`, `dh J_wq` and `S⁻¹`; false if a block or S
    /// is singular to working precision.
    pub fn invert_shifted(&mut self, jacobian: &DMatrix<f64>, dh: f64) -> bool {
        let (nq, nw) = (self.nq, self.nw);
        let mut offset = 0;
        for block in &self.blocks {
            let m = block.len();
            let inverse = &mut self.block_inverses[offset..offset + m * m];
            for (r, row) in block.clone().enumerate() {
                for (c, column) in block.clone().enumerate() {
                    let identity = if r == c { 1.0 } else { 0.0 };
                    inverse[r * m + c] = identity - dh * jacobian[(row, column)];
                }
            }
            if !invert_in_place(inverse, m, &mut self.swaps) {
                return false;
            }
            for (r, row) in block.clone().enumerate() {
                for k in 0..nw {
                    let sum: f64 = (0..m)
                        .map(|c| inverse[r * m + c] * jacobian[(block.start + c, nq + k)])
                        .sum();
                    self.p[row * nw + k] = dh * sum;
                }
            }
            offset += m * m;
        }
        for i in 0..nw {
            for r in 0..nq {
                self.coupling[i * nq + r] = dh * jacobian[(nq + i, r)];
            }
        }
        for i in 0..nw {
            let coupling = &self.coupling[i * nq..(i + 1) * nq];
            let row = &mut self.schur_inverse[i * nw..(i + 1) * nw];
            for (k, x) in row.iter_mut().enumerate() {
                let identity = if i == k { 1.0 } else { 0.0 };
                *x = identity - dh * jacobian[(nq + i, nq + k)];
            }
            for (c, p_row) in coupling.iter().zip(self.p.chunks_exact(nw)) {
                if *c != 0.0 {
                    for (x, p) in row.iter_mut().zip(p_row) {
                        *x -= c * p;
                    }
                }
            }
        }
        invert_in_place(&mut self.schur_inverse, nw, &mut self.swaps)
    }

    /// `b ← (I − dh J)⁻¹ b` with the factors of the last successful
    /// [`SchurNewtonMatrix::invert_shifted`].
    pub fn solve(&mut self, b: &mut [f64]) {
        let (nq, nw) = (self.nq, self.nw);
        let (b_q, b_w) = b[..nq + nw].split_at_mut(nq);
        let mut offset = 0;
        for block in &self.blocks {
            let m = block.len();
            let inverse = &self.block_inverses[offset..offset + m * m];
            multiply(inverse, &b_q[block.clone()], &mut self.a[block.clone()]);
            offset += m * m;
        }
        multiply(&self.coupling, &self.a, &mut self.rhs);
        for (r, w) in self.rhs.iter_mut().zip(b_w.iter()) {
            *r += w;
        }
        multiply(&self.schur_inverse, &self.rhs, b_w);
        multiply(&self.p, b_w, b_q);
        for (x, a) in b_q.iter_mut().zip(&self.a) {
            *x += a;
        }
    }
}
