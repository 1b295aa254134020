//! `implicit`: TR-BDF2, an L-stable, error-controlled implicit Runge–Kutta method of order 2
//! for stiff systems (stiff contact, small friction transition velocities).
//!
//! With γ = 2 − √2 and d = γ/2, one step from (t0, y0) to t1 = t0 + h:
//!
//! ```text
//! trapezoidal stage:  z = y0 + d h (f0 + f(t0 + γh, z))
//! BDF2 stage:         y1 = a z + (1 − a) y0 + d h f(t1, y1),     a = 1/(γ (2 − γ))
//! error estimate:     e = (I − d h J)⁻¹ · k · 2h (f0/γ − f_z/(γ(1 − γ)) + f1/(1 − γ)),
//!                     k = |(−3γ² + 4γ − 2) / (12 (2 − γ))|  (local error k h³ y''')
//! ```
//!
//! Both stages solve `G(x) = x − c − d h f(x) = 0` by Newton's method with the same matrix
//! `I − d h J`, `J = ∂f/∂y` exact (analytical or dual numbers,
//! `derivatives::StateDerivativeJacobian`). J is kept across steps and recomputed only when
//! Newton converges slowly or fails; the inverse `(I − d h J)⁻¹` (`newton_matrix`) is kept
//! while J is unchanged and h stays within 0.5–2 of the h it was formed for. Newton stops when
//! the estimated remaining error of the correction (error-norm weights,
//! `error_norm::correction_norm_squared`) is a tenth of the accuracy, and gives up as soon as
//! its observed rate cannot get there in the iterations left (RADAU5's test). At convergence a
//! stage's derivative is taken from its equation, `f = (x − c)/(d h)`, not re-evaluated
//! (Shampine's advice for stiff problems), and the BDF2 stage's is the next step's f0 (the
//! step loop re-evaluates it only for models with auto-update variables). The step size
//! follows Simbody's rule (`step_control`) with error order 3, the error norm and the
//! quaternion projection are the Runge–Kutta methods' (`error_norm`, `projection`). The
//! estimate is filtered through `(I − d h J)⁻¹` so that stiff components do not inflate it.
//!
//! References: R. E. Bank, W. M. Coughran, W. Fichtner, E. H. Grosse, D. J. Rose, R. K. Smith,
//! "Transient simulation of silicon devices and circuits", IEEE Trans. CAD 4 (1985);
//! M. E. Hosea, L. F. Shampine, "Analysis and implementation of TR-BDF2", Appl. Numer. Math. 20
//! (1996); E. Hairer, G. Wanner, *Solving ODEs II*, §IV.8 (Newton iteration and its control).

use super::newton_matrix::NewtonMatrix;
use super::rk_merson::MersonWorkspace;
use crate::derivatives::StateDerivativeJacobian;
use crate::error::Result;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::DVector;

/// The exponent of the step-size rule (the local error is O(h³)).
pub const ERROR_ORDER: i32 = 3;

const GAMMA: f64 = 2.0 - std::f64::consts::SQRT_2;
const D: f64 = GAMMA / 2.0;
/// The BDF2 stage's weight of z: 1/(γ (2 − γ)).
const A: f64 = 1.0 / (GAMMA * (2.0 - GAMMA));
/// The error constant |(−3γ² + 4γ − 2)/(12 (2 − γ))|.
const K_ERR: f64 = (3.0 * GAMMA * GAMMA - 4.0 * GAMMA + 2.0) / (12.0 * (2.0 - GAMMA));
/// Newton iterations per stage at most.
const MAX_NEWTON: usize = 7;
/// A stage has converged when its estimated remaining error, θ/(1 − θ) times the last
/// correction (θ the observed contraction rate; the first correction alone), is this fraction
/// of the accuracy (Hairer & Wanner's κ).
const NEWTON_TOLERANCE: f64 = 0.1;
/// The Newton matrix `I − d h' J` of an earlier step size h' is kept while h/h' lies in this
/// band (Hairer & Wanner's RADAU5 keeps it for 1 ≤ h/h' ≤ 1.2; with Simbody's step rule, which
/// grows h by at least 1.2 or not at all, the band must reach below 1 to matter). The residual
/// always uses the current h, so only the convergence rate is affected. On the stiff block
/// 0.5–2 forms half the matrices of 0.8–1.2 (997 against 1854) for the same evaluations and
/// accuracy, 8 % faster; a slowly converging stage still brings a new J.
const REUSE_BAND: (f64, f64) = (0.5, 2.0);
/// A contraction rate above this is divergence.
const MAX_RATE: f64 = 0.9;

