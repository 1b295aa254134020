//! Names of a loaded model's generalized coordinates and speeds, the same in trajectory.csv,
//! states.sto, `ferrobody check` and Python.
//!
//! Scene files name them after the body and what each one is ([`Model::coordinate_names`]: a
//! free body's are `ball.qw … ball.pz`, its speeds `ball.wx … ball.vz`); .osim models use
//! OpenSim's coordinate names and `NAME/speed`; URDF robots the joint's name (`NAME[k]` for a
//! joint with several) and `NAME/speed`. In tables that also hold the bodies' pose columns
//! (trajectory.csv, Python's `simulate`), a coordinate's column is `q:NAME` and a speed's
//! `u:NAME`, so that a free body's coordinate `ball.qw` (the quaternion of its mobilizer,
//! relative to its parent's frame) never shares a header with its pose column `ball.qw` (its
//! orientation in Ground).

use crate::model::Model;
use serde::Serialize;

/// The coordinate and speed names of a loaded model, in q and u order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MobilityNames {
    /// One name per generalized coordinate.
    pub coordinates: Vec<String>,
    /// One name per generalized speed.
    pub speeds: Vec<String>,
    /// One name per continuous auxiliary variable z: `z0, z1, …`, or for .osim models the
    /// component's state-variable path (`/forceset/NAME/activation`, …).
    pub auxiliary: Vec<String>,
}

impl MobilityNames {
    /// The model's own names (body name and mobilizer suffix).
    pub fn of(model: &Model<f64>) -> Self {
        Self {
            coordinates: model.coordinate_names(),
            speeds: model.speed_names(),
            auxiliary: (0..model.nz()).map(|k| format!("z{k}")).collect(),
        }
    }

    /// A coordinate's column header in tables that also hold pose columns: `q:NAME`.
    pub fn coordinate_column(name: &str) -> String {
        format!("q:{name}")
    }

    /// A speed's column header in tables that also hold pose columns: `u:NAME`.
    pub fn speed_column(name: &str) -> String {
        format!("u:{name}")
    }
}
