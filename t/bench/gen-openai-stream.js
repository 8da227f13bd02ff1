'use strict';
// gen-openai-stream: the events of toolcall-parse --format hermes --events
// (JSON lines on standard input: the prose and the calls of a model's
// answer, in order) written as the server-sent events of an OpenAI Chat
// Completions stream of that answer, DIR/openai.sse: the prose as content
// deltas, each call as tool_calls deltas of its own index, its arguments
// a JSON string cut into pieces, then finish_reason and data: [DONE]. A
// piece is PIECE characters, near what a server sends when it batches a
// few tokens a chunk; no piece ends inside a surrogate pair, as none of a
// server's would. The events are taken up to the one that brings the
// stream past BYTES; DIR/openai-hermes.txt holds the same prose and calls
// in hermes markup, so that the two formats can be timed on one answer.
//
//   toolcall-parse --format hermes --events hermes.txt |
//       node gen-openai-stream.js BYTES PIECE DIR
//
// toolcall-parse --format openai must write, for openai.sse, exactly what
// toolcall-parse --format hermes writes for openai-hermes.txt.
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const limit = Number(process.argv[2]);
const piece = Number(process.argv[3]);
const dir = process.argv[4];
const sse = fs.openSync(path.join(dir, 'openai.sse'), 'w');
const hermes = fs.openSync(path.join(dir, 'openai-hermes.txt'), 'w');
let total = 0;
let done = false;
const head = '{"id":"chatcmpl-bench","object":"chat.completion.chunk",' +
    '"created":1727389200,"model":"bench","choices":[{"index":0,"delta":';
const out = [];
let size = 0;

function put(s) {
	out.push(s);
	size += s.length;
	total += Buffer.byteLength(s);
	if (size > 1 << 20)
		flush();
}

function flush() {
	if (out.length > 0)
		fs.writeSync(sse, out.join(''));
	out.length = 0;
	size = 0;
}

function chunk(delta, finish) {
	put('data: ' + head + JSON.stringify(delta) + ',"finish_reason":' +
	    (finish ? JSON.stringify(finish) : 'null') + '}]}\n\n');
}

// s in pieces of about n UTF-16 units, never splitting a pair
function* pieces(s, n) {
	for (let i = 0; i < s.length; ) {
		let j = Math.min(i + n, s.length);
		const c = s.charCodeAt(j - 1);
		if (j < s.length && c >= 0xd800 && c <= 0xdbff)
			j++;
		yield s.slice(i, j);
		i = j;
	}
}

let index = 0;
const rl = readline.createInterface({ input: process.stdin,
    crlfDelay: Infinity });
rl.on('line', (line) => {
	if (done)
		return;
	const e = JSON.parse(line);
	if (e.type === 'text') {
		fs.writeSync(hermes, e.text);
		for (const p of pieces(e.text, piece))
			chunk({ content: p });
	} else if (e.type === 'tool_call') {
		const args = JSON.stringify(e.arguments);
		fs.writeSync(hermes, '<tool_call>\n{"name": ' +
		    JSON.stringify(e.tool_name) + ', "arguments": ' + args +
		    '}\n</tool_call>');
		let first = true;
		for (const p of pieces(args, piece)) {
			const d = { index: index, function: { arguments: p } };
			if (first) {
				d.id = 'call_' + index;
				d.type = 'function';
				d.function = { name: e.tool_name, arguments: p };
			}
			chunk({ tool_calls: [d] });
			first = false;
		}
		index++;
	} else
		throw new Error('unexpected event: ' + line.slice(0, 200));
	done = total >= limit;
});
rl.on('close', () => {
	chunk({}, 'tool_calls');
	put('data: [DONE]\n\n');
	flush();
	fs.closeSync(sse);
	fs.closeSync(hermes);
});
