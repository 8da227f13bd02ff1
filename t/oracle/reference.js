'use strict';
// The oracle for thread-serialize: seed 004's serializeThreadToXml written
// in JavaScript from the seed's text, so that JSON.stringify and String()
// are JavaScript's own. As a program:
//   node reference.js [--response-prefix TEXT] [FILE]
// reads a JSON array or JSON lines (FILE or stdin) and prints the document
// and a newline, as thread-serialize --keep-summarized does; with --fold
// it first folds summarized events as thread-serialize does by default.

function escapeXml(text) {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function serializeThreadToXml(events, options) {
  // toolCallId -> toolName over the whole thread, in one pass. (allEvents,
  // not in the seed: the thread before foldSummaries left events out.)
  const toolNames = new Map();
  for (const event of (options && options.allEvents) || events) {
    if (event.type === 'tool_call') toolNames.set(event.toolCallId, event.toolName);
  }
  const lines = ['<thread>'];
  events.forEach((event, id) => {
    const it = escapeXml(String(event.iteration));
    switch (event.type) {
      case 'message': {
        const t = event.role === 'user' ? 'human' : event.role === 'assistant' ? 'ai' : 'system';
        lines.push(`  <event type="${t}" id="${id}" iteration="${it}">${escapeXml(event.content)}</event>`);
        break;
      }
      case 'tool_call':
        lines.push(`  <event type="tool_input" id="${id}" name="${escapeXml(event.toolName)}" iteration="${it}">${escapeXml(JSON.stringify(event.args))}</event>`);
        break;
      case 'tool_result': {
        const name = toolNames.get(event.toolCallId) ?? 'unknown';
        lines.push(`  <event type="tool_output" id="${id}" name="${escapeXml(name)}" status="success" iteration="${it}">${escapeXml(String(event.result))}</event>`);
        break;
      }
      case 'error':
        lines.push(`  <event type="error" id="${id}" iteration="${it}" recoverable="${escapeXml(String(event.recoverable))}">${escapeXml(event.error)}</event>`);
        break;
      case 'human_input_requested':
        lines.push(`  <event type="human_input_requested" id="${id}" iteration="${it}">${escapeXml(event.question)}</event>`);
        break;
      case 'human_input_received':
        lines.push(`  <event type="human_input_received" id="${id}" iteration="${it}">${escapeXml(event.response)}</event>`);
        break;
      case 'completion':
        lines.push(`  <event type="completion" id="${id}" iteration="${it}">${escapeXml(event.result)}</event>`);
        break;
      case 'summary':
        lines.push(`  <event type="summary" id="${id}" iteration="${it}" summarizedIterations="${escapeXml(event.summarizedIterations.join(','))}">${escapeXml(event.summary)}</event>`);
        break;
      default:
        break; // unknown type: skipped, its id used up
    }
  });
  lines.push('</thread>');
  let xml = lines.join('\n');
  if (options && options.responsePrefix) xml += '\n' + options.responsePrefix;
  return xml;
}

/*
 * The fold of thread-serialize(1), not in the seed, written from the man
 * page's rule as plainly as it reads (quadratic; for tests only): an event
 * is left out when a later summary lists its iteration; a summary goes to
 * the least place of the events it leaves out, or stays where it is.
 * The events kept are returned in order, for serializeThreadToXml.
 */
function isFoldable(events) {
  return events.every((e) => e === null || typeof e !== 'object' ||
    e.type !== 'summary' || (Array.isArray(e.summarizedIterations) &&
      e.summarizedIterations.every((k) => Number.isInteger(k) && k >= 0)));
}

function foldSummaries(events) {
  const n = events.length;
  const lists = (j, it) => events[j] !== null && events[j].type === 'summary' &&
    typeof it === 'number' && events[j].summarizedIterations.includes(it);
  const out = events.map((e, i) => events.some((_, j) => j > i && lists(j, e.iteration)));
  const place = [];
  for (let j = 0; j < n; j++) {
    place.push(j);
    if (events[j] === null || events[j].type !== 'summary') continue;
    for (let i = 0; i < j; i++)
      if (lists(j, events[i].iteration)) place[j] = Math.min(place[j], place[i]);
  }
  return [...events.keys()].filter((i) => !out[i])
    .sort((a, b) => place[a] - place[b] || a - b).map((i) => events[i]);
}

// A JSON array, or JSON lines (blank lines ignored).
function parseEvents(text) {
  const t = text.replace(/^\uFEFF/, '');
  if (/^\s*\[/.test(t)) return JSON.parse(t);
  return t.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

module.exports = { escapeXml, serializeThreadToXml, parseEvents, isFoldable,
  foldSummaries };

if (require.main === module) {
  const args = process.argv.slice(2);
  const options = {};
  let file = null;
  let fold = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--response-prefix') options.responsePrefix = args[++i];
    else if (args[i] === '--fold') fold = true;
    else file = args[i];
  }
  const fs = require('fs');
  const text = fs.readFileSync(file === null || file === '-' ? 0 : file, 'utf8');
  const events = parseEvents(text);
  options.allEvents = events;
  process.stdout.write(serializeThreadToXml(fold ? foldSummaries(events) : events, options) + '\n');
}
