//! OpenSim's `ExternalLoads`: measured forces (ground reaction forces, mostly) applied to a
//! model's bodies from a data file, as OpenSim's forward tool adds them (`--external-loads`,
//! the tool's `external_loads_file`).
//!
//! An `ExternalLoads` file holds `ExternalForce` elements and a `datafile` (a `.mot`/`.sto`
//! table, [`super::data_table`]; a relative name is looked for from the working directory and
//! then beside the loads file, as `ExternalLoads::extendConnectToModel` does). Each force
//! names:
//! * `applied_to_body`: the frame the force acts on (a component path, else a body of the
//!   `BodySet`; missing is an error);
//! * `force_expressed_in_body`, `point_expressed_in_body` (default `ground`): the frames of
//!   the force and torque and of the point (missing: Ground, with a warning, as OpenSim);
//! * `force_identifier`, `point_identifier`, `torque_identifier`: column-label prefixes, each
//!   matching exactly three columns (x, y, z in the table's order), or blank or `Unassigned`
//!   for none. A force or a torque is required; a point without a force is an error.
//!
//! Each column becomes a function of time as `ExternalForce::extendConnectToModel` builds it:
//! a `Constant` for one row, a `PiecewiseLinearFunction` for two or three, otherwise a cubic
//! `GCVSpline` with error variance 0 (Woltring's interpolating natural spline,
//! [`crate::math::gcv_spline`]), extrapolated linearly beyond the data. The force is then a
//! [`crate::forces::PrescribedForce`] with its frames ([`crate::forces::ExpressedIn`]):
//! `f_G = R_GE f(t)`, `τ_G = R_GE τ(t)`, applied at `X_GA⁻¹ X_GP p(t)` of the frame A.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/ExternalForce.cpp`, `ExternalLoads.cpp`,
//! `OpenSim/Common/Storage.cpp` (`getDataForIdentifier`: labels starting with the identifier).

use super::data_table::{self, Table};
use super::document::Doc;
use super::frames::{resolve_frame, BodyFrame};
use crate::error::{invalid, Error, ModelError, ParseError, Result};
use crate::forces::{ExpressedIn, PrescribedForce};
use crate::ids::BodyId;
use crate::math::function::{Function, PiecewiseLinear};
use crate::math::gcv_spline::{GcvSpline, Smoothing};
use roxmltree::Node;
use std::path::{Path, PathBuf};

/// The `ExternalForce`s of an `ExternalLoads` file with their data as functions of time.
#[derive(Clone, Debug)]
pub struct ExternalLoads {
    /// The loads file (for errors).
    pub file: String,
    /// Its enabled forces.
    pub forces: Vec<ExternalForceData>,
}

/// One `ExternalForce`, its frames not yet looked up in a model.
#[derive(Clone, Debug)]
pub struct ExternalForceData {
    /// Its name.
    pub name: String,
    /// The line of its element in the loads file.
    pub line: usize,
    /// `applied_to_body`.
    pub applied_to_body: String,
    /// `force_expressed_in_body`.
    pub force_expressed_in_body: String,
    /// `point_expressed_in_body`.
    pub point_expressed_in_body: String,
    /// The force's x, y, z (N), if it applies one.
    pub force: Option<[Function; 3]>,
    /// The point's x, y, z (m), if it names one (else the frame's origin).
    pub point: Option<[Function; 3]>,
    /// The torque's x, y, z (N·m), if it applies one.
    pub torque: Option<[Function; 3]>,
}

/// Reads an `ExternalLoads` file and its data file.
pub fn read(path: &Path) -> Result<ExternalLoads> {
    let text = crate::io::read_text_file(path, "cannot read the external loads file")?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &path.display().to_string(), &dir)
}

