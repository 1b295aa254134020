//! The 3D replay: `replay.glb` (glTF 2.0 binary: one mesh per body, in the body frame, and one
//! animation of the body poses at the report times) and `replay.html`, a self-contained page
//! (no network) that embeds the GLB and plays it with an inline WebGL player.
//!
//! Shapes: contact spheres and half spaces of every contact element (a half space is drawn as a
//! 40 m × 40 m slab, 2 cm thick, under its surface), exponential-spring planes likewise; a rod
//! from the origin through the centre of mass for every body whose COM is off its origin (links),
//! a box spanning the spring stations of a body on exponential springs, and a small cube for a
//! body with nothing else to show.

use crate::recorder::Recorder;
use anyhow::{Context, Result};
use base64::Engine as _;
use ferrobody::forces::Force;
use ferrobody::geometry::Shape;
use ferrobody::math::Transform;
use ferrobody::nalgebra::Vector3;
use ferrobody::Model;
use serde_json::{json, Value};
use std::path::Path;

const VIEWER: &str = include_str!("replay.html");
const SLAB_HALF_WIDTH: f64 = 20.0;
const SLAB_THICKNESS: f64 = 0.02;

/// Triangles of one colour, in a body frame.
struct Primitive {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    indices: Vec<u32>,
    color: [f32; 4],
}

const GROUND_GREY: [f32; 4] = [0.72, 0.72, 0.70, 1.0];
const PALETTE: [[f32; 4]; 5] = [
    [0.90, 0.45, 0.15, 1.0],
    [0.20, 0.45, 0.85, 1.0],
    [0.25, 0.65, 0.45, 1.0],
    [0.75, 0.25, 0.55, 1.0],
    [0.85, 0.75, 0.20, 1.0],
];

impl Primitive {
    fn new(color: [f32; 4]) -> Self {
        Self {
            positions: Vec::new(),
            normals: Vec::new(),
            indices: Vec::new(),
            color,
        }
    }

    fn push(&mut self, p: Vector3<f64>, n: Vector3<f64>) {
        self.positions.push([p.x as f32, p.y as f32, p.z as f32]);
        self.normals.push([n.x as f32, n.y as f32, n.z as f32]);
    }

