// The two commands that show server answers in an editor: the offset table
// of the layout under the cursor (the server's hover) and every value of a
// sheet (its inlay hints, one per computed statement). Both use requests the
// server already answers, so any LSP client can do the same.
'use strict';

// hoverText flattens a Hover's contents (MarkupContent, MarkedString or an
// array of them) into Markdown.
function hoverText(hover) {
  if (!hover || hover.contents === undefined || hover.contents === null) return '';
  const part = (c) => {
    if (typeof c === 'string') return c;
    if (c && typeof c.value === 'string') {
      return c.language ? '```' + c.language + '\n' + c.value + '\n```' : c.value;
    }
    return '';
  };
  const parts = Array.isArray(hover.contents) ? hover.contents.map(part) : [part(hover.contents)];
  return parts.filter((p) => p.trim() !== '').join('\n\n');
}

function hoverParams(document, position) {
  return {
    textDocument: { uri: document.uri.toString() },
    position: { line: position.line, character: position.character },
  };
}

// wholeDocument is the range of every line of the document.
function wholeDocument(document) {
  return { start: { line: 0, character: 0 }, end: { line: document.lineCount, character: 0 } };
}

function labelText(label) {
  if (typeof label === 'string') return label;
  if (Array.isArray(label)) return label.map((part) => part.value).join('');
  return '';
}

// sheetValues lists, in line order, each statement that has a value: its
// line (1-based), the source line and the value.
function sheetValues(document, hints) {
  const rows = (hints || [])
    .map((h) => ({ line: h.position.line, value: labelText(h.label).replace(/^\s*=\s*/, '') }))
    .filter((r) => r.value !== '')
    .sort((a, b) => a.line - b.line);
  return rows.map((r) => ({ line: r.line + 1, source: stripComment(document.lineAt(r.line).text), value: r.value }));
}

// stripComment drops a trailing # or // comment outside strings.
function stripComment(text) {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== '\\') inString = !inString;
    if (inString) continue;
    if (c === '#' || (c === '/' && text[i + 1] === '/')) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

// valuesReport is the text the Evaluate Sheet command shows.
function valuesReport(name, rows, errors) {
  const lines = [`# ${name}: ${rows.length} value${rows.length === 1 ? '' : 's'}, ${errors.length} error${errors.length === 1 ? '' : 's'} (cute-lsp)`];
  const width = Math.max(0, ...rows.map((r) => `${r.line}: ${r.source}`.length));
  for (const r of rows) {
    lines.push(`${`${r.line}: ${r.source}`.padEnd(width)}  = ${r.value}`);
  }
  for (const e of errors) {
    lines.push(`${e.line}: error: ${e.message}`);
  }
  return lines.join('\n') + '\n';
}

module.exports = { hoverText, hoverParams, wholeDocument, sheetValues, stripComment, valuesReport };
