//! `[[contact]]` elements with `model = "elastic_foundation"`: Simbody's elastic foundation
//! (`contact::ElasticFoundationForce`). Mesh surfaces (`shape = "mesh"`, `file` relative to the
//! scene file: `.obj`, `.stl` or `.vtp`) carry their material as the springs' parameters
//! (`stiffness` in N/m³, per unit area and displacement); half spaces and spheres are what the
//! meshes press on, and their materials are not used (Simbody's legacy force reads the mesh's
//! parameters only).

use super::scene_build::{body_ref, frame};
use super::scene_contact_shape::surface_shape;
use super::scene_types::{ContactSection, MaterialSection, ShapeKind};
use crate::contact::{
    ElasticFoundationForce, FoundationParameters, FoundationShape, FoundationSurface,
};
use crate::error::{invalid, ModelError};
use crate::model::Force;
use crate::model::ModelBuilder;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

type Res<T> = Result<T, ModelError>;

/// Builds an elastic-foundation element from its section.
pub(super) fn build_foundation(
    b: &ModelBuilder<f64>,
    materials: &BTreeMap<String, MaterialSection>,
    c: &ContactSection,
    name: &str,
    scene_dir: &Path,
) -> Res<Force<f64>> {
    let mut surfaces = Vec::with_capacity(c.surfaces.len());
    for (k, s) in c.surfaces.iter().enumerate() {
        let key = format!("surface[{k}]");
        let body = body_ref(b, &format!("{key}.body"), &s.body)?;
        let x_bs = frame(s.frame.as_ref(), "frame").map_err(|m| invalid!("{key}{m}"))?;
        let m = materials
            .get(&s.material)
            .ok_or_else(|| invalid!("{key}.material: no [material.{}] table", s.material))?;
        let shape = if s.shape == ShapeKind::Mesh {
            if s.radius.is_some() || s.radii.is_some() || s.half_lengths.is_some() {
                return Err(invalid!(
                    "{key}: a mesh has no radius, radii or half_lengths"
                ));
            }
            let file = s
                .file
                .as_ref()
                .ok_or_else(|| invalid!("{key}.file: a mesh needs a file (.obj, .stl or .vtp)"))?;
            let mesh = crate::io::mesh::load_mesh(&scene_dir.join(file))
                .map_err(|e| invalid!("{key}.file: {}", crate::io::one_line(&e.to_string())))?;
            let parameters = FoundationParameters {
                stiffness: m.stiffness,
                dissipation: m.dissipation.unwrap_or(0.0),
                static_friction: m.static_friction.unwrap_or(0.0),
                dynamic_friction: m.dynamic_friction.unwrap_or(0.0),
                viscous_friction: m.viscous_friction.unwrap_or(0.0),
            };
            FoundationShape::Mesh(Arc::new(mesh), parameters)
        } else {
            FoundationShape::Solid(surface_shape(&key, s)?)
        };
        surfaces.push(FoundationSurface { body, x_bs, shape });
    }
    let vt = c.transition_velocity.unwrap_or(0.01);
    ElasticFoundationForce::new(name, surfaces, vt).map(Force::ElasticFoundation)
}
