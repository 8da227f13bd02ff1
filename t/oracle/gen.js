'use strict';
/*
 * Random threads for the oracle test of thread-serialize. For each case it
 * writes the input text (written by hand here, token by token, so that the
 * C reader meets the forms real files have: whitespace anywhere, a BOM,
 * every string escape, odd number spellings; never a duplicate key,
 * which thread-serialize refuses), the
 * response prefix if the case has one, the output reference.js makes of
 * that text, and the warnings thread-serialize must print:
 *
 *   node gen.js [-s SEED] [-n COUNT] [-m mixed|array|lines|fold] DIR
 *
 * (fold: more summaries, and iterations from a few small integers, so
 * that most threads fold.)
 *
 *   DIR/case-NNN.json      the input
 *   DIR/case-NNN.args      the --response-prefix value (absent: no option)
 *   DIR/case-NNN.expected  serializeThreadToXml(parseEvents(input)) + "\n"
 *   DIR/case-NNN.keep      present: the thread holds a summary that folds
 *                          events, or one that cannot fold (its list is not
 *                          of non-negative integers): .expected is then
 *                          what --keep-summarized writes
 *   DIR/case-NNN.folded    the same, folded (reference.js's foldSummaries),
 *                          when the thread folds: what the default writes
 *   DIR/case-NNN.stdin     present: the input goes to standard input
 *   DIR/case-NNN.warn      expected stderr (file name case-NNN.json, or
 *                          <stdin> for a case read from standard input)
 *   DIR/stats              how often each feature was generated
 *
 * The seed (default $ORACLE_SEED, else "1") and the case number alone
 * decide a case, so any case can be made again on its own.
 *
 * Everything generated is input on which the tool and the reference must
 * agree: no character XML 1.0 forbids where a string reaches the output
 * unescaped, no lone surrogate, no NUL in an object key, no number beyond
 * the range of a double, a string toolCallId on every tool_result.
 */
const fs = require('fs');
const path = require('path');
const { serializeThreadToXml, parseEvents, isFoldable, foldSummaries } =
  require('./reference.js');

/* sfc32, seeded from a text: small, fast, and the same on every node. */
function makeRng(seedText) {
  let a = 0x9e3779b9 | 0, b = 0x243f6a88 | 0, c = 0xb7e15162 | 0, d = 1;
  function next() {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  }
  for (const ch of String(seedText)) {
    a ^= ch.codePointAt(0);
    for (let i = 0; i < 4; i++) next();
  }
  for (let i = 0; i < 16; i++) next();
  return next;
}

class Rand {
  constructor(seedText) { this.u32 = makeRng(seedText); }
  int(n) { return Math.floor((this.u32() / 4294967296) * n); }
  range(lo, hi) { return lo + this.int(hi - lo + 1); }
  chance(p) { return this.u32() / 4294967296 < p; }
  pick(a) { return a[this.int(a.length)]; }
  /* pairs: [[weight, value], ...] */
  weighted(pairs) {
    let total = 0;
    for (const [w] of pairs) total += w;
    let x = this.int(total);
    for (const [w, v] of pairs) {
      if (x < w) return v;
      x -= w;
    }
    return pairs[pairs.length - 1][1];
  }
}

const stats = new Map();
function count(name, n = 1) { stats.set(name, (stats.get(name) || 0) + n); }

/*
 * Where a string may go decides what it may hold. OUT: written to the
 * document unescaped (content, toolName, result strings). ESC: written
 * through JSON.stringify (args), so C0 controls are fine. FREE: never
 * written (toolCallId, extra fields, members of objects that become
 * "[object Object]"), so U+FFFE and U+FFFF are fine too.
 */
const OUT = 0, ESC = 1, FREE = 2;

const SPECIAL_CPS = [0x2028, 0x2029, 0xfeff, 0xfffd, 0xa0, 0x85, 0x200d,
  0x301, 0xe000, 0xf8ff, 0xfffc, 0x10ffff, 0x10000, 0x7ff, 0x800, 0x80];

