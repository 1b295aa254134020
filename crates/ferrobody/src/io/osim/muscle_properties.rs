//! The properties of OpenSim's muscles, with OpenSim's defaults where the file is silent.

use super::document::{child, Doc, Res};
use crate::math::function::Function;
use crate::muscles::millard_curves::{
    ActiveForceLength, FiberForceLength, ForceVelocity, TendonForceLength,
};
use crate::muscles::{
    DeGrooteFregly2016, Millard2012, MillardProperties, RigidTendon, Schutte1993, Thelen2003,
};
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
        implicit_tendon_dynamics: match doc.text(node, "tendon_compliance_dynamics_mode") {
            None => false,
            Some((el, mode)) => match mode.trim() {
                "explicit" => false,
                "implicit" => true,
                other => {
                    return Err(doc.err(
                        el,
                        format!(
                            "tendon_compliance_dynamics_mode '{other}' is not explicit or implicit"
                        ),
                    ))
                }
            },
        },
    })
}

/// Refuses `ignore_tendon_compliance` and `ignore_activation_dynamics` set true, as OpenSim
/// 4.6's `ActivationFiberLengthMuscle` and its deprecated twin refuse them ("flag is not
/// currently implemented").
fn refuse_unimplemented_flags(doc: &Doc, node: Node, class: &str) -> Res<()> {
    for flag in ["ignore_tendon_compliance", "ignore_activation_dynamics"] {
        if doc.boolean(node, flag, false)? {
            let el = child(node, flag).unwrap_or(node);
            return Err(doc.err(
                el,
                format!("{class}::{flag} is not implemented (OpenSim 4.6 refuses it too)"),
            ));
        }
    }
    Ok(())
}

