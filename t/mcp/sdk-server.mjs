// sdk-server.mjs [--eras modern|dual|legacy] [--page-size N] [--prefix P]
//     [--http PORT [--bearer TOKEN] [--cert FILE --key FILE] [--retry MS]
//     [--trace]]:
// an MCP server over stdio, or over Streamable HTTP, built on the official
// v2 server SDK (@modelcontextprotocol/server), for mcp-run's tests, the
// agent loop, the demo and the benchmark. Everything on the wire is the
// SDK's own protocol code; only the tools (and, over HTTP, the routing of
// requests to the SDK's transports) are ours.
//
// --eras (or SDK_SERVER_ERAS; default dual) chooses the revisions served:
//   modern  2026-07-28 only: serveStdio with legacy: 'reject'
//   dual    2026-07-28 and the 2025 revisions: serveStdio, legacy: 'serve'
//           (the first message pins the era for the connection's life)
//   legacy  2025-11-25 (and older) only: McpServer hand-wired to a
//           StdioServerTransport, which knows nothing of server/discover
// --page-size N (or SDK_SERVER_PAGE_SIZE) pages tools/list, N tools a
// page, with nextCursor (the SDK itself never pages). --prefix P (or
// SDK_SERVER_PREFIX) puts P before every tool's name ("sdk_" makes
// sdk_echo), so that its tools and another server's echo can be offered
// to one model: toolcall-parse --tools takes a name only once.
//
// Tools:
//   echo {text}          text: the text
//   add {a, b}           text: a + b
//   fail {text?}         an isError result whose text is text (or "failed")
//   crash {status?, signal?}  exits with status (default 1), or kills
//                        itself with signal, while the call is pending
//   slow {seconds}       text "slept N s" after N seconds; a
//                        notifications/cancelled for it stops the wait,
//                        writes "sdk-server: slow: cancelled: REASON" to
//                        stderr and answers nothing (the SDK drops it)
//   structured {a, b}    structuredContent {sum, product} (outputSchema
//                        declared) and the same as JSON text
//   logging {level?, data?}  sends notifications/message (level default
//                        "info", data default "hello"), then text "logged"
//   stderr {text}        writes text and a newline to stderr; text "written"
//   garbage {text?}      writes text (default "this is not JSON") as a raw
//                        line to stdout and never answers the call
//   hangup {seconds?}    (over HTTP only, listed last) in a 2025 session
//                        served with --retry: closes the call's SSE
//                        stream at once (the SDK's closeSSE), then answers
//                        "resumed" after seconds (default 0.5) into the
//                        event store, for the client to take by resuming
//                        the stream (GET, Last-Event-ID); anywhere else,
//                        text "no stream to close" at once
//   ask {method?}        sends the client a request of method (default
//                        "ping", params {}) while the call is pending and
//                        answers with text "METHOD: RESULT" (RESULT as
//                        JSON), or an isError result "METHOD: MESSAGE
//                        (CODE)" when the client refuses it. In the 2025
//                        era the request goes on the wire (see below). A
//                        2026-07-28 server has no requests to send: the SDK
//                        refuses them before the wire ("ping: Method 'ping'
//                        is not supported by the negotiated protocol
//                        version (wire era 2026-07-28)
//                        (METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION)"); the
//                        era's way, an input_required result, is what ask
//                        returns for roots/list, and the SDK turns it into
//                        a -32021 error when the request's
//                        clientCapabilities lack "roots", as mcp-run's do
//                        (so no input_required reaches such a client)
//
// The exchanges, as this server (SDK 2.4.0) answers them, one line each
// way (M stands for the envelope mcp-run sends
//   "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
//     "io.modelcontextprotocol/clientCapabilities":{},
//     "io.modelcontextprotocol/clientInfo":
//       {"name":"mcp-run","version":"0.1.0"},
//     "io.modelcontextprotocol/logLevel":"debug"}
// and S for "_meta":{"io.modelcontextprotocol/serverInfo":
//   {"name":"llmkit-sdk-server","version":"1.0.0"}}):
//
// modern and dual, 2026-07-28:
//   > {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{M}}
//   < {"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":
//     {"listChanged":true},"logging":{}},"resultType":"complete","ttlMs":0,
//     "cacheScope":"private",S},"jsonrpc":"2.0","id":1}
//   > {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{M}}
//   < {"result":{"tools":[{"name":"echo","description":"…","inputSchema":
//     {…}},…],"resultType":"complete","ttlMs":0,"cacheScope":"private",S},
//     "jsonrpc":"2.0","id":2}
//   > {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo",
//     "arguments":{"text":"hi"},M}}
//   < {"result":{"content":[{"type":"text","text":"hi"}],
//     "resultType":"complete",S},"jsonrpc":"2.0","id":3}
//   No initialize is needed, and none is sent by a 2026 client.
//   A request without M, once pinned modern:
//   < {"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Request is
//     missing the required _meta envelope for protocol revision 2026-07-28
//     (io.modelcontextprotocol/protocolVersion,
//     io.modelcontextprotocol/clientCapabilities)"}}
//   ping (with or without M): -32601 "Method not found".
//   ask {"method":"roots/list"} (M declares no "roots" capability):
//   < {"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"Cannot
//     request input 'roots' (roots/list): the request's client
//     capabilities do not declare the required capability","data":
//     {"requiredCapabilities":{"roots":{}}}}}
//   notifications/message is sent only for a request whose _meta has
//   "io.modelcontextprotocol/logLevel" (M's "debug" lets every level
//   through), and only at that level or above; without it the logging
//   tool logs nothing in this era (logging/setLevel is the 2025 way, and
//   a 2025 server that never got one sends every level).
//
// modern only, a 2025 opening (or any request without M):
//   > {"jsonrpc":"2.0","id":1,"method":"initialize","params":
//     {"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{…}}}
//   < {"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported
//     protocol version: 2025-11-25","data":{"supported":["2026-07-28"],
//     "requested":"2025-11-25"}}}
//   (for a request without M: "message":"Unsupported protocol version: the
//   request did not name a protocol version","data":{"supported":
//   ["2026-07-28"]}); the connection stays open for a modern opening.
//   The same -32022 answers a request whose M names another revision.
//   Its "supported" is the SDK's own list of modern revisions, which no
//   option changes: this server cannot answer the probe with -32022 (a
//   server that speaks only other modern revisions would).
//
// dual and legacy, 2025-11-25:
//   > the initialize above
//   < {"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":
//     {"listChanged":true},"logging":{}},"serverInfo":{"name":
//     "llmkit-sdk-server","version":"1.0.0"}},"jsonrpc":"2.0","id":1}
//   > {"jsonrpc":"2.0","method":"notifications/initialized"}
//   > {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo",
//     "arguments":{"text":"hi"}}}
//   < {"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0",
//     "id":3}
//   ask, during a tools/call with id 3 (the server's ids count from 0):
//   < {"method":"ping","params":{},"jsonrpc":"2.0","id":0}
//   > {"jsonrpc":"2.0","id":0,"result":{}}
//   < {"result":{"content":[{"type":"text","text":"ping: {}"}]},
//     "jsonrpc":"2.0","id":3}
//   ping: {"result":{},"jsonrpc":"2.0","id":N}. server/discover once pinned
//   legacy (dual), or ever (legacy): -32601 "Method not found"; in legacy
//   an initialize may follow that error on the same connection.
//
// --http PORT serves Streamable HTTP at http://127.0.0.1:PORT/mcp instead
// (PORT 0: a free port, which http-launch.sh finds; the URL is also
// written to stderr as "sdk-server: listening on URL"), in the eras
// --eras names:
//   modern  the SDK's createMcpHandler with legacy: 'reject': each POST
//           carries its _meta envelope and the MCP-Protocol-Version
//           header, no session, no initialize; answers are JSON, or an SSE
//           stream when the handler sends a message before its result; a
//           2025 request gets -32022 (as on stdio); GET and DELETE 405
//   legacy  2025-11-25 with sessions: an initialize POST (without
//           Mcp-Session-Id) creates a WebStandardStreamableHTTPServerTransport
//           and a server, whose session id comes back in Mcp-Session-Id;
//           later POSTs, the GET stream and DELETE name it; an unknown
//           session gets 404 (-32001 "Session not found"), a GET or
//           DELETE without one 400 (-32000 "Bad Request: Mcp-Session-Id
//           header is required"), a POST without one that is not an
//           initialize the SDK's 400 (-32000 "Bad Request: Server not
//           initialized"). Answers to POSTs are SSE streams (the SDK's
//           default); ask's request goes on the stream of the call's POST
//   dual    each request routed by the SDK's isLegacyRequest: one with the
//           envelope to the modern handler, the others to legacy's
//           sessions (as the SDK's documentation shows)
// --bearer TOKEN (HTTP only) answers any request to /mcp whose
// Authorization is not "Bearer TOKEN" with the SDK's
// bearerAuthChallengeResponse: 401, WWW-Authenticate: Bearer
// error="invalid_token", error_description="…", resource_metadata="URL",
// and the OAuth error as JSON; URL
// (http://127.0.0.1:PORT/.well-known/oauth-protected-resource/mcp) serves
// the protected-resource metadata (RFC 9728) without a token:
//   {"resource":"http://127.0.0.1:PORT/mcp","bearer_methods_supported":
//     ["header"],"resource_name":"llmkit-sdk-server"}
// --cert FILE --key FILE (HTTP only) serves HTTPS with that certificate
// and key (PEM); http_cert in http.bash makes a self-signed pair.
// --retry MS (HTTP only) gives the 2025 sessions an event store, so that
// each SSE event has an id and a stream starts with a priming event
// ("id: …", "retry: MS", an empty "data:"), and a client that lost a
// stream can resume it by GET with Last-Event-ID (the events after that
// id, of that stream, are sent again); an unknown Last-Event-ID is the
// SDK's answer (400).
// --trace (HTTP only) writes a line on stderr for each request, once it is
// answered, so that a test can see what its client sent:
//   sdk-server: POST /mcp initialize accept=… content-type=…
//     mcp-protocol-version=… mcp-method=… mcp-name=… mcp-session-id=S1
//     last-event-id=… authorization=… -> 200 text/event-stream
// (one line; after the path, the JSON-RPC method of a POST's body, or
// "response" for a posted answer, "batch", "-" for no JSON; then those
// headers that were sent, in that order; session ids are S1, S2, … in the
// order the server handed them out).
//
// Either era: an unknown tool is a JSON-RPC error, -32602 "Tool nope not
// found"; arguments the inputSchema refuses are an isError result
// ("Input validation error: Invalid arguments for tool echo: data/text
// must be string"). Answers come as handlers finish, not in request order
// (a ping overtakes a pending call).

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { McpServer, OAuthError, WebStandardStreamableHTTPServerTransport,
    bearerAuthChallengeResponse, createMcpHandler, fromJsonSchema,
    getOAuthProtectedResourceMetadataUrl, inputRequired, isLegacyRequest }
    from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport }
    from '@modelcontextprotocol/server/stdio';

