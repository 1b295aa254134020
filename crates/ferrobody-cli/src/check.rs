//! `ferrobody check`: load, validate and describe a scene.

use anyhow::{Context, Result};
use ferrobody::io::osim::OsimInfo;
use std::path::Path;

pub fn check(
    path: &Path,
    floating_base: bool,
    actuators: ferrobody::io::urdf::UrdfActuators,
) -> Result<()> {
    let loaded = crate::model_file::load(
        path,
        &crate::model_file::LoadOptions {
            show_progress: true,
            floating_base,
            actuators,
            ..Default::default()
        },
    )?;
    let scene = loaded.scene;
    let model = &scene.model;
    // Exactly `run`'s validation up to the first step: the integrator settings against the
    // model (unilateral contacts need the rigid stepper, which takes no constraints), the
    // initial state, its projection and first force evaluation.
    ferrobody::Simulation::new(model, scene.initial_state.clone(), scene.integrator)
        .with_context(|| format!("{}: the run could not start", scene.name))?;
    out!("scene '{}' is valid", scene.name);
    if !scene.description.is_empty() {
        out!("  {}", scene.description);
    }
    out!(
        "  {} bodies, nq = {}, nu = {}; {} force elements",
        model.nbodies() - 1,
        model.nq(),
        model.nu(),
        model.forces().len()
    );
    if model.is_planar_xy() {
        out!("  every body moves in Ground's xy plane: the derivative runs in two dimensions");
    }
    let names = &scene.names;
    for b in &model.bodies()[1..] {
        out!(
            "  body '{}': {} mobilizer on '{}', mass {} kg{}",
            b.name,
            b.mobilizer,
            model.body(b.parent).name,
            b.mass_properties.mass,
            mobility_list(&names.coordinates[b.q_range()], &names.speeds[b.u_range()])
        );
    }
    for f in model.forces() {
        out!("  force: {}", f.name());
        match f {
            ferrobody::model::Force::Muscle(m) => describe_path(model, &m.path),
            ferrobody::model::Force::PathForce(p) => describe_path(model, &p.path),
            _ => {}
        }
    }
    for c in model.constraints() {
        let [a, b] = c.bodies();
        let (a, b) = (&model.body(a).name, &model.body(b).name);
        out!("  constraint: {} between '{a}' and '{b}'", c.kind_name());
    }
    for u in model.unilateral_contacts() {
        out!("  unilateral contact: {}", u.kind.name());
    }
    for a in model.actuators() {
        let body = &model.body(a.body).name;
        let coordinate = &names.coordinates[model.body(a.body).q_range().start + a.coordinate];
        out!(
            "  actuator '{}': {} on coordinate '{coordinate}' of '{body}', gear {}",
            a.name,
            a.kind.label(),
            a.gear
        );
    }
    let force_controls = &model.control_names()[model.force_control_start()..];
    if !force_controls.is_empty() {
        out!(
            "  {} excitation controls (muscles and actuators without a controller): {}",
            force_controls.len(),
            force_controls.join(", ")
        );
    }
    if let Some(info) = &loaded.osim {
        describe_osim(info);
    } else if !scene.left_out.is_empty() {
        out!(
            "  not simulated: {}",
            crate::model_file::counts(&scene.left_out)
        );
    }
    if let Some(w) = crate::start_checks::deep_contact_warning(model, &scene.initial_state) {
        out!("  warning: {w}");
    }
    let i = &scene.integrator;
    let steps = if i.kind.is_error_controlled() {
        format!("accuracy {:e}", i.accuracy)
    } else {
        format!("fixed step {} s", i.fixed_step)
    };
    out!(
        "  run: {} s, reports every {} s, {} integrator, {steps}",
        scene.duration,
        scene.report_interval,
        i.kind.name(),
    );
    Ok(())
}

/// A muscle's or path force's path: its points (kind and body) and the wrap objects it may
/// wrap over.
fn describe_path(model: &ferrobody::Model<f64>, path: &ferrobody::muscles::GeometryPath) {
    use ferrobody::muscles::PathPoint;
    let points: Vec<String> = path
        .points
        .iter()
        .map(|p| {
            let kind = match p {
                PathPoint::Fixed { .. } => "point",
                PathPoint::Conditional { .. } => "conditional point",
                PathPoint::Moving { .. } => "moving point",
                _ => "path point",
            };
            format!("{kind} on '{}'", model.body(p.body()).name)
        })
        .collect();
    out!("    path: {}", points.join(", "));
    for w in &path.wraps {
        out!(
            "    wraps over '{}' on '{}'",
            w.object.name,
            model.body(w.object.body).name
        );
    }
}

/// `; coordinates a, b; speeds c, d` (empty for a welded body).
fn mobility_list(coordinates: &[String], speeds: &[String]) -> String {
    if coordinates.is_empty() {
        return String::new();
    }
    format!(
        "; coordinates {}; speeds {}",
        coordinates.join(", "),
        speeds.join(", ")
    )
}

/// What an .osim model adds: joints, coordinates, OpenSim force types, what was left out.
fn describe_osim(info: &OsimInfo) {
    for (name, kind) in &info.joints {
        out!("  joint '{name}': {kind}");
    }
    for c in &info.coordinates {
        out!(
            "  coordinate '{}' of '{}': default value {}, default speed {}",
            c.name,
            c.joint,
            c.default_value,
            c.default_speed
        );
    }
    for (name, kind) in &info.forces {
        out!("  OpenSim force '{name}': {kind}");
    }
    for (name, kind) in &info.constraints {
        out!("  OpenSim constraint '{name}': {kind}");
    }
    if !info.locks.is_empty() {
        let names: Vec<&str> = info.locks.iter().map(|(n, _)| n.as_str()).collect();
        out!("  locked coordinates: {}", names.join(", "));
    }
    if info.left_out.is_empty() {
        out!("  every element of the model is simulated");
    } else {
        out!(
            "  not simulated: {}",
            crate::model_file::left_out_list(info)
        );
    }
    for w in &info.warnings {
        out!("  warning: {w}");
    }
}
