// The extension's wiring, run under node without VS Code: extension.js is
// loaded with `vscode` and `vscode-languageclient/node` replaced by
// recording stand-ins, and package.json is checked against what the
// extension and the client library need.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { extensionDir, manifest, makeVSCode, fireConfigurationChange, fireDocumentChange, loadWith } = require('./vscode-stub');
const picture = require('../src/picture');
const { bundledServerPath, vsceTarget } = require('../src/bundled-server');

const repoRoot = path.resolve(extensionDir, '..', '..');
const extensionFile = path.join(extensionDir, manifest.main);

// Stand-in server binaries: the extension looks for its binary before it
// starts the client, so the tests give it executables to find (one on PATH
// under the default name, one at a full path) and none for the missing case.
const fakeRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cute-vscode-'));
const fakeBinDir = path.join(fakeRoot, 'bin');
const fakeServer = path.join(fakeBinDir, 'cute-lsp');
const fakeFullPath = path.join(fakeRoot, 'opt', 'cuda-tools', 'bin', 'cute-lsp');
for (const file of [fakeServer, fakeFullPath]) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}
// An installed extension without a bundled binary (the platform-neutral
// package), and one whose platform-specific package carries one.
const fakeExtensionDir = path.join(fakeRoot, 'extension-neutral');
const bundledExtensionDir = path.join(fakeRoot, 'extension-bundled');
const bundledFile = bundledServerPath(bundledExtensionDir);
fs.mkdirSync(fakeExtensionDir, { recursive: true });
fs.mkdirSync(path.dirname(bundledFile), { recursive: true });
fs.writeFileSync(bundledFile, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
process.env.PATH = `${fakeBinDir}${path.delimiter}${process.env.PATH || ''}`;
test.after(() => fs.rmSync(fakeRoot, { recursive: true, force: true }));

// The client library as installed by `npm ci`, loaded once with a stand-in
// `vscode` (it reads vscode.version and little else while loading).
function realClientModule() {
  const file = require.resolve('vscode-languageclient/node', { paths: [extensionDir] });
  return loadWith(file, { vscode: makeVSCode().vscode });
}

// A recording vscode-languageclient/node with the real TransportKind and
// State values. Each client records its state listeners and requests;
// respond (method, params) -> result answers sendRequest.
function recordingClientModule() {
  const real = realClientModule();
  const created = [];
  class LanguageClient {
    constructor(...args) {
      this.args = args;
      [this.id, this.name, this.serverOptions, this.clientOptions] = args;
      this.started = 0;
      this.stopped = 0;
      this.state = real.State.Stopped;
      this.stateListeners = [];
      this.requests = [];
      this.respond = () => null;
      this.initializeResult = { capabilities: {}, serverInfo: { name: 'cute-lsp', version: 'v9.8.7' } };
      this.startResult = Promise.resolve('started');
      this.stopResult = Promise.resolve('stopped');
      created.push(this);
    }
    onDidChangeState(listener) {
      this.stateListeners.push(listener);
      return { dispose() {} };
    }
    setState(newState) {
      const oldState = this.state;
      this.state = newState;
      for (const l of this.stateListeners) l({ oldState, newState });
    }
    start() {
      this.started++;
      this.state = real.State.Running;
      return this.startResult;
    }
    stop() {
      this.stopped++;
      this.state = real.State.Stopped;
      return this.stopResult;
    }
    sendRequest(method, params) {
      this.requests.push({ method, params });
      return Promise.resolve(this.respond(method, params));
    }
  }
  const TransportKind = { ...real.TransportKind };
  const State = { ...real.State };
  return { module: { LanguageClient, TransportKind, State }, created };
}

// activateWith loads a fresh extension.js under the given user settings
// and activates it.
// extensionPath is where the extension is installed (default: a folder
// with no bundled binary).
function activateWith(userSettings, extensionPath = fakeExtensionDir) {
  const { vscode, state } = makeVSCode(userSettings);
  const client = recordingClientModule();
  const ext = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': client.module });
  const context = { subscriptions: [], extensionPath };
  const started = ext.activate(context);
  return {
    ext,
    vscode,
    state,
    context,
    started,
    created: client.created,
    TransportKind: client.module.TransportKind,
    State: client.module.State,
  };
}

// A document as the commands see it: uri, language, lines.
function fakeDocument(file, languageId, text) {
  const lines = text.split('\n');
  const uri = { fsPath: file, path: file, toString: () => `file://${file}` };
  return { uri, languageId, lineCount: lines.length, lineAt: (i) => ({ text: lines[i] }), getText: () => text };
}

function editorAt(document, line, character) {
  return { document, selection: { active: { line, character } } };
}

// activationLanguages: the languages whose files activate the extension
// (onLanguage:<id>); the other events are workspaceContains patterns.
function activationLanguages() {
  return manifest.activationEvents
    .map((event) => {
      const m = /^onLanguage:(.+)$/.exec(event);
      assert.ok(
        m || event.startsWith('workspaceContains:') || event === 'onNotebook:jupyter-notebook',
        `activation event ${event} is neither onLanguage:<id>, workspaceContains:<glob> nor onNotebook:jupyter-notebook`,
      );
      return m ? m[1] : undefined;
    })
    .filter(Boolean);
}

function settingKeys() {
  return Object.keys(manifest.contributes.configuration.properties);
}

function versionOf(range) {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(range);
  assert.ok(m, `no version in ${range}`);
  return m.slice(1).map(Number);
}

function atLeast(a, b) {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] > b[i];
  }
  return true;
}

