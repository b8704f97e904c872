// engine.mjs - each design's generated pattern requests on dynalite: TypeScript and Go
//
// usage: node engine.mjs DIR...
//
// Each DIR holds what tests/keys.test made for one design: vectors.json (per
// pattern its request function, example arguments and entities),
// model.json and tables.json (the model and CreateTable exports), ts.js (the
// TypeScript module compiled by tsc) and ge (tests/keys/engine.go built with
// aws-sdk-go-v2, when Go and the SDK are there). On dynalite (started here on
// 127.0.0.1, stopped at the end) the tables are created and every example
// item put, once per language; every read request the TypeScript module
// returns is sent with @aws-sdk/client-dynamodb, and the Go engine sends the
// Go package's with the Go SDK: the items that come back, told apart by the
// module's own <prefix>_entity_of, must be exactly the pattern's entities
// (for a sample, whose examples are written for its patterns; in other
// designs they must be some of them, and tests/keys.test compares the
// languages), and the request as returned (ProjectionExpression included)
// as many items. Then every write (PutItem with the export's item,
// UpdateItem, DeleteItem) is sent and its key read back: the guard must
// name one of the pattern's entities there, none after a DeleteItem.
// DIR/ts.entities and DIR/go.entities get what each language found:
// "FUNC<TAB>ENTITY,ENTITY" lines. A multi-attribute GSI, which dynalite
// lacks, is left out there, and its patterns run on moto's server instead
// (DDBC_MOTO_ENDPOINT, with every table whole), or are skipped when there is
// none. Prints a line per check;
// exits 1 when one failed.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import dynalite from 'dynalite';
import {
  DynamoDBClient, CreateTableCommand, DeleteTableCommand, DescribeTableCommand,
  PutItemCommand, GetItemCommand,
  QueryCommand, ScanCommand, UpdateItemCommand, DeleteItemCommand,
} from '@aws-sdk/client-dynamodb';

const require = createRequire(import.meta.url);
const COMMANDS = { Query: QueryCommand, Scan: ScanCommand };
let failed = 0;

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

function toAttr(value, type) {
  switch (type) {
    case 'S': return { S: String(value) };
    case 'N': return { N: String(value) };
    case 'B': return { B: Buffer.from(String(value), 'base64') };
    case 'BOOL': return { BOOL: Boolean(value) };
    case 'NULL': return { NULL: true };
    case 'SS': return { SS: value.map(String) };
    case 'NS': return { NS: value.map(String) };
    default: break;
  }
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map((v) => toAttr(v)) };
  return { M: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAttr(v)])) };
}

function isMultiAttribute(ix) {
  return ix.KeySchema.filter((k) => k.KeyType === 'HASH').length > 1 ||
    ix.KeySchema.filter((k) => k.KeyType === 'RANGE').length > 1;
}

// The request without ProjectionExpression (and the names only it used),
// so that whole items come back to be told apart.
function whole(input) {
  const copy = { ...input };
  delete copy.ProjectionExpression;
  if (input.ProjectionExpression && copy.ExpressionAttributeNames) {
    const used = copy.KeyConditionExpression || '';
    copy.ExpressionAttributeNames = Object.fromEntries(
      Object.entries(copy.ExpressionAttributeNames).filter(([ref]) => used.includes(ref)));
    if (!Object.keys(copy.ExpressionAttributeNames).length) delete copy.ExpressionAttributeNames;
  }
  return copy;
}

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

function report(what, problems) {
  if (problems.length) {
    failed++;
    console.log(`FAIL - ${what}: ${problems.join('; ')}`);
  } else {
    console.log(`ok - ${what}`);
  }
}

function entitiesProblems(got, expected, strict) {
  const want = new Set(expected);
  const problems = [];
  const extra = [...got].filter((e) => !want.has(e));
  const absent = strict ? [...want].filter((e) => !got.has(e)) : [];
  if (extra.length) problems.push(`returned ${extra.join(', ')} too`);
  if (absent.length) problems.push(`returned no ${absent.join(', ')}`);
  return problems;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);