function genCodePoint(r, ctx, noNul) {
  const kind = r.weighted([
    [40, 'ascii'], [10, 'xml'], [5, 'json'], [5, 'ws'], [8, 'two'],
    [8, 'three'], [8, 'four'], [ctx === OUT ? 0 : 6, 'c0'], [1, 'del'],
    [ctx === FREE ? 2 : 0, 'nonchar'], [3, 'special'],
  ]);
  switch (kind) {
    case 'ascii': return r.range(0x20, 0x7e);
    case 'xml': return r.pick('&<>"\'').codePointAt(0);
    case 'json': return r.pick('\\/').codePointAt(0);
    case 'ws': return r.pick([9, 10, 13]);
    case 'two': count('raw-2-byte'); return r.range(0x80, 0x7ff);
    case 'three': {
      count('raw-3-byte');
      for (;;) {
        const cp = r.range(0x800, 0xfffd);
        if (cp < 0xd800 || cp > 0xdfff) return cp;
      }
    }
    case 'four':
      count('raw-4-byte');
      return r.chance(0.5) ? r.range(0x1f300, 0x1faff) : r.range(0x10000, 0x10ffff);
    case 'c0': {
      const cp = r.range(noNul ? 1 : 0, 0x1f);
      count('c0-control');
      return cp;
    }
    case 'del': return 0x7f;
    case 'nonchar': return r.pick([0xfffe, 0xffff]);
    default: return r.pick(SPECIAL_CPS);
  }
}

const SNIPPETS = ['What is 2+2?', 'a & b', '<tool>', '</event>', ']]>',
  '<![CDATA[x]]>', '&amp;', '&lt;', '&#60;', '&#x1F600;', '"quoted"',
  "it's", '<thread>', '</thread>', '\\n', '{"a":1}', 'null', 'undefined',
  '[object Object]', 'café', '日本語', '😀', '👨‍👩‍👧', 'e\u0301', '\r\n', '\t',
  '<!-- c -->', '<?xml version="1.0"?>', 'x="1"', ' ', '1e+21', '\u00a0'];

function cpsOf(s) { return Array.from(s, (ch) => ch.codePointAt(0)); }
function textOf(cps) { return String.fromCodePoint(...cps); }

