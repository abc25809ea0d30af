// VS Code client for harnc: starts `harnc lsp` over stdio and adds two commands that run
// `harnc run` / `harnc check` on the current file.

import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;
let manifestWatcher: vscode.FileSystemWatcher | undefined;
let clientStarting: Promise<void> | undefined;
let output: vscode.OutputChannel | undefined;

interface Settings {
  /** The harnc command as configured (resolved against the workspace when it is a relative path). */
  harnc: string;
  /** `harn.manifestPath` as written in the settings, or undefined when empty. */
  manifestPath: string | undefined;
}

function firstWorkspaceFolder(): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0] : undefined;
}

/** `./target/debug/harnc` style paths are taken relative to the workspace; bare names go through PATH. */
function resolveCommand(command: string, folder: vscode.WorkspaceFolder | undefined): string {
  const expanded = command.startsWith('~/') ? path.join(os.homedir(), command.slice(2)) : command;
  const hasSeparator = expanded.includes('/') || expanded.includes('\\');
  if (!hasSeparator || path.isAbsolute(expanded) || !folder || folder.uri.scheme !== 'file') {
    return expanded;
  }
  return path.resolve(folder.uri.fsPath, expanded);
}

function readSettings(scope?: vscode.Uri): Settings {
  const config = vscode.workspace.getConfiguration('harn', scope);
  const folder = (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? firstWorkspaceFolder();
  const configured = (config.get<string>('path') ?? '').trim() || 'harnc';
  const manifestPath = (config.get<string>('manifestPath') ?? '').trim();
  return {
    harnc: resolveCommand(configured, folder),
    manifestPath: manifestPath === '' ? undefined : manifestPath,
  };
}

// ------------------------------------------------------------------------ language client

function createClient(): LanguageClient {
  const settings = readSettings();
  const folder = firstWorkspaceFolder();
  const cwd = folder && folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
  const serverOptions: ServerOptions = {
    command: settings.harnc,
    args: ['lsp'],
    transport: TransportKind.stdio,
    options: cwd ? { cwd } : {},
  };
  // Changes of manifest files reach the server as workspace/didChangeWatchedFiles.
  manifestWatcher = vscode.workspace.createFileSystemWatcher('**/harn.manifest.json');
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'harn' }],
    // A relative manifestPath is resolved by the server against the workspace root.
    initializationOptions:
      settings.manifestPath !== undefined ? { manifestPath: settings.manifestPath } : undefined,
    synchronize: { fileEvents: manifestWatcher },
  };
  return new LanguageClient('harn', 'Harn Language Server', serverOptions, clientOptions);
}

async function startClient(): Promise<void> {
  const next = createClient();
  client = next;
  try {
    await next.start();
  } catch (err) {
    // Not awaited: the notification stays until dismissed, and restarts must not wait for it.
    const settings = readSettings();
    void vscode.window
      .showErrorMessage(
        `Harn: could not start the language server with "${settings.harnc} lsp": ${errorText(err)}`,
        'Open Settings',
      )
      .then((choice) => {
        if (choice === 'Open Settings') {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'harn.path');
        }
      });
  }
}

async function stopClient(): Promise<void> {
  const current = client;
  const watcher = manifestWatcher;
  client = undefined;
  manifestWatcher = undefined;
  try {
    // dispose() stops the server (2 s grace period) and releases the client's channels.
    await current?.dispose(2000);
  } catch {
    // The server may already be gone (failed start, crash): nothing left to stop.
  } finally {
    watcher?.dispose();
  }
}

/** Serialises restarts so that quick successive setting changes leave exactly one server. */
function restartClient(): Promise<void> {
  const previous = (clientStarting ?? Promise.resolve()).catch(() => undefined);
  clientStarting = previous.then(async () => {
    await stopClient();
    await startClient();
  });
  return clientStarting;
}

// ------------------------------------------------------------------------ run / check commands

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function channel(): vscode.OutputChannel {
  if (!output) {
    output = vscode.window.createOutputChannel('Harn');
  }
  return output;
}

