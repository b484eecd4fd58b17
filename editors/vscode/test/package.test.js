// The .vsix as `npm run package` builds it: what `vsce ls` lists (the same
// file selection `vsce package` makes, offline), the manifest fields vsce
// and the Marketplace read, and the grammars package.json contributes.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { extensionDir, manifest } = require('./vscode-stub');

const repoRoot = path.resolve(extensionDir, '..', '..');

function vsceFiles() {
  const vsce = require.resolve('@vscode/vsce/vsce', { paths: [extensionDir] });
  const out = execFileSync(process.execPath, [vsce, 'ls'], { cwd: extensionDir, encoding: 'utf8' });
  return out.split('\n').filter((l) => l.trim() !== '');
}

test('@vscode/vsce is a pinned devDependency and `npm run package` uses it without prompts', () => {
  assert.match(manifest.devDependencies['@vscode/vsce'], /^\d+\.\d+\.\d+$/);
  assert.equal(manifest.dependencies['@vscode/vsce'], undefined, 'vsce is not shipped');
  assert.match(manifest.scripts.package, /^vsce package /);
  // No LICENSE at the repository root: vsce would stop to ask about it.
  if (!['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((f) => fs.existsSync(path.join(repoRoot, f)))) {
    assert.match(manifest.scripts.package, /--skip-license/);
    assert.equal(manifest.license, undefined, 'the repository has no license: the extension must not claim one');
  }
});

test('package.json names the repository the Go module lives in', () => {
  const goMod = fs.readFileSync(path.join(repoRoot, 'go.mod'), 'utf8');
  const module = /^module\s+(\S+)/m.exec(goMod)[1];
  assert.equal(manifest.repository.type, 'git');
  assert.equal(manifest.repository.url, `https://${module}.git`);
  assert.equal(manifest.repository.directory, path.relative(repoRoot, extensionDir));
});

test('the .vsix holds the extension and its runtime dependencies, not tests or dev tools', () => {
  const files = vsceFiles();
  for (const want of ['package.json', 'extension.js', 'README.md', 'language-configuration.json', 'src/server-path.js', 'src/requests.js']) {
    assert.ok(files.includes(want), `${want} is missing from the package`);
  }
  for (const g of manifest.contributes.grammars) {
    assert.ok(files.includes(path.normalize(g.path)), `grammar ${g.path} is missing from the package`);
  }
  assert.ok(files.includes('node_modules/vscode-languageclient/node.js'), 'the client library is shipped');
  const forbidden = [/^test\//, /^\.gitignore$/, /^node_modules\/(vscode-tmgrammar-test|@vscode\/vsce|vscode-textmate|vscode-oniguruma)\//, /^package-lock\.json$/, /\.vsix$/, /\.d\.ts$/];
  for (const f of files) {
    for (const re of forbidden) assert.doesNotMatch(f, re, `${f} should not be packaged`);
  }
});

test('the contributed grammars exist, carry their scope names and inject where VS Code names its host scopes', () => {
  const byScope = new Map();
  for (const g of manifest.contributes.grammars) {
    const grammar = JSON.parse(fs.readFileSync(path.join(extensionDir, g.path), 'utf8'));
    assert.equal(grammar.scopeName, g.scopeName, `${g.path}: scopeName`);
    byScope.set(g.scopeName, { contribution: g, grammar });
  }
  assert.equal(byScope.get('source.cute').contribution.language, 'cute');
  const injection = byScope.get('cute.injection');
  assert.deepEqual(injection.contribution.injectTo.sort(), ['source.cpp', 'source.cuda-cpp', 'source.python']);
  for (const scope of ['comment.line.double-slash.cpp', 'comment.block.cpp', 'comment.line.double-slash.cuda-cpp', 'comment.line.number-sign.python']) {
    assert.ok(injection.grammar.injectionSelector.includes(`L:${scope} `), `the injection does not apply in ${scope}`);
  }
  assert.deepEqual(byScope.get('markdown.cute.codeblock').contribution.injectTo, ['text.html.markdown']);
  // Every fixture's host grammar stand-in has the scope the injection targets.
  for (const host of fs.readdirSync(path.join(__dirname, 'grammar', 'hosts'))) {
    const grammar = JSON.parse(fs.readFileSync(path.join(__dirname, 'grammar', 'hosts', host), 'utf8'));
    assert.ok(
      injection.contribution.injectTo.includes(grammar.scopeName) || grammar.scopeName === 'text.html.markdown',
      `${host}: ${grammar.scopeName} is not a host the extension injects into`,
    );
  }
});
