//! Triangle meshes and the elastic foundation (issue 20): Simbody's own ElasticFoundationForce
//! test (notes §6.4 (a): a pyramid on the ground, forces to 1e-5 relative), the BVH queries
//! against brute force, a sphere mesh's load against k·V_cap (Simbody's (b) tolerances), the
//! foundation's scene keys and parameters. Mesh files: `mesh_files.rs`.

use crate::common;
use ferrobody::contact::{
    ElasticFoundationForce, FoundationParameters, FoundationShape, FoundationSurface,
};
use ferrobody::geometry::{springs_in_half_space, springs_in_sphere, Shape, TriangleMesh};
use ferrobody::model::element_contribution;
use ferrobody::prelude::*;
use nalgebra::{Matrix3, Vector3};
use std::path::PathBuf;
use std::sync::Arc;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Simbody's test pyramid: base the unit square in y = 0 (area 1), apex at (0.5, 1, 0.5).
fn pyramid() -> TriangleMesh {
    let v = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
        [0.5, 1.0, 0.5],
    ]
    .iter()
    .map(|p| Vector3::new(p[0], p[1], p[2]))
    .collect();
    let f = vec![
        [0, 1, 2],
        [0, 2, 3],
        [1, 0, 4],
        [2, 1, 4],
        [3, 2, 4],
        [0, 3, 4],
    ];
    TriangleMesh::from_triangles(v, f).unwrap()
}

const K: f64 = 1e9;
const C: f64 = 0.01;
const MU: (f64, f64, f64) = (0.1, 0.05, 0.01);
const VT: f64 = 0.01;

/// The pyramid on a Translation body over the ground half space (solid y < 0).
fn pyramid_model() -> (Model<f64>, BodyId) {
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    let body = b
        .add_body(BodyDef::new(
            "pyramid",
            BodyId::GROUND,
            Mobilizer::Translation,
            mp,
        ))
        .unwrap();
    let parameters = FoundationParameters {
        stiffness: K,
        dissipation: C,
        static_friction: MU.0,
        dynamic_friction: MU.1,
        viscous_friction: MU.2,
    };
    let surfaces = vec![
        FoundationSurface {
            body,
            x_bs: Transform::identity(),
            shape: FoundationShape::Mesh(Arc::new(pyramid()), parameters),
        },
        FoundationSurface {
            body: BodyId::GROUND,
            x_bs: Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2),
            shape: FoundationShape::Solid(Shape::HalfSpace),
        },
    ];
    let ef = ElasticFoundationForce::new("ef", surfaces, VT).unwrap();
    b.add_force(Force::ElasticFoundation(ef)).unwrap();
    (b.build().unwrap(), body)
}

/// The pyramid's body force (moment about its origin, force; Ground) at height −depth and
/// velocity v.
fn pyramid_force(depth: f64, v: [f64; 3]) -> (Vector3<f64>, Vector3<f64>, f64) {
    let (model, body) = pyramid_model();
    let mut s = model.default_state();
    s.set_body_q(&model, body, &[0.0, -depth, 0.0]);
    s.set_body_u(&model, body, &v);
    let mut d = Data::new(&model);
    ferrobody::pipeline::realize(&model, &s, &mut d, Stage::Dynamics).unwrap();
    let c = element_contribution(&model, &s, &d, ForceId(0));
    let f = c.body_forces[body.0];
    (
        Vector3::new(f[0], f[1], f[2]),
        Vector3::new(f[3], f[4], f[5]),
        c.potential_energy,
    )
}

/// Simbody's tolerance: absolute 1e-5 or relative 1e-5.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-5 || (a - b).abs() <= 1e-5 * b.abs()
}

#[test]
fn simbody_s_pyramid_test() {
    let mut depth = -0.1;
    while depth < 0.1 {
        // At rest: k·depth up through the unit base, no force when above the ground; the two
        // base springs at (2/3, 0, 1/3) and (1/3, 0, 2/3) carry half each, so the moment about
        // the origin (0, −depth, 0) is (−k d/2, 0, k d/2).
        let (moment, force, pe) = pyramid_force(depth, [0.0; 3]);
        let f = K * depth.max(0.0);
        assert!(
            close(force.y, f) && close(force.x, 0.0) && close(force.z, 0.0),
            "{depth}: {force}"
        );
        assert!(
            close(moment.x, -f / 2.0) && close(moment.z, f / 2.0),
            "{depth}: {moment}"
        );
        assert!(close(
            pe,
            if depth > 0.0 {
                K * depth * depth / 2.0
            } else {
                0.0
            }
        ));
        // Sinking at 0.1 m/s: k·depth·(1 + c v).
        let (_, force, _) = pyramid_force(depth, [0.0, -0.1, 0.0]);
        assert!(
            close(force.y, K * depth.max(0.0) * (1.0 + C * 0.1)),
            "{depth}: {force}"
        );
        // Sliding along x at 0.003 m/s (below the transition velocity): Hollars friction
        // against the motion.
        let v = 0.003;
        let (_, force, _) = pyramid_force(depth, [v, 0.0, 0.0]);
        let vr = v / VT;
        let mu = vr.min(1.0) * (MU.1 + 2.0 * (MU.0 - MU.1) / (1.0 + vr * vr)) + MU.2 * v;
        assert!(
            close(force.x, -f * mu) && close(force.y, f),
            "{depth}: {force}"
        );
        depth += 0.01;
    }
}

