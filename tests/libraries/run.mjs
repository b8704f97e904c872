// run.mjs - the library exports run for real (tests/libraries.test)
//
//   node run.mjs JOBS.json
//
// JOBS.json lists {name, format, module, model, tables}: the compiled
// ElectroDB or DynamoDB-Toolbox module (or the OneTable schema JSON),
// `ddbc export --format model` and `--format create-table` of one design.
// On dynalite (127.0.0.1, a free port) each job gets its own tables; every
// example item of the design is written through the library, given only
// its attributes without a template (the library builds the others), and
// read back raw with @aws-sdk/client-dynamodb: every key attribute of the
// table and its indexes must be exactly the example's (the keys ddbc
// checked the example against: example-mismatch), present or absent.
// Prints one line per job and exits 1 on any difference.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import dynalite from 'dynalite';
import { DynamoDBClient, GetItemCommand, QueryCommand, ScanCommand }
  from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toAttr, parseExact, numberKey, localTables, Exact } from '../e2e/values.mjs';
import { createTables } from '../e2e/tables.mjs';

const require = createRequire(import.meta.url);
const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let failures = 0;
const fail = (msg) => { failures++; console.log(`FAIL: ${msg}`); };

const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${server.address().port}`;
const raw = new DynamoDBClient({ endpoint, region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });

// An example value as the library takes it: a number as a JS number (the
// examples' numbers are small), a set as a Set (Toolbox) or an array.
function plainValue(v, type, format) {
  if (v instanceof Exact) return Number(v.text);
  if (Array.isArray(v)) {
    const items = v.map((x) => plainValue(x, null, format));
    return ['SS', 'NS', 'BS'].includes(type) && format !== 'electrodb' ? new Set(items) : items;
  }
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainValue(x, null, format)]));
  return v;
}

function sameAttr(a, b) {
  if (!a || !b) return a === b;
  if ('N' in a && 'N' in b) return numberKey(a.N) === numberKey(b.N);
  if ('S' in a && 'S' in b) return a.S === b.S;
  if ('B' in a && 'B' in b) return Buffer.compare(Buffer.from(a.B), Buffer.from(b.B)) === 0;
  return false;
}

// The placeholders' values in a key value: its template read as ddbc's
// parsers read it (a text value ends where the literal after it first
// occurs), for the parts an item does not hold (`stored: false`).
function parseKey(template, value) {
  const names = [];
  let re = '';
  const lex = /\{\{|\}\}|\{([^{}:]+)(?::0(\d+))?\}|[^{}]+/g;
  for (const m of template.matchAll(lex)) {
    if (m[0] === '{{' || m[0] === '}}') re += '\\' + m[0][0];
    else if (m[1] !== undefined) { names.push(m[1]); re += '(.*?)'; }
    else re += m[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  const got = new RegExp(`^${re}$`, 's').exec(value);
  return got ? Object.fromEntries(names.map((n, i) => [n, got[i + 1]])) : {};
}

const show = (a) => (a === undefined ? 'absent' : JSON.stringify(a));

async function writer(job, prefix) {
  const tableName = (name) => `${prefix}${name}`;
  if (job.format === 'electrodb') {
    const mod = require(job.module);
    const services = {};
    for (const [name, fn] of Object.entries(mod.services)) services[name] = fn(doc, tableName(name));
    return (table, entity, item) => services[table].entities[entity].put(item).go();
  }
  if (job.format === 'dynamodb-toolbox') {
    const mod = require(job.module);
    const { PutItemCommand } = require('dynamodb-toolbox');
    const entities = {};
    for (const [name, t] of Object.entries(mod.tables))
      entities[name] = t.entities(t.table(doc, tableName(name)));
    return (table, entity, item) => entities[table][entity].build(PutItemCommand).item(item).send();
  }
  const { Table } = require('dynamodb-onetable');
  const schema = JSON.parse(readFileSync(job.module, 'utf8'));
  const one = schema.models ? { [job.tableNames[0]]: schema } : schema;
  const tables = {};
  for (const [name, s] of Object.entries(one))
    tables[name] = new Table({ client: raw, name: tableName(name), schema: s, partial: true });
  return (table, entity, item) => tables[table].getModel(entity).create(item, { exists: null });
}

// Whether the pattern's example gives every parameter: the request the
// queries export renders without one takes values from elsewhere.
const fullExample = (p) => (p.parameters || []).every((k) => p.example && k in p.example);

// The primary keys of items, as one sorted list of texts.
function keysOf(items, primary) {
  return items.map((it) => JSON.stringify(primary.map((k) => it[k]))).sort();
}

// What the raw request of the queries export returns (every page).
async function rawRead(q, prefix) {
  const input = { ...q.input, TableName: prefix + q.input.TableName };
  delete input.Limit;
  // every attribute, so that the primary key is there to compare
  delete input.ProjectionExpression;
  const used = [input.KeyConditionExpression, input.FilterExpression].join(' ');
  if (input.ExpressionAttributeNames) {
    for (const name of Object.keys(input.ExpressionAttributeNames))
      if (!used.includes(name)) delete input.ExpressionAttributeNames[name];
    if (!Object.keys(input.ExpressionAttributeNames).length) delete input.ExpressionAttributeNames;
  }
  if (q.operation === 'GetItem') {
    const got = (await raw.send(new GetItemCommand(input))).Item;
    return got ? [got] : [];
  }
  const items = [];
  const Command = q.operation === 'Query' ? QueryCommand : ScanCommand;
  for (let start; ;) {
    const page = await raw.send(new Command({ ...input, ExclusiveStartKey: start }));
    items.push(...page.Items);
    if (!(start = page.LastEvaluatedKey)) return items;
  }
}

// Each pattern of the module's `patterns` returns, through ElectroDB, the
// items the queries export's request returns raw, with the pattern's
// example parameters.
async function patterns(job, model, creates, prefix) {
  const mod = require(job.module);
  const queries = JSON.parse(readFileSync(job.queries, 'utf8'));
  let checked = 0;
  for (const [id, fn] of Object.entries(mod.patterns)) {
    const p = model.access_patterns.find((x) => x.id === id);
    const q = queries.find((x) => x.pattern === id);
    if (p && !fullExample(p)) continue;
    if (!p || !q) {
      fail(`${job.name} electrodb: pattern ${id} has no example or no request`);
      continue;
    }
    const create = creates.find((c) => c.TableName === p.table);
    const primary = create.KeySchema.map((k) => k.AttributeName);
    const svc = mod.services[p.table](doc, prefix + p.table);
    const params = Object.fromEntries(Object.entries(p.example || {}).map(([k, v]) => [k, plainValue(v)]));
    const got = [];
    // ElectroDB's own items (its entities' only), with the key fields
    got.push(...await fn(svc, params));
    const want = await rawRead(q, prefix);
    const a = keysOf(got.map((it) => Object.fromEntries(primary.map((k) => [k, toAttr(it[k], types(create)[k])]))), primary);
    const b = keysOf(want, primary);
    if (JSON.stringify(a) !== JSON.stringify(b))
      fail(`${job.name} electrodb: pattern ${id} returns ${a.join(' ')}, ddbc's request ${b.join(' ')}`);
    checked++;
  }
  console.log(`${job.name} electrodb: ${checked} pattern(s) queried`);
}