test('package.json names an entry point that exports activate and deactivate', () => {
  for (const key of ['name', 'publisher', 'version', 'main']) {
    assert.equal(typeof manifest[key], 'string', `package.json ${key}`);
  }
  assert.ok(fs.existsSync(extensionFile), `main ${manifest.main} does not exist`);
  const { vscode } = makeVSCode();
  const ext = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': recordingClientModule().module });
  assert.equal(typeof ext.activate, 'function');
  assert.equal(typeof ext.deactivate, 'function');
});

test('the VS Code engine range satisfies the client library', () => {
  const clientManifest = JSON.parse(
    fs.readFileSync(require.resolve('vscode-languageclient/package.json', { paths: [extensionDir] }), 'utf8'),
  );
  const ours = versionOf(manifest.engines.vscode);
  const needed = versionOf(clientManifest.engines.vscode);
  assert.ok(
    atLeast(ours, needed),
    `engines.vscode ${manifest.engines.vscode} admits VS Code older than vscode-languageclient ${clientManifest.version} needs (${clientManifest.engines.vscode})`,
  );
  assert.match(manifest.dependencies['vscode-languageclient'], new RegExp(`^\\^?${clientManifest.version.split('.')[0]}\\.`));
});

test('the names extension.js imports exist in the installed client library', () => {
  const real = realClientModule();
  assert.equal(typeof real.LanguageClient, 'function');
  assert.equal(real.TransportKind.stdio, 0);
  // The real constructor accepts exactly what activate passes it.
  const { created } = activateWith({});
  const client = new real.LanguageClient(...created[0].args);
  assert.equal(client.name, created[0].name);
  assert.equal(client.clientOptions.synchronize.configurationSection, 'cute');
});

test('the server starts from cute.serverPath with serve --stdio over stdio', async () => {
  const { created, started, TransportKind } = activateWith({ 'cute.serverPath': fakeFullPath });
  assert.equal(created.length, 1, 'one LanguageClient');
  const client = created[0];
  assert.equal(client.id, 'cute-lsp');
  assert.equal(typeof client.name, 'string');
  for (const mode of ['run', 'debug']) {
    const exe = client.serverOptions[mode];
    assert.ok(exe, `serverOptions.${mode}`);
    assert.equal(exe.command, fakeFullPath, `${mode}.command`);
    assert.deepEqual(exe.args, ['serve', '--stdio'], `${mode}.args`);
    assert.equal(exe.transport, TransportKind.stdio, `${mode}.transport`);
    assert.equal(exe.module, undefined, `${mode} is an executable, not a node module`);
  }
  assert.equal(client.started, 1, 'start() called once');
  assert.equal(await started, 'started', 'activate returns the promise of start()');
});

test('without a cute.serverPath setting the server is cute-lsp from PATH', () => {
  const { created } = activateWith({});
  const exe = created[0].serverOptions.run;
  // The name is resolved on PATH before the start, as the shell would.
  assert.equal(exe.command, fakeServer);
  assert.equal(manifest.contributes.configuration.properties['cute.serverPath'].default, 'cute-lsp');
  // ... which is the binary this repository builds.
  assert.ok(fs.existsSync(path.join(repoRoot, 'cmd', path.basename(exe.command))), `cmd/${path.basename(exe.command)} does not exist`);
});

test('without a cute.serverPath setting a bundled binary is used before PATH', () => {
  const { created } = activateWith({}, bundledExtensionDir);
  assert.equal(created.length, 1);
  for (const mode of ['run', 'debug']) assert.equal(created[0].serverOptions[mode].command, bundledFile, mode);
  assert.equal(path.relative(bundledExtensionDir, bundledFile), path.join('bin', vsceTarget(), process.platform === 'win32' ? 'cute-lsp.exe' : 'cute-lsp'));
});

