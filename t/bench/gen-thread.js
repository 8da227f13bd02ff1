'use strict';
// gen-thread: writes a deterministic, realistic agent thread for the
// benchmarks of thread-serialize: AgentEvent objects of every type, as one
// JSON array (--array) or as JSON lines (the default).
//   node gen-thread.js [--array] [--seed N] [--size BYTES] EVENTS > FILE
// BYTES is the size aimed at (roughly: the lengths of file contents and
// command output are scaled to it); the same arguments always give the
// same bytes.

function usage() {
  process.stderr.write('usage: gen-thread [--array] [--seed N] [--size BYTES] EVENTS\n');
  process.exit(2);
}

let array = false;
let seed = 1;
let size = 0;
let count = -1;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--array') array = true;
  else if (a === '--seed' && i + 1 < argv.length) seed = Number(argv[++i]);
  else if (a === '--size' && i + 1 < argv.length) size = Number(argv[++i]);
  else if (/^[0-9]+$/.test(a) && count < 0) count = Number(a);
  else usage();
}
if (count < 0 || !Number.isInteger(seed) || !(size >= 0)) usage();

// mulberry32: small, fast and the same on every machine.
let state = seed >>> 0;
function rnd() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (list) => list[Math.floor(rnd() * list.length)];
const chance = (p) => rnd() < p;
// Lengths with a long tail, as real tool output has: mostly short, some huge.
const tail = (mean) => Math.max(1, Math.round(-Math.log(1 - rnd()) * mean));

const WORDS = (
  'the a to of and in is it that for on with as this be are by file function ' +
  'test error value return build line module config path output input agent ' +
  'call result user model token thread event check run fix update change add ' +
  'remove parse write read buffer memory size string number array object type ' +
  'should could would will can need let me now then first next also because ' +
  'which when where here there look see try again done failing passing works'
).split(' ');
const UNICODE = [
  'café', 'naïve', 'Größe', 'déjà vu', 'résumé', 'Ångström', 'smörgåsbord',
  'über', 'ñandú', 'Ελληνικά', 'русский', '日本語', '中文', '한국어',
  'עברית', 'العربية', '→', '✓', '✗', '…', '—', '“quoted”', '½', '€42',
  '😀', '🚀', '👍🏽', '∑ x²', '≤', '≠', 'µs',
];
const NAMES = ['parser', 'lexer', 'store', 'client', 'server', 'cache',
  'config', 'router', 'worker', 'queue', 'session', 'index', 'schema'];
const EXTS = ['c', 'h', 'ts', 'js', 'py', 'json', 'md', 'go', 'rs', 'yaml'];
const TOOLS = ['read_file', 'write_to_file', 'execute_command',
  'search_files', 'list_files', 'apply_diff', 'web_fetch', 'ask_followup'];

function sentence(nwords) {
  const w = [];
  for (let i = 0; i < nwords; i++)
    w.push(chance(0.03) ? pick(UNICODE) : pick(WORDS));
  w[0] = w[0].charAt(0).toUpperCase() + w[0].slice(1);
  return w.join(' ') + pick(['.', '.', '.', '?', '!', ':']);
}

function prose(nchars) {
  const parts = [];
  let n = 0;
  while (n < nchars) {
    const s = sentence(int(4, 18));
    parts.push(s);
    n += s.length + 1;
    if (chance(0.08)) {
      parts.push('\n\n');
    }
  }
  return parts.join(' ');
}

function path() {
  const dirs = ['src', 'lib', 'test', 'docs', 'packages/core/src', 'cmd'];
  return `${pick(dirs)}/${pick(NAMES)}${chance(0.3) ? '_' + pick(NAMES) : ''}.${pick(EXTS)}`;
}

