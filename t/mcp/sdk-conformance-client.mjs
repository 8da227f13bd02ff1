// sdk-conformance-client.mjs URL: the official v2 client SDK
// (@modelcontextprotocol/client) doing, for the conformance suite's
// client scenarios, what conformance-client.sh has mcp-run do, so that
// the suite and its scenarios are known to pass with a client that
// conforms (conformance.sh -c "node sdk-conformance-client.mjs" SCENARIO).
// The scenario is MCP_CONFORMANCE_SCENARIO:
//   initialize   initialize, then tools/list
//   tools_call   tools/call add_numbers {"a":5,"b":3}
//   elicitation-sep1034-client-defaults   tools/call
//                test_client_elicitation_defaults {}, answering the
//                server's elicitation/create with "accept" and the
//                requested schema's defaults
//   sse-retry    tools/call test_reconnection {}
// It writes the call's result as one line of JSON. Status 0, or 1 with
// "sdk-conformance-client: MESSAGE" on stderr.

import { Client, StreamableHTTPClientTransport }
    from '@modelcontextprotocol/client';

function fail(message) {
	process.stderr.write(`sdk-conformance-client: ${message}\n`);
	process.exit(1);
}

const calls = {
	initialize: null,
	tools_call: ['add_numbers', { a: 5, b: 3 }],
	'elicitation-sep1034-client-defaults':
	    ['test_client_elicitation_defaults', {}],
	'sse-retry': ['test_reconnection', {}],
};
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const url = process.argv[2];
if (url === undefined || !(scenario in calls))
	fail(`usage: MCP_CONFORMANCE_SCENARIO=${Object.keys(calls).join('|')}` +
	    ' sdk-conformance-client.mjs URL');

const client = new Client({ name: 'llmkit-sdk-conformance-client',
    version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler('elicitation/create', (request) => {
	const content = {};
	const properties = request.params.requestedSchema?.properties ?? {};
	for (const [name, field] of Object.entries(properties))
		if (field.default !== undefined)
			content[name] = field.default;
	return { action: 'accept', content };
});
try {
	await client.connect(new StreamableHTTPClientTransport(new URL(url)));
	if (calls[scenario] === null)
		await client.listTools();
	else {
		const [name, args] = calls[scenario];
		const r = await client.callTool({ name, arguments: args });
		process.stdout.write(JSON.stringify(r.content) + '\n');
	}
	await client.close();
} catch (e) {
	fail(e.message);
}
