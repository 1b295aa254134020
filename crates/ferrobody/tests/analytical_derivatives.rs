//! The analytical forward-dynamics Jacobians (`RneaDerivatives`, Carpentier–Mansard) against
//! the dual-number ones on random trees of the joints they cover, with gravity and constant
//! generalized forces; M against CRBA; the tree factors of M; the choice of path by
//! `ForwardDynamicsJacobian`. Contact: `analytical_derivatives_contact.rs`.

use crate::common;
use crate::covered_trees;

use covered_trees::{covered_tree, relative_gap};
use ferrobody::algorithms::crba;
use ferrobody::derivatives::{ForwardDynamicsJacobian, RneaDerivatives};
use ferrobody::pipeline::{forward_dynamics, realize};
use ferrobody::prelude::*;
use nalgebra::DMatrix;

#[test]
fn analytical_jacobians_match_dual_numbers_on_random_trees() {
    for seed in 0..40 {
        let n = 1 + (seed as usize * 7) % 13;
        let (model, state) = covered_tree(seed, n);
        assert!(RneaDerivatives::supports(&model, &state));
        let tau: Vec<f64> = (0..model.nu()).map(|k| 0.3 * k as f64 - 1.0).collect();
        let mut analytical = ForwardDynamicsJacobian::new(&model).unwrap();
        let mut dual = ForwardDynamicsJacobian::new(&model).unwrap();
        analytical.compute_analytical(&state, &tau).unwrap();
        dual.compute_dual(&state, &tau).unwrap();
        // Both are exact; the analytical path sums in another order, and −M⁻¹ ∂τ/∂x
        // amplifies round-off by M's condition number: seen 2e-15 over these 40 trees.
        let tolerance = 1e-11;
        for (name, a, d) in [
            ("du̇/dq", &analytical.dudot_dq, &dual.dudot_dq),
            ("du̇/du", &analytical.dudot_du, &dual.dudot_du),
            ("du̇/dτ", &analytical.dudot_dtau, &dual.dudot_dtau),
        ] {
            let gap = relative_gap(a, d);
            assert!(
                gap < tolerance,
                "seed {seed}, {n} bodies: {name} off by {gap:e}"
            );
        }
        assert!((&analytical.udot - &dual.udot).amax() < 1e-12);
    }
}

#[test]
fn the_mass_matrix_and_tau_of_the_analytical_pass_are_crba_and_rnea() {
    for seed in 0..20 {
        let (model, state) = covered_tree(seed, 9);
        let mut data = Data::new(&model);
        let udot: Vec<f64> = (0..model.nu()).map(|k| (k as f64).sin()).collect();
        realize(&model, &state, &mut data, Stage::Dynamics).unwrap();
        let mut rnea = RneaDerivatives::new(&model).unwrap();
        rnea.compute(&model, &state, &data, &udot);
        let mut mass = DMatrix::zeros(model.nu(), model.nu());
        crba(&model, &mut data, &mut mass);
        assert!(relative_gap(&rnea.mass, &mass) < 1e-13, "seed {seed}");
        // ferrobody's RNEA subtracts every applied force; the analytical τ leaves out the
        // constant generalized forces, so add them back.
        let residual = ferrobody::algorithms::rnea(&model, &mut data, &udot.clone().into());
        let expected = residual + data.mobility_forces().unwrap();
        let gap = (&rnea.tau - expected).amax();
        assert!(gap < 1e-10, "seed {seed}: τ off by {gap:e}");
    }
}

#[test]
fn models_outside_the_covered_set_take_the_dual_path_and_agree() {
    // A Free body: not covered (its columns are fixed in F, not in the body).
    let (model, state) = common::random_tree(3, 5);
    assert!(!RneaDerivatives::supports(&model, &state));
    // A covered tree with gravity switched off in the state stays covered.
    let (model, mut state) = covered_tree(5, 6);
    let gravity = ForceId(model.forces().len() - 1);
    model.disable_force(&mut state, gravity).unwrap();
    assert!(RneaDerivatives::supports(&model, &state));
    let tau = vec![0.0; model.nu()];
    let mut analytical = ForwardDynamicsJacobian::new(&model).unwrap();
    analytical.compute(&state, &tau).unwrap();
    let mut dual = ForwardDynamicsJacobian::new(&model).unwrap();
    dual.compute_dual(&state, &tau).unwrap();
    assert!(relative_gap(&analytical.dudot_dq, &dual.dudot_dq) < 1e-9);
    let mut data = Data::new(&model);
    forward_dynamics(&model, &state, &mut data, &tau).unwrap();
    assert!((&analytical.udot - data.udot().unwrap()).amax() == 0.0);
}

#[test]
fn the_analytical_path_refuses_a_model_it_does_not_cover() {
    let (model, state) = common::random_tree(3, 5);
    let mut jacobian = ForwardDynamicsJacobian::new(&model).unwrap();
    let err = jacobian
        .compute_analytical(&state, &vec![0.0; model.nu()])
        .unwrap_err();
    assert!(err.to_string().contains("compute_dual"), "{err}");
}

#[test]
fn quaternions_off_unit_length_get_the_derivative_of_the_normalized_rotation() {
    // The rotation is that of q/|q|, so u̇ does not change along q: ∂u̇/∂q · q = 0 for each
    // quaternion, and the analytical columns (2 G(q̂)/|q|) match the dual ones.
    for seed in 0..10 {
        let (model, mut state) = covered_tree(seed, 9);
        for &s in model.quaternion_starts() {
            for k in 0..4 {
                state.q[s + k] *= 1.3;
            }
        }
        let tau = vec![0.5; model.nu()];
        let mut analytical = ForwardDynamicsJacobian::new(&model).unwrap();
        analytical.compute_analytical(&state, &tau).unwrap();
        let mut dual = ForwardDynamicsJacobian::new(&model).unwrap();
        dual.compute_dual(&state, &tau).unwrap();
        assert!(relative_gap(&analytical.dudot_dq, &dual.dudot_dq) < 1e-11);
        for &s in model.quaternion_starts() {
            let along_q = analytical.dudot_dq.columns(s, 4) * state.q.rows(s, 4);
            assert!(along_q.amax() < 1e-12, "seed {seed}: {:e}", along_q.amax());
        }
    }
}

#[test]
fn tree_factors_of_the_mass_matrix_solve_like_dense_cholesky() {
    for seed in 0..10 {
        let (model, state) = covered_tree(seed, 11);
        let mut data = Data::new(&model);
        realize(&model, &state, &mut data, Stage::Position).unwrap();
        let nu = model.nu();
        let mut mass = DMatrix::zeros(nu, nu);
        crba(&model, &mut data, &mut mass);
        let mut ltdl = ferrobody::algorithms::MassLtdl::new(&model);
        ltdl.factor(&mass).unwrap();
        // Three right-hand sides as rows.
        let b = DMatrix::from_fn(nu, 3, |r, c| ((r * 3 + c) as f64).cos());
        let mut rows = b.transpose();
        ltdl.solve_rows(&mut rows);
        let dense = mass.clone().cholesky().unwrap().solve(&b);
        assert!(
            relative_gap(&rows.transpose(), &dense) < 1e-12,
            "seed {seed}"
        );
        // A matrix that is not positive definite is refused.
        mass[(nu - 1, nu - 1)] = -1.0;
        assert!(ltdl.factor(&mass).is_err());
    }
}
