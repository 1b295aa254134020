//! Projection of q and u onto the constraint manifold, and of the integrator's error estimate
//! onto its tangent space (Simbody `SimbodyMatterSubsystemRep::projectQ` / `projectU`, called
//! by `AbstractIntegratorRep::attemptDAEStep`; default weights).
//!
//! **q.** With `pn = RMS(perr)` over the enabled holonomic rows and `qn = RMS(|quat| − 1)`:
//! fail if `max(pn, qn) > limit`; if `pn ≤ tol` only normalize the quaternions when
//! `qn > tol`; else full Newton (at most 20 iterations, to `max(tol/10, SignificantReal)`):
//!
//! ```text
//! δq = N N⁺ pinv(P N⁺) perr  =  N D Pᵀ (P D Pᵀ)⁺ perr,     q ← q − δq
//! ```
//!
//! where P holds the holonomic rows of G and `D = N⁺N⁺ᵀ` (4|q|² on a quaternion's angular
//! speeds, 1 elsewhere). From the second iteration a rising error undoes the last step and fails
//! (divergence); ending above `tol` fails and reverts q if it got worse. The error estimate
//! loses its part that violates the linearized constraints, `q_err −= N D Pᵀ (P D Pᵀ)⁺ P N⁺
//! q_err`, and quaternions are normalized (their error estimates lose the radial part).
//!
//! **u.** With `uerr = G u` over all enabled rows and `S = diag(max(|u_i|, 1))` at entry: if
//! `RMS(uerr) > tol`, modified Newton (G factored once, at most 7 iterations)
//! `u ← u − S (G S)ᵀ (G S² Gᵀ)⁺ uerr`, then `u_err −= S (G S)ᵀ (G S² Gᵀ)⁺ G u_err`.

use super::constraint_dynamics::calc_constraint_jacobian;
use crate::data::{Data, Stage};
use crate::error::Result;
use crate::math::q_projection::{normalize_quaternions, quaternion_norm_error};
use crate::model::Model;
use crate::pipeline::realize;
use crate::scalar::Real;
use crate::scalar::SIGNIFICANT_REAL;
use crate::state::State;
use nalgebra::{DMatrix, DVector};
use steps::{
    factor_rows, map_to_q, map_to_u, min_norm_step, q_metric_scale, rows_times, select_rows,
};

pub(in crate::pipeline) mod steps;

/// `√eps`: Simbody's rank tolerance per equation in projections.
const SQRT_EPS: f64 = 1.4901161193847656e-8;

/// What a projection did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectionResult {
    /// Nothing needed changing.
    Unchanged,
    /// The variables were changed (and are now within tolerance).
    Projected,
    /// The tolerance could not be met (too far from the manifold, diverged or too slow).
    Failed,
}

/// How to project.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProjectionOptions {
    /// Constraint tolerance (RMS of the errors).
    pub tolerance: f64,
    /// Fail at once if the errors on entry exceed this (Simbody's projection limit).
    pub limit: f64,
    /// Project even when the errors are within tolerance (Simbody `ForceProjection`).
    pub force: bool,
    /// Stop as soon as an iteration increases the error (Simbody `LocalOnly`).
    pub local_only: bool,
    /// Newton iterations allowed for q.
    pub max_q_iterations: usize,
}

impl ProjectionOptions {
    /// The options of a step attempt: limit `max(2 tol, √tol)`, local only, 20 iterations.
    pub fn during_step(tolerance: f64) -> Self {
        Self {
            tolerance,
            limit: (2.0 * tolerance).max(tolerance.sqrt()),
            force: false,
            local_only: true,
            max_q_iterations: 20,
        }
    }

    /// The options of initialization and assembly: forced, no limit, full Newton.
    pub fn assembly(tolerance: f64) -> Self {
        Self {
            tolerance,
            limit: f64::INFINITY,
            force: true,
            local_only: false,
            max_q_iterations: 50,
        }
    }
}

/// Buffers of the projections, sized once per model.
#[derive(Clone, Debug)]
pub struct ProjectionWorkspace<T: Real> {
    normal: DMatrix<T>,
    y: Vec<T>,
    scale: DVector<T>,
    du: DVector<T>,
    dq: DVector<T>,
    saved: DVector<T>,
    error_u: DVector<T>,
    pub(in crate::pipeline) rows: Vec<usize>,
    pub(in crate::pipeline) position_rows: Vec<usize>,
}

