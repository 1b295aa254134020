//! The impact phase of a rigid-contact step (Simbody
//! `SemiExplicitEulerTimeStepper::doImpactPhase`, notes §4.4 step 5).
//!
//! A proximal contact is an **impacter** when its normal velocity error is below
//! `−0.1·tol` (approaching), else an observer. Its COR comes from the pre-impact approach
//! speed: 0 if separating or slower than `tol`, else `e(v)` of the contact. Simultaneous
//! model (default), every proximal contact and all friction rows take part:
//!
//! ```text
//! compression:  A π_C = v                       (v ← v − A π_C)
//! expansion:    π_E = e π_C,N on impacters      (Poisson; known rows)
//!               A π_R = v − A π_E               (v ← v − A (π_E + π_R))
//! correction:   one more compression round if any contact still approaches
//! ```
//!
//! With Newton restitution the compression round solves `A π = v + e v` on the normal rows
//! instead, and there is no expansion. Sequential rounds let only the impacters take part (up
//! to `max_induced_impacts` rounds); Mixed adds a final simultaneous round with COR 0.
//! The total impulse π is returned; the caller applies `Δu = −M⁻¹ Gᵀ π`.

use super::{ImpulseStart, RigidStepper};
use crate::model::Model;
use crate::scalar::Real;
use crate::scalar::SIGNIFICANT_REAL;
use crate::unilateral::settings::{InducedImpactModel, RestitutionModel};

impl<T: Real> RigidStepper<T> {
    /// Runs the impact phase on `self.verr`; accumulates into `self.pi_total`. Returns whether
    /// any impact round happened.
    pub(crate) fn impact_phase(&mut self, model: &Model<T>, tol: f64) -> bool {
        let m = self.m;
        self.pi_total[..m].iter_mut().for_each(|x| *x = T::zero());
        if !self.mark_impacters(tol) {
            return false;
        }
        self.compute_cors(model, tol);
        match self.settings.induced_impacts {
            InducedImpactModel::Simultaneous => {
                self.participating.iter_mut().for_each(|p| *p = true);
                self.impact_round(true);
                if self.mark_impacters(tol) {
                    self.impact_round(false);
                }
            }
            InducedImpactModel::Sequential | InducedImpactModel::Mixed => {
                for _ in 0..self.settings.max_induced_impacts {
                    for k in 0..self.contacts.len() {
                        self.participating[k] = self.impacter[k];
                    }
                    self.impact_round(true);
                    if !self.mark_impacters(tol) {
                        break;
                    }
                    self.compute_cors(model, tol);
                }
                if self.settings.induced_impacts == InducedImpactModel::Mixed
                    && self.mark_impacters(tol)
                {
                    self.participating.iter_mut().for_each(|p| *p = true);
                    self.impact_round(false);
                }
            }
        }
        true
    }

    /// Flags approaching contacts; returns whether there is any.
    fn mark_impacters(&mut self, tol: f64) -> bool {
        let mut any = false;
        for (k, c) in self.contacts.iter().enumerate() {
            let v = c.sign * self.verr[c.normal_row].re();
            self.impacter[k] = v < -0.1 * tol;
            any |= self.impacter[k];
        }
        any
    }

    /// COR of each contact from its current approach speed.
    fn compute_cors(&mut self, model: &Model<T>, tol: f64) {
        let capture = self.settings.capture_velocity_in_use(tol);
        let min_cor = self.settings.min_cor_velocity_in_use(tol);
        for (k, c) in self.contacts.iter().enumerate() {
            let v = c.sign * self.verr[c.normal_row].re();
            self.cor[k] = if self.settings.restitution == RestitutionModel::None || v >= -tol {
                0.0
            } else {
                model.unilateral[c.contact].effective_cor(capture, min_cor, -v)
            };
        }
    }

    /// One compression round (and, if `expand`, its Poisson expansion) over the participating
    /// contacts.
    fn impact_round(&mut self, expand: bool) {
        let m = self.m;
        let newton = expand && self.settings.restitution == RestitutionModel::Newton;
        self.v_applied[..m].iter_mut().for_each(|x| *x = T::zero());
        self.known[..m].iter_mut().for_each(|x| *x = T::zero());
        self.known_rows[..m].iter_mut().for_each(|x| *x = false);
        if newton {
            for (k, c) in self.contacts.iter().enumerate() {
                if self.participating[k] && self.impacter[k] {
                    self.v_applied[c.normal_row] = self.verr[c.normal_row] * T::c(self.cor[k]);
                }
            }
        }
        self.solve_round();
        if !expand || self.settings.restitution != RestitutionModel::Poisson {
            return;
        }
        let mut any = false;
        for (k, c) in self.contacts.iter().enumerate() {
            let n = c.normal_row;
            let pc = self.pi[n];
            if self.participating[k]
                && self.impacter[k]
                && self.cor[k] > 0.0
                && pc.re().abs() >= SIGNIFICANT_REAL
            {
                self.known[n] = pc * T::c(self.cor[k]);
                self.known_rows[n] = true;
                any = true;
            }
        }
        if any {
            self.solve_round();
        }
    }

    /// Solves the current round's problem and applies it to `verr` and the total.
    fn solve_round(&mut self) {
        let m = self.m;
        self.solve_impulse_problem(ImpulseStart::VelocityErrors);
        for i in 0..m {
            self.pi[i] += self.known[i];
            self.pi_total[i] += self.pi[i];
        }
        for i in 0..m {
            let mut s = T::zero();
            for j in 0..m {
                s += self.a[(i, j)] * self.pi[j];
            }
            self.work[i] = s;
        }
        for i in 0..m {
            self.verr[i] -= self.work[i];
        }
    }
}
