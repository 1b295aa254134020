//! The shape of a scene's `[[contact.surface]]`: which dimension keys each shape takes
//! (`radius` for a sphere, `radii` for an ellipsoid, `half_lengths` for a brick, none for a
//! half space), checked with the
//! shape's own validation, so a wrong or missing key is a one-line error naming the surface.

use super::scene_types::{ShapeKind, SurfaceSection};
use crate::error::{invalid, ModelError};
use crate::geometry::Shape;

type Res<T> = Result<T, ModelError>;

/// The shape of a `[[contact.surface]]`: `radius` for a sphere, `radii` for an ellipsoid,
/// `half_lengths` for a brick, none for a half space; dimensions positive and finite.
pub(super) fn surface_shape(key: &str, s: &SurfaceSection) -> Res<Shape> {
    if s.shape == ShapeKind::Mesh {
        return Err(invalid!(
            "{key}.shape: a mesh is a surface of model = \"elastic_foundation\" elements"
        ));
    }
    if s.file.is_some() {
        return Err(invalid!("{key}.file: only a mesh has a file"));
    }
    let (needed, usage) = match s.shape {
        ShapeKind::Sphere => (Some("radius"), "a radius"),
        ShapeKind::Ellipsoid => (Some("radii"), "radii = [a, b, c]"),
        ShapeKind::Brick => (Some("half_lengths"), "half_lengths = [x, y, z]"),
        ShapeKind::HalfSpace | ShapeKind::Mesh => (None, ""),
    };
    let given = [
        ("radius", s.radius.is_some()),
        ("radii", s.radii.is_some()),
        ("half_lengths", s.half_lengths.is_some()),
    ];
    for (name, present) in given {
        if present && needed != Some(name) {
            return Err(invalid!(
                "{key}.{name}: {} has no {name}",
                with_article(s.shape)
            ));
        }
    }
    let shape = match s.shape {
        ShapeKind::Sphere => s.radius.map(|radius| Shape::Sphere { radius }),
        ShapeKind::Ellipsoid => s.radii.map(|radii| Shape::Ellipsoid { radii }),
        ShapeKind::Brick => s
            .half_lengths
            .map(|half_lengths| Shape::Brick { half_lengths }),
        ShapeKind::HalfSpace | ShapeKind::Mesh => Some(Shape::HalfSpace),
    };
    let Some(shape) = shape else {
        let name = needed.unwrap_or_default();
        return Err(invalid!(
            "{key}.{name}: {} needs {usage}",
            with_article(s.shape)
        ));
    };
    shape.validate().map_err(|e| invalid!("{key}.{e}"))?;
    Ok(shape)
}

pub(super) fn with_article(kind: ShapeKind) -> &'static str {
    match kind {
        ShapeKind::Sphere => "a sphere",
        ShapeKind::HalfSpace => "a half space",
        ShapeKind::Ellipsoid => "an ellipsoid",
        ShapeKind::Brick => "a brick",
        ShapeKind::Mesh => "a mesh",
    }
}
