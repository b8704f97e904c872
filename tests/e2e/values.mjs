// values.mjs - example values as DynamoDB's AttributeValues, for the
// end-to-end scripts (dynalite.mjs, cost_dynalite.mjs), and the tables as
// dynalite can hold them

// A JSON number as written: JSON.parse would make a double of it, which
// keeps 17 of a DynamoDB Number's 38 digits (and rounds
// 9.9999999999999999999999999999999999999E+125 up past DynamoDB's range).
export class Exact {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

// JSON.parse with every number an Exact: each number token is made a
// string behind a mark first, and a string that starts with the mark gets
// it twice (a mark once is a number, twice a string), as check-items does.
export function parseExact(text) {
  const mark = '\\u0001\\u0002';
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (tok) => {
    if (tok[0] !== '"') return `"${mark}${tok}"`;
    return tok.startsWith(`"${mark}`) ? `"${mark}${tok.slice(1)}` : tok;
  });
  return JSON.parse(marked, (key, v) => {
    if (typeof v !== 'string' || !v.startsWith('\u0001\u0002')) return v;
    const rest = v.slice(2);
    return rest.startsWith('\u0001\u0002') ? rest : new Exact(rest);
  });
}

// A Number's value as one text, whatever its spelling: DynamoDB (and
// dynalite) hand a Number back in their own form (6.02E+23 comes back as
// 602000000000000000000000, 1.10 as 1.1), so items compare by value.
export function numberKey(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(String(text).trim());
  if (!m) return String(text);
  let digits = (m[2] || '') + (m[3] || '');
  let exp = Number(m[4] || 0) + (m[2] || '').length;  // the point's place after digits[0..]
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  exp -= lead;
  digits = digits.replace(/0+$/, '');
  if (!digits) return '0';
  return `${m[1] === '-' ? '-' : ''}0.${digits}e${exp}`;
}

// An example value (plain JSON) as an AttributeValue of the attribute's type.
export function toAttr(value, type) {
  if (value instanceof Exact && !['S', 'N', 'B'].includes(type)) return { N: value.text };
  switch (type) {
    case 'S': return { S: String(value) };
    case 'N': return { N: String(value) };
    case 'B': return { B: Buffer.from(String(value), 'base64') };
    case 'BOOL': return { BOOL: Boolean(value) };
    case 'NULL': return { NULL: true };
    case 'SS': return { SS: value.map(String) };
    case 'NS': return { NS: value.map(String) };
    case 'BS': return { BS: value.map((v) => Buffer.from(String(v), 'base64')) };
    default: break;
  }
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map((v) => toAttr(v)) };
  return { M: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAttr(v)])) };
}

// The CLI's JSON (B as base64 text) as the SDK takes it (B as bytes).
export function fromCliJson(value) {
  if (Array.isArray(value)) return value.map(fromCliJson);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'B' && typeof v === 'string') out[k] = Buffer.from(v, 'base64');
    else if (k === 'BS' && Array.isArray(v)) out[k] = v.map((s) => Buffer.from(s, 'base64'));
    else out[k] = fromCliJson(v);
  }
  return out;
}

// Whether an index's key has several partition or several sort attributes.
export function isMultiAttribute(index) {
  const hash = index.KeySchema.filter((k) => k.KeyType === 'HASH').length;
  return hash > 1 || index.KeySchema.length - hash > 1;
}

// The tables as dynalite can hold them: without multi-attribute GSIs (all of
// them on a server that has them: everything).
export function localTables(createTables, complete) {
  const missing = new Map();
  if (complete) return { requests: createTables, missing };
  const requests = createTables.map((req) => {
    const gsis = (req.GlobalSecondaryIndexes || []).filter((ix) => {
      if (!isMultiAttribute(ix)) return true;
      missing.set(`${req.TableName}/${ix.IndexName}`, true);
      return false;
    });
    const copy = { ...req };
    delete copy.GlobalSecondaryIndexes;
    if (gsis.length) copy.GlobalSecondaryIndexes = gsis;
    const keys = new Set(copy.KeySchema.map((k) => k.AttributeName));
    for (const ix of [...gsis, ...(copy.LocalSecondaryIndexes || [])])
      for (const k of ix.KeySchema) keys.add(k.AttributeName);
    copy.AttributeDefinitions = req.AttributeDefinitions.filter((d) => keys.has(d.AttributeName));
    return copy;
  });
  return { requests, missing };
}
