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
//! cubic Hermite interpolation of u(x) tabulated at 256 evenly spaced x per section (with
//! du/dx = 1/x'(u)). On the default Millard curves the start is within 8e-11 (passive fibre) to
//! 2.3e-7 (force–velocity) of the root in u (tested); with 64 samples it was 2e-8 to 5e-5 and
//! 8 % slower on gait2392's Millard muscles, with 1024 no faster. Both stop at the same
//! tolerance, so the two agree to it.
//!
//! For dual numbers the curve is evaluated on the real part and carries the exact first
//! derivative `dy/dx · (x − re x)`.
//!
//! Source: OpenSim 4.6 `OpenSim/Common/{SmoothSegmentedFunction, SegmentedQuinticBezierToolkit}.cpp`;
//! Millard, Uchida, Seth, Delp (2013), *J. Biomech. Eng.* 135(2), 021005.

use crate::scalar::Real;
use std::sync::{Arc, OnceLock};

/// Newton tolerance on x(u) − x (OpenSim's `UTOL`).
const U_TOL: f64 = f64::EPSILON * 1e2;
/// Newton iteration limit (OpenSim's `MAXITER`).
const MAX_ITER: usize = 20;
/// Samples of u(x) per section for the starting guess.
const SAMPLES: usize = 256;

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

/// u(x) of one section at `SAMPLES` evenly spaced x, with du/dx, for Hermite interpolation.
#[derive(Clone, Debug, PartialEq)]
struct InverseTable {
    x0: f64,
    dx: f64,
    /// 1/dx.
    per_dx: f64,
    /// Per sample: u and dx·du/dx, side by side (an interval's four numbers in one or two
    /// cache lines).
    nodes: Vec<[f64; 2]>,
}

impl InverseTable {
    fn new(p: &Section, q: &Quintic) -> Self {
        let (x0, x1) = (p[0], p[5]);
        let dx = (x1 - x0) / (SAMPLES - 1) as f64;
        // x(u) increases on [0, 1]: bisection to 2⁻²⁴, then Newton's method kept in the bracket.
        let solve = |x: f64| {
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            for _ in 0..24 {
                let mid = 0.5 * (lo + hi);
                if q.value_and_slope(mid).0 < x {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let mut u = 0.5 * (lo + hi);
            for _ in 0..4 {
                let df = q.slope(u);
                if df != 0.0 {
                    u = (u - (q.value_and_slope(u).0 - x) / df).clamp(lo, hi);
                }
            }
            u
        };
        let u: [f64; SAMPLES] = std::array::from_fn(|i| solve(x0 + dx * i as f64));
        let dudx: [f64; SAMPLES] = std::array::from_fn(|i| {
            let slope = q.slope(u[i]);
            let secant = if i + 1 < SAMPLES {
                (u[i + 1] - u[i]) / dx
            } else {
                (u[i] - u[i - 1]) / dx
            };
            // Where x'(u) vanishes (a vertical tangent of u(x)) the secant stands in.
            if slope.abs() * secant.abs() > 1e-3 {
                1.0 / slope
            } else {
                secant
            }
        });
        let nodes = u.iter().zip(dudx).map(|(&u, d)| [u, dx * d]).collect();
        Self {
            x0,
            dx,
            per_dx: 1.0 / dx,
            nodes,
        }
    }

    /// u near x: the Hermite cubic of its interval, kept inside the interval's u.
    fn guess(&self, x: f64) -> f64 {
        if self.dx <= 0.0 {
            return 0.0;
        }
        let s = ((x - self.x0) * self.per_dx).clamp(0.0, (SAMPLES - 1) as f64);
        let i = (s as usize).min(SAMPLES - 2);
        let t = s - i as f64;
        let (t2, t3) = (t * t, t * t * t);
        let ([u0, m0], [u1, m1]) = (self.nodes[i], self.nodes[i + 1]);
        let u = (2.0 * t3 - 3.0 * t2 + 1.0) * u0
            + (t3 - 2.0 * t2 + t) * m0
            + (3.0 * t2 - 2.0 * t3) * u1
            + (t3 - t2) * m1;
        u.clamp(u0, u1)
    }
}

/// A quintic in the power basis, `Σ aₖ uᵏ`, with its derivative's coefficients `bₖ = (k+1) aₖ₊₁`
/// (the Bézier section converted once). Both are evaluated by Estrin's scheme,
/// `(a₀ + a₁u) + u²(a₂ + a₃u) + u⁴(a₄ + a₅u)`: three dependent multiply–add levels instead of
/// Horner's five for two more multiplications, and for u ∈ [0, 1] a rounding error of the same
/// few ulps as Horner's (the Newton tolerance below is 100 ε on x).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Quintic {
    a: [f64; 6],
    b: [f64; 5],
}

impl Quintic {
    /// aₖ = C(5, k) Σᵢ₌₀ᵏ (−1)ᵏ⁻ⁱ C(k, i) pᵢ.
    fn from_bezier(p: &Section) -> Self {
        const C5: [f64; 6] = [1.0, 5.0, 10.0, 10.0, 5.0, 1.0];
        let binomial = |k: usize, i: usize| -> f64 {
            (0..i).fold(1.0, |acc, j| acc * (k - j) as f64 / (j + 1) as f64)
        };
        let a: [f64; 6] = std::array::from_fn(|k| {
            let sum: f64 = (0..=k)
                .map(|i| {
                    let sign = if (k - i) % 2 == 0 { 1.0 } else { -1.0 };
                    sign * binomial(k, i) * p[i]
                })
                .sum();
            C5[k] * sum
        });
        let b = std::array::from_fn(|k| (k + 1) as f64 * a[k + 1]);
        Self { a, b }
    }

