//! Hertz contact with Hunt–Crossley dissipation between the surfaces of one contact set:
//! Simbody's `HuntCrossleyForce` (Hollars friction) and the `HertzCircular` generator of its
//! `CompliantContactSubsystem` (Stribeck friction). Notes §3.1 and §3.3.
//!
//! For a contact of depth x (m), normal n (surface 1 → surface 2) and effective radius R, with
//! the combined material of [`super::material`]:
//!
//! ```text
//! P   = location + x (½ − s1) n                    contact point
//! f_H = (4/3) k x √(R k x)                         Hertz force (N), k = E_eff^(2/3)
//! PE  = (2/5) f_H x                                potential energy (J)
//! v   = v₁(P) − v₂(P),  v_n = v·n,  v_t = v − v_n n   (v_n > 0 when approaching)
//! f   = f_H (1 + 1.5 c v_n)                        Hunt–Crossley normal force
//! F   = f n + μ(|v_t|) f v_t/|v_t|                 force on body 2; body 1 gets −F, both at P
//! ```
//!
//! A contact whose f ≤ 0 (separating faster than the dissipation allows) gets no force; its
//! potential energy still counts, as in Simbody. What happens to the contacts after it in the
//! set depends on the model, as in Simbody:
//!
//! * `hunt_crossley` ([`FrictionModel::Hollars`], Simbody's `HuntCrossleyForce`): Simbody's
//!   `HuntCrossleyForceImpl::calcForce` returns from its loop at the first such contact
//!   (`if (f <= 0) return;`), so the contacts after it in the same set get no force at all
//!   (notes §9.2, a defect kept for fidelity);
//! * `compliant` ([`FrictionModel::Stribeck`], Simbody's `CompliantContactSubsystem`): each
//!   contact is computed on its own (its `HertzCircular` generator returns for that contact
//!   only), so a separating contact is skipped and the others are still evaluated; half spaces
//!   and spheres are evaluated in the subsystem's own arithmetic (`contact/compliant_point.rs`),
//!   in its tracker's order (lower, then higher surface index).
//!
//! `hunt_crossley` meets its contacts in Simbody's `GeneralContactSubsystem` order (a
//! sweep-and-prune along the axis of largest spread, `geometry::general_contact_pairs`), which
//! decides where its early return falls.
//!
//! References: K. H. Hunt, F. R. E. Crossley, J. Appl. Mech. 42 (1975) 440; M. Hollars, Simbody documentation; M. A. Sherman, A. Seth,
//! S. L. Delp, "Simbody: multibody dynamics for biomedical research", Procedia IUTAM 2 (2011)
//! 241–261.

