//! STL, ASCII or binary, through stl_io (vertices shared between triangles are merged by exact
//! position, as STL stores every triangle's corners anew). STL stores single precision.

use super::Polygons;
use crate::error::{invalid, ModelError};
use nalgebra::Vector3;

/// The vertices and triangles of an STL file.
pub(super) fn read(bytes: &[u8]) -> Result<Polygons, ModelError> {
    let mut cursor = std::io::Cursor::new(bytes);
    let mesh =
        stl_io::read_stl(&mut cursor).map_err(|e| invalid!("not a readable STL file: {e}"))?;
    let vertices = mesh
        .vertices
        .iter()
        .map(|v| Vector3::new(v[0] as f64, v[1] as f64, v[2] as f64))
        .collect();
    let polygons = mesh
        .faces
        .iter()
        .map(|f| f.vertices.iter().map(|&i| i as u32).collect())
        .collect();
    Ok((vertices, polygons))
}
