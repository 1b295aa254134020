//! Simbody's `ElasticFoundationForce` (the one OpenSim's `ElasticFoundationForce` builds, on
//! Simbody's `GeneralContactSubsystem`): a bed of independent springs, one at the vertex
//! average of each face of a triangle mesh, pressed by a half space or a sphere. Notes §3.4.
//!
//! For each spring inside the other surface, at point s (Ground) with nearest point Q on the
//! other surface, face area A and the mesh's parameters (k: N/m³, c: s/m, μs, μd, μv: s/m):
//!
//! ```text
//! d   = Q − s,  x = |d|,  û = d / x            (a spring with x = 0 is skipped)
//! v   = v_other(Q) − v_mesh(Q),  v_n = v·û,  v_t = v − v_n û
//! f   = k A x (1 + c v_n)
//! F   = f û + f (min(v_r,1)(μd + 2(μs−μd)/(1+v_r²)) + μv |v_t|) v_t/|v_t|,   v_r = |v_t|/v_trans
//!       (F = 0 when f ≤ 0; no friction when |v_t| = 0)
//! mesh body: +F at Q;  other body: −F at Q;  PE += k A x²/2 (also when f ≤ 0)
//! ```
//!
//! Only the mesh's own parameters are used (no combination with the other surface's). Two
//! meshes press each other's springs: each mesh's springs inside the other mesh act, each with
//! half its face area (Simbody's `areaScale`), so two alike meshes share the load. The
//! transition velocity defaults to 0.01 m/s.
//! References: Simbody `Simbody/src/ElasticFoundationForce.cpp`; M. A. Sherman, A. Seth,
//! S. L. Delp, Procedia IUTAM 2 (2011) 241–261; K. L. Johnson, *Contact Mechanics* (1985) §5.9.

use super::friction::hollars;
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::geometry::{
    springs_between_meshes, springs_in_half_space, springs_in_sphere, FoundationSpring, Shape,
    TriangleMesh,
};
use crate::ids::BodyId;
use crate::math::small::mul3v;
use crate::math::spatial::shift_motion;
use crate::math::{linear, spatial, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;
use std::sync::Arc;

/// The parameters of a mesh's springs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FoundationParameters<T: Real = f64> {
    /// Spring stiffness per unit area (N/m³).
    pub stiffness: T,
    /// Hunt–Crossley dissipation (s/m).
    pub dissipation: T,
    /// Static friction coefficient.
    pub static_friction: T,
    /// Dynamic friction coefficient (≤ static).
    pub dynamic_friction: T,
    /// Viscous friction coefficient (s/m).
    pub viscous_friction: T,
}

impl<T: Real> FoundationParameters<T> {
    fn validate(&self) -> Result<(), ModelError> {
        let named = [
            ("stiffness", self.stiffness),
            ("dissipation", self.dissipation),
            ("static_friction", self.static_friction),
            ("dynamic_friction", self.dynamic_friction),
            ("viscous_friction", self.viscous_friction),
        ];
        super::checks::all_non_negative(&named)
    }

    fn cast<U: Real>(&self) -> FoundationParameters<U> {
        FoundationParameters {
            stiffness: U::c(self.stiffness.re()),
            dissipation: U::c(self.dissipation.re()),
            static_friction: U::c(self.static_friction.re()),
            dynamic_friction: U::c(self.dynamic_friction.re()),
            viscous_friction: U::c(self.viscous_friction.re()),
        }
    }
}

/// The shape of a surface of an elastic-foundation set.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FoundationShape<T: Real = f64> {
    /// A mesh with its springs' parameters.
    Mesh(Arc<TriangleMesh>, FoundationParameters<T>),
    /// A half space or a sphere the meshes press on.
    Solid(Shape),
}

/// A surface of the set: its body, its frame in the body, its shape.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundationSurface<T: Real = f64> {
    /// The body carrying the surface.
    pub body: BodyId,
    /// Pose of the shape frame in the body frame.
    pub x_bs: Transform<T>,
    /// The shape.
    pub shape: FoundationShape<T>,
}

/// An elastic-foundation contact set.
#[derive(Clone, Debug)]
pub struct ElasticFoundationForce<T: Real = f64> {
    /// Name for outputs.
    pub name: String,
    surfaces: Vec<FoundationSurface<T>>,
    /// Transition velocity of the friction curve (m/s).
    pub transition_velocity: T,
    /// (mesh, other) surface pairs on different bodies, in set order; two meshes i < j give
    /// (i, j) and right after it (j, i).
    pub(super) pairs: Vec<(usize, usize)>,
}

