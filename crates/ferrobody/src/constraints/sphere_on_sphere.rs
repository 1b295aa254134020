//! Constraint::SphereOnSphereContact (seed; notes §5.4; Simbody
//! `Constraint_SphereOnSphereContactImpl.h`): sphere `(Sf, rf)` on body F touching sphere
//! `(Sb, rb)` on body B, optionally rolling without slip.
//!
//! ```text
//! p = Sb − Sf,  r = |p|,  Cz = p/r  (F's z axis if r < TinyReal)
//! perr  = r − (rf + rb)
//! verr  = ṗ·Cz,          aerr = p̈·Cz + ṗ·Ċz,   Ċz = (ṗ − (ṗ·Cz) Cz)/r
//! Co    = Sf + kf p,  kf = rf/(rf + rb);   Cx, Cy from Rotation(Cz, ZAxis) (notes §0)
//! rolling rows:  verr_x,y = v_rel·Cx,y,   v_rel = v_B@Co − v_F@Co
//!                aerr_x,y = a_rel·Cx,y + v_rel·Ċx,y
//! a_rel = (a_B@Co − a_F@Co) + ω_B × (Ċo − v_B@Co) − ω_F × (Ċo − v_F@Co),  Ċo = v_Sf + kf ṗ
//! Ċx = −Cz (Ċz_F·Cx) + ω_F × Cx,  Ċy = −Cz (Ċz_F·Cy) + ω_F × Cy,  Ċz_F = Ċz − ω_F × Cz
//! ```
//!
//! `a_rel` is the exact derivative of `v_rel` with the contact point moving; `Ċx, Ċy` assume
//! the contact frame does not spin about Cz relative to F, as Simbody does. The normal row's λ
//! acts as the force λ Cz on B at Sb and −λ Cz on F at Sf; the tangential λx Cx + λy Cy acts
//! on B's and F's material points at Co. The physical force on B is the negative:
//! `findForceOnSphereBInG = −(λx Cx + λy Cy + λz Cz)`. Rows are ordered [normal, x, y];
//! the Simbody-style getters return vectors ordered (x, y, z).

use super::station::{frame_from_z_axis, motion, BodyMotion};
use super::ConstraintId;
use crate::data::Data;
use crate::ids::{BodyId, DiscreteVarId};
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use crate::state::State;
use crate::tree::Tree;
use nalgebra::{Matrix3, Vector3};

/// Sphere-on-sphere contact constraint. Centres and radii live in the state (a Position-stage
/// discrete variable, `[Sf (3), rf, Sb (3), rb]`) with the defaults given here.
#[derive(Clone, Debug, PartialEq)]
pub struct SphereOnSphereContact<T: Real = f64> {
    /// Body F (treated as fixed when orienting the contact).
    pub body_f: BodyId,
    /// Default centre `p_FSf` of F's sphere, in F (m).
    pub default_center_on_f: Vector3<T>,
    /// Default radius rf (m).
    pub default_radius_on_f: T,
    /// Body B.
    pub body_b: BodyId,
    /// Default centre `p_BSb` of B's sphere, in B (m).
    pub default_center_on_b: Vector3<T>,
    /// Default radius rb (m).
    pub default_radius_on_b: T,
    /// Whether the two no-slip rows are generated (`isEnforcingRolling`).
    pub enforce_rolling: bool,
    /// The discrete variable holding the per-state parameters (set when the model is built).
    pub(crate) parameters: DiscreteVarId,
    /// This constraint's index in the model (set when it is added).
    pub(crate) index: ConstraintId,
}

/// The geometry of one pose: sphere centres, the normal and the contact frame.
pub(crate) struct Geometry<T: Real> {
    sf: Vector3<T>,
    p: Vector3<T>,
    r: T,
    kf: T,
    /// Contact frame in Ground, columns (Cx, Cy, Cz), origin Co.
    pub(crate) frame: Transform<T>,
}

