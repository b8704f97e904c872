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
// What dynalite does not model is skipped, saying why: GSI and LSI write
// units (dynalite reports the table's only), the table fetches of an LSI
// query (dynalite fetches only for Select ALL_ATTRIBUTES), indexes with
// multi-attribute keys (dynalite cannot create them).
// Prints one line per check and "N passed, N failed, N skipped"; exits 1
// when a check failed.

import { readFileSync } from 'node:fs';
import dynalite from 'dynalite';
import { toAttr, fromCliJson, localTables, parseExact } from './values.mjs';
import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, QueryCommand,
  ScanCommand, UpdateItemCommand, DeleteItemCommand,
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
  for (const req of tables) await client.send(new CreateTableCommand(req));
  for (const t of model.tables) {
    for (const Item of exampleItems(exact, t.name))
      await client.send(new PutItemCommand({ TableName: rename(t.name), Item }));
  }
  const byId = new Map(cost.patterns.map((p) => [p.pattern, p]));
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
    try {
      if (!isRead)
        for (const Item of exampleItems(exact, q.input.TableName))
          await client.send(new PutItemCommand({ TableName: input.TableName, Item }));
      if (q.operation === 'PutItem') {
        // ddbc counts a put as writing a new item: the key is free first.
        const req = tables.find((r) => r.TableName === input.TableName);
        const Key = Object.fromEntries(req.KeySchema.map((k) => [k.AttributeName, input.Item[k.AttributeName]]));
        await client.send(new DeleteItemCommand({ TableName: input.TableName, Key }));
      }
      const out = await client.send(new COMMANDS[q.operation](input));
      const ours = { table: units.table, index: index ? units.indexes[index] : 0 };
      const skipTable = c.fetches_from_table;
      if (skipTable) say('skipped', `${what} (table fetches)`, 'dynalite fetches from the table only for Select ALL_ATTRIBUTES');
      if (!isRead && Object.values(units.indexes).some((u) => u > 0))
        say('skipped', `${what} (index writes)`, 'dynalite reports no index write units');
      compare(what, ours, consumed(out, index), !isRead, skipTable);
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
