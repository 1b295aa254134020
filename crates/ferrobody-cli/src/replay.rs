//! The 3D replay: `replay.glb` (glTF 2.0 binary: one mesh per body, in the body frame, and one
//! animation of the body poses at the report times) and `replay.html`, a self-contained page
//! (no network) that embeds the GLB and plays it with an inline WebGL player.
//!
//! The shapes come from `replay_shapes.rs`: the model's contact geometry and the scene's own
//! `visual` shapes.

use crate::recorder::Recorder;
use crate::replay_shapes::body_shapes;
use anyhow::{Context, Result};
use base64::Engine as _;
use ferrobody::io::Visual;
use ferrobody::Model;
use serde_json::{json, Value};
use std::path::Path;

const VIEWER: &str = include_str!("replay.html");
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
pub fn build_glb(model: &Model<f64>, visuals: &[Visual], rec: &Recorder) -> Vec<u8> {
    let mut g = GlbBuilder::default();
    let (mut meshes, mut materials, mut nodes, mut scene_nodes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut body_node = vec![None; model.nbodies()];
    for (b, prims) in body_shapes(model, visuals).iter().enumerate() {
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
    if !rec.muscle_names.is_empty() && !rec.muscle_paths.is_empty() {
        doc["extras"] = muscle_extras(rec);
    }
    doc["buffers"] = json!([{"byteLength": g.bin.len()}]);
    doc["bufferViews"] = json!(g.views);
    doc["accessors"] = json!(g.accessors);
    glb_bytes(&doc, g.bin)
}

/// The muscles' paths and activations per report, for the viewer (`extras.ferrobody_muscles`:
/// `names`, `times` and, per report, per muscle, `[activation, x₀, y₀, z₀, x₁, …]`; other glTF
/// viewers ignore extras).
fn muscle_extras(rec: &Recorder) -> serde_json::Value {
    let round = |x: f64| (x * 1e5).round() / 1e5;
    let frames: Vec<Vec<Vec<f64>>> = rec
        .muscle_paths
        .iter()
        .map(|muscles| {
            muscles
                .iter()
                .map(|(points, a)| {
                    std::iter::once(round(*a))
                        .chain(points.iter().flatten().map(|&x| round(x)))
                        .collect()
                })
                .collect()
        })
        .collect();
    json!({"ferrobody_muscles": {"names": rec.muscle_names, "times": rec.times, "frames": frames}})
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
pub fn write_replay(
    out: &Path,
    model: &Model<f64>,
    visuals: &[Visual],
    rec: &Recorder,
    title: &str,
) -> Result<()> {
    let glb = build_glb(model, visuals, rec);
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
