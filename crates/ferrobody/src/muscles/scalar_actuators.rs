//! OpenSim's scalar actuators other than muscles: a control c (from the same [`Excitation`] as
//! a muscle's: a `PrescribedController` function of time, else zero) times `optimal_force` F,
//! applied as
//! * `CoordinateActuator`: a generalized force `c F` on one coordinate (N or N·m);
//! * `TorqueActuator`: a torque `c F â` on body A and `−c F â` on body B (when given), â the
//!   unit `axis` in Ground (`torque_is_global`) or in A's frame;
//! * `PointActuator`: a force `c F d̂` at `point` of its body, d̂ the unit `direction` in Ground
//!   (`force_is_global`) or in the body's frame, the point in the body's frame unless
//!   `point_is_global`;
//! * `ActivationCoordinateActuator`: a `CoordinateActuator` whose force is `a F`, with the
//!   activation state `ȧ = (c − a)/τ` (`activation_time_constant` τ, s);
//! * `PointToPointActuator`: `c F û` at `pointA` of body A and `−c F û` at `pointB` of body B,
//!   `û = (P_A − P_B)/|P_A − P_B|` in Ground (a positive control pushes the points apart), the
//!   points in their bodies' frames, or fixed in Ground when `points_are_global`.
//!
//! Source: OpenSim 4.6 `OpenSim/Actuators/{CoordinateActuator, TorqueActuator, PointActuator,
//! ActivationCoordinateActuator, PointToPointActuator}.{h,cpp}`.

use super::path::CoordinateRef;
use super::Excitation;
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::ids::{BodyId, ZId};
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::Vector3;

/// How an actuator applies its force.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ScalarActuatorKind {
    /// `CoordinateActuator`.
    Coordinate {
        /// The coordinate driven.
        coordinate: CoordinateRef,
    },
    /// `ActivationCoordinateActuator`.
    ActivationCoordinate {
        /// The coordinate driven.
        coordinate: CoordinateRef,
        /// The z holding the activation.
        activation: ZId,
        /// `activation_time_constant` (s).
        time_constant: f64,
    },
    /// `TorqueActuator`.
    Torque {
        /// Body A (gets +torque).
        body_a: BodyId,
        /// Body B (gets −torque), if any.
        body_b: Option<BodyId>,
        /// The unit axis.
        axis: Vector3<f64>,
        /// Whether the axis is in Ground (else in A's frame).
        global: bool,
    },
    /// `PointActuator`.
    Point {
        /// The body pushed.
        body: BodyId,
        /// The point (body frame, or Ground when `point_global`).
        point: Vector3<f64>,
        /// Whether `point` is in Ground.
        point_global: bool,
        /// The unit direction (body frame, or Ground when `force_global`).
        direction: Vector3<f64>,
        /// Whether `direction` is in Ground.
        force_global: bool,
    },
    /// `PointToPointActuator`.
    PointToPoint {
        /// Body A (pushed along +û).
        body_a: BodyId,
        /// Body B (pushed along −û).
        body_b: BodyId,
        /// Point A (A's frame, or Ground when `global`).
        point_a: Vector3<f64>,
        /// Point B (B's frame, or Ground when `global`).
        point_b: Vector3<f64>,
        /// Whether the points are in Ground.
        global: bool,
    },
}

/// An OpenSim scalar actuator.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalarActuator {
    /// Its name.
    pub name: String,
    /// `optimal_force` (N or N·m per unit control).
    pub optimal_force: f64,
    /// Its control.
    pub excitation: Excitation,
    /// How it applies the force.
    pub kind: ScalarActuatorKind,
}

