//! A closed triangle mesh as a contact surface (Simbody `ContactGeometry::TriangleMesh`), in
//! its own frame M.
//!
//! Built from polygons as Simbody builds it from a `PolygonalMesh`: triangles kept, a quad
//! `(0 1 2 3)` split into `(0 1 2)` and `(2 3 0)`, a larger polygon fanned around a new vertex
//! at its vertex average; faces of fewer than three vertices ignored. Then checked as Simbody
//! checks it: every index in range, no face of zero area or with a repeated vertex, every
//! vertex in some face, and every edge shared by exactly two faces that traverse it in
//! opposite directions (closed and consistently wound). A mesh wound inside out (negative
//! enclosed volume `V = Σ p₀·(p₁×p₂)/6`) is turned over, as Simbody does after its ray test.
//! Per face it keeps what the elastic foundation needs: the vertex average (the spring's
//! station), the area and the unit outward normal. Reference: Simbody
//! `SimTKmath/Geometry/src/ContactGeometry_TriangleMesh.cpp`.

use super::mesh_bvh::MeshBvh;
use crate::error::{invalid, ModelError};
use nalgebra::Vector3;
use std::collections::HashMap;

/// A validated closed triangle mesh with per-face springs data and a bounding-volume tree.
#[derive(Clone, Debug)]
pub struct TriangleMesh {
    vertices: Vec<Vector3<f64>>,
    faces: Vec<[u32; 3]>,
    centroids: Vec<Vector3<f64>>,
    areas: Vec<f64>,
    normals: Vec<Vector3<f64>>,
    neighbours: Vec<[u32; 3]>,
    bvh: MeshBvh,
}

impl PartialEq for TriangleMesh {
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.faces == other.faces
    }
}

impl TriangleMesh {
    /// A mesh from vertex positions (m) and polygons (vertex indices, counter-clockwise seen
    /// from outside, or all clockwise: the mesh is turned over then). Errors name the face,
    /// edge or vertex at fault, in one line.
    pub fn from_polygons(
        vertices: Vec<Vector3<f64>>,
        polygons: &[Vec<u32>],
    ) -> Result<Self, ModelError> {
        let mut vertices = vertices;
        let mut faces = Vec::with_capacity(polygons.len());
        for (i, p) in polygons.iter().enumerate() {
            if let Some(&bad) = p.iter().find(|&&v| v as usize >= vertices.len()) {
                return Err(invalid!(
                    "face {i} uses vertex {bad}, but the mesh has {} vertices",
                    vertices.len()
                ));
            }
            match p.len() {
                0..=2 => {}
                3 => faces.push([p[0], p[1], p[2]]),
                4 => {
                    faces.push([p[0], p[1], p[2]]);
                    faces.push([p[2], p[3], p[0]]);
                }
                n => {
                    let centre = p
                        .iter()
                        .map(|&v| vertices[v as usize])
                        .sum::<Vector3<f64>>()
                        / n as f64;
                    vertices.push(centre);
                    let c = (vertices.len() - 1) as u32;
                    for j in 0..n {
                        faces.push([p[j], p[(j + 1) % n], c]);
                    }
                }
            }
        }
        Self::from_triangles(vertices, faces)
    }

    /// A mesh from vertex positions (m) and triangles; see [`TriangleMesh::from_polygons`].
    pub fn from_triangles(
        vertices: Vec<Vector3<f64>>,
        mut faces: Vec<[u32; 3]>,
    ) -> Result<Self, ModelError> {
        if faces.is_empty() {
            return Err("the mesh has no faces".into());
        }
        if let Some(i) = vertices
            .iter()
            .position(|v| !(v.x.is_finite() && v.y.is_finite() && v.z.is_finite()))
        {
            return Err(invalid!(
                "vertex {i} is not finite: {:?}",
                vertices[i].as_slice()
            ));
        }
        check_faces(&vertices, &faces)?;
        check_edges(&faces)?;
        if let Some(unused) = unused_vertex(vertices.len(), &faces) {
            return Err(invalid!("vertex {unused} is not part of any face"));
        }
        let volume: f64 = faces
            .iter()
            .map(|f| {
                let [a, b, c] = f.map(|v| vertices[v as usize]);
                a.dot(&b.cross(&c)) / 6.0
            })
            .sum();
        if volume == 0.0 || volume.is_nan() {
            return Err("the mesh encloses no volume".into());
        }
        if volume < 0.0 {
            for f in &mut faces {
                f.swap(0, 1);
            }
        }
        let corner = |f: &[u32; 3], k: usize| vertices[f[k] as usize];
        let centroids = faces
            .iter()
            .map(|f| (corner(f, 0) + corner(f, 1) + corner(f, 2)) / 3.0)
            .collect();
        let crosses: Vec<Vector3<f64>> = faces
            .iter()
            .map(|f| (corner(f, 1) - corner(f, 0)).cross(&(corner(f, 2) - corner(f, 0))))
            .collect();
        let areas = crosses.iter().map(|c| c.norm() / 2.0).collect();
        let normals = crosses.iter().map(|c| c / c.norm()).collect();
        let bvh = MeshBvh::new(&vertices, &faces);
        let neighbours = face_neighbours(&faces);
        Ok(Self {
            vertices,
            faces,
            centroids,
            areas,
            normals,
            neighbours,
            bvh,
        })
    }

