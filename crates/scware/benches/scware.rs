//! Benchmarks: random playouts and exact move counting.
fn main() {}
