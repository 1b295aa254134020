//! `derivatives::ForwardDynamicsJacobian` against central finite differences of
//! `pipeline::forward_dynamics` on random trees (every mobilizer kind) with smooth
//! sphere/half-space contact on every body, and ∂u̇/∂τ against the inverse mass matrix.

use crate::common;

use common::{add_random_bodies, add_random_forces, random_state, Rng};
use ferrobody::algorithms::crba;
use ferrobody::contact::{SmoothContactParameters, SmoothSphereHalfSpaceForce};
use ferrobody::derivatives::{ForwardDynamicsJacobian, ForwardDynamicsJacobianLanes};
use ferrobody::pipeline::forward_dynamics;
use ferrobody::prelude::*;
use ferrobody::simulation::StepJacobian;
use nalgebra::{DMatrix, DVector};

/// A random tree of `n` bodies whose every body carries a 0.4 m sphere against a ground half
/// space (solid y < 0.2), Simbody's smooth contact with OpenSim's default smoothing.
fn tree_with_contact(seed: u64, n: usize) -> (Model<f64>, State<f64>) {
    let mut rng = Rng::new(seed);
    let mut b = ModelBuilder::<f64>::new();
    add_random_bodies(&mut b, &mut rng, n, seed as usize, add_random_forces);
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut ground = Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
    ground.p = Vector3::new(0.0, 0.2, 0.0);
    let parameters = SmoothContactParameters::new(1e4, 1.0, 0.8, 0.5, 0.1, 0.2, 1e-5, 300.0, 50.0);
    for k in 1..=n {
        let mut f = SmoothSphereHalfSpaceForce::new(
            BodyId(k),
            rng.vec3(0.2),
            0.4,
            BodyId::GROUND,
            ground,
            parameters,
        )
        .unwrap();
        f.name = format!("contact{k}");
        b.add_force(Force::SmoothSphereHalfSpace(f)).unwrap();
    }
    let model = b.build().unwrap();
    let state = random_state(&model, &mut rng, 1.0);
    (model, state)
}

fn udot(model: &Model<f64>, state: &State<f64>, tau: &[f64]) -> DVector<f64> {
    let mut data = Data::new(model);
    forward_dynamics(model, state, &mut data, tau).unwrap();
    data.udot().unwrap().clone()
}

/// Central differences of u̇ in every q, u and τ direction: steps of 1e-6 max(1, |x|) in q and
/// u; in τ, on which u̇ depends linearly (no truncation error), steps of 1, so that the
/// cancellation error ε |u̇| / h stays far below the tolerance.
fn finite_differences(model: &Model<f64>, state: &State<f64>, tau: &[f64]) -> [DMatrix<f64>; 3] {
    let (nq, nu) = (model.nq(), model.nu());
    let mut out = [
        DMatrix::zeros(nu, nq),
        DMatrix::zeros(nu, nu),
        DMatrix::zeros(nu, nu),
    ];
    for (which, n) in [nq, nu, nu].into_iter().enumerate() {
        let h0 = if which == 2 { 1.0 } else { 1e-6 };
        for i in 0..n {
            let at = |sign: f64| {
                let (mut s, mut t) = (state.clone(), tau.to_vec());
                let x = match which {
                    0 => &mut s.q[i],
                    1 => &mut s.u[i],
                    _ => &mut t[i],
                };
                let h = h0 * x.abs().max(1.0);
                *x += sign * h;
                (udot(model, &s, &t), h)
            };
            let ((plus, h), (minus, _)) = (at(1.0), at(-1.0));
            out[which].set_column(i, &((plus - minus) / (2.0 * h)));
        }
    }
    out
}

#[test]
fn jacobians_of_forward_dynamics_with_contact_match_central_differences() {
    for seed in 0..6 {
        let (model, state) = tree_with_contact(seed, 9);
        let mut rng = Rng::new(100 + seed);
        let tau: Vec<f64> = (0..model.nu()).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let mut jacobian = ForwardDynamicsJacobian::new(&model).unwrap();
        jacobian.compute(&state, &tau).unwrap();
        // The real parts are the f64 evaluation, to round-off: num-dual divides by multiplying
        // with the reciprocal (measured: 1e-16 of the largest acceleration).
        let plain = udot(&model, &state, &tau);
        assert!((&jacobian.udot - &plain).amax() <= 1e-14 * plain.amax());
        let fd = finite_differences(&model, &state, &tau);
        let exact = [&jacobian.dudot_dq, &jacobian.dudot_du, &jacobian.dudot_dtau];
        for (name, (e, f)) in ["du̇/dq", "du̇/du", "du̇/dτ"]
            .iter()
            .zip(exact.iter().zip(&fd))
        {
            // Relative to the largest entry: central differences with h = 1e-6 err by
            // O(h² f''') + O(ε |f| / h): measured at most 1e-9 of the scale; the issue asks 1e-6.
            let scale = f.amax().max(1.0);
            let error = (*e - f).amax() / scale;
            assert!(
                error < 1e-6,
                "seed {seed} {name}: relative error {error:e} (scale {scale:e})"
            );
        }
        // Contact is active: some sphere is in the ground, so q enters through it.
        assert!(jacobian.dudot_dq.amax() > 0.0);
    }
}

