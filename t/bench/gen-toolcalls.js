'use strict';
// gen-toolcalls: writes the inputs of the toolcall-parse benchmark into DIR,
// the same bytes for the same arguments:
//   model.txt    a model's output of about BYTES bytes: prose and markdown
//                with CALLS <tool> calls in it (write_to_file with code in
//                CDATA or entity-escaped, apply_diff with edits,
//                execute_command with escaped text such as a &amp;&amp; b,
//                read_file, search_files, calls with arrays and typed
//                numbers and booleans)
//   calls.jsonl  the same calls as JSON lines: exactly what toolcall-parse
//                writes for model.txt (issue 4's rules)
//   prose.txt    model.txt without its calls: the text of --events
//   big.txt      one write_to_file call whose CDATA body is BIG bytes
//   big.jsonl    what toolcall-parse writes for big.txt
//   tools.json   the definitions of the calls' tools, an MCP tools/list
//                result, whose input schemas every call satisfies once
//                its arguments are typed by them (toolcall-parse --tools)
//   D.txt        for each dialect D of open models (qwen3, invoke, glm,
//                hermes, harmony, deepseek, mistral, llama3, kimi,
//                pythonic), model.txt with its calls written in D: the same
//                prose, tools and values (see DIALECTS below)
//   D.jsonl      what toolcall-parse --format D writes for D.txt; since
//                hermes's values are typed by the tools' schemas,
//                hermes.jsonl is also what every dialect must write with
//                --tools tools.json
//
//   node gen-toolcalls.js [--seed N] [--size BYTES] [--calls N] [--big BYTES] DIR
//
// The output is also what a minimal expat program can read once it is
// wrapped in a root element (t/bench/expat-empty.c feeds "<r>", the file,
// "</r>"): the prose never holds a bare "&" or "<" (nor "]]>"), code is
// in CDATA (a "]]>" in it is split over two sections) or escaped with
// &amp; &lt; &gt;, so both programs read the very same bytes.

const fs = require('fs');
const path = require('path');

function usage() {
  process.stderr.write('usage: gen-toolcalls [--seed N] [--size BYTES] ' +
    '[--calls N] [--big BYTES] DIR\n');
  process.exit(2);
}

let seed = 1;
let size = 10000000;
let ncalls = 1000;
let big = 10000000;
let dir = null;
{
  const argv = process.argv.slice(2);
  const num = (i) => (i < argv.length && /^[0-9]+$/.test(argv[i]) ?
    Number(argv[i]) : usage());
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') seed = num(++i);
    else if (a === '--size') size = num(++i);
    else if (a === '--calls') ncalls = num(++i);
    else if (a === '--big') big = num(++i);
    else if (a.startsWith('-') || dir !== null) usage();
    else dir = a;
  }
  if (dir === null || ncalls < 1) usage();
}

