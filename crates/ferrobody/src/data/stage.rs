//! Computation stages (Simbody's `Stage`, reduced to what the pipeline needs).
//!
//! Order: `Time < Position < Velocity < Dynamics < Acceleration`. Realizing a stage computes
//! every earlier stage first. Changing q invalidates Position and later; changing u
//! invalidates Velocity and later; changing a discrete variable invalidates Dynamics and later.

/// How far a [`Data`](super::Data) has been computed from its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Nothing computed (only t is known).
    Time,
    /// Body poses, hinge matrices, spatial inertias.
    Position,
    /// Body velocities, q̇, Coriolis and gyroscopic terms.
    Velocity,
    /// Applied forces (every force element).
    Dynamics,
    /// Accelerations u̇, ż and body accelerations.
    Acceleration,
}

impl Stage {
    /// Simbody's name of the stage.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Time => "Time",
            Stage::Position => "Position",
            Stage::Velocity => "Velocity",
            Stage::Dynamics => "Dynamics",
            Stage::Acceleration => "Acceleration",
        }
    }
}
