//! OpenSim's physical frames reduced to (base body, pose in it): `Ground`, `Body`, and chains of
//! `PhysicalOffsetFrame`s (`socket_parent`, `translation`, `orientation` as body-fixed x-y-z
//! angles), as OpenSim's `PhysicalFrame::findTransformInBaseFrame` computes them:
//! `X_BF = X_BP · X_PF` with `X_PF = (R_xyz(orientation), translation)`; and
//! `StationDefinedFrame`s (`super::station_frames`).

use super::document::{Doc, Res};
use super::station_frames::station_defined_frame;
use crate::math::Transform;
use nalgebra::Vector3;
use roxmltree::Node;

/// A frame fixed on a body: the body's component path and the frame's pose in the body.
#[derive(Clone, Debug)]
pub(super) struct BodyFrame {
    /// `/ground` or the body's path.
    pub body: String,
    /// Pose of the frame in the body frame.
    pub x_bf: Transform<f64>,
}

/// Longest chain of offset frames followed before a cycle is assumed.
const MAX_CHAIN: usize = 64;

/// The base body and pose of frame component `frame`.
pub(super) fn resolve_frame<'a, 'i>(doc: &Doc<'a, 'i>, frame: Node<'a, 'i>) -> Res<BodyFrame> {
    resolve_frame_within(doc, frame, 0)
}

/// [`resolve_frame`] after `depth` frames have been followed (a `StationDefinedFrame`'s
/// stations sit on frames of their own).
pub(super) fn resolve_frame_within<'a, 'i>(
    doc: &Doc<'a, 'i>,
    frame: Node<'a, 'i>,
    depth: usize,
) -> Res<BodyFrame> {
    let mut x = Transform::identity();
    let mut node = frame;
    for step in depth..MAX_CHAIN {
        match node.tag_name().name() {
            "Ground" | "Body" => {
                return Ok(BodyFrame {
                    body: doc.path_of(node),
                    x_bf: x,
                })
            }
            "PhysicalOffsetFrame" => {
                x = offset(doc, node)? * x;
                let (el, parent) = doc
                    .text(node, "socket_parent")
                    .ok_or_else(|| doc.err(node, "a PhysicalOffsetFrame needs <socket_parent>"))?;
                node = doc.resolve(node, el, &parent)?;
            }
            "StationDefinedFrame" => {
                let base = station_defined_frame(doc, node, step)?;
                return Ok(BodyFrame {
                    body: base.body,
                    x_bf: base.x_bf * x,
                });
            }
            other => {
                return Err(doc.err(
                    node,
                    format!(
                        "<{other}> is not a physical frame (Ground, Body, PhysicalOffsetFrame \
                         or StationDefinedFrame)"
                    ),
                ))
            }
        }
    }
    Err(doc.err(
        frame,
        "the chain of frames does not end: a cycle of socket_parent or of stations' frames",
    ))
}

/// The pose of an offset frame in its parent: `translation`, then `orientation` (x-y-z).
pub(super) fn offset(doc: &Doc, node: Node) -> Res<Transform<f64>> {
    let p = doc.fixed(node, "translation", [0.0; 3])?;
    let a = doc.fixed(node, "orientation", [0.0; 3])?;
    Ok(offset_from(&Vector3::from(p), &a))
}

/// The pose with origin `p` and body-fixed x-y-z `angles`.
pub(super) fn offset_from(p: &Vector3<f64>, angles: &[f64; 3]) -> Transform<f64> {
    let mut x = Transform::from_body_xyz(&Vector3::from(*angles));
    x.p = *p;
    x
}

/// The frame a component names through socket `tag`, resolved to its base body.
pub(super) fn socket_frame<'a, 'i>(
    doc: &Doc<'a, 'i>,
    owner: Node<'a, 'i>,
    tag: &str,
) -> Res<BodyFrame> {
    let (el, path) = doc
        .text(owner, tag)
        .ok_or_else(|| doc.err(owner, format!("missing <{tag}>")))?;
    let target = doc.resolve(owner, el, &path)?;
    resolve_frame(doc, target).map_err(|mut e| {
        e.problem = crate::error::invalid!("<{tag}> '{path}': {}", e.problem);
        e
    })
}
