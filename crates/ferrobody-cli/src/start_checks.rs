//! Checks of the initial state that explain a run before it starts: bodies that begin in deep
//! contact with a half space (issue 22; linear in the surfaces, so a 100 000-ball scene is
//! checked in milliseconds). Deep overlaps make compliant contact forces huge, so the integrator
//! crawls with tiny steps or stops at its limits; saying so up front names the likely cause.

use ferrobody::contact::deepest_half_space_overlap;
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
    let (depth, element, (a, b)) = deepest_half_space_overlap(model, state, &data)?;
    (depth > DEEP_CONTACT).then(|| {
        let name = |id: ferrobody::BodyId| model.body(id).name.clone();
        format!(
            "bodies start in deep contact: '{}' and '{}' overlap by {depth:.3} m in contact element '{element}' (check the initial state and the contact surfaces' frames)",
            name(a),
            name(b),
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
