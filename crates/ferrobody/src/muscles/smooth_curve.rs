//! OpenSim's `SmoothSegmentedFunction`: a C²-continuous curve y(x) made of quintic Bézier
//! sections, with linear extrapolation outside [x₀, x₁] — the curves of the Millard 2012 muscle.
//!
//! Section k is the pair of quintic Bézier polynomials `x(u) = Σᵢ Bᵢ(u) Xₖᵢ`,
//! `y(u) = Σᵢ Bᵢ(u) Yₖᵢ` (Bernstein basis Bᵢ of degree 5, u ∈ [0, 1]). At an x inside the curve
//! the section is the first with `Xₖ₀ ≤ x < Xₖ₅` (the last one at x = x₁), u solves
//! `x(u) = x` by Newton's method to |x(u) − x| ≤ 100 ε (at most 20 iterations, u clamped to
//! [0, 1]), and `y = y(u)`, `dy/dx = y'(u)/x'(u)`. Outside: `y = y₀ + y₀'(x − x₀)` below x₀,
//! `y₁ + y₁'(x − x₁)` above x₁. Corner sections come from
//! `calcQuinticBezierCornerControlPoints`: the two end points, and the intersection of their
//! tangent lines approached by the fraction `curviness` (already scaled to 0.1 + 0.8 c).
//!
//! OpenSim starts Newton's method from a smoothing-spline fit of u(x); here the start is the
//! linear interpolation of a 100-point table of x(u) (the same sample count), and the result
//! meets the same tolerance, so the two agree to that tolerance.
//!
//! For dual numbers the curve is evaluated on the real part and carries the exact first
//! derivative `dy/dx · (x − re x)`.
//!
//! Source: OpenSim 4.6 `OpenSim/Common/{SmoothSegmentedFunction, SegmentedQuinticBezierToolkit}.cpp`;
//! Millard, Uchida, Seth, Delp (2013), *J. Biomech. Eng.* 135(2), 021005.

use crate::scalar::Real;

/// Newton tolerance on x(u) − x (OpenSim's `UTOL`).
const U_TOL: f64 = f64::EPSILON * 1e2;
/// Newton iteration limit (OpenSim's `MAXITER`).
const MAX_ITER: usize = 20;
/// Samples of x(u) per section for the starting guess (OpenSim's `NUM_SAMPLE_PTS`).
const SAMPLES: usize = 100;

/// Control points of one quintic Bézier section.
pub type Section = [f64; 6];

/// Control points of a corner section from (x₀, y₀, y₀') to (x₁, y₁, y₁') with the scaled
/// curviness c ∈ [0, 1] (`calcQuinticBezierCornerControlPoints`).
pub fn corner(p0: (f64, f64, f64), p1: (f64, f64, f64), c: f64) -> (Section, Section) {
    let (x0, y0, dydx0) = p0;
    let (x1, y1, dydx1) = p1;
    let root_eps = f64::EPSILON.sqrt();
    let xc = if (dydx0 - dydx1).abs() > root_eps {
        (y1 - y0 - x1 * dydx1 + x0 * dydx0) / (dydx0 - dydx1)
    } else {
        (x1 + x0) / 2.0
    };
    let yc = (xc - x1) * dydx1 + y1;
    let x0_mid = x0 + c * (xc - x0);
    let y0_mid = y0 + c * (yc - y0);
    let x1_mid = x1 + c * (xc - x1);
    let y1_mid = y1 + c * (yc - y1);
    (
        [x0, x0_mid, x0_mid, x1_mid, x1_mid, x1],
        [y0, y0_mid, y0_mid, y1_mid, y1_mid, y1],
    )
}

/// The quintic Bézier polynomial at u (`calcQuinticBezierCurveDerivU`, order 0).
fn bezier(u: f64, p: &Section) -> f64 {
    let u5 = 1.0;
    let u4 = u;
    let u3 = u4 * u;
    let u2 = u3 * u;
    let u1 = u2 * u;
    let u0 = u1 * u;
    let t2 = u1 * 5.0;
    let t3 = u2 * 10.0;
    let t4 = u3 * 10.0;
    let t5 = u4 * 5.0;
    let t9 = u0 * 5.0;
    let t10 = u1 * 20.0;
    let t11 = u2 * 30.0;
    let t15 = u0 * 10.0;
    p[0] * (-u0 + t2 - t3 + t4 - t5 + u5)
        + p[1] * (t9 - t10 + t11 - u3 * 20.0 + t5)
        + p[2] * (-t15 + u1 * 30.0 - t11 + t4)
        + p[3] * (t15 - t10 + t3)
        + p[4] * (-t9 + t2)
        + p[5] * u0
}

/// Its derivative d/du (order 1).
fn bezier_du(u: f64, p: &Section) -> f64 {
    let t1 = u * u;
    let t2 = t1 * t1;
    let t4 = t1 * u;
    let t5 = t4 * 20.0;
    let t6 = t1 * 30.0;
    let t7 = u * 20.0;
    let t10 = t2 * 25.0;
    let t11 = t4 * 80.0;
    let t12 = t1 * 90.0;
    let t16 = t2 * 50.0;
    p[0] * (-(t2 * 5.0) + t5 - t6 + t7 - 5.0)
        + p[1] * (t10 - t11 + t12 - u * 40.0 + 5.0)
        + p[2] * (-t16 + t4 * 120.0 - t12 + t7)
        + p[3] * (t16 - t11 + t6)
        + p[4] * (-t10 + t5)
        + p[5] * t2 * 5.0
}

