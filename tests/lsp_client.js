// lsp_client.js - drives `ddbc lsp` as an editor would, over vscode-jsonrpc
// (tests/lsp.test runs it): node lsp_client.js DDBC SRCDIR TMPDIR
//
// Every check compares the server with the command line: the diagnostics
// of a buffer are exactly `ddbc lint --format json` of the same text, with
// lint's columns (characters) converted to UTF-16 here, independently of
// the server's conversion.
'use strict';
const { spawn, execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const assert = require('assert');
const rpc = require('vscode-jsonrpc/node');

const [ddbc, srcdir, tmp] = process.argv.slice(2);
const sev = { error: 1, warning: 2, note: 3 };

function lint(file) {
  const r = spawnSync(ddbc, ['lint', '--format', 'json', file], { encoding: 'utf8' });
  return JSON.parse(r.stdout).diagnostics.filter((g) => !g.suppressed);
}

function linesOf(text) {
  return text.split(/\r\n|\n|\r/);
}

// lint's finding as the LSP diagnostic it must be: its column counted in
// UTF-16 units (a JS string's own unit).
function expected(file, text) {
  const lines = linesOf(text);
  return lint(file).map((g) => ({
    line: g.line - 1,
    character: Array.from(lines[g.line - 1] || '').slice(0, g.column - 1).join('').length,
    severity: sev[g.severity],
    code: g.rule,
    message: g.message,
  }));
}

function got(diags) {
  return diags.map((d) => ({
    line: d.range.start.line,
    character: d.range.start.character,
    severity: d.severity,
    code: d.code,
    message: d.message,
  }));
}

const order = (a, b) => a.line - b.line || a.character - b.character ||
  a.code.localeCompare(b.code) || a.message.localeCompare(b.message);

function sameDiagnostics(what, lsp, want) {
  assert.deepStrictEqual(got(lsp).sort(order), want.slice().sort(order), what);
}

const uriOf = (file) => 'file://' + path.resolve(file);

async function main() {
  const child = spawn(ddbc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin));
  const published = new Map();
  const waiting = [];
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    published.set(p.uri, p);
    for (let i = waiting.length - 1; i >= 0; i--)
      if (waiting[i].test(p)) { waiting[i].resolve(p); waiting.splice(i, 1); }
  });
  conn.listen();
  const diagnosticsOf = (uri, version) => new Promise((resolve, reject) => {
    const p = published.get(uri);
    if (p && p.version === version) return resolve(p);
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version}`)), 10000);
    waiting.push({ test: (q) => q.uri === uri && q.version === version,
      resolve: (q) => { clearTimeout(timer); resolve(q); } });
  });

  const init = await conn.sendRequest('initialize', { processId: process.pid, rootUri: null,
    capabilities: {} });
  assert.strictEqual(init.capabilities.textDocumentSync.change, 2, 'incremental sync');
  conn.sendNotification('initialized', {});

  const open = (file, text, version = 1) => {
    conn.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(file),
      languageId: 'yaml', version, text } });
    return diagnosticsOf(uriOf(file), version);
  };

  // 1. Every rule fixture: exactly lint's findings.
  const rules = fs.readdirSync(path.join(srcdir, 'tests/rules')).sort();
  let nfindings = 0;
  for (const rule of rules) {
    const file = path.join(srcdir, 'tests/rules', rule, 'bad.yaml');
    const text = fs.readFileSync(file, 'utf8');
    const p = await open(file, text);
    const want = expected(file, text);
    sameDiagnostics(`the findings of ${rule}/bad.yaml`, p.diagnostics, want);
    assert.ok(want.length > 0, `${rule}/bad.yaml has findings`);
    nfindings += want.length;
    for (const d of p.diagnostics)
      assert.match(d.codeDescription.href, new RegExp(`/${d.code}\\.md$`), 'rule page address');
  }
  console.log(`fixtures: ${rules.length} designs, ${nfindings} findings as lint gives them`);

  // key-overlap's other entity is its related information.
  const ko = path.join(srcdir, 'tests/rules/key-overlap/bad.yaml');
  const koDiag = published.get(uriOf(ko)).diagnostics.find((d) => d.code === 'key-overlap');
  const koLines = linesOf(fs.readFileSync(ko, 'utf8'));
  assert.strictEqual(koDiag.relatedInformation[0].location.range.start.line,
    koLines.findIndex((l) => /^  Customer:/.test(l)), 'key-overlap names the earlier entity');

  // 2. Japanese text and an emoji before a finding on its line.
  const base = fs.readFileSync(path.join(srcdir, 'tests/rules/template-unknown-attribute/bad.yaml'),
    'utf8');
  const jpText = base.replace('SK: { type: S, template: "ORDER#{orderID}" }',
    'SK: { description: "注文キー 🍣🍣", type: S, template: "ORDER#{orderID}" }');
  assert.notStrictEqual(jpText, base);
  const jp = path.join(tmp, 'jp.ddb.yaml');
  fs.writeFileSync(jp, jpText);
  let p = await open(jp, jpText);
  const jpWant = expected(jp, jpText);
  sameDiagnostics('findings after Japanese text and an emoji', p.diagnostics, jpWant);
  const unknown = p.diagnostics.find((d) => d.code === 'template-unknown-attribute');
  const jpLine = linesOf(jpText)[unknown.range.start.line];
  assert.ok(/[^\x00-\x7f]/.test(jpLine.slice(0, unknown.range.start.character)), 'non-ASCII before');
  assert.ok(jpLine.slice(unknown.range.start.character).startsWith('{orderID}') ||
    jpLine.slice(unknown.range.start.character).startsWith('"ORDER#{orderID}"'),
  `the range starts at the finding: ${jpLine.slice(unknown.range.start.character)}`);

  // 3. Hover on that finding: its rule page.
  const hover = await conn.sendRequest('textDocument/hover', { textDocument: { uri: uriOf(jp) },
    position: unknown.range.start });
  const page = execFileSync(ddbc, ['explain', 'template-unknown-attribute'], { encoding: 'utf8' });
  assert.ok(hover.contents.value.includes(page), 'hover holds the rule page');

  // 4. An incremental edit that fixes it: the finding is gone.
  const col = jpLine.indexOf('orderID');
  conn.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(jp), version: 2 },
    contentChanges: [{ range: { start: { line: unknown.range.start.line, character: col },
      end: { line: unknown.range.start.line, character: col + 'orderID'.length } },
    text: 'orderId' }] });
  const t0 = Date.now();
  p = await diagnosticsOf(uriOf(jp), 2);
  const fixed = jpText.replace('{orderID}', '{orderId}');
  fs.writeFileSync(jp, fixed);
  sameDiagnostics('findings after the edit', p.diagnostics, expected(jp, fixed));
  assert.ok(!p.diagnostics.some((d) => d.code === 'template-unknown-attribute'), 'fixed');
  console.log(`edit: diagnostics ${Date.now() - t0} ms after the change`);

  // 5. Completion inside "{ of a template (the line does not parse yet):
  // the entity's attributes, as the model export lists them.
  const model = JSON.parse(execFileSync(ddbc, ['export', '--format', 'model', jp],
    { encoding: 'utf8' }));
  const attrs = model.entities.find((e) => e.name === 'Order').attributes.map((a) => a.name);
  const fixedLines = linesOf(fixed);
  const at = fixedLines.findIndex((l) => /^      amount:/.test(l));
  const typed = '      extra: { type: S, template: "X#{';
  conn.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(jp), version: 3 },
    contentChanges: [{ range: { start: { line: at + 1, character: 0 },
      end: { line: at + 1, character: 0 } }, text: typed + '\n' }] });
  const comp = await conn.sendRequest('textDocument/completion', { textDocument: { uri: uriOf(jp) },
    position: { line: at + 1, character: typed.length } });
  assert.deepStrictEqual(comp.items.map((i) => i.label).sort(), attrs.slice().sort(),
    'completion offers the attributes');
  await diagnosticsOf(uriOf(jp), 3);

  // Rule ids after ddbc-ignore:, and an attribute's fields in its flow mapping.
  const comment = '      # ddbc-ignore: key-ov';
  conn.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(jp), version: 4 },
    contentChanges: [{ range: { start: { line: at + 1, character: 0 },
      end: { line: at + 1, character: typed.length } }, text: comment }] });
  let labels = (await conn.sendRequest('textDocument/completion', { textDocument: { uri: uriOf(jp) },
    position: { line: at + 1, character: comment.length } })).items.map((i) => i.label);
  assert.deepStrictEqual(labels, ['key-overlap'], 'rule ids after ddbc-ignore:');
  const flow = '      extra: { type: S, te';
  conn.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(jp), version: 5 },
    contentChanges: [{ range: { start: { line: at + 1, character: 0 },
      end: { line: at + 1, character: comment.length } }, text: flow }] });
  labels = (await conn.sendRequest('textDocument/completion', { textDocument: { uri: uriOf(jp) },
    position: { line: at + 1, character: flow.length } })).items.map((i) => i.label);
  assert.deepStrictEqual(labels, ['template'], "an attribute's fields");
  await diagnosticsOf(uriOf(jp), 5);

  // 6. Definition of an index name in a pattern: the index's line.
  const sample = path.join(srcdir, 'samples/stamp-rally.ddb.yaml');
  const sampleText = fs.readFileSync(sample, 'utf8');
  await open(sample, sampleText);
  const sl = linesOf(sampleText);
  const use = sl.findIndex((l) => /^\s+index: GSI1\b/.test(l));
  const def = await conn.sendRequest('textDocument/definition', { textDocument: { uri: uriOf(sample) },
    position: { line: use, character: sl[use].indexOf('GSI1') + 2 } });
  assert.strictEqual(def.range.start.line, sl.findIndex((l) => /^\s+GSI1:\s*$/.test(l)),
    'definition of GSI1');

  // 7. A "did you mean" code action, applied: lint is clean.
  for (const rule of ['template-unknown-attribute', 'unresolved-reference', 'schema',
    'index-key-unknown']) {
    const file = path.join(srcdir, 'tests/rules', rule, 'bad.yaml');
    const diag = published.get(uriOf(file)).diagnostics.find((d) => d.code === rule);
    const actions = await conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uriOf(file) }, range: diag.range, context: { diagnostics: [diag] } });
    const fix = actions.find((a) => /^replace /.test(a.title));
    assert.ok(fix, `${rule}: a did-you-mean action among ${actions.map((a) => a.title)}`);
    const out = path.join(tmp, `${rule}.fixed.yaml`);
    fs.writeFileSync(out, applyEdits(fs.readFileSync(file, 'utf8'), fix.edit.changes[uriOf(file)]));
    const after = lint(out);
    assert.deepStrictEqual(after.filter((g) => g.severity !== 'note'), [],
      `${rule}: lint after '${fix.title}'`);
  }

  // 8. range-bound-prefix's fix, and a ddbc-ignore comment, applied.
  const rbp = path.join(srcdir, 'tests/rules/range-bound-prefix/bad.yaml');
  const rbpDiag = published.get(uriOf(rbp)).diagnostics[0];
  const rbpActions = await conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: uriOf(rbp) }, range: rbpDiag.range, context: { diagnostics: [rbpDiag] } });
  for (const [title, check] of [[/^write the bound /, (g) => g.length === 0],
    [/^suppress range-bound-prefix/, (g) => g.length === 0]]) {
    const act = rbpActions.find((a) => title.test(a.title));
    assert.ok(act, `an action ${title} among ${rbpActions.map((a) => a.title)}`);
    const out = path.join(tmp, 'rbp.fixed.yaml');
    fs.writeFileSync(out, applyEdits(fs.readFileSync(rbp, 'utf8'), act.edit.changes[uriOf(rbp)]));
    assert.ok(check(lint(out)), `lint after '${act.title}': ${JSON.stringify(lint(out))}`);
  }

  // 9. Hover on an attribute and an entity; --rule through the configuration.
  const hv = await conn.sendRequest('textDocument/hover', { textDocument: { uri: uriOf(sample) },
    position: { line: sl.findIndex((l) => /^      lineUserId:/.test(l)), character: 8 } });
  assert.match(hv.contents.value, /\| `lineUserId` \| String \|/, 'the attribute row');
  conn.sendNotification('workspace/didChangeConfiguration',
    { settings: { ddbc: { rule: ['range-bound-prefix=off'] } } });
  await new Promise((r) => setTimeout(r, 400));
  assert.deepStrictEqual(published.get(uriOf(rbp)).diagnostics, [], 'the rule set off');

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const code = await new Promise((r) => child.on('exit', r));
  assert.strictEqual(code, 0, 'exit after shutdown');
  console.log('lsp client: ok');
}

// Applies LSP TextEdits (UTF-16 positions) to text.
function applyEdits(text, edits) {
  const lines = text.split('\n');
  const offset = (pos) => lines.slice(0, pos.line).reduce((n, l) => n + l.length + 1, 0) +
    pos.character;
  const sorted = edits.slice().sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted)
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

main().catch((e) => { console.error(e); process.exit(1); });
