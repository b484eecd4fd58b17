// cute-lsp against the libraries VS Code's client is built on. The server
// is started the way VS Code starts it: extension.js builds the client
// options, and the real vscode-languageclient spawns the binary
// (createMessageTransports) and computes the client capabilities VS Code
// sends. Messages then go through vscode-languageserver-protocol's
// connection, and every answer is checked for its content as well as for the
// shape the client's converters rely on.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { pathToFileURL } = require('node:url');

const { extensionDir, manifest, makeVSCode, loadWith } = require('./vscode-stub');

const lsp = require('vscode-languageserver-protocol/node');

const repoRoot = path.resolve(extensionDir, '..', '..');
const binary = path.resolve(process.env.CUTE_LSP_BIN || path.join(repoRoot, 'bin', 'cute-lsp'));

const WAIT_MS = 10000;

// The client library, loaded once with a stand-in `vscode`; start() is the
// part that needs a real editor, so it only records the client.
const clientModuleFile = require.resolve('vscode-languageclient/node', { paths: [extensionDir] });
const clientModule = loadWith(clientModuleFile, { vscode: makeVSCode().vscode });
const constructedClients = [];
clientModule.LanguageClient.prototype.start = function () {
  constructedClients.push(this);
  return Promise.resolve();
};

// A sheet with a call left open (line 2, before a comment), a name that is
// undefined because of it, and non-ASCII text in comments ("é" is one
// UTF-16 unit, "😀" two). No final newline, so the end of the document is
// after non-ASCII text too.
const SHEET = [
  '# CuTe tile é😀 for the test',
  'tile = (16,4):(1,16)   # é😀 sixteen by four',
  'thr = composition(tile, (2,2):(1,2) # é😀 threads',
  'val = thr  # é😀',
].join('\n');

// Host files: a malformed descriptor after non-ASCII text on its line.
const HOSTS = {
  'cuda-cpp': ['kernel.cu', '// é😀 tile: (16,4):(1,16)\n// é😀 bad: (4,8):(1,4,5)\n__global__ void k() {}\n'],
  cpp: ['host.cpp', '// é😀 bad: (4,8):(1,4,5)\nint main() {}\n'],
  python: ['kernel.py', '# é😀 bad: (4,8):(1,4,5)\nx = 1\n'],
  mlir: ['kernel.mlir', '// é😀\n%0 = cute.make_layout() : !cute.layout<"(4,8):(1,4,5)">\n'],
};