/// The workspace of the implicit integrator: the Jacobian, the Newton matrix's inverse and
/// stage buffers.
pub struct TrBdf2<T: Real> {
    jacobian: StateDerivativeJacobian,
    /// Whether `jacobian` holds J at some earlier point (false: compute before the next stage).
    have_jacobian: bool,
    /// Whether J was computed at this attempt's start (a Newton failure then shrinks h).
    fresh: bool,
    /// `(I − dh J)⁻¹`, valid for `matrix_dh`.
    newton_matrix: NewtonMatrix,
    matrix_valid: bool,
    matrix_dh: f64,
    c: Vec<T>,
    /// The step's start state, for the Jacobian's discrete variables.
    rest: State<T>,
    residual: DVector<f64>,
    /// Jacobian evaluations so far.
    pub jacobian_evaluations: u64,
    /// Newton matrices formed (inverted) so far.
    pub factorizations: u64,
}

/// What one attempt gave.
pub enum Outcome {
    /// `ws.y1` and `ws.y_err` are set.
    Done,
    /// Newton did not converge with a fresh Jacobian: retry with a smaller step.
    NewtonFailed,
}

impl<T: Real> TrBdf2<T> {
    /// The workspace for `model`.
    pub fn new(model: &Model<T>) -> Result<Self> {
        let ny = model.nq() + model.nu() + model.nz();
        Ok(Self {
            jacobian: StateDerivativeJacobian::new(model)?,
            have_jacobian: false,
            fresh: false,
            newton_matrix: NewtonMatrix::new(ny),
            matrix_valid: false,
            matrix_dh: f64::NAN,
            c: vec![T::zero(); ny],
            rest: model.default_state(),
            residual: DVector::zeros(ny),
            jacobian_evaluations: 0,
            factorizations: 0,
        })
    }

    /// Records the state at the start of a step (its discrete variables enter the Jacobian);
    /// allocates nothing.
    pub fn prepare(&mut self, state: &State<T>) {
        self.rest.assign_from(state);
    }

    /// Computes J at the step start and drops the Newton matrix.
    fn refresh_jacobian(&mut self, t0: f64, y0: &[T]) -> Result<()> {
        self.jacobian.compute_at(t0, y0, &self.rest)?;
        self.jacobian_evaluations += 1;
        self.have_jacobian = true;
        self.fresh = true;
        self.matrix_valid = false;
        Ok(())
    }

    /// Forms `(I − dh J)⁻¹` unless one for this J and a step size near `dh` is at hand.
    fn form_matrix(&mut self, dh: f64) {
        if self.matrix_valid && (REUSE_BAND.0..=REUSE_BAND.1).contains(&(dh / self.matrix_dh)) {
            return;
        }
        self.matrix_valid = self
            .newton_matrix
            .invert_shifted(&self.jacobian.jacobian, dh);
        self.matrix_dh = dh;
        self.factorizations += 1;
    }

    /// Solves `(I − dh J) x = residual` in place; false if the matrix is singular.
    fn solve(&mut self) -> bool {
        if self.matrix_valid {
            self.newton_matrix.solve(self.residual.as_mut_slice());
        }
        self.matrix_valid
    }

