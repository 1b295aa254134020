//! Documents older than OpenSim 4.0 (versions 10901 to 39999: OpenSim 1.9, 2.x and 3.x, and 4.0's
//! development versions 305xx) read as OpenSim 4.6 reads them: the document is rewritten in
//! 4.0's layout by the same steps OpenSim's `updateFromXMLNode` methods take
//! ([`skeleton`], [`components`]), then read like any 4.0 document. Every element of the
//! rewritten text carries the line it came from, so errors still name the user's line.
//!
//! Steps common to every component (`Component::updateFromXMLNode`): names lose their
//! whitespace and unnamed set members are named after their class (before 30500); a
//! `<connectors>` list becomes one `connector_NAME_connectee_name` element per connector
//! (before 30508), `connector` becomes `socket` (before 30510) and `_connectee_name` goes
//! (30516 and before). OpenSim's type renames (`Object::renameType`: `MusclePoint` →
//! `PathPoint`, `NaturalCubicSpline` → `SimmSpline`, …) apply to every element.
//!
//! Left as OpenSim 4.6 would read them but not converted, since the loader does not draw or
//! use them: display properties (`VisibleObject`, `DisplayGeometry`).

mod components;
mod skeleton;
pub(crate) mod tree;

use tree::Element;

/// Oldest document version upgraded (OpenSim 1.9.1, the first with today's CustomJoint
/// layout); older files are refused.
const OLDEST_UPGRADED: u32 = 10901;
/// The version the upgraded document is given (OpenSim 4.0's first).
const UPGRADED_TO: u32 = 40000;

/// A problem met while upgrading, at a line of the original file.
#[derive(Debug)]
pub(super) struct UpgradeError {
    pub line: u32,
    /// The component path, where known (filled in by the set being upgraded).
    pub path: String,
    pub message: String,
}

pub(super) type UpResult<T> = Result<T, UpgradeError>;

/// An upgraded document: its 4.0 text and the version it was written in.
pub(super) struct Upgraded {
    pub text: String,
    pub from_version: u32,
}

/// The state of one upgrade: the document's version.
struct Upgrade {
    version: u32,
}

impl Upgrade {
    /// `XMLDocument::addConnector`: a `Connector_` named `name` in `<connectors>`.
    fn add_connector(&self, e: &mut Element, name: &str, connectee: &str) {
        let line = e.line;
        if e.child("connectors").is_none() {
            e.children
                .insert(0, Element::with_text("connectors", "", line));
        }
        let mut connector = Element::with_text("Connector_PhysicalFrame_", "", line);
        connector.set_attribute("name", name);
        connector.push_text_child("connectee_name", connectee);
        e.child_mut("connectors")
            .expect("inserted above")
            .children
            .push(connector);
    }

    /// The number held by element `e`.
    fn number(&self, e: &Element) -> UpResult<f64> {
        e.text.trim().parse().map_err(|_| UpgradeError {
            line: e.line,
            path: String::new(),
            message: format!("<{}> '{}' is not a number", e.tag, e.text.trim()),
        })
    }

    /// Child `tag` of `e` as three numbers (zero where absent, as OpenSim's `Vec3(0)`).
    fn vec3(&self, e: &Element, tag: &str) -> UpResult<[f64; 3]> {
        let Some(c) = e.child(tag) else {
            return Ok([0.0; 3]);
        };
        let values: Vec<f64> = c
            .text
            .split_whitespace()
            .map(|t| t.parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| self.bad_vec3(c))?;
        <[f64; 3]>::try_from(values).map_err(|_| self.bad_vec3(c))
    }

    fn bad_vec3(&self, c: &Element) -> UpgradeError {
        UpgradeError {
            line: c.line,
            path: String::new(),
            message: format!("<{}> '{}' is not three numbers", c.tag, c.text.trim()),
        }
    }
}

