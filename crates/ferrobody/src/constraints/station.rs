//! Kinematics of points fixed on bodies, and forces applied at them, in Ground.
//!
//! For body B with origin velocity `v_gb = [ω; v]` and acceleration `a_gb = [α; a]`, the
//! material point of B that is at Ground location `p` moves with
//!
//! ```text
//! v_B@p = v + ω × r,     a_B@p = a + α × r + ω × (ω × r),     r = p − p_GB
//! ```
//!
//! and a force `f` applied there is the spatial force `[r × f; f]` about B's origin. Forces on
//! Ground are dropped (Ground does not move).

use crate::data::Data;
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use crate::state::State;
use nalgebra::Vector3;

/// Body poses, velocities and accelerations in Ground (whichever stages are realized).
#[derive(Clone, Copy)]
pub struct BodyMotion<'a, T: Real> {
    /// `x_gb` of every body.
    pub x_gb: &'a [Transform<T>],
    /// `v_gb` of every body (Velocity stage).
    pub v_gb: &'a [SpatialVec<T>],
    /// `a_gb` of every body (Acceleration stage).
    pub a_gb: &'a [SpatialVec<T>],
    /// Generalized coordinates (coordinate constraints read them).
    pub q: &'a [T],
    /// Generalized speeds.
    pub u: &'a [T],
    /// Generalized accelerations (Acceleration stage).
    pub udot: &'a [T],
    /// Time (s).
    pub t: f64,
}

impl<T: Real> BodyMotion<'_, T> {
    /// Ground location of station `p_b` of body `b`.
    pub fn point(&self, b: usize, p_b: &Vector3<T>) -> Vector3<T> {
        self.x_gb[b].apply(p_b)
    }

    /// A body-fixed direction expressed in Ground.
    pub fn direction(&self, b: usize, d_b: &Vector3<T>) -> Vector3<T> {
        self.x_gb[b].r * d_b
    }

    /// Angular velocity ω of body `b`.
    pub fn omega(&self, b: usize) -> Vector3<T> {
        self.v_gb[b].fixed_rows::<3>(0).into_owned()
    }

    /// Angular acceleration α of body `b`.
    pub fn alpha(&self, b: usize) -> Vector3<T> {
        self.a_gb[b].fixed_rows::<3>(0).into_owned()
    }

    /// Velocity of the material point of `b` at Ground location `p`.
    pub fn velocity_at(&self, b: usize, p: &Vector3<T>) -> Vector3<T> {
        let v = &self.v_gb[b];
        let w = v.fixed_rows::<3>(0).into_owned();
        v.fixed_rows::<3>(3).into_owned() + w.cross(&(p - self.x_gb[b].p))
    }

    /// Acceleration of the material point of `b` at Ground location `p`.
    pub fn acceleration_at(&self, b: usize, p: &Vector3<T>) -> Vector3<T> {
        let r = p - self.x_gb[b].p;
        let w = self.omega(b);
        let a = &self.a_gb[b];
        a.fixed_rows::<3>(3).into_owned() + self.alpha(b).cross(&r) + w.cross(&w.cross(&r))
    }

    /// Adds force `f` at Ground location `p` on body `b` to `forces` (about body origins).
    pub fn add_force_at(
        &self,
        forces: &mut [SpatialVec<T>],
        b: usize,
        p: &Vector3<T>,
        f: &Vector3<T>,
    ) {
        if b == 0 {
            return;
        }
        let m = (p - self.x_gb[b].p).cross(f);
        let s = &mut forces[b];
        for k in 0..3 {
            s[k] += m[k];
            s[k + 3] += f[k];
        }
    }

    /// Adds a pure moment `m` on body `b` to `forces`.
    pub fn add_moment(&self, forces: &mut [SpatialVec<T>], b: usize, m: &Vector3<T>) {
        if b == 0 {
            return;
        }
        for k in 0..3 {
            forces[b][k] += m[k];
        }
    }
}

/// Simbody's `Rotation(UnitVec3 n, ZAxis)` (notes §0): the x and y axes of a frame whose z axis
/// is the unit vector `z`. `x = z × e_k / |z × e_k|` with `e_k` the coordinate axis of smallest
/// `|z_k|` (ties to the lower index), `y = z × x`.
pub fn frame_from_z_axis<T: Real>(z: &Vector3<T>) -> (Vector3<T>, Vector3<T>) {
    let a = [z.x.re().abs(), z.y.re().abs(), z.z.re().abs()];
    let k = if a[0] <= a[1] && a[0] <= a[2] {
        0
    } else if a[1] <= a[2] {
        1
    } else {
        2
    };
    let mut e = Vector3::zeros();
    e[k] = T::one();
    let x = z.cross(&e).normalize();
    let y = z.cross(&x);
    (x, y)
}

/// The body poses, velocities and accelerations of realized `data` and the coordinates,
/// speeds and time of `state`, as constraints read them.
pub(crate) fn motion<'a, T: Real>(state: &'a State<T>, data: &'a Data<T>) -> BodyMotion<'a, T> {
    BodyMotion {
        x_gb: &data.pos.x_gb,
        v_gb: &data.vel.v_gb,
        a_gb: &data.acc.a_gb,
        q: state.q.as_slice(),
        u: state.u.as_slice(),
        udot: data.acc.udot.as_slice(),
        t: state.t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_from_z_axis_matches_simbody_probes() {
        // notes §0: n = +Y → x = (0,0,−1), y = (−1,0,0); n = +Z → x = (0,1,0), y = (−1,0,0).
        let (x, y) = frame_from_z_axis(&Vector3::new(0.0, 1.0, 0.0));
        assert_eq!(
            (x, y),
            (Vector3::new(0.0, 0.0, -1.0), Vector3::new(-1.0, 0.0, 0.0))
        );
        let (x, y) = frame_from_z_axis(&Vector3::new(0.0, 0.0, 1.0));
        assert_eq!(
            (x, y),
            (Vector3::new(0.0, 1.0, 0.0), Vector3::new(-1.0, 0.0, 0.0))
        );
    }
}
