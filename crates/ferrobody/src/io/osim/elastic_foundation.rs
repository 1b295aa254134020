//! OpenSim's `ElasticFoundationForce`: one Simbody contact set per force holding every geometry
//! its `contact_parameters` name; each `ContactMesh` gets that parameter set's stiffness,
//! dissipation and frictions (Simbody's `setBodyParameters`), half spaces and spheres get none
//! (OpenSim's `ElasticFoundationForce::extendAddToSystem`). Meshes are read from their files
//! here, when a force uses them.

use super::contact::{placement, ContactGeometry};
use super::document::{child, objects, Res};
use super::forces::ForceCtx;
use crate::contact::{
    ElasticFoundationForce, FoundationParameters, FoundationShape, FoundationSurface,
};
use crate::geometry::Shape;
use crate::model::Force;
use roxmltree::Node;
use std::collections::HashMap;
use std::sync::Arc;

impl ForceCtx<'_, '_, '_> {
    /// Adds an `ElasticFoundationForce`.
    pub(super) fn elastic_foundation(
        &mut self,
        node: Node,
        geometry: &HashMap<String, ContactGeometry>,
    ) -> Res<()> {
        let doc = self.doc;
        let params = child(node, "ElasticFoundationForce__ContactParametersSet")
            .or_else(|| child(node, "contact_parameters"))
            .map(objects)
            .unwrap_or_default();
        let mut surfaces = Vec::new();
        for p in params {
            let parameters = FoundationParameters {
                stiffness: doc.non_negative(p, "stiffness", 0.0)?,
                dissipation: doc.non_negative(p, "dissipation", 0.0)?,
                static_friction: doc.non_negative(p, "static_friction", 0.0)?,
                dynamic_friction: doc.non_negative(p, "dynamic_friction", 0.0)?,
                viscous_friction: doc.non_negative(p, "viscous_friction", 0.0)?,
            };
            let (el, names) = doc
                .text(p, "geometry")
                .ok_or_else(|| doc.err(p, "contact parameters without <geometry>"))?;
            for name in names.split_whitespace() {
                let g = geometry.get(name).ok_or_else(|| {
                    doc.err(
                        el,
                        format!("<geometry> '{name}' is not in the ContactGeometrySet"),
                    )
                })?;
                let (frame, x_fs, shape) = match g {
                    ContactGeometry::Mesh { frame, x_fs, file } => {
                        let mesh = crate::io::mesh::load_mesh(file).map_err(|e| {
                            doc.err(el, format!("ContactMesh '{name}': {}", crate::io::one_line(&e.to_string())))
                        })?;
                        (frame, x_fs, FoundationShape::Mesh(Arc::new(mesh), parameters))
                    }
                    ContactGeometry::HalfSpace { frame, x_fs } => {
                        (frame, x_fs, FoundationShape::Solid(Shape::HalfSpace))
                    }
                    ContactGeometry::Sphere { frame, x_fs, radius, .. } => {
                        (frame, x_fs, FoundationShape::Solid(Shape::Sphere { radius: *radius }))
                    }
                    ContactGeometry::Ellipsoid { .. } | ContactGeometry::Other(_) => {
                        return Err(doc.err(
                            el,
                            format!("'{name}': an ElasticFoundationForce presses ContactMeshes on half spaces and spheres only"),
                        ))
                    }
                };
                let (body, x_bs) = placement(doc, el, frame, x_fs, self.bodies)?;
                surfaces.push(FoundationSurface { body, x_bs, shape });
            }
        }
        let vt = doc.scalar(node, "transition_velocity", 0.01)?;
        let name = node.attribute("name").unwrap_or("ElasticFoundationForce");
        let force =
            ElasticFoundationForce::new(name, surfaces, vt).map_err(|m| doc.err(node, m))?;
        self.push(node, Force::ElasticFoundation(force))?;
        Ok(())
    }
}