/// One spring's force on the mesh at Q, its normal and friction parts, slip, energy.
pub(super) struct SpringForce<T: Real> {
    pub(super) point: Vector3<T>,
    pub(super) normal: Vector3<T>,
    pub(super) f: T,
    pub(super) friction: Vector3<T>,
    pub(super) slip: T,
    pub(super) depth: T,
    pub(super) energy: T,
}

impl<T: Real> ElasticFoundationForce<T> {
    /// A set; fails for a mesh without positive finite parameters, a solid shape other than a
    /// half space or a sphere, or a transition velocity that is not positive.
    pub fn new(
        name: &str,
        surfaces: Vec<FoundationSurface<T>>,
        transition_velocity: T,
    ) -> Result<Self, ModelError> {
        let vt = transition_velocity.re();
        if !(vt.is_finite() && vt > 0.0) {
            return Err(invalid!(
                "transition_velocity: must be positive and finite, got {vt}"
            ));
        }
        // A solid meets only the meshes after it; a mesh, every surface after it: O(meshes · n)
        // work, not n²/2 tests, and the pairs in the same order.
        let meshes: Vec<usize> = (0..surfaces.len())
            .filter(|&j| matches!(surfaces[j].shape, FoundationShape::Mesh(..)))
            .collect();
        let mut pairs = Vec::new();
        for (i, s) in surfaces.iter().enumerate() {
            match &s.shape {
                FoundationShape::Mesh(_, p) => p.validate().map_err(|e| invalid!("surface[{i}].{e}"))?,
                FoundationShape::Solid(Shape::Ellipsoid { .. } | Shape::Brick { .. }) => {
                    return Err(invalid!(
                        "surface[{i}]: an elastic foundation presses meshes on half spaces and spheres, not ellipsoids or bricks"
                    ))
                }
                FoundationShape::Solid(shape) => shape.validate().map_err(|e| invalid!("surface[{i}].{e}"))?,
            }
            // One of the two is empty: every later surface (a mesh), or the later meshes.
            let n = surfaces.len();
            let (later_all, later_meshes) = match s.shape {
                FoundationShape::Mesh(..) => (i + 1..n, &meshes[..0]),
                FoundationShape::Solid(_) => (n..n, &meshes[meshes.partition_point(|&j| j <= i)..]),
            };
            for j in later_all.chain(later_meshes.iter().copied()) {
                let t = &surfaces[j];
                if s.body == t.body {
                    continue;
                }
                match (&s.shape, &t.shape) {
                    (FoundationShape::Mesh(..), FoundationShape::Mesh(..)) => {
                        pairs.extend([(i, j), (j, i)])
                    }
                    (FoundationShape::Mesh(..), FoundationShape::Solid(_)) => pairs.push((i, j)),
                    (FoundationShape::Solid(_), FoundationShape::Mesh(..)) => pairs.push((j, i)),
                    _ => {}
                }
            }
        }
        Ok(Self {
            name: name.to_string(),
            surfaces,
            transition_velocity,
            pairs,
        })
    }

    /// The surfaces of the set.
    pub fn surfaces(&self) -> &[FoundationSurface<T>] {
        &self.surfaces
    }

    /// Converts to another scalar type through `f64`.
    pub fn cast<U: Real>(&self) -> ElasticFoundationForce<U> {
        let surfaces = self
            .surfaces
            .iter()
            .map(|s| FoundationSurface {
                body: s.body,
                x_bs: s.x_bs.cast(),
                shape: match &s.shape {
                    FoundationShape::Mesh(m, p) => FoundationShape::Mesh(m.clone(), p.cast()),
                    FoundationShape::Solid(shape) => FoundationShape::Solid(*shape),
                },
            })
            .collect();
        ElasticFoundationForce::new(&self.name, surfaces, U::c(self.transition_velocity.re()))
            .expect("a valid element stays valid")
    }

    /// Checks that every surface's body exists.
    pub(crate) fn validate(&self, nbodies: usize) -> Result<(), ModelError> {
        match self.surfaces.iter().position(|s| s.body.0 >= nbodies) {
            Some(i) => Err(invalid!(
                "surface[{i}]: body index {} does not exist",
                self.surfaces[i].body.0
            )),
            None => Ok(()),
        }
    }