test('cute.serverPath wins over a bundled binary, even when it names cute-lsp itself', () => {
  assert.equal(activateWith({ 'cute.serverPath': fakeFullPath }, bundledExtensionDir).created[0].serverOptions.run.command, fakeFullPath);
  // The default value set explicitly is a choice of PATH's cute-lsp.
  assert.equal(activateWith({ 'cute.serverPath': 'cute-lsp' }, bundledExtensionDir).created[0].serverOptions.run.command, fakeServer);
});

test('a bundled binary that cannot be run is passed over for PATH', () => {
  const dir = path.join(fakeRoot, 'extension-broken');
  const file = bundledServerPath(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'not a program', { mode: 0o644 });
  if (process.platform !== 'win32') assert.equal(activateWith({}, dir).created[0].serverOptions.run.command, fakeServer);
  // A directory in the binary's place is no binary either.
  const dirInPlace = path.join(fakeRoot, 'extension-dir');
  fs.mkdirSync(bundledServerPath(dirInPlace), { recursive: true });
  assert.equal(activateWith({}, dirInPlace).created[0].serverOptions.run.command, fakeServer);
});

test('vsceTarget names platforms as vsce --target does', () => {
  assert.equal(vsceTarget('linux', 'x64'), 'linux-x64');
  assert.equal(vsceTarget('linux', 'arm64'), 'linux-arm64');
  assert.equal(vsceTarget('linux', 'arm'), 'linux-armhf');
  assert.equal(vsceTarget('darwin', 'arm64'), 'darwin-arm64');
  assert.equal(vsceTarget('win32', 'x64'), 'win32-x64');
  assert.ok(bundledServerPath('/ext', 'win32', 'x64').endsWith(path.join('bin', 'win32-x64', 'cute-lsp.exe')));
});

test('a relative cute.serverPath is found from the first workspace folder', () => {
  const { vscode, state } = makeVSCode({ 'cute.serverPath': 'opt/cuda-tools/bin/cute-lsp' });
  state.workspaceFolders = [{ uri: { fsPath: fakeRoot } }];
  const client = recordingClientModule();
  const ext = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': client.module });
  ext.activate({ subscriptions: [] });
  assert.equal(client.created.length, 1);
  assert.equal(client.created[0].serverOptions.run.command, fakeFullPath);
});

test('a missing binary gets an error naming the setting and make install, and no client', async () => {
  for (const serverPath of ['cute-lsp-not-installed', path.join(fakeRoot, 'nowhere', 'cute-lsp'), fakeBinDir]) {
    const { state, created, started } = activateWith({ 'cute.serverPath': serverPath });
    assert.equal(await started, undefined);
    assert.equal(created.length, 0, `${serverPath}: no client is started for a binary that does not exist`);
    const errors = state.messages.filter((m) => m.level === 'error');
    assert.equal(errors.length, 1, `${serverPath}: one error message`);
    const text = errors[0].message;
    assert.ok(text.includes(`"${serverPath}"`), `the message names the binary: ${text}`);
    assert.match(text, /was not found/);
    assert.match(text, /cute\.serverPath/, 'the message names the setting');
    assert.match(text, /make install/, 'the message says how to install the binary');
    assert.match(text, serverPath.includes('/') ? /at that path/ : /on PATH/);
    assert.deepEqual(errors[0].items, ['Open Settings']);
    const item = state.statusItems[0];
    assert.ok(item.visible && /error/.test(item.text), `status item shows the failure: ${item.text}`);
  }
  // "Open Settings" opens the setting.
  const { vscode, state } = makeVSCode({ 'cute.serverPath': 'cute-lsp-not-installed' });
  state.answer = (_, items) => items[0];
  const ext = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': recordingClientModule().module });
  await ext.activate({ subscriptions: [] });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(state.executed[0], ['workbench.action.openSettings', 'cute.serverPath']);
});

