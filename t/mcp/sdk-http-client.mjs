// sdk-http-client.mjs [--transport http|sse] [--negotiate legacy|auto]
//     [--bearer TOKEN] [--calls FILE] URL [TOOL ARGUMENTS]:
// the official v2 client SDK (@modelcontextprotocol/client) as the client
// that shows the tests' HTTP servers good before mcp-run meets them. It
// connects to URL over Streamable HTTP (default) or the legacy HTTP+SSE
// transport, negotiating as --negotiate says (legacy, the SDK's default:
// initialize; auto: the server/discover probe first), with
// "Authorization: Bearer TOKEN" on every request when given, and writes
//   the negotiated protocol version
//   the names of the server's tools, one line, separated by spaces
//   and, with TOOL, the result of calling TOOL with ARGUMENTS (JSON) as
//   one line of JSON: {"content":…,"isError":…} (isError only when set)
// then ends its session (DELETE). TLS trusts what NODE_EXTRA_CA_CERTS
// names. With --calls FILE, the baseline of the benchmark over HTTP
// instead: it makes the calls of FILE (toolcall-parse's records, one a
// line: {"server_name":S,"tool_name":T,"arguments":{...}}) one at a
// time and writes for each, in place of the above, the record mcp-run
// writes: {"type":"tool_result","toolCallId":"call-0-K","toolName":T,
// "serverName":S,"result":TEXT,"iteration":0} (TEXT the text items joined
// with "\n"; an error result fails the run), as t/bench/mcp-sdk-client.mjs
// does over stdio. Status 0, or 1 with "sdk-http-client: MESSAGE" on
// stderr.

import { readFileSync } from 'node:fs';
import { Client, SSEClientTransport, StreamableHTTPClientTransport }
    from '@modelcontextprotocol/client';

function fail(message) {
	process.stderr.write(`sdk-http-client: ${message}\n`);
	process.exit(1);
}

let kind = 'http';
let mode = 'legacy';
let bearer;
let calls;
const argv = process.argv.slice(2);
while (argv.length > 0 && argv[0].startsWith('--')) {
	const opt = argv.shift();
	const value = argv.shift();
	if (value === undefined)
		fail(`${opt}: an option and its value expected`);
	if (opt === '--transport' && ['http', 'sse'].includes(value))
		kind = value;
	else if (opt === '--negotiate' && ['legacy', 'auto'].includes(value))
		mode = value;
	else if (opt === '--bearer')
		bearer = value;
	else if (opt === '--calls')
		calls = value;
	else
		fail(`${opt} ${value}: unknown option or value`);
}
const [url, tool, args] = argv;
if (url === undefined || (tool !== undefined && args === undefined))
	fail('usage: sdk-http-client.mjs [--transport http|sse]' +
	    ' [--negotiate legacy|auto] [--bearer TOKEN] [--calls FILE]' +
	    ' URL [TOOL ARGUMENTS]');

const requestInit = bearer === undefined ? {} :
    { headers: { Authorization: `Bearer ${bearer}` } };
const transport = kind === 'sse' ?
    new SSEClientTransport(new URL(url), { requestInit,
	eventSourceInit: { fetch: (u, init) => fetch(u, { ...init,
	    headers: { ...init?.headers, ...requestInit.headers } }) } }) :
    new StreamableHTTPClientTransport(new URL(url), { requestInit });
const client = new Client({ name: 'llmkit-sdk-http-client', version: '1.0.0' },
    { versionNegotiation: { mode } });
// The calls of the benchmark, and their records.
async function bench(file) {
	const out = [];
	const lines = readFileSync(file, 'utf8').split('\n')
	    .filter((l) => l !== '');
	for (let k = 1; k <= lines.length; k++) {
		const { server_name: server, tool_name: name, arguments: a } =
		    JSON.parse(lines[k - 1]);
		const r = await client.callTool({ name, arguments: a });
		const text = r.content.filter((c) => c.type === 'text')
		    .map((c) => c.text).join('\n');
		if (r.isError)
			fail(`call ${k}: ${name}: ${text}`);
		out.push(JSON.stringify({ type: 'tool_result',
		    toolCallId: `call-0-${k}`, toolName: name,
		    serverName: server, result: text, iteration: 0 }));
	}
	return out;
}

try {
	await client.connect(transport);
	if (calls !== undefined) {
		const out = await bench(calls);
		process.stdout.write(out.length > 0 ? out.join('\n') + '\n' : '');
		if (kind === 'http' && transport.sessionId !== undefined)
			await transport.terminateSession();
		await client.close();
		process.exit(0);
	}
	const out = [client.getNegotiatedProtocolVersion()];
	const { tools } = await client.listTools();
	out.push(tools.map((t) => t.name).join(' '));
	if (tool !== undefined) {
		const r = await client.callTool({ name: tool,
		    arguments: JSON.parse(args) });
		out.push(JSON.stringify({ content: r.content,
		    ...(r.isError && { isError: true }) }));
	}
	process.stdout.write(out.join('\n') + '\n');
	if (kind === 'http' && transport.sessionId !== undefined)
		await transport.terminateSession();
	await client.close();
} catch (e) {
	fail(e.message);
}
