// mcp-sdk-client.mjs CALLS COMMAND [ARG ...]
// mcp-sdk-client.mjs CALLS URL: the baseline of the mcp-run benchmarks
// (t/bench/mcp-run.sh, t/bench/mcp-http.sh). The protocol's official
// TypeScript client SDK (@modelcontextprotocol/sdk 1.32.2, the v1 Client
// and StdioClientTransport, from t/mcp/node_modules) starts COMMAND as an
// MCP server over stdio, or reaches the server at URL (http:// or
// https://) with its StreamableHTTPClientTransport, runs its lifecycle,
// then makes the calls of CALLS
// (toolcall-parse's plain records, one a line:
// {"server_name":S,"tool_name":T,"arguments":{...}}) one at a time, as
// mcp-run does, and writes for each the record mcp-run writes:
//   {"type":"tool_result","toolCallId":"call-0-K","toolName":T,
//    "serverName":S,"result":TEXT,"iteration":0}
// (TEXT the result's text items joined with "\n"; an error result fails
// the run), then closes the server as mcp-run does: its stdin, 2 s, and
// signals; over HTTP, the session's DELETE. Status 0, or 1 with a message
// on stderr.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const top = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(top, 't', 'mcp', 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } =
    require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } =
    require('@modelcontextprotocol/sdk/client/streamableHttp.js');

function fail(message) {
	process.stderr.write(`mcp-sdk-client: ${message}\n`);
	process.exit(1);
}

const [file, command, ...args] = process.argv.slice(2);
if (command === undefined)
	fail('usage: mcp-sdk-client.mjs CALLS COMMAND [ARG ...]');
const calls = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '')
    .map((l) => JSON.parse(l));

const client = new Client({ name: 'llmkit-bench', version: '1.0.0' });
const remote = /^https?:\/\//.test(command);
const transport = remote ?
    new StreamableHTTPClientTransport(new URL(command)) :
    new StdioClientTransport({ command, args, stderr: 'ignore' });
await client.connect(transport);
const out = [];
for (let k = 1; k <= calls.length; k++) {
	const { server_name: server, tool_name: name, arguments: args } =
	    calls[k - 1];
	const r = await client.callTool({ name, arguments: args });
	const text = r.content.filter((c) => c.type === 'text')
	    .map((c) => c.text).join('\n');
	if (r.isError)
		fail(`call ${k}: ${name}: ${text}`);
	out.push(JSON.stringify({ type: 'tool_result', toolCallId: `call-0-${k}`,
	    toolName: name, serverName: server, result: text, iteration: 0 }));
}
if (remote)
	await transport.terminateSession();
await client.close();
process.stdout.write(out.length > 0 ? out.join('\n') + '\n' : '');
