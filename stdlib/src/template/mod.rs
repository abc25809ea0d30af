//! `render_string(template, bindings?)`: the prompt template language of the Harn
//! reference, over a string. `{{ expr }}` interpolation with paths (`a.b`, `a[0]`,
//! `a[-1]`, `a["k"]`), `if`/`elif`/`else`, `for` loops with `loop.*` and an `else`
//! for empty iterables, comparisons and boolean operators, filters (`| name: args`),
//! comments, raw blocks and `{{-`/`-}}` whitespace control.
//!
//! `lex` splits the text into literal text and directives, `parse` builds the tree (and
//! caps its nesting), `eval` renders it under the run's size and fuel limits. An
//! `{{ include }}` fails: a template given as a string has no files to read. Errors are
//! thrown as `render_string at <line>:<col>: <message>`.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, charge, str_arg, type_err};

mod eval;
mod lex;
mod parse;

/// A directive's position: line and column (in characters) of its `{{`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    line: usize,
    col: usize,
}

/// The thrown error for a problem at `at`.
fn fail(at: At, msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("render_string at {}:{}: {msg}", at.line, at.col))
}

/// The template rendered with `bindings` (a dict, or a struct's fields; none when nil).
fn render_string(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let template = str_arg("render_string", args, 0)?;
    let root = match arg(args, 1) {
        Value::Nil => None,
        Value::Dict(d) => Some(&**d),
        Value::Struct(s) => Some(&s.fields),
        other => return Err(type_err("render_string", "dict", other)),
    };
    charge(host, template.len() / 64 + 1)?;
    let nodes = parse::parse(lex::tokenize(template)?)?;
    eval::render(host, root, &nodes).map(Value::str)
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("render_string", render_string);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, d, i, l, s};
    use harn_vm::native::Host;

    fn r(t: &str, b: Value) -> String {
        call(render_string, &[s(t), b])
    }

    fn e(t: &str, b: Value) -> String {
        call_err(render_string, &[s(t), b])
    }

    #[test]
    fn interpolation_and_paths() {
        let b = d(&[
            ("name", s("Ada")),
            (
                "user",
                d(&[("tags", l(vec![s("a"), s("b")])), ("k-y", i(3))]),
            ),
            ("n", i(4)),
            ("x", Value::Float(1.0)),
            ("none", Value::Nil),
        ]);
        assert_eq!(r("Hi {{ name }}!", b.clone()), "Hi Ada!");
        assert_eq!(
            r(
                "{{user.tags[0]}}{{ user.tags[-1] }}{{ user[\"k-y\"] }}",
                b.clone()
            ),
            "ab3"
        );
        assert_eq!(
            r("{{ n }} {{ x }} {{ user.tags }}", b.clone()),
            "4 1.0 [a, b]"
        );
        // A missing bare name stays as written; other misses are empty.
        assert_eq!(
            r(
                "[{{ who }}|{{ user.nope }}|{{ tags[9] }}|{{ none }}]",
                b.clone()
            ),
            "[{{who}}|||]"
        );
        assert_eq!(r("{{ name[1] }}{{ name[-1] }}", b), "da");
        assert_eq!(
            r("{{ true }} {{ nil }} {{ 2.5 }} {{ -3 }}", Value::Nil),
            "true  2.5 -3"
        );
        assert_eq!(r("no bindings {{ a }}", Value::Nil), "no bindings {{a}}");
    }

    #[test]
    fn conditionals_and_expressions() {
        let t = "{{if count > 10}}big{{elif count > 0}}some{{else}}none{{end}}";
        assert_eq!(r(t, d(&[("count", i(0))])), "none");
        assert_eq!(r(t, d(&[("count", i(5))])), "some");
        assert_eq!(r(t, d(&[("count", i(50))])), "big");
        let b = d(&[
            ("a", s("  ")),
            ("b", s("x")),
            ("xs", l(vec![])),
            ("f", Value::Float(0.5)),
        ]);
        assert_eq!(r("{{ if a }}y{{ else }}n{{ end }}", b.clone()), "n");
        assert_eq!(
            r("{{ if not xs and !a }}empty{{ end }}", b.clone()),
            "empty"
        );
        assert_eq!(
            r("{{ a or b }}|{{ b and 'z' }}|{{ xs && 1 }}", b.clone()),
            "x|z|[]"
        );
        assert_eq!(
            r(
                "{{ (b == 'x') == true }} {{ f < 1 }} {{ 'a' >= 'b' }} {{ 1 != 1.0 }}",
                b.clone()
            ),
            "true true false false"
        );
        assert_eq!(r("{{ xs < 1 }}", b), "false");
    }

    #[test]
    fn loops() {
        let b = d(&[
            ("xs", l(vec![s("a"), s("b"), s("c")])),
            ("m", d(&[("z", i(1)), ("a", i(2))])),
        ]);
        assert_eq!(
            r(
                "{{ for x in xs }}{{ loop.index }}{{ x }}{{ if !loop.last }},{{ end }}{{ end }}",
                b.clone()
            ),
            "1a,2b,3c"
        );
        assert_eq!(
            r("{{ for k, v in m }}{{ k }}={{ v }};{{ end }}", b.clone()),
            "a=2;z=1;"
        );
        assert_eq!(
            r(
                "{{ for i, x in xs }}{{ i }}{{ loop.index0 }}{{ loop.first }}{{ loop.length }} {{ end }}",
                b.clone()
            ),
            "00true3 11false3 22false3 "
        );
        assert_eq!(
            r("{{ for x in nope }}x{{ else }}empty{{ end }}", b.clone()),
            "empty"
        );
        let range = Value::Range(std::rc::Rc::new(harn_vm::value::RangeValue {
            start: 1,
            end: 3,
            inclusive: true,
        }));
        assert_eq!(
            r("{{ for n in r }}{{ n }}{{ end }}", d(&[("r", range)])),
            "123"
        );
        // The loop variable shadows a binding only inside the loop.
        assert_eq!(
            r("{{ for xs in xs }}{{ xs }}{{ end }}{{ xs | length }}", b),
            "abc3"
        );
    }

    #[test]
    fn filters() {
        let b = d(&[
            ("name", s("alice")),
            ("items", l(vec![s("x"), s("y"), s("z")])),
            ("obj", d(&[("b", i(2)), ("a", l(vec![i(1), Value::Nil]))])),
            ("block", s("line1\nline2\n\nline3")),
        ]);
        assert_eq!(
            r(
                "{{ name | upper }} {{ 'ÀB' | lower }} {{ '  t ' | trim }}",
                b.clone()
            ),
            "ALICE àb t"
        );
        assert_eq!(
            r(
                "{{ 'hELLO wORLD' | capitalize }}/{{ 'hello  big world' | title }}",
                b.clone()
            ),
            "Hello world/Hello  Big World"
        );
        assert_eq!(
            r(
                "{{ items | join: ', ' }} {{ items | length }} {{ 'héllo' | length }} {{ items | first }}{{ items | last }}",
                b.clone()
            ),
            "x, y, z 3 5 xz"
        );
        assert_eq!(
            r(
                "{{ items | reverse }} {{ 'abc' | reverse }} {{ 'ab' | first }}",
                b.clone()
            ),
            "[z, y, x] cba a"
        );
        assert_eq!(
            r(
                "{{ missing | default: 'anon' }} {{ name | default: 'anon' | upper }}",
                b.clone()
            ),
            "anon ALICE"
        );
        assert_eq!(r("{{ obj | json }}", b.clone()), r#"{"a":[1,null],"b":2}"#);
        assert_eq!(r("{{ obj.b | json: true }}", b.clone()), "2");
        assert_eq!(
            r("{{ block | indent: 2 }}", b.clone()),
            "line1\n  line2\n\n  line3"
        );
        assert_eq!(
            r("{{ block | indent: 1, true }}", b.clone()),
            " line1\n line2\n\n line3"
        );
        assert_eq!(r("{{ block | lines | length }}", b.clone()), "4");
        assert_eq!(
            r("{{ '*a_b* [x](y) #1.' | escape_md }}", b.clone()),
            r"\*a\_b\* \[x\]\(y\) \#1\."
        );
        assert_eq!(
            r(
                "{{ 'a-b-c' | replace: '-', '+' }} {{ 'ab' | replace: '', '.' }}",
                b
            ),
            "a+b+c .a.b."
        );
    }

    #[test]
    fn comments_raw_and_trimming() {
        assert_eq!(r("Before{{# note #}}After", Value::Nil), "BeforeAfter");
        assert_eq!(
            r("{{ raw }}{{ x }} {{if y}}{{ endraw }}!", Value::Nil),
            "{{ x }} {{if y}}!"
        );
        let xs = d(&[("xs", l(vec![s("a"), s("b"), s("c")]))]);
        assert_eq!(
            r(
                "Items:\n{{- for x in xs -}}\n  {{ x }},\n{{- end -}}\nDONE\n",
                xs
            ),
            "Items:  a,  b,  c,DONE\n"
        );
        assert_eq!(r("a  \n  {{- 'x' -}}  \n  b", Value::Nil), "a  x  b");
        assert_eq!(r("{{ '}}' }}", Value::Nil), "}}");
    }

    #[test]
    fn errors() {
        assert_eq!(
            e("ok\n  {{ x", Value::Nil),
            "Thrown: render_string at 2:3: unterminated directive"
        );
        assert_eq!(
            e("{{# x", Value::Nil),
            "Thrown: render_string at 1:1: unterminated comment"
        );
        assert_eq!(
            e("{{ raw }}x", Value::Nil),
            "Thrown: render_string at 1:1: unterminated `{{ raw }}` block"
        );
        assert_eq!(
            e("{{ if x }}y", Value::Nil),
            "Thrown: render_string at 1:1: `{{ if }}` missing matching `{{ end }}`"
        );
        assert_eq!(
            e("{{ for x in y }}{{ elif z }}", Value::Nil),
            "Thrown: render_string at 1:17: unexpected `{{ elif }}`"
        );
        assert_eq!(
            e("{{ end }}", Value::Nil),
            "Thrown: render_string at 1:1: unexpected `{{ end }}`"
        );
        assert_eq!(
            e("{{ for x of y }}", Value::Nil),
            "Thrown: render_string at 1:1: expected `in` in for-loop"
        );
        assert_eq!(
            e("{{ x | shout }}", Value::Nil),
            "Thrown: render_string at 1:1: unknown filter `shout`"
        );
        assert_eq!(
            e("{{ x | join }}", Value::Nil),
            "Thrown: render_string at 1:1: filter `join` takes 1 argument, got 0"
        );
        assert_eq!(
            e("{{ a = 1 }}", Value::Nil),
            "Thrown: render_string at 1:1: unexpected `=` in expression (use `==`)"
        );
        assert_eq!(
            e("{{ a b }}", Value::Nil),
            "Thrown: render_string at 1:1: unexpected `b` in expression"
        );
        assert_eq!(
            e("{{ 5 | indent: 'x' }}", Value::Nil),
            "Thrown: render_string at 1:1: filter `indent` expects an int width, got string"
        );
        assert_eq!(
            e("{{ for x in 3 }}{{ end }}", Value::Nil),
            "Thrown: render_string at 1:1: cannot iterate over int (expected a list, dict, set or range)"
        );
        assert_eq!(
            e("{{ include 'a.prompt' }}", Value::Nil),
            "Thrown: render_string at 1:1: include is not available (templates from strings cannot read files)"
        );
        assert_eq!(
            e("{{ else if x }}", Value::Nil),
            "Thrown: render_string at 1:1: `else` takes no expression (use `elif`)"
        );
        assert!(
            call_err(render_string, &[i(1)]).contains("render_string: expected string, got int")
        );
        assert!(
            call_err(render_string, &[s(""), l(vec![])])
                .contains("render_string: expected dict, got list")
        );
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let deep_if = "{{ if true }}".repeat(100) + &"{{ end }}".repeat(100);
        assert!(e(&deep_if, Value::Nil).contains("template nesting depth exceeded (64 levels)"));
        let parens = "(".repeat(10_000) + "1" + &")".repeat(10_000);
        assert!(
            e(&format!("{{{{ {parens} }}}}"), Value::Nil).contains("expression depth exceeded")
        );
        let chain = vec!["a"; 100_000].join(" or ");
        assert!(e(&format!("{{{{ {chain} }}}}"), Value::Nil).contains("expression depth exceeded"));
        let filters = "| upper ".repeat(1000);
        assert!(
            e(&format!("{{{{ a {filters} }}}}"), Value::Nil).contains("expression depth exceeded")
        );
        let nots = "not ".repeat(10_000);
        assert!(
            e(&format!("{{{{ {nots} a }}}}"), Value::Nil).contains("expression depth exceeded")
        );
        // 64 levels are fine.
        let ok = "{{ if true }}".repeat(60) + "x" + &"{{ end }}".repeat(60);
        assert_eq!(r(&ok, Value::Nil), "x");
    }

    /// A host whose string cap is small, as a run's `max_string_bytes` is.
    struct Capped(crate::test_host::TestHost);

    impl Host for Capped {
        fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError> {
            self.0.call(f, args)
        }
        fn write_out(&mut self, text: &str) -> Result<(), VmError> {
            self.0.write_out(text)
        }
        fn charge(&mut self, units: u64) -> Result<(), VmError> {
            self.0.charge(units)
        }
        fn value_caps(&self) -> (Option<usize>, Option<usize>) {
            (Some(10_000), None)
        }
    }

    #[test]
    fn output_is_capped_as_it_grows() {
        let mut h = Capped(crate::test_host::TestHost::new());
        let xs = Value::Range(std::rc::Rc::new(harn_vm::value::RangeValue {
            start: 0,
            end: i64::MAX,
            inclusive: false,
        }));
        let b = d(&[("xs", xs), ("big", s(&"x".repeat(1000)))]);
        let err = render_string(
            &mut h,
            &[s("{{ for x in xs }}{{ big }}{{ end }}"), b.clone()],
        )
        .unwrap_err();
        assert!(
            err.bare_message().contains("max_string_bytes=10000"),
            "{}",
            err.bare_message()
        );
        assert!(h.0.fuel < 1000, "fuel {}", h.0.fuel);
        let err = render_string(&mut h, &[s("{{ big | indent: 100000000 }}"), b.clone()]);
        assert!(err.is_ok(), "one line is not indented");
        let err = render_string(&mut h, &[s("{{ 'a\\nb' | indent: 100000000 }}"), b.clone()])
            .unwrap_err();
        assert!(err.bare_message().contains("max_string_bytes"));
        let err = render_string(&mut h, &[s("{{ big | replace: 'x', big }}"), b]).unwrap_err();
        assert!(err.bare_message().contains("max_string_bytes"));
    }
}
