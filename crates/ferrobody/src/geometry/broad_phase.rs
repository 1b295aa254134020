//! Broad phase: which surface pairs might touch. Half spaces are tested against every other
//! surface (they are unbounded). Fewer than 32 bounded shapes are tested pair by pair (bounding
//! spheres). More go into a uniform grid whose cell is the largest bounding-sphere diameter:
//! sorted cells, neighbours from the same and four forward columns, O(n) after the sort, which
//! repairs the previous order by insertion sort. Sweep-and-prune along the axis of largest
//! spread (Simbody `GeneralContactSubsystem`) is the fallback for centres outside the grid's
//! range. Surfaces on the same body never collide. Runs on `f64` real parts: it only decides
//! which pairs exist.

use super::small_set::{small_set_pairs, ALL_PAIRS_BELOW};
use super::{ContactSurface, Shape};
use crate::math::Transform;
use crate::scalar::Real;

/// Reusable buffers of the broad phase (sized on first use, then reused without allocating).
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    /// Candidate pairs (indices into the surface list), surface order kept (`i < j`).
    pub pairs: Vec<(u32, u32)>,
    /// Bounded surfaces: (interval start on the sweep axis, interval end, surface index).
    pub(super) intervals: Vec<(f64, f64, u32)>,
    /// Bounding-sphere centres and radii of the surfaces, in Ground.
    pub(super) centres: Vec<([f64; 3], f64)>,
    /// Indices of the half spaces.
    half_spaces: Vec<u32>,
    /// Surface order along the sweep axis at the last call.
    order: Vec<u32>,
    /// Grid cells: (cell key, surface index), sorted.
    cells: Vec<(u64, u32)>,
    /// Surface order of `cells` at the last call.
    cell_order: Vec<u32>,
}

/// Fills `bp.pairs` with the candidate pairs of `surfaces`, whose shape frames are at `x_gs`.
pub fn candidate_pairs<T: Real>(
    surfaces: &[ContactSurface<T>],
    x_gs: &[Transform<T>],
    bp: &mut BroadPhase,
) {
    bp.pairs.clear();
    if surfaces.len() <= ALL_PAIRS_BELOW {
        small_set_pairs(surfaces, x_gs, &mut bp.pairs);
        return;
    }
    bp.intervals.clear();
    bp.centres.clear();
    bp.half_spaces.clear();
    for (i, (s, x)) in surfaces.iter().zip(x_gs).enumerate() {
        match s.shape.bounding_radius() {
            None => {
                bp.half_spaces.push(i as u32);
                bp.centres.push(([0.0; 3], f64::INFINITY));
            }
            Some(radius) => bp
                .centres
                .push(([x.p.x.re(), x.p.y.re(), x.p.z.re()], radius)),
        }
    }
    if bp.centres.len() - bp.half_spaces.len() < ALL_PAIRS_BELOW {
        all_bounded_pairs(surfaces, bp);
    } else if !grid_pairs(surfaces, bp) {
        sweep_and_prune(surfaces, bp);
    }
    for &h in &bp.half_spaces {
        for (j, s) in surfaces.iter().enumerate() {
            if j as u32 != h
                && s.body != surfaces[h as usize].body
                && !matches!(s.shape, Shape::HalfSpace)
            {
                bp.pairs.push((h.min(j as u32), h.max(j as u32)));
            }
        }
    }
}

/// Whether two points are at most `reach` apart.
#[inline(always)]
fn centres_within(a: &[f64; 3], b: &[f64; 3], reach: f64) -> bool {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= reach * reach
}

/// Every pair of bounded surfaces on different bodies whose bounding spheres overlap.
fn all_bounded_pairs<T: Real>(surfaces: &[ContactSurface<T>], bp: &mut BroadPhase) {
    let n = bp.centres.len();
    for i in 0..n {
        if !bp.centres[i].1.is_finite() {
            continue;
        }
        for j in i + 1..n {
            let different_bodies = surfaces[i].body != surfaces[j].body;
            if bp.centres[j].1.is_finite()
                && different_bodies
                && spheres_overlap(&bp.centres, i as u32, j as u32)
            {
                bp.pairs.push((i as u32, j as u32));
            }
        }
    }
}

/// Cells per axis of the grid key (21 bits each, centred on the origin).
const GRID_OFFSET: i64 = 1 << 20;

