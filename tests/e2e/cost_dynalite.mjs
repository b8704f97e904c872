// cost_dynalite.mjs - ddbc cost's units against the ConsumedCapacity of dynalite
//
// usage: node cost_dynalite.mjs DESIGN.yaml=PREFIX ...
//
// PREFIX.create-table.json, PREFIX.model.json, PREFIX.queries.json and
// PREFIX.cost.json are what `ddbc export` and `ddbc cost --format json`
// wrote. On dynalite (started here on 127.0.0.1, stopped at the end), with
// every example item put, each pattern's request is sent with
// ReturnConsumedCapacity INDEXES, and the units dynalite reports for the
// table and the index must equal ddbc's exactly. Reads first, on the
// example items; then each write on the example items put again.
// dynalite reports the table's write units only, so each write's units on
// every GSI and LSI of its table are held to the engine's own index
// entries: each index is scanned before and after the write (a Scan of an
// index returns the entries as the engine projected them: its sparse
// membership and its projection), each entry the write put or deleted is
// sized and rounded to write units by dynalite's own functions (itemSize,
// capacityUnits of its db/index.js), and DynamoDB's documented rule for
// index writes ("Local secondary indexes", "Global secondary indexes":
// one write to put or delete an entry, two when the index key changes,
// none when the index holds the item neither before nor after) gives the
// units. The export's UpdateItem carries no UpdateExpression (the design
// does not say what an update changes), so for an update ddbc's stated
// assumption stands: the entry the index holds after it is rewritten.
// What dynalite does not model is skipped, saying why: the table fetches
// of an LSI query (dynalite fetches only for Select ALL_ATTRIBUTES, and
// then rounds the fetched items' sum once, where DynamoDB rounds each
// item), indexes with multi-attribute keys (dynalite cannot create them).
// Prints one line per check and "N passed, N failed, N skipped"; exits 1
// when a check failed.

import { readFileSync } from 'node:fs';
import dynalite from 'dynalite';
import engine from 'dynalite/db/index.js';
import { toAttr, fromCliJson, localTables, parseExact } from './values.mjs';
import { createTables } from './tables.mjs';
import {
  DynamoDBClient, PutItemCommand, GetItemCommand, QueryCommand,
  ScanCommand, UpdateItemCommand, DeleteItemCommand, DescribeTableCommand,
} from '@aws-sdk/client-dynamodb';

const counts = { passed: 0, failed: 0, skipped: 0 };
const say = (kind, what, why) => {
  counts[kind]++;
  console.log(`${kind === 'passed' ? 'ok' : kind === 'failed' ? 'FAIL' : 'skip'} - ${what}${why ? `: ${why}` : ''}`);
};

const COMMANDS = {
  GetItem: GetItemCommand, Query: QueryCommand, Scan: ScanCommand, PutItem: PutItemCommand,
  UpdateItem: UpdateItemCommand, DeleteItem: DeleteItemCommand,
};

function exampleItems(model, table) {
  const items = [];
  for (const entity of model.entities) {
    if (entity.table !== table) continue;
    const types = Object.fromEntries(entity.attributes.map((a) => [a.name, a.type]));
    const stored = new Set(entity.attributes.filter((a) => a.stored !== false).map((a) => a.name));
    for (const ex of entity.examples)
      items.push(Object.fromEntries(Object.entries(ex).filter(([k]) => stored.has(k) || !types[k])
        .map(([k, v]) => [k, toAttr(v, types[k])])));
  }
  return items;
}

// dynalite's units for the table and the index the request names.
function consumed(out, index) {
  const c = out.ConsumedCapacity || {};
  const ix = index && ((c.GlobalSecondaryIndexes || {})[index] || (c.LocalSecondaryIndexes || {})[index]);
  return { table: c.Table ? c.Table.CapacityUnits : 0, index: ix ? ix.CapacityUnits : 0 };
}

// An AttributeValue as the SDK returns it, as dynalite's wire JSON (B and
// BS as base64 text), which its itemSize reads.
function toWire(value) {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(toWire);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v)]));
}

// The write units of one index entry, by the engine's own functions.
const entryUnits = (entry) => engine.capacityUnits(toWire(entry), false, false);

// Every entry of each secondary index of table the engine holds, by the
// table key of its item.
async function indexEntries(client, table) {
  const desc = (await client.send(new DescribeTableCommand({ TableName: table }))).Table;
  const tableKeys = desc.KeySchema.map((k) => k.AttributeName);
  const keyOf = (item) => JSON.stringify(tableKeys.map((k) => toWire(item[k])));
  const out = new Map();
  for (const ix of [...(desc.GlobalSecondaryIndexes || []), ...(desc.LocalSecondaryIndexes || [])]) {
    const entries = new Map();
    let start;
    do {
      const page = await client.send(new ScanCommand({ TableName: table, IndexName: ix.IndexName, ExclusiveStartKey: start }));
      for (const item of page.Items || []) entries.set(keyOf(item), item);
      start = page.LastEvaluatedKey;
    } while (start);
    out.set(ix.IndexName, { keys: ix.KeySchema.map((k) => k.AttributeName), entries });
  }
  return { out, keyOf };
}