test('after a missing binary is installed, Restart Server starts it', async () => {
  const dir = fs.mkdtempSync(path.join(fakeRoot, 'later-'));
  const later = path.join(dir, 'cute-lsp');
  const { state, created } = activateWith({ 'cute.serverPath': later });
  assert.equal(created.length, 0);
  fs.writeFileSync(later, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  await state.commands.get('cute.restartServer')();
  assert.equal(created.length, 1);
  assert.equal(created[0].serverOptions.run.command, later);
  assert.equal(created[0].started, 1);
});

test('the status bar item shows the server state and version', async () => {
  const { state, created, started, State } = activateWith({});
  assert.equal(state.statusItems.length, 1, 'one status bar item');
  const item = state.statusItems[0];
  await started;
  assert.ok(item.visible);
  assert.match(item.text, /cute-lsp v9\.8\.7/, 'the version from initializeResult.serverInfo');
  assert.match(item.tooltip, /running/);
  assert.ok(item.tooltip.includes(fakeServer), 'the tooltip names the binary');
  assert.equal(item.command, 'cute.restartServer', 'a click restarts the server');
  created[0].setState(State.Stopped);
  assert.match(item.text, /cute-lsp/);
  assert.doesNotMatch(item.text, /v9/);
  assert.match(item.tooltip, /stopped/);
  created[0].setState(State.Starting);
  assert.match(item.tooltip, /starting/);
  created[0].initializeResult = { capabilities: {} }; // a server without serverInfo
  created[0].setState(State.Running);
  assert.match(item.text, /unknown version/);
});

test('a server that fails to start shows in the status bar', async () => {
  const { vscode, state } = makeVSCode({});
  const client = recordingClientModule();
  const original = client.module.LanguageClient.prototype.start;
  client.module.LanguageClient.prototype.start = function () {
    original.call(this);
    return Promise.reject(new Error('exec format error'));
  };
  const ext = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': client.module });
  await assert.rejects(ext.activate({ subscriptions: [] }), /exec format error/);
  assert.match(state.statusItems[0].tooltip, /failed to start: exec format error/);
});

test('Restart Server stops the running client and starts a new one', async () => {
  const { state, created, started } = activateWith({});
  await started;
  assert.ok(state.commands.has('cute.restartServer'));
  await state.commands.get('cute.restartServer')();
  assert.equal(created.length, 2, 'a new client');
  assert.equal(created[0].stopped, 1, 'the old one is stopped');
  assert.equal(created[1].started, 1, 'the new one is started');
  // A client whose stop fails (its server died) does not block the restart.
  created[1].stop = () => Promise.reject(new Error('server died'));
  await state.commands.get('cute.restartServer')();
  assert.equal(created.length, 3);
});

test('every contributed command is registered, and disposed with the extension', () => {
  const { state, context } = activateWith({});
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(contributed, ['cute.evaluateSheet', 'cute.restartServer', 'cute.showOffsetTable', 'cute.showPicture']);
  assert.deepEqual([...state.commands.keys()].sort(), contributed);
  for (const c of manifest.contributes.commands) {
    assert.equal(c.category, 'CuTe');
    assert.equal(typeof c.title, 'string');
  }
  for (const d of context.subscriptions) d.dispose();
  assert.equal(state.commands.size, 0);
  assert.ok(state.statusItems[0].disposed);
});

test('Show Offset Table shows the hover under the cursor beside the editor', async () => {
  const { state, created, started } = activateWith({});
  await started;
  const doc = fakeDocument('/w/tile.cute', 'cute', 'tile = (4,8):(1,4)\n');
  state.activeTextEditor = editorAt(doc, 0, 9);
  const table = '`(4,8):(1,4)`\n\n```\n     0   1\n 0 | 0 | 4 |\n```';
  created[0].respond = (method) => (method === 'textDocument/hover' ? { contents: { kind: 'markdown', value: table } } : null);
  await state.commands.get('cute.showOffsetTable')();
  assert.deepEqual(created[0].requests, [
    { method: 'textDocument/hover', params: { textDocument: { uri: 'file:///w/tile.cute' }, position: { line: 0, character: 9 } } },
  ]);
  assert.equal(state.shownDocuments.length, 1);
  const shown = state.shownDocuments[0];
  assert.equal(shown.document.languageId, 'markdown');
  assert.equal(shown.document.getText(), table + '\n');
  assert.equal(shown.options.viewColumn, -2, 'beside the editor');
  assert.equal(shown.options.preserveFocus, true);

  // Older hover forms: MarkedString arrays.
  created[0].respond = () => ({ contents: ['facts', { language: 'text', value: '0 | 4' }] });
  await state.commands.get('cute.showOffsetTable')();
  assert.equal(state.shownDocuments[1].document.getText(), 'facts\n\n```text\n0 | 4\n```\n');

  // Nothing under the cursor: a message, no document.
  created[0].respond = () => null;
  await state.commands.get('cute.showOffsetTable')();
  assert.equal(state.shownDocuments.length, 2);
  assert.match(state.messages.at(-1).message, /no layout under the cursor/);
});

test('Show Offset Table without an editor or a running server says why', async () => {
  const { state, created, started, State } = activateWith({});
  await started;
  await state.commands.get('cute.showOffsetTable')();
  assert.equal(state.messages.at(-1).level, 'warning');
  assert.match(state.messages.at(-1).message, /cursor on a layout/);
  state.activeTextEditor = editorAt(fakeDocument('/w/a.cute', 'cute', 'x = 8:1'), 0, 4);
  created[0].state = State.Stopped;
  await state.commands.get('cute.showOffsetTable')();
  assert.equal(state.messages.at(-1).level, 'error');
  assert.match(state.messages.at(-1).message, /not running.*Restart Server/);
  assert.equal(created[0].requests.length, 0);
});

const PAGE = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>(4,8):(1,4)</title>\n</head>\n<body><script>\nconst D = {};\n</script></body></html>\n';

// pictureClient answers workspace/executeCommand with PAGE, or with the
// error fail() names when it is set.
function pictureClient(c, fail) {
  c.respond = (method, params) => {
    if (method !== 'workspace/executeCommand') return null;
    const err = fail && fail(params);
    if (err) throw new Error(err);
    return PAGE.replace('(4,8):(1,4)', `${params.arguments[1].line}:${params.arguments[1].character}`);
  };
}

test('Show Picture asks the server for the page at the cursor and shows it in a webview beside the editor', async () => {
  const { state, created, started } = activateWith({});
  await started;
  pictureClient(created[0]);
  state.activeTextEditor = editorAt(fakeDocument('/w/tile.cute', 'cute', 'tile = (4,8):(1,4)\n'), 0, 9);
  const panel = await state.commands.get('cute.showPicture')();
  assert.deepEqual(created[0].requests, [
    { method: 'workspace/executeCommand', params: { command: 'cute.picture', arguments: ['file:///w/tile.cute', { line: 0, character: 9 }] } },
  ]);
  assert.equal(state.panels.length, 1);
  assert.equal(panel, state.panels[0]);
  assert.equal(panel.showOptions.viewColumn, -2, 'beside the editor');
  assert.equal(panel.showOptions.preserveFocus, true);
  assert.equal(panel.options.enableScripts, true);
  assert.deepEqual(panel.options.localResourceRoots, [], 'no local files');
  const html = panel.webview.html;
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(csp, 'the page carries a content security policy');
  assert.match(csp[1], /default-src 'none'/, 'nothing fetched');
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp[1]);
  assert.ok(nonce, 'scripts only by nonce');
  assert.ok(html.includes(`<script nonce="${nonce[1]}">`), 'the page script carries the nonce');
  assert.ok(html.includes('<title>0:9</title>'));

  // Hover's link passes the document and position itself; the panel is reused.
  await state.commands.get('cute.showPicture')('file:///w/other.cute', { line: 3, character: 1 });
  assert.deepEqual(created[0].requests[1].params.arguments, ['file:///w/other.cute', { line: 3, character: 1 }]);
  assert.equal(state.panels.length, 1, 'one picture panel, reused');
  assert.ok(panel.webview.html.includes('<title>3:1</title>'));
});

