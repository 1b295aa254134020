//! MINPACK's `lmdif` as OpenSim carries it (`OpenSim/Common/Lmdif.cpp`, `lmdif_C`): the
//! Levenberg–Marquardt minimisation of `Σ f_i(x)²` with a forward-difference Jacobian, ported
//! line for line with OpenSim's two changes — a fixed difference step h = 1e-5 in `fdjac2`, and
//! an initial step bound of `factor` when `factor·‖D x‖ ≤ 1e-4` — so that `WrapTorus` finds
//! the very points OpenSim finds (its tolerances are loose: 1e-4). Reference: Moré, Garbow,
//! Hillstrom, "User guide for MINPACK-1", Argonne ANL-80-74 (1980). Column-major storage as
//! in the original (`fjac[i + m j]`).

const MACHEP: f64 = 1.2e-16;
const DWARF: f64 = 1.0e-38;
/// The most residuals (and unknowns) a call may have: its work arrays live on the stack.
pub(crate) const MAX: usize = 4;

/// The settings of one call (OpenSim's arguments of `lmdif_C`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LmdifSettings {
    pub ftol: f64,
    pub xtol: f64,
    pub gtol: f64,
    pub maxfev: usize,
    /// `factor`: the initial step bound's scale.
    pub factor: f64,
}

/// Minimises `Σ f_i(x)²` from `x` (m residuals, n = x.len() unknowns), `fcn(x, f)` filling
/// the residuals; returns MINPACK's `info` (1–8; 0 for bad input, or more than [`MAX`]
/// residuals). `mode` 1: variables scaled
/// by the Jacobian's column norms, as OpenSim calls it.
pub(crate) fn lmdif(
    fcn: &mut dyn FnMut(&[f64], &mut [f64]),
    m: usize,
    x: &mut [f64],
    s: LmdifSettings,
) -> i32 {
    let n = x.len();
    if n == 0 || m < n || m > MAX || s.ftol < 0.0 || s.xtol < 0.0 || s.gtol < 0.0 || s.maxfev == 0 {
        return 0;
    }
    if s.factor <= 0.0 {
        return 0;
    }
    // Work arrays on the stack: this runs inside force evaluations (WrapTorus).
    let mut work = [[0.0; MAX]; 7];
    let [fvec, diag, qtf, wa1, wa2, wa3, wa4] = &mut work;
    let (fvec, wa4) = (&mut fvec[..m], &mut wa4[..m]);
    let (diag, qtf) = (&mut diag[..n], &mut qtf[..n]);
    let (wa1, wa2, wa3) = (&mut wa1[..n], &mut wa2[..n], &mut wa3[..n]);
    let mut fjac_store = [0.0; MAX * MAX];
    let fjac = &mut fjac_store[..m * n];
    let mut ipvt_store = [0usize; MAX];
    let ipvt = &mut ipvt_store[..n];
    fcn(x, fvec);
    let mut nfev = 1;
    let mut fnorm = enorm(fvec);
    let mut par = 0.0;
    let mut iter = 1;
    let mut delta = 0.0;
    let mut xnorm = 0.0;
    loop {
        fdjac2(fcn, m, x, fvec, fjac, wa4);
        qrfac(m, n, fjac, ipvt, wa1, wa2, wa3);
        if iter == 1 {
            (xnorm, delta) = initial_scaling(diag, wa2, wa3, x, s.factor);
        }
        wa4.copy_from_slice(fvec);
        form_qtf(m, n, fjac, wa1, wa4, qtf);
        let gnorm = scaled_gradient_norm(m, n, fjac, ipvt, wa2, qtf, fnorm);
        if gnorm <= s.gtol {
            return 4;
        }
        for j in 0..n {
            diag[j] = dmax1(diag[j], wa2[j]);
        }
        loop {
            lmpar(
                n, fjac, m, ipvt, diag, qtf, delta, &mut par, wa1, wa2, wa3, wa4,
            );
            for j in 0..n {
                wa1[j] = -wa1[j];
                wa2[j] = x[j] + wa1[j];
                wa3[j] = diag[j] * wa1[j];
            }
            let pnorm = enorm(wa3);
            if iter == 1 {
                delta = dmin1(delta, pnorm);
            }
            fcn(wa2, wa4);
            nfev += 1;
            let fnorm1 = enorm(wa4);
            let mut actred = -1.0;
            if 0.1 * fnorm1 < fnorm {
                let temp = fnorm1 / fnorm;
                actred = 1.0 - temp * temp;
            }
            let (prered, dirder) =
                predicted_reduction(m, n, fjac, ipvt, wa1, wa3, par, pnorm, fnorm);
            let ratio = if prered != 0.0 { actred / prered } else { 0.0 };
            let trial = Trial {
                actred,
                prered,
                dirder,
                ratio,
                pnorm,
                fnorm,
                fnorm1,
            };
            update_step_bound(&trial, &mut delta, &mut par);
            if ratio >= 1e-4 {
                for j in 0..n {
                    x[j] = wa2[j];
                    wa2[j] = diag[j] * x[j];
                }
                fvec.copy_from_slice(wa4);
                xnorm = enorm(wa2);
                fnorm = fnorm1;
                iter += 1;
            }
            let info = convergence(&trial, delta, xnorm, gnorm, nfev, &s);
            if info != 0 {
                return info;
            }
            if ratio >= 1e-4 {
                break;
            }
        }
    }
}

