//! Function-based mobilizer: Simbody's `MobilizedBody::FunctionBased`, which OpenSim's
//! `CustomJoint` builds from its `SpatialTransform`.
//!
//! Six spatial coordinates `sᵢ = fᵢ(q)` (each a function of at most one of the mobilizer's
//! coordinates, or constant) turn about and slide along six unit axes given in F:
//!
//! * `R_FM = R(s₀, a₀) · R(s₁, a₁) · R(s₂, a₂)` (a body-fixed sequence),
//! * `p_FM = s₃ t₀ + s₄ t₁ + s₅ t₂`,
//! * `u = q̇`; hinge column j: `w = W Fq[0..3, j]`, `v = A Fq[3..6, j]` with
//!   `W = [a₀, R₁ a₁, R₂ a₂]` (`R₁ = R(s₀, a₀)`, `R₂ = R₁ R(s₁, a₁)`), `A = [t₀ t₁ t₂]` and
//!   `Fq = ∂s/∂q`;
//! * `Ḣ` column j: `w = Ẇ Fq[0..3, j] + W Ḟq[0..3, j]`, `v = A Ḟq[3..6, j]`, where Simbody
//!   forms `Ẇ = [0, ω₁ × W₁, ω₂ × W₂]` from `ω₁ = (H [u₀, 0, …])_w` and `ω₂ = (H u|u₂=0)_w`.
//!   These are the angular velocities of the intermediate frames when each rotation follows
//!   its own coordinate in order (the usual case); the formula is kept as Simbody codes it so
//!   trajectories agree with OpenSim's.
//!
//! Source: Simbody `MobilizedBodyImpl.h`, `FunctionBasedImpl` (`calcMobilizerTransformFromQ`,
//! `CacheInfo::buildH`, `buildHdot`).

use crate::error::{invalid, ModelError};
use crate::math::function::Function;
use crate::math::{angular, spatial, SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::{Matrix3, Vector3};

/// One spatial coordinate: a function of one mobilizer coordinate, or a constant.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisFunction {
    /// Index of the argument within the mobilizer's q (None: a constant function).
    pub coordinate: Option<usize>,
    /// The function.
    pub function: Function,
}

/// The six axes and functions of a function-based mobilizer.
#[derive(Clone, Debug, PartialEq)]
pub struct SpatialTransform {
    /// Rotation axes a₀..a₂ then translation axes t₀..t₂, unit length, in F.
    pub axes: [Vector3<f64>; 6],
    /// s₀..s₅ as functions of q.
    pub functions: [AxisFunction; 6],
    /// Number of coordinates (and speeds) of the mobilizer.
    pub nq: usize,
}

/// `R(angle, axis)` for a unit axis: `cos I + (1 − cos) a aᵀ + sin [a]×`.
fn rotation<T: Real>(angle: T, a: &Vector3<f64>) -> Matrix3<T> {
    let (s, c) = angle.sin_cos();
    let k = T::one() - c;
    let (x, y, z) = (T::c(a.x), T::c(a.y), T::c(a.z));
    Matrix3::new(
        x * x * k + c,
        x * y * k - z * s,
        x * z * k + y * s,
        x * y * k + z * s,
        y * y * k + c,
        y * z * k - x * s,
        x * z * k - y * s,
        y * z * k + x * s,
        z * z * k + c,
    )
}

impl SpatialTransform {
    /// Checks the sizes, the axes (non-zero, finite) and the coordinate indices.
    pub fn validate(&self) -> Result<(), ModelError> {
        if !(1..=6).contains(&self.nq) {
            return Err(invalid!(
                "a function-based mobilizer has 1 to 6 coordinates, got {}",
                self.nq
            ));
        }
        for (i, a) in self.axes.iter().enumerate() {
            if !a.iter().all(|v| v.is_finite()) || (a.norm() - 1.0).abs() > 1e-9 {
                return Err(invalid!("axis {i} must be a finite unit vector, got {a:?}"));
            }
        }
        for (i, f) in self.functions.iter().enumerate() {
            if f.coordinate.is_some_and(|k| k >= self.nq) {
                return Err(invalid!(
                    "function {i} names coordinate {:?} of {}",
                    f.coordinate,
                    self.nq
                ));
            }
        }
        Ok(())
    }

    /// Whether rotation i is the identity whatever q: a constant function of value 0 turns by
    /// `R(0, a) = 1` exactly.
    fn never_turns(&self, i: usize) -> bool {
        let f = &self.functions[i];
        f.coordinate.is_none() && f.function.value(0.0) == 0.0
    }

    /// Whether every motion of the joint lies in the plane with unit normal `n_f` (in F):
    /// each rotation about `n_f` or never turning (then the body-fixed sequence keeps `n_f`
    /// fixed, so `R_FM n_f = n_f`), each translation that follows a coordinate perpendicular
    /// to it, and at most three coordinates. Axes count as parallel or perpendicular within
    /// `tol` (sine or cosine of the angle).
    pub(crate) fn keeps_plane(&self, n_f: &Vector3<f64>, tol: f64) -> bool {
        let parallel = |a: &Vector3<f64>| a.cross(n_f).norm() <= tol;
        let perpendicular = |a: &Vector3<f64>| a.dot(n_f).abs() <= tol;
        self.nq <= 3
            && (0..3).all(|i| self.never_turns(i) || parallel(&self.axes[i]))
            && (3..6)
                .all(|i| self.functions[i].coordinate.is_none() || perpendicular(&self.axes[i]))
    }