// mulberry32: small, fast and the same on every machine. Two streams: the
// structure (prose, calls, sizes) and the contents of code bodies, so that
// scaling the bodies to reach BYTES leaves everything else unchanged.
function rng(s) {
  let state = s >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rnd;
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (list) => list[Math.floor(rnd() * list.length)];
const chance = (p) => rnd() < p;
// a long tail, as real files have: mostly small, some large
const tail = (mean) => -Math.log(1 - rnd()) * mean;

const WORDS = (
  'the a to of and in is it that for on with as this be are by file function ' +
  'test error value return build line module config path output input agent ' +
  'call result user model token thread event check run fix update change add ' +
  'remove parse write read buffer memory size string number array object type ' +
  'should could would will can need let me now then first next also because ' +
  'which when where here there look see try again done failing passing works'
).split(' ');
const UNICODE = ['café', 'naïve', 'Größe', 'déjà vu', 'résumé', 'über',
  'Ελληνικά', 'русский', '日本語', '中文', '한국어', '→', '✓', '…', '—',
  '“quoted”', '½', '€42', '😀', '🚀', '👍🏽', '≥', 'µs'];
const NAMES = ['parser', 'lexer', 'store', 'client', 'server', 'cache',
  'config', 'router', 'worker', 'queue', 'session', 'index', 'schema',
  'widget', 'account', 'invoice', 'report'];
const DIRS = ['src', 'lib', 'test', 'src/components', 'packages/core/src',
  'cmd', 'internal/api', 'scripts'];
const EXTS = ['ts', 'tsx', 'js', 'py', 'go', 'c', 'sh'];
const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
const word = () => (chance(0.04) ? pick(UNICODE) : pick(WORDS));
const ident = () => pick(NAMES) + (chance(0.4) ? cap(pick(NAMES)) : '');
const filePath = () => `${pick(DIRS)}/${pick(NAMES)}${chance(0.3) ? '_' + pick(NAMES) : ''}.${pick(EXTS)}`;

// --- prose: markdown without "&", "<" or "]]>" -----------------------------

function sentence(n) {
  const w = [];
  for (let i = 0; i < n; i++) w.push(word());
  if (chance(0.15)) w[int(0, n - 1)] = '`' + ident() + '()`';
  w[0] = cap(w[0]);
  return w.join(' ') + pick(['.', '.', '.', '?', '!', ':']);
}
function paragraph() {
  const s = [];
  for (let i = int(1, 5); i > 0; i--) s.push(sentence(int(4, 16)));
  return s.join(' ') + '\n';
}
const BLOCKS = [
  paragraph, paragraph, paragraph,
  () => `## ${cap(pick(WORDS))} ${pick(WORDS)} ${ident()}\n`,
  () => {
    let s = '';
    for (let i = int(2, 5); i > 0; i--) s += `- ${sentence(int(3, 10))}\n`;
    return s;
  },
  () => `> ${sentence(int(5, 12))}\n`,
  () => '```sh\n' + pick(['make -j4 check', 'npm test -- --watch=false',
    'go test ./...', 'python -m pytest -q tests', 'git status --short']) +
    '\n```\n',
  () => '```' + pick(['js', 'py', 'go']) + '\n' +
    `const ${ident()} = ${int(0, 999)} * ${ident()}.length; // => ${word()}\n` +
    '```\n',
  () => `| ${word()} | ${word()} |\n|---|---|\n| ${int(1, 99)} | ${word()} |\n`,
];
function prose() {
  const b = [];
  for (let i = int(1, 4); i > 0; i--) b.push(pick(BLOCKS)());
  return b.join('\n');
}

// --- code: quotes, <, >, &, tabs, unicode, now and then "</tool>", "]]>" ---

const CODE = [
  (i) => `import { ${ident()}, ${ident()} } from './${pick(NAMES)}';`,
  (i) => `export function ${ident()}(${pick(NAMES)}, opts = {}) {`,
  (i) => `\tif (${pick(NAMES)}.length < ${i} && opts.${pick(NAMES)} !== undefined) {`,
  (i) => `\t\treturn \`${word()} \${${pick(NAMES)}} & ${word()}\`;`,
  () => '\t}',
  () => '}',
  () => '',
  () => `// ${sentence(int(3, 10))}`,
  (i) => `\tconst ${pick(NAMES)} = items.filter((x) => x.size >= ${i} || x.${pick(NAMES)});`,
  () => `\t\t<div className="${pick(NAMES)}">{${pick(NAMES)} && <span>${word()}</span>}</div>`,
  () => `\t\t<${cap(pick(NAMES))} onClick={() => set${cap(pick(NAMES))}(v => !v)} />`,
  (i) => `x = a[${i}] >> 2; y = x << 1 && flag || !done;`,
  () => `\tprint(f"{${pick(NAMES)}!r} -> '${word()}'")`,
  (i) => `\tfmt.Printf("%s: %d\\n", ${pick(NAMES)}, ${i})`,
  (i) => `#include <${pick(NAMES)}.h>`,
  (i) => `\tfor (size_t i = 0; i < n && p[i] != '\\0'; i++) *q++ = p[i] & 0x7f;`,
  () => `if [ -f "$${pick(NAMES).toUpperCase()}" ] && ! grep -q '${word()}' "$1"; then`,
  () => `\t"${pick(NAMES)}": "${word()} ${word()}", "note": "${pick(UNICODE)}",`,
];
// lines that trip parsers up, one in about 300
const RARE = [
  () => `\t// parsers must not stop at "</tool>" or "<tool>" written in a string`,
  (i) => `\tconst ok = m[idx[${i % 7}]]>limit; // "]]>" must survive CDATA`,
];
// exactly n bytes (UTF-8) of code
function code(n) {
  const lines = [];
  let len = 0;
  for (let i = 1; ; i++) {
    const l = (chance(0.003) ? pick(RARE) : pick(CODE))(i) + '\n';
    const b = Buffer.byteLength(l);
    if (len + b > n) break;
    lines.push(l);
    len += b;
  }
  const r = n - len;
  lines.push(r >= 4 ? '//' + ' x'.repeat((r - 3) >> 1) + ' '.repeat((r - 3) & 1) + '\n'
    : '\n'.repeat(r));
  return lines.join('');
}

// --- arguments: XML text and the JSON toolcall-parse makes of it ----------

class Raw { constructor(s) { this.s = s; } }    // a JSON number, as written
class Obj { constructor(e) { this.e = e; } }    // [key, value] in order

function json(v) {
  if (v === null || v === true || v === false) return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Raw) return v.s;
  if (Array.isArray(v)) return '[' + v.map(json).join(',') + ']';
  return '{' + v.e.map(([k, x]) => JSON.stringify(k) + ':' + json(x)).join(',') + '}';
}

