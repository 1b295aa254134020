//! Constraint errors, the constraint Jacobian G and forward dynamics with Lagrange multipliers
//! (Simbody `SimbodyMatterSubsystemRep::calcLoopForwardDynamicsOperator`).
//!
//! With `u̇₀` the unconstrained accelerations (articulated-body algorithm) and `aerr(u̇₀)` the
//! acceleration errors they produce (bias terms included, no Baumgarte stabilization):
//!
//! ```text
//! (G M⁻¹ Gᵀ) λ = aerr(u̇₀),     u̇ = u̇₀ − M⁻¹ Gᵀ λ
//! ```
//!
//! Row j of G is `Jᵀ F_j + f_j`, the generalized force of the body forces `F_j` and mobility
//! forces `f_j` (coordinate constraints) of a unit multiplier j, accumulated tip to base in O(n). `M⁻¹ Gᵀ` comes from the composite-rigid-body mass matrix
//! and its Cholesky factor; `G M⁻¹ Gᵀ` is solved by the LDLᵀ of module `schur`, which gives redundant
//! rows a zero multiplier (Simbody: `FactorQTZ` with rank tolerance `m·eps^¾`). Disabled
//! constraints have zero rows, errors and multipliers. All buffers are sized once.

use crate::algorithms::crba;
use crate::constraints::schur;
use crate::constraints::station::motion;
use crate::constraints::station::BodyMotion;
use crate::data::Data;
use crate::error::{Error, Result};
use crate::math::spatial::{shift_force, shift_motion};
use crate::math::SpatialVec;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::{DMatrix, DVector};

/// `eps^(3/4)`: Simbody's relative rank tolerance per equation for `G M⁻¹ Gᵀ`.
const EPS_34: f64 = 1.8189894035458565e-12;

/// Fills the position errors (needs the Position stage).
pub fn calc_position_errors<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    let mut out = std::mem::take(&mut data.constraints.position_errors);
    let k = motion(state, data);
    for (i, (c, rows)) in model
        .constraints
        .iter()
        .zip(&model.constraint_rows)
        .enumerate()
    {
        let dst = &mut out[rows.position_range()];
        if model.constraint_flag(state, i) {
            c.position_errors(&k, c.parameters(model, state), dst);
        } else {
            dst.fill(T::zero());
        }
    }
    data.constraints.position_errors = out;
}

/// Fills the velocity errors (needs the Velocity stage).
pub fn calc_velocity_errors<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    let mut out = std::mem::take(&mut data.constraints.velocity_errors);
    fill_rows(model, state, data, &mut out, |c, k, par, dst| {
        c.velocity_errors(k, par, dst)
    });
    data.constraints.velocity_errors = out;
}

fn calc_acceleration_errors<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    let mut out = std::mem::take(&mut data.constraints.acceleration_errors);
    fill_rows(model, state, data, &mut out, |c, k, par, dst| {
        c.acceleration_errors(k, par, dst)
    });
    data.constraints.acceleration_errors = out;
}

fn fill_rows<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &Data<T>,
    out: &mut [T],
    eval: impl Fn(&crate::constraints::Constraint<T>, &BodyMotion<T>, &[T], &mut [T]),
) {
    let k = motion(state, data);
    for (i, (c, rows)) in model
        .constraints
        .iter()
        .zip(&model.constraint_rows)
        .enumerate()
    {
        let dst = &mut out[rows.range()];
        if model.constraint_flag(state, i) {
            eval(c, &k, c.parameters(model, state), dst);
        } else {
            dst.fill(T::zero());
        }
    }
}

/// Fills G (needs the Position stage): row j is the generalized force of unit multiplier j.
pub fn calc_constraint_jacobian<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    let mut cache = std::mem::take(&mut data.constraints);
    let k = motion(state, data);
    for (i, (c, rows)) in model
        .constraints
        .iter()
        .zip(&model.constraint_rows)
        .enumerate()
    {
        let enabled = model.constraint_flag(state, i);
        let par = c.parameters(model, state);
        let n = rows.holonomic + rows.nonholonomic;
        for j in 0..n {
            let row = rows.start + j;
            if !enabled {
                cache.g.row_mut(row).fill(T::zero());
                continue;
            }
            cache.unit = [T::zero(); 6];
            cache.unit[j] = T::one();
            cache.forces.fill(SpatialVec::zeros());
            cache.mobility.fill(T::zero());
            c.add_forces(
                &k,
                par,
                &cache.unit[..n],
                &mut cache.forces,
                cache.mobility.as_mut_slice(),
            );
            generalized_forces(model, data, &mut cache.forces, &mut cache.tau);
            for col in 0..model.nu() {
                cache.g[(row, col)] = cache.tau[col] + cache.mobility[col];
            }
        }
    }
    data.constraints = cache;
}

