// The packaging script's target table and arguments, without building:
// each target is one vsce --target name, one Go GOOS/GOARCH pair, and the
// binary lands where the extension looks for it on that platform.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { TARGETS, binaryFile, vsixFile, parseTargets } = require('../scripts/package-targets');
const { bundledServerPath } = require('../src/bundled-server');
const { extensionDir, manifest } = require('./vscode-stub');

// Node's names for Go's, as process.platform and process.arch report them.
const NODE_PLATFORM = { linux: 'linux', darwin: 'darwin', windows: 'win32' };
const NODE_ARCH = { amd64: 'x64', arm64: 'arm64' };

test('the packaging script covers the five targets with their Go names', () => {
  assert.deepEqual(Object.keys(TARGETS).sort(), ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64']);
  for (const [target, { goos, goarch }] of Object.entries(TARGETS)) {
    assert.equal(`${NODE_PLATFORM[goos]}-${NODE_ARCH[goarch]}`, target, `${target}: GOOS=${goos} GOARCH=${goarch}`);
  }
});

test('each target binary is built where the extension looks for it on that platform', () => {
  for (const [target, { goos, goarch }] of Object.entries(TARGETS)) {
    assert.equal(binaryFile(target), bundledServerPath(extensionDir, NODE_PLATFORM[goos], NODE_ARCH[goarch]), target);
    assert.equal(path.basename(vsixFile(target)), `cute-lsp-${target}.vsix`);
  }
  assert.match(binaryFile('win32-x64'), /cute-lsp\.exe$/);
  assert.match(binaryFile('linux-x64'), /cute-lsp$/);
});

test('targets on the command line: none means all, an unknown one is an error naming the known ones', () => {
  assert.deepEqual(parseTargets([]), Object.keys(TARGETS));
  assert.deepEqual(parseTargets(['linux-x64', 'win32-x64']), ['linux-x64', 'win32-x64']);
  assert.throws(() => parseTargets(['linux-x64', 'win32-arm64']), /unknown target "win32-arm64"; known targets: linux-x64, /);
  assert.throws(() => parseTargets(['--target']), /unknown target "--target"/);
});

test('npm scripts run the packaging script and its slow test', () => {
  assert.equal(manifest.scripts['package:targets'], 'node scripts/package-targets.js');
  assert.match(manifest.scripts['test:targets'], /test\/package-targets\.test\.js/);
  assert.doesNotMatch(manifest.scripts.test, /package-targets\.test\.js/, 'the slow packaging test is not part of npm test');
});
