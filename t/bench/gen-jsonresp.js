'use strict';
// gen-jsonresp.js DIR FILES LINES BYTES [SEED]: writes valid responses of
// seed 002's schema (data/llm-response.schema.json, and its rules: unique
// field ids, options for radio, checkbox and select fields, min below max
// for scales), each of about BYTES bytes, made deterministically from SEED
// (same arguments, same bytes), for the jsonresp-check benchmark:
//   DIR/r00000.json ... FILES of them, indented as a model writes them
//   DIR/lines.jsonl     LINES of them as JSON lines (the first FILES are
//                       those of the files, compact)
// danger_level is always null: every response must get status 0 and no
// diagnostic. Text holds markdown, quotes, backslashes, newlines, tabs,
// unicode and \u escapes, as a model's text does.
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
if (args.length < 4) {
  process.stderr.write('usage: gen-jsonresp.js DIR FILES LINES BYTES [SEED]\n');
  process.exit(2);
}
const [dir, filesArg, linesArg, bytesArg, seedArg] = args;
const nfiles = Number(filesArg);
const nlines = Number(linesArg);
const target = Number(bytesArg);
const rand = require('./xorshift')(seedArg);

function pick(a) {
  return a[rand(a.length)];
}

const words = ['savings', 'plan', 'college', 'tuition', 'tax', 'budget',
  'interest', 'growth', 'fund', 'account', 'family', 'children', 'costs',
  'école', 'résumé', 'naïve', '学费', 'Ünïcödé', 'ratio', 'annual', 'week',
  'sleep', 'mood', 'stress', 'goal', 'habit', 'progress', 'ça', 'größe'];
const extras = [' "quoted"', ' C:\\path\\to', ' 5 < 7 > 3 & 2', ' 😀',
  '\n\n- item one\n- item two', '\tindented', ' **bold** and _italic_',
  ' `code()`', ' — em dash', ' \u00a0nbsp', ' 日本語'];

function sentence() {
  const n = 5 + rand(12);
  const w = [];
  for (let i = 0; i < n; i++) w.push(pick(words));
  let s = w.join(' ');
  s = s[0].toUpperCase() + s.slice(1);
  if (rand(3) === 0) s += pick(extras);
  return s + '.';
}
function paragraph() {
  const n = 1 + rand(4);
  const s = [];
  for (let i = 0; i < n; i++) s.push(sentence());
  return s.join(' ');
}

const blockTypes = ['text', 'heading', 'info', 'warning', 'error', 'success',
  'code'];
const styles = ['default', 'bold', 'italic', 'code', 'quote'];
function textBlock() {
  const type = rand(3) === 0 ? pick(blockTypes) : 'text';
  const b = { type, content: type === 'heading' ? sentence() :
    type === 'code' ? 'const x = "a\\tb";\nif (x) {\n\treturn 1;\n}' :
    paragraph() };
  if (rand(3) === 0) b.style = pick(styles);
  return b;
}

const fieldTypes = ['radio', 'checkbox', 'select', 'text', 'textarea',
  'number', 'scale'];
function field(i) {
  const type = pick(fieldTypes);
  const f = { id: 'q' + i + '_' + pick(words).replace(/[^a-z]/g, 'x'), type,
    label: sentence() };
  if (rand(2)) f.required = rand(2) === 0;
  if (type === 'radio' || type === 'checkbox' || type === 'select') {
    f.options = [];
    const n = 2 + rand(4);
    for (let k = 0; k < n; k++)
      f.options.push({ value: 'v' + k, label: pick(words) + ' ' + k });
  } else if (type === 'scale') {
    f.min = rand(2);
    f.max = 5 + rand(6);
  } else if (type === 'number') {
    if (rand(2)) { f.min = -rand(100); f.max = rand(1000) + 0.5; }
    f.placeholder = 'e.g. ' + rand(100);
  } else {
    f.placeholder = sentence();
  }
  if (rand(3) === 0) f.helpText = sentence();
  return f;
}
function form() {
  const n = 1 + rand(4);
  const fields = [];
  for (let i = 0; i < n; i++) fields.push(field(i));
  const f = { title: sentence(), fields };
  if (rand(2)) f.description = paragraph();
  if (rand(2)) f.submit_label = 'Send';
  return f;
}

const concerns = ['suicide', 'self_harm', 'harm_others', 'violence',
  'sexual_abuse', 'substance_abuse', 'eating_disorder', 'domestic_violence',
  'child_safety', 'terrorism'];
function response() {
  const r = {
    type: 'response',
    safety: {
      is_safe: true,
      danger_level: null,
      detected_concerns: rand(8) === 0 ? [pick(concerns)] : [],
      requires_intervention: false
    },
    content: { text_blocks: [textBlock()] }
  };
  if (rand(2)) r.safety.safety_message = null;
  const c = r.content;
  const roll = rand(4);
  if (roll === 0) c.form = form();
  else if (roll === 1) c.form = null;
  if (rand(4) === 0)
    c.media = [{ type: pick(['image', 'video', 'audio']),
      url: 'https://example.com/m/' + rand(1e6) + '.bin',
      alt: sentence(), caption: sentence() }];
  if (rand(2)) {
    c.suggestions = [];
    const n = 1 + rand(4);
    for (let i = 0; i < n; i++) {
      const s = { text: pick(words) + ' ' + pick(words) };
      if (rand(2)) s.value = sentence();
      c.suggestions.push(s);
    }
  }
  const p = rand(3);
  if (p === 0) r.progress = null;
  else if (p === 1)
    r.progress = { percentage: rand(101), current_topic: pick(words),
      topics_covered: [pick(words), pick(words)],
      topics_remaining: [pick(words)], milestones_reached: [] };
  r.metadata = { model: pick(['gpt-4o', 'claude-3-5-sonnet', 'llama-3.1-70b']),
    tokens_used: 100 + rand(4000), confidence: rand(1001) / 1000,
    language: pick(['en', 'de', 'fr', 'ja']) };
  // grow the text to about the target size, then place the form etc.
  while (Buffer.byteLength(JSON.stringify(r)) < target - 150)
    c.text_blocks.push(textBlock());
  return r;
}

fs.mkdirSync(dir, { recursive: true });
const out = fs.openSync(path.join(dir, 'lines.jsonl'), 'w');
let chunk = [];
for (let i = 0; i < Math.max(nfiles, nlines); i++) {
  const r = response();
  if (i < nfiles) {
    const name = 'r' + String(i).padStart(5, '0') + '.json';
    fs.writeFileSync(path.join(dir, name), JSON.stringify(r, null, 2) + '\n');
  }
  if (i < nlines) {
    chunk.push(JSON.stringify(r));
    if (chunk.length === 1000) {
      fs.writeSync(out, chunk.join('\n') + '\n');
      chunk = [];
    }
  }
}
if (chunk.length > 0) fs.writeSync(out, chunk.join('\n') + '\n');
fs.closeSync(out);
