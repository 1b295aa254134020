//! Mesh against mesh on the elastic foundation (issue 20): Simbody's `TriangleMeshTriangleMesh`
//! contact (overlapping faces, inside regions by ray and flood, springs inside the other mesh by
//! its nearest point) and `ElasticFoundationForce`'s half areas, checked against OpenSim 4.6's
//! forces, a closed form and brute force. The trajectory against OpenSim's run is in
//! `opensim_models.rs::mesh_against_mesh_matches_opensim`.

use ferrobody::geometry::{springs_between_meshes, TriangleMesh};
use ferrobody::math::Transform;
use ferrobody::model::element_contribution;
use ferrobody::nalgebra::Vector3;
use ferrobody::prelude::*;

use crate::common;
use common::{csv_rows, repo_root as root};

fn ball_slab() -> ferrobody::io::osim::OsimModel {
    ferrobody::io::osim::load(&root().join("testdata/opensim/osim_ball_slab_ef.osim")).unwrap()
}

#[test]
#[allow(clippy::excessive_precision)] // OpenSim's %.17g output, kept as printed
fn forces_match_opensim_at_three_states() {
    // OpenSim 4.6's `ElasticFoundationForce::getRecordValues` on the ball (force, then torque
    // about the ball's origin, Ground) at the states of its own run at t = 0.05 (landing),
    // 0.3 and 0.7 s (rolling), printed by scripts/opensim/probe_foundation_forces.py.
    let opensim: [(f64, [f64; 6]); 3] = [
        (
            0.05,
            [
                -4.8907639041108864,
                12.569840642827064,
                -0.063777592531935087,
                -0.019182644561933661,
                -0.0055938364538559255,
                -0.23238102374232367,
            ],
        ),
        (
            0.3,
            [
                -0.25695459961136102,
                5.3779797918188521,
                -0.241757014006732,
                -0.0042197019424053189,
                -0.00024739042606838977,
                0.0059247414386210361,
            ],
        ),
        (
            0.7,
            [
                -0.16854555490649203,
                5.1500679179450319,
                0.072995813916705649,
                0.00096673985984526908,
                -0.00045635871740658002,
                0.0042669079462951016,
            ],
        ),
    ];
    let osim = ball_slab();
    let rows = csv_rows("testdata/opensim/osim_ball_slab_ef.csv");
    let model = &osim.model;
    let id = ForceId(
        model
            .forces()
            .iter()
            .position(|f| f.name() == "ball_slab")
            .unwrap(),
    );
    for (t, theirs) in opensim {
        let row = rows.iter().find(|r| (r["t"] - t).abs() < 1e-9).unwrap();
        let mut s = osim.default_state.clone();
        for c in &osim.coordinates {
            s.q[c.q_index] = row[&c.name];
            s.u[c.u_index] = row[&format!("{}.u", c.name)];
        }
        let mut d = Data::new(model);
        ferrobody::pipeline::realize(model, &s, &mut d, Stage::Dynamics).unwrap();
        let f = element_contribution(model, &s, &d, id).body_forces[1];
        // ours: (moment, force); OpenSim's record: (force, torque).
        let ours = [f[3], f[4], f[5], f[0], f[1], f[2]];
        for k in 0..6 {
            // Round-off of sums of tens of springs of up to ~10 N: 1e-12 N (measured ≤ 3e-14).
            assert!(
                (ours[k] - theirs[k]).abs() < 1e-12,
                "t = {t}: {ours:?} vs {theirs:?}"
            );
        }
    }
}

#[test]
fn the_ball_scene_is_the_opensim_ball_model() {
    // examples/scenes/ball_on_slab_meshes.toml writes osim_ball_slab_ef.osim in scene keys:
    // the same model, so the same trajectory to the bit (landing and rolling, 0.3 s).
    let path = root().join("examples/scenes/ball_on_slab_meshes.toml");
    let scene = ferrobody::io::load_scene(&path).unwrap();
    let osim = ball_slab();
    let a = common::body_origins(&scene.model, scene.initial_state.clone(), 0.3);
    let b = common::body_origins(&osim.model, osim.default_state.clone(), 0.3);
    assert_eq!(a.len(), 31);
    assert_eq!(a, b);
}

const K: f64 = 1e7;

