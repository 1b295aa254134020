//! A half space against a sphere in Simbody's `CompliantContactSubsystem` arithmetic (the
//! `compliant` model): the contact is formed and its force computed in the half space's frame
//! H, then re-expressed in Ground, as Simbody 3.7 does (`ContactTracker::HalfSpaceSphere::
//! trackContact`, `CompliantContactSubsystemImpl::ensureForceCacheValid`,
//! `calcHertzContactForce`, `ContactForce::changeFrameInPlace`, `realizeSubsystemDynamicsImpl`).
//! The equations are those of [`super::hunt_crossley`]; only the order of the operations, and so
//! the rounding, differs from `HuntCrossleyForce`'s, which works in Ground:
//!
//! ```text
//! p_HC = R_GHᵀ (p_GS − p_GH),  x = p_HC,x + r,  origin = (x/2, p_HC,y, p_HC,z),  n = (−1, 0, 0)
//! V_HS = R_GHᵀ [ω_S − ω_H;  (v_S − v_H) − ω_H × (p_GS − p_GH)]          (findRelativeVelocity)
//! P = origin + (x (½ − s1)) n,  v = v_HS + ω_HS × (P − p_HC),  ẋ = −v·n,  v_t = v + ẋ n
//! f_H = (4/3) k x √(R k x),  f_HC = ((f_H 1.5) c) ẋ,  f = f_H + f_HC          (f ≤ 0: no force)
//! F = f_H n + (f_HC n + (−μ f / |v_t|) v_t),  μ = Stribeck(μs, μd, μv v_trans, |v_t| / v_trans)
//! P_G = p_GH + R_GH P,  F_G = R_GH F;  body 2 gets (r₂ × F_G, F_G), body 1 (r₁ × −F_G, −F_G),
//! r_i = P_G − p_GBi
//! ```
//!
//! Reference: Simbody 3.7's sources named above; test `crates/ferrobody/tests/contact_sets.rs`.

