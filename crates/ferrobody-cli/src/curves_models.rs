//! `ferrobody curves` for the contact models other than the smooth one, and the friction curve
//! shared by all: the force laws as tables (CSV) and figures (SVG), from the same library
//! functions the simulation uses.
//!
//! * `hunt-crossley`: `force_vs_depth.csv` (x, fn_v0, fn_vp05, fn_vm05, pe: Hertz force with
//!   Hunt–Crossley dissipation at rates 0, +0.5, −0.5 m/s, two surfaces of the given stiffness),
//!   `friction_vs_slip.csv` (slip, mu_hollars, mu_stribeck), `normal_force.svg`, `friction.svg`.
//! * `exponential-spring`: `force_vs_height.csv` (pz, fz_elastic, fz_vm05, fz_vp05: the normal
//!   force at normal velocities 0, −0.5 and +0.5 m/s, negative = approaching; Simbody's default
//!   parameters unless `--shape D0 D1 D2` or `--normal-viscosity` say otherwise),
//!   `normal_force.svg`.

use crate::curves_args::SmoothCurveArgs;
use crate::plots::line_plot;
use anyhow::{Context, Result};
use ferrobody::contact::exponential_spring::normal_force;
use ferrobody::contact::friction::{hollars, stribeck};
use ferrobody::contact::hunt_crossley::hertz_force;
use ferrobody::contact::ExponentialSpringParameters;
use ferrobody::io::format_number;
use std::path::Path;

/// Refuses a table with a NaN or an infinity: parameters so large that the force law
/// overflows double precision must not give a table that looks like a result.
pub fn ensure_finite(file: &str, mut values: impl Iterator<Item = f64>) -> Result<()> {
    if values.all(f64::is_finite) {
        Ok(())
    } else {
        anyhow::bail!(
            "{file}: the curve overflows double precision (NaN or infinite values) with these \
             parameters; use smaller magnitudes"
        )
    }
}