use super::compliant_point::{add_half_space_sphere, add_sphere_sphere};
pub use super::contact_evaluation::{ContactEvaluation, ContactScratch};
use super::friction::{hollars, stribeck, FrictionModel, SIGNIFICANT_REAL_SQUARED};
use super::material::{combine, CombinedMaterial, ContactMaterial};
use super::surface_pose::{surface_pose, SurfacePoseKind};
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::geometry::{
    candidate_pairs, general_contact_pairs, pair_contact, BroadPhase, ContactSurface, Shape,
    SmallSetPlan, UnsupportedPairs,
};
use crate::ids::BodyId;
use crate::math::spatial::shift_motion;
use crate::math::{linear, spatial, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// A contact set with its force law.
#[derive(Clone, Debug)]
pub struct HuntCrossleyForce<T: Real = f64> {
    /// Name for outputs (`contacts.csv`'s `element` column).
    pub name: String,
    /// The surfaces of the set; every pair of them on different bodies may touch.
    surfaces: Vec<ContactSurface<T>>,
    /// One material per surface.
    materials: Vec<ContactMaterial<T>>,
    /// Transition velocity of the friction curve (m/s), Simbody default 0.01.
    pub transition_velocity: T,
    /// Which friction curve.
    pub friction: FrictionModel,
    /// `E^(2/3)` per surface (cached).
    k: Vec<T>,
    /// The combined material of every ordered pair `(i, j)` at `i n + j`, for sets of at most
    /// [`PAIR_TABLE_MAX_SURFACES`] surfaces (empty for larger sets, which combine per contact):
    /// the four divisions of [`combine`] leave the force evaluation.
    pair_materials: Vec<CombinedMaterial<T>>,
    /// The structural candidate pairs of a small set (`None` for a large one, which runs the
    /// full broad phase at every evaluation).
    small_set: Option<SmallSetPlan>,
    /// How each surface's pose in Ground is formed (cached from the surfaces).
    pose_kinds: Vec<SurfacePoseKind>,
}

/// Largest set whose pair materials are tabulated (the table then holds at most 1024 entries).
pub const PAIR_TABLE_MAX_SURFACES: usize = 32;

impl<T: Real> HuntCrossleyForce<T> {
    /// A contact set; fails if the surfaces and materials differ in number, a material is
    /// invalid, a sphere radius is not positive, or the transition velocity is not positive.
    pub fn new(
        name: &str,
        surfaces: Vec<ContactSurface<T>>,
        materials: Vec<ContactMaterial<T>>,
        transition_velocity: T,
        friction: FrictionModel,
    ) -> Result<Self, ModelError> {
        if surfaces.len() != materials.len() {
            return Err(invalid!(
                "{} surfaces but {} materials",
                surfaces.len(),
                materials.len()
            ));
        }
        // The pairs without a contact routine, indexed once: O(n log n), not n²/2 tests.
        let unsupported = UnsupportedPairs::new(&surfaces);
        for (i, (s, m)) in surfaces.iter().zip(&materials).enumerate() {
            m.validate()
                .map_err(|e| invalid!("surface[{i}].material: {e}"))?;
            s.shape
                .validate()
                .map_err(|e| invalid!("surface[{i}].{e}"))?;
            if matches!(s.shape, Shape::Brick { .. }) && friction == FrictionModel::Hollars {
                return Err(invalid!(
                    "surface[{i}]: a brick belongs to a compliant contact set (Simbody's brick \
                     penalty force is part of CompliantContactSubsystem; its HuntCrossleyForce \
                     has no brick contact)"
                ));
            }
            if let Some(j) = unsupported.first_partner_after(i) {
                return Err(invalid!(
                    "surfaces {i} and {j}: no contact routine for {} against {} yet",
                    s.shape.name(),
                    surfaces[j].shape.name()
                ));
            }
        }
        let vt = transition_velocity.re();
        if !(vt.is_finite() && vt > 0.0) {
            return Err(invalid!(
                "transition_velocity: must be positive and finite, got {vt}"
            ));
        }
        let mut element = Self {
            name: name.to_string(),
            surfaces,
            materials,
            transition_velocity,
            friction,
            k: Vec::new(),
            pair_materials: Vec::new(),
            small_set: None,
            pose_kinds: Vec::new(),
        };
        element.small_set = SmallSetPlan::new(&element.surfaces).map(|plan| {
            // The compliant model applies its contacts in Simbody's tracker order.
            match friction {
                FrictionModel::Stribeck => plan.in_surface_order(),
                FrictionModel::Hollars => plan,
            }
        });
        element.pose_kinds = element.surfaces.iter().map(SurfacePoseKind::of).collect();
        element.refresh_material_caches();
        Ok(element)
    }

    /// The surfaces of the set.
    pub fn surfaces(&self) -> &[ContactSurface<T>] {
        &self.surfaces
    }

    /// The material of each surface.
    pub fn materials(&self) -> &[ContactMaterial<T>] {
        &self.materials
    }

    /// Replaces the material of surface `i` (validated; the cached stiffness powers and pair
    /// materials are recomputed).
    pub fn set_material(
        &mut self,
        i: usize,
        material: ContactMaterial<T>,
    ) -> Result<(), ModelError> {
        if i >= self.materials.len() {
            return Err(invalid!(
                "surface index {i} out of range: the set has {} surfaces",
                self.materials.len()
            ));
        }
        material
            .validate()
            .map_err(|e| invalid!("surface[{i}].material: {e}"))?;
        self.materials[i] = material;
        self.refresh_material_caches();
        Ok(())
    }

    /// Recomputes `k` and, for small sets, the pair table from the materials.
    fn refresh_material_caches(&mut self) {
        self.k = self
            .materials
            .iter()
            .map(|m| m.stiffness.powf_exact(2.0 / 3.0))
            .collect();
        let n = self.materials.len();
        self.pair_materials.clear();
        if n <= PAIR_TABLE_MAX_SURFACES {
            for a in 0..n {
                for b in 0..n {
                    self.pair_materials.push(self.combine_pair(a, b));
                }
            }
        }
    }

    /// The combined material of surfaces `a` (surface 1) and `b` (surface 2): from the table
    /// of a small set, else combined now.
    #[inline]
    pub(crate) fn pair_material(&self, a: usize, b: usize) -> CombinedMaterial<T> {
        match self.pair_materials.get(a * self.materials.len() + b) {
            Some(m) => *m,
            None => self.combine_pair(a, b),
        }
    }

    /// The combined material of surfaces `a` (surface 1) and `b` (surface 2), computed.
    #[inline]
    fn combine_pair(&self, a: usize, b: usize) -> CombinedMaterial<T> {
        combine(&self.materials[a], self.k[a], &self.materials[b], self.k[b])
    }

    /// Converts to another scalar type through `f64`.
    pub fn cast<U: Real>(&self) -> HuntCrossleyForce<U> {
        let surfaces = self
            .surfaces
            .iter()
            .map(|s| ContactSurface {
                body: s.body,
                x_bs: s.x_bs.cast(),
                shape: s.shape,
            })
            .collect();
        HuntCrossleyForce::new(
            &self.name,
            surfaces,
            self.materials.iter().map(|m| m.cast()).collect(),
            U::c(self.transition_velocity.re()),
            self.friction,
        )
        .expect("a valid element stays valid")
    }

    /// Checks that every surface's body exists.
    pub(crate) fn validate(&self, nbodies: usize) -> Result<(), ModelError> {
        for (i, s) in self.surfaces.iter().enumerate() {
            if s.body.0 >= nbodies {
                return Err(invalid!(
                    "surface[{i}]: body index {} does not exist",
                    s.body.0
                ));
            }
        }
        Ok(())
    }

    /// Poses of all surface frames in Ground.
    pub(crate) fn surface_poses(&self, ctx: &ForceContext<'_, T>, x_gs: &mut Vec<Transform<T>>) {
        x_gs.clear();
        x_gs.extend(
            self.surfaces
                .iter()
                .zip(&self.pose_kinds)
                .map(|(s, &kind)| surface_pose(ctx.x_gb(s.body), s, kind)),
        );
    }

    /// Evaluates the contact between surfaces `i` and `j`, or `None` if they do not overlap.
    #[inline(always)]
    pub fn evaluate(
        &self,
        ctx: &ForceContext<'_, T>,
        x_gs: &[Transform<T>],
        i: usize,
        j: usize,
    ) -> Option<ContactEvaluation<T>> {
        match pair_contact(
            &self.surfaces[i].shape,
            &x_gs[i],
            &self.surfaces[j].shape,
            &x_gs[j],
        ) {
            Some(point_contact) => Some(self.evaluate_point(ctx, (i, j), point_contact)),
            None => self.evaluate_brick_pair(ctx, x_gs, i, j),
        }
    }

    /// The contact of surfaces `i` and `j` when neither is a brick, from their point contact
    /// `(contact, swapped)` of [`pair_contact`]. (Inlined, and kept apart from the brick path:
    /// an evaluation returned through memory, or merged in memory with the brick path's, is
    /// read back right after being stored and stalls on store-to-load forwarding.)
    #[inline(always)]
    fn evaluate_point(
        &self,
        ctx: &ForceContext<'_, T>,
        (i, j): (usize, usize),
        (pc, swapped): (crate::geometry::PointContact<T>, bool),
    ) -> ContactEvaluation<T> {
        let (a, b) = if swapped { (j, i) } else { (i, j) };
        let (body1, body2) = (self.surfaces[a].body, self.surfaces[b].body);
        let m = self.pair_material(a, b);
        let (x, n) = (pc.depth, pc.normal);
        let half = T::c(0.5);
        let point = pc.location + n * (x * (half - m.s1));
        let f_hertz = hertz_force(m.k, pc.radius, x);
        let potential_energy = T::c(0.4) * f_hertz * x;
        let v = station_velocity(ctx, body1, &point) - station_velocity(ctx, body2, &point);
        let law = (self.transition_velocity, self.friction);
        let (f, friction_force, slip_speed) = contact_forces(f_hertz, &m, law, &n, &v);
        let mut eval = ContactEvaluation {
            surfaces: (a, b),
            bodies: (body1, body2),
            point,
            normal: n,
            depth: x,
            normal_force: T::zero(),
            friction_force: Vector3::zeros(),
            slip_speed,
            potential_energy,
            moment: Vector3::zeros(),
        };
        if f.re() <= 0.0 {
            return eval;
        }
        eval.normal_force = f;
        eval.friction_force = friction_force;
        eval
    }

    /// The contact of surfaces `i` and `j` that have no point contact: a brick against a
    /// half-space (bricks are tested only then, off the spheres' path), else `None`.
    fn evaluate_brick_pair(
        &self,
        ctx: &ForceContext<'_, T>,
        x_gs: &[Transform<T>],
        i: usize,
        j: usize,
    ) -> Option<ContactEvaluation<T>> {
        match (&self.surfaces[i].shape, &self.surfaces[j].shape) {
            (Shape::HalfSpace, Shape::Brick { half_lengths }) => {
                self.evaluate_brick(ctx, x_gs, (i, j), half_lengths)
            }
            (Shape::Brick { half_lengths }, Shape::HalfSpace) => {
                self.evaluate_brick(ctx, x_gs, (j, i), half_lengths)
            }
            _ => None,
        }
    }
}

/// The Hunt–Crossley law at one contact (Simbody's `HuntCrossleyForce`), from its Hertz force,
/// the normal `n` (from surface 2 toward surface 1) and the velocity `v` of surface 1's material
/// point relative to surface 2's there; `law` is the transition velocity (m/s) and friction
/// model:
///
/// ```text
/// v_n = v·n,  v_t = v − v_n n,  f = f_H (1 + 1.5 c v_n),  friction = μ(|v_t|) f v_t/|v_t|
/// ```
///
/// Returns `(f, friction, |v_t|)`; `f ≤ 0` means no force (friction zero). Shared by
/// [`HuntCrossleyForce::evaluate`] and the analytical derivatives' reduced path, so the two
/// cannot drift apart.
#[inline(always)]
pub(crate) fn contact_forces<T: Real>(
    f_hertz: T,
    m: &CombinedMaterial<T>,
    (vt, friction): (T, FrictionModel),
    n: &Vector3<T>,
    v: &Vector3<T>,
) -> (T, Vector3<T>, T) {
    let v_n = v.dot(n);
    let v_t = v - n * v_n;
    let f = f_hertz * (T::one() + T::c(1.5) * m.c * v_n);
    let slip2 = v_t.norm_squared();
    let slip_speed = slip2.sqrt();
    let has_slip = match friction {
        FrictionModel::Hollars => slip2.re() != 0.0,
        FrictionModel::Stribeck => slip2.re() > SIGNIFICANT_REAL_SQUARED,
    };
    if f.re() <= 0.0 || !has_slip {
        return (f, Vector3::zeros(), slip_speed);
    }
    let mu = match friction {
        FrictionModel::Hollars => hollars(slip_speed, vt, m.mu_s, m.mu_d, m.mu_v),
        FrictionModel::Stribeck => stribeck(slip_speed, vt, m.mu_s, m.mu_d, m.mu_v),
    };
    // Simbody's `ffriction*vtangent/vslip`: the product first, then the division.
    let ffriction = f * mu;
    (f, v_t.map(|x| ffriction * x / slip_speed), slip_speed)
}

/// The Hertz force `(4/3) k x √(R k x)` (N) for combined `k = E_eff^(2/3)`, effective radius `R`
/// (m) and penetration `x > 0` (m).
#[inline]
pub fn hertz_force<T: Real>(k: T, radius: T, x: T) -> T {
    T::c(4.0 / 3.0) * k * x * (radius * k * x).sqrt()
}

/// Adds a contact's force and moment to its two bodies (force on body 2 at the contact point,
/// its opposite on body 1) as Simbody's `MobilizedBody::applyForceToBodyPoint` does, the lever
/// arm through the body station (`ground_offset`); a contact without normal force adds
/// nothing.
#[inline(always)]
fn apply_contact<T: Real>(
    c: &ContactEvaluation<T>,
    x_gb: &[Transform<T>],
    body_forces: &mut [crate::math::SpatialVec<T>],
) {
    if c.normal_force.re() > 0.0 {
        let f = c.force_on_body2();
        let m = c.moment;
        for (body, f, m) in [(c.bodies.1, f, m), (c.bodies.0, -f, -m)] {
            let r = ground_offset(body, &x_gb[body.0], &c.point);
            body_forces[body.0] += spatial(r.cross(&f) + m, f);
        }
    }
}

/// The offset from `x_gb`'s origin to Ground point `p`, through the body station as Simbody
/// forms it: `s = ~R (p − o)` (`findStationAtGroundPoint`), then `R s`
/// (`expressVectorInGroundFrame`), each a left-to-right sum.
#[inline(always)]
fn ground_offset<T: Real>(body: BodyId, x_gb: &Transform<T>, p: &Vector3<T>) -> Vector3<T> {
    if body == BodyId::GROUND {
        // Ground's pose is the identity: the same numbers without the products.
        return *p;
    }
    let (r, d) = (&x_gb.r, p - x_gb.p);
    let s: [T; 3] = std::array::from_fn(|k| r[(0, k)] * d.x + r[(1, k)] * d.y + r[(2, k)] * d.z);
    Vector3::from_fn(|i, _| r[(i, 0)] * s[0] + r[(i, 1)] * s[1] + r[(i, 2)] * s[2])
}

/// Velocity in Ground of the material point of `body` at Ground point `p`, as Simbody's
/// `findStationVelocityInGround` of the station there: `v + ω × (R s)`.
#[inline(always)]
fn station_velocity<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    p: &Vector3<T>,
) -> Vector3<T> {
    if body == BodyId::GROUND {
        return Vector3::zeros();
    }
    let v = ctx.v_gb(body);
    let (w, v) = (
        Vector3::new(v[0], v[1], v[2]),
        Vector3::new(v[3], v[4], v[5]),
    );
    v + w.cross(&ground_offset(body, ctx.x_gb(body), p))
}

