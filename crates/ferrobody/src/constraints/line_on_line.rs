//! Constraint::LineOnLineContact (notes §5.5; Simbody `Constraint_LineOnLineContact.h`): the
//! line of edge `Ef` on body F touches the line of edge `Eb` on body B, optionally without slip.
//!
//! Each edge frame has its origin at the edge centre P, x along the edge direction d and z along
//! the outward ("space") direction s. With `w = df × db`:
//!
//! ```text
//! σ  = sign(sf·w) if |sf·w| > |sb·w| else −sign(sb·w),   n = σ w/|w|   (+n separates B from F)
//! p  = Pb − Pf,   perr = r = p·n
//! tf = p·(n×db) / df·(n×db),   tb = −p·(n×df) / db·(n×df)
//! Qf = Pf + tf df,   Qb = Pb + tb db,   Co = (Qf + Qb)/2;   frame C: z = n, x = df, y = n × df
//! verr = n·(v_B@Qb − v_F@Qf) = ṗ·n + p·ṅ,          aerr = p̈·n + 2 ṗ·ṅ + p·n̈
//! ṅ = (ẇσ − n (n·ẇσ))/|w|,   n̈ = (ẅσ − 2 ṅ (n·ẇσ) − n (ṅ·ẇσ + n·ẅσ))/|w|,   ẇσ = σ ẇ
//! rolling rows: verr_x,y = v_rel·Cx,y,   v_rel = v_B@Co − v_F@Co,   aerr_x,y = a_rel·Cx,y + v_rel·Ċx,y
//! ```
//!
//! with `ḋ = ω × d`, `d̈ = α × d + ω × (ω × d)`, `Ċx = ḋf`, `Ċy = ṅ × df + n × ḋf` and `a_rel` the
//! derivative of `v_rel` with Co moving (as in [`super::sphere_on_sphere`]). λ of the normal row
//! acts as the force λ n on B at Qb and −λ n on F at Qf; the tangential multipliers act on the
//! material points at Co. Parallel edges (|w| below `TinyReal`) take `n = sf`. The edge
//! half-lengths do not affect the constraint (it works on the lines); they are kept for display
//! and for the unilateral contact's proximity test. Rows are ordered [normal, x, y].

use super::station::BodyMotion;
use crate::ids::BodyId;
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// Edge-on-edge contact constraint between two non-parallel edges.
#[derive(Clone, Debug, PartialEq)]
pub struct LineOnLineContact<T: Real = f64> {
    /// Body F.
    pub body_f: BodyId,
    /// Edge frame `x_fe` of Ef on F: origin at the edge centre, x along the edge, z outward.
    pub edge_frame_f: Transform<T>,
    /// Half-length of Ef (m).
    pub half_length_f: T,
    /// Body B.
    pub body_b: BodyId,
    /// Edge frame `x_be` of Eb on B.
    pub edge_frame_b: Transform<T>,
    /// Half-length of Eb (m).
    pub half_length_b: T,
    /// Whether the two no-slip rows are generated.
    pub enforce_rolling: bool,
}

/// One edge in Ground: centre, direction, outward direction, and their first two derivatives.
struct Edge<T: Real> {
    p: Vector3<T>,
    d: Vector3<T>,
    s: Vector3<T>,
}

/// The pose-level geometry of the contact.
pub(crate) struct LineGeometry<T: Real> {
    pub(crate) n: Vector3<T>,
    pub(crate) r: T,
    pub(crate) tf: T,
    pub(crate) tb: T,
    pub(crate) qf: Vector3<T>,
    pub(crate) qb: Vector3<T>,
    pub(crate) co: Vector3<T>,
    df: Vector3<T>,
    db: Vector3<T>,
    p: Vector3<T>,
    /// σ w and |w| (zero when the edges are parallel).
    w: Vector3<T>,
    w_norm: T,
}

