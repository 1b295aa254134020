//! OpenSim's `WrapCylinder::wrapLine`: the shortest path from P₁ to P₂ over a cylinder of
//! radius R about the z axis of its frame W (length L centred on z = 0), on the side its
//! quadrant allows (`+x` … `-z`, or `all`).
//!
//! The tangent-point candidates of each end are where the lines from Pᵢ touch the circle of
//! the cylinder's cross-section through Pᵢ's closest axis point; the quadrant (or, for `all`,
//! the most parallel pair) picks r₁, r₂; both are slid along the cylinder's lines to the plane
//! through P₁, P₂ and the apex of the wrap; the arc is a helix of angle θ (the far way round when
//! the quadrant demands it) and axial rise h, length `√((Rθ)² + h²)`. With one wrap object on
//! the path OpenSim keeps the tangent points as found; with several it slides them until the
//! straight segments meet the helix within 0.1° (`_adjust_tangent_point`). Points in W (m).
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Wrap/{WrapCylinder, WrapMath}.cpp`.

use super::wrap_math::{
    closest_point_on_line, distance_squared_to_line, dsign, intersect_lines,
    intersect_segment_plane, normalize_or_zero,
};
use crate::scalar::Real;
use nalgebra::Vector3;

/// Result codes of a wrap attempt (OpenSim's `WrapObject::WrapAction`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapAction {
    /// The segment misses the object.
    NoWrap,
    /// An end point lies inside the object.
    InsideRadius,
    /// A wrap, to be compared with the path's other segments.
    Wrapped,
    /// A wrap that must be taken (the segment crosses the object).
    MandatoryWrap,
}

/// A wrap found: tangent points (in W) and the length over the surface.
#[derive(Clone, Copy, Debug)]
pub struct WrapHit<T> {
    /// First tangent point.
    pub r1: Vector3<T>,
    /// Second tangent point.
    pub r2: Vector3<T>,
    /// Length of the path on the surface (m).
    pub length: T,
}

/// Which side of the object the path may wrap over: axis and sign, or any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quadrant {
    /// Any side (`all`).
    All,
    /// The half space where coordinate `axis` has sign `sign` (±1).
    Half {
        /// 0, 1 or 2 for x, y, z.
        axis: usize,
        /// +1 or −1.
        sign: i8,
    },
}

/// A cylinder wrap object's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapCylinder {
    /// Radius (m).
    pub radius: f64,
    /// Length along z (m).
    pub length: f64,
}

const MAX_ITERATIONS: usize = 100;
const TANGENCY_THRESHOLD: f64 = 0.1 * std::f64::consts::PI / 180.0;

/// The two tangent-point candidates of end point `p` (and its closest axis point, distance).
fn tangent_candidates<T: Real>(p: &Vector3<T>, r: T) -> (Vector3<T>, Vector3<T>, Vector3<T>, T) {
    let (p0, dn) = axis::<T>();
    let (pa, _) = closest_point_on_line(p, &p0, &dn);
    let (vv, dist_axis) = normalize_or_zero(&(p - pa));
    let sin_theta = r / dist_axis;
    let dist = r * sin_theta;
    let pp = pa + vv * dist;
    let dist = (r * r - dist * dist).sqrt();
    let uu = dn.cross(&vv);
    (pp + uu * dist, pp - uu * dist, pa, dist_axis)
}

fn axis<T: Real>() -> (Vector3<T>, Vector3<T>) {
    (
        Vector3::new(T::zero(), T::zero(), T::c(-1.0)),
        Vector3::new(T::zero(), T::zero(), T::one()),
    )
}

fn angle_between<T: Real>(a: &Vector3<T>, b: &Vector3<T>) -> T {
    (a.dot(b) / (a.norm() * b.norm())).acos()
}

impl WrapCylinder {
    /// Wraps segment `p1`→`p2` (in W). `single` is OpenSim's `singleWrap` (one wrap object on
    /// the path): the tangent points are then not refined.
    pub fn wrap_line<T: Real>(
        &self,
        p1: &Vector3<T>,
        p2: &Vector3<T>,
        quadrant: Quadrant,
        single: bool,
    ) -> (WrapAction, Option<WrapHit<T>>) {
        let r = T::c(self.radius);
        let r_squared = r * r;
        let (p0, dn) = axis::<T>();
        if distance_squared_to_line(p1, &p0, &dn).re() < r_squared.re()
            || distance_squared_to_line(p2, &p0, &dn).re() < r_squared.re()
        {
            return (WrapAction::InsideRadius, None);
        }
        let half = T::c(0.5 * self.length);
        let cyl_start = Vector3::new(T::zero(), T::zero(), -half);
        let cyl_end = Vector3::new(T::zero(), T::zero(), half);
        let (near12, t12, near00, _) = intersect_lines(p1, p2, &cyl_start, &cyl_end);
        let crosses = (near12 - near00).norm_squared().re() < r_squared.re()
            && t12.re() > 0.0
            && t12.re() < 1.0;
        let mut code = WrapAction::Wrapped;
        if quadrant == Quadrant::All {
            if !crosses {
                return (WrapAction::NoWrap, None);
            }
            code = WrapAction::MandatoryWrap;
        }
        let (r1a, r1b, p11, p11_dist) = tangent_candidates(p1, r);
        let (r2a, r2b, p22, p22_dist) = tangent_candidates(p2, r);
        let ends = Ends { p1, p2, p11, p22 };
        let Some((r1, r2, far_side_wrap, long_wrap)) = choose_tangent_points(
            &ends,
            [r1a, r1b, r2a, r2b],
            quadrant,
            crosses,
            &near12,
            &mut code,
        ) else {
            return (WrapAction::NoWrap, None);
        };
        let t = p11_dist / (p11_dist + p22_dist);
        let (mut r1, mut r2) = slide_to_apex_plane(&ends, r, t, far_side_wrap, r1, r2);
        let h = 0.5 * self.length;
        let beyond = |v: &Vector3<T>| v[2].re() < -h || v[2].re() > h;
        if beyond(&r1) && beyond(&r2) {
            return (WrapAction::NoWrap, None);
        }
        let length = self.spiral(p1, p2, long_wrap, single, &mut r1, &mut r2);
        (code, Some(WrapHit { r1, r2, length }))
    }

    /// The helix from r1 to r2 (`_make_spiral_path`): its length, with r1 and r2 slid to
    /// tangency when there are several wrap objects.
    fn spiral<T: Real>(
        &self,
        p1: &Vector3<T>,
        p2: &Vector3<T>,
        far_side_wrap: bool,
        single: bool,
        r1: &mut Vector3<T>,
        r2: &mut Vector3<T>,
    ) -> T {
        let (p0, dn) = axis::<T>();
        let radius = T::c(self.radius);
        let sense = if far_side_wrap { -1.0 } else { 1.0 };
        let mut iterations = 0;
        loop {
            let (r1a, _) = closest_point_on_line(r1, &p0, &dn);
            let (r2a, _) = closest_point_on_line(r2, &p0, &dn);
            let axial = (r2a - r1a).dot(&dn);
            let uu = *r1 - r1a;
            let vv = *r2 - r2a;
            let mut theta = uu.cross(&vv).dot(&dn).atan2(uu.dot(&vv));
            if far_side_wrap {
                theta = T::c(2.0 * std::f64::consts::PI) - theta;
            }
            let x = radius * theta;
            let length = (x * x + axial * axial).sqrt();
            if single {
                return length;
            }
            let segments = ((length.re() / 0.002) as usize).max(1);
            if segments < 2 || iterations >= MAX_ITERATIONS {
                return length;
            }
            // OpenSim's `CalcSpiralWrapPoint`, with the r1 of the moment (the second point is
            // taken after r1 has been adjusted, as OpenSim's code does).
            let at = |r1: &Vector3<T>, t: f64| {
                spiral_point(r1, theta * T::c(sense * t), axial * T::c(t))
            };
            let t = 1.0 / segments as f64;
            let w1 = at(r1, t);
            let adjusted1 = adjust_tangent_point(p1, &dn, r1, &w1);
            let w2 = at(r1, 1.0 - t);
            let adjusted2 = adjust_tangent_point(p2, &dn, r2, &w2);
            if !(adjusted1 || adjusted2) {
                return length;
            }
            iterations += 1;
        }
    }
}

/// OpenSim's `CalcSpiralWrapPoint`: `r1` turned by `angle` about the axis ẑ, then moved
/// `axial` along it. OpenSim turns it by Simbody's `Rotation(angle, Vec3)`, which goes through
/// the quaternion (c, 0, 0, s) of the half angle (c = cos(θ/2), s = sin(θ/2), negated together
/// when c < 0): the in-plane entries are c² − s² and ±2cs, and the axial one c² + s², which is
/// not exactly 1. Formed the same way here, so that the tangent slide, which amplifies
/// round-off over its iterations, follows OpenSim's arithmetic.
fn spiral_point<T: Real>(r1: &Vector3<T>, angle: T, axial: T) -> Vector3<T> {
    let half = angle * T::c(0.5);
    let (mut s, mut c) = (half.sin(), half.cos());
    if c.re() < 0.0 {
        c = -c;
        s = -s;
    }
    let (cc, ss) = (c * c, s * s);
    let in_plane = cc - ss;
    let cross = T::c(2.0) * (c * s);
    Vector3::new(
        in_plane * r1[0] - cross * r1[1],
        cross * r1[0] + in_plane * r1[1],
        (cc + ss) * r1[2] + axial,
    )
}

/// Slides tangent point `r` along the cylinder's line when the segment p→r and the helix at r
/// meet at more than 0.1° (`_adjust_tangent_point`); whether it did.
fn adjust_tangent_point<T: Real>(
    p: &Vector3<T>,
    dn: &Vector3<T>,
    r: &mut Vector3<T>,
    w: &Vector3<T>,
) -> bool {
    let pr = normalize_or_zero(&(*r - p)).0;
    let rw = normalize_or_zero(&(w - *r)).0;
    if meet_within_threshold(pr.dot(dn).re(), rw.dot(dn).re()) {
        return false;
    }
    let (p1a, _) = closest_point_on_line(p, r, dn);
    let (w1a, _) = closest_point_on_line(w, r, dn);
    let (_, _, int2, _) = intersect_lines(p, w, &p1a, &w1a);
    *r += (int2 - *r) * T::c(1.5);
    true
}

/// OpenSim's test `|acos(cos α) − acos(cos ω)| ≤ 0.1°`. Since |acos a − acos b| ≥ |a − b|
/// (the arccosine's slope is at least 1 in magnitude), a gap in the cosines beyond the
/// threshold, with room for the arccosines' rounding (an ulp of π each), decides it without
/// them: the slide's arccosines were 9 % of Rajagopal2016's evaluation, and most of its
/// steps are far from tangency.
fn meet_within_threshold(cos_alpha: f64, cos_omega: f64) -> bool {
    let surely_apart = (cos_alpha - cos_omega).abs() > TANGENCY_THRESHOLD + 1e-12;
    !surely_apart && (cos_alpha.acos() - cos_omega.acos()).abs() <= TANGENCY_THRESHOLD
}

/// The segment's ends and their closest points on the axis.
struct Ends<'a, T: Real> {
    p1: &'a Vector3<T>,
    p2: &'a Vector3<T>,
    p11: Vector3<T>,
    p22: Vector3<T>,
}

/// Picks r1, r2 among the candidates `[r1a, r1b, r2a, r2b]` (the quadrant's side, or the most
/// parallel pair), with whether the wrap goes round the far side and is a long wrap; `None`
/// when a constrained cylinder does not wrap. Updates `code` as OpenSim does.
#[allow(clippy::type_complexity)]
fn choose_tangent_points<T: Real>(
    ends: &Ends<'_, T>,
    [r1a, r1b, r2a, r2b]: [Vector3<T>; 4],
    quadrant: Quadrant,
    crosses: bool,
    near12: &Vector3<T>,
    code: &mut WrapAction,
) -> Option<(Vector3<T>, Vector3<T>, bool, bool)> {
    let Ends { p1, p2, p11, p22 } = *ends;
    Some(match quadrant {
        Quadrant::Half { axis, sign } => {
            let on = |v: &Vector3<T>| dsign(v[axis]) == sign;
            if on(p1) || on(p2) {
                if crosses {
                    *code = WrapAction::MandatoryWrap;
                } else if dsign(p1[axis]) != dsign(p2[axis]) && !on(near12) {
                    *code = WrapAction::Wrapped;
                } else {
                    return None;
                }
            }
            let alpha = angle_between(&(r1a - p11), &(r2b - p22)).re();
            let beta = angle_between(&(r1b - p11), &(r2a - p22)).re();
            let a_b = (r1a, r2b, alpha > beta);
            let b_a = (r1b, r2a, alpha <= beta);
            let (r1, r2, far) = match (on(&r1a), on(&r1b)) {
                (true, true) => {
                    if on(&r2a) {
                        b_a
                    } else {
                        a_b
                    }
                }
                (true, false) => a_b,
                (false, true) => b_a,
                (false, false) => {
                    if on(&r2a) {
                        b_a
                    } else if on(&r2b) {
                        a_b
                    } else if alpha > beta {
                        (r1a, r2b, true)
                    } else {
                        (r1b, r2a, true)
                    }
                }
            };
            let sum_musc = (r1 - p1) + (r2 - p2);
            let sum_r = (r1 - p11) + (r2 - p22);
            (r1, r2, far, sum_r.dot(&sum_musc).re() < 0.0)
        }
        Quadrant::All => {
            let n = |v: Vector3<T>| normalize_or_zero(&v).0;
            let (r1am, r1bm) = (n(r1a - p11), n(r1b - p11));
            let (r2am, r2bm) = (n(r2a - p22), n(r2b - p22));
            let dot1 = r1am.dot(&r2am).re();
            let dot2 = r1am.dot(&r2bm).re();
            let dot3 = r1bm.dot(&r2am).re();
            let dot4 = r1bm.dot(&r2bm).re();
            let (r1, r2) = if dot1 > dot2 && dot1 > dot3 && dot1 > dot4 {
                (r1a, r2a)
            } else if dot2 > dot3 && dot2 > dot4 {
                (r1a, r2b)
            } else if dot3 > dot4 {
                (r1b, r2a)
            } else {
                (r1b, r2b)
            };
            (r1, r2, false, false)
        }
    })
}

/// Slides r1 and r2 along the cylinder's lines to the plane through P₁, P₂ and the apex of the
/// wrap (the apex on the near or far side, `t` the split of the segment by the ends' distances
/// to the axis).
fn slide_to_apex_plane<T: Real>(
    ends: &Ends<'_, T>,
    r: T,
    t: T,
    far_side_wrap: bool,
    mut r1: Vector3<T>,
    mut r2: Vector3<T>,
) -> (Vector3<T>, Vector3<T>) {
    let Ends { p1, p2, p11, p22 } = *ends;
    let (p0, dn) = axis::<T>();
    // The apex of the wrap, on the far or near side of the axis from the segment.
    let mpt = p1 + (p2 - p1) * t;
    let (axispt, _) = closest_point_on_line(&mpt, &p0, &dn);
    let l1 = normalize_or_zero(&(p1 - axispt)).0;
    let l2 = normalize_or_zero(&(p2 - axispt)).0;
    let plane_normal = normalize_or_zero(&l1.cross(&l2).normalize()).0;
    let vert1 = normalize_or_zero(&dn.cross(&plane_normal)).0;
    let vert2 = normalize_or_zero(&plane_normal.cross(&dn)).0;
    let apex1 = axispt + vert1 * r;
    let apex2 = axispt + vert2 * r;
    let dist1 = (mpt - apex1).norm_squared().re();
    let dist2 = (mpt - apex2).norm_squared().re();
    let apex = if far_side_wrap == (dist1 < dist2) {
        apex2
    } else {
        apex1
    };
    // Slide r1, r2 along the cylinder's lines to the plane of P₁, P₂ and the apex.
    let uu = normalize_or_zero(&(p1 - apex)).0;
    let vv = normalize_or_zero(&(p2 - apex)).0;
    let plane_normal = uu.cross(&vv).normalize();
    let d = -p1[0] * plane_normal[0] - p1[1] * plane_normal[1] - p1[2] * plane_normal[2];
    let ten = dn * T::c(10.0);
    let r1p = intersect_segment_plane(&(r1 - ten), &(r1 + ten), &plane_normal, d);
    let r2p = intersect_segment_plane(&(r2 - ten), &(r2 + ten), &plane_normal, d);
    if let Some(r1p) = r1p {
        let (r1a, _) = closest_point_on_line(&r1p, &p11, &p22);
        if (r1a - p22).norm_squared().re() < (p11 - p22).norm_squared().re() {
            r1 = r1p;
        }
    }
    if let Some(r2p) = r2p {
        let (r2a, _) = closest_point_on_line(&r2p, &p11, &p22);
        if (r2a - p11).norm_squared().re() < (p22 - p11).norm_squared().re() {
            r2 = r2p;
        }
    }
    (r1, r2)
}

#[cfg(test)]
mod tests {
    use super::{meet_within_threshold, TANGENCY_THRESHOLD};

    #[test]
    fn the_tangency_test_without_arccosines_decides_as_opensim_does() {
        // Pairs of angles across [0, π] whose gap straddles the threshold by as little as
        // 1e-13 of it (and far from it), NaN and cosines just past ±1 included.
        let mut checked = 0;
        for i in 0..=2000 {
            let alpha = std::f64::consts::PI * i as f64 / 2000.0;
            for gap in [
                0.0,
                0.5,
                0.999_999,
                1.0 - 1e-13,
                1.0,
                1.0 + 1e-13,
                1.000_001,
                1.5,
                10.0,
                1e3,
            ] {
                for sign in [-1.0, 1.0] {
                    let omega = alpha + sign * gap * TANGENCY_THRESHOLD;
                    let (a, b) = (alpha.cos(), omega.cos());
                    let with_acos = (a.acos() - b.acos()).abs() <= TANGENCY_THRESHOLD;
                    assert_eq!(meet_within_threshold(a, b), with_acos, "{alpha} {omega}");
                    checked += 1;
                }
            }
        }
        for (a, b) in [
            (f64::NAN, 0.5),
            (1.0 + f64::EPSILON, 1.0),
            (-1.0, -1.0 - 1e-16f64),
        ] {
            let with_acos = (a.acos() - b.acos()).abs() <= TANGENCY_THRESHOLD;
            assert_eq!(meet_within_threshold(a, b), with_acos, "{a} {b}");
        }
        assert_eq!(checked, 2001 * 10 * 2);
    }
}