#[test]
fn bvh_queries_find_exactly_the_brute_force_springs() {
    // 5120 faces at turned, shifted poses: the springs found through the tree are the faces
    // with a vertex inside and the vertex average inside (half space), or the vertex average
    // within the radius (sphere), found by testing every face.
    let mesh = TriangleMesh::icosphere(1.0, 4);
    let x_gh = Transform::<f64>::from_axis_angle(Vector3::new(0.2, 0.1, 1.0).normalize(), -1.4);
    for k in 0..20 {
        let a = k as f64 * 0.37;
        let mut x_gm =
            Transform::from_axis_angle(Vector3::new(a.sin(), 1.0, a.cos()).normalize(), a);
        x_gm.p = Vector3::new(0.3 * a.cos(), 0.6 * (a * 1.7).sin(), -0.2);
        let mut tree = Vec::new();
        springs_in_half_space(&mesh, &x_gm, &x_gh, |s| tree.push(s.face));
        tree.sort();
        let x_hm = x_gh.inverse() * x_gm;
        let brute: Vec<usize> = (0..mesh.faces().len())
            .filter(|&i| {
                let any = mesh.faces()[i]
                    .iter()
                    .any(|&v| x_hm.apply(&mesh.vertices()[v as usize]).x > 0.0);
                any && x_hm.apply(&mesh.centroids()[i]).x >= 0.0
            })
            .collect();
        assert_eq!(tree, brute, "half space, pose {k}");
        let centre = Vector3::new(0.9 * a.sin(), 0.4, 0.5 * a.cos());
        let mut near = Vec::new();
        springs_in_sphere(&mesh, &x_gm, &centre, 0.45, |s| near.push(s.face));
        near.sort();
        let brute: Vec<usize> = (0..mesh.faces().len())
            .filter(|&i| (x_gm.apply(&mesh.centroids()[i]) - centre).norm_squared() <= 0.45 * 0.45)
            .collect();
        assert_eq!(near, brute, "sphere, pose {k}");
    }
}

#[test]
fn a_sphere_mesh_pressed_into_the_ground_carries_k_times_the_cap_volume() {
    // Simbody's test (b) with an icosphere (20480 faces) for its sphere mesh: for shallow caps
    // the springs approximate the overlap volume, F_y ≈ k V_cap, V_cap = π δ² (3 − δ)/3.
    // Simbody's tolerances {0.15, 0.07, 0.03, 0.02, 0.01, 0.02} at δ = 0.002·2^i are for its
    // finer mesh; this mesh's faces are about twice as wide, so the same tolerances hold at
    // twice the depths (measured: 0.126, 0.058, 0.027, 0.005, 0.014).
    let mesh = Arc::new(TriangleMesh::icosphere(1.0, 5));
    let tolerances = [0.15, 0.07, 0.03, 0.02, 0.02];
    for (i, tol) in tolerances.iter().enumerate() {
        let delta = 0.004 * 2f64.powi(i as i32);
        let mut b = ModelBuilder::<f64>::new();
        let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
        let body = b
            .add_body(BodyDef::new(
                "ball",
                BodyId::GROUND,
                Mobilizer::Translation,
                mp,
            ))
            .unwrap();
        let parameters = FoundationParameters {
            stiffness: K,
            dissipation: 0.0,
            static_friction: 0.0,
            dynamic_friction: 0.0,
            viscous_friction: 0.0,
        };
        let mut ground = Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
        ground.p = Vector3::new(0.0, delta - 1.0, 0.0);
        let surfaces = vec![
            FoundationSurface {
                body,
                x_bs: Transform::identity(),
                shape: FoundationShape::Mesh(mesh.clone(), parameters),
            },
            FoundationSurface {
                body: BodyId::GROUND,
                x_bs: ground,
                shape: FoundationShape::Solid(Shape::HalfSpace),
            },
        ];
        b.add_force(Force::ElasticFoundation(
            ElasticFoundationForce::new("ef", surfaces, 0.01).unwrap(),
        ))
        .unwrap();
        let model = b.build().unwrap();
        let s = model.default_state();
        let mut d = Data::new(&model);
        ferrobody::pipeline::realize(&model, &s, &mut d, Stage::Dynamics).unwrap();
        let f = element_contribution(&model, &s, &d, ForceId(0)).body_forces[body.0];
        let cap = std::f64::consts::PI * delta * delta * (3.0 - delta) / 3.0;
        let rel = (f[4] - K * cap).abs() / (K * cap);
        assert!(
            rel < *tol,
            "δ = {delta}: {} vs {} ({rel:.3})",
            f[4],
            K * cap
        );
        assert!(
            f[3].abs() < 1e-5 * f[4] && f[5].abs() < 1e-5 * f[4],
            "{f:?}"
        );
    }
}

