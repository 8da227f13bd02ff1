'use strict';
// gen-queries.js SEED COUNT DIR: random queries for the llmq-encode |
// llmr-validate round trip. For case N it writes DIR/N.args (the
// llmq-encode arguments, NUL-separated), DIR/N.json (what llmr-validate
// -o json must print: the same fields, in the order the tool writes them)
// and appends the query's JSON line form to DIR/batch.jsonl.
const fs = require('fs');
const path = require('path');

const [seedArg, countArg, dir] = process.argv.slice(2);
let state = (Number(seedArg) >>> 0) || 1;
function rand(n) {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
}
// Pieces that stress the XML writer and reader: the five specials,
// entity look-alikes, a CDATA end, white space of every kind XML keeps or
// normalizes, and characters of 2, 3 and 4 bytes.
const pieces = ['a', 'word', ' ', '  ', '\n', '\r\n', '\r', '\t', '&', '<', '>',
  '"', "'", '&amp;', '&#10;', ']]>', '<![CDATA[x]]>', '<tag/>', 'é', '€',
  '学', '😀', '\u00a0', '\u2028', '\u007f', '\u0085', '-->', '?>', '\ufffd'];
function text(min, max) {
  const n = min + rand(max - min + 1);
  let s = '';
  for (let i = 0; i < n; i++) s += pieces[rand(pieces.length)];
  return s;
}
// A list item: no comma, not blank, no white space around it.
function item() {
  let s;
  do s = text(1, 4).replace(/,/g, ';').trim(); while (s === '');
  return s;
}
function list(max) {
  const a = [];
  for (let n = rand(max + 1); n > 0; n--) a.push(item());
  return a;
}
fs.mkdirSync(dir, { recursive: true });
const batch = [];
for (let c = 0; c < Number(countArg); c++) {
  let message;
  do message = text(1, 12); while (message.trim() === '');
  const topic = item();
  const count = rand(3) === 0 ? rand(1e6) : rand(100);
  const subjects = list(5);
  const keywords = list(8);
  const args = ['-t', topic, '-n', String(count)];
  for (const s of subjects) args.push('-s', s);
  for (const k of keywords) args.push('-k', k);
  args.push('--', message);
  fs.writeFileSync(path.join(dir, `${c}.args`), args.join('\0') + '\0');
  const expected = { userMessage: message, topicId: topic, messageCount: count,
    activeSubjects: subjects, recentKeywords: keywords };
  fs.writeFileSync(path.join(dir, `${c}.json`), JSON.stringify(expected) + '\n');
  batch.push(JSON.stringify({ userMessage: message, context: { topicId: topic,
    messageCount: count, activeSubjects: subjects, recentKeywords: keywords } }));
}
fs.writeFileSync(path.join(dir, 'batch.jsonl'), batch.join('\n') + '\n');