    /// Vertex positions in M (m).
    pub fn vertices(&self) -> &[Vector3<f64>] {
        &self.vertices
    }

    /// Triangles (vertex indices), counter-clockwise seen from outside.
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    /// Face vertex averages in M (m): where the elastic foundation's springs sit.
    pub fn centroids(&self) -> &[Vector3<f64>] {
        &self.centroids
    }

    /// Face areas (m²).
    pub fn areas(&self) -> &[f64] {
        &self.areas
    }

    /// Unit outward face normals in M.
    pub fn normals(&self) -> &[Vector3<f64>] {
        &self.normals
    }

    /// For each face, the face across each of its edges (edge k runs from corner k to corner
    /// k + 1).
    pub fn neighbours(&self) -> &[[u32; 3]] {
        &self.neighbours
    }

    /// The bounding-volume tree of the faces.
    pub fn bvh(&self) -> &MeshBvh {
        &self.bvh
    }

    /// The radius of the sphere about M's origin that holds every vertex (m).
    pub fn bounding_radius(&self) -> f64 {
        self.vertices.iter().map(|v| v.norm()).fold(0.0, f64::max)
    }
}

/// Zero-area faces and faces that repeat a vertex.
fn check_faces(vertices: &[Vector3<f64>], faces: &[[u32; 3]]) -> Result<(), ModelError> {
    for (i, f) in faces.iter().enumerate() {
        if let Some(&bad) = f.iter().find(|&&v| v as usize >= vertices.len()) {
            return Err(invalid!(
                "face {i} uses vertex {bad}, but the mesh has {} vertices",
                vertices.len()
            ));
        }
        if f[0] == f[1] || f[1] == f[2] || f[2] == f[0] {
            return Err(invalid!("face {i} repeats a vertex: {f:?}"));
        }
        let [a, b, c] = f.map(|v| vertices[v as usize]);
        let twice_area = (b - a).cross(&(c - a)).norm();
        if twice_area == 0.0 || twice_area.is_nan() {
            return Err(invalid!(
                "face {i} is degenerate (zero area): vertices {f:?}"
            ));
        }
    }
    Ok(())
}

/// Every edge in exactly two faces, once in each direction.
fn check_edges(faces: &[[u32; 3]]) -> Result<(), ModelError> {
    let mut directed: HashMap<(u32, u32), usize> = HashMap::with_capacity(faces.len() * 3);
    for (i, f) in faces.iter().enumerate() {
        for k in 0..3 {
            let edge = (f[k], f[(k + 1) % 3]);
            if let Some(j) = directed.insert(edge, i) {
                return Err(invalid!(
                    "faces {j} and {i} both run from vertex {} to vertex {}: the winding is \
                     inconsistent or more than two faces meet at that edge",
                    edge.0,
                    edge.1
                ));
            }
        }
    }
    for (&(a, b), &i) in &directed {
        if !directed.contains_key(&(b, a)) {
            return Err(invalid!(
                "the edge from vertex {a} to vertex {b} of face {i} has no neighbouring face: \
                 the mesh is not closed"
            ));
        }
    }
    Ok(())
}

/// The face across each edge of each face of a closed, consistently wound mesh (the edge's
/// reverse belongs to exactly one other face; `check_edges` made sure).
fn face_neighbours(faces: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let mut owner: HashMap<(u32, u32), u32> = HashMap::with_capacity(faces.len() * 3);
    for (i, f) in faces.iter().enumerate() {
        for k in 0..3 {
            owner.insert((f[k], f[(k + 1) % 3]), i as u32);
        }
    }
    faces
        .iter()
        .map(|f| std::array::from_fn(|k| owner[&(f[(k + 1) % 3], f[k])]))
        .collect()
}

