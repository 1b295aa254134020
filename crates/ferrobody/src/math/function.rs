//! Functions of one coordinate, as OpenSim's `CustomJoint` uses them to map coordinates to the
//! six spatial coordinates of a joint, with first and second derivatives (Simbody's
//! `Function::calcDerivative`), generic over the scalar type.
//!
//! | kind | value |
//! |---|---|
//! | `Constant` | `c` |
//! | `Linear` | `a x + b` (OpenSim `LinearFunction`, coefficients `a b`) |
//! | `Polynomial` | `Σ cᵢ x^(n−1−i)`, highest power first (Simbody `Function::Polynomial`) |
//! | `Spline` | OpenSim's `SimmSpline`: Forsythe–Malcolm–Moler cubic spline, end conditions from the third divided differences, linear beyond the knots |
//! | `Multiplier` | `s f(x)` (OpenSim `MultiplierFunction`) |
//! | `Sine` | `A sin(ω x + φ) + c` (OpenSim `Sine`) |
//! | `PiecewiseLinear` | straight lines between knots, end slopes beyond (OpenSim `PiecewiseLinearFunction`) |
//! | `PiecewiseConstant` | the left knot's value (OpenSim `PiecewiseConstantFunction`) |
//! | `Step` | Simbody's quintic smooth step from y₀ at x₀ to y₁ at x₁ (OpenSim `StepFunction`) |
//! | `Gcv` | Woltring's smoothing spline of odd degree (OpenSim `GCVSpline`, `math::gcv_spline`) |
//!
//! Citation: G. E. Forsythe, M. A. Malcolm, C. B. Moler (1977), *Computer Methods for
//! Mathematical Computations*, §4.4 (the spline OpenSim's `SimmSpline::calcCoefficients` codes).

use crate::error::{invalid, ModelError};
use crate::math::gcv_spline::GcvSpline;
use crate::scalar::Real;

/// Knot spacings below this are raised to it (OpenSim's `TINY_NUMBER`).
const TINY_NUMBER: f64 = 1e-7;
/// Abscissae this close to an end knot evaluate at the knot (OpenSim's `ROUNDOFF_ERROR`).
const ROUNDOFF_ERROR: f64 = 2e-13;

/// A function of one variable with two derivatives.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Function {
    /// A constant.
    Constant(f64),
    /// `slope x + intercept`.
    Linear {
        /// Slope.
        slope: f64,
        /// Intercept.
        intercept: f64,
    },
    /// Coefficients, highest power first.
    Polynomial(Vec<f64>),
    /// OpenSim's `SimmSpline`.
    Spline(CubicSpline),
    /// `scale · f(x)`.
    Multiplier(Box<Function>, f64),
    /// OpenSim's `PiecewiseLinearFunction`.
    PiecewiseLinear(PiecewiseLinear),
    /// OpenSim's `PiecewiseConstantFunction`: the knot value to the left (x and y as given).
    PiecewiseConstant(PiecewiseLinear),
    /// OpenSim's `StepFunction` (Simbody's `Function::Step`): `y₀` up to `x₀`, `y₁` from
    /// `x₁`, and `y₀ + (y₁ − y₀) s³(10 − 15s + 6s²)` between, `s = (x − x₀)/(x₁ − x₀)`.
    Step {
        /// `start_value`.
        y0: f64,
        /// `end_value`.
        y1: f64,
        /// `transition_start_time`.
        x0: f64,
        /// `transition_end_time` (not equal to x0).
        x1: f64,
    },
    /// OpenSim's `GCVSpline`: Woltring's GCVSPL spline.
    Gcv(GcvSpline),
    /// OpenSim's `Sine`: `amplitude sin(omega x + phase) + offset`.
    Sine {
        /// Amplitude.
        amplitude: f64,
        /// Angular frequency (rad per unit of x).
        omega: f64,
        /// Phase (rad).
        phase: f64,
        /// Offset.
        offset: f64,
    },
}