impl<T: Real> ProjectionWorkspace<T> {
    /// Buffers for `model`.
    pub fn new(model: &Model<T>) -> Self {
        let m = model.n_constraint_rows;
        Self {
            normal: DMatrix::zeros(m, m),
            y: vec![T::zero(); m],
            scale: DVector::zeros(model.nu()),
            du: DVector::zeros(model.nu()),
            dq: DVector::zeros(model.nq()),
            saved: DVector::zeros(model.nq().max(model.nu())),
            error_u: DVector::zeros(model.nu()),
            rows: Vec::with_capacity(m),
            position_rows: Vec::with_capacity(m),
        }
    }
}

/// `x > bound`, or x is NaN.
fn exceeds(x: f64, bound: f64) -> bool {
    x.is_nan() || x > bound
}

fn rms<T: Real>(v: &[T], n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    (v.iter().map(|x| x.re() * x.re()).sum::<f64>() / n as f64).sqrt()
}

fn position_error_rms<T: Real>(data: &Data<T>, count: usize) -> f64 {
    rms(&data.constraints.position_errors, count)
}

fn enabled_holonomic<T: Real>(model: &Model<T>, state: &State<T>) -> usize {
    (0..model.constraints.len())
        .filter(|&i| model.constraint_flag(state, i))
        .map(|i| model.constraint_rows[i].holonomic)
        .sum()
}

/// Projects `state.q` (see the module docs). `q_err`, if given, is the integrator's q error
/// estimate. Leaves `data` realized to Position at the final q.
pub fn project_q<T: Real>(
    model: &Model<T>,
    state: &mut State<T>,
    data: &mut Data<T>,
    ws: &mut ProjectionWorkspace<T>,
    opts: &ProjectionOptions,
    mut q_err: Option<&mut [T]>,
) -> Result<ProjectionResult> {
    let tol = opts.tolerance;
    let quats = &model.quaternion_starts;
    realize(model, state, data, Stage::Position)?;
    let mp = enabled_holonomic(model, state);
    let pn0 = position_error_rms(data, mp);
    let qn0 = quaternion_norm_error(state.q.as_slice(), quats);
    if exceeds(pn0, opts.limit) || exceeds(qn0, opts.limit) {
        return Ok(ProjectionResult::Failed);
    }
    if pn0 == 0.0 || (pn0 <= tol && !opts.force) {
        if qn0 > tol || (opts.force && !quats.is_empty()) {
            normalize_quaternions(state.q.as_mut_slice(), quats, q_err);
            realize(model, state, data, Stage::Position)?;
            return Ok(ProjectionResult::Projected);
        }
        return Ok(ProjectionResult::Unchanged);
    }
    let try_for = (0.1 * tol).max(SIGNIFICANT_REAL);
    select_rows(model, state, true, ws);
    let nq = model.nq();
    ws.saved.as_mut_slice()[..nq].copy_from_slice(state.q.as_slice());
    let (mut prev, mut its) = (pn0, 0);
    let mut pn;
    loop {
        calc_constraint_jacobian(model, state, data);
        q_metric_scale(model, state.q.as_slice(), &mut ws.scale);
        factor_rows(&data.constraints.g, ws);
        for (a, &p) in ws.position_rows.iter().enumerate() {
            ws.y[a] = data.constraints.position_errors[p];
        }
        min_norm_step(&data.constraints.g, ws);
        map_to_q(model, state.q.as_slice(), &ws.du, &mut ws.dq);
        state.q -= &ws.dq;
        realize(model, state, data, Stage::Position)?;
        pn = position_error_rms(data, mp);
        its += 1;
        if opts.local_only && its >= 2 && pn > prev {
            state.q += &ws.dq;
            realize(model, state, data, Stage::Position)?;
            pn = position_error_rms(data, mp);
            break;
        }
        prev = pn;
        if pn <= try_for || its >= opts.max_q_iterations {
            break;
        }
    }
    if exceeds(pn, tol) {
        if pn.is_nan() || pn >= pn0 {
            state.q.copy_from_slice(&ws.saved.as_slice()[..nq]);
            realize(model, state, data, Stage::Position)?;
        }
        return Ok(ProjectionResult::Failed);
    }
    if let Some(err) = q_err.as_deref_mut() {
        // Uses G and the factorization of the last iteration, as Simbody does.
        map_to_u(model, state.q.as_slice(), err, &mut ws.error_u);
        let error_u = std::mem::take(&mut ws.error_u);
        rows_times(&data.constraints.g, ws, error_u.as_slice());
        ws.error_u = error_u;
        min_norm_step(&data.constraints.g, ws);
        map_to_q(model, state.q.as_slice(), &ws.du, &mut ws.dq);
        for (x, d) in err.iter_mut().zip(ws.dq.iter()) {
            *x -= *d;
        }
    }
    normalize_quaternions(state.q.as_mut_slice(), quats, q_err);
    realize(model, state, data, Stage::Position)?;
    Ok(ProjectionResult::Projected)
}