/* How a diagnostic quotes a string: JSON.stringify, DEL and C1 escaped too. */
function quoted(s) {
  return JSON.stringify(s).replace(/[\u007f-\u009f]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/* A string as code points, fit for where it goes. */
function genText(r, ctx, noNul, maxLen) {
  let n = r.weighted([[15, 0], [50, r.range(1, 12)], [25, r.range(13, 80)],
    [8, r.range(81, 400)], [2, r.range(1000, 5000)]]);
  if (maxLen !== undefined && n > maxLen) n = maxLen;
  const cps = [];
  const snippets = r.chance(0.3);
  while (cps.length < n) {
    if (snippets && r.chance(0.3)) cps.push(...cpsOf(r.pick(SNIPPETS)));
    else cps.push(genCodePoint(r, ctx, noNul));
  }
  return cps;
}

function hex4(r, n) {
  const h = n.toString(16).padStart(4, '0');
  const style = r.int(3);
  if (style === 0) return h;
  if (style === 1) return h.toUpperCase();
  return Array.from(h, (c) => (r.chance(0.5) ? c.toUpperCase() : c)).join('');
}

const SHORT_ESC = { 8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r' };

/* The JSON text of a string, each character written raw or escaped. */
function encodeString(r, cps) {
  const p = r.pick([0, 0.05, 0.3, 0.9]);
  let s = '"';
  for (const cp of cps) {
    if (cp === 0x22) s += r.chance(p) ? '\\u' + hex4(r, cp) : '\\"';
    else if (cp === 0x5c) s += r.chance(p) ? '\\u' + hex4(r, cp) : '\\\\';
    else if (cp === 0x2f) {
      if (r.chance(Math.max(p, 0.3))) {
        count('escape-slash');
        s += r.chance(0.8) ? '\\/' : '\\u' + hex4(r, cp);
      } else s += '/';
    } else if (cp < 0x20) {
      const short = SHORT_ESC[cp];
      if (short !== undefined && !r.chance(p / 2)) {
        count('escape-' + short);
        s += '\\' + short;
      } else s += '\\u' + hex4(r, cp);
    } else if (r.chance(p)) {
      if (cp > 0xffff) {
        const v = cp - 0x10000;
        count('escape-surrogate-pair');
        s += '\\u' + hex4(r, 0xd800 + (v >> 10)) + '\\u' + hex4(r, 0xdc00 + (v & 0x3ff));
      } else {
        count('escape-u');
        s += '\\u' + hex4(r, cp);
      }
    } else s += String.fromCodePoint(cp);
  }
  return s + '"';
}

/* Numbers: fixed spellings that are known to be hard, and random ones. */
const FIXED_NUMBERS = ['0', '-0', '-0.0', '0.0', '1.0', '1E2', '1e2',
  '1e+21', '1e21', '1E+21', '1e-7', '1e-6', '1E-7', '0.1', '0.5', '-0.1',
  '5e-324', '4.9406564584124654e-324', '2.4703282292062328e-324',
  '2.4703282292062327e-324', '1e-400', '-1e-400', '123.456e-789',
  '2.2250738585072014e-308', '2.2250738585072011e-308',
  '2.225073858507201e-308', '1.7976931348623157e308',
  '1.7976931348623158e308', '-1.7976931348623157E+308',
  '9007199254740991', '9007199254740992', '9007199254740993',
  '9007199254740995', '-9007199254740993', '18446744073709551615',
  '18446744073709551616', '123456789012345678901234567890',
  '-123456789012345678901234567890', '100000000000000000000',
  '999999999999999999999', '1000000000000000000000', '0.000001',
  '0.0000001', '0.30000000000000004', '0.1e1', '10e-1', '1e0', '1E-0',
  '1e+0', '1e007', '-5', '42', '1.5', '2.5', '-1.5', '4294967295',
  '4294967296', '1e300', '1.7e-308', '0.0e0', '-0e-0', '123e-20',
  '3.14159265358979323846264338327950288419716939937510582097494459',
  '0.1000000000000000055511151231257827021181583404541015625',
  '5e-7', '1.2345678901234567e-7', '9.999999999999999e22', '1e23',
  '8.41e21', '5.0e-324', '2e-323', '1.1754943508222875e-38',
  '6.103515625e-05', '1180591620717411303424', '295147905179352825856',
  '0.00001', '123456789012345680000', '1.2e-6', '100', '-100.25'];

function digits(r, n, lead) {
  let s = lead ? String(r.range(1, 9)) : '';
  while (s.length < n) s += String(r.int(10));
  return s;
}

const dv = new DataView(new ArrayBuffer(8));
function doubleOf(hi, lo) {
  dv.setUint32(0, hi >>> 0);
  dv.setUint32(4, lo >>> 0);
  return dv.getFloat64(0);
}

/* A finite double of random bits. */
function randomDouble(r) {
  for (;;) {
    const x = doubleOf(r.u32(), r.u32());
    if (Number.isFinite(x)) return x;
  }
}

/* A power of two, or its neighbours: where shortest output is subtle. */
function nearPowerOfTwo(r) {
  const e = r.range(0, 2046);
  const hi = (r.chance(0.5) ? 0x80000000 : 0) | (e << 20);
  const m = r.pick(['zero', 'one', 'ones', 'low']);
  if (m === 'zero') return doubleOf(hi, 0);
  if (m === 'one') return doubleOf(hi, 1);
  if (m === 'ones') return doubleOf(hi | 0xfffff, 0xffffffff);
  return doubleOf(hi, r.range(0, 15));
}

/* Some spelling of x that reads back as x, or near it. */
function spellDouble(r, x) {
  let s = r.weighted([[5, () => String(x)],
    [2, () => x.toExponential(r.int(21))],
    [2, () => x.toPrecision(r.range(1, 25))],
    [1, () => x.toPrecision(r.range(60, 100))]])();
  if (r.chance(0.3)) s = s.replace('e', 'E');
  if (r.chance(0.3)) s = s.replace(/([eE])\+/, '$1');
  if (r.chance(0.1)) s = s.replace(/[eE][+-]?/, (e) => e + '00');
  return s;
}

function genNumber(r) {
  const kind = r.weighted([[20, 'fixed'], [15, 'small'], [8, 'bigint'],
    [10, 'decimal'], [20, 'bits'], [10, 'pow2']]);
  count('number-' + kind);
  switch (kind) {
    case 'fixed': return r.pick(FIXED_NUMBERS);
    case 'small': return String(r.range(-10, 1000));
    case 'bigint': return (r.chance(0.3) ? '-' : '') + digits(r, r.range(16, 45), true);
    case 'decimal':
      for (;;) {
        let s = (r.chance(0.2) ? '-' : '') + (r.chance(0.4) ? '0' : digits(r, r.range(1, 12), true));
        s += '.' + digits(r, r.range(1, 30), false);
        if (r.chance(0.4)) s += r.pick(['e', 'E']) + r.pick(['', '+', '-']) + r.range(0, 330);
        if (Number.isFinite(Number(s))) return s; /* no overflow */
      }
    case 'bits': return spellDouble(r, randomDouble(r));
    default: {
      const x = nearPowerOfTwo(r);
      return r.chance(0.7) ? String(x) : spellDouble(r, x);
    }
  }
}

function genIteration(r) {
  return r.chance(0.7) ? String(r.range(0, 40)) : genNumber(r);
}

/* An iteration of a fold case: few of them, so that summaries fold. */
function genFoldIteration(r) {
  return r.weighted([[40, String(r.int(8))], [1, '2.0'], [1, '-0'],
    [1, '3e0'], [1, '1E1'], [1, '0.0']]);
}

const INT_KEYS = ['0', '1', '2', '3', '7', '10', '42', '100', '01', '00',
  '-1', '-0', '1.0', '1e3', '+1', ' 1', '1 ', '4294967294', '4294967295',
  '4294967296', '9007199254740993', '2147483647', '2147483648',
  '18446744073709551616', '123456789012345678901234567890', '０'];
const WORD_KEYS = ['expression', 'path', 'content', 'query', 'options',
  'type', 'id', 'name', 'value', 'items', 'a', 'b', 'z', 'ключ', '键',
  '🔑', 'with space', 'amp&', '<lt>', 'quote"', "apos'"];
const ODD_KEYS = ['__proto__', 'constructor', 'toString', 'length',
  'hasOwnProperty', 'valueOf', 'toJSON', ''];

function genKey(r, ctx) {
  return r.weighted([
    [35, () => { count('key-integer-like'); return cpsOf(r.pick(INT_KEYS)); }],
    [8, () => { count('key-integer-like'); return cpsOf(String(r.int(1000))); }],
    [3, () => { count('key-integer-like'); return cpsOf(String(r.u32())); }],
    [25, () => cpsOf(r.pick(WORD_KEYS))],
    [5, () => cpsOf(r.pick(ODD_KEYS))],
    [24, () => genText(r, ctx, true, 24)],
  ])();
}

/* Writes the JSON text of one case; nl: whether whitespace may hold LF. */
class Writer {
  constructor(r, nl) { this.r = r; this.nl = nl; }

  ws() {
    const r = this.r;
    const k = r.int(20);
    if (k < 12) return '';
    if (k < 17) return ' ';
    const set = this.nl ? ' \t\r\n' : ' \t\r';
    let s = '';
    for (let n = r.range(1, 4); n > 0; n--) s += r.pick(set);
    return s;
  }

  str(cps) { return encodeString(this.r, cps); }

  /* An array whose elements elem() writes. */
  array(elem) {
    const r = this.r;
    const n = r.weighted([[2, 0], [6, r.range(1, 4)], [2, r.range(5, 12)]]);
    const items = [];
    for (let i = 0; i < n; i++) items.push(elem());
    return '[' + this.ws() + items.join(this.ws() + ',' + this.ws()) + this.ws() + ']';
  }

  /*
   * An object of random members, each key once (thread-serialize refuses
   * a repeated key; a key drawn again is left out). String() of an
   * object with its own "toString" member throws in JavaScript (there is
   * no callable method to convert it with), so opaque objects have none.
   */
  object(depth, ctx, opaque) {
    const r = this.r;
    const n = r.weighted([[2, 0], [6, r.range(1, 5)], [2, r.range(6, 14)]]);
    const keys = new Set();
    const parts = [];
    for (let i = 0; i < n; i++) {
      const key = genKey(r, ctx);
      if (opaque && textOf(key) === 'toString') continue;
      if (keys.has(textOf(key))) continue;
      keys.add(textOf(key));
      parts.push(this.str(key) + this.ws() + ':' + this.ws() + this.value(depth + 1, ctx));
    }
    return '{' + this.ws() + parts.join(this.ws() + ',' + this.ws()) + this.ws() + '}';
  }

  value(depth, ctx) {
    const r = this.r;
    const deep = depth >= 4;
    return r.weighted([
      [25, () => this.str(genText(r, ctx, false))],
      [20, () => genNumber(r)],
      [5, () => r.pick(['true', 'false'])],
      [4, () => 'null'],
      [deep ? 0 : 10, () => this.array(() => this.value(depth + 1, ctx))],
      [deep ? 0 : 10, () => this.object(depth, ctx)],
    ])();
  }

  /* What String() turns into text: arrays join, objects are opaque. */
  result(depth) {
    const r = this.r;
    return r.weighted([
      [30, () => this.str(genText(r, OUT, false))],
      [15, () => genNumber(r)],
      [8, () => r.pick(['true', 'false'])],
      [6, () => 'null'],
      [depth < 3 ? 20 : 0, () => { count('result-array'); return this.array(() => this.result(depth + 1)); }],
      [12, () => { count('result-object'); return this.object(0, FREE, true); }],
    ])();
  }
}

const ROLES = [[30, 'user'], [30, 'assistant'], [8, 'system'], [2, 'other'],
  [1, 'User'], [1, ''], [1, 'tool'], [1, 'assistant '], [1, 'ai'],
  [1, 'human'], [1, 'user\u0000']];
const TOOL_NAMES = ['calculator', 'read_file', 'write_to_file', 'search',
  'bash', 'a&b', '<script>', '"quoted"', "it's", '', 'ünïcödé', '🔧 tool',
  'name with\nnewline', 'x'];
const UNKNOWN_TYPES = ['plan', 'approval', 'thinking', 'Message', 'TOOL_CALL',
  'tool_call ', '', 'constructor', '__proto__', 'toString', 'plän', '計画',
  'tool_result\n', 'message\u0000', 'a"b', 'c\\d'];

function genId(r) {
  return r.weighted([
    [4, () => cpsOf('call_' + r.u32().toString(36))],
    [2, () => cpsOf(String(r.int(10)))],
    [1, () => []],
    [1, () => cpsOf('toolu_01' + r.u32().toString(16).toUpperCase())],
    [2, () => genText(r, FREE, false, 10)],
  ])();
}

/*
 * One event: its members as [key code points, value text]; the field
 * values are the last of their key, earlier "decoys" of any type may
 * come first, and extra fields are mixed in.
 */
function genEvent(r, w, ids, plan, fold) {
  const type = r.weighted([[20, 'message'], [15, 'tool_call'],
    [15, 'tool_result'], [6, 'error'], [5, 'human_input_requested'],
    [5, 'human_input_received'], [5, 'completion'], [fold ? 15 : 6, 'summary'],
    [5, 'unknown']]);
  const iteration = () => (fold ? genFoldIteration(r) : genIteration(r));
  const m = [];
  const put = (k, v) => {
    if (!m.some(([j]) => textOf(j) === k)) m.push([cpsOf(k), v]);
  };
  let typeName = type;
  if (type === 'unknown') typeName = r.chance(0.8) ? r.pick(UNKNOWN_TYPES) : textOf(genText(r, FREE, false, 12));
  if (typeName !== type && ['message', 'tool_call', 'tool_result', 'error',
    'human_input_requested', 'human_input_received', 'completion',
    'summary'].includes(typeName)) typeName += '?';
  count('event-' + type);
  put('type', w.str(cpsOf(typeName)));
  switch (type) {
    case 'message': {
      const role = r.weighted(ROLES);
      count('role-' + (role === 'user' || role === 'assistant' || role === 'system' ? role : 'other'));
      put('role', w.str(cpsOf(role)));
      put('content', w.str(genText(r, OUT, false)));
      break;
    }
    case 'tool_call': {
      const name = r.chance(0.6) ? cpsOf(r.pick(TOOL_NAMES)) : genText(r, OUT, false, 20);
      put('toolName', w.str(name));
      if (r.chance(0.8)) {
        let id;
        if (ids.length > 0 && r.chance(0.8)) id = r.pick(ids);
        else ids.push(id = genId(r));
        put('toolCallId', w.str(id));
        plan.push({ call: textOf(id), name: textOf(name) });
      } else {
        count('call-without-id');
        plan.push({ call: null });
      }
      put('args', r.chance(0.1) ? '{}' : w.object(0, ESC));
      break;
    }
    case 'tool_result': {
      let id;
      if (ids.length > 0 && r.chance(0.75)) id = r.pick(ids);
      else if (r.chance(0.5)) ids.push(id = genId(r));
      else id = genId(r);
      put('toolCallId', w.str(id));
      put('result', w.result(0));
      plan.push({ result: textOf(id) });
      break;
    }
    case 'error':
      put('error', w.str(genText(r, OUT, false)));
      put('recoverable', r.pick(['true', 'false']));
      break;
    case 'human_input_requested':
      put('question', w.str(genText(r, OUT, false)));
      break;
    case 'human_input_received':
      put('response', w.str(genText(r, OUT, false)));
      break;
    case 'completion':
      put('result', w.str(genText(r, OUT, false)));
      break;
    case 'summary':
      put('summary', w.str(genText(r, OUT, false)));
      put('summarizedIterations', w.array(iteration));
      break;
    default:
      /*
       * anything at all, or nothing: the event is skipped. Only the
       * iteration is looked at (String() of it, which must not throw).
       */
      for (let n = r.int(4); n > 0; n--)
        put(r.pick(['content', 'args', 'result', 'role', 'toolCallId']), w.value(1, FREE));
      if (r.chance(0.3)) put('iteration', r.pick(['null', 'true', '[]', '{}', w.str(genText(r, FREE, false, 10))]));
      break;
  }
  if (type !== 'unknown' || r.chance(0.5)) put('iteration', iteration());
  if (type !== 'tool_call' && type !== 'tool_result' && type !== 'unknown') plan.push({});

  /* the fields in any order, extras among them */
  const taken = new Set(m.map(([k]) => textOf(k)));
  for (let n = r.weighted([[6, 0], [3, 1], [1, 3]]); n > 0; n--) {
    const k = r.weighted([[3, 'timestamp'], [2, 'metadata'], [1, 'id'],
      [1, 'durationMs'], [2, textOf(genText(r, FREE, true, 10))]]);
    if (taken.has(k)) continue;
    taken.add(k);
    count('extra-field');
    put(k, k === 'timestamp' && r.chance(0.5)
      ? w.str(cpsOf(new Date(1.7e12 + r.int(1e9)).toISOString())) : w.value(1, FREE));
  }
  for (let i = m.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [m[i], m[j]] = [m[j], m[i]];
  }

  /* the text, and where the value of the (last) "type" member starts */
  let s = '{' + w.ws();
  let typeAt = -1;
  m.forEach(([k, v], i) => {
    if (i > 0) s += w.ws() + ',' + w.ws();
    s += w.str(k) + w.ws() + ':' + w.ws();
    if (textOf(k) === 'type') typeAt = s.length;
    s += v;
  });
  s += w.ws() + '}';
  return { text: s, typeAt, unknown: type === 'unknown' ? typeName : null };
}

/* Line and column (from 1, columns in characters) of JS index i of s;
   a byte order mark at the start takes no column. */
function lineCol(s, i) {
  let line = 1, col = 1;
  for (let k = s.charCodeAt(0) === 0xfeff ? 1 : 0; k < i; k++) {
    const u = s.charCodeAt(k);
    if (u === 10) {
      line++;
      col = 1;
    } else if (u < 0xdc00 || u > 0xdfff) col++;
  }
  return [line, col];
}

/* How each tool_result's toolCallId resolves over the whole thread. */
function countResolutions(plan) {
  plan.forEach((p, i) => {
    if (p.result === undefined) return;
    const calls = plan.map((q, j) => [q, j]).filter(([q]) => q.call === p.result);
    if (calls.length === 0) count('result-unmatched');
    else if (new Set(calls.map(([q]) => q.name)).size > 1) count('result-overridden');
    else if (calls.some(([, j]) => j < i)) count('result-earlier-call');
    else count('result-later-call');
  });
}

const PREFIXES = ['Based on the above thread, I will now', '<&>"\'',
  'line one\nline two', 'ends with a newline\n', '\n', '  spaced  ',
  '--version', '-n', 'ünï 😀 ☃', '\ttab\r\n', '</thread>', '&amp;'];

function genCase(seed, i, mode) {
  const r = new Rand(seed + ':' + i);
  const lines = mode === 'lines' || (mode !== 'array' && r.chance(0.4));
  const w = new Writer(r, !lines);
  const nev = r.weighted([[3, 0], [25, r.range(1, 5)], [60, r.range(6, 30)], [12, r.range(31, 120)]]);
  const ids = [];
  const plan = [];
  const events = [];
  for (let k = 0; k < nev; k++) events.push(genEvent(r, w, ids, plan, mode === 'fold'));
  countResolutions(plan);

  let text = r.chance(0.15) ? '\uFEFF' : '';
  if (text) count('bom');
  const typeAt = [];
  if (!lines) {
    count('doc-array');
    text += w.ws() + '[' + w.ws();
    events.forEach((e, k) => {
      if (k > 0) text += w.ws() + ',' + w.ws();
      typeAt.push(text.length + e.typeAt);
      text += e.text;
    });
    text += w.ws() + ']' + w.ws();
  } else {
    count('doc-lines');
    const eol = () => (r.chance(0.2) ? (count('crlf'), '\r\n') : '\n');
    events.forEach((e, k) => {
      while (r.chance(0.1)) text += w.ws() + eol();
      text += w.ws();
      typeAt.push(text.length + e.typeAt);
      text += e.text + w.ws();
      if (k < events.length - 1 || r.chance(0.8)) text += eol();
    });
    while (r.chance(0.1)) text += w.ws() + eol();
  }
  if (nev === 0) count(lines ? 'empty-thread-no-array' : 'empty-thread-array');

  const name = `case-${String(i).padStart(3, '0')}.json`;
  const stdin = i % 5 === 4;
  let warn = '';
  events.forEach((e, k) => {
    if (e.unknown === null) return;
    const [line, col] = lineCol(text, typeAt[k]);
    warn += `${stdin ? '<stdin>' : name}:${line}:${col}: warning: event ${k}: unknown type ${quoted(e.unknown)}, skipped\n`;
  });

  let prefix = null;
  if (r.chance(0.4)) {
    prefix = r.weighted([[2, ''], [6, r.pick(PREFIXES)], [3, textOf(genText(r, OUT, false, 40))]]);
    count(prefix === '' ? 'prefix-empty' : 'prefix');
  }
  return { name, text, prefix, warn, stdin };
}

function main() {
  const argv = process.argv.slice(2);
  let seed = process.env.ORACLE_SEED || '1';
  let n = 100;
  let mode = 'mixed';
  let dir = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-s' || a === '--seed') seed = argv[++i];
    else if (a === '-n' || a === '--count') n = Number(argv[++i]);
    else if (a === '-m' || a === '--mode') mode = argv[++i];
    else if (dir === null && !a.startsWith('-')) dir = a;
    else dir = undefined;
  }
  if (!dir || !Number.isInteger(n) || n < 0 || !['mixed', 'array', 'lines', 'fold'].includes(mode)) {
    process.stderr.write('usage: node gen.js [-s SEED] [-n COUNT] [-m mixed|array|lines|fold] DIR\n');
    process.exit(2);
  }
  fs.mkdirSync(dir, { recursive: true });
  const forbidden = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  for (let i = 0; i < n; i++) {
    const c = genCase(seed, i, mode);
    const base = path.join(dir, c.name.replace(/\.json$/, ''));
    fs.writeFileSync(base + '.json', c.text, 'utf8');
    if (c.prefix !== null) fs.writeFileSync(base + '.args', c.prefix, 'utf8');
    if (c.stdin) fs.writeFileSync(base + '.stdin', '');
    /* the oracle reads the bytes back, as the tool will */
    const input = fs.readFileSync(base + '.json', 'utf8');
    let xml;
    try {
      xml = serializeThreadToXml(parseEvents(input), c.prefix === null ? undefined : { responsePrefix: c.prefix });
    } catch (err) {
      throw new Error(`${c.name} (seed ${seed}): the generator wrote bad JSON: ${err.message}`);
    }
    const doc = xml.slice(0, xml.indexOf('</thread>') + 9);
    if (forbidden.test(doc))
      throw new Error(`${c.name} (seed ${seed}): the generator let a character XML forbids reach the output`);
    fs.writeFileSync(base + '.expected', xml + '\n', 'utf8');
    /* no random numbers below: the cases stay those of the seed */
    const events = parseEvents(input);
    const options = { allEvents: events };
    if (c.prefix !== null) options.responsePrefix = c.prefix;
    if (events.some((e) => e.type === 'summary')) count('with-summary');
    if (!isFoldable(events)) {
      count('fold-refused');
      fs.writeFileSync(base + '.keep', '');
    } else {
      const folded = foldSummaries(events);
      if (folded.length !== events.length || folded.some((e, k) => e !== events[k])) {
        count('fold');
        /* a summary written before an event that came before it */
        const kept = new Set(folded);
        const inOrder = events.filter((x) => kept.has(x));
        if (folded.some((e, k) => e !== inOrder[k])) count('fold-moved');
        fs.writeFileSync(base + '.keep', '');
        fs.writeFileSync(base + '.folded', serializeThreadToXml(folded, options) + '\n', 'utf8');
      } else if (events.some((e) => e.type === 'summary')) count('fold-nothing');
    }
    fs.writeFileSync(base + '.warn', c.warn, 'utf8');
    count('cases');
  }
  const lines = [...stats.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k} ${v}\n`);
  fs.writeFileSync(path.join(dir, 'stats'), lines.join(''));
}

main();
