//! OpenSim's `GeometryPath` over path points: its length, lengthening speed and the forces a
//! tension along it applies (wrap objects: `path_wrap.rs`; a path without them is evaluated
//! from a stack buffer of its located points, `path_buffer.rs`).
//!
//! Points: a fixed `PathPoint` (station `p_bs` on a body), a `ConditionalPathPoint` (a fixed
//! point active while its coordinate lies in `[min − 1e-5, max + 1e-5]`, OpenSim's tolerance) and
//! a `MovingPathPoint` (station `p_bs(q) = X_BF (f_x(q), f_y(q), f_z(q))` of one coordinate,
//! with velocity `ṗ_bs = R_BF f'(q) q̇` in the body). Over the active points P₀ … Pₙ:
//! * length `ℓ = Σ |P_{i+1} − P_i|` (Ground positions);
//! * lengthening speed `ℓ̇ = Σ (v_{i+1} − v_i)·(P_{i+1} − P_i)/|P_{i+1} − P_i|`
//!   (`Point::calcSpeedBetween`);
//! * a tension T applies, for each segment whose ends lie on different bodies, `T d̂` at P_i and
//!   `−T d̂` at P_{i+1} (d̂ from P_i to P_{i+1}); a moving point adds the generalized force
//!   `(R_GB p_bs'(q))·(±T d̂)` on its coordinate (`GeometryPath::produceForces`).
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/{GeometryPath, PathPoint, ConditionalPathPoint,
//! MovingPathPoint, Point}.cpp`.

use super::path_buffer::{PathBuffer, STACK_POINTS};
use super::path_wrap::PathWrap;
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceSink};
use crate::ids::BodyId;
use crate::math::function::Function;
use crate::math::Transform;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::Vector3;
use std::borrow::Borrow;

/// A coordinate of the model: the body whose mobilizer has it and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoordinateRef {
    /// The body.
    pub body: BodyId,
    /// Index in the body's q (and u).
    pub index: usize,
}

/// One point of a path.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PathPoint {
    /// A station fixed on a body (m, body frame).
    Fixed {
        /// The body.
        body: BodyId,
        /// The station.
        p_bs: Vector3<f64>,
    },
    /// A fixed station that is part of the path only while a coordinate is in a range.
    Conditional {
        /// The body.
        body: BodyId,
        /// The station.
        p_bs: Vector3<f64>,
        /// The coordinate that switches it.
        coordinate: CoordinateRef,
        /// `[min, max]` of that coordinate (rad or m).
        range: [f64; 2],
    },
    /// A station whose body-frame coordinates are functions of one coordinate.
    Moving {
        /// The body.
        body: BodyId,
        /// The coordinate the functions take.
        coordinate: CoordinateRef,
        /// `[f_x, f_y, f_z]` (m), in the frame `x_bf`.
        location: Box<[Function; 3]>,
        /// The frame the functions are expressed in, fixed on the body (identity when the
        /// point's parent frame is the body itself).
        x_bf: Transform<f64>,
        /// The coordinate's `range`: the location is evaluated at the coordinate clamped to
        /// it (OpenSim's `MovingPathPoint::getLocation`); velocities and forces use the
        /// unclamped derivative, as OpenSim's do.
        range: [f64; 2],
    },
}

/// Where a point is at a state: its body, Ground position and velocity, and for a moving point
/// its coordinate and `R_GB p_bs'(q)`.
#[derive(Clone)]
pub(super) struct PointAt<T: Real> {
    pub(super) body: BodyId,
    pub(super) p_bs: Vector3<T>,
    pub(super) p_g: Vector3<T>,
    pub(super) v_g: Vector3<T>,
    pub(super) moving: Option<(CoordinateRef, Vector3<T>)>,
    /// For a wrap point: the index of its `PathWrap` and, on the second point, the length over
    /// the object from the first (zero on the first).
    pub(super) wrap: Option<(usize, T)>,
    /// For a point of the point set: its index there.
    pub(super) source: Option<usize>,
    /// Whether it is the second tangent point of a wrap.
    pub(super) is_second_tangent_point: bool,
}

/// A station fixed on a body, as a path node (OpenSim's `PathWrapPoint`s are).
pub(super) fn station_at<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    p_bs: Vector3<T>,
) -> PointAt<T> {
    let (_, p_g, v_g) = station_kinematics(ctx, body, &p_bs);
    PointAt {
        body,
        p_bs,
        p_g,
        v_g,
        moving: None,
        wrap: None,
        source: None,
        is_second_tangent_point: false,
    }
}

