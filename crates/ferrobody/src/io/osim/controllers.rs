//! OpenSim's `PrescribedController`: one function of time per actuator it drives, matched in
//! order to the functions of its `ControlFunctions` set; and the actuators of the
//! `ToyReflexController`. An actuator no controller drives gets zero excitation, as in
//! OpenSim. Other controller kinds are read elsewhere or left out.
//!
//! Which actuators a controller drives: in a document of version 40600 (OpenSim 4.6) or later,
//! the paths of `socket_actuators`; in an older one, the names of `actuator_list`, where `ALL`
//! (any case) stands for every actuator of the model in OpenSim's component order (the
//! `components` list, then the `ForceSet`) and a name that is no actuator is skipped
//! (`Controller::updateFromXMLNode` and `extendConnectToModel`; here with a warning).

use super::custom_joint::read_function;
use super::document::{child, objects, tag_of, Doc, Res};
use crate::math::function::Function;
use roxmltree::Node;
use std::collections::HashMap;

/// The functions of time the model's prescribed controllers give, by actuator name.
pub(super) fn prescribed_excitations(doc: &Doc) -> Res<HashMap<String, Function>> {
    let mut out = HashMap::new();
    let Some(set) = child(doc.model, "ControllerSet") else {
        return Ok(out);
    };
    let actuators = actuators_of(doc);
    for controller in objects(set) {
        if tag_of(controller) != "PrescribedController" {
            continue;
        }
        if !doc.boolean(controller, "enabled", true)? {
            continue;
        }
        read_one(doc, controller, &actuators, &mut out)?;
    }
    Ok(out)
}

/// OpenSim's document version from which controllers name their actuators by
/// `socket_actuators` paths.
const SOCKET_ACTUATORS_VERSION: u32 = 40600;

/// OpenSim's actuator classes that are not muscles.
const NON_MUSCLE_ACTUATORS: [&str; 9] = [
    "CoordinateActuator",
    "ActivationCoordinateActuator",
    "PointActuator",
    "TorqueActuator",
    "BodyActuator",
    "PathActuator",
    "PointToPointActuator",
    "McKibbenActuator",
    "ClutchedPathSpring",
];

/// Whether an element's class is one of OpenSim's muscles.
fn is_muscle(tag: &str) -> bool {
    tag.contains("Muscle")
}

/// The model's actuators as (name, is a muscle), in OpenSim's component order: the
/// `components` list, then the `ForceSet` (`Component::markPropertiesAsSubcomponents`).
fn actuators_of(doc: &Doc) -> Vec<(String, bool)> {
    ["components", "ForceSet"]
        .into_iter()
        .filter_map(|set| child(doc.model, set))
        .flat_map(objects)
        .filter_map(|n| {
            let tag = tag_of(n);
            let muscle = is_muscle(&tag);
            (muscle || NON_MUSCLE_ACTUATORS.contains(&tag.as_str()))
                .then(|| (n.attribute("name").unwrap_or_default().to_string(), muscle))
        })
        .collect()
}

/// The names of the actuators `controller` drives, in order (module docs). An
/// `actuator_list` in a document of version 40600 or later is ignored, as OpenSim ignores it,
/// with a warning.
fn driven_actuators<'a, 'i>(
    doc: &Doc<'a, 'i>,
    controller: Node<'a, 'i>,
    actuators: &[(String, bool)],
) -> Vec<String> {
    let by_socket = doc.version().is_none_or(|v| v >= SOCKET_ACTUATORS_VERSION);
    let last_component = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    if by_socket {
        if let Some((list, _)) = doc.text(controller, "actuator_list") {
            doc.warn(
                list,
                "<actuator_list> is ignored in a document of version 40600 or later (OpenSim 4.6 reads <socket_actuators>)",
            );
        }
        return doc
            .text(controller, "socket_actuators")
            .map(|(_, text)| text.split_whitespace().map(last_component).collect())
            .unwrap_or_default();
    }
    let Some((list, text)) = doc.text(controller, "actuator_list") else {
        return Vec::new();
    };
    let names: Vec<&str> = text.split_whitespace().collect();
    if names.iter().any(|n| n.eq_ignore_ascii_case("ALL")) {
        return actuators.iter().map(|(name, _)| name.clone()).collect();
    }
    let mut out = Vec::new();
    for name in names {
        if actuators.iter().any(|(a, _)| a == name) {
            out.push(name.to_string());
        } else {
            doc.warn(
                list,
                format!("<actuator_list>: '{name}' is no actuator of the model (skipped, as OpenSim skips it)"),
            );
        }
    }
    out
}

