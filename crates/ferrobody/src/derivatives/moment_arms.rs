//! Muscle moment arms: `r = −∂ℓ/∂q`, the rate at which a muscle's path shortens as a
//! coordinate grows (m, or m/rad), which is also the generalized force a unit tension along
//! the path exerts on that coordinate's speed when q̇ = u — what OpenSim's
//! `Muscle::computeMomentArm` returns for an unconstrained coordinate. Computed exactly by
//! forward-mode dual numbers through the path: points, conditional and moving points (their
//! location functions, clamped to the coordinate's range as OpenSim does) and wrapping.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/MomentArmSolver.cpp`; Sherman, Seth, Delp (2013),
//! "What is a moment arm?", ASME IDETC 2013-13633.

use crate::data::{Data, Stage};
use crate::error::Result;
use crate::forces::ForceContext;
use crate::model::{Force, Model};
use crate::pipeline::realize;
use crate::state::State;
use nalgebra::DMatrix;
use num_dual::Dual64;

/// The moment arms of every muscle about every coordinate, with its workspace.
pub struct MomentArms {
    model: Model<Dual64>,
    data: Data<Dual64>,
    state: State<Dual64>,
    /// The muscles' names, in force order (the rows of [`MomentArms::matrix`]).
    pub muscles: Vec<String>,
    /// r (nmuscles × nq), from the last [`MomentArms::compute`]: row i, column k is muscle i's
    /// moment arm about q number k.
    pub matrix: DMatrix<f64>,
}

impl MomentArms {
    /// The workspace for `model`.
    pub fn new(model: &Model<f64>) -> Result<Self> {
        let dual = model.cast::<Dual64>()?;
        let muscles: Vec<String> = model
            .forces()
            .iter()
            .filter_map(|f| match f {
                Force::Muscle(m) => Some(m.name.clone()),
                _ => None,
            })
            .collect();
        Ok(Self {
            data: Data::new(&dual),
            state: dual.default_state(),
            matrix: DMatrix::zeros(muscles.len(), model.nq()),
            muscles,
            model: dual,
        })
    }

    /// Computes the moment arms at `state`'s coordinates (speeds play no part).
    pub fn compute(&mut self, state: &State<f64>) -> Result<()> {
        self.state.assign_from(state);
        for u in self.state.u.iter_mut() {
            *u = Dual64::from(0.0);
        }
        for k in 0..self.model.nq() {
            for (i, q) in self.state.q.iter_mut().enumerate() {
                *q = Dual64::new(state.q[i], if i == k { 1.0 } else { 0.0 });
            }
            realize(&self.model, &self.state, &mut self.data, Stage::Velocity)?;
            let ctx = ForceContext::new(&self.model, &self.state, &self.data);
            let lengths = self.model.forces().iter().filter_map(|f| match f {
                Force::Muscle(m) => Some(m.path.kinematics(&ctx).length),
                _ => None,
            });
            for (row, length) in lengths.enumerate() {
                self.matrix[(row, k)] = -length.eps;
            }
        }
        Ok(())
    }
}