test('Show Picture without an editor, without a server, or refused by the server says why', async () => {
  const { state, created, started, State } = activateWith({});
  await started;
  await state.commands.get('cute.showPicture')();
  assert.equal(state.messages.at(-1).level, 'warning');
  assert.match(state.messages.at(-1).message, /cursor on a layout/);

  pictureClient(created[0], () => 'no picture of (2049,2048):(1,2049): 4196352 cells; the editor shows at most 1048576');
  state.activeTextEditor = editorAt(fakeDocument('/w/big.cute', 'cute', 'big = (2049,2048):(1,2049)\n'), 0, 0);
  await state.commands.get('cute.showPicture')();
  assert.equal(state.messages.at(-1).level, 'error');
  assert.match(state.messages.at(-1).message, /^cute-lsp: no picture of .*at most 1048576/);
  assert.equal(state.panels.length, 0, 'no panel for a refused picture');

  created[0].respond = () => null;
  await state.commands.get('cute.showPicture')();
  assert.match(state.messages.at(-1).message, /sent no picture/);

  created[0].state = State.Stopped;
  const before = created[0].requests.length;
  await state.commands.get('cute.showPicture')();
  assert.match(state.messages.at(-1).message, /not running/);
  assert.equal(created[0].requests.length, before);
});

test('the picture follows edits of its document, debounced, and shows a failure in the panel', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { ext, state, created, started } = activateWith({});
  await started;
  let fail;
  pictureClient(created[0], () => fail);
  const doc = fakeDocument('/w/tile.cute', 'cute', 'tile = (4,8):(1,4)\n');
  state.activeTextEditor = editorAt(doc, 2, 9);
  const panel = await state.commands.get('cute.showPicture')();
  const asked = () => created[0].requests.length;
  assert.equal(asked(), 1);

  // Three edits in a burst, one above the value (a line inserted): one request, at the moved position.
  fireDocumentChange(state, doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# note\n' }]);
  t.mock.timers.tick(ext.PICTURE_DELAY_MS - 1);
  fireDocumentChange(state, doc, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'x' }]);
  fireDocumentChange(state, doc, [{ range: { start: { line: 3, character: 1 }, end: { line: 3, character: 1 } }, text: 'y' }]);
  assert.equal(asked(), 1, 'nothing asked during the burst');
  t.mock.timers.tick(ext.PICTURE_DELAY_MS);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked(), 2, 'one request after the burst');
  assert.deepEqual(created[0].requests[1].params.arguments, ['file:///w/tile.cute', { line: 3, character: 11 }]);
  assert.ok(panel.webview.html.includes('<title>3:11</title>'));

  // Another document's edits are not followed.
  fireDocumentChange(state, fakeDocument('/w/other.cute', 'cute', ''), [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'z' }]);
  t.mock.timers.tick(ext.PICTURE_DELAY_MS);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked(), 2);

  // The value stops evaluating: the panel says why, escaped.
  fail = 'no picture: the value at 4:12 does not evaluate: <bad>';
  fireDocumentChange(state, doc, [{ range: { start: { line: 3, character: 12 }, end: { line: 3, character: 13 } }, text: '' }]);
  t.mock.timers.tick(ext.PICTURE_DELAY_MS);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked(), 3);
  assert.match(panel.webview.html, /No picture: no picture: the value at 4:12 does not evaluate: &lt;bad&gt;/);

  // Closed: edits ask nothing more.
  panel.dispose();
  fireDocumentChange(state, doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'w' }]);
  t.mock.timers.tick(ext.PICTURE_DELAY_MS * 2);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked(), 3);
  assert.ok(state.changeListeners.every((l) => l.disposable.disposed), 'the change listener goes with the panel');
});

