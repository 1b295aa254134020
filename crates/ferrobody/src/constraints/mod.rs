//! Bilateral constraints: holonomic (position), non-holonomic (velocity) constraint equations,
//! their Jacobian G, Lagrange multipliers and projection onto the constraint manifold.
//!
//! Each constraint supplies, for its rows, the position errors `perr(q)` (holonomic rows
//! only), the velocity errors `verr = G u` and the acceleration errors `aerr = G u̇ + b(q, u)`,
//! computed from body poses, velocities and accelerations ([`station::BodyMotion`]), and the
//! body forces that a multiplier vector λ produces. The equations of motion are Simbody's
//! (notes §0):
//!
//! ```text
//! M u̇ + Gᵀ λ = f_applied,     G u̇ + b = 0
//! ```
//!
//! so the force a constraint applies is `−Gᵀ λ`: a contact whose normal row pushes the follower
//! along +n has a **negative** normal multiplier. Row j of G is the generalized force of the
//! body forces of a unit multiplier j, which makes `λ·verr` the power of the multiplier forces.
//! Rows of one constraint are contiguous, holonomic rows first. Equations and sign conventions:
//! `docs/models/constraints.md`. Solution and projection (with the model's whole set, above these elements): [`crate::pipeline::constraint_dynamics`], [`crate::pipeline::projection`].

mod cast;
pub mod coordinates;
pub mod line_on_line;
pub mod plane;
pub mod point_on_line;
pub mod points;
pub(crate) mod schur;
pub mod sphere_on_sphere;
pub mod station;

pub(crate) use coordinates::CoordinateRate;
pub use coordinates::{CoordinateCoupler, CoordinateLock, CoordinateRef, PrescribedCoordinate};
pub use line_on_line::LineOnLineContact;
pub use plane::{PointInPlane, PointOnPlaneContact, SphereOnPlaneContact};
pub use point_on_line::PointOnLine;
pub use points::{Ball, Rod, Weld};
pub use sphere_on_sphere::SphereOnSphereContact;

use crate::error::{Error, Result};
use crate::ids::BodyId;
use crate::math::SpatialVec;
use crate::scalar::Real;
use crate::state::State;
use crate::tree::Tree;
use station::BodyMotion;

/// Simbody's `TinyReal = eps^(5/4)` (notes §0): below this distance a direction is undefined.
pub(crate) const TINY_REAL: f64 = 2.710_505_431_213_761e-20;

/// Index of a constraint in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstraintId(pub usize);

/// One constraint element. An enum so that the hot loops dispatch statically.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Constraint<T: Real = f64> {
    /// Coincident points (3 holonomic rows).
    Ball(Ball<T>),
    /// Coincident frames (6 holonomic rows).
    Weld(Weld<T>),
    /// Constant distance (1 holonomic row).
    Rod(Rod<T>),
    /// Point in a plane (1 holonomic row).
    PointInPlane(PointInPlane<T>),
    /// Point on a line (2 holonomic rows).
    PointOnLine(PointOnLine<T>),
    /// Point on a plane without slip (1 holonomic + 2 non-holonomic rows).
    PointOnPlaneContact(PointOnPlaneContact<T>),
    /// Sphere on a plane (1 holonomic row, + 2 non-holonomic when rolling).
    SphereOnPlaneContact(SphereOnPlaneContact<T>),
    /// Sphere on a sphere (1 holonomic row, + 2 non-holonomic when rolling).
    SphereOnSphereContact(SphereOnSphereContact<T>),
    /// Edge on edge (1 holonomic row, + 2 non-holonomic when rolling).
    LineOnLineContact(LineOnLineContact<T>),
    /// A coordinate held at a value (1 holonomic row).
    CoordinateLock(CoordinateLock),
    /// A coordinate prescribed as a function of time (1 holonomic row).
    PrescribedCoordinate(PrescribedCoordinate),
    /// One coordinate a function of another (1 holonomic row).
    CoordinateCoupler(CoordinateCoupler),
}

/// Where a constraint's rows live in the constraint-space vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstraintRows {
    /// First row in the multiplier / velocity-error / acceleration-error vectors.
    pub start: usize,
    /// First entry in the position-error vector.
    pub position_start: usize,
    /// Number of holonomic rows (they come first).
    pub holonomic: usize,
    /// Number of non-holonomic rows.
    pub nonholonomic: usize,
}

impl ConstraintRows {
    /// All rows of this constraint in the multiplier vector.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.holonomic + self.nonholonomic
    }

    /// Its entries in the position-error vector.
    pub fn position_range(&self) -> std::ops::Range<usize> {
        self.position_start..self.position_start + self.holonomic
    }
}

