//! Contact sets with several contacts, against Debian's Simbody 3.7 (issue 41): when one contact
//! of a set separates fast (its Hunt–Crossley normal force is not positive), Simbody's
//! `HuntCrossleyForce` stops evaluating the set there, while its `CompliantContactSubsystem`
//! computes every contact on its own. Reference: `testdata/simbody37/two_balls_one_leaving.txt`,
//! made by `scripts/simbody37/make_two_ball_reference.sh` (two balls in one set with the ground,
//! ball a listed first, 1 mm deep and leaving at 5 m/s; ball b resting 1 mm deep; b's vertical
//! speed after 1 ms of RK-Merson at 1e-6).

use ferrobody::io::parse_scene;
use ferrobody::prelude::*;
use std::path::PathBuf;

/// Simbody's line for `model` (ccs, hc) with or without ball a: b's vertical speed, the step
/// count and b's height.
fn simbody(model: &str, with_a: bool) -> (f64, u64, f64) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/simbody37/two_balls_one_leaving.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let key = if with_a { "with_a" } else { "without_a" };
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{model} {key} ")))
        .unwrap();
    let f: Vec<&str> = line.split_whitespace().collect();
    (
        f[2].parse().unwrap(),
        f[3].parse().unwrap(),
        f[4].parse().unwrap(),
    )
}

/// The reference's scene in ferrobody's format: `model` is `compliant` or `hunt_crossley`.
fn two_balls(model: &str, with_a: bool) -> String {
    let mut s = String::from(
        "gravity = [0.0, -9.81, 0.0]\n[simulation]\nduration = 0.001\n\
         [integrator]\nmethod = \"rk-merson\"\naccuracy = 1e-6\n\
         [material.s1]\nstiffness = 1e6\ndissipation = 0.5\nstatic_friction = 0.8\n\
         dynamic_friction = 0.5\nviscous_friction = 0.0\n",
    );
    let ball = |name: &str, x: f64, vy: f64| {
        format!(
            "[[body]]\nname = \"{name}\"\nmobilizer = \"free\"\nmass = 1.0\n\
             inertia = [0.004, 0.004, 0.004]\nq = [1.0, 0.0, 0.0, 0.0, {x}, 0.099, 0.0]\n\
             u = [0.0, 0.0, 0.0, 0.0, {vy}, 0.0]\n"
        )
    };
    if with_a {
        s += &ball("a", 0.0, 5.0);
    }
    s += &ball("b", 1.0, 0.0);
    s += &format!(
        "[[contact]]\nmodel = \"{model}\"\ntransition_velocity = 0.01\n\
         [[contact.surface]]\nbody = \"ground\"\nshape = \"half_space\"\n\
         frame = {{ rotation = {{ axis = [0.0, 0.0, 1.0], angle = -1.5707963267948966 }} }}\n\
         material = \"s1\"\n"
    );
    for name in if with_a { vec!["a", "b"] } else { vec!["b"] } {
        s += &format!(
            "[[contact.surface]]\nbody = \"{name}\"\nshape = \"sphere\"\nradius = 0.1\nmaterial = \"s1\"\n"
        );
    }
    s
}

/// Ball b's vertical speed and height after 1 ms, and the steps taken.
fn run(model: &str, with_a: bool) -> (f64, u64, f64) {
    let scene = parse_scene(&two_balls(model, with_a), "two_balls.toml", "two_balls").unwrap();
    let b = scene.model.body_id("b").unwrap();
    let mut sim = Simulation::new(&scene.model, scene.initial_state, scene.integrator).unwrap();
    sim.advance_to(0.001).unwrap();
    let steps = sim.stats().steps_taken;
    let u = sim.state().body_u(&scene.model, b).to_vec();
    let q = sim.state().body_q(&scene.model, b).to_vec();
    (u[4], steps, q[5])
}

/// The compliant model evaluates ball b's contact even while ball a's, listed before it, pulls:
/// b's speed and height are Simbody's CompliantContactSubsystem's to the last bit, with a or
/// without it, in as many steps. (The half space and sphere run in the subsystem's arithmetic,
/// `contact/compliant_point.rs`; in HuntCrossleyForce's they were 1 ulp away. With the early
/// return, the defect this guards against, b's speed is HuntCrossleyForce's −0.0060251…,
/// 1.1e15 ulps away.)
#[test]
fn a_leaving_contact_does_not_stop_the_compliant_set() {
    let alone = run("compliant", false);
    for with_a in [true, false] {
        let (v, steps, y) = run("compliant", with_a);
        let (v_ref, steps_ref, y_ref) = simbody("ccs", with_a);
        assert_eq!(
            (v.to_bits(), y.to_bits()),
            (alone.0.to_bits(), alone.2.to_bits())
        );
        assert!(
            v.to_bits().abs_diff(v_ref.to_bits()) <= 1,
            "{v:e} vs {v_ref:e}"
        );
        assert!(
            y.to_bits().abs_diff(y_ref.to_bits()) <= 1,
            "{y:e} vs {y_ref:e}"
        );
        assert_eq!(steps, steps_ref, "with a: {with_a}");
    }
}

