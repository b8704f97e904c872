// tables.mjs - create and delete tables on an engine and wait until it has
// done so, for the end-to-end scripts (dynalite.mjs, cost_dynalite.mjs).
//
// CreateTable answers while the table is CREATING; dynalite makes it ACTIVE
// on a timer after its answer (even with createTableMs: 0), and a PutItem
// that reaches it first gets ResourceNotFoundException. DeleteTable is the
// same the other way. DynamoDB's own documentation says to wait for ACTIVE
// (DescribeTable) before using a new table; so do these.

import {
  CreateTableCommand, DeleteTableCommand, DescribeTableCommand,
} from '@aws-sdk/client-dynamodb';

const PAUSE_MS = 10;
const TRIES = 3000; // 30 s at most: a table that long in CREATING is an error

const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));

async function describe(client, name) {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (e) {
    if (e.name === 'ResourceNotFoundException') return null;
    throw e;
  }
}

function active(table) {
  return table && table.TableStatus === 'ACTIVE' &&
    (table.GlobalSecondaryIndexes || []).every((ix) => ix.IndexStatus === 'ACTIVE');
}

// Creates each table of the requests, then waits until every one is ACTIVE
// with every global secondary index.
export async function createTables(client, requests) {
  for (const req of requests) await client.send(new CreateTableCommand(req));
  for (const req of requests) {
    let n = 0;
    while (!active(await describe(client, req.TableName))) {
      if (++n === TRIES) throw new Error(`table ${req.TableName} is not ACTIVE after ${TRIES * PAUSE_MS} ms`);
      await pause();
    }
  }
}

// Deletes each table of the requests, then waits until none is left.
export async function dropTables(client, requests) {
  for (const req of requests) await client.send(new DeleteTableCommand({ TableName: req.TableName }));
  for (const req of requests) {
    let n = 0;
    while (await describe(client, req.TableName)) {
      if (++n === TRIES) throw new Error(`table ${req.TableName} is still there after ${TRIES * PAUSE_MS} ms`);
      await pause();
    }
  }
}
