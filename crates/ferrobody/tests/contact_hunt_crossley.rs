//! Hunt–Crossley contact against Simbody's own test (TestHuntCrossleyForce, notes §6.3): a
//! sphere of radius 0.8 on a Translation mobilizer over the ground half space, at 11 heights,
//! at rest, moving vertically and moving horizontally; forces, potential energy and contact
//! point to 1e-10. Then invariants (proptest): no force when separated, equal and opposite
//! forces, rotating the whole scene rotates the forces.

use ferrobody::contact::{ContactMaterial, FrictionModel, HuntCrossleyForce};
use ferrobody::geometry::{ContactSurface, Shape};
use ferrobody::model::potential_energy;
use ferrobody::pipeline::contact_reports;
use ferrobody::prelude::*;
use proptest::prelude::*;

const R: f64 = 0.8;
const G: f64 = 9.8;

fn material(e: f64, c: f64, mu_s: f64, mu_d: f64, mu_v: f64) -> ContactMaterial<f64> {
    ContactMaterial {
        stiffness: e,
        dissipation: c,
        static_friction: mu_s,
        dynamic_friction: mu_d,
        viscous_friction: mu_v,
    }
}

fn ground_frame() -> Transform<f64> {
    Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2)
}

/// Simbody's test model: the sphere is surface 1 in insertion order, the ground surface 2.
fn simbody_test_model() -> (Model<f64>, BodyId) {
    model_with_element(|surfaces| {
        let materials = vec![
            material(1.0, 0.5, 1.0, 0.5, 0.1),
            material(2.0, 1.0, 0.7, 0.2, 0.05),
        ];
        HuntCrossleyForce::new("hc", surfaces, materials, 0.001, FrictionModel::Hollars).unwrap()
    })
}

/// The test model with the contact element that `make` builds from its two surfaces.
fn model_with_element(
    make: impl FnOnce(Vec<ContactSurface<f64>>) -> HuntCrossleyForce<f64>,
) -> (Model<f64>, BodyId) {
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    let sphere = b
        .add_body(BodyDef::new(
            "sphere",
            BodyId::GROUND,
            Mobilizer::Translation,
            mp,
        ))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -G, 0.0));
    let surfaces = vec![
        ContactSurface {
            body: sphere,
            x_bs: Transform::identity(),
            shape: Shape::Sphere { radius: R },
        },
        ContactSurface {
            body: BodyId::GROUND,
            x_bs: ground_frame(),
            shape: Shape::HalfSpace,
        },
    ];
    b.add_force(Force::HuntCrossley(make(surfaces))).unwrap();
    (b.build().unwrap(), sphere)
}

/// Heights as Simbody's loop accumulates them: R + 0.2 − 0.1 i while positive (11 values).
fn heights() -> Vec<f64> {
    let mut h = R + 0.2;
    let mut out = Vec::new();
    while h > 0.0 {
        out.push(h);
        h -= 0.1;
    }
    out
}

/// Expected quantities of notes §6.3: k1 = 1 (sphere), k2 = 2^(2/3) (ground).
struct Expected {
    k: f64,
    c: f64,
    k1: f64,
    k2: f64,
}

fn expected() -> Expected {
    let (k1, k2) = (1.0f64, 2.0f64.powf(2.0 / 3.0));
    Expected {
        k: k1 * k2 / (k1 + k2),
        c: (0.5 * k2 + 1.0 * k1) / (k1 + k2),
        k1,
        k2,
    }
}

fn hertz(depth: f64) -> f64 {
    let k = expected().k;
    if depth > 0.0 {
        4.0 / 3.0 * k * depth * (R * k * depth).sqrt()
    } else {
        0.0
    }
}

fn realized(
    model: &Model<f64>,
    sphere: BodyId,
    h: f64,
    v: Vector3<f64>,
) -> (State<f64>, Data<f64>) {
    let mut s = model.default_state();
    s.set_body_q(model, sphere, &[0.0, h, 0.0]);
    s.set_body_u(model, sphere, &[v.x, v.y, v.z]);
    let mut d = Data::new(model);
    realize(model, &s, &mut d, Stage::Dynamics).unwrap();
    (s, d)
}

