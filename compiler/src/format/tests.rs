use super::{FormatError, FormatOptions, format_source};

fn fmt(s: &str) -> String {
    format_source(s, &FormatOptions::default()).unwrap()
}

#[test]
fn spacing_is_normalized_and_comments_stay() {
    let src = "let  x=1+2 // sum\nfn f( a,b ){\nreturn a*-b\n}\n\n\n/* block */ println(f(x ,3))\n";
    assert_eq!(
        fmt(src),
        "let x = 1 + 2 // sum\nfn f(a, b) {\n  return a * -b\n}\n\n/* block */ println(f(x, 3))\n"
    );
}

#[test]
fn formatting_is_idempotent_and_keeps_strings() {
    let src = "let s = \"\"\"\n  raw  text\n\"\"\"\nlet t = \"a  ${ 1+2 }  b\"\nlet xs = [1,2,3].map({ x -> x*2 })\n";
    let once = fmt(src);
    assert!(once.contains("\"\"\"\n  raw  text\n\"\"\""), "{once}");
    assert!(once.contains("\"a  ${ 1+2 }  b\""), "{once}");
    assert_eq!(fmt(&once), once);
}

#[test]
fn long_calls_and_dicts_wrap_at_the_width() {
    let src = "let r = call_tool_with_a_long_name({path: \"/some/long/path/to/a/file.txt\", mode: \"full\", limit: 100})\n";
    let out = format_source(src, &FormatOptions { width: 60 }).unwrap();
    assert_eq!(
        out,
        "let r = call_tool_with_a_long_name({\n  path: \"/some/long/path/to/a/file.txt\",\n  mode: \"full\",\n  limit: 100\n})\n"
    );
    assert_eq!(
        format_source(&out, &FormatOptions { width: 60 }).unwrap(),
        out
    );
}

#[test]
fn syntax_errors_are_refused() {
    assert!(matches!(
        format_source("let x = (1 +\n", &FormatOptions::default()),
        Err(FormatError::Syntax(_))
    ));
}

#[test]
fn adjacency_that_means_something_is_kept() {
    let src = "let r = try* f()\nlet a = xs?[0]\nlet b = 2 ** 3\n";
    let out = fmt(src);
    assert!(out.contains("try* f()") && out.contains("xs?[0]"), "{out}");
}
