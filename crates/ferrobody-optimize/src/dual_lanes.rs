//! Forward-mode dual numbers with `LANES` derivative lanes, seeded a block of variables at a
//! time: variable k in lane k − first when first ≤ k < first + LANES (the centre of mass, the
//! contact forces and the path constraints differentiate the model this way).

use ferrobody::nalgebra::{Const, SVector, U1};
use num_dual::{Derivative, DualSVec64};

/// Derivative lanes per pass.
pub(crate) const LANES: usize = 8;
/// The dual scalar.
pub(crate) type D = DualSVec64<LANES>;

/// Variable k with value x: seeded in its lane when in the block from `first`, else constant.
pub(crate) fn seeded(x: f64, k: usize, first: usize) -> D {
    if (first..first + LANES).contains(&k) {
        D::new(
            x,
            Derivative::derivative_generic(Const::<LANES>, U1, k - first),
        )
    } else {
        D::from_re(x)
    }
}

/// The derivative lanes of `d` (zeros when it carries none).
pub(crate) fn lanes(d: &D) -> SVector<f64, LANES> {
    d.eps.0.unwrap_or_else(SVector::zeros)
}
