//! Triangle-mesh files for contact surfaces: Wavefront OBJ (tobj), STL, ASCII or binary
//! (stl_io), and VTK PolyData `.vtp` (OpenSim's mesh format, read with roxmltree), chosen by the
//! file's extension as OpenSim's `ContactMesh` and Simbody's `PolygonalMesh::loadFile` choose.
//! Every reader gives vertices and polygons; [`TriangleMesh::from_polygons`] splits and checks
//! them, so a broken mesh (open, inconsistently wound, degenerate faces, no faces) is a
//! one-line error that names the file.

#[cfg(feature = "meshes")]
mod obj;
#[cfg(feature = "meshes")]
mod stl;
#[cfg(feature = "meshes")]
mod vtp;

use crate::error::{invalid, Error, ModelError, ParseError, Result};
use crate::geometry::TriangleMesh;
use nalgebra::Vector3;
use std::path::Path;

/// Vertices (m) and polygons (vertex indices) as a file gives them.
pub(crate) type Polygons = (Vec<Vector3<f64>>, Vec<Vec<u32>>);

/// Reads and checks the mesh in `path` (`.obj`, `.stl` or `.vtp`, any case).
pub fn load_mesh(path: &Path) -> Result<TriangleMesh> {
    let file = path.display().to_string();
    let fail = |problem: ModelError| Error::Parse(ParseError::in_file(&file, problem));
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, "cannot read the mesh", e))?;
    if bytes.is_empty() {
        return Err(fail("the mesh file is empty".into()));
    }
    let (vertices, polygons): Polygons = match extension.as_str() {
        #[cfg(feature = "meshes")]
        "obj" => obj::read(&bytes),
        #[cfg(feature = "meshes")]
        "stl" => stl::read(&bytes),
        #[cfg(feature = "meshes")]
        "vtp" => vtp::read(&bytes),
        #[cfg(not(feature = "meshes"))]
        "obj" | "stl" | "vtp" => Err(invalid!(
            "reading .{extension} meshes needs ferrobody's `meshes` feature (built without it)"
        )),
        other => Err(invalid!(
            "unknown mesh format '.{other}': expected .obj, .stl or .vtp"
        )),
    }
    .map_err(&fail)?;
    TriangleMesh::from_polygons(vertices, &polygons).map_err(fail)
}
