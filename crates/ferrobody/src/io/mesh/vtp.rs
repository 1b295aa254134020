//! VTK PolyData XML (`.vtp`), OpenSim's mesh format, in ASCII: `Piece/Points/DataArray` (three
//! components per point) and `Piece/Polys` with its `connectivity` and `offsets` arrays (the end
//! of each polygon in `connectivity`). Binary or appended data arrays (`format="binary"` or
//! `"appended"`) are refused with a message; OpenSim's own geometry files are ASCII.

use super::Polygons;
use crate::error::{invalid, ModelError};
use nalgebra::Vector3;
use roxmltree::{Document, Node};

/// The vertices and polygons of a `.vtp` file.
pub(super) fn read(bytes: &[u8]) -> Result<Polygons, ModelError> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not a text VTP file".to_string())?;
    let doc = Document::parse(text).map_err(|e| {
        format!(
            "line {}: XML syntax error: {}",
            e.pos().row,
            crate::io::one_line(&e.to_string())
        )
    })?;
    let piece = doc
        .descendants()
        .find(|n| n.has_tag_name("Piece"))
        .ok_or("no <Piece> in the VTP file")?;
    let points = child(piece, "Points")?;
    let coords: Vec<f64> = numbers(&doc, first_array(points)?)?;
    if coords.len() % 3 != 0 {
        return Err(invalid!(
            "<Points>: {} numbers, not a multiple of 3",
            coords.len()
        ));
    }
    let vertices: Vec<Vector3<f64>> = coords
        .chunks_exact(3)
        .map(|p| Vector3::new(p[0], p[1], p[2]))
        .collect();
    let polys = child(piece, "Polys")?;
    let named = |name: &str| {
        polys
            .children()
            .find(|n| n.has_tag_name("DataArray") && n.attribute("Name") == Some(name))
            .ok_or_else(|| invalid!("<Polys> has no DataArray Name=\"{name}\""))
    };
    let connectivity: Vec<f64> = numbers(&doc, named("connectivity")?)?;
    let offsets: Vec<f64> = numbers(&doc, named("offsets")?)?;
    let mut polygons = Vec::with_capacity(offsets.len());
    let mut start = 0usize;
    for (k, &end) in offsets.iter().enumerate() {
        let end = end as usize;
        if end < start || end > connectivity.len() {
            return Err(invalid!(
                "<Polys> offsets[{k}] = {end} is out of order or past the connectivity"
            ));
        }
        let polygon = connectivity[start..end]
            .iter()
            .map(|&i| {
                if i >= 0.0 && i.fract() == 0.0 && i <= u32::MAX as f64 {
                    Ok(i as u32)
                } else {
                    Err(invalid!("<Polys> connectivity has {i}, not a vertex index"))
                }
            })
            .collect::<Result<Vec<u32>, ModelError>>()?;
        polygons.push(polygon);
        start = end;
    }
    Ok((vertices, polygons))
}

fn child<'a>(node: Node<'a, 'a>, tag: &str) -> Result<Node<'a, 'a>, ModelError> {
    node.children()
        .find(|n| n.has_tag_name(tag))
        .ok_or_else(|| invalid!("<Piece> has no <{tag}>"))
}

fn first_array<'a>(node: Node<'a, 'a>) -> Result<Node<'a, 'a>, ModelError> {
    node.children()
        .find(|n| n.has_tag_name("DataArray"))
        .ok_or_else(|| invalid!("<{}> has no DataArray", node.tag_name().name()))
}

/// The numbers of an ASCII DataArray.
fn numbers(doc: &Document, array: Node) -> Result<Vec<f64>, ModelError> {
    let line = doc.text_pos_at(array.range().start).row;
    let format = array.attribute("format").unwrap_or("ascii");
    if format != "ascii" {
        return Err(invalid!("line {line}: DataArray format=\"{format}\" is not supported; save the mesh as ASCII VTP"));
    }
    array
        .text()
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(|t| {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| invalid!("line {line}: '{t}' is not a finite number"))
        })
        .collect()
}