    /// The normal (in F) of the plane the joint moves in, when it is planar about its first
    /// rotation that turns ([`Self::keeps_plane`]); `None` otherwise, or when nothing turns.
    pub(crate) fn plane_normal(&self, tol: f64) -> Option<Vector3<f64>> {
        let turning = (0..3).find(|&i| !self.never_turns(i))?;
        let n_f = self.axes[turning];
        self.keeps_plane(&n_f, tol).then_some(n_f)
    }

    /// s, ∂s/∂q (the only non-zero entry of each row: its coordinate's) and ∂²s/∂q².
    fn spatial_coordinates<T: Real>(&self, q: &[T]) -> [(T, T, T); 6] {
        std::array::from_fn(|i| {
            let f = &self.functions[i];
            match f.coordinate {
                Some(k) => f.function.value_and_derivatives(q[k]),
                None => (f.function.value(T::zero()), T::zero(), T::zero()),
            }
        })
    }

    /// Everything the kinematics needs of the joint at `q`, each function and rotation
    /// evaluated once ([`CustomJointFrame`]).
    pub(crate) fn frame<T: Real>(&self, q: &[T]) -> CustomJointFrame<T> {
        let s = self.spatial_coordinates(q);
        let r1 = rotation(s[0].0, &self.axes[0]);
        let r2 = r1 * rotation(s[1].0, &self.axes[1]);
        let w = [
            self.axes[0].map(T::c),
            r1 * self.axes[1].map(T::c),
            r2 * self.axes[2].map(T::c),
        ];
        let r = r2 * rotation(s[2].0, &self.axes[2]);
        let p = (3..6).fold(Vector3::zeros(), |p, i| p + self.axes[i].map(T::c) * s[i].0);
        let mut h_f = [SpatialVec::<T>::zeros(); 6];
        for (j, col) in h_f.iter_mut().enumerate().take(self.nq) {
            *col = self.column(j, &s, &w);
        }
        CustomJointFrame {
            s,
            w,
            x_fm: Transform { r, p },
            h_f,
        }
    }

    /// Pose of M in F.
    pub fn x_fm<T: Real>(&self, q: &[T]) -> Transform<T> {
        self.frame(q).x_fm
    }

    /// Column j of `H` given `W` and the spatial coordinates.
    fn column<T: Real>(&self, j: usize, s: &[(T, T, T); 6], w: &[Vector3<T>; 3]) -> SpatialVec<T> {
        let mut hw = Vector3::zeros();
        let mut hv = Vector3::zeros();
        for i in 0..6 {
            if self.functions[i].coordinate != Some(j) {
                continue;
            }
            if i < 3 {
                hw += w[i] * s[i].1;
            } else {
                hv += self.axes[i].map(T::c) * s[i].1;
            }
        }
        spatial(hw, hv)
    }

    /// Hinge columns `H_FM` (in F), one per coordinate.
    pub fn hinge<T: Real>(&self, q: &[T], h: &mut [SpatialVec<T>]) {
        let frame = self.frame(q);
        let n = h.len().min(self.nq);
        h[..n].copy_from_slice(&frame.h_f[..n]);
    }

    /// `Ḣ_FM u` (in F), as Simbody's `buildHdot` forms `Ḣ`.
    pub fn hdot_u<T: Real>(&self, q: &[T], u: &[T]) -> SpatialVec<T> {
        self.hdot_u_in(&self.frame(q), u)
    }

    /// [`Self::hdot_u`] from the joint's frame at q.
    pub(crate) fn hdot_u_in<T: Real>(&self, frame: &CustomJointFrame<T>, u: &[T]) -> SpatialVec<T> {
        let n = self.nq;
        let (s, w, cols) = (&frame.s, &frame.w, &frame.h_f);
        let combine = |keep: &dyn Fn(usize) -> bool| -> Vector3<T> {
            (0..n)
                .filter(|&j| keep(j))
                .fold(Vector3::zeros(), |acc, j| acc + angular(&cols[j]) * u[j])
        };
        let omega1 = combine(&|j| j == 0);
        let omega2 = combine(&|j| !(n > 2 && j == 2));
        let wdot = [Vector3::zeros(), omega1.cross(&w[1]), omega2.cross(&w[2])];
        let mut out = SpatialVec::zeros();
        for (j, &uj) in u.iter().enumerate().take(n) {
            let mut hw = Vector3::zeros();
            let mut hv = Vector3::zeros();
            for i in 0..6 {
                let Some(k) = self.functions[i].coordinate else {
                    continue;
                };
                if k != j {
                    continue;
                }
                // Ḟq(i, j) = ∂²sᵢ/∂q_j² u_j for a function of q_j alone.
                let fq_dot = s[i].2 * u[k];
                if i < 3 {
                    hw += wdot[i] * s[i].1 + w[i] * fq_dot;
                } else {
                    hv += self.axes[i].map(T::c) * fq_dot;
                }
            }
            out += spatial(hw, hv) * uj;
        }
        out
    }
}

/// A function-based mobilizer at one q: the spatial coordinates with their first and second
/// derivatives, `W`, the pose of M in F and the hinge columns in F. The position stage
/// computes it once per body and the velocity stage's `Ḣu` reads it back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CustomJointFrame<T: Real> {
    s: [(T, T, T); 6],
    w: [Vector3<T>; 3],
    /// Pose of M in F.
    pub(crate) x_fm: Transform<T>,
    /// Hinge columns `H_FM` in F (the first `nq` used).
    pub(crate) h_f: [SpatialVec<T>; 6],
}

impl<T: Real> Default for CustomJointFrame<T> {
    fn default() -> Self {
        Self {
            s: [(T::zero(), T::zero(), T::zero()); 6],
            w: [Vector3::zeros(); 3],
            x_fm: Transform::identity(),
            h_f: [SpatialVec::zeros(); 6],
        }
    }
}
