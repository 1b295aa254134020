//! Each mobilizer's hinge matrix and Ḣu agree with finite differences of its pose.

use super::Mobilizer;
use crate::math::quaternion::quaternion_dot_to_ang_vel;
use crate::math::{angular, linear, SpatialVec};
use nalgebra::{Matrix3, Vector3};

fn sample_q(m: Mobilizer) -> Vec<f64> {
    let mut q: Vec<f64> = (0..m.nq()).map(|i| 0.3 + 0.17 * i as f64).collect();
    if let Some(k) = m.quaternion_offset() {
        let n = q[k..k + 4].iter().map(|x| x * x).sum::<f64>().sqrt();
        q[k..k + 4].iter_mut().for_each(|x| *x /= n);
    }
    q
}

fn sample_u(m: Mobilizer) -> Vec<f64> {
    (0..m.nu()).map(|i| 0.7 - 0.4 * i as f64).collect()
}

/// V_FM from finite differences of x_fm along q̇ = N(q) u.
fn fd_velocity(m: Mobilizer, q: &[f64], u: &[f64]) -> SpatialVec<f64> {
    let h = 1e-6;
    let mut qd = vec![0.0; m.nq()];
    m.qdot(q, u, &mut qd);
    let step = |s: f64| -> Vec<f64> { q.iter().zip(&qd).map(|(a, b)| a + s * b).collect() };
    let (xp, xm) = (m.x_fm(&step(h)), m.x_fm(&step(-h)));
    let rdot: Matrix3<f64> = (xp.r - xm.r) / (2.0 * h);
    let wx = rdot * m.x_fm(q).r.transpose();
    let w = Vector3::new(wx[(2, 1)], wx[(0, 2)], wx[(1, 0)]);
    let v = (xp.p - xm.p) / (2.0 * h);
    crate::math::spatial(w, v)
}

#[test]
fn hinge_matches_finite_difference_of_pose() {
    for m in Mobilizer::ALL {
        let (q, u) = (sample_q(m), sample_u(m));
        let mut h = vec![SpatialVec::zeros(); m.nu()];
        m.hinge(&q, &mut h);
        let v: SpatialVec<f64> = h.iter().zip(&u).map(|(c, ui)| c * *ui).sum();
        let fd = fd_velocity(m, &q, &u);
        assert!(
            (v - fd).norm() < 1e-8,
            "{m}: H u = {v:?}, finite difference {fd:?}"
        );
    }
}

#[test]
fn hdot_u_matches_finite_difference_of_hinge() {
    for m in Mobilizer::ALL {
        let (q, u) = (sample_q(m), sample_u(m));
        let mut qd = vec![0.0; m.nq()];
        m.qdot(&q, &u, &mut qd);
        let hv = |s: f64| -> SpatialVec<f64> {
            let qs: Vec<f64> = q.iter().zip(&qd).map(|(a, b)| a + s * b).collect();
            let mut h = vec![SpatialVec::zeros(); m.nu()];
            m.hinge(&qs, &mut h);
            h.iter().zip(&u).map(|(c, ui)| c * *ui).sum()
        };
        let eps = 1e-6;
        let fd = (hv(eps) - hv(-eps)) / (2.0 * eps);
        let an = m.hdot_u(&q, &u);
        assert!(
            (an - fd).norm() < 1e-8,
            "{m}: Ḣu = {an:?}, finite difference {fd:?}"
        );
    }
}

#[test]
fn quaternion_mobilizers_use_angular_velocity_in_f() {
    for m in [Mobilizer::Ball, Mobilizer::Free] {
        let (q, u) = (sample_q(m), sample_u(m));
        let mut qd = vec![0.0; m.nq()];
        m.qdot(&q, &u, &mut qd);
        let w = quaternion_dot_to_ang_vel(&q[..4], &qd[..4]);
        assert!((w - Vector3::new(u[0], u[1], u[2])).norm() < 1e-14);
        let fd = fd_velocity(m, &q, &u);
        assert!((angular(&fd) - w).norm() < 1e-8);
        if m == Mobilizer::Free {
            assert!((linear(&fd) - Vector3::new(u[3], u[4], u[5])).norm() < 1e-8);
        }
    }
}

#[test]
fn counts_are_consistent() {
    for m in Mobilizer::ALL {
        let mut q = vec![9.0; m.nq()];
        m.default_q(&mut q);
        let x = m.x_fm(&q);
        assert!(
            (x.r - Matrix3::identity()).norm() < 1e-15 && x.p.norm() < 1e-15,
            "{m}"
        );
        assert!(m.nu() <= m.nq());
    }
}

