//! Ball and Free joints (quaternion or Euler-angle coordinates) in the analytical derivatives
//! of inverse dynamics, by a change of variables.
//!
//! Their speeds are `w_FM` and `v_FM` expressed in F, so their Ground-frame columns are fixed
//! in the parent, not in the body, and `∂J/∂q = J × J` (what [`super::rnea_derivatives`]
//! relies on) fails for the joint's own rotation. In body-frame speeds `u' = T u`,
//! `T = R_MF` per 3-block (Pinocchio's spherical and free-flyer joints), it holds; so the
//! recursion runs on `u'`, `u̇' = T u̇ + b` with `b = −R_MF (w × v)` for Free's linear block
//! (`v' = R_MF v` turns with the body), and the body-frame tangent `δ'` (`R_FM ← R_FM e^[δ'×]`,
//! `p_FM ← p_FM + R_FM δ'_v`). Back in our variables, with `τ = Tᵀ τ'`:
//!
//! ```text
//!   M = Tᵀ M' T
//!   ∂τ/∂u = Tᵀ (∂τ'/∂u' T + M' ∂b/∂u)
//!   ∂τ/∂δ' = Tᵀ (∂τ'/∂δ' + ∂τ'/∂u' [u'_B×] + M' [u̇'_B×]) − R_FM [τ'_B×]   (rotation columns)
//!   ∂τ/∂q = ∂τ/∂δ' · ∂δ'/∂q
//! ```
//!
//! since `∂(R_MF x)/∂δ' = [R_MF x ×]` for each 3-block B. `∂δ'/∂q` is `2 G(q̂)/|q|`,
//! `G = [−q_v | q_w 1 − [q_v×]]`, for a quaternion (its length drops out: the rotation is
//! that of q/|q|), the body-frame Euler-rate matrix for body-fixed x-y-z angles, and `R_MF` for
//! Free's translation.
//!
//! Reference: J. Sola, J. Deray, D. Atchuthan, "A micro Lie theory for state estimation in
//! robotics", arXiv:1812.01537 (2018), for the right (body-frame) perturbations.

use crate::math::spatial::cross_matrix;
use crate::mobilizer::Mobilizer;
use crate::model::Model;
use nalgebra::{DMatrix, DVector, Matrix3, Matrix3x4, Vector3, Vector6};

/// A Ball, Free, BallEuler or FreeEuler joint and its rotation at the current state.
#[derive(Clone, Debug)]
pub(super) struct FloatingJoint {
    pub body: usize,
    kind: Mobilizer,
    u_start: usize,
    q_start: usize,
    /// `R_FM` at the current q.
    r_fm: Matrix3<f64>,
}

impl FloatingJoint {
    /// The floating joints of `model`.
    pub fn of(model: &Model<f64>) -> Vec<Self> {
        model
            .bodies()
            .iter()
            .enumerate()
            .filter(|(_, b)| is_floating(b.mobilizer))
            .map(|(i, b)| Self {
                body: i,
                kind: b.mobilizer,
                u_start: b.u_range().start,
                q_start: b.q_range().start,
                r_fm: Matrix3::identity(),
            })
            .collect()
    }

    /// Number of 3-blocks of speeds: 1 (rotation) or 2 (rotation, translation).
    fn blocks(&self) -> usize {
        match self.kind {
            Mobilizer::Free | Mobilizer::FreeEuler => 2,
            _ => 1,
        }
    }

