//! Every constraint kind on random trees: its equations hang together.
//!
//! * Force/velocity duality: the power of the constraint forces equals `−λ·verr` (row j of G
//!   is the generalized force of unit multiplier j, so `G u = verr`).
//! * Holonomic rows: `verr` is the time derivative of `perr` (central differences along
//!   q̇ = N u).
//! * On an assembled state, the constrained accelerations keep `verr` at zero to second order:
//!   the central-difference derivative of `verr` along (q̇, u̇) vanishes, which fails if an
//!   acceleration-error formula is not the derivative of its velocity error.
//! * Simbody's PointInPlane check (notes §6.6, TestConstraints.cpp).

use crate::common;

use common::{add_random_bodies, random_transform, Rng};
use ferrobody::constraints::*;
use ferrobody::pipeline::assembly::assemble;
use ferrobody::prelude::*;

fn random_constraint(rng: &mut Rng, kind: usize, b1: BodyId, b2: BodyId) -> Constraint<f64> {
    let normal = rng.vec3(1.0).normalize();
    match kind {
        0 => Constraint::Ball(Ball {
            body1: b1,
            point1: rng.vec3(0.5),
            body2: b2,
            point2: rng.vec3(0.5),
        }),
        1 => Constraint::Weld(Weld {
            body1: b1,
            frame1: random_transform(rng),
            body2: b2,
            frame2: random_transform(rng),
        }),
        2 => Constraint::Rod(Rod {
            body1: b1,
            point1: rng.vec3(0.5),
            body2: b2,
            point2: rng.vec3(0.5),
            length: 0.7,
        }),
        3 => Constraint::PointInPlane(PointInPlane {
            plane_body: b1,
            normal,
            height: 0.3,
            follower: b2,
            point: rng.vec3(0.5),
        }),
        4 => Constraint::PointOnPlaneContact(PointOnPlaneContact {
            surface_body: b1,
            plane_frame: random_transform(rng),
            follower: b2,
            point: rng.vec3(0.5),
        }),
        5 | 6 => Constraint::SphereOnPlaneContact(SphereOnPlaneContact {
            plane_body: b1,
            plane_frame: random_transform(rng),
            ball: b2,
            center: rng.vec3(0.3),
            radius: 0.2,
            enforce_rolling: kind == 6,
        }),
        9 => Constraint::PointOnLine(PointOnLine {
            line_body: b1,
            direction: normal,
            point_on_line: rng.vec3(0.3),
            follower: b2,
            point: rng.vec3(0.3),
        }),
        10 => Constraint::CoordinateCoupler(CoordinateCoupler {
            independent: CoordinateRef::new(b1, 0),
            dependent: CoordinateRef::new(b2, 0),
            function: ferrobody::math::function::Function::Sine {
                amplitude: 0.7,
                omega: 1.9,
                phase: 0.4,
                offset: 0.1,
            },
            scale: -1.3,
        }),
        _ => Constraint::SphereOnSphereContact(SphereOnSphereContact::new(
            b1,
            rng.vec3(0.3),
            0.4,
            b2,
            rng.vec3(0.3),
            0.3,
            kind == 8,
        )),
    }
}

/// Constraint kinds: Ball, Weld, Rod, PointInPlane, PointOnPlaneContact, SphereOnPlaneContact
/// (sliding, rolling), SphereOnSphereContact (sliding, rolling), PointOnLine, CoordinateCoupler.
const KINDS: usize = 11;

/// A random 6-body tree with one constraint of `kind` (0..KINDS) between two of its bodies
/// (for the coupler, two whose first coordinate has q̇ = u). A
/// Weld's second frame coincides with the first at the random state (the path between two
/// random bodies seldom has the six mobilities that an offset Weld would need), so only its
/// velocity errors need projecting.
fn constrained_tree(seed: u64, kind: usize) -> (Model<f64>, State<f64>, ConstraintId) {
    let (model, state, id) = constrained_tree_with(seed, kind, None);
    let Constraint::Weld(w) = model.constraint(id).unwrap() else {
        return (model, state, id);
    };
    let data = realized(&model, &state);
    let x_gf = data.poses().unwrap()[w.body1.0] * w.frame1;
    let frame2 = data.poses().unwrap()[w.body2.0].inverse() * x_gf;
    constrained_tree_with(seed, kind, Some(frame2))
}

