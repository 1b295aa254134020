//! Woltring's generalized cross-validatory smoothing spline (GCVSPL), as OpenSim's `GCVSpline`
//! and Simbody's `SplineFitter` use it: a natural spline of odd degree `2m − 1` through or near
//! the points `(xᵢ, yᵢ)`, minimising
//!
//! `Σ (yᵢ − s(xᵢ))² + p ∫ (s⁽ᵐ⁾(x))² dx`,
//!
//! with the smoothing parameter `p` given, or chosen by GCVSPL's search (a bracketing by factors
//! of two, then a golden-section search on `p`) to minimise the generalized cross-validation
//! function, to match a known error variance, or to leave given degrees of freedom. OpenSim's
//! `GCVSpline` fits by the error variance (0 unless the file says otherwise, which drives `p`
//! to GCVSPL's lower bound `10⁻¹⁵/‖W‖` and so interpolates), or by GCV when the variance is
//! negative. Beyond the knots the spline continues as the end pieces' polynomials of degree
//! `m − 1`, as GCVSPL's `SPLDER` evaluates it.
//!
//! The code follows Simbody's `gcvspl.cpp` (the f2c translation of Woltring's FORTRAN)
//! statement for statement, with the data weights all 1 as `SplineFitter` passes them, so
//! that the coefficients are Simbody's to round-off. Indices below are the FORTRAN's (1-based,
//! bands from `−m` to `m`), mapped onto 0-based storage by small index helpers.
//!
//! Citation: H. J. Woltring (1986), "A FORTRAN package for generalized, cross-validatory
//! spline smoothing and differentiation", *Advances in Engineering Software* 8(2):104–113.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// The largest half-order evaluated without allocation (degree 31); OpenSim's documented
/// range is 1 to 4 (linear to heptic).
pub const MAX_HALF_ORDER: usize = 16;

/// GCVSPL's lower bound on `p ‖W‖` (its `c_b6`).
const EPS: f64 = 1e-15;
/// The golden ratio as GCVSPL writes it.
const GOLDEN: f64 = 1.618033983;

/// How the smoothing parameter is chosen (GCVSPL's mode `MD`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoothing {
    /// `p` given (mode 1).
    Parameter(f64),
    /// Minimise the generalized cross-validation function (mode 2).
    Gcv,
    /// Match a known error variance (mode 3; OpenSim's `error_variance`).
    ErrorVariance(f64),
    /// Leave these degrees of freedom to the residual (mode 4).
    DegreesOfFreedom(f64),
}

impl Smoothing {
    fn mode(self) -> (i32, f64) {
        match self {
            Smoothing::Parameter(p) => (1, p),
            Smoothing::Gcv => (2, 0.0),
            Smoothing::ErrorVariance(v) => (3, v),
            Smoothing::DegreesOfFreedom(d) => (4, d),
        }
    }
}

/// A fitted GCVSPL spline: its knots and one coefficient per knot.
#[derive(Clone, Debug, PartialEq)]
pub struct GcvSpline {
    half_order: usize,
    x: Vec<f64>,
    c: Vec<f64>,
}

impl GcvSpline {
    /// Fits a spline of odd `degree` to the points; errors unless the degree is odd and at most
    /// `2 MAX_HALF_ORDER − 1`, there are as many x as y and at least `degree + 1` of them, all
    /// finite, x strictly increasing, and the smoothing value is in GCVSPL's range.
    pub fn fit(
        degree: usize,
        x: Vec<f64>,
        y: &[f64],
        smoothing: Smoothing,
    ) -> Result<Self, ModelError> {
        if degree % 2 == 0 || degree > 2 * MAX_HALF_ORDER - 1 {
            return Err(invalid!(
                "the degree must be odd and at most {}, got {degree}",
                2 * MAX_HALF_ORDER - 1
            ));
        }
        let m = degree.div_ceil(2);
        let n = x.len();
        if n != y.len() {
            return Err(invalid!("{n} x values but {} y values", y.len()));
        }
        if n < 2 * m {
            return Err(invalid!(
                "a spline of degree {degree} needs at least {} points, got {n}",
                2 * m
            ));
        }
        if !x.iter().chain(y).all(|v| v.is_finite()) {
            return Err("every point must be finite".into());
        }
        if x.windows(2).any(|w| w[1] <= w[0]) {
            return Err("x values must increase strictly".into());
        }
        let (md, val) = smoothing.mode();
        let out_of_range =
            !val.is_finite() || (md != 2 && val < 0.0) || (md == 4 && val > (n - m) as f64);
        if out_of_range {
            return Err(invalid!(
                "smoothing value {val} is out of range for {smoothing:?}"
            ));
        }
        let c = fit_coefficients(m as isize, &x, y, md, val);
        Ok(Self {
            half_order: m,
            x,
            c,
        })
    }

