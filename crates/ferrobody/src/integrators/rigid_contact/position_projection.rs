//! Step 5 of the rigid-contact step (see [`super`]): the position projection, a velocity
//! correction `du = M⁻¹ Gᵀ π` used only for q̇, with `A π = perr₀ / h` on the contacts that
//! are pushing or penetrating — least squares (Bilateral, Simbody 3.7's default) or the
//! frictionless impulse problem (Unilateral). Runs only when some proximal contact's `|perr₀|`
//! exceeds the tolerance (Simbody 3.7 `anyPositionErrorsViolated`; notes §4.4).

use super::{ImpulseStart, RigidStepper};
use crate::scalar::Real;
use crate::unilateral::settings::PositionProjection;

impl<T: Real> RigidStepper<T> {
    /// Position projection into `du` (a velocity correction used only for q̇).
    pub(super) fn position_projection(&mut self, h: f64) {
        self.du.fill(T::zero());
        let m = self.m;
        match self.settings.position_projection {
            PositionProjection::None => return,
            PositionProjection::Bilateral => self.bilateral_projection(h),
            PositionProjection::Unilateral => {
                let ht = T::c(h);
                for i in 0..m {
                    self.work[i] = self.perr[i] / ht;
                    self.v_applied[i] = T::zero();
                }
                for k in 0..self.contacts.len() {
                    let ac = self.contacts[k];
                    self.participating[k] = !self.is_released(k);
                    if let Some(f) = ac.friction_row {
                        self.work[f] = T::zero();
                        self.work[f + 1] = T::zero();
                    }
                }
                self.solve_impulse_problem(ImpulseStart::PositionCorrection);
            }
        }
        for c in 0..self.du.len() {
            self.du[c] = self.minv_gt_times(c, &self.pi);
        }
    }

    /// A contact the contact phase released (no normal impulse) that is not penetrating.
    fn is_released(&self, k: usize) -> bool {
        let ac = &self.contacts[k];
        self.pi[ac.normal_row].re() == 0.0 && ac.sign * self.perr[ac.normal_row].re() >= 0.0
    }

    /// Least squares on the normal rows of the pushing or penetrating contacts.
    fn bilateral_projection(&mut self, h: f64) {
        let mut n = 0;
        for k in 0..self.contacts.len() {
            if !self.is_released(k) {
                self.solver.row_of_unknown[n] = self.contacts[k].normal_row;
                n += 1;
            }
        }
        let ht = T::c(h);
        for i in 0..n {
            let ri = self.solver.row_of_unknown[i];
            self.solver.b[i] = self.perr[ri] / ht;
            for j in 0..n {
                let rj = self.solver.row_of_unknown[j];
                self.solver.lsq.matrix_mut()[(i, j)] = self.a[(ri, rj)];
            }
        }
        self.solver.lsq.solve(n, &self.solver.b, &mut self.solver.x);
        self.pi[..self.m].iter_mut().for_each(|x| *x = T::zero());
        for i in 0..n {
            self.pi[self.solver.row_of_unknown[i]] = self.solver.x[i];
        }
    }

    /// Simbody 3.7 `anyPositionErrorsViolated`: projection runs only when some proximal
    /// contact's |perr₀| exceeds the constraint tolerance (upstream HEAD projects always).
    pub(super) fn any_position_error_violated(&self, tol: f64) -> bool {
        self.contacts
            .iter()
            .any(|c| self.perr[c.normal_row].re().abs() > tol)
    }
}