use super::friction::{stribeck_in_transition_units, SIGNIFICANT_REAL_SQUARED};
use super::material::CombinedMaterial;
use crate::forces::ForceContext;
use crate::ids::BodyId;
use crate::math::small::{mul3tv, mul3v};
use crate::math::{spatial, SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// One half space (surface 1, on `bodies.0`, pose `x_gh`) and one sphere (surface 2, on
/// `bodies.1`, pose `x_gs`, radius `r`) of a compliant set: adds the contact's forces to
/// `body_forces` as Simbody's `CompliantContactSubsystem` does (module docs).
#[allow(clippy::too_many_arguments)]
pub(super) fn add_half_space_sphere<T: Real>(
    ctx: &ForceContext<'_, T>,
    m: &CombinedMaterial<T>,
    v_trans: T,
    bodies: (BodyId, BodyId),
    (x_gh, x_bh): (&Transform<T>, &Transform<T>),
    (x_gs, x_bs): (&Transform<T>, &Transform<T>),
    r: T,
    body_forces: &mut [SpatialVec<T>],
) {
    let d = x_gs.p - x_gh.p;
    let p_hc = mul3tv(&x_gh.r, &d);
    let x = p_hc.x + r;
    if x.re() <= 0.0 {
        return;
    }
    let zero = T::zero();
    let overlap = Overlap {
        p_12_g: d,
        p_12: p_hc,
        normal: Vector3::new(-T::one(), zero, zero),
        origin: Vector3::new(x / T::c(2.0), p_hc.y, p_hc.z),
        depth: x,
        radius: r,
    };
    add_hertz_contact(
        ctx,
        m,
        v_trans,
        bodies,
        (x_gh, x_bh),
        x_bs,
        &overlap,
        body_forces,
    );
}

/// Two spheres (surface 1 of radius `r1` on `bodies.0` at `x_g1`, surface 2 of radius `r2` on
/// `bodies.1` at `x_g2`) of a compliant set, as Simbody's `ContactTracker::SphereSphere` and
/// `HertzCircular` generator compute them, in surface 1's frame:
///
/// ```text
/// d = |p_G2 − p_G1|,  x = r1 + r2 − d,  R = r1 r2/(r1 + r2),  p_12 = R_G1ᵀ (p_G2 − p_G1)
/// n = p_12 / d,  origin = (r1 − x/2) n,  then the half space's force law (module docs)
/// ```
#[allow(clippy::too_many_arguments)]
pub(super) fn add_sphere_sphere<T: Real>(
    ctx: &ForceContext<'_, T>,
    m: &CombinedMaterial<T>,
    v_trans: T,
    bodies: (BodyId, BodyId),
    (x_g1, x_b1, r1): (&Transform<T>, &Transform<T>, T),
    (x_g2, x_b2, r2): (&Transform<T>, &Transform<T>, T),
    body_forces: &mut [SpatialVec<T>],
) {
    let p_12_g = x_g2.p - x_g1.p;
    let d2 = p_12_g.x * p_12_g.x + p_12_g.y * p_12_g.y + p_12_g.z * p_12_g.z;
    let rr = r1 + r2;
    // Simbody's tracker fails on coincident centres (no normal); no force here.
    if d2.re() > (rr * rr).re() || d2.re() < SIGNIFICANT_REAL_SQUARED {
        return;
    }
    let d = d2.sqrt();
    let p_12 = mul3tv(&x_g1.r, &p_12_g);
    let depth = rr - d;
    let normal = p_12.map(|c| c / d);
    let overlap = Overlap {
        p_12_g,
        p_12,
        normal,
        origin: normal * (r1 - depth / T::c(2.0)),
        depth,
        radius: r1 * r2 / rr,
    };
    if depth.re() <= 0.0 {
        return;
    }
    add_hertz_contact(
        ctx,
        m,
        v_trans,
        bodies,
        (x_g1, x_b1),
        x_b2,
        &overlap,
        body_forces,
    );
}

/// What a tracker found, in surface 1's frame S1: the vector from surface 1's origin to
/// surface 2's (in Ground and in S1), the normal, the contact origin (midway as for equal
/// stiffness), the depth and the effective radius.
struct Overlap<T: Real> {
    p_12_g: Vector3<T>,
    p_12: Vector3<T>,
    normal: Vector3<T>,
    origin: Vector3<T>,
    depth: T,
    radius: T,
}

/// Simbody's `calcHertzContactForce` in S1, then `changeFrameInPlace(X_G1)` and the force on
/// the two bodies (`realizeSubsystemDynamicsImpl`).
#[allow(clippy::too_many_arguments)]
fn add_hertz_contact<T: Real>(
    ctx: &ForceContext<'_, T>,
    m: &CombinedMaterial<T>,
    v_trans: T,
    bodies: (BodyId, BodyId),
    (x_g1, x_b1): (&Transform<T>, &Transform<T>),
    x_b2: &Transform<T>,
    o: &Overlap<T>,
    body_forces: &mut [SpatialVec<T>],
) {
    let r_g1 = &x_g1.r;
    let (x, normal) = (o.depth, o.normal);
    // Relative velocity of surface 2 in S1, expressed in S1 (findRelativeVelocity).
    let (w_1, v_1) = frame_velocity(ctx, bodies.0, x_b1);
    let (w_2, v_2) = frame_velocity(ctx, bodies.1, x_b2);
    let w12 = mul3tv(r_g1, &(w_2 - w_1));
    let v12 = mul3tv(r_g1, &((v_2 - v_1) - w_1.cross(&o.p_12_g)));
    let s = x * (T::c(0.5) - m.s1);
    let point = o.origin + normal * s;
    let f_hertz = T::c(4.0 / 3.0) * m.k * x * (o.radius * m.k * x).sqrt();
    let vel = v12 + w12.cross(&(point - o.p_12));
    let xdot = -vel.dot(&normal);
    let vel_normal = normal * -xdot;
    let vel_tangent = vel - vel_normal;
    let f_hc = f_hertz * T::c(1.5) * m.c * xdot;
    let f_normal = f_hertz + f_hc;
    if f_normal.re() <= 0.0 {
        return;
    }
    let mut friction = Vector3::zeros();
    let slip2 = vel_tangent.norm_squared();
    if slip2.re() > SIGNIFICANT_REAL_SQUARED {
        let slip = slip2.sqrt();
        let v = slip * (T::one() / v_trans);
        let mu = stribeck_in_transition_units(m.mu_s, m.mu_d, m.mu_v * v_trans, v);
        friction = vel_tangent * (-(f_normal * mu) / slip);
    }
    let force_h = normal * f_hertz + (normal * f_hc + friction);
    // changeFrameInPlace(X_GH), then realizeSubsystemDynamicsImpl.
    let p_g = x_g1.p + mul3v(r_g1, &point);
    let f_g = mul3v(r_g1, &force_h);
    for (body, f) in [(bodies.1, f_g), (bodies.0, -f_g)] {
        let r_b = p_g - ctx.x_gb(body).p;
        body_forces[body.0] += spatial(r_b.cross(&f), f);
    }
}

/// A surface frame's angular and linear velocity in Ground (Simbody's
/// `findFrameVelocityInGround`: `ω`, `v + ω × (R_GB p_BF)`); zero on Ground.
#[inline(always)]
fn frame_velocity<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    x_bf: &Transform<T>,
) -> (Vector3<T>, Vector3<T>) {
    if body == BodyId::GROUND {
        return (Vector3::zeros(), Vector3::zeros());
    }
    let v = ctx.v_gb(body);
    let (w, v) = (
        Vector3::new(v[0], v[1], v[2]),
        Vector3::new(v[3], v[4], v[5]),
    );
    (w, v + w.cross(&mul3v(&ctx.x_gb(body).r, &x_bf.p)))
}