/// Pairs from a uniform grid whose cell is the largest bounding-sphere diameter, so touching
/// spheres lie in the same or adjacent cells. Cells are sorted by (x, z, y), so each column
/// (x, z) is contiguous and sorted by y; a sphere is checked against the rest of its own column
/// and four forward columns, found with pointers that only move forward: O(n) after the sort;
/// the first sort is O(n log n), later ones repair the previous order by insertion sort. Returns false (and does nothing)
/// when a centre lies outside the grid's range.
fn grid_pairs<T: Real>(surfaces: &[ContactSurface<T>], bp: &mut BroadPhase) -> bool {
    let h = 2.0
        * bp.centres
            .iter()
            .filter(|(_, r)| r.is_finite())
            .map(|(_, r)| *r)
            .fold(0.0, f64::max);
    if h.is_nan() || h <= 0.0 {
        return false;
    }
    let cell = |c: &[f64; 3]| -> Option<[i64; 3]> {
        let f = |x: f64| {
            let k = (x / h).floor();
            (k.is_finite() && k.abs() < (GRID_OFFSET - 2) as f64).then_some(k as i64)
        };
        Some([f(c[0])?, f(c[1])?, f(c[2])?])
    };
    let key = |k: [i64; 3]| {
        ((k[0] + GRID_OFFSET) as u64) << 42
            | ((k[2] + GRID_OFFSET) as u64) << 21
            | (k[1] + GRID_OFFSET) as u64
    };
    // Rebuild in the previous order when it covers the same surfaces, else in index order.
    let bounded = bp.centres.iter().filter(|(_, r)| r.is_finite()).count();
    let reuse = bp.cell_order.len() == bounded
        && bp.cell_order.iter().all(|&i| {
            bp.centres
                .get(i as usize)
                .is_some_and(|(_, r)| r.is_finite())
        });
    let order: Vec<u32> = if reuse {
        std::mem::take(&mut bp.cell_order)
    } else {
        (0..bp.centres.len() as u32)
            .filter(|&i| bp.centres[i as usize].1.is_finite())
            .collect()
    };
    bp.cells.clear();
    for &i in &order {
        let Some(k) = cell(&bp.centres[i as usize].0) else {
            bp.cell_order = order;
            return false;
        };
        bp.cells.push((key(k), i));
    }
    if reuse {
        // Nearly sorted already: insertion sort moves each entry past the few it overtook.
        for k in 1..bp.cells.len() {
            let mut m = k;
            while m > 0 && bp.cells[m - 1] > bp.cells[m] {
                bp.cells.swap(m - 1, m);
                m -= 1;
            }
        }
    } else {
        // Index order can be far from cell order (a lattice listed z before x): insertion sort
        // would take O(n²) moves. The entries are distinct (each index once), so any sort gives
        // the same order.
        bp.cells.sort_unstable();
    }
    let mut order = order;
    order.clear();
    order.extend(bp.cells.iter().map(|c| c.1));
    bp.cell_order = order;
    // Forward neighbour columns (dx, dz) and one pointer into `cells` for each.
    const FORWARD: [(i64, i64); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];
    let mut pointers = [0usize; 4];
    let n = bp.cells.len();
    let y_bits = (1u64 << 21) - 1;
    for a in 0..n {
        let (ka, i) = bp.cells[a];
        let (cx, cz, cy) = (
            (ka >> 42) as i64,
            ((ka >> 21) & y_bits) as i64,
            (ka & y_bits) as i64,
        );
        let column_key = |dx: i64, dz: i64, y: i64| {
            ((cx + dx) as u64) << 42 | ((cz + dz) as u64) << 21 | y as u64
        };
        // The rest of this column, up to the next cell in y.
        let top = column_key(0, 0, cy + 1);
        for b in a + 1..n {
            if bp.cells[b].0 > top {
                break;
            }
            push_if_touching(surfaces, &bp.centres, &mut bp.pairs, i, bp.cells[b].1);
        }
        for (p, &(dx, dz)) in pointers.iter_mut().zip(&FORWARD) {
            let (lo, hi) = (column_key(dx, dz, cy - 1), column_key(dx, dz, cy + 1));
            while *p < n && bp.cells[*p].0 < lo {
                *p += 1;
            }
            let mut b = *p;
            while b < n && bp.cells[b].0 <= hi {
                push_if_touching(surfaces, &bp.centres, &mut bp.pairs, i, bp.cells[b].1);
                b += 1;
            }
        }
    }
    true
}

/// Records the pair (in index order) if the surfaces are on different bodies and their bounding
/// spheres overlap.
#[inline(always)]
fn push_if_touching<T: Real>(
    surfaces: &[ContactSurface<T>],
    centres: &[([f64; 3], f64)],
    pairs: &mut Vec<(u32, u32)>,
    i: u32,
    j: u32,
) {
    if surfaces[i as usize].body != surfaces[j as usize].body && spheres_overlap(centres, i, j) {
        pairs.push((i.min(j), i.max(j)));
    }
}

/// Sweep-and-prune over the bounded surfaces' intervals on the axis of largest spread.
fn sweep_and_prune<T: Real>(surfaces: &[ContactSurface<T>], bp: &mut BroadPhase) {
    let axis = sweep_axis(&bp.centres);
    sorted_intervals(&bp.centres, axis, &mut bp.intervals, &mut bp.order);
    for (k, &(_, end, i)) in bp.intervals.iter().enumerate() {
        for &(start, _, j) in &bp.intervals[k + 1..] {
            if start > end {
                break;
            }
            if surfaces[i as usize].body != surfaces[j as usize].body
                && spheres_overlap(&bp.centres, i, j)
            {
                bp.pairs.push((i.min(j), i.max(j)));
            }
        }
    }
}