/// Straight lines between knots, extended with the end slopes (OpenSim's
/// `PiecewiseLinearFunction`: slopes `(y₁ − y₀)/max(1e-7, x₁ − x₀)`, the last slope repeated).
#[derive(Clone, Debug, PartialEq)]
pub struct PiecewiseLinear {
    x: Vec<f64>,
    y: Vec<f64>,
    b: Vec<f64>,
}

impl PiecewiseLinear {
    /// Through the knots; errors unless there are at least two, as many x as y, all finite,
    /// x non-decreasing.
    pub fn new(x: Vec<f64>, y: Vec<f64>) -> Result<Self, ModelError> {
        let n = x.len();
        if n != y.len() {
            return Err(invalid!("{n} x values but {} y values", y.len()));
        }
        if n < 2 {
            return Err(invalid!(
                "a piecewise linear function needs at least 2 points, got {n}"
            ));
        }
        if !x.iter().chain(&y).all(|v| v.is_finite()) {
            return Err("every point must be finite".into());
        }
        if x.windows(2).any(|w| w[1] < w[0]) {
            return Err("x values must not decrease".into());
        }
        let mut b: Vec<f64> = x
            .windows(2)
            .zip(y.windows(2))
            .map(|(xs, ys)| (ys[1] - ys[0]) / TINY_NUMBER.max(xs[1] - xs[0]))
            .collect();
        b.push(b[n - 2]);
        Ok(Self { x, y, b })
    }

    /// The interval (by OpenSim's search) holding `t`, and whether `t` is at an end knot.
    fn eval<T: Real>(&self, t: T, order: u8) -> T {
        let n = self.x.len();
        let tr = t.re();
        let line = |k: usize| match order {
            0 => T::c(self.y[k]) + (t - T::c(self.x[k])) * T::c(self.b[k]),
            1 => T::c(self.b[k]),
            _ => T::zero(),
        };
        if tr < self.x[0] {
            return line(0);
        }
        if tr > self.x[n - 1] {
            return line(n - 1);
        }
        if (tr - self.x[0]).abs() <= ROUNDOFF_ERROR {
            return if order == 0 { T::c(self.y[0]) } else { line(0) };
        }
        if (tr - self.x[n - 1]).abs() <= ROUNDOFF_ERROR {
            return if order == 0 {
                T::c(self.y[n - 1])
            } else {
                line(n - 1)
            };
        }
        let (mut i, mut j) = (0, n);
        let k = loop {
            let k = (i + j) / 2;
            if tr < self.x[k] {
                j = k;
            } else if tr > self.x[k + 1] {
                i = k;
            } else {
                break k;
            }
        };
        line(k)
    }
}

impl PiecewiseLinear {
    /// OpenSim's `PiecewiseConstantFunction::calcValue`: the left knot's value.
    fn constant_at<T: Real>(&self, t: f64) -> T {
        let n = self.x.len();
        if t < self.x[0] || (t - self.x[0]).abs() <= ROUNDOFF_ERROR {
            return T::c(self.y[0]);
        }
        if t > self.x[n - 1] || (t - self.x[n - 1]).abs() <= ROUNDOFF_ERROR {
            return T::c(self.y[n - 1]);
        }
        let (mut i, mut j) = (0, n);
        loop {
            let k = (i + j) / 2;
            if t < self.x[k] {
                j = k;
            } else if t > self.x[k + 1] {
                i = k;
            } else {
                return T::c(self.y[k]);
            }
        }
    }
}

