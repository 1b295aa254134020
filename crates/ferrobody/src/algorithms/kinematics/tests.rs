//! The planar-xy Pin paths of the pose and velocity stages against the general path: same
//! numbers.

use super::kinematics;
use crate::data::Data;
use crate::ids::BodyId;
use crate::math::{MassProperties, Transform};
use crate::mobilizer::Mobilizer;
use crate::model::{BodyDef, Model, ModelBuilder};
use nalgebra::{Matrix3, Vector3};

/// A rotation about z with exact zeros and one where z is kept.
fn about_z(angle: f64) -> Matrix3<f64> {
    let (s, c) = angle.sin_cos();
    Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0)
}

/// A tree of seven Pins about Ground's z with turned and offset inboard frames and fully
/// three-dimensional mass properties (with `planar_root`, the first is a Planar joint, as the
/// pelvis of OpenSim's planar gait models); `general` clears the planar-xy flags.
fn pin_tree(general: bool, planar_root: bool) -> Model<f64> {
    let mut b = ModelBuilder::<f64>::new();
    let parents = [0, 1, 2, 1, 4, 0, 6];
    for (i, &p) in parents.iter().enumerate() {
        let t = i as f64;
        // Odd bodies: a full inertia and COM; even ones: a diagonal inertia about the origin
        // (COM on the x axis), which takes the diagonal rotation.
        let mp = if i % 2 == 1 {
            MassProperties::new(
                1.0 + 0.3 * t,
                Vector3::new(0.2 + 0.01 * t, -0.05 * t, 0.03),
                Matrix3::new(0.3, 0.01, -0.02, 0.01, 0.25, 0.015, -0.02, 0.015, 0.2),
            )
        } else {
            MassProperties::new(
                1.0 + 0.3 * t,
                Vector3::new(0.25, 0.0, 0.0),
                Matrix3::from_diagonal(&Vector3::new(0.05, 0.2 + 0.01 * t, 0.21 + 0.01 * t)),
            )
        };
        let x_pf = Transform {
            r: about_z(0.4 * t - 1.0),
            p: Vector3::new(0.5 - 0.1 * t, 0.1 * t, 0.05 * t),
        };
        let kind = if planar_root && i == 0 {
            Mobilizer::Planar
        } else {
            Mobilizer::Pin
        };
        let def = BodyDef::new(&format!("pin{i}"), BodyId(p), kind, mp).with_x_pf(x_pf);
        b.add_body(def).unwrap();
    }
    let mut model = b.build().unwrap();
    let diagonal = model
        .bodies
        .iter()
        .filter(|b| b.inertia_is_diagonal)
        .count();
    assert_eq!(
        diagonal,
        1 + 4,
        "Ground and the even bodies have diagonal inertias"
    );
    for body in &mut model.tree.bodies[1..] {
        assert_eq!(
            body.planar_xy_pin,
            body.mobilizer == Mobilizer::Pin,
            "body '{}': every Pin takes the planar path",
            body.name
        );
        if general {
            body.planar_xy_pin = false;
        }
    }
    model
}

#[test]
fn planar_xy_pins_give_the_general_paths_numbers() {
    for planar_root in [false, true] {
        compare_paths(planar_root);
    }
}

fn compare_paths(planar_root: bool) {
    let (planar, general) = (pin_tree(false, planar_root), pin_tree(true, planar_root));
    let mut state = planar.default_state();
    for i in 0..planar.nu() {
        state.q[i] = 0.7 * (1.3 * i as f64).sin();
        state.u[i] = 2.0 * (0.9 * i as f64 + 0.4).cos();
    }
    let (mut d_planar, mut d_general) = (Data::new(&planar), Data::new(&general));
    kinematics(&planar, &state, &mut d_planar);
    kinematics(&general, &state, &mut d_general);
    for i in 1..planar.nbodies() {
        // `==` treats −0 and +0 as equal, the only difference the skipped products can make.
        let (p, g) = (&d_planar.pos, &d_general.pos);
        assert_eq!(p.x_gb[i], g.x_gb[i], "x_gb of body {i}");
        assert_eq!(p.x_gf[i], g.x_gf[i], "x_gf of body {i}");
        assert_eq!(p.p_gm[i], g.p_gm[i], "p_gm of body {i}");
        assert_eq!(p.inertia[i], g.inertia[i], "inertia of body {i}");
        assert_eq!(
            d_planar.vel.v_gb[i], d_general.vel.v_gb[i],
            "v_gb of body {i}"
        );
        assert_eq!(
            d_planar.vel.coriolis[i], d_general.vel.coriolis[i],
            "coriolis {i}"
        );
        assert_eq!(
            d_planar.vel.gyroscopic[i], d_general.vel.gyroscopic[i],
            "gyro {i}"
        );
        if planar.bodies[i].parent != BodyId::GROUND {
            let zero = nalgebra::Vector6::zeros();
            assert_ne!(
                d_planar.vel.coriolis[i], zero,
                "body {i} tests the Coriolis term"
            );
        }
    }
    assert_eq!(d_planar.vel.qdot, d_general.vel.qdot);
    assert_eq!(d_planar.pos.h_g, d_general.pos.h_g);
}
