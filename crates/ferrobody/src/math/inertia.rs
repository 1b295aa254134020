//! Mass properties and the spatial inertia of a rigid body.
//!
//! A body's spatial inertia about its origin B, expressed in Ground, with `c = p_BC` the
//! centre-of-mass offset (in Ground) and `I_B = I_C − m [c]×[c]×` (parallel-axis theorem):
//!
//! ```text
//! M_B = [ I_B       m [c]× ]        f_B = M_B A_B + b_B,
//!       [ −m [c]×   m 1    ]        b_B = [ w × I_B w ; m w × (w × c) ]
//! ```
//!
//! where `A_B = [α; a_B]` is the classical acceleration of B's origin and `b_B` the gyroscopic
//! (velocity-dependent) force (Simbody theory manual, Sherman et al. 2011, §5).

use crate::error::InertiaProblem;
use crate::math::small::{mul3v, reexpress_symmetric};
use crate::math::spatial::{angular, linear, spatial, SpatialVec};
use crate::scalar::Real;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

/// Mass, centre of mass and central inertia of a body, in the body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties<T: Real = f64> {
    /// Mass (kg).
    pub mass: T,
    /// Centre of mass `p_BC` in the body frame (m).
    pub com: Vector3<T>,
    /// Inertia about the centre of mass, in the body frame (kg·m²).
    pub inertia_com: Matrix3<T>,
}

impl<T: Real> MassProperties<T> {
    /// Mass properties from mass, centre of mass and central inertia.
    pub fn new(mass: T, com: Vector3<T>, inertia_com: Matrix3<T>) -> Self {
        Self {
            mass,
            com,
            inertia_com,
        }
    }

    /// A massless body (only valid for bodies welded to, or without, children that need mass).
    pub fn zero() -> Self {
        Self::new(T::zero(), Vector3::zeros(), Matrix3::zeros())
    }

    /// A uniform solid sphere of mass `m` and radius `r` centred at the body origin.
    pub fn solid_sphere(m: T, r: T) -> Self {
        let i = T::c(0.4) * m * r * r;
        Self::new(m, Vector3::zeros(), Matrix3::from_diagonal_element(i))
    }

    /// Converts to another scalar type through `f64` (derivative parts dropped).
    pub fn cast<U: Real>(&self) -> MassProperties<U> {
        MassProperties {
            mass: U::c(self.mass.re()),
            com: self.com.map(|x| U::c(x.re())),
            inertia_com: self.inertia_com.map(|x| U::c(x.re())),
        }
    }
}

impl<T: Real> MassProperties<T> {
    /// Inertia about the body origin, in the body frame: `I_B = I_C − m [c]×[c]×`.
    pub fn inertia_about_origin(&self) -> Matrix3<T> {
        let cx = self.com.cross_matrix();
        self.inertia_com - cx * cx * self.mass
    }
}

/// A rigid body's spatial inertia about its origin B, expressed in Ground, stored compactly:
/// mass `m`, COM offset `c = p_BC` and rotational inertia `I_B` about B (all in Ground).
/// As a 6×6 matrix it is `[[I_B, m[c]×], [−m[c]×, m 1]]` (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidInertia<T: Real> {
    /// Mass (kg).
    pub mass: T,
    /// COM offset from the body origin, in Ground (m).
    pub c: Vector3<T>,
    /// Inertia about the body origin, in Ground (kg·m²).
    pub i_b: Matrix3<T>,
}

impl<T: Real> RigidInertia<T> {
    /// Zero inertia.
    pub fn zero() -> Self {
        Self {
            mass: T::zero(),
            c: Vector3::zeros(),
            i_b: Matrix3::zeros(),
        }
    }

    /// [`Self::in_ground`] for an inertia `i_b_body` known to be diagonal (its zero products
    /// skipped; the same numbers).
    #[inline]
    pub fn in_ground_diagonal(
        mass: T,
        com: &Vector3<T>,
        i_b_body: &Matrix3<T>,
        r_gb: &Matrix3<T>,
    ) -> Self {
        Self {
            mass,
            c: mul3v(r_gb, com),
            i_b: reexpress_symmetric(r_gb, i_b_body),
        }
    }