/// Fills `intervals` with the bounded surfaces' intervals on `axis`, sorted by start (ties by
/// surface index, so the result does not depend on the history). Starts from the order of the
/// last call, when it covers the same surfaces, and repairs it by insertion sort.
fn sorted_intervals(
    centres: &[([f64; 3], f64)],
    axis: usize,
    intervals: &mut Vec<(f64, f64, u32)>,
    order: &mut Vec<u32>,
) {
    let interval = |s: u32| {
        let (c, r) = centres[s as usize];
        (c[axis] - r, c[axis] + r, s)
    };
    let bounded = centres.iter().filter(|(_, r)| r.is_finite()).count();
    let key = |a: &(f64, f64, u32), b: &(f64, f64, u32)| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2));
    if order.len() == bounded
        && order
            .iter()
            .all(|&s| centres.get(s as usize).is_some_and(|(_, r)| r.is_finite()))
    {
        intervals.extend(order.iter().map(|&s| interval(s)));
        for k in 1..intervals.len() {
            let mut m = k;
            while m > 0 && key(&intervals[m - 1], &intervals[m]).is_gt() {
                intervals.swap(m - 1, m);
                m -= 1;
            }
        }
    } else {
        intervals.extend(
            (0..centres.len() as u32)
                .filter(|&s| centres[s as usize].1.is_finite())
                .map(interval),
        );
        intervals.sort_unstable_by(key);
    }
    order.clear();
    order.extend(intervals.iter().map(|x| x.2));
}

#[inline(always)]
fn spheres_overlap(centres: &[([f64; 3], f64)], i: u32, j: u32) -> bool {
    let ((a, ra), (b, rb)) = (&centres[i as usize], &centres[j as usize]);
    centres_within(a, b, ra + rb)
}

/// The axis (0, 1, 2) along which the finite bounding-sphere centres spread most.
fn sweep_axis(centres: &[([f64; 3], f64)]) -> usize {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for (c, r) in centres.iter().filter(|(_, r)| r.is_finite()) {
        let _ = r;
        for k in 0..3 {
            lo[k] = lo[k].min(c[k]);
            hi[k] = hi[k].max(c[k]);
        }
    }
    (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::BodyId;
    use nalgebra::Vector3;

    #[test]
    fn finds_exactly_the_overlapping_pairs() {
        let sphere = |b: usize| ContactSurface {
            body: BodyId(b),
            x_bs: Transform::identity(),
            shape: Shape::Sphere { radius: 0.1 },
        };
        let surfaces = vec![
            ContactSurface {
                body: BodyId(0),
                x_bs: Transform::identity(),
                shape: Shape::HalfSpace,
            },
            sphere(1),
            sphere(2),
            sphere(3),
        ];
        let xs = [0.0, 0.0, 0.15, 1.0];
        let x_gs: Vec<Transform<f64>> = xs
            .iter()
            .map(|&x| Transform::from_translation(Vector3::new(x, 0.0, 0.0)))
            .collect();
        let mut bp = BroadPhase::default();
        candidate_pairs(&surfaces, &x_gs, &mut bp);
        let mut sorted = bp.pairs.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![(0, 1), (0, 2), (0, 3), (1, 2)]);
        // A second call, with the order remembered, finds the same pairs in the same order.
        let first = bp.pairs.clone();
        candidate_pairs(&surfaces, &x_gs, &mut bp);
        assert_eq!(bp.pairs, first);
    }

    #[test]
    fn grid_finds_the_same_pairs_as_brute_force() {
        // 300 spheres of mixed radii scattered in a 2 m box, on 150 bodies (two per body).
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let n = 300;
        let surfaces: Vec<ContactSurface<f64>> = (0..n)
            .map(|i| ContactSurface {
                body: BodyId(1 + i / 2),
                x_bs: Transform::identity(),
                shape: Shape::Sphere {
                    radius: 0.02 + 0.08 * rnd(),
                },
            })
            .collect();
        let x_gs: Vec<Transform<f64>> = (0..n)
            .map(|_| {
                Transform::from_translation(Vector3::new(
                    2.0 * rnd() - 1.0,
                    2.0 * rnd(),
                    2.0 * rnd() - 1.0,
                ))
            })
            .collect();
        let mut expected = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (ri, rj) = match (surfaces[i].shape, surfaces[j].shape) {
                    (Shape::Sphere { radius: a }, Shape::Sphere { radius: b }) => (a, b),
                    _ => unreachable!(),
                };
                if surfaces[i].body != surfaces[j].body && (x_gs[i].p - x_gs[j].p).norm() <= ri + rj
                {
                    expected.push((i as u32, j as u32));
                }
            }
        }
        assert!(expected.len() > 50, "the scene has contacts to find");
        let mut bp = BroadPhase::default();
        for _ in 0..2 {
            candidate_pairs(&surfaces, &x_gs, &mut bp);
            let mut got = bp.pairs.clone();
            got.sort_unstable();
            assert_eq!(got, expected);
        }
    }
}
