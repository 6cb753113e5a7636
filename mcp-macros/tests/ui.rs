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

/// The newcomer's common slips (an own type without `#[mcp_runtime::data]` as an argument or a
/// result, a state that cannot be shared) are told once per mistake, name the fix, and never
/// name the generated code's `__private` paths.
#[test]
fn the_common_slips_name_their_fix_once() {
    let cases = [
        // (file, errors expected: one per type that lacks the attribute, the fix)
        (
            "tool/fail/arg-type-not-data",
            2,
            "add `#[mcp_runtime::data]`",
        ),
        (
            "tool/fail/result-type-not-data",
            1,
            "add `#[mcp_runtime::data]`",
        ),
        (
            "tool/fail/state-not-sync",
            1,
            "use a `Mutex` or an `RwLock`",
        ),
    ];
    for (case, errors, fix) in cases {
        let path = format!("{}/tests/ui/{case}.stderr", env!("CARGO_MANIFEST_DIR"));
        let stderr = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            stderr.matches("\nerror").count() + usize::from(stderr.starts_with("error")),
            errors,
            "{case}:\n{stderr}"
        );
        assert!(
            stderr.contains(fix),
            "{case} does not name the fix:\n{stderr}"
        );
        assert!(
            !stderr.contains("__private"),
            "{case} names __private:\n{stderr}"
        );
    }
}
