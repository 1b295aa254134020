//! `ferrobody demo`: the built-in contact scene, with a summary a newcomer understands.

use crate::run::{fmt_energy, simulate_to_files};
use anyhow::Result;
use ferrobody::io::parse_scene;
use std::path::Path;

/// The demo scene, embedded so that the demo needs no files.
const DEMO_SCENE: &str = include_str!("../../../examples/scenes/demo_contact_playground.toml");

pub fn demo(out: &Path) -> Result<()> {
    let scene = parse_scene(DEMO_SCENE, "<built-in demo scene>", "demo")?;
    let s = simulate_to_files(&scene, out)?;
    let lost = s.initial_energy - s.final_energy;
    println!("ferrobody demo: {}", scene.description);
    println!(
        "  simulated {} s with Simbody's Runge-Kutta-Merson integrator at accuracy {:e}:",
        s.end_time, s.accuracy
    );
    println!(
        "  {} steps ({} rejected and retried smaller, mostly at impacts), {} force evaluations, {:.1} ms",
        s.steps_taken,
        s.steps_failed,
        s.realizations,
        s.wall_time_s * 1e3
    );
    println!(
        "  energy {} J at the start, {} J at the end: {:.1} J went into the contacts (Hunt-Crossley dissipation and friction)",
        fmt_energy(s.initial_energy),
        fmt_energy(s.final_energy),
        lost
    );
    println!("  files in {}/:", out.display());
    println!("    trajectory.csv  {} rows: time, every body's position, orientation, velocity, and the energies", s.report_rows);
    println!("    contacts.csv    {} rows: every touching pair at every report time (point, normal, depth, force)", s.contact_rows);
    println!("    summary.json    the run's statistics");
    println!("  next: `ferrobody run examples/scenes/s1_hc_ball.toml`, or write your own scene (docs/scene-format.md)");
    Ok(())
}
