//! A controls file as OpenSim's forward tool takes it: a `.sto`/`.mot` table (header lines
//! up to `endheader`, then a row of column labels, then rows of numbers) whose first column
//! is time and whose other columns are actuators' controls, by name or component path
//! (`/forceset/soleus_r` or `soleus_r`; a `.excitation` or `/excitation` suffix is dropped).
//! Each column becomes a piecewise-linear function of time with linear extrapolation beyond
//! the first and last rows — OpenSim's `ControlLinear` (the `ControlSet` a `.sto` is read
//! into), which the forward tool's `ControlSetController` evaluates at every time.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Control/{ControlLinear, ControlSet}.cpp`,
//! `OpenSim/Tools/ForwardTool.cpp`.

use super::data_table;
use crate::error::{Error, ParseError, Result};
use crate::math::function::{Function, PiecewiseLinear};
use std::path::Path;

/// One column of a controls file: the actuator's name, the label's line, its function.
#[derive(Clone, Debug)]
pub struct ControlColumn {
    /// The actuator named (last path segment of the label).
    pub actuator: String,
    /// The line of the column labels (for errors).
    pub line: usize,
    /// The control as a function of time.
    pub function: Function,
}

/// Reads a controls file; errors name the file and line.
pub fn read(path: &Path) -> Result<Vec<ControlColumn>> {
    let file = path.display().to_string();
    let text = crate::io::read_text_file(path, "cannot read the controls file")?;
    parse(&text, &file)
}

/// Parses controls-file text; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Vec<ControlColumn>> {
    let table = data_table::parse(text, file, "one column per actuator")?;
    let label_line = table.label_line;
    let times = table.times;
    table
        .labels
        .iter()
        .zip(table.columns)
        .map(|(label, y)| {
            let function = if times.len() == 1 {
                Function::Constant(y[0])
            } else {
                Function::PiecewiseLinear(PiecewiseLinear::new(times.clone(), y).map_err(|e| {
                    Error::Parse(
                        ParseError::in_file(file, format!("column '{label}': {e}"))
                            .at_line(label_line),
                    )
                })?)
            };
            Ok(ControlColumn {
                actuator: actuator_name(label),
                line: label_line,
                function,
            })
        })
        .collect()
}

/// The actuator a column label names.
fn actuator_name(label: &str) -> String {
    let label = label
        .strip_suffix(".excitation")
        .or_else(|| label.strip_suffix("/excitation"))
        .unwrap_or(label);
    label.rsplit('/').next().unwrap_or(label).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sto_becomes_piecewise_linear_functions_with_linear_extrapolation() {
        let text = "controls\nnRows=3\nendheader\ntime\t/forceset/a\tb.excitation\n0\t0.1\t1\n1\t0.3\t1\n2\t0.2\t1\n";
        let c = parse(text, "c.sto").unwrap();
        assert_eq!((c[0].actuator.as_str(), c[1].actuator.as_str()), ("a", "b"));
        assert!((c[0].function.value(0.5f64) - 0.2).abs() < 1e-15);
        assert!(
            (c[0].function.value(3.0f64) - 0.1).abs() < 1e-15,
            "extrapolated"
        );
        assert!(
            (c[0].function.value(-1.0f64) - (-0.1)).abs() < 1e-15,
            "extrapolated"
        );
    }

    #[test]
    fn bad_controls_files_are_one_line_errors_with_file_and_line() {
        let nan = parse("endheader\ntime a\n0 0.1\n1 NaN\n", "c.sto")
            .unwrap_err()
            .to_string();
        assert!(nan.contains("c.sto:4") && nan.contains("finite"), "{nan}");
        let time = parse("time a\n0 0.1\n0 0.2\n", "c.sto")
            .unwrap_err()
            .to_string();
        assert!(
            time.contains("c.sto:3") && time.contains("increase"),
            "{time}"
        );
        let label = parse("t a\n0 1\n", "c.sto").unwrap_err().to_string();
        assert!(
            label.contains("c.sto:1") && label.contains("'time'"),
            "{label}"
        );
        let short = parse("time a b\n0 1\n", "c.sto").unwrap_err().to_string();
        assert!(
            short.contains("c.sto:2") && short.contains("2 values, but 3"),
            "{short}"
        );
    }
}
