//! OpenSim's `StationDefinedFrame` (OpenSim 4.5 and later): a frame fixed on a body, defined by
//! four `Station`s on frames of that body — points a, b, c and an origin point o. With the
//! stations' locations in the base body B,
//!
//! ```text
//!   ab = (b − a)/|b − a|,  ac = (c − a)/|c − a|,
//!   ab×ac = unit(ab × ac),  ab×(ab×ac) = unit(ab × ab×ac),
//! ```
//!
//! the three unit vectors are the columns of `R_BF` named by `ab_axis` (default `+x`) and
//! `ab_x_ac_axis` (default `+y`), the third following by the right-hand rule, and o is the
//! frame's origin. OpenSim re-orthonormalizes the matrix through a quaternion
//! (`Rotation(Mat33)`), as here. An axis that does not parse, or two axes along the same line,
//! fall back to `+x` and the next axis with a warning, as OpenSim does; stations on different
//! bodies are an error, as in OpenSim.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/StationDefinedFrame.cpp`
//! (`calcTransformInBaseFrame`, `ParseBasisVectorToAxisMappingsOrFallback`).

use super::document::{Doc, Res};
use super::frames::{resolve_frame_within, BodyFrame};
use crate::math::quaternion::rotation_from_approximate_matrix;
use crate::math::Transform;
use nalgebra::{Matrix3, Vector3};
use roxmltree::Node;

/// A signed coordinate direction: axis 0–2 and sign ±1 (Simbody's `CoordinateDirection`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Direction {
    axis: usize,
    sign: f64,
}

impl Direction {
    /// `+x`, `-y`, `z`, … (OpenSim's `TryParseAsCoordinateDirection`: an optional sign, then
    /// the axis letter in either case; what follows the letter is ignored).
    fn parse(text: &str) -> Option<Self> {
        let (sign, rest) = match text.as_bytes().first()? {
            b'-' => (-1.0, &text[1..]),
            b'+' => (1.0, &text[1..]),
            _ => (1.0, text),
        };
        let axis = match rest.chars().next()? {
            'x' | 'X' => 0,
            'y' | 'Y' => 1,
            'z' | 'Z' => 2,
            _ => return None,
        };
        Some(Self { axis, sign })
    }

    fn next_axis(self) -> Self {
        Self {
            axis: (self.axis + 1) % 3,
            sign: 1.0,
        }
    }

    /// The direction of `self × other` for two different axes.
    fn cross(self, other: Self) -> Self {
        let forward = other.axis == (self.axis + 1) % 3;
        Self {
            axis: 3 - self.axis - other.axis,
            sign: self.sign * other.sign * if forward { 1.0 } else { -1.0 },
        }
    }
}

/// The frame axes that ab, ab×ac and ab×(ab×ac) map onto, with OpenSim's fallbacks.
fn axis_mappings<'a, 'i>(doc: &Doc<'a, 'i>, node: Node<'a, 'i>) -> [Direction; 3] {
    let read = |tag: &str, fallback: Direction| match doc.text(node, tag) {
        None => fallback,
        Some((el, text)) => Direction::parse(&text).unwrap_or_else(|| {
            doc.warn(
                el,
                format!(
                    "<{tag}>: '{text}' is not a coordinate direction; OpenSim uses +{} instead",
                    ["x", "y", "z"][fallback.axis]
                ),
            );
            fallback
        }),
    };
    let ab = read("ab_axis", Direction { axis: 0, sign: 1.0 });
    let mut ab_x_ac = read("ab_x_ac_axis", ab.next_axis());
    if ab_x_ac.axis == ab.axis {
        doc.warn(
            node,
            "ab_axis and ab_x_ac_axis lie along the same axis; OpenSim uses the next axis for ab_x_ac_axis",
        );
        ab_x_ac = ab.next_axis();
    }
    [ab, ab_x_ac, ab.cross(ab_x_ac)]
}