/// The elastic foundation's force on the 0.2 x 0.1 x 0.2 box (testdata/meshes/box.obj, two
/// triangles a side) with its centre at height `y` over the slab (testdata/opensim/slab.obj,
/// top y = 0, a grid of 0.025 m squares that the box's footprint lines up with): the box's
/// spatial force (moment about its centre, force) and the potential energy.
fn box_on_slab(y: f64) -> (Vec<f64>, f64) {
    let text = format!(
        r#"
[simulation]
duration = 0.1
[material.m]
stiffness = {K}
[[body]]
name = "box"
mobilizer = "free"
mass = 1.0
inertia = [0.01, 0.01, 0.01]
q = [1.0, 0.0, 0.0, 0.0, 0.0, {y}, 0.0]
[[contact]]
name = "ef"
model = "elastic_foundation"
[[contact.surface]]
body = "box"
shape = "mesh"
file = "../../testdata/meshes/box.obj"
material = "m"
[[contact.surface]]
body = "ground"
shape = "mesh"
file = "../../testdata/opensim/slab.obj"
frame = {{ translation = [0.0, -0.02, 0.0] }}
material = "m"
"#
    );
    let file = root().join("examples/scenes/inline.toml");
    let scene = ferrobody::io::parse_scene(&text, &file.display().to_string(), "inline").unwrap();
    let (model, s) = (&scene.model, &scene.initial_state);
    let mut d = Data::new(model);
    ferrobody::pipeline::realize(model, s, &mut d, Stage::Dynamics).unwrap();
    let id = ForceId(
        model
            .forces()
            .iter()
            .position(|f| f.name() == "ef")
            .unwrap(),
    );
    let contribution = element_contribution(model, s, &d, id);
    let f = contribution.body_forces[1];
    (f.as_slice().to_vec(), contribution.potential_energy)
}

#[test]
fn a_box_pressed_into_a_slab_carries_k_times_area_times_depth() {
    // Sunk δ: inside each other are the box's two bottom springs (0.04 m²) and the slab's 128
    // top springs under the footprint (0.04 m²), all δ deep, each mesh's areas halved:
    // F = k (0.04/2 + 0.04/2) δ upward on the box, no moment about its centre.
    let delta = 1e-3;
    let (f, pe) = box_on_slab(0.05 - delta);
    let expected = K * 0.04 * delta;
    // Round-off of 130 spring forces of ≤ 1e2 N.
    assert!((f[4] - expected).abs() < 1e-9 * expected, "{f:?}");
    for k in [0, 1, 2, 3, 5] {
        // The moment about the origin (the box centre) and the sideways forces cancel.
        assert!(f[k].abs() < 1e-9 * expected, "{f:?}");
    }
    // Energy: each spring k (A/2) δ²/2.
    assert!((pe - 0.5 * expected * delta).abs() < 1e-9 * pe, "{pe}");
}

#[test]
fn a_box_resting_exactly_on_the_slab_or_above_it_feels_nothing() {
    // Resting on the top (the bottom faces coplanar with the slab's: Guigue–Devillers' coplanar
    // branch finds them touching, and every spring lies on the other surface to round-off:
    // 0.05 m of the box and of the file's vertices meet within 1e-17 m, k A x ≈ 1e-12 N), and
    // 1 mm above it (nothing touches): no force beyond round-off, no energy to speak of.
    for (y, tolerance) in [(0.05, 1e-9), (0.051, 0.0)] {
        let (f, pe) = box_on_slab(y);
        assert!(f.iter().all(|v| v.abs() <= tolerance), "y = {y}: {f:?}");
        assert!(pe.abs() <= tolerance * 1e-6, "y = {y}: {pe}");
    }
}

/// Every face whose vertex average lies inside the other mesh (by the other mesh's nearest
/// point), for both meshes: what the contact must find when the meshes' surfaces cross.
fn brute_force(
    (m1, x_g1): (&TriangleMesh, &Transform<f64>),
    (m2, x_g2): (&TriangleMesh, &Transform<f64>),
) -> (Vec<usize>, Vec<usize>) {
    let inside =
        |m: &TriangleMesh, x_gm: &Transform<f64>, o: &TriangleMesh, x_go: &Transform<f64>| {
            let x_om = &x_go.inverse() * x_gm;
            (0..m.faces().len())
                .filter(|&f| {
                    let c = x_om.apply(&m.centroids()[f]);
                    // The nearest point over every face, by the same rule as the tree's walk.
                    let (face, _) = (0..o.faces().len())
                        .map(|g| (g, (o.nearest_point_on_face(g, &c) - c).norm_squared()))
                        .min_by(|a, b| a.1.total_cmp(&b.1))
                        .unwrap();
                    let tree = o.nearest_point(&c);
                    assert!(
                        (tree.point - o.nearest_point_on_face(face, &c)).norm() < 1e-15,
                        "the tree's nearest point is the nearest over all faces"
                    );
                    tree.inside
                })
                .collect()
        };
    (inside(m1, x_g1, m2, x_g2), inside(m2, x_g2, m1, x_g1))
}