#[test]
fn set_material_replaces_the_material_and_everything_combined_from_it() {
    // Built with other materials and then changed must equal built with the final ones: the
    // cached stiffness powers and pair materials follow the change.
    let last = [
        material(1.0, 0.5, 1.0, 0.5, 0.1),
        material(2.0, 1.0, 0.7, 0.2, 0.05),
    ];
    let (direct, sphere) = model_with_element(|surfaces| {
        HuntCrossleyForce::new("hc", surfaces, last.to_vec(), 0.001, FrictionModel::Hollars)
            .unwrap()
    });
    let (changed, _) = model_with_element(|surfaces| {
        let first = vec![material(5.0, 0.1, 0.3, 0.2, 0.0); 2];
        let mut hc =
            HuntCrossleyForce::new("hc", surfaces, first, 0.001, FrictionModel::Hollars).unwrap();
        for (i, m) in last.iter().enumerate() {
            hc.set_material(i, *m).unwrap();
        }
        assert_eq!(hc.materials(), &last);
        hc
    });
    let v = Vector3::new(0.3, -0.2, 0.1);
    let (_, d_direct) = realized(&direct, sphere, R - 0.05, v);
    let (_, d_changed) = realized(&changed, sphere, R - 0.05, v);
    assert_eq!(
        d_direct.body_forces().unwrap()[sphere.0],
        d_changed.body_forces().unwrap()[sphere.0]
    );
    // Bad changes are refused and leave the element as it was.
    let (_, _) = model_with_element(|surfaces| {
        let mut hc =
            HuntCrossleyForce::new("hc", surfaces, last.to_vec(), 0.001, FrictionModel::Hollars)
                .unwrap();
        assert!(hc
            .set_material(2, last[0])
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        let err = hc
            .set_material(0, material(-1.0, 0.5, 1.0, 0.5, 0.1))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("surface[0].material"), "{err}");
        assert_eq!(hc.materials(), &last);
        hc
    });
}

#[test]
fn static_heights_force_energy_and_contact_point() {
    let (model, sphere) = simbody_test_model();
    let e = expected();
    let hs = heights();
    assert_eq!(hs.len(), 11);
    for h in hs {
        let depth = R - h;
        let (s, d) = realized(&model, sphere, h, Vector3::zeros());
        let f = d.body_forces().unwrap()[sphere.0]
            .fixed_rows::<3>(3)
            .into_owned();
        let expected_f = Vector3::new(0.0, -G + hertz(depth), 0.0);
        assert!(
            (f - expected_f).amax() < 1e-10,
            "h = {h}: {f:?} vs {expected_f:?}"
        );
        let pe_contact = potential_energy(&model, &s, &d) - G * h;
        assert!(
            (pe_contact - 0.4 * hertz(depth) * depth.max(0.0)).abs() < 1e-10,
            "h = {h}: PE {pe_contact}"
        );
        let reports = contact_reports(&model, &s, &d);
        if depth > 0.0 {
            let p = reports[0].point;
            let expected_p = Vector3::new(0.0, -e.k1 * depth / (e.k1 + e.k2), 0.0);
            assert!(
                (p - expected_p).amax() < 1e-10,
                "h = {h}: point {p:?} vs {expected_p:?}"
            );
        } else {
            assert!(reports.is_empty());
        }
    }
}

#[test]
fn vertical_velocities() {
    let (model, sphere) = simbody_test_model();
    let c = expected().c;
    for h in heights() {
        let depth = R - h;
        let mut v = -1.0;
        while v <= 1.0 {
            // The sphere moves down at speed v (approaching when v > 0).
            let (_, d) = realized(&model, sphere, h, Vector3::new(0.0, -v, 0.0));
            let fy = d.body_forces().unwrap()[sphere.0][4];
            let expected = (hertz(depth) * (1.0 + 1.5 * c * v)).max(0.0) - G;
            assert!(
                (fy - expected).abs() < 1e-10,
                "h = {h}, v = {v}: {fy} vs {expected}"
            );
            v += 0.1;
        }
    }
}

#[test]
fn horizontal_velocities() {
    let (model, sphere) = simbody_test_model();
    let harmonic = |a: f64, b: f64| 2.0 * a * b / (a + b);
    let (mu_s, mu_d, mu_v) = (harmonic(1.0, 0.7), harmonic(0.5, 0.2), harmonic(0.1, 0.05));
    let vt = 0.001;
    let e = expected();
    for h in heights() {
        let depth = R - h;
        let fh = hertz(depth);
        let mut v = -1.0;
        while v <= 1.0 {
            let (_, d) = realized(&model, sphere, h, Vector3::new(v, 0.0, 0.0));
            let f = d.body_forces().unwrap()[sphere.0];
            let vr = v.abs() / vt;
            let ff = if fh > 0.0 && v != 0.0 {
                -v.signum()
                    * fh
                    * (vr.min(1.0) * (mu_d + 2.0 * (mu_s - mu_d) / (1.0 + vr * vr))
                        + mu_v * v.abs())
            } else {
                0.0
            };
            assert!(
                (f[3] - ff).abs() < 1e-10 && (f[4] - (fh - G)).abs() < 1e-10,
                "h = {h}, v = {v}: {f:?}"
            );
            // Friction acts at the contact point P = (0, p_y, 0), below the centre (0, h, 0):
            // moment about the centre m_z = −(p_y − h) f_x.
            let p_y = -e.k1 * depth / (e.k1 + e.k2);
            let expected_mz = -(p_y - h) * ff;
            assert!(
                (f[2] - expected_mz).abs() < 1e-10,
                "h = {h}, v = {v}: moment {} vs {expected_mz}",
                f[2]
            );
            v += 0.1;
        }
    }
}

