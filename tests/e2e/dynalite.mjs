// dynalite.mjs - ddbc's exported JSON checked against a DynamoDB-compatible server
//
// usage: node dynalite.mjs --schema ddbc.schema.json --model-schema model.schema.json
//                          [--reserved reserved-words.txt] [--valid FILE]... [--invalid FILE]...
//                          [--endpoint URL]
//                          DESIGN.yaml=PREFIX ...
//
// For each design, PREFIX.create-table.json, PREFIX.queries.json and
// PREFIX.model.json are what `ddbc export` wrote. The script checks:
//   - the design (YAML) against the input schema, the model against its schema
//     (and each --valid file validates, each --invalid file does not);
//   - the CreateTable requests' shape as DynamoDB requires it (AttributeDefinitions
//     exactly the key attributes, HASH before RANGE, multi-attribute GSI keys in
//     key order, throughput only with PROVISIONED) against the model's indexes;
//   - the expressions: every name that is reserved or no identifier goes through
//     ExpressionAttributeNames, and no other does;
//   - on dynalite (started here, on 127.0.0.1, stopped at the end): the tables are
//     created, every write request is accepted (a PutItem stores its Item), and,
//     on fresh tables holding every example item, every read request returns
//     exactly the entities its pattern names.
// dynalite predates multi-attribute GSI keys: such an index is left out of the
// table created there, and the patterns that read it are skipped (their
// KeySchema is still checked above). With --endpoint URL the requests go to
// a server already running there instead (moto, which holds multi-attribute
// keys: tests/e2e/moto_export.py), and nothing is left out.
// Prints one line per check and ends with "N passed, N failed, N skipped";
// exits 1 when a check failed, 2 on a usage error.

import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import dynalite from 'dynalite';
import { toAttr, fromCliJson, localTables, parseExact, numberKey } from './values.mjs';
import { createTables, dropTables } from './tables.mjs';
import {
  DynamoDBClient, PutItemCommand, GetItemCommand,
  QueryCommand, ScanCommand, UpdateItemCommand, DeleteItemCommand,
} from '@aws-sdk/client-dynamodb';

const counts = { passed: 0, failed: 0, skipped: 0 };

function pass(what) {
  counts.passed++;
  console.log(`ok - ${what}`);
}

function fail(what, why) {
  counts.failed++;
  console.log(`FAIL - ${what}: ${why}`);
}

function skip(what, why) {
  counts.skipped++;
  console.log(`skip - ${what}: ${why}`);
}

function check(what, problems) {
  if (problems.length) fail(what, problems.join('; '));
  else pass(what);
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function parseArgs(argv) {
  const opts = { designs: [], valid: [], invalid: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--schema' || a === '--model-schema' || a === '--reserved' || a === '--endpoint') {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      opts[a.slice(2)] = argv[++i];
    } else if (a === '--valid' || a === '--invalid') {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      opts[a.slice(2)].push(argv[++i]);
    } else if (a.includes('=') && !a.startsWith('-')) {
      const eq = a.lastIndexOf('=');
      opts.designs.push({ yaml: a.slice(0, eq), prefix: a.slice(eq + 1) });
    } else {
      throw new Error(`unexpected argument '${a}'`);
    }
  }
  if (!opts.schema || !opts['model-schema'] || !opts.designs.length)
    throw new Error('expected --schema FILE --model-schema FILE DESIGN.yaml=PREFIX...');
  return opts;
}

// ---- schemas -------------------------------------------------------------------------

function makeValidator(path) {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: true, strictTuples: true });
  return ajv.compile(readJson(path));
}

function schemaErrors(validate, value) {
  if (validate(value)) return [];
  return validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
}

function readDesign(path) {
  return parseYaml(readFileSync(path, 'utf8'), { merge: true });
}

// Designs that lint clean validate; one with a structural error does not.
function schemaCorpus(opts, v) {
  for (const path of opts.valid)
    check(`${path} validates against ddbc.schema.json`, schemaErrors(v.input, readDesign(path)));
  for (const path of opts.invalid) {
    if (v.input(readDesign(path))) fail(`${path} is rejected by ddbc.schema.json`, 'it validates');
    else pass(`${path} is rejected by ddbc.schema.json`);
  }
}

// ---- create-table shape ------------------------------------------------------------------

const DDB_KEY_TYPES = new Set(['S', 'N', 'B']);