function usage(message) {
	process.stderr.write(`sdk-server: ${message}\n` +
	    'usage: sdk-server.mjs [--eras modern|dual|legacy] [--page-size N]' +
	    ' [--prefix P]\n' +
	    '           [--http PORT [--bearer TOKEN]' +
	    ' [--cert FILE --key FILE] [--retry MS]\n' +
	    '           [--trace]]\n');
	process.exit(2);
}

let eras = process.env.SDK_SERVER_ERAS ?? 'dual';
let pageSize = Number(process.env.SDK_SERVER_PAGE_SIZE ?? 0);
let prefix = process.env.SDK_SERVER_PREFIX ?? '';
let port = null;
let bearer = null;
let cert = null;
let key = null;
let trace = false;
let retry = null;
const argv = process.argv.slice(2);
while (argv.length > 0) {
	const opt = argv.shift();
	if (opt === '--trace') {
		trace = true;
		continue;
	}
	if (argv.length === 0)
		usage(`${opt}: an option and its value expected`);
	if (opt === '--eras')
		eras = argv.shift();
	else if (opt === '--page-size')
		pageSize = Number(argv.shift());
	else if (opt === '--prefix')
		prefix = argv.shift();
	else if (opt === '--http')
		port = Number(argv.shift());
	else if (opt === '--bearer')
		bearer = argv.shift();
	else if (opt === '--cert')
		cert = argv.shift();
	else if (opt === '--key')
		key = argv.shift();
	else if (opt === '--retry')
		retry = Number(argv.shift());
	else
		usage(`${opt}: unknown option`);
}
if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535))
	usage('the port is a whole number from 0 to 65535');