    /// The value and the derivative d/du at u.
    #[inline]
    fn value_and_slope(&self, u: f64) -> (f64, f64) {
        let (a, b) = (&self.a, &self.b);
        let u2 = u * u;
        let u4 = u2 * u2;
        let value = (a[0] + a[1] * u) + u2 * (a[2] + a[3] * u) + u4 * (a[4] + a[5] * u);
        let slope = (b[0] + b[1] * u) + u2 * (b[2] + b[3] * u) + u4 * b[4];
        (value, slope)
    }

    fn slope(&self, u: f64) -> f64 {
        self.value_and_slope(u).1
    }
}

/// A smooth segmented curve (its data shared between clones: muscles with the same curve
/// properties share one, so a model's curves stay in cache).
#[derive(Clone, Debug, PartialEq)]
pub struct SmoothCurve {
    data: Arc<CurveData>,
}

/// A curve's sections, in the Bézier and power bases, and its inverse tables.
#[derive(Debug)]
struct CurveData {
    x: Vec<Section>,
    y: Vec<Section>,
    /// x(u) and y(u) of each section in the power basis.
    px: Vec<Quintic>,
    py: Vec<Quintic>,
    /// u(x) at evenly spaced x, per section, built at the first evaluation: a model's loader
    /// builds each muscle's curves and then shares equal ones, so only the curves kept pay
    /// for their tables (Rajagopal2016's 80 muscles build 400 curves, most of them equal).
    table: OnceLock<Vec<InverseTable>>,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    dydx0: f64,
    dydx1: f64,
}

/// Curves are equal when their sections and ends are: the tables follow from the sections,
/// whether built yet or not.
impl PartialEq for CurveData {
    fn eq(&self, other: &Self) -> bool {
        self.x == other.x
            && self.y == other.y
            && [self.x0, self.x1, self.y0, self.y1, self.dydx0, self.dydx1]
                == [
                    other.x0,
                    other.x1,
                    other.y0,
                    other.y1,
                    other.dydx0,
                    other.dydx1,
                ]
    }
}

impl SmoothCurve {
    /// The curve through the given sections, with the end values and slopes that extrapolate it.
    pub fn new(sections: Vec<(Section, Section)>, ends: [(f64, f64, f64); 2]) -> Self {
        let (x, y): (Vec<_>, Vec<_>) = sections.into_iter().unzip();
        let px: Vec<Quintic> = x.iter().map(Quintic::from_bezier).collect();
        let py = y.iter().map(Quintic::from_bezier).collect();
        let table = OnceLock::new();
        let [(x0, y0, dydx0), (x1, y1, dydx1)] = ends;
        let data = CurveData {
            x,
            y,
            px,
            py,
            table,
            x0,
            x1,
            y0,
            y1,
            dydx0,
            dydx1,
        };
        Self {
            data: Arc::new(data),
        }
    }

    /// Shares the data of an equal curve of `pool` (the same sections and ends), or adds this
    /// one to the pool.
    #[cfg(feature = "io")]
    pub(crate) fn share(&mut self, pool: &mut Vec<SmoothCurve>) {
        let same = |c: &SmoothCurve| Arc::ptr_eq(&c.data, &self.data) || c.data == self.data;
        match pool.iter().find(|c| same(c)) {
            Some(c) => self.data = c.data.clone(),
            None => pool.push(self.clone()),
        }
    }