function keySchemaProblems(where, keySchema, pk, sk) {
  const want = [...pk.map((n) => [n, 'HASH']), ...sk.map((n) => [n, 'RANGE'])];
  const got = keySchema.map((k) => [k.AttributeName, k.KeyType]);
  if (JSON.stringify(want) !== JSON.stringify(got))
    return [`${where}: KeySchema ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`];
  return [];
}

function projectionProblems(where, projection, index) {
  const problems = [];
  const type = projection.ProjectionType;
  if (!['ALL', 'KEYS_ONLY', 'INCLUDE'].includes(type))
    problems.push(`${where}: ProjectionType ${type}`);
  if (type === 'INCLUDE' && !(projection.NonKeyAttributes || []).length)
    problems.push(`${where}: INCLUDE without NonKeyAttributes`);
  if (type !== 'INCLUDE' && projection.NonKeyAttributes)
    problems.push(`${where}: NonKeyAttributes with ${type}`);
  if (index.projection === 'all' && type !== 'ALL')
    problems.push(`${where}: projection all exported as ${type}`);
  return problems;
}

function indexProblems(request, table, kind, listName) {
  const problems = [];
  const want = table.indexes.filter((ix) => ix.kind === kind);
  const got = request[listName] || [];
  if (got.length !== want.length || (want.length === 0 && request[listName]))
    problems.push(`${listName}: ${got.length} exported, ${want.length} in the model`);
  want.forEach((ix, i) => {
    const g = got[i];
    if (!g) return;
    const where = `${kind.toUpperCase()} ${ix.name}`;
    if (g.IndexName !== ix.name) problems.push(`${where}: IndexName ${g.IndexName}`);
    problems.push(...keySchemaProblems(where, g.KeySchema, ix.partition_key, ix.sort_key));
    problems.push(...projectionProblems(where, g.Projection, ix));
    const provisioned = request.BillingMode === 'PROVISIONED';
    if (kind === 'gsi' && provisioned !== Boolean(g.ProvisionedThroughput))
      problems.push(`${where}: ProvisionedThroughput ${provisioned ? 'missing' : 'with on-demand billing'}`);
    if (kind === 'lsi' && g.ProvisionedThroughput) problems.push(`${where}: LSI with throughput`);
  });
  return problems;
}

function createTableProblems(request, table) {
  const problems = [];
  if (request.TableName !== table.name) problems.push(`TableName ${request.TableName}`);
  const base = table.indexes.find((ix) => ix.kind === 'table');
  problems.push(...keySchemaProblems('table', request.KeySchema, base.partition_key, base.sort_key));
  problems.push(...indexProblems(request, table, 'gsi', 'GlobalSecondaryIndexes'));
  problems.push(...indexProblems(request, table, 'lsi', 'LocalSecondaryIndexes'));
  // DynamoDB rejects a definition no key uses: exactly the key attributes, once.
  const used = new Set();
  for (const k of request.KeySchema) used.add(k.AttributeName);
  for (const ix of [...(request.GlobalSecondaryIndexes || []), ...(request.LocalSecondaryIndexes || [])])
    for (const k of ix.KeySchema) used.add(k.AttributeName);
  const defined = request.AttributeDefinitions.map((d) => d.AttributeName);
  if (new Set(defined).size !== defined.length) problems.push('AttributeDefinitions repeat a name');
  const missing = [...used].filter((n) => !defined.includes(n));
  const unused = defined.filter((n) => !used.has(n));
  if (missing.length) problems.push(`AttributeDefinitions lack ${missing.join(', ')}`);
  if (unused.length) problems.push(`AttributeDefinitions hold unused ${unused.join(', ')}`);
  for (const d of request.AttributeDefinitions) {
    const k = table.key_attributes.find((a) => a.name === d.AttributeName);
    if (!DDB_KEY_TYPES.has(d.AttributeType) || (k && k.type !== d.AttributeType))
      problems.push(`${d.AttributeName}: AttributeType ${d.AttributeType}`);
  }
  const provisioned = table.billing === 'provisioned';
  if (request.BillingMode !== (provisioned ? 'PROVISIONED' : 'PAY_PER_REQUEST'))
    problems.push(`BillingMode ${request.BillingMode}`);
  if (provisioned !== Boolean(request.ProvisionedThroughput))
    problems.push(`ProvisionedThroughput ${provisioned ? 'missing' : 'with on-demand billing'}`);
  return problems;
}

// ---- expressions --------------------------------------------------------------------------

const FUNCTIONS_AND_WORDS = /^(and|or|not|between|in)$/i;