/// The location in its base body of the station that socket `tag` names.
fn station<'a, 'i>(
    doc: &Doc<'a, 'i>,
    frame: Node<'a, 'i>,
    tag: &str,
    depth: usize,
) -> Res<(BodyFrame, Vector3<f64>)> {
    let (el, path) = doc
        .text(frame, tag)
        .ok_or_else(|| doc.err(frame, format!("a StationDefinedFrame needs <{tag}>")))?;
    let node = doc.resolve(frame, el, &path)?;
    if !node.has_tag_name("Station") {
        return Err(doc.err(el, format!("<{tag}> '{path}' is not a Station")));
    }
    let (pel, parent) = doc
        .text(node, "socket_parent_frame")
        .ok_or_else(|| doc.err(node, "a Station needs <socket_parent_frame>"))?;
    let parent = doc.resolve(node, pel, &parent)?;
    let base = resolve_frame_within(doc, parent, depth + 1)?;
    let location = Vector3::from(doc.fixed(node, "location", [0.0; 3])?);
    let p_b = base.x_bf.apply(&location);
    Ok((base, p_b))
}

/// The base body and pose of a `StationDefinedFrame` (`depth`: frames followed so far).
pub(super) fn station_defined_frame<'a, 'i>(
    doc: &Doc<'a, 'i>,
    node: Node<'a, 'i>,
    depth: usize,
) -> Res<BodyFrame> {
    let mut points = Vec::with_capacity(4);
    let mut body = None;
    for tag in [
        "socket_point_a",
        "socket_point_b",
        "socket_point_c",
        "socket_origin_point",
    ] {
        let (base, p) = station(doc, node, tag, depth)?;
        match &body {
            None => body = Some(base.body),
            Some(b) if *b != base.body => {
                return Err(doc.err(
                    node,
                    format!(
                        "<{tag}> is on {}, the other stations on {b}: all four must be on one body",
                        base.body
                    ),
                ))
            }
            Some(_) => {}
        }
        points.push(p);
    }
    let [a, b, c, origin] = [points[0], points[1], points[2], points[3]];
    if b == a || c == a || c == b {
        return Err(doc.err(
            node,
            "points a, b and c must be at three different locations (they form a triangle)",
        ));
    }
    let unit = |v: Vector3<f64>| v / v.norm();
    let ab = unit(b - a);
    let ac = unit(c - a);
    let ab_x_ac = unit(ab.cross(&ac));
    let ab_x_ab_x_ac = unit(ab.cross(&ab_x_ac));
    let mut orientation = Matrix3::zeros();
    for (direction, v) in axis_mappings(doc, node)
        .into_iter()
        .zip([ab, ab_x_ac, ab_x_ab_x_ac])
    {
        orientation.set_column(direction.axis, &(v * direction.sign));
    }
    let mut x_bf = Transform::from_rotation(rotation_from_approximate_matrix(&orientation));
    x_bf.p = origin;
    Ok(BodyFrame {
        body: body.unwrap_or_default(),
        x_bf,
    })
}

#[cfg(test)]
mod tests {
    use super::Direction;

    #[test]
    fn directions_parse_and_cross_as_simbody_does() {
        let d = |axis, sign| Direction { axis, sign };
        assert_eq!(Direction::parse("+x"), Some(d(0, 1.0)));
        assert_eq!(Direction::parse("-Y"), Some(d(1, -1.0)));
        assert_eq!(Direction::parse("z"), Some(d(2, 1.0)));
        for bad in ["", "+", "w", "-q"] {
            assert_eq!(Direction::parse(bad), None, "{bad}");
        }
        // x × y = z, y × x = −z, z × x = y, −x × z = y
        assert_eq!(d(0, 1.0).cross(d(1, 1.0)), d(2, 1.0));
        assert_eq!(d(1, 1.0).cross(d(0, 1.0)), d(2, -1.0));
        assert_eq!(d(2, 1.0).cross(d(0, 1.0)), d(1, 1.0));
        assert_eq!(d(0, -1.0).cross(d(2, 1.0)), d(1, 1.0));
    }
}