/// `τ = Jᵀ F`: generalized forces of body forces `forces` (about body origins, in Ground),
/// accumulated tip to base; `forces` is used as workspace.
pub fn generalized_forces<T: Real>(
    model: &Model<T>,
    data: &Data<T>,
    forces: &mut [SpatialVec<T>],
    tau: &mut DVector<T>,
) {
    for i in (1..model.nbodies()).rev() {
        let body = &model.bodies[i];
        for k in body.u_range() {
            tau[k] = data.pos.h_g[k].dot(&forces[i]);
        }
        let parent = body.parent.0;
        if parent != 0 {
            let f = shift_force(&forces[i], &(data.pos.x_gb[i].p - data.pos.x_gb[parent].p));
            forces[parent] += f;
        }
    }
}

/// Body accelerations `a_gb` from `data.acc.udot` (base to tip).
pub fn body_accelerations<T: Real>(model: &Model<T>, data: &mut Data<T>) {
    data.acc.a_gb[0] = SpatialVec::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let parent = body.parent.0;
        let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
        let mut a = shift_motion(&data.acc.a_gb[parent], &r) + data.vel.coriolis[i];
        for k in body.u_range() {
            a += data.pos.h_g[k] * data.acc.udot[k];
        }
        data.acc.a_gb[i] = a;
    }
}

/// Replaces the unconstrained `u̇₀` in `data` (from the articulated-body algorithm) by the
/// constrained accelerations and stores the multipliers and final acceleration errors.
pub fn constrained_accelerations<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &mut Data<T>,
) -> Result<()> {
    let m = model.n_constraint_rows;
    if m == 0 {
        return Ok(());
    }
    calc_constraint_jacobian(model, state, data);
    calc_acceleration_errors(model, state, data);
    let mut cache = std::mem::take(&mut data.constraints);
    let nu = model.nu();
    crba(model, data, &mut cache.mass);
    let mass = std::mem::replace(&mut cache.mass, DMatrix::zeros(0, 0));
    let Some(chol) = nalgebra::Cholesky::new(mass) else {
        // Give the cache its mass matrix back (the failed factorization consumed it), so that
        // the next evaluation, after the integrator shrinks its step, finds it sized nu × nu.
        cache.mass = DMatrix::zeros(nu, nu);
        data.constraints = cache;
        return Err(Error::Model(
            "the mass matrix is not positive definite".into(),
        ));
    };
    for r in 0..m {
        for c in 0..nu {
            cache.minv_gt[(c, r)] = cache.g[(r, c)];
        }
    }
    chol.solve_mut(&mut cache.minv_gt);
    cache.mass = chol.unpack();
    // `G (M⁻¹ Gᵀ)` entry by entry: nalgebra's product of dynamic matrices this size goes to
    // matrixmultiply, which allocates a packing buffer on every call.
    for r in 0..m {
        for c in 0..m {
            cache.schur[(r, c)] = cache.g.row(r).tr_dot(&cache.minv_gt.column(c));
        }
    }
    schur::factor_ldlt(&mut cache.schur, m, m as f64 * EPS_34);
    cache
        .multipliers
        .copy_from_slice(&cache.acceleration_errors);
    schur::solve_ldlt(&cache.schur, m, &mut cache.multipliers);
    for r in 0..m {
        let lambda = cache.multipliers[r];
        for c in 0..nu {
            data.acc.udot[c] -= cache.minv_gt[(c, r)] * lambda;
        }
    }
    data.constraints = cache;
    body_accelerations(model, data);
    calc_acceleration_errors(model, state, data);
    Ok(())
}