// The attribute names an expression writes as they are (no '#' or ':').
function plainNames(expr) {
  const names = [];
  const re = /([#:]?)([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/g;
  let m;
  while ((m = re.exec(expr)) !== null) {
    if (m[1] || m[3] || FUNCTIONS_AND_WORDS.test(m[2])) continue;
    names.push(m[2]);
  }
  return names;
}

// Without the list of reserved words (reserved null) only the names that are no
// identifier are known to need a placeholder.
function expressionProblems(input, reserved) {
  const problems = [];
  const identifier = (n) => /^[A-Za-z][A-Za-z0-9]*$/.test(n);
  const needsPlaceholder = (n) => !identifier(n) || Boolean(reserved && reserved.has(n.toUpperCase()));
  const exprs = ['KeyConditionExpression', 'ConditionExpression', 'ProjectionExpression']
    .map((k) => input[k]).filter(Boolean);
  for (const expr of exprs)
    for (const n of plainNames(expr))
      if (needsPlaceholder(n)) problems.push(`'${n}' is written as it is in "${expr}"`);
  const names = input.ExpressionAttributeNames || {};
  for (const [ref, n] of Object.entries(names)) {
    if (!needsPlaceholder(n) && reserved) problems.push(`'${n}' needs no placeholder (${ref})`);
    if (!exprs.some((e) => e.includes(ref))) problems.push(`${ref} is unused`);
  }
  for (const ref of Object.keys(input.ExpressionAttributeValues || {}))
    if (!exprs.some((e) => new RegExp(`${ref}(?![A-Za-z0-9_])`).test(e))) problems.push(`${ref} is unused`);
  return problems;
}

// ---- DynamoDB values ------------------------------------------------------------------------

function toItem(example, entity) {
  const types = Object.fromEntries(entity.attributes.map((a) => [a.name, a.type]));
  return Object.fromEntries(Object.entries(example).map(([k, v]) => [k, toAttr(v, types[k])]));
}

function canonical(attr) {
  return JSON.stringify(attr, (k, v) => {
    if (v && v.type === 'Buffer') return Buffer.from(v.data).toString('base64');
    if (k === 'N' && typeof v === 'string') return numberKey(v);
    if (k === 'NS' && Array.isArray(v)) return v.map(numberKey).sort();
    return v;
  });
}

function keyOf(item, keyNames) {
  return keyNames.map((n) => (item[n] ? canonical(item[n]) : '?')).join('|');
}

function sameItem(a, b) {
  const norm = (item) => Object.keys(item).sort().map((k) => `${k}=${canonical(item[k])}`).join(',');
  return norm(a) === norm(b);
}

// ---- the server -------------------------------------------------------------------------------

async function startServer(endpoint) {
  if (endpoint) {
    const client = new DynamoDBClient({
      endpoint, region: 'us-east-1', maxAttempts: 1,
      credentials: { accessKeyId: 'ddbc', secretAccessKey: 'ddbc' },
    });
    return { client, async stop() { client.destroy(); } };
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${server.address().port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'ddbc', secretAccessKey: 'ddbc' },
    maxAttempts: 1,
  });
  return {
    client,
    async stop() {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const COMMANDS = {
  GetItem: GetItemCommand, Query: QueryCommand, Scan: ScanCommand, PutItem: PutItemCommand,
  UpdateItem: UpdateItemCommand, DeleteItem: DeleteItemCommand,
};

// Every item a read returns, following LastEvaluatedKey.
async function readAll(client, operation, input) {
  if (operation === 'GetItem') {
    const out = await client.send(new GetItemCommand(input));
    return out.Item ? [out.Item] : [];
  }
  const items = [];
  let start;
  do {
    const page = { ...input };
    if (start) page.ExclusiveStartKey = start;
    const out = await client.send(new COMMANDS[operation](page));
    items.push(...(out.Items || []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

// ---- one design ----------------------------------------------------------------------------------

function staticChecks(name, design, model, createTables, queries, v) {
  check(`${name}: design validates against ddbc.schema.json`, schemaErrors(v.input, design));
  check(`${name}: model validates against model.schema.json`, schemaErrors(v.model, model));
  createTables.forEach((req, i) => {
    const table = model.tables[i];
    check(`${name}: CreateTable ${req.TableName}`, table ? createTableProblems(req, table) : ['no such table in the model']);
  });
  if (createTables.length !== model.tables.length)
    fail(`${name}: create-table`, `${createTables.length} requests for ${model.tables.length} tables`);
  const ids = model.access_patterns.map((p) => p.id);
  if (JSON.stringify(queries.map((q) => q.pattern)) !== JSON.stringify(ids))
    fail(`${name}: queries`, 'not one request per access pattern in order');
  for (const q of queries)
    check(`${name}: ${q.pattern} expressions`, expressionProblems(q.input, v.reserved));
}

// The indexes (of the tables as created) whose every key attribute item holds.
function indexesHolding(request, item) {
  const all = [...(request.GlobalSecondaryIndexes || []), ...(request.LocalSecondaryIndexes || [])];
  return all.filter((ix) => ix.KeySchema.every((k) => item[k.AttributeName]));
}

// A put item that holds an index's keys is in that index: queried there by
// those keys, it comes back.
async function putIndexProblems(client, request, item, keyNames, entity) {
  const problems = [];
  // The item is of an entity that belongs to these indexes: it holds their keys.
  const all = [...(request.GlobalSecondaryIndexes || []), ...(request.LocalSecondaryIndexes || [])];
  for (const ix of all)
    if (entity && entity.indexes.includes(ix.IndexName) &&
        !(entity.sparse || []).some((s) => s.index === ix.IndexName) &&
        !ix.KeySchema.every((k) => item[k.AttributeName]))
      problems.push(`lacks the keys of ${ix.IndexName}, to which ${entity.name} belongs`);
  for (const ix of indexesHolding(request, item)) {
    const names = {}, values = {};
    const conds = ix.KeySchema.map((k, i) => {
      names[`#k${i}`] = k.AttributeName;
      values[`:k${i}`] = item[k.AttributeName];
      return `#k${i} = :k${i}`;
    });
    const out = await client.send(new QueryCommand(fromCliJson({
      TableName: request.TableName, IndexName: ix.IndexName, KeyConditionExpression: conds.join(' AND '),
      ExpressionAttributeNames: names, ExpressionAttributeValues: values,
    })));
    const want = keyOf(fromCliJson(item), keyNames);
    if (!(out.Items || []).some((got) => keyOf(got, keyNames) === want))
      problems.push(`not found in ${ix.IndexName} by its keys there`);
  }
  return problems;
}

async function writeChecks(name, client, model, queries, skipped, requests) {
  for (const q of queries) {
    if (!['PutItem', 'UpdateItem', 'DeleteItem'].includes(q.operation)) continue;
    const what = `${name}: ${q.pattern} (${q.operation}) is accepted`;
    if (skipped(q)) { skip(what, skipped(q)); continue; }
    try {
      const put = q.operation === 'PutItem';
      const item = put ? q.input.Item : null;
      const key = put ? fromCliJson(Object.fromEntries(Object.keys(q.keyNames).map((k) => [k, item[k]]))) : null;
      // Each write meets the table without an earlier pattern's item.
      if (put) await client.send(new DeleteItemCommand({ TableName: q.input.TableName, Key: key }));
      await client.send(new COMMANDS[q.operation](fromCliJson(q.input)));
      if (put) {
        const got = await client.send(new GetItemCommand({ TableName: q.input.TableName, Key: key }));
        if (!got.Item || !sameItem(got.Item, fromCliJson(item))) { fail(what, 'the stored item differs from Item'); continue; }
        const request = requests.find((r) => r.TableName === q.input.TableName);
        const pattern = model.access_patterns.find((p) => p.id === q.pattern);
        const entity = pattern && model.entities.find((e) => e.name === (pattern.matched || [])[0]);
        const problems = await putIndexProblems(client, request, item, Object.keys(q.keyNames), entity);
        if (problems.length) { fail(what, problems.join('; ')); continue; }
      }
      pass(what);
    } catch (e) {
      fail(what, `${e.name}: ${e.message}`);
    }
  }
}

function exampleIndex(model) {
  const byTable = new Map();
  for (const table of model.tables) {
    const base = table.indexes.find((ix) => ix.kind === 'table');
    byTable.set(table.name, { keyNames: [...base.partition_key, ...base.sort_key], items: new Map() });
  }
  for (const entity of model.entities) {
    const t = byTable.get(entity.table);
    for (const example of entity.examples) {
      const item = toItem(example, entity);
      t.items.set(keyOf(item, t.keyNames), { entity: entity.name, item });
    }
  }
  return byTable;
}

// The read as exported, ProjectionExpression included: as many items as
// without it, each holding only the attributes it names.
async function projectedReadProblems(client, q, count) {
  const names = q.input.ExpressionAttributeNames || {};
  const wanted = new Set(q.input.ProjectionExpression.split(',').map((n) => names[n.trim()] || n.trim()));
  const items = await readAll(client, q.operation, fromCliJson(q.input));
  const problems = [];
  if (items.length !== count) problems.push(`${items.length} item(s), ${count} without it`);
  for (const item of items) {
    const extra = Object.keys(item).filter((n) => !wanted.has(n));
    if (extra.length) problems.push(`an item holds ${extra.join(', ')} too`);
    if (!Object.keys(item).length) problems.push('an item holds nothing');
  }
  return problems;
}

// The examples a key condition of equalities and begins_with selects, or
// null for a condition this reading does not follow.
function conditionHolds(input, item) {
  const names = input.ExpressionAttributeNames || {};
  const values = fromCliJson(input.ExpressionAttributeValues || {});
  const parts = (input.KeyConditionExpression || '').split(/\s+AND\s+/i);
  let holds = true;
  for (const part of parts) {
    let m = /^\s*([#\w.-]+)\s*=\s*(:[\w]+)\s*$/.exec(part);
    const bw = m ? null : /^\s*begins_with\(\s*([#\w.-]+)\s*,\s*(:[\w]+)\s*\)\s*$/i.exec(part);
    m = m || bw;
    if (!m) return null;
    const attr = names[m[1]] || m[1];
    const want = canonical(values[m[2]]);
    const have = item[attr];
    if (!have) { holds = false; continue; }
    if (bw) {
      const [type] = Object.keys(values[m[2]]);
      holds = holds && type === 'S' && typeof have.S === 'string' && have.S.startsWith(values[m[2]].S);
    } else {
      holds = holds && canonical(have) === want;
    }
  }
  return holds;
}

// A read on an index that holds only the items of an entity that have
// its optional key attributes (the model's `sparse`): it returns exactly
// the examples of that entity that have them and meet the condition.
function sparseCheck(name, q, model, t, items) {
  if (!q.input.IndexName || q.operation !== 'Query') return;
  const sparse = model.entities.filter((e) => e.table === q.input.TableName &&
    (e.sparse || []).some((s) => s.index === q.input.IndexName));
  if (!sparse.length) return;
  const what = `${name}: ${q.pattern} (Query) returns exactly the items that have the sparse keys of ${q.input.IndexName}`;
  const want = new Set();
  for (const [key, ex] of t.items) {
    const entity = sparse.find((e) => e.name === ex.entity);
    if (!entity) continue;
    const having = entity.sparse.find((s) => s.index === q.input.IndexName).items_having;
    const holds = conditionHolds(q.input, ex.item);
    if (holds === null) { skip(what, 'a key condition this check does not read'); return; }
    if (holds && having.every((a) => ex.item[a])) want.add(key);
  }
  const got = new Set(items.map((item) => keyOf(item, t.keyNames))
    .filter((key) => sparse.some((e) => (t.items.get(key) || {}).entity === e.name)));
  const problems = [];
  const extra = [...got].filter((k) => !want.has(k));
  const absent = [...want].filter((k) => !got.has(k));
  if (!want.size) problems.push('no example item has them: nothing to tell');
  if (extra.length) problems.push(`returned ${extra.join(', ')} too`);
  if (absent.length) problems.push(`returned no ${absent.join(', ')}`);
  check(`${what} (${want.size})`, problems);
}

async function readChecks(name, client, model, queries, byTable, skipped) {
  const patterns = new Map(model.access_patterns.map((p) => [p.id, p]));
  const withExamples = new Set(model.entities.filter((e) => e.examples.length).map((e) => e.name));
  for (const q of queries) {
    if (!['GetItem', 'Query', 'Scan'].includes(q.operation)) continue;
    const p = patterns.get(q.pattern);
    const what = `${name}: ${q.pattern} (${q.operation}) returns ${JSON.stringify(p.entities || p.matched)}`;
    if (skipped(q)) { skip(what, skipped(q)); continue; }
    const expected = new Set(p.entities || p.matched);
    const unverifiable = [...expected].filter((e) => !withExamples.has(e));
    if (unverifiable.length) { fail(what, `no example item of ${unverifiable.join(', ')} to return`); continue; }
    try {
      const t = byTable.get(q.input.TableName);
      // Which entities come back is told by whole items; the projection
      // is then checked on its own.
      const whole = { ...q.input };
      delete whole.ProjectionExpression;
      if (q.input.ProjectionExpression && whole.ExpressionAttributeNames) {
        const used = [whole.KeyConditionExpression || ''].join(' ');
        whole.ExpressionAttributeNames = Object.fromEntries(
          Object.entries(whole.ExpressionAttributeNames).filter(([ref]) => used.includes(ref)));
        if (!Object.keys(whole.ExpressionAttributeNames).length) delete whole.ExpressionAttributeNames;
      }
      const items = await readAll(client, q.operation, fromCliJson(whole));
      if (q.input.ProjectionExpression) {
        const problems = await projectedReadProblems(client, q, items.length);
        check(`${name}: ${q.pattern} (${q.operation}) returns only ${q.input.ProjectionExpression}`, problems);
      }
      const got = new Set();
      const strangers = [];
      for (const item of items) {
        const known = t.items.get(keyOf(item, t.keyNames));
        if (known) got.add(known.entity);
        else strangers.push(keyOf(item, t.keyNames));
      }
      const problems = [];
      if (strangers.length) problems.push(`items that are no example: ${strangers.join(', ')}`);
      const extra = [...got].filter((e) => !expected.has(e));
      const absent = [...expected].filter((e) => !got.has(e));
      if (extra.length) problems.push(`returned ${extra.join(', ')} too`);
      if (absent.length) problems.push(`returned no ${absent.join(', ')}`);
      if (problems.length) problems.push(`got ${items.length} item(s) of ${JSON.stringify([...got])}`);
      check(what, problems);
      sparseCheck(name, q, model, t, items);
    } catch (e) {
      fail(what, `${e.name}: ${e.message}`);
    }
  }
}

async function runDesign(d, v, endpoint) {
  const name = d.yaml.replace(/^.*\//, '');
  const design = readDesign(d.yaml);
  const model = readJson(`${d.prefix}.model.json`);
  const tables = readJson(`${d.prefix}.create-table.json`);
  const queries = readJson(`${d.prefix}.queries.json`);
  staticChecks(name, design, model, tables, queries, v);

  const { requests, missing } = localTables(tables, Boolean(endpoint));
  // Why a request cannot run on this server ('' when it can).
  const skipped = (q) => {
    if (q.input.IndexName && missing.has(`${q.input.TableName}/${q.input.IndexName}`))
      return `dynalite has no multi-attribute GSI keys (${q.input.IndexName})`;
    // moto fails an UpdateItem that has no UpdateExpression, which DynamoDB accepts.
    if (endpoint && q.operation === 'UpdateItem' && !q.input.UpdateExpression)
      return 'the server fails an UpdateItem without UpdateExpression';
    return '';
  };
  const keyNames = new Map(model.tables.map((t) => {
    const base = t.indexes.find((ix) => ix.kind === 'table');
    return [t.name, Object.fromEntries([...base.partition_key, ...base.sort_key].map((k) => [k, true]))];
  }));
  for (const q of queries) q.keyNames = keyNames.get(q.input.TableName) || {};

  const server = await startServer(endpoint);
  try {
    await createTables(server.client, requests);
    pass(`${name}: ${endpoint || 'dynalite'} creates ${requests.map((r) => r.TableName).join(', ')}`);
    await writeChecks(name, server.client, model, queries, skipped, requests);
    await dropTables(server.client, requests);
    await createTables(server.client, requests);
    // The example items with their Numbers as written (parseExact).
    const byTable = exampleIndex(parseExact(readFileSync(`${d.prefix}.model.json`, 'utf8')));
    for (const [table, t] of byTable)
      for (const { item } of t.items.values())
        await server.client.send(new PutItemCommand({ TableName: table, Item: item }));
    pass(`${name}: every example item is put`);
    await readChecks(name, server.client, model, queries, byTable, skipped);
  } catch (e) {
    fail(`${name}: dynalite`, `${e.name}: ${e.message}`);
  } finally {
    // A shared server keeps its tables: the next design may use the same names.
    if (endpoint) await dropTables(server.client, requests).catch(() => {});
    await server.stop();
  }
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`dynalite.mjs: ${e.message}`);
    return 2;
  }
  const reserved = opts.reserved
    ? new Set(readFileSync(opts.reserved, 'utf8').split('\n').map((w) => w.trim().toUpperCase()).filter(Boolean))
    : null;
  const v = { input: makeValidator(opts.schema), model: makeValidator(opts['model-schema']), reserved };
  schemaCorpus(opts, v);
  for (const d of opts.designs) await runDesign(d, v, opts.endpoint);
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts.failed ? 1 : 0;
}

process.exitCode = await main();
