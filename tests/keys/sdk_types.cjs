// sdk_types.cjs - a TypeScript file that hands every request of a module to the SDK
//
// usage: node sdk_types.cjs vectors.json MODULE > sdk.ts
//
// Each pattern's request function, called with its example arguments,
// goes to the @aws-sdk/client-dynamodb command of its operation: `tsc
// --strict` then proves that the module's requests are what the SDK's
// QueryCommandInput, GetItemCommandInput, ScanCommandInput, PutItemCommandInput,
// UpdateItemCommandInput and DeleteItemCommandInput take, as they are.
'use strict';
const fs = require('node:fs');

const [vecPath, mod] = process.argv.slice(2);
const v = JSON.parse(fs.readFileSync(vecPath, 'utf8'));
const command = {
  Query: 'QueryCommand', GetItem: 'GetItemCommand', Scan: 'ScanCommand', PutItem: 'PutItemCommand',
  UpdateItem: 'UpdateItemCommand', DeleteItem: 'DeleteItemCommand',
};
const lines = [
  'import { QueryCommand, GetItemCommand, ScanCommand, PutItemCommand, UpdateItemCommand,',
  '  DeleteItemCommand } from "@aws-sdk/client-dynamodb";',
  `import * as m from ${JSON.stringify(`./${mod}`)};`,
  'export const commands = [',
];
for (const r of v.requests) {
  // A Number as its decimal text (the exact type every module takes).
  const args = r.args.map((a) => (a.bool ? a.value : JSON.stringify(a.value)));
  // A PutItem's item as the SDK holds one (a Binary as bytes).
  if (r.item) {
    args.unshift(`{${Object.entries(r.item).map(([k, x]) => `${JSON.stringify(k)}: ${x.B === undefined
      ? JSON.stringify(x) : `{ B: new Uint8Array(${JSON.stringify([...Buffer.from(x.B, 'base64')])}) }`}`).join(', ')}}`);
  }
  lines.push(`    new ${command[r.operation]}(m.${r.func}(${args.join(', ')})),`);
}
lines.push('];');
process.stdout.write(`${lines.join('\n')}\n`);