/// Simbody's `Function::Step` and its first two derivatives.
fn step<T: Real>(y0: f64, y1: f64, x0: f64, x1: f64, x: T, order: u8) -> T {
    let oo = 1.0 / (x1 - x0);
    let sign = oo.signum();
    let xr = x.re();
    if (xr - x0) * sign <= 0.0 {
        return if order == 0 { T::c(y0) } else { T::zero() };
    }
    if (xr - x1) * sign >= 0.0 {
        return if order == 0 { T::c(y1) } else { T::zero() };
    }
    let s = (x - T::c(x0)) * T::c(oo);
    let yr = T::c(y1 - y0);
    match order {
        0 => T::c(y0) + yr * (s * s * s * (T::c(10.0) + s * (T::c(6.0) * s - T::c(15.0)))),
        1 => {
            let sm = s * (s - T::one());
            yr * T::c(30.0) * sm * sm * T::c(oo)
        }
        _ => yr * T::c(60.0) * s * (T::one() + s * (T::c(2.0) * s - T::c(3.0))) * T::c(oo * oo),
    }
}

/// A cubic spline `y + dx (b + dx (c + dx d))` on each interval.
#[derive(Clone, Debug, PartialEq)]
pub struct CubicSpline {
    x: Vec<f64>,
    y: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    d: Vec<f64>,
}

impl CubicSpline {
    /// OpenSim's `SimmSpline` through the knots; errors unless there are at least two knots,
    /// as many x as y, all finite, and x strictly increasing.
    pub fn simm(x: Vec<f64>, y: Vec<f64>) -> Result<Self, ModelError> {
        let n = x.len();
        if n != y.len() {
            return Err(invalid!("{n} x values but {} y values", y.len()));
        }
        if n < 2 {
            return Err(invalid!("a spline needs at least 2 points, got {n}"));
        }
        if !x.iter().chain(&y).all(|v| v.is_finite()) {
            return Err("every spline point must be finite".into());
        }
        if x.windows(2).any(|w| w[1] <= w[0]) {
            return Err("spline x values must increase strictly".into());
        }
        let (b, c, d) = simm_coefficients(&x, &y);
        Ok(Self { x, y, b, c, d })
    }

    /// Value (order 0), first or second derivative at `t`.
    fn eval<T: Real>(&self, t: T, order: u8) -> T {
        self.eval_in(self.piece(t.re()), t, order)
    }

    /// Value, first and second derivative at `t`, the interval searched once.
    fn eval_all<T: Real>(&self, t: T) -> (T, T, T) {
        let piece = self.piece(t.re());
        (
            self.eval_in(piece, t, 0),
            self.eval_in(piece, t, 1),
            self.eval_in(piece, t, 2),
        )
    }

    /// Where `t` falls: before the first knot, after the last, on either (within round-off),
    /// or in the interval x[k] <= t <= x[k+1] (OpenSim's binary search).
    fn piece(&self, tr: f64) -> SplinePiece {
        let n = self.x.len();
        let (x0, xn) = (self.x[0], self.x[n - 1]);
        if tr < x0 {
            SplinePiece::Before
        } else if tr > xn {
            SplinePiece::After
        } else if (tr - x0).abs() <= ROUNDOFF_ERROR {
            SplinePiece::Knot(0)
        } else if (tr - xn).abs() <= ROUNDOFF_ERROR {
            SplinePiece::Knot(n - 1)
        } else if n < 3 {
            SplinePiece::Interval(0)
        } else {
            SplinePiece::Interval(
                self.x
                    .partition_point(|&xi| xi <= tr)
                    .saturating_sub(1)
                    .min(n - 2),
            )
        }
    }

    /// The `order`-th derivative at `t` in `piece`.
    fn eval_in<T: Real>(&self, piece: SplinePiece, t: T, order: u8) -> T {
        let n = self.x.len();
        let linear = |k: usize| match order {
            0 => T::c(self.y[k]) + (t - T::c(self.x[k])) * T::c(self.b[k]),
            1 => T::c(self.b[k]),
            _ => T::zero(),
        };
        let k = match piece {
            SplinePiece::Before => return linear(0),
            SplinePiece::After => return linear(n - 1),
            SplinePiece::Knot(k) => {
                return match order {
                    0 => T::c(self.y[k]),
                    1 => T::c(self.b[k]),
                    _ => T::c(2.0 * self.c[k]),
                }
            }
            SplinePiece::Interval(k) => k,
        };
        let dx = t - T::c(self.x[k]);
        let (b, c, d) = (T::c(self.b[k]), T::c(self.c[k]), T::c(self.d[k]));
        match order {
            0 => T::c(self.y[k]) + dx * (b + dx * (c + dx * d)),
            1 => b + dx * (c * T::c(2.0) + dx * d * T::c(3.0)),
            _ => c * T::c(2.0) + dx * d * T::c(6.0),
        }
    }
}

