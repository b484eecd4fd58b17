// A stand-in for the `vscode` module, which exists only inside VS Code's
// extension host. It implements what extension.js uses (settings with the
// defaults package.json contributes, configuration-change events, messages
// and the button a user picks, commands, the status bar item, the active
// editor, opening and showing documents, diagnostics) and records the calls; any other member (vscode-languageclient touches
// many while it constructs a client) is an inert object that can be called,
// constructed and read from.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const extensionDir = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));

// contributedDefaults: "cute.tableCap" -> 64, ... as package.json declares.
function contributedDefaults() {
  const out = {};
  const props = (manifest.contributes.configuration || {}).properties || {};
  for (const [key, spec] of Object.entries(props)) {
    out[key] = spec.default;
  }
  return out;
}

function inert(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_, key) {
      if (key === 'then') return undefined; // not a promise
      if (key === Symbol.toPrimitive) return () => `<${name}>`;
      if (key === 'dispose') return () => {};
      return inert(`${name}.${String(key)}`);
    },
    apply() {
      return inert(`${name}()`);
    },
    construct() {
      return inert(`new ${name}`);
    },
  });
}

// makeVSCode returns { vscode, state }: vscode is the module, state what it
// recorded. userSettings are full keys ("cute.tableCap": 8) over the
// contributed defaults.
function makeVSCode(userSettings = {}, version = '1.95.3') {
  const settings = { ...contributedDefaults(), ...userSettings };
  const state = {
    settings,
    messages: [],
    configListeners: [],
    sectionsRead: [],
    commands: new Map(), // command id -> handler
    executed: [], // [command id, ...args] run through vscode.commands.executeCommand
    statusItems: [],
    shownDocuments: [], // { document, options } given to showTextDocument
    activeTextEditor: undefined,
    workspaceFolders: undefined,
    diagnostics: new Map(), // uri string -> Diagnostic[]
    panels: [], // webview panels: { viewType, title, showOptions, options, webview: { html }, revealed, disposed }
    changeListeners: [], // onDidChangeTextDocument: { listener, disposable }
    // answer picks the button a message's user clicks: (message, items) -> item.
    answer: () => undefined,
  };
  const message = (level) => (text, ...items) => {
    state.messages.push({ level, message: text, items });
    return Promise.resolve(state.answer(text, items));
  };

  function getConfiguration(section) {
    state.sectionsRead.push(section);
    const prefix = section ? `${section}.` : '';
    return {
      get(key, fallback) {
        const full = prefix + key;
        return Object.prototype.hasOwnProperty.call(settings, full) && settings[full] !== undefined
          ? settings[full]
          : fallback;
      },
      has(key) {
        return Object.prototype.hasOwnProperty.call(settings, prefix + key);
      },
      // inspect: a value that differs from the contributed default, or that
      // the test set, is the user's (globalValue); the rest are defaults.
      inspect(key) {
        const full = prefix + key;
        const defaultValue = contributedDefaults()[full];
        const userSet = Object.prototype.hasOwnProperty.call(userSettings, full) || settings[full] !== defaultValue;
        return { key: full, defaultValue, globalValue: userSet ? settings[full] : undefined };
      },
    };
  }

  const known = {
    version,
    workspace: new Proxy(
      {
        getConfiguration,
        get workspaceFolders() {
          return state.workspaceFolders;
        },
        openTextDocument(options) {
          return Promise.resolve({ languageId: options.language, getText: () => options.content, untitled: true });
        },
        onDidChangeTextDocument(listener) {
          const disposable = {
            disposed: false,
            dispose() {
              this.disposed = true;
            },
          };
          state.changeListeners.push({ listener, disposable });
          return disposable;
        },
        onDidChangeConfiguration(listener) {
          const disposable = {
            disposed: false,
            dispose() {
              this.disposed = true;
            },
          };
          state.configListeners.push({ listener, disposable });
          return disposable;
        },
      },
      { get: (t, k) => (k in t ? t[k] : inert(`vscode.workspace.${String(k)}`)) },
    ),
    window: new Proxy(
      {
        showInformationMessage: message('info'),
        showWarningMessage: message('warning'),
        showErrorMessage: message('error'),
        get activeTextEditor() {
          return state.activeTextEditor;
        },
        createStatusBarItem(alignment, priority) {
          const item = { alignment, priority, text: '', tooltip: undefined, visible: false, disposed: false };
          item.show = () => {
            item.visible = true;
          };
          item.hide = () => {
            item.visible = false;
          };
          item.dispose = () => {
            item.disposed = true;
          };
          state.statusItems.push(item);
          return item;
        },
        createWebviewPanel(viewType, title, showOptions, options) {
          const disposeListeners = [];
          const panel = {
            viewType,
            title,
            showOptions,
            options,
            webview: { html: '' },
            revealed: [],
            disposed: false,
            reveal(column, preserveFocus) {
              panel.revealed.push({ column, preserveFocus });
            },
            onDidDispose(listener) {
              disposeListeners.push(listener);
              return { dispose() {} };
            },
            dispose() {
              if (panel.disposed) return;
              panel.disposed = true;
              for (const l of disposeListeners) l();
            },
          };
          state.panels.push(panel);
          return panel;
        },
        showTextDocument(document, options) {
          state.shownDocuments.push({ document, options });
          return Promise.resolve({ document });
        },
      },
      { get: (t, k) => (k in t ? t[k] : inert(`vscode.window.${String(k)}`)) },
    ),
  };
  known.StatusBarAlignment = { Left: 1, Right: 2 };
  known.ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 };
  known.DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
  known.commands = new Proxy(
    {
      registerCommand(id, handler) {
        if (state.commands.has(id)) throw new Error(`command ${id} already exists`);
        state.commands.set(id, handler);
        return {
          dispose() {
            state.commands.delete(id);
          },
        };
      },
      executeCommand(id, ...args) {
        state.executed.push([id, ...args]);
        const handler = state.commands.get(id);
        return Promise.resolve(handler ? handler(...args) : undefined);
      },
    },
    { get: (t, k) => (k in t ? t[k] : inert(`vscode.commands.${String(k)}`)) },
  );
  known.languages = new Proxy(
    {
      getDiagnostics(uri) {
        return state.diagnostics.get(uri.toString()) || [];
      },
    },
    { get: (t, k) => (k in t ? t[k] : inert(`vscode.languages.${String(k)}`)) },
  );
  const vscode = new Proxy(known, { get: (t, k) => (k in t ? t[k] : inert(`vscode.${String(k)}`)) });
  return { vscode, state };
}