// DynamoDB's index write units of a write that turned entry old into new
// (undefined: none); an update rewrites the entry it leaves (ddbc's stated
// assumption: the request does not say what it changes).
function indexWriteUnits(old, now, keys, update) {
  if (!old && !now) return 0;
  if (!old) return entryUnits(now);
  if (!now) return entryUnits(old);
  const same = (a, b) => JSON.stringify(toWire(a)) === JSON.stringify(toWire(b));
  if (keys.some((k) => !same(old[k], now[k]))) return entryUnits(old) + entryUnits(now);
  if (update || !same(old, now)) return entryUnits(now);
  return 0;
}

// ddbc's write units on every index of the table against the engine's
// entries before and after the write.
function compareIndexWrites(what, ours, before, after, key, update, missing, table, sparse) {
  const problems = [];
  let checked = 0;
  for (const [name, { keys, entries }] of after.out) {
    // A sparse index holds a share of the entity's items: ddbc counts the
    // expected units of a write (the share times an entry's), the engine
    // those of the one item written, which has the keys or not.
    if (sparse.has(`${table}/${name}`)) {
      say('skipped', `${what} (index writes on ${name})`, 'a sparse index: ddbc counts the share of items that carry its keys, the engine one item');
      continue;
    }
    const theirs = indexWriteUnits(before.out.get(name).entries.get(key), entries.get(key), keys, update);
    const mine = ours[name] ?? 0;
    checked++;
    if (mine !== theirs) problems.push(`${name} ${mine}, engine entries ${theirs}`);
  }
  for (const name of Object.keys(ours))
    if (!after.out.has(name) && !missing.has(`${table}/${name}`)) problems.push(`${name}: no such index on the engine`);
  const label = `${what} (index writes on the engine's entries)`;
  if (problems.length) say('failed', label, problems.join('; '));
  else if (checked) say('passed', label, '');
}

// The pages of one use of a query or scan, from its first response: the
// units summed, the requests made, the items returned.
async function usePages(client, operation, input, first, index, want) {
  const units = { table: 0, index: 0 };
  let page = first, requests = 0, count = 0;
  for (;;) {
    const u = consumed(page, index);
    units.table += u.table;
    units.index += u.index;
    requests++;
    count += page.Count;
    if (!page.LastEvaluatedKey || count >= want) break;
    page = await client.send(new COMMANDS[operation]({ ...input, ExclusiveStartKey: page.LastEvaluatedKey }));
  }
  return { units, requests, count };
}

function compare(what, ours, theirs, skipIndex, skipTable) {
  const problems = [];
  if (!skipTable && ours.table !== theirs.table) problems.push(`table ${ours.table}, dynalite ${theirs.table}`);
  if (!skipIndex && ours.index !== theirs.index) problems.push(`index ${ours.index}, dynalite ${theirs.index}`);
  if (problems.length) say('failed', what, problems.join('; '));
  else say('passed', what, '');
}