// Source-like text: quotes, <, >, &, tabs, blank lines.
const CODE = [
  (i) => `\tif (n < ${i} && p != NULL) {`,
  (i) => `\t\treturn "${pick(WORDS)} & ${pick(WORDS)}";`,
  () => '\t}',
  (i) => `const ${pick(NAMES)} = require('./${pick(NAMES)}');`,
  () => `// ${sentence(int(3, 10))}`,
  (i) => `#include <${pick(NAMES)}.h>`,
  () => `  <div class="${pick(NAMES)}">${pick(WORDS)} &amp; ${pick(WORDS)}</div>`,
  (i) => `x = a[${i}] >> 2; y = x << 1 && flag || !done;`,
  () => `print(f"{${pick(NAMES)}!r} -> '${pick(WORDS)}'")`,
  () => '',
  (i) => `  "${pick(NAMES)}": ${i}, "${pick(WORDS)}": "${pick(UNICODE)}",`,
  () => `\tfmt.Printf("%s\\n", ${pick(NAMES)})`,
];
function code(nchars) {
  const lines = [];
  let n = 0;
  for (let i = 1; n < nchars; i++) {
    const l = pick(CODE)(i);
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n') + '\n';
}

const OUTPUT = [
  () => `${path()}:${int(1, 900)}:${int(1, 80)}: error: '${pick(NAMES)}' undeclared (first use in this function)`,
  () => `${path()}:${int(1, 900)}:${int(1, 80)}: warning: comparison of integers of different signs: 'int' and 'size_t' [-Wsign-compare]`,
  () => `ok ${int(1, 400)} - ${sentence(int(3, 8))}`,
  () => `not ok ${int(1, 400)} - ${sentence(int(3, 8))}`,
  () => `#   expected: "${pick(WORDS)}<${pick(NAMES)}>"`,
  () => `  ${pick(['PASS', 'FAIL', 'SKIP'])}  ${path()} (${int(1, 9999)} ms)`,
  () => `-rw-r--r-- 1 dev dev ${int(10, 99999)} Mar ${int(1, 28)} 12:${int(10, 59)} ${path()}`,
  () => `\tat ${pick(NAMES)}.${pick(WORDS)} (${path()}:${int(1, 500)}:${int(1, 40)})`,
  () => `\r${int(0, 100)}% [${'#'.repeat(int(0, 20))}${' '.repeat(int(0, 5))}]`,
  () => `${pick(NAMES)} & ${pick(NAMES)} done in ${(rnd() * 10).toFixed(3)}s → ${pick(['✓', '✗'])}`,
];
function output(nchars) {
  const lines = [];
  let n = 0;
  while (n < nchars) {
    const l = pick(OUTPUT)();
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n');
}

function argsFor(tool) {
  switch (tool) {
    case 'read_file':
      return chance(0.5) ? { path: path() }
        : { path: path(), start_line: int(1, 400), end_line: int(401, 900) };
    case 'write_to_file':
      return { path: path(), content: code(tail(600 * scale)), line_count: int(1, 500) };
    case 'execute_command':
      return {
        command: pick([
          `make -j${int(1, 8)} check 2>&1 | tail -n ${int(10, 80)}`,
          `grep -rn "${pick(WORDS)}" ${pick(['src', 'lib'])} --include='*.${pick(EXTS)}'`,
          `git diff --stat HEAD~${int(1, 9)}`,
          `npm test -- --grep '${pick(NAMES)} <${pick(WORDS)}>'`,
          `cd ${pick(['build', 'out', '/tmp/work'])} && ./run.sh "${pick(UNICODE)}"`,
        ]),
        cwd: '/home/dev/project',
        timeout_ms: int(1, 60) * 1000,
        env: { CI: 'true', LANG: 'C.UTF-8', JOBS: int(1, 8) },
        requires_approval: chance(0.2),
      };
    case 'search_files':
      return {
        pattern: pick(['TODO|FIXME', '\\bfoo\\(', 'import .* from "(.*)"', `${pick(NAMES)}_[a-z]+`]),
        paths: [path(), path(), 'src/'],
        case_sensitive: chance(0.5),
        max_results: pick([10, 50, 100]),
        context_lines: 2,
      };
    case 'list_files':
      return { path: pick(['.', 'src', 'lib', 'test']), recursive: chance(0.5), depth: int(1, 4) };
    case 'apply_diff': {
      const edits = [];
      for (let i = int(1, 4); i > 0; i--)
        edits.push({ start_line: int(1, 500), end_line: int(501, 900), replacement: code(tail(120 * scale)) });
      return { path: path(), edits, dry_run: false, fuzz: 0.5, similarity: 0.95 + rnd() / 20 };
    }
    case 'web_fetch':
      return { url: `https://example.org/${pick(WORDS)}/${pick(NAMES)}?q=${pick(WORDS)}&page=${int(1, 9)}`, max_bytes: 1e6, follow_redirects: true, headers: { Accept: 'text/html' } };
    default:
      return { question: sentence(int(5, 15)), options: [pick(WORDS), pick(WORDS), null], urgent: false };
  }
}

function resultFor(tool) {
  if (chance(0.04)) { // what String() has to render
    return pick([
      () => ({ ok: true, bytes: int(0, 99999) }),
      () => [path(), path(), int(1, 9), null, [1.5, 'x']],
      () => int(0, 255),
      () => rnd() * 1000,
      () => chance(0.5),
      () => null,
    ])();
  }
  switch (tool) {
    case 'read_file': return code(tail(1500 * scale));
    case 'write_to_file': return `Wrote ${int(1, 9999)} bytes to ${path()}`;
    case 'execute_command': return output(tail(900 * scale));
    case 'search_files': return output(tail(500 * scale));
    case 'list_files': return Array.from({ length: int(1, 40) }, path).join('\n');
    case 'apply_diff': return `Applied ${int(1, 4)} edit(s) to ${path()}; "${pick(WORDS)}" <ok>`;
    case 'web_fetch': return `<!doctype html><html><body><p>${prose(tail(800 * scale))}</p></body></html>`;
    default: return prose(int(10, 200));
  }
}

// The size aimed at sets how long the long texts are: the fixed part of
// an event is about 200 bytes, and the long texts scale linearly.
const FIXED = 230;
const PER_SCALE = 330;
const scale = size > 0 && count > 0
  ? Math.max(0.05, (size / count - FIXED) / PER_SCALE) : 1;

const out = [];
let pending = 0;
let first = true;
function emit(ev) {
  let s = JSON.stringify(ev);
  if (array) s = (first ? '[\n' : ',\n') + s;
  else s += '\n';
  first = false;
  out.push(s);
  pending += s.length;
  if (pending > (1 << 20)) {
    process.stdout.write(out.join(''));
    out.length = 0;
    pending = 0;
  }
}

let iteration = 0;
let time = 1735689600000 + seed * 1000;
let callNo = 0;
let n = 0;
const open = [];
function ev(o) {
  time += int(5, 4000);
  o.timestamp = time;
  emit(o);
  n++;
}

while (n < count) {
  // one turn of the agent loop: maybe the user, then the model, then tools
  if (iteration === 0 || chance(0.12))
    ev({ type: 'message', role: 'user', content: prose(tail(250)), iteration });
  iteration++;
  if (n < count && chance(0.7))
    ev({ type: 'message', role: chance(0.97) ? 'assistant' : 'system', content: prose(tail(300)), iteration });
  for (let k = int(1, 3); k > 0 && n < count; k--) {
    const tool = pick(TOOLS);
    const id = `call_${(++callNo).toString(36)}_${int(0, 0xffffff).toString(16)}`;
    ev({ type: 'tool_call', toolName: tool, toolCallId: id, args: argsFor(tool), iteration });
    open.push([id, tool]);
  }
  while (open.length > 0 && n < count) {
    const [id, tool] = open.shift();
    if (chance(0.05))
      ev({ type: 'error', error: `${tool} failed: ${output(int(40, 300))}`, recoverable: chance(0.8), iteration });
    else
      ev({ type: 'tool_result', toolCallId: chance(0.01) ? 'call_lost' : id, result: resultFor(tool), iteration });
  }
  if (n < count && chance(0.02)) {
    ev({ type: 'human_input_requested', question: `${sentence(int(5, 20))} (y/n)`, iteration });
    if (n < count)
      ev({ type: 'human_input_received', response: pick(['y', 'yes, go ahead', `no — ${sentence(6)}`]), iteration });
  }
  if (n < count && iteration % 40 === 0) {
    const its = [];
    for (let i = iteration - 39; i <= iteration; i++) its.push(i);
    ev({ type: 'summary', summary: prose(tail(600)), summarizedIterations: its, iteration });
  }
  if (n < count && chance(0.01))
    ev({ type: 'completion', result: prose(tail(200)), iteration });
}
if (array) out.push(first ? '[]\n' : '\n]\n');
process.stdout.write(out.join(''));
