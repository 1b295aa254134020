//! OpenSim's `ExternalLoads` file, as Moco's contact-tracking goal reads it: the measured
//! forces (`ExternalForce`: name, `applied_to_body`, `force_expressed_in_body`,
//! `force_identifier`) and their data file (`datafile`, relative to the XML file), whose
//! columns `force_identifier` + `x`, `y`, `z` hold each force (N). Source: opensim-core
//! `OpenSim/Simulation/Model/ExternalLoads.cpp`, `ExternalForce.cpp`.

use crate::error::{OptimizeError, Result};
use crate::trajectory::Table;
use std::path::Path;

/// One measured force of an `ExternalLoads` file.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalForce {
    /// Its name (`Right_GRF`).
    pub name: String,
    /// The body it acts on (`calcn_r`).
    pub applied_to_body: String,
    /// The frame its components are in (`ground`).
    pub force_expressed_in_body: String,
    /// The prefix of its data columns (`ground_force_r_v`: columns `…x`, `…y`, `…z`).
    pub force_identifier: String,
}

/// Measured forces and their data.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalLoads {
    /// The forces.
    pub forces: Vec<ExternalForce>,
    /// The data file's table.
    pub data: Table,
}

impl ExternalLoads {
    /// Reads an `ExternalLoads` XML file and its data file; errors name the file and line.
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| OptimizeError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let file = path.display().to_string();
        let (forces, datafile) = parse(&text, &file)?;
        let data_path = path.parent().unwrap_or(Path::new(".")).join(datafile);
        Ok(Self {
            forces,
            data: Table::read(&data_path)?,
        })
    }

    /// The force named `name`.
    pub fn force(&self, name: &str) -> Result<&ExternalForce> {
        self.forces.iter().find(|f| f.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.forces.iter().map(|f| f.name.as_str()).collect();
            OptimizeError::InvalidGoal(format!(
                "contact_tracking: external force '{name}' not found (the loads have: {})",
                known.join(", ")
            ))
        })
    }
}

/// The forces and the data file's name of an `ExternalLoads` document.
fn parse(text: &str, file: &str) -> Result<(Vec<ExternalForce>, String)> {
    let error = |line: usize, message: String| OptimizeError::File {
        file: file.to_string(),
        line,
        message,
    };
    let doc =
        roxmltree::Document::parse(text).map_err(|e| error(e.pos().row as usize, e.to_string()))?;
    let line_of = |node: roxmltree::Node| doc.text_pos_at(node.range().start).row as usize;
    let loads = doc
        .descendants()
        .find(|n| n.has_tag_name("ExternalLoads"))
        .ok_or_else(|| error(0, "no <ExternalLoads> element".to_string()))?;
    let child_text = |node: roxmltree::Node, tag: &str| {
        node.children()
            .find(|c| c.has_tag_name(tag))
            .and_then(|c| c.text())
            .map(|t| t.trim().to_string())
    };
    let datafile = child_text(loads, "datafile")
        .filter(|d| !d.is_empty())
        .ok_or_else(|| error(line_of(loads), "ExternalLoads: no <datafile>".to_string()))?;
    let mut forces = Vec::new();
    for node in loads
        .descendants()
        .filter(|n| n.has_tag_name("ExternalForce"))
    {
        let name = node.attribute("name").unwrap_or_default().to_string();
        let required = |tag: &str| {
            child_text(node, tag)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| error(line_of(node), format!("ExternalForce '{name}': no <{tag}>")))
        };
        forces.push(ExternalForce {
            applied_to_body: required("applied_to_body")?,
            force_expressed_in_body: child_text(node, "force_expressed_in_body")
                .unwrap_or_else(|| "ground".to_string()),
            force_identifier: required("force_identifier")?,
            name,
        });
    }
    Ok((forces, datafile))
}