function check(condition, message) {
  assert.ok(condition, message);
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${WAIT_MS} ms waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Positions are UTF-16 code units, which is what JavaScript strings index.
function offsetAt(text, pos) {
  let start = 0;
  for (let line = 0; line < pos.line; line++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return text.length;
    start = nl + 1;
  }
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  return Math.min(start + pos.character, end);
}

function positionAt(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

function endOf(text) {
  return positionAt(text, text.length);
}

// applyEdits applies non-overlapping TextEdits as an editor does.
function applyEdits(text, edits) {
  const spans = edits
    .map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start);
  for (let i = 1; i < spans.length; i++) {
    check(spans[i].end <= spans[i - 1].start, `overlapping edits ${JSON.stringify(edits)}`);
  }
  for (const s of spans) text = text.slice(0, s.start) + s.newText + text.slice(s.end);
  return text;
}

// where finds the UTF-16 position of the nth line's needle.
function where(text, line, needle) {
  const l = text.split('\n')[line];
  const character = l.indexOf(needle);
  check(character >= 0, `${needle} not on line ${line}: ${l}`);
  return { line, character };
}

function within(range, pos) {
  const le = (a, b) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(range.start, pos) && le(pos, range.end);
}

// The rows of the offset table in a hover: row index -> offsets.
function tableRows(markdown) {
  const rows = new Map();
  for (const line of markdown.split('\n')) {
    const m = /^\s*(\d+)\s+\|((?:\s*-?\d+\s*\|)+)\s*$/.exec(line);
    if (m) rows.set(Number(m[1]), m[2].split('|').filter((c) => c.trim() !== '').map(Number));
  }
  return rows;
}

// A VS Code client session against the binary.
class Session {
  static async start(workspace, { pull = true } = {}) {
    const { vscode } = makeVSCode({ 'cute.serverPath': binary });
    const ext = loadWith(path.join(extensionDir, manifest.main), {
      vscode,
      'vscode-languageclient/node': clientModule,
    });
    const before = constructedClients.length;
    await ext.activate({ subscriptions: [] });
    assert.equal(constructedClients.length, before + 1, 'activate constructs and starts one client');
    const client = constructedClients[before];

    const { reader, writer } = await client.createMessageTransports('utf8');
    const s = new Session();
    s.client = client;
    s.process = client._serverProcess;
    s.stderr = '';
    s.process.stderr.on('data', (d) => {
      s.stderr += d;
    });
    // 'close' comes after stderr is drained, unlike 'exit'.
    s.exited = new Promise((resolve) => s.process.on('close', (code, signal) => resolve({ code, signal })));
    s.connection = lsp.createProtocolConnection(reader, writer);
    s.notes = [];
    s.serverRequests = [];
    s.waiters = [];
    s.connection.onNotification((method, params) => {
      s.notes.push({ method, params });
      s.waiters = s.waiters.filter((w) => !w(method, params));
    });
    s.connection.onRequest((method, params) => {
      s.serverRequests.push({ method, params });
      s.waiters = s.waiters.filter((w) => !w(method, params));
      return null;
    });
    s.connection.listen();

    const capabilities = client.computeClientCapabilities();
    if (!pull) delete capabilities.textDocument.diagnostic;
    s.capabilities = capabilities;
    s.initParams = {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code', version: '1.95.3' },
      locale: 'en',
      rootPath: workspace,
      rootUri: pathToFileURL(workspace).href,
      capabilities,
      initializationOptions: client.clientOptions.initializationOptions,
      trace: 'off',
      workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
    };
    return s;
  }

  // waitFor resolves with the first notification or server request of
  // method whose params satisfy accept, including ones already received.
  waitFor(method, accept = () => true) {
    const seen = [...this.notes, ...this.serverRequests].find((n) => n.method === method && accept(n.params));
    if (seen) return Promise.resolve(seen.params);
    return withTimeout(
      new Promise((resolve) => {
        this.waiters.push((m, params) => {
          if (m !== method || !accept(params)) return false;
          resolve(params);
          return true;
        });
      }),
      method,
    );
  }

  request(type, params, token) {
    return withTimeout(this.connection.sendRequest(type, params, token), type.method || type);
  }

  notify(type, params) {
    return this.connection.sendNotification(type, params);
  }

  open(uri, languageId, text, version = 1) {
    return this.notify(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
  }

  // stopLikeTheClient ends the session as LanguageClient.stop() does:
  // shutdown, exit, end the stream to the server, and terminate the process
  // if it is still alive 2 s later. It resolves with how the process ended.
  async stopLikeTheClient() {
    const answer = await this.request(lsp.ShutdownRequest.type, undefined);
    assert.equal(answer, null, 'shutdown answers null');
    await this.notify(lsp.ExitNotification.type);
    this.connection.end();
    this.connection.dispose();
    const grace = setTimeout(() => this.process.kill(), 2000);
    try {
      return await withTimeout(this.exited, 'the server to exit');
    } finally {
      clearTimeout(grace);
    }
  }

  async close() {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill();
    this.connection.dispose();
  }
}

function tempWorkspace(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cute-vscode-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the test runs against a built binary', () => {
  check(
    fs.existsSync(binary),
    `no cute-lsp binary at ${binary}: build it (make build) or set CUTE_LSP_BIN`,
  );
});

test('the protocol libraries are the ones vscode-languageclient uses', () => {
  // The pinned devDependencies must be the very copies the client loads,
  // or this test would speak a different protocol library than VS Code.
  const clientDir = path.dirname(require.resolve('vscode-languageclient/package.json', { paths: [extensionDir] }));
  for (const name of ['vscode-languageserver-protocol', 'vscode-jsonrpc']) {
    const ours = require.resolve(`${name}/package.json`, { paths: [extensionDir] });
    const clientProtocol = path.dirname(require.resolve('vscode-languageserver-protocol/package.json', { paths: [clientDir] }));
    const theirs = require.resolve(`${name}/package.json`, { paths: [clientDir, clientProtocol] });
    assert.equal(ours, theirs, `${name}: the client loads another copy`);
    const version = JSON.parse(fs.readFileSync(ours, 'utf8')).version;
    assert.equal(manifest.devDependencies[name], version, `${name} is pinned at the version installed`);
  }
});

test('a VS Code session: diagnostics, configuration, quick fix, hints, tokens, symbols, navigation, completion, formatting, cancel, exit', async (t) => {
  const workspace = tempWorkspace(t);
  const uri = pathToFileURL(path.join(workspace, 'tile.cute')).href;
  // A sheet on disk that is never opened: workspace diagnostics read it.
  fs.writeFileSync(path.join(workspace, 'other.cute'), 'x = (4,8):(1,4,5)\n');

  const s = await Session.start(workspace);
  t.after(() => s.close());
  let text = SHEET;

  await t.test('the client capabilities are those of VS Code', () => {
    const c = s.capabilities;
    assert.deepEqual(c.general.positionEncodings, ['utf-16']);
    check(c.textDocument.diagnostic, 'pull diagnostics');
    check(c.workspace.diagnostics.refreshSupport, 'diagnostic refresh');
    check(c.textDocument.inlayHint, 'inlay hints');
    assert.deepEqual(c.textDocument.semanticTokens.formats, ['relative']);
    assert.equal(c.textDocument.semanticTokens.overlappingTokenSupport, false);
    assert.equal(c.textDocument.semanticTokens.multilineTokenSupport, false);
    check(c.textDocument.codeAction.codeActionLiteralSupport.codeActionKind.valueSet.includes('quickfix'), 'code action literals');
    check(c.textDocument.documentSymbol.hierarchicalDocumentSymbolSupport, 'hierarchical symbols');
    assert.deepEqual(JSON.parse(JSON.stringify(c)), c, 'the capabilities are plain JSON');
    assert.deepEqual(s.initParams.initializationOptions, {
      pictureLinks: true,
      cute: { tableCap: 64, defaultElementType: 'half_t', arch: 'sm90' },
    });
    assert.deepEqual(s.process.spawnargs, [binary, 'serve', '--stdio', '--stdio'], 'the client appends its own --stdio');
  });

  let legend;
  await t.test('initialize', async () => {
    const result = await s.request(lsp.InitializeRequest.type, s.initParams);
    const caps = result.capabilities;
    // vscode-languageclient refuses any other encoding.
    assert.equal(caps.positionEncoding, 'utf-16');
    assert.equal(result.serverInfo.name, 'cute-lsp');
    const sync = caps.textDocumentSync;
    assert.equal(sync.openClose, true);
    assert.equal(sync.change, lsp.TextDocumentSyncKind.Incremental);
    assert.equal(caps.diagnosticProvider.identifier, 'cute-lsp');
    assert.equal(caps.diagnosticProvider.interFileDependencies, false);
    check(caps.hoverProvider && caps.inlayHintProvider && caps.documentSymbolProvider && caps.documentFormattingProvider, 'providers');
    check(caps.codeActionProvider.codeActionKinds.includes('quickfix'), 'quickfix kind');
    check(caps.completionProvider, 'completion');
    legend = caps.semanticTokensProvider.legend;
    check(legend.tokenTypes.includes('comment') && legend.tokenTypes.includes('number'), `legend ${JSON.stringify(legend)}`);
    check(caps.semanticTokensProvider.full, 'full semantic tokens');
    s.notify(lsp.InitializedNotification.type, {});
  });

  await t.test('open the sheet and the host files', () => {
    s.open(uri, 'cute', text);
    for (const [language, [name, body]] of Object.entries(HOSTS)) {
      s.open(pathToFileURL(path.join(workspace, name)).href, language, body);
    }
  });

  let pulled;
  await t.test('textDocument/diagnostic: the open bracket and the name it leaves undefined', async () => {
    pulled = await s.request(lsp.DocumentDiagnosticRequest.type, { textDocument: { uri }, identifier: 'cute-lsp' });
    assert.equal(pulled.kind, lsp.DocumentDiagnosticReportKind.Full);
    check(typeof pulled.resultId === 'string' && pulled.resultId !== '', 'a result id');
    for (const d of pulled.items) check(lsp.Diagnostic.is(d), `not a Diagnostic: ${JSON.stringify(d)}`);
    const syntax = pulled.items.find((d) => d.code === 'syntax');
    check(syntax, `no syntax error in ${JSON.stringify(pulled.items)}`);
    const missing = where(text, 2, ' # é😀 threads');
    assert.deepEqual(syntax.range, { start: missing, end: missing });
    assert.equal(syntax.severity, lsp.DiagnosticSeverity.Error);
    assert.equal(syntax.source, 'cute-lsp');
    const undef = pulled.items.find((d) => d.code === 'undefined-name');
    check(undef, 'undefined-name');
    const thr = where(text, 3, 'thr');
    assert.deepEqual(undef.range, { start: thr, end: { line: 3, character: thr.character + 3 } });
    assert.match(undef.message, /thr/);

    const again = await s.request(lsp.DocumentDiagnosticRequest.type, {
      textDocument: { uri },
      identifier: 'cute-lsp',
      previousResultId: pulled.resultId,
    });
    assert.deepEqual(again, { kind: 'unchanged', resultId: pulled.resultId });
  });

  await t.test('host files: each activation language, columns in UTF-16 after non-ASCII text', async () => {
    for (const [language, [name, body]] of Object.entries(HOSTS)) {
      const hostURI = pathToFileURL(path.join(workspace, name)).href;
      const report = await s.request(lsp.DocumentDiagnosticRequest.type, { textDocument: { uri: hostURI }, identifier: 'cute-lsp' });
      const bad = report.items.filter((d) => d.code === 'incongruent');
      assert.equal(bad.length, 1, `${language}: ${JSON.stringify(report.items)}`);
      const line = body.split('\n').findIndex((l) => l.includes('(4,8):(1,4,5)'));
      const start = where(body, line, '(4,8):(1,4,5)');
      assert.deepEqual(
        bad[0].range,
        { start, end: { line, character: start.character + '(4,8):(1,4,5)'.length } },
        `${language}: the range of the bad descriptor`,
      );
      for (const info of bad[0].relatedInformation || []) assert.equal(info.location.uri, hostURI);
    }
    // Hover inside a descriptor of a comment, at a UTF-16 column.
    const [name, body] = HOSTS['cuda-cpp'];
    const at = where(body, 0, '(16,4)');
    const hover = await s.request(lsp.HoverRequest.type, {
      textDocument: { uri: pathToFileURL(path.join(workspace, name)).href },
      position: { line: 0, character: at.character + 1 },
    });
    check(lsp.Hover.is(hover), `not a Hover: ${JSON.stringify(hover)}`);
    check(within(hover.range, at), `hover range ${JSON.stringify(hover.range)} misses ${JSON.stringify(at)}`);
    assert.equal(tableRows(hover.contents.value).get(3)?.join(','), '3,19,35,51');
  });

  await t.test('workspace/diagnostic: the open sheet and the unopened one on disk, then unchanged', async () => {
    const report = await s.request(lsp.WorkspaceDiagnosticRequest.type, {
      identifier: 'cute-lsp',
      previousResultIds: [],
      partialResultToken: 'vscode-workspace-pull',
    });
    const byName = new Map(report.items.map((r) => [path.basename(new URL(r.uri).pathname), r]));
    assert.deepEqual([...byName.keys()].sort(), ['other.cute', 'tile.cute']);
    assert.equal(byName.get('tile.cute').version, 1);
    assert.equal(byName.get('other.cute').version, null);
    assert.deepEqual(byName.get('other.cute').items.map((d) => d.code), ['incongruent']);

    // VS Code pulls the workspace again 2 s after every answer, sending the
    // result ids it holds: nothing changed, so nothing is reported anew.
    const again = await s.request(lsp.WorkspaceDiagnosticRequest.type, {
      identifier: 'cute-lsp',
      previousResultIds: report.items.map((r) => ({ uri: r.uri, value: r.resultId })),
      partialResultToken: 'vscode-workspace-pull-2',
    });
    assert.deepEqual(
      again.items.map((r) => [path.basename(new URL(r.uri).pathname), r.kind, r.resultId]).sort(),
      report.items.map((r) => [path.basename(new URL(r.uri).pathname), 'unchanged', r.resultId]).sort(),
    );
  });

  await t.test('hover: the value of tile and its offset table', async () => {
    const hover = await s.request(lsp.HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 2 } });
    check(lsp.Hover.is(hover), `not a Hover: ${JSON.stringify(hover)}`);
    assert.equal(hover.contents.kind, 'markdown');
    assert.deepEqual(hover.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } });
    assert.match(hover.contents.value, /\(16,4\):\(1,16\)/);
    const rows = tableRows(hover.contents.value);
    assert.equal(rows.size, 16, `all 16 rows under tableCap 64:\n${hover.contents.value}`);
    for (const [i, offsets] of rows) assert.deepEqual(offsets, [i, i + 16, i + 32, i + 48], `row ${i}`);
  });

  await t.test('workspace/didChangeConfiguration: tableCap 8 cuts the table, and the client is asked to pull again', async () => {
    // What the client's configuration sync sends: the whole cute section.
    s.notify(lsp.DidChangeConfigurationNotification.type, {
      settings: { cute: { serverPath: binary, tableCap: 8, defaultElementType: 'half_t', arch: 'sm90' } },
    });
    await s.waitFor(lsp.DiagnosticRefreshRequest.type.method);
    const hover = await s.request(lsp.HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 2 } });
    const rows = tableRows(hover.contents.value);
    assert.deepEqual([...rows.keys()], [0, 1, 2, 3, 4, 5, 6, 7], hover.contents.value);
    assert.match(hover.contents.value, /8 of 16 rows/);
    assert.equal(s.notes.filter((n) => n.method === 'window/showMessage').length, 0, 'serverPath is not reported as a bad setting');
    // The configuration is part of the result id: the same text reports anew.
    const report = await s.request(lsp.DocumentDiagnosticRequest.type, {
      textDocument: { uri },
      identifier: 'cute-lsp',
      previousResultId: pulled.resultId,
    });
    assert.equal(report.kind, 'full');
  });

  await t.test('textDocument/codeAction: the quick fix closes the call', async () => {
    const syntax = pulled.items.find((d) => d.code === 'syntax');
    const actions = await s.request(lsp.CodeActionRequest.type, {
      textDocument: { uri },
      range: syntax.range,
      context: { diagnostics: [syntax], triggerKind: lsp.CodeActionTriggerKind.Invoked },
    });
    check(Array.isArray(actions) && actions.length > 0, `actions ${JSON.stringify(actions)}`);
    for (const a of actions) check(lsp.CodeAction.is(a), `not a CodeAction: ${JSON.stringify(a)}`);
    const fix = actions[0];
    assert.equal(fix.kind, lsp.CodeActionKind.QuickFix);
    assert.equal(fix.title, "Insert ')'");
    assert.equal(fix.isPreferred, true);
    assert.equal(fix.diagnostics[0].code, 'syntax');
    check(lsp.WorkspaceEdit.is(fix.edit), 'a workspace edit');
    assert.deepEqual(Object.keys(fix.edit.changes), [uri]);
    const edits = fix.edit.changes[uri];
    const fixed = applyEdits(text, edits);
    assert.equal(fixed.split('\n')[2], 'thr = composition(tile, (2,2):(1,2)) # é😀 threads');

    // Apply it as VS Code does: an incremental change at version 2.
    s.notify(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: edits.map((e) => ({
        range: e.range,
        rangeLength: offsetAt(text, e.range.end) - offsetAt(text, e.range.start),
        text: e.newText,
      })),
    });
    text = fixed;
    const report = await s.request(lsp.DocumentDiagnosticRequest.type, { textDocument: { uri }, identifier: 'cute-lsp' });
    assert.deepEqual(report.items.filter((d) => d.severity === lsp.DiagnosticSeverity.Error), [], 'no errors left');
  });

  await t.test('textDocument/inlayHint: the value of each computed binding at its end', async () => {
    const hints = await s.request(lsp.InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: endOf(text) } });
    for (const h of hints) check(lsp.InlayHint.is(h), `not an InlayHint: ${JSON.stringify(h)}`);
    const thrEnd = where(text, 2, ' # é😀 threads');
    const hint = hints.find((h) => h.position.line === 2);
    check(hint, `no hint on line 2: ${JSON.stringify(hints)}`);
    assert.deepEqual(hint.position, thrEnd);
    assert.equal(hint.label, '= (2,2):(1,2)');
  });

  await t.test('textDocument/semanticTokens/full: sorted, single-line, lengths in UTF-16', async () => {
    const tokens = await s.request(lsp.SemanticTokensRequest.type, { textDocument: { uri } });
    check(lsp.SemanticTokens.is(tokens), 'SemanticTokens');
    const data = tokens.data;
    assert.equal(data.length % 5, 0);
    const lines = text.split('\n');
    const decoded = [];
    let line = 0;
    let char = 0;
    for (let i = 0; i < data.length; i += 5) {
      const [dl, dc, length, type, mods] = data.slice(i, i + 5);
      line += dl;
      char = dl === 0 ? char + dc : dc;
      check(type < legend.tokenTypes.length, `token type ${type} outside the legend`);
      check(mods < 1 << legend.tokenModifiers.length, `modifiers ${mods} outside the legend`);
      check(char + length <= lines[line].length, `token at ${line}:${char}+${length} runs past its line`);
      const prev = decoded[decoded.length - 1];
      if (prev && prev.line === line) check(prev.char + prev.length <= char, `tokens overlap at ${line}:${char}`);
      decoded.push({ line, char, length, type: legend.tokenTypes[type], text: lines[line].slice(char, char + length) });
    }
    const comments = decoded.filter((d) => d.type === 'comment').map((d) => d.text);
    assert.deepEqual(comments, ['# CuTe tile é😀 for the test', '# é😀 sixteen by four', '# é😀 threads', '# é😀']);
    const numbers = decoded.filter((d) => d.type === 'number' && d.line === 1).map((d) => d.text);
    assert.deepEqual(numbers, ['16', '4', '1', '16']);
  });

  await t.test('textDocument/documentSymbol: the three bindings', async () => {
    const symbols = await s.request(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
    for (const sym of symbols) {
      check(lsp.DocumentSymbol.is(sym), `not a DocumentSymbol: ${JSON.stringify(sym)}`);
      // vscode-languageclient rejects a selection range outside the range.
      check(within(sym.range, sym.selectionRange.start) && within(sym.range, sym.selectionRange.end), `${sym.name}: selection outside range`);
    }
    assert.deepEqual(symbols.map((x) => x.name), ['tile', 'thr', 'val']);
    assert.deepEqual(symbols[1].selectionRange, { start: { line: 2, character: 0 }, end: { line: 2, character: 3 } });
    assert.match(symbols[1].detail, /\(2,2\):\(1,2\)/);
  });

  await t.test('semanticTokens/range (the visible lines): the same tokens as the full request', async () => {
    const full = await s.request(lsp.SemanticTokensRequest.type, { textDocument: { uri } });
    const ranged = await s.request(lsp.SemanticTokensRangeRequest.type, {
      textDocument: { uri },
      range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } },
    });
    const absolute = (data) => {
      const out = [];
      let line = 0;
      let char = 0;
      for (let i = 0; i < data.length; i += 5) {
        line += data[i];
        char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
        out.push([line, char, data[i + 2], data[i + 3], data[i + 4]].join(':'));
      }
      return out;
    };
    const onLine1 = (tokens) => tokens.filter((x) => x.startsWith('1:'));
    const got = absolute(ranged.data);
    check(onLine1(got).length > 0, 'tokens on line 1');
    assert.deepEqual(onLine1(got), onLine1(absolute(full.data)));
    // A server may answer more than the range, never a token the full answer lacks.
    for (const tok of got) check(absolute(full.data).includes(tok), `token ${tok} is not in the full answer`);
  });

  await t.test('signatureHelp, definition, references, prepareRename and rename', async () => {
    const comma = where(text, 2, ', (2,2)');
    const help = await s.request(lsp.SignatureHelpRequest.type, {
      textDocument: { uri },
      position: { line: 2, character: comma.character + 2 },
      context: { triggerKind: lsp.SignatureHelpTriggerKind.TriggerCharacter, triggerCharacter: ',', isRetrigger: false },
    });
    assert.equal(help.signatures[help.activeSignature].label, 'composition(A, B)');
    assert.equal(help.activeParameter, 1);

    const use = where(text, 2, 'tile');
    const decl = { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } };
    const defs = await s.request(lsp.DefinitionRequest.type, { textDocument: { uri }, position: { line: 2, character: use.character + 1 } });
    const targets = (Array.isArray(defs) ? defs : [defs]).map((d) => [d.uri || d.targetUri, d.range || d.targetSelectionRange]);
    assert.deepEqual(targets, [[uri, decl]]);

    const refs = await s.request(lsp.ReferencesRequest.type, {
      textDocument: { uri },
      position: { line: 1, character: 1 },
      context: { includeDeclaration: true },
    });
    const useRange = { start: use, end: { line: 2, character: use.character + 4 } };
    assert.deepEqual(refs.map((r) => [r.uri, r.range]), [[uri, decl], [uri, useRange]]);

    const prepared = await s.request(lsp.PrepareRenameRequest.type, { textDocument: { uri }, position: { line: 1, character: 1 } });
    assert.deepEqual(prepared.range, decl);
    const inComment = await s.request(lsp.PrepareRenameRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } });
    assert.equal(inComment, null, 'a comment cannot be renamed');
    const edit = await s.request(lsp.RenameRequest.type, { textDocument: { uri }, position: { line: 1, character: 1 }, newName: 'tile2' });
    check(lsp.WorkspaceEdit.is(edit), 'a workspace edit');
    const renamed = applyEdits(text, edit.changes[uri]).split('\n');
    assert.equal(renamed[1], 'tile2 = (16,4):(1,16)   # é😀 sixteen by four');
    assert.equal(renamed[2], 'thr = composition(tile2, (2,2):(1,2)) # é😀 threads');
  });

  await t.test('textDocument/completion: typing a new line, a single-line edit around the cursor', async () => {
    // Type "w = ti" on a new last line, as VS Code reports keystrokes.
    const typed = '\nw = ti';
    const at = endOf(text);
    s.notify(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 3 },
      contentChanges: [{ range: { start: at, end: at }, rangeLength: 0, text: typed }],
    });
    const withLine = text + typed;
    const cursor = endOf(withLine);
    const list = await s.request(lsp.CompletionRequest.type, {
      textDocument: { uri },
      position: cursor,
      context: { triggerKind: lsp.CompletionTriggerKind.Invoked },
    });
    check(list && Array.isArray(list.items), `a completion list: ${JSON.stringify(list)}`);
    const tile = list.items.find((i) => i.label === 'tile');
    check(tile, `tile is offered: ${JSON.stringify(list.items.map((i) => i.label))}`);
    assert.equal(tile.detail, '(16,4):(1,16)');
    // VS Code drops items whose edit is not on the cursor's line around it.
    for (const item of list.items) {
      const r = item.textEdit.range;
      assert.equal(r.start.line, cursor.line);
      assert.equal(r.end.line, cursor.line);
      check(within(r, cursor), `${item.label}: edit range ${JSON.stringify(r)} does not hold the cursor`);
      check(item.label.startsWith('ti'), `${item.label} does not start with what was typed`);
    }
    assert.equal(applyEdits(withLine, [tile.textEdit]).split('\n')[4], 'w = tile');

    // Take the line back out.
    s.notify(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 4 },
      contentChanges: [{ range: { start: at, end: cursor }, rangeLength: typed.length, text: '' }],
    });
    const symbols = await s.request(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.deepEqual(symbols.map((x) => x.name), ['tile', 'thr', 'val']);
  });

  await t.test('textDocument/formatting: the edit gives what cute-lsp fmt prints', async () => {
    const edits = await s.request(lsp.DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 4, insertSpaces: true, trimTrailingWhitespace: true, insertFinalNewline: true },
    });
    check(Array.isArray(edits) && edits.length > 0, `formatting edits ${JSON.stringify(edits)}`);
    for (const e of edits) {
      check(lsp.TextEdit.is(e), `not a TextEdit: ${JSON.stringify(e)}`);
      check(within({ start: { line: 0, character: 0 }, end: endOf(text) }, e.range.end), `edit past the end: ${JSON.stringify(e.range)}`);
    }
    const formatted = applyEdits(text, edits);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cute-fmt-')), 'tile.cute');
    fs.writeFileSync(file, text);
    const printed = execFileSync(binary, ['fmt', file], { encoding: 'utf8' });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    assert.equal(formatted, printed);
    assert.notEqual(formatted, text);
    check(formatted.endsWith('\n'), 'a final newline');
  });

  await t.test('$/cancelRequest: a cancelled pull answers RequestCancelled and the server goes on', async () => {
    // Analysing a long sheet takes tens of milliseconds: time for the
    // cancellation to arrive. A fresh document each try, so nothing is
    // cached; a try the server finished first must still answer a report.
    const lines = ['a0 = (4,8):(1,4)'];
    for (let i = 1; i < 2000; i++) lines.push(`a${i} = logical_divide(composition(a${i - 1}, (2,2):(1,2)), 2:1)`);
    let cancelled = 0;
    for (let attempt = 0; attempt < 3 && cancelled === 0; attempt++) {
      const bigURI = pathToFileURL(path.join(workspace, `long${attempt}.cute`)).href;
      s.open(bigURI, 'cute', lines.join('\n') + '\n');
      const source = new lsp.CancellationTokenSource();
      const pending = s.request(lsp.DocumentDiagnosticRequest.type, { textDocument: { uri: bigURI }, identifier: 'cute-lsp' }, source.token);
      source.cancel();
      try {
        const report = await pending;
        assert.equal(report.kind, 'full', 'an answer despite the cancel is a full report');
      } catch (err) {
        check(err instanceof lsp.ResponseError, `not a ResponseError: ${err}`);
        assert.equal(err.code, lsp.LSPErrorCodes.RequestCancelled);
        cancelled++;
      }
    }
    assert.equal(cancelled, 1, 'one of three cancelled pulls was answered RequestCancelled');
    const symbols = await s.request(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.equal(symbols.length, 3, 'the server still answers');
  });

  await t.test('a client that pulls is not pushed to', () => {
    assert.deepEqual(
      s.notes.filter((n) => n.method === lsp.PublishDiagnosticsNotification.type.method),
      [],
    );
    assert.deepEqual(
      [...new Set(s.serverRequests.map((r) => r.method))],
      [lsp.DiagnosticRefreshRequest.type.method],
    );
  });

  await t.test('shutdown and exit: exit code 0', async () => {
    const { code, signal } = await s.stopLikeTheClient();
    assert.equal(signal, null, `killed by ${signal} (the client's 2 s grace ran out); stderr:\n${s.stderr}`);
    assert.equal(code, 0, `stderr:\n${s.stderr}`);
    // The server logs only what went wrong (a message it rejected, params
    // it could not read, a recovered panic): a VS Code session gives none.
    assert.equal(s.stderr, '', 'the server logged during the session');
  });
});

