//! The parameters of `ferrobody curves` and the checks every model's curves share.

use anyhow::Result;

/// Parameters of the curves (defaults: the seed's figures).
#[derive(clap::Args, Debug)]
pub struct SmoothCurveArgs {
    /// Stiffness E (Pa).
    #[arg(long, default_value_t = 1e6)]
    pub stiffness: f64,
    /// Dissipation c (s/m).
    #[arg(long, default_value_t = 2.0)]
    pub dissipation: f64,
    /// Sphere radius R (m).
    #[arg(long, default_value_t = 0.8)]
    pub radius: f64,
    /// cf, the constant that keeps the force differentiable at zero.
    #[arg(long, default_value_t = 1e-5)]
    pub cf: f64,
    /// bd, the Hertz smoothing (1/m).
    #[arg(long, default_value_t = 300.0)]
    pub bd: f64,
    /// bv, the Hunt–Crossley smoothing (s/m).
    #[arg(long, default_value_t = 50.0)]
    pub bv: f64,
    /// Penetration of the rate curve (m).
    #[arg(long, default_value_t = 0.1)]
    pub depth: f64,
    /// Static friction coefficient of the friction curve.
    #[arg(long, default_value_t = 0.8)]
    pub static_friction: f64,
    /// Dynamic friction coefficient of the friction curve.
    #[arg(long, default_value_t = 0.5)]
    pub dynamic_friction: f64,
    /// Viscous friction coefficient of the friction curve (s/m).
    #[arg(long, default_value_t = 0.0)]
    pub viscous_friction: f64,
    /// Transition velocity of the friction curve (m/s).
    #[arg(long, default_value_t = 0.01)]
    pub transition_velocity: f64,
    /// exponential-spring only: the shape parameters d0 (m), d1 (N), d2 (1/m) (default:
    /// Simbody's 0.0065905, 0.5336, 1150).
    #[arg(long, num_args = 3, value_names = ["D0", "D1", "D2"])]
    pub shape: Option<Vec<f64>>,
    /// exponential-spring only: the normal viscosity (s/m; default Simbody's 0.5).
    #[arg(long)]
    pub normal_viscosity: Option<f64>,
}

impl SmoothCurveArgs {
    /// The checks every model's curves share: a positive finite radius and rate-curve depth,
    /// and friction parameters as a contact material takes them.
    pub(crate) fn validate_common(&self) -> Result<()> {
        for (name, v) in [("--radius", self.radius), ("--depth", self.depth)] {
            anyhow::ensure!(
                v.is_finite() && v > 0.0,
                "{name} must be positive and finite, got {v}"
            );
        }
        for (name, v) in [
            ("--static-friction", self.static_friction),
            ("--dynamic-friction", self.dynamic_friction),
            ("--viscous-friction", self.viscous_friction),
        ] {
            anyhow::ensure!(
                v.is_finite() && v >= 0.0,
                "{name} must be finite and non-negative, got {v}"
            );
        }
        let vt = self.transition_velocity;
        anyhow::ensure!(
            vt.is_finite() && vt > 0.0,
            "--transition-velocity must be positive and finite, got {vt}"
        );
        Ok(())
    }

    /// Refuses the exponential spring's own options for the other models.
    pub(crate) fn refuse_spring_options(&self, model: &str) -> Result<()> {
        anyhow::ensure!(
            self.shape.is_none() && self.normal_viscosity.is_none(),
            "--shape and --normal-viscosity are exponential-spring options, not {model}'s"
        );
        Ok(())
    }
}
