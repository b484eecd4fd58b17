// The picture of the value under the cursor (cute.showPicture): the
// server's workspace/executeCommand "cute.picture" answers a self-contained
// HTML page, shown in a webview beside the editor. These are the pieces that
// need no VS Code: the request, the page made safe for a webview (scripts
// only from the page itself, no network), and following an edit.
'use strict';

const crypto = require('node:crypto');

// SERVER_COMMAND is the server's command (lsp.PictureCommand).
const SERVER_COMMAND = 'cute.picture';

// executeParams is the request for the picture at position of uri.
function executeParams(uri, position) {
  return { command: SERVER_COMMAND, arguments: [uri, { line: position.line, character: position.character }] };
}

// contentSecurityPolicy: the page's own inline script (by nonce) and
// styles, data: images, nothing fetched.
function contentSecurityPolicy(nonce) {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src data:`;
}

// forWebview puts the policy in the page's head and the nonce on its
// scripts; a page with no <head> gets an error page instead.
function forWebview(html, nonce = crypto.randomBytes(16).toString('base64')) {
  const head = html.indexOf('<head>');
  if (head < 0) return errorPage('the server answered something that is not a picture page');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">`;
  const at = head + '<head>'.length;
  const page = html.slice(0, at) + '\n' + meta + html.slice(at);
  return page.replace(/<script>/g, `<script nonce="${nonce}">`);
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// errorPage says why there is no picture (now), in the panel.
function errorPage(message) {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    '<style>body{font:13px ui-monospace,Menlo,Consolas,monospace;padding:12px}</style></head>' +
    `<body><p>No picture: ${escapeHTML(message)}</p><p>Edit the document or run "CuTe: Show Picture" on another value.</p></body></html>`
  );
}

// errorText is the message of a failed request (a ResponseError or anything thrown).
function errorText(err) {
  return err && err.message ? err.message : String(err);
}

// shiftPosition follows position through a document change's content
// changes: lines inserted or removed above it move it; an edit on its own
// line before it moves its character by the length difference on that line.
function shiftPosition(position, changes) {
  let { line, character } = position;
  for (const c of changes || []) {
    if (!c.range) continue;
    const { start, end } = c.range;
    const lines = c.text.split('\n');
    const added = lines.length - 1;
    const removed = end.line - start.line;
    if (end.line < line) {
      line += added - removed;
    } else if (end.line === line && end.character <= character) {
      const tail = character - end.character;
      character = (added === 0 ? start.character + lines[0].length : lines[added].length) + tail;
      line = start.line + added;
    }
  }
  return { line: Math.max(line, 0), character: Math.max(character, 0) };
}

module.exports = { SERVER_COMMAND, executeParams, forWebview, errorPage, errorText, shiftPosition, contentSecurityPolicy };