/// The first iteration's scaling (mode 1: the Jacobian's column norms, 1 for a zero
/// column), ‖D x‖ and the step bound (OpenSim: `factor` itself when `factor·‖D x‖ ≤ 1e-4`).
fn initial_scaling(
    diag: &mut [f64],
    acnorm: &[f64],
    wa3: &mut [f64],
    x: &[f64],
    factor: f64,
) -> (f64, f64) {
    for j in 0..x.len() {
        diag[j] = if acnorm[j] == 0.0 { 1.0 } else { acnorm[j] };
        wa3[j] = diag[j] * x[j];
    }
    let xnorm = enorm(wa3);
    let delta = factor * xnorm;
    (xnorm, if delta.abs() <= 1e-4 { factor } else { delta })
}

/// The scaled predicted reduction and directional derivative of step `wa1`.
#[allow(clippy::too_many_arguments)]
fn predicted_reduction(
    m: usize,
    n: usize,
    fjac: &[f64],
    ipvt: &[usize],
    wa1: &[f64],
    wa3: &mut [f64],
    par: f64,
    pnorm: f64,
    fnorm: f64,
) -> (f64, f64) {
    for j in 0..n {
        wa3[j] = 0.0;
        let temp = wa1[ipvt[j]];
        for i in 0..=j {
            wa3[i] += fjac[i + m * j] * temp;
        }
    }
    let temp1 = enorm(wa3) / fnorm;
    let temp2 = (par.sqrt() * pnorm) / fnorm;
    let prered = temp1 * temp1 + (temp2 * temp2) / 0.5;
    let dirder = -(temp1 * temp1 + temp2 * temp2);
    (prered, dirder)
}

/// A trial step's reductions and norms.
struct Trial {
    actred: f64,
    prered: f64,
    dirder: f64,
    ratio: f64,
    pnorm: f64,
    fnorm: f64,
    fnorm1: f64,
}

/// Forms (Q transpose)·fvec into `qtf` (n entries) and puts R's diagonal back into `fjac`.
fn form_qtf(m: usize, n: usize, fjac: &mut [f64], rdiag: &[f64], wa4: &mut [f64], qtf: &mut [f64]) {
    for j in 0..n {
        let jj = j + m * j;
        let temp3 = fjac[jj];
        if temp3 != 0.0 {
            let sum: f64 = (j..m).map(|i| fjac[i + m * j] * wa4[i]).sum();
            let temp = -sum / temp3;
            for i in j..m {
                wa4[i] += fjac[i + m * j] * temp;
            }
        }
        fjac[jj] = rdiag[j];
        qtf[j] = wa4[j];
    }
}

/// The norm of the scaled gradient (`gnorm`).
fn scaled_gradient_norm(
    m: usize,
    n: usize,
    fjac: &[f64],
    ipvt: &[usize],
    acnorm: &[f64],
    qtf: &[f64],
    fnorm: f64,
) -> f64 {
    let mut gnorm: f64 = 0.0;
    if fnorm != 0.0 {
        for j in 0..n {
            let l = ipvt[j];
            if acnorm[l] != 0.0 {
                let sum: f64 = (0..=j).map(|i| fjac[i + m * j] * (qtf[i] / fnorm)).sum();
                gnorm = dmax1(gnorm, (sum / acnorm[l]).abs());
            }
        }
    }
    gnorm
}

/// The step bound's and the parameter's update after a trial step.
fn update_step_bound(t: &Trial, delta: &mut f64, par: &mut f64) {
    if t.ratio <= 0.25 {
        let mut temp = if t.actred >= 0.0 {
            0.5
        } else {
            0.5 * t.dirder / (t.dirder + 0.5 * t.actred)
        };
        if 0.1 * t.fnorm1 >= t.fnorm || temp < 0.1 {
            temp = 0.1;
        }
        *delta = temp * dmin1(*delta, t.pnorm / 0.1);
        *par /= temp;
    } else if *par == 0.0 || t.ratio >= 0.75 {
        *delta = t.pnorm / 0.5;
        *par *= 0.5;
    }
}

