//! `Millard2012EquilibriumMuscle::computeInitialFiberEquilibrium`: the fibre length at which
//! the fibre force along the tendon equals the tendon force, at zero fibre velocity, for the
//! path's length and the muscle's activation — OpenSim's `estimateMuscleFiberState` with
//! `staticSolution`: Newton's method on ℓ_M from a tendon 1 % past slack, each step halved
//! until the error shrinks (down to √ε), ℓ_M kept at or above its minimum, tolerance
//! max(1e-8 F_max, 10 ε^(7/8)) N, 200 iterations. A fibre that ends at its minimum length is
//! accepted there (OpenSim warns); otherwise no solution is an error.
//!
//! Source: OpenSim 4.6 `OpenSim/Actuators/Millard2012EquilibriumMuscle.cpp`.

use super::millard2012::Millard2012;
use crate::error::{invalid, ModelError};
use crate::scalar::SIGNIFICANT_REAL;

/// SimTK's `SqrtEps`.
const SQRT_EPS: f64 = 1.4901161193847656e-8;

/// Newton state of the search.
struct Search<'a> {
    m: &'a Millard2012,
    activation: f64,
    path_length: f64,
    lce: f64,
    cosphi: f64,
    sinphi: f64,
    tl: f64,
    fal: f64,
    fpe: f64,
    fse: f64,
    fm: f64,
    ferr: f64,
    d_fmat_d_lce: f64,
    d_ft_d_lce: f64,
}

impl Search<'_> {
    fn position(&mut self) {
        let phi = self.m.pennation.angle(self.lce);
        self.cosphi = phi.cos();
        self.sinphi = phi.sin();
        self.tl = self.path_length - self.lce * self.cosphi;
    }

    fn multipliers(&mut self) {
        let p = &self.m.properties;
        let lce_n = self.lce / p.optimal_fiber_length;
        self.fal = self.m.fal.value_and_slope(lce_n).0;
        self.fpe = self.m.fpe.value_and_slope(lce_n).0;
        self.fse = self
            .m
            .fse
            .value_and_slope(self.tl / p.tendon_slack_length)
            .0;
    }

    /// Fibre force at zero velocity (f_V = 1, no damping force).
    fn fiber_force(&self) -> f64 {
        let fiso = self.m.properties.max_isometric_force;
        fiso * (self.activation * self.fal) + (fiso * self.fpe + fiso * 0.0)
    }

    fn error(&mut self) {
        self.fm = self.fiber_force();
        let ft = self.fse * self.m.properties.max_isometric_force;
        self.ferr = self.fm * self.cosphi - ft;
    }

    fn partials(&mut self) {
        let m = self.m;
        let p = &m.properties;
        let (ofl, tsl, fiso) = (
            p.optimal_fiber_length,
            p.tendon_slack_length,
            p.max_isometric_force,
        );
        let lce_n = self.lce / ofl;
        let dfpe = m.fpe.value_and_slope(lce_n).1;
        let dfal = m.fal.value_and_slope(lce_n).1;
        let dlce_n_dlce = 1.0 / ofl;
        let d_fm_d_lce = fiso * (self.activation * (dfal * dlce_n_dlce) * 1.0 + dfpe * dlce_n_dlce);
        let dphi = m.pennation.d_angle_d_fiber_length(self.lce);
        let dcosphi = -self.sinphi * dphi;
        self.d_fmat_d_lce = d_fm_d_lce * self.cosphi + self.fm * dcosphi;
        let d_ft_d_tl = m.fse.value_and_slope(self.tl / tsl).1 * fiso / tsl;
        let dtl_d_lce = self.lce * self.sinphi * dphi - self.cosphi;
        self.d_ft_d_lce = d_ft_d_tl * dtl_d_lce;
    }
}

impl Millard2012 {
    /// The equilibrium fibre length at path length `path_length` and (clamped) activation `a`.
    pub fn equilibrium_fiber_length(&self, path_length: f64, a: f64) -> Result<f64, ModelError> {
        let p = &self.properties;
        if p.ignore_tendon_compliance {
            return Ok(p.default_fiber_length);
        }
        let tol = (1e-8 * p.max_isometric_force).max(SIGNIFICANT_REAL * 10.0);
        let min_length = self.minimum_fiber_length;
        let lce0 = self
            .pennation
            .fiber_length(path_length, p.tendon_slack_length * 1.01)
            .max(min_length);
        let mut s = Search {
            m: self,
            activation: a,
            path_length,
            lce: lce0,
            cosphi: 1.0,
            sinphi: 0.0,
            tl: 0.0,
            fal: 0.0,
            fpe: 0.0,
            fse: 0.0,
            fm: 0.0,
            ferr: 0.0,
            d_fmat_d_lce: 0.0,
            d_ft_d_lce: 0.0,
        };
        s.position();
        s.multipliers();
        s.fm = s.fiber_force();
        s.error();
        s.partials();
        let (mut ferr_prev, mut lce_prev) = (s.ferr, s.lce);
        let mut iter = 0;
        while s.ferr.abs() > tol && iter < 200 {
            let dferr_d_lce = s.d_fmat_d_lce - s.d_ft_d_lce;
            let mut h = 1.0;
            while s.ferr.abs() >= ferr_prev.abs() {
                let delta = -h * ferr_prev / dferr_d_lce;
                if delta.abs() > SIGNIFICANT_REAL {
                    s.lce = lce_prev + delta;
                } else {
                    // SimTK::sign: 0 at 0.
                    let sign = if delta > 0.0 {
                        1.0
                    } else if delta < 0.0 {
                        -1.0
                    } else {
                        0.0
                    };
                    s.lce = lce_prev - sign * SQRT_EPS;
                    h = 0.0;
                }
                s.lce = s.lce.max(min_length);
                s.position();
                s.multipliers();
                s.error();
                if h <= SQRT_EPS {
                    break;
                }
                h *= 0.5;
            }
            ferr_prev = s.ferr;
            lce_prev = s.lce;
            s.partials();
            iter += 1;
        }
        if s.ferr.abs() < tol {
            return Ok(s.lce.max(min_length));
        }
        if s.lce <= min_length {
            return Ok(min_length);
        }
        Err(invalid!(
            "failed to compute the muscle's equilibrium: error {:e} N exceeds the tolerance {tol:e} N after {iter} Newton iterations (activation {a}, fibre length {} m)",
            s.ferr.abs(),
            s.lce
        ))
    }
}