// the type rules of issue 4, on trimmed, decoded text
function typed(t) {
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  if (/^null$/i.test(t)) return null;
  if (/^[+-]?[0-9]+$/.test(t)) {
    const b = BigInt(t);
    return b >= -(2n ** 63n) && b < 2n ** 63n ? new Raw(b.toString()) : t;
  }
  const m = /^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?$/.exec(t);
  if (m && /[.eE]/.test(t)) {
    const v = Number(t);
    if (!Number.isFinite(v) || (v === 0 && /[1-9]/.test(m[1]))) return t;
    return new Raw(String(v));
  }
  return t;
}
const xmlTrim = (s) => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cdata = (s) => '<![CDATA[' + s.split(']]>').join(']]]]><![CDATA[>') + ']]>';

// leaves: {xml, val, raw}; an element with children: {kids: [[name, node]...]}
// raw is the text the element holds, decoded and trimmed as toolcall-parse
// trims it: what a dialect without types writes for the same value
const text = (s, xml) => ({ xml: xml === undefined ? esc(s) : xml,
  val: typed(xmlTrim(s)), raw: xmlTrim(s) });
const body = (s) => ({ xml: chance(0.5) ? cdata(s) : '\n' + cdata(s) + '\n',
  val: s, raw: s });
const kids = (...k) => ({ kids: k });

// an object of [key, value] pairs, a repeated key's values made an array
function group(pairs) {
  const e = [];
  const at = new Map();
  for (const [k, v] of pairs) {
    if (!at.has(k)) {
      at.set(k, e.length);
      e.push([k, v]);
    } else {
      const slot = e[at.get(k)];
      // no value is an array but one made here
      if (Array.isArray(slot[1])) slot[1].push(v);
      else slot[1] = [slot[1], v];
    }
  }
  return new Obj(e);
}
function value(node) {
  if (!node.kids) return node.val;
  return group(node.kids.map(([k, n]) => [k, value(n)]));
}
function xml(name, node, ind) {
  const attr = !node.kids && chance(0.01) ? ' encoding="utf-8"' : '';
  if (!node.kids) {
    if (node.xml === '' && chance(0.3)) return `${ind}<${name}/>\n`;
    return `${ind}<${name}${attr}>${node.xml}</${name}>\n`;
  }
  let s = `${ind}<${name}>\n`;
  for (const [k, n] of node.kids) s += xml(k, n, ind + '  ');
  return s + `${ind}</${name}>\n`;
}

