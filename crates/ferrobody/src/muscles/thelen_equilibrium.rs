//! `Thelen2003Muscle::computeInitialFiberEquilibrium`: the fibre length at which the fibre
//! force along the tendon equals the tendon force, for the path's length and lengthening speed
//! and the muscle's activation — OpenSim's damped Newton iteration on the fibre length
//! (`initMuscleState`: tolerance max(1e-8 F_max, 10 ε^(7/8)), 20 iterations, halving steps,
//! the lengthening speed split between fibre and tendon by their stiffnesses, f_V from the
//! inverse curve by Newton's method `calcfvInv`).
//!
//! Source: OpenSim 4.6 `OpenSim/Actuators/Thelen2003Muscle.cpp`.

use super::thelen2003::Thelen2003;
use crate::error::{invalid, ModelError};
use crate::scalar::SIGNIFICANT_REAL;

/// SimTK's `SqrtEps`.
const SQRT_EPS: f64 = 1.4901161193847656e-8;

/// Newton state of the equilibrium search.
struct Search<'a> {
    m: &'a Thelen2003,
    ma: f64,
    ml: f64,
    lce: f64,
    phi: f64,
    cosphi: f64,
    tl: f64,
    fse: f64,
    fal: f64,
    fpe: f64,
    fv: f64,
    fm: f64,
    ferr: f64,
    d_fmat_d_lce: f64,
    d_ft_d_lce: f64,
}

impl Search<'_> {
    fn position(&mut self) {
        self.phi = self.m.pennation_angle(self.lce);
        self.cosphi = self.phi.cos();
        self.tl = self.ml - self.lce * self.cosphi;
    }

    fn multipliers(&mut self) {
        let (ofl, tsl) = (self.m.optimal_fiber_length, self.m.tendon_slack_length);
        self.fse = self.m.tendon_force_length(self.tl / tsl);
        self.fal = self.m.active_force_length(self.lce / ofl);
        self.fpe = self.m.passive_force_length(self.lce / ofl);
    }

    fn error(&mut self) {
        let fiso = self.m.max_isometric_force;
        self.fm = (self.ma * self.fal * self.fv + self.fpe) * fiso;
        self.ferr = self.fm * self.cosphi - self.fse * fiso;
    }

    /// The partials; returns (dFmAT/dlceAT, dFt/dtl).
    fn partials(&mut self) -> (f64, f64) {
        let m = self.m;
        let (ofl, tsl, fiso) = (
            m.optimal_fiber_length,
            m.tendon_slack_length,
            m.max_isometric_force,
        );
        let vol = m.parallelogram_height();
        let lce_n = self.lce / ofl;
        let d_fm_d_lce = ((self.ma * self.fv) * m.active_force_length_derivative(lce_n)
            + m.passive_force_length_derivative(lce_n))
            * fiso
            * (1.0 / ofl);
        let tmp1 = vol * vol;
        let tmp2 = self.lce * self.lce;
        let tmp3 = tmp2 * self.lce;
        let dcosphi = tmp1 / (tmp3 * (1.0 - (tmp1 / tmp2)).powf(0.5));
        self.d_fmat_d_lce = d_fm_d_lce * self.cosphi + self.fm * dcosphi;
        let d_fmat_d_lceat = self.d_fmat_d_lce * self.cosphi;
        let dfse = m.tendon_force_length_derivative(self.tl / tsl);
        let d_ft_d_tl = dfse * (fiso / tsl);
        let t = vol / self.lce;
        let dphi = -vol / (self.lce * self.lce * (1.0 - t * t).powf(0.5));
        let dtl_d_lce = -self.phi.cos() + self.lce * self.phi.sin() * dphi;
        self.d_ft_d_lce = dfse * dtl_d_lce * (fiso / tsl);
        (d_fmat_d_lceat, d_ft_d_tl)
    }

    fn velocity(
        &mut self,
        dml: f64,
        partials: (f64, f64),
        tolerance: f64,
    ) -> Result<(), ModelError> {
        let (d_fmat_d_lceat, d_ft_d_tl) = partials;
        let m = self.m;
        let dtl = if (d_fmat_d_lceat + d_ft_d_tl).abs() > SIGNIFICANT_REAL
            && self.tl > m.tendon_slack_length
        {
            (d_fmat_d_lceat / (d_fmat_d_lceat + d_ft_d_tl)) * dml
        } else {
            dml
        };
        let dlce = (dml - dtl) * self.cosphi;
        let dlce_n = dlce / (m.max_contraction_velocity * m.optimal_fiber_length);
        self.fv = fv_inverse(m, self.ma, self.fal, dlce_n, tolerance, 100)?;
        Ok(())
    }
}

