#!/usr/bin/env bats
# mcp-run at the edges of what servers do: lines on their output that are
# not JSON-RPC (a banner, a console.log), a server slow to answer the
# probe, one that declared no tools, --protocol pins against servers of
# the other era, and what an isError result holds beside its text. The
# servers are real (t/mcp/sdk-server.mjs and the everything server, on
# the protocol's SDKs) where one does it, and scripted where none does.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
SDK=$TOP/t/mcp/sdk-server.mjs
RAW=$TOP/t/mcp/raw-server.mjs
SCRIPTED=$TOP/t/mcp/scripted-server.py

setup_file() {
	if [ ! -f "$EVERYTHING" ]; then
		echo "the MCP servers are not in $MCP_MODULES: run make deps" >&3
		return 1
	fi
}

VERSION=$(mcp-run --version | sed 's/.* //')
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcp-run","version":"'$VERSION'"},"io.modelcontextprotocol/logLevel":"debug"}'
INITIALIZE='"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-run","version":"'$VERSION'"}}}'
PROBE='{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{'"$META"'}}'

# call SERVER TOOL ARGUMENTS: one plain record.
call() {
	printf '{"server_name":"%s","tool_name":"%s","arguments":%s}\n' \
	    "$1" "$2" "$3"
}

# result ID TOOL SERVER TEXT [MORE]: the tool_result line; TEXT is JSON.
result() {
	printf '{"type":"tool_result","toolCallId":"%s","toolName":"%s","serverName":"%s","result":%s,"iteration":0%s}' \
	    "$1" "$2" "$3" "$4" "${5:-}"
}

# failed ID TOOL SERVER MESSAGE [MORE]: the error line; MESSAGE is JSON.
failed() {
	printf '{"type":"error","toolCallId":"%s","toolName":"%s","serverName":"%s","error":%s,"recoverable":true,"iteration":0%s}' \
	    "$1" "$2" "$3" "$4" "${5:-}"
}

# sent ID TOOL ARGUMENTS [META]: the tools/call request ID of TOOL, its
# progress token its id, before the era's _meta when META is given.
sent() {
	local meta='"_meta":{"progressToken":'"$1" pre='"_meta":{'
	if [ -n "${4:-}" ]; then
		meta="$meta,${4#"$pre"}"
	else
		meta="$meta}"
	fi
	printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s,%s}}' \
	    "$1" "$2" "$3" "$meta"
}

# reads LOG: what a scripted server read, a line each: "start" for each
# of its starts, then each request's method, and a call's tool after it.
reads() {
	jq -R -r 'if startswith("start") then "start" else (fromjson |
	    .method + (if .params.name then " " + .params.name else "" end))
	    end' "$1"
}

# logged NAME CMD...: server NAME of conf-NAME.json runs CMD..., its input
# copied to NAME.log.
logged() {
	local name=$1
	shift
	printf '%s\n' "$@" | jq -R . | jq -s --arg n "$name" \
	    --arg log "$PWD/$name.log" '{mcpServers: {($n): {command: "bash",
	    args: (["-c", "exec \"$@\" < <(exec tee -a \"$0\")",
	    $log] + .)}}}' >"conf-$name.json"
}

# raw TOOLS: conf.json of server raw (t/mcp/raw-server.mjs, a 2025-11-25
# server) with the tools TOOLS, its calls answered by the blocks of the
# file script.
raw() {
	printf '%s' "$1" >tools.json
	printf '{"mcpServers":{"raw":{"command":"node","args":["%s","%s","%s"]}}}' \
	    "$RAW" "$PWD/tools.json" "$PWD/script" >conf.json
}

# ------------------------------------------------ lines that are not JSON-RPC

@test "lines that are not JSON-RPC are said as the server's and passed over; the answer after them is taken" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
[dotenv@17.2.3] injecting env (0) from .env -- tip: encrypt with dotenvx
{"level":30,"msg":"listening"}
42
[1,2,3]
{"jsonrpc":"1.0","id":@ID@}
	tab and CR	
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"real"}]}}
EOF
	printf 'x\033[31m\r\n' | sed 's/^x/\x1b]0;title\x07/' >>script
	printf '{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"second"}]}}\n' >>script
	sed -i '7a ---' script
	{ call raw t '{}'; call raw t '{}'; } >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 t raw '"real"')
