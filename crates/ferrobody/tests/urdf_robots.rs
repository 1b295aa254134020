//! URDF robots against Pinocchio (testdata/urdf, made by scripts/pinocchio/make_references.py
//! with Pinocchio 4.1 on the example-robot-data robots): the mass matrix M(q), forward dynamics
//! (ABA) and inverse dynamics (RNEA) on three random states each, to 1e-10 relative (the
//! acceptance limit: both are exact recursive algorithms in f64).
//!
//! Pinocchio's free flyer has q = [p, quaternion x y z w] and v = [v, ω] in the base frame B;
//! ferrobody's Free has q = [quaternion w x y z, p] and u = [ω, v] in Ground. With R = R_GB,
//! u = T v for the orthogonal T = blocks of R (and the reordering), so M = T M_pin Tᵀ and
//! τ = T τ_pin; accelerations differ by the frame's rotation: p̈ = R (v̇_B + ω_B × v_B).

use ferrobody::algorithms::{crba, rnea};
use ferrobody::io::urdf::{self, RootJoint};
use ferrobody::pipeline::forward_dynamics;
use ferrobody::prelude::*;
use nalgebra::{DMatrix, DVector, Quaternion, UnitQuaternion};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/urdf")
}

fn vector(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// One state in ferrobody's terms: q, u, the map T (u = T v_pin) and the acceleration offset c
/// (u̇ = T a_pin + c).
struct Mapped {
    q: DVector<f64>,
    u: DVector<f64>,
    t: DMatrix<f64>,
    c: DVector<f64>,
}

fn map_state(model: &Model<f64>, info: &urdf::RobotInfo, doc: &Value, s: &Value) -> Mapped {
    let (qp, vp) = (vector(&s["q"]), vector(&s["v"]));
    let (nq, nu) = (model.nq(), model.nu());
    let mut m = Mapped {
        q: DVector::zeros(nq),
        u: DVector::zeros(nu),
        t: DMatrix::zeros(nu, nu),
        c: DVector::zeros(nu),
    };
    for j in doc["joints"].as_array().unwrap() {
        let name = j["name"].as_str().unwrap();
        let (iq, iv) = (
            j["idx_q"].as_u64().unwrap() as usize,
            j["idx_v"].as_u64().unwrap() as usize,
        );
        let body = info
            .joints
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("joint {name} not in the model"))
            .body;
        let b = model.body(body);
        let (q0, u0) = (b.q_range().start, b.u_range().start);
        match j["nv"].as_u64().unwrap() {
            1 => {
                assert_eq!(j["nq"].as_u64().unwrap(), 1, "{name}: one coordinate");
                m.q[q0] = qp[iq];
                m.u[u0] = vp[iv];
                m.t[(u0, iv)] = 1.0;
            }
            6 => {
                let quat = UnitQuaternion::from_quaternion(Quaternion::new(
                    qp[iq + 6],
                    qp[iq + 3],
                    qp[iq + 4],
                    qp[iq + 5],
                ));
                let r = quat.to_rotation_matrix().into_inner();
                m.q[q0] = quat.w;
                m.q[q0 + 1] = quat.i;
                m.q[q0 + 2] = quat.j;
                m.q[q0 + 3] = quat.k;
                for k in 0..3 {
                    m.q[q0 + 4 + k] = qp[iq + k];
                }
                let v_b = nalgebra::Vector3::new(vp[iv], vp[iv + 1], vp[iv + 2]);
                let w_b = nalgebra::Vector3::new(vp[iv + 3], vp[iv + 4], vp[iv + 5]);
                let (w_g, v_g) = (r * w_b, r * v_b);
                for k in 0..3 {
                    m.u[u0 + k] = w_g[k];
                    m.u[u0 + 3 + k] = v_g[k];
                }
                // ω = R ω_B (pin's v entries 3..6), v = R v_B (entries 0..3).
                m.t.view_mut((u0, iv + 3), (3, 3)).copy_from(&r);
                m.t.view_mut((u0 + 3, iv), (3, 3)).copy_from(&r);
                let c = r * w_b.cross(&v_b);
                for k in 0..3 {
                    m.c[u0 + 3 + k] = c[k];
                }
            }
            n => panic!("{name}: joints with {n} speeds are not in these robots"),
        }
    }
    m
}

fn relative(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a - b).amax() / b.amax().max(1.0)
}

