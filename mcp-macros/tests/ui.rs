//! Compile-time contracts of the macros: every rule has a failing example (with the exact error
//! it produces, in the `.stderr` next to it) and the supported shapes have passing ones.
//!
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p mcp-runtime-macros --test ui`,
//! then read each changed `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/*/pass/*.rs");
    t.compile_fail("tests/ui/*/fail/*.rs");
}
