//! The two-dimensional path against the general pipeline: the same state derivative on random
//! planar trees with contact, springs and out-of-plane loads; which models qualify; the error
//! for a singular body and the state `data` is left in.

use super::state_derivative;
use crate::contact::{ContactMaterial, FrictionModel, HuntCrossleyForce};
use crate::data::{Data, Stage};
use crate::forces::{ConstantForce, ConstantTorque, MobilityLinearSpring};
use crate::forces::{MobilityLinearDamper, TwoPointLinearSpring};
use crate::geometry::{ContactSurface, Shape};
use crate::ids::BodyId;
use crate::math::{MassProperties, Transform};
use crate::mobilizer::Mobilizer;
use crate::model::planar_xy::is_planar_xy_model;
use crate::model::Force;
use crate::model::{BodyDef, Model, ModelBuilder};
use crate::pipeline;
use crate::state::State;
use nalgebra::{Matrix3, Vector3};

/// A small deterministic generator (xorshift), uniform in `[lo, hi)`.
struct Rng(u64);

impl Rng {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn vec3(&mut self, a: f64) -> Vector3<f64> {
        Vector3::new(
            self.uniform(-a, a),
            self.uniform(-a, a),
            self.uniform(-a, a),
        )
    }

    fn below(&mut self, n: usize) -> usize {
        (self.uniform(0.0, n as f64) as usize).min(n - 1)
    }
}

/// A turn about z with exact zeros and one where z is kept, and an offset with a z part.
fn turn_about_z(rng: &mut Rng) -> Transform<f64> {
    let (s, c) = rng.uniform(-3.0, 3.0).sin_cos();
    Transform {
        r: Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0),
        p: rng.vec3(0.4),
    }
}

/// Fully three-dimensional mass properties (products of inertia, a COM off the plane).
fn mass_properties(rng: &mut Rng) -> MassProperties<f64> {
    // Principal moments as sums of two of three positive numbers (the triangle inequality),
    // turned about a random axis.
    let [a, b, c] = [0; 3].map(|_| rng.uniform(0.05, 0.5));
    let principal = Matrix3::from_diagonal(&Vector3::new(a + b, b + c, a + c));
    let r = Transform::from_axis_angle(rng.vec3(1.0) + Vector3::x() * 1e-3, 1.0).r;
    let inertia = r * principal * r.transpose();
    MassProperties::new(rng.uniform(0.5, 3.0), rng.vec3(0.3), inertia)
}