fn check_robot(name: &str) {
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join(format!("{name}.json"))).unwrap())
            .unwrap();
    let root = if doc["floating_base"].as_bool().unwrap() {
        RootJoint::Floating
    } else {
        RootJoint::Fixed
    };
    let robot = urdf::load(&dir().join(format!("{name}.urdf")), root).unwrap();
    let model = &robot.model;
    assert_eq!(
        model.nu(),
        doc["nv"].as_u64().unwrap() as usize,
        "{name}: nu"
    );
    check_free_fall(name, &doc, &robot);
    let mut data = Data::new(model);
    for (k, s) in doc["states"].as_array().unwrap().iter().enumerate() {
        let m = map_state(model, &robot.info, &doc, s);
        let mut state = model.default_state();
        state.q.copy_from(&m.q);
        state.u.copy_from(&m.u);
        realize(model, &state, &mut data, Stage::Dynamics).unwrap();
        // Mass matrix.
        let mut mass = DMatrix::zeros(model.nu(), model.nu());
        crba(model, &mut data, &mut mass);
        let n = model.nu();
        let mp =
            DMatrix::from_row_iterator(n, n, s["M"].as_array().unwrap().iter().flat_map(vector));
        let expected = &m.t * mp * m.t.transpose();
        let err_m = (&mass - &expected).amax() / expected.amax();
        assert!(
            err_m < 1e-10,
            "{name} state {k}: M differs by {err_m:e} (relative)"
        );
        // Inverse dynamics.
        let a = &m.t * DVector::from_vec(vector(&s["a"])) + &m.c;
        let tau = rnea(model, &mut data, &a);
        let tau_pin = &m.t * DVector::from_vec(vector(&s["rnea"]));
        let err_rnea = relative(&tau, &tau_pin);
        assert!(
            err_rnea < 1e-10,
            "{name} state {k}: RNEA differs by {err_rnea:e} (relative)"
        );
        // Forward dynamics with the joint torques applied.
        let tau_applied = &m.t * DVector::from_vec(vector(&s["tau"]));
        forward_dynamics(model, &state, &mut data, tau_applied.as_slice()).unwrap();
        let udot_pin = &m.t * DVector::from_vec(vector(&s["aba"])) + &m.c;
        let err_aba = relative(data.udot().unwrap(), &udot_pin);
        assert!(
            err_aba < 1e-10,
            "{name} state {k}: ABA differs by {err_aba:e} (relative)"
        );
        eprintln!("{name} state {k}: M {err_m:.1e}, RNEA {err_rnea:.1e}, ABA {err_aba:.1e} (|udot| {:.1e})", udot_pin.amax());
    }
}

/// The neutral configuration released at rest, RK-Merson at accuracy 1e-9 (what `ferrobody run
/// ROBOT.urdf --accuracy 1e-9` does), every report a step boundary: every link origin against
/// Pinocchio's ABA integrated by RK4 at h = 1e-4 s, within 1e-6 m (the acceptance limit).
fn check_free_fall(name: &str, doc: &Value, robot: &urdf::UrdfModel) {
    let fall = &doc["free_fall"];
    let times = vector(&fall["times"]);
    let model = &robot.model;
    let settings = IntegratorSettings::rk_merson(1e-9);
    let mut sim = Simulation::new(model, robot.default_state.clone(), settings).unwrap();
    let interval = times[1] - times[0];
    let mut worst: f64 = 0.0;
    let mut compared = 0;
    let mut row = 0;
    sim.run_stepping_to_reports(*times.last().unwrap(), interval, |_, s, d| {
        assert!((s.t - times[row]).abs() < 1e-12, "{name}: report times");
        for (link, body, x_bl) in &robot.info.links {
            let Some(theirs) = fall["links"].get(link.as_str()) else {
                continue;
            };
            let p = d.poses().unwrap()[body.0].apply(&x_bl.p);
            let theirs = vector(&theirs[row]);
            for k in 0..3 {
                worst = worst.max((p[k] - theirs[k]).abs());
            }
            compared += 1;
        }
        row += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(row, times.len());
    assert!(compared >= times.len() * 2, "{name}: links compared");
    eprintln!("{name} free fall: every link origin within {worst:.1e} m of Pinocchio's");
    assert!(worst < 1e-6, "{name}: free fall differs by {worst:e} m");
}

#[test]
fn panda_matches_pinocchio() {
    check_robot("panda");
}

#[test]
fn ur5_matches_pinocchio() {
    check_robot("ur5");
}

#[test]
fn solo12_matches_pinocchio() {
    check_robot("solo12");
}

#[test]
fn anymal_matches_pinocchio() {
    check_robot("anymal");
}

#[test]
fn talos_reduced_matches_pinocchio() {
    check_robot("talos_reduced");
}

#[test]
fn g1_matches_pinocchio() {
    check_robot("g1");
}

#[test]
fn human_matches_pinocchio() {
    check_robot("human");
}