    /// The half-order `m` (degree `2m − 1`).
    pub fn half_order(&self) -> usize {
        self.half_order
    }

    /// The spline's coefficients (OpenSim's `GCVSpline::getCoefficients`).
    pub fn coefficients(&self) -> &[f64] {
        &self.c
    }

    /// The `order`-th derivative at `t` (GCVSPL's `SPLDER`); derivatives of order `2m` and
    /// above are zero.
    pub fn derivative_at<T: Real>(&self, order: usize, t: T) -> T {
        splder(
            order as isize,
            self.half_order as isize,
            t,
            &self.x,
            &self.c,
        )
    }
}

/// Column-major band storage `e(lo..=hi, 1..=n)`, FORTRAN-indexed.
struct Band {
    lo: isize,
    rows: isize,
    data: Vec<f64>,
}

impl Band {
    fn new(lo: isize, hi: isize, n: isize) -> Self {
        let rows = hi - lo + 1;
        Self {
            lo,
            rows,
            data: vec![0.0; (rows * n) as usize],
        }
    }

    fn at(&self, k: isize, i: isize) -> usize {
        (k - self.lo + (i - 1) * self.rows) as usize
    }

    fn get(&self, k: isize, i: isize) -> f64 {
        self.data[self.at(k, i)]
    }

    fn set(&mut self, k: isize, i: isize, v: f64) {
        let at = self.at(k, i);
        self.data[at] = v;
    }
}

/// GCVSPL's driver for one data column with unit weights (`gcvspl_`, `MD > 0`).
fn fit_coefficients(m: isize, x: &[f64], y: &[f64], md: i32, val: f64) -> Vec<f64> {
    let n = x.len() as isize;
    let (b, bl) = basis(m, n, x);
    let (we, el) = prep(m, n, x);
    let el = el / bl;
    let mut fit = Fit {
        m,
        n,
        y,
        md,
        val,
        el,
        b,
        we,
        bwe: Band::new(-m, m, n),
        c: vec![0.0; n as usize],
        stat: [0.0; 7],
    };
    let mut r1;
    if md == 1 {
        r1 = val;
    } else {
        r1 = 1.0 / el;
        r1 = fit.search(r1);
    }
    fit.splc(r1);
    fit.c
}

/// The state GCVSPL's `SPLC` works on.
struct Fit<'a> {
    m: isize,
    n: isize,
    y: &'a [f64],
    md: i32,
    val: f64,
    el: f64,
    b: Band,
    we: Band,
    bwe: Band,
    c: Vec<f64>,
    /// GCVSPL's `WK(1..6)` statistics (index 0 unused).
    stat: [f64; 7],
}

