//! Settings of the rigid-contact time stepper (Simbody `SemiExplicitEulerTimeStepper`
//! setters; defaults and "in use" rules from notes §4.3).

use super::solver::ImpulseSolverKind;
use crate::error::{Error, Result, SettingsError};
use serde::{Deserialize, Serialize};

/// How impacts restore energy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum RestitutionModel {
    /// Expansion impulse = COR × compression impulse (Simbody's default).
    Poisson,
    /// Rebound velocity = −COR × approach velocity.
    Newton,
    /// Perfectly plastic impacts (COR 0).
    None,
}

/// How impacts induced by an impact are handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum InducedImpactModel {
    /// All proximal contacts take part in every impact round (Simbody's default).
    Simultaneous,
    /// Only impacters take part; up to `max_induced_impacts` rounds (may leave penetration).
    Sequential,
    /// Sequential rounds, then one simultaneous round with COR 0 for what remains.
    Mixed,
}

/// How position errors of the contacts are removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PositionProjection {
    /// Least squares on the participating normal rows, pushing or pulling (Simbody's default).
    Bilateral,
    /// As an impulse problem with the normal inequalities and no friction.
    Unilateral,
    /// No projection.
    None,
}

/// Settings of the rigid-contact time stepper; the step size is the integrator's fixed step
/// and the constraint tolerance its constraint tolerance (default 1e-3 for this stepper).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RigidContactSettings {
    /// Restitution model (default Poisson).
    pub restitution: RestitutionModel,
    /// Induced-impact model (default Simultaneous).
    pub induced_impacts: InducedImpactModel,
    /// Rounds of induced impacts per step for Sequential and Mixed (default 5).
    pub max_induced_impacts: usize,
    /// Position projection (default Bilateral).
    pub position_projection: PositionProjection,
    /// Impulse solver (default PLUS).
    pub solver: ImpulseSolverKind,
    /// Default capture speed (m/s); in use: `max(v_c, 2·tol)`.
    pub capture_velocity: f64,
    /// Default minimum-COR speed (m/s); in use: `max(v_min, capture in use)`.
    pub min_cor_velocity: f64,
    /// Default friction transition speed (m/s). The friction coefficients use this raw value
    /// (Simbody's behaviour, notes §4.3); the solver's rolling threshold uses
    /// `max(v_tr, 2·tol)`.
    pub transition_velocity: f64,
}

impl Default for RigidContactSettings {
    fn default() -> Self {
        Self {
            restitution: RestitutionModel::Poisson,
            induced_impacts: InducedImpactModel::Simultaneous,
            max_induced_impacts: 5,
            position_projection: PositionProjection::Bilateral,
            solver: ImpulseSolverKind::Plus,
            capture_velocity: 0.0,
            min_cor_velocity: 0.0,
            transition_velocity: 0.0,
        }
    }
}

impl RigidContactSettings {
    /// The capture speed in use for constraint tolerance `tol`.
    pub fn capture_velocity_in_use(&self, tol: f64) -> f64 {
        self.capture_velocity.max(2.0 * tol)
    }

    /// The minimum-COR speed in use.
    pub fn min_cor_velocity_in_use(&self, tol: f64) -> f64 {
        self.min_cor_velocity.max(self.capture_velocity_in_use(tol))
    }

    /// The transition (maximum rolling) speed in use.
    pub fn transition_velocity_in_use(&self, tol: f64) -> f64 {
        self.transition_velocity.max(2.0 * tol)
    }

    /// Checks every value; names the first bad one.
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("capture_velocity", self.capture_velocity),
            ("min_cor_velocity", self.min_cor_velocity),
            ("transition_velocity", self.transition_velocity),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::Settings(SettingsError::new(
                    "rigid contact",
                    name,
                    format!("must be finite and non-negative, got {v}"),
                )));
            }
        }
        if self.max_induced_impacts == 0 {
            return Err(Error::Model(
                "rigid contact max_induced_impacts must be at least 1".into(),
            ));
        }
        Ok(())
    }
}
