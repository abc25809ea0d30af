//! The `serve-mcp` configuration file: the `mcpServers` object agents already use for
//! their MCP servers, plus an `executor` object with the host's policy and limits.
//! Every problem names the file and the JSON pointer of the field at fault, and is
//! found before anything starts.

use std::path::Path;

use harn_codemode::Options;
use harn_codemode::setup::{HostSettings, Overrides};
use harn_compiler::manifest::Level;
use serde_json::{Map, Value as Json};

use crate::ServerCommand;

/// A bad configuration: which file, which field (a JSON pointer, `""` for the whole
/// document) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: String,
    pub pointer: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.path, self.message)
        } else {
            write!(f, "{}: {}: {}", self.path, self.pointer, self.message)
        }
    }
}

/// One upstream server: its name (the key in `mcpServers`) and how to start it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpstreamSpec {
    pub name: String,
    pub command: ServerCommand,
}

/// A loaded configuration.
#[derive(Clone, Debug, Default)]
pub struct ServerConfig {
    pub upstreams: Vec<UpstreamSpec>,
    /// The host settings (`side_effect_ceiling`, `allowed_tools`, `limits`).
    pub host: HostSettings,
    /// The policy lists and ceiling, as overrides of the manifest builder.
    pub policy: Overrides,
    /// Fields the file has that harnc does not use (other clients' settings).
    pub ignored: Vec<String>,
}

/// The keys `executor` may have.
const EXECUTOR_KEYS: [&str; 5] = [
    "side_effect_ceiling",
    "allowed_tools",
    "denied_tools",
    "gated_tools",
    "limits",
];

struct Reader<'a> {
    path: &'a str,
}

impl Reader<'_> {
    fn error(&self, pointer: &str, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: self.path.to_string(),
            pointer: pointer.to_string(),
            message: message.into(),
        }
    }

    fn object<'v>(
        &self,
        value: &'v Json,
        pointer: &str,
    ) -> Result<&'v Map<String, Json>, ConfigError> {
        value.as_object().ok_or_else(|| {
            self.error(
                pointer,
                format!("expected an object, found {}", kind(value)),
            )
        })
    }

    fn string(&self, value: &Json, pointer: &str) -> Result<String, ConfigError> {
        value
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| self.error(pointer, format!("expected a string, found {}", kind(value))))
    }

    fn strings(&self, value: &Json, pointer: &str) -> Result<Vec<String>, ConfigError> {
        let items = value.as_array().ok_or_else(|| {
            self.error(
                pointer,
                format!("expected a list of strings, found {}", kind(value)),
            )
        })?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| self.string(v, &format!("{pointer}/{i}")))
            .collect()
    }
}

fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "an object",
    }
}

/// `~1` and `~0` escapes of a JSON pointer segment.
fn segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl ServerConfig {
    /// Reads and checks the file at `path`.
    pub fn load(path: &Path) -> Result<ServerConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: shown.clone(),
            pointer: String::new(),
            message: format!("cannot read the configuration: {e}"),
        })?;
        ServerConfig::parse(&text, &shown)
    }

    /// Checks the text of a configuration file named `path` (for messages).
    pub fn parse(text: &str, path: &str) -> Result<ServerConfig, ConfigError> {
        let r = Reader { path };
        let document: Json = serde_json::from_str(text).map_err(|e| {
            r.error(
                "",
                format!("not JSON: {e} (line {}, column {})", e.line(), e.column()),
            )
        })?;
        let root = r.object(&document, "")?;
        let mut config = ServerConfig::default();
        for key in root.keys() {
            if key != "mcpServers" && key != "executor" {
                config.ignored.push(format!("/{}", segment(key)));
            }
        }
        let servers = root.get("mcpServers").ok_or_else(|| {
            r.error(
                "",
                "missing \"mcpServers\": the upstream MCP servers to serve",
            )
        })?;
        for (name, entry) in r.object(servers, "/mcpServers")? {
            let pointer = format!("/mcpServers/{}", segment(name));
            if let Some(spec) = upstream(&r, name, entry, &pointer, &mut config.ignored)? {
                config.upstreams.push(spec);
            }
        }
        if config.upstreams.is_empty() {
            return Err(r.error(
                "/mcpServers",
                "no servers configured (each needs a \"command\")",
            ));
        }
        if let Some(executor) = root.get("executor") {
            executor_section(&r, executor, &mut config)?;
        }
        Ok(config)
    }
}

fn upstream(
    r: &Reader,
    name: &str,
    entry: &Json,
    pointer: &str,
    ignored: &mut Vec<String>,
) -> Result<Option<UpstreamSpec>, ConfigError> {
    let fields = r.object(entry, pointer)?;
    if fields.get("disabled").and_then(Json::as_bool) == Some(true) {
        return Ok(None);
    }
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !plain {
        return Err(r.error(
            pointer,
            "a server name may only have letters, digits, '_' and '-' (it prefixes binding names)",
        ));
    }
    if fields.contains_key("url") || fields.get("type").is_some_and(|t| t != "stdio") {
        return Err(r.error(
            pointer,
            "only stdio servers are supported upstream: give \"command\" (and \"args\")",
        ));
    }
    let command = fields
        .get("command")
        .ok_or_else(|| r.error(pointer, "missing \"command\""))?;
    let program = r.string(command, &format!("{pointer}/command"))?;
    if program.trim().is_empty() {
        return Err(r.error(&format!("{pointer}/command"), "the command is empty"));
    }
    let args = match fields.get("args") {
        Some(a) => r.strings(a, &format!("{pointer}/args"))?,
        None => Vec::new(),
    };
    let mut env = Vec::new();
    if let Some(e) = fields.get("env") {
        let env_pointer = format!("{pointer}/env");
        for (key, value) in r.object(e, &env_pointer)? {
            let value = r.string(value, &format!("{env_pointer}/{}", segment(key)))?;
            env.push((key.clone(), value));
        }
    }
    for key in fields.keys() {
        if !["command", "args", "env", "type", "disabled"].contains(&key.as_str()) {
            ignored.push(format!("{pointer}/{}", segment(key)));
        }
    }
    Ok(Some(UpstreamSpec {
        name: name.to_string(),
        command: ServerCommand { program, args, env },
    }))
}