$(result call-0-2 t raw '"second"')"
	assert_equal "$stderr" 'raw: not JSON-RPC, passed over: "[dotenv@17.2.3] injecting env (0) from .env -- tip: encrypt with dotenvx"
raw: not JSON-RPC, passed over: "{\"level\":30,\"msg\":\"listening\"}"
raw: not JSON-RPC, passed over: "42"
raw: not JSON-RPC, passed over: "[1,2,3]"
raw: not JSON-RPC, passed over: "{\"jsonrpc\":\"1.0\",\"id\":3}"
raw: not JSON-RPC, passed over: "\ttab and CR\t"
raw: not JSON-RPC, passed over: "\u001b]0;title\u0007\u001b[31m"'
}

@test "a banner before the lifecycle is passed over, and the server is spoken to" {
	cat >banner.sh <<EOF
echo '[dotenv@17.2.3] injecting env (2) from .env'
exec node $SDK --eras modern
EOF
	call sdk echo '{"text":"hi"}' >in.jsonl
	run -0 --separate-stderr mcp-run --server "sdk=sh $PWD/banner.sh" in.jsonl
	assert_output "$(result call-0-1 echo sdk '"hi"')"
	assert_equal "$stderr" 'sdk: not JSON-RPC, passed over: "[dotenv@17.2.3] injecting env (2) from .env"'
}

@test "a line of noise longer than 4096 bytes is said cut, with the count of what was cut" {
	call s noise "{\"text\":\"$(printf '%*s' 5000 '' | tr ' ' n)\"}" >in.jsonl
	run -0 --separate-stderr mcp-run --server "s=python3 $SCRIPTED" in.jsonl
	assert_output "$(result call-0-1 noise s '"after noise"')"
	assert_equal "$stderr" "s: not JSON-RPC, passed over: \"$(printf '%*s' 4096 '' | tr ' ' n)\"... (904 more bytes cut)"
}

@test "the 100th line that is not JSON-RPC in a server's life breaks it, status 3; started again, it counts from 0" {
	{
		call s noise '{"lines":60}'
		call s noise '{"lines":60}'
		call s noise '{"lines":99}'
		call s echo '{"text":"still"}'
	} >in.jsonl
	run -3 --separate-stderr mcp-run --server "s=python3 $SCRIPTED --log $PWD/s.log" in.jsonl
	assert_output "$(result call-0-1 noise s '"after noise"')
$(failed call-0-2 noise s '"s: 100 lines that are not JSON-RPC messages, the last (not JSON): \"not JSON-RPC\""')
$(result call-0-3 noise s '"after noise"')
$(result call-0-4 echo s '"still"')"
	run -0 grep -c -x 's: not JSON-RPC, passed over: "not JSON-RPC"' <<<"$stderr"
	assert_output 198
	run -0 grep -v -x 's: not JSON-RPC, passed over: "not JSON-RPC"' <<<"$stderr"
	assert_output 'mcp-run: s: 100 lines that are not JSON-RPC messages, the last (not JSON): "not JSON-RPC"'
	run -0 reads s.log
	assert_output 'start
server/discover
tools/call noise
tools/call noise
start
server/discover
tools/call noise
tools/call echo'
}

@test "a line that says it is JSON-RPC and breaks its rules still breaks the server, status 3" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	printf '{"jsonrpc":"2.0","id":@ID@,"method":7}\n' >script
	call raw t '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(failed call-0-1 t raw '"raw: not a JSON-RPC message (a \"method\" that is not a string): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3,\\\"method\\\":7}\""')"
	assert_equal "$stderr" 'mcp-run: raw: not a JSON-RPC message (a "method" that is not a string): "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":7}"'
	printf '{"jsonrpc":"2.0","id":@ID@,"result":{}} and more\n' >script
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(failed call-0-1 t raw '"raw: not a JSON-RPC message (text after the message): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3,\\\"result\\\":{}} and more\""')"
	assert_equal "$stderr" 'mcp-run: raw: not a JSON-RPC message (text after the message): "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}} and more"'
}

