//! The `muscles.csv` writer of the command-line contract: one row per muscle per report time,
//! streamed to disk.
//!
//! Columns: `t, muscle, excitation, activation, fiber_length, fiber_velocity, tendon_force,
//! length, lengthening_speed` — the excitation e (its controller's, else 0), the activation a
//! (clamped as the muscle reads it), fibre length (m) and velocity (m/s, positive lengthening),
//! tendon force (N), and the whole path's length (m) and lengthening speed (m/s), as OpenSim's
//! `Muscle::get*` report them.

use super::trajectory::csv_field;
use crate::data::Data;
use crate::error::{Error, Result};
use crate::forces::ForceContext;
use crate::model::{Force, Model};
use crate::state::State;
use std::io::Write;

/// The header line of `muscles.csv`.
pub const MUSCLES_HEADER: &str =
    "t,muscle,excitation,activation,fiber_length,fiber_velocity,tendon_force,length,lengthening_speed";

/// One muscle's values at a state.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleReport {
    /// The muscle's name.
    pub name: String,
    /// The values in `muscles.csv`'s order, from `excitation` to `lengthening_speed`.
    pub values: [f64; 7],
}

/// The names of the values of a [`MuscleReport`] (the columns after `t, muscle`).
pub const MUSCLE_VALUES: [&str; 7] = [
    "excitation",
    "activation",
    "fiber_length",
    "fiber_velocity",
    "tendon_force",
    "length",
    "lengthening_speed",
];

/// Every muscle of the model at a state realized to Velocity or later, in force order.
pub fn muscle_reports(
    model: &Model<f64>,
    state: &State<f64>,
    data: &Data<f64>,
) -> Vec<MuscleReport> {
    let ctx = ForceContext::new(model, state, data);
    model
        .forces()
        .iter()
        .filter_map(|f| match f {
            Force::Muscle(m) => {
                let s = m.state(&ctx);
                Some(MuscleReport {
                    name: m.name.clone(),
                    values: [
                        s.excitation,
                        s.activation,
                        s.output.fiber_length,
                        s.output.fiber_velocity,
                        s.output.tendon_force,
                        s.path.length,
                        s.path.speed,
                    ],
                })
            }
            _ => None,
        })
        .collect()
}

/// How many muscles the model has (the rows of `muscles.csv` per report time).
pub fn muscle_count(model: &Model<f64>) -> usize {
    model
        .forces()
        .iter()
        .filter(|f| matches!(f, Force::Muscle(_)))
        .count()
}

/// Whether the model has any muscle (and so a `muscles.csv`).
pub fn has_muscles(model: &Model<f64>) -> bool {
    muscle_count(model) > 0
}

/// Streams muscle rows as CSV.
pub struct MusclesWriter<W: Write> {
    out: W,
    line: String,
}

impl<W: Write> MusclesWriter<W> {
    /// Writes the header and returns the writer.
    pub fn new(mut out: W) -> Result<Self> {
        writeln!(out, "{MUSCLES_HEADER}").map_err(io_err)?;
        Ok(Self {
            out,
            line: String::new(),
        })
    }

    /// Writes one row per muscle of a state realized to Velocity or later; returns how many.
    pub fn write_rows(
        &mut self,
        model: &Model<f64>,
        state: &State<f64>,
        data: &Data<f64>,
    ) -> Result<usize> {
        use std::fmt::Write as _;
        let reports = muscle_reports(model, state, data);
        for r in &reports {
            let line = &mut self.line;
            line.clear();
            let _ = write!(line, "{:?},{}", state.t, csv_field(&r.name));
            for v in r.values {
                let _ = write!(line, ",{v:?}");
            }
            line.push('\n');
            self.out.write_all(line.as_bytes()).map_err(io_err)?;
        }
        Ok(reports.len())
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(io_err)
    }
}

fn io_err(e: std::io::Error) -> Error {
    Error::Io {
        context: "cannot write muscles".into(),
        path: None,
        source: e,
    }
}

/// The muscles' values at a run's recorded rows (its times with their q, u, z and controls,
/// row-major; the other discrete variables, such as enabled flags, from `base`, the run's
/// final state), as columns named `MUSCLE.excitation` … `MUSCLE.lengthening_speed` (what
/// Python's `simulate` returns).
pub fn muscle_columns(
    model: &Model<f64>,
    base: &State<f64>,
    time: &[f64],
    [q, u, z, controls]: [&[f64]; 4],
) -> Result<Vec<(String, Vec<f64>)>> {
    let (nq, nu, nz, nc) = (model.nq(), model.nu(), model.nz(), model.nctrl());
    let mut state = base.clone();
    let mut data = Data::new(model);
    let mut columns: Vec<(String, Vec<f64>)> = Vec::new();
    for (r, &t) in time.iter().enumerate() {
        state.t = t;
        state.q.copy_from_slice(&q[r * nq..(r + 1) * nq]);
        state.u.copy_from_slice(&u[r * nu..(r + 1) * nu]);
        state.z.copy_from_slice(&z[r * nz..(r + 1) * nz]);
        model.set_controls(&mut state, &controls[r * nc..(r + 1) * nc])?;
        crate::pipeline::realize(model, &state, &mut data, crate::data::Stage::Velocity)?;
        let reports = muscle_reports(model, &state, &data);
        if columns.is_empty() {
            for m in &reports {
                for v in MUSCLE_VALUES {
                    columns.push((format!("{}.{v}", m.name), Vec::with_capacity(time.len())));
                }
            }
        }
        let values = reports.iter().flat_map(|m| m.values);
        for (column, v) in columns.iter_mut().zip(values) {
            column.1.push(v);
        }
    }
    Ok(columns)
}