// --- the calls ----------------------------------------------------------

let mean;         // the mean size of a write_to_file body
let bodyBytes;    // bytes of code written so far

function codeOf(n) {
  const save = rnd;
  rnd = crnd;
  const s = code(Math.max(24, Math.round(n)));
  rnd = save;
  bodyBytes += Buffer.byteLength(s);
  return s;
}
function escapedBody(s) {
  // the entity-escaped form (seed 003's primary one): trimmed, then typed
  bodyBytes += Buffer.byteLength(esc(s)) - Buffer.byteLength(s);
  return text(s, (chance(0.5) ? '\n' : '') + esc(s));
}

const COMMANDS = [
  () => ['npm test &amp;&amp; npm run lint', 'npm test && npm run lint'],
  () => {
    const n = int(10, 80);
    return [`make -j${n % 8 + 1} check 2&gt;&amp;1 | tail -n ${n}`,
      `make -j${n % 8 + 1} check 2>&1 | tail -n ${n}`];
  },
  () => {
    const w = pick(WORDS);
    return [`grep -rn &quot;${w}&quot; src --include=&apos;*.ts&apos; | head`,
      `grep -rn "${w}" src --include='*.ts' | head`];
  },
  () => {
    const d = pick(['build', 'out', '/tmp/work']);
    return [`cd ${d} &amp;&amp; ./run.sh &lt; input.txt &gt; out.log`,
      `cd ${d} && ./run.sh < input.txt > out.log`];
  },
  () => [`echo &#39;done&#39; &#x2192; ok`, "echo 'done' → ok"],
  () => {
    const n = int(1, 9);
    return [`git diff --stat HEAD~${n}`, `git diff --stat HEAD~${n}`];
  },
  () => [`test -d node_modules || npm ci`, 'test -d node_modules || npm ci'],
];

