//! `ferrobody check`: load, validate and describe a scene.

use anyhow::Result;
use ferrobody::io::load_scene;
use std::path::Path;

pub fn check(path: &Path) -> Result<()> {
    let scene = load_scene(path)?;
    let model = &scene.model;
    println!("scene '{}' is valid", scene.name);
    if !scene.description.is_empty() {
        println!("  {}", scene.description);
    }
    println!(
        "  {} bodies, nq = {}, nu = {}; {} force elements",
        model.nbodies() - 1,
        model.nq(),
        model.nu(),
        model.forces().len()
    );
    for b in &model.bodies()[1..] {
        println!(
            "  body '{}': {} mobilizer on '{}', mass {} kg",
            b.name,
            b.mobilizer,
            model.body(b.parent).name,
            b.mass_properties.mass
        );
    }
    for f in model.forces() {
        println!("  force: {}", f.name());
    }
    let i = &scene.integrator;
    println!(
        "  run: {} s, reports every {} s, {} integrator, accuracy {:e}",
        scene.duration,
        scene.report_interval,
        i.kind.name(),
        i.accuracy
    );
    Ok(())
}
