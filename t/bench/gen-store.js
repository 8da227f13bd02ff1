'use strict';
// gen-store.js DIR COUNT [SEED]: the inputs of the llmstore benchmark, made
// deterministically from SEED. Writes COUNT valid <llmResponse> documents
// into DIR as r00000.xml, ...: the even ones about 10 KB (over llmstore's
// inline limit of 1,024 bytes, so kept as blobs), the odd ones under 1,000
// bytes (kept inline). Each has 1-3 subjects of 3-7 keywords from pools
// larger than the context keeps (60 subjects, 400 terms), no term twice,
// isNew true exactly where the subject is new to the topic when the files
// are stored in name order, and a summaryUpdate. Also writes
//   context.json  what `llmstore context bench` must print after a put of
//                 all the files in name order into a new store
//   counts        "files N blobs B subjects S keywords K": the numbers of
//                 files, of blobs, of distinct subjects and of terms
const fs = require('fs');
const path = require('path');

const [dir, countArg, seedArg] = process.argv.slice(2);
const count = Number(countArg);
const rand = require('./xorshift')(seedArg);
const words = ['savings', 'plan', 'college', 'tuition', 'tax', 'budget',
  'interest', 'growth', 'fund', 'account', 'family', 'children', 'costs',
  'loan', 'grant', 'ratio', 'annual', 'deposit', 'income', 'policy'];
const prose = words.concat(['école', 'résumé', 'naïve', '学费', 'Ünïcödé']);
const subjects = [];
for (let i = 0; i < 60; i++) subjects.push(`${words[i % 20]}-topic-${i}`);
const terms = [];
for (let i = 0; i < 400; i++) terms.push(`${words[i % 20]}-${i}`);

function sentence() {
  const n = 6 + rand(10);
  const w = [];
  for (let i = 0; i < n; i++) w.push(prose[rand(prose.length)]);
  let s = w.join(' ');
  s = s[0].toUpperCase() + s.slice(1);
  if (rand(4) === 0) s += ' &amp; 5 &lt; 7 &gt; 3';
  return s + '.';
}

const seen = new Set();
// the analysis of one response: [{name, isNew, terms: [...]}, ...]
function analysis() {
  const nsub = 1 + rand(3);
  const used = new Set();
  const out = [];
  for (let i = 0; i < nsub; i++) {
    let name;
    do name = subjects[rand(subjects.length)]; while (out.some((s) => s.name === name));
    const nkw = 3 + rand(5);
    const t = [];
    while (t.length < nkw) {
      const term = terms[rand(terms.length)];
      if (used.has(term)) continue;
      used.add(term);
      t.push(term);
    }
    out.push({ name, terms: t });
  }
  return out;
}

function render(a, big, n) {
  const ind = big ? '  ' : '';
  const nl = big ? '\n' : '';
  let body = '';
  for (const s of a) {
    const desc = big ? `${sentence()} ${sentence()}` : `About ${s.name}.`;
    body += `${ind}${ind}<subject name="${s.name}" description="${desc}" isNew="${s.isNew}">${nl}`;
    for (const t of s.terms) {
      const c = (60 + rand(41)) / 100;
      body += `${ind}${ind}${ind}<keyword term="${t}" confidence="${c}"/>${nl}`;
    }
    body += `${ind}${ind}</subject>${nl}`;
  }
  const summary = big ? `${sentence()} ${sentence()}` : `Turn ${n}.`;
  const head = `<llmResponse>${nl}${ind}<response>`;
  const tail = `</response>${nl}${ind}<analysis>${nl}${body}` +
    `${ind}${ind}<summaryUpdate>${summary}</summaryUpdate>${nl}` +
    `${ind}</analysis>${nl}</llmResponse>\n`;
  if (!big) return `${head}Answer ${n}, a short one.${tail}`;
  const parts = [];
  let size = Buffer.byteLength(head + tail);
  while (size < 10000) {
    const p = sentence() + (rand(8) ? ' ' : '\n');
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  return head + parts.join('') + tail;
}

fs.mkdirSync(dir, { recursive: true });
const docs = [];
let blobs = 0;
for (let n = 0; n < count; n++) {
  const big = n % 2 === 0;
  let a = analysis();
  let xml;
  for (;;) {
    for (const s of a) s.isNew = !seen.has(s.name);
    xml = render(a, big, n);
    if (big || Buffer.byteLength(xml) <= 1000) break;
    // too big to stay inline: one keyword less, at least 3 a subject,
    // else one subject less
    const s = a.reduce((x, y) => (y.terms.length > x.terms.length ? y : x));
    if (s.terms.length > 3) s.terms.pop();
    else a = a.slice(0, a.length - 1);
  }
  if (Buffer.byteLength(xml) > 1024) blobs++;
  for (const s of a) seen.add(s.name);
  docs.push(a);
  fs.writeFileSync(path.join(dir, `r${String(n).padStart(5, '0')}.xml`), xml);
}

// the recent order: the latest response first, in document order within one
const subj = [];
const kw = [];
const sseen = new Set();
const kseen = new Set();
for (let n = docs.length - 1; n >= 0; n--) {
  for (const s of docs[n]) {
    if (!sseen.has(s.name)) { sseen.add(s.name); subj.push(s.name); }
    for (const t of s.terms)
      if (!kseen.has(t)) { kseen.add(t); kw.push(t); }
  }
}
fs.writeFileSync(path.join(dir, 'context.json'), JSON.stringify({
  topicId: 'bench',
  messageCount: count,
  activeSubjects: subj.slice(0, 20),
  recentKeywords: kw.slice(0, 50),
}) + '\n');
fs.writeFileSync(path.join(dir, 'counts'),
  `files ${count} blobs ${blobs} subjects ${sseen.size} keywords ${kseen.size}\n`);
