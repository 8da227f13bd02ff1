// raw-server.mjs TOOLS SCRIPT: an MCP server of the 2025-11-25 era that
// writes what a test wants byte for byte, to see what mcp-run does with
// what no well-behaved server sends. It refuses server/discover (so the
// client initializes), answers initialize, and answers tools/list with
// the bytes of the file TOOLS as the "tools" array. Each tools/call is
// answered by the next block of the file SCRIPT: its lines up to a line
// "---", written as they are, every "@ID@" replaced by the request's id
// (raw bytes, invalid UTF-8 and all, pass through untouched). A block
// line "@EXIT@" ends the server there. Requests are logged, one a line,
// to the file $RAW_LOG when it is set.
import { appendFileSync, readFileSync } from "node:fs";

const [tools, script] = process.argv.slice(2).map((f) => readFileSync(f));
const blocks = [];
let block = [];
let start = 0;
for (let i = 0; i <= script.length; i++) {
	if (i < script.length && script[i] !== 0x0a)
		continue;
	const line = script.subarray(start, i);
	start = i + 1;
	if (i === script.length && line.length === 0)
		break;
	if (line.toString("latin1") === "---") {
		blocks.push(block);
		block = [];
	} else
		block.push(line);
}
if (block.length > 0)
	blocks.push(block);

function write(buf) {
	process.stdout.write(buf);
}

function reply(id, body) {
	write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},${body}}\n`);
}

let pending = "";
process.stdin.on("data", (chunk) => {
	pending += chunk.toString("utf8");
	let nl;
	while ((nl = pending.indexOf("\n")) !== -1) {
		const line = pending.slice(0, nl);
		pending = pending.slice(nl + 1);
		if (process.env.RAW_LOG)
			appendFileSync(process.env.RAW_LOG, line + "\n");
		const msg = JSON.parse(line);
		if (msg.method === "server/discover")
			reply(msg.id, '"error":{"code":-32601,"message":"Method not found"}');
		else if (msg.method === "initialize")
			reply(msg.id, '"result":{"protocolVersion":"2025-11-25",' +
			    '"capabilities":{"tools":{}},"serverInfo":{"name":"raw",' +
			    '"version":"1.0.0"}}');
		else if (msg.method === "tools/list")
			write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":' +
			    JSON.stringify(msg.id) + ',"result":{"tools":'),
			    tools, Buffer.from("}}\n")]));
		else if (msg.method === "tools/call") {
			for (const l of blocks.shift() ?? []) {
				if (l.toString("latin1") === "@EXIT@")
					process.exit(0);
				const text = l.toString("latin1").split("@ID@").join(
				    String(msg.id));
				write(Buffer.concat([Buffer.from(text, "latin1"),
				    Buffer.from("\n")]));
			}
		}
	}
});
process.stdin.on("end", () => process.exit(0));