/// Where an argument falls on a spline (see `CubicSpline::piece`).
#[derive(Clone, Copy)]
enum SplinePiece {
    Before,
    After,
    Knot(usize),
    Interval(usize),
}

/// `SimmSpline::calcCoefficients`, statement for statement.
fn simm_coefficients(x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = x.len();
    let (mut b, mut c, mut d) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    if n == 2 {
        let t = TINY_NUMBER.max(x[1] - x[0]);
        b[0] = (y[1] - y[0]) / t;
        b[1] = b[0];
        return (b, c, d);
    }
    let (nm1, nm2) = (n - 1, n - 2);
    d[0] = TINY_NUMBER.max(x[1] - x[0]);
    c[1] = (y[1] - y[0]) / d[0];
    for i in 1..nm1 {
        d[i] = TINY_NUMBER.max(x[i + 1] - x[i]);
        b[i] = 2.0 * (d[i - 1] + d[i]);
        c[i + 1] = (y[i + 1] - y[i]) / d[i];
        c[i] = c[i + 1] - c[i];
    }
    b[0] = -d[0];
    b[nm1] = -d[nm2];
    c[0] = 0.0;
    c[nm1] = 0.0;
    if n > 3 {
        let d31 = TINY_NUMBER.max(x[3] - x[1]);
        let d20 = TINY_NUMBER.max(x[2] - x[0]);
        let d1 = TINY_NUMBER.max(x[nm1] - x[n - 3]);
        let d2 = TINY_NUMBER.max(x[nm2] - x[n - 4]);
        let d30 = TINY_NUMBER.max(x[3] - x[0]);
        let d3 = TINY_NUMBER.max(x[nm1] - x[n - 4]);
        c[0] = c[2] / d31 - c[1] / d20;
        c[nm1] = c[nm2] / d1 - c[n - 3] / d2;
        c[0] = c[0] * d[0] * d[0] / d30;
        c[nm1] = -c[nm1] * d[nm2] * d[nm2] / d3;
    }
    for i in 1..n {
        let t = d[i - 1] / b[i - 1];
        b[i] -= t * d[i - 1];
        c[i] -= t * c[i - 1];
    }
    c[nm1] /= b[nm1];
    for j in 0..nm1 {
        let i = nm2 - j;
        c[i] = (c[i] - d[i] * c[i + 1]) / b[i];
    }
    b[nm1] = (y[nm1] - y[nm2]) / d[nm2] + d[nm2] * (c[nm2] + 2.0 * c[nm1]);
    for i in 0..nm1 {
        b[i] = (y[i + 1] - y[i]) / d[i] - d[i] * (c[i + 1] + 2.0 * c[i]);
        d[i] = (c[i + 1] - c[i]) / d[i];
        c[i] *= 3.0;
    }
    c[nm1] *= 3.0;
    d[nm1] = d[nm2];
    (b, c, d)
}

impl Function {
    /// The value at `x`.
    pub fn value<T: Real>(&self, x: T) -> T {
        self.eval(x, 0)
    }

    /// The first derivative at `x`.
    pub fn derivative<T: Real>(&self, x: T) -> T {
        self.eval(x, 1)
    }

