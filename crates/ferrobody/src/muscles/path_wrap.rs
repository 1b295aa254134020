//! Wrap objects on a path: OpenSim's `GeometryPath::applyWrapObjects`.
//!
//! For each `PathWrap` in turn (its wrap points from the previous pass removed), each segment of
//! the current path within the wrap's point range is tried; a segment that crosses the object
//! (`MandatoryWrap`) is taken at once, otherwise the wrap that lengthens the path least. The
//! two tangent points (fixed on the object's body) are inserted, the second carrying the length
//! over the surface. One wrap object is done once; with several, passes repeat (up to 8) until
//! the length changes by less than 0.5 mm, swapping the first two objects when the first does
//! not wrap and the second finds a point inside it.
//!
//! OpenSim caches a point's location in Ground the first time it is asked for it in a state
//! (`Point::getLocationInGround`), while a `PathWrapPoint`'s location on its body
//! (`setLocation`) is updated on every pass. With several wrap objects the tangent points of a
//! later pass therefore keep the Ground location of the first pass that measured them (the
//! length-change comparison or the end-of-pass length) for lengths, directions and speeds,
//! while forces are applied at, and velocities computed from, their latest body location.
//! `FrozenWrapPoints` reproduces that; with one wrap object nothing changes.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/GeometryPath.cpp`,
//! `OpenSim/Simulation/Wrap/{WrapObject, PathWrap}.cpp`.

use super::path::{segment_length, station_at, GeometryPath, PointAt};
use super::wrap_cylinder::{Quadrant, WrapAction, WrapCylinder, WrapHit};
use super::wrap_ellipsoid::{WrapEllipsoid, WrapMethod};
use super::wrap_sphere::WrapSphere;
use super::wrap_torus::WrapTorus;
use crate::forces::ForceContext;
use crate::ids::BodyId;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;
use smallvec::{smallvec, SmallVec};

/// A wrapped path's nodes, held on the stack up to 12 (the wrapped paths of opensim-models
/// have at most 11: 7 points and two wraps' tangent points), so that evaluating one does not
/// allocate.
pub(super) type PathNodes<T> = SmallVec<[PointAt<T>; 12]>;

/// Per-wrap bookkeeping of one evaluation, on the stack up to 4 wrap objects on a path.
type PerWrap<X> = SmallVec<[X; 4]>;

/// A wrap object's shape.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WrapShape {
    /// OpenSim's `WrapCylinder`.
    Cylinder(WrapCylinder),
    /// OpenSim's `WrapEllipsoid`.
    Ellipsoid(WrapEllipsoid),
    /// OpenSim's `WrapSphere`.
    Sphere(WrapSphere),
    /// OpenSim's `WrapTorus`.
    Torus(WrapTorus),
}

/// A wrap object fixed on a body.
#[derive(Clone, Debug, PartialEq)]
pub struct WrapObject {
    /// Its name.
    pub name: String,
    /// The body it is fixed on.
    pub body: BodyId,
    /// Its frame W in the body (`translation`, `xyz_body_rotation`).
    pub x_bw: Transform<f64>,
    /// The side it wraps over.
    pub quadrant: Quadrant,
    /// `active`.
    pub active: bool,
    /// Its shape.
    pub shape: WrapShape,
}

/// A path's use of a wrap object (OpenSim's `PathWrap`).
#[derive(Clone, Debug, PartialEq)]
pub struct PathWrap {
    /// The object.
    pub object: WrapObject,
    /// 1-based first and last path points to consider (below 1: the path's ends).
    pub range: [i32; 2],
    /// How the wrapping plane over an ellipsoid is chosen (`method`; other shapes ignore it).
    pub method: WrapMethod,
}