/// A smooth segmented curve.
#[derive(Clone, Debug, PartialEq)]
pub struct SmoothCurve {
    x: Vec<Section>,
    y: Vec<Section>,
    /// x(u) at u = i/(SAMPLES − 1), per section.
    table: Vec<[f64; SAMPLES]>,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    dydx0: f64,
    dydx1: f64,
}

impl SmoothCurve {
    /// The curve through the given sections, with the end values and slopes that extrapolate it.
    pub fn new(sections: Vec<(Section, Section)>, ends: [(f64, f64, f64); 2]) -> Self {
        let (x, y): (Vec<_>, Vec<_>) = sections.into_iter().unzip();
        let table = x
            .iter()
            .map(|p| std::array::from_fn(|i| bezier(i as f64 / (SAMPLES - 1) as f64, p)))
            .collect();
        let [(x0, y0, dydx0), (x1, y1, dydx1)] = ends;
        Self {
            x,
            y,
            table,
            x0,
            x1,
            y0,
            y1,
            dydx0,
            dydx1,
        }
    }

    /// The section holding x (`calcIndex`); x is inside [x₀, x₁].
    fn section(&self, x: f64) -> usize {
        self.x
            .iter()
            .position(|p| x >= p[0] && x < p[5])
            .unwrap_or(self.x.len() - 1)
    }

    /// u with x(u) = x in section k (`calcU`).
    fn parameter(&self, k: usize, x: f64) -> f64 {
        let p = &self.x[k];
        let table = &self.table[k];
        let i = table.partition_point(|&xi| xi <= x).clamp(1, SAMPLES - 1);
        let (xa, xb) = (table[i - 1], table[i]);
        let step = 1.0 / (SAMPLES - 1) as f64;
        let t = if xb > xa { (x - xa) / (xb - xa) } else { 0.0 };
        let mut u = ((i - 1) as f64 + t) * step;
        u = u.clamp(0.0, 1.0);
        let mut f = bezier(u, p) - x;
        let mut iter = 0;
        while f.abs() > U_TOL && iter < MAX_ITER {
            let df = bezier_du(u, p);
            if df.abs() == 0.0 {
                break;
            }
            u = (u - f / df).clamp(0.0, 1.0);
            f = bezier(u, p) - x;
            iter += 1;
        }
        u
    }

    /// y(x) and dy/dx at x (`calcValueAndFirstDerivative`).
    pub fn value_and_slope(&self, x: f64) -> (f64, f64) {
        if x < self.x0 {
            return (self.y0 + self.dydx0 * (x - self.x0), self.dydx0);
        }
        if x > self.x1 {
            return (self.y1 + self.dydx1 * (x - self.x1), self.dydx1);
        }
        let k = self.section(x);
        let u = self.parameter(k, x);
        let (px, py) = (&self.x[k], &self.y[k]);
        (bezier(u, py), bezier_du(u, py) / bezier_du(u, px))
    }

    /// y(x), with the exact first derivative for dual numbers.
    pub fn value<T: Real>(&self, x: T) -> T {
        let re = x.re();
        let (y, dydx) = self.value_and_slope(re);
        T::c(y) + T::c(dydx) * (x - T::c(re))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_corner() -> SmoothCurve {
        let s = corner((0.0, 0.0, 0.0), (1.0, 1.0, 2.0), 0.5);
        SmoothCurve::new(vec![s], [(0.0, 0.0, 0.0), (1.0, 1.0, 2.0)])
    }

    #[test]
    fn a_corner_meets_its_end_points_and_slopes_and_extrapolates_linearly() {
        let c = line_corner();
        let (y0, s0) = c.value_and_slope(0.0);
        let (y1, s1) = c.value_and_slope(1.0);
        assert!(y0.abs() < 1e-15 && s0.abs() < 1e-12, "{y0} {s0}");
        assert!(
            (y1 - 1.0).abs() < 1e-15 && (s1 - 2.0).abs() < 1e-12,
            "{y1} {s1}"
        );
        assert_eq!(c.value_and_slope(1.5), (2.0, 2.0));
        assert_eq!(c.value_and_slope(-1.0), (0.0, 0.0));
    }

    #[test]
    fn the_slope_is_the_derivative_of_the_value() {
        let c = line_corner();
        for &x in &[0.1, 0.33, 0.5, 0.77, 0.95] {
            let h = 1e-6;
            let fd = (c.value_and_slope(x + h).0 - c.value_and_slope(x - h).0) / (2.0 * h);
            let (_, s) = c.value_and_slope(x);
            assert!((fd - s).abs() < 1e-7, "x {x}: {fd} vs {s}");
            let d = c.value(num_dual::Dual64::new(x, 1.0));
            assert_eq!(d.eps, s);
        }
    }
}
