//! Constructors of the eight unilateral contact classes (Simbody's constructor arguments, in
//! Simbody's order) and their validation.

use super::{FrictionCoefficients, Underlying, UnilateralContact, UnilateralKind};
use crate::constraints::station::frame_from_z_axis;
use crate::constraints::{
    Constraint, LineOnLineContact, PointInPlane, PointOnPlaneContact, Rod, SphereOnPlaneContact,
    SphereOnSphereContact,
};
use crate::error::{invalid, ModelError};
use crate::error::{Error, Result};
use crate::ids::BodyId;
use crate::math::Transform;
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::{Matrix3, Vector3};

/// The plane frame of a plane body: z along the unit normal `n`, origin at height `h` along it
/// (Simbody passes only the rotation and loses `h`, notes §9.7; here the height is kept).
fn plane_frame<T: Real>(n: &Vector3<T>, h: T) -> Transform<T> {
    let (x, y) = frame_from_z_axis(n);
    Transform {
        r: Matrix3::from_columns(&[x, y, *n]),
        p: n * h,
    }
}

fn with_constraint<T: Real>(
    kind: UnilateralKind,
    c: Constraint<T>,
    min_cor: f64,
    friction: Option<FrictionCoefficients>,
) -> UnilateralContact<T> {
    UnilateralContact {
        kind,
        underlying: Underlying::Constraint(c),
        min_cor,
        friction,
    }
}

impl<T: Real> UnilateralContact<T> {
    /// `HardStopUpper(mobod, qIndex, qmax, e_min)`: coordinate `coordinate` of `body`'s
    /// mobilizer stays at or below `q_max`.
    pub fn hard_stop_upper(body: BodyId, coordinate: usize, q_max: T, min_cor: f64) -> Self {
        Self {
            kind: UnilateralKind::HardStopUpper,
            underlying: Underlying::Coordinate {
                body,
                coordinate,
                limit: q_max,
            },
            min_cor,
            friction: None,
        }
    }

    /// `HardStopLower(mobod, qIndex, qmin, e_min)`: the coordinate stays at or above `q_min`.
    pub fn hard_stop_lower(body: BodyId, coordinate: usize, q_min: T, min_cor: f64) -> Self {
        Self {
            kind: UnilateralKind::HardStopLower,
            underlying: Underlying::Coordinate {
                body,
                coordinate,
                limit: q_min,
            },
            min_cor,
            friction: None,
        }
    }

    /// `Rope(b1, p1, b2, p2, L, e_min)`: stations `p1` on `body1` and `p2` on `body2` are at
    /// most `length` apart.
    pub fn rope(
        body1: BodyId,
        point1: Vector3<T>,
        body2: BodyId,
        point2: Vector3<T>,
        length: T,
        min_cor: f64,
    ) -> Self {
        let rod = Rod {
            body1,
            point1,
            body2,
            point2,
            length,
        };
        with_constraint(UnilateralKind::Rope, Constraint::Rod(rod), min_cor, None)
    }

    /// `PointPlaneFrictionlessContact(plane body, n, h, follower, p, e_min)`.
    pub fn point_plane_frictionless(
        plane_body: BodyId,
        normal: Vector3<T>,
        height: T,
        follower: BodyId,
        point: Vector3<T>,
        min_cor: f64,
    ) -> Self {
        let c = PointInPlane {
            plane_body,
            normal,
            height,
            follower,
            point,
        };
        let kind = UnilateralKind::PointPlaneFrictionless;
        with_constraint(kind, Constraint::PointInPlane(c), min_cor, None)
    }

    /// `PointPlaneContact(plane body, n, h, follower, p, e_min, μs, μd, μv)`.
    pub fn point_plane(
        plane_body: BodyId,
        normal: Vector3<T>,
        height: T,
        follower: BodyId,
        point: Vector3<T>,
        min_cor: f64,
        friction: FrictionCoefficients,
    ) -> Self {
        let c = PointOnPlaneContact {
            surface_body: plane_body,
            plane_frame: plane_frame(&normal, height),
            follower,
            point,
        };
        let kind = UnilateralKind::PointPlane;
        with_constraint(
            kind,
            Constraint::PointOnPlaneContact(c),
            min_cor,
            Some(friction),
        )
    }

