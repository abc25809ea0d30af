//! The protocol side: document and manifest state behind one lock, each request
//! answered from a [`Document`](crate::document::Document) view, diagnostics pushed on
//! open, change and manifest reload.
//!
//! Work is synchronous under the lock and never awaits while holding it, so requests
//! that arrive in order see the edits that came before them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use crate::db::{Db, SourceFile};
use crate::document::Document;
use crate::manifest_source::{Problem, Resolved, Sources, WORKSPACE_MANIFEST, resolve};
use crate::{actions, complete, format, hover, navigate, outline, signature, tokens, transport};

#[derive(Default)]
struct State {
    db: Db,
    docs: HashMap<Uri, SourceFile>,
    sources: Sources,
    /// The manifest file that carries a diagnostic now (cleared when it is fixed).
    flagged: Option<Uri>,
    watched: Vec<PathBuf>,
    client_configuration: bool,
    /// The client registers file watchers on request (dynamic registration).
    client_watches_files: bool,
    /// The manifest resolved during `initialize`, announced once `initialized` comes.
    initial: Option<Resolved>,
}

/// The language server.
pub struct Backend {
    client: Client,
    state: Mutex<State>,
    shut_down: Arc<AtomicBool>,
}

fn not_open(uri: &Uri) -> Error {
    Error::invalid_params(format!("document is not open: {}", uri.as_str()))
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Mutex::new(State::default()),
            shut_down: Arc::new(AtomicBool::new(false)),
        }
    }

    fn shut_down_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shut_down)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not take the server down with a poisoned lock.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on the analysed document `uri`.
    fn with_doc<T>(&self, uri: &Uri, f: impl FnOnce(&Document<'_>) -> T) -> Result<T> {
        let state = self.lock();
        let file = *state.docs.get(uri).ok_or_else(|| not_open(uri))?;
        let doc = state.db.document(file);
        Ok(f(&doc))
    }

    /// Runs `f` at the byte offset of `position` in `uri`.
    fn at<T>(
        &self,
        uri: &Uri,
        position: Position,
        f: impl FnOnce(&Document<'_>, usize) -> T,
    ) -> Result<T> {
        self.with_doc(uri, |doc| {
            let offset = doc.index.offset(doc.text, position);
            f(doc, offset)
        })
    }

    async fn publish(&self, uri: Uri) {
        let Ok((diagnostics, version)) = self
            .with_doc(&uri, |doc| actions::diagnostics(doc, &uri))
            .map(|d| (d, None))
        else {
            return;
        };
        self.client
            .publish_diagnostics(uri, diagnostics, version)
            .await;
    }

    async fn publish_all(&self) {
        let uris: Vec<Uri> = self.lock().docs.keys().cloned().collect();
        for uri in uris {
            self.publish(uri).await;
        }
    }

    /// Re-resolves the manifest, re-checks open documents and reports a bad manifest.
    async fn reload_manifest(&self) {
        let sources = self.lock().sources.clone();
        let resolved = resolve(&sources);
        self.apply(&resolved);
        self.announce(&resolved).await;
    }

    /// Makes `resolved` the manifest documents are checked against.
    fn apply(&self, resolved: &Resolved) {
        let mut state = self.lock();
        state.db.set_manifest(resolved.manifest.clone());
        state.watched = resolved.watched.clone();
    }

    /// Tells the client about a manifest just applied and re-publishes diagnostics.
    async fn announce(&self, resolved: &Resolved) {
        let previous_flag = self.lock().flagged.take();
        if let Some(uri) = previous_flag {
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
        if let Some(problem) = &resolved.problem {
            self.report_problem(problem).await;
        } else if let (Some(m), Some(origin)) = (&resolved.manifest, &resolved.origin) {
            self.client
                .log_message(
                    MessageType::INFO,
                    format!("harn: {} bindings from {origin}", m.bindings.len()),
                )
                .await;
        }
        for w in &resolved.warnings {
            self.client
                .log_message(MessageType::WARNING, format!("harn manifest: {w}"))
                .await;
        }
        self.publish_all().await;
    }

    async fn report_problem(&self, problem: &Problem) {
        self.client
            .show_message(
                MessageType::ERROR,
                format!("{} — continuing without bindings", problem.message),
            )
            .await;
        let Some(uri) = problem.file.as_ref().and_then(Uri::from_file_path) else {
            return;
        };
        let (line, col) = problem.at.unwrap_or((0, 0));
        let d = Diagnostic {
            range: Range::new(Position::new(line, col), Position::new(line, col + 1)),
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("harnc".into()),
            message: problem.message.clone(),
            ..Diagnostic::default()
        };
        self.lock().flagged = Some(uri.clone());
        self.client.publish_diagnostics(uri, vec![d], None).await;
    }

    /// Pulls the `harn` configuration section, when the client offers it.
    async fn pull_configuration(&self) {
        if !self.lock().client_configuration {
            return;
        }
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some("harn".into()),
        };
        if let Ok(values) = self.client.configuration(vec![item]).await {
            let configured = values
                .into_iter()
                .next()
                .and_then(|v| v.get("manifest").cloned());
            self.lock().sources.configured = configured;
        }
    }
}

/// The line width a client asks for (`harn.width` in its formatting options), else
/// `harnc fmt`'s default.
fn format_width(options: &FormattingOptions) -> usize {
    match options.properties.get("harn.width") {
        Some(FormattingProperty::Number(n)) => usize::try_from(*n).unwrap_or(100).max(20),
        _ => 100,
    }
}

fn root_of(params: &InitializeParams) -> Option<PathBuf> {
    let from_folder = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .and_then(|f| f.uri.to_file_path().map(|p| p.into_owned()));
    #[allow(deprecated)] // Older clients send only `rootUri`.
    let from_root = params
        .root_uri
        .as_ref()
        .and_then(|u| u.to_file_path().map(|p| p.into_owned()));
    #[allow(deprecated)] // The oldest clients send only `rootPath`.
    let from_path = params.root_path.as_ref().map(PathBuf::from);
    from_folder.or(from_root).or(from_path)
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        completion_provider: Some(CompletionOptions {
            resolve_provider: Some(true),
            trigger_characters: Some(vec![".".into(), "{".into(), "\"".into(), ",".into()]),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            retrigger_characters: Some(vec![",".into()]),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            },
        )),
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let options = params.initialization_options.clone().unwrap_or(Value::Null);
        {
            let mut state = self.lock();
            state.sources = Sources {
                inline: options.get("manifest").filter(|v| !v.is_null()).cloned(),
                path: options
                    .get("manifestPath")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                root: root_of(&params),
                configured: None,
            };
            let resolved = resolve(&state.sources);
            state.db.set_manifest(resolved.manifest.clone());
            state.watched = resolved.watched.clone();
            state.initial = Some(resolved);
            state.client_watches_files = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|c| c.dynamic_registration)
                .unwrap_or(false);
            state.client_configuration = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.configuration)
                .unwrap_or(false);
        }
        Ok(InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "harnc lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let watchers = vec![FileSystemWatcher {
            glob_pattern: GlobPattern::String(format!("**/{WORKSPACE_MANIFEST}")),
            kind: None,
        }];
        let registration = Registration {
            id: "harn-manifest-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
                watchers,
            })
            .ok(),
        };
        if self.lock().client_watches_files {
            let _ = self.client.register_capability(vec![registration]).await;
        }
        let initial = self.lock().initial.take().unwrap_or_default();
        // The configuration section is the last source: ask only when nothing earlier
        // gave a manifest.
        if initial.origin.is_none() {
            self.pull_configuration().await;
            if self.lock().sources.configured.is_some() {
                self.reload_manifest().await;
                return;
            }
        }
        self.announce(&initial).await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.lock();
            let file = state.db.open(params.text_document.text);
            state.docs.insert(uri.clone(), file);
        }
        self.publish(uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.lock();
            let Some(&file) = state.docs.get(&uri) else {
                return;
            };
            let mut text = file.text(&state.db).clone();
            for change in params.content_changes {
                crate::text::apply_change(&mut text, change.range, &change.text);
            }
            state.db.set_text(file, text);
        }
        self.publish(uri).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.lock().docs.remove(&uri);
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let pushed = params
            .settings
            .get("harn")
            .and_then(|h| h.get("manifest"))
            .cloned();
        if pushed.is_some() {
            self.lock().sources.configured = pushed;
        } else {
            self.pull_configuration().await;
        }
        self.reload_manifest().await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let watched = self.lock().watched.clone();
        let relevant = params.changes.iter().any(|c| {
            c.uri
                .to_file_path()
                .is_some_and(|p| watched.iter().any(|w| *w == *p))
        });
        if relevant {
            self.reload_manifest().await;
        }
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        let items = self.at(&p.text_document.uri, p.position, complete::complete)?;
        Ok(Some(CompletionResponse::Array(items)))
    }

    async fn completion_resolve(&self, item: CompletionItem) -> Result<CompletionItem> {
        let state = self.lock();
        let table = state.db.bindings();
        Ok(complete::resolve(&table, item))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        self.at(&p.text_document.uri, p.position, hover::hover)
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let p = params.text_document_position_params;
        self.at(&p.text_document.uri, p.position, signature::signature_help)
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let uri = p.text_document.uri;
        let range = self.at(&uri, p.position, navigate::definition)?;
        Ok(range.map(|r| GotoDefinitionResponse::Scalar(Location::new(uri, r))))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri;
        let include = params.context.include_declaration;
        let ranges = self.at(&uri, p.position, |d, o| navigate::references(d, o, include))?;
        Ok(Some(
            ranges
                .into_iter()
                .map(|r| Location::new(uri.clone(), r))
                .collect(),
        ))
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let p = params.text_document_position_params;
        Ok(Some(self.at(
            &p.text_document.uri,
            p.position,
            navigate::highlights,
        )?))
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let range = self.at(
            &params.text_document.uri,
            params.position,
            navigate::prepare_rename,
        )?;
        Ok(range.map(PrepareRenameResponse::Range))
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri;
        let result = self.at(&uri, p.position, |d, o| {
            navigate::rename(d, &uri, o, &params.new_name)
        })?;
        result.map_err(Error::invalid_params)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let symbols = self.with_doc(&params.text_document.uri, outline::document_symbols)?;
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        Ok(Some(self.with_doc(
            &params.text_document.uri,
            outline::folding_ranges,
        )?))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let t = self.with_doc(&params.text_document.uri, tokens::semantic_tokens)?;
        Ok(Some(SemanticTokensResult::Tokens(t)))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.with_doc(&params.text_document.uri, |d| {
            format::format_document(d, format_width(&params.options))
        })
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.with_doc(&params.text_document.uri, |d| {
            format::format_range(d, params.range, format_width(&params.options))
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let actions = self.with_doc(&uri, |d| actions::code_actions(d, &uri, params.range))?;
        Ok(Some(actions))
    }
}

/// Serves the protocol on stdin/stdout until `exit`. Returns the process status: 0 when
/// `shutdown` came first, 1 otherwise (the protocol's rule).
pub fn serve_stdio() -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("harnc lsp: cannot start the runtime: {e}");
            return 1;
        }
    };
    let status = runtime.block_on(async {
        let (service, socket) = LspService::new(Backend::new);
        // The flag outlives the service, which `serve` consumes.
        let shut_down = service.inner().shut_down_flag();
        let (server_in, pump_in) = tokio::io::duplex(1 << 16);
        let (server_out, pump_out) = tokio::io::duplex(1 << 16);
        let (frames, queue) = tokio::sync::mpsc::unbounded_channel();
        let writer = tokio::spawn(transport::write_frames(tokio::io::stdout(), queue));
        tokio::spawn(transport::pump_input(
            tokio::io::stdin(),
            pump_in,
            frames.clone(),
        ));
        let end = frames.clone();
        let output = tokio::spawn(transport::pump_output(pump_out, frames));
        Server::new(server_in, server_out, socket)
            .serve(service)
            .await;
        // Everything the library wrote goes out before the process ends; the empty
        // frame tells the writer to stop without waiting for standard input to close.
        let _ = output.await;
        let _ = end.send(Vec::new());
        let _ = writer.await;
        i32::from(!shut_down.load(Ordering::SeqCst))
    });
    // Standard input is read on a blocking thread that may never return: do not wait.
    runtime.shutdown_background();
    status
}