/// A body station's `r_G = R_GB p_bs`, Ground position and Ground velocity.
#[inline(always)]
fn station_kinematics<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    p_bs: &Vector3<T>,
) -> (Vector3<T>, Vector3<T>, Vector3<T>) {
    let x_gb = ctx.x_gb(body);
    let v_gb = ctx.v_gb(body);
    let r_g = x_gb.r * p_bs;
    let w = v_gb.fixed_rows::<3>(0).into_owned();
    let v = v_gb.fixed_rows::<3>(3).into_owned();
    (r_g, x_gb.p + r_g, v + w.cross(&r_g))
}

impl PathPoint {
    /// The body the point rides on.
    pub fn body(&self) -> BodyId {
        match self {
            PathPoint::Fixed { body, .. }
            | PathPoint::Conditional { body, .. }
            | PathPoint::Moving { body, .. } => *body,
        }
    }

    pub(super) fn is_active<T: Real>(&self, ctx: &ForceContext<'_, T>) -> bool {
        match self {
            PathPoint::Conditional {
                coordinate, range, ..
            } => {
                let q = ctx.q_of(coordinate.body, coordinate.index).re();
                q >= range[0] - 1e-5 && q <= range[1] + 1e-5
            }
            _ => true,
        }
    }

    pub(super) fn at<T: Real>(&self, ctx: &ForceContext<'_, T>, index: usize) -> PointAt<T> {
        let located = self.locate(ctx);
        PointAt {
            body: self.body(),
            p_bs: located.p_bs,
            p_g: located.p_g,
            v_g: located.v_g,
            moving: located.moving,
            wrap: None,
            source: Some(index),
            is_second_tangent_point: false,
        }
    }

    /// The point's station, Ground position and velocity and, for a moving point, its
    /// coordinate and `R_GB p_bs'(q)`.
    #[inline(always)]
    pub(super) fn locate<T: Real>(&self, ctx: &ForceContext<'_, T>) -> Located<T> {
        let body = self.body();
        let x_gb = ctx.x_gb(body);
        let (p_bs, moving, v_local) = match self {
            PathPoint::Fixed { p_bs, .. } | PathPoint::Conditional { p_bs, .. } => {
                (p_bs.map(T::c), None, Vector3::zeros())
            }
            PathPoint::Moving {
                coordinate,
                location,
                x_bf,
                range,
                ..
            } => {
                let q = ctx.q_of(coordinate.body, coordinate.index);
                let qdot = ctx.u_of(coordinate.body, coordinate.index);
                // OpenSim evaluates the location at q clamped to the coordinate's range, and
                // its derivatives (velocity, generalized force) at q itself.
                let clamped = q.re() < range[0] || q.re() > range[1];
                let value_and_slope = |f: &Function| {
                    if clamped {
                        let bound = if q.re() < range[0] {
                            range[0]
                        } else {
                            range[1]
                        };
                        let q_clamped = T::c(bound);
                        (f.value(q_clamped), f.derivative(q))
                    } else {
                        let (value, slope, _) = f.value_and_derivatives(q);
                        (value, slope)
                    }
                };
                let [(x, dx), (y, dy), (z, dz)] = [0, 1, 2].map(|i| value_and_slope(&location[i]));
                let r_bf = x_bf.r.map(T::c);
                let p = x_bf.p.map(T::c) + r_bf * Vector3::new(x, y, z);
                let dp_dq = r_bf * Vector3::new(dx, dy, dz);
                let dp_dq_g = x_gb.r * dp_dq;
                (p, Some((*coordinate, dp_dq_g)), dp_dq_g * qdot)
            }
        };
        let (r_g, p_g, v_g) = station_kinematics(ctx, body, &p_bs);
        Located {
            p_bs,
            r_g,
            p_g,
            v_g: v_g + v_local,
            moving,
        }
    }
}

/// A path point located at a state (see [`PathPoint::locate`]).
pub(super) struct Located<T: Real> {
    /// The station on the body (m).
    pub(super) p_bs: Vector3<T>,
    /// `R_GB p_bs`, the station from the body origin in Ground axes (m).
    pub(super) r_g: Vector3<T>,
    /// Ground position (m) and velocity (m/s).
    pub(super) p_g: Vector3<T>,
    pub(super) v_g: Vector3<T>,
    /// A moving point's coordinate and `R_GB p_bs'(q)`.
    pub(super) moving: Option<(CoordinateRef, Vector3<T>)>,
}