impl Fit<'_> {
    /// GCVSPL's search for `p` (labels 20–90 of `gcvspl_`), from `r1 = 1/‖W‖`.
    fn search(&mut self, mut r1: f64) -> f64 {
        let mut r2 = r1 * 2.0;
        let mut gf2 = self.splc(r2);
        loop {
            let gf1 = self.splc(r1);
            if gf1 > gf2 {
                break;
            }
            if self.stat[4] <= 0.0 {
                return r1;
            }
            r2 = r1;
            gf2 = gf1;
            r1 /= 2.0;
        }
        let mut r3 = r2 * 2.0;
        loop {
            let gf3 = self.splc(r3);
            if gf3 > gf2 {
                break;
            }
            // GCVSPL's 1e15 bound, as the C literal 999999999999999.88 rounds.
            if self.stat[4] >= 999_999_999_999_999.9 {
                return r1;
            }
            gf2 = gf3;
            r3 *= 2.0;
        }
        r2 = r3;
        let mut alpha = (r2 - r1) / GOLDEN;
        let mut r4 = r1 + alpha;
        r3 = r2 - alpha;
        let mut gf3 = self.splc(r3);
        let mut gf4 = self.splc(r4);
        loop {
            if gf3 <= gf4 {
                r2 = r4;
                let err = (r2 - r1) / (r1 + r2);
                if err * err + 1.0 == 1.0 || err <= 1e-6 {
                    break;
                }
                r4 = r3;
                gf4 = gf3;
                alpha /= GOLDEN;
                r3 = r2 - alpha;
                gf3 = self.splc(r3);
            } else {
                r1 = r3;
                let err = (r2 - r1) / (r1 + r2);
                if err * err + 1.0 == 1.0 || err <= 1e-6 {
                    break;
                }
                r3 = r4;
                gf3 = gf4;
                alpha /= GOLDEN;
                r4 = r1 + alpha;
                gf4 = self.splc(r4);
            }
        }
        (r1 + r2) / 2.0
    }

    /// GCVSPL's `SPLC`: the coefficients for smoothing parameter `p`, the statistics, and the
    /// criterion the search minimises.
    fn splc(&mut self, p: f64) -> f64 {
        let (m, n, el) = (self.m, self.n, self.el);
        let mut dp = p;
        self.stat[4] = p;
        let pel = p * el;
        if pel < EPS {
            dp = EPS / el;
            self.stat[4] = 0.0;
        }
        if pel * EPS > 1.0 {
            dp = 1.0 / (el * EPS);
            self.stat[4] = dp;
        }
        for i in 1..=n {
            for l in -m.min(i - 1)..=m.min(n - i) {
                let weighted = dp * self.we.get(l, i);
                let v = if l.abs() == m {
                    weighted
                } else {
                    self.b.get(l, i) + weighted
                };
                self.bwe.set(l, i, v);
            }
        }
        bandet(&mut self.bwe, m, n);
        bansol(&self.bwe, self.y, &mut self.c, m, n);
        self.stat[3] = trinv(&self.we, &mut self.bwe, m, n) * dp;
        let trn = self.stat[3] / n as f64;
        let mut esn = 0.0;
        for i in 1..=n {
            let mut dt = -self.y[(i - 1) as usize];
            for l in -(m - 1).min(i - 1)..=(m - 1).min(n - i) {
                dt += self.b.get(l, i) * self.c[(i + l - 1) as usize];
            }
            esn += dt * dt;
        }
        esn /= n as f64;
        self.stat[6] = esn / trn;
        self.stat[1] = self.stat[6] / trn;
        self.stat[2] = esn;
        if self.md == 3 {
            self.stat[5] = esn - self.val * (trn * 2.0 - 1.0);
            self.stat[5]
        } else {
            self.stat[5] = self.stat[6] - esn;
            match self.md {
                2 => self.stat[1],
                4 => (self.stat[3] - self.val).abs(),
                _ => 0.0,
            }
        }
    }
}

