//! A trajectory on the grid (a solution, a guess, an unsolved iterate), written as Moco's
//! `MocoTrajectory` .sto (so that Moco's tools and the OpenSim GUI read it) or as CSV, and
//! tables read back as guesses.
//!
//! The .sto layout is `MocoTrajectory::write`'s: `key=value` header lines (`num_states`,
//! `num_controls`, `objective`, `objective_GOAL`, `status`, `success`, `num_iterations`,
//! `solver_duration`...), `endheader`, a tab-separated row of labels (`time`, the states in
//! y = [q, u] order, the controls), one row per grid point.

use crate::error::{OptimizeError, Result};
use std::fmt::Write as _;
use std::path::Path;

/// States and controls at every grid point, with the solver's report.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Trajectory {
    /// The grid's times (s).
    pub time: Vec<f64>,
    /// State names (Moco's for an OpenSim model).
    pub state_names: Vec<String>,
    /// Control names.
    pub control_names: Vec<String>,
    /// y at each grid point.
    pub states: Vec<Vec<f64>>,
    /// c at each grid point.
    pub controls: Vec<Vec<f64>>,
    /// The objective.
    pub objective: f64,
    /// Each goal's value, by Moco's label.
    pub goal_values: Vec<(String, f64)>,
    /// IPOPT's status, in Moco's spelling (`Solve_Succeeded`).
    pub status: String,
    /// Whether IPOPT converged.
    pub success: bool,
    /// IPOPT iterations.
    pub iterations: usize,
    /// Wall time of the solve (s).
    pub solver_duration: f64,
}