fn executor_section(
    r: &Reader,
    value: &Json,
    config: &mut ServerConfig,
) -> Result<(), ConfigError> {
    let fields = r.object(value, "/executor")?;
    for key in fields.keys() {
        if !EXECUTOR_KEYS.contains(&key.as_str()) {
            return Err(r.error(
                &format!("/executor/{}", segment(key)),
                format!(
                    "unknown executor setting (expected one of {})",
                    EXECUTOR_KEYS.join(", ")
                ),
            ));
        }
    }
    let mut host = Map::new();
    if let Some(c) = fields.get("side_effect_ceiling") {
        let pointer = "/executor/side_effect_ceiling";
        let text = r.string(c, pointer)?;
        let level = Level::parse(&text).ok_or_else(|| {
            r.error(
                pointer,
                format!("unknown side-effect level '{text}' (none or read_only)"),
            )
        })?;
        if level.rank() > Level::ReadOnly.rank() {
            return Err(r.error(
                pointer,
                format!(
                    "code mode is read-only by contract: '{text}' is above read_only (use none or read_only)"
                ),
            ));
        }
        host.insert("side_effect_ceiling".into(), Json::String(text));
    }
    if let Some(a) = fields.get("allowed_tools") {
        let names = r.strings(a, "/executor/allowed_tools")?;
        host.insert("allowed_tools".into(), names.into());
    }
    if let Some(d) = fields.get("denied_tools") {
        config.policy.deny_tools = Some(r.strings(d, "/executor/denied_tools")?);
    }
    if let Some(g) = fields.get("gated_tools") {
        config.policy.gate_tools = Some(r.strings(g, "/executor/gated_tools")?);
    }
    if let Some(l) = fields.get("limits") {
        let limits = r.object(l, "/executor/limits")?;
        // Each option on its own, so a bad one is named by its pointer.
        for (key, value) in limits {
            let one = Json::Object(Map::from_iter([(key.clone(), value.clone())]));
            Options::from_json(&one)
                .map_err(|e| r.error(&format!("/executor/limits/{}", segment(key)), e))?;
        }
        host.insert("limits".into(), Json::Object(limits.clone()));
    }
    config.host = HostSettings(host);
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        ServerConfig::parse(text, "c.json").unwrap_err().to_string()
    }

    #[test]
    fn a_claude_style_file_is_read() {
        let c = ServerConfig::parse(
            r#"{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "fs"], "env": {"A": "1"}},
                "off": {"command": "x", "disabled": true}},
               "globalShortcut": "x",
               "executor": {"side_effect_ceiling": "read_only", "denied_tools": ["w"],
                            "limits": {"timeout_ms": 5000}}}"#,
            "c.json",
        )
        .unwrap();
        assert_eq!(c.upstreams.len(), 1);
        assert_eq!(c.upstreams[0].command.args, ["-y", "fs"]);
        assert_eq!(
            c.upstreams[0].command.env,
            [("A".to_string(), "1".to_string())]
        );
        assert_eq!(c.policy.deny_tools, Some(vec!["w".to_string()]));
        assert_eq!(c.ignored, ["/globalShortcut"]);
    }

    #[test]
    fn every_problem_names_its_field() {
        assert_eq!(error("[]"), "c.json: expected an object, found a list");
        assert!(error("{").starts_with("c.json: not JSON"));
        assert_eq!(
            error(r#"{"mcpServers": {"fs": {"args": []}}}"#),
            "c.json: /mcpServers/fs: missing \"command\""
        );
        assert_eq!(
            error(r#"{"mcpServers": {"fs": {"command": "x", "args": ["a", 2]}}}"#),
            "c.json: /mcpServers/fs/args/1: expected a string, found a number"
        );
        assert_eq!(
            error(r#"{"mcpServers": {"fs": {"command": "x"}}, "executor": {"limits": {"timeout_ms": "soon"}}}"#)
                .split(": ")
                .take(2)
                .collect::<Vec<_>>(),
            ["c.json", "/executor/limits/timeout_ms"]
        );
        assert!(
            error(r#"{"mcpServers": {"fs": {"command": "x"}}, "executor": {"side_effect_ceiling": "workspace_write"}}"#)
                .contains("/executor/side_effect_ceiling: code mode is read-only")
        );
        assert!(
            error(r#"{"mcpServers": {"fs": {"command": "x"}}, "executor": {"limit": {}}}"#)
                .contains("/executor/limit: unknown executor setting")
        );
        assert!(error(r#"{"mcpServers": {}}"#).contains("/mcpServers: no servers configured"));
        assert!(error(r#"{"mcpServers": {"a b": {"command": "x"}}}"#).contains("/mcpServers/a b:"));
        assert!(error(r#"{"mcpServers": {"w": {"url": "http://x"}}}"#).contains("only stdio"));
    }
}
