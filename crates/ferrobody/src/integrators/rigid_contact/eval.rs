//! Errors and Jacobian rows of one unilateral contact on a realized [`Data`].
//!
//! Rows are ordered [normal, friction x, friction y]. A coordinate row (hard stop) has
//! `perr = q − limit`, `verr = u`, `aerr = u̇` and the Jacobian row `e_u`; every other contact
//! evaluates its underlying constraint ([`crate::constraints`]), whose Jacobian row j is the
//! generalized force of unit multiplier j (`Jᵀ F_j`).

use crate::constraints::station::motion;
use crate::constraints::Constraint;
use crate::data::Data;
use crate::ids::BodyId;
use crate::math::SpatialVec;
use crate::model::Model;
use crate::pipeline::constraint_dynamics::generalized_forces;
use crate::scalar::Real;
use crate::state::State;
use crate::unilateral::{Underlying, UnilateralContact, UnilateralKind};
use nalgebra::{DVector, Vector3};

/// Buffers for Jacobian rows, sized once per model.
#[derive(Clone, Debug)]
pub(crate) struct RowWorkspace<T: Real> {
    forces: Vec<SpatialVec<T>>,
    tau: DVector<T>,
    values: [T; 3],
}

impl<T: Real> RowWorkspace<T> {
    pub(crate) fn new(model: &Model<T>) -> Self {
        Self {
            forces: vec![SpatialVec::zeros(); model.nbodies()],
            tau: DVector::zeros(model.nu()),
            values: [T::zero(); 3],
        }
    }
}

/// (q index, u index) of coordinate `coordinate` of `body`'s mobilizer (q̇ = u there).
fn coordinate_index<T: Real>(model: &Model<T>, body: BodyId, coordinate: usize) -> (usize, usize) {
    let b = model.body(body);
    (
        b.q_range().start + coordinate,
        b.u_range().start + coordinate,
    )
}

impl<T: Real> UnilateralContact<T> {
    /// Normal-row position error (Position stage).
    pub(crate) fn eval_position_error(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
    ) -> T {
        match &self.underlying {
            Underlying::Coordinate {
                body,
                coordinate,
                limit,
            } => state.q[coordinate_index(model, *body, *coordinate).0] - *limit,
            Underlying::Constraint(c) => {
                let mut out = [T::zero()];
                c.position_errors(&motion(state, data), c.parameters(model, state), &mut out);
                out[0]
            }
        }
    }

    /// Velocity errors of all rows (Velocity stage); `out` has [`Self::row_count`] entries.
    pub(crate) fn eval_velocity_errors(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
        out: &mut [T],
    ) {
        match &self.underlying {
            Underlying::Coordinate {
                body, coordinate, ..
            } => out[0] = state.u[coordinate_index(model, *body, *coordinate).1],
            Underlying::Constraint(c) => {
                c.velocity_errors(&motion(state, data), c.parameters(model, state), out)
            }
        }
    }

    /// Acceleration errors of all rows (Acceleration stage).
    pub(crate) fn eval_acceleration_errors(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
        out: &mut [T],
    ) {
        match &self.underlying {
            Underlying::Coordinate {
                body, coordinate, ..
            } => out[0] = data.acc.udot[coordinate_index(model, *body, *coordinate).1],
            Underlying::Constraint(c) => {
                c.acceleration_errors(&motion(state, data), c.parameters(model, state), out)
            }
        }
    }

    /// Jacobian row `row` (0 normal, 1 and 2 friction) into `out` (length nu; Position stage).
    pub(crate) fn eval_jacobian_row(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
        row: usize,
        ws: &mut RowWorkspace<T>,
        out: &mut [T],
    ) {
        match &self.underlying {
            Underlying::Coordinate {
                body, coordinate, ..
            } => {
                out.fill(T::zero());
                out[coordinate_index(model, *body, *coordinate).1] = T::one();
            }
            Underlying::Constraint(c) => {
                let n = self.row_count();
                ws.values = [T::zero(); 3];
                ws.values[row] = T::one();
                ws.forces.fill(SpatialVec::zeros());
                let k = motion(state, data);
                c.add_forces(
                    &k,
                    c.parameters(model, state),
                    &ws.values[..n],
                    &mut ws.forces,
                    // A unilateral contact's underlying constraint is a contact between two
                    // bodies: it applies no generalized forces.
                    &mut [],
                );
                generalized_forces(model, data, &mut ws.forces, &mut ws.tau);
                out.copy_from_slice(ws.tau.as_slice());
            }
        }
    }

    /// Simbody `isProximal(s, tol)`: `sign·perr ≤ tol` (Position stage). An edge-edge contact
    /// must also have the closest points of its lines within both edges.
    pub(crate) fn eval_is_proximal(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
        tol: f64,
    ) -> bool {
        let perr = self.eval_position_error(model, state, data).re();
        if self.sign() * perr > tol {
            return false;
        }
        match &self.underlying {
            Underlying::Constraint(Constraint::LineOnLineContact(c)) => {
                let g = c.geometry(&motion(state, data));
                g.tf.re().abs() <= c.half_length_f.re() && g.tb.re().abs() <= c.half_length_b.re()
            }
            _ => true,
        }
    }

    /// A Ground point at which to show the contact (`whereToDisplay`; Position stage).
    pub(crate) fn eval_display_point(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
    ) -> Vector3<T> {
        let k = motion(state, data);
        match &self.underlying {
            Underlying::Coordinate { body, .. } => data.pos.x_gb[body.0].p,
            Underlying::Constraint(c) => match (self.kind, c) {
                (UnilateralKind::Rope, Constraint::Rod(r)) => {
                    (k.point(r.body1.0, &r.point1) + k.point(r.body2.0, &r.point2)) * T::c(0.5)
                }
                (_, Constraint::PointInPlane(p)) => k.point(p.follower.0, &p.point),
                (_, Constraint::PointOnPlaneContact(p)) => k.point(p.follower.0, &p.point),
                (_, Constraint::SphereOnPlaneContact(s)) => {
                    let n = k.direction(s.plane_body.0, &s.plane_frame.r.column(2).into_owned());
                    k.point(s.ball.0, &s.center) - n * s.radius
                }
                (_, Constraint::SphereOnSphereContact(s)) => {
                    s.geometry(&k, c.parameters(model, state)).frame.p
                }
                (_, Constraint::LineOnLineContact(l)) => l.geometry(&k).co,
                _ => data.pos.x_gb[c.bodies()[1].0].p,
            },
        }
    }
}
