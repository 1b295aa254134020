//! Conversion of constraints to another scalar type (through `f64`).

use super::*;
use nalgebra::Vector3;

fn v<T: Real, U: Real>(x: &Vector3<T>) -> Vector3<U> {
    x.map(|e| U::c(e.re()))
}

fn s<T: Real, U: Real>(x: T) -> U {
    U::c(x.re())
}

impl<T: Real> Constraint<T> {
    /// The same constraint with scalar type `U` (derivative parts dropped).
    pub fn cast<U: Real>(&self) -> Constraint<U> {
        match self {
            Constraint::Ball(c) => Constraint::Ball(Ball {
                body1: c.body1,
                point1: v(&c.point1),
                body2: c.body2,
                point2: v(&c.point2),
            }),
            Constraint::Weld(c) => Constraint::Weld(Weld {
                body1: c.body1,
                frame1: c.frame1.cast(),
                body2: c.body2,
                frame2: c.frame2.cast(),
            }),
            Constraint::Rod(c) => Constraint::Rod(Rod {
                body1: c.body1,
                point1: v(&c.point1),
                body2: c.body2,
                point2: v(&c.point2),
                length: s(c.length),
            }),
            Constraint::PointInPlane(c) => Constraint::PointInPlane(PointInPlane {
                plane_body: c.plane_body,
                normal: v(&c.normal),
                height: s(c.height),
                follower: c.follower,
                point: v(&c.point),
            }),
            Constraint::PointOnPlaneContact(c) => {
                Constraint::PointOnPlaneContact(PointOnPlaneContact {
                    surface_body: c.surface_body,
                    plane_frame: c.plane_frame.cast(),
                    follower: c.follower,
                    point: v(&c.point),
                })
            }
            Constraint::SphereOnPlaneContact(c) => {
                Constraint::SphereOnPlaneContact(SphereOnPlaneContact {
                    plane_body: c.plane_body,
                    plane_frame: c.plane_frame.cast(),
                    ball: c.ball,
                    center: v(&c.center),
                    radius: s(c.radius),
                    enforce_rolling: c.enforce_rolling,
                })
            }
            Constraint::SphereOnSphereContact(c) => {
                let mut out = SphereOnSphereContact::new(
                    c.body_f,
                    v(&c.default_center_on_f),
                    s(c.default_radius_on_f),
                    c.body_b,
                    v(&c.default_center_on_b),
                    s(c.default_radius_on_b),
                    c.enforce_rolling,
                );
                out.parameters = c.parameters;
                out.index = c.index;
                Constraint::SphereOnSphereContact(out)
            }
            Constraint::PointOnLine(c) => Constraint::PointOnLine(PointOnLine {
                line_body: c.line_body,
                direction: v(&c.direction),
                point_on_line: v(&c.point_on_line),
                follower: c.follower,
                point: v(&c.point),
            }),
            Constraint::CoordinateLock(c) => Constraint::CoordinateLock(c.clone()),
            Constraint::PrescribedCoordinate(c) => Constraint::PrescribedCoordinate(c.clone()),
            Constraint::CoordinateCoupler(c) => Constraint::CoordinateCoupler(c.clone()),
            Constraint::LineOnLineContact(c) => Constraint::LineOnLineContact(LineOnLineContact {
                body_f: c.body_f,
                edge_frame_f: c.edge_frame_f.cast(),
                half_length_f: s(c.half_length_f),
                body_b: c.body_b,
                edge_frame_b: c.edge_frame_b.cast(),
                half_length_b: s(c.half_length_b),
                enforce_rolling: c.enforce_rolling,
            }),
        }
    }
}
