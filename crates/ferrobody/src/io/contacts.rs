//! The `contacts.csv` writer of the command-line contract: one row per contact per report time
//! (each overlapping Hunt–Crossley pair, each smooth sphere/half-space element and each
//! exponential spring), streamed to disk.
//!
//! Columns: `t, element, body1, body2, px, py, pz, nx, ny, nz, depth, fx, fy, fz` — contact
//! point, normal (surface 1 → surface 2), penetration (m) and force on body 2 (N), all in Ground
//! — then `normal_force` (N, 0 for a contact separating faster than its dissipation allows),
//! `friction_force` (N, magnitude) and `slip_speed` (m/s).

use super::trajectory::csv_field;
use crate::data::Data;
use crate::error::{Error, Result};
use crate::model::Model;
use crate::pipeline::contact_reports;
use crate::state::State;
use std::io::Write;

/// The header line of `contacts.csv`.
pub const CONTACTS_HEADER: &str =
    "t,element,body1,body2,px,py,pz,nx,ny,nz,depth,fx,fy,fz,normal_force,friction_force,slip_speed";

/// Streams contact rows as CSV.
pub struct ContactsWriter<W: Write> {
    out: W,
    line: String,
}

impl<W: Write> ContactsWriter<W> {
    /// Writes the header and returns the writer.
    pub fn new(mut out: W) -> Result<Self> {
        writeln!(out, "{CONTACTS_HEADER}").map_err(io_err)?;
        Ok(Self {
            out,
            line: String::new(),
        })
    }

    /// Writes one row per contact of a state realized to Velocity or later; returns how many.
    pub fn write_rows(
        &mut self,
        model: &Model<f64>,
        state: &State<f64>,
        data: &Data<f64>,
    ) -> Result<usize> {
        use std::fmt::Write as _;
        let reports = contact_reports(model, state, data);
        for c in &reports {
            let line = &mut self.line;
            line.clear();
            let (b1, b2) = (&model.body(c.bodies.0).name, &model.body(c.bodies.1).name);
            let (b1, b2) = (csv_field(b1), csv_field(b2));
            let element = csv_field(&c.element_name);
            let _ = write!(line, "{:?},{element},{b1},{b2}", state.t);
            let f = c.force_on_body2();
            let values = [
                c.point.x,
                c.point.y,
                c.point.z,
                c.normal.x,
                c.normal.y,
                c.normal.z,
                c.depth,
                f.x,
                f.y,
                f.z,
                c.normal_force,
                c.friction_force.norm(),
                c.slip_speed,
            ];
            for v in values {
                let _ = write!(line, ",{v:?}");
            }
            line.push('\n');
            self.out.write_all(line.as_bytes()).map_err(io_err)?;
        }
        Ok(reports.len())
    }

    /// Flushes buffered rows.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(io_err)
    }
}

fn io_err(e: std::io::Error) -> Error {
    Error::Io {
        context: "cannot write contacts".into(),
        path: None,
        source: e,
    }
}