/// The gains of the enabled `ToyReflexController`s by muscle name (OpenSim's example
/// controller: each adds a stretch reflex to its muscles' controls).
pub(super) fn reflex_gains(doc: &Doc) -> Res<HashMap<String, f64>> {
    let mut out = HashMap::new();
    let Some(set) = child(doc.model, "ControllerSet") else {
        return Ok(out);
    };
    let actuators = actuators_of(doc);
    for controller in objects(set) {
        if tag_of(controller) != "ToyReflexController"
            || !doc.boolean(controller, "enabled", true)?
        {
            continue;
        }
        let gain = doc.scalar(controller, "gain", 1.0)?;
        for name in driven_actuators(doc, controller, &actuators) {
            if actuators.iter().any(|(a, muscle)| *a == name && !muscle) {
                return Err(doc.err(
                    controller,
                    format!("drives '{name}', which is not a muscle (a ToyReflexController drives muscles only)"),
                ));
            }
            *out.entry(name).or_insert(0.0) += gain;
        }
    }
    Ok(out)
}

fn read_one<'a, 'i>(
    doc: &Doc<'a, 'i>,
    controller: Node<'a, 'i>,
    actuators: &[(String, bool)],
    out: &mut HashMap<String, Function>,
) -> Res<()> {
    let names = driven_actuators(doc, controller, actuators);
    let functions: Vec<Node> = controller
        .children()
        .find(|n| n.has_tag_name("FunctionSet"))
        .map(objects)
        .unwrap_or_default();
    if functions.len() != names.len() {
        let listed = doc
            .text(controller, "actuator_list")
            .map(|(_, text)| text)
            .unwrap_or_default();
        let unknown: Vec<&str> = listed
            .split_whitespace()
            .filter(|n| !n.eq_ignore_ascii_case("ALL") && !actuators.iter().any(|(a, _)| a == n))
            .collect();
        let skipped = if unknown.is_empty() {
            String::new()
        } else {
            format!(
                " (skipped from <actuator_list>, no simulated actuator of the model: {})",
                unknown.join(", ")
            )
        };
        return Err(doc.err(
            controller,
            format!(
                "{} actuators but {} control functions{skipped}",
                names.len(),
                functions.len()
            ),
        ));
    }
    for (name, f) in names.into_iter().zip(functions) {
        let function = read_function(doc, f)?;
        if out.insert(name.clone(), function).is_some() {
            return Err(doc.err(
                controller,
                format!("actuator '{name}' is driven by two prescribed controllers"),
            ));
        }
    }
    Ok(())
}

/// Counts as left out every controller that drives something not simulated (a
/// `PrescribedController` or `ToyReflexController` of simulated muscles only is not left out;
/// a disabled controller is skipped, as OpenSim skips it).
pub(super) fn count_left_out(
    doc: &Doc,
    simulated: &std::collections::HashSet<&str>,
    left_out: &mut std::collections::BTreeMap<String, usize>,
) {
    let Some(set) = child(doc.model, "ControllerSet") else {
        return;
    };
    let actuators = actuators_of(doc);
    for controller in objects(set) {
        // OpenSim skips a disabled controller.
        if doc.boolean(controller, "enabled", true) == Ok(false) {
            continue;
        }
        let read = ["PrescribedController", "ToyReflexController"];
        let drives_only_simulated = read.contains(&tag_of(controller).as_str())
            && driven_actuators(doc, controller, &actuators)
                .iter()
                .all(|name| simulated.contains(name.as_str()));
        if !drives_only_simulated {
            *left_out.entry(tag_of(controller)).or_insert(0) += 1;
        }
    }
}