/// Two free spheres and the ground, with all surfaces of the same material.
fn two_ball_scene(rot: &Transform<f64>) -> (Model<f64>, [BodyId; 2]) {
    let mut b = ModelBuilder::<f64>::new();
    let mut balls = [BodyId::GROUND; 2];
    for (k, ball) in balls.iter_mut().enumerate() {
        *ball = b
            .add_body(BodyDef::new(
                &format!("ball{k}"),
                BodyId::GROUND,
                Mobilizer::Free,
                MassProperties::solid_sphere(1.0, 0.1),
            ))
            .unwrap();
    }
    let surfaces = vec![
        ContactSurface {
            body: BodyId::GROUND,
            x_bs: *rot * ground_frame(),
            shape: Shape::HalfSpace,
        },
        ContactSurface {
            body: balls[0],
            x_bs: Transform::identity(),
            shape: Shape::Sphere { radius: 0.1 },
        },
        ContactSurface {
            body: balls[1],
            x_bs: Transform::identity(),
            shape: Shape::Sphere { radius: 0.12 },
        },
    ];
    let m = material(1e6, 0.5, 0.8, 0.5, 0.1);
    let hc =
        HuntCrossleyForce::new("hc", surfaces, vec![m; 3], 0.01, FrictionModel::Stribeck).unwrap();
    b.add_force(Force::HuntCrossley(hc)).unwrap();
    (b.build().unwrap(), balls)
}

fn set_ball(
    model: &Model<f64>,
    s: &mut State<f64>,
    ball: BodyId,
    rot: &Transform<f64>,
    p: Vector3<f64>,
    v: Vector3<f64>,
    w: Vector3<f64>,
) {
    let (p, v, w) = (rot.r * p, rot.r * v, rot.r * w);
    s.set_body_q(model, ball, &[1.0, 0.0, 0.0, 0.0, p.x, p.y, p.z]);
    s.set_body_u(model, ball, &[w.x, w.y, w.z, v.x, v.y, v.z]);
}

fn vec3() -> impl Strategy<Value = Vector3<f64>> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn no_force_when_separated(height in 0.1001..2.0f64, v in vec3(), w in vec3()) {
        let id = Transform::identity();
        let (model, balls) = two_ball_scene(&id);
        let mut s = model.default_state();
        set_ball(&model, &mut s, balls[0], &id, Vector3::new(0.0, height, 0.0), v, w);
        set_ball(&model, &mut s, balls[1], &id, Vector3::new(5.0, 1.0, 0.0), v, w);
        let mut d = Data::new(&model);
        realize(&model, &s, &mut d, Stage::Dynamics).unwrap();
        let contact_only = ferrobody::model::element_contribution(&model, &s, &d, ForceId(0));
        prop_assert!(contact_only.body_forces.iter().all(|f| f.norm() == 0.0));
    }

    #[test]
    fn forces_are_equal_and_opposite_and_rotate_with_the_scene(
        gap in -0.02..-0.001f64, dir in vec3(), v in vec3(), w in vec3(), axis in vec3(), angle in -3.0..3.0f64,
    ) {
        prop_assume!(dir.norm() > 0.1 && axis.norm() > 0.1);
        let n = dir.normalize();
        let rot = Transform::from_axis_angle(axis, angle);
        let forces = |rot: &Transform<f64>| {
            let (model, balls) = two_ball_scene(rot);
            let mut s = model.default_state();
            // Ball 0 high above the ground; ball 1 overlapping it by |gap| along n.
            let c0 = Vector3::new(0.0, 3.0, 0.0);
            set_ball(&model, &mut s, balls[0], rot, c0, v, w);
            set_ball(&model, &mut s, balls[1], rot, c0 + n * (0.22 + gap), -v, w * 0.5);
            let mut d = Data::new(&model);
            realize(&model, &s, &mut d, Stage::Velocity).unwrap();
            let c = ferrobody::model::element_contribution(&model, &s, &d, ForceId(0));
            // Total force and total moment about the Ground origin must vanish.
            let mut total = nalgebra::Vector6::zeros();
            for (i, f) in c.body_forces.iter().enumerate() {
                total += ferrobody::math::spatial::shift_force(f, &d.poses().unwrap()[i].p);
            }
            (c.body_forces[1], c.body_forces[2], total)
        };
        let (f1, f2, total) = forces(&Transform::identity());
        // A contact separating faster than its dissipation allows carries no force at all.
        prop_assume!(f1.norm() > 0.0);
        prop_assert!(total.norm() <= 1e-9 * f1.norm(), "net spatial force {total:?}");
        let (g1, g2, _) = forces(&rot);
        for (a, b) in [(f1, g1), (f2, g2)] {
            let lin = rot.r * a.fixed_rows::<3>(3).into_owned() - b.fixed_rows::<3>(3).into_owned();
            prop_assert!(lin.norm() <= 1e-9 * (1.0 + a.norm()), "force does not rotate: {a:?} vs {b:?}");
        }
    }
}
