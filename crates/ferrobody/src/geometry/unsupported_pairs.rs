//! Which surfaces of a contact set have no contact routine against a later surface of another
//! body ([`pair_supported`] is false), found in O(n log n) instead of testing all n²/2 pairs.
//!
//! Only two kinds of pair lack a routine: ellipsoid against ellipsoid, and a brick against
//! anything but a half space. So the partners that surface `i` cannot meet are one or two
//! *classes* of surfaces (ellipsoids, bricks, or every surface but half spaces), and the first
//! such partner after `i` on another body is the first index of the class after `i`, or — when
//! that one is on `i`'s body — the next index of the class on a different body, kept per class
//! as a "next other body" link. The answer is the same pair, in the same order, as the double
//! loop gives.

use super::{pair_supported, ContactSurface, Shape};
use crate::ids::BodyId;
use crate::scalar::Real;

/// The indices of one class of surfaces in order, and for each the position of the next one on
/// a different body.
struct Class {
    indices: Vec<usize>,
    next_other_body: Vec<usize>,
}

impl Class {
    fn new(indices: Vec<usize>, body: impl Fn(usize) -> BodyId) -> Self {
        let n = indices.len();
        let mut next_other_body = vec![n; n];
        for p in (0..n.saturating_sub(1)).rev() {
            next_other_body[p] = if body(indices[p + 1]) != body(indices[p]) {
                p + 1
            } else {
                next_other_body[p + 1]
            };
        }
        Self {
            indices,
            next_other_body,
        }
    }

    /// The first index of the class after `i` whose body is not `b`.
    fn first_after(&self, i: usize, b: BodyId, body: impl Fn(usize) -> BodyId) -> Option<usize> {
        let p = self.indices.partition_point(|&j| j <= i);
        let &j = self.indices.get(p)?;
        if body(j) != b {
            return Some(j);
        }
        self.indices.get(self.next_other_body[p]).copied()
    }
}

/// The classes of a set's surfaces that lack contact routines against some shapes.
pub struct UnsupportedPairs<'a, T: Real> {
    surfaces: &'a [ContactSurface<T>],
    ellipsoids: Class,
    bricks: Class,
    not_half_spaces: Class,
}

impl<'a, T: Real> UnsupportedPairs<'a, T> {
    /// Indexes `surfaces` (O(n)).
    pub fn new(surfaces: &'a [ContactSurface<T>]) -> Self {
        let body = |j: usize| surfaces[j].body;
        let of = |keep: fn(&Shape) -> bool| {
            let idx = (0..surfaces.len()).filter(|&j| keep(&surfaces[j].shape));
            Class::new(idx.collect(), body)
        };
        Self {
            surfaces,
            ellipsoids: of(|s| matches!(s, Shape::Ellipsoid { .. })),
            bricks: of(|s| matches!(s, Shape::Brick { .. })),
            not_half_spaces: of(|s| !matches!(s, Shape::HalfSpace)),
        }
    }

    /// The smallest `j > i` whose surface is on another body than surface `i`'s and has no
    /// contact routine against it (O(log n)).
    pub fn first_partner_after(&self, i: usize) -> Option<usize> {
        let surfaces = self.surfaces;
        let body = |j: usize| surfaces[j].body;
        let b = body(i);
        let found = match surfaces[i].shape {
            Shape::Ellipsoid { .. } => min_some(
                self.ellipsoids.first_after(i, b, body),
                self.bricks.first_after(i, b, body),
            ),
            Shape::Brick { .. } => self.not_half_spaces.first_after(i, b, body),
            Shape::HalfSpace => None,
            Shape::Sphere { .. } => self.bricks.first_after(i, b, body),
        };
        debug_assert!(found.is_none_or(|j| !pair_supported(&surfaces[i].shape, &surfaces[j].shape)));
        found
    }
}

fn min_some(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Transform;

    fn surface(body: usize, shape: Shape) -> ContactSurface<f64> {
        ContactSurface {
            body: BodyId(body),
            x_bs: Transform::identity(),
            shape,
        }
    }

    /// Every small set of up to 7 surfaces of four shapes on three bodies: the first unsupported
    /// partner is the double loop's.
    #[test]
    fn the_first_partner_is_the_double_loops() {
        let shapes = [
            Shape::HalfSpace,
            Shape::Sphere { radius: 1.0 },
            Shape::Ellipsoid { radii: [1.0; 3] },
            Shape::Brick {
                half_lengths: [1.0; 3],
            },
        ];
        let mut seed = 12345u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % m
        };
        for _ in 0..4000 {
            let n = 1 + next(7);
            let set: Vec<_> = (0..n).map(|_| surface(next(3), shapes[next(4)])).collect();
            let pairs = UnsupportedPairs::new(&set);
            for i in 0..n {
                let expected = (i + 1..n).find(|&j| {
                    set[i].body != set[j].body && !pair_supported(&set[i].shape, &set[j].shape)
                });
                assert_eq!(pairs.first_partner_after(i), expected, "{set:?} at {i}");
            }
        }
    }
}
