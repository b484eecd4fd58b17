// cute-lsp for VS Code: starts the server on stdio for CuTe sheets and the
// host languages descriptors appear in, forwards the "cute" settings, shows
// the server's state in the status bar, and adds four commands (restart the
// server, show the offset table under the cursor, show the picture of the
// value under the cursor, evaluate a sheet).
'use strict';

const path = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind, State } = require('vscode-languageclient/node');
const { resolveServer, missingServerMessage } = require('./src/server-path');
const { bundledServer } = require('./src/bundled-server');
const requests = require('./src/requests');
const picture = require('./src/picture');

// PICTURE_DELAY_MS is how long the picture waits after an edit before it
// asks the server again, so that typing costs one request, not one a key.
const PICTURE_DELAY_MS = 300;

// The languages the server is attached to once the extension runs. The
// extension itself starts only for sheets, MLIR, or a workspace that uses
// CuTe (package.json's activationEvents), not for every C++ or Python file.
const SERVED_LANGUAGES = ['cute', 'mlir', 'cuda-cpp', 'cpp', 'python'];
// The Python cells of Jupyter notebooks (the CuTe DSL's tutorials are
// notebooks): an LSP notebook-cell filter, which the client turns into
// VS Code's { notebookType, language }. The server advertises
// notebookDocumentSync for the same notebooks, so the client sends them as
// notebooks (notebookDocument/didOpen, ...) with their cells in order, and
// a cell sees the names bound in the cells above it.
const NOTEBOOK_CELLS = [{ notebook: 'jupyter-notebook', language: 'python' }];

let client;
let status;
let serverCommand;
// extensionDir is where the extension is installed (a platform-specific
// package carries its server binary under bin/).
let extensionDir;
// pictureView is the open picture: its webview panel and the document and
// position it shows the value of.
let pictureView;

function activate(context) {
  extensionDir = context.extensionPath || __dirname;
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.name = 'cute-lsp';
  status.command = 'cute.restartServer';
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand('cute.restartServer', restartServer),
    vscode.commands.registerCommand('cute.showOffsetTable', showOffsetTable),
    vscode.commands.registerCommand('cute.evaluateSheet', evaluateSheet),
    vscode.commands.registerCommand('cute.showPicture', showPicture),
    { dispose: () => (pictureView ? pictureView.panel.dispose() : undefined) },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cute.serverPath')) {
        vscode.window
          .showInformationMessage('cute-lsp: the server path changed; restart the server to use it.', 'Restart Server')
          .then((choice) => (choice === 'Restart Server' ? restartServer() : undefined));
      }
    }),
  );
  return startServer();
}

function showStatus(icon, text, tooltip) {
  status.text = `$(${icon}) ${text}`;
  status.tooltip = tooltip;
  status.show();
}

// serverPathIsSet says whether the user (or workspace) gave cute.serverPath
// a value, as opposed to its contributed default.
function serverPathIsSet(config) {
  const seen = typeof config.inspect === 'function' ? config.inspect('serverPath') : undefined;
  if (!seen) return config.get('serverPath', 'cute-lsp') !== 'cute-lsp';
  return ['globalValue', 'workspaceValue', 'workspaceFolderValue', 'globalLanguageValue', 'workspaceLanguageValue', 'workspaceFolderLanguageValue'].some(
    (k) => seen[k] !== undefined,
  );
}

// findServer is the binary to start: cute.serverPath when set, else the
// binary a platform-specific package carries, else cute-lsp on PATH.
function findServer(config) {
  const command = config.get('serverPath', 'cute-lsp');
  if (!serverPathIsSet(config)) {
    const bundled = bundledServer(extensionDir);
    if (bundled) return { command, resolved: bundled };
  }
  const folders = vscode.workspace.workspaceFolders;
  const baseDir = folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
  return { command, resolved: resolveServer(command, { baseDir }) };
}