/// The Hunt–Crossley model keeps Simbody's early return: with ball a pulling first, b gets
/// Simbody's HuntCrossleyForce speed (not the compliant one), to the last bit.
#[test]
fn a_leaving_contact_stops_the_hunt_crossley_set_as_in_simbody() {
    for with_a in [true, false] {
        let (v, steps, y) = run("hunt_crossley", with_a);
        let (v_ref, steps_ref, y_ref) = simbody("hc", with_a);
        assert_eq!(
            v.to_bits(),
            v_ref.to_bits(),
            "with a: {with_a}: {v:e} vs {v_ref:e}"
        );
        assert_eq!(
            y.to_bits(),
            y_ref.to_bits(),
            "with a: {with_a}: {y:e} vs {y_ref:e}"
        );
        assert_eq!(steps, steps_ref, "with a: {with_a}");
    }
    assert_ne!(simbody("hc", true).0, simbody("ccs", true).0);
}

/// The balls of `scripts/simbody37/multi_ball_reference.cpp`: radius, initial position, linear
/// and angular velocity, and material (stiffness, dissipation, μs, μd, μv) of each.
type BallSpec = (f64, [f64; 3], [f64; 3], [f64; 3], [f64; 5]);

fn multi_balls(variant: &str) -> Vec<BallSpec> {
    let s1 = [1e6, 0.5, 0.8, 0.5, 0.0];
    if variant == "collide" {
        // Two balls rolling into each other, a third falling onto one of them: sphere–sphere
        // contacts in the set besides the ground's.
        return vec![
            (0.1, [0.0, 0.1, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, -20.0], s1),
            (
                0.08,
                [0.6, 0.08, 0.02],
                [-1.5, 0.0, 0.0],
                [0.0, 2.0, 18.75],
                [2e6, 0.3, 0.9, 0.6, 0.0],
            ),
            (
                0.12,
                [0.75, 0.45, 0.03],
                [-1.0, 0.0, 0.0],
                [0.0, 0.0, 3.0],
                [5e5, 0.8, 0.7, 0.4, 0.05],
            ),
        ];
    }
    let mut balls = vec![
        (0.1, [0.0, 0.3, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 5.0], s1),
        (0.08, [1.0, 0.2, 0.2], [-0.5, 1.0, 0.0], [2.0, 0.0, 0.0], s1),
        (
            0.12,
            [2.0, 0.45, -0.2],
            [0.0, -2.0, 0.5],
            [0.0, 3.0, 1.0],
            s1,
        ),
    ];
    if variant == "unequal" {
        balls[0].4 = [2e6, 0.2, 0.9, 0.6, 0.1];
        balls[1].4 = [5e5, 1.0, 0.5, 0.3, 0.0];
        balls[2].4 = [3e6, 0.7, 1.1, 0.4, 0.05];
    }
    balls
}

/// The reference's scene: three balls and the ground in one set of `model`.
fn multi_ball_scene(model: &str, variant: &str) -> String {
    let mut s = String::from(
        "gravity = [0.0, -9.81, 0.0]\n[simulation]\nduration = 1.0\n\
         [integrator]\nmethod = \"rk-merson\"\naccuracy = 1e-6\n\
         [material.ground]\nstiffness = 1e6\ndissipation = 0.5\nstatic_friction = 0.8\n\
         dynamic_friction = 0.5\nviscous_friction = 0.0\n",
    );
    let balls = multi_balls(variant);
    for (i, (r, p, v, w, m)) in balls.iter().enumerate() {
        s += &format!(
            "[material.b{i}]\nstiffness = {:?}\ndissipation = {:?}\nstatic_friction = {:?}\n\
             dynamic_friction = {:?}\nviscous_friction = {:?}\n\
             [[body]]\nname = \"b{i}\"\nmobilizer = \"free\"\nmass = 1.0\n\
             inertia = [{i0:?}, {i0:?}, {i0:?}]\n\
             q = [1.0, 0.0, 0.0, 0.0, {:?}, {:?}, {:?}]\nu = [{:?}, {:?}, {:?}, {:?}, {:?}, {:?}]\n",
            m[0],
            m[1],
            m[2],
            m[3],
            m[4],
            p[0],
            p[1],
            p[2],
            w[0],
            w[1],
            w[2],
            v[0],
            v[1],
            v[2],
            i0 = 0.4 * r * r,
        );
    }
    s += &format!(
        "[[contact]]\nmodel = \"{model}\"\ntransition_velocity = 0.01\n\
         [[contact.surface]]\nbody = \"ground\"\nshape = \"half_space\"\n\
         frame = {{ rotation = {{ axis = [0.0, 0.0, 1.0], angle = -1.5707963267948966 }} }}\n\
         material = \"ground\"\n"
    );
    for (i, (r, ..)) in balls.iter().enumerate() {
        s += &format!(
            "[[contact.surface]]\nbody = \"b{i}\"\nshape = \"sphere\"\nradius = {r:?}\nmaterial = \"b{i}\"\n"
        );
    }
    s
}