if (port === null && (bearer !== null || cert !== null || key !== null ||
    trace || retry !== null))
	usage('--bearer, --cert, --key, --retry and --trace go with --http');
if (retry !== null && (!Number.isInteger(retry) || retry < 0))
	usage('the retry is a whole number of milliseconds');
if ((cert === null) !== (key === null))
	usage('--cert and --key go together');
if (!['modern', 'dual', 'legacy'].includes(eras))
	usage(`${eras}: eras are modern, dual or legacy`);
if (!Number.isInteger(pageSize) || pageSize < 0)
	usage('the page size is a whole number');

const object = (properties, required = []) =>
    ({ type: 'object', properties, required });
const text = (s) => ({ content: [{ type: 'text', text: s }] });
const sleep = (ms, signal) => new Promise((resolve, reject) => {
	const timer = setTimeout(resolve, ms);
	signal.addEventListener('abort', () => {
		clearTimeout(timer);
		reject(signal.reason);
	}, { once: true });
});

// name, description, inputSchema, outputSchema (or null), handler
const tools = [
	['echo', 'Answers with its text.',
	    object({ text: { type: 'string' } }, ['text']), null,
	    async ({ text: s }) => text(s)],
	['add', 'Adds two numbers.',
	    object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
	    null, async ({ a, b }) => text(String(a + b))],
	['fail', 'Always fails, with its text or "failed".',
	    object({ text: { type: 'string' } }), null,
	    async ({ text: s }) => ({ ...text(s ?? 'failed'), isError: true })],
	['crash', 'Exits (with status, default 1) or kills itself (with' +
	    ' signal) before answering.',
	    object({ status: { type: 'integer' }, signal: { type: 'string' } }),
	    null, async ({ status, signal }) => {
		if (signal !== undefined)
			process.kill(process.pid, signal);
		process.exit(status ?? 1);
	}],
	['slow', 'Answers after the given number of seconds; honours cancellation.',
	    object({ seconds: { type: 'number' } }, ['seconds']), null,
	    async ({ seconds }, ctx) => {
		try {
			await sleep(seconds * 1000, ctx.mcpReq.signal);
		} catch (reason) {
			const why = reason instanceof Error ?
			    reason.message : reason;
			process.stderr.write(
			    `sdk-server: slow: cancelled: ${why}\n`);
			throw reason;
		}
		return text(`slept ${seconds} s`);
	}],
	['structured', 'The sum and product of two numbers, as structured content.',
	    object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
	    object({ sum: { type: 'number' }, product: { type: 'number' } },
	    ['sum', 'product']), async ({ a, b }) => {
		const out = { sum: a + b, product: a * b };
		return { ...text(JSON.stringify(out)), structuredContent: out };
	}],
	['logging', 'Sends a log message (notifications/message) to the client.',
	    object({ level: { type: 'string' }, data: {} }), null,
	    async ({ level, data }, ctx) => {
		await ctx.mcpReq.log(level ?? 'info', data ?? 'hello');
		return text('logged');
	}],
	['stderr', 'Writes its text as a line on standard error.',
	    object({ text: { type: 'string' } }, ['text']), null,
	    async ({ text: s }) => {
		process.stderr.write(`${s}\n`);
		return text('written');
	}],
	['garbage', 'Writes a line that is not JSON-RPC to standard output' +
	    ' and never answers.',
	    object({ text: { type: 'string' } }), null,
	    async ({ text: s }) => {
		process.stdout.write(`${s ?? 'this is not JSON'}\n`);
		return new Promise(() => {});
	}],
	['ask', 'Sends the client a request (method, default "ping") and' +
	    ' answers with what came back.',
	    object({ method: { type: 'string' } }), null,
	    async ({ method }, ctx) => {
		const m = method ?? 'ping';
		try {
			const got = await ctx.mcpReq.send({ method: m,
			    params: {} });
			return text(`${m}: ${JSON.stringify(got)}`);
		} catch (e) {
			if (m === 'roots/list' && e.code ===
			    'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION')
				return inputRequired({ inputRequests:
				    { roots: inputRequired.listRoots() } });
			return { ...text(`${m}: ${e.message}` +
			    (e.code !== undefined ? ` (${e.code})` : '')),
			    isError: true };
		}
	}],
];