@test "a line of noise longer than --max-line fails its call as any long line does" {
	{
		call s noise "{\"text\":\"$(printf '%*s' 2000 '' | tr ' ' n)\"}"
		call s echo '{"text":"after"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --max-line 1K --server "s=python3 $SCRIPTED" in.jsonl
	assert_output "$(failed call-0-1 noise s '"server s wrote a line longer than --max-line (1024 bytes)"')
$(result call-0-2 echo s '"after"')"
	assert_equal "$stderr" 'in.jsonl:1:32: error: tool "noise" on s failed: server s wrote a line longer than --max-line (1024 bytes)'
}

# ------------------------------------------------------------- the probe

@test "a 2026-07-28 server that takes more than 5 s to start is probed until -T, and spoken to in its era" {
	logged slow sh -c 'sleep 6; exec node "$0" --eras modern' "$SDK"
	call slow echo '{"text":"late"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf-slow.json in.jsonl
	assert_output "$(result call-0-1 echo slow '"late"')"
	assert_equal "$stderr" ''
	run -0 cat slow.log
	assert_output "$PROBE
$(sent 2 echo '{"text":"late"}' "$META")"
}

@test "a probe answered after -T, its answer before the refusal of initialize: probed again, spoken to in 2026-07-28" {
	call s echo '{"text":"late"}' >in.jsonl
	run -0 --separate-stderr mcp-run -T 1 --server "s=python3 $SCRIPTED --log $PWD/s.log --slow-probe" in.jsonl
	assert_output "$(result call-0-1 echo s '"late"')"
	assert_equal "$stderr" ''
	run -0 reads s.log
	assert_output 'start
server/discover
initialize
server/discover
tools/call echo'
}

@test "a probe answered after -T, its answer after the refusal of initialize: probed again, spoken to in 2026-07-28" {
	call s echo '{"text":"later"}' >in.jsonl
	run -0 --separate-stderr mcp-run -T 1 --server "s=python3 $SCRIPTED --log $PWD/s.log --late-probe" in.jsonl
	assert_output "$(result call-0-1 echo s '"later"')"
	assert_equal "$stderr" ''
	run -0 reads s.log
	assert_output 'start
server/discover
initialize
server/discover
tools/call echo'
}

@test "an initialize refused with -32022 naming 2026-07-28 after a probe refused as unknown: probed again, spoken to in 2026-07-28" {
	cat >busy.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
read -r initialize
echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}'
read -r probe
echo '{"jsonrpc":"2.0","id":3,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}'
read -r call
echo '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"now"}]}}'
cat >/dev/null
EOF
	cat >never.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
read -r initialize
echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}'
read -r probe
echo '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}'
cat >/dev/null
EOF
	{ call busy t '{}'; call never t '{}'; } >in.jsonl
	run -3 --separate-stderr mcp-run --server "busy=sh $PWD/busy.sh" --server "never=sh $PWD/never.sh" in.jsonl
	assert_output "$(result call-0-1 t busy '"now"')
$(failed call-0-2 t never '"never: the server speaks only [\"2026-07-28\"], not 2025-11-25"')"
	assert_equal "$stderr" 'mcp-run: never: the server speaks only ["2026-07-28"], not 2025-11-25'
}

# ------------------------------------------- a server that declared no tools

# notes.mjs: a server on the protocol's v2 SDK with one resource and no
# tools, of both eras; run with t/mcp as its directory, where the SDK is.
notes() {
	cat >notes.mjs <<'EOF'
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
serveStdio(() => {
	const s = new McpServer({ name: 'notes', version: '1.0.0' });
	s.registerResource('note', 'note://one', { mimeType: 'text/plain' },
	    async (uri) => ({ contents: [{ uri: uri.href, text: 'one' }] }));
	return s;
}, { legacy: 'serve' });
EOF
	jq -n --arg src "$(cat notes.mjs)" --arg cwd "$TOP/t/mcp" \
	    --arg sdk "$SDK" '{mcpServers: {notes: {command: "node",
	    args: ["--input-type=module", "-e", $src], cwd: $cwd},
	    sdk: {command: "node", args: [$sdk, "--eras", "modern"]}}}' \
	    >conf.json
}

@test "a server of the SDK that declared no tools, in either era: --list-tools lists the others', and says so, status 0" {
	notes
	run -0 --separate-stderr mcp-run --list-tools -c conf.json
	assert_equal "$stderr" 'mcp-run: notes: the server declared no tools'
	run -0 jq -c '[.tools[] | ._meta["llmkit/server"]] | unique' <<<"$output"
	assert_output '["sdk"]'
	run -0 --separate-stderr mcp-run --list-tools --protocol 2025-11-25 -c conf.json notes
	assert_output '{"tools":[]}'
	assert_equal "$stderr" 'mcp-run: notes: the server declared no tools'
}

