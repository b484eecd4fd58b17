#!/usr/bin/env node
// Platform-specific packages: for each vsce target, cross-compile cute-lsp
// (pure Go, CGO_ENABLED=0) into bin/<target>/ and run `vsce package
// --target <target>`, writing cute-lsp-<target>.vsix. bin/ is emptied
// before each target so that a package carries only its own binary, and
// after the last one so that development runs find no stale binary.
//
//   node scripts/package-targets.js                 all targets
//   node scripts/package-targets.js linux-x64 ...   only these
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const extensionDir = path.resolve(__dirname, '..');
const repoRoot = path.resolve(extensionDir, '..', '..');
const binDir = path.join(extensionDir, 'bin');

// TARGETS: vsce's target name -> Go's GOOS/GOARCH.
const TARGETS = {
  'linux-x64': { goos: 'linux', goarch: 'amd64' },
  'linux-arm64': { goos: 'linux', goarch: 'arm64' },
  'darwin-x64': { goos: 'darwin', goarch: 'amd64' },
  'darwin-arm64': { goos: 'darwin', goarch: 'arm64' },
  'win32-x64': { goos: 'windows', goarch: 'amd64' },
};

function binaryFile(target) {
  return path.join(binDir, target, TARGETS[target].goos === 'windows' ? 'cute-lsp.exe' : 'cute-lsp');
}

function vsixFile(target) {
  return path.join(extensionDir, `cute-lsp-${target}.vsix`);
}

// buildServer cross-compiles cmd/cute-lsp for target into bin/<target>/.
function buildServer(target) {
  const { goos, goarch } = TARGETS[target];
  const out = binaryFile(target);
  const env = { ...process.env, CGO_ENABLED: '0', GOOS: goos, GOARCH: goarch };
  execFileSync('go', ['build', '-buildvcs=auto', '-o', out, './cmd/cute-lsp'], { cwd: repoRoot, env, stdio: 'inherit' });
  return out;
}

function vsceBin() {
  return require.resolve('@vscode/vsce/vsce', { paths: [extensionDir] });
}

// packageTarget builds target's binary alone in bin/ and packages it.
function packageTarget(target) {
  fs.rmSync(binDir, { recursive: true, force: true });
  buildServer(target);
  const out = vsixFile(target);
  execFileSync(
    process.execPath,
    [vsceBin(), 'package', '--target', target, '--skip-license', '--no-update-package-json', '--out', out],
    { cwd: extensionDir, stdio: 'inherit' },
  );
  return out;
}

// parseTargets returns the targets named on the command line (all when
// none), or throws naming an unknown one and the known ones.
function parseTargets(args) {
  if (args.length === 0) return Object.keys(TARGETS);
  for (const t of args) {
    if (!Object.prototype.hasOwnProperty.call(TARGETS, t)) {
      throw new Error(`unknown target "${t}"; known targets: ${Object.keys(TARGETS).join(', ')}`);
    }
  }
  return args;
}

function main(args) {
  let targets;
  try {
    targets = parseTargets(args);
  } catch (err) {
    console.error(`package-targets: ${err.message}`);
    return 2;
  }
  try {
    for (const t of targets) console.log(`package-targets: wrote ${path.relative(process.cwd(), packageTarget(t))}`);
  } finally {
    fs.rmSync(binDir, { recursive: true, force: true });
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { TARGETS, binaryFile, vsixFile, parseTargets, packageTarget };