// Over HTTP only, so that the stdio tests' lists of tools stay as they are.
if (port !== null)
	tools.push(['hangup', 'Closes the stream of its call, then answers' +
	    ' on the resumed stream.',
	    object({ seconds: { type: 'number' } }), null,
	    async ({ seconds }, ctx) => {
		if (ctx.http?.closeSSE === undefined)
			return text('no stream to close');
		ctx.http.closeSSE();
		await sleep((seconds ?? 0.5) * 1000, ctx.mcpReq.signal);
		return text('resumed');
	}]);

function listed([name, description, input, output]) {
	return { name: prefix + name, description, inputSchema: input,
	    ...(output !== null && { outputSchema: output }) };
}

function build() {
	const server = new McpServer(
	    { name: 'llmkit-sdk-server', version: '1.0.0' },
	    { capabilities: { tools: {}, logging: {} } });
	for (const [name, description, input, output, handler] of tools)
		server.registerTool(prefix + name, {
			description,
			inputSchema: fromJsonSchema(input),
			...(output !== null && { outputSchema: fromJsonSchema(output) }),
		}, handler);
	if (pageSize > 0)
		server.server.setRequestHandler('tools/list', (request) => {
			const start = Number(request.params?.cursor ?? 0);
			const end = start + pageSize;
			return {
				tools: tools.slice(start, end).map(listed),
				...(end < tools.length && { nextCursor: String(end) }),
			};
		});
	return server;
}