// Each Toolbox AccessPattern returns the items ddbc's request returns.
async function toolboxPatterns(job, model, creates, prefix) {
  const mod = require(job.module);
  const queries = JSON.parse(readFileSync(job.queries, 'utf8'));
  let checked = 0, unexampled = 0;
  for (const [name, t] of Object.entries(mod.tables)) {
    const table = t.table(doc, prefix + name);
    const pats = t.patterns(table, t.entities(table));
    const create = creates.find((c) => c.TableName === name);
    const primary = create.KeySchema.map((k) => k.AttributeName);
    for (const [id, ap] of Object.entries(pats)) {
      const p = model.access_patterns.find((x) => x.id === id);
      const q = queries.find((x) => x.pattern === id);
      // without an example, the request has no values to compare with
      if (!fullExample(p)) { unexampled++; continue; }
      const params = Object.fromEntries(Object.entries(p.example || {}).map(([k, v]) => [k, plainValue(v)]));
      let items;
      try {
        items = (await ap.query(params).send()).Items || [];
      } catch (e) {
        fail(`${job.name} dynamodb-toolbox: pattern ${id}: ${e.message}`);
        continue;
      }
      const a = keysOf(items.map((it) => Object.fromEntries(primary.map((k) => [k, toAttr(it[k], types(create)[k])]))), primary);
      const b = keysOf(await rawRead(q, prefix), primary);
      if (JSON.stringify(a) !== JSON.stringify(b))
        fail(`${job.name} dynamodb-toolbox: pattern ${id} returns ${a.join(' ')}, ddbc's request ${b.join(' ')}`);
      checked++;
    }
  }
  console.log(`${job.name} dynamodb-toolbox: ${checked} pattern(s) queried` +
    (unexampled ? `, ${unexampled} without a whole example not run` : ''));
}

