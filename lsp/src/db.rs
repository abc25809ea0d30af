//! The incremental analysis, and the only module that knows salsa.
//!
//! Inputs: each open document's text ([`SourceFile`]) and the workspace's manifest
//! ([`Workspace`]). Queries: [`parse`] and [`line_index`] read only the text, so a
//! manifest reload keeps them; [`binding_types`] reads only the manifest; [`check`]
//! reads both. Feature code asks for a [`Document`] view and never touches salsa.

use std::sync::Arc;

use harn_compiler::manifest::Manifest;
use harn_compiler::pipeline::{Findings, analyze_parsed};
use harn_compiler::{Parsed, parse as parse_text};
use salsa::Setter;

use crate::document::{BindingTable, Document};
use crate::text::LineIndex;

/// The workspace-wide input: the manifest snippets are checked against (`None`: the
/// documents are scripts).
#[salsa::input]
pub struct Workspace {
    #[returns(ref)]
    pub manifest: Option<Arc<Manifest>>,
}

/// One open document.
#[salsa::input]
pub struct SourceFile {
    #[returns(ref)]
    pub text: String,
    pub workspace: Workspace,
}

#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> Parsed {
    parse_text(file.text(db))
}

#[salsa::tracked(returns(ref))]
pub fn line_index(db: &dyn salsa::Database, file: SourceFile) -> LineIndex {
    LineIndex::new(file.text(db))
}

#[salsa::tracked(returns(ref))]
pub fn binding_types(db: &dyn salsa::Database, workspace: Workspace) -> Arc<BindingTable> {
    Arc::new(BindingTable::of(workspace.manifest(db).as_deref()))
}

#[salsa::tracked(returns(ref), no_eq)]
pub fn check(db: &dyn salsa::Database, file: SourceFile) -> Findings {
    let manifest = file.workspace(db).manifest(db).clone();
    analyze_parsed(parse(db, file), file.text(db).len(), manifest.as_deref())
}

/// The database: salsa's storage plus the one workspace input.
#[salsa::db]
#[derive(Clone)]
pub struct Db {
    storage: salsa::Storage<Self>,
    workspace: Option<Workspace>,
}

#[salsa::db]
impl salsa::Database for Db {}

impl Default for Db {
    fn default() -> Self {
        let mut db = Db {
            storage: salsa::Storage::default(),
            workspace: None,
        };
        db.workspace = Some(Workspace::new(&db, None));
        db
    }
}

impl Db {
    fn workspace(&mut self) -> Workspace {
        match self.workspace {
            Some(w) => w,
            None => {
                let w = Workspace::new(self, None);
                self.workspace = Some(w);
                w
            }
        }
    }

    /// Replaces the manifest; documents are re-checked on their next query, their
    /// parses are kept.
    pub fn set_manifest(&mut self, manifest: Option<Arc<Manifest>>) {
        let w = self.workspace();
        if w.manifest(self) != &manifest {
            w.set_manifest(self).to(manifest);
        }
    }

    pub fn manifest(&mut self) -> Option<Arc<Manifest>> {
        let w = self.workspace();
        w.manifest(self).clone()
    }

    /// A new document input.
    pub fn open(&mut self, text: String) -> SourceFile {
        let w = self.workspace();
        SourceFile::new(self, text, w)
    }

    pub fn set_text(&mut self, file: SourceFile, text: String) {
        file.set_text(self).to(text);
    }

    /// The manifest's bindings as the editor shows them.
    pub fn bindings(&self) -> Arc<BindingTable> {
        match self.workspace {
            Some(w) => binding_types(self, w).clone(),
            None => Arc::new(BindingTable::default()),
        }
    }

    /// Everything the features read about one document, computed on demand.
    pub fn document(&self, file: SourceFile) -> Document<'_> {
        let workspace = file.workspace(self);
        Document {
            text: file.text(self),
            index: line_index(self, file),
            parsed: parse(self, file),
            findings: check(self, file),
            bindings: binding_types(self, *workspace),
            manifest: workspace.manifest(self).as_deref(),
        }
    }
}
