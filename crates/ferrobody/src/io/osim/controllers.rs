//! OpenSim's `PrescribedController`: one function of time per actuator it drives
//! (`socket_actuators` paths, or the older `actuator_list` names, matched in order to the
//! functions of its `ControlFunctions` set). An actuator no controller drives gets zero
//! excitation, as in OpenSim. Other controller kinds are read elsewhere or left out.

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
    for controller in objects(set) {
        if tag_of(controller) != "PrescribedController" {
            continue;
        }
        if !doc.boolean(controller, "enabled", true)? {
            continue;
        }
        read_one(doc, controller, &mut out)?;
    }
    Ok(out)
}

/// The gains of the enabled `ToyReflexController`s by muscle name (OpenSim's example
/// controller: each adds a stretch reflex to its muscles' controls).
pub(super) fn reflex_gains(doc: &Doc) -> Res<HashMap<String, f64>> {
    let mut out = HashMap::new();
    let Some(set) = child(doc.model, "ControllerSet") else {
        return Ok(out);
    };
    for controller in objects(set) {
        if tag_of(controller) != "ToyReflexController"
            || !doc.boolean(controller, "enabled", true)?
        {
            continue;
        }
        let gain = doc.scalar(controller, "gain", 1.0)?;
        let (_, text) = doc
            .text(controller, "socket_actuators")
            .ok_or_else(|| doc.err(controller, "missing <socket_actuators>"))?;
        for path in text.split_whitespace() {
            let name = path.rsplit('/').next().unwrap_or(path).to_string();
            *out.entry(name).or_insert(0.0) += gain;
        }
    }
    Ok(out)
}

fn read_one(doc: &Doc, controller: Node, out: &mut HashMap<String, Function>) -> Res<()> {
    let names: Vec<String> = match doc
        .text(controller, "socket_actuators")
        .or_else(|| doc.text(controller, "actuator_list"))
    {
        Some((_, text)) => text
            .split_whitespace()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
            .collect(),
        None => Vec::new(),
    };
    let functions: Vec<Node> = controller
        .children()
        .find(|n| n.has_tag_name("FunctionSet"))
        .map(objects)
        .unwrap_or_default();
    if functions.len() != names.len() {
        return Err(doc.err(
            controller,
            format!(
                "{} actuators but {} control functions",
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
    for controller in objects(set) {
        // OpenSim skips a disabled controller.
        if doc.boolean(controller, "enabled", true) == Ok(false) {
            continue;
        }
        let read = ["PrescribedController", "ToyReflexController"];
        let drives_only_simulated = read.contains(&tag_of(controller).as_str())
            && doc
                .text(controller, "socket_actuators")
                .or_else(|| doc.text(controller, "actuator_list"))
                .is_some_and(|(_, text)| {
                    text.split_whitespace()
                        .all(|p| simulated.contains(p.rsplit('/').next().unwrap_or(p)))
                });
        if !drives_only_simulated {
            *left_out.entry(tag_of(controller)).or_insert(0) += 1;
        }
    }
}
