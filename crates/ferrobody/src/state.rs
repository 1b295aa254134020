//! `State`: the only thing an integrator advances and a user saves or restores.
//!
//! It holds the time t, generalized coordinates q, generalized speeds u, continuous auxiliary
//! variables z, discrete variables (changed only between steps) and auto-update discrete
//! variables with the time each was last updated (Simbody's `State`, notes §1.9).

use crate::data::Data;
use crate::ids::{AutoUpdateVarId, DiscreteVarId};
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::DVector;

/// The complete state of a simulation (serialized with its hidden variables: discrete,
/// auto-update values and their times).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct State<T: Real = f64> {
    /// Time (s).
    pub t: f64,
    /// Generalized coordinates (nq).
    pub q: DVector<T>,
    /// Generalized speeds (nu).
    pub u: DVector<T>,
    /// Continuous auxiliary variables (nz).
    pub z: DVector<T>,
    discrete: Vec<T>,
    auto_update: Vec<T>,
    auto_update_time: Vec<f64>,
}

impl<T: Real> State<T> {
    /// The model's default state at t = 0.
    pub fn new(model: &Tree<T>) -> Self {
        Self {
            t: 0.0,
            q: DVector::from_column_slice(&model.default_q),
            u: DVector::zeros(model.nu),
            z: DVector::from_column_slice(&model.default_z),
            discrete: model.discrete.defaults.clone(),
            auto_update: model.auto_update.defaults.clone(),
            auto_update_time: vec![0.0; model.auto_update.len()],
        }
    }

