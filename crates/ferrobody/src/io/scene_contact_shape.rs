//! The shape of a scene's `[[contact.surface]]`: which dimension keys each shape takes
//! (`radius` for a sphere, `radii` for an ellipsoid, none for a half space), checked with the
//! shape's own validation, so a wrong or missing key is a one-line error naming the surface.

use super::scene_types::{ShapeKind, SurfaceSection};
use crate::geometry::Shape;

type Res<T> = Result<T, String>;

/// The shape of a `[[contact.surface]]`: `radius` for a sphere, `radii` for an ellipsoid,
/// neither for a half space; dimensions positive and finite.
pub(super) fn surface_shape(key: &str, s: &SurfaceSection) -> Res<Shape> {
    if s.shape == ShapeKind::Mesh {
        return Err(format!(
            "{key}.shape: a mesh is a surface of model = \"elastic_foundation\" elements"
        ));
    }
    if s.file.is_some() {
        return Err(format!("{key}.file: only a mesh has a file"));
    }
    let shape = match (s.shape, s.radius, s.radii) {
        (ShapeKind::Sphere, Some(radius), None) => Shape::Sphere { radius },
        (ShapeKind::Ellipsoid, None, Some(radii)) => Shape::Ellipsoid { radii },
        (ShapeKind::HalfSpace, None, None) => Shape::HalfSpace,
        (ShapeKind::Sphere, None, _) => {
            return Err(format!("{key}.radius: a sphere needs a radius"))
        }
        (kind, Some(_), _) if kind != ShapeKind::Sphere => {
            return Err(format!(
                "{key}.radius: {} has no radius",
                with_article(kind)
            ))
        }
        (ShapeKind::Ellipsoid, None, None) => {
            return Err(format!("{key}.radii: an ellipsoid needs radii = [a, b, c]"))
        }
        (kind, _, _) => return Err(format!("{key}.radii: {} has no radii", with_article(kind))),
    };
    shape.validate().map_err(|e| format!("{key}.{e}"))?;
    Ok(shape)
}

pub(super) fn with_article(kind: ShapeKind) -> &'static str {
    match kind {
        ShapeKind::Sphere => "a sphere",
        ShapeKind::HalfSpace => "a half space",
        ShapeKind::Ellipsoid => "an ellipsoid",
        ShapeKind::Mesh => "a mesh",
    }
}
