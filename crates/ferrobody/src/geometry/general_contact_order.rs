//! The pairs of a contact set in the order Simbody's `GeneralContactSubsystem` finds them
//! (`GeneralContactSubsystemImpl::realizeSubsystemDynamicsImpl`), which `HuntCrossleyForce`
//! evaluates in turn and stops at the first contact that pulls — so its results depend on it:
//!
//! 1. each surface's bounding-sphere centre in Ground (`X_GB · (X_BS · c)`; a half space's
//!    radius is infinite);
//! 2. the sweep axis: the one of largest `Σ |c_i − c̄|` (x over y on ties, z only if larger);
//! 3. the extents `[c_axis − r, c_axis + r]` sorted by their start (`std::sort` on the start
//!    alone, which for Simbody's small sets is an insertion sort: stable);
//! 4. for each extent in turn, each later one that starts before it ends and whose bounding
//!    sphere overlaps: the pair (earlier, later), the algorithm's own order (a half space is
//!    surface 1 of `HalfSpaceSphere`) left to `pair_contact`.
//!
//! Surfaces of one body are not paired (ferrobody's rule; Simbody's forces between them would
//! cancel). Runs on `f64` real parts: it only orders pairs.

use super::broad_phase::BroadPhase;
use super::ContactSurface;
use crate::math::Transform;
use crate::scalar::Real;

/// Fills `bp.pairs` with the candidate pairs of `surfaces` (shape frames at `x_gs`) in
/// `GeneralContactSubsystem`'s order (module docs).
pub fn general_contact_pairs<T: Real>(
    surfaces: &[ContactSurface<T>],
    x_gs: &[Transform<T>],
    bp: &mut BroadPhase,
) {
    bp.pairs.clear();
    let n = surfaces.len();
    if n == 0 {
        return;
    }
    let centre = |i: usize| [x_gs[i].p.x.re(), x_gs[i].p.y.re(), x_gs[i].p.z.re()];
    let radius = |i: usize| surfaces[i].shape.bounding_radius().unwrap_or(f64::INFINITY);
    let mut sum = [0.0; 3];
    for i in 0..n {
        let c = centre(i);
        (0..3).for_each(|k| sum[k] += c[k]);
    }
    let average = sum.map(|x| x / n as f64);
    let mut var = [0.0; 3];
    for i in 0..n {
        let c = centre(i);
        (0..3).for_each(|k| var[k] += (c[k] - average[k]).abs());
    }
    let mut axis = if var[0] > var[1] { 0 } else { 1 };
    if var[2] > var[axis] {
        axis = 2;
    }
    let extents = &mut bp.intervals;
    extents.clear();
    extents.extend((0..n).map(|i| {
        let (c, r) = (centre(i)[axis], radius(i));
        (c - r, c + r, i as u32)
    }));
    extents.sort_by(|a, b| a.0.total_cmp(&b.0));
    for a in 0..n {
        let (_, end, i) = extents[a];
        for &(start, _, j) in &extents[a + 1..] {
            if start > end {
                break;
            }
            let (i, j) = (i as usize, j as usize);
            let (ci, cj) = (centre(i), centre(j));
            let d2: f64 = (0..3).map(|k| (ci[k] - cj[k]) * (ci[k] - cj[k])).sum();
            let reach = radius(i) + radius(j);
            if d2 <= reach * reach && surfaces[i].body != surfaces[j].body {
                bp.pairs.push((i as u32, j as u32));
            }
        }
    }
}