    /// The q of one body's mobilizer.
    pub fn body_q<'a>(&'a self, model: &Tree<T>, body: crate::BodyId) -> &'a [T] {
        &self.q.as_slice()[model.body(body).q_range()]
    }

    /// The u of one body's mobilizer.
    pub fn body_u<'a>(&'a self, model: &Tree<T>, body: crate::BodyId) -> &'a [T] {
        &self.u.as_slice()[model.body(body).u_range()]
    }

    /// Sets the q of one body's mobilizer.
    pub fn set_body_q(&mut self, model: &Tree<T>, body: crate::BodyId, q: &[T]) {
        self.q.as_mut_slice()[model.body(body).q_range()].copy_from_slice(q);
    }

    /// Sets the u of one body's mobilizer.
    pub fn set_body_u(&mut self, model: &Tree<T>, body: crate::BodyId, u: &[T]) {
        self.u.as_mut_slice()[model.body(body).u_range()].copy_from_slice(u);
    }

    /// A state from all its parts (the inverse of reading `t`, `q`, `u`, `z` and
    /// [`Self::hidden_variables`]); simulating checks it against the model.
    pub fn from_parts(
        t: f64,
        [q, u, z]: [Vec<T>; 3],
        discrete: Vec<T>,
        auto_update: Vec<T>,
        auto_update_time: Vec<f64>,
    ) -> Self {
        Self {
            t,
            q: DVector::from_vec(q),
            u: DVector::from_vec(u),
            z: DVector::from_vec(z),
            discrete,
            auto_update,
            auto_update_time,
        }
    }

    /// The discrete variables, the auto-update variables and their update times, flat: what
    /// a state holds besides t, q, u and z (for saving and restoring a state whole).
    pub fn hidden_variables(&self) -> (&[T], &[T], &[f64]) {
        (&self.discrete, &self.auto_update, &self.auto_update_time)
    }

    /// Restores what [`Self::hidden_variables`] returned; the lengths must be this state's.
    pub fn set_hidden_variables(
        &mut self,
        discrete: &[T],
        auto_update: &[T],
        auto_update_time: &[f64],
    ) -> crate::Result<()> {
        let lengths = (discrete.len(), auto_update.len(), auto_update_time.len());
        let own = (
            self.discrete.len(),
            self.auto_update.len(),
            self.auto_update_time.len(),
        );
        if lengths != own {
            return Err(crate::Error::model(format!(
                "state: hidden variables of lengths {lengths:?} do not fit this model's {own:?}"
            )));
        }
        self.discrete.copy_from_slice(discrete);
        self.auto_update.copy_from_slice(auto_update);
        self.auto_update_time.copy_from_slice(auto_update_time);
        Ok(())
    }

    /// Value of a discrete variable.
    pub fn discrete<'a>(&'a self, model: &Tree<T>, id: DiscreteVarId) -> &'a [T] {
        &self.discrete[model.discrete.range(id.0)]
    }

    /// Changes a discrete variable (takes effect from the next evaluation).
    pub fn set_discrete(&mut self, model: &Tree<T>, id: DiscreteVarId, value: &[T]) {
        self.discrete[model.discrete.range(id.0)].copy_from_slice(value);
    }

    /// Mutable view of a discrete variable (takes effect from the next evaluation).
    pub fn discrete_mut<'a>(&'a mut self, model: &Tree<T>, id: DiscreteVarId) -> &'a mut [T] {
        &mut self.discrete[model.discrete.range(id.0)]
    }

    /// Value of an auto-update discrete variable held in the state.
    pub fn auto_update<'a>(&'a self, model: &Tree<T>, id: AutoUpdateVarId) -> &'a [T] {
        &self.auto_update[model.auto_update.range(id.0)]
    }

    /// Sets an auto-update variable in the state and marks it updated at the current time.
    pub fn set_auto_update(&mut self, model: &Tree<T>, id: AutoUpdateVarId, value: &[T]) {
        self.auto_update[model.auto_update.range(id.0)].copy_from_slice(value);
        self.auto_update_time[id.0] = self.t;
    }

    /// The time at which an auto-update variable last received a new value.
    pub fn auto_update_time(&self, id: AutoUpdateVarId) -> f64 {
        self.auto_update_time[id.0]
    }

    /// Swaps every valid auto-update cache entry of `data` into this state, records the current
    /// time as its update time and invalidates the entry (Simbody
    /// `State::autoUpdateDiscreteVariables`). No stage is invalidated.
    pub fn swap_auto_updates(&mut self, model: &Tree<T>, data: &mut Data<T>) {
        for (i, valid) in data.auto_update_valid.iter_mut().enumerate() {
            if *valid {
                let r = model.auto_update.range(i);
                self.auto_update[r.clone()].copy_from_slice(&data.auto_update_cache[r]);
                self.auto_update_time[i] = self.t;
                *valid = false;
            }
        }
    }

    /// All scalars that the continuous integrator advances, flattened: `[q, u, z]`.
    pub fn ny(&self) -> usize {
        self.q.len() + self.u.len() + self.z.len()
    }

    /// Copies `[q, u, z]` into `y` (length `ny`).
    pub fn copy_y_to(&self, y: &mut [T]) {
        let (nq, nu) = (self.q.len(), self.u.len());
        copy_small(&mut y[..nq], self.q.as_slice());
        copy_small(&mut y[nq..nq + nu], self.u.as_slice());
        copy_small(&mut y[nq + nu..], self.z.as_slice());
    }

    /// Sets `[q, u, z]` from `y` (length `ny`).
    pub fn set_y(&mut self, y: &[T]) {
        let (nq, nu) = (self.q.len(), self.u.len());
        copy_small(self.q.as_mut_slice(), &y[..nq]);
        copy_small(self.u.as_mut_slice(), &y[nq..nq + nu]);
        copy_small(self.z.as_mut_slice(), &y[nq + nu..]);
    }

    /// Whether every continuous variable is finite.
    pub fn is_finite(&self) -> bool {
        self.q
            .iter()
            .chain(self.u.iter())
            .chain(self.z.iter())
            .all(|x| x.re().is_finite())
    }

    /// Overwrites every value with `src`'s, converted through `f64` (derivative parts zero),
    /// without allocating; `src` must be a state of the same model.
    pub fn assign_from<U: Real>(&mut self, src: &State<U>) {
        fn copy<T: Real, U: Real>(dst: &mut [T], src: &[U]) {
            assert_eq!(dst.len(), src.len(), "a state of another model");
            for (d, s) in dst.iter_mut().zip(src) {
                *d = T::c(s.re());
            }
        }
        self.t = src.t;
        copy(self.q.as_mut_slice(), src.q.as_slice());
        copy(self.u.as_mut_slice(), src.u.as_slice());
        copy(self.z.as_mut_slice(), src.z.as_slice());
        copy(&mut self.discrete, &src.discrete);
        copy(&mut self.auto_update, &src.auto_update);
        self.auto_update_time.copy_from_slice(&src.auto_update_time);
    }

    /// Converts to another scalar type through `f64` (derivative parts dropped).
    pub fn cast<U: Real>(&self) -> State<U> {
        let conv = |v: &DVector<T>| v.map(|x| U::c(x.re()));
        State {
            t: self.t,
            q: conv(&self.q),
            u: conv(&self.u),
            z: conv(&self.z),
            discrete: self.discrete.iter().map(|x| U::c(x.re())).collect(),
            auto_update: self.auto_update.iter().map(|x| U::c(x.re())).collect(),
            auto_update_time: self.auto_update_time.clone(),
        }
    }
}

/// Copies `src` into `dst` (same length) in blocks of four and a tail of at most three: the
/// step loop copies short vectors many times, and `copy_from_slice` (or a plain loop, which
/// the compiler turns into one) would call `memcpy` for each.
#[inline(always)]
pub(crate) fn copy_small<T: Copy>(dst: &mut [T], src: &[T]) {
    debug_assert_eq!(dst.len(), src.len());
    let mut d = dst.chunks_exact_mut(4);
    let mut s = src.chunks_exact(4);
    for (d4, s4) in (&mut d).zip(&mut s) {
        d4.copy_from_slice(s4);
    }
    match (d.into_remainder(), s.remainder()) {
        ([d0], [s0]) => *d0 = *s0,
        ([d0, d1], [s0, s1]) => (*d0, *d1) = (*s0, *s1),
        ([d0, d1, d2], [s0, s1, s2]) => (*d0, *d1, *d2) = (*s0, *s1, *s2),
        _ => {}
    }
}
