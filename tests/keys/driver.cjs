// driver.cjs - the conformance vectors run with a TypeScript module (compiled by tsc)
//
// usage: node driver.cjs MODULE.js vectors.json VECTORS.out REQUESTS.out
//
// Writes one line per vector, in the order of their ids (tests/keys/vectors.c
// says which), and the request of every pattern for its example
// arguments as one JSON object { func: request }; "G id HEX" is the entity the
// module's entity_of names for a guard vector ("-": none).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [modPath, vecPath, outPath, reqPath] = process.argv.slice(2);
const m = require(path.resolve(modPath));
const v = JSON.parse(fs.readFileSync(vecPath, 'utf8'));
const hex = (s) => Buffer.from(s, 'utf8').toString('hex');
const lines = [];
// A condition's BOOL value comes as "true" or "false"; a Number as its
// decimal text, which the module takes as it is.
const arg = (value, number, bool) => (bool ? value === 'true' : value);
const build = (k, args) => {
  try {
    return hex(m[k.builder](...args));
  } catch (e) {
    if (!(e instanceof m.KeyBuildError)) throw e;
    return 'refused';
  }
};
// A whole Number's other spellings: a bigint, and a number where it is
// exact; each must build what its text builds.
const whole = /^(0|-?[1-9][0-9]*)$/;
const natives = (x) => (whole.test(x) ? [BigInt(x)].concat(Number.isSafeInteger(Number(x)) ? [Number(x)] : []) : []);

for (const k of v.keys) {
  for (const b of k.build) {
    const args = b.values.map((x, i) => arg(x, k.params[i].number));
    const key = build(k, args);
    k.params.forEach((q, i) => {
      if (!q.number) return;
      for (const n of natives(args[i])) {
        const got = build(k, args.map((a, j) => (j === i ? n : a)));
        if (got !== key) lines.push([b.id, `B ${b.id} ${typeof n} ${n} builds ${got}, its text ${key}`]);
      }
    });
    lines.push([b.id, `B ${b.id} ${key}`]);
  }
  for (const p of k.parse) {
    const r = m[k.parser](p.key);
    const parts = r === null ? ' refused'
      : k.params.map((q) => (q.number ? ` n:${r[q.name]}` : ` t:${hex(r[q.name])}`)).join('');
    lines.push([p.id, `P ${p.id}${parts}`]);
  }
}
// A guard's item with its Binary values, at any depth, as the SDK returns
// them (Uint8Array).
const bytes = (b) => new Uint8Array(Buffer.from(b, 'base64'));
const nativeValue = (x) => (x.B !== undefined ? { B: bytes(x.B) }
  : x.BS !== undefined ? { BS: x.BS.map(bytes) }
    : x.L !== undefined ? { L: x.L.map(nativeValue) }
      : x.M !== undefined ? { M: native(x.M) } : x);
const native = (item) => Object.fromEntries(Object.entries(item).map(([k, x]) => [k,
  nativeValue(x)]));
for (const g of v.guards) {
  const name = m[v.entity_of](g.bytes ? native(g.item) : g.item);
  lines.push([g.id, `G ${g.id} ${name === null ? '-' : hex(name)}`]);
}
lines.sort((a, b) => a[0] - b[0]);
fs.writeFileSync(outPath, lines.map((l) => `${l[1]}\n`).join(''));
const requests = {};
for (const r of v.requests) {
  const args = r.args.map((a) => arg(a.value, a.number, a.bool));
  requests[r.func] = r.item ? m[r.func](r.item, ...args) : m[r.func](...args);
}
// Bytes (a Binary the SDK takes) as the export writes them: base64.
fs.writeFileSync(reqPath, JSON.stringify(requests,
  (k, x) => (x instanceof Uint8Array ? Buffer.from(x).toString('base64') : x)));
