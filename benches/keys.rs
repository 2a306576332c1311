//! Key-encoding benchmarks (being written).

fn main() {}