/// MINPACK's convergence and termination tests: `info`, 0 to go on.
fn convergence(
    t: &Trial,
    delta: f64,
    xnorm: f64,
    gnorm: f64,
    nfev: usize,
    s: &LmdifSettings,
) -> i32 {
    let small = t.actred.abs() <= s.ftol && t.prered <= s.ftol && 0.5 * t.ratio <= 1.0;
    let mut info = 0;
    if small {
        info = 1;
    }
    if delta <= s.xtol * xnorm {
        info = 2;
    }
    if small && info == 2 {
        info = 3;
    }
    if info != 0 {
        return info;
    }
    if nfev >= s.maxfev {
        info = 5;
    }
    if t.actred.abs() <= MACHEP && t.prered <= MACHEP && 0.5 * t.ratio <= 1.0 {
        info = 6;
    }
    if delta <= MACHEP * xnorm {
        info = 7;
    }
    if gnorm <= MACHEP {
        info = 8;
    }
    info
}

/// OpenSim's `fdjac2`: forward differences with the fixed step h = 1e-5.
fn fdjac2(
    fcn: &mut dyn FnMut(&[f64], &mut [f64]),
    m: usize,
    x: &mut [f64],
    fvec: &[f64],
    fjac: &mut [f64],
    wa: &mut [f64],
) {
    let h = 1e-5;
    for j in 0..x.len() {
        let temp = x[j];
        x[j] = temp + h;
        fcn(x, wa);
        x[j] = temp;
        for i in 0..m {
            fjac[i + m * j] = (wa[i] - fvec[i]) / h;
        }
    }
}

/// Householder QR with column pivoting (`qrfac` with `pivot` true).
#[allow(clippy::too_many_arguments)]
fn qrfac(
    m: usize,
    n: usize,
    a: &mut [f64],
    ipvt: &mut [usize],
    rdiag: &mut [f64],
    acnorm: &mut [f64],
    wa: &mut [f64],
) {
    for j in 0..n {
        acnorm[j] = enorm(&a[m * j..m * j + m]);
        rdiag[j] = acnorm[j];
        wa[j] = rdiag[j];
        ipvt[j] = j;
    }
    for j in 0..m.min(n) {
        let mut kmax = j;
        for k in j..n {
            if rdiag[k] > rdiag[kmax] {
                kmax = k;
            }
        }
        if kmax != j {
            for i in 0..m {
                a.swap(i + m * j, i + m * kmax);
            }
            rdiag[kmax] = rdiag[j];
            wa[kmax] = wa[j];
            ipvt.swap(j, kmax);
        }
        let jj = j + m * j;
        let mut ajnorm = enorm(&a[jj..m * j + m]);
        if ajnorm != 0.0 {
            if a[jj] < 0.0 {
                ajnorm = -ajnorm;
            }
            for i in j..m {
                a[i + m * j] /= ajnorm;
            }
            a[jj] += 1.0;
            for k in j + 1..n {
                let sum: f64 = (j..m).map(|i| a[i + m * j] * a[i + m * k]).sum();
                let temp = sum / a[jj];
                for i in j..m {
                    a[i + m * k] -= temp * a[i + m * j];
                }
                if rdiag[k] != 0.0 {
                    let temp = a[j + m * k] / rdiag[k];
                    rdiag[k] *= dmax1(0.0, 1.0 - temp * temp).sqrt();
                    let temp = rdiag[k] / wa[k];
                    if 0.05 * temp * temp <= MACHEP {
                        rdiag[k] = enorm(&a[j + 1 + m * k..m * k + m]);
                        wa[k] = rdiag[k];
                    }
                }
            }
        }
        rdiag[j] = -ajnorm;
    }
}