/// Parses an `ExternalLoads` document; `file` names it in errors and `dir` is its folder.
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<ExternalLoads> {
    let err = |line: usize, message: String| {
        Error::Parse(ParseError::in_file(file, message).at_line(line))
    };
    let xml = roxmltree::Document::parse(text)
        .map_err(|e| err(e.pos().row as usize, format!("not well-formed XML: {e}")))?;
    let line_of = |n: Node| xml.text_pos_at(n.range().start).row as usize;
    let loads = xml
        .descendants()
        .find(|n| n.has_tag_name("ExternalLoads"))
        .ok_or_else(|| err(1, "no <ExternalLoads> element".into()))?;
    let (datafile_line, datafile) = match child_text(loads, "datafile") {
        Some((n, name)) if !name.is_empty() && name != "Unassigned" => (line_of(n), name),
        _ => {
            return Err(err(
                line_of(loads),
                "<ExternalLoads> names no <datafile>: its forces have no data (OpenSim: \"No Data source has been set\")".into(),
            ))
        }
    };
    let data_path = locate(&datafile, dir);
    let data_text = std::fs::read_to_string(&data_path).map_err(|e| {
        err(
            datafile_line,
            format!("cannot read the data file {}: {e}", data_path.display()),
        )
    })?;
    let table = data_table::parse(
        &data_text,
        &data_path.display().to_string(),
        "columns of forces, points and torques",
    )?;
    let mut forces = Vec::new();
    let objects = loads
        .children()
        .find(|n| n.has_tag_name("objects"))
        .into_iter()
        .flat_map(|o| o.children().filter(Node::is_element));
    for node in objects {
        let line = line_of(node);
        let at = |message: String| err(line, message);
        if let Some(force) = read_force(node, line, &table, at)? {
            forces.push(force);
        }
    }
    Ok(ExternalLoads {
        file: file.to_string(),
        forces,
    })
}

/// One `ExternalForce` element (`None` when disabled); `err` makes an error at its line.
fn read_force(
    node: Node,
    line: usize,
    table: &Table,
    err: impl Fn(String) -> Error,
) -> Result<Option<ExternalForceData>> {
    let name = node
        .attribute("name")
        .unwrap_or("ExternalForce")
        .to_string();
    if !node.has_tag_name("ExternalForce") {
        return Err(err(format!(
            "{name}: <{}> in ExternalLoads is not an ExternalForce",
            node.tag_name().name()
        )));
    }
    if is_disabled(node) {
        return Ok(None);
    }
    let at = |message: String| err(format!("ExternalForce '{name}': {message}"));
    let identifier = |tag: &str| {
        child_text(node, tag)
            .map(|(_, v)| v)
            .filter(|v| !v.is_empty() && v != "Unassigned")
    };
    let triple = |tag: &str| -> Result<Option<[Function; 3]>> {
        identifier(tag)
            .map(|prefix| columns_for(table, &prefix).map_err(|e| at(e.to_string())))
            .transpose()
    };
    let (force, point, torque) = (
        triple("force_identifier")?,
        triple("point_identifier")?,
        triple("torque_identifier")?,
    );
    if force.is_none() && torque.is_none() {
        return Err(at(
            "applies neither a force nor a torque (no force_identifier or torque_identifier)"
                .into(),
        ));
    }
    if force.is_none() && point.is_some() {
        return Err(at("a point is given for no applied force".into()));
    }
    let frame = |tag: &str, default: &str| {
        child_text(node, tag)
            .map(|(_, v)| v)
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| default.to_string())
    };
    let applied_to_body = frame("applied_to_body", "");
    if applied_to_body.is_empty() {
        return Err(at("missing <applied_to_body>".into()));
    }
    Ok(Some(ExternalForceData {
        name: name.clone(),
        line,
        applied_to_body,
        force_expressed_in_body: frame("force_expressed_in_body", "ground"),
        point_expressed_in_body: frame("point_expressed_in_body", "ground"),
        force,
        point,
        torque,
    }))
}

/// OpenSim's lookup of a data file: as given (from the working directory), else beside the
/// loads file.
fn locate(name: &str, dir: &Path) -> PathBuf {
    let given = PathBuf::from(name);
    if given.is_absolute() || given.exists() {
        given
    } else {
        dir.join(name)
    }
}

/// `appliesForce` false, or a pre-4.0 `isDisabled` true.
fn is_disabled(node: Node) -> bool {
    let flag = |tag: &str| child_text(node, tag).map(|(_, v)| v.eq_ignore_ascii_case("true"));
    flag("isDisabled") == Some(true)
        || child_text(node, "appliesForce").is_some_and(|(_, v)| v.eq_ignore_ascii_case("false"))
}