// startServer creates the client for the configured binary and starts it;
// a binary that cannot be found gets an error message naming the setting
// and no client (the restart command looks again).
function startServer() {
  const { command, resolved } = findServer(vscode.workspace.getConfiguration('cute'));
  if (!resolved) {
    client = undefined;
    showStatus('error', 'cute-lsp', `cute-lsp: "${command}" not found (cute.serverPath). Click to try again.`);
    vscode.window.showErrorMessage(missingServerMessage(command), 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') vscode.commands.executeCommand('workbench.action.openSettings', 'cute.serverPath');
    });
    return Promise.resolve(undefined);
  }
  serverCommand = resolved;
  const serverOptions = {
    run: { command: resolved, args: ['serve', '--stdio'], transport: TransportKind.stdio },
    debug: { command: resolved, args: ['serve', '--stdio'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: SERVED_LANGUAGES.flatMap((language) =>
      language === 'cute'
        ? [
            { scheme: 'file', language },
            { scheme: 'untitled', language },
          ]
        : [{ scheme: 'file', language }],
    ).concat(NOTEBOOK_CELLS),
    synchronize: { configurationSection: 'cute' },
    // Hover's "Show picture" link is a command: link, which VS Code runs
    // only from trusted Markdown; only that command is trusted.
    markdown: { isTrusted: { enabledCommands: ['cute.showPicture'] }, supportHtml: false },
    // pictureLinks: this client runs hover's Show picture links (others get none).
    initializationOptions: Object.assign({ pictureLinks: true }, settings()),
  };
  const started = new LanguageClient('cute-lsp', 'CuTe layouts', serverOptions, clientOptions);
  client = started;
  showStatus('sync~spin', 'cute-lsp', `cute-lsp: starting ${resolved}`);
  started.onDidChangeState((e) => {
    if (client === started) showState(started, e.newState);
  });
  return started.start().then(
    (result) => {
      if (client === started) showState(started, State.Running);
      return result;
    },
    (err) => {
      if (client === started) showStatus('error', 'cute-lsp', `cute-lsp failed to start: ${err && err.message ? err.message : err}`);
      throw err;
    },
  );
}

// showState puts the client's state and the server's version in the status bar.
function showState(c, state) {
  if (state === State.Running) {
    const info = c.initializeResult && c.initializeResult.serverInfo;
    const version = info && info.version ? info.version : 'unknown version';
    showStatus('check', `cute-lsp ${version}`, `cute-lsp ${version} running (${serverCommand}). Click to restart.`);
  } else if (state === State.Starting) {
    showStatus('sync~spin', 'cute-lsp', 'cute-lsp: starting');
  } else {
    showStatus('debug-stop', 'cute-lsp', 'cute-lsp: stopped. Click to restart.');
  }
}

// restartServer stops the running client, if any, and starts one for the
// current cute.serverPath.
async function restartServer() {
  const old = client;
  client = undefined;
  if (old) {
    try {
      await old.stop();
    } catch {
      // A server that already died cannot be stopped; start a new one anyway.
    }
  }
  return startServer();
}

// runningClient is the client when its server runs, else undefined after
// telling the user why the command cannot work.
function runningClient() {
  if (client && client.state === State.Running) return client;
  vscode.window.showErrorMessage('cute-lsp: the server is not running; run "CuTe: Restart Server" (see the status bar).');
  return undefined;
}

// showOffsetTable shows the hover of the layout under the cursor (its facts
// and offset table, cut at cute.tableCap rows) in a Markdown document beside
// the editor.
async function showOffsetTable() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    vscode.window.showWarningMessage('cute-lsp: put the cursor on a layout in an editor first.');
    return undefined;
  }
  const c = runningClient();
  if (!c) return undefined;
  const hover = await c.sendRequest('textDocument/hover', requests.hoverParams(editor.document, editor.selection.active));
  const text = requests.hoverText(hover);
  if (text === '') {
    vscode.window.showInformationMessage('cute-lsp: no layout under the cursor.');
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: text + '\n' });
  return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

