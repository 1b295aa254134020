//! GCVSPL's fit: the B-spline and divided-difference bands (`BASIS`, `PREP`), the driver
//! (`GCVSPL`), the smoothing-parameter search (`SEARCH` on `p`) and `SPLC`.

use super::band::{bandet, bansol, trinv, Band};
use super::{EPS, GOLDEN};

/// GCVSPL's driver for one data column with unit weights (`gcvspl_`, `MD > 0`).
pub(super) fn fit_coefficients(m: isize, x: &[f64], y: &[f64], md: i32, val: f64) -> Vec<f64> {
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
    let r1 = if md == 1 { val } else { fit.search(1.0 / el) };
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
