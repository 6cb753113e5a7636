//! Micro-benchmarks of mcp-runtime's hot paths: see `benches/hot_paths.rs` and run them with
//! `cargo bench` in the bench workspace. This library is empty; the package exists for its bench.
