//! Mobilizers: the joints that connect each body to its parent, with Simbody's q/u conventions.
//!
//! A mobilizer relates its inboard frame F (fixed on the parent P, pose `x_pf`) to its outboard
//! frame M (fixed on the body B, pose `x_bm`). Each kind provides
//!
//! * `x_fm(q)`: the pose of M in F;
//! * the hinge matrix `H_FM(q)` (6 × nu, in F): `V_FM = H_FM u`, where `V_FM = [w_FM; v_FM]` is
//!   the angular velocity of M in F and the velocity of M's origin in F, both expressed in F;
//! * `Ḣ_FM u`: the velocity-dependent part of the across-joint acceleration, in F;
//! * `q̇(q, u)` (the kinematic differential equation, `q̇ = N(q) u`).
//!
//! | kind | nq | nu | q | u |
//! |---|---|---|---|---|
//! | Weld | 0 | 0 | — | — |
//! | Pin | 1 | 1 | angle about F's z | its rate |
//! | Slider | 1 | 1 | translation along F's x | its rate |
//! | Universal | 2 | 2 | body-fixed rotations about x, then the new y | q̇ |
//! | Cylinder | 2 | 2 | rotation about z, translation along z | q̇ |
//! | Planar | 3 | 3 | rotation about z, translation along F's x and y | q̇ |
//! | Gimbal | 3 | 3 | body-fixed x-y-z Euler angles | q̇ |
//! | Ball | 4 | 3 | quaternion of `r_fm` (scalar first) | `w_FM` in F |
//! | Translation | 3 | 3 | `p_fm` in F | `v_FM` in F |
//! | Free | 7 | 6 | quaternion, then `p_fm` | `w_FM` in F, then `v_FM` in F |
//! | BallEuler | 3 | 3 | body-fixed x-y-z Euler angles | `w_FM` in F |
//! | FreeEuler | 6 | 6 | Euler angles, then `p_fm` | `w_FM` in F, then `v_FM` in F |
//! | Ellipsoid | 3 | 3 | body-fixed x-y-z Euler angles (M's origin on an ellipsoid) | `w_FM` in F |
//!
//! (Simbody User's Guide, "Mobilized bodies"; `docs/mobilizers.md` has the full table.)

mod ball;
mod cylinder;
mod ellipsoid;
mod euler_xyz;
mod free;
mod function_based;
mod gimbal;
mod names;
mod pin;
mod planar;
mod slider;
mod translation;
mod universal;

use crate::math::quaternion::quaternion_dot;
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

pub(crate) use ellipsoid::{
    hdot_u as ellipsoid_hdot_u, hinge as ellipsoid_hinge, normal as ellipsoid_normal,
    x_fm as ellipsoid_x_fm,
};
pub(crate) use euler_xyz::qdot_sin_cos as euler_xyz_qdot_sin_cos;
pub(crate) use free::x_fm as free_x_fm;
pub(crate) use function_based::CustomJointFrame;
pub use function_based::{AxisFunction, SpatialTransform};

/// The kind of a mobilizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Mobilizer {
    /// No relative motion.
    Weld,
    /// Rotation about the common z axis of F and M.
    Pin,
    /// Translation along the common x axis of F and M.
    Slider,
    /// Rotation about F's x, then about the new y.
    Universal,
    /// Rotation about and translation along the common z axis.
    Cylinder,
    /// Rotation about z and translation in the xy plane of F.
    Planar,
    /// Body-fixed x-y-z Euler angles.
    Gimbal,
    /// Unrestricted rotation, quaternion coordinates.
    Ball,
    /// Unrestricted translation.
    Translation,
    /// Six degrees of freedom: quaternion and translation.
    Free,
    /// Unrestricted rotation with body-fixed x-y-z Euler angles as q and `w_FM` as u
    /// (Simbody's Ball in Euler-angle mode, as OpenSim runs it).
    BallEuler,
    /// Six degrees of freedom with Euler angles and translation as q, `w_FM` and `v_FM` as u
    /// (Simbody's Free in Euler-angle mode, as OpenSim runs it).
    FreeEuler,
    /// Simbody's function-based mobilizer (OpenSim's `CustomJoint`) with this many
    /// coordinates, u = q̇; the body's [`SpatialTransform`] defines its pose and hinge, so the
    /// pose and hinge methods of this enum return identities for it and the model reads the
    /// body's transform instead.
    FunctionBased(u8),
    /// Simbody's Ellipsoid mobilizer in Euler-angle mode: body-fixed x-y-z angles as q,
    /// `w_FM` as u, M's origin on an ellipsoid centred on F's origin whose semi-axes the body
    /// carries ([`crate::model::BodyDef::ellipsoid`]), so the pose and hinge methods of this
    /// enum give its rotation only and the model reads the body's radii (OpenSim's
    /// `EllipsoidJoint` and `ScapulothoracicJoint`). Not a scene-file kind.
    #[serde(skip)]
    Ellipsoid,
}

