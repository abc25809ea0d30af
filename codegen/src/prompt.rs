//! The compact prompt form: one signature line and one description line per binding.

use harn_compiler::manifest::Manifest;

use crate::doc::{clean_one_line, not_callable_lines};
use crate::harn::harn_type;
use crate::lower::Target;
use crate::plan::{Planned, plan};

/// Longest description line in the prompt form, in characters.
const MAX_DESCRIPTION: usize = 200;

/// The prompt text of a manifest.
pub fn emit_prompt(m: &Manifest) -> String {
    let mut out = vec![format!(
        "# Harn code-mode bindings (manifest {}, ceiling {})",
        m.hash(),
        m.side_effect_ceiling
    )];
    let plan = plan(m, Target::Harn);
    for Planned {
        binding: b,
        args,
        result,
        ..
    } in &plan.callable
    {
        let result = match result {
            Some((_, lowered)) => harn_type(&lowered.ty),
            None => "JsonValue".into(),
        };
        out.push(format!(
            "{}(args: {}) -> {result}  [{}{}]",
            b.binding,
            harn_type(&args.ty),
            b.side_effect_level,
            if b.deferred { ", deferred" } else { "" }
        ));
        let description = b
            .description
            .as_deref()
            .map(clean_one_line)
            .unwrap_or_default();
        let description = if description.chars().count() > MAX_DESCRIPTION {
            let mut cut: String = description.chars().take(MAX_DESCRIPTION - 1).collect();
            cut.push('…');
            cut
        } else {
            description
        };
        out.push(format!(
            "  {}",
            if description.is_empty() {
                "(no description)"
            } else {
                &description
            }
        ));
    }
    if !plan.others.is_empty() {
        out.push("# Not callable:".into());
        out.extend(
            not_callable_lines(&plan.others)
                .into_iter()
                .map(|l| format!("#   {l}")),
        );
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
