'use strict';
// gen-responses.js DIR COUNT BYTES [SEED]: writes COUNT valid <llmResponse>
// documents of about BYTES bytes each into DIR as r00000.xml, ..., made
// deterministically from SEED, for the llmr-validate benchmark. With
// COUNT 1 the file is DIR/one.xml.
const fs = require('fs');
const path = require('path');

const [dir, countArg, bytesArg, seedArg] = process.argv.slice(2);
const count = Number(countArg);
const target = Number(bytesArg);
const rand = require('./xorshift')(seedArg);
const words = ['savings', 'plan', 'college', 'tuition', 'tax', 'budget',
  'interest', 'growth', 'fund', 'account', 'family', 'children', 'costs',
  'école', 'résumé', 'naïve', '学费', 'Ünïcödé', 'ratio', 'annual'];
function sentence() {
  const n = 6 + rand(10);
  const w = [];
  for (let i = 0; i < n; i++) w.push(words[rand(words.length)]);
  let s = w.join(' ');
  s = s[0].toUpperCase() + s.slice(1);
  // some markup-significant characters, escaped as the contract asks
  if (rand(4) === 0) s += ' &amp; 5 &lt; 7 &gt; 3';
  return s + '.';
}
function doc() {
  let subjects = '';
  const nsub = 1 + rand(3);
  for (let i = 0; i < nsub; i++) {
    let kw = '';
    const nkw = 3 + rand(5);
    for (let k = 0; k < nkw; k++) {
      const c = (60 + rand(41)) / 100;
      kw += `      <keyword term="${words[rand(13)]}-${k}" confidence="${c.toFixed(2)}" />\n`;
    }
    subjects += `    <subject name="subject-${i}" description="${sentence()} ${sentence()}" isNew="${rand(2) ? 'true' : 'false'}">\n${kw}    </subject>\n`;
  }
  const summary = `${sentence()} ${sentence()}`;
  const head = '<llmResponse>\n  <response>';
  const tail = `</response>\n  <analysis>\n${subjects}    <summaryUpdate>${summary}</summaryUpdate>\n  </analysis>\n</llmResponse>\n`;
  const parts = [];
  let size = Buffer.byteLength(head + tail);
  while (size < target) {
    const p = sentence() + (rand(8) ? ' ' : '\n');
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  return head + parts.join('') + tail;
}
fs.mkdirSync(dir, { recursive: true });
if (count === 1) {
  fs.writeFileSync(path.join(dir, 'one.xml'), doc());
} else {
  for (let i = 0; i < count; i++) {
    fs.writeFileSync(path.join(dir, `r${String(i).padStart(5, '0')}.xml`), doc());
  }
}
