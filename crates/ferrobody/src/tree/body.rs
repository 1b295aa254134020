//! A body of the multibody tree and the mobilizer connecting it to its parent.

use super::planar::PlaneBasis;
use crate::ids::BodyId;
use crate::math::{MassProperties, Transform};
use crate::mobilizer::{Mobilizer, SpatialTransform};
use crate::scalar::Real;
use nalgebra::Vector3;
use std::sync::Arc;

/// Everything needed to add a body: name, parent, mobilizer, frames and mass properties.
#[derive(Clone, Debug)]
pub struct BodyDef<T: Real = f64> {
    /// Unique name (used in output column names).
    pub name: String,
    /// The parent body (`BodyId::GROUND` for a body attached to Ground).
    pub parent: BodyId,
    /// The mobilizer kind.
    pub mobilizer: Mobilizer,
    /// Inboard frame F on the parent, `x_pf`.
    pub x_pf: Transform<T>,
    /// Outboard frame M on this body, `x_bm`.
    pub x_bm: Transform<T>,
    /// Mass properties in the body frame.
    pub mass_properties: MassProperties<T>,
    /// The axes and functions of a `FunctionBased` mobilizer (None for every other kind).
    pub spatial_transform: Option<Arc<SpatialTransform>>,
    /// The semi-axes (m) of an `Ellipsoid` mobilizer's ellipsoid, in F (None for every other
    /// kind).
    pub ellipsoid_radii: Option<Vector3<T>>,
}

impl<T: Real> BodyDef<T> {
    /// A body with identity inboard and outboard frames.
    pub fn new(
        name: &str,
        parent: BodyId,
        mobilizer: Mobilizer,
        mass_properties: MassProperties<T>,
    ) -> Self {
        Self {
            name: name.to_string(),
            parent,
            mobilizer,
            x_pf: Transform::identity(),
            x_bm: Transform::identity(),
            mass_properties,
            spatial_transform: None,
            ellipsoid_radii: None,
        }
    }

    /// A body on Simbody's Ellipsoid mobilizer (Euler-angle mode): M turns freely in F with
    /// its origin on the ellipsoid of semi-axes `radii` (m) centred on F's origin, at the
    /// point `radii ⊙ (M's z axis)` (`mobilizer::ellipsoid`).
    pub fn ellipsoid(
        name: &str,
        parent: BodyId,
        radii: Vector3<T>,
        mass_properties: MassProperties<T>,
    ) -> Self {
        Self {
            ellipsoid_radii: Some(radii),
            ..Self::new(name, parent, Mobilizer::Ellipsoid, mass_properties)
        }
    }

    /// A body on a function-based mobilizer (OpenSim's `CustomJoint`) defined by `transform`.
    pub fn function_based(
        name: &str,
        parent: BodyId,
        transform: SpatialTransform,
        mass_properties: MassProperties<T>,
    ) -> Self {
        let n = u8::try_from(transform.nq).unwrap_or(u8::MAX);
        Self {
            spatial_transform: Some(Arc::new(transform)),
            ..Self::new(name, parent, Mobilizer::FunctionBased(n), mass_properties)
        }
    }

    /// Sets the inboard frame F on the parent.
    pub fn with_x_pf(mut self, x_pf: Transform<T>) -> Self {
        self.x_pf = x_pf;
        self
    }

    /// Sets the outboard frame M on this body.
    pub fn with_x_bm(mut self, x_bm: Transform<T>) -> Self {
        self.x_bm = x_bm;
        self
    }
}

