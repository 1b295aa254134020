//! Do two triangles in space share a point? The Guigue–Devillers test, as Simbody's
//! `Geo::Triangle::overlapsTriangle` runs it for mesh–mesh contact.
//!
//! With `N₂ = (p₂ − r₂) × (q₂ − r₂)`, the signed distances (times |N₂|) of the first
//! triangle's corners to the second's plane are `d(x) = (x − r₂)·N₂`; if all three have one
//! strict sign the triangles are apart, and likewise the other way round. Otherwise both
//! triangles are permuted into a canonical form (p on its own side of the other plane) and the
//! two orientation tests of `check_min_max` decide whether the intervals where each triangle
//! meets the line of the two planes overlap. Coplanar triangles are projected on the axis plane
//! where their normal is longest and tested in 2-D with orientation predicates
//! `orient(a, b, c) = (a − c) × (b − c)`. Touching counts as overlapping.
//!
//! Reference: P. Guigue, O. Devillers, "Fast and robust triangle-triangle overlap test using
//! orientation predicates", Journal of Graphics Tools 8(1) (2003) 25–32; Simbody
//! `SimTKmath/Geometry/src/Geo_Triangle.cpp` (the same branches, in the same order).

use nalgebra::{Vector2, Vector3};

type V3 = Vector3<f64>;
type V2 = Vector2<f64>;

/// Whether triangles `(p1, q1, r1)` and `(p2, q2, r2)` share a point (boundaries included).
pub fn triangles_overlap(t1: [V3; 3], t2: [V3; 3]) -> bool {
    let [p1, q1, r1] = t1;
    let [p2, q2, r2] = t2;
    let n2 = (p2 - r2).cross(&(q2 - r2));
    let (dp1, dq1, dr1) = ((p1 - r2).dot(&n2), (q1 - r2).dot(&n2), (r1 - r2).dot(&n2));
    if dp1 * dq1 > 0.0 && dp1 * dr1 > 0.0 {
        return false;
    }
    let n1 = (q1 - p1).cross(&(r1 - p1));
    let (dp2, dq2, dr2) = ((p2 - r1).dot(&n1), (q2 - r1).dot(&n1), (r2 - r1).dot(&n1));
    if dp2 * dq2 > 0.0 && dp2 * dr2 > 0.0 {
        return false;
    }
    let normals = (n1, n2);
    let same = (p2, q2, r2, dp2, dq2, dr2);
    let swapped = (p2, r2, q2, dp2, dr2, dq2);
    if dp1 > 0.0 {
        if dq1 > 0.0 {
            canonical((r1, p1, q1), swapped, normals)
        } else if dr1 > 0.0 {
            canonical((q1, r1, p1), swapped, normals)
        } else {
            canonical((p1, q1, r1), same, normals)
        }
    } else if dp1 < 0.0 {
        if dq1 < 0.0 {
            canonical((r1, p1, q1), same, normals)
        } else if dr1 < 0.0 {
            canonical((q1, r1, p1), same, normals)
        } else {
            canonical((p1, q1, r1), swapped, normals)
        }
    } else if dq1 < 0.0 {
        if dr1 >= 0.0 {
            canonical((q1, r1, p1), swapped, normals)
        } else {
            canonical((p1, q1, r1), same, normals)
        }
    } else if dq1 > 0.0 {
        if dr1 > 0.0 {
            canonical((p1, q1, r1), swapped, normals)
        } else {
            canonical((q1, r1, p1), same, normals)
        }
    } else if dr1 > 0.0 {
        canonical((r1, p1, q1), same, normals)
    } else if dr1 < 0.0 {
        canonical((r1, p1, q1), swapped, normals)
    } else {
        coplanar([p1, q1, r1], [p2, q2, r2], &n1)
    }
}