/// The Levenberg–Marquardt parameter (`lmpar`).
#[allow(clippy::too_many_arguments)]
fn lmpar(
    n: usize,
    r: &mut [f64],
    ldr: usize,
    ipvt: &[usize],
    diag: &[f64],
    qtb: &[f64],
    delta: f64,
    par: &mut f64,
    x: &mut [f64],
    sdiag: &mut [f64],
    wa1: &mut [f64],
    wa2: &mut [f64],
) {
    let mut nsing = n;
    for j in 0..n {
        wa1[j] = qtb[j];
        if r[j + ldr * j] == 0.0 && nsing == n {
            nsing = j;
        }
        if nsing < n {
            wa1[j] = 0.0;
        }
    }
    for k in 0..nsing {
        let j = nsing - k - 1;
        wa1[j] /= r[j + ldr * j];
        let temp = wa1[j];
        for i in 0..j {
            wa1[i] -= r[i + ldr * j] * temp;
        }
    }
    for j in 0..n {
        x[ipvt[j]] = wa1[j];
    }
    let mut iter = 0;
    for j in 0..n {
        wa2[j] = diag[j] * x[j];
    }
    let mut dxnorm = enorm(&wa2[..n]);
    let mut fp = dxnorm - delta;
    if fp > 0.1 * delta {
        let mut parl = 0.0;
        if nsing >= n {
            parl = newton_lower_bound(n, r, ldr, ipvt, diag, wa1, wa2, dxnorm, fp, delta);
        }
        for j in 0..n {
            let sum: f64 = (0..=j).map(|i| r[i + ldr * j] * qtb[i]).sum();
            wa1[j] = sum / diag[ipvt[j]];
        }
        let gnorm = enorm(&wa1[..n]);
        let mut paru = gnorm / delta;
        if paru == 0.0 {
            paru = DWARF / dmin1(delta, 0.1);
        }
        *par = dmax1(*par, parl);
        *par = dmin1(*par, paru);
        if *par == 0.0 {
            *par = gnorm / dxnorm;
        }
        loop {
            iter += 1;
            if *par == 0.0 {
                *par = dmax1(DWARF, 0.001 * paru);
            }
            let temp = par.sqrt();
            for j in 0..n {
                wa1[j] = temp * diag[j];
            }
            qrsolv(n, r, ldr, ipvt, wa1, qtb, x, sdiag, wa2);
            for j in 0..n {
                wa2[j] = diag[j] * x[j];
            }
            dxnorm = enorm(&wa2[..n]);
            let previous = fp;
            fp = dxnorm - delta;
            if fp.abs() <= 0.1 * delta
                || (parl == 0.0 && fp <= previous && previous < 0.0)
                || iter == 10
            {
                break;
            }
            for j in 0..n {
                let l = ipvt[j];
                wa1[j] = diag[l] * (wa2[l] / dxnorm);
            }
            for j in 0..n {
                wa1[j] /= sdiag[j];
                let temp = wa1[j];
                for i in j + 1..n {
                    wa1[i] -= r[i + ldr * j] * temp;
                }
            }
            let temp = enorm(&wa1[..n]);
            let parc = ((fp / delta) / temp) / temp;
            if fp > 0.0 {
                parl = dmax1(parl, *par);
            }
            if fp < 0.0 {
                paru = dmin1(paru, *par);
            }
            *par = dmax1(parl, *par + parc);
        }
    }
    if iter == 0 {
        *par = 0.0;
    }
}

/// `lmpar`'s lower bound `parl` from the Newton step (full-rank Jacobian).
#[allow(clippy::too_many_arguments)]
fn newton_lower_bound(
    n: usize,
    r: &[f64],
    ldr: usize,
    ipvt: &[usize],
    diag: &[f64],
    wa1: &mut [f64],
    wa2: &[f64],
    dxnorm: f64,
    fp: f64,
    delta: f64,
) -> f64 {
    for j in 0..n {
        let l = ipvt[j];
        wa1[j] = diag[l] * (wa2[l] / dxnorm);
    }
    for j in 0..n {
        let sum: f64 = (0..j).map(|i| r[i + ldr * j] * wa1[i]).sum();
        wa1[j] = (wa1[j] - sum) / r[j + ldr * j];
    }
    let temp = enorm(&wa1[..n]);
    ((fp / delta) / temp) / temp
}

