//! Rigid unilateral contact (seed `UnilateralContact`; notes §4): contacts, joint stops and
//! ropes that may push but never pull, with impacts, Coulomb friction and a time stepper.
//!
//! A unilateral contact has one holonomic "normal" row (usually a signed distance) and, for
//! contacts with friction, two no-slip rows. Sign convention (seed): with `sign = +1`
//!
//! ```text
//! sign·perr ≥ 0 (always),   sign·verr ≥ 0 (if perr = 0),   sign·aerr ≥ 0, −sign·λ ≥ 0, aerr·λ = 0
//! ```
//!
//! so a pushing contact has a negative multiplier (Simbody: the applied force is `−Gᵀλ`).
//! HardStopUpper and Rope use `sign = −1` (their perr is `q − q_max` and `|p₂ − p₁| − L`).
//!
//! Restitution and friction (notes §4.1; Simbody `ConditionalConstraint::calcEffectiveCOR`,
//! `calcEffectiveCOF`), impact speed `v ≥ 0`, slip speed `s ≥ 0`:
//!
//! ```text
//! e(v) = 0 for v ≤ v_c;   e_min for v ≥ v_min;   1 − (1 − e_min) v / v_min otherwise
//! μ(s) = μv·s + (μs if s ≤ v_tr else μd)
//! ```
//!
//! Each contact wraps a bilateral constraint of [`crate::constraints`] (hard stops use a
//! coordinate row) whose rows the time stepper ([`crate::integrators::rigid_contact`]) switches on while the contact is
//! proximal. Unlike Simbody 3.7 (notes §4.2, §9.7) the plane height of PointPlaneContact and
//! SpherePlaneContact is honoured by the constraint, not only by the proximity test.
//! Model and stepper: `docs/models/unilateral-contact.md`.

mod builders;
mod cast;
pub mod lsq;
pub mod pgs;
pub mod plus;
pub mod settings;
pub mod solver;

pub use settings::{
    InducedImpactModel, PositionProjection, RestitutionModel, RigidContactSettings,
};
pub use solver::ImpulseSolverKind;

use crate::constraints::Constraint;
use crate::ids::BodyId;
use crate::scalar::Real;
use crate::tree::Tree;

/// Index of a unilateral contact in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnilateralContactId(pub usize);

/// Which of Simbody's unilateral contact classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnilateralKind {
    /// Upper limit on one coordinate (`sign = −1`).
    HardStopUpper,
    /// Lower limit on one coordinate (`sign = +1`).
    HardStopLower,
    /// Inextensible rope between two stations (`sign = −1`).
    Rope,
    /// Point on a plane, no friction.
    PointPlaneFrictionless,
    /// Point on a plane with Coulomb friction.
    PointPlane,
    /// Sphere on a plane with Coulomb friction.
    SpherePlane,
    /// Sphere on a sphere with Coulomb friction.
    SphereSphere,
    /// Edge on edge with Coulomb friction.
    EdgeEdge,
}

impl UnilateralKind {
    /// Simbody's class name.
    pub fn name(self) -> &'static str {
        match self {
            UnilateralKind::HardStopUpper => "HardStopUpper",
            UnilateralKind::HardStopLower => "HardStopLower",
            UnilateralKind::Rope => "Rope",
            UnilateralKind::PointPlaneFrictionless => "PointPlaneFrictionlessContact",
            UnilateralKind::PointPlane => "PointPlaneContact",
            UnilateralKind::SpherePlane => "SpherePlaneContact",
            UnilateralKind::SphereSphere => "SphereSphereContact",
            UnilateralKind::EdgeEdge => "EdgeEdgeContact",
        }
    }

    /// The sign convention (`getSignConvention`).
    pub fn sign(self) -> f64 {
        match self {
            UnilateralKind::HardStopUpper | UnilateralKind::Rope => -1.0,
            _ => 1.0,
        }
    }
}

/// Coulomb friction coefficients of a contact (static, dynamic, viscous).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionCoefficients {
    /// μs, used while the slip speed is at most the transition speed.
    pub static_coefficient: f64,
    /// μd, used above the transition speed (μd ≤ μs).
    pub dynamic_coefficient: f64,
    /// μv (s/m), times the slip speed, added to either.
    pub viscous_coefficient: f64,
}

impl FrictionCoefficients {
    /// Coefficients μs, μd, μv.
    pub fn new(mu_s: f64, mu_d: f64, mu_v: f64) -> Self {
        Self {
            static_coefficient: mu_s,
            dynamic_coefficient: mu_d,
            viscous_coefficient: mu_v,
        }
    }
}