fn unused_vertex(n: usize, faces: &[[u32; 3]]) -> Option<usize> {
    let mut used = vec![false; n];
    for f in faces {
        for &v in f {
            used[v as usize] = true;
        }
    }
    used.iter().position(|u| !u)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The unit-free box of `box.obj` (OpenSim's reference): 0.2 × 0.1 × 0.2 m, 8 vertices,
    /// 12 triangles.
    pub(crate) fn box_mesh() -> TriangleMesh {
        let (x, y, z) = (0.1, 0.05, 0.1);
        let v = (0..8)
            .map(|i| {
                Vector3::new(
                    if i & 4 != 0 { x } else { -x },
                    if i & 2 != 0 { y } else { -y },
                    if i & 1 != 0 { z } else { -z },
                )
            })
            .collect();
        let f = [
            [1, 2, 4],
            [1, 4, 3],
            [5, 7, 8],
            [5, 8, 6],
            [1, 5, 6],
            [1, 6, 2],
            [3, 4, 8],
            [3, 8, 7],
            [1, 3, 7],
            [1, 7, 5],
            [2, 6, 8],
            [2, 8, 4],
        ];
        let faces = f.iter().map(|t: &[u32; 3]| t.map(|k| k - 1)).collect();
        TriangleMesh::from_triangles(v, faces).unwrap()
    }

    #[test]
    fn the_box_has_its_area_and_outward_normals() {
        let m = box_mesh();
        let area: f64 = m.areas().iter().sum();
        assert!((area - 2.0 * (0.2 * 0.1 + 0.2 * 0.2 + 0.1 * 0.2)).abs() < 1e-15);
        for (c, n) in m.centroids().iter().zip(m.normals()) {
            assert!(c.dot(n) > 0.0, "normal points inward");
        }
    }

    #[test]
    fn neighbours_share_the_edge_reversed() {
        let m = box_mesh();
        for (i, (f, across)) in m.faces().iter().zip(m.neighbours()).enumerate() {
            for k in 0..3 {
                let g = m.faces()[across[k] as usize];
                assert_ne!(across[k] as usize, i);
                let (a, b) = (f[k], f[(k + 1) % 3]);
                assert!((0..3).any(|j| g[j] == b && g[(j + 1) % 3] == a));
            }
        }
    }

    #[test]
    fn an_inside_out_mesh_is_turned_over() {
        let m = box_mesh();
        let flipped: Vec<[u32; 3]> = m.faces().iter().map(|f| [f[1], f[0], f[2]]).collect();
        let t = TriangleMesh::from_triangles(m.vertices().to_vec(), flipped).unwrap();
        for (c, n) in t.centroids().iter().zip(t.normals()) {
            assert!(c.dot(n) > 0.0);
        }
    }

    #[test]
    fn polygons_are_split_as_simbody_splits_them() {
        // A cube of quads: 12 triangles; the same cube with one face as a pentagon (an extra
        // vertex on an edge shared with a neighbouring quad would open the mesh, so the
        // pentagon test uses a pyramid with a pentagonal base).
        let v: Vec<Vector3<f64>> = (0..8)
            .map(|i| Vector3::new((i & 4) as f64 / 4.0, (i & 2) as f64 / 2.0, (i & 1) as f64))
            .collect();
        let quads = vec![
            vec![0, 1, 3, 2],
            vec![4, 6, 7, 5],
            vec![0, 4, 5, 1],
            vec![2, 3, 7, 6],
            vec![0, 2, 6, 4],
            vec![1, 5, 7, 3],
        ];
        let cube = TriangleMesh::from_polygons(v, &quads).unwrap();
        assert_eq!(cube.faces().len(), 12);
        assert!((cube.areas().iter().sum::<f64>() - 6.0).abs() < 1e-15);
        let mut base: Vec<Vector3<f64>> = (0..5)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / 5.0;
                Vector3::new(a.cos(), 0.0, a.sin())
            })
            .collect();
        base.push(Vector3::new(0.0, 1.0, 0.0));
        let mut polys = vec![vec![4, 3, 2, 1, 0]];
        polys.extend((0..5).map(|k| vec![k, (k + 1) % 5, 5]));
        let pyramid = TriangleMesh::from_polygons(base, &polys).unwrap();
        assert_eq!((pyramid.faces().len(), pyramid.vertices().len()), (10, 7));
    }

    #[test]
    fn broken_meshes_are_refused_with_the_fault() {
        let m = box_mesh();
        let v = m.vertices().to_vec();
        let faces = m.faces().to_vec();
        let err = |v: Vec<Vector3<f64>>, f: Vec<[u32; 3]>| {
            TriangleMesh::from_triangles(v, f).unwrap_err().to_string()
        };
        assert!(err(v.clone(), faces[1..].to_vec()).contains("not closed"));
        let mut wound = faces.clone();
        wound[3].swap(0, 1);
        assert!(err(v.clone(), wound).contains("winding is inconsistent"));
        let mut flat = v.clone();
        flat.push(v[0]);
        let mut degenerate = faces.clone();
        degenerate[0] = [0, 8, 1];
        assert!(err(flat, degenerate).contains("degenerate"));
        let mut repeated = faces.clone();
        repeated[0] = [0, 0, 1];
        assert!(err(v.clone(), repeated).contains("repeats a vertex"));
        let mut out_of_range = faces.clone();
        out_of_range[0][2] = 99;
        assert!(err(v.clone(), out_of_range).contains("uses vertex 99"));
        let mut extra = v.clone();
        extra.push(Vector3::new(1.0, 1.0, 1.0));
        assert!(err(extra, faces.clone()).contains("vertex 8 is not part of any face"));
        let mut nan = v.clone();
        nan[2].y = f64::NAN;
        assert!(err(nan, faces.clone()).contains("vertex 2 is not finite"));
        assert!(err(v, Vec::new()).contains("no faces"));
    }
}