/// Solves `a x = b`, `d x = 0` in the least-squares sense given a's QR (`qrsolv`).
#[allow(clippy::too_many_arguments)]
fn qrsolv(
    n: usize,
    r: &mut [f64],
    ldr: usize,
    ipvt: &[usize],
    diag: &[f64],
    qtb: &[f64],
    x: &mut [f64],
    sdiag: &mut [f64],
    wa: &mut [f64],
) {
    for j in 0..n {
        for i in j..n {
            r[i + ldr * j] = r[j + ldr * i];
        }
        x[j] = r[j + ldr * j];
        wa[j] = qtb[j];
    }
    for j in 0..n {
        let l = ipvt[j];
        if diag[l] != 0.0 {
            for value in sdiag.iter_mut().take(n).skip(j) {
                *value = 0.0;
            }
            sdiag[j] = diag[l];
            let mut qtbpj = 0.0;
            for k in j..n {
                if sdiag[k] == 0.0 {
                    continue;
                }
                let kk = k + ldr * k;
                let (sin, cos);
                if r[kk].abs() < sdiag[k].abs() {
                    let cotan = r[kk] / sdiag[k];
                    sin = 0.5 / (0.25 + 0.25 * cotan * cotan).sqrt();
                    cos = sin * cotan;
                } else {
                    let tan = sdiag[k] / r[kk];
                    cos = 0.5 / (0.25 + 0.25 * tan * tan).sqrt();
                    sin = cos * tan;
                }
                r[kk] = cos * r[kk] + sin * sdiag[k];
                let temp = cos * wa[k] + sin * qtbpj;
                qtbpj = -sin * wa[k] + cos * qtbpj;
                wa[k] = temp;
                for i in k + 1..n {
                    let temp = cos * r[i + ldr * k] + sin * sdiag[i];
                    sdiag[i] = -sin * r[i + ldr * k] + cos * sdiag[i];
                    r[i + ldr * k] = temp;
                }
            }
        }
        let kk = j + ldr * j;
        sdiag[j] = r[kk];
        r[kk] = x[j];
    }
    let mut nsing = n;
    for j in 0..n {
        if sdiag[j] == 0.0 && nsing == n {
            nsing = j;
        }
        if nsing < n {
            wa[j] = 0.0;
        }
    }
    for k in 0..nsing {
        let j = nsing - k - 1;
        let sum: f64 = (j + 1..nsing).map(|i| r[i + ldr * j] * wa[i]).sum();
        wa[j] = (wa[j] - sum) / sdiag[j];
    }
    for j in 0..n {
        x[ipvt[j]] = wa[j];
    }
}

/// The Euclidean norm without destructive underflow or overflow (`enorm`).
fn enorm(x: &[f64]) -> f64 {
    const RDWARF: f64 = 3.834e-20;
    const RGIANT: f64 = 1.304e19;
    let (mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0);
    let (mut x1max, mut x3max): (f64, f64) = (0.0, 0.0);
    let agiant = RGIANT / x.len() as f64;
    for &xi in x {
        let xabs = xi.abs();
        if xabs > RDWARF && xabs < agiant {
            s2 += xabs * xabs;
        } else if xabs > RDWARF {
            if xabs > x1max {
                let temp = x1max / xabs;
                s1 = 1.0 + s1 * temp * temp;
                x1max = xabs;
            } else {
                let temp = xabs / x1max;
                s1 += temp * temp;
            }
        } else if xabs > x3max {
            let temp = x3max / xabs;
            s3 = 1.0 + s3 * temp * temp;
            x3max = xabs;
        } else if xabs != 0.0 {
            let temp = xabs / x3max;
            s3 += temp * temp;
        }
    }
    if s1 != 0.0 {
        return x1max * (s1 + (s2 / x1max) / x1max).sqrt();
    }
    if s2 != 0.0 {
        let temp = if s2 >= x3max {
            s2 * (1.0 + (x3max / s2) * (x3max * s3))
        } else {
            x3max * ((s2 / x3max) + (x3max * s3))
        };
        temp.sqrt()
    } else {
        x3max * s3.sqrt()
    }
}

fn dmax1(a: f64, b: f64) -> f64 {
    if a >= b {
        a
    } else {
        b
    }
}

fn dmin1(a: f64, b: f64) -> f64 {
    if a <= b {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rosenbrock's function as residuals (10 (x₂ − x₁²), 1 − x₁): the minimum (1, 1).
    #[test]
    fn lmdif_finds_rosenbrock_s_minimum() {
        let mut x = [-1.2, 1.0];
        let mut f = |x: &[f64], r: &mut [f64]| {
            r[0] = 10.0 * (x[1] - x[0] * x[0]);
            r[1] = 1.0 - x[0];
        };
        let settings = LmdifSettings {
            ftol: 1e-12,
            xtol: 1e-12,
            gtol: 0.0,
            maxfev: 1000,
            factor: 100.0,
        };
        let info = lmdif(&mut f, 2, &mut x, settings);
        assert!((1..=4).contains(&info), "info {info}");
        // The forward-difference Jacobian with h = 1e-5 limits the attainable accuracy.
        assert!(
            (x[0] - 1.0).abs() < 1e-6 && (x[1] - 1.0).abs() < 1e-6,
            "{x:?}"
        );
    }
}
