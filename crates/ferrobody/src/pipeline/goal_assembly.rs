//! Assembly toward goals: OpenSim's `Model::assemble` at `initSystem`, which hands Simbody's
//! `Assembler` one `QValue` goal per coordinate (its default value, weight 1) and the
//! constraints as hard conditions (weight ∞), and lets IPOPT find
//!
//! ```text
//!   min_q  ½ Σᵢ wᵢ (qᵢ − q̄ᵢ)²    subject to   c(q) = 0
//! ```
//!
//! with wᵢ = 0 for the coordinates that have no goal (a coupler's dependent coordinate, one
//! marked `is_free_to_satisfy_constraints`). Here the same optimum is found by sequential
//! quadratic programming: at each iterate, with C = ∂c/∂q (the holonomic rows of G mapped to q
//! by N⁺), g = W(q − q̄) and M = W + εI,
//!
//! ```text
//!   (C M⁻¹ Cᵀ) λ = c − C M⁻¹ g,      Δq = −M⁻¹ (g + Cᵀ λ)
//! ```
//!
//! (λ by a pseudo-inverse, so redundant constraints are allowed). A fixed point has
//! `W(q − q̄) + Cᵀλ = 0` and `c = 0`: the optimum's conditions, whatever ε. ε only steers the
//! coordinates without goals that no constraint involves (they stay where they are, as
//! IPOPT's regularized steps leave them). IPOPT stops at OpenSim's `assembly_accuracy` (1e-9);
//! this runs to round-off, so the two agree to about that accuracy.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/Model.cpp` (`assemble`,
//! `createAssemblySolver`), `OpenSim/Simulation/AssemblySolver.cpp` (`setupGoals`); Simbody
//! `Simbody/src/Assembler.cpp`.

use super::constraint_dynamics::calc_constraint_jacobian;
use super::projection::steps::{map_to_u, select_rows};
use super::projection::ProjectionWorkspace;
use crate::data::{Data, Stage};
use crate::error::{Error, Result, SimulationFailure};
use crate::model::Model;
use crate::pipeline::realize;
use crate::state::State;
use nalgebra::{DMatrix, DVector};

/// The weight of a coordinate without a goal in M (the step regularization, relative to the
/// goals' weight 1).
const FREE_WEIGHT: f64 = 1e-6;
/// Iterations before giving up (the goal is quadratic: a few suffice unless the constraints
/// curve strongly).
const MAX_ITERATIONS: usize = 200;
/// The last step's largest change of a q when the optimum is taken as found (rad or m): a
/// tenth of OpenSim's `assembly_accuracy`, IPOPT's tolerance there. (With redundant
/// constraints the steps settle at round-off, 1e-11, rather than zero.)
const STEP_TOLERANCE: f64 = 1e-10;
/// Singular values of `C M⁻¹ Cᵀ` below this fraction of the largest are redundant rows.
const RANK_TOLERANCE: f64 = 1e-12;