    /// Reads `R_FM` from q, rotates the body's Ground columns `j` (in place) and writes its
    /// `u' = T u` and `u̇' = T u̇ + b`.
    pub fn switch_to_body_frame(
        &mut self,
        q: &[f64],
        u: &[f64],
        udot: &[f64],
        j: &mut [Vector6<f64>],
        u_body: &mut [f64],
        udot_body: &mut [f64],
    ) {
        let q_joint = &q[self.q_start..self.q_start + self.kind.nq()];
        self.r_fm = self.kind.x_fm(q_joint).r;
        let r_mf = self.r_fm.transpose();
        let w = block(u, self.u_start);
        for b in 0..self.blocks() {
            let s = self.u_start + 3 * b;
            let columns = [j[s], j[s + 1], j[s + 2]];
            for k in 0..3 {
                j[s + k] = (0..3).fold(Vector6::zeros(), |sum, l| {
                    sum + columns[l] * self.r_fm[(l, k)]
                });
            }
            let mut a = r_mf * block(udot, s);
            if b == 1 {
                a -= r_mf * w.cross(&block(u, s));
            }
            set_block(u_body, s, &(r_mf * block(u, s)));
            set_block(udot_body, s, &a);
        }
    }

    /// Step 1 of the change back: adds `∂τ'/∂u' [u'_B×] + M' [u̇'_B×]` to the rotation
    /// columns of `dtau_dtangent` (from the primed `dtau_du` and `mass`).
    pub fn add_speed_terms(
        &self,
        dtau_dtangent: &mut DMatrix<f64>,
        dtau_du: &DMatrix<f64>,
        mass: &DMatrix<f64>,
        u_body: &[f64],
        udot_body: &[f64],
    ) {
        for b in 0..self.blocks() {
            let s = self.u_start + 3 * b;
            let ux = cross_matrix(&block(u_body, s));
            let ax = cross_matrix(&block(udot_body, s));
            for row in 0..dtau_dtangent.nrows() {
                let du = row_block(dtau_du, row, s);
                let m = row_block(mass, row, s);
                let add = ux.tr_mul(&du) + ax.tr_mul(&m);
                for c in 0..3 {
                    dtau_dtangent[(row, self.u_start + c)] += add[c];
                }
            }
        }
    }

    /// Step 2: `∂τ'/∂u' T + M' ∂b/∂u` in the columns of this joint (`dtau_du` primed in,
    /// `mass` primed); `∂b/∂w = R_MF [v×]`, `∂b/∂v = −R_MF [w×]` for Free.
    pub fn speed_columns(&self, dtau_du: &mut DMatrix<f64>, mass: &DMatrix<f64>, u: &[f64]) {
        let r_mf = self.r_fm.transpose();
        for b in 0..self.blocks() {
            right_multiply(dtau_du, self.u_start + 3 * b, &r_mf);
        }
        if self.blocks() == 2 {
            let (s, sv) = (self.u_start, self.u_start + 3);
            let db_dw = r_mf * cross_matrix(&block(u, sv));
            let db_dv = -r_mf * cross_matrix(&block(u, s));
            for row in 0..dtau_du.nrows() {
                let m = row_block(mass, row, sv);
                let (aw, av) = (db_dw.tr_mul(&m), db_dv.tr_mul(&m));
                for c in 0..3 {
                    dtau_du[(row, s + c)] += aw[c];
                    dtau_du[(row, sv + c)] += av[c];
                }
            }
        }
    }

    /// Step 3: `X ← X T` for the columns of this joint.
    pub fn times_t(&self, x: &mut DMatrix<f64>) {
        for b in 0..self.blocks() {
            right_multiply(x, self.u_start + 3 * b, &self.r_fm.transpose());
        }
    }

    /// Step 4: `X ← Tᵀ X` for the rows of this joint.
    pub fn t_transpose_times(&self, x: &mut DMatrix<f64>) {
        for b in 0..self.blocks() {
            let s = self.u_start + 3 * b;
            for c in 0..x.ncols() {
                let y = self.r_fm * Vector3::new(x[(s, c)], x[(s + 1, c)], x[(s + 2, c)]);
                for k in 0..3 {
                    x[(s + k, c)] = y[k];
                }
            }
        }
    }