@test "a call by tool name passes over the server that declared no tools; one sent to it by name is refused, status 1" {
	notes
	{
		call '' echo '{"text":"routed"}'
		call notes echo '{"text":"no"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 echo sdk '"routed"')
"'{"type":"error","toolCallId":"call-0-2","toolName":"echo","serverName":"notes","error":"server \"notes\" declared no tools","recoverable":true,"iteration":0}'
	assert_equal "$stderr" 'in.jsonl:2:16: error: server "notes" declared no tools'
}

@test "a scripted server that declared only resources is sent no tools/list, and no call" {
	{
		call s echo '{"text":"no"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --server "s=python3 $SCRIPTED --log $PWD/s.log --caps {\"resources\":{}}" in.jsonl
	assert_output '{"type":"error","toolCallId":"call-0-1","toolName":"echo","serverName":"s","error":"server \"s\" declared no tools","recoverable":true,"iteration":0}'
	run -0 --separate-stderr mcp-run --list-tools --server "s=python3 $SCRIPTED --log $PWD/s.log --caps {\"resources\":{},\"tools\":true}"
	assert_output '{"tools":[]}'
	assert_equal "$stderr" 'mcp-run: s: the server declared no tools'
	run -0 reads s.log
	assert_output 'start
server/discover
start
server/discover'
}

# ----------------------------------------------------------- --protocol pins

@test "--protocol 2026-07-28 with a 2025 server: probed, then asked its revision, and never called; status 3" {
	logged ev node "$EVERYTHING" stdio
	logged sdk node "$SDK" --eras legacy
	{
		call ev echo '{"message":"hi"}'
		call sdk echo '{"text":"hi"}'
	} >in.jsonl
	jq -s '{mcpServers: (.[0].mcpServers + .[1].mcpServers)}' conf-ev.json \
	    conf-sdk.json >conf.json
	run -3 --separate-stderr mcp-run --protocol 2026-07-28 -c conf.json in.jsonl
	assert_output "$(failed call-0-1 echo ev '"ev: the server speaks \"2025-11-25\", not 2026-07-28, which --protocol pins"')
$(failed call-0-2 echo sdk '"sdk: the server speaks \"2025-11-25\", not 2026-07-28, which --protocol pins"')"
	assert_equal "$stderr" 'ev: Starting default (STDIO) server...
mcp-run: ev: the server speaks "2025-11-25", not 2026-07-28, which --protocol pins
mcp-run: sdk: the server speaks "2025-11-25", not 2026-07-28, which --protocol pins'
	run -0 cat ev.log
	assert_output "$PROBE
"'{"jsonrpc":"2.0","id":2,'"$INITIALIZE"
	run -0 cat sdk.log
	assert_output "$PROBE
"'{"jsonrpc":"2.0","id":2,'"$INITIALIZE"
}

@test "--protocol 2026-07-28 names the revisions a server lists, and the probe's answer when nothing names them" {
	cat >list.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2025-06-18","2025-11-25"]}}}'
cat >/dev/null
EOF
	cat >other.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2027-01-01"],"capabilities":{"tools":{}}}}'
cat >/dev/null
EOF
	cat >mute.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
read -r initialize
echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"not now"}}'
cat >/dev/null
EOF
	cat >refuses.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
read -r initialize
echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2025-06-18"]}}}'
cat >/dev/null
EOF
	cat >bare.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"result":{}}'