impl WrapObject {
    /// Wraps the segment between two path nodes: the action and, if it wraps, the tangent
    /// points in the body frame with the length over the surface.
    fn wrap_segment<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        a: &PointAt<T>,
        b: &PointAt<T>,
        single: bool,
        method: WrapMethod,
    ) -> (WrapAction, Option<WrapHit<T>>) {
        let x_gb = ctx.x_gb(self.body);
        let r_bw = self.x_bw.r.map(T::c);
        let p_bw = self.x_bw.p.map(T::c);
        // From the points' current body locations (`getLocation`), not their Ground
        // locations, which may be frozen from an earlier pass.
        let to_w = |p: &PointAt<T>| {
            let x_gp = ctx.x_gb(p.body);
            let p_g = x_gp.p + x_gp.r * p.p_bs;
            let p_b = x_gb.r.transpose() * (p_g - x_gb.p);
            r_bw.transpose() * (p_b - p_bw)
        };
        let (p1, p2) = (to_w(a), to_w(b));
        let (code, hit) = match &self.shape {
            WrapShape::Cylinder(c) => c.wrap_line(&p1, &p2, self.quadrant, single),
            WrapShape::Ellipsoid(e) => e.wrap_line(&p1, &p2, self.quadrant, method),
            WrapShape::Sphere(s) => s.wrap_line(&p1, &p2, self.quadrant),
            WrapShape::Torus(t) => t.wrap_line(&p1, &p2, self.quadrant, single),
        };
        let hit = hit.map(|h| WrapHit {
            r1: p_bw + r_bw * h.r1,
            r2: p_bw + r_bw * h.r2,
            length: h.length,
        });
        (code, hit)
    }
}

