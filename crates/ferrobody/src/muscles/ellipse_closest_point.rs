//! The closest point of an ellipsoid, or of an ellipse, to a point: Eberly's Newton iteration
//! (Graphics Gems IV) as OpenSim's `WrapEllipsoid::findClosestPoint` and
//! `closestPointToEllipse` run it, with their special cases near the coordinate axes. Used by
//! [`super::wrap_ellipsoid`]; lengths in its scaled units.

use super::wrap_math::equal_within_error;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Eberly's root function for one point p = (u, v, w) and semi-axes a:
/// `f(t) = P²Q²R² − a²u² Q²R² − b²v² P²R² − c²w² P²Q²` with P = t + a², Q = t + b²,
/// R = t + c², whose largest root gives the closest point `(a²u/P, b²v/Q, c²w/R)`.
struct Eberly<T> {
    squares: [T; 3],
    weighted: [T; 3],
}

impl<T: Real> Eberly<T> {
    /// The function for point `p`, and Newton's start (0 inside, the largest semi-axis times
    /// |p| outside).
    #[inline(always)]
    fn new(a: &Vector3<T>, p: &Vector3<T>) -> (Self, T) {
        let squares = [a[0] * a[0], a[1] * a[1], a[2] * a[2]];
        let weighted = std::array::from_fn(|i| squares[i] * p[i] * p[i]);
        let (u, v, w) = (p[0], p[1], p[2]);
        let ratio = (u / a[0]) * (u / a[0]) + (v / a[1]) * (v / a[1]) + (w / a[2]) * (w / a[2]);
        let start = if ratio.re() < 1.0 {
            T::zero()
        } else {
            let mut max = a[0];
            if a[1].re() > max.re() {
                max = a[1];
            }
            if a[2].re() > max.re() {
                max = a[2];
            }
            max * (u * u + v * v + w * w).sqrt()
        };
        (Self { squares, weighted }, start)
    }

    /// f(t), and the factors its slope needs.
    #[inline(always)]
    fn value(&self, t: T) -> (T, [T; 3]) {
        let [a2, b2, c2] = self.squares;
        let [a2u2, b2v2, c2w2] = self.weighted;
        let (pp, q, r) = (t + a2, t + b2, t + c2);
        let (p2, q2, r2) = (pp * pp, q * q, r * r);
        let f = p2 * q2 * r2 - a2u2 * q2 * r2 - b2v2 * p2 * r2 - c2w2 * p2 * q2;
        (f, [pp, q, r])
    }

    /// f′(t) from the factors P, Q, R.
    #[inline(always)]
    fn slope(&self, [pp, q, r]: [T; 3]) -> T {
        let [a2u2, b2v2, c2w2] = self.weighted;
        let (pq, pr, qr) = (pp * q, pp * r, q * r);
        let pqr = pp * q * r;
        T::c(2.0)
            * (pqr * (qr + pr + pq)
                - a2u2 * qr * (q + r)
                - b2v2 * pr * (pp + r)
                - c2w2 * pq * (pp + q))
    }

    /// The surface point of parameter t.
    #[inline(always)]
    fn point(&self, p: &Vector3<T>, t: T) -> Vector3<T> {
        let [a2, b2, c2] = self.squares;
        Vector3::new(
            a2 * p[0] / (t + a2),
            b2 * p[1] / (t + b2),
            c2 * p[2] / (t + c2),
        )
    }
}

/// Eberly's iteration for a point away from every coordinate plane.
pub(super) fn closest_point_general<T: Real>(a: &Vector3<T>, p: &Vector3<T>) -> Vector3<T> {
    let (eberly, mut t) = Eberly::new(a, p);
    for _ in 0..64 {
        let (f, factors) = eberly.value(t);
        if f.re().abs() < 1e-09 {
            break;
        }
        t -= f / eberly.slope(factors);
    }
    eberly.point(p, t)
}

