//! The tree algorithms of planar-xy models in two dimensions: kinematics in Ground's xy plane
//! (`kinematics.rs`) and the articulated-body recursion on in-plane quantities (`aba.rs`). The
//! state derivative that runs them with the force elements, and the equations, are in
//! [`crate::pipeline::planar_xy`].

pub(crate) mod aba;
pub(crate) mod kinematics;