test('a client without pull diagnostics is pushed them, versioned, in UTF-16', async (t) => {
  const workspace = tempWorkspace(t);
  const uri = pathToFileURL(path.join(workspace, 'tile.cute')).href;
  const hostURI = pathToFileURL(path.join(workspace, 'kernel.cu')).href;
  const s = await Session.start(workspace, { pull: false });
  t.after(() => s.close());
  const result = await s.request(lsp.InitializeRequest.type, s.initParams);
  assert.equal(result.capabilities.positionEncoding, 'utf-16');
  s.notify(lsp.InitializedNotification.type, {});
  s.open(uri, 'cute', SHEET);
  s.open(hostURI, 'cuda-cpp', HOSTS['cuda-cpp'][1]);

  const pushed = await s.waitFor(lsp.PublishDiagnosticsNotification.type.method, (p) => p.uri === uri);
  assert.equal(pushed.version, 1);
  const syntax = pushed.diagnostics.find((d) => d.code === 'syntax');
  const missing = where(SHEET, 2, ' # é😀 threads');
  assert.deepEqual(syntax && syntax.range, { start: missing, end: missing });

  const host = await s.waitFor(lsp.PublishDiagnosticsNotification.type.method, (p) => p.uri === hostURI);
  const start = where(HOSTS['cuda-cpp'][1], 1, '(4,8)');
  assert.deepEqual(host.diagnostics.map((d) => [d.code, d.range.start]), [['incongruent', start]]);

  // The fix as a whole-document change at version 2: the errors clear.
  const fixed = SHEET.replace('(1,2) #', '(1,2)) #');
  s.notify(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
  const after = await s.waitFor(lsp.PublishDiagnosticsNotification.type.method, (p) => p.uri === uri && p.version === 2);
  assert.deepEqual(after.diagnostics.filter((d) => d.severity === lsp.DiagnosticSeverity.Error), []);

  assert.deepEqual(await s.stopLikeTheClient(), { code: 0, signal: null });
  assert.equal(s.stderr, '', 'the server logged during the session');
});

// A Jupyter notebook as VS Code sends it: the client's notebook sync takes
// the notebooks the server selects, the cells arrive with
// notebookDocument/didOpen in order, and hover and inlay hints in a cell
// read the names bound in the cells above it; an edit of cell 1 changes
// what cell 2 shows, and the server asks the client to refresh its hints.
test('a notebook session: cells see the cells above them', async (t) => {
  const workspace = tempWorkspace(t);
  const nbURI = pathToFileURL(path.join(workspace, 'tour.ipynb')).href;
  const cellURI = (i) => `vscode-notebook-cell:${path.join(workspace, 'tour.ipynb')}#W${i}sZmlsZQ%3D%3D`;
  const cells = [
    'import cutlass.cute as cute\ntile = cute.make_layout((4, 8), stride=(8, 1))\n',
    'tiled = cute.logical_divide(tile, (2, 4))\n',
  ];
  const s = await Session.start(workspace);
  t.after(() => s.close());
  check(s.capabilities.notebookDocument && s.capabilities.notebookDocument.synchronization, 'VS Code offers notebook sync');
  check(s.capabilities.workspace.inlayHint.refreshSupport, 'inlay hint refresh');
  const result = await s.request(lsp.InitializeRequest.type, s.initParams);
  const selector = result.capabilities.notebookDocumentSync.notebookSelector;
  assert.deepEqual(selector, [{ notebook: 'jupyter-notebook', cells: [{ language: 'python' }] }]);
  // The extension's document selector sends requests for the same cells.
  const cellFilter = s.client.clientOptions.documentSelector.find((f) => f.notebook !== undefined);
  assert.deepEqual(cellFilter, { notebook: 'jupyter-notebook', language: 'python' });
  check(lsp.NotebookCellTextDocumentFilter.is(cellFilter), 'the client reads it as a notebook-cell filter');
  s.notify(lsp.InitializedNotification.type, {});

  s.notify(lsp.DidOpenNotebookDocumentNotification.type, {
    notebookDocument: {
      uri: nbURI,
      notebookType: 'jupyter-notebook',
      version: 0,
      cells: cells.map((_, i) => ({ kind: lsp.NotebookCellKind.Code, document: cellURI(i) })),
    },
    cellTextDocuments: cells.map((text, i) => ({ uri: cellURI(i), languageId: 'python', version: 1, text })),
  });
  const tileAt = where(cells[1], 0, 'tile, (2');
  const hover = await s.request(lsp.HoverRequest.type, { textDocument: { uri: cellURI(1) }, position: tileAt });
  check(hover && hover.contents.value.includes('(_4,_8):(_8,_1)'), `hover in cell 2: ${JSON.stringify(hover)}`);
  assert.deepEqual(hover.range, { start: tileAt, end: { line: 0, character: tileAt.character + 4 } });
  const hints = await s.request(lsp.InlayHintRequest.type, {
    textDocument: { uri: cellURI(1) },
    range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
  });
  assert.deepEqual(hints.map((h) => [h.position.line, h.label]), [[0, '= ((_2,_2),(_4,_2)):((_8,_16),(_1,_4))']]);

  const stride = where(cells[0], 1, '8, 1))');
  s.notify(lsp.DidChangeNotebookDocumentNotification.type, {
    notebookDocument: { uri: nbURI, version: 1 },
    change: {
      cells: {
        textContent: [
          {
            document: { uri: cellURI(0), version: 2 },
            changes: [{ range: { start: stride, end: { line: 1, character: stride.character + 4 } }, text: '1, 4' }],
          },
        ],
      },
    },
  });
  await s.waitFor(lsp.InlayHintRefreshRequest.type.method);
  const after = await s.request(lsp.HoverRequest.type, { textDocument: { uri: cellURI(1) }, position: tileAt });
  check(after && after.contents.value.includes('(_4,_8):(_1,_4)'), `hover in cell 2 after the edit: ${JSON.stringify(after)}`);

  s.notify(lsp.DidCloseNotebookDocumentNotification.type, {
    notebookDocument: { uri: nbURI },
    cellTextDocuments: cells.map((_, i) => ({ uri: cellURI(i) })),
  });
  assert.equal(await s.request(lsp.HoverRequest.type, { textDocument: { uri: cellURI(1) }, position: tileAt }), null);
  assert.deepEqual(await s.stopLikeTheClient(), { code: 0, signal: null });
  assert.equal(s.stderr, '', 'the server logged during the session');
});

// The requests behind the extension's commands, against the binary: Show
// Offset Table shows the hover (it must hold the offset table), Evaluate
// Sheet lists the inlay hints (one value per computed statement), and the
// status bar shows serverInfo.version.
test('the commands get an offset table, the sheet values and a version from the binary', async (t) => {
  const requests = require('../src/requests');
  const workspace = tempWorkspace(t);
  const uri = pathToFileURL(path.join(workspace, 'tiles.cute')).href;
  const text = ['# tiles', 'tile = (4,8):(1,4)', 'thr = composition(tile, (2,2):(1,2))  # threads', 'n = size(tile)', ''].join('\n');
  const lines = text.split('\n');
  const document = { uri: { toString: () => uri }, lineCount: lines.length, lineAt: (i) => ({ text: lines[i] }) };
  const s = await Session.start(workspace);
  t.after(() => s.close());
  const result = await s.request(lsp.InitializeRequest.type, s.initParams);
  check(typeof result.serverInfo.version === 'string' && result.serverInfo.version !== '', `serverInfo.version ${JSON.stringify(result.serverInfo)}`);
  s.notify(lsp.InitializedNotification.type, {});
  s.open(uri, 'cute', text);

  const hover = await s.request(lsp.HoverRequest.type, requests.hoverParams(document, where(text, 1, '(4,8)')));
  const shown = requests.hoverText(hover);
  const rows = tableRows(shown);
  assert.equal(rows.size, 4, `four rows of (4,8):(1,4) in\n${shown}`);
  assert.deepEqual(rows.get(1), [1, 5, 9, 13, 17, 21, 25, 29]);

  const hints = await s.request(lsp.InlayHintRequest.type, { textDocument: { uri }, range: requests.wholeDocument(document) });
  const values = requests.sheetValues(document, hints);
  const evalCLI = (expr) => execFileSync(binary, ['eval', expr], { encoding: 'utf8' }).trim();
  assert.deepEqual(values, [
    { line: 3, source: 'thr = composition(tile, (2,2):(1,2))', value: evalCLI('composition((4,8):(1,4), (2,2):(1,2))') },
    { line: 4, source: 'n = size(tile)', value: '32' },
  ]);
  assert.deepEqual(await s.stopLikeTheClient(), { code: 0, signal: null });
});