/// A path through points, in order from origin to insertion.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GeometryPath {
    /// The points.
    pub points: Vec<PathPoint>,
    /// The wrap objects the path may wrap over, in the order they are tried.
    pub wraps: Vec<PathWrap>,
}

/// The path's length (m) and lengthening speed (m/s) at a state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathKinematics<T> {
    /// Length ℓ.
    pub length: T,
    /// Lengthening speed ℓ̇.
    pub speed: T,
}

impl GeometryPath {
    /// Checks that every point's body and coordinate exist and that the functions and
    /// stations are finite.
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        if self.points.len() < 2 {
            return Err(invalid!(
                "a path needs at least 2 points, got {}",
                self.points.len()
            ));
        }
        for (k, p) in self.points.iter().enumerate() {
            crate::forces::check_body(bodies, p.body()).map_err(|e| invalid!("point {k}: {e}"))?;
            let coordinate = match p {
                PathPoint::Conditional {
                    coordinate, range, ..
                } => {
                    if range[0].is_nan() || range[1].is_nan() || range[0] > range[1] {
                        return Err(invalid!("point {k}: range {range:?} is inverted"));
                    }
                    Some(coordinate)
                }
                PathPoint::Moving { coordinate, .. } => Some(coordinate),
                PathPoint::Fixed { .. } => None,
            };
            if let Some(c) = coordinate {
                crate::forces::check_body(bodies, c.body)
                    .map_err(|e| invalid!("point {k}: {e}"))?;
                let n = bodies[c.body.0].nq();
                if c.index >= n {
                    return Err(invalid!(
                        "point {k}: body '{}' has no coordinate {}",
                        bodies[c.body.0].name,
                        c.index
                    ));
                }
            }
        }
        Ok(())
    }

    /// Length and lengthening speed over the current path.
    pub fn kinematics<T: Real>(&self, ctx: &ForceContext<'_, T>) -> PathKinematics<T> {
        if self.fits_buffer() {
            let mut buffer = PathBuffer::new();
            buffer.locate(self, ctx);
            buffer.kinematics()
        } else if !self.wraps.is_empty() {
            kinematics_of(self.current_path(ctx).iter())
        } else {
            kinematics_of(self.fixed_nodes(ctx))
        }
    }

    /// The current path's points in Ground (m): its active points with each engaged wrap
    /// object's two tangent points (the segment between those lies on the object).
    pub fn points_in_ground<T: Real>(&self, ctx: &ForceContext<'_, T>) -> Vec<Vector3<T>> {
        if self.wraps.is_empty() {
            self.fixed_nodes(ctx).map(|p| p.p_g).collect()
        } else {
            self.current_path(ctx).into_iter().map(|p| p.p_g).collect()
        }
    }

    /// Applies a tension (N, positive pulling the ends together) along the path.
    pub fn apply_tension<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        out: &mut ForceAccumulator<'_, T>,
        tension: T,
    ) {
        self.apply_tension_with(ctx, out, |_| tension);
    }

    /// Applies the tension `tension_of(ℓ, ℓ̇)` along the path, locating its points once (a
    /// wrapped path is computed once per evaluation, as OpenSim caches it per stage; a path
    /// of at most 8 points without wrap objects is held on the stack).
    pub fn apply_tension_with<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        out: &mut ForceAccumulator<'_, T>,
        tension_of: impl FnOnce(PathKinematics<T>) -> T,
    ) {
        self.apply_tension_into(ctx, out, &mut PathBuffer::new(), tension_of);
    }

    /// Whether the path is evaluated from a [`PathBuffer`] (no wrap objects, at most
    /// [`STACK_POINTS`] points).
    pub(crate) fn fits_buffer(&self) -> bool {
        self.wraps.is_empty() && self.points.len() <= STACK_POINTS
    }

    /// [`Self::apply_tension_with`] into any sink (the accumulator, or a recorder when the
    /// element runs in parallel), a path without wrap objects located into `buffer` (one
    /// buffer serves all the muscles of an evaluation: it is not cleared for each).
    pub(crate) fn apply_tension_into<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        out: &mut impl ForceSink<T>,
        buffer: &mut PathBuffer<T>,
        tension_of: impl FnOnce(PathKinematics<T>) -> T,
    ) {
        if self.fits_buffer() {
            buffer.locate(self, ctx);
            let tension = tension_of(buffer.kinematics());
            buffer.apply(self, out, tension);
        } else if !self.wraps.is_empty() {
            let nodes = self.current_path(ctx);
            let tension = tension_of(kinematics_of(nodes.iter()));
            apply_over(nodes.iter(), out, tension);
        } else {
            let tension = tension_of(kinematics_of(self.fixed_nodes(ctx)));
            apply_over(self.fixed_nodes(ctx), out, tension);
        }
    }

    /// The active points of a path without wrap objects, streamed.
    fn fixed_nodes<'s, 'c, T: Real>(
        &'s self,
        ctx: &'s ForceContext<'c, T>,
    ) -> impl Iterator<Item = PointAt<T>> + 's {
        self.points
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.is_active(ctx))
            .map(move |(k, p)| p.at(ctx, k))
    }
}