/// Simbody's `TRI_TRI_3D`: permutes the second triangle by its signed distances to the first
/// one's plane, then `check_min_max`.
fn canonical(t1: (V3, V3, V3), t2: (V3, V3, V3, f64, f64, f64), (n1, _): (V3, V3)) -> bool {
    let (p1, q1, r1) = t1;
    let (p2, q2, r2, dp2, dq2, dr2) = t2;
    if dp2 > 0.0 {
        if dq2 > 0.0 {
            check_min_max(p1, r1, q1, r2, p2, q2)
        } else if dr2 > 0.0 {
            check_min_max(p1, r1, q1, q2, r2, p2)
        } else {
            check_min_max(p1, q1, r1, p2, q2, r2)
        }
    } else if dp2 < 0.0 {
        if dq2 < 0.0 {
            check_min_max(p1, q1, r1, r2, p2, q2)
        } else if dr2 < 0.0 {
            check_min_max(p1, q1, r1, q2, r2, p2)
        } else {
            check_min_max(p1, r1, q1, p2, q2, r2)
        }
    } else if dq2 < 0.0 {
        if dr2 >= 0.0 {
            check_min_max(p1, r1, q1, q2, r2, p2)
        } else {
            check_min_max(p1, q1, r1, p2, q2, r2)
        }
    } else if dq2 > 0.0 {
        if dr2 > 0.0 {
            check_min_max(p1, r1, q1, p2, q2, r2)
        } else {
            check_min_max(p1, q1, r1, q2, r2, p2)
        }
    } else if dr2 > 0.0 {
        check_min_max(p1, q1, r1, r2, p2, q2)
    } else if dr2 < 0.0 {
        check_min_max(p1, r1, q1, r2, p2, q2)
    } else {
        coplanar([p1, q1, r1], [p2, q2, r2], &n1)
    }
}

/// Simbody's `CHECK_MIN_MAX`: the two intervals on the planes' common line overlap.
fn check_min_max(p1: V3, q1: V3, r1: V3, p2: V3, q2: V3, r2: V3) -> bool {
    let n = (p2 - q1).cross(&(p1 - q1));
    if (q2 - q1).dot(&n) > 0.0 {
        return false;
    }
    let n = (p2 - p1).cross(&(r1 - p1));
    (r2 - p1).dot(&n) <= 0.0
}

/// Coplanar triangles: projected on the axis plane where `n1` is longest, then 2-D.
fn coplanar(t1: [V3; 3], t2: [V3; 3], n1: &V3) -> bool {
    let n = n1.abs();
    // Simbody swaps the first two corners in the YZ and XZ projections.
    let project = |t: [V3; 3]| -> [V2; 3] {
        let [p, q, r] = t;
        if n.x > n.z && n.x >= n.y {
            [V2::new(q.z, q.y), V2::new(p.z, p.y), V2::new(r.z, r.y)]
        } else if n.y > n.z && n.y >= n.x {
            [V2::new(q.x, q.z), V2::new(p.x, p.z), V2::new(r.x, r.z)]
        } else {
            [V2::new(p.x, p.y), V2::new(q.x, q.y), V2::new(r.x, r.y)]
        }
    };
    overlap_2d(project(t1), project(t2))
}

fn orient(a: V2, b: V2, c: V2) -> f64 {
    (a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x)
}

/// Simbody's `tri_tri_overlap_test_2d`: both triangles made counter-clockwise, then tested.
fn overlap_2d([p1, q1, r1]: [V2; 3], [p2, q2, r2]: [V2; 3]) -> bool {
    let t1 = if orient(p1, q1, r1) < 0.0 {
        [p1, r1, q1]
    } else {
        [p1, q1, r1]
    };
    let t2 = if orient(p2, q2, r2) < 0.0 {
        [p2, r2, q2]
    } else {
        [p2, q2, r2]
    };
    ccw_overlap_2d(t1, t2)
}

fn ccw_overlap_2d(t1: [V2; 3], [p2, q2, r2]: [V2; 3]) -> bool {
    let p1 = t1[0];
    if orient(p2, q2, p1) >= 0.0 {
        if orient(q2, r2, p1) >= 0.0 {
            orient(r2, p2, p1) >= 0.0 || edge_test(t1, [p2, q2, r2])
        } else if orient(r2, p2, p1) >= 0.0 {
            edge_test(t1, [r2, p2, q2])
        } else {
            vertex_test(t1, [p2, q2, r2])
        }
    } else if orient(q2, r2, p1) >= 0.0 {
        if orient(r2, p2, p1) >= 0.0 {
            edge_test(t1, [q2, r2, p2])
        } else {
            vertex_test(t1, [q2, r2, p2])
        }
    } else {
        vertex_test(t1, [r2, p2, q2])
    }
}

/// Simbody's `INTERSECTION_TEST_VERTEX`.
fn vertex_test([p1, q1, r1]: [V2; 3], [p2, q2, r2]: [V2; 3]) -> bool {
    if orient(r2, p2, q1) >= 0.0 {
        if orient(r2, q2, q1) <= 0.0 {
            if orient(p1, p2, q1) > 0.0 {
                orient(p1, q2, q1) <= 0.0
            } else {
                orient(p1, p2, r1) >= 0.0 && orient(q1, r1, p2) >= 0.0
            }
        } else {
            orient(p1, q2, q1) <= 0.0 && orient(r2, q2, r1) <= 0.0 && orient(q1, r1, q2) >= 0.0
        }
    } else if orient(r2, p2, r1) >= 0.0 {
        if orient(q1, r1, r2) >= 0.0 {
            orient(p1, p2, r1) >= 0.0
        } else {
            orient(q1, r1, q2) >= 0.0 && orient(r2, r1, q2) >= 0.0
        }
    } else {
        false
    }
}