#[test]
fn jacobians_with_constraints_match_central_differences() {
    // A rolling ball held on a sphere (SphereOnSphereContact, three rows) beside a random tree
    // with contact: u̇ comes from the constrained solve, and ∂u̇/∂τ from the dual passes.
    let mut rng = Rng::new(11);
    let mut b = ModelBuilder::<f64>::new();
    add_random_bodies(&mut b, &mut rng, 4, 2, add_random_forces);
    let (ball, _) = common::add_ball_on_sphere(&mut b, BodyId::GROUND, true);
    let model = b.build().unwrap();
    let mut state = random_state(&model, &mut rng, 0.5);
    let on_sphere = [1.0, 0.0, 0.0, 0.0, 0.3, (1.25f64 * 1.25 - 0.09).sqrt(), 0.0];
    state.set_body_q(&model, ball, &on_sphere);
    let tau: Vec<f64> = (0..model.nu()).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let mut jacobian = ForwardDynamicsJacobian::new(&model).unwrap();
    jacobian.compute(&state, &tau).unwrap();
    let fd = finite_differences(&model, &state, &tau);
    let exact = [&jacobian.dudot_dq, &jacobian.dudot_du, &jacobian.dudot_dtau];
    for (name, (e, f)) in ["du̇/dq", "du̇/du", "du̇/dτ"]
        .iter()
        .zip(exact.iter().zip(&fd))
    {
        let error = (*e - f).amax() / f.amax().max(1.0);
        assert!(error < 1e-6, "{name}: relative error {error:e}");
    }
    // The constraint couples the ball to τ of no other body, and the ball's own τ does not
    // give M⁻¹: the multipliers take part (a rolling ball accelerates less than a free one).
    let mut data = Data::new(&model);
    realize(&model, &state, &mut data, Stage::Position).unwrap();
    let mut m = DMatrix::zeros(model.nu(), model.nu());
    crba(&model, &mut data, &mut m);
    let free = m.try_inverse().unwrap();
    assert!((&free - &jacobian.dudot_dtau).amax() > 1e-3);
}

#[test]
fn dudot_dtau_is_the_inverse_mass_matrix_without_constraints() {
    let (model, state) = tree_with_contact(7, 12);
    let tau = vec![0.0; model.nu()];
    let mut jacobian = ForwardDynamicsJacobian::new(&model).unwrap();
    jacobian.compute(&state, &tau).unwrap();
    let mut data = Data::new(&model);
    realize(&model, &state, &mut data, Stage::Position).unwrap();
    let mut m = DMatrix::zeros(model.nu(), model.nu());
    crba(&model, &mut data, &mut m);
    let identity = &m * &jacobian.dudot_dtau;
    // M M⁻¹ = I to round-off of a Cholesky solve on a well-conditioned 12-body tree.
    let error = (identity - DMatrix::identity(model.nu(), model.nu())).amax();
    assert!(error < 1e-11, "|M ∂u̇/∂τ − I| = {error:e}");
}

#[test]
fn a_workspace_gives_the_same_jacobians_on_every_call() {
    let (model, state) = tree_with_contact(3, 6);
    let tau = vec![0.3; model.nu()];
    let mut once = ForwardDynamicsJacobian::new(&model).unwrap();
    once.compute(&state, &tau).unwrap();
    let mut reused = ForwardDynamicsJacobian::new(&model).unwrap();
    let mut shifted = state.clone();
    shifted.u.iter_mut().for_each(|u| *u += 0.5);
    reused.compute(&shifted, &tau).unwrap();
    reused.compute(&state, &tau).unwrap();
    assert_eq!(once.dudot_dq, reused.dudot_dq);
    assert_eq!(once.dudot_du, reused.dudot_du);
    assert_eq!(once.dudot_dtau, reused.dudot_dtau);
}