    /// The value, first and second derivative at `x` (for a spline, its interval searched
    /// once).
    pub fn value_and_derivatives<T: Real>(&self, x: T) -> (T, T, T) {
        match self {
            Function::Spline(s) => s.eval_all(x),
            Function::Multiplier(f, scale) => {
                let (v, d1, d2) = f.value_and_derivatives(x);
                let scale = T::c(*scale);
                (v * scale, d1 * scale, d2 * scale)
            }
            _ => (self.eval(x, 0), self.eval(x, 1), self.eval(x, 2)),
        }
    }

    /// The second derivative at `x`.
    pub fn second_derivative<T: Real>(&self, x: T) -> T {
        self.eval(x, 2)
    }

    fn eval<T: Real>(&self, x: T, order: u8) -> T {
        match self {
            Function::Constant(c) => {
                if order == 0 {
                    T::c(*c)
                } else {
                    T::zero()
                }
            }
            Function::Linear { slope, intercept } => match order {
                0 => x * T::c(*slope) + T::c(*intercept),
                1 => T::c(*slope),
                _ => T::zero(),
            },
            Function::Polynomial(coefficients) => polynomial(coefficients, x, order),
            Function::Spline(s) => s.eval(x, order),
            Function::Multiplier(f, scale) => f.eval(x, order) * T::c(*scale),
            Function::PiecewiseLinear(p) => p.eval(x, order),
            Function::PiecewiseConstant(p) => {
                if order == 0 {
                    p.constant_at(x.re())
                } else {
                    T::zero()
                }
            }
            Function::Step { y0, y1, x0, x1 } => step(*y0, *y1, *x0, *x1, x, order),
            Function::Gcv(spline) => spline.derivative_at(usize::from(order), x),
            Function::Sine {
                amplitude,
                omega,
                phase,
                offset,
            } => {
                let angle = T::c(*omega) * x + T::c(*phase);
                match order {
                    0 => T::c(*amplitude) * angle.sin() + T::c(*offset),
                    1 => T::c(amplitude * omega) * angle.cos(),
                    _ => -T::c(amplitude * omega * omega) * angle.sin(),
                }
            }
        }
    }
}