    /// A UV sphere of radius `r` centred at `x.p` (rotation irrelevant).
    fn sphere(x: &Transform<f64>, r: f64, color: [f32; 4]) -> Self {
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
    fn cuboid(x: &Transform<f64>, lo: Vector3<f64>, hi: Vector3<f64>, color: [f32; 4]) -> Self {
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
}

/// The slab under a half space whose solid is `x > 0` of frame `x`.
fn half_space_slab(x: &Transform<f64>) -> Primitive {
    let w = SLAB_HALF_WIDTH;
    Primitive::cuboid(
        x,
        Vector3::new(0.0, -w, -w),
        Vector3::new(SLAB_THICKNESS, w, w),
        GROUND_GREY,
    )
}

/// The slab under an exponential-spring plane (normal +z, solid z < 0).
fn plane_slab(x: &Transform<f64>) -> Primitive {
    let w = SLAB_HALF_WIDTH;
    Primitive::cuboid(
        x,
        Vector3::new(-w, -w, -SLAB_THICKNESS),
        Vector3::new(w, w, 0.0),
        GROUND_GREY,
    )
}

/// The primitives of every body, in body frames (index 0 is Ground).
fn body_shapes(model: &Model<f64>) -> Vec<Vec<Primitive>> {
    let mut shapes: Vec<Vec<Primitive>> = (0..model.nbodies()).map(|_| Vec::new()).collect();
    let mut stations: Vec<Vec<Vector3<f64>>> = vec![Vec::new(); model.nbodies()];
    let mut slabs: Vec<Transform<f64>> = Vec::new();
    let color = |b: usize| PALETTE[b % PALETTE.len()];
    let mut add_slab =
        |shapes: &mut Vec<Vec<Primitive>>, body: usize, x: &Transform<f64>, plane: bool| {
            if body == 0
                && slabs
                    .iter()
                    .any(|s| (s.r - x.r).norm() + (s.p - x.p).norm() < 1e-9)
            {
                return;
            }
            slabs.push(*x);
            shapes[body].push(if plane {
                plane_slab(x)
            } else {
                half_space_slab(x)
            });
        };
    for f in model.forces() {
        match f {
            Force::HuntCrossley(hc) => {
                for s in hc.surfaces() {
                    match s.shape {
                        Shape::Sphere { radius } => shapes[s.body.0].push(Primitive::sphere(
                            &s.x_bs,
                            radius,
                            color(s.body.0),
                        )),
                        Shape::HalfSpace => add_slab(&mut shapes, s.body.0, &s.x_bs, false),
                    }
                }
            }
            Force::SmoothSphereHalfSpace(sm) => {
                let x = Transform::from_translation(sm.sphere_location);
                shapes[sm.sphere_body.0].push(Primitive::sphere(
                    &x,
                    sm.sphere_radius,
                    color(sm.sphere_body.0),
                ));
                add_slab(
                    &mut shapes,
                    sm.half_space_body.0,
                    &sm.half_space_frame,
                    false,
                );
            }
            Force::ExponentialSpring(es) => {
                stations[es.body.0].push(es.station);
                add_slab(&mut shapes, 0, &es.x_gp, true);
            }
            _ => {}
        }
    }
    for (i, body) in model.bodies().iter().enumerate().skip(1) {
        let id = Transform::identity();
        let com = body.mass_properties.com;
        if com.norm() > 1e-9 {
            // A rod from the origin through the COM to twice its distance, 3 cm thick (links).
            let along = com * 2.0;
            let t = 0.015;
            let lo = Vector3::new(
                along.x.min(0.0) - t,
                along.y.min(0.0) - t,
                along.z.min(0.0) - t,
            );
            let hi = Vector3::new(
                along.x.max(0.0) + t,
                along.y.max(0.0) + t,
                along.z.max(0.0) + t,
            );
            shapes[i].push(Primitive::cuboid(&id, lo, hi, color(i + 1)));
        } else if stations[i].len() >= 2 {
            // A body carried by exponential springs: the box spanning its stations.
            let lo = stations[i]
                .iter()
                .fold(Vector3::repeat(f64::INFINITY), |a, s| a.inf(s));
            let hi = stations[i]
                .iter()
                .fold(Vector3::repeat(f64::NEG_INFINITY), |a, s| a.sup(s));
            shapes[i].push(Primitive::cuboid(&id, lo, hi, color(i)));
        } else if shapes[i].is_empty() {
            let m = body.mass_properties.mass.max(1e-9);
            let mean_moment = body.mass_properties.inertia_com.trace() / 3.0;
            let side = (6.0 * mean_moment / m).sqrt().clamp(0.02, 1.0);
            shapes[i].push(Primitive::cuboid(
                &id,
                Vector3::repeat(-side / 2.0),
                Vector3::repeat(side / 2.0),
                color(i),
            ));
        }
    }
    shapes
}

/// Accumulates the binary chunk and the JSON arrays that describe it.
#[derive(Default)]
struct GlbBuilder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl GlbBuilder {
    /// Appends floats as an accessor of `kind` (SCALAR, VEC3, VEC4); returns its index.
    fn floats(&mut self, data: &[f32], kind: &str, width: usize, with_bounds: bool) -> usize {
        let offset = self.bin.len();
        for v in data {
            self.bin.extend_from_slice(&v.to_le_bytes());
        }
        self.views
            .push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len() * 4}));
        let mut acc = json!({"bufferView": self.views.len() - 1, "componentType": 5126, "count": data.len() / width, "type": kind});
        if with_bounds {
            let (mut lo, mut hi) = (vec![f32::INFINITY; width], vec![f32::NEG_INFINITY; width]);
            for chunk in data.chunks(width) {
                for k in 0..width {
                    lo[k] = lo[k].min(chunk[k]);
                    hi[k] = hi[k].max(chunk[k]);
                }
            }
            acc["min"] = json!(lo);
            acc["max"] = json!(hi);
        }
        self.accessors.push(acc);
        self.accessors.len() - 1
    }

    /// Appends triangle indices (unsigned int); returns the accessor index.
    fn indices(&mut self, data: &[u32]) -> usize {
        let offset = self.bin.len();
        for v in data {
            self.bin.extend_from_slice(&v.to_le_bytes());
        }
        self.views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len() * 4, "target": 34963}));
        self.accessors.push(json!({"bufferView": self.views.len() - 1, "componentType": 5125, "count": data.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }
}

/// The GLB bytes of the model's shapes animated by the recorded poses.
pub fn build_glb(model: &Model<f64>, rec: &Recorder) -> Vec<u8> {
    let mut g = GlbBuilder::default();
    let (mut meshes, mut materials, mut nodes, mut scene_nodes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut body_node = vec![None; model.nbodies()];
    for (b, prims) in body_shapes(model).iter().enumerate() {
        let mut primitives = Vec::new();
        for p in prims.iter().filter(|p| !p.indices.is_empty()) {
            let flat = |v: &[[f32; 3]]| v.iter().flatten().copied().collect::<Vec<f32>>();
            let pos = g.floats(&flat(&p.positions), "VEC3", 3, true);
            let nrm = g.floats(&flat(&p.normals), "VEC3", 3, false);
            let idx = g.indices(&p.indices);
            materials.push(json!({"pbrMetallicRoughness": {"baseColorFactor": p.color, "metallicFactor": 0.0, "roughnessFactor": 0.8}}));
            primitives.push(json!({"attributes": {"POSITION": pos, "NORMAL": nrm}, "indices": idx, "material": materials.len() - 1, "mode": 4}));
        }
        if primitives.is_empty() {
            continue;
        }
        meshes.push(json!({"name": model.bodies()[b].name, "primitives": primitives}));
        let mut node = json!({"name": model.bodies()[b].name, "mesh": meshes.len() - 1});
        if b > 0 {
            if let Some(first) = rec.poses.first() {
                let pose = first[b - 1];
                node["translation"] = json!(pose.position);
                let q = pose.quaternion;
                node["rotation"] = json!([q[1], q[2], q[3], q[0]]);
            }
        }
        nodes.push(node);
        scene_nodes.push(nodes.len() - 1);
        body_node[b] = Some(nodes.len() - 1);
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "ferrobody"},
        "scene": 0,
        "scenes": [{"nodes": scene_nodes}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": materials,
    });
    if rec.times.len() > 1 {
        let times: Vec<f32> = rec.times.iter().map(|&t| t as f32).collect();
        let input = g.floats(&times, "SCALAR", 1, true);
        let (mut samplers, mut channels) = (Vec::new(), Vec::new());
        for (b, node) in body_node.iter().enumerate().skip(1) {
            let Some(node) = *node else { continue };
            let tr: Vec<f32> = rec
                .poses
                .iter()
                .flat_map(|p| p[b - 1].position.map(|x| x as f32))
                .collect();
            let rot: Vec<f32> = rec
                .poses
                .iter()
                .flat_map(|p| {
                    let q = p[b - 1].quaternion;
                    [q[1], q[2], q[3], q[0]].map(|x| x as f32)
                })
                .collect();
            for (path, data, kind, width) in
                [("translation", tr, "VEC3", 3), ("rotation", rot, "VEC4", 4)]
            {
                let output = g.floats(&data, kind, width, false);
                samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
                channels.push(
                    json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": path}}),
                );
            }
        }
        doc["animations"] =
            json!([{"name": "simulation", "samplers": samplers, "channels": channels}]);
    }
    doc["buffers"] = json!([{"byteLength": g.bin.len()}]);
    doc["bufferViews"] = json!(g.views);
    doc["accessors"] = json!(g.accessors);
    glb_bytes(&doc, g.bin)
}

/// Packs JSON and binary chunks into a GLB container (both padded to 4 bytes).
fn glb_bytes(doc: &Value, mut bin: Vec<u8>) -> Vec<u8> {
    let mut json = serde_json::to_vec(doc).expect("JSON of numbers and strings serializes");
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&0x4E4F_534Au32.to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(&0x004E_4942u32.to_le_bytes());
    out.extend_from_slice(&bin);
    out
}

/// Writes `replay.glb` and `replay.html` into `out`.
pub fn write_replay(out: &Path, model: &Model<f64>, rec: &Recorder, title: &str) -> Result<()> {
    let glb = build_glb(model, rec);
    std::fs::write(out.join("replay.glb"), &glb).context("cannot write replay.glb")?;
    let encoded = base64::engine::general_purpose::STANDARD.encode(&glb);
    let safe_title: String = title
        .chars()
        .filter(|c| c.is_alphanumeric() || " _-.,()".contains(*c))
        .collect();
    let html = VIEWER
        .replace("__FERROBODY_GLB_BASE64__", &encoded)
        .replace("__FERROBODY_TITLE__", &safe_title);
    std::fs::write(out.join("replay.html"), html).context("cannot write replay.html")?;
    Ok(())
}