/// Simbody's `INTERSECTION_TEST_EDGE`.
fn edge_test([p1, q1, r1]: [V2; 3], [p2, _, r2]: [V2; 3]) -> bool {
    if orient(r2, p2, q1) >= 0.0 {
        if orient(p1, p2, q1) >= 0.0 {
            orient(p1, q1, r2) >= 0.0
        } else {
            orient(q1, r1, p2) >= 0.0 && orient(r1, p1, p2) >= 0.0
        }
    } else if orient(r2, p2, r1) >= 0.0 {
        orient(p1, p2, r1) >= 0.0 && (orient(p1, r1, r2) >= 0.0 || orient(q1, r1, r2) >= 0.0)
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> V3 {
        V3::new(x, y, z)
    }

    /// Brute-force overlap of two triangles by sampling one's surface against the other's
    /// crossing: the segment test `segment_hits_triangle` over every edge of each.
    fn segment_hits_triangle(a: V3, b: V3, t: [V3; 3]) -> bool {
        let [p, q, r] = t;
        let n = (q - p).cross(&(r - p));
        let (da, db) = ((a - p).dot(&n), (b - p).dot(&n));
        if da * db > 0.0 || da == db {
            return false;
        }
        let x = a + (b - a) * (da / (da - db));
        let inside = |u: V3, w: V3| (w - u).cross(&(x - u)).dot(&n) >= 0.0;
        inside(p, q) && inside(q, r) && inside(r, p)
    }

    fn brute(t1: [V3; 3], t2: [V3; 3]) -> bool {
        (0..3).any(|k| segment_hits_triangle(t1[k], t1[(k + 1) % 3], t2))
            || (0..3).any(|k| segment_hits_triangle(t2[k], t2[(k + 1) % 3], t1))
    }

    #[test]
    fn crossing_touching_and_apart() {
        let base = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
        let crossing = [v(0.2, 0.2, -1.0), v(0.2, 0.2, 1.0), v(0.3, -0.5, 0.0)];
        let above = [v(0.2, 0.2, 0.1), v(0.5, 0.2, 0.2), v(0.2, 0.5, 0.3)];
        let touching = [v(0.2, 0.2, 0.0), v(0.5, 0.2, 1.0), v(0.2, 0.5, 1.0)];
        assert!(triangles_overlap(base, crossing) && triangles_overlap(crossing, base));
        assert!(!triangles_overlap(base, above) && !triangles_overlap(above, base));
        assert!(triangles_overlap(base, touching) && triangles_overlap(touching, base));
    }

    #[test]
    fn coplanar_triangles_in_every_projection() {
        // The same pair in the three axis planes: overlapping, then moved apart.
        let planes: [fn(f64, f64) -> V3; 3] = [
            |a, b| v(a, b, 0.5),
            |a, b| v(a, 0.5, b),
            |a, b| v(0.5, a, b),
        ];
        for to3 in planes {
            let t1 = [to3(0.0, 0.0), to3(1.0, 0.0), to3(0.0, 1.0)];
            let near = [to3(0.4, 0.4), to3(1.0, 1.0), to3(0.4, 1.0)];
            let far = [to3(0.6, 0.6), to3(1.0, 1.0), to3(0.6, 1.0)];
            assert!(triangles_overlap(t1, near));
            assert!(!triangles_overlap(t1, far));
            // Either winding.
            assert!(triangles_overlap(
                [t1[0], t1[2], t1[1]],
                [near[1], near[0], near[2]]
            ));
        }
    }

    #[test]
    fn agrees_with_edge_crossings_on_random_pairs() {
        // Non-coplanar triangles overlap exactly when an edge of one pierces the other.
        let mut seed = 12345_u64;
        let mut rand = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let mut hits = 0;
        for _ in 0..20_000 {
            let mut tri = || {
                [
                    v(rand(), rand(), rand()),
                    v(rand(), rand(), rand()),
                    v(rand(), rand(), rand()),
                ]
            };
            let (t1, t2) = (tri(), tri());
            let expected = brute(t1, t2);
            hits += usize::from(expected);
            assert_eq!(triangles_overlap(t1, t2), expected, "{t1:?} {t2:?}");
        }
        assert!(hits > 1000, "the sample must hold both cases: {hits}");
    }
}
