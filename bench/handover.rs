//! What it costs this machine to hand work from one core to another: the round trip of a flag
//! between two spinning threads, and the same with 2 KiB (about what a force evaluation of a
//! 10-body model reads: body transforms and velocities, q, u, z) written by one thread and
//! read by the other before it answers. Standalone, std only (docs/performance.md, "2D_gait's
//! muscles on a second thread"):
//!
//! ```text
//! rustc -O --edition 2021 bench/handover.rs -o /tmp/handover && /tmp/handover
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

const ROUNDS: u64 = 200_000;

/// Nanoseconds per round trip, `words` u64 written by the caller and read by the helper.
fn round_trip(words: usize) -> f64 {
    let ask = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicU64::new(0));
    let data: Arc<Vec<AtomicU64>> = Arc::new((0..words).map(|_| AtomicU64::new(0)).collect());
    let (ask_h, done_h, data_h) = (ask.clone(), done.clone(), data.clone());
    let helper = std::thread::spawn(move || {
        let mut sum = 0u64;
        for i in 1..=ROUNDS {
            while ask_h.load(Ordering::Acquire) != i {
                std::hint::spin_loop();
            }
            for x in data_h.iter() {
                sum = sum.wrapping_add(x.load(Ordering::Relaxed));
            }
            done_h.store(i, Ordering::Release);
        }
        sum
    });
    let start = Instant::now();
    for i in 1..=ROUNDS {
        for x in data.iter() {
            x.store(i, Ordering::Relaxed);
        }
        ask.store(i, Ordering::Release);
        while done.load(Ordering::Acquire) != i {
            std::hint::spin_loop();
        }
    }
    let elapsed = start.elapsed();
    helper.join().expect("helper thread");
    elapsed.as_nanos() as f64 / ROUNDS as f64
}

fn main() {
    for _ in 0..3 {
        println!(
            "round trip {:7.1} ns, with 2 KiB handed over {:7.1} ns",
            round_trip(0),
            round_trip(256)
        );
    }
}
