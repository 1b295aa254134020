//! Simbody's TestExponentialSpring matrix (notes §6.1): a 10 kg block with 16 exponential
//! springs — its 8 corners against a floor and against a wall — dropped, sliding, spinning,
//! spinning while sliding, spinning like a top and tumbling, with and without damping and
//! friction, and on a tilted floor. On every sampled state (every 1/60 s) every spring's outputs
//! satisfy Simbody's invariants; without damping and friction the energy is conserved.

use ferrobody::algorithms::kinetic_energy;
use ferrobody::contact::{ExponentialSpringForce, ExponentialSpringParameters};
use ferrobody::forces::ForceContext;
use ferrobody::model::potential_energy;
use ferrobody::prelude::*;

const H: f64 = 0.1;
const CORNERS: [(f64, f64, f64); 8] = [
    (H, -H, H),
    (H, -H, -H),
    (-H, -H, -H),
    (-H, -H, H),
    (H, H, H),
    (H, H, -H),
    (-H, H, -H),
    (-H, H, H),
];

struct Case {
    name: &'static str,
    condition: u8,
    damping: bool,
    friction: bool,
    tilt_deg: f64,
    duration: f64,
}

const CASES: [Case; 17] = [
    Case {
        name: "VerticalBounce",
        condition: 1,
        damping: false,
        friction: false,
        tilt_deg: 0.0,
        duration: 2.4,
    },
    Case {
        name: "VerticalBounce",
        condition: 1,
        damping: false,
        friction: true,
        tilt_deg: 0.0,
        duration: 2.4,
    },
    Case {
        name: "VerticalBounce",
        condition: 1,
        damping: true,
        friction: false,
        tilt_deg: 0.0,
        duration: 3.0,
    },
    Case {
        name: "VerticalBounce",
        condition: 1,
        damping: true,
        friction: true,
        tilt_deg: 0.0,
        duration: 3.0,
    },
    Case {
        name: "Slide",
        condition: 2,
        damping: false,
        friction: false,
        tilt_deg: 0.0,
        duration: 1.0,
    },
    Case {
        name: "Slide",
        condition: 2,
        damping: true,
        friction: true,
        tilt_deg: 0.0,
        duration: 3.0,
    },
    Case {
        name: "Spin",
        condition: 3,
        damping: false,
        friction: false,
        tilt_deg: 0.0,
        duration: 2.0,
    },
    Case {
        name: "Spin",
        condition: 3,
        damping: true,
        friction: true,
        tilt_deg: 0.0,
        duration: 3.0,
    },
    Case {
        name: "Spin",
        condition: 3,
        damping: true,
        friction: true,
        tilt_deg: -15.0,
        duration: 8.0,
    },
    Case {
        name: "SpinAndSlide",
        condition: 4,
        damping: false,
        friction: false,
        tilt_deg: 0.0,
        duration: 0.8,
    },
    Case {
        name: "SpinAndSlide",
        condition: 4,
        damping: false,
        friction: true,
        tilt_deg: 0.0,
        duration: 1.6,
    },
    Case {
        name: "SpinAndSlide",
        condition: 4,
        damping: true,
        friction: false,
        tilt_deg: 0.0,
        duration: 1.6,
    },
    Case {
        name: "SpinAndSlide",
        condition: 4,
        damping: true,
        friction: true,
        tilt_deg: 0.0,
        duration: 5.5,
    },
    Case {
        name: "SpinLikeTop",
        condition: 5,
        damping: false,
        friction: false,
        tilt_deg: 0.0,
        duration: 2.0,
    },
    Case {
        name: "SpinLikeTop",
        condition: 5,
        damping: true,
        friction: true,
        tilt_deg: 0.0,
        duration: 2.0,
    },
    Case {
        name: "Tumble",
        condition: 6,
        damping: false,
        friction: false,
        tilt_deg: 0.0,
        duration: 2.2,
    },
    Case {
        name: "Tumble",
        condition: 6,
        damping: true,
        friction: true,
        tilt_deg: 0.0,
        duration: 10.0,
    },
];

