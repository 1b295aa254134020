//! GCVSPL's band matrices: FORTRAN-indexed column-major storage and its `BANDET`, `BANSOL`
//! and `TRINV` (LU decomposition, solve, and the trace of the inverse).

/// Column-major band storage `e(lo..=hi, 1..=n)`, FORTRAN-indexed.
pub(super) struct Band {
    lo: isize,
    rows: isize,
    pub(super) data: Vec<f64>,
}

impl Band {
    pub(super) fn new(lo: isize, hi: isize, n: isize) -> Self {
        let rows = hi - lo + 1;
        Self {
            lo,
            rows,
            data: vec![0.0; (rows * n) as usize],
        }
    }

    pub(super) fn at(&self, k: isize, i: isize) -> usize {
        (k - self.lo + (i - 1) * self.rows) as usize
    }

    pub(super) fn get(&self, k: isize, i: isize) -> f64 {
        self.data[self.at(k, i)]
    }

    pub(super) fn set(&mut self, k: isize, i: isize, v: f64) {
        let at = self.at(k, i);
        self.data[at] = v;
    }
}

/// GCVSPL's `BANDET`: the LU decomposition of the band matrix `E(−m..m, n)` in place.
pub(super) fn bandet(e: &mut Band, m: isize, n: isize) {
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
pub(super) fn bansol(e: &Band, y: &[f64], c: &mut [f64], m: isize, n: isize) {
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
pub(super) fn trinv(b: &Band, e: &mut Band, m: isize, n: isize) -> f64 {
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