/// A random planar-xy tree of `n` bodies (a Planar or Pin root on Ground; Pins, Sliders,
/// Planars and Welds below, some on Ground too) with turned and offset frames, gravity out
/// of the plane as well as in it, out-of-plane constant loads, two-point and mobility
/// springs, a damper, and Hunt–Crossley spheres on every body over a floor whose normal is y.
fn planar_tree(rng: &mut Rng, n: usize) -> Model<f64> {
    let mut b = ModelBuilder::<f64>::new();
    let kinds = [
        Mobilizer::Pin,
        Mobilizer::Slider,
        Mobilizer::Planar,
        Mobilizer::Weld,
    ];
    let mut surfaces = vec![ContactSurface {
        body: BodyId::GROUND,
        x_bs: Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2),
        shape: Shape::HalfSpace,
    }];
    for i in 0..n {
        let (parent, kind) = match i {
            0 => (BodyId::GROUND, Mobilizer::Planar),
            _ if rng.below(5) == 0 => (BodyId::GROUND, Mobilizer::Pin),
            _ => (BodyId(1 + rng.below(i)), kinds[rng.below(kinds.len())]),
        };
        let mut x_pf = turn_about_z(rng);
        if i == 0 && rng.below(2) == 0 {
            // A Planar root whose F turns with Ground (the leg's pelvis): H̃ = 1.
            x_pf.r = Matrix3::identity();
        }
        let def = BodyDef::new(&format!("b{i}"), parent, kind, mass_properties(rng))
            .with_x_pf(x_pf)
            .with_x_bm(if i % 3 == 0 {
                Transform::identity()
            } else {
                turn_about_z(rng)
            });
        let id = b.add_body(def).unwrap();
        let station = rng.vec3(0.3);
        b.add_force(Force::ConstantForce(ConstantForce {
            body: id,
            station,
            force: rng.vec3(3.0),
        }))
        .unwrap();
        b.add_force(Force::ConstantTorque(ConstantTorque {
            body: id,
            torque: rng.vec3(1.0),
        }))
        .unwrap();
        if kind.nu() > 0 {
            let stiffness = rng.uniform(1.0, 50.0);
            b.add_force(Force::MobilityLinearSpring(MobilityLinearSpring {
                body: id,
                coordinate: 0,
                stiffness,
                q0: 0.1,
            }))
            .unwrap();
            b.add_force(Force::MobilityLinearDamper(MobilityLinearDamper {
                body: id,
                speed: 0,
                damping: 2.0,
            }))
            .unwrap();
        }
        if i > 0 {
            b.add_force(Force::TwoPointLinearSpring(TwoPointLinearSpring {
                body1: id,
                p1: station,
                body2: BodyId(i),
                p2: rng.vec3(0.2),
                stiffness: 30.0,
                rest_length: 0.1,
            }))
            .unwrap();
        }
        surfaces.push(ContactSurface {
            body: id,
            x_bs: Transform::from_translation(rng.vec3(0.3)),
            shape: Shape::Sphere { radius: 0.2 },
        });
    }
    let material = ContactMaterial {
        stiffness: 1e5,
        dissipation: 0.5,
        static_friction: 0.8,
        dynamic_friction: 0.5,
        viscous_friction: 0.1,
    };
    let m = vec![material; surfaces.len()];
    let hc = HuntCrossleyForce::new("hc", surfaces, m, 0.01, FrictionModel::Hollars).unwrap();
    b.add_force(Force::HuntCrossley(hc)).unwrap();
    b.add_gravity(Vector3::new(0.3, -9.81, 0.7));
    b.build().unwrap()
}

/// A random state with the bodies around the floor (the root lifted a little).
fn random_state(model: &Model<f64>, rng: &mut Rng) -> State<f64> {
    let mut state = model.default_state();
    for k in 0..model.nq() {
        state.q[k] = rng.uniform(-1.0, 1.0);
        state.u[k] = rng.uniform(-2.0, 2.0);
    }
    state.q[2] = rng.uniform(0.0, 0.5);
    state
}

/// Both paths' ẏ for `state`.
fn derivatives(model: &Model<f64>, state: &State<f64>) -> (Vec<f64>, Vec<f64>) {
    let n = model.nq() + model.nu() + model.nz();
    let (mut fast, mut general) = (vec![0.0; n], vec![0.0; n]);
    state_derivative(model, state, &mut Data::new(model), &mut fast).unwrap();
    pipeline::state_derivative(model, state, &mut Data::new(model), &mut general).unwrap();
    (fast, general)
}

#[test]
fn random_planar_trees_give_the_general_state_derivative() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut in_contact = 0;
    for trial in 0..40 {
        let model = planar_tree(&mut rng, 2 + trial % 7);
        assert!(is_planar_xy_model(&model), "trial {trial} should qualify");
        assert!(model.planar_xy);
        for _ in 0..5 {
            let state = random_state(&model, &mut rng);
            let mut data = Data::new(&model);
            pipeline::realize(&model, &state, &mut data, Stage::Dynamics).unwrap();
            if data.dynamics.body_forces.iter().any(|f| f.norm() > 1e3) {
                in_contact += 1;
            }
            let (fast, general) = derivatives(&model, &state);
            let scale = 1.0 + general.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for (k, (a, b)) in fast.iter().zip(&general).enumerate() {
                // The same equations in another order of operations: round-off of a few
                // bodies' recursions (≈1e-14 relative); a lost term would be O(1).
                assert!(
                    (a - b).abs() <= 1e-11 * scale,
                    "trial {trial}, entry {k}: {a} (two-dimensional) vs {b} (general)"
                );
            }
        }
    }
    assert!(
        in_contact > 20,
        "only {in_contact} states touched the floor"
    );
}

