//! The checks `ModelBuilder` runs on each body as it is added (name, parent, frames, mass
//! properties) and on the whole tree when it is built (every mobilizer moves some mass), each
//! failing with a one-line error that names the body.

use super::MAX_MASS_PROPERTY;
use super::{Body, BodyDef};
use crate::error::InertiaProblem;
use crate::error::{Error, ModelError, Result};
use crate::math::inertia::{check_inertia, check_inertia_definite};
use crate::math::Transform;
use crate::scalar::Real;

/// What a body's inertia about its mass centre must be, from the least to the most lenient.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum InertiaCheck {
    /// Finite, symmetric, positive semi-definite, principal moments obeying the triangle
    /// inequality: a rigid body's.
    Physical,
    /// Finite, symmetric and positive semi-definite.
    SemiDefinite,
    /// Finite and symmetric (as OpenSim runs a model's inertias).
    Symmetric,
}

pub(crate) fn validate_body<T: Real>(
    def: &BodyDef<T>,
    bodies: &[Body<T>],
    inertia_check: InertiaCheck,
) -> Result<()> {
    let fail = |problem: String| {
        Err(Error::Model(ModelError::Body {
            body: def.name.clone(),
            problem,
        }))
    };
    let bad_inertia = |problem| {
        Error::Model(ModelError::Inertia {
            body: def.name.clone(),
            problem,
        })
    };
    if def.name.is_empty() {
        return Err(Error::model("a body needs a non-empty name"));
    }
    if def.parent.0 >= bodies.len() {
        return fail(format!("parent body index {} does not exist", def.parent.0));
    }
    let mp = &def.mass_properties;
    let mass = mp.mass.re();
    if !mass.is_finite() || mass < 0.0 {
        return fail(format!("mass must be finite and non-negative, got {mass}"));
    }
    // Beyond this the inertia products overflow or swamp every other body's in f64.
    if mass > MAX_MASS_PROPERTY {
        return fail(format!(
            "mass must be at most {MAX_MASS_PROPERTY:e} kg, got {mass:e}"
        ));
    }
    if let Some(x) = mp
        .inertia_com
        .iter()
        .find(|x| x.re().abs() > MAX_MASS_PROPERTY)
    {
        return fail(format!(
            "inertia entries must be at most {MAX_MASS_PROPERTY:e} kg·m² in size, got {:e}",
            x.re()
        ));
    }
    if !mp.com.iter().all(|x| x.re().is_finite()) {
        return fail("centre of mass has a non-finite component".into());
    }
    let inertia = mp.inertia_com.map(|x| x.re());
    match inertia_check {
        InertiaCheck::Physical => check_inertia(&inertia).map_err(bad_inertia)?,
        InertiaCheck::SemiDefinite => check_inertia_definite(&inertia).map_err(bad_inertia)?,
        InertiaCheck::Symmetric => match check_inertia_definite(&inertia) {
            Err(InertiaProblem::NotPositiveSemiDefinite { .. }) | Ok(()) => {}
            Err(problem) => return Err(bad_inertia(problem)),
        },
    }
    match (def.mobilizer, &def.spatial_transform) {
        (crate::mobilizer::Mobilizer::FunctionBased(n), Some(st)) => {
            st.validate().or_else(|m| fail(m.to_string()))?;
            if st.nq != usize::from(n) {
                return fail(format!(
                    "the mobilizer has {n} coordinates but its transform {}",
                    st.nq
                ));
            }
        }
        (crate::mobilizer::Mobilizer::FunctionBased(_), None) => {
            return fail("a function-based mobilizer needs a spatial transform".into())
        }
        (_, Some(_)) => {
            return fail("only a function-based mobilizer takes a spatial transform".into())
        }
        (_, None) => {}
    }
    match (def.mobilizer, &def.ellipsoid_radii) {
        (crate::mobilizer::Mobilizer::Ellipsoid, Some(r)) => {
            if !r.iter().all(|x| x.re().is_finite() && x.re() > 0.0) {
                let r = r.map(|x| x.re());
                return fail(format!(
                    "an ellipsoid mobilizer's radii must be positive and finite, got {} {} {}",
                    r[0], r[1], r[2]
                ));
            }
        }
        (crate::mobilizer::Mobilizer::Ellipsoid, None) => {
            return fail("an ellipsoid mobilizer needs its radii".into())
        }
        (_, Some(_)) => return fail("only an ellipsoid mobilizer takes radii".into()),
        (_, None) => {}
    }
    for (name, x) in [
        ("inboard frame x_pf", &def.x_pf),
        ("outboard frame x_bm", &def.x_bm),
    ] {
        check_transform(x).or_else(|m| fail(format!("{name}: {m}")))?;
    }
    Ok(())
}

pub(super) fn check_transform<T: Real>(x: &Transform<T>) -> std::result::Result<(), ModelError> {
    let r = x.r.map(|v| v.re());
    if !r
        .iter()
        .chain(x.p.map(|v| v.re()).iter())
        .all(|v| v.is_finite())
    {
        return Err("non-finite entry".into());
    }
    if (r.transpose() * r - nalgebra::Matrix3::identity()).norm() > 1e-9 || r.determinant() < 0.0 {
        return Err("rotation is not a proper orthonormal matrix".into());
    }
    Ok(())
}

/// A subtree without mass or inertia would make its mobilizer's accelerations undefined.
pub(crate) fn check_mass_of_subtrees<T: Real>(bodies: &[Body<T>]) -> Result<()> {
    let mut has_mass: Vec<bool> = bodies
        .iter()
        .map(|b| {
            b.mass_properties.mass.re() > 0.0
                || b.mass_properties.inertia_com.iter().any(|x| x.re() > 0.0)
        })
        .collect();
    for i in (1..bodies.len()).rev() {
        if !has_mass[i] && bodies[i].nu() > 0 {
            return Err(Error::model(format!(
                "body '{}' and all bodies outboard of it have no mass: the accelerations of its {} mobilizer are undefined",
                bodies[i].name, bodies[i].mobilizer
            )));
        }
        let p = bodies[i].parent.0;
        has_mass[p] = has_mass[p] || has_mass[i];
    }
    Ok(())
}
