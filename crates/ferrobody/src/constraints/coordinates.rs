//! Constraints on coordinates (mobility space): a coordinate held at a value (Simbody
//! `Constraint::PrescribedMotion` with a constant, as OpenSim's `Coordinate::setLocked` uses
//! it), a coordinate prescribed as a function of time (`PrescribedMotion`, OpenSim's
//! `prescribed_function`) and a coordinate coupled to another (Simbody
//! `Constraint::CoordinateCoupler` with OpenSim's `CompoundFunction`, as
//! `CoordinateCouplerConstraint` builds it). Each has one holonomic row, with `q_d` the
//! dependent and `q_i` the independent one:
//!
//! ```text
//! lock:       perr = q − c            verr = q̇            aerr = q̈
//! prescribed: perr = q − f(t)         verr = q̇ − f'(t)    aerr = q̈ − f''(t)
//! coupler:    perr = s f(q_i) − q_d   verr = s f'(q_i) q̇_i − q̇_d
//!             aerr = s f''(q_i) q̇_i² + s f'(q_i) q̈_i − q̈_d
//! ```
//!
//! Multiplier λ applies the generalized forces `λ ∂perr/∂q` (Simbody's `addInOneQForce`; the
//! physical force is the negative, notes §0), so row j of G is `∂perr_j/∂q`. No body forces.
//!
//! A coupler's coordinates must have `q̇ = u` (the builder checks). A lock or a prescribed
//! motion may also hold a rotation angle of an Euler-angle Ball, Free or Ellipsoid mobilizer,
//! whose speeds are `w_FM`, not the angles' rates: Simbody's `PrescribedMotion` constrains the
//! q, so its rows go through the mobilizer's kinematic equation, `q̇ᵢ = Nᵢ(q) u`,
//! `q̈ᵢ = Nᵢ u̇ + Ṅᵢ u`, and λ applies `λ Nᵢᵀ` to the mobilizer's speeds (`addInOneQForce`
//! maps a q force through Nᵀ).
//! Units: the coordinate's (rad or m); `c` lives in the state so that locking at the current
//! value needs no new model. Citation: Sherman, Seth, Delp (2011), "Simbody: multibody
//! dynamics for biomedical research", Procedia IUTAM 2: 241–261; OpenSim 4.6 `Coordinate.cpp`,
//! `CoordinateCouplerConstraint.cpp`.

use super::station::BodyMotion;
use crate::ids::{BodyId, DiscreteVarId};
use crate::math::function::Function;
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;

/// One coordinate: a body's mobilizer and the index among its coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoordinateRef {
    /// The body whose mobilizer has the coordinate.
    pub body: BodyId,
    /// Index among that mobilizer's coordinates.
    pub coordinate: usize,
    /// Index in `State::q` and `State::u` (set when the constraint is added to a model).
    pub(crate) q: usize,
    pub(crate) u: usize,
    /// How its rate is formed (set when the constraint is added to a model).
    pub(crate) rate: CoordinateRate,
}

impl CoordinateRef {
    /// Coordinate `coordinate` of `body`'s mobilizer.
    pub fn new(body: BodyId, coordinate: usize) -> Self {
        Self {
            body,
            coordinate,
            q: 0,
            u: 0,
            rate: CoordinateRate::Speed,
        }
    }

    /// `q̇` of the coordinate.
    fn qdot<T: Real>(&self, k: &BodyMotion<T>) -> T {
        match self.rate {
            CoordinateRate::Speed => k.u[self.u],
            CoordinateRate::Euler(mobilizer) => {
                let mut qdot = [T::zero(); 6];
                let (q, u) = self.mobilizer_slices(k, mobilizer);
                mobilizer.qdot(q, u, &mut qdot[..mobilizer.nq()]);
                qdot[self.coordinate]
            }
        }
    }

    /// `q̈` of the coordinate.
    fn qdotdot<T: Real>(&self, k: &BodyMotion<T>) -> T {
        match self.rate {
            CoordinateRate::Speed => k.udot[self.u],
            CoordinateRate::Euler(mobilizer) => {
                let n = mobilizer.nq();
                let (mut qdot, mut qdotdot) = ([T::zero(); 6], [T::zero(); 6]);
                let (q, u) = self.mobilizer_slices(k, mobilizer);
                let u_start = self.u - self.coordinate;
                let udot = &k.udot[u_start..u_start + n];
                mobilizer.qdot(q, u, &mut qdot[..n]);
                mobilizer.qdotdot(q, u, &qdot[..n], udot, &mut qdotdot[..n]);
                qdotdot[self.coordinate]
            }
        }
    }

    /// Adds `λ ∂q̇/∂u` (the q force λ mapped to the speeds) to `mobility`.
    fn add_force<T: Real>(&self, k: &BodyMotion<T>, lambda: T, mobility: &mut [T]) {
        match self.rate {
            CoordinateRate::Speed => mobility[self.u] += lambda,
            CoordinateRate::Euler(mobilizer) => {
                let n = mobilizer.nq();
                let (q, _) = self.mobilizer_slices(k, mobilizer);
                let u_start = self.u - self.coordinate;
                let (mut unit, mut qdot) = ([T::zero(); 6], [T::zero(); 6]);
                for j in 0..n {
                    unit[j] = T::one();
                    mobilizer.qdot(q, &unit[..n], &mut qdot[..n]);
                    unit[j] = T::zero();
                    mobility[u_start + j] += lambda * qdot[self.coordinate];
                }
            }
        }
    }

