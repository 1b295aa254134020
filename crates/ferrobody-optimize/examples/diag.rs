use ferrobody_optimize::inspect::NlpView;
use ferrobody_optimize::{Guess, ProblemFile, Table, Transcription};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = ProblemFile::load(std::path::Path::new(&args[1])).unwrap();
    let names: Vec<String> = file.problem.state_names().to_vec();
    let cnames: Vec<String> = file.problem.control_names().to_vec();
    let view = NlpView::new(file.problem.clone(), Transcription::HermiteSimpson, 25).unwrap();
    let table = Table::read(std::path::Path::new(&args[2])).unwrap();
    let x = view.initial_point(&Guess::Table(table)).unwrap();
    let g = view.constraints(&x).unwrap();
    let (ny, nc) = (names.len(), cnames.len());
    let per = 2 * ny + nc;
    let mut worst = vec![0.0f64; ny];
    for k in 0..25 {
        for i in 0..ny {
            worst[i] = worst[i]
                .max(g[k * per + i].abs())
                .max(g[k * per + ny + i].abs());
        }
    }
    for i in 0..ny {
        println!("{:50} {:.3e}", names[i], worst[i]);
    }
    for (r, v) in g[25 * per..].iter().enumerate() {
        println!("endpoint {r}: {v:.3e}");
    }
    let (lo, hi) = view.bounds();
    println!("tf {}", x[0]);
    heights(&file, &x, &view);
    let _ = (lo, hi);
}

#[allow(dead_code)]
fn heights(file: &ProblemFile, x: &[f64], view: &NlpView) {
    let _ = view;
    let p = &file.problem;
    let model = p.model();
    let ny = p.state_names().len();
    let nc = p.control_names().len();
    for point in [0usize, 25, 50] {
        let y = &x[1 + point * (ny + nc)..1 + point * (ny + nc) + ny];
        let c = &x[1 + point * (ny + nc) + ny..1 + (point + 1) * (ny + nc)];
        let s = p.state_at(0.0, y, c).unwrap();
        let mut data = ferrobody::Data::new(model);
        ferrobody::pipeline::realize(model, &s, &mut data, ferrobody::Stage::Position).unwrap();
        let poses = data.poses().unwrap();
        for (b, x_gb) in model.bodies().iter().zip(poses) {
            if b.name.contains("calcn") || b.name.contains("toes") {
                println!("point {point} {} y = {:.4}", b.name, x_gb.p[1]);
            }
        }
    }
}