/// Calls `$fixed` on every body constraint kind whose parameters are fixed at construction,
/// `$sos` on the sphere-on-sphere contact, whose parameters live in the state, and `$mob` on
/// the coordinate constraints.
macro_rules! dispatch {
    ($self:expr, $c:ident => $fixed:expr, $s:ident => $sos:expr, $m:ident => $mob:expr) => {
        match $self {
            Constraint::CoordinateLock($m) => $mob,
            Constraint::PrescribedCoordinate($m) => $mob,
            Constraint::CoordinateCoupler($m) => $mob,
            Constraint::Ball($c) => $fixed,
            Constraint::Weld($c) => $fixed,
            Constraint::Rod($c) => $fixed,
            Constraint::PointInPlane($c) => $fixed,
            Constraint::PointOnLine($c) => $fixed,
            Constraint::PointOnPlaneContact($c) => $fixed,
            Constraint::SphereOnPlaneContact($c) => $fixed,
            Constraint::LineOnLineContact($c) => $fixed,
            Constraint::SphereOnSphereContact($s) => $sos,
        }
    };
}

impl<T: Real> Constraint<T> {
    /// Simbody's class name.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Constraint::Ball(_) => "Ball",
            Constraint::Weld(_) => "Weld",
            Constraint::Rod(_) => "Rod",
            Constraint::PointInPlane(_) => "PointInPlane",
            Constraint::PointOnLine(_) => "PointOnLine",
            Constraint::PointOnPlaneContact(_) => "PointOnPlaneContact",
            Constraint::SphereOnPlaneContact(_) => "SphereOnPlaneContact",
            Constraint::SphereOnSphereContact(_) => "SphereOnSphereContact",
            Constraint::LineOnLineContact(_) => "LineOnLineContact",
            Constraint::CoordinateLock(_) => "CoordinateLock",
            Constraint::PrescribedCoordinate(_) => "PrescribedCoordinate",
            Constraint::CoordinateCoupler(_) => "CoordinateCoupler",
        }
    }

    /// (holonomic, non-holonomic) row counts.
    pub fn row_counts(&self) -> (usize, usize) {
        match self {
            Constraint::Ball(_) => (3, 0),
            Constraint::Weld(_) => (6, 0),
            Constraint::Rod(_)
            | Constraint::PointInPlane(_)
            | Constraint::CoordinateLock(_)
            | Constraint::PrescribedCoordinate(_)
            | Constraint::CoordinateCoupler(_) => (1, 0),
            Constraint::PointOnPlaneContact(_) => (1, 2),
            Constraint::PointOnLine(_) => (2, 0),
            Constraint::SphereOnPlaneContact(c) => (1, if c.enforce_rolling { 2 } else { 0 }),
            Constraint::SphereOnSphereContact(c) => (1, if c.enforce_rolling { 2 } else { 0 }),
            Constraint::LineOnLineContact(c) => (1, if c.enforce_rolling { 2 } else { 0 }),
        }
    }

    /// The two constrained bodies (for a coordinate constraint: the bodies of its two
    /// coordinates, or Ground and the body of its one).
    pub fn bodies(&self) -> [BodyId; 2] {
        match self {
            Constraint::Ball(c) => [c.body1, c.body2],
            Constraint::Weld(c) => [c.body1, c.body2],
            Constraint::Rod(c) => [c.body1, c.body2],
            Constraint::PointInPlane(c) => [c.plane_body, c.follower],
            Constraint::PointOnLine(c) => [c.line_body, c.follower],
            Constraint::PointOnPlaneContact(c) => [c.surface_body, c.follower],
            Constraint::SphereOnPlaneContact(c) => [c.plane_body, c.ball],
            Constraint::SphereOnSphereContact(c) => [c.body_f, c.body_b],
            Constraint::LineOnLineContact(c) => [c.body_f, c.body_b],
            Constraint::CoordinateLock(c) => [BodyId::GROUND, c.coordinate.body],
            Constraint::PrescribedCoordinate(c) => [BodyId::GROUND, c.coordinate.body],
            Constraint::CoordinateCoupler(c) => [c.independent.body, c.dependent.body],
        }
    }

    /// The coordinates a coordinate constraint acts on (none for the others).
    pub fn coordinates(&self) -> Vec<CoordinateRef> {
        match self {
            Constraint::CoordinateLock(c) => vec![c.coordinate],
            Constraint::PrescribedCoordinate(c) => vec![c.coordinate],
            Constraint::CoordinateCoupler(c) => vec![c.independent, c.dependent],
            _ => Vec::new(),
        }
    }

    /// The same, to resolve their state indices when the constraint is added to a model.
    pub(crate) fn coordinates_mut(&mut self) -> Vec<&mut CoordinateRef> {
        match self {
            Constraint::CoordinateLock(c) => vec![&mut c.coordinate],
            Constraint::PrescribedCoordinate(c) => vec![&mut c.coordinate],
            Constraint::CoordinateCoupler(c) => vec![&mut c.independent, &mut c.dependent],
            _ => Vec::new(),
        }
    }

    /// The per-state parameters of this constraint (SphereOnSphereContact's geometry, a
    /// CoordinateLock's held value; empty for the others).
    pub(crate) fn parameters<'a>(&self, model: &Tree<T>, state: &'a State<T>) -> &'a [T] {
        match self {
            Constraint::SphereOnSphereContact(c) => state.discrete(model, c.parameters),
            Constraint::CoordinateLock(c) => state.discrete(model, c.value),
            _ => &[],
        }
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        dispatch!(self, c => c.position_errors(k, out), s => s.position_errors(k, par, out),
            m => m.position_errors(k, par, out))
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        dispatch!(self, c => c.velocity_errors(k, out), s => s.velocity_errors(k, par, out),
            m => m.velocity_errors(k, out))
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        dispatch!(self, c => c.acceleration_errors(k, out), s => s.acceleration_errors(k, par, out),
            m => m.acceleration_errors(k, out))
    }

    /// Adds the body forces and generalized (mobility) forces of multipliers `lambda`
    /// (Simbody's sign: the physical force is the negative) to `forces` and `mobility`.
    pub(crate) fn add_forces(
        &self,
        k: &BodyMotion<T>,
        par: &[T],
        lambda: &[T],
        forces: &mut [SpatialVec<T>],
        mobility: &mut [T],
    ) {
        match self {
            Constraint::Ball(c) => c.add_forces(k, lambda, forces),
            Constraint::Weld(c) => c.add_forces(k, lambda, forces),
            Constraint::Rod(c) => c.add_forces(k, lambda, forces),
            Constraint::PointInPlane(c) => c.add_forces(k, lambda, forces),
            Constraint::PointOnLine(c) => c.add_forces(k, lambda, forces),
            Constraint::PointOnPlaneContact(c) => c.add_forces(k, lambda, forces),
            Constraint::SphereOnPlaneContact(c) => c.add_forces(k, lambda, forces),
            Constraint::LineOnLineContact(c) => c.add_forces(k, lambda, forces),
            Constraint::SphereOnSphereContact(c) => c.add_forces(k, par, lambda, forces),
            Constraint::CoordinateLock(c) => c.add_forces(k, lambda, mobility),
            Constraint::PrescribedCoordinate(c) => c.add_forces(k, lambda, mobility),
            Constraint::CoordinateCoupler(c) => c.add_forces(k, lambda, mobility),
        }
    }

    /// Checks bodies and parameters; names the first problem.
    pub(crate) fn validate(&self, nbodies: usize) -> Result<()> {
        let fail = |m: String| {
            Err(Error::model(format!(
                "{} constraint: {m}",
                self.kind_name()
            )))
        };
        let [a, b] = self.bodies();
        if a.0 >= nbodies || b.0 >= nbodies {
            return fail(format!("body index {} does not exist", a.0.max(b.0)));
        }
        if let Constraint::CoordinateCoupler(c) = self {
            if c.independent.body == c.dependent.body
                && c.independent.coordinate == c.dependent.coordinate
            {
                return fail("the dependent coordinate is also the independent one".into());
            }
            if !c.scale.is_finite() {
                return fail(format!("scale factor must be finite, got {}", c.scale));
            }
        }
        if let Constraint::CoordinateLock(c) = self {
            if !c.default_value.is_finite() {
                return fail(format!(
                    "held value must be finite, got {}",
                    c.default_value
                ));
            }
        }
        if a == b && self.coordinates().is_empty() {
            return fail(format!(
                "both sides are body {}: a constraint joins two different bodies",
                a.0
            ));
        }
        let positive = |name: &str, v: T| {
            if v.re().is_finite() && v.re() > 0.0 {
                Ok(())
            } else {
                fail(format!(
                    "{name} must be positive and finite, got {}",
                    v.re()
                ))
            }
        };
        match self {
            Constraint::Rod(c) => positive("length", c.length),
            Constraint::SphereOnPlaneContact(c) => positive("radius", c.radius),
            Constraint::SphereOnSphereContact(c) => {
                positive("radius on F", c.default_radius_on_f)?;
                positive("radius on B", c.default_radius_on_b)
            }
            Constraint::LineOnLineContact(c) => {
                positive("half length on F", c.half_length_f)?;
                positive("half length on B", c.half_length_b)
            }
            Constraint::PointOnLine(c) if (c.direction.norm().re() - 1.0).abs() > 1e-9 => {
                fail(format!(
                    "line direction must be a unit vector, has length {}",
                    c.direction.norm().re()
                ))
            }
            Constraint::PointInPlane(c) if (c.normal.norm().re() - 1.0).abs() > 1e-9 => {
                fail(format!(
                    "normal must be a unit vector, has length {}",
                    c.normal.norm().re()
                ))
            }
            _ => Ok(()),
        }
    }
}
