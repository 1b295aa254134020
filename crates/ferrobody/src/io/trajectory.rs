//! The `trajectory.csv` writer of the command-line contract: one row per report time,
//! streamed to disk (nothing accumulates in memory).
//!
//! Columns: `t`; for each body but Ground, `NAME.px,py,pz` (origin in Ground),
//! `NAME.qw,qx,qy,qz` (orientation, scalar first, qw ≥ 0), `NAME.vx,vy,vz` (origin velocity),
//! `NAME.wx,wy,wz` (angular velocity), all in Ground; `ke, pe, energy`; then each body's
//! generalized coordinates and speeds as `q:NAME` and `u:NAME` with the names of
//! [`MobilityNames`] (`q:ball.qw … q:ball.pz`, `u:ball.wx … u:ball.vz` for a free body of a
//! scene; OpenSim's and URDF's own names for those models). A column name holding a comma,
//! a quote or a line break is quoted as RFC 4180 says ([`csv_field`]).

use super::MobilityNames;
use crate::algorithms::kinetic_energy;
use crate::data::Data;
use crate::error::{Error, Result};
use crate::math::quaternion::quaternion_from_rotation;
use crate::model::potential_energy;
use crate::model::Model;
use crate::state::State;
use std::io::Write;

/// A CSV field as RFC 4180 writes it: as it is, or in double quotes (inner quotes doubled)
/// when it holds a comma, a quote or a line break — so a body named `a,b` (a URDF link may be)
/// keeps every column after it in place.
pub fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// Formats an `f64` in its shortest round-trip form (`0.1`, `1e-7`, `-2.5e20`, `NaN`, `inf`).
pub fn format_number(x: f64) -> String {
    format!("{x:?}")
}

/// Streams report rows as CSV.
pub struct TrajectoryWriter<W: Write> {
    out: W,
    line: String,
}

impl<W: Write> TrajectoryWriter<W> {
    /// Writes the header for `model`, its coordinates and speeds named by the model
    /// ([`MobilityNames::of`]), and returns the writer.
    pub fn new(out: W, model: &Model<f64>) -> Result<Self> {
        Self::with_names(out, model, &MobilityNames::of(model))
    }

    /// Writes the header for `model` with its coordinates and speeds named by `names` (a
    /// loaded [`crate::io::Scene`]'s), columns `q:NAME` and `u:NAME`, and returns the writer.
    pub fn with_names(mut out: W, model: &Model<f64>, names: &MobilityNames) -> Result<Self> {
        let mut cols = vec!["t".to_string()];
        for b in &model.bodies()[1..] {
            for c in [
                "px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz",
            ] {
                cols.push(csv_field(&format!("{}.{c}", b.name)).into_owned());
            }
        }
        cols.extend(["ke", "pe", "energy"].map(String::from));
        for b in &model.bodies()[1..] {
            let q = names.coordinates[b.q_range()].iter();
            let u = names.speeds[b.u_range()].iter();
            cols.extend(q.map(|n| csv_field(&MobilityNames::coordinate_column(n)).into_owned()));
            cols.extend(u.map(|n| csv_field(&MobilityNames::speed_column(n)).into_owned()));
        }
        writeln!(out, "{}", cols.join(",")).map_err(io_err)?;
        Ok(Self {
            out,
            line: String::new(),
        })
    }

    /// Writes the row of a state realized to Velocity or later.
    pub fn write_row(
        &mut self,
        model: &Model<f64>,
        state: &State<f64>,
        data: &Data<f64>,
    ) -> Result<()> {
        use std::fmt::Write as _;
        let line = &mut self.line;
        line.clear();
        let mut push = |x: f64| {
            if !line.is_empty() {
                line.push(',');
            }
            let _ = write!(line, "{x:?}");
        };
        push(state.t);
        for i in 1..model.nbodies() {
            let x = &data.pos.x_gb[i];
            let v = &data.vel.v_gb[i];
            x.p.iter().for_each(|&c| push(c));
            quaternion_from_rotation(&x.r).iter().for_each(|&c| push(c));
            (3..6).for_each(|k| push(v[k]));
            (0..3).for_each(|k| push(v[k]));
        }
        let ke = kinetic_energy(model, data);
        let pe = potential_energy(model, state, data);
        push(ke);
        push(pe);
        push(ke + pe);
        for b in &model.bodies()[1..] {
            b.q_range().for_each(|k| push(state.q[k]));
            b.u_range().for_each(|k| push(state.u[k]));
        }
        line.push('\n');
        self.out.write_all(line.as_bytes()).map_err(io_err)
    }

    /// Flushes buffered rows to the underlying writer.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(io_err)
    }
}

fn io_err(e: std::io::Error) -> Error {
    Error::Io {
        context: "cannot write trajectory".into(),
        path: None,
        source: e,
    }
}
