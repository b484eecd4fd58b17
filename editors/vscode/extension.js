// cute-lsp for VS Code: starts the server on stdio for CuTe sheets and the
// host languages descriptors appear in, and forwards the "cute" settings.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('cute');
  const command = config.get('serverPath', 'cute-lsp');
  const serverOptions = {
    run: { command, args: ['serve', '--stdio'], transport: TransportKind.stdio },
    debug: { command, args: ['serve', '--stdio'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cute' },
      { scheme: 'untitled', language: 'cute' },
      { scheme: 'file', language: 'mlir' },
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', language: 'cpp' },
      { scheme: 'file', language: 'python' },
    ],
    synchronize: { configurationSection: 'cute' },
    initializationOptions: settings(),
  };
  client = new LanguageClient('cute-lsp', 'CuTe layouts', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cute.serverPath')) {
        vscode.window.showInformationMessage('cute-lsp: reload the window to use the new server path.');
      }
    }),
  );
  return client.start();
}

// settings is the configuration the server reads (see lsp/config.go).
function settings() {
  const c = vscode.workspace.getConfiguration('cute');
  return {
    cute: {
      tableCap: c.get('tableCap'),
      defaultElementType: c.get('defaultElementType'),
      arch: c.get('arch'),
    },
  };
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