read -r initialize
echo '{"jsonrpc":"2.0","id":2,"result":{"capabilities":{}}}'
cat >/dev/null
EOF
	printf 'cat >/dev/null\n' >silent.sh
	printf 'read -r probe\nexit 4\n' >gone.sh
	{
		call list t '{}'
		call other t '{}'
		call mute t '{}'
		call refuses t '{}'
		call bare t '{}'
		call silent t '{}'
		call gone t '{}'
	} >in.jsonl
	run -3 --separate-stderr mcp-run --protocol 2026-07-28 -T 0.5 \
	    --server "list=sh $PWD/list.sh" --server "other=sh $PWD/other.sh" \
	    --server "mute=sh $PWD/mute.sh" --server "silent=sh $PWD/silent.sh" \
	    --server "refuses=sh $PWD/refuses.sh" \
	    --server "bare=sh $PWD/bare.sh" --server "gone=sh $PWD/gone.sh" \
	    in.jsonl
	assert_output "$(failed call-0-1 t list '"list: the server speaks only [\"2025-06-18\",\"2025-11-25\"], not 2026-07-28, which --protocol pins"')
$(failed call-0-2 t other '"other: the server speaks only [\"2027-01-01\"], not 2026-07-28, which --protocol pins"')
$(failed call-0-3 t mute '"mute: the server does not speak 2026-07-28, which --protocol pins: server/discover failed: Method not found (JSON-RPC error -32601)"')
$(failed call-0-4 t refuses '"refuses: the server speaks only [\"2025-06-18\"], not 2026-07-28, which --protocol pins"')
$(failed call-0-5 t bare '"bare: the server does not speak 2026-07-28, which --protocol pins: server/discover answered without 2026-07-28"')
$(failed call-0-6 t silent '"silent: no answer to server/discover within 0.5 s"')
$(failed call-0-7 t gone '"server gone exited with status 4 during server/discover"')"
	assert_equal "$stderr" 'mcp-run: list: the server speaks only ["2025-06-18","2025-11-25"], not 2026-07-28, which --protocol pins
mcp-run: other: the server speaks only ["2027-01-01"], not 2026-07-28, which --protocol pins
mcp-run: mute: the server does not speak 2026-07-28, which --protocol pins: server/discover failed: Method not found (JSON-RPC error -32601)
mcp-run: refuses: the server speaks only ["2025-06-18"], not 2026-07-28, which --protocol pins
mcp-run: bare: the server does not speak 2026-07-28, which --protocol pins: server/discover answered without 2026-07-28
mcp-run: silent: no answer to server/discover within 0.5 s
mcp-run: server gone exited with status 4 during server/discover'
}

# ------------------------------------------------------ what a result holds

@test "an isError result keeps structuredContent, its non-text content and _meta, as a success does" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":[{"type":"text","text":"no such city"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource_link","uri":"demo://cities","name":"cities"}],"structuredContent":{"error":"unknown","city":"Atlantis"},"_meta":{"com.example/trace":"t-1","io.modelcontextprotocol/serverInfo":{"name":"raw","version":"1"}}}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"sunny"},{"type":"audio","data":"BBBB","mimeType":"audio/wav"}],"structuredContent":{"sky":"sunny"},"_meta":{"com.example/trace":"t-2"}}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"plain"}],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"raw","version":"1"}}}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":[],"_meta":"odd"}}
EOF
	{ call raw t '{}'; call raw t '{}'; call raw t '{}'; call raw t '{}'; } >in.jsonl
	run -1 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(failed call-0-1 t raw '"no such city"' ',"structuredContent":{"error":"unknown","city":"Atlantis"},"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource_link","uri":"demo://cities","name":"cities"}],"_meta":{"com.example/trace":"t-1"}')
$(result call-0-2 t raw '"sunny"' ',"structuredContent":{"sky":"sunny"},"content":[{"type":"audio","data":"BBBB","mimeType":"audio/wav"}],"_meta":{"com.example/trace":"t-2"}')
$(result call-0-3 t raw '"plain"')
$(failed call-0-4 t raw '"the tool reported an error without a text"' ',"_meta":"odd"')"
	assert_equal "$stderr" 'in.jsonl:1:34: error: tool "t" on raw failed: no such city
in.jsonl:4:34: error: tool "t" on raw failed: the tool reported an error without a text'
}

@test "thread-serialize takes the richer error event: its text, the rest left out as for a tool_result" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":[{"type":"text","text":"no such city"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"city":"Atlantis"},"_meta":{"com.example/trace":"t-1"}}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"sunny"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"sky":"sunny"},"_meta":{"com.example/trace":"t-2"}}}
EOF
	{ call raw t '{}'; call raw t '{}'; } >in.jsonl
	mcp-run -c conf.json in.jsonl >out.jsonl 2>/dev/null || :
	run -0 --separate-stderr thread-serialize out.jsonl
	assert_output '<thread>
  <event type="error" id="0" iteration="0" recoverable="true">no such city</event>
  <event type="tool_output" id="1" name="unknown" status="success" iteration="0">sunny</event>
</thread>'
	assert_equal "$stderr" ''
}

@test "a 2026-07-28 server's results carry its name in _meta, which is left out" {
	call sdk structured '{"a":2,"b":3}' >in.jsonl
	run -0 --separate-stderr mcp-run --server "sdk=node $SDK --eras modern" in.jsonl
	assert_output "$(result call-0-1 structured sdk '"{\"sum\":5,\"product\":6}"' ',"structuredContent":{"sum":5,"product":6}')"
}