#[test]
fn models_that_leave_the_plane_take_the_general_path() {
    let mp = MassProperties::new(1.0, Vector3::new(0.1, 0.0, 0.0), Matrix3::identity());
    let with = |kind: Mobilizer, x_pf: Transform<f64>| {
        let mut b = ModelBuilder::<f64>::new();
        let root = b
            .add_body(BodyDef::new("root", BodyId::GROUND, Mobilizer::Planar, mp))
            .unwrap();
        b.add_body(BodyDef::new("child", root, kind, mp).with_x_pf(x_pf))
            .unwrap();
        b.build().unwrap()
    };
    let tilted = Transform::from_axis_angle(Vector3::x(), 0.3);
    assert!(with(Mobilizer::Pin, Transform::identity()).planar_xy);
    assert!(!with(Mobilizer::Ball, Transform::identity()).planar_xy);
    assert!(!with(Mobilizer::Universal, Transform::identity()).planar_xy);
    assert!(!with(Mobilizer::Pin, tilted).planar_xy);
}

#[test]
fn data_is_left_unrealized() {
    let mut rng = Rng(7);
    let model = planar_tree(&mut rng, 3);
    let state = random_state(&model, &mut rng);
    let mut data = Data::new(&model);
    let mut ydot = vec![0.0; model.nq() + model.nu()];
    state_derivative(&model, &state, &mut data, &mut ydot).unwrap();
    assert_eq!(data.stage(), Stage::Time);
}

/// On dual numbers (the step derivatives' scalar) the path gives the general pipeline's
/// values and derivatives: ∂ẏ/∂q₀ and ∂ẏ/∂u₀ of a random planar tree with contact.
#[test]
fn dual_numbers_give_the_general_derivatives() {
    use num_dual::Dual64;
    let mut rng = Rng(0x51_7cc1_b727_220a);
    let model = planar_tree(&mut rng, 5);
    let dual: Model<Dual64> = model.cast().unwrap();
    assert!(dual.planar_xy);
    for _ in 0..10 {
        let state = random_state(&model, &mut rng);
        for seed_u in [false, true] {
            let mut s: State<Dual64> = state.cast();
            if seed_u {
                s.u[0] = s.u[0].derivative();
            } else {
                s.q[0] = s.q[0].derivative();
            }
            let n = model.nq() + model.nu() + model.nz();
            let (mut fast, mut general) = (vec![Dual64::from(0.0); n], vec![Dual64::from(0.0); n]);
            state_derivative(&dual, &s, &mut Data::new(&dual), &mut fast).unwrap();
            pipeline::state_derivative(&dual, &s, &mut Data::new(&dual), &mut general).unwrap();
            let scale = general
                .iter()
                .fold(1.0f64, |m, x| m.max(x.re.abs()).max(x.eps.abs()));
            for (k, (a, b)) in fast.iter().zip(&general).enumerate() {
                // As the f64 test: round-off of a few bodies' recursions.
                assert!(
                    (a.re - b.re).abs() <= 1e-11 * scale && (a.eps - b.eps).abs() <= 1e-11 * scale,
                    "entry {k}: {a} (two-dimensional) vs {b} (general)"
                );
            }
        }
    }
}

