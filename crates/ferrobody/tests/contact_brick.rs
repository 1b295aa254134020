//! Bricks on a half space (issue 20): Simbody's `BrickHalfSpacePenalty` generator against
//! Debian's Simbody 3.7 (`scripts/simbody37/`): the brick's body force at given states to
//! round-off, and the thrown brick of `examples/scenes/b1_brick_on_floor.toml` against its
//! Simbody trajectory.

use ferrobody::io::load_scene;
use ferrobody::model::element_contribution;
use ferrobody::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
#[allow(clippy::excessive_precision)] // Simbody's %.17g output, kept as printed
fn brick_forces_match_simbody_3_7() {
    // The b1 brick at (0.1, 0.12, 0.05) with its initial turn and angular velocity, velocity
    // (0.8, v_y, 0.3): Simbody 3.7's rigid-body force on the brick (moment about its origin,
    // force), printed by a probe of the reference program at each v_y. At 1.0–1.8 m/s upward
    // some vertices are being pulled out (no force from them).
    let cases: [(f64, [f64; 6]); 4] = [
        (
            -0.5,
            [
                -2667.2915791313612,
                -1667.2027719462678,
                -2853.4552199579011,
                -9442.3791429069151,
                19601.707809489846,
                -2626.4450087047903,
            ],
        ),
        (
            1.0,
            [
                -1182.4281059733623,
                -739.0820828624818,
                -1264.9556867395104,
                -4185.8695064248695,
                8689.5675074887895,
                -1164.3205494981426,
            ],
        ),
        (
            1.5,
            [
                -687.47361492069604,
                -429.7085198345531,
                -735.45584233338036,
                -2433.6996275975212,
                5052.1874068217712,
                -676.9457297625936,
            ],
        ),
        (
            1.8,
            [
                -390.50092028909626,
                -244.084382017796,
                -417.75593568970231,
                -1382.3977003011125,
                2869.7593464215606,
                -384.52083792126433,
            ],
        ),
    ];
    let scene = load_scene(&root().join("examples/scenes/b1_brick_on_floor.toml")).unwrap();
    let model = &scene.model;
    let id = ForceId(
        model
            .forces()
            .iter()
            .position(|f| f.name() == "contact")
            .unwrap(),
    );
    for (vy, simbody) in cases {
        let mut s = scene.initial_state.clone();
        s.q.as_mut_slice()[4..7].copy_from_slice(&[0.1, 0.12, 0.05]);
        s.u.as_mut_slice()[3..6].copy_from_slice(&[0.8, vy, 0.3]);
        let mut d = Data::new(model);
        ferrobody::pipeline::realize(model, &s, &mut d, Stage::Dynamics).unwrap();
        let f = element_contribution(model, &s, &d, id).body_forces[1];
        for k in 0..6 {
            // Round-off of sums of ~1e4 N terms: 1e-12 relative to the largest component.
            assert!(
                (f[k] - simbody[k]).abs() < 1e-12 * 2e4,
                "v_y {vy}: {:?} vs {simbody:?}",
                f.as_slice()
            );
        }
    }
}

#[test]
fn thrown_brick_follows_simbody_3_7() {
    let scene = load_scene(&root().join("examples/scenes/b1_brick_on_floor.toml")).unwrap();
    let text =
        std::fs::read_to_string(root().join("testdata/simbody37/b1_brick_on_floor.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let reference: Vec<HashMap<&str, f64>> = lines
        .map(|l| {
            header
                .iter()
                .copied()
                .zip(l.split(',').map(|v| v.parse().unwrap()))
                .collect()
        })
        .collect();
    let mut sim =
        Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator).unwrap();
    let mut data = Data::new(&scene.model);
    let mut worst_early: f64 = 0.0;
    let mut worst: f64 = 0.0;
    let mut row = 0;
    sim.run_stepping_to_reports(scene.duration, scene.report_interval, |m, s, _| {
        ferrobody::pipeline::realize(m, s, &mut data, Stage::Position)?;
        let p = data.poses().unwrap()[1].p;
        let r = &reference[row];
        let d = (p.x - r["x"])
            .abs()
            .max((p.y - r["y"]).abs())
            .max((p.z - r["z"]).abs());
        worst = worst.max(d);
        if r["t"] <= 0.7 {
            worst_early = worst_early.max(d);
        }
        row += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(row, reference.len());
    println!("b1: to 0.7 s {worst_early:.3e} m; whole run {worst:.3e} m");
    // Through the landing and the first rocking (to 0.7 s): the acceptance limit, 1e-5 m
    // (measured 2.1e-6). Afterwards the brick tips onto its face, where last bits decide the
    // step sequence: ±1e-15 m in our own initial height moves our own run by up to 7.1e-4 m
    // (docs/models/brick.md), so the whole run is held to 1e-3 m (measured 2.8e-4).
    assert!(worst_early <= 1e-5, "to 0.7 s: {worst_early:e}");
    assert!(worst <= 1e-3, "whole run: {worst:e}");
}