/// A hinge-matrix column that is a unit axis of F: rotation about, or translation along, F's
/// axis `k` (0 = x, 1 = y, 2 = z).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HingeAxis {
    /// Rotation about axis k.
    Rotation(usize),
    /// Translation along axis k.
    Translation(usize),
}

impl Mobilizer {
    /// The hinge columns of kinds whose hinge matrix is constant and made of unit axes of F
    /// (all but Universal and Gimbal, whose columns depend on q). Lets kinematics take the
    /// Ground-frame columns straight from `R_GF` and skip `Ḣu`, which is zero for these kinds.
    pub const fn hinge_axes(self) -> Option<&'static [HingeAxis]> {
        use HingeAxis::{Rotation as R, Translation as T};
        match self {
            Mobilizer::Weld => Some(&[]),
            Mobilizer::Pin => Some(&[R(2)]),
            Mobilizer::Slider => Some(&[T(0)]),
            Mobilizer::Cylinder => Some(&[R(2), T(2)]),
            Mobilizer::Planar => Some(&[R(2), T(0), T(1)]),
            Mobilizer::Ball => Some(&[R(0), R(1), R(2)]),
            Mobilizer::Translation => Some(&[T(0), T(1), T(2)]),
            Mobilizer::Free | Mobilizer::FreeEuler => Some(&[R(0), R(1), R(2), T(0), T(1), T(2)]),
            Mobilizer::BallEuler => Some(&[R(0), R(1), R(2)]),
            Mobilizer::FunctionBased(_) | Mobilizer::Ellipsoid => None,
            Mobilizer::Universal | Mobilizer::Gimbal => None,
        }
    }

    /// `x_gm = x_gf · x_fm(q)`, with the cheap forms of the common kinds (a rotation about z
    /// mixes two columns; a slide along x moves the origin along one column). Inlined: the
    /// caller reads the pose right away, and through memory that read would stall on
    /// store-to-load forwarding.
    #[inline(always)]
    pub fn compose<T: Real>(self, x_gf: &Transform<T>, q: &[T]) -> Transform<T> {
        match self {
            Mobilizer::Weld => *x_gf,
            Mobilizer::Pin => rotate_about_z(x_gf, q[0]),
            Mobilizer::Slider => {
                let r = &x_gf.r;
                Transform {
                    r: *r,
                    p: x_gf.p + r.column(0) * q[0],
                }
            }
            _ => x_gf * &self.x_fm(q),
        }
    }

    /// Every kind a scene file can name, in declaration order (not `FunctionBased` and
    /// `Ellipsoid`, which need data the body carries).
    pub const ALL: [Mobilizer; 12] = [
        Mobilizer::Weld,
        Mobilizer::Pin,
        Mobilizer::Slider,
        Mobilizer::Universal,
        Mobilizer::Cylinder,
        Mobilizer::Planar,
        Mobilizer::Gimbal,
        Mobilizer::Ball,
        Mobilizer::Translation,
        Mobilizer::Free,
        Mobilizer::BallEuler,
        Mobilizer::FreeEuler,
    ];

    /// Number of generalized coordinates.
    pub const fn nq(self) -> usize {
        match self {
            Mobilizer::Weld => 0,
            Mobilizer::Pin | Mobilizer::Slider => 1,
            Mobilizer::Universal | Mobilizer::Cylinder => 2,
            Mobilizer::Planar
            | Mobilizer::Gimbal
            | Mobilizer::Translation
            | Mobilizer::BallEuler
            | Mobilizer::Ellipsoid => 3,
            Mobilizer::Ball => 4,
            Mobilizer::FreeEuler => 6,
            Mobilizer::Free => 7,
            Mobilizer::FunctionBased(n) => n as usize,
        }
    }

    /// Number of generalized speeds.
    pub const fn nu(self) -> usize {
        match self {
            Mobilizer::Weld => 0,
            Mobilizer::Pin | Mobilizer::Slider => 1,
            Mobilizer::Universal | Mobilizer::Cylinder => 2,
            Mobilizer::Planar
            | Mobilizer::Gimbal
            | Mobilizer::Translation
            | Mobilizer::Ball
            | Mobilizer::BallEuler
            | Mobilizer::Ellipsoid => 3,
            Mobilizer::Free | Mobilizer::FreeEuler => 6,
            Mobilizer::FunctionBased(n) => n as usize,
        }
    }

    /// Offset within this mobilizer's q of a quaternion, if it has one.
    pub const fn quaternion_offset(self) -> Option<usize> {
        match self {
            Mobilizer::Ball | Mobilizer::Free => Some(0),
            _ => None,
        }
    }

    /// Whether `q̇ = u` (every kind but Ball and Free, in either rotation mode, and
    /// Ellipsoid).
    pub const fn qdot_is_u(self) -> bool {
        !matches!(
            self,
            Mobilizer::Ball
                | Mobilizer::Free
                | Mobilizer::BallEuler
                | Mobilizer::FreeEuler
                | Mobilizer::Ellipsoid
        )
    }

    /// Whether Simbody allocates a quaternion's four q for this kind although it runs in
    /// Euler-angle mode with three (Ball, Free and Ellipsoid), which its error norm counts.
    pub const fn keeps_quaternion_slot(self) -> bool {
        matches!(
            self,
            Mobilizer::BallEuler | Mobilizer::FreeEuler | Mobilizer::Ellipsoid
        )
    }

    /// The scene-file name of this kind (snake case).
    pub const fn name(self) -> &'static str {
        match self {
            Mobilizer::Weld => "weld",
            Mobilizer::Pin => "pin",
            Mobilizer::Slider => "slider",
            Mobilizer::Universal => "universal",
            Mobilizer::Cylinder => "cylinder",
            Mobilizer::Planar => "planar",
            Mobilizer::Gimbal => "gimbal",
            Mobilizer::Ball => "ball",
            Mobilizer::Translation => "translation",
            Mobilizer::Free => "free",
            Mobilizer::BallEuler => "ball_euler",
            Mobilizer::FreeEuler => "free_euler",
            Mobilizer::FunctionBased(_) => "function_based",
            Mobilizer::Ellipsoid => "ellipsoid",
        }
    }

    /// Writes the default (reference) configuration: zeros, identity quaternions.
    pub fn default_q<T: Real>(self, q: &mut [T]) {
        q.iter_mut().for_each(|x| *x = T::zero());
        if let Some(k) = self.quaternion_offset() {
            q[k] = T::one();
        }
    }

    /// Pose `x_fm` of M in F.
    #[inline]
    pub fn x_fm<T: Real>(self, q: &[T]) -> Transform<T> {
        match self {
            Mobilizer::Weld => Transform::identity(),
            Mobilizer::Pin => pin::x_fm(q),
            Mobilizer::Slider => slider::x_fm(q),
            Mobilizer::Universal => universal::x_fm(q),
            Mobilizer::Cylinder => cylinder::x_fm(q),
            Mobilizer::Planar => planar::x_fm(q),
            Mobilizer::Gimbal => gimbal::x_fm(q),
            Mobilizer::Ball => ball::x_fm(q),
            Mobilizer::Translation => translation::x_fm(q),
            Mobilizer::Free => free::x_fm(q),
            Mobilizer::BallEuler | Mobilizer::Ellipsoid => euler_xyz::ball_x_fm(q),
            Mobilizer::FreeEuler => euler_xyz::free_x_fm(q),
            Mobilizer::FunctionBased(_) => Transform::identity(),
        }
    }

    /// Hinge matrix columns `H_FM` (in F), one per u; `h.len() == nu`.
    #[inline]
    pub fn hinge<T: Real>(self, q: &[T], h: &mut [SpatialVec<T>]) {
        match self {
            Mobilizer::Weld => {}
            Mobilizer::Pin => pin::hinge(h),
            Mobilizer::Slider => slider::hinge(h),
            Mobilizer::Universal => universal::hinge(q, h),
            Mobilizer::Cylinder => cylinder::hinge(h),
            Mobilizer::Planar => planar::hinge(h),
            Mobilizer::Gimbal => gimbal::hinge(q, h),
            Mobilizer::Ball => ball::hinge(h),
            Mobilizer::Translation => translation::hinge(h),
            Mobilizer::Free => free::hinge(h),
            Mobilizer::BallEuler | Mobilizer::FreeEuler | Mobilizer::Ellipsoid => {
                euler_xyz::hinge(h)
            }
            Mobilizer::FunctionBased(_) => h.iter_mut().for_each(|c| *c = SpatialVec::zeros()),
        }
    }

    /// `Ḣ_FM u` (in F): the across-joint acceleration when `u̇ = 0`.
    #[inline]
    pub fn hdot_u<T: Real>(self, q: &[T], u: &[T]) -> SpatialVec<T> {
        match self {
            Mobilizer::Universal => universal::hdot_u(q, u),
            Mobilizer::Gimbal => gimbal::hdot_u(q, u),
            _ => SpatialVec::zeros(),
        }
    }

    /// `q̈ = N(q) u̇ + Ṅ(q, q̇) u`, the time derivative of `q̇ = N(q) u` (Simbody's
    /// `getQDotDot`), given `q`, `u`, `q̇` and `u̇`: the quaternion map is bilinear in (q, ω);
    /// the Euler-angle map is differentiated in `euler_xyz::qdotdot`; otherwise `q̈ = u̇`.
    #[inline]
    pub fn qdotdot<T: Real>(self, q: &[T], u: &[T], qdot: &[T], udot: &[T], out: &mut [T]) {
        let omega = |v: &[T]| Vector3::new(v[0], v[1], v[2]);
        let mut term = [T::zero(); 4];
        match self {
            Mobilizer::Ball | Mobilizer::Free => {
                quaternion_dot(&qdot[..4], &omega(u), &mut out[..4]);
                quaternion_dot(&q[..4], &omega(udot), &mut term);
                for (o, t) in out[..4].iter_mut().zip(term) {
                    *o += t;
                }
                out[4..].copy_from_slice(&udot[3..]);
            }
            Mobilizer::BallEuler | Mobilizer::FreeEuler | Mobilizer::Ellipsoid => {
                euler_xyz::qdotdot(q, u, qdot, udot, out)
            }
            _ => out.copy_from_slice(udot),
        }
    }

    /// The kinematic differential equation `q̇ = N(q) u`.
    #[inline]
    pub fn qdot<T: Real>(self, q: &[T], u: &[T], qdot: &mut [T]) {
        match self {
            Mobilizer::Ball => ball::qdot(q, u, qdot),
            Mobilizer::Free => free::qdot(q, u, qdot),
            Mobilizer::BallEuler | Mobilizer::FreeEuler | Mobilizer::Ellipsoid => {
                euler_xyz::qdot(q, u, qdot)
            }
            _ => qdot.copy_from_slice(u),
        }
    }
}

/// `x · Rz(angle)`: columns `c x₀ + s x₁`, `−s x₀ + c x₁`, `x₂`; origin unchanged.
#[inline(always)]
fn rotate_about_z<T: Real>(x: &Transform<T>, angle: T) -> Transform<T> {
    let (s, c) = angle.sin_cos();
    let (c0, c1) = (x.r.column(0).into_owned(), x.r.column(1).into_owned());
    let mut r = x.r;
    r.set_column(0, &(c0 * c + c1 * s));
    r.set_column(1, &(c1 * c - c0 * s));
    Transform { r, p: x.p }
}

impl std::fmt::Display for Mobilizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
