//! GCVSPL's evaluation: the knot search and `SPLDER`, generic over the scalar.

use super::MAX_HALF_ORDER;
use crate::scalar::Real;

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
pub(super) fn splder<T: Real>(ider: isize, m: isize, t: T, x: &[f64], c: &[f64]) -> T {
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
