//! SVG plots (plotters, no system libraries): a shared line-plot helper, and the plots of a run
//! (`--plot`): body heights and speeds, energies, and contact forces over time.

use crate::recorder::Recorder;
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// Line colours that stay readable on white (Tableau-like), in order.
const READABLE: [RGBAColor; 12] = [
    RGBAColor(31, 119, 180, 1.0),
    RGBAColor(214, 39, 40, 1.0),
    RGBAColor(44, 160, 44, 1.0),
    RGBAColor(0, 0, 0, 1.0),
    RGBAColor(255, 127, 14, 1.0),
    RGBAColor(148, 103, 189, 1.0),
    RGBAColor(140, 86, 75, 1.0),
    RGBAColor(23, 190, 207, 1.0),
    RGBAColor(227, 119, 194, 1.0),
    RGBAColor(127, 127, 127, 1.0),
    RGBAColor(188, 189, 34, 1.0),
    RGBAColor(0, 0, 128, 1.0),
];

/// At most this many bodies get their own line in the height and speed plots (a scene with a
/// thousand balls would be unreadable); the plot's title says when bodies were left out.
const MAX_BODY_LINES: usize = 12;

/// Writes heights.svg, speeds.svg, energy.svg and (with contact) contact_forces.svg into `out`.
pub fn write_run_plots(out: &Path, rec: &Recorder, scene: &str) -> Result<Vec<String>> {
    let shown = rec.body_names.len().min(MAX_BODY_LINES);
    let note = if shown < rec.body_names.len() {
        format!(" (first {shown} of {} bodies)", rec.body_names.len())
    } else {
        String::new()
    };
    let per_body = |f: &dyn Fn(usize, usize) -> f64| -> Vec<(&str, Vec<(f64, f64)>)> {
        (0..shown)
            .map(|b| {
                (
                    rec.body_names[b].as_str(),
                    rec.times
                        .iter()
                        .enumerate()
                        .map(|(k, &t)| (t, f(k, b)))
                        .collect(),
                )
            })
            .collect()
    };
    let mut written = Vec::new();
    line_plot(
        &out.join("heights.svg"),
        &format!("{scene}: body heights{note}"),
        "time (s)",
        "height of the body origin, y (m)",
        &per_body(&|k, b| rec.poses[k][b].position[1]),
    )?;
    written.push("heights.svg".to_string());
    line_plot(
        &out.join("speeds.svg"),
        &format!("{scene}: body speeds{note}"),
        "time (s)",
        "speed of the body origin (m/s)",
        &per_body(&|k, b| rec.speeds[k][b]),
    )?;
    written.push("speeds.svg".to_string());
    let series = |f: &dyn Fn(usize) -> f64| -> Vec<(f64, f64)> {
        rec.times
            .iter()
            .enumerate()
            .map(|(k, &t)| (t, f(k)))
            .collect()
    };
    line_plot(
        &out.join("energy.svg"),
        &format!("{scene}: energy"),
        "time (s)",
        "energy (J)",
        &[
            ("kinetic", series(&|k| rec.energies[k][0])),
            ("potential", series(&|k| rec.energies[k][1])),
            ("total", series(&|k| rec.energies[k][2])),
        ],
    )?;
    written.push("energy.svg".to_string());
    if rec.has_contact {
        line_plot(
            &out.join("contact_forces.svg"),
            &format!("{scene}: contact forces, summed over all contacts"),
            "time (s)",
            "force (N)",
            &[
                ("normal force", series(&|k| rec.contact_forces[k][0])),
                ("friction force", series(&|k| rec.contact_forces[k][1])),
            ],
        )?;
        written.push("contact_forces.svg".to_string());
    }
    Ok(written)
}

/// Values beyond this are left out of plots (their axis range would overflow).
const MAX_PLOTTED: f64 = 1e100;

/// A drawable axis range from the data's extremes: a default for no data, a unit-wide window
/// around a constant.
fn sane_range(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi - lo <= 1e-12 * lo.abs().max(1.0) {
        let half = 0.5 * lo.abs().max(1.0);
        return (lo - half, hi + half);
    }
    (lo, hi)
}

/// A line plot with title, axis labels (with units) and a legend.
pub fn line_plot(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[(&str, Vec<(f64, f64)>)],
) -> Result<()> {
    // Only finite points of sensible size are drawn: an empty, constant or overflowing series
    // gave plotters an infinite or empty range, and its tick search never returned (issue 23).
    let drawable = |&(x, y): &(f64, f64)| x.abs() < MAX_PLOTTED && y.abs() < MAX_PLOTTED;
    let series: Vec<(&str, Vec<(f64, f64)>)> = series
        .iter()
        .map(|(name, points)| (*name, points.iter().copied().filter(drawable).collect()))
        .collect();
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in series.iter().flat_map(|(_, s)| s.iter()) {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    let (x0, x1) = sane_range(x0, x1);
    let (y0, y1) = sane_range(y0, y1);
    let pad = 0.05 * (y1 - y0);
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    let draw = |e: &dyn std::fmt::Display| anyhow::anyhow!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| draw(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
        .map_err(|e| draw(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| draw(&e))?;
    for (k, (name, points)) in series.iter().enumerate() {
        let color = READABLE[k % READABLE.len()];
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| draw(&e))?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| draw(&e))?;
    root.present().map_err(|e| draw(&e))?;
    Ok(())
}
