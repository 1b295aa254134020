//! The linear algebra of a projection step (`constraints::projection`): which rows of G
//! take part, the factored normal matrix `(G_R S)(G_R S)ᵀ` and the weighted minimum-norm step
//! `S² G_Rᵀ (G_R S² G_Rᵀ)⁺ e`, and the maps between q and u space (`dq = N du`,
//! `du = N⁺ dq`) with the quaternion metric `D^½ = 2|q|` (Simbody
//! `SimbodyMatterSubsystemRep::projectQ` / `projectU`).

use super::{ProjectionWorkspace, SQRT_EPS};
use crate::constraints::schur::{factor_ldlt, solve_ldlt};
use crate::math::quaternion::quaternion_dot_to_ang_vel;
use crate::mobilizer::Mobilizer;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::{DMatrix, DVector};

/// Selects the rows of G to use: the enabled holonomic rows (with their entries in the
/// position-error vector), or all enabled rows.
pub(in crate::pipeline) fn select_rows<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    holonomic_only: bool,
    ws: &mut ProjectionWorkspace<T>,
) {
    ws.rows.clear();
    ws.position_rows.clear();
    for (i, r) in model.constraint_rows.iter().enumerate() {
        if model.constraint_flag(state, i) {
            let n = if holonomic_only {
                r.holonomic
            } else {
                r.holonomic + r.nonholonomic
            };
            ws.rows.extend(r.start..r.start + n);
            ws.position_rows.extend(r.position_range());
        }
    }
}

/// Factors `(G_R S) (G_R S)ᵀ` for the selected rows R and column scale S into `ws.normal`.
pub(super) fn factor_rows<T: Real>(g: &DMatrix<T>, ws: &mut ProjectionWorkspace<T>) {
    let m = ws.rows.len();
    for (a, &ra) in ws.rows.iter().enumerate() {
        for (b, &rb) in ws.rows.iter().enumerate().take(a + 1) {
            let mut s = T::zero();
            for c in 0..g.ncols() {
                s += g[(ra, c)] * g[(rb, c)] * ws.scale[c] * ws.scale[c];
            }
            ws.normal[(a, b)] = s;
            ws.normal[(b, a)] = s;
        }
    }
    factor_ldlt(&mut ws.normal, m, (m as f64 * SQRT_EPS).powi(2));
}

/// `ws.du = S² G_Rᵀ (G_R S² G_Rᵀ)⁺ e` for the right-hand side `e = ws.y` (one entry per
/// selected row).
pub(super) fn min_norm_step<T: Real>(g: &DMatrix<T>, ws: &mut ProjectionWorkspace<T>) {
    let m = ws.rows.len();
    solve_ldlt(&ws.normal, m, &mut ws.y[..m]);
    ws.du.fill(T::zero());
    for (a, &r) in ws.rows.iter().enumerate() {
        for c in 0..g.ncols() {
            ws.du[c] += g[(r, c)] * ws.y[a];
        }
    }
    for c in 0..g.ncols() {
        ws.du[c] *= ws.scale[c] * ws.scale[c];
    }
}

/// `ws.y = G_R e` for a vector `e` over u.
pub(super) fn rows_times<T: Real>(g: &DMatrix<T>, ws: &mut ProjectionWorkspace<T>, e: &[T]) {
    for (a, &r) in ws.rows.iter().enumerate() {
        ws.y[a] = (0..g.ncols()).fold(T::zero(), |s, c| s + g[(r, c)] * e[c]);
    }
}

/// `dq = N(q) du`, mobilizer by mobilizer.
pub(super) fn map_to_q<T: Real>(model: &Model<T>, q: &[T], du: &DVector<T>, dq: &mut DVector<T>) {
    for b in &model.bodies[1..] {
        b.mobilizer.qdot(
            &q[b.q_range()],
            &du.as_slice()[b.u_range()],
            &mut dq.as_mut_slice()[b.q_range()],
        );
    }
}

/// `N⁺ dq` into `du`, mobilizer by mobilizer.
pub(in crate::pipeline) fn map_to_u<T: Real>(
    model: &Model<T>,
    q: &[T],
    dq: &[T],
    du: &mut DVector<T>,
) {
    for b in &model.bodies[1..] {
        let (qs, us) = (b.q_range(), b.u_range());
        match b.mobilizer.quaternion_offset() {
            Some(k) => {
                let w = quaternion_dot_to_ang_vel(
                    &q[qs.start + k..qs.start + k + 4],
                    &dq[qs.start + k..qs.start + k + 4],
                );
                for i in 0..3 {
                    du[us.start + i] = w[i];
                }
                if b.mobilizer == Mobilizer::Free {
                    for i in 0..3 {
                        du[us.start + 3 + i] = dq[qs.start + 4 + i];
                    }
                }
            }
            None => du.as_mut_slice()[us].copy_from_slice(&dq[qs]),
        }
    }
}

/// `D^½`: `2|q|` on a quaternion's angular speeds, 1 elsewhere.
pub(super) fn q_metric_scale<T: Real>(model: &Model<T>, q: &[T], scale: &mut DVector<T>) {
    scale.fill(T::one());
    for b in &model.bodies[1..] {
        if let Some(k) = b.mobilizer.quaternion_offset() {
            let s = b.q_start + k;
            let n = (0..4)
                .map(|i| q[s + i] * q[s + i])
                .fold(T::zero(), |a, x| a + x)
                .sqrt();
            for i in 0..3 {
                scale[b.u_start + i] = n * T::c(2.0);
            }
        }
    }
}