// fireConfigurationChange tells every listener that the given full keys
// changed, with VS Code's affectsConfiguration rule: a section is affected
// when a changed key is it, lies below it, or lies above it.
function fireConfigurationChange(state, changedKeys) {
  const event = {
    affectsConfiguration(section) {
      return changedKeys.some((k) => k === section || k.startsWith(`${section}.`) || section.startsWith(`${k}.`));
    },
  };
  for (const { listener, disposable } of state.configListeners) {
    if (!disposable.disposed) listener(event);
  }
}

// loadWith requires `file` afresh with the named modules replaced
// (module name -> exports); other requires resolve as usual. Modules that
// the replaced ones load are left in the cache.
function loadWith(file, replacements) {
  const resolved = require.resolve(file);
  delete require.cache[resolved];
  const original = Module._load;
  Module._load = function (request, parent, isMain) {
    if (Object.prototype.hasOwnProperty.call(replacements, request)) {
      return replacements[request];
    }
    return original.call(this, request, parent, isMain);
  };
  try {
    return require(resolved);
  } finally {
    Module._load = original;
  }
}

// fireDocumentChange tells every live onDidChangeTextDocument listener that
// document changed by contentChanges.
function fireDocumentChange(state, document, contentChanges) {
  for (const { listener, disposable } of state.changeListeners) {
    if (!disposable.disposed) listener({ document, contentChanges });
  }
}

module.exports = { extensionDir, manifest, makeVSCode, fireConfigurationChange, fireDocumentChange, loadWith };