const types = (create) => Object.fromEntries(create.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));

let n = 0;
for (const job of jobs) {
  const model = parseExact(readFileSync(job.model, 'utf8'));
  const creates = JSON.parse(readFileSync(job.tables, 'utf8'));
  job.tableNames = creates.map((c) => c.TableName);
  const prefix = `j${n++}-`;
  const { requests } = localTables(creates, false);
  await createTables(raw, requests.map((req) => ({ ...req, TableName: prefix + req.TableName })));
  const put = await writer(job, prefix);
  let written = 0;
  const before = failures;
  for (const entity of model.entities) {
    const attrs = Object.fromEntries(entity.attributes.map((a) => [a.name, a]));
    const create = creates.find((c) => c.TableName === entity.table);
    const types = Object.fromEntries(create.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
    const keyNames = Object.keys(types);
    const primary = create.KeySchema.map((k) => k.AttributeName);
    for (const [i, example] of (entity.examples || []).entries()) {
      const where = `${job.name} ${job.format}: ${entity.name} example ${i + 1}`;
      const input = {};
      for (const [k, v] of Object.entries(example))
        if (attrs[k] && !attrs[k].template) input[k] = plainValue(v, attrs[k].type, job.format);
      for (const a of entity.attributes) {
        if (!a.template || typeof example[a.name] !== 'string') continue;
        for (const [name, text] of Object.entries(parseKey(a.template, example[a.name])))
          if (attrs[name] && !attrs[name].template && !(name in input))
            input[name] = attrs[name].type === 'N' ? Number(text) : text;
      }
      // OneTable reads "${" in a key it built as a placeholder left open,
      // and refuses the item: a limit of the library (docs/libraries.md)
      const openKey = job.format === 'onetable' && entity.attributes.some((a) =>
        a.template && typeof example[a.name] === 'string' && example[a.name].includes('${'));
      try {
        await put(entity.table, entity.name, input);
      } catch (e) {
        if (!openKey) fail(`${where}: the library refused the item: ${e.message}`);
        continue;
      }
      if (openKey) fail(`${where}: OneTable wrote a key holding "\${", which it cannot read back`);
      const Key = Object.fromEntries(primary.map((k) => [k, toAttr(example[k], types[k])]));
      const got = (await raw.send(new GetItemCommand({ TableName: prefix + entity.table, Key }))).Item;
      if (!got) {
        fail(`${where}: no item under ddbc's key ${JSON.stringify(Key)}`);
        continue;
      }
      for (const k of keyNames) {
        const want = example[k] === undefined ? undefined : toAttr(example[k], types[k]);
        if (!sameAttr(want, got[k]))
          fail(`${where}: ${k} is ${show(got[k])}, ddbc's key is ${show(want)}`);
      }
      written++;
      // A value wider than its :0WIDTH is no key of ddbc's: the library
      // must refuse it, not write a longer key.
      for (const a of entity.attributes) {
        const m = /\{([^{}:]+):0(\d+)\}/.exec(a.template || '');
        if (i !== 0 || !m || !(m[1] in input) || job.format === 'onetable') continue;
        const wide = { ...input, [m[1]]: 10 ** Number(m[2]) };
        let refused = false;
        try { await put(entity.table, entity.name, wide); } catch { refused = true; }
        if (!refused) fail(`${where}: ${m[1]} = ${wide[m[1]]} written into {${m[1]}:0${m[2]}}`);
      }
    }
  }
  if (job.format === 'electrodb') await patterns(job, model, creates, prefix);
  if (job.format === 'dynamodb-toolbox') await toolboxPatterns(job, model, creates, prefix);
  if (failures === before)
    console.log(`${job.name} ${job.format}: ${written} example item(s) written, keys as ddbc's`);
}
server.close();
process.exit(failures ? 1 : 0);