/// A body in a built model.
#[derive(Clone, Debug)]
pub struct Body<T: Real = f64> {
    /// Unique name.
    pub name: String,
    /// Parent body (Ground's parent is itself).
    pub parent: BodyId,
    /// Mobilizer kind.
    pub mobilizer: Mobilizer,
    /// Inboard frame F on the parent.
    pub x_pf: Transform<T>,
    /// Outboard frame M on this body.
    pub x_bm: Transform<T>,
    /// `x_mb`, the inverse of `x_bm` (cached).
    pub x_mb: Transform<T>,
    /// Mass properties in the body frame.
    pub mass_properties: MassProperties<T>,
    /// Inertia about the body origin in the body frame (cached from the mass properties).
    pub inertia_about_origin: nalgebra::Matrix3<T>,
    /// Whether `inertia_about_origin` is diagonal (cached; lets kinematics skip its zero
    /// products). Decided on real parts, like the other frame flags.
    pub inertia_is_diagonal: bool,
    /// Whether the COM is at the body origin and the inertia about it is `k·1` (a sphere's,
    /// or a point mass's): then its inertia in Ground is `k·1` in every pose, exactly
    /// (`math::small::reexpress_symmetric`), and a Free body's accelerations are Simbody's
    /// reciprocal products (`algorithms::aba`). Decided on real parts.
    pub spherical_about_origin: bool,
    /// The zz moment about the body origin as Simbody forms it, `m ((I_zz + m (c_x² + c_y²))
    /// (1/m))` (`MassProperties` keeps `I/m`; OpenSim's `Body::getMassProperties` shifts the
    /// central inertia by `pointMassAt`): the planar-xy path repeats Simbody's arithmetic.
    pub(crate) simbody_inertia_zz: T,
    /// Whether `x_pf` has no rotation (cached; lets kinematics skip a 3×3 product).
    pub(crate) x_pf_is_translation: bool,
    /// Whether `x_bm` is the identity (cached; lets kinematics skip a composition).
    pub x_bm_is_identity: bool,
    /// Whether the hinge matrix in Ground is the 6×6 identity: a Free mobilizer (quaternion or
    /// Euler angles) on Ground with identity frames (cached; lets ABA solve the body's
    /// Newton–Euler equations directly).
    pub hinge_is_identity: bool,
    /// A Free leaf body on Ground with identity frames, positive mass and invertible central
    /// inertia: ABA solves its Newton–Euler equations in closed form (set when the model is
    /// built).
    pub(crate) rigid_free_on_ground: bool,
    /// The plane basis of the planar subtree this body belongs to, if it does (set when the
    /// model is built; see [`crate::tree::planar`]): ABA then runs on 3×3 inertias.
    pub plane: Option<PlaneBasis<T>>,
    /// A Pin turning about Ground's z at its body origin, at the end of a chain of such Pins
    /// from Ground whose frames keep z exactly (rotation entries 0 and 1 where z is kept):
    /// its angular velocity is `(0, 0, ω)` and its velocity has no z component, exactly, so
    /// kinematics drops the products with those zeros (set when the model is built; decided
    /// on real parts, like the other frame flags).
    pub planar_xy_pin: bool,
    /// The axes and functions of a `FunctionBased` mobilizer.
    pub spatial_transform: Option<Arc<SpatialTransform>>,
    /// The semi-axes of an `Ellipsoid` mobilizer's ellipsoid (m, in F).
    pub ellipsoid_radii: Option<Vector3<T>>,
    /// Inverse central inertia in the body frame (zero when singular; cached).
    pub inverse_inertia_com: nalgebra::Matrix3<T>,
    /// First index of this body's q in the state.
    pub q_start: usize,
    /// First index of this body's u in the state.
    pub u_start: usize,
}

impl<T: Real> Body<T> {
    /// A body from its definition and its offsets in q and u.
    pub(crate) fn new(def: BodyDef<T>, q_start: usize, u_start: usize) -> Self {
        let mut body = Body {
            name: def.name,
            parent: def.parent,
            mobilizer: def.mobilizer,
            x_pf: def.x_pf,
            x_bm: def.x_bm,
            x_mb: Transform::identity(),
            mass_properties: def.mass_properties,
            inertia_about_origin: nalgebra::Matrix3::zeros(),
            inertia_is_diagonal: false,
            spherical_about_origin: false,
            simbody_inertia_zz: T::zero(),
            x_pf_is_translation: false,
            x_bm_is_identity: false,
            hinge_is_identity: false,
            rigid_free_on_ground: false,
            plane: None,
            planar_xy_pin: false,
            spatial_transform: def.spatial_transform,
            ellipsoid_radii: def.ellipsoid_radii,
            inverse_inertia_com: nalgebra::Matrix3::zeros(),
            q_start,
            u_start,
        };
        body.refresh_cache();
        body
    }