const onerror = (e) => process.stderr.write(`sdk-server: ${e.message}\n`);

const jsonError = (status, code, message) => new Response(
    JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
    { status, headers: { 'content-type': 'application/json' } });

// The events of the 2025 sessions' SSE streams, kept for resumption
// (--retry): every event of every stream, in order, by id.
class MemoryEventStore {
	#events = new Map();
	#count = 0;

	async storeEvent(streamId, message) {
		const id = `${streamId}_${++this.#count}`;
		this.#events.set(id, { streamId, message });
		return id;
	}

	async getStreamIdForEventId(id) {
		return this.#events.get(id)?.streamId;
	}

	async replayEventsAfter(lastId, { send }) {
		const last = this.#events.get(lastId);
		if (last === undefined)
			throw new Error(`${lastId}: no such event`);
		let after = false;
		for (const [id, { streamId, message }] of this.#events) {
			if (id === lastId)
				after = true;
			else if (after && streamId === last.streamId)
				await send(id, message);
		}
		return last.streamId;
	}
}

// The 2025-11-25 leg: one transport and one server per session, as the
// SDK's sessionful examples wire them.
const sessions = new Map();
async function legacyFetch(request) {
	const sid = request.headers.get('mcp-session-id');
	if (sid !== null) {
		const transport = sessions.get(sid);
		if (transport === undefined)
			return jsonError(404, -32001, 'Session not found');
		return transport.handleRequest(request);
	}
	if (request.method !== 'POST')
		return jsonError(400, -32000,
		    'Bad Request: Mcp-Session-Id header is required');
	const server = build();
	server.server.onerror = onerror;
	const transport = new WebStandardStreamableHTTPServerTransport({
		sessionIdGenerator: () => randomUUID(),
		onsessioninitialized: (id) => { sessions.set(id, transport); },
		onsessionclosed: (id) => { sessions.delete(id); },
		...(retry !== null && { eventStore: new MemoryEventStore(),
		    retryInterval: retry }),
	});
	await server.connect(transport);
	const response = await transport.handleRequest(request);
	if (transport.sessionId === undefined)
		await server.close();
	return response;
}

function httpFetch() {
	if (eras === 'legacy')
		return legacyFetch;
	const modern = createMcpHandler(() => build(),
	    { legacy: 'reject', onerror });
	if (eras === 'modern')
		return modern.fetch;
	return async (request) => await isLegacyRequest(request) ?
	    legacyFetch(request) : modern.fetch(request);
}

// Node's request as the web-standard Request the SDK takes, and the SDK's
// Response back onto Node's; a stream the client leaves is cancelled, so
// that the SDK lets its GET stream go.
async function toRequest(req, base, signal) {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers))
		for (const v of [value].flat())
			headers.append(name, v);
	let body;
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		const chunks = [];
		for await (const chunk of req)
			chunks.push(chunk);
		body = Buffer.concat(chunks);
	}
	return new Request(new URL(req.url, base),
	    { method: req.method, headers, body, signal });
}