#[test]
fn every_width_of_dual_numbers_gives_the_same_jacobians() {
    // 3 and 32 lanes take other passes over the same directions (the last one part empty);
    // each lane's arithmetic is the same, so the Jacobians agree to the bit.
    let (model, state) = tree_with_contact(5, 6);
    let tau = vec![0.3; model.nu()];
    let mut eight = ForwardDynamicsJacobian::new(&model).unwrap();
    eight.compute(&state, &tau).unwrap();
    let mut three = ForwardDynamicsJacobianLanes::<3>::new(&model).unwrap();
    three.compute(&state, &tau).unwrap();
    let mut wide = ForwardDynamicsJacobianLanes::<32>::new(&model).unwrap();
    wide.compute(&state, &tau).unwrap();
    for other in [
        (&three.dudot_dq, &three.dudot_du),
        (&wide.dudot_dq, &wide.dudot_du),
    ] {
        assert_eq!(&eight.dudot_dq, other.0);
        assert_eq!(&eight.dudot_du, other.1);
    }
    assert_eq!(eight.udot, wide.udot);
}

/// x₊ of one step of `h` from `state` with `settings`, in f64, after setting the parameters.
fn step_f64(
    model: &Model<f64>,
    state: &State<f64>,
    settings: IntegratorSettings,
    h: f64,
) -> DVector<f64> {
    let mut sim = Simulation::new(model, state.clone(), settings).unwrap();
    sim.advance_to(state.t + h).unwrap();
    let s = sim.state();
    DVector::from_iterator(
        model.nq() + model.nu() + model.nz(),
        s.q.iter().chain(s.u.iter()).chain(s.z.iter()).copied(),
    )
}

#[test]
fn step_jacobians_match_central_differences() {
    let (model, state) = tree_with_contact(5, 5);
    let h = 2e-3;
    let parameters = [
        ("contact1", "stiffness"),
        ("contact2", "dissipation"),
        ("contact3", "dynamic_friction"),
        ("contact4", "transition_velocity"),
    ];
    let fixed = IntegratorSettings::fixed(IntegratorKind::RungeKutta4, h);
    let merson = IntegratorSettings {
        initial_step: Some(h),
        min_step: Some(h),
        max_step: Some(h),
        ..IntegratorSettings::rk_merson(1e-3)
    };
    for settings in [fixed, merson] {
        let mut jacobian = StepJacobian::new(&model, settings, h, &parameters).unwrap();
        jacobian.compute(&state).unwrap();
        let plain = step_f64(&model, &state, settings, h);
        assert!((&jacobian.x_next - &plain).amax() <= 1e-13 * plain.amax().max(1.0));
        let (nq, nu) = (model.nq(), model.nu());
        assert_eq!(model.nz(), 0, "the differences below perturb q and u");
        let ny = nq + nu;
        let mut fd_x = DMatrix::zeros(ny, ny);
        for i in 0..ny {
            let at = |sign: f64| {
                let mut s = state.clone();
                let x = if i < nq {
                    &mut s.q[i]
                } else {
                    &mut s.u[i - nq]
                };
                let step = 1e-6 * x.abs().max(1.0);
                *x += sign * step;
                (step_f64(&model, &s, settings, h), step)
            };
            let ((p, step), (m, _)) = (at(1.0), at(-1.0));
            fd_x.set_column(i, &((p - m) / (2.0 * step)));
        }
        let mut fd_p = DMatrix::zeros(ny, parameters.len());
        for (k, (force, parameter)) in parameters.iter().enumerate() {
            let value = model.force_parameter(force, parameter).unwrap();
            let step = 1e-6 * value.abs();
            let at = |v: f64| {
                let mut m = model.clone();
                m.set_force_parameter(force, parameter, v).unwrap();
                step_f64(&m, &state, settings, h)
            };
            fd_p.set_column(k, &((at(value + step) - at(value - step)) / (2.0 * step)));
        }
        for (name, exact, fd) in [
            ("dx/dx", &jacobian.dx_dx, &fd_x),
            ("dx/dp", &jacobian.dx_dp, &fd_p),
        ] {
            // Relative to the largest entry of each column block, as for forward dynamics.
            let error = (exact - fd).amax() / fd.amax().max(1.0);
            // Measured: 2.5e-10 (∂x₊/∂x) and 5e-9 (∂x₊/∂p); the issue asks 1e-6.
            assert!(
                error < 1e-6,
                "{:?} {name}: relative error {error:e}",
                settings.kind
            );
        }
        // The parameters matter here: the spheres touch the ground.
        assert!(jacobian.dx_dp.amax() > 0.0);
    }
}