const WRITE_COMMANDS = { PutItem: PutItemCommand, UpdateItem: UpdateItemCommand, DeleteItem: DeleteItemCommand };

// A DynamoDB JSON value as the SDK takes it: a Binary as bytes.
function native(x) {
  if (x.B !== undefined) return { B: new Uint8Array(Buffer.from(x.B, 'base64')) };
  if (x.BS !== undefined) return { BS: x.BS.map((b) => new Uint8Array(Buffer.from(b, 'base64'))) };
  if (x.M !== undefined) return { M: Object.fromEntries(Object.entries(x.M).map(([k, y]) => [k, native(y)])) };
  if (x.L !== undefined) return { L: x.L.map(native) };
  return x;
}

// What a write leaves when its ConditionExpression refuses it (an example
// item already holds the key a PutItem's condition wants free): the engine
// answered the request, and the item there must still be the pattern's.
const REFUSED = ' (its condition refused the write)';

// An UpdateItem's UpdateExpression is the caller's (the export leaves it
// out); the engines get one that changes no attribute of the design.
function touched(req) {
  return { ...req, UpdateExpression: 'SET ddbcTouched = :ddbcTouched',
    ExpressionAttributeValues: { ...(req.ExpressionAttributeValues || {}), ':ddbcTouched': { N: '1' } } };
}

// A request function's argument: a Number as its decimal text (exact: a
// bigint or a number would lose 9.99's or a 38-digit number's digits), a
// condition's BOOL ("true" or "false") as a boolean, else the text.
const arg = (a) => (a.bool ? a.value === 'true' : a.value);

// Sends a write and reads its key back: what the guard finds there ("" after
// a DeleteItem), or throws why not.
async function write(client, m, entityOf, r, keys) {
  const args = r.args.map(arg);
  const req = r.operation === 'PutItem'
    ? m[r.func](Object.fromEntries(Object.entries(r.item).map(([k, x]) => [k, native(x)])), ...args)
    : m[r.func](...args);
  let refused = false;
  try {
    await client.send(new WRITE_COMMANDS[r.operation](r.operation === 'UpdateItem' ? touched(req) : req));
  } catch (e) {
    if (e.name !== 'ConditionalCheckFailedException') throw e;
    refused = true;
  }
  const sent = req.Item || req.Key;
  const key = Object.fromEntries(keys[req.TableName].map((k) => [k, sent[k]]));
  const out = await client.send(new GetItemCommand({ TableName: req.TableName, Key: key, ConsistentRead: true }));
  if (r.operation === 'DeleteItem' && !refused) {
    if (out.Item) throw new Error('the item is still there');
    return '';
  }
  if (!out.Item) throw new Error('no item at its key');
  return (m[entityOf](out.Item) ?? 'an item no guard names') + (refused ? REFUSED : '');
}

// Why a write's result is not the pattern's: an entity it does not name.
function writeProblems(r, entity) {
  const name = entity.endsWith(REFUSED) ? entity.slice(0, -REFUSED.length) : entity;
  if (r.operation === 'DeleteItem' && name === entity) return entity ? ['the item is still there'] : [];
  return r.entities.includes(name) ? [] : [`${name || 'no item'} is not the pattern's`];
}