/// GCVSPL's `BASIS`: the B-spline band `B(1−m..m−1, n)` and its mean absolute entry.
fn basis(m: isize, n: isize, x: &[f64]) -> (Band, f64) {
    let mut b = Band::new(1 - m, m - 1, n);
    let xv = |i: isize| x[(i - 1) as usize];
    if m == 1 {
        for i in 1..=n {
            b.set(0, i, 1.0);
        }
        return (b, 1.0);
    }
    let (mm1, mp1, m2) = (m - 1, m + 1, 2 * m);
    // Q(1−m..m).
    let mut q = vec![0.0; (2 * m) as usize];
    let qi = |j: isize| (j + m - 1) as usize;
    for l in 1..=n {
        q.iter_mut().for_each(|v| *v = 0.0);
        q[qi(mm1)] = 1.0;
        if l != 1 && l != n {
            q[qi(mm1)] = 1.0 / (xv(l + 1) - xv(l - 1));
        }
        let arg = xv(l);
        for i in 3..=m2 {
            let mut ir = mp1 - i;
            let mut v = q[qi(ir)];
            if l < i {
                for j in l + 1..=i {
                    let u = v;
                    v = q[qi(ir + 1)];
                    q[qi(ir)] = u + (xv(j) - arg) * v;
                    ir += 1;
                }
            }
            let j1 = (l - i + 1).max(1);
            let j2 = (l - 1).min(n - i);
            if j1 <= j2 {
                for j in j1..=j2 {
                    let u = v;
                    v = q[qi(ir + 1)];
                    q[qi(ir)] = if i < m2 {
                        let y = xv(i + j);
                        u + (v - u) * (y - arg) / (y - xv(j))
                    } else {
                        (arg - xv(j)) * u + (xv(i + j) - arg) * v
                    };
                    ir += 1;
                }
            }
            let nmip1 = n - i + 1;
            if nmip1 < l {
                for j in nmip1..=l - 1 {
                    let u = v;
                    v = q[qi(ir + 1)];
                    q[qi(ir)] = (arg - xv(j)) * u + v;
                    ir += 1;
                }
            }
        }
        for j in -mm1..=mm1 {
            b.set(j, l, q[qi(j)]);
        }
    }
    for i in 1..=mm1 {
        for k in i..=mm1 {
            b.set(-k, i, 0.0);
            b.set(k, n + 1 - i, 0.0);
        }
    }
    let mut bl = 0.0;
    for i in 1..=n {
        for k in -mm1..=mm1 {
            bl += b.get(k, i).abs();
        }
    }
    (b, bl / n as f64)
}

/// GCVSPL's `PREP` with unit weights: the weighted divided-difference band `WE(−m..m, n)` and
/// its mean absolute entry.
fn prep(m: isize, n: isize, x: &[f64]) -> (Band, f64) {
    let mut band = Band::new(-m, m, n);
    // `WE` addressed as the FORTRAN's flat 1-based array.
    let we = &mut band.data;
    let xv = |i: isize| x[(i - 1) as usize];
    let (m2, mp1) = (2 * m, m + 1);
    let (m2m1, m2p1, nm) = (m2 - 1, m2 + 1, n - m);
    let mut f1 = -1.0;
    if m != 1 {
        for i in 2..=m {
            f1 = -f1 * i as f64;
        }
        for i in mp1..=m2m1 {
            f1 *= i as f64;
        }
    }
    let (mut i1, mut i2, mut jm) = (1, m, mp1);
    for j in 1..=n {
        let mut inc = m2p1;
        let f;
        if j > nm {
            f1 = -f1;
            f = f1;
        } else if j < mp1 {
            inc = 1;
            f = f1;
        } else {
            f = f1 * (xv(j + m) - xv(j - m));
        }
        if j > mp1 {
            i1 += 1;
        }
        if i2 < n {
            i2 += 1;
        }
        let mut jj = jm;
        let mut ff = f;
        let y = xv(i1);
        let i1p1 = i1 + 1;
        for i in i1p1..=i2 {
            ff /= y - xv(i);
        }
        we[(jj - 1) as usize] = ff;
        jj += m2;
        let i2m1 = i2 - 1;
        if i1p1 <= i2m1 {
            for l in i1p1..=i2m1 {
                ff = f;
                let y = xv(l);
                for i in i1..=l - 1 {
                    ff /= y - xv(i);
                }
                for i in l + 1..=i2 {
                    ff /= y - xv(i);
                }
                we[(jj - 1) as usize] = ff;
                jj += m2;
            }
        }
        ff = f;
        let y = xv(i2);
        for i in i1..=i2m1 {
            ff /= y - xv(i);
        }
        we[(jj - 1) as usize] = ff;
        jm += inc;
    }
    let mut kl = 1;
    let n2m = m2p1 * n + 1;
    for i in 1..=m {
        for k in kl..=kl + m - i {
            we[(k - 1) as usize] = 0.0;
            we[(n2m - k - 1) as usize] = 0.0;
        }
        kl += m2p1;
    }
    let el = we.iter().map(|v| v.abs()).sum::<f64>() / n as f64;
    (band, el)
}