impl Trajectory {
    /// The column of a state or control by name.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        if let Some(i) = self.state_names.iter().position(|n| n == name) {
            return Some(self.states.iter().map(|y| y[i]).collect());
        }
        let k = self.control_names.iter().position(|n| n == name)?;
        Some(self.controls.iter().map(|c| c[k]).collect())
    }

    /// The final time.
    pub fn final_time(&self) -> f64 {
        self.time.last().copied().unwrap_or(0.0)
    }

    /// The trajectory as a table (states then controls by name): a guess for another solve.
    pub fn to_table(&self) -> Table {
        Table {
            labels: self
                .state_names
                .iter()
                .chain(&self.control_names)
                .cloned()
                .collect(),
            time: self.time.clone(),
            rows: self
                .states
                .iter()
                .zip(&self.controls)
                .map(|(y, c)| y.iter().chain(c).copied().collect())
                .collect(),
        }
    }

    /// Writes the trajectory as Moco's .sto.
    pub fn write_sto(&self, path: &Path) -> Result<()> {
        let mut s = String::new();
        let header = [
            ("inDegrees", "no".to_string()),
            ("num_controls", self.control_names.len().to_string()),
            ("num_derivatives", "0".into()),
            ("num_input_controls", "0".into()),
            ("num_iterations", self.iterations.to_string()),
            ("num_multipliers", "0".into()),
            ("num_parameters", "0".into()),
            ("num_slacks", "0".into()),
            ("num_states", self.state_names.len().to_string()),
            ("objective", format!("{}", self.objective)),
        ];
        for (key, value) in header {
            let _ = writeln!(s, "{key}={value}");
        }
        for (label, value) in &self.goal_values {
            let _ = writeln!(s, "objective_{label}={value}");
        }
        let _ = writeln!(s, "solver_duration={}", self.solver_duration);
        let _ = writeln!(s, "status={}", self.status);
        let _ = writeln!(s, "success={}", self.success);
        s.push_str("DataType=double\nversion=3\nOpenSimVersion=4.6\nendheader\n");
        self.write_rows(&mut s, '\t');
        std::fs::write(path, s).map_err(|source| OptimizeError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Writes the trajectory as CSV (the .sto's labels and rows; names are quoted where they
    /// hold a comma, a quote or a line break, as `ferrobody::io::csv_field` does).
    pub fn write_csv(&self, path: &Path) -> Result<()> {
        let mut s = String::new();
        self.write_rows(&mut s, ',');
        std::fs::write(path, s).map_err(|source| OptimizeError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    fn write_rows(&self, s: &mut String, separator: char) {
        // CSV names as the library's other CSV files write them (RFC 4180 quoting).
        let quote = |name: &str| {
            if separator == ',' {
                ferrobody::io::csv_field(name).into_owned()
            } else {
                name.to_string()
            }
        };
        let labels: Vec<String> = std::iter::once("time")
            .chain(self.state_names.iter().map(String::as_str))
            .chain(self.control_names.iter().map(String::as_str))
            .map(quote)
            .collect();
        let _ = writeln!(s, "{}", labels.join(&separator.to_string()));
        for (i, t) in self.time.iter().enumerate() {
            let _ = write!(s, "{t}");
            for v in self.states[i].iter().chain(&self.controls[i]) {
                let _ = write!(s, "{separator}{v}");
            }
            s.push('\n');
        }
    }
}

/// A table read from a .sto (or tab- or comma-separated file with a `time` column).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Column labels after `time`.
    pub labels: Vec<String>,
    /// Times.
    pub time: Vec<f64>,
    /// Rows of values (one per time, one value per label).
    pub rows: Vec<Vec<f64>>,
}

/// The text of an OpenSim file (storage, ExternalLoads XML), read as OpenSim reads it: UTF-8,
/// or Latin-1 when not valid UTF-8 (`ferrobody::io::decode_text`).
pub(crate) fn read_opensim_text(path: &Path) -> Result<String> {
    std::fs::read(path)
        .map(ferrobody::io::decode_text)
        .map_err(|source| OptimizeError::Io {
            path: path.to_path_buf(),
            source,
        })
}

impl Table {
    /// Reads a table; errors name the file and line.
    pub fn read(path: &Path) -> Result<Self> {
        let text = read_opensim_text(path)?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses a table's text (`file` for errors).
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let err = |line: usize, message: String| OptimizeError::File {
            file: file.to_string(),
            line,
            message,
        };
        let lines: Vec<&str> = text.lines().collect();
        let start = lines
            .iter()
            .position(|l| l.trim() == "endheader")
            .map_or(0, |i| i + 1);
        let label_line = lines
            .get(start)
            .ok_or_else(|| err(start + 1, "no row of column labels".into()))?;
        let separator = if label_line.contains('\t') { '\t' } else { ',' };
        let split = |l: &str| -> Vec<String> {
            l.split(separator)
                .map(|s| s.trim().trim_matches('"').to_string())
                .collect()
        };
        let mut labels = split(label_line);
        if labels.first().map(String::as_str) != Some("time") {
            return Err(err(start + 1, "the first column must be 'time'".into()));
        }
        labels.remove(0);
        let (mut time, mut rows) = (Vec::new(), Vec::new());
        for (n, line) in lines.iter().enumerate().skip(start + 1) {
            if line.trim().is_empty() {
                continue;
            }
            let values = line
                .split(separator)
                .map(|v| v.trim().parse::<f64>())
                .collect::<std::result::Result<Vec<f64>, _>>()
                .map_err(|e| err(n + 1, format!("not a number: {e}")))?;
            if values.len() != labels.len() + 1 {
                return Err(err(
                    n + 1,
                    format!("{} values for {} columns", values.len(), labels.len() + 1),
                ));
            }
            if let Some(v) = values.iter().find(|v| !v.is_finite()) {
                return Err(err(n + 1, format!("{v} is not finite")));
            }
            if time.last().is_some_and(|&last| values[0] < last) {
                return Err(err(n + 1, "times must not decrease".into()));
            }
            time.push(values[0]);
            rows.push(values[1..].to_vec());
        }
        if time.is_empty() {
            return Err(err(start + 2, "no rows".into()));
        }
        Ok(Self { labels, time, rows })
    }

    /// Column `label` linearly interpolated at time t (held constant outside the table).
    pub fn interpolate(&self, label: usize, t: f64) -> f64 {
        let k = self.time.partition_point(|&ti| ti <= t);
        if k == 0 {
            return self.rows[0][label];
        }
        if k == self.time.len() {
            return self.rows[k - 1][label];
        }
        let (t0, t1) = (self.time[k - 1], self.time[k]);
        let (v0, v1) = (self.rows[k - 1][label], self.rows[k][label]);
        if t1 > t0 {
            v0 + (v1 - v0) * (t - t0) / (t1 - t0)
        } else {
            v1
        }
    }
}
