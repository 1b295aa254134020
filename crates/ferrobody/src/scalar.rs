//! The scalar type of the numerical core.
//!
//! Everything that computes physics is generic over [`Real`]: `f64` for ordinary simulation and
//! `num_dual` dual numbers (for example [`num_dual::Dual64`]) for exact forward-mode derivatives.
//! Branches compare real parts (num-dual orders its numbers by the real part), so a dual-number
//! run follows the path of the `f64` run and its derivative parts are the derivatives of that
//! path. The real parts equal the `f64` values to round-off, not always bit for bit: num-dual
//! divides by multiplying with the reciprocal. Its tanh (sinh/cosh) and powf are replaced by
//! [`Real::tanh_exact`] and [`Real::powf_exact`], whose values are libm's and whose derivatives
//! stay finite where num-dual's overflow.

use nalgebra::RealField;

/// Simbody's `SignificantReal`, ε^(7/8) (`SimTKcommon/Scalar.h`): the size below which
/// Simbody and OpenSim take a quantity as zero.
pub(crate) const SIGNIFICANT_REAL: f64 = 2.0097183471152322e-14;

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

    /// tanh with the value of `f64::tanh` and exact first derivatives at every argument:
    /// `t + (1 − t²)(x − re x)` with `t = tanh(re x)`. num-dual computes tanh as sinh/cosh,
    /// whose value differs from libm's in the last bits and whose derivative is NaN once cosh
    /// overflows (|x| > 710, a contact far from the ground at a smoothing of 300/m); for `f64`
    /// the second term is exactly zero. Second-order dual types get the first derivative only.
    #[inline(always)]
    fn tanh_exact(self) -> Self {
        let re = self.re();
        let t = Self::c(re.tanh());
        t + (Self::one() - t * t) * (self - Self::c(re))
    }

    /// `self^n` with the value of `f64::powf` and exact first derivatives (num-dual computes
    /// the value as `x^(n−3)·x·x·x`, different in the last bits, and NaN at x = 0). Where the
    /// derivative `n x^(n−1)` is infinite (x = 0, n < 1) the result carries none.
    #[inline(always)]
    fn powf_exact(self, n: f64) -> Self {
        let re = self.re();
        let value = Self::c(re.powf(n));
        let slope = n * re.powf(n - 1.0);
        if slope.is_finite() {
            value + Self::c(slope) * (self - Self::c(re))
        } else {
            value
        }
    }
}

impl<T: RealField + Copy + Send + Sync> Real for T {}

/// Shorthand for `T::c(x)`.
#[inline(always)]
pub fn c<T: Real>(x: f64) -> T {
    T::c(x)
}

/// Whether `T` is plain `f64` (no derivative parts). For the few places that follow Simbody's
/// arithmetic on a condition decided by values — an entry exactly zero at this state — which
/// for dual numbers would drop the derivative of that entry; those take the general path.
#[inline(always)]
pub(crate) fn is_plain_f64<T: Real>() -> bool {
    std::any::TypeId::of::<T>() == std::any::TypeId::of::<f64>()
}