    /// One attempt from `(t0, y0, f0)` to `t1`: fills `ws.y1` and `ws.y_err` (after
    /// [`TrBdf2::prepare`]); `norm2(e)` is the square of a Newton correction's weighted norm
    /// (`error_norm::correction_norm_squared`).
    pub fn attempt(
        &mut self,
        (t0, y0, f0): (f64, &[T], &[T]),
        t1: f64,
        accuracy: f64,
        ws: &mut MersonWorkspace<T>,
        eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
        norm2: &impl Fn(&[f64]) -> f64,
    ) -> Result<Outcome> {
        self.fresh = false;
        if !self.have_jacobian {
            self.refresh_jacobian(t0, y0)?;
        }
        loop {
            match self.stages((t0, y0, f0), t1, accuracy, ws, eval, norm2)? {
                Some(slow) => {
                    // Slow convergence: a new J before the next step.
                    if slow {
                        self.have_jacobian = false;
                    }
                    return Ok(Outcome::Done);
                }
                None if self.fresh => return Ok(Outcome::NewtonFailed),
                None => self.refresh_jacobian(t0, y0)?,
            }
        }
    }

    /// Both stages and the error estimate; `None` if Newton failed, else whether it was slow.
    fn stages(
        &mut self,
        (t0, y0, f0): (f64, &[T], &[T]),
        t1: f64,
        accuracy: f64,
        ws: &mut MersonWorkspace<T>,
        eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
        norm2: &impl Fn(&[f64]) -> f64,
    ) -> Result<Option<bool>> {
        let h = t1 - t0;
        let dh = D * h;
        self.form_matrix(dh);
        let ny = y0.len();
        let (tdh, th) = (T::c(dh), T::c(h));
        // Trapezoidal stage: z in y_stage, f_z in f[1].
        for i in 0..ny {
            self.c[i] = y0[i] + tdh * f0[i];
            ws.y_stage[i] = y0[i] + T::c(GAMMA * h) * f0[i];
        }
        let [scratch, f_z, f_1, ..] = &mut ws.f;
        let Some(slow_z) = self.newton(
            t0 + GAMMA * h,
            dh,
            &mut ws.y_stage,
            scratch,
            accuracy,
            eval,
            norm2,
        )?
        else {
            return Ok(None);
        };
        stage_derivative(f_z, &ws.y_stage, &self.c, tdh);
        // BDF2 stage: y1 in y1, f_1 from its equation. Guess: the quadratic through y0 with
        // slope f0 and through z, at t1: y0 + h f0 + (z − y0 − γh f0)/γ².
        let (a, b) = (T::c(A), T::c(1.0 - A));
        let (gh, inv_g2) = (T::c(GAMMA * h), T::c(1.0 / (GAMMA * GAMMA)));
        for i in 0..ny {
            self.c[i] = a * ws.y_stage[i] + b * y0[i];
            ws.y1[i] = y0[i] + th * f0[i] + (ws.y_stage[i] - y0[i] - gh * f0[i]) * inv_g2;
        }
        let Some(slow_1) = self.newton(t1, dh, &mut ws.y1, scratch, accuracy, eval, norm2)? else {
            return Ok(None);
        };
        stage_derivative(f_1, &ws.y1, &self.c, tdh);
        // Error estimate, filtered through (I − dh J)⁻¹.
        let (w0, wz, w1) = (
            1.0 / GAMMA,
            1.0 / (GAMMA * (1.0 - GAMMA)),
            1.0 / (1.0 - GAMMA),
        );
        let scale = T::c(K_ERR * 2.0) * th;
        for i in 0..ny {
            let e = scale * (T::c(w0) * f0[i] - T::c(wz) * f_z[i] + T::c(w1) * f_1[i]);
            self.residual[i] = e.re();
        }
        if !self.solve() {
            return Ok(None);
        }
        for i in 0..ny {
            ws.y_err[i] = T::c(self.residual[i]);
        }
        Ok(Some(slow_z || slow_1))
    }

