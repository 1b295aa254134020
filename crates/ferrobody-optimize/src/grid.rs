//! Where each variable and constraint of the transcribed problem lives.
//!
//! Variables: `[t_f]` (when free), then for each grid point i the states y_i (ny) and the
//! controls c_i (nc). On a uniform mesh of N intervals over [t₀, t_f] the grid is the N + 1
//! mesh points (trapezoidal) or the mesh points and the N interval midpoints, 2N + 1 points
//! (Hermite–Simpson, Moco's default), at times `t_i = t₀ + (t_f − t₀) i / (points − 1)`.
//! Constraints, per interval: the defects (ny; Hermite–Simpson: ny Hermite, ny Simpson and nc
//! control-midpoint rows), then one row per periodicity pair.

use serde::Deserialize;

/// The transcription of the dynamics (Moco's `transcription_scheme`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Transcription {
    /// `y_{k+1} − y_k − h/2 (f_k + f_{k+1}) = 0`.
    Trapezoidal,
    /// Separated Hermite–Simpson: `y_m − (y_k + y_{k+1})/2 − h/8 (f_k − f_{k+1}) = 0`,
    /// `y_{k+1} − y_k − h/6 (f_k + 4 f_m + f_{k+1}) = 0`, `c_m − (c_k + c_{k+1})/2 = 0`.
    #[default]
    HermiteSimpson,
}

impl Transcription {
    /// Moco's name (`trapezoidal`, `hermite-simpson`).
    pub fn label(&self) -> &'static str {
        match self {
            Transcription::Trapezoidal => "trapezoidal",
            Transcription::HermiteSimpson => "hermite-simpson",
        }
    }
}

/// The layout of the variables and constraints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub ny: usize,
    pub nc: usize,
    pub intervals: usize,
    pub transcription: Transcription,
    pub free_time: bool,
    /// Endpoint constraints after the defects (periodicity pairs).
    pub endpoint_rows: usize,
    /// Path-constraint rows at each mesh point, after the endpoint constraints.
    pub path_rows: usize,
}

impl Layout {
    /// Grid points.
    pub fn points(&self) -> usize {
        match self.transcription {
            Transcription::Trapezoidal => self.intervals + 1,
            Transcription::HermiteSimpson => 2 * self.intervals + 1,
        }
    }

    /// Index of y_i's first entry.
    pub fn y(&self, i: usize) -> usize {
        usize::from(self.free_time) + i * (self.ny + self.nc)
    }

    /// Index of c_i's first entry.
    pub fn c(&self, i: usize) -> usize {
        self.y(i) + self.ny
    }

    /// Number of variables.
    pub fn n_variables(&self) -> usize {
        self.y(self.points())
    }

    /// Constraint rows per interval.
    pub fn rows_per_interval(&self) -> usize {
        match self.transcription {
            Transcription::Trapezoidal => self.ny,
            Transcription::HermiteSimpson => 2 * self.ny + self.nc,
        }
    }

    /// Number of constraints.
    pub fn n_constraints(&self) -> usize {
        self.path_row_start() + self.mesh_points().count() * self.path_rows
    }

    /// The first path-constraint row.
    pub fn path_row_start(&self) -> usize {
        self.intervals * self.rows_per_interval() + self.endpoint_rows
    }

    /// The mesh points (interval ends: Hermite–Simpson's midpoints are not among them).
    pub fn mesh_points(&self) -> impl Iterator<Item = usize> {
        let step = match self.transcription {
            Transcription::Trapezoidal => 1,
            Transcription::HermiteSimpson => 2,
        };
        (0..self.points()).step_by(step)
    }

    /// Grid point i's fraction of the time span.
    pub fn fraction(&self, i: usize) -> f64 {
        i as f64 / (self.points() - 1) as f64
    }

    /// Grid point i's time on the span [t0, tf] (s).
    pub fn time(&self, t0: f64, tf: f64, i: usize) -> f64 {
        t0 + (tf - t0) * self.fraction(i)
    }

    /// The quadrature weights ω_i of the grid points (the integral is `h Σ ω_i L_i`):
    /// Simpson's rule or the trapezoidal rule per interval.
    pub fn quadrature(&self) -> Vec<f64> {
        let mut omega = vec![0.0; self.points()];
        for k in 0..self.intervals {
            match self.transcription {
                Transcription::Trapezoidal => {
                    omega[k] += 0.5;
                    omega[k + 1] += 0.5;
                }
                Transcription::HermiteSimpson => {
                    omega[2 * k] += 1.0 / 6.0;
                    omega[2 * k + 1] += 4.0 / 6.0;
                    omega[2 * k + 2] += 1.0 / 6.0;
                }
            }
        }
        omega
    }
}
