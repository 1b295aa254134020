//! Scene files and output writers (f64 only; the numerical core is generic, I/O is not).
