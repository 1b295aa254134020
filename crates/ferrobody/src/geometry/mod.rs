//! Contact geometry: shapes attached to bodies and the pair routines that find where two of
//! them touch.
//!
//! A [`ContactSurface`] is a [`Shape`] fixed to a body with a frame `x_bs`. Each supported pair
//! of shapes has one file (`contact_<shape>_<shape>.rs`, parry's naming) with a routine that
//! returns a [`PointContact`]: depth (m, positive when overlapping), unit normal from surface 1
//! toward surface 2, the midway point between the two surfaces along the normal, and the
//! effective radius of curvature. [`pair_contact`] dispatches on the shape pair by `match`, so
//! adding a shape (Brick, triangle mesh) adds a file and a match arm and never
//! touches the force laws. Conventions follow Simbody (notes §3.1, §3.3): a half space occupies
//! `x > 0` of its frame, its outward normal is `−x`.

mod broad_phase;
mod contact_ellipsoid_sphere;
mod contact_halfspace_brick;
mod contact_halfspace_ellipsoid;
mod contact_halfspace_mesh;
mod contact_halfspace_sphere;
mod contact_mesh_mesh;
mod contact_scratch;
mod contact_sphere_mesh;
mod contact_sphere_sphere;
mod general_contact_order;
mod mesh_bvh;
mod mesh_queries;
mod mesh_shapes;
mod pass_cache;
mod small_set;
mod triangle_mesh;
mod triangle_overlap;
mod unsupported_pairs;

pub use broad_phase::{candidate_pairs, BroadPhase};
pub use contact_ellipsoid_sphere::contact_ellipsoid_sphere;
pub use contact_halfspace_brick::{contact_halfspace_brick, BrickFace};
pub use contact_halfspace_ellipsoid::contact_halfspace_ellipsoid;
pub use contact_halfspace_mesh::{springs_in_half_space, FoundationSpring};
pub use contact_halfspace_sphere::contact_halfspace_sphere;
pub use contact_mesh_mesh::springs_between_meshes;
pub use contact_scratch::ContactScratch;
pub use contact_sphere_mesh::springs_in_sphere;
pub use contact_sphere_sphere::contact_sphere_sphere;
pub use general_contact_order::general_contact_pairs;
pub use mesh_bvh::MeshBvh;
pub use mesh_queries::{nearest_point_on_triangle, MeshNearest};
pub use pass_cache::PassCache;
pub use small_set::SmallSetPlan;
pub use triangle_mesh::TriangleMesh;
pub use triangle_overlap::triangles_overlap;
pub use unsupported_pairs::UnsupportedPairs;

use crate::error::{invalid, ModelError};
use crate::ids::BodyId;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// A contact shape, described in its own frame S.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Shape {
    /// A sphere of the given radius (m) centred at S's origin.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// The half space `x > 0` of S (its surface is the plane x = 0, outward normal −x).
    HalfSpace,
    /// The ellipsoid `Σ (x_i / a_i)² ≤ 1` of S, semi-axes `radii` (m) along S's axes.
    Ellipsoid {
        /// Semi-axes along x, y, z (m).
        radii: [f64; 3],
    },
    /// The box `|x_i| ≤ h_i` of S (Simbody's `ContactGeometry::Brick`); it touches half spaces
    /// only, through Simbody's brick penalty law (`contact::brick_penalty`).
    Brick {
        /// Half side lengths along x, y, z (m).
        half_lengths: [f64; 3],
    },
}

impl Shape {
    /// The scene-file name of the shape.
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::HalfSpace => "half_space",
            Shape::Ellipsoid { .. } => "ellipsoid",
            Shape::Brick { .. } => "brick",
        }
    }

    /// The radius of a sphere about S's origin that holds the shape (Simbody's bounding
    /// sphere), or `None` for the unbounded half space.
    pub fn bounding_radius(&self) -> Option<f64> {
        match self {
            Shape::Sphere { radius } => Some(*radius),
            Shape::HalfSpace => None,
            Shape::Ellipsoid { radii } => Some(radii[0].max(radii[1]).max(radii[2])),
            Shape::Brick { half_lengths: h } => {
                Some((h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt())
            }
        }
    }

    /// Checks the shape's dimensions: radii positive and finite.
    pub fn validate(&self) -> Result<(), ModelError> {
        let check = |what: &str, r: f64| {
            if r.is_finite() && r > 0.0 {
                Ok(())
            } else {
                Err(invalid!("{what}: must be positive and finite, got {r}"))
            }
        };
        match self {
            Shape::Sphere { radius } => check("radius", *radius),
            Shape::HalfSpace => Ok(()),
            Shape::Ellipsoid { radii } => radii
                .iter()
                .zip(["radii[0]", "radii[1]", "radii[2]"])
                .try_for_each(|(r, what)| check(what, *r)),
            Shape::Brick { half_lengths } => half_lengths
                .iter()
                .zip(["half_lengths[0]", "half_lengths[1]", "half_lengths[2]"])
                .try_for_each(|(r, what)| check(what, *r)),
        }
    }
}