    /// Re-expresses body-frame mass properties in Ground, given the rotation `r_gb`, the COM
    /// `com` and the inertia `i_b_body` about the origin (both in the body frame).
    #[inline]
    pub fn in_ground(mass: T, com: &Vector3<T>, i_b_body: &Matrix3<T>, r_gb: &Matrix3<T>) -> Self {
        Self {
            mass,
            c: mul3v(r_gb, com),
            i_b: reexpress_symmetric(r_gb, i_b_body),
        }
    }

    /// `M_B V`: momentum `[I_B w + m c × v ; m v − m c × w]` of spatial velocity `V = [w; v]`.
    #[inline(always)]
    pub fn mul(&self, v: &Vector6<T>) -> Vector6<T> {
        let w = Vector3::new(v[0], v[1], v[2]);
        let lin = Vector3::new(v[3], v[4], v[5]);
        let mc = self.c * self.mass;
        let ang = mul3v(&self.i_b, &w) + mc.cross(&lin);
        let f = lin * self.mass - mc.cross(&w);
        Vector6::new(ang.x, ang.y, ang.z, f.x, f.y, f.z)
    }

    /// Gyroscopic force `b_B = [w × I_B w ; m w × (w × c)]` at angular velocity `w`.
    #[inline(always)]
    pub fn gyroscopic_force(&self, w: &Vector3<T>) -> Vector6<T> {
        let moment = w.cross(&mul3v(&self.i_b, w));
        let force = w.cross(&w.cross(&self.c)) * self.mass;
        Vector6::new(moment.x, moment.y, moment.z, force.x, force.y, force.z)
    }

    /// Writes the 6×6 matrix form into `m`.
    #[inline]
    pub fn write_matrix(&self, m: &mut Matrix6<T>) {
        let mc = self.c * self.mass;
        let (o, ms) = (T::zero(), self.mass);
        let i = &self.i_b;
        // Column-major: the columns of [[I_B, m[c]×], [−m[c]×, m 1]].
        m.as_mut_slice().copy_from_slice(&[
            i[(0, 0)],
            i[(1, 0)],
            i[(2, 0)],
            o,
            -mc.z,
            mc.y,
            i[(0, 1)],
            i[(1, 1)],
            i[(2, 1)],
            mc.z,
            o,
            -mc.x,
            i[(0, 2)],
            i[(1, 2)],
            i[(2, 2)],
            -mc.y,
            mc.x,
            o,
            o,
            mc.z,
            -mc.y,
            ms,
            o,
            o,
            -mc.z,
            o,
            mc.x,
            o,
            ms,
            o,
            mc.y,
            -mc.x,
            o,
            o,
            o,
            ms,
        ]);
    }

    /// The 6×6 matrix form.
    pub fn to_matrix(&self) -> Matrix6<T> {
        let mut m = Matrix6::zeros();
        self.write_matrix(&mut m);
        m
    }
}

/// Checks that a central inertia is physically valid: symmetric, positive semi-definite and
/// satisfying the triangle inequalities of its principal moments. Returns a description of
/// the first violation.
pub fn check_inertia(i: &Matrix3<f64>) -> Result<(), InertiaProblem> {
    check_inertia_definite(i)?;
    triangle_inequality_violation(i).map_or(Ok(()), Err)
}