const traced = ['accept', 'content-type', 'mcp-protocol-version',
    'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id',
    'authorization'];
const sessionNames = new Map();
const sessionName = (id) => {
	if (!sessionNames.has(id))
		sessionNames.set(id, `S${sessionNames.size + 1}`);
	return sessionNames.get(id);
};

async function traceLine(request, response) {
	const u = new URL(request.url);
	const words = [request.method, u.pathname + u.search];
	if (request.method === 'POST') {
		let m;
		try {
			m = JSON.parse(await request.clone().text());
		} catch {
			m = undefined;
		}
		words.push(Array.isArray(m) ? 'batch' : typeof m?.method ===
		    'string' ? m.method : m !== null && typeof m === 'object' &&
		    ('result' in m || 'error' in m) ? 'response' : '-');
	}
	for (const name of traced) {
		const v = request.headers.get(name);
		if (v !== null)
			words.push(`${name}=${name === 'mcp-session-id' ?
			    sessionName(v) : v}`);
	}
	const sid = response.headers.get('mcp-session-id');
	if (sid !== null)
		sessionName(sid);
	words.push('->', String(response.status));
	const type = response.headers.get('content-type');
	if (type !== null)
		words.push(type);
	process.stderr.write(`sdk-server: ${words.join(' ')}\n`);
}

async function toNode(response, res) {
	res.writeHead(response.status, [...response.headers].flat());
	if (response.body === null) {
		res.end();
		return;
	}
	res.flushHeaders();
	const reader = response.body.getReader();
	res.on('close', () => { reader.cancel().catch(() => {}); });
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done)
				break;
			res.write(value);
		}
	} catch {
		// the client went away: nothing left to write to
	}
	res.end();
}

function serveHttp() {
	const scheme = cert !== null ? 'https' : 'http';
	const answer = httpFetch();
	let endpoint, metadataUrl, metadataPath;
	const handle = async (req, res) => {
		const aborter = new AbortController();
		res.on('close', () => aborter.abort());
		const request = await toRequest(req, endpoint, aborter.signal);
		const path = new URL(request.url).pathname;
		let response;
		if (bearer !== null && path === metadataPath &&
		    request.method === 'GET')
			response = Response.json({ resource: endpoint.href,
			    bearer_methods_supported: ['header'],
			    resource_name: 'llmkit-sdk-server' });
		else if (path !== '/mcp')
			response = new Response('Not Found\n', { status: 404 });
		else if (bearer !== null && request.headers.get('authorization') !==
		    `Bearer ${bearer}`)
			response = bearerAuthChallengeResponse(new OAuthError(
			    'invalid_token', request.headers.has('authorization') ?
			    'The bearer token is not valid' :
			    'A bearer token is required'),
			    { resourceMetadataUrl: metadataUrl });
		else
			response = await answer(trace ? request.clone() : request);
		if (trace)
			await traceLine(request, response);
		await toNode(response, res);
	};
	const listener = (req, res) => {
		handle(req, res).catch((e) => {
			onerror(e);
			if (!res.headersSent)
				res.writeHead(500);
			res.end();
		});
	};
	const server = scheme === 'https' ? https.createServer(
	    { cert: readFileSync(cert), key: readFileSync(key) }, listener) :
	    http.createServer(listener);
	server.on('error', (e) => {
		onerror(e);
		process.exit(1);
	});
	server.listen(port, '127.0.0.1', () => {
		endpoint = new URL(`${scheme}://127.0.0.1:` +
		    `${server.address().port}/mcp`);
		metadataUrl = getOAuthProtectedResourceMetadataUrl(endpoint);
		metadataPath = new URL(metadataUrl).pathname;
		process.stderr.write(`sdk-server: listening on ${endpoint}\n`);
	});
	process.on('SIGTERM', () => process.exit(0));
}

if (port !== null)
	serveHttp();
else if (eras === 'legacy') {
	const server = build();
	server.server.onerror = onerror;
	await server.connect(new StdioServerTransport());
} else
	serveStdio(() => build(),
	    { legacy: eras === 'dual' ? 'serve' : 'reject', onerror });