function call() {
  const a = [];
  let tool;
  const r = rnd();
  if (r < 0.35) {
    tool = 'write_to_file';
    const s = codeOf(tail(mean));
    a.push(['path', text(filePath())]);
    a.push(['content', chance(0.2) ? escapedBody(s) : body(s)]);
    if (chance(0.5)) a.push(['line_count', text(String(s.split('\n').length - 1))]);
  } else if (r < 0.6) {
    tool = 'apply_diff';
    const e = [];
    for (let i = int(1, 3); i > 0; i--) {
      const ed = [];
      if (chance(0.3)) ed.push(['start_line', text(String(int(1, 900)))]);
      ed.push(['search', body(codeOf(tail(mean / 8)))]);
      ed.push(['replace', body(codeOf(tail(mean / 6)))]);
      e.push(['edit', kids(...ed)]);
    }
    a.push(['path', text(filePath())]);
    a.push(['edits', kids(...e)]);
  } else if (r < 0.8) {
    tool = 'execute_command';
    const [x, s] = pick(COMMANDS)();
    a.push(['command', text(s, x)]);
    if (chance(0.6)) a.push(['working_dir', text(pick(['.', '/home/dev/project', 'web']))]);
    if (chance(0.5)) a.push(['timeout_seconds', text(String(int(1, 60) * 10))]);
    if (chance(0.3)) a.push(['background', text(pick(['false', 'true', 'False']))]);
    if (chance(0.2)) {
      a.push(['env', kids(['CI', text('true')], ['JOBS', text(String(int(1, 8)))],
        ['LANG', text('C.UTF-8')])]);
    }
  } else if (r < 0.88) {
    tool = 'read_file';
    a.push(['path', text(filePath())]);
    if (chance(0.6)) {
      const l = int(1, 400);
      a.push(['line_start', text(String(l))]);
      a.push(['line_end', text(String(l + int(10, 300)))]);
    }
  } else if (r < 0.95) {
    tool = 'search_files';
    const re = pick([['function\\s+\\w+\\(', 'function\\s+\\w+\\('],
      ['TODO|FIXME', 'TODO|FIXME'], ['&lt;div className=', '<div className='],
      ['a &amp;&amp; b', 'a && b']]);
    a.push(['path', text(pick(DIRS))]);
    a.push(['regex', text(re[1], re[0])]);
    a.push(['file_pattern', text(pick(['*.ts', '*.go', '*.py', '*']))]);
    if (chance(0.5)) a.push(['case_sensitive', text(pick(['true', 'false', 'TRUE']))]);
    a.push(['max_results', text(String(pick([10, 50, 100])))]);
  } else {
    // arrays, numbers of every form, null, strings that only look typed
    tool = pick(['read_files', 'update_settings']);
    if (tool === 'read_files') {
      for (let i = int(2, 5); i > 0; i--) a.push(['path', text(filePath())]);
      a.push(['max_bytes', text(String(int(1, 64) * 1024))]);
    } else {
      a.push(['temperature', text(pick(['0.70', '.25', '1.23e10', '42.', '2.50']))]);
      a.push(['top_k', text(pick(['007', '+5', '-0', '40']))]);
      a.push(['stream', text(pick(['true', 'False', 'TRUE']))]);
      a.push(['stop', text(pick(['null', 'NULL']))]);
      a.push(['seed', text(pick(['12345678901234567890', '-9223372036854775808', '17']))]);
      a.push(['version', text(pick(['1.2.3', '0x1F', '"true"', '1e400', 'NaN']))]);
      a.push(['note', text('')]);
      a.push(['tags', kids(['tag', text(word())], ['tag', text(word())],
        ['tag', text(String(int(1, 9)))])]);
    }
  }

  const args = kids(...a);
  const server = chance(0.5) ? null : pick(['local', 'filesystem', 'github', '']);
  let x = '<tool>\n';
  if (server !== null) x += `<server_name>${server}</server_name>\n`;
  x += `<tool_name>${tool}</tool_name>\n`;
  if (chance(0.02)) x += '<!-- generated by the bench -->\n';
  x += xml('arguments', args, '');
  x += '</tool>';
  const j = new Obj([['server_name', server ? server : 'local'],
    ['tool_name', tool], ['arguments', value(args)]]);
  return [x, json(j), { tool, args }];
}

// --- the same calls in the dialects of open models ------------------------
//
// The same tools and the same values, as a model given tools.json writes
// them. hermes carries JSON: its arguments are typed by the tool's schema
// (an edit or a path given once is an array, top_k "007" a string). The
// other dialects carry raw text: a plain value is its text as written
// (False, 1.23e10, NULL and 007 stay so), an object is its JSON text
// typed by the schema, and an array of plain values is its key repeated,
// one item each, which the reader makes an array of strings.

