//! Integrators with Simbody's semantics.
//!
//! * [`IntegratorKind::RungeKuttaMerson`]: 4th-order, 5 stages, error-controlled exactly as
//!   Simbody's `RungeKuttaMersonIntegrator` (tableau in [`rk_merson`], step-size rules in
//!   [`step_control`], error norm in [`error_norm`], quaternion projection in [`crate::math::q_projection`]).
//! * [`IntegratorKind::RungeKutta2`], [`IntegratorKind::RungeKutta3`] and
//!   [`IntegratorKind::RungeKuttaFeldberg`]: Simbody's other error-controlled explicit methods
//!   ([`rk2`], [`rk3`], [`rk_feldberg`]), with the same step control and error order 2, 3, 4.
//! * [`IntegratorKind::ExplicitEuler`], [`IntegratorKind::SemiExplicitEuler2`] and
//!   [`IntegratorKind::Verlet`]: Simbody's error-controlled low-order methods
//!   ([`explicit_euler`], [`semi_explicit_euler2`], [`verlet`]; q̇ and q̈ maps in
//!   [`kinematic_map`]).
//! * [`IntegratorKind::Implicit`]: TR-BDF2 with an exact Jacobian for stiff systems
//!   ([`tr_bdf2`]).
//! * [`IntegratorKind::RungeKutta4`] and [`IntegratorKind::ExplicitEulerFixed`]: fixed step, no
//!   error control; quaternions are normalized after every step.
//!
//! Report states between steps come from cubic Hermite interpolation ([`hermite`]), so reporting
//! never changes the step sequence. The exact sequence of a step (derivative at the start,
//! auto-update swap, attempts) is in [`crate::simulation`]. Details and sources:
//! `docs/integrators.md`.

pub mod error_norm;
pub mod explicit_euler;
pub mod hermite;
pub mod kinematic_map;
pub mod newton_matrix;
pub mod rigid_contact;
pub mod rk2;
pub mod rk3;
pub mod rk4;
pub mod rk_feldberg;
pub mod rk_merson;
pub mod semi_explicit_euler2;
pub mod step_control;
pub mod tr_bdf2;
pub mod verlet;

use crate::error::{Error, Result, SettingsError};
use serde::{Deserialize, Serialize};

/// Which integration method. Serialized as its name ([`IntegratorKind::NAMES`], the one
/// place the names are spelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IntegratorKind {
    /// Runge–Kutta–Merson, variable step with error control (Simbody's default choice).
    RungeKuttaMerson,
    /// Simbody's `RungeKutta2Integrator`: Heun's method, error-controlled (error order 2).
    RungeKutta2,
    /// Simbody's `RungeKutta3Integrator`: Kutta's third-order method, error-controlled.
    RungeKutta3,
    /// Simbody's `RungeKuttaFeldbergIntegrator`: Fehlberg 4(5), error-controlled.
    RungeKuttaFeldberg,
    /// Classical fixed-step 4th-order Runge–Kutta.
    RungeKutta4,
    /// Simbody's `ExplicitEulerIntegrator`: forward Euler, error-controlled against the
    /// trapezoidal rule (error order 2).
    ExplicitEuler,
    /// Simbody's `SemiExplicitEuler2Integrator`: semi-explicit Euler with a half-step error
    /// estimate (error order 2).
    SemiExplicitEuler2,
    /// Simbody's `VerletIntegrator`: Taylor step in q, trapezoidal rule in u (error order 3).
    Verlet,
    /// Implicit, L-stable TR-BDF2 with an exact Jacobian, error-controlled: for stiff contact
    /// ([`tr_bdf2`]).
    Implicit,
    /// Fixed-step explicit (forward) Euler, no error control.
    ExplicitEulerFixed,
    /// Fixed-step semi-explicit Euler with rigid unilateral contact: impacts, Coulomb friction
    /// and position projection (Simbody's `SemiExplicitEulerTimeStepper`,
    /// [`crate::integrators::rigid_contact`]).
    SemiExplicitEuler,
}