/// A knee-like transform: three rotations about skew axes, each following its own coordinate
/// (the second through a spline), and a translation coupled to the first through a spline.
fn knee_like() -> super::SpatialTransform {
    use super::AxisFunction;
    use crate::math::function::{CubicSpline, Function};
    let spline = |y: Vec<f64>| {
        Function::Spline(CubicSpline::simm(vec![-2.0, -1.0, 0.0, 1.0, 2.0], y).unwrap())
    };
    let linear = |slope| Function::Linear {
        slope,
        intercept: 0.0,
    };
    let of = |k: Option<usize>, function| AxisFunction {
        coordinate: k,
        function,
    };
    let unit = |x: f64, y: f64, z: f64| Vector3::new(x, y, z).normalize();
    super::SpatialTransform {
        axes: [
            unit(0.1, 0.0, 1.0),
            unit(1.0, 0.2, 0.0),
            unit(0.0, 1.0, 0.1),
            unit(1.0, 0.0, 0.0),
            unit(0.0, 1.0, 0.0),
            unit(0.0, 0.0, 1.0),
        ],
        functions: [
            of(Some(0), linear(1.0)),
            of(Some(1), spline(vec![-0.5, -0.2, 0.0, 0.3, 0.4])),
            of(Some(2), linear(-1.0)),
            of(Some(0), spline(vec![0.01, -0.02, 0.0, 0.03, 0.01])),
            of(None, Function::Constant(0.02)),
            of(Some(0), Function::Polynomial(vec![0.01, -0.02, 0.0])),
        ],
        nq: 3,
    }
}

#[test]
fn function_based_hinge_and_hdot_match_finite_differences() {
    let st = knee_like();
    st.validate().unwrap();
    let q = [0.4, -0.3, 0.7];
    let u = [0.9, -1.3, 0.5];
    let h_of = |q: &[f64]| {
        let mut h = vec![SpatialVec::zeros(); 3];
        st.hinge(q, &mut h);
        h
    };
    let step = |s: f64| -> Vec<f64> { q.iter().zip(&u).map(|(a, b)| a + s * b).collect() };
    let eps = 1e-6;
    let (xp, xm) = (st.x_fm(&step(eps)), st.x_fm(&step(-eps)));
    let rdot: Matrix3<f64> = (xp.r - xm.r) / (2.0 * eps);
    let wx = rdot * st.x_fm(&q).r.transpose();
    let w = Vector3::new(wx[(2, 1)], wx[(0, 2)], wx[(1, 0)]);
    let v = (xp.p - xm.p) / (2.0 * eps);
    let hu: SpatialVec<f64> = h_of(&q).iter().zip(&u).map(|(c, ui)| c * *ui).sum();
    assert!(
        (hu - crate::math::spatial(w, v)).norm() < 1e-8,
        "H u = {hu:?}"
    );
    let hv =
        |s: f64| -> SpatialVec<f64> { h_of(&step(s)).iter().zip(&u).map(|(c, ui)| c * *ui).sum() };
    let fd = (hv(eps) - hv(-eps)) / (2.0 * eps);
    let an = st.hdot_u(&q, &u);
    assert!(
        (an - fd).norm() < 1e-7,
        "Ḣu = {an:?}, finite difference {fd:?}"
    );
}

#[test]
fn qdotdot_matches_finite_difference_of_qdot() {
    // q̈ = d/dt N(q(t)) u(t) along q̇ = N u and a chosen u̇.
    for m in Mobilizer::ALL {
        let (q, u) = (sample_q(m), sample_u(m));
        let udot: Vec<f64> = (0..m.nu()).map(|i| -0.5 + 0.3 * i as f64).collect();
        let mut qd = vec![0.0; m.nq()];
        m.qdot(&q, &u, &mut qd);
        let mut exact = vec![0.0; m.nq()];
        m.qdotdot(&q, &u, &qd, &udot, &mut exact);
        let h = 1e-6;
        let at = |s: f64| {
            let qs: Vec<f64> = q.iter().zip(&qd).map(|(a, b)| a + s * b).collect();
            let us: Vec<f64> = u.iter().zip(&udot).map(|(a, b)| a + s * b).collect();
            let mut out = vec![0.0; m.nq()];
            m.qdot(&qs, &us, &mut out);
            out
        };
        let (p, n) = (at(h), at(-h));
        for k in 0..m.nq() {
            let fd = (p[k] - n[k]) / (2.0 * h);
            // Central differences: O(h²) ≈ 1e-12 plus round-off ε/h ≈ 1e-10.
            assert!(
                (exact[k] - fd).abs() < 1e-8,
                "{m} q̈[{k}]: {} vs {fd}",
                exact[k]
            );
        }
    }
}
