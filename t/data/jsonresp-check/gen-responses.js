// gen-responses.js [COUNT [SEED]]: prints COUNT (default 200) model
// responses as JSON lines for the jsonresp-check oracle test: about half
// follow seed 002's schema (with every danger level, optional parts
// present or not, forms, media, progress), the others break it in one
// small way each (a missing or extra property, a wrong type, an enum value
// off by a letter, an empty array, a number out of range, a duplicate
// concern, a plain-string or "label" suggestion) or break a seed rule
// (duplicate field id, options missing, scale min not below max).
// A blank line now and then is skipped by --lines. Deterministic: the same
// SEED gives the same lines.
'use strict';

const count = Number(process.argv[2] || 200);
let state = Number(process.argv[3] || 20240501) >>> 0;

// mulberry32: a small seeded generator, so the test is repeatable
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const chance = (p) => rand() < p;
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const CONCERNS = ['suicide', 'self_harm', 'harm_others', 'violence', 'sexual_abuse',
  'substance_abuse', 'eating_disorder', 'domestic_violence', 'child_safety', 'terrorism'];
const BLOCKS = ['text', 'heading', 'info', 'warning', 'error', 'success', 'code'];
const STYLES = ['default', 'bold', 'italic', 'code', 'quote'];
const WORDS = ['breathe', 'slowly', 'Grüße', 'naïve', '日本語', 'tab\there', 'line\nbreak',
  'quote "x"', 'back\\slash', 'emoji 🙂', '<b>&amp;</b>', '', ' '];

function words(n) {
  const w = [];
  for (let i = 0; i < n; i++) w.push(pick(WORDS));
  return w.join(' ');
}

function field(i) {
  const type = pick(['radio', 'checkbox', 'select', 'text', 'textarea', 'number', 'scale']);
  const f = { id: 'f' + i, type, label: words(int(1, 3)) };
  if (chance(0.5)) f.required = chance(0.5);
  if (['radio', 'checkbox', 'select'].includes(type)) {
    f.options = [];
    for (let k = int(1, 4); k > 0; k--) f.options.push({ value: 'v' + k, label: words(1) });
  }
  if (type === 'scale') {
    f.min = int(0, 3);
    f.max = f.min + int(1, 9);
  }
  if (type === 'number' && chance(0.5)) {
    f.min = int(-5, 5);
    f.max = int(-5, 50);	// a number field's range is not checked
  }
  if (['text', 'textarea', 'number'].includes(type) && chance(0.5)) f.placeholder = words(2);
  if (chance(0.3)) f.helpText = words(2);
  return f;
}

function valid() {
  const level = pick([null, null, null, 'warning', 'critical', 'emergency']);
  const r = {
    type: 'response',
    safety: {
      is_safe: level === null || level === 'warning',
      danger_level: level,
      detected_concerns: level === null ? [] : [pick(CONCERNS)],
      requires_intervention: level === 'critical' || level === 'emergency',
    },
    content: { text_blocks: [] },
    metadata: { model: pick(['gpt-4o-mini', 'llama3', 'm']) },
  };
  if (chance(0.7)) r.safety.safety_message = level === null ? null : words(3);
  for (let k = int(1, 3); k > 0; k--) {
    const b = { type: pick(BLOCKS), content: words(int(0, 5)) };
    if (chance(0.3)) b.style = pick(STYLES);
    r.content.text_blocks.push(b);
  }
  if (chance(0.6)) {
    r.content.suggestions = [];
    for (let k = int(0, 4); k > 0; k--) {
      const s = { text: 'option ' + words(1) + k };
      if (chance(0.3)) s.value = words(2);
      r.content.suggestions.push(s);
    }
  }
  if (chance(0.5)) r.content.media = chance(0.5) ? [] :
    [{ type: pick(['image', 'video', 'audio']), url: '/a/b.' + int(1, 9), alt: words(1) }];
  if (chance(0.5)) {
    if (chance(0.3)) r.content.form = null;
    else {
      const form = { fields: [] };
      if (chance(0.5)) form.title = words(2);
      if (chance(0.3)) form.description = words(4);
      if (chance(0.3)) form.submit_label = 'Send';
      for (let i = int(1, 4); i > 0; i--) form.fields.push(field(i));
      r.content.form = form;
    }
  }
  if (chance(0.4)) r.progress = chance(0.3) ? null : {
    percentage: pick([0, 5, 50.5, 100, 1e1]),
    current_topic: 'intro',
    topics_covered: ['a'],
    topics_remaining: [],
  };
  if (chance(0.5)) r.metadata.tokens_used = pick([0, 180, 2.5e3]);
  if (chance(0.3)) r.metadata.confidence = pick([0, 0.95, 1]);
  if (chance(0.5)) r.metadata.language = pick(['en', 'de', 'fr']);
  return r;
}

