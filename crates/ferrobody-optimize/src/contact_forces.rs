//! The forces of smooth sphere/half-space contacts at every grid point, with their exact
//! Jacobians in (q, u), for Moco's contact-tracking goal:
//!
//! ```text
//!   F_e(q, u)          force of element e on its half space's body (N, Ground)
//!   ∂F_e/∂(q, u)       3 × (nq + nu), by dual numbers through the Velocity stage
//! ```
//!
//! The force is the element's own (`SmoothSphereHalfSpaceForce::evaluate`: Hertz with the
//! Hunt–Crossley dissipation, the smoothed friction; Serrancolí et al., IEEE TNSRE 27 (2019)),
//! so the goal tracks exactly the force the dynamics apply.

use crate::dual_lanes::{lanes, seeded, D, LANES};
use crate::error::{OptimizeError, Result};
use crate::grid::Layout;
use ferrobody::contact::SmoothSphereHalfSpaceForce;
use ferrobody::forces::ForceContext;
use ferrobody::model::Force;
use ferrobody::nalgebra::Vector3;
use ferrobody::pipeline::realize;
use ferrobody::{Data, Model, Stage, State};

/// Contact forces and their Jacobians at every point of the grid, for one x.
pub(crate) struct ContactForces {
    model: Model<D>,
    data: Data<D>,
    state: State<D>,
    /// The force elements evaluated (indices in the model's forces).
    elements: Vec<usize>,
    /// Those elements, on the dual model.
    contacts: Vec<SmoothSphereHalfSpaceForce<D>>,
    /// nq + nu: the columns of each Jacobian.
    columns: usize,
    /// `forces[point · elements + slot]`.
    forces: Vec<Vector3<f64>>,
    /// `jacobians[(point · elements + slot) · columns + k] = ∂F/∂y_k`.
    jacobians: Vec<Vector3<f64>>,
    /// The x these hold.
    held: Option<Vec<f64>>,
}

impl ContactForces {
    /// The workspace for `elements` (smooth contacts of `model`), discrete variables from
    /// `base`, on a grid of `points` points.
    pub fn new(
        model: &Model<f64>,
        base: &State<f64>,
        elements: Vec<usize>,
        points: usize,
    ) -> Result<Self> {
        let dual = model.cast::<D>()?;
        let mut contacts = Vec::with_capacity(elements.len());
        for &e in &elements {
            let Some(Force::SmoothSphereHalfSpace(contact)) = dual.forces().get(e) else {
                return Err(OptimizeError::InvalidGoal(format!(
                    "contact_tracking: force element {e} is not a smooth sphere/half-space contact"
                )));
            };
            contacts.push(contact.clone());
        }
        let mut state = dual.default_state();
        state.assign_from(base);
        let columns = model.nq() + model.nu();
        let n = points * elements.len();
        Ok(Self {
            data: Data::new(&dual),
            state,
            model: dual,
            columns,
            forces: vec![Vector3::zeros(); n],
            jacobians: vec![Vector3::zeros(); n * columns],
            elements,
            contacts,
            held: None,
        })
    }

    /// The slot of force element `e` (None if not evaluated here).
    pub fn slot(&self, e: usize) -> Option<usize> {
        self.elements.iter().position(|&x| x == e)
    }

    /// F of the element in `slot` at `point`.
    pub fn force(&self, point: usize, slot: usize) -> Vector3<f64> {
        self.forces[point * self.elements.len() + slot]
    }

    /// ∂F/∂y_k for k < nq + nu, of the element in `slot` at `point`.
    pub fn jacobian(&self, point: usize, slot: usize) -> &[Vector3<f64>] {
        let start = (point * self.elements.len() + slot) * self.columns;
        &self.jacobians[start..start + self.columns]
    }

    /// Evaluates every point at x (nothing again for the same x).
    pub fn update(&mut self, x: &[f64], layout: &Layout) -> Result<()> {
        if self.held.as_deref() == Some(x) {
            return Ok(());
        }
        self.held = None;
        for point in 0..layout.points() {
            self.evaluate_point(&x[layout.y(point)..layout.y(point) + self.columns], point)?;
        }
        self.held = Some(x.to_vec());
        Ok(())
    }

    fn evaluate_point(&mut self, y: &[f64], point: usize) -> Result<()> {
        let nq = self.model.nq();
        let ne = self.elements.len();
        for first in (0..self.columns).step_by(LANES) {
            for (k, &value) in y.iter().enumerate() {
                let seeded = seeded(value, k, first);
                if k < nq {
                    self.state.q[k] = seeded;
                } else {
                    self.state.u[k - nq] = seeded;
                }
            }
            realize(&self.model, &self.state, &mut self.data, Stage::Velocity)?;
            let ctx = ForceContext::new(&self.model, &self.state, &self.data);
            for (slot, contact) in self.contacts.iter().enumerate() {
                let f = contact.evaluate(&ctx).force_on_half_space;
                let index = point * ne + slot;
                self.forces[index] = f.map(|c| c.re);
                for axis in 0..3 {
                    let lanes = lanes(&f[axis]);
                    for lane in 0..LANES.min(self.columns - first) {
                        self.jacobians[index * self.columns + first + lane][axis] = lanes[lane];
                    }
                }
            }
        }
        Ok(())
    }
}