/// Length and lengthening speed over a sequence of path nodes.
fn kinematics_of<T: Real, P: Borrow<PointAt<T>>>(
    nodes: impl Iterator<Item = P>,
) -> PathKinematics<T> {
    let mut length = T::zero();
    let mut speed = T::zero();
    let mut previous: Option<P> = None;
    for here in nodes {
        if let Some(prev) = &previous {
            let (prev, here) = (prev.borrow(), here.borrow());
            length += segment_length(prev, here);
            speed += speed_between(prev, here);
        }
        previous = Some(here);
    }
    PathKinematics { length, speed }
}

/// Applies `tension` over a sequence of path nodes (`GeometryPath::produceForces`).
fn apply_over<T: Real, P: Borrow<PointAt<T>>>(
    nodes: impl Iterator<Item = P>,
    out: &mut impl ForceSink<T>,
    tension: T,
) {
    let mut previous: Option<P> = None;
    for here in nodes {
        if let Some(prev) = &previous {
            let (prev, here) = (prev.borrow(), here.borrow());
            if prev.body != here.body {
                let f = pull_direction(&prev.p_g, &here.p_g) * tension;
                out.add_station_force(prev.body, &prev.p_bs, &f);
                out.add_station_force(here.body, &here.p_bs, &(-f));
                if let Some((c, dp_dq_g)) = &prev.moving {
                    out.add_mobility_force(c.body, c.index, dp_dq_g.dot(&f));
                }
                if let Some((c, dp_dq_g)) = &here.moving {
                    out.add_mobility_force(c.body, c.index, -dp_dq_g.dot(&f));
                }
            }
        }
        previous = Some(here);
    }
}

/// A segment's length: over the wrap object between a wrap object's two points, else straight
/// (`calcLengthAfterPathComputation`).
pub(super) fn segment_length<T: Real>(a: &PointAt<T>, b: &PointAt<T>) -> T {
    match (a.wrap, b.wrap) {
        (Some((wa, _)), Some((wb, length))) if wa == wb => length,
        _ => (a.p_g - b.p_g).norm(),
    }
}

/// `Point::calcSpeedBetween`: the relative velocity projected on the separation.
fn speed_between<T: Real>(a: &PointAt<T>, b: &PointAt<T>) -> T {
    separation_speed(&a.p_g, &b.p_g, &a.v_g, &b.v_g)
}

/// `Point::calcSpeedBetween` of two Ground points `p_a`, `p_b` with velocities `v_a`, `v_b`:
/// `(v_a − v_b)·(p_a − p_b)/|p_a − p_b|`, or `|v_a − v_b|` when they coincide.
#[inline(always)]
pub(super) fn separation_speed<T: Real>(
    p_a: &Vector3<T>,
    p_b: &Vector3<T>,
    v_a: &Vector3<T>,
    v_b: &Vector3<T>,
) -> T {
    let r = p_a - p_b;
    let d = r.norm();
    let v = v_a - v_b;
    if d.re() < f64::EPSILON {
        v.norm()
    } else {
        v.dot(&(r / d))
    }
}

/// The unit vector from `from` to `to` along which a path pulls `from` (NaN where the two
/// coincide, as OpenSim's division by a zero length gives).
#[inline(always)]
pub(super) fn pull_direction<T: Real>(from: &Vector3<T>, to: &Vector3<T>) -> Vector3<T> {
    let r = to - from;
    let d = r.norm();
    if d.re() < f64::EPSILON {
        r * T::c(f64::NAN)
    } else {
        r / d
    }
}