/// The `order`-th derivative of the polynomial with these coefficients (highest power first),
/// by Horner's rule on the differentiated coefficients.
fn polynomial<T: Real>(coefficients: &[f64], x: T, order: u8) -> T {
    let n = coefficients.len();
    let mut acc = T::zero();
    for (i, &c) in coefficients.iter().enumerate() {
        let power = (n - 1 - i) as i64;
        let factor = match order {
            0 => 1,
            1 => power,
            _ => power * (power - 1),
        };
        if power < i64::from(order) {
            continue;
        }
        acc = acc * x + T::c(c * factor as f64);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivatives_match_finite_differences() {
        let spline = CubicSpline::simm(
            vec![-1.0, -0.3, 0.2, 0.9, 1.5],
            vec![0.1, -0.2, 0.4, 0.3, -0.5],
        )
        .unwrap();
        let functions = [
            Function::Linear {
                slope: 2.0,
                intercept: -1.0,
            },
            Function::Polynomial(vec![0.5, -1.0, 2.0, 3.0]),
            Function::Spline(spline.clone()),
            Function::Multiplier(Box::new(Function::Spline(spline)), -0.7),
            Function::Sine {
                amplitude: 0.2,
                omega: 3.0,
                phase: 0.4,
                offset: 0.3,
            },
            Function::Step {
                y0: 0.2,
                y1: -0.7,
                x0: -0.5,
                x1: 1.3,
            },
        ];
        let h = 1e-6;
        for f in &functions {
            for &x in &[-1.4f64, -0.8, 0.0, 0.5, 1.2, 1.9] {
                let d1 = (f.value(x + h) - f.value(x - h)) / (2.0 * h);
                let d2 = (f.derivative(x + h) - f.derivative(x - h)) / (2.0 * h);
                assert!((f.derivative(x) - d1).abs() < 1e-6, "{f:?} at {x}");
                assert!((f.second_derivative(x) - d2).abs() < 1e-5, "{f:?} at {x}");
            }
        }
    }

    #[test]
    fn piecewise_linear_interpolates_and_extends_with_its_end_slopes() {
        let p = PiecewiseLinear::new(vec![0.0, 0.5, 1.0, 1.5, 2.0], vec![0.1, 0.6, 0.2, 0.4, 0.1])
            .unwrap();
        let f = Function::PiecewiseLinear(p);
        for (x, y) in [
            (0.0f64, 0.1f64),
            (0.25, 0.35),
            (0.5, 0.6),
            (0.75, 0.4),
            (2.0, 0.1),
        ] {
            assert!((f.value(x) - y).abs() < 1e-15, "{x}");
        }
        assert!((f.value(-1.0f64) - (0.1 - 1.0)).abs() < 1e-15);
        assert!((f.value(3.0f64) - (0.1 - 0.6)).abs() < 1e-15);
        assert_eq!(f.derivative(1.2f64), 0.4);
        assert!(PiecewiseLinear::new(vec![1.0, 0.0], vec![0.0, 1.0]).is_err());
        let c = PiecewiseLinear::new(vec![0.0, 1.0, 2.0], vec![3.0, 4.0, 5.0]).unwrap();
        let f = Function::PiecewiseConstant(c);
        let at = |x: f64| -> f64 { f.value(x) };
        assert_eq!(
            [at(-1.0), at(0.5), at(1.0), at(1.5), at(2.0), at(9.0)],
            [3.0, 3.0, 4.0, 4.0, 5.0, 5.0]
        );
    }

    #[test]
    fn step_is_simbodys_quintic() {
        let f = Function::Step {
            y0: 1.0,
            y1: 3.0,
            x0: 0.99,
            x1: 1.01,
        };
        assert_eq!(f.value(0.5f64), 1.0);
        assert_eq!(f.value(1.5f64), 3.0);
        assert!((f.value(1.0f64) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn spline_interpolates_and_extends_linearly() {
        let s = CubicSpline::simm(vec![0.0, 1.0, 2.0, 3.0], vec![0.0, 1.0, 0.0, 2.0]).unwrap();
        let f = Function::Spline(s);
        for (x, y) in [(0.0f64, 0.0f64), (1.0, 1.0), (2.0, 0.0), (3.0, 2.0)] {
            assert!((f.value(x) - y).abs() < 1e-14);
        }
        let slope: f64 = f.derivative(3.0);
        assert!((f.value(4.0f64) - (2.0 + slope)).abs() < 1e-14);
        assert_eq!(f.second_derivative(4.0f64), 0.0);
        assert!(CubicSpline::simm(vec![0.0, 0.0], vec![1.0, 2.0]).is_err());
        assert!(CubicSpline::simm(vec![0.0], vec![1.0]).is_err());
    }

    #[test]
    fn value_and_derivatives_are_the_three_evaluations_bit_for_bit() {
        let s = CubicSpline::simm(vec![0.0, 1.0, 2.0, 3.0], vec![0.0, 1.0, 0.0, 2.0]).unwrap();
        let two = CubicSpline::simm(vec![0.0, 1.0], vec![1.0, 2.0]).unwrap();
        let functions = [
            Function::Spline(s.clone()),
            Function::Spline(two),
            Function::Multiplier(Box::new(Function::Spline(s)), -1.7),
            Function::Polynomial(vec![0.5, -1.0, 2.0, 3.0]),
        ];
        // Before, on and between the knots, and after them.
        for f in &functions {
            for x in [-0.5f64, 0.0, 1e-16, 0.4, 1.0, 2.5, 3.0, 3.5] {
                let expected = (f.value(x), f.derivative(x), f.second_derivative(x));
                assert_eq!(f.value_and_derivatives(x), expected, "{f:?} at {x}");
            }
        }
    }
}