/// The trimmed text of child `tag`, with its node.
fn child_text<'a, 'i>(node: Node<'a, 'i>, tag: &str) -> Option<(Node<'a, 'i>, String)> {
    node.children()
        .find(|c| c.has_tag_name(tag))
        .map(|c| (c, c.text().unwrap_or("").trim().to_string()))
}

/// The three columns whose labels start with `prefix`, as functions of time.
fn columns_for(table: &Table, prefix: &str) -> std::result::Result<[Function; 3], ModelError> {
    let found: Vec<usize> = (0..table.labels.len())
        .filter(|&i| table.labels[i].starts_with(prefix))
        .collect();
    let [x, y, z] = found[..] else {
        let labels: Vec<&str> = found.iter().map(|&i| table.labels[i].as_str()).collect();
        return Err(invalid!(
            "identifier '{prefix}' must match exactly 3 columns of the data file, found {} ({})",
            found.len(),
            labels.join(", ")
        ));
    };
    let function = |i: usize| column_function(&table.times, &table.columns[i]);
    Ok([function(x)?, function(y)?, function(z)?])
}

/// `ExternalForce::extendConnectToModel`'s function of one column.
fn column_function(times: &[f64], values: &[f64]) -> std::result::Result<Function, ModelError> {
    let function = match times.len() {
        1 => Function::Constant(values[0]),
        2 | 3 => Function::PiecewiseLinear(PiecewiseLinear::new(times.to_vec(), values.to_vec())?),
        _ => Function::Gcv(GcvSpline::fit(
            3,
            times.to_vec(),
            values,
            Smoothing::ErrorVariance(0.0),
        )?),
    };
    Ok(function)
}

/// An [`ExternalForceData`] with its frames found in a model: (base body path, pose in it);
/// `None` for Ground.
#[derive(Clone, Debug)]
pub(super) struct ResolvedExternalForce {
    pub data: ExternalForceData,
    pub applied: BodyFrame,
    pub force_in: Option<BodyFrame>,
    pub point_in: Option<BodyFrame>,
}

/// Finds each force's frames in the model, as `ExternalForce::extendConnectToModel` does: the
/// name as a component path, else as a body of the `BodySet`.
pub(super) fn resolve(doc: &Doc, loads: &ExternalLoads) -> Result<Vec<ResolvedExternalForce>> {
    let err = |f: &ExternalForceData, message: String| {
        Error::Parse(
            ParseError::in_file(
                &loads.file,
                format!("ExternalForce '{}': {message}", f.name),
            )
            .at_line(f.line),
        )
    };
    let find = |name: &str| -> Option<std::result::Result<BodyFrame, ModelError>> {
        let path = if name.starts_with('/') {
            name.to_string()
        } else {
            format!("/{name}")
        };
        let node = doc
            .component(&path)
            .or_else(|| doc.component(&format!("/bodyset/{}", name.trim_start_matches('/'))))?;
        Some(resolve_frame(doc, node).map_err(|e| e.problem))
    };
    let mut resolved = Vec::new();
    for f in &loads.forces {
        let applied = find(&f.applied_to_body)
            .ok_or_else(|| {
                err(
                    f,
                    format!(
                        "applied_to_body '{}' is not a frame of the model",
                        f.applied_to_body
                    ),
                )
            })?
            .map_err(|m| err(f, m.to_string()))?;
        let other = |name: &str, what: &str| -> Result<Option<BodyFrame>> {
            match find(name) {
                Some(frame) => frame.map(Some).map_err(|m| err(f, m.to_string())),
                None => {
                    doc.warn(
                        doc.model,
                        format!(
                            "ExternalForce '{}' ({}): {what} '{name}' is not a frame of the model; Ground is assumed, as OpenSim assumes it",
                            f.name, loads.file
                        ),
                    );
                    Ok(None)
                }
            }
        };
        let force_in = other(&f.force_expressed_in_body, "force_expressed_in_body")?;
        let point_in = match f.point {
            Some(_) => other(&f.point_expressed_in_body, "point_expressed_in_body")?,
            None => None,
        };
        resolved.push(ResolvedExternalForce {
            data: f.clone(),
            applied,
            force_in,
            point_in,
        });
    }
    Ok(resolved)
}

