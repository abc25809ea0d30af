//! Unicode helpers: normalization forms (`unicode-normalization`), extended grapheme
//! clusters (`unicode-segmentation`) and padding counted in graphemes (`str_pad`).

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use crate::util::{arg, charge, check_size, int_arg, text};

fn unicode_normalize(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let form = match arg(args, 1) {
        Value::Nil => "NFC".to_owned(),
        _ => text(args, 1)?.to_ascii_uppercase(),
    };
    charge(host, s.len() / 16 + 1)?;
    // Decomposition can grow a string: NFKD expands some characters up to 18 times.
    check_size(host, s.len().saturating_mul(4), "unicode_normalize")?;
    let out: String = match form.as_str() {
        "NFC" => s.nfc().collect(),
        "NFD" => s.nfd().collect(),
        "NFKC" => s.nfkc().collect(),
        "NFKD" => s.nfkd().collect(),
        _ => {
            return Err(VmError::thrown_str(
                "unicode_normalize: form must be NFC, NFD, NFKC, or NFKD",
            ));
        }
    };
    check_size(host, out.len(), "unicode_normalize")?;
    Ok(Value::str(out))
}

fn unicode_graphemes(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    check_size(host, s.len().saturating_mul(24), "unicode_graphemes")?;
    Ok(Value::list(
        s.graphemes(true)
            .map(|g| Value::str(g.to_owned()))
            .collect(),
    ))
}

/// Pads `text` to `width` graphemes with the first grapheme of `fill` on the `side`
/// given (`left`, `right`, or `both`, which puts the odd one on the right).
fn str_pad(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let width = int_arg("str_pad", args, 1)?;
    let fill_text = match arg(args, 2) {
        Value::Nil => " ".to_owned(),
        _ => text(args, 2)?,
    };
    let fill = fill_text.graphemes(true).next().unwrap_or(" ").to_owned();
    let side = match arg(args, 3) {
        Value::Nil => "right".to_owned(),
        _ => text(args, 3)?.to_ascii_lowercase(),
    };
    let have = s.graphemes(true).count();
    let want = usize::try_from(width).unwrap_or(0);
    let missing = want.saturating_sub(have);
    check_size(
        host,
        s.len().saturating_add(missing.saturating_mul(fill.len())),
        "str_pad",
    )?;
    charge(host, missing / 16 + 1)?;
    let (left, right) = match side.as_str() {
        "left" => (missing, 0),
        "right" => (0, missing),
        "both" => (missing / 2, missing - missing / 2),
        _ => {
            return Err(VmError::thrown_str(
                "str_pad: side must be left, right, or both",
            ));
        }
    };
    Ok(Value::str(format!(
        "{}{s}{}",
        fill.repeat(left),
        fill.repeat(right)
    )))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("unicode_normalize", unicode_normalize);
    b.sync("unicode_graphemes", unicode_graphemes);
    b.sync("str_pad", str_pad);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, i, s};

    #[test]
    fn forms_graphemes_padding() {
        assert_eq!(call(unicode_normalize, &[s("e\u{301}")]), "é");
        assert_eq!(
            call(unicode_normalize, &[s("é"), s("nfd")]).chars().count(),
            2
        );
        assert_eq!(call(unicode_normalize, &[s("ﬁ"), s("NFKC")]), "fi");
        assert!(call_err(unicode_normalize, &[s("x"), s("nfx")]).contains("NFC, NFD"));
        assert_eq!(
            call(unicode_graphemes, &[s("e\u{301}x")])
                .matches(',')
                .count(),
            1
        );
        assert_eq!(call(str_pad, &[s("ha"), i(5), s("."), s("left")]), "...ha");
        assert_eq!(call(str_pad, &[s("é"), i(4), s("."), s("both")]), ".é..");
        assert_eq!(call(str_pad, &[s("long"), i(2)]), "long");
    }
}
