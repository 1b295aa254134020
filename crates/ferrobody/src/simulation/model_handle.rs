//! How a [`Simulation`](super::Simulation) holds its model: borrowed for the run of a
//! program that keeps the model itself, or shared through an [`Arc`] so that the simulation
//! owns what it runs (a binding, a thread or a struct that keeps simulations needs no
//! self-referential cell). Both read as `&Model` through `Deref`.

use crate::model::Model;
use crate::scalar::Real;
use std::ops::Deref;
use std::sync::Arc;

/// A model a simulation borrows (`&'m Model`) or shares (`Arc<Model>`, any lifetime).
#[derive(Clone)]
pub enum ModelHandle<'m, T: Real = f64> {
    /// Borrowed from the caller, who keeps it alive for `'m`.
    Borrowed(&'m Model<T>),
    /// Shared: the simulation keeps its model alive.
    Shared(Arc<Model<T>>),
}

impl<T: Real> Deref for ModelHandle<'_, T> {
    type Target = Model<T>;

    #[inline(always)]
    fn deref(&self) -> &Model<T> {
        match self {
            Self::Borrowed(m) => m,
            Self::Shared(m) => m,
        }
    }
}

impl<'m, T: Real> From<&'m Model<T>> for ModelHandle<'m, T> {
    fn from(model: &'m Model<T>) -> Self {
        Self::Borrowed(model)
    }
}

impl<T: Real> From<Arc<Model<T>>> for ModelHandle<'_, T> {
    fn from(model: Arc<Model<T>>) -> Self {
        Self::Shared(model)
    }
}