/// Body origins every 0.01 s, each report a step boundary (OpenSim's `Manager`).
#[test]
fn the_box_scene_is_the_opensim_box_model() {
    // examples/scenes/box_mesh_floor.toml writes osim_box_mesh_ef.osim in scene keys
    // (free_euler, the mesh file, the floor): the same model, so the same trajectory to the bit.
    let scene =
        ferrobody::io::load_scene(&root().join("examples/scenes/box_mesh_floor.toml")).unwrap();
    let osim =
        ferrobody::io::osim::load(&root().join("testdata/opensim/osim_box_mesh_ef.osim")).unwrap();
    let a = common::body_origins(&scene.model, scene.initial_state.clone(), 1.0);
    let b = common::body_origins(&osim.model, osim.default_state.clone(), 1.0);
    assert_eq!(a.len(), 101);
    assert_eq!(a, b);
}

const FOUNDATION: &str = r#"
[simulation]
duration = 0.1
[material.m]
stiffness = 1e7
[[body]]
name = "box"
mobilizer = "free"
mass = 1.0
inertia = [0.01, 0.01, 0.01]
[[contact]]
model = "elastic_foundation"
[[contact.surface]]
body = "ground"
shape = "half_space"
material = "m"
[[contact.surface]]
body = "box"
material = "m"
"#;

fn scene_error(keys: &str) -> String {
    let text = format!("{FOUNDATION}{keys}\n");
    let file = root().join("examples/scenes/inline.toml");
    match ferrobody::io::parse_scene(&text, &file.display().to_string(), "inline") {
        Ok(_) => panic!("the scene loaded: {keys}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn foundation_scene_keys_are_checked_in_one_line() {
    let cases = [
        ("shape = \"mesh\"", "contact[0].surface[1].file: a mesh needs a file (.obj, .stl or .vtp)"),
        ("shape = \"mesh\"\nfile = \"meshes/box.obj\"\nradius = 0.1", "contact[0].surface[1]: a mesh has no radius, radii or half_lengths"),
        ("shape = \"mesh\"\nfile = \"meshes/nothing.obj\"", "contact[0].surface[1].file: "),
        ("shape = \"sphere\"\nradius = 0.1\nfile = \"meshes/box.obj\"", "contact[0].surface[1].file: only a mesh has a file"),
        ("shape = \"ellipsoid\"\nradii = [0.1, 0.1, 0.2]", "contact[0].surface[1]: an elastic foundation presses meshes on half spaces and spheres, not ellipsoids"),
    ];
    for (keys, expected) in cases {
        let e = scene_error(keys);
        assert!(e.contains(expected), "{keys}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    assert!(
        scene_error("shape = \"mesh\"\nfile = \"meshes/nothing.obj\"")
            .contains("cannot read the mesh")
    );
    // A mesh in a Hunt-Crossley element.
    let text = FOUNDATION.replace("elastic_foundation", "hunt_crossley")
        + "shape = \"mesh\"\nfile = \"meshes/box.obj\"\n";
    let file = root().join("examples/scenes/inline.toml");
    let Err(e) = ferrobody::io::parse_scene(&text, &file.display().to_string(), "inline") else {
        panic!("a mesh in a Hunt-Crossley element loaded");
    };
    let e = e.to_string();
    assert!(
        e.contains("a mesh is a surface of model = \"elastic_foundation\" elements"),
        "{e}"
    );
}

#[test]
fn foundation_parameters_are_settable_by_name() {
    // Doubling the stiffness doubles the pyramid's resting force; reading gives the value;
    // a refused value leaves the model as it was.
    let (mut model, body) = pyramid_model();
    let force_at = |model: &Model<f64>| {
        let mut s = model.default_state();
        s.set_body_q(model, body, &[0.0, -0.01, 0.0]);
        let mut d = Data::new(model);
        ferrobody::pipeline::realize(model, &s, &mut d, Stage::Dynamics).unwrap();
        element_contribution(model, &s, &d, ForceId(0)).body_forces[body.0][4]
    };
    let before = force_at(&model);
    model
        .set_force_parameter("ef", "stiffness", 2.0 * K)
        .unwrap();
    assert!((force_at(&model) - 2.0 * before).abs() < 1e-9 * before);
    assert_eq!(model.force_parameter("ef", "stiffness").unwrap(), 2.0 * K);
    model
        .set_force_parameter("ef", "transition_velocity", 0.05)
        .unwrap();
    assert_eq!(
        model.force_parameter("ef", "transition_velocity").unwrap(),
        0.05
    );
    let e = model
        .set_force_parameter("ef", "dissipation", -1.0)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("force 'ef'.dissipation") && e.contains("non-negative"),
        "{e}"
    );
    assert_eq!(model.force_parameter("ef", "dissipation").unwrap(), C);
}