/// A `Thelen2003Muscle`'s properties; its rigid-tendon and no-activation-dynamics flags are
/// refused, as OpenSim 4.6 refuses them (`ActivationFiberLengthMuscle::extendAddToSystem`:
/// "flag is not currently implemented").
pub(super) fn thelen_properties(doc: &Doc, node: Node) -> Res<Thelen2003> {
    refuse_unimplemented_flags(doc, node, "Thelen2003Muscle")?;
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

/// A `Schutte1993Muscle_Deprecated`'s properties: the `Muscle` base's and its own, each
/// curve the function the file gives (the defaults otherwise; no passive curve in the file
/// means OpenSim's exponential). Its rigid-tendon and no-activation-dynamics flags are refused
/// as OpenSim refuses them.
pub(super) fn schutte_properties(doc: &Doc, node: Node) -> Res<Schutte1993> {
    refuse_unimplemented_flags(doc, node, "Schutte1993Muscle_Deprecated")?;
    let d = Schutte1993::default();
    let get = |tag: &str, default: f64| doc.scalar(node, tag, default);
    let curve = |tag: &str| -> Res<Option<Function>> {
        let Some(holder) = child(node, tag) else {
            return Ok(None);
        };
        match holder.children().find(|n| n.is_element()) {
            Some(f) => super::custom_joint::read_function(doc, f).map(Some),
            None => Err(doc.err(holder, format!("<{tag}> has no function"))),
        }
    };
    Ok(Schutte1993 {
        max_isometric_force: get("max_isometric_force", d.max_isometric_force)?,
        optimal_fiber_length: get("optimal_fiber_length", d.optimal_fiber_length)?,
        tendon_slack_length: get("tendon_slack_length", d.tendon_slack_length)?,
        pennation_angle_at_optimal: get(
            "pennation_angle_at_optimal",
            d.pennation_angle_at_optimal,
        )?,
        max_contraction_velocity: get("max_contraction_velocity", d.max_contraction_velocity)?,
        time_scale: get("time_scale", d.time_scale)?,
        activation1: get("activation1", d.activation1)?,
        activation2: get("activation2", d.activation2)?,
        damping: get("damping", d.damping)?,
        tendon_force_length_curve: curve("tendon_force_length_curve")?
            .unwrap_or(d.tendon_force_length_curve),
        active_force_length_curve: curve("active_force_length_curve")?
            .unwrap_or(d.active_force_length_curve),
        passive_force_length_curve: curve("passive_force_length_curve")?,
    })
}

/// A `Millard2012EquilibriumMuscle`'s properties and curve objects, finalized as OpenSim does.
pub(super) fn millard(doc: &Doc, node: Node) -> Res<Millard2012> {
    let d = MillardProperties::default();
    let get = |tag: &str, default: f64| doc.scalar(node, tag, default);
    let flag = |tag: &str| doc.boolean(node, tag, false);
    let optimal_fiber_length = get("optimal_fiber_length", d.optimal_fiber_length)?;
    let p = MillardProperties {
        max_isometric_force: get("max_isometric_force", d.max_isometric_force)?,
        optimal_fiber_length,
        tendon_slack_length: get("tendon_slack_length", d.tendon_slack_length)?,
        pennation_angle_at_optimal: get(
            "pennation_angle_at_optimal",
            d.pennation_angle_at_optimal,
        )?,
        max_contraction_velocity: get("max_contraction_velocity", d.max_contraction_velocity)?,
        fiber_damping: get("fiber_damping", d.fiber_damping)?,
        default_activation: get("default_activation", d.default_activation)?,
        default_fiber_length: get("default_fiber_length", optimal_fiber_length)?,
        activation_time_constant: get("activation_time_constant", d.activation_time_constant)?,
        deactivation_time_constant: get(
            "deactivation_time_constant",
            d.deactivation_time_constant,
        )?,
        minimum_activation: get("minimum_activation", d.minimum_activation)?,
        maximum_pennation_angle: get("maximum_pennation_angle", d.maximum_pennation_angle)?,
        ignore_tendon_compliance: flag("ignore_tendon_compliance")?,
        ignore_activation_dynamics: flag("ignore_activation_dynamics")?,
        active_force_length: active_force_length(doc, child(node, "ActiveForceLengthCurve"))?,
        force_velocity: force_velocity(doc, child(node, "ForceVelocityCurve"))?,
        fiber_force_length: fiber_force_length(doc, child(node, "FiberForceLengthCurve"))?,
        tendon_force_length: tendon_force_length(doc, child(node, "TendonForceLengthCurve"))?,
    };
    Millard2012::new(p).map_err(|e| doc.err(node, e))
}

fn active_force_length(doc: &Doc, node: Option<Node>) -> Res<ActiveForceLength> {
    let d = ActiveForceLength::default();
    let Some(n) = node else { return Ok(d) };
    let get = |tag: &str, default: f64| doc.scalar(n, tag, default);
    Ok(ActiveForceLength {
        min_norm_active_fiber_length: get(
            "min_norm_active_fiber_length",
            d.min_norm_active_fiber_length,
        )?,
        transition_norm_fiber_length: get(
            "transition_norm_fiber_length",
            d.transition_norm_fiber_length,
        )?,
        max_norm_active_fiber_length: get(
            "max_norm_active_fiber_length",
            d.max_norm_active_fiber_length,
        )?,
        shallow_ascending_slope: get("shallow_ascending_slope", d.shallow_ascending_slope)?,
        minimum_value: get("minimum_value", d.minimum_value)?,
    })
}

fn force_velocity(doc: &Doc, node: Option<Node>) -> Res<ForceVelocity> {
    let d = ForceVelocity::default();
    let Some(n) = node else { return Ok(d) };
    let get = |tag: &str, default: f64| doc.scalar(n, tag, default);
    Ok(ForceVelocity {
        concentric_slope_at_vmax: get("concentric_slope_at_vmax", d.concentric_slope_at_vmax)?,
        concentric_slope_near_vmax: get(
            "concentric_slope_near_vmax",
            d.concentric_slope_near_vmax,
        )?,
        isometric_slope: get("isometric_slope", d.isometric_slope)?,
        eccentric_slope_at_vmax: get("eccentric_slope_at_vmax", d.eccentric_slope_at_vmax)?,
        eccentric_slope_near_vmax: get("eccentric_slope_near_vmax", d.eccentric_slope_near_vmax)?,
        max_eccentric_velocity_force_multiplier: get(
            "max_eccentric_velocity_force_multiplier",
            d.max_eccentric_velocity_force_multiplier,
        )?,
        concentric_curviness: get("concentric_curviness", d.concentric_curviness)?,
        eccentric_curviness: get("eccentric_curviness", d.eccentric_curviness)?,
    })
}

/// Three optional properties that are either all given or all absent (OpenSim refuses a mix);
/// an empty element (`<curviness></curviness>`, as OpenSim writes an unset one) is absent.
fn all_or_none(doc: &Doc, n: Node, tags: [&str; 3]) -> Res<Option<(f64, f64, f64)>> {
    let present =
        |tag: &str| child(n, tag).is_some_and(|c| c.text().is_some_and(|t| !t.trim().is_empty()));
    let given = tags.iter().filter(|t| present(t)).count();
    match given {
        0 => Ok(None),
        3 => Ok(Some((
            doc.scalar(n, tags[0], 0.0)?,
            doc.scalar(n, tags[1], 0.0)?,
            doc.scalar(n, tags[2], 0.0)?,
        ))),
        _ => Err(doc.err(
            n,
            format!(
                "{}, {} and {} must either all be set or all be empty",
                tags[0], tags[1], tags[2]
            ),
        )),
    }
}

fn fiber_force_length(doc: &Doc, node: Option<Node>) -> Res<FiberForceLength> {
    let d = FiberForceLength::default();
    let Some(n) = node else { return Ok(d) };
    let tags = [
        "stiffness_at_low_force",
        "stiffness_at_one_norm_force",
        "curviness",
    ];
    Ok(FiberForceLength {
        strain_at_zero_force: doc.scalar(n, "strain_at_zero_force", d.strain_at_zero_force)?,
        strain_at_one_norm_force: doc.scalar(
            n,
            "strain_at_one_norm_force",
            d.strain_at_one_norm_force,
        )?,
        shape: all_or_none(doc, n, tags)?,
    })
}

fn tendon_force_length(doc: &Doc, node: Option<Node>) -> Res<TendonForceLength> {
    let d = TendonForceLength::default();
    let Some(n) = node else { return Ok(d) };
    let tags = [
        "stiffness_at_one_norm_force",
        "norm_force_at_toe_end",
        "curviness",
    ];
    Ok(TendonForceLength {
        strain_at_one_norm_force: doc.scalar(
            n,
            "strain_at_one_norm_force",
            d.strain_at_one_norm_force,
        )?,
        shape: all_or_none(doc, n, tags)?,
    })
}

/// A `RigidTendonMuscle`'s properties: the `Muscle` base's and its three curves (any
/// function, OpenSim's default splines when left out).
pub(super) fn rigid_tendon_properties(doc: &Doc, node: Node) -> Res<RigidTendon> {
    let d = RigidTendon::default();
    let get = |tag: &str, default: f64| doc.scalar(node, tag, default);
    let curve = |tag: &str, default: Function| -> Res<Function> {
        Ok(super::custom_joint::function_property(doc, node, tag)?.unwrap_or(default))
    };
    Ok(RigidTendon {
        max_isometric_force: get("max_isometric_force", d.max_isometric_force)?,
        optimal_fiber_length: get("optimal_fiber_length", d.optimal_fiber_length)?,
        tendon_slack_length: get("tendon_slack_length", d.tendon_slack_length)?,
        pennation_angle_at_optimal: get(
            "pennation_angle_at_optimal",
            d.pennation_angle_at_optimal,
        )?,
        max_contraction_velocity: get("max_contraction_velocity", d.max_contraction_velocity)?,
        active_force_length_curve: curve("active_force_length_curve", d.active_force_length_curve)?,
        passive_force_length_curve: curve(
            "passive_force_length_curve",
            d.passive_force_length_curve,
        )?,
        force_velocity_curve: curve("force_velocity_curve", d.force_velocity_curve)?,
    })
}
