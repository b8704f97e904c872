// validate.mjs - checks SARIF files against the members SARIF 2.1.0 requires
// (sarif-2.1.0-required.schema.json), and that every help link is https.
// usage: node validate.mjs FILE...   (exit 1 with the errors on a mismatch)
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(readFileSync(join(here, 'sarif-2.1.0-required.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, validateFormats: false });
const validate = ajv.compile(schema);
let bad = 0;
for (const file of process.argv.slice(2)) {
  const log = JSON.parse(readFileSync(file, 'utf8'));
  if (!validate(log)) {
    console.log(`${file}: ${ajv.errorsText(validate.errors)}`);
    bad = 1;
  }
  for (const run of log.runs ?? []) {
    const driver = run.tool?.driver ?? {};
    for (const uri of [driver.informationUri, ...(driver.rules ?? []).map((r) => r.helpUri)]) {
      if (uri !== undefined && !/^https:\/\//.test(uri)) {
        console.log(`${file}: help link '${uri}' is not https`);
        bad = 1;
      }
    }
    if (!Array.isArray(run.invocations) || run.invocations.length !== 1) {
      console.log(`${file}: a run must have its one invocation`);
      bad = 1;
    }
  }
}
process.exit(bad);
