//! Meshes made in code: Simbody's `PolygonalMesh::createSphereMesh` counterpart, an icosphere.

use super::triangle_mesh::TriangleMesh;
use nalgebra::Vector3;

impl TriangleMesh {
    /// A sphere mesh of radius `radius` (m) centred at the origin: the icosahedron's 20 faces
    /// split in four `levels` times (20·4^levels faces; 5 gives 20480), every vertex pushed
    /// out to the sphere.
    pub fn icosphere(radius: f64, levels: usize) -> TriangleMesh {
        let t = (1.0 + 5f64.sqrt()) / 2.0;
        let mut v: Vec<Vector3<f64>> = [
            [-1.0, t, 0.0],
            [1.0, t, 0.0],
            [-1.0, -t, 0.0],
            [1.0, -t, 0.0],
            [0.0, -1.0, t],
            [0.0, 1.0, t],
            [0.0, -1.0, -t],
            [0.0, 1.0, -t],
            [t, 0.0, -1.0],
            [t, 0.0, 1.0],
            [-t, 0.0, -1.0],
            [-t, 0.0, 1.0],
        ]
        .iter()
        .map(|p| Vector3::new(p[0], p[1], p[2]).normalize())
        .collect();
        let mut f: Vec<[u32; 3]> = vec![
            [0, 11, 5],
            [0, 5, 1],
            [0, 1, 7],
            [0, 7, 10],
            [0, 10, 11],
            [1, 5, 9],
            [5, 11, 4],
            [11, 10, 2],
            [10, 7, 6],
            [7, 1, 8],
            [3, 9, 4],
            [3, 4, 2],
            [3, 2, 6],
            [3, 6, 8],
            [3, 8, 9],
            [4, 9, 5],
            [2, 4, 11],
            [6, 2, 10],
            [8, 6, 7],
            [9, 8, 1],
        ];
        for _ in 0..levels {
            let mut mid = std::collections::HashMap::new();
            let mut middle = |a: u32, b: u32, v: &mut Vec<Vector3<f64>>| {
                *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                    v.push(((v[a as usize] + v[b as usize]) / 2.0).normalize());
                    (v.len() - 1) as u32
                })
            };
            let mut next = Vec::with_capacity(f.len() * 4);
            for [a, b, c] in f {
                let (ab, bc, ca) = (
                    middle(a, b, &mut v),
                    middle(b, c, &mut v),
                    middle(c, a, &mut v),
                );
                next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
            }
            f = next;
        }
        let v = v.into_iter().map(|p| p * radius).collect();
        TriangleMesh::from_triangles(v, f).expect("an icosphere is closed and consistently wound")
    }
}