test('hover links to Show Picture run only as a trusted command', () => {
  const { created } = activateWith({});
  assert.deepEqual(created[0].clientOptions.markdown.isTrusted, { enabledCommands: ['cute.showPicture'] });
  assert.equal(created[0].clientOptions.markdown.supportHtml, false);
});

test('shiftPosition follows lines and characters of edits before the position', () => {
  const at = { line: 5, character: 4 };
  const edit = (sl, sc, el, ec, text) => ({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, text });
  assert.deepEqual(picture.shiftPosition(at, [edit(1, 0, 1, 0, 'a\nb\n')]), { line: 7, character: 4 });
  assert.deepEqual(picture.shiftPosition(at, [edit(1, 0, 3, 0, '')]), { line: 3, character: 4 });
  assert.deepEqual(picture.shiftPosition(at, [edit(5, 0, 5, 2, 'xyz')]), { line: 5, character: 5 });
  assert.deepEqual(picture.shiftPosition(at, [edit(5, 6, 5, 7, 'q')]), at, 'after it on its line');
  assert.deepEqual(picture.shiftPosition(at, [edit(7, 0, 9, 0, '')]), at, 'below it');
  assert.deepEqual(picture.shiftPosition(at, [edit(4, 3, 5, 1, 'k')]), { line: 4, character: 7 }, 'joined to the line above');
  assert.deepEqual(picture.shiftPosition(at, [{ text: 'whole document' }]), at, 'a full replacement keeps it');
});

test('forWebview refuses an answer that is not a page', () => {
  assert.match(picture.forWebview('not html'), /No picture: the server answered something that is not a picture page/);
});

test('Evaluate Sheet lists the values (inlay hints) and errors of the sheet', async () => {
  const { state, created, started } = activateWith({});
  await started;
  const text = ['# tile', 'gA = (128,64):(64,1)', 'blocks = logical_divide(gA, [32:1;8:1])   # blocks', 'n = size(gA) // count', 'bad = oops(', ''].join('\n');
  const doc = fakeDocument('/w/tiles.cute', 'cute', text);
  state.activeTextEditor = editorAt(doc, 0, 0);
  state.diagnostics.set('file:///w/tiles.cute', [
    { severity: 0, range: { start: { line: 4, character: 6 } }, message: 'unknown function oops' },
    { severity: 1, range: { start: { line: 3, character: 0 } }, message: 'a warning is not listed' },
  ]);
  created[0].respond = (method) =>
    method === 'textDocument/inlayHint'
      ? [
          { position: { line: 3, character: 12 }, label: ' = 8192' },
          { position: { line: 2, character: 39 }, label: [{ value: ' = ' }, { value: '((32,4),(8,8)):((64,2048),(1,8))' }] },
        ]
      : null;
  await state.commands.get('cute.evaluateSheet')();
  assert.deepEqual(created[0].requests, [
    {
      method: 'textDocument/inlayHint',
      params: { textDocument: { uri: 'file:///w/tiles.cute' }, range: { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } } },
    },
  ]);
  const shown = state.shownDocuments[0].document.getText();
  assert.equal(
    shown,
    [
      '# tiles.cute: 2 values, 1 error (cute-lsp)',
      '3: blocks = logical_divide(gA, [32:1;8:1])  = ((32,4),(8,8)):((64,2048),(1,8))',
      '4: n = size(gA)                             = 8192',
      '5: error: unknown function oops',
      '',
    ].join('\n'),
  );
});