/// GCVSPL's `BANDET`: the LU decomposition of the band matrix `E(−m..m, n)` in place.
fn bandet(e: &mut Band, m: isize, n: isize) {
    for i in 1..=n {
        let mut di = e.get(0, i);
        let mi = m.min(i - 1);
        if mi >= 1 {
            for k in 1..=mi {
                di -= e.get(-k, i) * e.get(k, i - k);
            }
            e.set(0, i, di);
        }
        let lm = m.min(n - i);
        for l in 1..=lm {
            let mut dl = e.get(-l, i + l);
            let km = (m - l).min(i - 1);
            if km >= 1 {
                let mut du = e.get(l, i);
                for k in 1..=km {
                    du -= e.get(-k, i) * e.get(l + k, i - k);
                    dl -= e.get(-l - k, l + i) * e.get(k, i - k);
                }
                e.set(l, i, du);
            }
            e.set(-l, i + l, dl / di);
        }
    }
}

/// GCVSPL's `BANSOL`: solves `E c = y` with the factors from [`bandet`].
fn bansol(e: &Band, y: &[f64], c: &mut [f64], m: isize, n: isize) {
    let ci = |i: isize| (i - 1) as usize;
    c[0] = y[0];
    for i in 2..=n {
        let mut d = y[ci(i)];
        for l in 1..=m.min(i - 1) {
            d -= e.get(-l, i) * c[ci(i - l)];
        }
        c[ci(i)] = d;
    }
    c[ci(n)] /= e.get(0, n);
    for i in (1..n).rev() {
        let mut d = c[ci(i)];
        for l in 1..=m.min(n - i) {
            d -= e.get(l, i) * c[ci(i + l)];
        }
        c[ci(i)] = d / e.get(0, i);
    }
}

/// GCVSPL's `TRINV`: the central bands of `E⁻¹` (into `e`) and `trace(B E⁻¹)` with `B` the
/// band `b`.
fn trinv(b: &Band, e: &mut Band, m: isize, n: isize) -> f64 {
    let inv = 1.0 / e.get(0, n);
    e.set(0, n, inv);
    for i in (1..n).rev() {
        let mi = m.min(n - i);
        let mut dd = 1.0 / e.get(0, i);
        for k in 1..=mi {
            let upper = e.get(k, i) * dd;
            e.set(k, n, upper);
            let lower = e.get(-k, k + i);
            e.set(-k, 1, lower);
        }
        dd += dd;
        for j in (1..=mi).rev() {
            let mut du = 0.0;
            let mut dl = 0.0;
            for k in 1..=mi {
                du -= e.get(k, n) * e.get(j - k, i + k);
                dl -= e.get(-k, 1) * e.get(k - j, i + j);
            }
            e.set(j, i, du);
            e.set(-j, j + i, dl);
            dd -= e.get(j, n) * dl + e.get(-j, 1) * du;
        }
        e.set(0, i, dd / 2.0);
    }
    let mut dd = 0.0;
    for i in 1..=n {
        for k in -m.min(i - 1)..=m.min(n - i) {
            dd += b.get(k, i) * e.get(-k, k + i);
        }
    }
    for k in 1..=m {
        e.set(k, n, 0.0);
        e.set(-k, 1, 0.0);
    }
    dd
}

