//! Coordinate and speed names of a URDF robot: a one-coordinate joint's coordinate is the
//! joint's name and its speed `NAME/speed` (Pinocchio's and ROS's habit); a joint with several
//! (the floating base `root_joint`, planar or floating joints) names each after what it is,
//! `root_joint.qw … root_joint.pz` and `root_joint.wx … root_joint.vz`
//! ([`crate::mobilizer::Mobilizer::coordinate_suffixes`]).

use super::RobotInfo;
use crate::io::MobilityNames;
use crate::model::Model;

impl RobotInfo {
    /// The names of `model`'s coordinates and speeds (the model this robot was built into).
    pub fn mobility_names(&self, model: &Model<f64>) -> MobilityNames {
        let mut names = MobilityNames::of(model);
        for j in &self.joints {
            let body = model.body(j.body);
            let (qr, ur) = (body.q_range(), body.u_range());
            if qr.len() == 1 && ur.len() == 1 {
                names.coordinates[qr.start] = j.name.clone();
                names.speeds[ur.start] = format!("{}/speed", j.name);
                continue;
            }
            let q = body.mobilizer.coordinate_suffixes();
            let u = body.mobilizer.speed_suffixes();
            for (i, s) in qr.zip(q) {
                names.coordinates[i] = format!("{}.{s}", j.name);
            }
            for (i, s) in ur.zip(u) {
                names.speeds[i] = format!("{}.{s}", j.name);
            }
        }
        names
    }
}
