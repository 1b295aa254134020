//! The triangle meshes of the 3D replay: one colour each, in a body frame (UV spheres,
//! ellipsoids, boxes, cylinders, a scene's triangle meshes and `visual` shapes), as glTF
//! wants them (f32 positions and normals, u32 indices).

use ferrobody::io::{Visual, VisualShape};
use ferrobody::math::Transform;
use ferrobody::nalgebra::Vector3;

/// Triangles of one colour, in a body frame.
pub(crate) struct Primitive {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
    pub color: [f32; 4],
}

impl Primitive {
    pub(crate) fn new(color: [f32; 4]) -> Self {
        Self {
            positions: Vec::new(),
            normals: Vec::new(),
            indices: Vec::new(),
            color,
        }
    }

    pub(crate) fn push(&mut self, p: Vector3<f64>, n: Vector3<f64>) {
        self.positions.push([p.x as f32, p.y as f32, p.z as f32]);
        self.normals.push([n.x as f32, n.y as f32, n.z as f32]);
    }

    /// A UV sphere of radius `r` centred at `x.p` (rotation irrelevant).
    pub(crate) fn sphere(x: &Transform<f64>, r: f64, color: [f32; 4]) -> Self {
        let (rings, segments) = (12u32, 20u32);
        let mut m = Self::new(color);
        for i in 0..=rings {
            let theta = std::f64::consts::PI * i as f64 / rings as f64;
            for j in 0..=segments {
                let phi = 2.0 * std::f64::consts::PI * j as f64 / segments as f64;
                let n = Vector3::new(
                    theta.sin() * phi.cos(),
                    theta.cos(),
                    theta.sin() * phi.sin(),
                );
                m.push(x.p + n * r, n);
            }
        }
        for i in 0..rings {
            for j in 0..segments {
                let (a, b) = (i * (segments + 1) + j, (i + 1) * (segments + 1) + j);
                m.indices.extend([a, b, a + 1, a + 1, b, b + 1]);
            }
        }
        m
    }

    /// A box from `lo` to `hi` in frame `x`.
    /// An ellipsoid of semi-axes `radii` along the axes of frame `x`: the unit sphere scaled
    /// (normals by the inverse scale, renormalised), then placed.
    pub(crate) fn ellipsoid(x: &Transform<f64>, radii: [f64; 3], color: [f32; 4]) -> Self {
        let mut m = Self::sphere(&Transform::identity(), 1.0, color);
        for (p, n) in m.positions.iter_mut().zip(m.normals.iter_mut()) {
            let q = Vector3::new(
                p[0] as f64 * radii[0],
                p[1] as f64 * radii[1],
                p[2] as f64 * radii[2],
            );
            let g = Vector3::new(
                n[0] as f64 / radii[0],
                n[1] as f64 / radii[1],
                n[2] as f64 / radii[2],
            );
            let (q, g) = (x.apply(&q), x.r * g.normalize());
            *p = [q.x as f32, q.y as f32, q.z as f32];
            *n = [g.x as f32, g.y as f32, g.z as f32];
        }
        m
    }

    /// A triangle mesh placed at frame `x`, flat shaded (each face its own three vertices).
    pub(crate) fn mesh(
        x: &Transform<f64>,
        mesh: &ferrobody::geometry::TriangleMesh,
        color: [f32; 4],
    ) -> Self {
        let mut m = Self::new(color);
        for (face, n) in mesh.faces().iter().zip(mesh.normals()) {
            let start = m.positions.len() as u32;
            for &v in face {
                m.push(x.apply(&mesh.vertices()[v as usize]), x.r * n);
            }
            m.indices.extend([start, start + 1, start + 2]);
        }
        m
    }

    pub(crate) fn cuboid(
        x: &Transform<f64>,
        lo: Vector3<f64>,
        hi: Vector3<f64>,
        color: [f32; 4],
    ) -> Self {
        let mut m = Self::new(color);
        for axis in 0..3 {
            for side in [-1.0, 1.0] {
                let mut n = Vector3::zeros();
                n[axis] = side;
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                let base = m.positions.len() as u32;
                for (a, b) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                    let mut p = Vector3::zeros();
                    p[axis] = if side > 0.0 { hi[axis] } else { lo[axis] };
                    p[u] = if a == 0 { lo[u] } else { hi[u] };
                    p[v] = if b == 0 { lo[v] } else { hi[v] };
                    m.push(x.apply(&p), x.r * n);
                }
                let quad = if side > 0.0 {
                    [0, 1, 2, 0, 2, 3]
                } else {
                    [0, 2, 1, 0, 3, 2]
                };
                m.indices.extend(quad.map(|k| base + k));
            }
        }
        m
    }

    /// A closed cylinder of radius `r` along z of frame `x`, from `-half` to `half`.
    pub(crate) fn cylinder(x: &Transform<f64>, r: f64, half: f64, color: [f32; 4]) -> Self {
        let segments = 24u32;
        let mut m = Self::new(color);
        let ring = |j: u32| {
            let phi = 2.0 * std::f64::consts::PI * j as f64 / segments as f64;
            Vector3::new(phi.cos(), phi.sin(), 0.0)
        };
        for j in 0..=segments {
            let n = ring(j);
            for z in [-half, half] {
                m.push(x.apply(&(n * r + Vector3::z() * z)), x.r * n);
            }
        }
        for j in 0..segments {
            let a = 2 * j;
            m.indices.extend([a, a + 2, a + 1, a + 1, a + 2, a + 3]);
        }
        for side in [-1.0, 1.0] {
            let n = Vector3::z() * side;
            let centre = m.positions.len() as u32;
            m.push(x.apply(&(n * half)), x.r * n);
            for j in 0..=segments {
                m.push(x.apply(&(ring(j) * r + n * half)), x.r * n);
            }
            for j in 0..segments {
                let (a, b) = (centre + 1 + j, centre + 2 + j);
                m.indices.extend(if side > 0.0 {
                    [centre, a, b]
                } else {
                    [centre, b, a]
                });
            }
        }
        m
    }

    /// A scene body's own visual shape (`None` for a shape the replay cannot draw yet).
    pub(crate) fn visual(v: &Visual, fallback: [f32; 4]) -> Option<Self> {
        let color = v
            .color
            .map_or(fallback, |c| [c[0] as f32, c[1] as f32, c[2] as f32, 1.0]);
        match v.shape {
            VisualShape::Box { half_extents } => {
                Some(Self::cuboid(&v.x_bv, -half_extents, half_extents, color))
            }
            VisualShape::Sphere { radius } => {
                let mut m = Self::sphere(&Transform::identity(), radius, color);
                for (p, n) in m.positions.iter_mut().zip(m.normals.iter_mut()) {
                    let q = v
                        .x_bv
                        .apply(&Vector3::new(p[0] as f64, p[1] as f64, p[2] as f64));
                    let r = v.x_bv.r * Vector3::new(n[0] as f64, n[1] as f64, n[2] as f64);
                    *p = [q.x as f32, q.y as f32, q.z as f32];
                    *n = [r.x as f32, r.y as f32, r.z as f32];
                }
                Some(m)
            }
            VisualShape::Cylinder {
                radius,
                half_length,
            } => Some(Self::cylinder(&v.x_bv, radius, half_length, color)),
            _ => None,
        }
    }
}
