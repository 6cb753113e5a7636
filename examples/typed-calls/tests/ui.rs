//! A client written against an older signature of a shared tool does not build.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/stale-client.rs");
}