async function runDesign(client, yaml, prefix, tableNo) {
  const name = yaml.replace(/^.*\//, '');
  const read = (s) => JSON.parse(readFileSync(`${prefix}.${s}.json`, 'utf8'));
  const model = read('model'), queries = read('queries'), cost = read('cost');
  // The example items with their Numbers as written (parseExact).
  const exact = parseExact(readFileSync(`${prefix}.model.json`, 'utf8'));
  // dynalite counts a String by its UTF-16 units, DynamoDB by its UTF-8
  // bytes: only ASCII example items compare (check_cost tests UTF-8).
  const text = JSON.stringify(model.entities.map((e) => e.examples));
  if (/[^\x00-\x7f]/.test(text)) { say('skipped', name, 'example items not in ASCII (dynalite counts UTF-16 units)'); return; }
  // Each design's tables get their own names, so designs do not meet.
  const rename = (t) => `${t}-${tableNo}`;
  const local = localTables(read('create-table'), false);
  const missing = local.missing;
  const tables = local.requests.map((r) => ({ ...r, TableName: rename(r.TableName) }));
  await createTables(client, tables);
  for (const t of model.tables) {
    for (const Item of exampleItems(exact, t.name))
      await client.send(new PutItemCommand({ TableName: rename(t.name), Item }));
  }
  const byId = new Map(cost.patterns.map((p) => [p.pattern, p]));
  // Indexes that hold only the items of an entity that have an optional key.
  const sparse = new Set(model.entities.flatMap((e) =>
    (e.sparse || []).map((s) => `${e.table || model.tables[0].name}/${s.index}`)));
  const ordered = [...queries.filter((q) => ['GetItem', 'Query', 'Scan'].includes(q.operation)),
    ...queries.filter((q) => !['GetItem', 'Query', 'Scan'].includes(q.operation))];
  for (const q of ordered) {
    const c = byId.get(q.pattern);
    const what = `${name}: ${q.pattern} (${q.operation}) units`;
    if (!c) { say('failed', what, 'ddbc cost has no such pattern'); continue; }
    const index = q.input.IndexName;
    if (index && missing.has(`${q.input.TableName}/${index}`)) { say('skipped', what, `index ${index} has a multi-attribute key`); continue; }
    const isRead = ['GetItem', 'Query', 'Scan'].includes(q.operation);
    const units = isRead ? c.read_units : c.write_units;
    if (units.table === null) { say('skipped', what, 'ddbc cannot tell (no example item)'); continue; }
    const input = { ...fromCliJson(q.input), TableName: rename(q.input.TableName), ReturnConsumedCapacity: 'INDEXES' };
    const req = tables.find((r) => r.TableName === input.TableName);
    try {
      if (!isRead)
        for (const Item of exampleItems(exact, q.input.TableName))
          await client.send(new PutItemCommand({ TableName: input.TableName, Item }));
      if (q.operation === 'PutItem') {
        // ddbc counts a put as writing a new item: the key is free first.
        const Key = Object.fromEntries(req.KeySchema.map((k) => [k.AttributeName, input.Item[k.AttributeName]]));
        await client.send(new DeleteItemCommand({ TableName: input.TableName, Key }));
      }
      // The write's item, by its table key, in every index before and after.
      const written = input.Key || input.Item;
      const before = isRead ? null : await indexEntries(client, input.TableName);
      const out = await client.send(new COMMANDS[q.operation](input));
      const ours = { table: units.table, index: index ? units.indexes[index] : 0 };
      const skipTable = c.fetches_from_table;
      if (skipTable) say('skipped', `${what} (table fetches)`, 'dynalite fetches from the table only for Select ALL_ATTRIBUTES, and rounds the sum of the items fetched once where DynamoDB rounds each (tests/fixtures/cost/lsi-fetch.ddb.yaml, check_cost)');
      if (!isRead) {
        const after = await indexEntries(client, input.TableName);
        const key = before.keyOf(Object.fromEntries(req.KeySchema.map((k) => [k.AttributeName, written[k.AttributeName]])));
        compareIndexWrites(what, units.indexes, before, after, key, q.operation === 'UpdateItem', missing, q.input.TableName, sparse);
      }
      let theirs = consumed(out, index);
      if (['Query', 'Scan'].includes(q.operation) && (input.Limit || c.requests > 1)) {
        // One use of a paged read: its pages, with the request's Limit,
        // until the items the pattern says it returns or the last page.
        const paged = await usePages(client, q.operation, input, out, index, c.items);
        if (paged.count > c.items) {
          say('failed', `${what} (pages)`, `${c.items} items, dynalite returned ${paged.count} (no Limit sent?)`);
          continue;
        }
        if (paged.count < c.items) {
          say('skipped', `${what} (pages)`, `it returns ${c.items} items (items:), the engine holds ${paged.count} of them`);
          continue;
        }
        if (paged.requests !== c.requests) {
          say('failed', `${what} (pages)`, `${c.requests} requests, dynalite ${paged.requests}`);
          continue;
        }
        say('passed', `${what} (requests: ${paged.requests}, Limit ${input.Limit ?? 'none'})`, '');
        theirs = paged.units;
      }
      if (q.operation === 'Query' && out.Count === 0 && c.items === 0) {
        // dynalite charges a query that returns nothing 0 units; DynamoDB's
        // API reference: "Queries that do not return results consume the
        // minimum number of read capacity units for that type of read
        // operation". The engine's empty result is what is checked here.
        const least = input.ConsistentRead ? 1 : 0.5;
        theirs = index ? { table: 0, index: least } : { table: least, index: 0 };
      }
      compare(what, ours, theirs, !isRead, skipTable);
    } catch (e) {
      say('failed', what, `${e.name}: ${e.message}`);
    }
  }
}

async function main() {
  const designs = process.argv.slice(2).map((a) => a.split('='));
  if (!designs.length || designs.some((d) => d.length !== 2)) {
    console.error('usage: node cost_dynalite.mjs DESIGN.yaml=PREFIX ...');
    process.exit(2);
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${server.address().port}`, region: 'us-east-1', maxAttempts: 1,
    credentials: { accessKeyId: 'ddbc', secretAccessKey: 'ddbc' },
  });
  try {
    let no = 0;
    for (const [yaml, prefix] of designs) await runDesign(client, yaml, prefix, no++);
  } finally {
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(counts.failed ? 1 : 0);
}

main();
