//! Conversion of unilateral contacts to another scalar type (through `f64`).

use super::{Underlying, UnilateralContact};
use crate::scalar::Real;

impl<T: Real> UnilateralContact<T> {
    /// The same contact with scalar type `U` (derivative parts dropped).
    pub fn cast<U: Real>(&self) -> UnilateralContact<U> {
        let underlying = match &self.underlying {
            Underlying::Coordinate {
                body,
                coordinate,
                limit,
            } => Underlying::Coordinate {
                body: *body,
                coordinate: *coordinate,
                limit: U::c(limit.re()),
            },
            Underlying::Constraint(c) => Underlying::Constraint(c.cast()),
        };
        UnilateralContact {
            kind: self.kind,
            underlying,
            min_cor: self.min_cor,
            friction: self.friction,
        }
    }
}