    /// Step 5: `−R_FM [τ'_B×]` into the rows B and rotation columns of `dtau_dtangent`, then
    /// `τ ← Tᵀ τ'` for this joint.
    pub fn turn_forces(&self, dtau_dtangent: &mut DMatrix<f64>, tau: &mut DVector<f64>) {
        for b in 0..self.blocks() {
            let s = self.u_start + 3 * b;
            let t = block(tau.as_slice(), s);
            let d = -self.r_fm * cross_matrix(&t);
            for r in 0..3 {
                for c in 0..3 {
                    dtau_dtangent[(s + r, self.u_start + c)] += d[(r, c)];
                }
            }
            set_block(tau.as_mut_slice(), s, &(self.r_fm * t));
        }
    }

    /// Step 6: this joint's columns of ∂τ/∂q from ∂τ/∂δ': the rotation's through
    /// `∂δ'/∂q_rot` (3 × 4 for a quaternion, 3 × 3 for Euler angles), Free's translation
    /// through `R_MF`.
    pub fn q_columns(&self, q: &[f64], dtau_dtangent: &DMatrix<f64>, dtau_dq: &mut DMatrix<f64>) {
        let (s, qs) = (self.u_start, self.q_start);
        let quaternion = matches!(self.kind, Mobilizer::Ball | Mobilizer::Free);
        let nq_rotation = if quaternion { 4 } else { 3 };
        let rate = rotation_tangent_per_q(&q[qs..qs + nq_rotation]);
        let r_mf = self.r_fm.transpose();
        for row in 0..dtau_dtangent.nrows() {
            let d = row_block(dtau_dtangent, row, s);
            for c in 0..nq_rotation {
                dtau_dq[(row, qs + c)] = rate.column(c).dot(&d);
            }
            if self.blocks() == 2 {
                let dv = r_mf.tr_mul(&row_block(dtau_dtangent, row, s + 3));
                for c in 0..3 {
                    dtau_dq[(row, qs + nq_rotation + c)] = dv[c];
                }
            }
        }
    }
}

/// `∂δ'/∂q` of a rotation's coordinates: `2 G(q̂)/|q|` for a quaternion `[w, x, y, z]`
/// (3 × 4), the body-frame rate matrix of x-y-z Euler angles `(a, b, c)` for three (3 × 3,
/// in the first three columns).
fn rotation_tangent_per_q(q: &[f64]) -> Matrix3x4<f64> {
    let mut out = Matrix3x4::zeros();
    if q.len() == 4 {
        let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        let (w, v) = (q[0] / norm, Vector3::new(q[1], q[2], q[3]) / norm);
        let scale = 2.0 / norm;
        out.set_column(0, &(-v * scale));
        let g = (Matrix3::identity() * w - cross_matrix(&v)) * scale;
        out.fixed_view_mut::<3, 3>(0, 1).copy_from(&g);
    } else {
        let ((sb, cb), (sc, cc)) = (q[1].sin_cos(), q[2].sin_cos());
        let n = Matrix3::new(cb * cc, sc, 0.0, -cb * sc, cc, 0.0, sb, 0.0, 1.0);
        out.fixed_view_mut::<3, 3>(0, 0).copy_from(&n);
    }
    out
}

pub(super) fn is_floating(kind: Mobilizer) -> bool {
    matches!(
        kind,
        Mobilizer::Ball | Mobilizer::Free | Mobilizer::BallEuler | Mobilizer::FreeEuler
    )
}

fn block(x: &[f64], s: usize) -> Vector3<f64> {
    Vector3::new(x[s], x[s + 1], x[s + 2])
}

fn set_block(x: &mut [f64], s: usize, v: &Vector3<f64>) {
    x[s..s + 3].copy_from_slice(v.as_slice());
}

fn row_block(m: &DMatrix<f64>, row: usize, s: usize) -> Vector3<f64> {
    Vector3::new(m[(row, s)], m[(row, s + 1)], m[(row, s + 2)])
}

/// Columns `s..s+3` of `m` ← those columns times `r` (3×3).
fn right_multiply(m: &mut DMatrix<f64>, s: usize, r: &Matrix3<f64>) {
    for row in 0..m.nrows() {
        let y = r.tr_mul(&row_block(m, row, s));
        for c in 0..3 {
            m[(row, s + c)] = y[c];
        }
    }
}
