//! `ferrobody curves MODEL`: tabulate and plot a contact model's force law.
//!
//! `smooth-sphere-half-space` writes `force_vs_depth.csv` (x, fy_smooth_v0, fy_smooth_vp05,
//! fy_smooth_vm05, pe_smooth), `force_vs_rate.csv` (v, fy_smooth_x0.1) and the seed
//! documentation's three figures as SVG: `hertz_force.svg`, `hunt_crossley_force.svg` and
//! `energy_error.svg`, with the original (unsmoothed) model drawn for comparison.

pub use crate::curves_args::SmoothCurveArgs;
use crate::plots::line_plot;
use anyhow::{bail, Context, Result};
use ferrobody::contact::smooth_curves::{force_vs_depth, force_vs_rate};
use ferrobody::contact::SmoothContactParameters;
use ferrobody::io::format_number;
use std::fmt::Write as _;
use std::path::Path;

fn report(out: &Path, files: &str) {
    out!("wrote into {}/: {files}", out.display());
}

/// Writes the tables and figures of `model` into `out`.
pub fn curves(model: &str, args: &SmoothCurveArgs, out: &Path) -> Result<()> {
    let create =
        || std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()));
    match model {
        "smooth-sphere-half-space" => {
            args.validate_common()?;
            args.refuse_spring_options(model)?;
            smooth_curves(args, out)
        }
        "hunt-crossley" => {
            args.validate_common()?;
            args.refuse_spring_options(model)?;
            crate::curves_models::hunt_crossley_material(args)?;
            create()?;
            crate::curves_models::hunt_crossley_curves(args, out)?;
            report(out, "force_vs_depth.csv, friction_vs_slip.csv, normal_force.svg, friction.svg");
            Ok(())
        }
        "exponential-spring" => {
            let p = crate::curves_models::spring_parameters(args)?;
            create()?;
            crate::curves_models::exponential_spring_curves(&p, out)?;
            report(out, "force_vs_height.csv, normal_force.svg");
            Ok(())
        }
        _ => bail!("unknown contact model '{model}' (available: smooth-sphere-half-space, hunt-crossley, exponential-spring)"),
    }
}

/// The smooth sphere/half-space model's tables and the seed's three figures.
fn smooth_curves(args: &SmoothCurveArgs, out: &Path) -> Result<()> {
    let mut p = SmoothContactParameters::default();
    (p.stiffness, p.dissipation) = (args.stiffness, args.dissipation);
    (
        p.constant_contact_force,
        p.hertz_smoothing,
        p.hunt_crossley_smoothing,
    ) = (args.cf, args.bd, args.bv);
    p.validate().map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        args.radius.is_finite() && args.radius > 0.0,
        "--radius must be positive, got {}",
        args.radius
    );
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let depth = force_vs_depth(&p, args.radius);
    let rate = force_vs_rate(&p, args.radius, args.depth);
    write_tables(out, &depth, &rate, args.depth)?;
    let xs: Vec<f64> = depth.iter().map(|r| r.x).collect();
    let series =
        |f: &dyn Fn(&ferrobody::contact::smooth_curves::DepthRow) -> f64| -> Vec<(f64, f64)> {
            depth.iter().map(|r| (r.x, f(r))).collect()
        };
    line_plot(
        &out.join("hertz_force.svg"),
        &format!(
            "Hertz force: smooth vs original (E = {:e} Pa, R = {} m, cf = {:e}, bd = {})",
            p.stiffness, args.radius, args.cf, args.bd
        ),
        "penetration x (m)",
        "normal force (N)",
        &[
            ("smooth, rate 0", series(&|r| r.force[0])),
            ("original Hertz", series(&|r| r.original[0])),
        ],
    )?;
    line_plot(
        &out.join("hunt_crossley_force.svg"),
        &format!(
            "Hunt-Crossley force at x = {} m: smooth vs original (c = {} s/m, bv = {})",
            args.depth, p.dissipation, args.bv
        ),
        "penetration rate v (m/s), positive when approaching",
        "normal force (N)",
        &[
            ("smooth", rate.iter().map(|r| (r[0], r[1])).collect()),
            (
                "original Hunt-Crossley",
                rate.iter().map(|r| (r[0], r[2])).collect(),
            ),
        ],
    )?;
    line_plot(
        &out.join("energy_error.svg"),
        "Error of the potential energy PE = (2/5) fh_smooth x: d(PE)/dx - fh_smooth",
        "penetration x (m)",
        "force error (N)",
        &[(
            "d(PE)/dx - fh_smooth (derivative exact, by dual numbers)",
            series(&|r| r.potential_energy_slope - r.force[0]),
        )],
    )?;
    crate::curves_models::friction_curves(args, out)?;
    out!(
        "wrote {0}/force_vs_depth.csv ({1} rows), {0}/force_vs_rate.csv ({2} rows), {0}/friction_vs_slip.csv and 4 plots: hertz_force.svg, hunt_crossley_force.svg, energy_error.svg, friction.svg",
        out.display(),
        xs.len(),
        rate.len()
    );
    Ok(())
}

fn write_tables(
    out: &Path,
    depth: &[ferrobody::contact::smooth_curves::DepthRow],
    rate: &[[f64; 3]],
    depth_m: f64,
) -> Result<()> {
    use crate::curves_models::ensure_finite;
    ensure_finite(
        "force_vs_depth.csv",
        depth
            .iter()
            .flat_map(|r| [r.x, r.force[0], r.force[1], r.force[2], r.potential_energy]),
    )?;
    ensure_finite("force_vs_rate.csv", rate.iter().flat_map(|r| [r[0], r[1]]))?;
    let mut s = String::from("x,fy_smooth_v0,fy_smooth_vp05,fy_smooth_vm05,pe_smooth\n");
    for r in depth {
        let values = [r.x, r.force[0], r.force[1], r.force[2], r.potential_energy];
        let _ = writeln!(s, "{}", values.map(format_number).join(","));
    }
    std::fs::write(out.join("force_vs_depth.csv"), s).context("cannot write force_vs_depth.csv")?;
    let mut s = format!("v,fy_smooth_x{depth_m}\n");
    for r in rate {
        let _ = writeln!(s, "{},{}", format_number(r[0]), format_number(r[1]));
    }
    std::fs::write(out.join("force_vs_rate.csv"), s).context("cannot write force_vs_rate.csv")?;
    Ok(())
}