/// `calcfvInv`: f_V whose normalized fibre velocity is `dlce_n`, by Newton's method.
fn fv_inverse(
    m: &Thelen2003,
    a: f64,
    fal: f64,
    dlce_n: f64,
    tolerance: f64,
    max_iterations: usize,
) -> Result<f64, ModelError> {
    let mut ferr: f64 = 1.0;
    let mut a_fal_fv = a * fal;
    let mut iter = 0;
    while ferr.abs() >= tolerance && iter < max_iterations {
        let v = m.fiber_velocity_normalized(a, fal, a_fal_fv);
        ferr = v - dlce_n;
        let slope = m.fiber_velocity_slope(a, fal, a_fal_fv);
        if slope.abs() > SIGNIFICANT_REAL {
            a_fal_fv -= ferr / slope;
        }
        iter += 1;
    }
    if ferr.abs() < tolerance {
        Ok((a_fal_fv / (a * fal)).max(0.0))
    } else {
        Err("the force-velocity inverse did not converge".into())
    }
}

impl Thelen2003 {
    /// The equilibrium fibre length at path length `ml`, lengthening speed `dml` and
    /// activation `ma` (clamped as the muscle clamps it), or why there is none.
    pub fn equilibrium_fiber_length(&self, ml: f64, dml: f64, ma: f64) -> Result<f64, ModelError> {
        let tolerance = (1e-8 * self.max_isometric_force).max(SIGNIFICANT_REAL * 10.0);
        let max_iterations = 20;
        let tsl = self.tendon_slack_length;
        let tl0 = tsl * 1.01;
        let h = self.parallelogram_height();
        let min_along = self.minimum_fiber_length() * self.maximum_pennation_angle.cos();
        let along = ml - tl0;
        let lce = if along >= min_along {
            (h * h + along * along).sqrt()
        } else {
            self.minimum_fiber_length()
        };
        let mut s = Search {
            m: self,
            ma,
            ml,
            lce,
            phi: 0.0,
            cosphi: 1.0,
            tl: tl0,
            fse: 0.0,
            fal: 0.0,
            fpe: 0.0,
            fv: 1.0,
            fm: 0.0,
            ferr: f64::MAX,
            d_fmat_d_lce: 0.0,
            d_ft_d_lce: 0.0,
        };
        s.position();
        s.multipliers();
        s.fv = 1.0;
        let p = s.partials();
        s.velocity(dml, p, tolerance)?;
        s.error();
        // Updates the partials the first Newton step uses (dFmAT/dlce, dFt/dlce).
        s.partials();
        let (mut ferr_prev, mut lce_prev) = (s.ferr, s.lce);
        let mut iter = 0;
        while s.ferr.abs() > tolerance && iter < max_iterations {
            let dferr = s.d_fmat_d_lce - s.d_ft_d_lce;
            let mut step = 1.0;
            while s.ferr.abs() >= ferr_prev.abs() {
                let delta = -step * ferr_prev / dferr;
                if delta.abs() > SIGNIFICANT_REAL {
                    s.lce = lce_prev + delta;
                } else {
                    s.lce = lce_prev - delta.signum() * SQRT_EPS;
                    step = 0.0;
                }
                s.lce = s.lce.max(self.minimum_fiber_length());
                s.position();
                s.multipliers();
                s.error();
                if step <= SQRT_EPS {
                    break;
                }
                step *= 0.5;
            }
            ferr_prev = s.ferr;
            lce_prev = s.lce;
            let p = s.partials();
            s.velocity(dml, p, tolerance)?;
            iter += 1;
        }
        if s.ferr.abs() < tolerance || s.lce <= self.minimum_fiber_length() {
            return Ok(s.lce.max(self.minimum_fiber_length()));
        }
        Err(invalid!(
            "no fibre-length equilibrium after {max_iterations} Newton iterations \
             (error {:e} N, tolerance {tolerance:e} N, activation {ma}, fibre length {} m)",
            s.ferr.abs(),
            s.lce
        ))
    }
}
