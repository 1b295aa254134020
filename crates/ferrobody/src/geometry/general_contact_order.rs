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
    let centres = &mut bp.centres;
    centres.clear();
    centres.extend(surfaces.iter().zip(x_gs).map(|(s, x)| {
        let radius = s.shape.bounding_radius().unwrap_or(f64::INFINITY);
        ([x.p.x.re(), x.p.y.re(), x.p.z.re()], radius)
    }));
    let mut sum = [0.0; 3];
    for (c, _) in centres.iter() {
        (0..3).for_each(|k| sum[k] += c[k]);
    }
    let average = sum.map(|x| x / n as f64);
    let mut var = [0.0; 3];
    for (c, _) in centres.iter() {
        (0..3).for_each(|k| var[k] += (c[k] - average[k]).abs());
    }
    let mut axis = if var[0] > var[1] { 0 } else { 1 };
    if var[2] > var[axis] {
        axis = 2;
    }
    let extents = &mut bp.intervals;
    extents.clear();
    extents.extend(
        centres
            .iter()
            .enumerate()
            .map(|(i, (c, r))| (c[axis] - r, c[axis] + r, i as u32)),
    );
    // Insertion sort on the start: stable, as Simbody's std::sort is on small sets, and
    // cheaper than a general sort for the few surfaces of a set.
    for k in 1..n {
        let e = extents[k];
        let mut m = k;
        while m > 0 && extents[m - 1].0 > e.0 {
            extents[m] = extents[m - 1];
            m -= 1;
        }
        extents[m] = e;
    }
    for a in 0..n {
        let (_, end, i) = extents[a];
        let (ci, ri) = centres[i as usize];
        for &(start, _, j) in &extents[a + 1..] {
            if start > end {
                break;
            }
            let (cj, rj) = centres[j as usize];
            let d = [ci[0] - cj[0], ci[1] - cj[1], ci[2] - cj[2]];
            let reach = ri + rj;
            if d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= reach * reach
                && surfaces[i as usize].body != surfaces[j as usize].body
            {
                bp.pairs.push((i, j));
            }
        }
    }
}