    /// The inverse tables, built at the first call.
    #[inline]
    fn tables(&self) -> &[InverseTable] {
        let d = &*self.data;
        d.table.get_or_init(|| {
            d.x.iter()
                .zip(&d.px)
                .map(|(p, q)| InverseTable::new(p, q))
                .collect()
        })
    }

    /// The section holding x (`calcIndex`); x is inside [x₀, x₁].
    fn section(&self, x: f64) -> usize {
        self.data
            .x
            .iter()
            .position(|p| x >= p[0] && x < p[5])
            .unwrap_or(self.data.x.len() - 1)
    }

    /// u with x(u) = x in section k (`calcU`), with x'(u) there.
    #[inline]
    fn parameter(&self, k: usize, x: f64) -> (f64, f64) {
        let p = &self.data.px[k];
        let mut u = self.tables()[k].guess(x);
        let mut iter = 0;
        loop {
            let (value, df) = p.value_and_slope(u);
            let f = value - x;
            if f.abs() <= U_TOL || iter >= MAX_ITER || df == 0.0 {
                return (u, df);
            }
            u = (u - f / df).clamp(0.0, 1.0);
            iter += 1;
        }
    }

    /// y(x) and dy/dx at x (`calcValueAndFirstDerivative`).
    pub fn value_and_slope(&self, x: f64) -> (f64, f64) {
        let d = &*self.data;
        if x < d.x0 {
            return (d.y0 + d.dydx0 * (x - d.x0), d.dydx0);
        }
        if x > d.x1 {
            return (d.y1 + d.dydx1 * (x - d.x1), d.dydx1);
        }
        let k = self.section(x);
        let (u, dxdu) = self.parameter(k, x);
        let (y, dydu) = d.py[k].value_and_slope(u);
        (y, dydu / dxdu)
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

    #[test]
    fn the_power_basis_is_opensims_bernstein_form() {
        let p = [0.3, 0.41, 0.47, 0.9, 1.3, 1.32];
        let q = Quintic::from_bezier(&p);
        for k in 0..=20 {
            let u = k as f64 / 20.0;
            // Round-off of the power basis: a few ulps of its coefficients (~10), well under
            // the Newton tolerance of 100 ε on x.
            assert!(
                (q.value_and_slope(u).0 - bezier(u, &p)).abs() < 1e-14,
                "u {u}"
            );
            assert!(
                (q.slope(u) - bezier_du(u, &p)).abs() < 1e-13,
                "u {u}: {} {}",
                q.slope(u),
                bezier_du(u, &p)
            );
        }
    }

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

#[cfg(test)]
mod inverse_table_tests {
    use super::*;
    use crate::muscles::millard_curves::{
        ActiveForceLength, FiberForceLength, ForceVelocity, TendonForceLength,
    };

    #[test]
    fn newtons_start_is_close_to_the_root_on_the_default_millard_curves() {
        let curves = [
            ("active force-length", ActiveForceLength::default().curve()),
            ("force-velocity", ForceVelocity::default().curve()),
            ("passive force-length", FiberForceLength::default().curve()),
            ("tendon force-length", TendonForceLength::default().curve()),
        ];
        for (name, curve) in curves {
            let d = &*curve.data;
            let n = 10_000;
            let mut worst = 0.0f64;
            for i in 0..n {
                let x = d.x0 + (d.x1 - d.x0) * (i as f64 + 0.5) / n as f64;
                let k = curve.section(x);
                let guess = curve.tables()[k].guess(x);
                let (u, _) = curve.parameter(k, x);
                let (x_u, _) = d.px[k].value_and_slope(u);
                // The root itself meets the Newton tolerance.
                assert!((x_u - x).abs() <= U_TOL, "{name}: x {x}");
                worst = worst.max((guess - u).abs());
            }
            eprintln!("{name}: worst start {worst:e}");
            // Measured 2.3e-7 at most (force-velocity; the others 8e-11 to 7e-9): the cubic
            // Hermite error of 256 samples. A table off by one sample would be ~1e-3.
            assert!(
                worst < 1e-6,
                "{name}: Newton's start {worst:e} from the root"
            );
        }
    }
}

#[cfg(test)]
mod equality_tests {
    use crate::muscles::millard_curves::ForceVelocity;

    #[test]
    fn a_curve_equals_its_twin_whether_or_not_its_tables_are_built() {
        let (used, fresh) = (
            ForceVelocity::default().curve(),
            ForceVelocity::default().curve(),
        );
        used.value_and_slope(0.3);
        assert_eq!(used, fresh);
        assert_ne!(used, ForceVelocity::default().inverse_curve());
    }
}