impl ScalarActuator {
    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks body references and properties.
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        if !self.optimal_force.is_finite() {
            return Err(invalid!(
                "optimal_force {} is not finite",
                self.optimal_force
            ));
        }
        let body_ok = |b: BodyId| b.0 < bodies.len();
        let ok = match &self.kind {
            ScalarActuatorKind::Coordinate { coordinate } => body_ok(coordinate.body),
            ScalarActuatorKind::ActivationCoordinate {
                coordinate,
                time_constant,
                ..
            } => {
                if time_constant.is_nan() || *time_constant <= 0.0 {
                    return Err(invalid!(
                        "activation_time_constant must be greater than zero, but it is {time_constant}"
                    ));
                }
                body_ok(coordinate.body)
            }
            ScalarActuatorKind::Torque { body_a, body_b, .. } => {
                body_ok(*body_a) && body_b.is_none_or(body_ok)
            }
            ScalarActuatorKind::Point { body, .. } => body_ok(*body),
            ScalarActuatorKind::PointToPoint { body_a, body_b, .. } => {
                body_ok(*body_a) && body_ok(*body_b)
            }
        };
        if ok {
            Ok(())
        } else {
            Err("refers to a body the model lacks".into())
        }
    }

    /// The control at the context's time.
    pub fn control<T: Real>(&self, ctx: &ForceContext<'_, T>) -> T {
        self.excitation
            .at(T::c(ctx.state.t), T::zero(), ctx.force_controls())
    }
}

impl<T: Real> ForceElement<T> for ScalarActuator {
    fn name(&self) -> &str {
        ScalarActuator::name(self)
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let control = self.control(ctx);
        let tension = control * T::c(self.optimal_force);
        match &self.kind {
            ScalarActuatorKind::Coordinate { coordinate } => {
                out.add_mobility_force(coordinate.body, coordinate.index, tension);
            }
            ScalarActuatorKind::ActivationCoordinate {
                coordinate,
                activation,
                time_constant,
            } => {
                let a = ctx.z(*activation);
                let force = a * T::c(self.optimal_force);
                out.add_mobility_force(coordinate.body, coordinate.index, force);
                out.set_zdot(*activation, (control - a) / T::c(*time_constant));
            }
            ScalarActuatorKind::Torque {
                body_a,
                body_b,
                axis,
                global,
            } => {
                let axis = axis.map(T::c);
                let mut torque = axis * tension;
                if !global {
                    torque = ctx.x_gb(*body_a).r * torque;
                }
                out.add_torque(*body_a, &torque);
                if let Some(b) = body_b {
                    out.add_torque(*b, &-torque);
                }
            }
            ScalarActuatorKind::Point {
                body,
                point,
                point_global,
                direction,
                force_global,
            } => {
                let x_gb = ctx.x_gb(*body);
                let mut force = direction.map(T::c) * tension;
                if !force_global {
                    force = x_gb.r * force;
                }
                let p_g = if *point_global {
                    point.map(T::c)
                } else {
                    x_gb.p + x_gb.r * point.map(T::c)
                };
                out.add_force_at_point(*body, &p_g, &force);
            }
            ScalarActuatorKind::PointToPoint {
                body_a,
                body_b,
                point_a,
                point_b,
                global,
            } => {
                let (a, b) = (ctx.x_gb(*body_a), ctx.x_gb(*body_b));
                let (point_a, point_b) = (point_a.map(T::c), point_b.map(T::c));
                // Each point in Ground and in its body (`findStationLocationInGround`, or
                // Ground's `findStationLocationInAnotherFrame` when global).
                let ((p_ga, p_a), (p_gb, p_b)) = if *global {
                    let local =
                        |x: &crate::math::Transform<T>, p: Vector3<T>| x.r.transpose() * (p - x.p);
                    ((point_a, local(a, point_a)), (point_b, local(b, point_b)))
                } else {
                    (
                        (a.p + a.r * point_a, point_a),
                        (b.p + b.r * point_b, point_b),
                    )
                };
                let r = p_ga - p_gb;
                let force = r / r.norm() * tension;
                out.add_station_force(*body_a, &p_a, &force);
                out.add_station_force(*body_b, &p_b, &-force);
            }
        }
    }
}