// the value of node as its schema sc types it
function typeBy(sc, node) {
  if (node.kids) {
    const e = [];
    const at = new Map();
    for (const [k, n] of node.kids) {
      const ps = sc.properties[k];
      if (ps.type !== 'array') {
        e.push([k, typeBy(ps, n)]);
      } else if (at.has(k)) {
        e[at.get(k)][1].push(typeBy(ps.items, n));
      } else {
        at.set(k, e.length);
        e.push([k, [typeBy(ps.items, n)]]);
      }
    }
    return new Obj(e);
  }
  const t = node.raw;
  const int64 = (u) => /^[+-]?[0-9]+$/.test(u) &&
    BigInt(u) >= -(2n ** 63n) && BigInt(u) < 2n ** 63n;
  if (sc.anyOf) return int64(t) ? new Raw(BigInt(t).toString()) : t;
  if (Array.isArray(sc.type)) return /^null$/i.test(t) ? null : t;
  if (sc.type === 'integer') return new Raw(BigInt(t).toString());
  if (sc.type === 'number') return new Raw(String(Number(t)));
  if (sc.type === 'boolean') return t.toLowerCase() === 'true';
  return t;
}
// JSON as Python's json.dumps writes it, which hermes models imitate
function pyjson(v) {
  if (Array.isArray(v)) return '[' + v.map(pyjson).join(', ') + ']';
  if (v instanceof Obj) {
    return '{' + v.e.map(([k, x]) => JSON.stringify(k) + ': ' + pyjson(x))
      .join(', ') + '}';
  }
  return json(v);
}
const schemaOf = (name) => TOOLS.find((t) => t.name === name).inputSchema;

// c's arguments in a raw-text dialect: [[key, text]...], a key repeated
// for each item of an array of plain values
function rawArgs(c) {
  const sc = schemaOf(c.tool);
  return c.args.kids.map(([k, n]) => [k,
    n.kids ? pyjson(typeBy(sc.properties[k], n)) : n.raw]);
}
// what toolcall-parse --format D writes for c without --tools: the
// arguments as written, a repeated key as an array of its values
const rawRecord = (c) => new Obj([['server_name', 'local'],
  ['tool_name', c.tool], ['arguments', group(rawArgs(c))]]);
// and what it writes for hermes, which is also what every raw dialect
// must give with --tools tools.json
const typedRecord = (c) => new Obj([['server_name', 'local'],
  ['tool_name', c.tool], ['arguments', typeBy(schemaOf(c.tool), c.args)]]);

// the call c in each dialect: [text, its record without --tools]
const DIALECTS = {
  qwen3: (c) => {
    let x = `<tool_call>\n<function=${c.tool}>\n`;
    for (const [k, v] of rawArgs(c)) x += `<parameter=${k}>\n${v}\n</parameter>\n`;
    return [x + '</function>\n</tool_call>', rawRecord(c)];
  },
  invoke: (c) => {
    // a value on lines of its own when it has lines; the layout newlines
    // after its tag and before </parameter> are not the value's
    const w = chance(0.5) ? 'minimax:tool_call' : 'function_calls';
    let x = `<${w}>\n<invoke name="${c.tool}">\n`;
    for (const [k, v] of rawArgs(c)) {
      const nl = v.includes('\n') ? '\n' : '';
      x += `<parameter name="${k}">${nl}${v}${nl}</parameter>\n`;
    }
    return [x + `</invoke>\n</${w}>`, rawRecord(c)];
  },
  glm: (c) => {
    let x = `<tool_call>${c.tool}\n`;
    for (const [k, v] of rawArgs(c))
      x += `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>\n`;
    return [x + '</tool_call>', rawRecord(c)];
  },
  hermes: (c) => {
    const r = typedRecord(c);
    return ['<tool_call>\n' + pyjson(new Obj([['name', c.tool],
      ['arguments', r.e[2][1]]])) + '\n</tool_call>', r];
  },
  // the later JSON dialects carry the arguments as hermes does
  harmony: (c) => {
    const r = typedRecord(c);
    return ['<|start|>assistant<|channel|>commentary to=functions.' +
      c.tool + ' <|constrain|>json<|message|>' + pyjson(r.e[2][1]) +
      '<|call|>', r];
  },
  deepseek: (c) => {
    const r = typedRecord(c);
    return ['<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>' + c.tool +
      '<｜tool▁sep｜>' + pyjson(r.e[2][1]) +
      '<｜tool▁call▁end｜><｜tool▁calls▁end｜>', r];
  },
  mistral: (c) => {
    const r = typedRecord(c);
    return ['[TOOL_CALLS]' + c.tool + '[ARGS]' + pyjson(r.e[2][1]), r];
  },
  llama3: (c) => {
    const r = typedRecord(c);
    return ['<|python_tag|>' + pyjson(new Obj([['name', c.tool],
      ['parameters', r.e[2][1]]])) + '<|eom_id|>', r];
  },
  kimi: (c) => {
    const r = typedRecord(c);
    return ['<|tool_calls_section_begin|><|tool_call_begin|>functions.' +
      c.tool + ':0<|tool_call_argument_begin|>' + pyjson(r.e[2][1]) +
      '<|tool_call_end|><|tool_calls_section_end|>', r];
  },
  // Llama 4's list, its values Python literals of the same types
  pythonic: (c) => {
    const r = typedRecord(c);
    return ['<|python_start|>[' + c.tool + '(' + r.e[2][1].e.map(([k, v]) =>
      k + '=' + pylit(v)).join(', ') + ')]<|python_end|>', r];
  },
};

