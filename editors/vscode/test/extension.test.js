// The extension's wiring, run under node without VS Code: extension.js is
// loaded with `vscode` and `vscode-languageclient/node` replaced by
// recording stand-ins, and package.json is checked against what the
// extension and the client library need.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { extensionDir, manifest, makeVSCode, fireConfigurationChange, loadWith } = require('./vscode-stub');

const repoRoot = path.resolve(extensionDir, '..', '..');
const extensionFile = path.join(extensionDir, manifest.main);

// The client library as installed by `npm ci`, loaded once with a stand-in
// `vscode` (it reads vscode.version and little else while loading).
function realClientModule() {
  const file = require.resolve('vscode-languageclient/node', { paths: [extensionDir] });
  return loadWith(file, { vscode: makeVSCode().vscode });
}

// A recording vscode-languageclient/node with the real TransportKind values.
function recordingClientModule() {
  const created = [];
  class LanguageClient {
    constructor(...args) {
      this.args = args;
      [this.id, this.name, this.serverOptions, this.clientOptions] = args;
      this.started = 0;
      this.stopped = 0;
      this.startResult = Promise.resolve('started');
      this.stopResult = Promise.resolve('stopped');
      created.push(this);
    }
    start() {
      this.started++;
      return this.startResult;
    }
    stop() {
      this.stopped++;
      return this.stopResult;
    }
  }
  const TransportKind = { ...realClientModule().TransportKind };
  return { module: { LanguageClient, TransportKind }, created };
}

// activateWith loads a fresh extension.js under the given user settings
// and activates it.
function activateWith(userSettings) {
  const { vscode, state } = makeVSCode(userSettings);
  const client = recordingClientModule();
  const ext = loadWith(extensionFile, { vscode, 'vscode-languageclient/node': client.module });
  const context = { subscriptions: [] };
  const started = ext.activate(context);
  return { ext, state, context, started, created: client.created, TransportKind: client.module.TransportKind };
}

function activationLanguages() {
  return manifest.activationEvents.map((event) => {
    const m = /^onLanguage:(.+)$/.exec(event);
    assert.ok(m, `activation event ${event} is not onLanguage:<id>; the client serves languages only`);
    return m[1];
  });
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
  const { created, started, TransportKind } = activateWith({ 'cute.serverPath': '/opt/cuda-tools/bin/cute-lsp' });
  assert.equal(created.length, 1, 'one LanguageClient');
  const client = created[0];
  assert.equal(client.id, 'cute-lsp');
  assert.equal(typeof client.name, 'string');
  for (const mode of ['run', 'debug']) {
    const exe = client.serverOptions[mode];
    assert.ok(exe, `serverOptions.${mode}`);
    assert.equal(exe.command, '/opt/cuda-tools/bin/cute-lsp', `${mode}.command`);
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
  assert.equal(exe.command, 'cute-lsp');
  assert.equal(manifest.contributes.configuration.properties['cute.serverPath'].default, 'cute-lsp');
  // ... which is the binary this repository builds.
  assert.ok(fs.existsSync(path.join(repoRoot, 'cmd', exe.command)), `cmd/${exe.command} does not exist`);
});

test('the document selector covers exactly the activation languages', () => {
  const { created } = activateWith({});
  const selector = created[0].clientOptions.documentSelector;
  assert.ok(Array.isArray(selector) && selector.length > 0);
  for (const filter of selector) {
    assert.equal(typeof filter, 'object', 'a bare string selector would match any scheme');
    assert.equal(typeof filter.language, 'string', `filter ${JSON.stringify(filter)} has no language: it would match every file`);
    assert.ok(['file', 'untitled'].includes(filter.scheme), `filter ${JSON.stringify(filter)}: scheme`);
    assert.equal(filter.pattern, undefined);
  }
  const served = new Set(selector.map((f) => f.language));
  const activated = new Set(activationLanguages());
  assert.deepEqual([...served].sort(), [...activated].sort());
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
  assert.deepEqual(Object.keys(defaults), ['cute']);
  assert.deepEqual(Object.keys(defaults.cute).sort(), [...serverKeys].sort(), 'every server setting is sent, and only those');
  for (const key of serverKeys) {
    assert.equal(defaults.cute[key], contributed[`cute.${key}`].default, `default of ${key}`);
  }

  const user = { 'cute.tableCap': 8, 'cute.defaultElementType': 'float', 'cute.arch': 'sm100' };
  const options = activateWith(user).created[0].clientOptions.initializationOptions;
  assert.deepEqual(options, { cute: { tableCap: 8, defaultElementType: 'float', arch: 'sm100' } });
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

test('a change of cute.serverPath asks for a reload; other changes do not', () => {
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
  assert.match(state.messages[0].message, /reload/i);
  assert.match(state.messages[0].message, /server path/i);

  // Disposed with the extension: no more messages.
  for (const d of context.subscriptions) d.dispose();
  fireConfigurationChange(state, ['cute.serverPath']);
  assert.equal(state.messages.length, 1);
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
