//! Checks that explain a run: before it starts, bodies that begin in deep
//! contact with a half space (issue 22; linear in the surfaces, so a 100 000-ball scene is
//! checked in milliseconds). Deep overlaps make compliant contact forces huge, so the integrator
//! crawls with tiny steps or stops at its limits; saying so up front names the likely cause.

use ferrobody::pipeline::deepest_half_space_overlap;
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

/// Energy growth beyond this factor of the initial energy (or of 1 J) in a model without energy
/// sources cannot be physics: the integration is unstable.
const ENERGY_GROWTH: f64 = 10.0;

/// `warnings` plus, for a run that completed (`completed`; a failed one says why in its
/// error), a warning when the total energy rose by more than [`ENERGY_GROWTH`] times in a model
/// whose elements cannot add energy (gravity, springs, dampers, contact): the accuracy is too
/// loose or the fixed step too large for the stiffest element (issue 23).
pub fn with_end_warnings(
    scene: &ferrobody::io::Scene,
    mut warnings: Vec<String>,
    (e0, e1): (f64, f64),
    completed: bool,
) -> Vec<String> {
    if !completed {
        return warnings;
    }
    use ferrobody::model::Force;
    let has_sources = scene.model.forces().iter().any(|f| {
        matches!(
            f,
            Force::ConstantForce(_)
                | Force::ConstantTorque(_)
                | Force::MobilityConstantForce(_)
                | Force::Custom(_)
        )
    });
    let rose = e1 - e0 > ENERGY_GROWTH * e0.abs().max(1.0) || (e0.is_finite() && !e1.is_finite());
    if !has_sources && rose {
        let w = format!(
            "the energy rose from {e0:.6e} J to {e1:.6e} J in a model without energy sources: the integration is unstable (tighten the accuracy or shorten the fixed step)"
        );
        eprintln!("warning: {}: {w}", scene.name);
        warnings.push(w);
    }
    warnings
}
