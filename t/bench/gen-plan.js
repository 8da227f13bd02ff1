'use strict';
// gen-plan.js DIR LINES [SEED]: writes the documents of the 2020-12
// benchmark of jsonresp-check, plans of work as a model writes them under
// plan-2020.schema.json, made deterministically from SEED (same arguments,
// same bytes):
//   DIR/plan.jsonl  LINES plans as JSON lines: a tree of tasks 2 to 4
//                   levels deep (the root, its children, theirs...), each
//                   task with an id, a title, a kind, a status and some of
//                   owner, estimate, tags, dependsOn, notes
//   DIR/invalid     "LINE FAULT" for each plan made invalid, in order:
//                   about one in ten, with one fault put in one task (a
//                   task at the deepest level one time in two) of these:
//                     unevaluated  a member no schema of the task names
//                     estimate-extra  the same inside an estimate
//                     type         a value of the wrong type
//                     required     a required member removed
//                     blocked      status "blocked" without notes
//                     enum         a kind or status not in the list
//                     pattern      an id or owner not of its pattern
//                     length       an empty title or one too long
//                     unique       a tag twice
// Every other plan is valid. Titles and notes hold unicode, quotes and
// backslashes, as a model's text does.
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
if (args.length < 2) {
  process.stderr.write('usage: gen-plan.js DIR LINES [SEED]\n');
  process.exit(2);
}
const [dir, linesArg, seedArg] = args;
const nlines = Number(linesArg);
const rand = require('./xorshift')(seedArg);

function pick(a) {
  return a[rand(a.length)];
}

const verbs = ['write', 'review', 'test', 'deploy', 'measure', 'document',
  'refactor', 'migrate', 'profile', 'fix', 'design', 'split', 'merge'];
const things = ['parser', 'schema', 'cache', 'index', 'release', 'report',
  'api', 'store', 'prompt', 'retry', 'budget', 'backlog', 'fixtures'];
const extras = [' "v2"', ' (C:\\build)', ' — draft', ' für Größe', ' 日本語',
  ' 😀', ' naïve', ' a < b & c', ' \u00a0now', ' école'];
const tagWords = ['backend', 'frontend', 'ops', 'docs', 'perf', 'security',
  'ux', 'data', 'infra', 'qa'];
const owners = ['@ana', '@bo', '@chen-li', '@dev_ops', '@mara', '@oskar'];
const statuses = ['todo', 'doing', 'done', 'blocked'];
const kinds = ['task', 'step', 'check'];

function title() {
  let t = pick(verbs) + ' the ' + pick(things);
  t = t[0].toUpperCase() + t.slice(1);
  if (rand(3) === 0) t += ' and ' + pick(verbs) + ' the ' + pick(things);
  if (rand(4) === 0) t += pick(extras);
  return t;
}

// task(depth, last, id): a task at depth (1 for the root); its subtree
// reaches depth last down its first child.
function task(depth, last, id) {
  const t = { id, kind: depth === 1 ? 'goal' : pick(kinds), title: title(),
    status: pick(statuses) };
  if (rand(2)) t.owner = rand(5) === 0 ? null : pick(owners);
  if (rand(2))
    t.estimate = { value: rand(4) === 0 ? 0.5 : 1 + rand(40),
      unit: pick(['min', 'h', 'd']) };
  if (rand(3) === 0) {
    const n = 1 + rand(3);
    const first = rand(tagWords.length);
    t.tags = [];
    for (let i = 0; i < n; i++)
      t.tags.push(tagWords[(first + i * 3) % tagWords.length]);
  }
  if (t.status === 'blocked' || rand(4) === 0)
    t.notes = 'Waiting on ' + title().toLowerCase() + '; see "' +
      pick(things) + '\\notes".';
  if (depth < last) {
    const n = 1 + rand(3);
    t.children = [];
    for (let i = 0; i < n; i++) {
      const c = task(depth + 1, i === 0 || rand(2) ? last : depth + 1,
        id + '-' + (i + 1));
      if (i > 0 && rand(3) === 0) c.dependsOn = [id + '-' + i];
      t.children.push(c);
    }
  }
  return t;
}

// the tasks of a plan with their depths
function walk(t, depth, all) {
  all.push([t, depth]);
  for (const c of t.children || []) walk(c, depth + 1, all);
  return all;
}

const faults = ['unevaluated', 'estimate-extra', 'type', 'required',
  'blocked', 'enum', 'pattern', 'length', 'unique'];
function spoil(plan) {
  const all = walk(plan, 1, []);
  const deepest = Math.max(...all.map(x => x[1]));
  const pool = rand(2) ? all.filter(x => x[1] === deepest) : all;
  const t = pick(pool)[0];
  const fault = pick(faults);
  switch (fault) {
  case 'unevaluated':
    t[pick(['priority', 'subtasks', 'Title', 'due', 'assignee'])] =
      pick(['high', [], 'x', '2025-01-01', '@ana']);
    break;
  case 'estimate-extra':
    t.estimate = { value: 2, unit: 'h', confidence: 0.8 };
    break;
  case 'type':
    switch (rand(4)) {
    case 0: t.estimate = { value: '3h', unit: 'h' }; break;
    case 1: t.title = 42; break;
    case 2: t.tags = ['ops', 7]; break;
    default: t.children = { id: 'x', title: 'y' }; break;
    }
    break;
  case 'required':
    delete t[pick(['id', 'title', 'status', 'kind'])];
    break;
  case 'blocked':
    t.status = 'blocked';
    delete t.notes;
    break;
  case 'enum':
    if (rand(2)) t.status = 'in-progress';
    else t.kind = 'epic';
    break;
  case 'pattern':
    if (rand(2)) t.id = 'Step ' + t.id;
    else t.owner = 'ana';
    break;
  case 'length':
    t.title = rand(2) ? '' : 'Write the '.repeat(13);
    break;
  default:
    t.tags = ['perf', 'ops', 'perf'];
    break;
  }
  return fault;
}

// plan.jsonl and invalid, each written whole (about 11 MB and 14 KB)
const plans = [];
const bad = [];
for (let i = 1; i <= nlines; i++) {
  const plan = task(1, 2 + rand(3), pick(things) + '-' + i);
  if (rand(10) === 0) bad.push(i + ' ' + spoil(plan) + '\n');
  plans.push(JSON.stringify(plan) + '\n');
}
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'plan.jsonl'), plans.join(''));
fs.writeFileSync(path.join(dir, 'invalid'), bad.join(''));