impl<T: Real> SphereOnSphereContact<T> {
    /// A constraint with the given defaults (Simbody's constructor).
    pub fn new(
        body_f: BodyId,
        center_on_f: Vector3<T>,
        radius_on_f: T,
        body_b: BodyId,
        center_on_b: Vector3<T>,
        radius_on_b: T,
        enforce_rolling: bool,
    ) -> Self {
        Self {
            body_f,
            default_center_on_f: center_on_f,
            default_radius_on_f: radius_on_f,
            body_b,
            default_center_on_b: center_on_b,
            default_radius_on_b: radius_on_b,
            enforce_rolling,
            parameters: DiscreteVarId(usize::MAX),
            index: ConstraintId(usize::MAX),
        }
    }

    pub(crate) fn default_parameters(&self) -> [T; 8] {
        let (f, b) = (&self.default_center_on_f, &self.default_center_on_b);
        [
            f.x,
            f.y,
            f.z,
            self.default_radius_on_f,
            b.x,
            b.y,
            b.z,
            self.default_radius_on_b,
        ]
    }

    /// Centre of F's sphere in this state, `p_FSf` (`getCenterOnF`).
    pub fn center_on_f(&self, model: &Tree<T>, state: &State<T>) -> Vector3<T> {
        let p = state.discrete(model, self.parameters);
        Vector3::new(p[0], p[1], p[2])
    }

    /// Radius of F's sphere in this state (`getRadiusOnF`).
    pub fn radius_on_f(&self, model: &Tree<T>, state: &State<T>) -> T {
        state.discrete(model, self.parameters)[3]
    }

    /// Centre of B's sphere in this state, `p_BSb` (`getCenterOnB`).
    pub fn center_on_b(&self, model: &Tree<T>, state: &State<T>) -> Vector3<T> {
        let p = state.discrete(model, self.parameters);
        Vector3::new(p[4], p[5], p[6])
    }

    /// Radius of B's sphere in this state (`getRadiusOnB`).
    pub fn radius_on_b(&self, model: &Tree<T>, state: &State<T>) -> T {
        state.discrete(model, self.parameters)[7]
    }

    /// Sets F's sphere centre in this state (`setCenterOnF`).
    pub fn set_center_on_f(&self, model: &Tree<T>, state: &mut State<T>, c: &Vector3<T>) {
        state.discrete_mut(model, self.parameters)[0..3].copy_from_slice(c.as_slice());
    }

    /// Sets F's sphere radius in this state (`setRadiusOnF`).
    pub fn set_radius_on_f(&self, model: &Tree<T>, state: &mut State<T>, r: T) {
        state.discrete_mut(model, self.parameters)[3] = r;
    }

    /// Sets B's sphere centre in this state (`setCenterOnB`).
    pub fn set_center_on_b(&self, model: &Tree<T>, state: &mut State<T>, c: &Vector3<T>) {
        state.discrete_mut(model, self.parameters)[4..7].copy_from_slice(c.as_slice());
    }

    /// Sets B's sphere radius in this state (`setRadiusOnB`).
    pub fn set_radius_on_b(&self, model: &Tree<T>, state: &mut State<T>, r: T) {
        state.discrete_mut(model, self.parameters)[7] = r;
    }

    pub(crate) fn geometry(&self, k: &BodyMotion<T>, par: &[T]) -> Geometry<T> {
        let sf = k.point(self.body_f.0, &Vector3::new(par[0], par[1], par[2]));
        let sb = k.point(self.body_b.0, &Vector3::new(par[4], par[5], par[6]));
        let (rf, rb) = (par[3], par[7]);
        let p = sb - sf;
        let r = p.norm();
        let cz = if r.re() < super::TINY_REAL {
            k.x_gb[self.body_f.0].r.column(2).into_owned()
        } else {
            p / r
        };
        let (cx, cy) = frame_from_z_axis(&cz);
        let kf = rf / (rf + rb);
        Geometry {
            sf,
            p,
            r,
            kf,
            frame: Transform {
                r: Matrix3::from_columns(&[cx, cy, cz]),
                p: sf + p * kf,
            },
        }
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        let g = self.geometry(k, par);
        out[0] = g.r - (par[3] + par[7]);
    }