/// The part of [`check_inertia`] without which no dynamics can run: finite, symmetric and
/// positive semi-definite. An inertia that passes this but fails the triangle inequality is
/// not a rigid body's, yet its spatial inertia is still positive semi-definite (OpenSim
/// warns and runs it).
pub fn check_inertia_definite(i: &Matrix3<f64>) -> Result<(), InertiaProblem> {
    if !i.iter().all(|x| x.is_finite()) {
        return Err(InertiaProblem::NonFinite);
    }
    let scale = i.abs().max().max(f64::MIN_POSITIVE);
    if (i - i.transpose()).abs().max() > 1e-12 * scale {
        return Err(InertiaProblem::NotSymmetric);
    }
    let eig = i.symmetric_eigenvalues();
    let tol = 1e-12 * scale;
    if eig.iter().any(|&e| e < -tol) {
        return Err(InertiaProblem::NotPositiveSemiDefinite {
            moments: [eig[0], eig[1], eig[2]],
        });
    }
    Ok(())
}

/// Describes how a symmetric positive semi-definite inertia's principal moments violate the
/// triangle inequality (`a + b ≥ c` for every ordering), or `None` if they do not.
pub fn triangle_inequality_violation(i: &Matrix3<f64>) -> Option<InertiaProblem> {
    let scale = i.abs().max().max(f64::MIN_POSITIVE);
    let tol = 1e-12 * scale;
    let eig = i.symmetric_eigenvalues();
    let (a, b, c) = (eig[0], eig[1], eig[2]);
    (a + b < c - tol || a + c < b - tol || b + c < a - tol)
        .then_some(InertiaProblem::TriangleInequality { moments: [a, b, c] })
}

/// A (composite) rigid-body inertia about a tree's reference point, in Ground: mass (kg), first
/// moment `h = m d` (kg·m) and rotational inertia about the point (kg·m²).
#[derive(Clone, Copy, Debug)]
pub struct InertiaAboutPoint<T: Real> {
    /// Mass (kg).
    pub mass: T,
    /// First moment of mass about the point (kg·m).
    pub h: Vector3<T>,
    /// Rotational inertia about the point (kg·m²).
    pub i_o: Matrix3<T>,
}

impl<T: Real> InertiaAboutPoint<T> {
    /// No mass.
    pub fn zero() -> Self {
        Self {
            mass: T::zero(),
            h: Vector3::zeros(),
            i_o: Matrix3::zeros(),
        }
    }

    /// The force `K s` of motion `s` (angular, then linear, about the point).
    #[inline(always)]
    pub(crate) fn force(&self, s: &SpatialVec<T>) -> SpatialVec<T> {
        let (w, v) = (angular(s), linear(s));
        spatial(
            self.i_o * w + self.h.cross(&v),
            v * self.mass + w.cross(&self.h),
        )
    }

    #[inline(always)]
    pub(crate) fn add(&mut self, other: &Self) {
        self.mass += other.mass;
        self.h += other.h;
        self.i_o += other.i_o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Transform;

    #[test]
    fn momentum_about_origin_matches_point_mass_formula() {
        // A point mass at c moving with the body: h_B = m c × (v + w × c).
        let mp = MassProperties::new(2.0, Vector3::new(0.3, 0.0, 0.0), Matrix3::zeros());
        let r_gb = Transform::from_axis_angle(Vector3::new(1.0, 2.0, 3.0), 0.4).r;
        let inertia = RigidInertia::in_ground(mp.mass, &mp.com, &mp.inertia_about_origin(), &r_gb);
        let c = inertia.c;
        let w = Vector3::new(0.0, 0.0, 1.5);
        let v = Vector3::new(0.1, 0.2, 0.0);
        let vel = Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z);
        let h = inertia.mul(&vel);
        assert!((inertia.to_matrix() * vel - h).norm() < 1e-14);
        let expected = c.cross(&(v + w.cross(&c))) * 2.0;
        assert!((h.fixed_rows::<3>(0) - expected).norm() < 1e-14);
    }

    #[test]
    fn rejects_invalid_inertia() {
        assert!(check_inertia(&Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 3.0))).is_err());
        assert!(check_inertia(&Matrix3::from_diagonal(&Vector3::new(-1.0, 1.0, 1.0))).is_err());
        assert!(check_inertia(&Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0))).is_ok());
        assert!(check_inertia(&Matrix3::from_diagonal(&Vector3::new(0.0, 1.0, 1.0))).is_ok());
    }
}
