//! The scalar type of the numerical core.
//!
//! Everything that computes physics is generic over [`Real`]: `f64` for ordinary simulation and
//! `num_dual` dual numbers (for example [`num_dual::Dual64`]) for exact forward-mode derivatives.
//! Branches compare real parts (num-dual orders its numbers by the real part), so a dual-number
//! run follows exactly the path of the `f64` run and its derivative parts are the derivatives of
//! that path.

use nalgebra::RealField;

/// The scalar trait of the numerical core: nalgebra's `RealField`, `Copy`, and thread-safe.
///
/// Implemented for every type that satisfies the bounds (`f64`, `f32`, `num_dual::Dual64`,
/// `num_dual::DualSVec64<N>`, ...).
pub trait Real: RealField + Copy + Send + Sync {
    /// A constant of this scalar type from an `f64` (derivative parts zero).
    #[inline(always)]
    fn c(x: f64) -> Self {
        nalgebra::convert(x)
    }

    /// The real part as `f64` (for dual numbers: the value, without derivatives).
    #[inline(always)]
    fn re(self) -> f64 {
        nalgebra::convert_unchecked::<Self, f64>(self)
    }
}

impl<T: RealField + Copy + Send + Sync> Real for T {}

/// Shorthand for `T::c(x)`.
#[inline(always)]
pub fn c<T: Real>(x: f64) -> T {
    T::c(x)
}
