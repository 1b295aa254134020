//! Hunt–Crossley spheres on one body against a half space fixed in Ground: each contact's
//! wrench and its derivatives by 9-lane dual numbers over the contact alone.
//!
//! A sphere is unchanged by turning about its centre c, so its contact with a fixed half space
//! depends on the body's pose only through c, and on its velocity through the spatial
//! velocity `V = [ω; v_O]` at Ground's origin. With the half space's outward axis `e`
//! (normal `n = −e`, from the half space toward the sphere) and origin o, as
//! `contact_halfspace_sphere` and `HuntCrossleyForce::evaluate` compute it:
//!
//! ```text
//!   x = r + e·(c − o),   P = c − n (r − x (1 − s1)),   v = −(v_O + ω × P)
//!   f = (4/3) k x √(r k x) (1 + 1.5 c_d v·n),   F = f n + μ(|v_t|) f v_t/|v_t|
//!   W = [P × F; F]  (on the sphere's body, at Ground's origin)
//! ```
//!
//! (the law itself is `hunt_crossley::contact_forces`, shared with the force element).
//!
//! Lanes: c (3), ω (3), v_O (3); then `∂W/∂ε = ∂W/∂c [−[c×] | 1]` for a pose twist ε of the
//! body (`dc = ε_v + ε_ω × c`) and `∂W/∂V` directly.

use crate::contact::friction::FrictionModel;
use crate::contact::hunt_crossley::{contact_forces, hertz_force};
use crate::contact::material::CombinedMaterial;
use crate::contact::HuntCrossleyForce;
use crate::geometry::{general_contact_pairs, BroadPhase, Shape};
use crate::math::spatial::cross_matrix;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::{Const, Matrix6, Vector3, Vector6, U1};
use num_dual::{Derivative, DualSVec64};

type D9 = DualSVec64<9>;

/// The half space (surface index, pose) and the spheres' body if `force` is one half space on
/// Ground and spheres all on one other body.
pub(super) fn ground_half_space_and_spheres(force: &HuntCrossleyForce<f64>) -> Option<usize> {
    let surfaces = force.surfaces();
    let half_spaces = surfaces
        .iter()
        .filter(|s| matches!(s.shape, Shape::HalfSpace))
        .count();
    let ground_half_space = surfaces
        .iter()
        .any(|s| matches!(s.shape, Shape::HalfSpace) && s.body.0 == 0);
    let sphere_body = surfaces
        .iter()
        .find(|s| matches!(s.shape, Shape::Sphere { .. }))?
        .body;
    let spheres_on_it = surfaces.iter().all(|s| match s.shape {
        Shape::HalfSpace => s.body.0 == 0,
        Shape::Sphere { .. } => s.body == sphere_body,
        _ => false,
    });
    (half_spaces == 1 && ground_half_space && spheres_on_it && sphere_body.0 != 0)
        .then_some(sphere_body.0)
}

/// The surface poses and sweep buffers of [`add_contacts`]'s contact order, kept between calls
/// so that a Jacobian evaluation allocates nothing.
#[derive(Clone, Debug, Default)]
pub(super) struct SweepScratch {
    x_gs: Vec<Transform<f64>>,
    sweep: BroadPhase,
}

