//! What a scene body looks like in the 3D replay: the optional `visual` shapes of a `[[body]]`
//! (`[[body.visual]]`, any number). They carry no mass and take no part in contact; they only
//! replace the replay's automatic shapes for that body (contact spheres, slabs, rods, boxes).
//!
//! ```toml
//! [[body.visual]]
//! shape = "box"                 # "box" (half_extents), "sphere" (radius),
//! half_extents = [0.2, 0.1, 0.2] # or "cylinder" (radius, half_length; axis = frame z)
//! frame = { translation = [0.0, 0.0, 0.0] }
//! color = [0.9, 0.45, 0.15]     # linear RGB in [0, 1]; the palette colour if absent
//! ```
//!
//! Lengths in metres, in the body frame B (`x_bv`: the shape's frame V in B).

use super::scene_build::{finite3, frame};
use super::scene_types::FrameSection;
use crate::error::{invalid, ModelError};
use crate::ids::BodyId;
use crate::math::Transform;
use nalgebra::Vector3;
use serde::Deserialize;

/// One visual shape of a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Visual {
    /// The body that carries it.
    pub body: BodyId,
    /// The shape, in its own frame V.
    pub shape: VisualShape,
    /// V in the body frame B.
    pub x_bv: Transform<f64>,
    /// Linear RGB in [0, 1]; `None` for the replay's palette colour.
    pub color: Option<[f64; 3]>,
}

/// A visual shape, centred at the origin of its frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum VisualShape {
    /// A box with these half extents along x, y, z (m).
    Box {
        /// Half extents (m).
        half_extents: Vector3<f64>,
    },
    /// A sphere (m).
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// A cylinder along z (m).
    Cylinder {
        /// Radius (m).
        radius: f64,
        /// Half its length along z (m).
        half_length: f64,
    },
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum VisualKind {
    Box,
    Sphere,
    Cylinder,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct VisualSection {
    pub shape: VisualKind,
    pub half_extents: Option<[f64; 3]>,
    pub radius: Option<f64>,
    pub half_length: Option<f64>,
    pub frame: Option<FrameSection>,
    pub color: Option<[f64; 3]>,
}

/// Builds one `visual` entry; errors are `.key: message` to follow the entry's path.
pub(super) fn build_visual(body: BodyId, v: &VisualSection) -> Result<Visual, ModelError> {
    let need = |key: &str, value: Option<f64>| -> Result<f64, ModelError> {
        match value {
            Some(x) if x.is_finite() && x > 0.0 => Ok(x),
            Some(x) => Err(invalid!(".{key}: must be positive and finite, got {x}")),
            None => Err(invalid!(
                ".{key}: required for a {} visual",
                format!("{:?}", v.shape).to_lowercase()
            )),
        }
    };
    let unused = |key: &str, present: bool| -> Result<(), ModelError> {
        if present {
            Err(invalid!(
                ".{key}: not a key of a {} visual",
                format!("{:?}", v.shape).to_lowercase()
            ))
        } else {
            Ok(())
        }
    };
    let shape = match v.shape {
        VisualKind::Box => {
            unused("radius", v.radius.is_some())?;
            unused("half_length", v.half_length.is_some())?;
            let h = v
                .half_extents
                .ok_or(".half_extents: required for a box visual")?;
            let half_extents = finite3(h).map_err(|m| invalid!(".half_extents: {m}"))?;
            if half_extents.iter().any(|&x| x <= 0.0) {
                return Err(invalid!(".half_extents: must be positive, got {h:?}"));
            }
            VisualShape::Box { half_extents }
        }
        VisualKind::Sphere => {
            unused("half_extents", v.half_extents.is_some())?;
            unused("half_length", v.half_length.is_some())?;
            VisualShape::Sphere {
                radius: need("radius", v.radius)?,
            }
        }
        VisualKind::Cylinder => {
            unused("half_extents", v.half_extents.is_some())?;
            VisualShape::Cylinder {
                radius: need("radius", v.radius)?,
                half_length: need("half_length", v.half_length)?,
            }
        }
    };
    if let Some(c) = v.color {
        if c.iter().any(|x| !(0.0..=1.0).contains(x)) {
            return Err(invalid!(
                ".color: each component must be in [0, 1], got {c:?}"
            ));
        }
    }
    Ok(Visual {
        body,
        shape,
        x_bv: frame(v.frame.as_ref(), "frame")?,
        color: v.color,
    })
}
