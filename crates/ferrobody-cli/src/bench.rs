//! `ferrobody bench`: time only the stepping of a scene, several times; one JSON line.

use anyhow::Result;
use ferrobody::Simulation;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

#[derive(Serialize)]
struct BenchResult {
    scene: String,
    runs: usize,
    wall_median_s: f64,
    wall_min_s: f64,
    wall_max_s: f64,
    /// The last run's integrator counters, as the library serializes them.
    #[serde(flatten)]
    stats: ferrobody::integrators::Stats,
}

pub fn bench(path: &Path, runs: usize, overrides: &crate::run::Overrides) -> Result<()> {
    anyhow::ensure!(runs > 0, "--runs must be at least 1");
    let mut scene = crate::model_file::load(
        path,
        &crate::model_file::LoadOptions {
            strict: overrides.strict,
            show_progress: true,
            floating_base: overrides.floating_base,
            actuators: overrides.actuators,
            controls: overrides.controls.as_deref(),
            external_loads: overrides.external_loads.as_deref(),
        },
    )?
    .scene;
    crate::run::apply_overrides(&mut scene, overrides)?;
    let mut walls = Vec::with_capacity(runs);
    let mut stats = Default::default();
    for _ in 0..runs {
        let mut sim = Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator)?;
        sim.set_parallel_forces(true);
        let start = Instant::now();
        sim.advance_to(scene.duration)?;
        walls.push(start.elapsed().as_secs_f64());
        stats = sim.stats();
    }
    walls.sort_by(f64::total_cmp);
    let median = if runs % 2 == 1 {
        walls[runs / 2]
    } else {
        0.5 * (walls[runs / 2 - 1] + walls[runs / 2])
    };
    let stats: ferrobody::integrators::Stats = stats;
    let result = BenchResult {
        scene: scene.name,
        runs,
        wall_median_s: median,
        wall_min_s: walls[0],
        wall_max_s: walls[runs - 1],
        stats,
    };
    out!("{}", serde_json::to_string(&result)?);
    Ok(())
}
