//! Simbody's `BrickHalfSpacePenalty` contact force generator (`CompliantContactSubsystem`),
//! notes §3.3: linear springs at the vertices of the brick face most opposite the half space.
//!
//! With the half space H (surface 1) and the brick B (surface 2), their materials combined
//! **linearly** (not as Hertz's `E^(2/3)`), and n the half space's outward normal:
//!
//! ```text
//! s_H = k_B/(k_H + k_B),  s_B = 1 − s_H,  k = k_H s_H,  c = c_H s_H + c_B s_B
//! for each face vertex v with depth x > 0:
//!   P  = v + x s_B n                      contact point (m)
//!   f_K = k x,   PE = k x²/2 (also when the vertex is being pulled out)
//!   ẋ = −v_B(P)·n (velocity of B's point relative to H),  v_t = v_B(P) + ẋ n
//!   f_N = f_K (1 + c ẋ)                   no 3/2 factor; no force when f_N ≤ 0
//!   F_i = f_N n − f_N μ(|v_t|) v_t/|v_t|  Stribeck μ; no friction when |v_t|² ≤ SignificantReal²
//! resultant on B: F = Σ F_i at the centre of pressure C = Σ w_i P_i / Σ w_i,
//!   w_i = |(P_i − p_H) × f_N,i n| (moments of the normal forces about H's origin),
//!   with the moment Σ (P_i − C) × F_i;  H gets the opposite.
//! ```
//!
//! Reference: Simbody `Simbody/src/CompliantContactSubsystem.cpp`
//! (`calcPointHalfSpacePenaltyForce`).

use super::friction::{stribeck, SIGNIFICANT_REAL_SQUARED};
use super::hunt_crossley::{point_velocity, ContactEvaluation, HuntCrossleyForce};
use super::material::harmonic_mean;
use super::material::ContactMaterial;
use crate::forces::ForceContext;
use crate::geometry::{contact_halfspace_brick, BrickFace};
use crate::ids::BodyId;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// The brick penalty contact of `face` between the half space (surface `surfaces.0`, on
/// `bodies.0`, frame origin `p_gh`, material `m_h`) and the brick (surface `surfaces.1`).
#[allow(clippy::too_many_arguments)]
fn brick_penalty<T: Real>(
    ctx: &ForceContext<'_, T>,
    face: &BrickFace<T>,
    p_gh: &Vector3<T>,
    (m_h, m_b): (&ContactMaterial<T>, &ContactMaterial<T>),
    transition_velocity: T,
    surfaces: (usize, usize),
    bodies: (BodyId, BodyId),
) -> ContactEvaluation<T> {
    let s_h = m_b.stiffness / (m_h.stiffness + m_b.stiffness);
    let s_b = T::one() - s_h;
    let k = m_h.stiffness * s_h;
    let c = m_h.dissipation * s_h + m_b.dissipation * s_b;
    let mu_s = harmonic_mean(m_h.static_friction, m_b.static_friction);
    let mu_d = harmonic_mean(m_h.dynamic_friction, m_b.dynamic_friction);
    let mu_v = harmonic_mean(m_h.viscous_friction, m_b.viscous_friction);
    let n = face.normal;
    let mut normal_total = T::zero();
    let mut friction_total = Vector3::zeros();
    let mut energy = T::zero();
    let mut weighted = Vector3::zeros();
    let mut weight_sum = T::zero();
    let mut slip_speed = T::zero();
    let mut forces = [(Vector3::zeros(), Vector3::zeros()); 4];
    for (i, (v, &x)) in face.vertices.iter().zip(&face.depths).enumerate() {
        if x.re() <= 0.0 {
            continue;
        }
        let p = v + n * (x * s_b);
        let f_k = k * x;
        energy += f_k * x * T::c(0.5);
        let vel = point_velocity(ctx, bodies.1, &p) - point_velocity(ctx, bodies.0, &p);
        let x_dot = -vel.dot(&n);
        let v_t = vel + n * x_dot;
        let f_n = f_k + f_k * c * x_dot;
        if f_n.re() <= 0.0 {
            continue;
        }
        let force_n = n * f_n;
        let w = (p - p_gh).cross(&force_n).norm();
        weight_sum += w;
        weighted += p * w;
        let slip2 = v_t.norm_squared();
        let mut friction = Vector3::zeros();
        if slip2.re() > SIGNIFICANT_REAL_SQUARED {
            let slip = slip2.sqrt();
            let mu = stribeck(slip, transition_velocity, mu_s, mu_d, mu_v);
            friction = v_t * (-(f_n * mu) / slip);
            if x.re() >= face.depth.re() {
                slip_speed = slip;
            }
        }
        forces[i] = (p, force_n + friction);
        normal_total += f_n;
        friction_total += friction;
    }
    let centre = if weight_sum.re() > 0.0 {
        weighted / weight_sum
    } else {
        *p_gh
    };
    let mut moment = Vector3::zeros();
    for (p, f) in &forces {
        moment += (p - centre).cross(f);
    }
    ContactEvaluation {
        surfaces,
        bodies,
        point: centre,
        normal: n,
        depth: face.depth,
        normal_force: normal_total,
        friction_force: friction_total,
        slip_speed,
        potential_energy: energy,
        moment,
    }
}

impl<T: Real> HuntCrossleyForce<T> {
    /// The brick penalty contact of half space `h` with brick `b` (`pair = (h, b)`).
    #[inline(never)]
    pub(super) fn evaluate_brick(
        &self,
        ctx: &ForceContext<'_, T>,
        x_gs: &[Transform<T>],
        (h, b): (usize, usize),
        half_lengths: &[f64; 3],
    ) -> Option<ContactEvaluation<T>> {
        let face = contact_halfspace_brick(&x_gs[h], &x_gs[b], half_lengths)?;
        Some(brick_penalty(
            ctx,
            &face,
            &x_gs[h].p,
            (&self.materials()[h], &self.materials()[b]),
            self.transition_velocity,
            (h, b),
            (self.surfaces()[h].body, self.surfaces()[b].body),
        ))
    }
}