/** The file to hand to harnc: saved first when dirty; an untitled buffer goes to a temporary file. */
async function fileForDocument(document: vscode.TextDocument): Promise<{ file: string; cleanup?: () => Promise<void> }> {
  if (document.isUntitled || document.uri.scheme !== 'file') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'harn-'));
    const file = path.join(dir, 'snippet.harn');
    await fs.writeFile(file, document.getText(), 'utf8');
    return { file, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
  }
  if (document.isDirty && !(await document.save())) {
    throw new Error(`could not save ${document.uri.fsPath}`);
  }
  return { file: document.uri.fsPath };
}

async function targetDocument(uri: unknown): Promise<vscode.TextDocument | undefined> {
  if (uri instanceof vscode.Uri) {
    return vscode.workspace.openTextDocument(uri);
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.languageId === 'harn') {
    return editor.document;
  }
  void vscode.window.showWarningMessage('Harn: open a .harn file first.');
  return undefined;
}

/** Runs harnc with `args` (the file last), streaming its output to the "Harn" channel. */
async function runHarnc(kind: 'run' | 'check', uri: unknown): Promise<void> {
  const document = await targetDocument(uri);
  if (!document) {
    return;
  }
  let target: { file: string; cleanup?: () => Promise<void> };
  try {
    target = await fileForDocument(document);
  } catch (err) {
    void vscode.window.showErrorMessage(`Harn: ${errorText(err)}`);
    return;
  }
  const settings = readSettings(document.uri);
  const folder = vscode.workspace.getWorkspaceFolder(document.uri) ?? firstWorkspaceFolder();
  const cwd =
    folder && folder.uri.scheme === 'file' ? folder.uri.fsPath : path.dirname(target.file);
  const args: string[] = kind === 'run' ? ['run', '--report', 'json'] : ['check'];
  if (settings.manifestPath !== undefined) {
    args.push('--manifest', path.resolve(cwd, settings.manifestPath));
  }
  args.push(target.file);

  const out = channel();
  out.show(true);
  out.appendLine(`$ ${[settings.harnc, ...args].map(quoteForDisplay).join(' ')}`);

  try {
    const code = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: `harnc ${kind}`,
        cancellable: true,
      },
      (_progress, token) => spawnInto(out, settings.harnc, args, cwd, token),
    );
    out.appendLine(code === null ? '[harnc stopped]' : `[exit code ${code}]`);
    if (kind === 'check' && code !== null) {
      vscode.window.setStatusBarMessage(code === 0 ? 'Harn: check passed' : 'Harn: check found errors', 5000);
    }
  } catch (err) {
    out.appendLine(`[could not start harnc: ${errorText(err)}]`);
    void vscode.window.showErrorMessage(
      `Harn: could not run "${settings.harnc}" (${errorText(err)}). Set harn.path to the harnc binary.`,
    );
  } finally {
    await target.cleanup?.();
  }
}

function spawnInto(
  out: vscode.OutputChannel,
  command: string,
  args: string[],
  cwd: string,
  token: vscode.CancellationToken,
): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, shell: false, windowsHide: true });
    const cancel = token.onCancellationRequested(() => child.kill());
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => out.append(chunk));
    child.stderr.on('data', (chunk: string) => out.append(chunk));
    child.on('error', (err) => {
      cancel.dispose();
      reject(err);
    });
    child.on('close', (code) => {
      cancel.dispose();
      resolve(code);
    });
  });
}

function quoteForDisplay(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

// ------------------------------------------------------------------------ activation

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('harn.run', (uri?: unknown) => runHarnc('run', uri)),
    vscode.commands.registerCommand('harn.check', (uri?: unknown) => runHarnc('check', uri)),
    vscode.commands.registerCommand('harn.restartServer', () => restartClient()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('harn.path') || event.affectsConfiguration('harn.manifestPath')) {
        void restartClient();
      }
    }),
    { dispose: () => output?.dispose() },
  );
  await restartClient();
}

export async function deactivate(): Promise<void> {
  await clientStarting?.catch(() => undefined);
  await stopClient();
}
