//! OpenSim contact geometry: `ContactSphere`, `ContactEllipsoid`, `ContactHalfSpace` and
//! `ContactMesh` in the `ContactGeometrySet` (or a model's `components`). A mesh's `filename`
//! is found next to the model file, as OpenSim finds it, and read when a force uses it.
//!
//! Each has a `socket_frame`, a `location` and an `orientation` (body-fixed x-y-z angles) in that
//! frame; the surface pose in its body is `X_BS = X_BF · X(location, orientation)`, OpenSim's
//! `ContactGeometry::findTransformInBaseFrame`. A half space is Simbody's: the solid is `x > 0`
//! of its frame, so OpenSim's usual floor turns it by −π/2 about z (normal +y).

use super::document::{Doc, Res};
use super::frames::{offset_from, socket_frame, BodyFrame};
use crate::geometry::{ContactSurface, Shape};
use crate::ids::BodyId;
use crate::math::Transform;
use nalgebra::Vector3;
use roxmltree::Node;
use std::collections::HashMap;

/// A contact geometry as read.
pub(super) enum ContactGeometry {
    /// A sphere: its frame, the centre in that frame, its radius.
    Sphere {
        frame: BodyFrame,
        location: Vector3<f64>,
        x_fs: Transform<f64>,
        radius: f64,
    },
    /// An ellipsoid: its frame, its pose in that frame, its semi-axes (`radii`, m).
    Ellipsoid {
        frame: BodyFrame,
        x_fs: Transform<f64>,
        radii: [f64; 3],
    },
    /// A half space: its frame and the geometry's pose in that frame.
    HalfSpace {
        frame: BodyFrame,
        x_fs: Transform<f64>,
    },
    /// A triangle mesh: its frame, its pose in that frame, its file (next to the model).
    Mesh {
        frame: BodyFrame,
        x_fs: Transform<f64>,
        file: std::path::PathBuf,
    },
    /// A shape this reader does not simulate (its tag); an error if a force uses it.
    Other(String),
}

/// The contact geometry tags this reader knows (others are `Other`).
pub(super) fn is_contact_geometry(tag: &str) -> bool {
    tag.starts_with("Contact") && tag != "ContactGeometrySet"
}

/// Reads a contact geometry element.
pub(super) fn read_geometry(doc: &Doc, node: Node) -> Res<ContactGeometry> {
    let tag = node.tag_name().name();
    if !matches!(
        tag,
        "ContactSphere" | "ContactHalfSpace" | "ContactEllipsoid" | "ContactMesh"
    ) {
        return Ok(ContactGeometry::Other(tag.to_string()));
    }
    let frame = socket_frame(doc, node, "socket_frame")?;
    let location = Vector3::from(doc.fixed(node, "location", [0.0; 3])?);
    let x_fs = offset_from(&location, &doc.fixed(node, "orientation", [0.0; 3])?);
    if tag == "ContactHalfSpace" {
        return Ok(ContactGeometry::HalfSpace { frame, x_fs });
    }
    if tag == "ContactMesh" {
        let (_, name) = doc
            .text(node, "filename")
            .ok_or_else(|| doc.err(node, "a ContactMesh needs a <filename>"))?;
        let file = doc.dir.join(name.trim());
        return Ok(ContactGeometry::Mesh { frame, x_fs, file });
    }
    if tag == "ContactEllipsoid" {
        let radii = doc.fixed(node, "radii", [0.0; 3])?;
        if radii.iter().any(|&r| r <= 0.0) {
            return Err(doc.err(node, format!("<radii> must all be positive, got {radii:?}")));
        }
        return Ok(ContactGeometry::Ellipsoid { frame, x_fs, radii });
    }
    let radius = doc.scalar(node, "radius", 0.0)?;
    if radius <= 0.0 {
        return Err(doc.err(node, format!("<radius> must be positive, got {radius}")));
    }
    Ok(ContactGeometry::Sphere {
        frame,
        location,
        x_fs,
        radius,
    })
}

/// The ferrobody contact surface of a geometry used by a Hunt–Crossley force.
pub(super) fn contact_surface(
    doc: &Doc,
    at: Node,
    g: &ContactGeometry,
    bodies: &HashMap<String, BodyId>,
) -> Res<ContactSurface<f64>> {
    let (frame, x_fs, shape) = match g {
        ContactGeometry::Sphere {
            frame,
            x_fs,
            radius,
            ..
        } => (frame, x_fs, Shape::Sphere { radius: *radius }),
        ContactGeometry::HalfSpace { frame, x_fs } => (frame, x_fs, Shape::HalfSpace),
        ContactGeometry::Ellipsoid { frame, x_fs, radii } => {
            (frame, x_fs, Shape::Ellipsoid { radii: *radii })
        }
        ContactGeometry::Mesh { .. } => return Err(doc.err(
            at,
            "a HuntCrossleyForce does not act on a ContactMesh (Simbody skips mesh contacts in \
                 point-contact forces); use an ElasticFoundationForce",
        )),
        ContactGeometry::Other(tag) => {
            return Err(doc.err(at, format!("contact geometry <{tag}> is not supported yet")))
        }
    };
    let (body, x_bs) = placement(doc, at, frame, x_fs, bodies)?;
    Ok(ContactSurface { body, x_bs, shape })
}

/// The body of a geometry's frame and the geometry's pose in that body, `X_BF · X_FS`.
pub(super) fn placement(
    doc: &Doc,
    at: Node,
    frame: &BodyFrame,
    x_fs: &Transform<f64>,
    bodies: &HashMap<String, BodyId>,
) -> Res<(BodyId, Transform<f64>)> {
    let body = if frame.body == "/ground" {
        BodyId::GROUND
    } else {
        *bodies
            .get(&frame.body)
            .ok_or_else(|| doc.err(at, format!("{} is not a body of the model", frame.body)))?
    };
    Ok((body, &frame.x_bf * x_fs))
}

/// Every contact geometry of the model by name: the ContactGeometrySet and components.
pub(super) fn read_all(doc: &Doc, nodes: &[Node]) -> Res<HashMap<String, ContactGeometry>> {
    let mut out = HashMap::new();
    for &n in nodes {
        let name = n.attribute("name").unwrap_or_default().to_string();
        if out.insert(name.clone(), read_geometry(doc, n)?).is_some() {
            return Err(doc.err(n, format!("two contact geometries are named '{name}'")));
        }
    }
    Ok(out)
}