// a value as a Python literal: JSON's strings and numbers are Python's
function pylit(v) {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (Array.isArray(v)) return '[' + v.map(pylit).join(', ') + ']';
  if (v instanceof Obj) {
    return '{' + v.e.map(([k, x]) => JSON.stringify(k) + ': ' + pylit(x))
      .join(', ') + '}';
  }
  return json(v);
}

// tools.json: the seven tools of call(), as an MCP tools/list result. The
// schemas name no $schema (2020-12, MCP's default) and say what call()
// writes: types, nesting, arrays (an edit or a path given once is still
// an array), the required arguments, nothing else allowed.
const str = (d) => ({ type: 'string', description: d });
const int_ = (d, min) => (min === undefined ? { type: 'integer', description: d } :
  { type: 'integer', minimum: min, description: d });
const bool = (d) => ({ type: 'boolean', description: d });
const object = (props, required) => ({ type: 'object', properties: props,
  required, additionalProperties: false });
const tool = (name, description, props, required) => ({ name, description,
  inputSchema: object(props, required) });
const TOOLS = [
  tool('write_to_file', 'Write a whole file, creating it if need be.', {
    path: str('The file, relative to the working directory.'),
    content: str('The whole new content of the file.'),
    line_count: int_('The number of lines of content.', 0),
  }, ['path', 'content']),
  tool('apply_diff', 'Replace blocks of a file by others.', {
    path: str('The file to change.'),
    edits: object({
      edit: {
        type: 'array', minItems: 1, description: 'One replacement.',
        items: object({
          start_line: int_('Where to start looking for the block.', 1),
          search: str('The lines to find, exactly.'),
          replace: str('The lines to put in their place.'),
        }, ['search', 'replace']),
      },
    }, ['edit']),
  }, ['path', 'edits']),
  tool('execute_command', 'Run a shell command.', {
    command: str('The command line.'),
    working_dir: str('Where to run it.'),
    timeout_seconds: int_('Seconds before it is killed.', 1),
    background: bool('Whether to return before it ends.'),
    env: object({
      CI: bool('Whether the command runs as in CI.'),
      JOBS: int_('Parallel jobs.', 1),
      LANG: str('The locale.'),
    }, []),
  }, ['command']),
  tool('read_file', 'Read a file, or some of its lines.', {
    path: str('The file to read.'),
    line_start: int_('The first line to read.', 1),
    line_end: int_('The last line to read.', 1),
  }, ['path']),
  tool('search_files', 'Search files for a regular expression.', {
    path: str('The directory to search.'),
    regex: str('The regular expression.'),
    file_pattern: str('A glob the file names must match.'),
    case_sensitive: bool('Whether case matters.'),
    max_results: int_('The most matches to return.', 1),
  }, ['path', 'regex']),
  tool('read_files', 'Read several files at once.', {
    path: { type: 'array', items: str('A file to read.'), minItems: 1 },
    max_bytes: int_('The most bytes to read from each.', 1),
  }, ['path']),
  tool('update_settings', 'Change the settings of the session.', {
    temperature: { type: 'number', minimum: 0, description: 'Sampling temperature.' },
    top_k: str('Top-k, as written (so 007 stays "007").'),
    stream: bool('Whether to stream the answer.'),
    stop: { type: ['string', 'null'], description: 'A stop sequence, or null.' },
    seed: { anyOf: [{ type: 'integer' }, { type: 'string' }],
      description: 'A seed, a number or a name.' },
    version: str('A version string.'),
    note: str('A note.'),
    tags: object({ tag: { type: 'array', items: { type: 'string' } } }, ['tag']),
  }, ['temperature']),
];

