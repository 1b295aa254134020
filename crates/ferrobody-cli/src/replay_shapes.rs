//! The meshes of the 3D replay, in body frames: contact spheres and half spaces of every contact
//! element (a half space is drawn as a 40 m × 40 m slab, 2 cm thick, under its surface),
//! exponential-spring and constraint planes likewise, the spheres of sphere constraints and the
//! edges of edge–edge contacts; a scene body's own `visual` shapes replace all of that body's
//! automatic shapes. A body with nothing else gets a rod from the origin through the centre of
//! mass (links), a box spanning its spring stations or contact points, or a small cube.

use ferrobody::constraints::Constraint;
use ferrobody::contact::FoundationShape;
use ferrobody::geometry::Shape;
use ferrobody::io::Visual;
use ferrobody::math::Transform;
use ferrobody::model::Force;
use ferrobody::nalgebra::Vector3;
use ferrobody::unilateral::Underlying;
use ferrobody::Model;

pub(crate) use crate::replay_primitive::Primitive;

const SLAB_HALF_WIDTH: f64 = 20.0;
const SLAB_THICKNESS: f64 = 0.02;
const EDGE_HALF_THICKNESS: f64 = 0.005;

const GROUND_GREY: [f32; 4] = [0.72, 0.72, 0.70, 1.0];
const PALETTE: [[f32; 4]; 5] = [
    [0.90, 0.45, 0.15, 1.0],
    [0.20, 0.45, 0.85, 1.0],
    [0.25, 0.65, 0.45, 1.0],
    [0.75, 0.25, 0.55, 1.0],
    [0.85, 0.75, 0.20, 1.0],
];

/// The slab under a half space whose solid is `x > 0` of frame `x`.
fn half_space_slab(x: &Transform<f64>) -> Primitive {
    let w = SLAB_HALF_WIDTH;
    Primitive::cuboid(
        x,
        Vector3::new(0.0, -w, -w),
        Vector3::new(SLAB_THICKNESS, w, w),
        GROUND_GREY,
    )
}

/// The slab under an exponential-spring plane (normal +z, solid z < 0).
fn plane_slab(x: &Transform<f64>) -> Primitive {
    let w = SLAB_HALF_WIDTH;
    Primitive::cuboid(
        x,
        Vector3::new(-w, -w, -SLAB_THICKNESS),
        Vector3::new(w, w, 0.0),
        GROUND_GREY,
    )
}

fn color(b: usize) -> [f32; 4] {
    PALETTE[b % PALETTE.len()]
}

/// The primitives of every body, in body frames (index 0 is Ground).
pub(crate) fn body_shapes(model: &Model<f64>, visuals: &[Visual]) -> Vec<Vec<Primitive>> {
    let mut set = ShapeSet {
        shapes: (0..model.nbodies()).map(|_| Vec::new()).collect(),
        stations: vec![Vec::new(); model.nbodies()],
        slabs: Vec::new(),
        edges: Vec::new(),
    };
    set.add_forces(model);
    set.add_constraints(model);
    set.add_fallbacks(model);
    let mut shapes = set.shapes;
    for (body, edge) in set.edges {
        shapes[body].push(edge);
    }
    for (i, body_shapes) in shapes.iter_mut().enumerate().skip(1) {
        let own: Vec<&Visual> = visuals.iter().filter(|v| v.body.0 == i).collect();
        if !own.is_empty() {
            *body_shapes = own
                .iter()
                .filter_map(|v| Primitive::visual(v, color(i)))
                .collect();
        }
    }
    shapes
}

/// The shapes gathered so far, with the points (spring stations, contact points, edge ends)
/// that size a body's fallback box.
struct ShapeSet {
    shapes: Vec<Vec<Primitive>>,
    stations: Vec<Vec<Vector3<f64>>>,
    slabs: Vec<Transform<f64>>,
    edges: Vec<(usize, Primitive)>,
}

impl ShapeSet {
    /// A slab under a plane (`plane`: normal z) or half space (normal −x); Ground's coincident
    /// slabs are drawn once.
    fn add_slab(&mut self, body: usize, x: &Transform<f64>, plane: bool) {
        if body == 0
            && self
                .slabs
                .iter()
                .any(|s| (s.r - x.r).norm() + (s.p - x.p).norm() < 1e-9)
        {
            return;
        }
        self.slabs.push(*x);
        self.shapes[body].push(if plane {
            plane_slab(x)
        } else {
            half_space_slab(x)
        });
    }

    fn add_sphere(&mut self, body: usize, centre: Vector3<f64>, radius: f64) {
        let x = Transform::from_translation(centre);
        self.shapes[body].push(Primitive::sphere(&x, radius, color(body)));
    }