impl GeometryPath {
    /// The current path: active points with the wrap points inserted.
    pub(super) fn current_path<T: Real>(&self, ctx: &ForceContext<'_, T>) -> PathNodes<T> {
        let mut path: PathNodes<T> = self
            .points
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_active(ctx))
            .map(|(k, p)| p.at(ctx, k))
            .collect();
        let n = self.wraps.len();
        let mut frozen = FrozenWrapPoints::new(n);
        let mut order: PerWrap<usize> = (0..n).collect();
        let mut result: PerWrap<WrapAction> = smallvec![WrapAction::NoWrap; n];
        let iterations = if n < 2 { 1 } else { 8 };
        let mut last_length = f64::INFINITY;
        for kk in 0..iterations {
            for i in 0..n {
                result[i] = WrapAction::NoWrap;
                let w = order[i];
                remove_wrap_points(&mut path, w);
                if !self.wraps[w].object.active {
                    continue;
                }
                match self.wrap_once(ctx, &mut path, w, n == 1, &mut frozen) {
                    Some(code) => result[i] = code,
                    None => return path,
                }
            }
            if kk + 1 == iterations {
                break;
            }
            for p in &path {
                frozen.observe(p);
            }
            let length: f64 = path
                .windows(2)
                .map(|s| segment_length(&s[0], &s[1]).re())
                .sum();
            if (length - last_length).abs() < 0.0005 {
                break;
            }
            last_length = length;
            if kk == 0
                && n > 1
                && result[0] == WrapAction::NoWrap
                && result[1] == WrapAction::InsideRadius
            {
                order.swap(0, 1);
                remove_wrap_points(&mut path, 0);
            }
        }
        path
    }

    /// Tries wrap `w` on each segment of its range; inserts the best wrap's points. `None`
    /// when the range holds no active point (OpenSim then stops wrapping the path).
    fn wrap_once<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        path: &mut PathNodes<T>,
        w: usize,
        single: bool,
        frozen: &mut FrozenWrapPoints<T>,
    ) -> Option<WrapAction> {
        let wrap = &self.wraps[w];
        let count = self.points.len() as i32;
        let first = if wrap.range[0] < 1 {
            0
        } else {
            wrap.range[0] - 1
        };
        let last = if wrap.range[1] < 1 {
            count - 1
        } else {
            wrap.range[1] - 1
        };
        let active = |j: i32| (0..count).contains(&j) && self.points[j as usize].is_active(ctx);
        let jfwd = (first..=last).find(|&j| active(j))? as usize;
        let jrev = (first..=last).rev().find(|&j| active(j))? as usize;
        let start = path.iter().position(|p| p.source == Some(jfwd))?;
        let end = path.iter().position(|p| p.source == Some(jrev))?;
        let mut code = WrapAction::NoWrap;
        let mut best: Option<(usize, WrapHit<T>)> = None;
        let mut min_change = f64::INFINITY;
        for pt1 in start..end {
            let pt2 = pt1 + 1;
            let same_object = matches!((path[pt1].wrap, path[pt2].wrap),
                (Some((a, _)), Some((b, _))) if a == b);
            if same_object {
                continue;
            }
            let (c, hit) =
                wrap.object
                    .wrap_segment(ctx, &path[pt1], &path[pt2], single, wrap.method);
            code = c;
            let Some(hit) = hit else { continue };
            match c {
                WrapAction::MandatoryWrap => {
                    best = Some((pt2, hit));
                    break;
                }
                WrapAction::Wrapped => {
                    frozen.observe(&path[pt1]);
                    frozen.observe(&path[pt2]);
                    let change =
                        self.length_change(ctx, &wrap.object, &path[pt1], &path[pt2], &hit);
                    if change < min_change {
                        best = Some((pt2, hit));
                        min_change = change;
                    }
                }
                _ => {}
            }
        }
        if let Some((at, hit)) = best {
            let body = wrap.object.body;
            let mut first = station_at(ctx, body, hit.r1);
            first.wrap = Some((w, T::zero()));
            let mut second = station_at(ctx, body, hit.r2);
            second.wrap = Some((w, hit.length));
            frozen.apply(&mut first, 0);
            frozen.apply(&mut second, 1);
            path.insert(at, first);
            path.insert(at + 1, second);
        }
        Some(code)
    }

    /// `calcPathLengthChange`: the wrapped length of the segment minus its straight length.
    fn length_change<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        object: &WrapObject,
        a: &PointAt<T>,
        b: &PointAt<T>,
        hit: &WrapHit<T>,
    ) -> f64 {
        let x_gb = ctx.x_gb(object.body);
        let r1_g = x_gb.p + x_gb.r * hit.r1;
        let r2_g = x_gb.p + x_gb.r * hit.r2;
        let straight = (a.p_g - b.p_g).norm();
        let wrapped = (a.p_g - r1_g).norm() + hit.length + (r2_g - b.p_g).norm();
        (wrapped - straight).re()
    }
}

/// The Ground locations of each wrap object's two tangent points as OpenSim first measured
/// them in this state (see the module documentation).
struct FrozenWrapPoints<T: Real>(PerWrap<[Option<Vector3<T>>; 2]>);

impl<T: Real> FrozenWrapPoints<T> {
    fn new(wraps: usize) -> Self {
        Self(smallvec![[None, None]; wraps])
    }

    /// Records a wrap point's Ground location if it is the first measurement.
    fn observe(&mut self, p: &PointAt<T>) {
        if let Some((w, _)) = p.wrap {
            self.0[w][usize::from(p.is_second_tangent_point)].get_or_insert(p.p_g);
        }
    }

    /// Gives a newly placed tangent point `k` its first measured Ground location.
    fn apply(&self, p: &mut PointAt<T>, k: usize) {
        if let Some((w, _)) = p.wrap {
            if let Some(p_g) = self.0[w][k] {
                p.p_g = p_g;
            }
        }
        p.is_second_tangent_point = k == 1;
    }
}

fn remove_wrap_points<T: Real>(path: &mut PathNodes<T>, w: usize) {
    if let Some(j) = path
        .iter()
        .position(|p| matches!(p.wrap, Some((k, _)) if k == w))
    {
        path.remove(j);
        path.remove(j);
    }
}