/// Simbody's rows (t, then per ball x, y, z, qw, qx, qy, qz, wx, wy, wz, vx, vy, vz) and its
/// step count, from `testdata/simbody37/multi_<name>.csv`.
fn multi_reference(name: &str) -> (Vec<Vec<f64>>, u64) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../testdata/simbody37/multi_{name}.csv"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut steps = 0;
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        if let Some(rest) = line.strip_prefix("# steps ") {
            steps = rest.split_whitespace().next().unwrap().parse().unwrap();
        } else {
            rows.push(line.split(',').map(|x| x.parse().unwrap()).collect());
        }
    }
    (rows, steps)
}

/// Largest position difference (m) between two row sets (every ball, every row).
fn position_gap(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    let mut gap = 0.0f64;
    for (ra, rb) in a.iter().zip(b) {
        for i in 0..3 {
            for j in 0..3 {
                gap = gap.max((ra[1 + 13 * i + j] - rb[1 + 13 * i + j]).abs());
            }
        }
    }
    gap
}

/// ferrobody's rows of the reference's scene at Simbody's report times, and its step count.
fn multi_ball_rows(model: &str, variant: &str, times: &[f64]) -> (Vec<Vec<f64>>, u64) {
    let scene = parse_scene(&multi_ball_scene(model, variant), "multi.toml", "multi").unwrap();
    let mut sim = Simulation::new(&scene.model, scene.initial_state, scene.integrator).unwrap();
    let mut rows = Vec::new();
    for (k, &t) in times.iter().enumerate() {
        if k > 0 {
            sim.advance_to(t).unwrap();
        }
        let mut row = vec![t];
        for i in 0..3 {
            let b = scene.model.body_id(&format!("b{i}")).unwrap();
            let (q, u) = (
                sim.state().body_q(&scene.model, b),
                sim.state().body_u(&scene.model, b),
            );
            row.extend_from_slice(&q[4..7]);
            row.extend_from_slice(&q[0..4]);
            row.extend_from_slice(u);
        }
        rows.push(row);
    }
    (rows, sim.stats().steps_taken)
}

/// Three balls bouncing in one set, so that their contacts separate (some faster than
/// `2/(3c)`, where HuntCrossleyForce stops its loop) and reload at different times, with equal
/// and unequal materials, in both models, against Simbody 3.7 (`multi_ball_reference.cpp`).
/// Issue 41's acceptance: every ball at every row within 1e-8 m in Simbody's step count, or
/// within Simbody's own one-ulp spread where that is larger. The spread is measured: ball 2's
/// initial spin about y moved by ±1 ulp (`multi_*_ulp.csv`, `multi_*_ulp_minus.csv`): 4.2e-7
/// and 5.0e-7 m (bounce_ccs), 1.1e-6 / 5.4e-7 (bounce_hc), 4.8e-15 / 5.5e-15 (unequal_ccs),
/// 1.2e-6 / 1.2e-6 (unequal_hc). Measured here: all four bit-identical in positions (0 m) in
/// Simbody's step counts (736, 2767, 712, 3043), so all are held to 1e-8 m and the same count.
#[test]
fn bouncing_balls_in_one_set_match_simbody_bit_for_bit() {
    for (model, variant, reference) in [
        ("compliant", "bounce", "bounce_ccs"),
        ("hunt_crossley", "bounce", "bounce_hc"),
        ("compliant", "unequal", "unequal_ccs"),
        ("hunt_crossley", "unequal", "unequal_hc"),
        ("compliant", "collide", "collide_ccs"),
        ("hunt_crossley", "collide", "collide_hc"),
    ] {
        let (rows, steps_ref) = multi_reference(reference);
        let times: Vec<f64> = rows.iter().map(|r| r[0]).collect();
        let (ours, steps) = multi_ball_rows(model, variant, &times);
        // Simbody's rows print as %.17g, which round-trips: equal numbers are the same bits.
        let gap = position_gap(&ours, &rows);
        assert!(gap == 0.0, "{reference}: {gap:e} m from Simbody");
        assert_eq!(steps, steps_ref, "{reference}: steps");
        // What exactness is worth here: a one-ulp change of the start moves Simbody's own run.
        let spread = ["ulp", "ulp_minus"]
            .iter()
            .map(|s| position_gap(&multi_reference(&format!("{reference}_{s}")).0, &rows))
            .fold(0.0, f64::max);
        assert!(
            spread > 1e-15,
            "{reference}: a one-ulp change moves the run"
        );
    }
}
