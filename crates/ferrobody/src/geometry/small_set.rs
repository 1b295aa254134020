//! The broad phase of small contact sets (at most [`ALL_PAIRS_BELOW`] surfaces): every pair of
//! bounded shapes (spheres, ellipsoids) on different bodies whose bounding spheres overlap
//! (`i < j`), then every half space with every bounded shape on another body. Which pairs can ever be candidates depends only on the
//! shapes and bodies, so a [`SmallSetPlan`] lists them once, in that order, with the reach of
//! each sphere pair; an evaluation then only tests centre distances. The order is the one
//! [`super::candidate_pairs`] gives, so forces sum in the same order either way.

use super::{ContactSurface, Shape};
use crate::math::Transform;
use crate::scalar::Real;

/// Below this many surfaces, testing every pair's bounding spheres is cheaper than sorting
/// (the s6 chain has 6).
pub const ALL_PAIRS_BELOW: usize = 32;

/// Calls `f(i, j, reach)` for each structural candidate pair of a small set, in broad-phase
/// order: bounded pairs on different bodies with `reach = r_i + r_j` (bounding radii), then
/// half space / bounded pairs on different bodies (as `(min, max)`) with an infinite reach.
fn for_each_structural_pair<T: Real>(
    surfaces: &[ContactSurface<T>],
    mut f: impl FnMut(usize, usize, f64),
) {
    for (i, si) in surfaces.iter().enumerate() {
        let Some(ra) = si.shape.bounding_radius() else {
            continue;
        };
        for (j, sj) in surfaces.iter().enumerate().skip(i + 1) {
            if let Some(rb) = sj.shape.bounding_radius() {
                if si.body != sj.body {
                    f(i, j, ra + rb);
                }
            }
        }
    }
    for (h, sh) in surfaces.iter().enumerate() {
        if !matches!(sh.shape, Shape::HalfSpace) {
            continue;
        }
        for (j, sj) in surfaces.iter().enumerate() {
            if sj.shape.bounding_radius().is_some() && sj.body != sh.body {
                f(h.min(j), h.max(j), f64::INFINITY);
            }
        }
    }
}

/// The structural candidate pairs of a small set, listed once (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SmallSetPlan {
    /// `(i, j, reach)`: surfaces `i < j`, and the largest centre distance at which their
    /// bounding spheres overlap (infinite for a half space, always a candidate).
    pairs: Vec<(u32, u32, f64)>,
}

impl SmallSetPlan {
    /// The plan of `surfaces`, or `None` for a set of more than `ALL_PAIRS_BELOW` (32) surfaces.
    pub fn new<T: Real>(surfaces: &[ContactSurface<T>]) -> Option<Self> {
        if surfaces.len() > ALL_PAIRS_BELOW {
            return None;
        }
        let mut pairs = Vec::new();
        for_each_structural_pair(surfaces, |i, j, reach| {
            pairs.push((i as u32, j as u32, reach));
        });
        Some(Self { pairs })
    }

    /// Number of structural pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether the plan has no pairs.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The same plan visiting its pairs in increasing `(i, j)` order: Simbody's
    /// `ContactTrackerSubsystem` keeps its pairs in an ordered map by lower then higher surface
    /// index, and `CompliantContactSubsystem` applies their forces in that order.
    pub fn in_surface_order(mut self) -> Self {
        self.pairs.sort_by_key(|&(i, j, _)| (i, j));
        self
    }

    /// Calls `f(i, j)` for each candidate pair at the surface poses `x_gs`, in broad-phase
    /// order.
    #[inline(always)]
    pub fn for_each_candidate<T: Real>(
        &self,
        x_gs: &[Transform<T>],
        mut f: impl FnMut(usize, usize),
    ) {
        for &(i, j, reach) in &self.pairs {
            let (i, j) = (i as usize, j as usize);
            if is_candidate(x_gs, i, j, reach) {
                f(i, j);
            }
        }
    }
}

/// The candidate pairs of a small set at the surface poses `x_gs` (the plan's pairs, found
/// without storing it).
pub(super) fn small_set_pairs<T: Real>(
    surfaces: &[ContactSurface<T>],
    x_gs: &[Transform<T>],
    pairs: &mut Vec<(u32, u32)>,
) {
    for_each_structural_pair(surfaces, |i, j, reach| {
        if is_candidate(x_gs, i, j, reach) {
            pairs.push((i as u32, j as u32));
        }
    });
}

/// Whether structural pair `(i, j)` is a candidate at the poses `x_gs`: a half-space pair
/// (infinite reach) always, a sphere pair when its centres are at most `reach` apart.
#[inline(always)]
fn is_candidate<T: Real>(x_gs: &[Transform<T>], i: usize, j: usize, reach: f64) -> bool {
    reach == f64::INFINITY || centres_within(&x_gs[i], &x_gs[j], reach)
}

/// Whether the origins of two frames are at most `reach` apart (real parts).
#[inline(always)]
fn centres_within<T: Real>(a: &Transform<T>, b: &Transform<T>, reach: f64) -> bool {
    let d = [
        a.p.x.re() - b.p.x.re(),
        a.p.y.re() - b.p.y.re(),
        a.p.z.re() - b.p.z.re(),
    ];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= reach * reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{candidate_pairs, BroadPhase};
    use crate::ids::BodyId;
    use nalgebra::Vector3;

    #[test]
    fn the_plan_gives_the_broad_phase_pairs_in_its_order() {
        // Spheres of mixed radii on four bodies (two share one), and two half spaces, at
        // poses where some bounding spheres overlap and others do not.
        let mut surfaces = Vec::new();
        let mut x_gs = Vec::new();
        for k in 0..12usize {
            let shape = if k % 5 == 0 {
                Shape::HalfSpace
            } else {
                Shape::Sphere {
                    radius: 0.1 + 0.05 * (k % 3) as f64,
                }
            };
            surfaces.push(ContactSurface {
                body: BodyId(k % 4),
                x_bs: Transform::identity(),
                shape,
            });
            let t = k as f64;
            x_gs.push(Transform::from_translation(Vector3::new(
                0.17 * (t * 1.3).sin(),
                0.23 * (t * 0.7).cos(),
                0.05 * t.sin(),
            )));
        }
        let plan = SmallSetPlan::new(&surfaces).expect("a small set");
        let mut planned = Vec::new();
        plan.for_each_candidate(&x_gs, |i, j| planned.push((i as u32, j as u32)));
        let mut bp = BroadPhase::default();
        candidate_pairs(&surfaces, &x_gs, &mut bp);
        assert_eq!(planned, bp.pairs);
        // Some sphere pairs are candidates and some are not, so the test sees both branches.
        let is_sphere_pair = |&(i, j): &(u32, u32)| {
            surfaces[i as usize].shape != Shape::HalfSpace
                && surfaces[j as usize].shape != Shape::HalfSpace
        };
        let candidates = planned.iter().filter(|p| is_sphere_pair(p)).count();
        let structural = plan.pairs.iter().filter(|p| p.2.is_finite()).count();
        assert!(
            candidates > 0 && candidates < structural,
            "{candidates} of {structural}"
        );
        assert!(SmallSetPlan::new(&vec![surfaces[1].clone(); ALL_PAIRS_BELOW + 1]).is_none());
    }
}
