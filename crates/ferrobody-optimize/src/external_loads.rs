//! OpenSim's `ExternalLoads` file, as Moco's contact-tracking goal reads it: the measured
//! forces (`ExternalForce`: name, `applied_to_body`, `force_expressed_in_body`,
//! `force_identifier`) and their data file (`datafile`, relative to the XML file), whose
//! columns `force_identifier` + `x`, `y`, `z` hold each force (N). Source: opensim-core
//! `OpenSim/Simulation/Model/ExternalLoads.cpp`, `ExternalForce.cpp`.

use crate::error::{OptimizeError, Result};
use crate::trajectory::{read_opensim_text, Table};
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
        let text = read_opensim_text(path)?;
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
        let name = node
            .attribute("name")
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| error(line_of(node), "ExternalForce: no name".to_string()))?
            .to_string();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of `parse`'s error on `text` (read as `loads.xml`).
    fn parse_error(text: &str) -> String {
        parse(text, "loads.xml").unwrap_err().to_string()
    }

    fn force(name: &str, body: &str, identifier: &str) -> String {
        format!(
            "<ExternalForce name=\"{name}\">\n<applied_to_body>{body}</applied_to_body>\n\
             <force_identifier>{identifier}</force_identifier>\n</ExternalForce>\n"
        )
    }

    fn document(forces: &str, datafile: &str) -> String {
        format!(
            "<OpenSimDocument>\n<ExternalLoads name=\"grf\">\n<objects>\n{forces}</objects>\n\
             <datafile>{datafile}</datafile>\n</ExternalLoads>\n</OpenSimDocument>\n"
        )
    }

    #[test]
    fn reads_forces_with_ground_as_the_default_frame() {
        let text = document(
            &force("Right_GRF", "calcn_r", "ground_force_r_v"),
            "grf.sto",
        );
        let (forces, datafile) = parse(&text, "loads.xml").unwrap();
        assert_eq!(datafile, "grf.sto");
        assert_eq!(
            forces,
            vec![ExternalForce {
                name: "Right_GRF".into(),
                applied_to_body: "calcn_r".into(),
                force_expressed_in_body: "ground".into(),
                force_identifier: "ground_force_r_v".into(),
            }]
        );
    }

    #[test]
    fn malformed_xml_names_file_and_line() {
        let message = parse_error("<OpenSimDocument>\n<ExternalLoads>\n</Oops>\n");
        assert!(message.starts_with("loads.xml:3: "), "{message}");
    }

    #[test]
    fn a_document_without_external_loads_is_refused() {
        let message = parse_error("<OpenSimDocument>\n<Model/>\n</OpenSimDocument>\n");
        assert_eq!(message, "loads.xml: no <ExternalLoads> element");
    }

    #[test]
    fn a_missing_or_empty_datafile_names_the_element_line() {
        let text = document(&force("Right_GRF", "calcn_r", "f_r"), "");
        assert_eq!(
            parse_error(&text),
            "loads.xml:2: ExternalLoads: no <datafile>"
        );
    }

    #[test]
    fn a_force_without_body_or_identifier_or_name_names_it_and_its_line() {
        let no_body = document(&force("Right_GRF", " ", "f_r"), "grf.sto");
        assert_eq!(
            parse_error(&no_body),
            "loads.xml:4: ExternalForce 'Right_GRF': no <applied_to_body>"
        );
        let no_identifier = document(&force("Left_GRF", "calcn_l", ""), "grf.sto");
        assert_eq!(
            parse_error(&no_identifier),
            "loads.xml:4: ExternalForce 'Left_GRF': no <force_identifier>"
        );
        let no_name = document(&force("", "calcn_l", "f_l"), "grf.sto");
        assert_eq!(parse_error(&no_name), "loads.xml:4: ExternalForce: no name");
    }

    #[test]
    fn a_missing_file_or_data_file_names_the_path() {
        let dir = std::env::temp_dir().join(format!("ferrobody-loads-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = ExternalLoads::read(&dir.join("absent.xml")).unwrap_err();
        assert!(missing.to_string().ends_with("absent.xml"), "{missing}");
        let xml = dir.join("loads.xml");
        std::fs::write(&xml, document(&force("R", "calcn_r", "f_r"), "absent.sto")).unwrap();
        let no_data = ExternalLoads::read(&xml).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(no_data.contains("absent.sto"), "{no_data}");
    }

    #[test]
    fn an_unknown_force_name_lists_the_known_ones() {
        let loads = ExternalLoads {
            forces: vec![ExternalForce {
                name: "Right_GRF".into(),
                applied_to_body: "calcn_r".into(),
                force_expressed_in_body: "ground".into(),
                force_identifier: "f_r".into(),
            }],
            data: Table {
                labels: Vec::new(),
                time: Vec::new(),
                rows: Vec::new(),
            },
        };
        let message = loads.force("Left_GRF").unwrap_err().to_string();
        assert!(
            message.contains("'Left_GRF' not found (the loads have: Right_GRF)"),
            "{message}"
        );
    }
}