/// [`closest_point_general`] for four points at once, in plain `f64`: the same operations per
/// point in the same order, so each result is bit for bit that of its own call, but the four
/// Newton iterations are interleaved, so that the processor overlaps their chains of
/// dependent divisions (the wrap ellipsoid's fan runs 298 of them per wrap).
pub(super) fn closest_points_general_4(
    a: &Vector3<f64>,
    p: &[Vector3<f64>; 4],
) -> [Vector3<f64>; 4] {
    let lanes: [(Eberly<f64>, f64); 4] = std::array::from_fn(|l| Eberly::new(a, &p[l]));
    let mut t = lanes.each_ref().map(|(_, start)| *start);
    let mut done = [false; 4];
    for _ in 0..64 {
        for (l, (eberly, _)) in lanes.iter().enumerate() {
            let (f, factors) = eberly.value(t[l]);
            let converged = f.abs() < 1e-09;
            let next = t[l] - f / eberly.slope(factors);
            if !done[l] && !converged {
                t[l] = next;
            }
            done[l] |= converged;
        }
        if done.iter().all(|&d| d) {
            break;
        }
    }
    std::array::from_fn(|l| lanes[l].0.point(&p[l], t[l]))
}

/// The point of the ellipse (x/a)² + (y/b)² = 1 closest to (u, v) (OpenSim's
/// `closestPointToEllipse`, Eberly's, with its special cases near the axes).
pub(super) fn closest_point_to_ellipse<T: Real>(a: T, b: T, u: T, v: T) -> (T, T) {
    let (a2, b2) = (a * a, b * b);
    let (a2u2, b2v2) = (a2 * u * u, b2 * v * v);
    let near_x_origin = equal_within_error(0.0, u.re());
    let near_y_origin = equal_within_error(0.0, v.re());
    if near_x_origin && near_y_origin {
        return if a.re() < b.re() {
            (if u.re() < 0.0 { -a } else { a }, v)
        } else {
            (u, if v.re() < 0.0 { -b } else { b })
        };
    }
    if near_x_origin {
        return if a.re() >= b.re() || v.re().abs() >= (b - a2 / b).re() {
            (u, if v.re() >= 0.0 { b } else { -b })
        } else {
            let y = b2 * v / (b2 - a2);
            let ydb = y / b;
            (a * (T::one() - ydb * ydb).abs().sqrt(), y)
        };
    }
    if near_y_origin {
        return if b.re() >= a.re() || u.re().abs() >= (a - b2 / a).re() {
            (if u.re() >= 0.0 { a } else { -a }, v)
        } else {
            let x = a2 * u / (a2 - b2);
            let xda = x / a;
            (x, b * (T::one() - xda * xda).abs().sqrt())
        };
    }
    let mut t = if ((u / a) * (u / a) + (v / b) * (v / b)).re() < 1.0 {
        T::zero()
    } else {
        let max = if b.re() > a.re() { b } else { a };
        max * (u * u + v * v).sqrt()
    };
    let (mut pp, mut q) = (t + a2, t + b2);
    for _ in 0..64 {
        pp = t + a2;
        q = t + b2;
        let f = pp * pp * q * q - a2u2 * q * q - b2v2 * pp * pp;
        if f.re().abs() < 1e-09 {
            break;
        }
        let fp = T::c(2.0) * (pp * q * (pp + q) - a2u2 * q - b2v2 * pp);
        t -= f / fp;
    }
    (a2 * u / pp, b2 * v / q)
}

#[cfg(test)]
mod tests {
    use super::{closest_point_general, closest_points_general_4};
    use nalgebra::Vector3;

    /// Four at a time gives each point's own result bit for bit: points inside and outside,
    /// near and far, converging after different numbers of steps.
    #[test]
    fn four_at_a_time_is_one_at_a_time_bit_for_bit() {
        let a = Vector3::new(1.3, 0.9, 0.8);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 6.0 - 3.0
        };
        for _ in 0..500 {
            let p: [Vector3<f64>; 4] =
                std::array::from_fn(|_| Vector3::new(next(), next(), next()));
            let four = closest_points_general_4(&a, &p);
            for (l, q) in p.iter().enumerate() {
                let one = closest_point_general(&a, q);
                for k in 0..3 {
                    assert_eq!(four[l][k].to_bits(), one[k].to_bits(), "{q:?}");
                }
            }
        }
    }
}