    /// Sets the flags that need the whole tree: `rigid_free_on_ground` (needs to know leaves)
    /// and `plane` (needs whole subtrees).
    pub(crate) fn mark_tree_flags(bodies: &mut [Body<T>]) {
        Self::mark_rigid_free_bodies(bodies);
        super::planar::mark_planar_subtrees(bodies);
    }

    fn mark_rigid_free_bodies(bodies: &mut [Body<T>]) {
        let mut has_children = vec![false; bodies.len()];
        for b in &bodies[1..] {
            has_children[b.parent.0] = true;
        }
        for (b, children) in bodies.iter_mut().zip(has_children) {
            b.rigid_free_on_ground = b.hinge_is_identity
                && !children
                && b.mass_properties.mass.re() > 0.0
                && b.inverse_inertia_com.iter().any(|x| x.re() != 0.0);
        }
    }

    /// Recomputes the cached fields (after the frames or mass properties are set).
    pub(crate) fn refresh_cache(&mut self) {
        let id = nalgebra::Matrix3::identity();
        self.x_mb = self.x_bm.inverse();
        self.inertia_about_origin = self.mass_properties.inertia_about_origin();
        self.simbody_inertia_zz = simbody_inertia_zz(&self.mass_properties);
        let i = &self.inertia_about_origin;
        self.inertia_is_diagonal = (0..3).all(|r| (0..3).all(|c| r == c || i[(r, c)].re() == 0.0));
        self.spherical_about_origin = self.inertia_is_diagonal
            && i[(0, 0)].re() == i[(1, 1)].re()
            && i[(1, 1)].re() == i[(2, 2)].re()
            && self.mass_properties.com.iter().all(|x| x.re() == 0.0);
        self.x_pf_is_translation = self.x_pf.r == id;
        self.x_bm_is_identity = self.x_bm.r == id && self.x_bm.p == nalgebra::Vector3::zeros();
        let x_pf_is_identity = self.x_pf.r == id && self.x_pf.p == nalgebra::Vector3::zeros();
        self.inverse_inertia_com = self
            .mass_properties
            .inertia_com
            .cholesky()
            .map_or(nalgebra::Matrix3::zeros(), |c| c.inverse());
        self.hinge_is_identity = matches!(
            self.mobilizer,
            crate::mobilizer::Mobilizer::Free | crate::mobilizer::Mobilizer::FreeEuler
        ) && self.parent == crate::ids::BodyId::GROUND
            && x_pf_is_identity
            && self.x_bm_is_identity;
    }

    /// Number of generalized coordinates of this body's mobilizer.
    #[inline(always)]
    pub fn nq(&self) -> usize {
        self.mobilizer.nq()
    }

    /// Number of generalized speeds of this body's mobilizer.
    #[inline(always)]
    pub fn nu(&self) -> usize {
        self.mobilizer.nu()
    }

    /// Range of this body's q in the state vector.
    #[inline(always)]
    pub fn q_range(&self) -> std::ops::Range<usize> {
        self.q_start..self.q_start + self.nq()
    }

    /// Range of this body's u in the state vector.
    #[inline(always)]
    pub fn u_range(&self) -> std::ops::Range<usize> {
        self.u_start..self.u_start + self.nu()
    }

    /// Whether the hinge is a Pin whose M frame sits at the body origin, so its one column in
    /// Ground is `[z_F; 0]`: no linear part. Kinematics writes that column directly.
    #[inline(always)]
    pub fn hinge_is_pure_rotation_at_origin(&self) -> bool {
        self.mobilizer == crate::mobilizer::Mobilizer::Pin && self.x_bm_is_identity
    }
}

/// [`Body::simbody_inertia_zz`]: `pointMassAt(c, m)` adds `(m c_x) c_x + (m c_y) c_y` to the
/// central `I_zz`, `MassProperties` stores the unit inertia `I (1/m)` (zero for a massless
/// body) and `ArticulatedInertia` multiplies it by `m` again.
fn simbody_inertia_zz<T: Real>(mp: &crate::math::MassProperties<T>) -> T {
    let (m, c) = (mp.mass, &mp.com);
    if m.re() == 0.0 {
        return T::zero();
    }
    let point_mass_zz = m * c.x * c.x + m * c.y * c.y;
    m * ((mp.inertia_com[(2, 2)] + point_mass_zz) * (T::one() / m))
}