    /// Compliant contact elements and exponential springs.
    fn add_forces(&mut self, model: &Model<f64>) {
        for f in model.forces() {
            match f {
                Force::HuntCrossley(hc) => {
                    for s in hc.surfaces() {
                        match s.shape {
                            Shape::Sphere { radius } => self.shapes[s.body.0]
                                .push(Primitive::sphere(&s.x_bs, radius, color(s.body.0))),
                            Shape::HalfSpace => self.add_slab(s.body.0, &s.x_bs, false),
                            Shape::Ellipsoid { radii } => self.shapes[s.body.0]
                                .push(Primitive::ellipsoid(&s.x_bs, radii, color(s.body.0))),
                            Shape::Brick { half_lengths } => {
                                let h = Vector3::from(half_lengths);
                                self.shapes[s.body.0].push(Primitive::cuboid(
                                    &s.x_bs,
                                    -h,
                                    h,
                                    color(s.body.0),
                                ))
                            }
                            _ => {}
                        }
                    }
                }
                Force::ElasticFoundation(ef) => {
                    for s in ef.surfaces() {
                        let body = s.body.0;
                        match &s.shape {
                            FoundationShape::Mesh(mesh, _) => {
                                self.shapes[body].push(Primitive::mesh(&s.x_bs, mesh, color(body)))
                            }
                            FoundationShape::Solid(Shape::HalfSpace) => {
                                self.add_slab(body, &s.x_bs, false)
                            }
                            FoundationShape::Solid(Shape::Sphere { radius }) => self.shapes[body]
                                .push(Primitive::sphere(&s.x_bs, *radius, color(body))),
                            FoundationShape::Solid(Shape::Brick { .. }) => {}
                            FoundationShape::Solid(Shape::Ellipsoid { radii }) => self.shapes[body]
                                .push(Primitive::ellipsoid(&s.x_bs, *radii, color(body))),
                            _ => {}
                        }
                    }
                }
                Force::SmoothSphereHalfSpace(sm) => {
                    self.add_sphere(sm.sphere_body.0, sm.sphere_location, sm.sphere_radius());
                    self.add_slab(sm.half_space_body.0, &sm.half_space_frame, false);
                }
                Force::ExponentialSpring(es) => {
                    self.stations[es.body.0].push(es.station);
                    self.add_slab(0, &es.x_gp, true);
                }
                _ => {}
            }
        }
    }

    /// The geometry of contact constraints, bilateral and unilateral: spheres, planes, edges,
    /// and the points and edge ends that span a body's box.
    fn add_constraints(&mut self, model: &Model<f64>) {
        let unilateral = model
            .unilateral_contacts()
            .iter()
            .filter_map(|u| match &u.underlying {
                Underlying::Constraint(c) => Some(c),
                _ => None,
            });
        for c in model.constraints().iter().chain(unilateral) {
            match c {
                Constraint::SphereOnPlaneContact(k) => {
                    self.add_sphere(k.ball.0, k.center, k.radius);
                    self.add_slab(k.plane_body.0, &k.plane_frame, true);
                }
                Constraint::PointOnPlaneContact(k) => {
                    self.stations[k.follower.0].push(k.point);
                    self.add_slab(k.surface_body.0, &k.plane_frame, true);
                }
                Constraint::SphereOnSphereContact(k) => {
                    self.add_sphere(k.body_f.0, k.default_center_on_f, k.default_radius_on_f);
                    self.add_sphere(k.body_b.0, k.default_center_on_b, k.default_radius_on_b);
                }
                Constraint::LineOnLineContact(k) => {
                    self.add_edge(k.body_f.0, &k.edge_frame_f, k.half_length_f);
                    self.add_edge(k.body_b.0, &k.edge_frame_b, k.half_length_b);
                }
                _ => {}
            }
        }
    }

    /// An edge along x of `frame`: its ends size the body's box, and it is drawn as a 1 cm rod.
    fn add_edge(&mut self, body: usize, frame: &Transform<f64>, half: f64) {
        let along = frame.r.column(0) * half;
        self.stations[body].extend([frame.p + along, frame.p - along]);
        let t = Vector3::new(half, EDGE_HALF_THICKNESS, EDGE_HALF_THICKNESS);
        let grey_or = if body == 0 { GROUND_GREY } else { color(body) };
        self.edges
            .push((body, Primitive::cuboid(frame, -t, t, grey_or)));
    }

    /// A shape for every body that has none yet: a rod through an off-origin COM (links), the
    /// box spanning its stations, or a cube sized by its inertia.
    fn add_fallbacks(&mut self, model: &Model<f64>) {
        for (i, body) in model.bodies().iter().enumerate().skip(1) {
            let id = Transform::identity();
            let com = body.mass_properties.com;
            let stations = &self.stations[i];
            let shapes = &mut self.shapes[i];
            if com.norm() > 1e-9 {
                // A rod from the origin through the COM to twice its distance, 3 cm thick.
                let along = com * 2.0;
                let t = Vector3::repeat(0.015);
                let lo = along.inf(&Vector3::zeros()) - t;
                let hi = along.sup(&Vector3::zeros()) + t;
                shapes.push(Primitive::cuboid(&id, lo, hi, color(i + 1)));
            } else if stations.len() >= 2 && shapes.is_empty() {
                let lo = stations
                    .iter()
                    .fold(Vector3::repeat(f64::INFINITY), |a, s| a.inf(s));
                let hi = stations
                    .iter()
                    .fold(Vector3::repeat(f64::NEG_INFINITY), |a, s| a.sup(s));
                shapes.push(Primitive::cuboid(&id, lo, hi, color(i)));
            } else if shapes.is_empty() {
                let m = body.mass_properties.mass.max(1e-9);
                let mean_moment = body.mass_properties.inertia_com.trace() / 3.0;
                let half = (6.0 * mean_moment / m).sqrt().clamp(0.02, 1.0) / 2.0;
                shapes.push(Primitive::cuboid(
                    &id,
                    Vector3::repeat(-half),
                    Vector3::repeat(half),
                    color(i),
                ));
            }
        }
    }
}
