// t/oracle/jsts.js: runs the JSON-Schema-Test-Suite's cases of a draft
// through jsonresp-check, one process per test group: the group's schema
// with --schema (and --draft DRAFT when given), its data as JSON lines with --lines and --errors=json,
// the suite's remotes mapped to http://localhost:1234/ with --ref-map, and the
// flags of $JSTS_FLAGS (words split on white space, such as --assert-format).
// With $JSTS_SCHEMA set (a "$schema" URI), each group's schema that is an
// object without "$schema" is given that one, as people write schemas, and
// DRAFT is best left out: the dialect then comes from the schema alone.
// A case passes when jsonresp-check's verdict on its line is the suite's.
// Prints one line per failing case and "N passed, N failed"; exits 1 when
// a case failed or none ran.
//
// usage: node t/oracle/jsts.js SUITE-DIR [GLOB-DIR [DRAFT]]
//   SUITE-DIR  the suite's top (holding tests/ and remotes/)
//   GLOB-DIR   the directory of case files, default tests/draft7
//   DRAFT      jsonresp-check's --draft for the schemas without $schema:
//              4, 6, 7, 2019-09 or 2020-12
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const suite = process.argv[2];
const dir = process.argv[3] || path.join(suite, 'tests', 'draft7');
const draft = process.argv[4] ? ['--draft', process.argv[4]] : [];
const flags = (process.env.JSTS_FLAGS || '').split(/\s+/).filter((f) => f !== '');
const tool = process.env.JSONRESP_CHECK || 'jsonresp-check';
const remotes = path.join(suite, 'remotes') + '/';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jsts-'));
let passed = 0, failed = 0;

for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
  const groups = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  groups.forEach((g, gi) => {
    const schema = path.join(tmp, 'schema.json');
    const data = path.join(tmp, 'data.jsonl');
    let s = g.schema;
    if (process.env.JSTS_SCHEMA && s !== null && typeof s === 'object' &&
        !Array.isArray(s) && !('$schema' in s))
      s = { $schema: process.env.JSTS_SCHEMA, ...s };
    fs.writeFileSync(schema, JSON.stringify(s));
    fs.writeFileSync(data, g.tests.map((t) => JSON.stringify(t.data)).join('\n') + '\n');
    const r = spawnSync(tool, [...draft, ...flags, '--schema', schema, '--lines', '--errors=json',
      '--ref-map', 'http://localhost:1234/=' + remotes, data], { encoding: 'utf8' });
    const bad = new Set();
    let trouble = r.status !== 0 && r.status !== 1;
    for (const line of r.stderr.split('\n').filter((l) => l !== '')) {
      try {
        const e = JSON.parse(line);
        if (e.severity === 'error') bad.add(e.line);
      } catch (x) {
        trouble = true;
      }
    }
    g.tests.forEach((t, ti) => {
      const valid = !bad.has(ti + 1);
      if (!trouble && valid === t.valid) {
        passed++;
        return;
      }
      failed++;
      console.log(`not ok ${file} [${gi}] ${g.description} / ${t.description}: ` +
        (trouble ? `status ${r.status}: ${r.stderr.split('\n')[0]}` :
          `expected ${t.valid ? 'valid' : 'invalid'}`));
    });
  });
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