/// A simulation of a planar-xy model steps on the two-dimensional path, and its `data()` is
/// still the fully realized advanced state (mobilizer frames and Coriolis terms included,
/// which that path does not fill).
#[test]
fn a_simulations_data_is_fully_realized_after_planar_steps() {
    use crate::integrators::IntegratorSettings;
    use crate::simulation::Simulation;
    let mut rng = Rng(11);
    let model = planar_tree(&mut rng, 4);
    let state = random_state(&model, &mut rng);
    let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-6)).unwrap();
    sim.advance_to(0.01).unwrap();
    let mut fresh = Data::new(&model);
    pipeline::realize(&model, sim.state(), &mut fresh, Stage::Acceleration).unwrap();
    let data = sim.data().unwrap();
    assert_eq!(data.stage(), Stage::Acceleration);
    assert_eq!(data.acc.udot, fresh.acc.udot);
    assert_eq!(data.pos.x_gf, fresh.pos.x_gf);
    assert_eq!(data.pos.h_g, fresh.pos.h_g);
    assert_eq!(data.vel.coriolis, fresh.vel.coriolis);
}

/// `StateDerivativeJacobian`'s dual passes run over the two-dimensional path for a planar-xy
/// model: its ∂ẏ/∂y equals the general pipeline's, column by column on dual numbers.
#[test]
fn the_dual_state_jacobian_of_a_planar_model_is_the_general_one() {
    use crate::derivatives::StateDerivativeJacobian;
    use num_dual::Dual64;
    let mut rng = Rng(0x2d_58b4_a0f1_9c37);
    let model = planar_tree(&mut rng, 5);
    let dual: Model<Dual64> = model.cast().unwrap();
    let mut jacobian = StateDerivativeJacobian::new(&model).unwrap().dual_only();
    let (nq, nu) = (model.nq(), model.nu());
    let n = nq + nu + model.nz();
    for _ in 0..5 {
        let state = random_state(&model, &mut rng);
        jacobian.compute(&state).unwrap();
        let scale = jacobian.jacobian.amax().max(1.0);
        for column in 0..n {
            let mut s: State<Dual64> = state.cast();
            match column {
                c if c < nq => s.q[c] = s.q[c].derivative(),
                c => s.u[c - nq] = s.u[c - nq].derivative(),
            }
            let mut general = vec![Dual64::from(0.0); n];
            pipeline::state_derivative(&dual, &s, &mut Data::new(&dual), &mut general).unwrap();
            for (row, d) in general.iter().enumerate() {
                let gap = (jacobian.jacobian[(row, column)] - d.eps).abs();
                // The round-off of the two recursions, as the tests above.
                assert!(gap <= 1e-11 * scale, "({row}, {column}): off by {gap:e}");
            }
        }
    }
}

/// Issue 19: the planar-xy path repeats Simbody's arithmetic (kinematics, gravity,
/// Hunt–Crossley, the generalized springs, the articulated-body recursion): u̇ of OpenSim's
/// leg equals OpenSim's own to the last bit at 201 states of its RK-Merson run, in free fall,
/// impacts, stance and lift-off (fixture: `scripts/opensim/leg_udot_states.py`).
#[test]
fn the_leg_repeats_simbodys_arithmetic_bit_for_bit() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/opensim");
    let osim = crate::io::osim::load(&dir.join("osim_leg_hc.osim")).unwrap();
    let model = osim.model;
    assert!(is_planar_xy_model(&model));
    let text = std::fs::read_to_string(dir.join("osim_leg_hc_udot.txt")).unwrap();
    let mut state = osim.default_state.clone();
    let mut data = Data::new(&model);
    let mut ydot = vec![0.0; 12];
    let mut in_contact = 0;
    for line in text.lines() {
        let v: Vec<f64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
        state.t = v[0];
        state.q.as_mut_slice().copy_from_slice(&v[1..7]);
        state.u.as_mut_slice().copy_from_slice(&v[7..13]);
        state_derivative(&model, &state, &mut data, &mut ydot).unwrap();
        for k in 0..6 {
            assert_eq!(
                ydot[6 + k].to_bits(),
                v[13 + k].to_bits(),
                "t = {}, u̇{k}",
                v[0]
            );
        }
        in_contact += usize::from(data.dynamics.body_forces[4][4] != -9.81);
    }
    assert!(in_contact > 100, "{in_contact} states in contact");
}