/// The document's version, when it is one this module upgrades; `None` for a 4.x document.
fn version_to_upgrade(xml: &roxmltree::Document) -> UpResult<Option<u32>> {
    let root = xml.root_element();
    let Some(v) = root.attribute("Version") else {
        return Ok(None);
    };
    let line = xml.text_pos_at(root.range().start).row;
    let version: u32 = v.trim().parse().map_err(|_| UpgradeError {
        line,
        path: String::new(),
        message: format!("Version '{v}' is not a number"),
    })?;
    if version >= UPGRADED_TO {
        return Ok(None);
    }
    if version < OLDEST_UPGRADED {
        return Err(UpgradeError {
            line,
            path: String::new(),
            message: format!(
                "document version {version} is older than OpenSim 1.9.1 (10901): open and re-save the model in OpenSim 4.x"
            ),
        });
    }
    Ok(Some(version))
}

/// Whether the `<OpenSimDocument>` element's `Version` may be older than 4.0: the cheap test
/// that spares 4.x documents a second parse (any comment may come before the element).
pub(super) fn may_need_upgrade(text: &str) -> bool {
    let Some(at) = text.find("<OpenSimDocument") else {
        return false;
    };
    let tag = &text[at..];
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    let Some(v) = tag.find("Version=") else {
        return false;
    };
    let digits: String = tag[v + 8..]
        .chars()
        .skip_while(|c| *c == '"' || *c == '\'')
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse::<u32>().map_or(true, |v| v < UPGRADED_TO)
}

/// The 4.0 text of a pre-4.0 document, or `None` when `xml` is a 4.x document.
pub(super) fn upgrade(xml: &roxmltree::Document) -> UpResult<Option<Upgraded>> {
    let Some(version) = version_to_upgrade(xml)? else {
        return Ok(None);
    };
    let up = Upgrade { version };
    let mut root = Element::from_node(xml.root_element(), xml);
    root.set_attribute("Version", &UPGRADED_TO.to_string());
    let model = if root.tag == "Model" {
        &mut root
    } else {
        match root.child_mut("Model") {
            Some(m) => m,
            None => return Ok(None),
        }
    };
    upgrade_model(&up, model)?;
    let mut text = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    root.write(&mut text);
    Ok(Some(Upgraded {
        text,
        from_version: version,
    }))
}

/// OpenSim's type renames (`Object::renameType` in the `RegisterTypes_*` files).
fn renamed_type(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "ActuatorSet" => "ForceSet",
        "MuscleWrap" => "PathWrap",
        "MuscleWrapSet" => "PathWrapSet",
        "MusclePoint" => "PathPoint",
        "MuscleViaPoint" => "ConditionalPathPoint",
        "MovingMusclePoint" => "MovingPathPoint",
        "MusclePointSet" => "PathPointSet",
        "NaturalCubicSpline" | "natCubicSpline" => "SimmSpline",
        "GeneralizedForce" => "CoordinateActuator",
        "Torque" => "TorqueActuator",
        "Schutte1993Muscle" => "Schutte1993Muscle_Deprecated",
        "Delp1990Muscle" => "Delp1990Muscle_Deprecated",
        _ => return None,
    })
}

fn upgrade_model(up: &Upgrade, model: &mut Element) -> UpResult<()> {
    model.visit_mut(&mut |e| {
        if let Some(new) = renamed_type(&e.tag) {
            e.tag = new.to_string();
        }
    });
    if let Some(forces) = model.child_mut("ForceSet") {
        for f in forces.items_mut() {
            if f.tag == "Force" {
                f.tag = "PointActuator".into();
            }
        }
    }
    skeleton::upgrade_model_layout(up, model);
    name_model_sets(model);
    each_item(model, "BodySet", |b| skeleton::upgrade_body(up, b))?;
    each_item(model, "JointSet", |j| skeleton::upgrade_joint(up, j))?;
    if let Some(components) = model.child_mut("components") {
        for c in components
            .children
            .iter_mut()
            .filter(|c| c.tag.ends_with("Joint"))
        {
            skeleton::upgrade_joint(up, c)?;
        }
    }
    let owners = components::coordinate_owners(model);
    model.visit_mut(&mut |e| {
        if e.tag == "PathPointSet" {
            for p in e.items_mut() {
                components::upgrade_path_point(up, &owners, p);
            }
        }
    });
    each_item(model, "ForceSet", |f| components::upgrade_force(up, f))?;
    // The `<defaults>` templates are read with the document's version too
    // (`Object::updateDefaultObjectsFromXMLNode`); those of forces change as forces do.
    if let Some(defaults) = model.child_mut("defaults") {
        for template in &mut defaults.children {
            components::upgrade_force(up, template)?;
        }
    }
    each_item(model, "ConstraintSet", |c| {
        components::upgrade_constraint(up, c)
    })?;
    each_item(model, "ControllerSet", |c| {
        components::upgrade_controller(up, c);
        Ok(())
    })?;
    each_item(model, "ContactGeometrySet", |g| {
        components::upgrade_contact_geometry(up, g);
        Ok(())
    })?;
    if up.version < 30501 {
        each_item(model, "MarkerSet", |m| {
            components::upgrade_marker(up, m);
            Ok(())
        })?;
    }
    name_set_members(up, model);
    model.visit_mut(&mut |e| connectors_to_sockets(up, e));
    Ok(())
}