    /// `ṗ` and `v_rel` of one pose.
    fn velocities(&self, k: &BodyMotion<T>, g: &Geometry<T>) -> (Vector3<T>, Vector3<T>) {
        let (f, b) = (self.body_f.0, self.body_b.0);
        let pdot = k.velocity_at(b, &(g.sf + g.p)) - k.velocity_at(f, &g.sf);
        let co = g.frame.p;
        (pdot, k.velocity_at(b, &co) - k.velocity_at(f, &co))
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        let g = self.geometry(k, par);
        let (pdot, v_rel) = self.velocities(k, &g);
        let c = &g.frame.r;
        out[0] = pdot.dot(&c.column(2));
        if self.enforce_rolling {
            out[1] = v_rel.dot(&c.column(0));
            out[2] = v_rel.dot(&c.column(1));
        }
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, par: &[T], out: &mut [T]) {
        let g = self.geometry(k, par);
        let (f, b) = (self.body_f.0, self.body_b.0);
        let (pdot, v_rel) = self.velocities(k, &g);
        let (cx, cy, cz) = (
            g.frame.r.column(0),
            g.frame.r.column(1),
            g.frame.r.column(2),
        );
        let sb = g.sf + g.p;
        let pddot = k.acceleration_at(b, &sb) - k.acceleration_at(f, &g.sf);
        let w_f = k.omega(f);
        let czdot = if g.r.re() < super::TINY_REAL {
            w_f.cross(&cz)
        } else {
            (pdot - cz * pdot.dot(&cz)) / g.r
        };
        out[0] = pddot.dot(&cz) + pdot.dot(&czdot);
        if !self.enforce_rolling {
            return;
        }
        let co = g.frame.p;
        let co_dot = k.velocity_at(f, &g.sf) + pdot * g.kf;
        let (v_b, v_f) = (k.velocity_at(b, &co), k.velocity_at(f, &co));
        let a_rel = (k.acceleration_at(b, &co) - k.acceleration_at(f, &co))
            + k.omega(b).cross(&(co_dot - v_b))
            - w_f.cross(&(co_dot - v_f));
        let czdot_f = czdot - w_f.cross(&cz);
        let cxdot = -cz * czdot_f.dot(&cx) + w_f.cross(&cx);
        let cydot = -cz * czdot_f.dot(&cy) + w_f.cross(&cy);
        out[1] = a_rel.dot(&cx) + v_rel.dot(&cxdot);
        out[2] = a_rel.dot(&cy) + v_rel.dot(&cydot);
    }

    pub(crate) fn add_forces(
        &self,
        k: &BodyMotion<T>,
        par: &[T],
        lambda: &[T],
        f: &mut [SpatialVec<T>],
    ) {
        let g = self.geometry(k, par);
        let (bf, bb) = (self.body_f.0, self.body_b.0);
        let normal = g.frame.r.column(2) * lambda[0];
        k.add_force_at(f, bb, &(g.sf + g.p), &normal);
        k.add_force_at(f, bf, &g.sf, &-normal);
        if self.enforce_rolling {
            let t = g.frame.r.column(0) * lambda[1] + g.frame.r.column(1) * lambda[2];
            k.add_force_at(f, bb, &g.frame.p, &t);
            k.add_force_at(f, bf, &g.frame.p, &-t);
        }
    }
}

/// Simbody's computations on a realized state. Vectors over the rows are returned in Simbody's
/// (x, y, z) order: tangential x, tangential y, normal.
impl<T: Real> SphereOnSphereContact<T> {
    pub(crate) fn xyz(&self, v: &[T]) -> Vector3<T> {
        if self.enforce_rolling {
            Vector3::new(v[1], v[2], v[0])
        } else {
            Vector3::new(T::zero(), T::zero(), v[0])
        }
    }

    /// `findContactFrameInG`: origin Co, z from F's centre toward B's (Position stage).
    pub fn find_contact_frame_in_g(
        &self,
        model: &Tree<T>,
        state: &State<T>,
        data: &Data<T>,
    ) -> Transform<T> {
        self.geometry(&motion(state, data), state.discrete(model, self.parameters))
            .frame
    }

    /// `findSeparation`: `|p_SfSb| − (rf + rb)` (m; negative when penetrating).
    pub fn find_separation(&self, model: &Tree<T>, state: &State<T>, data: &Data<T>) -> T {
        let par = state.discrete(model, self.parameters);
        self.geometry(&motion(state, data), par).r - (par[3] + par[7])
    }
}
