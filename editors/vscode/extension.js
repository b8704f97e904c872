// extension.js - starts `ddbc lsp` for DynamoDB design files (docs/editors.md)
//
// The server does the work: this file only starts it, over standard input
// and output, for the files ddbc.files matches, and passes the ddbc.rule
// settings on (the server reads them as --rule).
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('ddbc');
  const serverOptions = {
    command: config.get('path', 'ddbc'),
    args: ['lsp'],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', pattern: config.get('files', '**/*.ddb.{yaml,yml}') },
      { scheme: 'untitled', language: 'yaml' }],
    synchronize: { configurationSection: 'ddbc' },
    initializationOptions: { rule: config.get('rule', []) },
  };
  client = new LanguageClient('ddbc', 'ddbc', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
