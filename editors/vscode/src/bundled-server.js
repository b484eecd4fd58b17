// The cute-lsp binary a platform-specific .vsix carries (see
// scripts/package-targets.js): bin/<target>/cute-lsp[.exe] inside the
// extension, where <target> is vsce's name for the platform.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// vsceTarget is vsce's --target name for a Node platform and architecture
// (vsce says armhf where Node says arm; the rest are Node's names).
function vsceTarget(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch === 'arm' ? 'armhf' : arch}`;
}

function binaryName(platform = process.platform) {
  return platform === 'win32' ? 'cute-lsp.exe' : 'cute-lsp';
}

// bundledServerPath is where the packaged binary for this platform lies.
function bundledServerPath(extensionDir, platform = process.platform, arch = process.arch) {
  return path.join(extensionDir, 'bin', vsceTarget(platform, arch), binaryName(platform));
}

// bundledServer returns the packaged binary when the extension carries one
// for this platform and it can be run, else undefined.
function bundledServer(extensionDir, platform = process.platform, arch = process.arch) {
  if (!extensionDir) return undefined;
  const file = bundledServerPath(extensionDir, platform, arch);
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

module.exports = { vsceTarget, binaryName, bundledServerPath, bundledServer };