test('Evaluate Sheet outside a sheet says so', async () => {
  const { state, created, started } = activateWith({});
  await started;
  state.activeTextEditor = editorAt(fakeDocument('/w/k.cu', 'cuda-cpp', '// (4,8):(1,4)'), 0, 4);
  await state.commands.get('cute.evaluateSheet')();
  assert.match(state.messages.at(-1).message, /\.cute sheet/);
  assert.equal(created[0].requests.length, 0);
  assert.equal(state.shownDocuments.length, 0);
});

test('the extension starts for sheets, MLIR, Jupyter notebooks and CuTe workspaces, not for every C++ or Python file', () => {
  const onLanguage = activationLanguages();
  assert.deepEqual(onLanguage.sort(), ['cute', 'mlir']);
  const patterns = manifest.activationEvents.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
  assert.deepEqual(patterns.sort(), ['**/*.cute', '**/cutlass/cute/__init__.py', '**/include/cute/layout.hpp']);
  const notebooks = manifest.activationEvents.filter((e) => e.startsWith('onNotebook:'));
  assert.deepEqual(notebooks, ['onNotebook:jupyter-notebook'], 'the CuTe DSL tutorials are Jupyter notebooks');
  assert.equal(onLanguage.length + patterns.length + notebooks.length, manifest.activationEvents.length, 'no other activation events');
  // The patterns name files that exist in a CuTe workspace: CuTe's own header
  // is where a CUTLASS checkout keeps it, and the repository has sheets.
  assert.ok(fs.readdirSync(path.join(repoRoot, 'examples')).some((f) => f.endsWith('.cute')));
});

test('the document selector covers exactly the served languages', () => {
  const { created } = activateWith({});
  const all = created[0].clientOptions.documentSelector;
  assert.ok(Array.isArray(all) && all.length > 0);
  // Notebook cells: a notebook-cell filter of Jupyter's Python cells, and no other.
  const cells = all.filter((f) => f.notebook !== undefined);
  assert.deepEqual(cells, [{ notebook: 'jupyter-notebook', language: 'python' }]);
  const selector = all.filter((f) => f.notebook === undefined);
  for (const filter of selector) {
    assert.equal(typeof filter, 'object', 'a bare string selector would match any scheme');
    assert.equal(typeof filter.language, 'string', `filter ${JSON.stringify(filter)} has no language: it would match every file`);
    assert.ok(['file', 'untitled'].includes(filter.scheme), `filter ${JSON.stringify(filter)}: scheme`);
    assert.equal(filter.pattern, undefined);
  }
  const served = new Set(selector.map((f) => f.language));
  const { SERVED_LANGUAGES } = loadWith(extensionFile, { vscode: makeVSCode().vscode, 'vscode-languageclient/node': recordingClientModule().module });
  const activated = new Set(SERVED_LANGUAGES);
  assert.deepEqual([...served].sort(), [...activated].sort());
  for (const lang of activationLanguages()) assert.ok(served.has(lang), `${lang} activates the extension but is not served`);
  for (const lang of activated) {
    assert.ok(
      selector.some((f) => f.language === lang && f.scheme === 'file'),
      `files of ${lang} are not served`,
    );
  }
  assert.deepEqual([...activated].sort(), ['cpp', 'cuda-cpp', 'cute', 'mlir', 'python']);
  assert.ok(selector.some((f) => f.language === 'cute' && f.scheme === 'untitled'), 'unsaved sheets are served');
});

test('the client synchronizes the cute section', () => {
  const { created } = activateWith({});
  assert.equal(created[0].clientOptions.synchronize.configurationSection, 'cute');
  for (const key of settingKeys()) {
    assert.ok(key.startsWith('cute.'), `setting ${key} lies outside the synchronized section`);
  }
});

