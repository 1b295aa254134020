//! Wavefront OBJ through tobj: `v` positions and `f` polygons of every object in the file
//! (texture and normal indices ignored), polygons kept whole so that the mesh splits them as
//! Simbody does.

use super::Polygons;
use crate::error::{invalid, ModelError};
use nalgebra::Vector3;

/// The vertices and polygons of an OBJ file's text.
pub(super) fn read(bytes: &[u8]) -> Result<Polygons, ModelError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = std::io::BufReader::new(bytes);
    let (models, _) = tobj::load_obj_buf(&mut reader, &options, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })
    .map_err(|e| invalid!("not a readable OBJ file: {e}"))?;
    let mut vertices = Vec::new();
    let mut polygons = Vec::new();
    for m in &models {
        let mesh = &m.mesh;
        let offset = vertices.len() as u32;
        vertices.extend(
            mesh.positions
                .chunks_exact(3)
                .map(|p| Vector3::new(p[0], p[1], p[2])),
        );
        if mesh.face_arities.is_empty() {
            polygons.extend(
                mesh.indices
                    .chunks_exact(3)
                    .map(|t| t.iter().map(|i| i + offset).collect()),
            );
        } else {
            let mut next = 0;
            for &n in &mesh.face_arities {
                let n = n as usize;
                polygons.push(
                    mesh.indices[next..next + n]
                        .iter()
                        .map(|i| i + offset)
                        .collect(),
                );
                next += n;
            }
        }
    }
    if polygons.is_empty() {
        return Err("the OBJ file has no faces".into());
    }
    Ok((vertices, polygons))
}