impl IntegratorKind {
    /// Every kind, in declaration order.
    pub const ALL: [IntegratorKind; 11] = [
        IntegratorKind::RungeKuttaMerson,
        IntegratorKind::RungeKutta2,
        IntegratorKind::RungeKutta3,
        IntegratorKind::RungeKuttaFeldberg,
        IntegratorKind::RungeKutta4,
        IntegratorKind::ExplicitEuler,
        IntegratorKind::SemiExplicitEuler2,
        IntegratorKind::Verlet,
        IntegratorKind::Implicit,
        IntegratorKind::ExplicitEulerFixed,
        IntegratorKind::SemiExplicitEuler,
    ];

    /// The kind with this scene-file name (`rk-merson`, `rk4`, ...).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The names used in scene files, on the command line, in Python and in summaries, in
    /// the order of [`IntegratorKind::ALL`].
    pub const NAMES: [&'static str; 11] = [
        "rk-merson",
        "rk2",
        "rk3",
        "rk-feldberg",
        "rk4",
        "explicit-euler",
        "semi-explicit-euler2",
        "verlet",
        "implicit",
        "explicit-euler-fixed",
        "semi-explicit-euler",
    ];

    /// The name used in scene files and summaries.
    pub fn name(self) -> &'static str {
        // ALL lists the kinds in declaration order, so the discriminant indexes NAMES.
        Self::NAMES[self as usize]
    }
}

impl Serialize for IntegratorKind {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for IntegratorKind {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Self::from_name(&name).ok_or_else(|| serde::de::Error::unknown_variant(&name, &Self::NAMES))
    }
}

impl IntegratorKind {
    /// Whether the method controls its error (variable step, `accuracy`) as Simbody's
    /// `AbstractIntegratorRep` does, rather than taking fixed steps.
    pub fn is_error_controlled(self) -> bool {
        matches!(
            self,
            IntegratorKind::RungeKuttaMerson
                | IntegratorKind::RungeKutta2
                | IntegratorKind::RungeKutta3
                | IntegratorKind::RungeKuttaFeldberg
                | IntegratorKind::ExplicitEuler
                | IntegratorKind::SemiExplicitEuler2
                | IntegratorKind::Verlet
                | IntegratorKind::Implicit
        )
    }
}

/// Smallest step size (s) a setting may ask for.
pub const MIN_STEP_SIZE: f64 = 1e-12;

/// Integrator settings (Simbody's `Integrator` setters).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct IntegratorSettings {
    /// The method.
    pub kind: IntegratorKind,
    /// Relative accuracy for error control (Simbody default 1e-3).
    pub accuracy: f64,
    /// Constraint tolerance; `None` means accuracy/10 (Simbody's rule).
    pub constraint_tolerance: Option<f64>,
    /// First step size (s); `None` means the default time scale / 10 = 0.01 s.
    pub initial_step: Option<f64>,
    /// Smallest step size (s); a step this small is accepted whatever its error (Simbody).
    pub min_step: Option<f64>,
    /// Largest step size (s).
    pub max_step: Option<f64>,
    /// Step size of the fixed-step methods (s).
    pub fixed_step: f64,
    /// Settings of the rigid-contact stepper (kind `SemiExplicitEuler`).
    pub rigid_contact: crate::unilateral::RigidContactSettings,
    /// The most accepted steps one simulation may take (Simbody's internal step limit, MuJoCo's
    /// warnings): a run that reaches it stops with an error saying so.
    pub max_steps: u64,
}

/// Default step limit: far beyond any sensible run (1e8 steps take minutes), short of forever.
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;

impl IntegratorSettings {
    /// Runge–Kutta–Merson with the given accuracy and Simbody's other defaults.
    pub fn rk_merson(accuracy: f64) -> Self {
        Self {
            kind: IntegratorKind::RungeKuttaMerson,
            accuracy,
            constraint_tolerance: None,
            initial_step: None,
            min_step: None,
            max_step: None,
            fixed_step: 1e-3,
            rigid_contact: crate::unilateral::RigidContactSettings::default(),
            max_steps: DEFAULT_MAX_STEPS,
        }
    }

    /// The rigid-contact time stepper with step `h` (s) and Simbody's defaults (constraint
    /// tolerance 1e-3, Poisson restitution, simultaneous impacts, PLUS solver).
    pub fn semi_explicit_euler(h: f64) -> Self {
        Self::fixed(IntegratorKind::SemiExplicitEuler, h)
    }