fn constrained_tree_with(
    seed: u64,
    kind: usize,
    weld_frame2: Option<Transform<f64>>,
) -> (Model<f64>, State<f64>, ConstraintId) {
    let mut rng = Rng::new(seed);
    let mut b = ModelBuilder::<f64>::new();
    add_random_bodies(&mut b, &mut rng, 6, seed as usize, |_, _, _, _| {});
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let b1 = BodyId(rng.below(3));
    let b2 = BodyId(3 + rng.below(4));
    let mut c = random_constraint(&mut rng, kind, b1, b2);
    if let Constraint::CoordinateCoupler(coupler) = &mut c {
        // The first and last coordinates of the tree whose q̇ = u.
        let coordinates: Vec<CoordinateRef> = (1..=6)
            .map(BodyId)
            .filter_map(|id| b.mobilizer(id).map(|m| (id, m)))
            .filter(|(_, m)| m.qdot_is_u())
            .flat_map(|(id, m)| (0..m.nu()).map(move |k| CoordinateRef::new(id, k)))
            .collect();
        assert!(
            coordinates.len() >= 2,
            "seed {seed}: too few q̇ = u coordinates"
        );
        coupler.independent = coordinates[0];
        coupler.dependent = coordinates[coordinates.len() - 1];
    }
    if let (Constraint::Weld(w), Some(f2)) = (&mut c, weld_frame2) {
        w.frame2 = f2;
    }
    let id = b.add_constraint(c).unwrap();
    let model = b.build().unwrap();
    let mut state = model.default_state();
    for i in 0..model.nq() {
        state.q[i] = rng.uniform(-1.0, 1.0);
    }
    for i in 0..model.nu() {
        state.u[i] = rng.uniform(-1.0, 1.0);
    }
    (model, state, id)
}

fn realized(model: &Model<f64>, state: &State<f64>) -> Data<f64> {
    let mut data = Data::new(model);
    realize(model, state, &mut data, Stage::Acceleration).unwrap();
    data
}

/// `state` moved by `h` along q̇ = N u and u̇.
fn shifted(state: &State<f64>, data: &Data<f64>, h: f64) -> State<f64> {
    let mut s = state.clone();
    s.q += data.qdot().unwrap() * h;
    s.u += data.udot().unwrap() * h;
    s
}

#[test]
fn constraint_forces_are_dual_to_velocity_errors() {
    for kind in 0..KINDS {
        let mut checked = 0;
        for seed in 0..12 {
            let (model, state, id) = constrained_tree(100 * kind as u64 + seed, kind);
            let data = realized(&model, &state);
            let lambda = model.constraint_multipliers(&data, id).unwrap();
            let verr = model.constraint_velocity_errors(&data, id).unwrap();
            let expected: f64 = -lambda.iter().zip(verr).map(|(l, v)| l * v).sum::<f64>();
            let power = model.constraint_power(&state, &data, id).unwrap();
            // Round-off of a sum is relative to the sum of its terms' sizes; a random
            // configuration near a singular one (body forces of 1e18 N cancelling to a few W)
            // tests nothing at that scale and is skipped.
            let forces = model.constraint_body_forces(&state, &data, id).unwrap();
            let terms: f64 = forces
                .iter()
                .zip(data.velocities().unwrap())
                .map(|(f, v)| f.dot(v).abs())
                .sum();
            if terms > 1e6 * (1.0 + expected.abs()) {
                continue;
            }
            let scale = 1.0 + expected.abs().max(terms);
            assert!(
                (power - expected).abs() < 1e-10 * scale,
                "kind {kind}: power {power} vs −λ·verr {expected}"
            );
            assert!(
                expected.abs() > 1e-6,
                "kind {kind}: the check must not be vacuous"
            );
            checked += 1;
            if checked == 4 {
                break;
            }
        }
        assert_eq!(
            checked, 4,
            "kind {kind}: too few well-conditioned random trees"
        );
    }
}

#[test]
fn velocity_errors_are_the_rate_of_position_errors() {
    let h = 1e-6;
    for kind in 0..KINDS {
        for seed in 0..4 {
            let (model, state, id) = constrained_tree(100 * kind as u64 + seed, kind);
            let data = realized(&model, &state);
            let perr = |s: &State<f64>| {
                realized(&model, s)
                    .constraint_position_errors()
                    .unwrap()
                    .to_vec()
            };
            let (plus, minus) = (
                perr(&shifted(&state, &data, h)),
                perr(&shifted(&state, &data, -h)),
            );
            let verr = model.constraint_velocity_errors(&data, id).unwrap();
            // Weld's orientation error is sinvec(R_FM), whose rate is ω2 − ω1 only at R_FM = I;
            // its translational rows are exact.
            let first = if kind == 1 { 3 } else { 0 };
            for r in first..plus.len() {
                let fd = (plus[r] - minus[r]) / (2.0 * h);
                // Central differences: O(h²) truncation plus rounding eps/h ≈ 1e-10.
                assert!(
                    (fd - verr[r]).abs() < 1e-7 * (1.0 + fd.abs()),
                    "kind {kind} row {r}: {fd} vs {}",
                    verr[r]
                );
            }
        }
    }
}