// showPicture shows the picture of the value at position of the document
// uri (hover's link passes both; from the palette, the cursor's) in a
// webview beside the editor, and asks again after each edit of the document.
async function showPicture(uri, position) {
  if (typeof uri !== 'string' || !position) {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      vscode.window.showWarningMessage('cute-lsp: put the cursor on a layout in an editor first.');
      return undefined;
    }
    uri = editor.document.uri.toString();
    position = editor.selection.active;
  }
  const c = runningClient();
  if (!c) return undefined;
  const at = { line: position.line, character: position.character };
  let page;
  try {
    page = await c.sendRequest('workspace/executeCommand', picture.executeParams(uri, at));
  } catch (err) {
    vscode.window.showErrorMessage(`cute-lsp: ${picture.errorText(err)}`);
    return undefined;
  }
  if (typeof page !== 'string') {
    vscode.window.showErrorMessage('cute-lsp: the server sent no picture (is it older than this extension?).');
    return undefined;
  }
  const view = pictureView || openPictureView();
  view.uri = uri;
  view.position = at;
  view.generation++;
  view.panel.webview.html = picture.forWebview(page);
  view.panel.reveal(vscode.ViewColumn.Beside, true);
  return view.panel;
}

// openPictureView creates the picture's panel: scripts on (the page is
// interactive), no local files, no network (forWebview's policy).
function openPictureView() {
  const panel = vscode.window.createWebviewPanel(
    'cutePicture',
    'CuTe picture',
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    { enableScripts: true, localResourceRoots: [], enableFindWidget: true },
  );
  const view = { panel, uri: undefined, position: undefined, timer: undefined, generation: 0 };
  const changes = vscode.workspace.onDidChangeTextDocument((e) => {
    if (pictureView !== view || e.document.uri.toString() !== view.uri) return;
    view.position = picture.shiftPosition(view.position, e.contentChanges);
    clearTimeout(view.timer);
    view.timer = setTimeout(() => refreshPicture(view), PICTURE_DELAY_MS);
  });
  panel.onDidDispose(() => {
    clearTimeout(view.timer);
    changes.dispose();
    if (pictureView === view) pictureView = undefined;
  });
  pictureView = view;
  return view;
}

// refreshPicture asks for the view's picture again; a failure (the value
// no longer evaluates) is shown in the panel, and an answer that a later
// request overtook is dropped.
async function refreshPicture(view) {
  if (!client || client.state !== State.Running) return;
  const generation = ++view.generation;
  let html;
  try {
    const page = await client.sendRequest('workspace/executeCommand', picture.executeParams(view.uri, view.position));
    html = typeof page === 'string' ? picture.forWebview(page) : picture.errorPage('the server sent no picture');
  } catch (err) {
    html = picture.errorPage(picture.errorText(err));
  }
  if (generation !== view.generation || pictureView !== view) return;
  view.panel.webview.html = html;
}

// evaluateSheet lists every value of the active sheet (the server's inlay
// hints) and its errors, beside the editor.
async function evaluateSheet() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'cute') {
    vscode.window.showWarningMessage('cute-lsp: Evaluate Sheet works on a .cute sheet; open one first.');
    return undefined;
  }
  const c = runningClient();
  if (!c) return undefined;
  const document = editor.document;
  const hints = await c.sendRequest('textDocument/inlayHint', {
    textDocument: { uri: document.uri.toString() },
    range: requests.wholeDocument(document),
  });
  const errors = vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => ({ line: d.range.start.line + 1, message: d.message }));
  const name = path.basename(document.uri.fsPath || document.uri.path || 'sheet');
  const content = requests.valuesReport(name, requests.sheetValues(document, hints), errors);
  const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content });
  return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

// settings is the configuration the server reads (see lsp/config.go).
function settings() {
  const c = vscode.workspace.getConfiguration('cute');
  return {
    cute: {
      tableCap: c.get('tableCap'),
      defaultElementType: c.get('defaultElementType'),
      arch: c.get('arch'),
    },
  };
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, SERVED_LANGUAGES, NOTEBOOK_CELLS, PICTURE_DELAY_MS };
