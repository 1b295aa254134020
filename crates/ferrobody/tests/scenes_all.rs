//! Every scene shipped in examples/scenes loads, and runs its first 0.05 s without error, so
//! that no example can silently rot.

use ferrobody::io::load_scene;
use ferrobody::Simulation;
use std::path::PathBuf;

#[test]
fn every_example_scene_loads_and_starts() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let scene = load_scene(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !scene.description.is_empty(),
            "{} has a description",
            path.display()
        );
        let mut sim = Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        sim.advance_to(0.05f64.min(scene.duration))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        count += 1;
    }
    assert!(count >= 14, "found {count} scenes");
}