#[test]
fn constrained_accelerations_keep_velocity_errors_at_zero() {
    let h = 1e-5;
    let mut checked = [0; KINDS];
    for (kind, checked) in checked.iter_mut().enumerate() {
        for seed in 0..6 {
            let (model, mut state, id) = constrained_tree(100 * kind as u64 + seed, kind);
            if assemble(&model, &mut state, 1e-12).is_err() {
                continue; // a random pair may be unable to meet (e.g. a rod longer than reach)
            }
            *checked += 1;
            let data = realized(&model, &state);
            let rows = model.constraint_rows(id).unwrap().range();
            let verr = |s: &State<f64>| {
                realized(&model, s).constraint_velocity_errors().unwrap()[rows.clone()].to_vec()
            };
            let (plus, minus) = (
                verr(&shifted(&state, &data, h)),
                verr(&shifted(&state, &data, -h)),
            );
            let aerr = model.constraint_acceleration_errors(&data, id).unwrap();
            for r in 0..plus.len() {
                let rate = (plus[r] - minus[r]) / (2.0 * h);
                // The state is on the manifold to 1e-12, so the rate is O(h²) ≈ 1e-10 times the
                // third derivative, plus rounding (eps/h ≈ 1e-11).
                assert!(
                    rate.abs() < 1e-6 && aerr[r].abs() < 1e-9,
                    "kind {kind} row {r}: d/dt verr = {rate}, aerr {}",
                    aerr[r]
                );
            }
        }
    }
    eprintln!("assembled states checked per kind: {checked:?}");
    assert!(
        checked.iter().all(|&n| n >= 4),
        "too few assembled states: {checked:?}"
    );
}

#[test]
fn point_in_plane_on_a_ten_body_chain_matches_simbodys_check() {
    // TestConstraints.cpp: a 10-body chain of Gimbal/Universal/Ball mobilizers, the plane on
    // the first body (n = (1, 0.5, 0)/|·|, h = 2), the point (1, 2.5, −3) on the last.
    let mut rng = Rng::new(7);
    let mut b = ModelBuilder::<f64>::new();
    let kinds = [Mobilizer::Gimbal, Mobilizer::Universal, Mobilizer::Ball];
    let mut parent = BodyId::GROUND;
    for i in 0..10 {
        let def = BodyDef::new(
            &format!("b{i}"),
            parent,
            kinds[i % 3],
            common::random_mass_properties(&mut rng),
        )
        .with_x_pf(Transform::from_translation(Vector3::new(0.0, -0.5, 0.0)))
        .with_x_bm(Transform::from_translation(Vector3::new(0.0, 0.5, 0.0)));
        parent = b.add_body(def).unwrap();
    }
    let normal = Vector3::new(1.0, 0.5, 0.0).normalize();
    let point = Vector3::new(1.0, 2.5, -3.0);
    let c = PointInPlane {
        plane_body: BodyId(1),
        normal,
        height: 2.0,
        follower: BodyId(10),
        point,
    };
    let id = b.add_constraint(Constraint::PointInPlane(c)).unwrap();
    let model = b.build().unwrap();
    for trial in 0..5 {
        let mut state = model.default_state();
        for i in 0..model.nq() {
            state.q[i] = rng.uniform(-1.0, 1.0);
        }
        for i in 0..model.nu() {
            state.u[i] = rng.uniform(-1.0, 1.0);
        }
        assemble(&model, &mut state, 1e-10).unwrap();
        let data = realized(&model, &state);
        let x_g1 = &data.poses().unwrap()[1];
        let p_1s = x_g1.r.transpose() * (data.poses().unwrap()[10].apply(&point) - x_g1.p);
        let perr = model.constraint_position_errors(&data, id).unwrap()[0];
        assert!(
            (p_1s.dot(&normal) - 2.0).abs() < 1e-10,
            "trial {trial}: p·n − h = {}",
            p_1s.dot(&normal) - 2.0
        );
        assert!((perr - (p_1s.dot(&normal) - 2.0)).abs() < 1e-14);
        let verr = model.constraint_velocity_errors(&data, id).unwrap()[0];
        // v·n of the point seen from body 1, computed from body velocities directly.
        let v = |i: usize, p: &Vector3<f64>| {
            let s = &data.velocities().unwrap()[i];
            Vector3::new(s[3], s[4], s[5])
                + Vector3::new(s[0], s[1], s[2]).cross(&(p - data.poses().unwrap()[i].p))
        };
        let p_g = data.poses().unwrap()[10].apply(&point);
        let v_rel = (v(10, &p_g) - v(1, &p_g)).dot(&(x_g1.r * normal));
        assert!(
            v_rel.abs() < 1e-10 && (verr - v_rel).abs() < 1e-14,
            "trial {trial}: v·n = {v_rel}"
        );
    }
}
