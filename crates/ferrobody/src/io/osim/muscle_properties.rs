//! The properties of OpenSim's muscles, with OpenSim's defaults where the file is silent.

use super::document::{child, Doc, Res};
use crate::muscles::{DeGrooteFregly2016, Thelen2003};
use roxmltree::Node;

/// A `DeGrooteFregly2016Muscle`'s properties (OpenSim's defaults where the file is silent).
pub(super) fn degroote_properties(doc: &Doc, node: Node) -> Res<DeGrooteFregly2016> {
    let d = DeGrooteFregly2016::default();
    Ok(DeGrooteFregly2016 {
        max_isometric_force: doc.scalar(node, "max_isometric_force", d.max_isometric_force)?,
        optimal_fiber_length: doc.scalar(node, "optimal_fiber_length", d.optimal_fiber_length)?,
        tendon_slack_length: doc.scalar(node, "tendon_slack_length", d.tendon_slack_length)?,
        pennation_angle_at_optimal: doc.scalar(
            node,
            "pennation_angle_at_optimal",
            d.pennation_angle_at_optimal,
        )?,
        max_contraction_velocity: doc.scalar(
            node,
            "max_contraction_velocity",
            d.max_contraction_velocity,
        )?,
        activation_time_constant: doc.scalar(
            node,
            "activation_time_constant",
            d.activation_time_constant,
        )?,
        deactivation_time_constant: doc.scalar(
            node,
            "deactivation_time_constant",
            d.deactivation_time_constant,
        )?,
        default_activation: doc.scalar(node, "default_activation", d.default_activation)?,
        default_normalized_tendon_force: doc.scalar(
            node,
            "default_normalized_tendon_force",
            d.default_normalized_tendon_force,
        )?,
        active_force_width_scale: doc.scalar(
            node,
            "active_force_width_scale",
            d.active_force_width_scale,
        )?,
        fiber_damping: doc.scalar(node, "fiber_damping", d.fiber_damping)?,
        ignore_passive_fiber_force: doc.boolean(node, "ignore_passive_fiber_force", false)?,
        passive_fiber_strain_at_one_norm_force: doc.scalar(
            node,
            "passive_fiber_strain_at_one_norm_force",
            d.passive_fiber_strain_at_one_norm_force,
        )?,
        tendon_strain_at_one_norm_force: doc.scalar(
            node,
            "tendon_strain_at_one_norm_force",
            d.tendon_strain_at_one_norm_force,
        )?,
        activation_dynamics_smoothing: doc.scalar(
            node,
            "activation_dynamics_smoothing",
            d.activation_dynamics_smoothing,
        )?,
        ignore_tendon_compliance: doc.boolean(node, "ignore_tendon_compliance", false)?,
        ignore_activation_dynamics: doc.boolean(node, "ignore_activation_dynamics", false)?,
    })
}

/// A `Thelen2003Muscle`'s properties; its rigid-tendon and no-activation-dynamics modes are
/// refused until they land (issue 37).
pub(super) fn thelen_properties(doc: &Doc, node: Node) -> Res<Thelen2003> {
    for flag in ["ignore_tendon_compliance", "ignore_activation_dynamics"] {
        if doc.boolean(node, flag, false)? {
            let el = child(node, flag).unwrap_or(node);
            return Err(doc.err(
                el,
                format!("a Thelen2003Muscle with {flag} is not simulated yet (issue 37)"),
            ));
        }
    }
    let d = Thelen2003::default();
    let get = |tag: &str, default: f64| doc.scalar(node, tag, default);
    Ok(Thelen2003 {
        max_isometric_force: get("max_isometric_force", d.max_isometric_force)?,
        optimal_fiber_length: get("optimal_fiber_length", d.optimal_fiber_length)?,
        tendon_slack_length: get("tendon_slack_length", d.tendon_slack_length)?,
        pennation_angle_at_optimal: get(
            "pennation_angle_at_optimal",
            d.pennation_angle_at_optimal,
        )?,
        max_contraction_velocity: get("max_contraction_velocity", d.max_contraction_velocity)?,
        fmax_tendon_strain: get("FmaxTendonStrain", d.fmax_tendon_strain)?,
        fmax_muscle_strain: get("FmaxMuscleStrain", d.fmax_muscle_strain)?,
        kshape_active: get("KshapeActive", d.kshape_active)?,
        kshape_passive: get("KshapePassive", d.kshape_passive)?,
        af: get("Af", d.af)?,
        flen: get("Flen", d.flen)?,
        fv_linear_extrap_threshold: get(
            "fv_linear_extrap_threshold",
            d.fv_linear_extrap_threshold,
        )?,
        maximum_pennation_angle: get("maximum_pennation_angle", d.maximum_pennation_angle)?,
        activation_time_constant: get("activation_time_constant", d.activation_time_constant)?,
        deactivation_time_constant: get(
            "deactivation_time_constant",
            d.deactivation_time_constant,
        )?,
        minimum_activation: get("minimum_activation", d.minimum_activation)?,
        default_activation: get("default_activation", d.default_activation)?,
        default_fiber_length: get("default_fiber_length", d.default_fiber_length)?,
    })
}