// One small break, chosen so that it applies to this response.
function breakIt(r) {
  const c = r.content;
  const form = c.form && typeof c.form === 'object' ? c.form : null;
  const ways = [
    () => { delete r[pick(['type', 'safety', 'content', 'metadata'])]; },
    () => { delete r.safety[pick(['is_safe', 'danger_level', 'detected_concerns', 'requires_intervention'])]; },
    () => { delete c.text_blocks[0][pick(['type', 'content'])]; },
    () => { delete r.metadata.model; },
    () => { r.type = pick(['Response', 'responses', 'invalid', '']); },
    () => { r.safety.danger_level = pick(['high', 'Critical', 'none', '', 0, false]); },
    () => { r.safety.is_safe = pick(['true', 1, null]); },
    () => { r.safety.requires_intervention = pick(['false', 0]); },
    () => { r.safety.detected_concerns = ['suicide', 'suicide']; },
    () => { r.safety.detected_concerns = [pick(['Suicide', 'anxiety', 'self-harm'])]; },
    () => { r.safety.safety_message = pick([5, true, ['x']]); },
    () => { c.text_blocks = []; },
    () => { c.text_blocks = { type: 'text', content: 'x' }; },
    () => { c.text_blocks[0].type = pick(['paragraph', 'Text', 'title']); },
    () => { c.text_blocks[0].style = pick(['underline', 'Bold']); },
    () => { c.text_blocks[0].content = pick([null, 42, ['x']]); },
    () => { c.suggestions = ['Option 1', 'Option 2']; },
    () => { c.suggestions = [{ label: 'Option 1' }]; },
    () => { c.suggestions = [{ text: '' }]; },
    () => { c.suggestions = [{ text: 'a', action: 'send_message' }]; },
    () => { c.media = [{ type: 'pdf', url: '/x.pdf' }]; },
    () => { c.media = [{ type: 'image', url: '' }]; },
    () => { c.media = [{ type: 'image' }]; },
    () => { r.progress = { percentage: pick([101, -1, '50']) }; },
    () => { r.progress = 'half'; },
    () => { r.metadata.tokens_used = pick([-1, '100', null]); },
    () => { r.metadata.confidence = pick([1.5, -0.1]); },
    () => { r.metadata.model = pick([null, 4]); },
    () => { r[pick(['meta', 'extra', 'next_step'])] = {}; },
    () => { r.safety.extra = true; },
    () => { c.forms = []; },
    () => { r.metadata.temperature = 0.2; },
    () => { c.form = { fields: [] }; },
    () => { c.form = { title: 'x' }; },
    () => { c.form = { fields: [{ id: 'a', type: 'date', label: 'When' }] }; },
    () => { c.form = { fields: [{ id: '', type: 'text', label: 'x' }] }; },
    () => { c.form = { fields: [{ id: 'a', type: 'radio', label: 'x', options: [{ value: 'v' }] }] }; },
    // the seed's rules, which the schema cannot state
    () => { c.form = { fields: [{ id: 'a', type: 'text', label: 'x' }, { id: 'a', type: 'number', label: 'y' }] }; },
    () => { c.form = { fields: [{ id: 'a', type: pick(['radio', 'checkbox', 'select']), label: 'x' }] }; },
    () => { c.form = { fields: [{ id: 'a', type: 'select', label: 'x', options: [] }] }; },
    () => { c.form = { fields: [{ id: 'a', type: 'scale', label: 'x', min: 1 }] }; },
    () => { c.form = { fields: [{ id: 'a', type: 'scale', label: 'x', min: 5, max: pick([5, 1]) }] }; },
  ];
  if (form) {
    ways.push(() => { form.fields[0].id = 7; });
    ways.push(() => { delete form.fields[0].label; });
    ways.push(() => { form.fields[0].required = 'yes'; });
  }
  pick(ways)();
  return r;
}

const out = [];
for (let i = 0; i < count; i++) {
  if (chance(0.05)) out.push(chance(0.5) ? '' : '  \t');
  out.push(JSON.stringify(chance(0.5) ? valid() : breakIt(valid())));
}
process.stdout.write(out.join('\n') + '\n');
