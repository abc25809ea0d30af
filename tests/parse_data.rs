//! Parser data suites.
//!
//! * `tests/data/parse/ok/*.harn` must parse without any diagnostic; their trees are
//!   snapshotted.
//! * `tests/data/parse/err/*.harn` must fail; the first error must match the sibling
//!   `.error` fragment, and the full diagnostic list is snapshotted.

mod common;

use harn_compiler::ast_dump::dump;
use harn_compiler::parse;

#[test]
fn valid_programs_parse_cleanly() {
    insta::glob!("data/parse/ok/*.harn", |path| {
        let source = common::read(path);
        let parsed = parse(&source);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        assert!(
            !parsed.has_errors(),
            "{name} should parse, got:\n{}",
            common::diagnostic_listing(&name, &source)
        );
        insta::assert_snapshot!(dump(&parsed.program));
    });
}

#[test]
fn invalid_programs_report_the_expected_first_error() {
    insta::glob!("data/parse/err/*.harn", |path| {
        let source = common::read(path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parsed = parse(&source);
        let first = parsed.first_error().unwrap_or_default().to_string();
        assert!(parsed.has_errors(), "{name} should fail to parse");
        let expected_path = path.with_extension("error");
        let expected = common::read(&expected_path);
        assert!(
            common::error_matches(&expected, &first),
            "{name}: first error {first:?} does not match {:?}",
            expected.trim_end()
        );
        insta::assert_snapshot!(common::diagnostic_listing(&name, &source));
    });
}
