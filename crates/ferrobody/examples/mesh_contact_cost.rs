//! Cost of one elastic-foundation evaluation for a large mesh resting on a half space: the
//! spring query through the mesh's bounding-volume tree against testing every face, and the
//! whole force evaluation (`realize` to Dynamics) of a free body carrying the mesh.
//!
//! `cargo run --release -p ferrobody --example mesh_contact_cost [LEVELS] [REPEATS]`
//! (icosphere of 20·4^LEVELS faces, default 5: 20480 faces, radius 0.1 m, 1 mm into the floor).

use ferrobody::contact::{
    ElasticFoundationForce, FoundationParameters, FoundationShape, FoundationSurface,
};
use ferrobody::geometry::{springs_in_half_space, FoundationSpring, Shape, TriangleMesh};
use ferrobody::prelude::*;
use nalgebra::{Matrix3, Vector3};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// The springs inside the half space found by testing every face: the same tests as the tree's
/// leaves (a vertex inside, the vertex average inside), on every face.
fn brute_force(
    mesh: &TriangleMesh,
    x_gm: &Transform<f64>,
    x_gh: &Transform<f64>,
    mut f: impl FnMut(FoundationSpring<f64>),
) {
    let x_hm = x_gh.inverse() * *x_gm;
    for (face, tri) in mesh.faces().iter().enumerate() {
        if !tri
            .iter()
            .any(|&v| x_hm.apply(&mesh.vertices()[v as usize]).x > 0.0)
        {
            continue;
        }
        let c = mesh.centroids()[face];
        let c_h = x_hm.apply(&c);
        if c_h.x < 0.0 {
            continue;
        }
        f(FoundationSpring {
            face,
            spring: x_gm.apply(&c),
            nearest: x_gh.apply(&Vector3::new(0.0, c_h.y, c_h.z)),
        });
    }
}

/// Median seconds per call of `f` over `repeats` batches.
fn median_time(repeats: usize, batch: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..repeats)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                f();
            }
            t.elapsed().as_secs_f64() / batch as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[repeats / 2]
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let levels = args.first().copied().unwrap_or(5);
    let repeats = args.get(1).copied().unwrap_or(21);
    let radius = 0.1;
    let mesh = Arc::new(TriangleMesh::icosphere(radius, levels));
    let x_gh = Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
    let x_gm = Transform::from_translation(Vector3::new(0.0, radius - 0.001, 0.0));
    let (mut n_tree, mut n_brute) = (0, 0);
    springs_in_half_space(&mesh, &x_gm, &x_gh, |_| n_tree += 1);
    brute_force(&mesh, &x_gm, &x_gh, |_| n_brute += 1);
    assert_eq!(n_tree, n_brute);
    let tree = median_time(repeats, 2000, || {
        let mut sum = 0.0;
        springs_in_half_space(&mesh, black_box(&x_gm), &x_gh, |s| {
            sum += (s.nearest - s.spring).norm()
        });
        black_box(sum);
    });
    let brute = median_time(repeats, 200, || {
        let mut sum = 0.0;
        brute_force(&mesh, black_box(&x_gm), &x_gh, |s| {
            sum += (s.nearest - s.spring).norm()
        });
        black_box(sum);
    });

    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity() * 0.004);
    let body = b
        .add_body(BodyDef::new("ball", BodyId::GROUND, Mobilizer::Free, mp))
        .unwrap();
    let parameters = FoundationParameters {
        stiffness: 1e9,
        dissipation: 1.0,
        static_friction: 0.6,
        dynamic_friction: 0.4,
        viscous_friction: 0.0,
    };
    let surfaces = vec![
        FoundationSurface {
            body,
            x_bs: Transform::identity(),
            shape: FoundationShape::Mesh(mesh.clone(), parameters),
        },
        FoundationSurface {
            body: BodyId::GROUND,
            x_bs: x_gh,
            shape: FoundationShape::Solid(Shape::HalfSpace),
        },
    ];
    b.add_force(Force::ElasticFoundation(
        ElasticFoundationForce::new("ef", surfaces, 0.1).unwrap(),
    ))
    .unwrap();
    let model = b.build().unwrap();
    let mut s = model.default_state();
    s.set_body_q(
        &model,
        body,
        &[1.0, 0.0, 0.0, 0.0, 0.0, radius - 0.001, 0.0],
    );
    s.set_body_u(&model, body, &[0.0, 0.0, 1.0, 0.1, 0.0, 0.0]);
    let mut d = Data::new(&model);
    ferrobody::pipeline::realize(&model, &s, &mut d, Stage::Velocity).unwrap();
    // Forces only: the kinematics stay realized.
    let eval = median_time(repeats, 2000, || {
        d.invalidate(Stage::Dynamics);
        ferrobody::pipeline::realize(&model, black_box(&s), &mut d, Stage::Dynamics).unwrap();
    });
    println!(
        "{{\"faces\":{},\"springs_in_contact\":{n_tree},\"query_tree_us\":{:.3},\"query_all_faces_us\":{:.3},\"speedup\":{:.1},\"force_evaluation_us\":{:.3}}}",
        mesh.faces().len(),
        tree * 1e6,
        brute * 1e6,
        brute / tree,
        eval * 1e6
    );
}