/// Moves `state.q` to the q nearest its current value in the weighted sense above
/// (`weights[i]` for q number i: 1 for a goal, 0 for none) that satisfies the enabled position
/// constraints, iterating until the steps vanish. Where the constraints cannot all be met
/// (inconsistent rows) it ends at their least-squares fit; whether that is good enough is for
/// the projection that follows ([`super::assembly::assemble`]) to judge. Velocities are left
/// as they are. An error if the steps do not settle.
pub fn assemble_toward_goals(
    model: &Model<f64>,
    state: &mut State<f64>,
    weights: &[f64],
) -> Result<()> {
    let (nq, nu) = (model.nq(), model.nu());
    if weights.len() != nq {
        return Err(Error::Model(
            format!("assembly goals: {} weights for {nq} q", weights.len()).into(),
        ));
    }
    let goal = state.q.clone();
    let minv = DVector::from_iterator(nq, weights.iter().map(|w| 1.0 / (w + FREE_WEIGHT)));
    let mut data = Data::new(model);
    let mut ws = ProjectionWorkspace::new(model);
    let mut n_plus = DMatrix::zeros(nu, nq);
    let mut column = DVector::zeros(nu);
    for _ in 0..MAX_ITERATIONS {
        realize(model, state, &mut data, Stage::Position)?;
        calc_constraint_jacobian(model, state, &mut data);
        select_rows(model, state, true, &mut ws);
        if ws.rows.is_empty() {
            return Ok(());
        }
        let errors = DVector::from_iterator(
            ws.position_rows.len(),
            ws.position_rows
                .iter()
                .map(|&p| data.constraints.position_errors[p]),
        );
        q_to_u(model, state, &mut n_plus, &mut column);
        let c_u = data.constraints.g.select_rows(ws.rows.iter());
        let c_q = c_u * &n_plus;
        let g = DVector::from_iterator(nq, (0..nq).map(|i| weights[i] * (state.q[i] - goal[i])));
        let c_minv = DMatrix::from_fn(c_q.nrows(), nq, |r, j| c_q[(r, j)] * minv[j]);
        let normal = &c_minv * c_q.transpose();
        let rhs = &errors - &c_minv * &g;
        let lambda = pseudo_solve(normal, &rhs);
        let step = -(g + c_q.transpose() * lambda).component_mul(&minv);
        for i in 0..nq {
            state.q[i] += step[i];
        }
        // Converged, or stalled where the constraints cannot all be met to the tolerance
        // (inconsistent rows: the caller's projection then judges the pose).
        if step.amax() <= STEP_TOLERANCE {
            realize(model, state, &mut data, Stage::Position)?;
            return Ok(());
        }
    }
    Err(Error::simulation(
        state.t,
        SimulationFailure::Constraints(format!(
            "assembly failed: the search for the pose nearest the default values that satisfies the constraints did not settle in {MAX_ITERATIONS} iterations"
        )),
    ))
}

/// `N⁺` (nu × nq), the map from q̇ to u, block by mobilizer: the inverse of the mobilizer's
/// `N` (q̇ = N u) where it has as many q as u (Euler angles included, away from their singular
/// poses), else the projection's map (quaternions).
fn q_to_u(
    model: &Model<f64>,
    state: &State<f64>,
    n_plus: &mut DMatrix<f64>,
    du: &mut DVector<f64>,
) {
    n_plus.fill(0.0);
    let q = state.q.as_slice();
    let mut unit = vec![0.0; model.nq()];
    for b in &model.bodies[1..] {
        let (qs, us) = (b.q_range(), b.u_range());
        if qs.len() == us.len() && b.mobilizer.quaternion_offset().is_none() {
            let mut n = DMatrix::zeros(qs.len(), us.len());
            let (mut u, mut qdot) = (vec![0.0; us.len()], vec![0.0; qs.len()]);
            for k in 0..us.len() {
                u[k] = 1.0;
                b.mobilizer.qdot(&q[qs.clone()], &u, &mut qdot);
                u[k] = 0.0;
                n.set_column(k, &DVector::from_column_slice(&qdot));
            }
            if let Some(inverse) = n.try_inverse() {
                n_plus
                    .view_mut((us.start, qs.start), (us.len(), qs.len()))
                    .copy_from(&inverse);
                continue;
            }
        }
        for j in qs.clone() {
            unit[j] = 1.0;
            map_to_u(model, q, &unit, du);
            for i in us.clone() {
                n_plus[(i, j)] = du[i];
            }
            unit[j] = 0.0;
        }
    }
}

/// `A⁺ b` for a symmetric positive semi-definite `A` (redundant rows give zero singular values).
fn pseudo_solve(a: DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let svd = a.svd(true, true);
    let largest = svd.singular_values.max();
    svd.solve(b, RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE))
        .unwrap_or_else(|_| DVector::zeros(b.len()))
}
