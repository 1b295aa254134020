//! `ferrobody demo`: the built-in scene, with a summary a newcomer understands.

use crate::run::{fmt_energy, simulate_to_files};
use anyhow::Result;
use ferrobody::io::parse_scene;
use std::path::Path;

/// The demo scene, embedded so that the demo needs no files.
const DEMO_SCENE: &str = include_str!("../../../examples/scenes/p1_double_pendulum.toml");

pub fn demo(out: &Path) -> Result<()> {
    let scene = parse_scene(DEMO_SCENE, "<built-in demo scene>", "demo")?;
    let s = simulate_to_files(&scene, out)?;
    let drift = ((s.final_energy - s.initial_energy) / s.initial_energy).abs();
    println!("ferrobody demo: {}", scene.description);
    println!("  simulated {} s of a chaotic double pendulum with Simbody's Runge-Kutta-Merson integrator", s.end_time);
    println!(
        "  accuracy {:e}: {} steps ({} rejected and retried smaller), {} force evaluations, {:.1} ms",
        s.accuracy,
        s.steps_taken,
        s.steps_failed,
        s.realizations,
        s.wall_time_s * 1e3
    );
    println!(
        "  energy {} J at the start, {} J at the end: relative drift {drift:.1e} (no friction, so this measures accuracy)",
        fmt_energy(s.initial_energy),
        fmt_energy(s.final_energy)
    );
    println!("  open {}/trajectory.csv: {} rows of time, body positions, orientations, velocities and energies", out.display(), s.report_rows);
    println!("  and {}/summary.json for the run statistics; try `ferrobody run examples/scenes/p2_free_tumble.toml` next", out.display());
    Ok(())
}