fn build(case: &Case) -> (Model<f64>, State<f64>) {
    let mut b = ModelBuilder::<f64>::new();
    let block = b
        .add_body(BodyDef::new(
            "block",
            BodyId::GROUND,
            Mobilizer::Free,
            MassProperties::new(10.0, Vector3::zeros(), Matrix3::identity()),
        ))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.8, 0.0));
    let mut p = ExponentialSpringParameters::default();
    if !case.damping {
        p.normal_viscosity = 0.0;
        p.friction_viscosity = 0.0;
    }
    if case.friction {
        p.set_initial_friction(0.5, 0.25);
    } else {
        p.set_initial_friction(0.0, 0.0);
    }
    // Floor: space-fixed −90° about X, then the tilt about Z. Wall: −60° about Y at (1.5, 0, 0).
    let floor = Transform::from_axis_angle(Vector3::z(), case.tilt_deg.to_radians())
        * Transform::from_axis_angle(Vector3::x(), -std::f64::consts::FRAC_PI_2);
    let mut wall = Transform::from_axis_angle(Vector3::y(), -std::f64::consts::FRAC_PI_3);
    wall.p = Vector3::new(1.5, 0.0, 0.0);
    for plane in [floor, wall] {
        for (x, y, z) in CORNERS {
            ExponentialSpringForce::add_to(&mut b, None, plane, block, Vector3::new(x, y, z), p)
                .unwrap();
        }
    }
    let model = b.build().unwrap();
    let mut s = model.default_state();
    let (pos, v, w, q): ([f64; 3], [f64; 3], [f64; 3], [f64; 4]) = match case.condition {
        1 => ([0.5, 1.0, 0.0], [0.0; 3], [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        2 => (
            [-0.5, 0.11, 0.0],
            [4.0, 0.0, 0.0],
            [0.0; 3],
            [1.0, 0.0, 0.0, 0.0],
        ),
        3 => (
            [0.5, 0.11, 0.0],
            [0.0; 3],
            [0.0, 8.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
        4 => (
            [0.5, 0.11, 0.0],
            [2.0, 0.0, 0.0],
            [0.0, 12.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
        5 => {
            let (half, a) = (54.74f64.to_radians() / 2.0, std::f64::consts::FRAC_1_SQRT_2);
            (
                [0.5, 0.2, 0.0],
                [0.0; 3],
                [0.0, 12.0, 0.0],
                [half.cos(), a * half.sin(), 0.0, a * half.sin()],
            )
        }
        _ => (
            [-1.0, 1.0, 0.5],
            [4.0, 0.0, 0.0],
            [-1.0, 0.0, -6.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
    };
    s.set_body_q(
        &model,
        block,
        &[q[0], q[1], q[2], q[3], pos[0], pos[1], pos[2]],
    );
    s.set_body_u(&model, block, &[w[0], w[1], w[2], v[0], v[1], v[2]]);
    for f in model.forces() {
        if let Force::ExponentialSpring(spring) = f {
            spring.reset_anchor_point(&model, &mut s);
        }
    }
    (model, s)
}

/// Simbody's per-spring assertions on one realized state.
fn check_invariants(case: &Case, model: &Model<f64>, s: &State<f64>, d: &Data<f64>) {
    let ctx = ForceContext::new(model, s, d);
    for f in model.forces() {
        let Force::ExponentialSpring(spring) = f else {
            continue;
        };
        let o = spring.evaluate(&ctx);
        let at = || {
            format!(
                "{} (condition {}) t = {}: {}",
                case.name, case.condition, s.t, spring.name
            )
        };
        assert!(
            (o.normal_force_elastic + o.normal_force_damping - o.normal_force).abs()
                <= 1e-12 * (1.0 + o.normal_force.abs()),
            "{}",
            at()
        );
        let fz_g = spring.to_ground(&Vector3::new(0.0, 0.0, o.normal_force));
        assert!(
            (fz_g.norm() - o.normal_force.abs()).abs() <= 1e-12 * (1.0 + o.normal_force),
            "{}",
            at()
        );
        let k_state = spring.sliding_in_state(model, s);
        assert!(
            (0.0..=1.0).contains(&k_state) && (0.0..=1.0).contains(&o.sliding_update),
            "{}",
            at()
        );
        let (mu_s, mu_k) = (spring.mu_static(model, s), spring.mu_kinetic(model, s));
        assert!(mu_k <= o.mu + 1e-5 && o.mu <= mu_s + 1e-5, "{}", at());
        if case.friction {
            assert!(o.mu > 0.0, "{}", at());
        }
        assert!(
            (o.friction_limit - (o.mu * fz_g.norm()).abs()).abs() <= 1e-12,
            "{}",
            at()
        );
        assert!(
            o.friction.z == 0.0 && o.friction_elastic.z == 0.0 && o.friction_damping.z == 0.0,
            "{}",
            at()
        );
        assert!(
            (o.friction_elastic + o.friction_damping - o.friction).norm()
                <= 1e-12 * (1.0 + o.friction.norm()),
            "{}",
            at()
        );
        assert!(
            o.friction.norm() <= o.friction_limit + 1e-12,
            "{}: |f| {} > limit {}",
            at(),
            o.friction.norm(),
            o.friction_limit
        );
        let total_g = spring.to_ground(&o.force());
        let parts_g = fz_g + spring.to_ground(&o.friction);
        assert!(
            (total_g - parts_g).norm() <= 1e-12 * (1.0 + total_g.norm()),
            "{}",
            at()
        );
        let p_g = d.poses().unwrap()[spring.body.index()].apply(&spring.station);
        assert!(
            (spring.point_in_ground(&o.station_position) - p_g).norm() < 1e-12,
            "{}",
            at()
        );
        assert_eq!(o.anchor_update.z, 0.0, "{}", at());
        assert_eq!(spring.anchor_in_state(model, s).z, 0.0, "{}", at());
    }
}

#[test]
fn simbody_test_matrix() {
    for case in &CASES {
        let (model, state) = build(case);
        let settings = IntegratorSettings {
            max_step: Some(0.01),
            ..IntegratorSettings::rk_merson(1e-5)
        };
        let mut sim = Simulation::new(&model, state, settings).unwrap();
        let mut energies = Vec::new();
        sim.run(case.duration, 1.0 / 60.0, |m, s, d| {
            check_invariants(case, m, s, d);
            energies.push(kinetic_energy(m, d) + potential_energy(m, s, d));
            Ok(())
        })
        .unwrap();
        if !case.damping && !case.friction {
            let e0 = energies[0];
            let drift = energies.iter().map(|e| (e - e0).abs()).fold(0.0, f64::max);
            // Accuracy 1e-5 with max step 0.01 over 1–2.4 s of stiff exponential contact: the
            // measured relative drift is 1e-5 to 8.7e-5 (largest for the vertical bounce); an
            // energy term missing from PE, or a force without its potential, drifts by order 1.
            assert!(
                drift <= 2e-4 * e0.abs().max(1.0),
                "{} (condition {}): energy drift {drift:e} of {e0}",
                case.name,
                case.condition
            );
        }
    }
}