    /// A fixed-step method with step `h` (s).
    pub fn fixed(kind: IntegratorKind, h: f64) -> Self {
        Self {
            kind,
            fixed_step: h,
            ..Self::rk_merson(1e-3)
        }
    }

    /// The constraint tolerance in use: accuracy/10 unless set, and 1e-3 for the rigid-contact
    /// stepper (Simbody's `SemiExplicitEulerTimeStepper` default, notes §4.3).
    pub fn consistent_constraint_tolerance(&self) -> f64 {
        let default = if self.kind == IntegratorKind::SemiExplicitEuler {
            1e-3
        } else {
            self.accuracy / 10.0
        };
        self.constraint_tolerance.unwrap_or(default)
    }

    /// Checks every value; names the first bad one.
    pub fn validate(&self) -> Result<()> {
        let positive = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(Error::Settings(SettingsError::new(
                    "integrator",
                    name,
                    format!("must be positive and finite, got {v}"),
                )))
            }
        };
        positive("accuracy", self.accuracy)?;
        if self.accuracy > 1.0 {
            // A relative accuracy above 1 accepts errors larger than the values themselves.
            return Err(Error::Settings(SettingsError::new(
                "integrator",
                "accuracy",
                format!(
                    "must be at most 1 (a relative error), got {}",
                    self.accuracy
                ),
            )));
        }
        positive("fixed_step", self.fixed_step)?;
        // A step below this cannot advance a time of order 1 s by a representable amount in a
        // useful number of steps (1e-320 s would need 1e318 steps for 0.05 s).
        let at_least = |name: &str, v: f64| {
            if v < MIN_STEP_SIZE {
                Err(Error::Settings(SettingsError::new(
                    "integrator",
                    name,
                    format!("must be at least {MIN_STEP_SIZE:e} s, got {v:e}"),
                )))
            } else {
                Ok(())
            }
        };
        at_least("fixed_step", self.fixed_step)?;
        if self.max_steps == 0 {
            return Err(Error::Model(
                "integrator max_steps must be at least 1".into(),
            ));
        }
        self.rigid_contact.validate()?;
        for (name, v) in [
            ("constraint_tolerance", self.constraint_tolerance),
            ("initial_step", self.initial_step),
            ("min_step", self.min_step),
            ("max_step", self.max_step),
        ] {
            if let Some(v) = v {
                positive(name, v)?;
                if name != "constraint_tolerance" {
                    at_least(name, v)?;
                }
            }
        }
        if let (Some(lo), Some(hi)) = (self.min_step, self.max_step) {
            if lo > hi {
                return Err(Error::Settings(SettingsError::new(
                    "integrator",
                    "min_step",
                    format!("{lo} exceeds max_step {hi}"),
                )));
            }
        }
        Ok(())
    }
}

/// Counters of one simulation (Simbody's integrator statistics). Serialized with the names
/// the command line's summary.json and Python use (`steps_failed` for the rejected attempts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Accepted steps.
    pub steps_taken: u64,
    /// All attempts, accepted and rejected.
    pub steps_attempted: u64,
    /// Rejected attempts (error test or projection failures).
    #[serde(rename = "steps_failed")]
    pub error_test_failures: u64,
    /// Evaluations of the state derivative (force realizations).
    pub realizations: u64,
    /// Jacobians `∂ẏ/∂y` the implicit method computed (each ⌈ny / 8⌉ dual-number passes of
    /// the state derivative); 0 for the other methods.
    pub jacobians: u64,
    /// Newton matrices `(I − d h J)⁻¹` the implicit method formed; 0 for the other methods.
    pub newton_matrices: u64,
}

#[cfg(test)]
mod kind_name_tests {
    use super::IntegratorKind;

    #[test]
    fn every_kind_has_its_own_name_and_reads_back() {
        for (i, kind) in IntegratorKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, i, "ALL is in declaration order");
            assert_eq!(IntegratorKind::from_name(kind.name()), Some(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<IntegratorKind>(&json).unwrap(), kind);
        }
        let mut names = IntegratorKind::NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), IntegratorKind::ALL.len(), "no name twice");
    }

    #[test]
    fn an_unknown_name_is_serdes_unknown_variant_error() {
        let e = serde_json::from_str::<IntegratorKind>("\"rk9\"").unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown variant `rk9`, expected one of `rk-merson`"),
            "{e}"
        );
    }
}
