//! `ferrobody demo`: the built-in contact playground, with plots, a 3D replay and a summary a
//! newcomer understands.

use crate::run::{fmt_energy, simulate_to_files, Extras};
use anyhow::Result;
use ferrobody::io::parse_scene;
use std::path::Path;

/// The demo scene, embedded so that the demo needs no files.
const DEMO_SCENE: &str = include_str!("../../../examples/scenes/demo_contact_playground.toml");

pub fn demo(out: &Path, quiet: bool) -> Result<()> {
    let scene = parse_scene(DEMO_SCENE, "<built-in demo scene>", "demo")?;
    let s = simulate_to_files(
        &scene,
        out,
        Extras {
            plot: true,
            replay: true,
            quiet,
            max_wall_time: None,
        },
        None,
    )?;
    let lost = s.initial_energy - s.final_energy;
    out!("ferrobody demo: {}", scene.description);
    out!("  three of Simbody's contact models side by side, all falling onto the same ground:");
    out!("    link1..link5 and hc_ball  Hunt-Crossley contact (Hertz spring + dissipation + friction)");
    out!("    smooth_ball               smooth sphere/half-space contact, made for gradient-based optimization");
    out!("    block                     eight exponential springs, whose static friction does not drift");
    out!(
        "  simulated {} s with Simbody's Runge-Kutta-Merson integrator (accuracy {:e}): {} steps, {} rejected and retried smaller at impacts, {:.1} ms",
        s.end_time,
        s.accuracy,
        s.stats.steps_taken,
        s.stats.error_test_failures,
        s.wall_time_s * 1e3
    );
    out!(
        "  energy {} J -> {} J: {:.1} J dissipated by the contacts",
        fmt_energy(s.initial_energy),
        fmt_energy(s.final_energy),
        lost
    );
    out!("  open in {}/:", out.display());
    out!("    replay.html         the 3D replay: open it in a web browser (drag to orbit, wheel to zoom)");
    out!("    heights.svg, speeds.svg, energy.svg, contact_forces.svg   plots over time");
    out!("    trajectory.csv      {} rows: time, every body's position, orientation, velocity, and the energies", s.report_rows);
    out!("    contacts.csv        {} rows: every contact at every report time (point, normal, depth, forces)", s.contact_rows);
    out!("    replay.glb, summary.json   the replay as glTF (for Blender and other viewers), and the run statistics");
    out!("  next: `ferrobody run examples/scenes/s1_hc_ball.toml --plot --replay`, or write a scene (docs/scene-format.md)");
    Ok(())
}
