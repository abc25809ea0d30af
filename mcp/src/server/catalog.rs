//! What the server offers at a moment: the manifest built from the upstreams' current
//! tool lists under the configured policy, the profile's visible part of it, and the
//! API texts the tools hand out. Rebuilt whenever an upstream's tools or health change.

use harn_codegen::{emit_harn, emit_prompt, emit_ts};
use harn_compiler::manifest::{Binding, Disposition, Level, Manifest};
use serde_json::{Value as Json, json};

use super::config::ServerConfig;
use super::rank::best_matches;
use super::upstream::{Health, Snapshot, describe};
use crate::merge_tool_lists;

/// The server's manifest and what is derived from it.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// What snippets run against: every tool, refused ones included so that calling
    /// one gives a policy denial that says why.
    pub manifest: Manifest,
    /// The profile's manifest: bindings whose effective level is `none` or
    /// `read_only` and that policy allows; what the APIs show and clients select from.
    pub visible: Manifest,
    /// Why tools are missing or refused (upstreams down, policy lists, dropped tools).
    pub diagnostics: Vec<String>,
    /// Each upstream's name, status and tool count.
    pub servers: Json,
}

impl Catalog {
    /// Builds the manifest from the upstreams' tools with the configured policy (the
    /// ceiling is never above `read_only`). A policy list naming no tool fails closed:
    /// nothing runs until the lists match the tools.
    pub fn build(snapshot: &Snapshot, config: &ServerConfig) -> Catalog {
        let mut diagnostics = Vec::new();
        let mut lists = Vec::new();
        for (name, tools, health) in &snapshot.servers {
            if let Health::Failed(why) = health {
                diagnostics.push(why.clone());
            }
            lists.push((name.clone(), tools.clone()));
        }
        let surface = merge_tool_lists(lists);
        let mut policy = config.policy.clone();
        if policy.ceiling.is_none() && !config.host.0.contains_key("side_effect_ceiling") {
            policy.ceiling = Some(Level::ReadOnly.as_str().to_string());
        }
        let manifest = match policy.surface_manifest(&surface, &config.host) {
            Ok((manifest, warnings)) => {
                diagnostics.extend(warnings);
                manifest
            }
            Err(e) => {
                diagnostics.push(format!(
                    "no tools are served: the configuration's tool lists do not match the tools ({e})"
                ));
                Manifest::default()
            }
        };
        let mut visible = manifest.clone();
        visible.bindings.retain(is_visible);
        Catalog {
            manifest,
            visible,
            diagnostics,
            servers: describe(snapshot),
        }
    }

    /// The names of the servers that have at least one visible binding.
    pub fn server_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .visible
            .bindings
            .iter()
            .filter_map(|b| b.mcp_server().map(str::to_string))
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

fn is_visible(b: &Binding) -> bool {
    b.side_effect_level.rank() <= Level::ReadOnly.rank()
        && b.policy.disposition == Disposition::Allowed
}

/// The visible manifest cut down to the best `limit` BM25 matches of `query` over
/// each binding's names and description (all bindings, in order, for a blank query).
pub fn select_by_query(visible: &Manifest, query: Option<&str>, limit: usize) -> Manifest {
    let mut out = visible.clone();
    match query.map(str::trim).filter(|q| !q.is_empty()) {
        None => out.bindings.truncate(limit),
        Some(q) => {
            let documents: Vec<String> = visible
                .bindings
                .iter()
                .map(|b| {
                    format!(
                        "{} {} {}",
                        b.name,
                        b.binding,
                        b.description.as_deref().unwrap_or("")
                    )
                })
                .collect();
            out.bindings = best_matches(q, &documents, limit)
                .into_iter()
                .map(|i| visible.bindings[i].clone())
                .collect();
        }
    }
    out
}

/// The API text of a manifest in one of `generate_harn_api`'s formats.
pub fn api_text(manifest: &Manifest, format: &str) -> String {
    match format {
        "typescript" => emit_ts(manifest),
        "compact" => emit_prompt(manifest),
        _ => emit_harn(manifest),
    }
}

/// `generate_harn_api`'s answer.
pub fn api_answer(catalog: &Catalog, selected: &Manifest, format: &str) -> Json {
    json!({
        "manifest": selected.to_compact_value(),
        "api": api_text(selected, format),
        "manifest_hash": selected.hash(),
        "tool_count": selected.bindings.len(),
        "servers": catalog.servers,
        "diagnostics": catalog.diagnostics,
    })
}

/// Why a client's manifest or binding list cannot be used.
pub const NOT_A_LIST: &str = "composition_mcp: manifest must contain a list of bindings";
pub const UNREGISTERED: &str = "composition_mcp: manifest contains an unregistered binding";

/// The server's own bindings a client selected: by `bindings` names (binding or
/// canonical name) and/or a `manifest` whose `bindings` entries name registered
/// bindings (matched on `binding` and `name`); de-duplicated, in the server's order.
/// Without either, every binding. The server's entries are used, never the client's.
pub fn select_bindings(
    catalog: &Catalog,
    names: Option<&[String]>,
    manifest: Option<&Json>,
) -> Result<Manifest, String> {
    let registered = &catalog.manifest;
    let mut wanted: Vec<usize> = Vec::new();
    let mut pick = |i: usize| {
        if !wanted.contains(&i) {
            wanted.push(i);
        }
    };
    if let Some(names) = names {
        for name in names {
            let i = registered
                .bindings
                .iter()
                .position(|b| b.binding == *name || b.name == *name)
                .ok_or_else(|| {
                    format!(
                        "{UNREGISTERED}: '{name}'{}",
                        registered.unknown_tool_hint(name).unwrap_or_default()
                    )
                })?;
            pick(i);
        }
    }
    if let Some(manifest) = manifest {
        let entries = manifest
            .get("bindings")
            .and_then(Json::as_array)
            .ok_or_else(|| NOT_A_LIST.to_string())?;
        for entry in entries {
            let binding = entry.get("binding").and_then(Json::as_str);
            let name = entry.get("name").and_then(Json::as_str);
            if binding.is_none() && name.is_none() {
                return Err(format!("{UNREGISTERED}: an entry names no binding"));
            }
            let i = registered
                .bindings
                .iter()
                .position(|b| {
                    binding.is_none_or(|x| x == b.binding) && name.is_none_or(|x| x == b.name)
                })
                .ok_or_else(|| {
                    format!("{UNREGISTERED}: '{}'", binding.or(name).unwrap_or_default())
                })?;
            pick(i);
        }
    }
    let mut out = registered.clone();
    if names.is_some() || manifest.is_some() {
        wanted.sort_unstable();
        out.bindings = wanted
            .into_iter()
            .map(|i| registered.bindings[i].clone())
            .collect();
    }
    Ok(out)
}
