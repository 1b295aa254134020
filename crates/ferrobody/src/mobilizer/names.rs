//! Names of a mobilizer's generalized coordinates and speeds, saying what each one is.
//!
//! The letters follow trajectory.csv's pose columns: `p` a translation of M's origin in F
//! (m), `q` a component of the quaternion `q_FM`, `r` a rotation angle about F's (or the
//! moving) axis (rad), `w` an angular rate of `w_FM` expressed in F (rad/s), `v` a component of
//! `v_FM` expressed in F (m/s). Where u = q̇ (Gimbal, Universal) a speed is the coordinate's
//! name with `_dot`. Function-based mobilizers (OpenSim's CustomJoint) take their names from
//! the .osim file; here they are `q0, q1, …` and `u0, u1, …`.

use super::Mobilizer;

impl Mobilizer {
    /// The suffix of each generalized coordinate, in q order (`["qw", "qx", "qy", "qz", "px",
    /// "py", "pz"]` for a free body).
    pub fn coordinate_suffixes(self) -> Vec<String> {
        let fixed: &[&str] = match self {
            Mobilizer::Weld => &[],
            Mobilizer::Pin => &["rz"],
            Mobilizer::Slider => &["px"],
            Mobilizer::Universal => &["rx", "ry"],
            Mobilizer::Cylinder => &["rz", "pz"],
            Mobilizer::Planar => &["rz", "px", "py"],
            Mobilizer::Gimbal | Mobilizer::BallEuler | Mobilizer::Ellipsoid => &["rx", "ry", "rz"],
            Mobilizer::Ball => &["qw", "qx", "qy", "qz"],
            Mobilizer::Translation => &["px", "py", "pz"],
            Mobilizer::Free => &["qw", "qx", "qy", "qz", "px", "py", "pz"],
            Mobilizer::FreeEuler => &["rx", "ry", "rz", "px", "py", "pz"],
            Mobilizer::FunctionBased(n) => return (0..n).map(|k| format!("q{k}")).collect(),
        };
        fixed.iter().map(|s| s.to_string()).collect()
    }

    /// The suffix of each generalized speed, in u order (`["wx", "wy", "wz", "vx", "vy",
    /// "vz"]` for a free body).
    pub fn speed_suffixes(self) -> Vec<String> {
        let fixed: &[&str] = match self {
            Mobilizer::Weld => &[],
            Mobilizer::Pin => &["wz"],
            Mobilizer::Slider => &["vx"],
            Mobilizer::Universal => &["rx_dot", "ry_dot"],
            Mobilizer::Cylinder => &["wz", "vz"],
            Mobilizer::Planar => &["wz", "vx", "vy"],
            Mobilizer::Gimbal => &["rx_dot", "ry_dot", "rz_dot"],
            Mobilizer::Ball | Mobilizer::BallEuler | Mobilizer::Ellipsoid => &["wx", "wy", "wz"],
            Mobilizer::Translation => &["vx", "vy", "vz"],
            Mobilizer::Free | Mobilizer::FreeEuler => &["wx", "wy", "wz", "vx", "vy", "vz"],
            Mobilizer::FunctionBased(n) => return (0..n).map(|k| format!("u{k}")).collect(),
        };
        fixed.iter().map(|s| s.to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Mobilizer;

    #[test]
    fn every_kind_names_each_of_its_coordinates_and_speeds_once() {
        for m in Mobilizer::ALL
            .iter()
            .copied()
            .chain([Mobilizer::FunctionBased(3)])
        {
            let (q, u) = (m.coordinate_suffixes(), m.speed_suffixes());
            assert_eq!((q.len(), u.len()), (m.nq(), m.nu()), "{m}");
            for names in [&q, &u] {
                let mut sorted = names.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), names.len(), "{m}: {names:?}");
            }
        }
    }
}