test('initializationOptions carry the settings, defaults included', () => {
  const contributed = manifest.contributes.configuration.properties;
  const serverKeys = settingKeys()
    .filter((k) => k !== 'cute.serverPath')
    .map((k) => k.slice('cute.'.length));

  const defaults = activateWith({}).created[0].clientOptions.initializationOptions;
  assert.deepEqual(Object.keys(defaults).sort(), ['cute', 'pictureLinks'], 'the settings, and that this client runs Show picture links');
  assert.equal(defaults.pictureLinks, true);
  assert.deepEqual(Object.keys(defaults.cute).sort(), [...serverKeys].sort(), 'every server setting is sent, and only those');
  for (const key of serverKeys) {
    assert.equal(defaults.cute[key], contributed[`cute.${key}`].default, `default of ${key}`);
  }

  const user = { 'cute.tableCap': 8, 'cute.defaultElementType': 'float', 'cute.arch': 'sm100' };
  const options = activateWith(user).created[0].clientOptions.initializationOptions;
  assert.deepEqual(options, { pictureLinks: true, cute: { tableCap: 8, defaultElementType: 'float', arch: 'sm100' } });
});

test('the contributed settings are well formed', () => {
  const props = manifest.contributes.configuration.properties;
  for (const [key, spec] of Object.entries(props)) {
    assert.ok(['string', 'integer', 'number', 'boolean'].includes(spec.type), `${key}: type ${spec.type}`);
    const want = spec.type === 'integer' ? 'number' : spec.type;
    assert.equal(typeof spec.default, want, `${key}: default ${spec.default} is not a ${spec.type}`);
    if (spec.type === 'integer') assert.ok(Number.isInteger(spec.default), `${key}: default is not an integer`);
    if (spec.enum) assert.ok(spec.enum.includes(spec.default), `${key}: default ${spec.default} is not among ${spec.enum}`);
    if (spec.minimum !== undefined) assert.ok(spec.default >= spec.minimum, `${key}: default below minimum`);
    if (spec.maximum !== undefined) assert.ok(spec.default <= spec.maximum, `${key}: default above maximum`);
    assert.equal(typeof spec.description, 'string', `${key}: description`);
  }
});

test('a change of cute.serverPath offers a restart; other changes do not', async () => {
  const { state, context } = activateWith({});
  assert.equal(state.configListeners.length, 1, 'one configuration listener');
  assert.ok(
    context.subscriptions.includes(state.configListeners[0].disposable),
    'the listener is disposed with the extension',
  );

  fireConfigurationChange(state, ['cute.tableCap']);
  fireConfigurationChange(state, ['editor.fontSize']);
  assert.deepEqual(state.messages, []);

  fireConfigurationChange(state, ['cute.serverPath']);
  assert.equal(state.messages.length, 1);
  assert.equal(state.messages[0].level, 'info');
  assert.match(state.messages[0].message, /restart/i);
  assert.match(state.messages[0].message, /server path/i);
  assert.deepEqual(state.messages[0].items, ['Restart Server']);

  // Disposed with the extension: no more messages.
  for (const d of context.subscriptions) d.dispose();
  fireConfigurationChange(state, ['cute.serverPath']);
  assert.equal(state.messages.length, 1);

  // Choosing "Restart Server" starts the server from the new path.
  const run = activateWith({});
  run.state.answer = (_, items) => items[0];
  run.state.settings['cute.serverPath'] = fakeFullPath;
  fireConfigurationChange(run.state, ['cute.serverPath']);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(run.created.length, 2);
  assert.equal(run.created[0].stopped, 1);
  assert.equal(run.created[1].serverOptions.run.command, fakeFullPath);
});

test('deactivate stops the client, and is harmless before activate', async () => {
  const { ext, created } = activateWith({});
  const result = ext.deactivate();
  assert.equal(created[0].stopped, 1, 'stop() called once');
  assert.equal(await result, 'stopped', 'deactivate returns the promise of stop()');

  const { vscode } = makeVSCode();
  const fresh = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': recordingClientModule().module });
  assert.equal(fresh.deactivate(), undefined);
});

test('the .cute language points at a language configuration that exists', () => {
  const langs = manifest.contributes.languages;
  const cute = langs.find((l) => l.id === 'cute');
  assert.ok(cute, 'the cute language is contributed');
  assert.deepEqual(cute.extensions, ['.cute']);
  const configFile = path.resolve(extensionDir, cute.configuration);
  assert.ok(fs.existsSync(configFile), `${cute.configuration} does not exist`);
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  assert.equal(config.comments.lineComment, '#');
  for (const pair of config.brackets) {
    assert.equal(pair.length, 2);
  }
  for (const pair of config.autoClosingPairs) {
    assert.equal(typeof pair.open, 'string');
    assert.equal(typeof pair.close, 'string');
  }
  // Only cute is declared here; the other languages come with VS Code or
  // other extensions.
  assert.deepEqual(
    langs.map((l) => l.id),
    ['cute'],
  );
  // The repository's own sheets are .cute files.
  const examples = fs.readdirSync(path.join(repoRoot, 'examples')).filter((f) => f.endsWith('.cute'));
  assert.ok(examples.length > 0, 'examples/*.cute');
});
