//! Per-contact outputs for inspection and `contacts.csv`: every overlapping pair of every
//! Hunt–Crossley contact set, and every smooth sphere/half-space element and exponential spring
//! (always reported: their forces act at a distance too), at the current state.

use crate::data::{Data, Stage};
use crate::forces::ForceContext;
use crate::geometry::{candidate_pairs, BroadPhase};
use crate::ids::BodyId;
use crate::model::{Force, Model};
use crate::scalar::Real;
use crate::state::State;
use nalgebra::Vector3;

/// One contact of one element, in a common form for all contact models.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactReport<T: Real> {
    /// Index of the element among the model's force elements.
    pub element: usize,
    /// The element's name.
    pub element_name: String,
    /// Body of surface 1 and body of surface 2 (for smooth contact: half space, sphere).
    pub bodies: (BodyId, BodyId),
    /// Contact point in Ground.
    pub point: Vector3<T>,
    /// Normal in Ground, from surface 1 toward surface 2.
    pub normal: Vector3<T>,
    /// Penetration depth (m); negative for a smooth contact acting at a distance.
    pub depth: T,
    /// Normal force magnitude (N).
    pub normal_force: T,
    /// Friction force on body 2 (N, Ground).
    pub friction_force: Vector3<T>,
    /// Slip speed (m/s).
    pub slip_speed: T,
}

impl<T: Real> ContactReport<T> {
    /// Total force on body 2 (N, Ground); body 1 gets its negative.
    pub fn force_on_body2(&self) -> Vector3<T> {
        self.normal * self.normal_force + self.friction_force
    }
}

/// All contacts of all contact elements. Needs the Velocity stage. Allocates: for reporting,
/// not for the step loop.
pub fn contact_reports<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &Data<T>,
) -> Vec<ContactReport<T>> {
    data.require(Stage::Velocity);
    let ctx = ForceContext::new(model, state, data);
    let mut out = Vec::new();
    let (mut x_gs, mut broad) = (Vec::new(), BroadPhase::default());
    for (e, f) in model.forces().iter().enumerate() {
        if !model.is_force_enabled(state, crate::ids::ForceId(e)) {
            continue;
        }
        match f {
            Force::HuntCrossley(hc) => {
                hc.surface_poses(&ctx, &mut x_gs);
                candidate_pairs(hc.surfaces(), &x_gs, &mut broad);
                for &(i, j) in &broad.pairs {
                    if let Some(c) = hc.evaluate(&ctx, &x_gs, i as usize, j as usize) {
                        out.push(ContactReport {
                            element: e,
                            element_name: hc.name.clone(),
                            bodies: c.bodies,
                            point: c.point,
                            normal: c.normal,
                            depth: c.depth,
                            normal_force: c.normal_force,
                            friction_force: c.friction_force,
                            slip_speed: c.slip_speed,
                        });
                    }
                }
            }
            Force::ElasticFoundation(ef) => {
                for c in ef.patches(&ctx) {
                    out.push(ContactReport {
                        element: e,
                        element_name: ef.name.clone(),
                        bodies: c.bodies,
                        point: c.point,
                        normal: c.normal,
                        depth: c.depth,
                        normal_force: c.normal_force,
                        friction_force: c.friction_force,
                        slip_speed: c.slip_speed,
                    });
                }
            }
            Force::SmoothSphereHalfSpace(s) => {
                let c = s.evaluate(&ctx);
                // The smooth model's normal points into the half space; report it from the half
                // space toward the sphere, with the force on the sphere.
                let friction_on_sphere = -(c.tangential_velocity * (c.friction / c.slip_speed));
                out.push(ContactReport {
                    element: e,
                    element_name: s.name.clone(),
                    bodies: (s.half_space_body, s.sphere_body),
                    point: c.point,
                    normal: -c.normal,
                    depth: c.depth,
                    normal_force: c.normal_force.hunt_crossley,
                    friction_force: friction_on_sphere,
                    slip_speed: c.slip_speed,
                });
            }
            Force::ExponentialSpring(spring) => {
                let o = spring.evaluate(&ctx);
                let normal = spring.to_ground(&Vector3::z());
                let v = o.station_velocity;
                out.push(ContactReport {
                    element: e,
                    element_name: spring.name.clone(),
                    bodies: (crate::ids::BodyId::GROUND, spring.body),
                    point: spring.point_in_ground(&o.station_position),
                    normal,
                    depth: -o.station_position.z,
                    normal_force: o.normal_force,
                    friction_force: spring.to_ground(&o.friction),
                    slip_speed: (v.x * v.x + v.y * v.y).sqrt(),
                });
            }
            _ => {}
        }
    }
    out
}

/// The deepest overlap of a surface with a half space (Hunt–Crossley sets, smooth
/// sphere/half-space elements, exponential springs) at the current state: `(depth, element,
/// bodies)`, or `None` without such contacts. Linear in the number of surfaces per half space
/// (no broad phase), for a quick look at an initial state: bodies started inside the ground are
/// the usual cause of runs that crawl. Sphere–sphere overlaps are not examined.
pub fn deepest_half_space_overlap<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &Data<T>,
) -> Option<(f64, String, (BodyId, BodyId))> {
    data.require(Stage::Velocity);
    let ctx = ForceContext::new(model, state, data);
    let mut deepest: Option<(f64, String, (BodyId, BodyId))> = None;
    let mut keep = |depth: f64, name: &str, bodies: (BodyId, BodyId)| {
        if depth.is_finite() && deepest.as_ref().is_none_or(|d| depth > d.0) {
            deepest = Some((depth, name.to_string(), bodies));
        }
    };
    let mut x_gs = Vec::new();
    for (e, f) in model.forces().iter().enumerate() {
        if !model.is_force_enabled(state, crate::ids::ForceId(e)) {
            continue;
        }
        match f {
            Force::HuntCrossley(hc) => {
                hc.surface_poses(&ctx, &mut x_gs);
                let surfaces = hc.surfaces();
                for (h, half) in surfaces.iter().enumerate() {
                    if half.shape != crate::geometry::Shape::HalfSpace {
                        continue;
                    }
                    for (k, other) in surfaces.iter().enumerate() {
                        if k == h || other.body == half.body {
                            continue;
                        }
                        let pair = crate::geometry::pair_contact(
                            &half.shape,
                            &x_gs[h],
                            &other.shape,
                            &x_gs[k],
                        );
                        if let Some((c, _)) = pair {
                            keep(c.depth.re(), &hc.name, (half.body, other.body));
                        }
                    }
                }
            }
            Force::SmoothSphereHalfSpace(s) => {
                let c = s.evaluate(&ctx);
                keep(c.depth.re(), &s.name, (s.half_space_body, s.sphere_body));
            }
            Force::ExponentialSpring(spring) => {
                let o = spring.evaluate(&ctx);
                let bodies = (crate::ids::BodyId::GROUND, spring.body);
                keep(-o.station_position.z.re(), &spring.name, bodies);
            }
            _ => {}
        }
    }
    deepest
}