    /// The q and u of the coordinate's mobilizer (as many of each for an Euler-angle one).
    fn mobilizer_slices<'k, T: Real>(
        &self,
        k: &BodyMotion<'k, T>,
        mobilizer: Mobilizer,
    ) -> (&'k [T], &'k [T]) {
        let (q_start, u_start) = (self.q - self.coordinate, self.u - self.coordinate);
        let n = mobilizer.nq();
        (&k.q[q_start..q_start + n], &k.u[u_start..u_start + n])
    }
}

/// How a coordinate's rate is formed: its own speed (`q̇ = u`), or through its Euler-angle
/// mobilizer's kinematic equation (a rotation whose speeds are `w_FM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CoordinateRate {
    /// `q̇ = u` for this coordinate.
    Speed,
    /// `q̇ = N(q) u` of this mobilizer (one without quaternions: as many q as u).
    Euler(Mobilizer),
}

/// A coordinate held at a value (OpenSim's locked coordinate). The value is a per-state
/// parameter: [`Model::lock_coordinate`](crate::Model::lock_coordinate) holds it where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinateLock {
    /// The locked coordinate.
    pub coordinate: CoordinateRef,
    /// The value it is held at in the default state (rad or m).
    pub default_value: f64,
    /// Where the held value lives in the state (set when added to a model).
    pub(crate) value: DiscreteVarId,
}

impl CoordinateLock {
    /// Holds `coordinate` at `value`.
    pub fn new(coordinate: CoordinateRef, value: f64) -> Self {
        Self {
            coordinate,
            default_value: value,
            value: DiscreteVarId(usize::MAX),
        }
    }
}

/// A coordinate prescribed as a function of time (OpenSim's `prescribed_function`).
#[derive(Clone, Debug, PartialEq)]
pub struct PrescribedCoordinate {
    /// The prescribed coordinate.
    pub coordinate: CoordinateRef,
    /// Its value as a function of time (s → rad or m).
    pub function: Function,
}

/// `q_d = s f(q_i)`: one coordinate as a function of another (OpenSim's
/// `CoordinateCouplerConstraint` with one independent coordinate).
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinateCoupler {
    /// The independent coordinate.
    pub independent: CoordinateRef,
    /// The dependent coordinate.
    pub dependent: CoordinateRef,
    /// The coupling function f.
    pub function: Function,
    /// The scale factor s.
    pub scale: f64,
}

impl CoordinateLock {
    pub(crate) fn position_errors<T: Real>(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        out[0] = k.q[self.coordinate.q] - par[0];
    }

    pub(crate) fn velocity_errors<T: Real>(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.coordinate.qdot(k);
    }

    pub(crate) fn acceleration_errors<T: Real>(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.coordinate.qdotdot(k);
    }

    pub(crate) fn add_forces<T: Real>(&self, k: &BodyMotion<T>, lambda: &[T], mobility: &mut [T]) {
        self.coordinate.add_force(k, lambda[0], mobility);
    }
}

impl PrescribedCoordinate {
    pub(crate) fn position_errors<T: Real>(&self, k: &BodyMotion<T>, _: &[T], out: &mut [T]) {
        out[0] = k.q[self.coordinate.q] - self.function.value(T::c(k.t));
    }

    pub(crate) fn velocity_errors<T: Real>(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.coordinate.qdot(k) - self.function.derivative(T::c(k.t));
    }

    pub(crate) fn acceleration_errors<T: Real>(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.coordinate.qdotdot(k) - self.function.second_derivative(T::c(k.t));
    }

    pub(crate) fn add_forces<T: Real>(&self, k: &BodyMotion<T>, lambda: &[T], mobility: &mut [T]) {
        self.coordinate.add_force(k, lambda[0], mobility);
    }
}

impl CoordinateCoupler {
    fn slope<T: Real>(&self, k: &BodyMotion<T>) -> T {
        self.function.derivative(k.q[self.independent.q]) * T::c(self.scale)
    }

    pub(crate) fn position_errors<T: Real>(&self, k: &BodyMotion<T>, _: &[T], out: &mut [T]) {
        let f = self.function.value(k.q[self.independent.q]) * T::c(self.scale);
        out[0] = f - k.q[self.dependent.q];
    }

    pub(crate) fn velocity_errors<T: Real>(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.slope(k) * k.u[self.independent.u] - k.u[self.dependent.u];
    }

    pub(crate) fn acceleration_errors<T: Real>(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let qi = k.q[self.independent.q];
        let ui = k.u[self.independent.u];
        let curvature = self.function.second_derivative(qi) * T::c(self.scale);
        out[0] = curvature * ui * ui + self.slope(k) * k.udot[self.independent.u]
            - k.udot[self.dependent.u];
    }

    pub(crate) fn add_forces<T: Real>(&self, k: &BodyMotion<T>, lambda: &[T], mobility: &mut [T]) {
        mobility[self.independent.u] += lambda[0] * self.slope(k);
        mobility[self.dependent.u] -= lambda[0];
    }
}
