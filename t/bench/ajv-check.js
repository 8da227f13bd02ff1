'use strict';
// ajv-check.js [--lines] SCHEMA FILE: the JavaScript reference of the
// jsonresp-check benchmark. It compiles SCHEMA once with ajv 8 (allErrors,
// as jsonresp-check reports every error; strict off), with the class of
// the dialect its $schema names: Ajv2020 (ajv/dist/2020) for 2020-12,
// Ajv2019 for 2019-09, else Ajv (Draft-07). It validates FILE: one JSON
// document, or with --lines every non-blank line (JSON.parse and validate
// each). Prints each invalid document's errors on stderr; exits 0 when
// all are valid, 1 when one is not, 2 on a usage error or a schema ajv
// refuses, 3 when FILE cannot be read. ajv comes from the usual require()
// path: run it with NODE_PATH=DIR/node_modules after
// `npm install --prefix DIR ajv@8`.
const fs = require('fs');

let args = process.argv.slice(2);
let lines = false;
if (args[0] === '--lines') {
  lines = true;
  args = args.slice(1);
}
if (args.length !== 2) {
  process.stderr.write('usage: ajv-check.js [--lines] SCHEMA FILE\n');
  process.exit(2);
}
let schema;
try {
  schema = JSON.parse(fs.readFileSync(args[0], 'utf8'));
} catch (e) {
  process.stderr.write('ajv-check.js: ' + args[0] + ': ' + e.message + '\n');
  process.exit(2);
}
const dialects = {
  'https://json-schema.org/draft/2020-12/schema': 'ajv/dist/2020',
  'https://json-schema.org/draft/2019-09/schema': 'ajv/dist/2019'
};
let Ajv;
try {
  Ajv = require(dialects[schema.$schema] || 'ajv');
} catch (e) {
  process.stderr.write('ajv-check.js: cannot load ajv (npm install ajv@8): ' +
    e.message + '\n');
  process.exit(2);
}
let validate;
try {
  validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
} catch (e) {
  process.stderr.write('ajv-check.js: ' + args[0] + ': ' + e.message + '\n');
  process.exit(2);
}
let text;
try {
  text = fs.readFileSync(args[1], 'utf8');
} catch (e) {
  process.stderr.write('ajv-check.js: ' + e.message + '\n');
  process.exit(3);
}

let status = 0;
function check(doc, where) {
  let v;
  try {
    v = JSON.parse(doc);
  } catch (e) {
    process.stderr.write(where + ': ' + e.message + '\n');
    status = 1;
    return;
  }
  if (!validate(v)) {
    for (const e of validate.errors)
      process.stderr.write(where + ': ' + e.instancePath + ': ' + e.message +
        '\n');
    status = 1;
  }
}
if (lines) {
  const all = text.split('\n');
  for (let i = 0; i < all.length; i++)
    if (all[i].trim() !== '')
      check(all[i], args[1] + ':' + (i + 1));
} else {
  check(text, args[1]);
}
process.exitCode = status;