    /// Newton's method for `x − c − dh f(t, x) = 0` from the guess in `x`; `None` if it
    /// diverged or did not converge, else whether it was slow (more than three iterations).
    #[allow(clippy::too_many_arguments)]
    fn newton(
        &mut self,
        t: f64,
        dh: f64,
        x: &mut [T],
        fx: &mut [T],
        accuracy: f64,
        eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
        norm2: &impl Fn(&[f64]) -> f64,
    ) -> Result<Option<bool>> {
        let tdh = T::c(dh);
        let mut previous = f64::INFINITY;
        for iteration in 0..MAX_NEWTON {
            if eval(t, x, fx).is_err() {
                return Ok(None);
            }
            for i in 0..x.len() {
                self.residual[i] = -(x[i] - self.c[i] - tdh * fx[i]).re();
            }
            if !self.solve() {
                return Ok(None);
            }
            for (xi, d) in x.iter_mut().zip(self.residual.iter()) {
                *xi += T::c(*d);
            }
            let size = norm2(self.residual.as_slice()).sqrt();
            if !size.is_finite() {
                return Ok(None);
            }
            let remaining = if iteration == 0 {
                size
            } else {
                let rate = size / previous;
                if rate >= MAX_RATE {
                    return Ok(None);
                }
                let remaining = rate / (1.0 - rate) * size;
                // Hairer & Wanner's RADAU5: give up as soon as the iterations left cannot
                // bring the error within the tolerance at this rate.
                let left = (MAX_NEWTON - 1 - iteration) as i32;
                if remaining * rate.powi(left) > NEWTON_TOLERANCE * accuracy {
                    return Ok(None);
                }
                remaining
            };
            if remaining <= NEWTON_TOLERANCE * accuracy {
                return Ok(Some(iteration > 2));
            }
            previous = size;
        }
        Ok(None)
    }
}

/// The derivative at the end of the last completed attempt (`ws.y1`, before projection),
/// from the BDF2 stage's equation.
pub fn end_derivative<T: Real>(ws: &MersonWorkspace<T>) -> &[T] {
    &ws.f[END_DERIVATIVE]
}

/// The slot of `MersonWorkspace::f` holding the BDF2 stage's derivative (`f_1` in
/// `TrBdf2::stages`).
const END_DERIVATIVE: usize = 2;

/// A converged stage's derivative from its equation: `f = (x − c)/(d h)`.
fn stage_derivative<T: Real>(f: &mut [T], x: &[T], c: &[T], dh: T) {
    for ((f, x), c) in f.iter_mut().zip(x).zip(c) {
        *f = (*x - *c) / dh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_constant_is_the_methods() {
        // y' = y from 1 over h: the local error is K_ERR h^3 times the third derivative (1).
        let h: f64 = 1e-3;
        let z = (1.0 + D * h) / (1.0 - D * h);
        let y = (A * z + (1.0 - A)) / (1.0 - D * h);
        let local = (y - h.exp()).abs() / (h * h * h);
        assert!((local - K_ERR).abs() < 1e-3 * K_ERR, "{local} vs {K_ERR}");
    }

    /// Newton on `x − c − dh f(x) = 0`, `f(x) = −2.2 x`, with the matrix of `J = −I`: it
    /// contracts by |1 − 3.2/2| = 0.6 per iteration, which cannot reach 1e-13 from 1 in the
    /// seven iterations allowed; Newton must say so after its second evaluation.
    #[test]
    fn newton_gives_up_once_its_rate_cannot_reach_the_tolerance() {
        use crate::prelude::*;
        let mut b = ModelBuilder::<f64>::new();
        let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
        b.add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
            .unwrap();
        let model = b.build().unwrap();
        let mut implicit = TrBdf2::new(&model).unwrap();
        implicit.jacobian.jacobian = -nalgebra::DMatrix::identity(2, 2);
        implicit.form_matrix(1.0);
        implicit.c.copy_from_slice(&[1.0, -1.0]);
        let mut evaluations = 0;
        let mut eval = |_t: f64, y: &[f64], f: &mut [f64]| {
            evaluations += 1;
            for (f, y) in f.iter_mut().zip(y) {
                *f = -2.2 * y;
            }
            Ok(())
        };
        let norm2 = |e: &[f64]| e.iter().map(|x| x * x).sum::<f64>() / 2.0;
        let (mut x, mut fx) = ([0.0; 2], [0.0; 2]);
        let outcome = implicit
            .newton(0.0, 1.0, &mut x, &mut fx, 1e-12, &mut eval, &norm2)
            .unwrap();
        assert!(outcome.is_none());
        assert_eq!(evaluations, 2);
    }
}
