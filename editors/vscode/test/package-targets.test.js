// The packaging script end to end for one target (slow: it compiles
// cute-lsp and runs vsce; `npm run test:targets`): the .vsix carries
// linux-x64's binary, executable, where the extension looks for it, and no
// other target's binary, and bin/ is left empty for development runs.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { TARGETS, binaryFile, vsixFile } = require('../scripts/package-targets');
const { extensionDir } = require('./vscode-stub');

const script = path.join(extensionDir, 'scripts', 'package-targets.js');

// zipEntries lists the .vsix (a zip) with unzip's permissions column.
function zipEntries(file) {
  const out = execFileSync('zipinfo', [file], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /^[-d]/.test(l))
    .map((l) => ({ mode: l.split(/\s+/)[0], name: l.split(/\s+/).slice(8).join(' ') }));
}

test('linux-x64 is packaged with its binary alone', { timeout: 300000 }, () => {
  const vsix = vsixFile('linux-x64');
  fs.rmSync(vsix, { force: true });
  // A stale binary of another target must not reach the package.
  const stale = binaryFile('darwin-arm64');
  fs.mkdirSync(path.dirname(stale), { recursive: true });
  fs.writeFileSync(stale, 'stale');
  try {
    execFileSync(process.execPath, [script, 'linux-x64'], { cwd: extensionDir, stdio: 'pipe' });
    const entries = zipEntries(vsix);
    const binaries = entries.filter((e) => e.name.startsWith('extension/bin/'));
    assert.deepEqual(binaries.map((e) => e.name), ['extension/bin/linux-x64/cute-lsp']);
    assert.match(binaries[0].mode, /^-rwx/, 'the binary is executable');
    for (const t of Object.keys(TARGETS).filter((t) => t !== 'linux-x64')) {
      assert.ok(!entries.some((e) => e.name.includes(`bin/${t}/`)), `${t}'s binary is not in the linux-x64 package`);
    }
    assert.ok(!entries.some((e) => e.name.startsWith('extension/scripts/')), 'the packaging script is not shipped');
    const manifestXml = execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' });
    assert.match(manifestXml, /TargetPlatform="linux-x64"/);
    assert.ok(!fs.existsSync(path.join(extensionDir, 'bin')), 'bin/ is removed after packaging');
  } finally {
    fs.rmSync(vsix, { force: true });
    fs.rmSync(path.join(extensionDir, 'bin'), { recursive: true, force: true });
  }
});

test('an unknown target is refused before anything is built', () => {
  let err;
  try {
    execFileSync(process.execPath, [script, 'sunos-sparc'], { cwd: extensionDir, stdio: 'pipe', encoding: 'utf8' });
  } catch (e) {
    err = e;
  }
  assert.ok(err, 'the script fails');
  assert.equal(err.status, 2);
  assert.match(err.stderr, /unknown target "sunos-sparc"; known targets: linux-x64/);
});