/// Projects `state.u` onto the velocity constraints at the current q (see the module docs).
/// `u_err`, if given, is the integrator's u error estimate. Leaves `data` realized to Velocity.
pub fn project_u<T: Real>(
    model: &Model<T>,
    state: &mut State<T>,
    data: &mut Data<T>,
    ws: &mut ProjectionWorkspace<T>,
    opts: &ProjectionOptions,
    u_err: Option<&mut [T]>,
) -> Result<ProjectionResult> {
    let tol = opts.tolerance;
    realize(model, state, data, Stage::Velocity)?;
    select_rows(model, state, false, ws);
    let m = ws.rows.len();
    let vn0 = rms(&data.constraints.velocity_errors, m);
    if exceeds(vn0, opts.limit) {
        return Ok(ProjectionResult::Failed);
    }
    if vn0 == 0.0 || (vn0 <= tol && !opts.force) {
        return Ok(ProjectionResult::Unchanged);
    }
    let try_for = (0.1 * tol).max(SIGNIFICANT_REAL);
    let nu = model.nu();
    ws.saved.as_mut_slice()[..nu].copy_from_slice(state.u.as_slice());
    for (s, u) in ws.scale.iter_mut().zip(state.u.iter()) {
        *s = if u.re().abs() > 1.0 {
            u.abs()
        } else {
            T::one()
        };
    }
    calc_constraint_jacobian(model, state, data);
    factor_rows(&data.constraints.g, ws);
    let (mut prev, mut its) = (vn0, 0);
    let mut vn;
    loop {
        for (a, &r) in ws.rows.iter().enumerate() {
            ws.y[a] = data.constraints.velocity_errors[r];
        }
        min_norm_step(&data.constraints.g, ws);
        state.u -= &ws.du;
        realize(model, state, data, Stage::Velocity)?;
        vn = rms(&data.constraints.velocity_errors, m);
        its += 1;
        if opts.local_only && its >= 2 && vn > prev {
            state.u += &ws.du;
            realize(model, state, data, Stage::Velocity)?;
            vn = rms(&data.constraints.velocity_errors, m);
            break;
        }
        prev = vn;
        if vn <= try_for || its >= 7 {
            break;
        }
    }
    if exceeds(vn, tol) {
        if vn.is_nan() || vn >= vn0 {
            state.u.copy_from_slice(&ws.saved.as_slice()[..nu]);
            realize(model, state, data, Stage::Velocity)?;
        }
        return Ok(ProjectionResult::Failed);
    }
    if let Some(err) = u_err {
        rows_times(&data.constraints.g, ws, err);
        min_norm_step(&data.constraints.g, ws);
        for (x, d) in err.iter_mut().zip(ws.du.iter()) {
            *x -= *d;
        }
    }
    Ok(ProjectionResult::Projected)
}

/// Projects a trial step end `y = [q, u, z]` and its error estimate `y_err` in place (q, then
/// u, as Simbody's `attemptDAEStep`), using `state` as scratch (its t must be the step end).
pub fn project_trial_state<T: Real>(
    model: &Model<T>,
    state: &mut State<T>,
    data: &mut Data<T>,
    ws: &mut ProjectionWorkspace<T>,
    tolerance: f64,
    y: &mut [T],
    y_err: &mut [T],
) -> Result<ProjectionResult> {
    let (nq, nu) = (model.nq(), model.nu());
    let opts = ProjectionOptions::during_step(tolerance);
    state.set_y(y);
    let rq = project_q(model, state, data, ws, &opts, Some(&mut y_err[..nq]))?;
    if rq == ProjectionResult::Failed {
        return Ok(rq);
    }
    let ru = project_u(model, state, data, ws, &opts, Some(&mut y_err[nq..nq + nu]))?;
    if ru == ProjectionResult::Failed {
        return Ok(ru);
    }
    state.copy_y_to(y);
    Ok(
        if rq == ProjectionResult::Unchanged && ru == ProjectionResult::Unchanged {
            ProjectionResult::Unchanged
        } else {
            ProjectionResult::Projected
        },
    )
}