    /// `SpherePlaneContact(plane body, n, h, ball, centre, r, e_min, μs, μd, μv)`.
    #[allow(clippy::too_many_arguments)]
    pub fn sphere_plane(
        plane_body: BodyId,
        normal: Vector3<T>,
        height: T,
        ball: BodyId,
        center: Vector3<T>,
        radius: T,
        min_cor: f64,
        friction: FrictionCoefficients,
    ) -> Self {
        let c = SphereOnPlaneContact {
            plane_body,
            plane_frame: plane_frame(&normal, height),
            ball,
            center,
            radius,
            enforce_rolling: true,
        };
        let kind = UnilateralKind::SpherePlane;
        with_constraint(
            kind,
            Constraint::SphereOnPlaneContact(c),
            min_cor,
            Some(friction),
        )
    }

    /// `SphereSphereContact(F, cF, rF, B, cB, rB, e_min, μs, μd, μv)`.
    #[allow(clippy::too_many_arguments)]
    pub fn sphere_sphere(
        body_f: BodyId,
        center_f: Vector3<T>,
        radius_f: T,
        body_b: BodyId,
        center_b: Vector3<T>,
        radius_b: T,
        min_cor: f64,
        friction: FrictionCoefficients,
    ) -> Self {
        let c = SphereOnSphereContact::new(
            body_f, center_f, radius_f, body_b, center_b, radius_b, true,
        );
        let kind = UnilateralKind::SphereSphere;
        with_constraint(
            kind,
            Constraint::SphereOnSphereContact(c),
            min_cor,
            Some(friction),
        )
    }

    /// `EdgeEdgeContact(F, edgeFrameF, hF, B, edgeFrameB, hB, e_min, μs, μd, μv)`: edge frames
    /// have x along the edge and z outward from the solid (see [`LineOnLineContact`]).
    #[allow(clippy::too_many_arguments)]
    pub fn edge_edge(
        body_f: BodyId,
        edge_frame_f: Transform<T>,
        half_length_f: T,
        body_b: BodyId,
        edge_frame_b: Transform<T>,
        half_length_b: T,
        min_cor: f64,
        friction: FrictionCoefficients,
    ) -> Self {
        let c = LineOnLineContact {
            body_f,
            edge_frame_f,
            half_length_f,
            body_b,
            edge_frame_b,
            half_length_b,
            enforce_rolling: true,
        };
        let kind = UnilateralKind::EdgeEdge;
        with_constraint(
            kind,
            Constraint::LineOnLineContact(c),
            min_cor,
            Some(friction),
        )
    }

    /// Checks coefficients, bodies and the underlying constraint; names the first problem.
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<()> {
        let fail = |m: ModelError| Err(Error::model(format!("{}: {m}", self.kind.name())));
        if !(0.0..=1.0).contains(&self.min_cor) {
            return fail(invalid!(
                "minimum coefficient of restitution must be in [0, 1], got {}",
                self.min_cor
            ));
        }
        if let Some(f) = &self.friction {
            let (s, d, v) = (
                f.static_coefficient,
                f.dynamic_coefficient,
                f.viscous_coefficient,
            );
            if ![s, d, v].iter().all(|x| x.is_finite() && *x >= 0.0) {
                return fail(invalid!(
                    "friction coefficients must be finite and non-negative, got μs = {s}, μd = {d}, μv = {v}"
                ));
            }
            if d > s {
                return fail(invalid!("μd = {d} exceeds μs = {s}"));
            }
        }
        match &self.underlying {
            Underlying::Constraint(c) => c.validate(bodies.len()),
            Underlying::Coordinate {
                body,
                coordinate,
                limit,
            } => validate_coordinate(bodies, *body, *coordinate, *limit).or_else(fail),
        }
    }
}

/// A hard stop needs a moving body whose coordinate has `q̇ = u` (not a quaternion coordinate of
/// a Ball or Free mobilizer).
fn validate_coordinate<T: Real>(
    bodies: &[Body<T>],
    body: BodyId,
    coordinate: usize,
    limit: T,
) -> std::result::Result<(), ModelError> {
    let b = bodies
        .get(body.0)
        .filter(|_| body.0 > 0)
        .ok_or_else(|| invalid!("body index {} is not a mobilized body", body.0))?;
    if matches!(
        b.mobilizer,
        Mobilizer::Ball | Mobilizer::Free | Mobilizer::Weld
    ) {
        return Err(invalid!(
            "body '{}' has a {} mobilizer: a hard stop needs a coordinate with q̇ = u (any mobilizer but Ball, Free and Weld)",
            b.name, b.mobilizer
        ));
    }
    if coordinate >= b.nq() {
        return Err(invalid!(
            "coordinate {coordinate} does not exist: body '{}' has {} coordinates",
            b.name,
            b.nq()
        ));
    }
    if !limit.re().is_finite() {
        return Err(invalid!("limit must be finite, got {}", limit.re()));
    }
    Ok(())
}
