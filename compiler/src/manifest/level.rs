//! Side-effect levels (1.5) and the effective level with MCP hints (1.6).

use std::fmt;

use super::ManifestError;

/// A side-effect level, in rank order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    #[default]
    None,
    ReadOnly,
    WorkspaceWrite,
    ProcessExec,
    NetworkRead,
    Network,
    DesktopControl,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 7] = [
        Level::None,
        Level::ReadOnly,
        Level::WorkspaceWrite,
        Level::ProcessExec,
        Level::NetworkRead,
        Level::Network,
        Level::DesktopControl,
    ];

    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::ReadOnly => "read_only",
            Level::WorkspaceWrite => "workspace_write",
            Level::ProcessExec => "process_exec",
            Level::NetworkRead => "network_read",
            Level::Network => "network",
            Level::DesktopControl => "desktop_control",
        }
    }

    /// 0 (`none`) … 6 (`desktop_control`).
    pub fn rank(self) -> u8 {
        self as u8
    }

    /// Strict parse: an unknown string is `None`, never a default.
    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == text)
    }

    /// Strict parse with the standard error.
    pub fn parse_strict(text: &str) -> Result<Level, ManifestError> {
        Level::parse(text).ok_or_else(|| ManifestError::InvalidLevel(text.to_string()))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The four MCP tool hints; `None` means absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
}

impl Hints {
    /// Whether at least one hint is present.
    pub fn any(&self) -> bool {
        self.read_only.is_some()
            || self.destructive.is_some()
            || self.idempotent.is_some()
            || self.open_world.is_some()
    }

    /// The hint level *H* of 1.6, with MCP's defaults for absent hints.
    pub fn level(&self) -> Level {
        let read_only = self.read_only.unwrap_or(false);
        let open_world = self.open_world.unwrap_or(true);
        match (read_only, open_world) {
            (true, false) if self.destructive == Some(true) => Level::WorkspaceWrite,
            (true, true) if self.destructive == Some(true) => Level::Network,
            (true, false) => Level::ReadOnly,
            (true, true) => Level::NetworkRead,
            (false, false) => Level::WorkspaceWrite,
            (false, true) => Level::Network,
        }
    }
}

/// The declared level of an entry: absent, valid or invalid (kept verbatim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Declared {
    Absent,
    Valid(Level),
    Invalid(String),
}

/// How the effective level was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effective {
    pub level: Level,
    /// Nothing was declared: the level is the fail-closed assumption.
    pub assumed: bool,
    /// The declared level was invalid (the binding is denied).
    pub invalid: Option<String>,
}

/// The effective level, first rule that applies (1.6).
pub fn effective_level(
    declared: &Declared,
    hints: &Hints,
    is_mcp: bool,
    override_level: Option<Level>,
) -> Effective {
    let plain = |level| Effective {
        level,
        assumed: false,
        invalid: None,
    };
    if let Some(o) = override_level {
        return plain(o);
    }
    match declared {
        Declared::Invalid(text) => Effective {
            level: Level::DesktopControl,
            assumed: false,
            invalid: Some(text.clone()),
        },
        Declared::Valid(d) if is_mcp || hints.any() => plain((*d).max(hints.level())),
        Declared::Valid(d) => plain(*d),
        Declared::Absent if is_mcp || hints.any() => plain(hints.level()),
        Declared::Absent => Effective {
            level: Level::Network,
            assumed: true,
            invalid: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(r: Option<bool>, d: Option<bool>, o: Option<bool>) -> Level {
        Hints {
            read_only: r,
            destructive: d,
            idempotent: None,
            open_world: o,
        }
        .level()
    }

    #[test]
    fn hint_table() {
        assert_eq!(h(Some(true), None, Some(false)), Level::ReadOnly);
        assert_eq!(h(Some(true), Some(false), Some(false)), Level::ReadOnly);
        assert_eq!(h(Some(true), None, None), Level::NetworkRead);
        assert_eq!(h(Some(true), Some(false), Some(true)), Level::NetworkRead);
        assert_eq!(
            h(Some(true), Some(true), Some(false)),
            Level::WorkspaceWrite
        );
        assert_eq!(h(Some(true), Some(true), None), Level::Network);
        assert_eq!(h(None, None, Some(false)), Level::WorkspaceWrite);
        assert_eq!(
            h(Some(false), Some(false), Some(false)),
            Level::WorkspaceWrite
        );
        assert_eq!(h(None, None, None), Level::Network);
        assert_eq!(h(Some(false), Some(true), Some(true)), Level::Network);
    }

    #[test]
    fn strict_parse() {
        assert_eq!(Level::parse("read_only"), Some(Level::ReadOnly));
        assert_eq!(Level::parse("readonly"), None);
        assert_eq!(Level::parse(""), None);
        assert!(Level::None < Level::DesktopControl);
    }

    #[test]
    fn effective_rules() {
        let none = Hints::default();
        let ro = Hints {
            read_only: Some(true),
            open_world: Some(false),
            ..Hints::default()
        };
        let e = effective_level(&Declared::Absent, &none, false, None);
        assert_eq!((e.level, e.assumed), (Level::Network, true));
        let e = effective_level(&Declared::Absent, &none, true, None);
        assert_eq!((e.level, e.assumed), (Level::Network, false));
        let e = effective_level(&Declared::Valid(Level::None), &none, true, None);
        assert_eq!(e.level, Level::Network);
        let e = effective_level(&Declared::Valid(Level::ReadOnly), &none, false, None);
        assert_eq!(e.level, Level::ReadOnly);
        let e = effective_level(&Declared::Valid(Level::None), &ro, false, None);
        assert_eq!(e.level, Level::ReadOnly);
        let e = effective_level(&Declared::Invalid("x".into()), &ro, false, None);
        assert_eq!(e.level, Level::DesktopControl);
        assert_eq!(e.invalid.as_deref(), Some("x"));
        let e = effective_level(&Declared::Absent, &none, true, Some(Level::None));
        assert_eq!(e.level, Level::None);
    }
}
