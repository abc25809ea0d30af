//! Token snapshots for every file in `tests/data/lex/`.

mod common;

#[test]
fn lex_snapshots() {
    insta::glob!("data/lex/*.harn", |path| {
        let source = common::read(path);
        insta::assert_snapshot!(common::token_listing(&source));
    });
}