/// Adds every contact's wrench on the spheres' body (at Ground's origin) to `force`, and its
/// derivatives with respect to the body's pose twist and velocity to `g` and `h`; `x_gb` and
/// `v_gb` are the body's pose and velocity (about its origin, in Ground).
pub(super) fn add_contacts(
    element: &HuntCrossleyForce<f64>,
    x_gb: &Transform<f64>,
    v_gb: &Vector6<f64>,
    force: &mut Vector6<f64>,
    g: &mut Matrix6<f64>,
    h: &mut Matrix6<f64>,
    scratch: &mut SweepScratch,
) {
    let surfaces = element.surfaces();
    let Some(a) = surfaces
        .iter()
        .position(|s| matches!(s.shape, Shape::HalfSpace))
    else {
        return;
    };
    let x_gh = surfaces[a].x_bs;
    let w = v_gb.fixed_rows::<3>(0).into_owned();
    let v_o = v_gb.fixed_rows::<3>(3) - w.cross(&x_gb.p);
    // The spheres in the order HuntCrossleyForce meets them (GeneralContactSubsystem's sweep;
    // it matters where a contact pulls and the loop stops).
    let SweepScratch { x_gs, sweep } = scratch;
    x_gs.clear();
    x_gs.extend(surfaces.iter().map(|s| {
        if s.body.0 == 0 {
            s.x_bs
        } else {
            x_gb * &s.x_bs
        }
    }));
    general_contact_pairs(surfaces, x_gs, sweep);
    for &(i, j) in &sweep.pairs {
        let b = if i as usize == a {
            j as usize
        } else {
            i as usize
        };
        let surface = &surfaces[b];
        let Shape::Sphere { radius } = surface.shape else {
            continue;
        };
        let c = x_gb.apply(&surface.x_bs.p);
        let lane = |x: f64, k: usize| D9::new(x, Derivative::derivative_generic(Const::<9>, U1, k));
        let c_d = Vector3::new(lane(c.x, 0), lane(c.y, 1), lane(c.z, 2));
        let w_d = Vector3::new(lane(w.x, 3), lane(w.y, 4), lane(w.z, 5));
        let v_d = Vector3::new(lane(v_o.x, 6), lane(v_o.y, 7), lane(v_o.z, 8));
        let m = element.pair_material(a, b);
        let law = Law {
            radius,
            material: &m,
            transition_velocity: element.transition_velocity,
            friction: element.friction,
        };
        let wrench = match law.wrench(&x_gh, &c_d, &w_d, &v_d) {
            Contact::Apart => continue,
            // Simbody's HuntCrossleyForce stops at a contact that pulls: the spheres after it
            // add nothing; its CompliantContactSubsystem goes on (`HuntCrossleyForce::calc_force`).
            Contact::Pulls if element.friction == FrictionModel::Hollars => break,
            Contact::Pulls => continue,
            Contact::Pushes(wrench) => wrench,
        };
        let mut moves_c = nalgebra::Matrix3x6::zeros();
        moves_c
            .fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&(-cross_matrix(&c)));
        moves_c
            .fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&nalgebra::Matrix3::identity());
        let mut dw_dc = nalgebra::Matrix6x3::zeros();
        for (row, x) in wrench.iter().enumerate() {
            force[row] += x.re;
            let lanes = x.eps.0.unwrap_or_else(nalgebra::SVector::zeros);
            for k in 0..3 {
                dw_dc[(row, k)] = lanes[k];
            }
            for k in 0..6 {
                h[(row, k)] += lanes[3 + k];
            }
        }
        *g += dw_dc * moves_c;
    }
}

/// One sphere's contact: none, one whose normal force is not positive, or its wrench.
enum Contact<T: Real> {
    Apart,
    Pulls,
    Pushes(Vector6<T>),
}

/// One contact's force law.
struct Law<'a> {
    radius: f64,
    material: &'a CombinedMaterial<f64>,
    transition_velocity: f64,
    friction: FrictionModel,
}

impl Law<'_> {
    /// The wrench on the sphere's body at Ground's origin, if the contact pushes.
    fn wrench<T: Real>(
        &self,
        x_gh: &Transform<f64>,
        c: &Vector3<T>,
        w: &Vector3<T>,
        v_o: &Vector3<T>,
    ) -> Contact<T> {
        let m = self.material;
        let e = x_gh.r.column(0).into_owned().map(T::c);
        let depth = T::c(self.radius) + e.dot(&(c - x_gh.p.map(T::c)));
        if depth.re() <= 0.0 {
            return Contact::Apart;
        }
        let n = -e;
        let point = c - n * (T::c(self.radius) - depth * T::c(1.0 - m.s1));
        let f_hertz = hertz_force(T::c(m.k), T::c(self.radius), depth);
        let v = -(v_o + w.cross(&point));
        let law = (T::c(self.transition_velocity), self.friction);
        let (f, friction, _) = contact_forces(f_hertz, &m.cast(), law, &n, &v);
        if f.re() <= 0.0 {
            return Contact::Pulls;
        }
        let force = n * f + friction;
        let moment = point.cross(&force);
        Contact::Pushes(Vector6::new(
            moment.x, moment.y, moment.z, force.x, force.y, force.z,
        ))
    }
}