    /// Calls `f` with each spring force of every (mesh, other) pair: the pair's index in the
    /// set order and the force.
    pub(super) fn for_each_spring(
        &self,
        ctx: &ForceContext<'_, T>,
        mut f: impl FnMut(usize, SpringForce<T>),
    ) {
        for (k, &(m, o)) in self.pairs.iter().enumerate() {
            let (mesh_s, other_s) = (&self.surfaces[m], &self.surfaces[o]);
            let FoundationShape::Mesh(mesh, p) = &mesh_s.shape else {
                continue;
            };
            let x_gm = ctx.x_gb(mesh_s.body) * &mesh_s.x_bs;
            let x_go = ctx.x_gb(other_s.body) * &other_s.x_bs;
            let this_side = (k, (&**mesh, p, T::one()), (mesh_s.body, other_s.body));
            let mut emit = |(k, params, bodies), s| {
                if let Some(force) = self.spring_force(ctx, params, bodies, s) {
                    f(k, force);
                }
            };
            match &other_s.shape {
                FoundationShape::Solid(Shape::HalfSpace) => {
                    springs_in_half_space(mesh, &x_gm, &x_go, |s| emit(this_side, s))
                }
                FoundationShape::Solid(Shape::Sphere { radius }) => {
                    springs_in_sphere(mesh, &x_gm, &x_go.p, T::c(*radius), |s| emit(this_side, s))
                }
                // The pair (m, o), m < o, does both meshes' springs, each with half its areas;
                // (o, m) comes next in `pairs` and has nothing left to do.
                FoundationShape::Mesh(other, q) if m < o => {
                    let half = T::c(0.5);
                    let first = (k, (&**mesh, p, half), (mesh_s.body, other_s.body));
                    let second = (k + 1, (&**other, q, half), (other_s.body, mesh_s.body));
                    springs_between_meshes((mesh, &x_gm), (other, &x_go), |of_second, s| {
                        emit(if of_second { second } else { first }, s)
                    })
                }
                _ => {}
            }
        }
    }

    /// The force of one spring on the mesh (module docs), or `None` at zero displacement.
    /// Inlined: returned through memory, the force was read back across the stores that
    /// wrote it and stalled.
    #[inline(always)]
    fn spring_force(
        &self,
        ctx: &ForceContext<'_, T>,
        (mesh, p, area_scale): (&TriangleMesh, &FoundationParameters<T>, T),
        (mesh_body, other_body): (BodyId, BodyId),
        s: FoundationSpring<T>,
    ) -> Option<SpringForce<T>> {
        let d = s.nearest - s.spring;
        let x = d.norm();
        if x.re() == 0.0 {
            return None;
        }
        let u = d / x;
        let v = station_velocity(ctx, other_body, &s.nearest)
            - station_velocity(ctx, mesh_body, &s.nearest);
        let v_n = v.dot(&u);
        let v_t = v - u * v_n;
        let area = area_scale * T::c(mesh.areas()[s.face]);
        let f = p.stiffness * area * x * (T::one() + p.dissipation * v_n);
        let slip = v_t.norm();
        let mut friction = Vector3::zeros();
        if f.re() > 0.0 && slip.re() != 0.0 {
            let mu = hollars(
                slip,
                self.transition_velocity,
                p.static_friction,
                p.dynamic_friction,
                p.viscous_friction,
            );
            friction = v_t * (f * mu) / slip;
        }
        Some(SpringForce {
            point: s.nearest,
            normal: u,
            f: if f.re() > 0.0 { f } else { T::zero() },
            friction,
            slip,
            depth: x,
            energy: p.stiffness * area * x * x * T::c(0.5),
        })
    }
}

/// The arm from `body`'s origin to Ground point `p` as Simbody forms it: through the body
/// station, `R_GB (R_GBᵀ (p − p_GB))` (`findStationAtGroundPoint`, then re-expressed). The
/// detour changes only the last bits, but the elastic foundation's trajectories are sensitive
/// to them (docs/models/elastic-foundation.md).
#[inline]
fn station_arm<T: Real>(ctx: &ForceContext<'_, T>, body: BodyId, p: &Vector3<T>) -> Vector3<T> {
    let x = ctx.x_gb(body);
    mul3v(&x.r, &x.r.tr_mul(&(p - x.p)))
}

/// Velocity in Ground of the material point of `body` at Ground point `p`.
#[inline]
fn station_velocity<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    p: &Vector3<T>,
) -> Vector3<T> {
    linear(&shift_motion(ctx.v_gb(body), &station_arm(ctx, body, p)))
}

impl<T: Real> ForceElement<T> for ElasticFoundationForce<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let body_forces = &mut *out.body_forces;
        self.for_each_spring(ctx, |k, s| {
            if s.f.re() <= 0.0 {
                return;
            }
            let (m, o) = self.pairs[k];
            let force = s.normal * s.f + s.friction;
            for (body, f) in [
                (self.surfaces[m].body, force),
                (self.surfaces[o].body, -force),
            ] {
                let r = station_arm(ctx, body, &s.point);
                body_forces[body.0] += spatial(r.cross(&f), f);
            }
        });
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let mut pe = T::zero();
        self.for_each_spring(ctx, |_, s| pe += s.energy);
        pe
    }
}
