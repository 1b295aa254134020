//! OpenSim's storage format (`.sto`) for states: what the OpenSim GUI loads to animate a
//! motion, and what `opensim.TimeSeriesTable` reads.
//!
//! ```text
//! states
//! version=1
//! nRows=101
//! nColumns=5
//! inDegrees=no
//! endheader
//! time⇥/jointset/hip/hip_flexion/value⇥/jointset/hip/hip_flexion/speed⇥…
//! 0⇥0.3⇥0⇥…
//! ```
//!
//! Tab-separated (⇥ above), one row per report time; each coordinate contributes its value (rad or m)
//! and its speed (rad/s or m/s), OpenSim's state-variable paths; then each muscle's states
//! (`/forceset/NAME/activation`, `/forceset/NAME/normalized_tendon_force`). Rows are streamed; `nRows` is
//! the expected count, corrected by [`StatesWriter::finish`] when a run ends early.

use super::osim::Coordinate;
use super::trajectory::format_number;
use crate::error::{Error, Result};
use crate::ids::ZId;
use crate::state::State;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Streams a states table to a .sto file.
pub struct StatesWriter {
    path: PathBuf,
    out: BufWriter<File>,
    columns: Vec<(usize, usize)>,
    z_columns: Vec<usize>,
    expected_rows: u64,
    rows: u64,
    line: String,
}

fn io_err(path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        context: path.display().to_string(),
        path: Some(path.to_path_buf()),
        source: e,
    }
}

fn header(rows: u64, columns: usize) -> String {
    format!("states\nversion=1\nnRows={rows}\nnColumns={columns}\ninDegrees=no\nendheader\n")
}

impl StatesWriter {
    /// Creates `path` and writes the header for `expected_rows` rows of these coordinates.
    pub fn create(path: &Path, coordinates: &[Coordinate], expected_rows: u64) -> Result<Self> {
        Self::create_with_states(path, coordinates, &[], expected_rows)
    }

    /// As [`Self::create`], with the components' state variables (OpenSim path, z) after the
    /// coordinates, as OpenSim orders a states table: muscles' `…/activation`,
    /// `…/normalized_tendon_force`.
    pub fn create_with_states(
        path: &Path,
        coordinates: &[Coordinate],
        state_variables: &[(String, ZId)],
        expected_rows: u64,
    ) -> Result<Self> {
        let file = File::create(path).map_err(|e| io_err(path, e))?;
        let mut out = BufWriter::new(file);
        let mut names = vec!["time".to_string()];
        for c in coordinates {
            names.push(format!("{}/value", c.path));
            names.push(format!("{}/speed", c.path));
        }
        names.extend(state_variables.iter().map(|(name, _)| name.clone()));
        out.write_all(header(expected_rows, names.len()).as_bytes())
            .and_then(|()| writeln!(out, "{}", names.join("\t")))
            .map_err(|e| io_err(path, e))?;
        Ok(Self {
            path: path.to_path_buf(),
            out,
            columns: coordinates.iter().map(|c| (c.q_index, c.u_index)).collect(),
            z_columns: state_variables.iter().map(|(_, z)| z.0).collect(),
            expected_rows,
            rows: 0,
            line: String::new(),
        })
    }

    /// Writes the row of `state`.
    pub fn write_row(&mut self, state: &State<f64>) -> Result<()> {
        self.line.clear();
        self.line.push_str(&format_number(state.t));
        for &(qi, ui) in &self.columns {
            self.line.push('\t');
            self.line.push_str(&format_number(state.q[qi]));
            self.line.push('\t');
            self.line.push_str(&format_number(state.u[ui]));
        }
        for &zi in &self.z_columns {
            self.line.push('\t');
            self.line.push_str(&format_number(state.z[zi]));
        }
        self.line.push('\n');
        self.rows += 1;
        self.out
            .write_all(self.line.as_bytes())
            .map_err(|e| io_err(&self.path, e))
    }

    /// Flushes the rows; if fewer or more rows than expected were written (a run that stopped
    /// early), rewrites the header's `nRows`.
    pub fn finish(mut self) -> Result<()> {
        self.out.flush().map_err(|e| io_err(&self.path, e))?;
        drop(self.out);
        if self.rows == self.expected_rows {
            return Ok(());
        }
        let text = std::fs::read_to_string(&self.path).map_err(|e| io_err(&self.path, e))?;
        let fixed = text.replacen(
            &format!("nRows={}\n", self.expected_rows),
            &format!("nRows={}\n", self.rows),
            1,
        );
        std::fs::write(&self.path, fixed).map_err(|e| io_err(&self.path, e))
    }
}