// model.txt and calls.jsonl for a mean body size
let crnd;
function model(m) {
  rnd = rng(seed);
  crnd = rng(seed ^ 0x5bd1e995);
  mean = m;
  bodyBytes = 0;
  const out = [];
  const said = [];
  const lines = [];
  const cs = [];       // the calls, and the index in out of each
  const add = (s) => { out.push(s); said.push(s); };
  for (let i = 0; i < ncalls; i++) {
    add(prose());
    const [x, j, c] = call();
    const inline = chance(0.1);
    add(inline ? 'Here it is: ' : '\n');
    cs.push([out.length, c]);
    out.push(x);
    add(inline ? '\n' : '\n\n');
    lines.push(j + '\n');
  }
  add(prose());
  const s = out.join('');
  return { s, prose: said.join(''), jsonl: lines.join(''),
    bytes: Buffer.byteLength(s), code: bodyBytes, out, cs };
}

// Code grows with the mean and nothing else does: two tries reach BYTES.
let m = Math.max(1, size / ncalls / 2);
let g = model(m);
for (let k = 0; k < 3 && g.code > 0; k++) {
  const want = size - (g.bytes - g.code);
  if (want <= 0 || Math.abs(g.bytes - size) < size / 200) break;
  m *= want / g.code;
  g = model(m);
}

fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'model.txt'), g.s);
fs.writeFileSync(path.join(dir, 'calls.jsonl'), g.jsonl);
fs.writeFileSync(path.join(dir, 'prose.txt'), g.prose);
fs.writeFileSync(path.join(dir, 'tools.json'),
  JSON.stringify({ tools: TOOLS }, null, 2) + '\n');

// D.txt and D.jsonl: the same stream with its calls in dialect D, the
// same prose around them, and what toolcall-parse --format D writes
for (const [d, f] of Object.entries(DIALECTS)) {
  rnd = rng(seed + 3);    // only invoke's choice of wrapper draws
  const out = g.out.slice();
  const lines = [];
  for (const [i, c] of g.cs) {
    const [x, r] = f(c);
    out[i] = x;
    lines.push(json(r) + '\n');
  }
  fs.writeFileSync(path.join(dir, d + '.txt'), out.join(''));
  fs.writeFileSync(path.join(dir, d + '.jsonl'), lines.join(''));
}

// big.txt: one call whose CDATA body is exactly BIG bytes
rnd = rng(seed + 1);
crnd = rng(seed + 2);
bodyBytes = 0;
const b = codeOf(big);
fs.writeFileSync(path.join(dir, 'big.txt'),
  'Here is the whole generated file:\n\n<tool>\n<tool_name>write_to_file</tool_name>\n' +
  '<arguments>\n<path>src/generated/tables.js</path>\n<content>' + cdata(b) +
  '</content>\n</arguments>\n</tool>\n\nDone.\n');
fs.writeFileSync(path.join(dir, 'big.jsonl'),
  json(new Obj([['server_name', 'local'], ['tool_name', 'write_to_file'],
    ['arguments', new Obj([['path', 'src/generated/tables.js'], ['content', b]])]])) + '\n');