// Until table name is ACTIVE (gone: until DescribeTable no longer finds
// it). The engine's table changes complete on a timer, even at 0 ms: under
// load a design's next request, or the next design's table of the same
// name (the samples' English twins), could otherwise meet the old state.
async function settle(client, name, gone) {
  for (let i = 0; i < 500; i++) {
    try {
      const d = await client.send(new DescribeTableCommand({ TableName: name }));
      if (!gone && d.Table.TableStatus === 'ACTIVE') return;
    } catch (e) {
      if (e.name !== 'ResourceNotFoundException') throw e;
      if (gone) return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`table ${name} did not become ${gone ? 'deleted' : 'ACTIVE'}`);
}

// The design's tables, made again, with every example item.
async function setUp(client, tables, model) {
  for (const t of tables) {
    await client.send(new CreateTableCommand(t));
    await settle(client, t.TableName, false);
  }
  for (const e of model.entities) {
    const types = Object.fromEntries(e.attributes.map((a) => [a.name, a.type]));
    for (const ex of e.examples) {
      const item = Object.fromEntries(Object.entries(ex).map(([k, x]) => [k, toAttr(x, types[k])]));
      await client.send(new PutItemCommand({ TableName: e.table, Item: item }));
    }
  }
}

async function tearDown(client, tables) {
  for (const t of tables) {
    await client.send(new DeleteTableCommand({ TableName: t.TableName }));
    await settle(client, t.TableName, true);
  }
}

async function runTs(client, dir, v, runnable, strict, keys, found) {
  const m = require(`${dir}/ts.js`);
  for (const r of runnable.filter((x) => !WRITES.has(x.operation))) {
    const what = `TypeScript ${r.func} returns ${JSON.stringify(r.entities)}`;
    try {
      const req = m[r.func](...r.args.map(arg));
      const items = await readAll(client, r.operation, whole(req));
      const got = new Set(items.map((item) => m[v.entity_of](item) ?? 'an item no guard names'));
      const problems = entitiesProblems(got, r.entities, strict);
      found.push(`${r.func}\t${[...got].sort().join(',')}\n`);
      if (req.ProjectionExpression) {
        const projected = await readAll(client, r.operation, req);
        if (projected.length !== items.length)
          problems.push(`${projected.length} item(s) with ProjectionExpression, ${items.length} without`);
      }
      report(what, problems);
    } catch (e) {
      report(what, [`${e.name}: ${e.message}`]);
    }
  }
  // Writes after every read, in the design's order.
  for (const r of runnable.filter((x) => WRITES.has(x.operation))) {
    let entity = '';
    const problems = [];
    try {
      entity = await write(client, m, v.entity_of, r, keys);
      problems.push(...writeProblems(r, entity));
    } catch (e) {
      problems.push(e.message);
    }
    found.push(`${r.func}\t${entity}\n`);
    report(`TypeScript ${r.func} (${r.operation}) leaves ${entity || 'no item'}`, problems);
  }
}

async function runGo(endpoint, dir, runnable, strict, found) {
  // Asynchronously: dynalite answers the engine from this process.
  const { stdout: out } = await promisify(execFile)(`${dir}/ge`,
    [endpoint, `${dir}/vectors.json`, `${dir}/tables.json`, ...runnable.map((r) => r.func)],
    { encoding: 'utf8' });
  const lines = new Map(out.split('\n').filter(Boolean).map((l) => l.split('\t')));
  // Reads, then writes, as runTs (and the engine) take them.
  const ordered = [...runnable.filter((x) => !WRITES.has(x.operation)),
    ...runnable.filter((x) => WRITES.has(x.operation))];
  for (const r of ordered) {
    const line = lines.get(r.func);
    if (WRITES.has(r.operation)) {
      const entity = line ?? '';
      const problems = line === undefined ? ['no answer'] : entity.startsWith('FAIL: ') ? [entity.slice(6)]
        : writeProblems(r, entity);
      found.push(`${r.func}\t${entity}\n`);
      report(`Go ${r.func} (${r.operation}) leaves ${entity || 'no item'}`, problems);
      continue;
    }
    const got = new Set(line ? line.split(',').filter(Boolean) : []);
    found.push(`${r.func}\t${[...got].sort().join(',')}\n`);
    report(`Go ${r.func} returns ${JSON.stringify(r.entities)}`,
      line === undefined ? ['no answer'] : entitiesProblems(got, r.entities, strict));
  }
}

async function runDesign(client, endpoint, dir) {
  const v = readJson(`${dir}/vectors.json`);
  const model = readJson(`${dir}/model.json`);
  const strict = existsSync(`${dir}/sample`);
  const missing = new Set();
  const tables = readJson(`${dir}/tables.json`).map((req) => {
    const copy = { ...req };
    const gsis = (req.GlobalSecondaryIndexes || []).filter((ix) => {
      if (!isMultiAttribute(ix)) return true;
      missing.add(`${req.TableName}/${ix.IndexName}`);
      return false;
    });
    delete copy.GlobalSecondaryIndexes;
    if (gsis.length) copy.GlobalSecondaryIndexes = gsis;
    const keys = new Set(copy.KeySchema.map((k) => k.AttributeName));
    for (const ix of [...gsis, ...(copy.LocalSecondaryIndexes || [])])
      for (const k of ix.KeySchema) keys.add(k.AttributeName);
    copy.AttributeDefinitions = req.AttributeDefinitions.filter((d) => keys.has(d.AttributeName));
    return copy;
  });
  const keys = Object.fromEntries(tables.map((t) => [t.TableName, t.KeySchema.map((k) => k.AttributeName)]));
  const runnable = v.requests.filter((r) => !(r.input.IndexName &&
    missing.has(`${r.input.TableName}/${r.input.IndexName}`)));
  const rest = v.requests.filter((r) => !runnable.includes(r));
  if (!moto)
    for (const r of rest) console.log(`skip - ${dir}: ${r.pattern}: dynalite has no multi-attribute GSI keys`);
  // Each language on tables of its own: the writes change them.
  const found = { ts: [], go: [] };
  await setUp(client, tables, model);
  try {
    await runTs(client, dir, v, runnable, strict, keys, found.ts);
  } finally {
    await tearDown(client, tables);
  }
  // The rest on moto, which has multi-attribute GSI keys: every table whole.
  const allTables = readJson(`${dir}/tables.json`);
  if (rest.length && moto) {
    await setUp(moto.client, allTables, model);
    try {
      await runTs(moto.client, dir, v, rest, strict, keys, found.ts);
    } finally {
      await tearDown(moto.client, allTables);
    }
  }
  writeFileSync(`${dir}/ts.entities`, found.ts.join(''));
  if (!existsSync(`${dir}/ge`)) return;
  await setUp(client, tables, model);
  try {
    await runGo(endpoint, dir, runnable, strict, found.go);
  } finally {
    await tearDown(client, tables);
  }
  if (rest.length && moto) {
    await setUp(moto.client, allTables, model);
    try {
      await runGo(moto.endpoint, dir, rest, strict, found.go);
    } finally {
      await tearDown(moto.client, allTables);
    }
  }
  writeFileSync(`${dir}/go.entities`, found.go.join(''));
}

const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', resolve);
});
const endpoint = `http://127.0.0.1:${server.address().port}`;
const client = new DynamoDBClient({
  endpoint, region: 'us-east-1', maxAttempts: 1,
  credentials: { accessKeyId: 'ddbc', secretAccessKey: 'ddbc' },
});
// moto's server (DDBC_MOTO_ENDPOINT, started by tests/keys.test), when
// there is one, for the patterns dynalite cannot run.
const motoEndpoint = process.env.DDBC_MOTO_ENDPOINT;
const moto = motoEndpoint ? {
  endpoint: motoEndpoint,
  client: new DynamoDBClient({
    endpoint: motoEndpoint, region: 'us-east-1', maxAttempts: 1,
    credentials: { accessKeyId: 'ddbc', secretAccessKey: 'ddbc' },
  }),
} : null;
try {
  for (const dir of process.argv.slice(2)) await runDesign(client, endpoint, dir);
} catch (e) {
  failed++;
  console.log(`FAIL - dynalite: ${e.name}: ${e.message}`);
} finally {
  client.destroy();
  if (moto) moto.client.destroy();
  await new Promise((resolve) => server.close(resolve));
}
process.exit(failed ? 1 : 0);