/// Whether two shapes on different bodies have a contact routine (two half spaces never touch,
/// and count as handled): every point-contact pair of [`pair_contact`] but ellipsoid against
/// ellipsoid (Simbody solves it by a general convex search that ferrobody does not have yet),
/// and a brick against a half space only (Simbody's brick penalty law; no other brick pair
/// exists in Simbody's compliant contact).
pub fn pair_supported(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Ellipsoid { .. }, Shape::Ellipsoid { .. }) => false,
        (Shape::Brick { .. }, other) | (other, Shape::Brick { .. }) => {
            matches!(other, Shape::HalfSpace)
        }
        _ => true,
    }
}

/// A shape fixed to a body.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactSurface<T: Real = f64> {
    /// The body carrying the surface.
    pub body: BodyId,
    /// Pose of the shape frame S in the body frame B.
    pub x_bs: Transform<T>,
    /// The shape.
    pub shape: Shape,
}

/// Where two surfaces touch (or would touch): Simbody's `PointContact`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointContact<T: Real> {
    /// Penetration depth (m); positive when the surfaces overlap.
    pub depth: T,
    /// Unit normal in Ground, from surface 1 toward surface 2.
    pub normal: Vector3<T>,
    /// The point midway between the two undeformed surfaces along the normal, in Ground.
    pub location: Vector3<T>,
    /// Effective radius of curvature (m).
    pub radius: T,
}

/// The contact between surfaces `a` and `b`, whose shape frames are at `x_ga` and `x_gb` in
/// Ground. Returns the contact and whether the surfaces were swapped (the routine's surface 1
/// is `b`), or `None` when the pair is separated or has no routine. Inlined into the force
/// loops, which read the result right away (through memory it would stall on store-to-load
/// forwarding).
#[inline(always)]
pub fn pair_contact<T: Real>(
    a: &Shape,
    x_ga: &Transform<T>,
    b: &Shape,
    x_gb: &Transform<T>,
) -> Option<(PointContact<T>, bool)> {
    match (a, b) {
        (Shape::HalfSpace, Shape::Sphere { radius }) => {
            contact_halfspace_sphere(x_ga, x_gb, T::c(*radius)).map(|c| (c, false))
        }
        (Shape::Sphere { radius }, Shape::HalfSpace) => {
            contact_halfspace_sphere(x_gb, x_ga, T::c(*radius)).map(|c| (c, true))
        }
        (Shape::Sphere { radius: r1 }, Shape::Sphere { radius: r2 }) => {
            contact_sphere_sphere(&x_ga.p, T::c(*r1), &x_gb.p, T::c(*r2)).map(|c| (c, false))
        }
        // One call site for both orders, so the routine can be inlined once.
        (Shape::HalfSpace, Shape::Ellipsoid { radii })
        | (Shape::Ellipsoid { radii }, Shape::HalfSpace) => {
            let swapped = matches!(a, Shape::Ellipsoid { .. });
            let (x_gh, x_ge) = if swapped { (x_gb, x_ga) } else { (x_ga, x_gb) };
            contact_halfspace_ellipsoid(x_gh, x_ge, radii).map(|c| (c, swapped))
        }
        (Shape::Ellipsoid { radii }, Shape::Sphere { radius }) => {
            contact_ellipsoid_sphere(x_ga, radii, &x_gb.p, T::c(*radius)).map(|c| (c, false))
        }
        (Shape::Sphere { radius }, Shape::Ellipsoid { radii }) => {
            contact_ellipsoid_sphere(x_gb, radii, &x_ga.p, T::c(*radius)).map(|c| (c, true))
        }
        // Bricks have no point contact: the force elements call `contact_halfspace_brick`.
        (Shape::HalfSpace, Shape::HalfSpace)
        | (Shape::Ellipsoid { .. }, Shape::Ellipsoid { .. })
        | (Shape::Brick { .. }, _)
        | (_, Shape::Brick { .. }) => None,
    }
}
