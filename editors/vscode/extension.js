// The Physis extension: starts `physis lsp` over stdio for .hph files.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('physis').get('server.path') || 'physis';
  const run = { command, args: ['lsp'], transport: TransportKind.stdio };
  client = new LanguageClient(
    'physis',
    'Physis',
    { run, debug: run },
    { documentSelector: [{ scheme: 'file', language: 'physis' }, { scheme: 'untitled', language: 'physis' }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