/// The model's sets under the names OpenSim 4 gives them (`BodySet` is `bodyset`, …, whatever
/// the file says), the first step of every component path.
fn name_model_sets(model: &mut Element) {
    for set in &mut model.children {
        if let Some(name) = super::document::model_set_name(&set.tag) {
            set.set_attribute("name", name);
        }
    }
}

/// `f` on every member of the model's set `tag`.
fn each_item(
    model: &mut Element,
    tag: &str,
    mut f: impl FnMut(&mut Element) -> UpResult<()>,
) -> UpResult<()> {
    if let Some(set) = model.child_mut(tag) {
        let set_name = set.name().to_string();
        for item in set.items_mut() {
            f(item).map_err(|mut e| {
                if e.path.is_empty() {
                    e.path = format!("/{set_name}/{}", item.name());
                }
                e
            })?;
        }
    }
    Ok(())
}

/// Before 30500 whitespace leaves names and a member of the model's sets without a `name` is
/// named after its class in lower case (`Component::updateFromXMLNode`); a member whose name is
/// empty is named so in any version (`Component::finalizeFromProperties`).
fn name_set_members(up: &Upgrade, model: &mut Element) {
    if up.version < 30500 {
        model.visit_mut(&mut |e| {
            if let Some(name) = e.attribute("name") {
                if name.contains(char::is_whitespace) {
                    let trimmed: String = name.chars().filter(|c| !c.is_whitespace()).collect();
                    e.set_attribute("name", &trimmed);
                }
            }
        });
    }
    for set in model.children.iter_mut().filter(|c| c.tag.ends_with("Set")) {
        for item in set.items_mut() {
            let unnamed = match item.attribute("name") {
                None => up.version < 30500,
                Some(name) => name.is_empty(),
            };
            if unnamed {
                let name = item.tag.to_lowercase();
                item.set_attribute("name", &name);
            }
        }
    }
}

/// `Component::updateFromXMLNode`'s socket steps on one element's own children.
fn connectors_to_sockets(up: &Upgrade, e: &mut Element) {
    if up.version < 30508 {
        if let Some(at) = e.children.iter().position(|c| c.tag == "connectors") {
            let list = e.children.remove(at);
            for (k, c) in list.children.into_iter().enumerate() {
                let value = c.child_text("connectee_name").unwrap_or("").to_string();
                let tag = format!("connector_{}_connectee_name", c.name());
                e.children
                    .insert(at + k, Element::with_text(&tag, value, c.line));
            }
        }
    }
    for c in &mut e.children {
        if up.version < 30510 && c.tag.contains("connector") {
            c.tag = c.tag.replacen("connector", "socket", 1);
        }
        if up.version <= 30516 && is_connectee_name(&c.tag) {
            c.tag = c
                .tag
                .trim_end_matches("_connectee_names")
                .trim_end_matches("_connectee_name")
                .to_string();
        }
    }
}

/// `socket_X_connectee_name`, `input_X_connectee_name` or `input_X_connectee_names`.
fn is_connectee_name(tag: &str) -> bool {
    (tag.starts_with("socket_") && tag.ends_with("_connectee_name"))
        || (tag.starts_with("input_")
            && (tag.ends_with("_connectee_name") || tag.ends_with("_connectee_names")))
}

#[cfg(test)]
mod tests;