#[test]
fn the_springs_are_the_faces_centred_inside_the_other_mesh() {
    // Two icospheres (320 and 1280 faces) in 30 random overlapping poses: the boundary, ray
    // and flood classification finds exactly the springs that testing every face finds.
    let a = TriangleMesh::icosphere(0.1, 2);
    let b = TriangleMesh::icosphere(0.07, 3);
    let mut rng = common::Rng::new(7);
    let mut rand = move || rng.uniform(-0.5, 0.5);
    for pose in 0..30 {
        let axis = Vector3::new(rand(), rand(), rand()).normalize();
        let x_g1 = Transform::from_axis_angle(axis, 3.0 * rand());
        let direction = Vector3::new(rand(), rand(), rand()).normalize();
        // Centres 0.12–0.16 m apart: the surfaces cross (radii 0.1 and 0.07).
        let mut x_g2 = Transform::from_axis_angle(axis.yzx(), 3.0 * rand());
        x_g2.p = direction * (0.14 + 0.04 * rand());
        let (mut found1, mut found2) = (Vec::new(), Vec::new());
        springs_between_meshes((&a, &x_g1), (&b, &x_g2), |second, s| {
            if second { &mut found2 } else { &mut found1 }.push(s.face)
        });
        let (want1, want2) = brute_force((&a, &x_g1), (&b, &x_g2));
        assert!(
            !want1.is_empty() || !want2.is_empty(),
            "pose {pose} touches"
        );
        assert_eq!(found1, want1, "pose {pose}: first mesh");
        assert_eq!(found2, want2, "pose {pose}: second mesh");
    }
}

#[test]
fn a_mesh_wholly_inside_another_or_apart_is_not_in_contact() {
    // As in Simbody: without a crossing face there is no contact, even for a mesh inside the
    // other (its springs would have nowhere to go).
    let big = TriangleMesh::icosphere(0.2, 2);
    let small = TriangleMesh::icosphere(0.05, 1);
    let x = Transform::<f64>::identity();
    for p in [Vector3::new(0.02, 0.0, 0.01), Vector3::new(1.0, 0.0, 0.0)] {
        let x_small = Transform::from_translation(p);
        let mut n = 0;
        springs_between_meshes((&big, &x), (&small, &x_small), |_, _| n += 1);
        assert_eq!(n, 0, "at {p:?}");
    }
}

#[test]
fn dual_numbers_differentiate_through_mesh_against_mesh() {
    // The rolling ball at OpenSim's row t = 0.3 s (springs of both meshes acting): ∂u̇/∂q and
    // ∂u̇/∂u by dual numbers against central differences. The springs' set is fixed within
    // the steps (1e-8 m, rad; the nearest springs are ~1e-4 m from entering or leaving), so
    // the force is smooth there.
    let osim = ball_slab();
    let model = &osim.model;
    let row = csv_rows("testdata/opensim/osim_ball_slab_ef.csv")
        .into_iter()
        .find(|r| (r["t"] - 0.3).abs() < 1e-9)
        .unwrap();
    let mut s = osim.default_state.clone();
    for c in &osim.coordinates {
        s.q[c.q_index] = row[&c.name];
        s.u[c.u_index] = row[&format!("{}.u", c.name)];
    }
    let tau = vec![0.0; model.nu()];
    let mut jacobian = ferrobody::derivatives::ForwardDynamicsJacobian::new(model).unwrap();
    jacobian.compute(&s, &tau).unwrap();
    let udot = |s: &State<f64>| {
        let mut d = Data::new(model);
        ferrobody::pipeline::forward_dynamics(model, s, &mut d, &tau).unwrap();
        d.udot().unwrap().clone()
    };
    let h = 1e-8;
    for (which, n) in [(0, model.nq()), (1, model.nu())] {
        for i in 0..n {
            let at = |sign: f64| {
                let mut x = s.clone();
                if which == 0 {
                    x.q[i] += sign * h;
                } else {
                    x.u[i] += sign * h;
                }
                udot(&x)
            };
            let fd = (at(1.0) - at(-1.0)) / (2.0 * h);
            let exact = if which == 0 {
                jacobian.dudot_dq.column(i).into_owned()
            } else {
                jacobian.dudot_du.column(i).into_owned()
            };
            // Central differences at h = 1e-8 on accelerations of ~10 m/s² and slopes up to
            // ~1e5: cancellation error ε·10/h ≈ 2e-7 plus O(h²) truncation; 1e-5 of the
            // column's scale.
            let scale = fd.amax().max(1.0);
            assert!(
                (&exact - &fd).amax() <= 1e-5 * scale,
                "{} column {i}: {exact:?} vs {fd:?}",
                ["q", "u"][which]
            );
        }
    }
}