impl<T: Real> LineOnLineContact<T> {
    fn edge(&self, k: &BodyMotion<T>, body: BodyId, x: &Transform<T>) -> Edge<T> {
        let r = k.x_gb[body.0].r * x.r;
        Edge {
            p: k.point(body.0, &x.p),
            d: r.column(0).into_owned(),
            s: r.column(2).into_owned(),
        }
    }

    pub(crate) fn geometry(&self, k: &BodyMotion<T>) -> LineGeometry<T> {
        let ef = self.edge(k, self.body_f, &self.edge_frame_f);
        let eb = self.edge(k, self.body_b, &self.edge_frame_b);
        let w = ef.d.cross(&eb.d);
        let w_norm = w.norm();
        let p = eb.p - ef.p;
        if w_norm.re() < super::TINY_REAL {
            let n = ef.s;
            return LineGeometry {
                r: p.dot(&n),
                n,
                tf: T::zero(),
                tb: T::zero(),
                qf: ef.p,
                qb: eb.p,
                co: (ef.p + eb.p) * T::c(0.5),
                df: ef.d,
                db: eb.d,
                p,
                w: Vector3::zeros(),
                w_norm: T::zero(),
            };
        }
        let (sfw, sbw) = (ef.s.dot(&w), eb.s.dot(&w));
        let sigma = if sfw.re().abs() > sbw.re().abs() {
            sign(sfw)
        } else {
            -sign(sbw)
        };
        let w = w * sigma;
        let n = w / w_norm;
        let tf = p.dot(&n.cross(&eb.d)) / ef.d.dot(&n.cross(&eb.d));
        let tb = -p.dot(&n.cross(&ef.d)) / eb.d.dot(&n.cross(&ef.d));
        let qf = ef.p + ef.d * tf;
        let qb = eb.p + eb.d * tb;
        LineGeometry {
            r: p.dot(&n),
            n,
            tf,
            tb,
            qf,
            qb,
            co: (qf + qb) * T::c(0.5),
            df: ef.d,
            db: eb.d,
            p,
            w,
            w_norm,
        }
    }

    /// The contact frame in Ground: origin Co, z = n, x = df, y = n × df.
    pub fn contact_frame(&self, k: &BodyMotion<T>) -> Transform<T> {
        let g = self.geometry(k);
        let y = g.n.cross(&g.df);
        Transform {
            r: nalgebra::Matrix3::from_columns(&[g.df, y, g.n]),
            p: g.co,
        }
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.geometry(k).r;
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let g = self.geometry(k);
        let (f, b) = (self.body_f.0, self.body_b.0);
        out[0] =
            g.n.dot(&(k.velocity_at(b, &g.qb) - k.velocity_at(f, &g.qf)));
        if self.enforce_rolling {
            let v_rel = k.velocity_at(b, &g.co) - k.velocity_at(f, &g.co);
            out[1] = v_rel.dot(&g.df);
            out[2] = v_rel.dot(&g.n.cross(&g.df));
        }
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let g = self.geometry(k);
        let (f, b) = (self.body_f.0, self.body_b.0);
        let (wf, wb) = (k.omega(f), k.omega(b));
        let (af, ab) = (k.alpha(f), k.alpha(b));
        let (pf, pb) = (g.qf - g.df * g.tf, g.qb - g.db * g.tb);
        let pdot = k.velocity_at(b, &pb) - k.velocity_at(f, &pf);
        let pddot = k.acceleration_at(b, &pb) - k.acceleration_at(f, &pf);
        let (dfd, dbd) = (wf.cross(&g.df), wb.cross(&g.db));
        let (ndot, nddot) = if g.w_norm.re() > 0.0 {
            let sigma = g.w.dot(&g.df.cross(&g.db)) / (g.w_norm * g.w_norm);
            let dfdd = af.cross(&g.df) + wf.cross(&dfd);
            let dbdd = ab.cross(&g.db) + wb.cross(&dbd);
            let wd = (dfd.cross(&g.db) + g.df.cross(&dbd)) * sigma;
            let wdd = (dfdd.cross(&g.db) + dfd.cross(&dbd) * T::c(2.0) + g.df.cross(&dbdd)) * sigma;
            let ndot = (wd - g.n * g.n.dot(&wd)) / g.w_norm;
            let nddot =
                (wdd - ndot * (g.n.dot(&wd) * T::c(2.0)) - g.n * (ndot.dot(&wd) + g.n.dot(&wdd)))
                    / g.w_norm;
            (ndot, nddot)
        } else {
            let ndot = wf.cross(&g.n);
            (ndot, af.cross(&g.n) + wf.cross(&ndot))
        };
        out[0] = pddot.dot(&g.n) + pdot.dot(&ndot) * T::c(2.0) + g.p.dot(&nddot);
        if !self.enforce_rolling {
            return;
        }
        let co_dot = self.contact_point_rate(k, &g, &pdot, &ndot, &dfd, &dbd);
        let (v_b, v_f) = (k.velocity_at(b, &g.co), k.velocity_at(f, &g.co));
        let v_rel = v_b - v_f;
        let a_rel = (k.acceleration_at(b, &g.co) - k.acceleration_at(f, &g.co))
            + wb.cross(&(co_dot - v_b))
            - wf.cross(&(co_dot - v_f));
        let cy = g.n.cross(&g.df);
        let cy_dot = ndot.cross(&g.df) + g.n.cross(&dfd);
        out[1] = a_rel.dot(&g.df) + v_rel.dot(&dfd);
        out[2] = a_rel.dot(&cy) + v_rel.dot(&cy_dot);
    }

