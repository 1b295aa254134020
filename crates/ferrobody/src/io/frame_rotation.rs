//! The orientation of a scene frame, in the forms OpenSim and Simbody users write:
//! `rotation = { axis, angle | angle_deg }` (axis–angle), `xyz` / `xyz_deg` (body-fixed x-y-z
//! angles, `Rx(a) Ry(b) Rz(c)`: OpenSim's `orientation`, Simbody's `BodyRotationSequence`),
//! `quaternion = [w, x, y, z]` (scalar first, normalized) or `matrix` (three rows, proper
//! orthonormal within 1e-9). At most one may be given; each error names the key.

use super::scene_build::finite3;
use super::scene_types::FrameSection;
use crate::error::{invalid, ModelError};
use crate::math::quaternion::rotation_from_quaternion;
use crate::math::transform::rotation_body_xyz;
use crate::math::Transform;
use nalgebra::Matrix3;

type Res<T> = std::result::Result<T, ModelError>;

/// The rotation of a frame section (identity if none is given); `key` prefixes errors.
pub(super) fn rotation(f: &FrameSection, key: &str) -> Res<Matrix3<f64>> {
    let o = &f.orientation;
    let given = [
        f.rotation.is_some(),
        o.xyz.is_some(),
        o.xyz_deg.is_some(),
        o.quaternion.is_some(),
        o.matrix.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(invalid!(
            ".{key}: give at most one of `rotation`, `xyz`, `xyz_deg`, `quaternion` and `matrix`"
        ));
    }
    if let Some(r) = &f.rotation {
        let axis = finite3(r.axis).map_err(|m| invalid!(".{key}.rotation.axis: {m}"))?;
        if axis.norm() == 0.0 {
            return Err(invalid!(".{key}.rotation.axis: must not be zero"));
        }
        let angle = match (r.angle, r.angle_deg) {
            (Some(a), None) => a,
            (None, Some(d)) => d.to_radians(),
            _ => {
                return Err(invalid!(
                    ".{key}.rotation: give exactly one of `angle` (rad) and `angle_deg`"
                ))
            }
        };
        if !angle.is_finite() {
            return Err(invalid!(".{key}.rotation: angle must be finite"));
        }
        return Ok(Transform::from_axis_angle(axis, angle).r);
    }
    if let Some(a) = o.xyz.or(o.xyz_deg.map(|d| d.map(f64::to_radians))) {
        let name = if o.xyz.is_some() { "xyz" } else { "xyz_deg" };
        let a = finite3(a).map_err(|m| invalid!(".{key}.{name}: {m}"))?;
        return Ok(rotation_body_xyz(a.x, a.y, a.z));
    }
    if let Some(q) = o.quaternion {
        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !q.iter().all(|x| x.is_finite()) || n == 0.0 {
            return Err(invalid!(
                ".{key}.quaternion: must be finite and non-zero, got {q:?}"
            ));
        }
        return Ok(rotation_from_quaternion(&q.map(|x| x / n)));
    }
    if let Some(rows) = o.matrix {
        let r = Matrix3::from_row_slice(&rows.concat());
        if !r.iter().all(|x| x.is_finite()) {
            return Err(invalid!(".{key}.matrix: every entry must be finite"));
        }
        if (r.transpose() * r - Matrix3::identity()).norm() > 1e-9 || r.determinant() < 0.0 {
            return Err(invalid!(
                ".{key}.matrix: not a rotation (orthonormal rows with determinant +1, within 1e-9)"
            ));
        }
        return Ok(r);
    }
    Ok(Matrix3::identity())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    fn section(text: &str) -> FrameSection {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn the_four_forms_agree() {
        let xyz = rotation(&section("xyz = [0.3, -0.2, 0.5]"), "f").unwrap();
        let deg = rotation(
            &section(&format!(
                "xyz_deg = [{}, {}, {}]",
                0.3f64.to_degrees(),
                (-0.2f64).to_degrees(),
                0.5f64.to_degrees()
            )),
            "f",
        )
        .unwrap();
        let expected = Transform::from_axis_angle(Vector3::x(), 0.3).r
            * Transform::from_axis_angle(Vector3::y(), -0.2).r
            * Transform::from_axis_angle(Vector3::z(), 0.5).r;
        assert!((xyz - expected).norm() < 1e-15);
        assert!((deg - expected).norm() < 1e-14);
        let q = crate::math::quaternion::quaternion_from_rotation(&expected);
        let quat = rotation(&section(&format!("quaternion = {q:?}")), "f").unwrap();
        assert!((quat - expected).norm() < 1e-14);
        let rows: Vec<String> = (0..3)
            .map(|i| {
                format!(
                    "[{}, {}, {}]",
                    expected[(i, 0)],
                    expected[(i, 1)],
                    expected[(i, 2)]
                )
            })
            .collect();
        let m = rotation(&section(&format!("matrix = [{}]", rows.join(", "))), "f").unwrap();
        assert_eq!(m, expected);
    }

    #[test]
    fn unknown_frame_keys_are_refused() {
        assert!(toml::from_str::<FrameSection>("xyz_degrees = [1.0, 2.0, 3.0]").is_err());
        assert!(toml::from_str::<FrameSection>("rotaton = { axis = [1.0, 0.0, 0.0] }").is_err());
    }

    #[test]
    fn bad_rotations_name_the_key() {
        let e = rotation(
            &section("xyz = [0.1, 0.2, 0.3]\nquaternion = [1.0, 0.0, 0.0, 0.0]"),
            "inboard",
        );
        assert!(e.unwrap_err().to_string().contains("at most one"));
        let e = rotation(
            &section("matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]"),
            "inboard",
        );
        assert!(e.unwrap_err().to_string().starts_with(".inboard.matrix"));
        let e = rotation(&section("quaternion = [0.0, 0.0, 0.0, 0.0]"), "plane");
        assert!(e.unwrap_err().to_string().starts_with(".plane.quaternion"));
        let e = rotation(
            &section("matrix = [[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]"),
            "f",
        );
        assert!(e.unwrap_err().to_string().contains("not a rotation"));
    }
}
