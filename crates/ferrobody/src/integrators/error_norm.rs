//! Simbody's error norm (`IntegratorRep::calcErrorNorm`).
//!
//! `err = max(‖q‖, ‖u‖, ‖z‖)`, each an RMS over its own length:
//! q errors mapped through `N N⁺` at the trial end state (for a quaternion block that is
//! `|q|² I − q qᵀ`, which drops the part of the error that only changes the length); u and z
//! errors weighted by `1/|x|` where `|x| > 1` at the start of the step, else 1.
//!
//! The q RMS divides by Simbody's count of q, which exceeds ours by one for every Ball or Free
//! mobilizer in Euler-angle mode (Simbody allocates the quaternion's four slots, or seven for
//! Free, and leaves one unused: its error is zero). With a low-order method the step size
//! follows this divisor closely (explicit Euler's step scales with its fourth root).

use crate::scalar::Real;

/// Relative weights `1/|x|` where `|x| > 1`, else 1, from the start-of-step values.
pub fn relative_scaling<T: Real>(x: &[T], scale: &mut [f64]) {
    for (s, v) in scale.iter_mut().zip(x) {
        let a = v.re().abs();
        *s = if a > 1.0 { 1.0 / a } else { 1.0 };
    }
}

/// The error norm of the estimate `yerr = [q_err, u_err, z_err]` at trial state `y`; `q` is
/// (nq, Simbody's count of q for the RMS).
pub fn error_norm<T: Real>(
    y: &[T],
    yerr: &[T],
    (nq, q_count): (usize, usize),
    nu: usize,
    quaternion_starts: &[usize],
    u_scale: &[f64],
    z_scale: &[f64],
) -> f64 {
    let mut sum_q = 0.0;
    let mut next_quat = quaternion_starts.iter().peekable();
    let mut i = 0;
    while i < nq {
        if next_quat.peek() == Some(&&i) {
            next_quat.next();
            let q: [f64; 4] = std::array::from_fn(|k| y[i + k].re());
            let e: [f64; 4] = std::array::from_fn(|k| yerr[i + k].re());
            let n2: f64 = q.iter().map(|x| x * x).sum();
            let qe: f64 = q.iter().zip(&e).map(|(a, b)| a * b).sum();
            sum_q += (0..4).map(|k| (n2 * e[k] - q[k] * qe).powi(2)).sum::<f64>();
            i += 4;
        } else {
            sum_q += yerr[i].re().powi(2);
            i += 1;
        }
    }
    let rms = |sum: f64, n: usize| if n == 0 { 0.0 } else { (sum / n as f64).sqrt() };
    let weighted = |e: &[T], w: &[f64]| {
        e.iter()
            .zip(w)
            .map(|(e, w)| (e.re() * w).powi(2))
            .sum::<f64>()
    };
    let nz = yerr.len() - nq - nu;
    let q_norm = rms(sum_q, q_count);
    let u_norm = rms(weighted(&yerr[nq..nq + nu], u_scale), nu);
    let z_norm = rms(weighted(&yerr[nq + nu..], z_scale), nz);
    // A non-finite estimate (a trial state whose evaluation overflowed or produced NaN) must
    // reject the step; `f64::max` would drop a NaN.
    if q_norm.is_nan() || u_norm.is_nan() || z_norm.is_nan() {
        return f64::INFINITY;
    }
    q_norm.max(u_norm).max(z_norm)
}

/// The size of a Newton correction `e = [q, u, z]` (f64) for the implicit method's convergence
/// test: [`error_norm`]'s weights and RMS divisors, but a quaternion's correction counts
/// whole (a change of its length is a change of the iterate too). Returns the *square* of the
/// norm, so that the test needs no square roots.
pub fn correction_norm_squared(
    e: &[f64],
    (nq, q_count): (usize, usize),
    u_scale: &[f64],
    z_scale: &[f64],
) -> f64 {
    let nu = u_scale.len();
    let mean = |sum: f64, n: usize| if n == 0 { 0.0 } else { sum / n as f64 };
    let q: f64 = e[..nq].iter().map(|x| x * x).sum();
    let weighted = |e: &[f64], w: &[f64]| e.iter().zip(w).map(|(e, w)| (e * w) * (e * w)).sum();
    let u: f64 = weighted(&e[nq..nq + nu], u_scale);
    let z: f64 = weighted(&e[nq + nu..], z_scale);
    mean(q, q_count)
        .max(mean(u, nu))
        .max(mean(z, z_scale.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_anywhere_rejects_the_step() {
        let y = [0.0, 1.0, 2.0];
        let e = [1e-9, 1e-9, f64::NAN];
        let n = error_norm(&y, &e, (1, 1), 1, &[], &[1.0], &[1.0]);
        assert_eq!(n, f64::INFINITY);
    }

    #[test]
    fn quaternion_length_errors_do_not_count() {
        let y = [1.0, 0.0, 0.0, 0.0, 5.0];
        let along = [1e-3, 0.0, 0.0, 0.0, 0.0];
        assert_eq!(error_norm(&y, &along, (4, 4), 1, &[0], &[1.0], &[]), 0.0);
        let across = [0.0, 1e-3, 0.0, 0.0, 0.0];
        assert!((error_norm(&y, &across, (4, 4), 1, &[0], &[1.0], &[]) - 5e-4).abs() < 1e-15);
    }

    #[test]
    fn a_correction_counts_whole_and_squared() {
        let e = [3e-3, 0.0, 0.0, 4e-3, 1e-3, 2e-3];
        // q: (9 + 16)e-6 / 4; u: (1e-6 · 0.25 + 4e-6) / 2.
        let n2 = correction_norm_squared(&e, (4, 4), &[0.5, 1.0], &[]);
        assert!((n2 - 25e-6 / 4.0).abs() < 1e-20, "{n2}");
        let n2 = correction_norm_squared(&e, (4, 4), &[0.5, 10.0], &[]);
        assert!((n2 - 400e-6 / 2.0 - 0.25e-6 / 2.0).abs() < 1e-18, "{n2}");
    }

    #[test]
    fn speeds_use_relative_weights() {
        let mut w = [0.0; 2];
        relative_scaling(&[10.0, 0.5], &mut w);
        assert_eq!(w, [0.1, 1.0]);
        let e = error_norm::<f64>(&[0.0, 0.0], &[1.0, 0.0], (0, 0), 2, &[], &w, &[]);
        assert!((e - (0.01f64 / 2.0).sqrt()).abs() < 1e-15);
    }
}