/// GCVSPL's `SEARCH`: `l` with `x[l] ≤ t < x[l+1]` (1-based), 0 before the first knot and `n`
/// from the last.
fn search(x: &[f64], t: f64) -> isize {
    let n = x.len();
    if t < x[0] {
        return 0;
    }
    if t >= x[n - 1] {
        return n as isize;
    }
    x.partition_point(|&xi| xi <= t) as isize
}

/// GCVSPL's `SPLDER`: the `ider`-th derivative at `t` of the spline of half-order `m`.
fn splder<T: Real>(ider: isize, m: isize, t: T, x: &[f64], c: &[f64]) -> T {
    let n = x.len() as isize;
    let m2 = 2 * m;
    let k = m2 - ider;
    if k < 1 {
        return T::zero();
    }
    let xv = |i: isize| x[(i - 1) as usize];
    let l = search(x, t.re());
    // Q(1..2m), 1-based; slot 0 unused.
    let mut q = [T::zero(); 2 * MAX_HALF_ORDER + 1];
    let qi = |j: isize| j as usize;
    let (mp1, npm, m2m1) = (m + 1, n + m, m2 - 1);
    let k1 = k - 1;
    let nk = n - k;
    let lk1 = l - k + 1;
    let mut jl = l + 1;
    let ju = l + m2;
    let mut ii = n - m2;
    let mut ml = -l;
    for j in jl..=ju {
        q[qi(j + ml)] = if j >= mp1 && j <= npm {
            T::c(c[(j - m - 1) as usize])
        } else {
            T::zero()
        };
    }
    if ider > 0 {
        jl -= m2;
        ml += m2;
        for i in 1..=ider {
            jl += 1;
            ii += 1;
            let j1 = jl.max(1);
            let j2 = l.min(ii);
            let mi = m2 - i;
            let mut j = j2 + 1;
            if j1 <= j2 {
                for _ in j1..=j2 {
                    j -= 1;
                    let jm = ml + j;
                    q[qi(jm)] = (q[qi(jm)] - q[qi(jm - 1)]) / T::c(xv(j + mi) - xv(j));
                }
            }
            if jl >= 1 {
                continue;
            }
            let i1 = i + 1;
            let mut j = ml + 1;
            if i1 <= ml {
                for _ in i1..=ml {
                    j -= 1;
                    q[qi(j)] = -q[qi(j - 1)];
                }
            }
        }
        for j in 1..=k {
            q[qi(j)] = q[qi(j + ider)];
        }
    }
    for i in 1..=k1 {
        let nki = nk + i;
        let mut ir = k;
        let mut jj = l;
        let ki = k - i;
        let nki1 = nki + 1;
        if l >= nki1 {
            for _ in nki1..=l {
                q[qi(ir)] = q[qi(ir - 1)] + (t - T::c(xv(jj))) * q[qi(ir)];
                jj -= 1;
                ir -= 1;
            }
        }
        let lk1i = lk1 + i;
        let j1 = lk1i.max(1);
        let j2 = l.min(nki);
        if j1 <= j2 {
            for _ in j1..=j2 {
                let xjki = xv(jj + ki);
                let z = q[qi(ir)];
                q[qi(ir)] = z + (T::c(xjki) - t) * (q[qi(ir - 1)] - z) / T::c(xjki - xv(jj));
                ir -= 1;
                jj -= 1;
            }
        }
        if lk1i <= 0 {
            jj = ki;
            for _ in 1..=1 - lk1i {
                q[qi(ir)] += (T::c(xv(jj)) - t) * q[qi(ir - 1)];
                jj -= 1;
                ir -= 1;
            }
        }
    }
    let mut z = q[qi(k)];
    if ider > 0 {
        for j in k..=m2m1 {
            z *= T::c(j as f64);
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    fn knots() -> (Vec<f64>, Vec<f64>) {
        let x: Vec<f64> = (0..14)
            .map(|i| 0.1 * i as f64 + 0.02 * (i % 3) as f64)
            .collect();
        let y = x.iter().map(|t| (2.0 * t).sin() + 0.3 * t).collect();
        (x, y)
    }

    #[test]
    fn zero_error_variance_interpolates() {
        let (x, y) = knots();
        for degree in [1, 3, 5, 7] {
            let s = GcvSpline::fit(degree, x.clone(), &y, Smoothing::ErrorVariance(0.0)).unwrap();
            for (xi, yi) in x.iter().zip(&y) {
                // p = 1e-15/‖W‖ leaves a residual of that relative order.
                let v: f64 = s.derivative_at(0, *xi);
                assert!(
                    (v - yi).abs() < 1e-9,
                    "degree {degree} at {xi}: {v} vs {yi}"
                );
            }
        }
    }

    #[test]
    fn straight_lines_are_kept_by_every_smoothing() {
        // A line is in the penalty's null space for m ≥ 2: any p reproduces it, and beyond
        // the knots the natural spline continues it.
        let x: Vec<f64> = (0..10).map(|i| (i * i) as f64 * 0.05).collect();
        let y: Vec<f64> = x.iter().map(|t| 2.0 * t - 1.0).collect();
        for smoothing in [
            Smoothing::Parameter(0.5),
            Smoothing::Gcv,
            Smoothing::ErrorVariance(0.0),
            Smoothing::DegreesOfFreedom(2.0),
        ] {
            let s = GcvSpline::fit(3, x.clone(), &y, smoothing).unwrap();
            for t in [-1.0, 0.0, 0.7, 2.0, 4.05, 6.0] {
                let (v, d1, d2): (f64, f64, f64) = (
                    s.derivative_at(0, t),
                    s.derivative_at(1, t),
                    s.derivative_at(2, t),
                );
                assert!(
                    (v - (2.0 * t - 1.0)).abs() < 1e-9,
                    "{smoothing:?} at {t}: {v}"
                );
                assert!(
                    (d1 - 2.0).abs() < 1e-9 && d2.abs() < 1e-8,
                    "{smoothing:?}: {d1} {d2}"
                );
            }
        }
    }

    #[test]
    fn derivatives_are_the_dual_numbers_and_vanish_from_order_2m() {
        let (x, y) = knots();
        let s = GcvSpline::fit(5, x, &y, Smoothing::Gcv).unwrap();
        for t in [-0.2, 0.0, 0.33, 0.8, 1.35, 1.6] {
            for order in 0..5 {
                let dual = s.derivative_at(order, Dual64::new(t, 1.0));
                let next: f64 = s.derivative_at(order + 1, t);
                let scale = next.abs().max(1.0);
                assert!(
                    (dual.eps - next).abs() < 1e-9 * scale,
                    "order {order} at {t}"
                );
            }
            assert_eq!(s.derivative_at(6, t), 0.0);
        }
    }

    #[test]
    fn bad_input_is_refused() {
        let (x, y) = knots();
        let fit = |degree, x: &[f64], y: &[f64], s| GcvSpline::fit(degree, x.to_vec(), y, s);
        assert!(fit(4, &x, &y, Smoothing::Gcv).is_err());
        assert!(fit(33, &x, &y, Smoothing::Gcv).is_err());
        assert!(fit(5, &x[..5], &y[..5], Smoothing::Gcv).is_err());
        assert!(fit(5, &x, &y[1..], Smoothing::Gcv).is_err());
        let mut repeated = x.clone();
        repeated[3] = repeated[2];
        assert!(fit(3, &repeated, &y, Smoothing::Gcv).is_err());
        let mut nan = y.clone();
        nan[4] = f64::NAN;
        assert!(fit(3, &x, &nan, Smoothing::Gcv).is_err());
        assert!(fit(3, &x, &y, Smoothing::ErrorVariance(-1.0)).is_err());
        assert!(fit(3, &x, &y, Smoothing::DegreesOfFreedom(100.0)).is_err());
        assert!(fit(3, &x, &y, Smoothing::Parameter(f64::INFINITY)).is_err());
    }
}