/// The [`PrescribedForce`] of a resolved external force; `body` maps a body path to its id.
pub(super) fn prescribed_force<E>(
    r: &ResolvedExternalForce,
    body: impl Fn(&str) -> std::result::Result<BodyId, E>,
) -> std::result::Result<PrescribedForce, E> {
    let expressed = |frame: &Option<BodyFrame>| -> std::result::Result<ExpressedIn, E> {
        Ok(match frame {
            None => ExpressedIn::Ground,
            Some(f) => ExpressedIn::Frame {
                body: body(&f.body)?,
                x_bf: f.x_bf,
            },
        })
    };
    Ok(PrescribedForce {
        name: r.data.name.clone(),
        body: body(&r.applied.body)?,
        x_bf: r.applied.x_bf,
        force: r.data.force.clone(),
        point: r.data.point.clone(),
        torque: r.data.torque.clone(),
        point_in: expressed(&r.point_in)?,
        force_in: expressed(&r.force_in)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loads document with one force whose body is `inner`, over data file `data`.
    fn loads(inner: &str, data: &str) -> (String, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "ferrobody_external_loads_{}_{}",
            std::process::id(),
            data.len() + inner.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("grf.mot"), data).unwrap();
        let text = format!(
            "<OpenSimDocument><ExternalLoads name=\"l\"><objects>\n<ExternalForce name=\"f\">{inner}</ExternalForce>\n</objects><datafile>grf.mot</datafile></ExternalLoads></OpenSimDocument>"
        );
        (text, dir)
    }

    const DATA: &str = "endheader\ntime f_x f_y f_z p_x p_y p_z t_x t_y t_z\n0 1 2 3 0 0 0 0 0 1\n1 3 2 1 0 0 0 0 0 1\n2 5 2 0 0 0 0 0 0 1\n";

    #[test]
    fn columns_become_functions_as_opensim_builds_them() {
        let (text, dir) = loads("<applied_to_body>b</applied_to_body><force_identifier>f_</force_identifier><point_identifier>Unassigned</point_identifier><torque_identifier>t_</torque_identifier>", DATA);
        let l = parse(&text, "l.xml", &dir).unwrap();
        let f = &l.forces[0];
        assert_eq!((f.line, f.force_expressed_in_body.as_str()), (2, "ground"));
        assert!(f.point.is_none());
        // Three rows: piecewise linear, extrapolated with the end slope.
        let fx = &f.force.as_ref().unwrap()[0];
        assert!(matches!(fx, Function::PiecewiseLinear(_)));
        assert_eq!((fx.value(0.5f64), fx.value(3.0f64)), (2.0, 7.0));
        let one_row = "time f_x f_y f_z\n0 1 2 3\n";
        let (text, dir) = loads(
            "<applied_to_body>b</applied_to_body><force_identifier>f_</force_identifier>",
            one_row,
        );
        let l = parse(&text, "l.xml", &dir).unwrap();
        assert_eq!(
            l.forces[0].force.as_ref().unwrap()[2],
            Function::Constant(3.0)
        );
        let disabled = "<appliesForce>false</appliesForce><applied_to_body>b</applied_to_body><force_identifier>f_</force_identifier>";
        let (text, dir) = loads(disabled, one_row);
        assert!(parse(&text, "l.xml", &dir).unwrap().forces.is_empty());
    }

    #[test]
    fn bad_external_forces_are_errors_naming_the_file_and_line() {
        let err = |inner: &str| {
            let (text, dir) = loads(inner, DATA);
            parse(&text, "l.xml", &dir).unwrap_err().to_string()
        };
        let none =
            err("<applied_to_body>b</applied_to_body><point_identifier>p_</point_identifier>");
        assert!(
            none.contains("l.xml:2") && none.contains("neither a force nor a torque"),
            "{none}"
        );
        let point = err("<applied_to_body>b</applied_to_body><point_identifier>p_</point_identifier><torque_identifier>t_</torque_identifier>");
        assert!(
            point.contains("a point is given for no applied force"),
            "{point}"
        );
        let missing = err("<force_identifier>f_</force_identifier>");
        assert!(missing.contains("missing <applied_to_body>"), "{missing}");
        let text = "<ExternalLoads><objects/></ExternalLoads>";
        let no_data = parse(text, "l.xml", Path::new("."))
            .unwrap_err()
            .to_string();
        assert!(no_data.contains("names no <datafile>"), "{no_data}");
    }
}
