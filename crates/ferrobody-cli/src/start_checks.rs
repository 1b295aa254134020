//! Checks of the initial state that explain a run before it starts: bodies that begin in deep
//! contact (issue 22). Deep overlaps make compliant contact forces huge, so the integrator
//! crawls with tiny steps or stops at its limits; saying so up front names the likely cause.

use ferrobody::contact::contact_reports;
use ferrobody::{pipeline, Data, Model, Stage, State};

/// Overlaps deeper than this (m) are reported: a centimetre is far beyond the sub-millimetre
/// depths at which compliant contact of ordinary stiffness carries body weights.
pub const DEEP_CONTACT: f64 = 0.01;

/// A warning naming the deepest initial overlap, if one is deeper than [`DEEP_CONTACT`].
pub fn deep_contact_warning(model: &Model, state: &State) -> Option<String> {
    if !model.has_contact() {
        return None;
    }
    let mut data = Data::new(model);
    pipeline::realize(model, state, &mut data, Stage::Velocity).ok()?;
    let deepest = contact_reports(model, state, &data)
        .into_iter()
        .filter(|r| r.depth.is_finite())
        .max_by(|a, b| a.depth.total_cmp(&b.depth))?;
    (deepest.depth > DEEP_CONTACT).then(|| {
        let name = |b: ferrobody::BodyId| model.body(b).name.clone();
        format!(
            "bodies start in deep contact: '{}' and '{}' overlap by {:.3} m in contact element '{}' (check the initial state and the contact surfaces' frames)",
            name(deepest.bodies.0),
            name(deepest.bodies.1),
            deepest.depth,
            deepest.element_name
        )
    })
}

/// The warnings about a scene's initial state, each printed once on stderr.
pub fn start_warnings(scene: &ferrobody::io::Scene) -> Vec<String> {
    let warnings: Vec<String> = deep_contact_warning(&scene.model, &scene.initial_state)
        .into_iter()
        .collect();
    for w in &warnings {
        eprintln!("warning: {}: {w}", scene.name);
    }
    warnings
}