fn write_csv(path: &Path, header: &str, rows: &[Vec<f64>]) -> Result<()> {
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    ensure_finite(&name, rows.iter().flatten().copied())?;
    let mut text = format!("{header}\n");
    for r in rows {
        text.push_str(
            &r.iter()
                .map(|&x| format_number(x))
                .collect::<Vec<_>>()
                .join(","),
        );
        text.push('\n');
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn column(rows: &[Vec<f64>], k: usize) -> Vec<(f64, f64)> {
    rows.iter().map(|r| (r[0], r[k])).collect()
}

/// Friction coefficient against slip speed for both curves, from 0 to 5 transition velocities.
pub fn friction_table(a: &SmoothCurveArgs) -> Vec<Vec<f64>> {
    (0..=500)
        .map(|i| {
            let slip = 5.0 * a.transition_velocity * i as f64 / 500.0;
            let h = hollars(
                slip,
                a.transition_velocity,
                a.static_friction,
                a.dynamic_friction,
                a.viscous_friction,
            );
            let s = stribeck(
                slip,
                a.transition_velocity,
                a.static_friction,
                a.dynamic_friction,
                a.viscous_friction,
            );
            vec![slip, h, s]
        })
        .collect()
}

/// Writes `friction_vs_slip.csv` and `friction.svg`.
pub fn friction_curves(a: &SmoothCurveArgs, out: &Path) -> Result<()> {
    let rows = friction_table(a);
    write_csv(
        &out.join("friction_vs_slip.csv"),
        "slip,mu_hollars,mu_stribeck",
        &rows,
    )?;
    line_plot(
        &out.join("friction.svg"),
        &format!(
            "Friction coefficient against slip speed (μs = {}, μd = {}, μv = {} s/m, v_t = {} m/s)",
            a.static_friction, a.dynamic_friction, a.viscous_friction, a.transition_velocity
        ),
        "slip speed (m/s)",
        "friction coefficient μ = f_friction / f_normal",
        &[
            (
                "Hollars (HuntCrossleyForce, smooth model)",
                column(&rows, 1),
            ),
            ("Stribeck (CompliantContactSubsystem)", column(&rows, 2)),
        ],
    )
}

/// The material of the Hunt–Crossley curves, checked as a scene's material is.
pub fn hunt_crossley_material(a: &SmoothCurveArgs) -> Result<()> {
    let material = ferrobody::contact::ContactMaterial {
        stiffness: a.stiffness,
        dissipation: a.dissipation,
        static_friction: a.static_friction,
        dynamic_friction: a.dynamic_friction,
        viscous_friction: a.viscous_friction,
    };
    material.validate().map_err(|m| anyhow::anyhow!("{m}"))
}

/// The Hunt–Crossley curves: two surfaces of stiffness E (so k = E^(2/3)/2), sphere radius R.
pub fn hunt_crossley_curves(a: &SmoothCurveArgs, out: &Path) -> Result<()> {
    let k = a.stiffness.powf(2.0 / 3.0) / 2.0;
    let rows: Vec<Vec<f64>> = (0..601)
        .map(|i| {
            let x = -0.01 + i as f64 * 1e-4;
            let fh = if x > 0.0 {
                hertz_force(k, a.radius, x)
            } else {
                0.0
            };
            let hc = |v: f64| (fh * (1.0 + 1.5 * a.dissipation * v)).max(0.0);
            vec![x, hc(0.0), hc(0.5), hc(-0.5), 0.4 * fh * x.max(0.0)]
        })
        .collect();
    write_csv(
        &out.join("force_vs_depth.csv"),
        "x,fn_v0,fn_vp05,fn_vm05,pe",
        &rows,
    )?;
    line_plot(
        &out.join("normal_force.svg"),
        &format!(
            "Hunt-Crossley normal force (E = {:e} Pa on both surfaces, R = {} m, c = {} s/m)",
            a.stiffness, a.radius, a.dissipation
        ),
        "penetration x (m)",
        "normal force (N)",
        &[
            ("rate 0", column(&rows, 1)),
            ("approaching at 0.5 m/s", column(&rows, 2)),
            ("separating at 0.5 m/s", column(&rows, 3)),
        ],
    )?;
    friction_curves(a, out)
}

/// The exponential spring's parameters: Simbody's defaults with `--shape` and
/// `--normal-viscosity` applied, checked as the force element checks them.
pub fn spring_parameters(a: &SmoothCurveArgs) -> Result<ExponentialSpringParameters<f64>> {
    let mut p = ExponentialSpringParameters::<f64>::default();
    if let Some(shape) = &a.shape {
        (p.d0, p.d1, p.d2) = (shape[0], shape[1], shape[2]);
    }
    if let Some(c) = a.normal_viscosity {
        p.normal_viscosity = c;
    }
    p.validate().map_err(|m| anyhow::anyhow!("{m}"))?;
    Ok(p)
}

/// The exponential spring's normal force with parameters `p`.
pub fn exponential_spring_curves(p: &ExponentialSpringParameters<f64>, out: &Path) -> Result<()> {
    let p = *p;
    let rows: Vec<Vec<f64>> = (0..=500)
        .map(|i| {
            let pz = -0.005 + 0.025 * i as f64 / 500.0;
            vec![
                pz,
                normal_force(&p, pz, 0.0).2,
                normal_force(&p, pz, -0.5).2,
                normal_force(&p, pz, 0.5).2,
            ]
        })
        .collect();
    write_csv(
        &out.join("force_vs_height.csv"),
        "pz,fz_elastic,fz_vm05,fz_vp05",
        &rows,
    )?;
    line_plot(
        &out.join("normal_force.svg"),
        &format!(
            "Exponential spring normal force (d0 = {} m, d1 = {} N, d2 = {} 1/m, cz = {} s/m)",
            p.d0, p.d1, p.d2, p.normal_viscosity
        ),
        "height of the station above the plane, p_z (m)",
        "normal force (N)",
        &[
            ("at rest", column(&rows, 1)),
            ("approaching at 0.5 m/s", column(&rows, 2)),
            ("receding at 0.5 m/s", column(&rows, 3)),
        ],
    )
}
