// Finding the cute-lsp binary before the client spawns it, so that a missing
// binary gets a message naming the setting and the fix instead of the
// client's generic "couldn't start" error.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// resolveServer returns the absolute path the command names, or undefined.
// A command with a directory part is a path (relative ones against baseDir,
// the first workspace folder); a bare name is looked up on PATH as a shell
// would, with PATHEXT's extensions on Windows.
function resolveServer(command, { env = process.env, platform = process.platform, baseDir } = {}) {
  if (typeof command !== 'string' || command.trim() === '') return undefined;
  const extensions = platform === 'win32' ? ['', ...(env.PATHEXT || '.EXE;.CMD;.BAT').split(';').filter(Boolean)] : [''];
  const candidates = (file) => extensions.map((ext) => file + ext);
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const file = path.resolve(baseDir || process.cwd(), command);
    return candidates(file).find(isExecutableFile);
  }
  const dirs = (env.PATH || env.Path || '').split(platform === 'win32' ? ';' : ':').filter(Boolean);
  for (const dir of dirs) {
    const found = candidates(path.join(dir, command)).find(isExecutableFile);
    if (found) return found;
  }
  return undefined;
}

// missingServerMessage says what was looked for, which setting names it and
// how to get the binary.
function missingServerMessage(command) {
  const where = command.includes('/') || command.includes('\\') ? 'at that path' : 'on PATH';
  return (
    `cute-lsp: the server binary "${command}" was not found ${where} (setting "cute.serverPath"). ` +
    'Build and install it with `make install` in the cute-lsp checkout (to /usr/local/bin; ' +
    '`make install PREFIX=$HOME/.local` elsewhere), or set "cute.serverPath" to the full path of the binary, ' +
    'then run "CuTe: Restart Server".'
  );
}

module.exports = { resolveServer, missingServerMessage };