    /// `Ċo = (Q̇f + Q̇b)/2` with `Q̇ = Ṗ + ṫ d + t ḋ` and `ṫ` from the quotient rule.
    fn contact_point_rate(
        &self,
        k: &BodyMotion<T>,
        g: &LineGeometry<T>,
        pdot: &Vector3<T>,
        ndot: &Vector3<T>,
        dfd: &Vector3<T>,
        dbd: &Vector3<T>,
    ) -> Vector3<T> {
        let (f, b) = (self.body_f.0, self.body_b.0);
        let quotient_rate = |d_this: &Vector3<T>,
                             dd_this: &Vector3<T>,
                             d_other: &Vector3<T>,
                             dd_other: &Vector3<T>| {
            let a = g.n.cross(d_other);
            let a_dot = ndot.cross(d_other) + g.n.cross(dd_other);
            let (num, den) = (g.p.dot(&a), d_this.dot(&a));
            let num_dot = pdot.dot(&a) + g.p.dot(&a_dot);
            let den_dot = dd_this.dot(&a) + d_this.dot(&a_dot);
            (num_dot * den - num * den_dot) / (den * den)
        };
        let (tf_dot, tb_dot) = if g.w_norm.re() > 0.0 {
            (
                quotient_rate(&g.df, dfd, &g.db, dbd),
                -quotient_rate(&g.db, dbd, &g.df, dfd),
            )
        } else {
            (T::zero(), T::zero())
        };
        let (pf, pb) = (g.qf - g.df * g.tf, g.qb - g.db * g.tb);
        let qf_dot = k.velocity_at(f, &pf) + g.df * tf_dot + dfd * g.tf;
        let qb_dot = k.velocity_at(b, &pb) + g.db * tb_dot + dbd * g.tb;
        (qf_dot + qb_dot) * T::c(0.5)
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], f: &mut [SpatialVec<T>]) {
        let g = self.geometry(k);
        let (bf, bb) = (self.body_f.0, self.body_b.0);
        let normal = g.n * lambda[0];
        k.add_force_at(f, bb, &g.qb, &normal);
        k.add_force_at(f, bf, &g.qf, &-normal);
        if self.enforce_rolling {
            let t = g.df * lambda[1] + g.n.cross(&g.df) * lambda[2];
            k.add_force_at(f, bb, &g.co, &t);
            k.add_force_at(f, bf, &g.co, &-t);
        }
    }
}

fn sign<T: Real>(x: T) -> T {
    if x.re() < 0.0 {
        -T::one()
    } else {
        T::one()
    }
}
