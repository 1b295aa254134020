//! Shared helpers for the integration tests: a seeded random generator, random trees, and the
//! s5 ball held on a sphere.
#![allow(dead_code, missing_docs)]

use ferrobody::forces::{ConstantForce, ConstantTorque, MobilityConstantForce};
use ferrobody::prelude::*;

/// xorshift64*: deterministic, dependency-free random numbers for seeded tests.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn vec3(&mut self, s: f64) -> Vector3<f64> {
        Vector3::new(
            self.uniform(-s, s),
            self.uniform(-s, s),
            self.uniform(-s, s),
        )
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

pub fn random_transform(rng: &mut Rng) -> Transform<f64> {
    let mut x = Transform::from_axis_angle(
        rng.vec3(1.0) + Vector3::new(0.0, 0.0, 1e-3),
        rng.uniform(-3.0, 3.0),
    );
    x.p = rng.vec3(0.5);
    x
}

pub fn random_mass_properties(rng: &mut Rng) -> MassProperties<f64> {
    let mass = rng.uniform(0.5, 3.0);
    let principal = Vector3::new(
        rng.uniform(0.1, 1.0),
        rng.uniform(0.1, 1.0),
        rng.uniform(0.1, 1.0),
    );
    let r = Transform::from_axis_angle(
        rng.vec3(1.0) + Vector3::new(1e-3, 0.0, 0.0),
        rng.uniform(-3.0, 3.0),
    )
    .r;
    // Principal moments satisfying the triangle inequality: sums of two positive numbers.
    let i = Vector3::new(
        principal.y + principal.z,
        principal.x + principal.z,
        principal.x + principal.y,
    );
    MassProperties::new(
        mass,
        rng.vec3(0.3),
        r * Matrix3::from_diagonal(&i) * r.transpose(),
    )
}

/// Adds `n` bodies with random parents, mass properties and frames, cycling through every
/// mobilizer kind from `kind_offset`; `on_body` runs after each body is added (with the same
/// generator, so the random sequence stays interleaved).
pub fn add_random_bodies(
    b: &mut ModelBuilder<f64>,
    rng: &mut Rng,
    n: usize,
    kind_offset: usize,
    mut on_body: impl FnMut(&mut ModelBuilder<f64>, &mut Rng, BodyId, Mobilizer),
) {
    for i in 0..n {
        let kind = Mobilizer::ALL[(i + kind_offset) % Mobilizer::ALL.len()];
        let parent = BodyId(rng.below(b.nbodies()));
        let def = BodyDef::new(&format!("b{i}"), parent, kind, random_mass_properties(rng))
            .with_x_pf(random_transform(rng))
            .with_x_bm(random_transform(rng));
        let id = b.add_body(def).unwrap();
        on_body(b, rng, id, kind);
    }
}

/// Adds a random constant force at a random station, a random constant torque and, if the
/// mobilizer has a speed, a random constant generalized force, all on body `id`.
pub fn add_random_forces(b: &mut ModelBuilder<f64>, rng: &mut Rng, id: BodyId, kind: Mobilizer) {
    b.add_force(Force::ConstantForce(ConstantForce {
        body: id,
        station: rng.vec3(0.3),
        force: rng.vec3(2.0),
    }))
    .unwrap();
    b.add_force(Force::ConstantTorque(ConstantTorque {
        body: id,
        torque: rng.vec3(1.0),
    }))
    .unwrap();
    if kind.nu() > 0 {
        b.add_force(Force::MobilityConstantForce(MobilityConstantForce {
            body: id,
            speed: 0,
            force: rng.uniform(-1.0, 1.0),
        }))
        .unwrap();
    }
}

/// A random tree of `n` bodies cycling through every mobilizer kind, with random frames,
/// gravity and constant forces, and a random state (q, u).
pub fn random_tree(seed: u64, n: usize) -> (Model<f64>, State<f64>) {
    let mut rng = Rng::new(seed);
    let mut b = ModelBuilder::<f64>::new();
    add_random_bodies(&mut b, &mut rng, n, 0, add_random_forces);
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let model = b.build().unwrap();
    let state = random_state(&model, &mut rng, 1.0);
    (model, state)
}

/// A random state of `model`: every q in [−1, 1] (quaternions then normalized), every u in
/// [−u_max, u_max].
pub fn random_state(model: &Model<f64>, rng: &mut Rng, u_max: f64) -> State<f64> {
    let mut state = model.default_state();
    for i in 0..model.nq() {
        state.q[i] = rng.uniform(-1.0, 1.0);
    }
    for &s in model.quaternion_starts() {
        let n = state.q.rows(s, 4).norm();
        for k in 0..4 {
            state.q[s + k] /= n;
        }
    }
    for i in 0..model.nu() {
        state.u[i] = rng.uniform(-u_max, u_max);
    }
    state
}

/// Standard gravity used in the scenes (m/s²).
pub const G: f64 = 9.81;

/// The s5 ball (Free, mass 1, inertia 0.025, radius 0.25, at the origin of Ground) held by a
/// SphereOnSphereContact on the unit sphere centred on `sphere_body`'s origin, with gravity
/// (0, −9.81, 0). Returns the ball and the constraint.
pub fn add_ball_on_sphere(
    b: &mut ModelBuilder<f64>,
    sphere_body: BodyId,
    rolling: bool,
) -> (BodyId, ferrobody::constraints::ConstraintId) {
    use ferrobody::constraints::{Constraint, SphereOnSphereContact};
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity() * 0.025);
    let ball = b
        .add_body(BodyDef::new("ball", BodyId::GROUND, Mobilizer::Free, mp))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let c = SphereOnSphereContact::new(
        sphere_body,
        Vector3::zeros(),
        1.0,
        ball,
        Vector3::zeros(),
        0.25,
        rolling,
    );
    let id = b
        .add_constraint(Constraint::SphereOnSphereContact(c))
        .unwrap();
    (ball, id)
}

/// The repository root (test data and example scenes are read from there).
pub fn repo_root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A reference CSV (header, then numbers) under the repository root, as rows of named columns.
pub fn csv_rows(relative: &str) -> Vec<std::collections::HashMap<String, f64>> {
    let text = std::fs::read_to_string(repo_root().join(relative)).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|h| h.trim().to_string())
        .collect();
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(|v| v.parse().unwrap()))
                .collect()
        })
        .collect()
}

/// Body 1's origin at every 0.01 s row of an RK-Merson (1e-6) run stepping onto the rows, as
/// OpenSim's references were made.
pub fn body_origins(model: &Model<f64>, start: State<f64>, duration: f64) -> Vec<Vector3<f64>> {
    let mut sim = Simulation::new(model, start, IntegratorSettings::rk_merson(1e-6)).unwrap();
    let mut data = Data::new(model);
    let mut out = Vec::new();
    sim.run_stepping_to_reports(duration, 0.01, |m, s, _| {
        ferrobody::pipeline::realize(m, s, &mut data, Stage::Position)?;
        out.push(data.poses().unwrap()[1].p);
        Ok(())
    })
    .unwrap();
    out
}