/// What a contact's normal row constrains.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Underlying<T: Real = f64> {
    /// One generalized coordinate against a limit (`perr = q − limit`, `verr = u`).
    Coordinate {
        /// The mobilized body.
        body: BodyId,
        /// The coordinate within its mobilizer (where q̇ = u).
        coordinate: usize,
        /// The limit value.
        limit: T,
    },
    /// A bilateral constraint whose first row is the normal row and whose no-slip rows (if
    /// any) are the friction rows.
    Constraint(Constraint<T>),
}

/// One unilateral contact (seed `UnilateralContact` and its eight subclasses).
#[derive(Clone, Debug, PartialEq)]
pub struct UnilateralContact<T: Real = f64> {
    /// The class.
    pub kind: UnilateralKind,
    /// The constraint it switches on.
    pub underlying: Underlying<T>,
    /// Minimum coefficient of restitution e_min, reached at the minimum-COR speed.
    pub min_cor: f64,
    /// Friction coefficients (contacts with friction rows only).
    pub friction: Option<FrictionCoefficients>,
}

impl<T: Real> UnilateralContact<T> {
    /// The sign convention (`getSignConvention`).
    pub fn sign(&self) -> f64 {
        self.kind.sign()
    }

    /// Whether the contact has friction rows (`hasFriction`).
    pub fn has_friction(&self) -> bool {
        self.friction.is_some()
    }

    /// Rows it adds when enabled: the normal row, then two friction rows if it has friction.
    pub fn row_count(&self) -> usize {
        if self.has_friction() {
            3
        } else {
            1
        }
    }

    /// The two bodies it touches (for a hard stop: the mobilized body and its parent).
    pub fn bodies(&self, model: &Tree<T>) -> [BodyId; 2] {
        match &self.underlying {
            Underlying::Coordinate { body, .. } => [model.body(*body).parent, *body],
            Underlying::Constraint(c) => c.bodies(),
        }
    }

    /// Effective coefficient of restitution at impact speed `v` with the given capture and
    /// minimum-COR speeds (`calcEffectiveCOR`).
    pub fn effective_cor(&self, capture_speed: f64, min_cor_speed: f64, v: f64) -> f64 {
        effective_cor(self.min_cor, capture_speed, min_cor_speed, v)
    }

    /// Effective friction coefficient at slip speed `s` (`calcEffectiveCOF`); zero without
    /// friction.
    pub fn effective_cof(&self, transition_speed: f64, s: f64) -> f64 {
        self.friction
            .map_or(0.0, |f| effective_cof(&f, transition_speed, s))
    }
}

/// Simbody `ConditionalConstraint::calcEffectiveCOR(e_min, v_c, v_min, v)`: zero up to the
/// capture speed `v_c`, `e_min` from `v_min` on, linear from 1 at rest to `e_min` at `v_min`
/// in between (discontinuous at `v_c`, as in Simbody).
pub fn effective_cor(e_min: f64, capture_speed: f64, min_cor_speed: f64, v: f64) -> f64 {
    if v <= capture_speed {
        0.0
    } else if v >= min_cor_speed {
        e_min
    } else {
        1.0 - (1.0 - e_min) / min_cor_speed * v
    }
}

/// Simbody `ConditionalConstraint::calcEffectiveCOF`: `μv·s + (s ≤ v_tr ? μs : μd)`.
pub fn effective_cof(f: &FrictionCoefficients, transition_speed: f64, s: f64) -> f64 {
    let base = if s <= transition_speed {
        f.static_coefficient
    } else {
        f.dynamic_coefficient
    };
    f.viscous_coefficient * s + base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effective_cor_matches_the_simbody_probe() {
        // notes §4.1: COR(0.5, 0.01, 0.1, ·) at 0.01, 0.0100001, 0.05, 0.1.
        let e = |v| effective_cor(0.5, 0.01, 0.1, v);
        assert_eq!(e(0.01), 0.0);
        assert!((e(0.0100001) - 0.949_999_5).abs() < 1e-9);
        assert!((e(0.05) - 0.75).abs() < 1e-15);
        assert_eq!(e(0.1), 0.5);
        assert_eq!(e(3.0), 0.5);
    }

    #[test]
    fn effective_cof_steps_from_static_to_dynamic() {
        let f = FrictionCoefficients::new(0.8, 0.5, 0.1);
        assert_eq!(effective_cof(&f, 0.0, 0.0), 0.8);
        assert!((effective_cof(&f, 0.0, 1e-9) - (0.5 + 1e-10)).abs() < 1e-15);
        assert!((effective_cof(&f, 0.1, 0.05) - 0.805).abs() < 1e-15);
    }
}