/// Velocity in Ground of the material point of `body` at Ground point `p`.
#[inline]
pub(super) fn point_velocity<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    p: &Vector3<T>,
) -> Vector3<T> {
    linear(&shift_motion(ctx.v_gb(body), &(p - ctx.x_gb(body).p)))
}

impl<T: Real> ForceElement<T> for HuntCrossleyForce<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        // The buffers and the body forces are disjoint fields of `out`: borrowed side by side.
        let scratch = &mut *out.contact_scratch;
        let (x_gb, body_forces) = (out.x_gb, &mut *out.body_forces);
        self.surface_poses(ctx, &mut scratch.x_gs);
        let x_gs = &scratch.x_gs;
        // Simbody's `HuntCrossleyForceImpl::calcForce` returns at the first point contact whose
        // normal force is not positive: the contacts after it add nothing. Its
        // `CompliantContactSubsystem` computes every contact on its own (module docs).
        let stops_at_pulling_contact = self.friction == FrictionModel::Hollars;
        let mut stopped = false;
        let mut apply = |i: usize, j: usize| {
            if stopped {
                return;
            }
            let (si, sj) = (&self.surfaces[i], &self.surfaces[j]);
            if !stops_at_pulling_contact {
                // The compliant model's half spaces and spheres, in Simbody's CCS arithmetic.
                let pair = match (&si.shape, &sj.shape) {
                    (Shape::HalfSpace, &Shape::Sphere { radius }) => Some((i, j, radius)),
                    (&Shape::Sphere { radius }, Shape::HalfSpace) => Some((j, i, radius)),
                    _ => None,
                };
                if let (&Shape::Sphere { radius: ri }, &Shape::Sphere { radius: rj }) =
                    (&si.shape, &sj.shape)
                {
                    // Surface 1 is the one listed first, as in Simbody's tracker.
                    let ((a, ra), (b, rb)) = if i < j {
                        ((i, ri), (j, rj))
                    } else {
                        ((j, rj), (i, ri))
                    };
                    let (sa, sb) = (&self.surfaces[a], &self.surfaces[b]);
                    add_sphere_sphere(
                        ctx,
                        &self.pair_material(a, b),
                        self.transition_velocity,
                        (sa.body, sb.body),
                        (&x_gs[a], &sa.x_bs, T::c(ra)),
                        (&x_gs[b], &sb.x_bs, T::c(rb)),
                        body_forces,
                    );
                    return;
                }
                if let Some((h, s, radius)) = pair {
                    let (sh, ss) = (&self.surfaces[h], &self.surfaces[s]);
                    add_half_space_sphere(
                        ctx,
                        &self.pair_material(h, s),
                        self.transition_velocity,
                        (sh.body, ss.body),
                        (&x_gs[h], &sh.x_bs),
                        (&x_gs[s], &ss.x_bs),
                        T::c(radius),
                        body_forces,
                    );
                    return;
                }
            }
            // Each path applies its own evaluation: merged, the point contact's would go
            // through memory (see `evaluate_point`).
            match pair_contact(&si.shape, &x_gs[i], &sj.shape, &x_gs[j]) {
                Some(point_contact) => {
                    let c = self.evaluate_point(ctx, (i, j), point_contact);
                    stopped = stops_at_pulling_contact && c.normal_force.re() <= 0.0;
                    apply_contact(&c, x_gb, body_forces);
                }
                None => {
                    if let Some(c) = self.evaluate_brick_pair(ctx, x_gs, i, j) {
                        apply_contact(&c, x_gb, body_forces);
                    }
                }
            }
        };
        // HuntCrossleyForce meets its contacts in GeneralContactSubsystem's order, which
        // decides where it stops; a set of one structural pair (a ball on a floor, an egg on a
        // ball) has no order to keep and takes its plan.
        let general_order =
            stops_at_pulling_contact && self.small_set.as_ref().is_none_or(|plan| plan.len() > 1);
        match &self.small_set {
            _ if general_order => {
                general_contact_pairs(&self.surfaces, x_gs, &mut scratch.broad);
                for &(i, j) in &scratch.broad.pairs {
                    apply(i as usize, j as usize);
                }
            }
            Some(plan) => plan.for_each_candidate(x_gs, apply),
            None => {
                candidate_pairs(&self.surfaces, x_gs, &mut scratch.broad);
                if !stops_at_pulling_contact {
                    // Simbody's tracker order (`SmallSetPlan::in_surface_order`).
                    scratch.broad.pairs.sort_unstable();
                }
                for &(i, j) in &scratch.broad.pairs {
                    apply(i as usize, j as usize);
                }
            }
        }
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let mut x_gs = Vec::new();
        let mut broad = BroadPhase::default();
        self.surface_poses(ctx, &mut x_gs);
        candidate_pairs(&self.surfaces, &x_gs, &mut broad);
        broad
            .pairs
            .iter()
            .filter_map(|&(i, j)| self.evaluate(ctx, &x_gs, i as usize, j as usize))
            .fold(T::zero(), |pe, c| pe + c.potential_energy)
    }
}
