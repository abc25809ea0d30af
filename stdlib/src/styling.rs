//! Terminal styling: `color`, `bold`, `dim`, `italic`, `underline` wrap text in ANSI SGR
//! escapes when the run's color mode is on, and return it unchanged otherwise;
//! `set_color_mode` switches the mode for the rest of the run. A run's output is a
//! buffer that may end up anywhere, so the mode starts off ("auto" means off too).

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{charge, check_size, text};

/// SGR foreground codes by color name.
const COLORS: &[(&str, u8)] = &[
    ("black", 30),
    ("red", 31),
    ("green", 32),
    ("yellow", 33),
    ("blue", 34),
    ("magenta", 35),
    ("cyan", 36),
    ("white", 37),
    ("gray", 90),
    ("grey", 90),
    ("bright_red", 91),
    ("bright_green", 92),
    ("bright_yellow", 93),
    ("bright_blue", 94),
    ("bright_magenta", 95),
    ("bright_cyan", 96),
    ("bright_white", 97),
];

fn styled(host: &mut dyn Host, s: &str, code: u8) -> Result<Value, VmError> {
    charge(host, s.len() / 64 + 1)?;
    if !host.color_enabled() {
        return Ok(Value::str(s));
    }
    check_size(host, s.len().saturating_add(9), "color")?;
    Ok(Value::str(format!("\u{1b}[{code}m{s}\u{1b}[0m")))
}

fn color(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let name = text(args, 1)?;
    let Some(&(_, code)) = COLORS.iter().find(|(n, _)| name.eq_ignore_ascii_case(n)) else {
        let known: Vec<&str> = COLORS.iter().map(|(n, _)| *n).collect();
        return Err(VmError::thrown_str(format!(
            "color: unknown color `{name}` (expected one of {})",
            known.join(", ")
        )));
    };
    styled(host, &s, code)
}

fn set_color_mode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mode = text(args, 0)?;
    let on = match mode.as_str() {
        "always" | "on" => true,
        "never" | "off" | "auto" => false,
        _ => {
            return Err(VmError::thrown_str(format!(
                "set_color_mode: mode must be \"always\", \"never\" or \"auto\", got \"{mode}\""
            )));
        }
    };
    host.set_color_enabled(on);
    Ok(Value::Nil)
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("color", color);
    b.sync("set_color_mode", set_color_mode);
    b.sync("bold", |h, a| styled(h, &text(a, 0)?, 1));
    b.sync("dim", |h, a| styled(h, &text(a, 0)?, 2));
    b.sync("italic", |h, a| styled(h, &text(a, 0)?, 3));
    b.sync("underline", |h, a| styled(h, &text(a, 0)?, 4));
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, s};

    #[test]
    fn styling_is_plain_until_the_mode_is_always() {
        assert_eq!(call(color, &[s("hi"), s("red")]), "hi");
        assert!(call_err(color, &[s("hi"), s("mauve")]).contains("unknown color `mauve`"));
        assert!(call_err(set_color_mode, &[s("sometimes")]).contains("must be"));
    }
}
