#!/usr/bin/env bats
# mcp-run against real MCP servers, the reference servers the protocol's
# project publishes (installed by make deps into t/mcp/node_modules), of
# the 2025 era, and t/mcp/sdk-server.mjs on its v2 SDK, of either era or
# both: the lifecycle with each, the exact bytes mcp-run sends them, log
# messages and a server's requests in each era, a call per kind of
# result, every way a call fails, the routing, a timeout, a server killed,
# one that writes garbage, one that ignores the end of its input, 1,000
# calls, the thread form through thread-serialize, --list-tools through
# toolcall-parse, the environment, every configuration error and usage
# error with its status.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
FILESYSTEM=$MCP_MODULES/@modelcontextprotocol/server-filesystem/dist/index.js
SDK=$TOP/t/mcp/sdk-server.mjs
USAGE='usage: mcp-run [-hu] [--cacert FILE] [-c FILE] [--elicit ask|defaults|decline]
               [--errors=github|json|text] [-j N] [--max-line SIZE]
               [--max-time SECONDS] [--protocol VERSION] [--root DIR]
               [--sampling COMMAND] [--server NAME=COMMAND|URL] [--tasks]
               [-T SECONDS] [--unordered] [FILE ...]
       mcp-run --list-tools [-c FILE] [--max-line SIZE] [--server NAME=COMMAND]
               [-T SECONDS] [NAME ...]
       mcp-run --list-servers [-c FILE] [--server NAME=COMMAND]
       mcp-run --list-resources | --list-prompts [-c FILE] [--max-line SIZE]
               [--server NAME=COMMAND] [-T SECONDS] [NAME ...]
       mcp-run --read URI ... [-c FILE] [--max-line SIZE]
               [--server NAME=COMMAND] [-T SECONDS] [NAME ...]
       mcp-run --get-prompt PROMPT [--arg KEY=VALUE ...] [-c FILE]
               [--max-line SIZE] [--server NAME=COMMAND] [-T SECONDS]
               [NAME ...]'
STARTING='everything: Starting default (STDIO) server...'
FS_STARTING="fs: Secure MCP Filesystem Server running on stdio"

# The configuration every test shares: the everything server, and the
# filesystem server over a directory of one file.
setup_file() {
	if [ ! -f "$EVERYTHING" ] || [ ! -f "$FILESYSTEM" ]; then
		echo "the MCP servers are not in $MCP_MODULES: run make deps" >&3
		return 1
	fi
	mkdir "$BATS_FILE_TMPDIR/root" || return 1
	printf 'hello from a file\n' >"$BATS_FILE_TMPDIR/root/note.txt"
	cat >"$BATS_FILE_TMPDIR/servers.json" <<EOF || return 1
{
  "mcpServers": {
    "everything": {
      "command": "node",
      "args": ["$EVERYTHING", "stdio"]
    },
    "fs": {
      "type": "stdio",
      "command": "node",
      "args": ["$FILESYSTEM", "$BATS_FILE_TMPDIR/root"],
      "disabled": false
    }
  }
}
EOF
	export CONF=$BATS_FILE_TMPDIR/servers.json ROOT=$BATS_FILE_TMPDIR/root
	export EVERYTHING FILESYSTEM SDK
}

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

# refused ID TOOL MESSAGE: the error line of a call that was not routed.
refused() {
	printf '{"type":"error","toolCallId":"%s","toolName":"%s","error":%s,"recoverable":true,"iteration":0}' \
	    "$1" "$2" "$3"
}

# logged NAME [SCRIPT ARG...]: a configuration of a server called NAME,
# node running SCRIPT ARG... (by default the everything server), whose
# input is copied to NAME.log (each start of it adds to the file), in
# conf-NAME.json. node is the server's process itself, and alone holds
# its output: when node ends, mcp-run sees it end.
logged() {
	local name=$1
	shift
	[ $# -gt 0 ] || set -- "$EVERYTHING" stdio
	printf '%s\n' "$@" | jq -R . | jq -s --arg n "$name" \
	    --arg log "$PWD/$name.log" '{mcpServers: {($n): {command: "bash",
	    args: (["-c", "exec node \"$@\" < <(exec tee -a \"$0\")",
	    $log] + .)}}}' >"conf-$name.json"
}

VERSION=$(mcp-run --version | sed 's/.* //')
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcp-run","version":"'$VERSION'"},"io.modelcontextprotocol/logLevel":"debug"}'
INITIALIZE='"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-run","version":"'$VERSION'"}}}'
PROBE='{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{'"$META"'}}'

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

# The everything server takes tasks: its tools are listed before a call,
# to see whether the tool called needs one.
@test "the everything server is probed with server/discover, then initialized" {
	logged ev
	call ev echo '{"message":"hi"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf-ev.json in.jsonl
	assert_output "$(result call-0-1 echo ev '"Echo: hi"')"
	assert_equal "$stderr" "ev: Starting default (STDIO) server..."
	run -0 cat ev.log
	assert_output "$PROBE
"'{"jsonrpc":"2.0","id":2,'"$INITIALIZE"'
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":3,"method":"tools/list"}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":4}}}'
}

@test "--protocol 2025-11-25 initializes at once, without the probe" {
	logged ev
	call ev get-sum '{"a":2,"b":40}' >in.jsonl
	run -0 --separate-stderr mcp-run --protocol 2025-11-25 -c conf-ev.json in.jsonl
	assert_output "$(result call-0-1 get-sum ev '"The sum of 2 and 40 is 42."')"
	run -0 cat ev.log
	assert_output '{"jsonrpc":"2.0","id":1,'"$INITIALIZE"'
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":2,"b":40},"_meta":{"progressToken":3}}}'
}

@test "--protocol 2026-07-28 probes, then sends the _meta of the era with every request" {
	logged sdk "$SDK" --eras dual
	call sdk echo '{"text":"hi"}' >in.jsonl
	run -0 --separate-stderr mcp-run --protocol 2026-07-28 -c conf-sdk.json in.jsonl
	assert_output "$(result call-0-1 echo sdk '"hi"')"
	run -0 cat sdk.log
	assert_output "$PROBE
$(sent 2 echo '{"text":"hi"}' "$META")"
}

# The servers of t/mcp/sdk-server.mjs, on the protocol's own v2 SDK: of
# the 2026-07-28 revision alone (--eras modern), of both, or of 2025-11-25.

@test "a 2026-07-28 server: the probe, then the _meta on every request and no initialize; a call of each kind" {
	logged sdk "$SDK" --eras modern
	{
		call sdk echo '{"text":"hi"}'
		call sdk structured '{"a":6,"b":7}'
		call sdk fail '{"text":"no luck"}'
		call sdk nope '{}'
		call sdk logging '{"level":"debug","data":"every level"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c conf-sdk.json in.jsonl
	assert_output "$(result call-0-1 echo sdk '"hi"')
$(result call-0-2 structured sdk '"{\"sum\":13,\"product\":42}"' ',"structuredContent":{"sum":13,"product":42}')
$(failed call-0-3 fail sdk '"no luck"')
$(failed call-0-4 nope sdk '"Tool nope not found (JSON-RPC error -32602)"')
$(result call-0-5 logging sdk '"logged"')"
	# the log message: the envelope's log level asks for every level
	assert_equal "$stderr" 'in.jsonl:3:34: error: tool "fail" on sdk failed: no luck
in.jsonl:4:34: error: tool "nope" on sdk failed: Tool nope not found (JSON-RPC error -32602)
sdk: debug: every level'
	run -0 cat sdk.log
	assert_output "$PROBE
$(sent 2 echo '{"text":"hi"}' "$META")
$(sent 3 structured '{"a":6,"b":7}' "$META")
$(sent 4 fail '{"text":"no luck"}' "$META")
$(sent 5 nope '{}' "$META")
$(sent 6 logging '{"level":"debug","data":"every level"}' "$META")"
}

@test "a 2026-07-28 server sends no request: its SDK refuses a ping, and a roots/list the _meta gives no capability for" {
	{
		call sdk ask '{}'
		call sdk ask '{"method":"roots/list"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --server "sdk=node $SDK --eras modern" in.jsonl
	assert_output "$(failed call-0-1 ask sdk '"ping: Method '"'"'ping'"'"' is not supported by the negotiated protocol version (wire era 2026-07-28) (METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION)"')
$(failed call-0-2 ask sdk '"Cannot request input '"'"'roots'"'"' (roots/list): the request'"'"'s client capabilities do not declare the required capability (JSON-RPC error -32021)"')"
}

@test "--list-tools over a paged tools/list of a 2026-07-28 server, read by toolcall-parse as it is" {
	logged sdk "$SDK" --eras modern --page-size 2 --prefix sdk_
	run -0 --separate-stderr mcp-run --list-tools -c conf-sdk.json
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >tools.json
	run -0 jq -c '[.tools[] | [.name, ._meta["llmkit/server"]]]' tools.json
	assert_output '[["sdk_echo","sdk"],["sdk_add","sdk"],["sdk_fail","sdk"],["sdk_crash","sdk"],["sdk_slow","sdk"],["sdk_structured","sdk"],["sdk_logging","sdk"],["sdk_stderr","sdk"],["sdk_garbage","sdk"],["sdk_ask","sdk"]]'
	run -0 jq -c '.tools[5]' tools.json
	assert_output '{"name":"sdk_structured","description":"The sum and product of two numbers, as structured content.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"},"product":{"type":"number"}},"required":["sum","product"]},"_meta":{"llmkit/server":"sdk"}}'
	run -0 cat sdk.log
	assert_output "$PROBE
"'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{'"$META"'}}
{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"2",'"$META"'}}
{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"4",'"$META"'}}
{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"6",'"$META"'}}
{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"cursor":"8",'"$META"'}}'
	run -0 --separate-stderr toolcall-parse --tools tools.json --print-prompt
	assert_line '## sdk_structured'
	printf '<tool><tool_name>sdk_add</tool_name><arguments><a>1</a><b>2</b></arguments></tool>' |
	    toolcall-parse --tools tools.json --thread >calls.jsonl
	run -0 --separate-stderr mcp-run -c conf-sdk.json calls.jsonl
	assert_output "$(result call-0-1 sdk_add sdk '"3"')"
}

@test "a 2026-07-28 server: a call past -T is cancelled; a crash stops it, and the next call starts it again through the probe; garbage is passed over" {
	logged sdk "$SDK" --eras modern
	{
		call sdk slow '{"seconds":30}'
		call sdk echo '{"text":"still here"}'
		call sdk crash '{"status":7}'
		call sdk echo '{"text":"again"}'
		call sdk garbage '{}'
		call sdk echo '{"text":"once more"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -T 3 -c conf-sdk.json in.jsonl
	assert_output "$(failed call-0-1 slow sdk '"timed out after 3 s"')
$(result call-0-2 echo sdk '"still here"')
$(failed call-0-3 crash sdk '"server sdk exited with status 7 during the call"')
$(result call-0-4 echo sdk '"again"')
$(failed call-0-5 garbage sdk '"timed out after 3 s"')
$(result call-0-6 echo sdk '"once more"')"
	assert_equal "$stderr" 'in.jsonl:1:34: error: tool "slow" on sdk failed: timed out after 3 s
sdk: sdk-server: slow: cancelled: timed out after 3 s
in.jsonl:3:34: error: tool "crash" on sdk failed: server sdk exited with status 7 during the call
sdk: not JSON-RPC, passed over: "this is not JSON"
in.jsonl:5:34: error: tool "garbage" on sdk failed: timed out after 3 s'
	run -0 cat sdk.log
	assert_output "$PROBE
$(sent 2 slow '{"seconds":30}' "$META")
"'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"timed out after 3 s"}}'"
$(sent 3 echo '{"text":"still here"}' "$META")
$(sent 4 crash '{"status":7}' "$META")
$PROBE
$(sent 2 echo '{"text":"again"}' "$META")
$(sent 3 garbage '{}' "$META")
"'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"timed out after 3 s"}}'"
$(sent 4 echo '{"text":"once more"}' "$META")"
}

@test "--protocol 2025-11-25 with a server of 2026-07-28 alone is trouble that names the revisions it speaks" {
	logged sdk "$SDK" --eras modern
	call sdk echo '{"text":"hi"}' >in.jsonl
	run -3 --separate-stderr mcp-run --protocol 2025-11-25 -c conf-sdk.json in.jsonl
	assert_output "$(failed call-0-1 echo sdk '"sdk: the server speaks only [\"2026-07-28\"], not 2025-11-25, which --protocol pins"')"
	assert_equal "$stderr" 'sdk: sdk-server: Rejected 2025-era request on a modern-only stdio connection (modern-only-missing-envelope): Unsupported protocol version: 2025-11-25
mcp-run: sdk: the server speaks only ["2026-07-28"], not 2025-11-25, which --protocol pins'
	run -0 cat sdk.log
	assert_output '{"jsonrpc":"2.0","id":1,'"$INITIALIZE"
}

@test "a server of both eras speaks 2026-07-28, or 2025-11-25 when --protocol says so" {
	logged sdk "$SDK" --eras dual
	call sdk echo '{"text":"hi"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf-sdk.json in.jsonl
	assert_output "$(result call-0-1 echo sdk '"hi"')"
	run -0 cat sdk.log
	assert_output "$PROBE
$(sent 2 echo '{"text":"hi"}' "$META")"
	rm sdk.log
	run -0 --separate-stderr mcp-run --protocol 2025-11-25 -c conf-sdk.json in.jsonl
	assert_output "$(result call-0-1 echo sdk '"hi"')"
	run -0 cat sdk.log
	assert_output '{"jsonrpc":"2.0","id":1,'"$INITIALIZE"'
{"jsonrpc":"2.0","method":"notifications/initialized"}
'"$(sent 2 echo '{"text":"hi"}')"
}

@test "a 2025-11-25 server: initialize after the probe's error; every log level; its ping and roots/list answered, sampling refused" {
	logged sdk "$SDK" --eras legacy
	{
		call sdk logging '{"level":"debug","data":{"every":"level"}}'
		call sdk ask '{}'
		call sdk ask '{"method":"roots/list"}'
		call sdk ask '{"method":"sampling/createMessage"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c conf-sdk.json in.jsonl
	# roots/list, asked without the capability: the current directory
	roots=$(jq -cn --arg u "file://$(pwd -P)" --arg n "$(basename "$(pwd -P)")" \
	    '{roots: [{uri: $u, name: $n}]}')
	assert_output "$(result call-0-1 logging sdk '"logged"')
$(result call-0-2 ask sdk '"ping: {}"')
$(result call-0-3 ask sdk "$(jq -cn --arg t "roots/list: $roots" '$t')")
$(failed call-0-4 ask sdk '"sampling/createMessage: Method not found (-32601)"')"
	assert_equal "$stderr" 'sdk: debug: {"every":"level"}
in.jsonl:4:34: error: tool "ask" on sdk failed: sampling/createMessage: Method not found (-32601)'
	run -0 cat sdk.log
	assert_output "$PROBE
"'{"jsonrpc":"2.0","id":2,'"$INITIALIZE"'
{"jsonrpc":"2.0","method":"notifications/initialized"}
'"$(sent 3 logging '{"level":"debug","data":{"every":"level"}}')
$(sent 4 ask '{}')
"'{"jsonrpc":"2.0","id":0,"result":{}}'"
$(sent 5 ask '{"method":"roots/list"}')
"'{"jsonrpc":"2.0","id":1,"result":'"$roots"'}'"
$(sent 6 ask '{"method":"sampling/createMessage"}')
"'{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}'
}

@test "servers of two eras in one configuration, each with its own lifecycle" {
	logged ev
	logged sdk "$SDK" --eras modern
	jq -s '{mcpServers: (.[0].mcpServers + .[1].mcpServers)}' \
	    conf-ev.json conf-sdk.json >conf.json
	{
		call ev echo '{"message":"a"}'
		call sdk echo '{"text":"b"}'
		call ev echo '{"message":"c"}'
		call sdk echo '{"text":"d"}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 echo ev '"Echo: a"')
$(result call-0-2 echo sdk '"b"')
$(result call-0-3 echo ev '"Echo: c"')
$(result call-0-4 echo sdk '"d"')"
	assert_equal "$stderr" 'ev: Starting default (STDIO) server...'
	run -0 cat ev.log
	assert_output "$PROBE
"'{"jsonrpc":"2.0","id":2,'"$INITIALIZE"'
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":3,"method":"tools/list"}
'"$(sent 4 echo '{"message":"a"}')
$(sent 5 echo '{"message":"c"}')"
	run -0 cat sdk.log
	assert_output "$PROBE
$(sent 2 echo '{"text":"b"}' "$META")
$(sent 3 echo '{"text":"d"}' "$META")"
}

@test "a server that speaks no revision of mcp-run's is trouble, told by its -32022 to the probe or by its answer to initialize" {
	# no server at hand answers so: two scripted ones
	cat >future.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 2026-07-28","data":{"supported":["2027-03-01","2027-09-01"],"requested":"2026-07-28"}}}'
cat >/dev/null
EOF
	cat >past.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
read -r initialize
echo '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2024-10-07","capabilities":{},"serverInfo":{"name":"past","version":"1"}}}'
cat >/dev/null
EOF
	{
		call future echo '{}'
		call past echo '{}'
	} >in.jsonl
	run -3 --separate-stderr mcp-run --server "future=sh $PWD/future.sh" \
	    --server "past=sh $PWD/past.sh" in.jsonl
	assert_output "$(failed call-0-1 echo future '"future: the server speaks only [\"2027-03-01\",\"2027-09-01\"], which mcp-run does not speak"')
$(failed call-0-2 echo past '"past: the server answered protocol revision \"2024-10-07\", which mcp-run does not speak"')"
	assert_equal "$stderr" 'mcp-run: future: the server speaks only ["2027-03-01","2027-09-01"], which mcp-run does not speak
mcp-run: past: the server answered protocol revision "2024-10-07", which mcp-run does not speak'
}

@test "a 2026-07-28 result that asks for input is a failed call: mcp-run gives none" {
	# the SDK never sends one to a client without the capability: a
	# scripted server does
	cat >asks.sh <<'EOF'
read -r probe
echo '{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete"}}'
read -r call
echo '{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"roots":{"method":"roots/list","params":{}}}}}'
read -r call
echo '{"jsonrpc":"2.0","id":3,"result":{"content":[],"resultType":7}}'
read -r call
echo '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"done"}],"resultType":"complete"}}'
cat >/dev/null
EOF
	{
		call asks roots '{}'
		call asks roots '{}'
		call asks roots '{}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --server "asks=sh $PWD/asks.sh" in.jsonl
	assert_output "$(failed call-0-1 roots asks '"the server answered a result of type \"input_required\", which mcp-run does not take"')
$(failed call-0-2 roots asks '"the server answered a result of type that is not a string, which mcp-run does not take"')
$(result call-0-3 roots asks '"done"')"
	assert_equal "$stderr" 'in.jsonl:1:35: error: tool "roots" on asks failed: the server answered a result of type "input_required", which mcp-run does not take
in.jsonl:2:35: error: tool "roots" on asks failed: the server answered a result of type that is not a string, which mcp-run does not take'
}

@test "the filesystem server reads a file of its directory and refuses one outside" {
	{
		call fs read_text_file "{\"path\":\"$ROOT/note.txt\"}"
		call fs read_text_file '{"path":"/etc/passwd"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_output "$(result call-0-1 read_text_file fs '"hello from a file\n"' ',"structuredContent":{"content":"hello from a file\n"}')
$(failed call-0-2 read_text_file fs "\"Access denied - path outside allowed directories: /etc/passwd not in $ROOT\"")"
	assert_equal "$stderr" "$FS_STARTING
fs: Client does not support MCP Roots, using allowed directories set from server args: [ '$ROOT' ]
in.jsonl:2:33: error: tool \"read_text_file\" on fs failed: Access denied - path outside allowed directories: /etc/passwd not in $ROOT"
}

@test "structured content and non-text content are kept beside the text" {
	{
		call everything get-structured-content '{"location":"Chicago"}'
		call everything get-resource-links '{"count":2}'
		call everything get-tiny-image '{}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_equal "${lines[0]}" "$(result call-0-1 get-structured-content everything '"{\"temperature\":36,\"conditions\":\"Light rain / drizzle\",\"humidity\":82}"' ',"structuredContent":{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}')"
	assert_equal "${lines[1]}" "$(result call-0-2 get-resource-links everything '"Here are 2 resource links to resources available in this server:"' ',"content":[{"name":"Blob Resource 1","uri":"demo://resource/dynamic/blob/1","description":"Resource 1: plaintext resource","mimeType":"text/plain","type":"resource_link"},{"name":"Text Resource 2","uri":"demo://resource/dynamic/text/2","description":"Resource 2: plaintext resource","mimeType":"text/plain","type":"resource_link"}]')"
	# the image: the texts around it, then the image item as sent
	run -0 jq -c '[.result, (.content | map({type, mimeType, size: (.data | length)}))]' <<<"${lines[2]}"
	assert_output '["Here'"'"'s the image you requested:\nThe image above is the MCP logo.",[{"type":"image","mimeType":"image/png","size":5380}]]'
	assert_equal "$stderr" "$STARTING"
}

@test "an isError result is an error event with its text, status 1" {
	call everything nosuch '{}' >in.jsonl
	run -1 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_output "$(failed call-0-1 nosuch everything '"MCP error -32602: Tool nosuch not found"')"
	assert_equal "$stderr" "$STARTING
in.jsonl:1:41: error: tool \"nosuch\" on everything failed: MCP error -32602: Tool nosuch not found"
}

@test "bad arguments are an isError result of the server's" {
	call everything get-sum '{"a":"x","b":1}' >in.jsonl
	run -1 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_output "$(failed call-0-1 get-sum everything '"MCP error -32602: Input validation error: Invalid arguments for tool get-sum: Invalid input: expected number, received string at a"')"
}

@test "a JSON-RPC error is an error event with its message and code" {
	call everything echo '"not an object"' >in.jsonl
	run -1 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_output "$(failed call-0-1 echo everything '"[\n  {\n    \"expected\": \"record\",\n    \"code\": \"invalid_type\",\n    \"path\": [\n      \"params\",\n      \"arguments\"\n    ],\n    \"message\": \"Invalid input: expected record, received string\"\n  }\n] (JSON-RPC error -32603)"')"
	assert_equal "${stderr_lines[1]}" 'in.jsonl:1:41: error: tool "echo" on everything failed: [\n  {\n    "expected": "record",\n    "code": "invalid_type",\n    "path": [\n      "params",\n      "arguments"\n    ],\n    "message": "Invalid input: expected record, received string"\n  }\n] (JSON-RPC error -32603)'
}

@test "a call without a server, or to local, goes to the one server that has the tool" {
	{
		printf '{"tool_name":"echo","arguments":{"message":"a"}}\n'
		call local list_allowed_directories '{}'
		call "" get-sum '{"a":1,"b":1}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_output "$(result call-0-1 echo everything '"Echo: a"')
$(result call-0-2 list_allowed_directories fs "\"Allowed directories:\\n$ROOT\"" ",\"structuredContent\":{\"content\":\"Allowed directories:\\n$ROOT\"}")
$(result call-0-3 get-sum everything '"The sum of 1 and 1 is 2."')"
}

@test "a tool on two servers, on none, and an unconfigured server are refused" {
	{
		call local echo '{"message":"a"}'
		printf '{"tool_name":"nosuch","arguments":{}}\n'
		call elsewhere echo '{"message":"a"}'
		call twin echo '{"message":"b"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c "$CONF" --server "twin=node $EVERYTHING stdio" in.jsonl
	assert_output "$(refused call-0-1 echo '"tool \"echo\" is on more than one server (everything, twin): name one in server_name"')
$(refused call-0-2 nosuch '"no server has a tool \"nosuch\""')
$(refused call-0-3 echo '"no server \"elsewhere\" is configured"')
$(result call-0-4 echo twin '"Echo: b"')"
	run -0 grep -v '^\(everything\|twin\|fs\): ' <<<"$stderr"
	assert_output 'in.jsonl:1:36: error: tool "echo" is on more than one server (everything, twin): name one in server_name
in.jsonl:2:14: error: no server has a tool "nosuch"
in.jsonl:3:16: error: no server "elsewhere" is configured'
}

@test "a server named local takes the calls to local" {
	call local echo '{"message":"here"}' >in.jsonl
	run -0 --separate-stderr mcp-run --server "local=node $EVERYTHING stdio" in.jsonl
	assert_output "$(result call-0-1 echo local '"Echo: here"')"
	assert_equal "$stderr" "local: Starting default (STDIO) server..."
}

@test "a call past -T is cancelled and the server still answers the next" {
	logged ev
	{
		call ev trigger-long-running-operation '{"duration":2,"steps":1}'
		call ev echo '{"message":"still here"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -T 1 -c conf-ev.json in.jsonl
	assert_output "$(failed call-0-1 trigger-long-running-operation ev '"timed out after 1 s"')
$(result call-0-2 echo ev '"Echo: still here"')"
	assert_equal "$stderr" 'ev: Starting default (STDIO) server...
in.jsonl:1:33: error: tool "trigger-long-running-operation" on ev failed: timed out after 1 s'
	run -0 sed -n 6,7p ev.log
	assert_output '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"timed out after 1 s"}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"still here"},"_meta":{"progressToken":5}}}'
}

@test "a server killed during a call fails that call and is started again" {
	cat >conf.json <<EOF
{"mcpServers": {"victim": {"command": "sh",
  "args": ["-c", "echo \$\$ >\"\$0\"; exec node \"\$1\" stdio", "$PWD/pid", "$EVERYTHING"]}}}
EOF
	coproc MCP { exec mcp-run -u -c conf.json 2>err; }
	call victim echo '{"message":"one"}' >&"${MCP[1]}"
	read -r -t 20 one <&"${MCP[0]}"
	call victim trigger-long-running-operation '{"duration":30,"steps":30}' >&"${MCP[1]}"
	# killed once it has read the call (its first progress says so):
	# a server that dies before reading a call is sent it again
	local i=0
	until grep -q 'trigger-long-running-operation: 1/30$' err; do
		i=$((i + 1))
		[ "$i" -lt 200 ] || fail "no progress of the call in 20 s"
		sleep 0.1
	done
	kill -KILL "$(cat pid)"
	read -r -t 20 two <&"${MCP[0]}"
	call victim echo '{"message":"three"}' >&"${MCP[1]}"
	read -r -t 20 three <&"${MCP[0]}"
	exec {MCP[1]}>&-
	local st=0
	wait "$MCP_PID" || st=$?
	assert_equal "$st" 1
	assert_equal "$one" "$(result call-0-1 echo victim '"Echo: one"')"
	assert_equal "$two" "$(failed call-0-2 trigger-long-running-operation victim '"server victim was killed by signal 9 during the call"')"
	assert_equal "$three" "$(result call-0-3 echo victim '"Echo: three"')"
	run -0 grep -v ': [0-9]*/30$' err
	assert_output 'victim: Starting default (STDIO) server...
<stdin>:2:37: error: tool "trigger-long-running-operation" on victim failed: server victim was killed by signal 9 during the call
victim: Starting default (STDIO) server...'
}

@test "a server whose command does not exist is trouble, status 3" {
	call ghost echo '{}' >in.jsonl
	run -3 --separate-stderr mcp-run --server 'ghost=/nonexistent/mcp-server --stdio' in.jsonl
	assert_output "$(failed call-0-1 echo ghost '"ghost: cannot start /nonexistent/mcp-server: No such file or directory"')"
	assert_equal "$stderr" 'mcp-run: ghost: cannot start /nonexistent/mcp-server: No such file or directory'
}

@test "a server whose directory does not exist is trouble, status 3" {
	printf '{"mcpServers":{"s":{"command":"node","cwd":"/nonexistent/dir"}}}' >conf.json
	call s echo '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_equal "$stderr" 'mcp-run: s: cannot start node in /nonexistent/dir: No such file or directory'
}

@test "a server that writes garbage is stopped at its 100th line: the call fails, status 3" {
	cat >conf.json <<'EOF'
{"mcpServers": {"junk": {"command": "sh", "args": ["-c", "yes garbage | head -n 100; cat >/dev/null"]}}}
EOF
	{
		call junk echo '{}'
		call junk echo '{}'
	} >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(failed call-0-1 echo junk '"junk: 100 lines that are not JSON-RPC messages, the last (not JSON): \"garbage\""')
$(failed call-0-2 echo junk '"junk: 100 lines that are not JSON-RPC messages, the last (not JSON): \"garbage\""')"
	run -0 grep -v -x 'junk: not JSON-RPC, passed over: "garbage"' <<<"$stderr"
	assert_output 'mcp-run: junk: 100 lines that are not JSON-RPC messages, the last (not JSON): "garbage"
mcp-run: junk: 100 lines that are not JSON-RPC messages, the last (not JSON): "garbage"'
	run -0 grep -c -x 'junk: not JSON-RPC, passed over: "garbage"' <<<"$stderr"
	assert_output 198
}

@test "a server that never answers is given up after -T" {
	printf '{"mcpServers":{"mute":{"command":"sh","args":["-c","cat >/dev/null"]}}}' >conf.json
	call mute echo '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -T 0.2 -c conf.json in.jsonl
	assert_output "$(failed call-0-1 echo mute '"mute: no answer to initialize within 0.2 s"')"
	assert_equal "$stderr" 'mcp-run: mute: no answer to initialize within 0.2 s'
}

@test "1,000 calls run in one session, in order" {
	for i in $(seq 1000); do
		call everything echo "{\"message\":\"m$i\"}"
	done >in.jsonl
	run -0 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_equal "${#lines[@]}" 1000
	assert_equal "${lines[0]}" "$(result call-0-1 echo everything '"Echo: m1"')"
	assert_equal "${lines[499]}" "$(result call-0-500 echo everything '"Echo: m500"')"
	assert_equal "${lines[999]}" "$(result call-0-1000 echo everything '"Echo: m1000"')"
	assert_equal "$stderr" "$STARTING"
}

@test "the thread form goes in, other events are passed over, and thread-serialize reads what comes out" {
	cat >thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"add 2 and 3, echo hi","iteration":0}
{"type":"tool_call","toolName":"get-sum","args":{"a":2,"b":3},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-2","iteration":1,"serverName":"everything"}
EOF
	run -0 --separate-stderr mcp-run -c "$CONF" thread.jsonl
	assert_output '{"type":"tool_result","toolCallId":"call-1-1","toolName":"get-sum","serverName":"everything","result":"The sum of 2 and 3 is 5.","iteration":1}
{"type":"tool_result","toolCallId":"call-1-2","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":1}'
	printf '%s\n' "$output" >>thread.jsonl
	run -0 --separate-stderr thread-serialize thread.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">add 2 and 3, echo hi</event>
  <event type="tool_input" id="1" name="get-sum" iteration="1">{&quot;a&quot;:2,&quot;b&quot;:3}</event>
  <event type="tool_input" id="2" name="echo" iteration="1">{&quot;message&quot;:&quot;hi&quot;}</event>
  <event type="tool_output" id="3" name="get-sum" status="success" iteration="1">The sum of 2 and 3 is 5.</event>
  <event type="tool_output" id="4" name="echo" status="success" iteration="1">Echo: hi</event>
</thread>'
}

@test "an error event goes through thread-serialize" {
	call everything nosuch '{}' | mcp-run -c "$CONF" >out.jsonl 2>/dev/null || :
	run -0 --separate-stderr thread-serialize out.jsonl
	assert_output '<thread>
  <event type="error" id="0" iteration="0" recoverable="true">MCP error -32602: Tool nosuch not found</event>
</thread>'
}

@test "toolcall-parse --thread feeds mcp-run straight" {
	printf 'Sure. <tool><tool_name>get-sum</tool_name><arguments><a>20</a><b>22</b></arguments></tool>\n' |
	    toolcall-parse --thread --iteration 2 >calls.jsonl
	run -0 --separate-stderr mcp-run -c "$CONF" calls.jsonl
	assert_output '{"type":"tool_result","toolCallId":"call-2-1","toolName":"get-sum","serverName":"everything","result":"The sum of 20 and 22 is 42.","iteration":2}'
}

@test "--list-tools writes every server's tools, marked, for toolcall-parse" {
	run -0 --separate-stderr mcp-run --list-tools -c "$CONF"
	printf '%s\n' "$output" >tools.json
	run -0 jq -c '[.tools[] | [.name, ._meta["llmkit/server"]]] | [length, .[0], .[-1]]' tools.json
	assert_output '[27,["echo","everything"],["list_allowed_directories","fs"]]'
	run -0 jq -c '.tools[0]' tools.json
	assert_output '{"name":"echo","title":"Echo Tool","description":"Echoes back the input string","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"message":{"type":"string","description":"Message to echo"}},"required":["message"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false},"execution":{"taskSupport":"forbidden"},"_meta":{"llmkit/server":"everything"}}'
	run -0 --separate-stderr toolcall-parse --tools tools.json --print-prompt
	assert_line '<tool_name>get-sum</tool_name>'
	printf '<tool><tool_name>get-sum</tool_name><arguments><a>1</a><b>2</b></arguments></tool>' |
	    toolcall-parse --tools tools.json --thread >calls.jsonl
	run -0 --separate-stderr mcp-run -c "$CONF" calls.jsonl
	assert_output '{"type":"tool_result","toolCallId":"call-0-1","toolName":"get-sum","serverName":"everything","result":"The sum of 1 and 2 is 3.","iteration":0}'
}

@test "--list-tools with a server that cannot start writes nothing, status 3" {
	run -3 --separate-stderr mcp-run --list-tools -c "$CONF" --server 'ghost=/nonexistent/x'
	assert_output ''
	assert_equal "${stderr_lines[-1]}" 'mcp-run: ghost: cannot start /nonexistent/x: No such file or directory'
}

@test "--list-tools NAME starts and lists that server alone" {
	jq '{mcpServers: {fs: .mcpServers.fs}}' "$CONF" >fs.json
	run -0 --separate-stderr mcp-run --list-tools -c fs.json
	printf '%s\n' "$output" >fs-alone.json
	run -0 --separate-stderr mcp-run --list-tools -c "$CONF" \
	    --server "ghost=touch $PWD/ghost-started" fs
	assert_equal "$stderr" "$FS_STARTING
fs: Client does not support MCP Roots, using allowed directories set from server args: [ '$ROOT' ]"
	printf '%s\n' "$output" >fs-named.json
	cmp fs-alone.json fs-named.json
	run -0 jq -c '[.tools[]._meta["llmkit/server"]] | unique' fs-named.json
	assert_output '["fs"]'
	[ ! -e ghost-started ]
}

@test "--list-tools NAME NAME lists each once, in the order of their names" {
	run -0 --separate-stderr mcp-run --list-tools -c "$CONF" \
	    --server "ghost=touch $PWD/ghost-started" fs everything fs
	printf '%s\n' "$output" >named.json
	run -0 --separate-stderr mcp-run --list-tools -c "$CONF"
	printf '%s\n' "$output" >all.json
	cmp all.json named.json
	[ ! -e ghost-started ]
}

@test "--list-tools with a name that no server has is a usage error, and starts none" {
	run -2 --separate-stderr mcp-run --list-tools -c "$CONF" fs nope
	assert_output ''
	assert_equal "$stderr" "mcp-run: --list-tools: no server \"nope\" is configured
$USAGE"
	run -2 --separate-stderr mcp-run --list-tools --server 'a=true' ''
	assert_equal "$stderr" "mcp-run: --list-tools: no server \"\" is configured
$USAGE"
}

@test "--list-servers writes the names of -c and --server, sorted, and starts none" {
	cat >conf.json <<EOF
{"mcpServers": {
  "zeta": {"command": "touch", "args": ["$PWD/zeta-started"]},
  "Alpha": {"command": "touch", "args": ["$PWD/alpha-started"]},
  "files and more": {"command": "touch", "args": ["$PWD/files-started"]}
}}
EOF
	run -0 --separate-stderr mcp-run --list-servers -c conf.json \
	    --server "mid=touch $PWD/mid-started"
	assert_equal "$stderr" ''
	assert_output 'Alpha
files and more
mid
zeta'
	run -0 --separate-stderr mcp-run --list-servers --server 'b=x' --server 'a=y'
	assert_output 'a
b'
	run -0 find . -name '*-started'
	assert_output ''
}

@test "--list-servers leaves out, and names, a name that holds a control character, status 1" {
	printf '%s\n' '{"mcpServers": {"a\nb": {"command": "x"},' \
	    '"\u001b[2J": {"command": "x"}, "ok": {"command": "x"},' \
	    '"\u0085": {"command": "x"}}}' >conf.json
	run -1 --separate-stderr mcp-run --list-servers -c conf.json
	assert_output 'ok'
	assert_equal "$stderr" 'mcp-run: server "\u001b[2J" is not listed: its name holds a control character
mcp-run: server "a\nb" is not listed: its name holds a control character
mcp-run: server "\u0085" is not listed: its name holds a control character'
}

@test "--list-servers with a bad configuration: its diagnostics, status 2" {
	printf '{"mcpServers": {"a": {"command": "x"}}, "servers": []}\n' >conf.json
	run -2 --separate-stderr mcp-run --list-servers -c conf.json
	assert_output ''
	assert_equal "$stderr" 'conf.json:1:52: error: "servers" must be an object, not an array'
	run -3 --separate-stderr mcp-run --list-servers -c nonexistent.json
	assert_output ''
	assert_equal "$stderr" 'mcp-run: nonexistent.json: No such file or directory'
}

@test "a server gets a minimal environment and its declared variables" {
	cat >conf.json <<EOF
{"mcpServers": {"e": {"command": "node", "args": ["$EVERYTHING", "stdio"],
  "env": {"API_KEY": "k", "TZ": "Europe/Paris"}}}}
EOF
	call e get-env '{}' >in.jsonl
	run -0 --separate-stderr env -i PATH="$PATH" HOME=/home/x SECRET=s \
	    LANG=C.UTF-8 TZ=UTC mcp-run -c conf.json in.jsonl
	run -0 jq -r .result <<<"$output"
	assert_output "{
  \"HOME\": \"/home/x\",
  \"PATH\": \"$PATH\",
  \"LANG\": \"C.UTF-8\",
  \"API_KEY\": \"k\",
  \"TZ\": \"Europe/Paris\"
}"
}

@test "a server runs in its declared directory" {
	cat >conf.json <<EOF
{"mcpServers": {"fs": {"command": "node", "args": ["$FILESYSTEM", "."], "cwd": "$ROOT"}}}
EOF
	call fs list_allowed_directories '{}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 list_allowed_directories fs "\"Allowed directories:\\n$ROOT\"" ",\"structuredContent\":{\"content\":\"Allowed directories:\\n$ROOT\"}")"
}

@test "a server's log messages reach stderr with its name" {
	call everything toggle-simulated-logging '{}' >in.jsonl
	run -0 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_equal "${stderr_lines[0]}" "$STARTING"
	assert_regex "${stderr_lines[1]}" '^everything: (debug|info|notice|warning|error|critical|alert|emergency): [A-Z][a-z]*[- ]level[- ]message$'
}

@test "a server that ignores the end of its input is stopped by SIGTERM, then SIGKILL" {
	cat >conf.json <<EOF
{"mcpServers": {"stubborn": {"command": "sh",
  "args": ["-c", "trap '' TERM; node \"\$0\" stdio; exec sleep 61.75", "$EVERYTHING"]}}}
EOF
	call stubborn echo '{"message":"x"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 echo stubborn '"Echo: x"')"
	run -1 pgrep -f 'sleep 61.75'
}

@test "bad input lines are reported at their place, and the next line is read" {
	{
		printf '{"tool_name":"echo",\n'
		printf '[1]\n'
		printf '{"type":"tool_call","args":{}}\n'
		printf '{"type":"tool_call","toolName":"echo"}\n'
		printf '{"tool_name":"echo","arguments":{},"server_name":7}\n'
		printf '{"type":"tool_call","toolName":"echo","args":{},"toolCallId":1}\n'
		printf '{"type":"tool_call","toolName":"echo","args":{},"iteration":-1}\n'
		printf '{"tool_name":"","arguments":{}}\n'
		printf '\n'
		printf '{"type":7}\n'
		printf '{"tool_name":"echo","arguments":{"message":"ok"}} x\n'
		call everything echo '{"message":"last"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c "$CONF" in.jsonl
	assert_output "$(result call-0-1 echo everything '"Echo: last"')"
	assert_equal "$stderr" 'in.jsonl:1:21: error: invalid JSON: string or '"'"'}'"'"' expected near end of line
in.jsonl:2:1: error: a call must be an object, not an array
in.jsonl:3:1: error: a call must have a "toolName" string
in.jsonl:4:1: error: a call must have "args"
in.jsonl:5:50: error: "server_name" must be a string, not a number
in.jsonl:6:62: error: "toolCallId" must be a string, not a number
in.jsonl:7:61: error: "iteration" must be a whole number from 0
in.jsonl:8:14: error: the tool'"'"'s name is empty
in.jsonl:10:9: error: "type" must be a string, not a number
in.jsonl:11:51: error: invalid JSON: text after the record
'"$STARTING"
}

@test "--errors=json writes each diagnostic as a JSON object" {
	{
		printf '{"tool_name":"nosuch","arguments":{}}\n'
		printf 'nope\n'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --errors=json -c "$CONF" in.jsonl
	run -0 grep '^{' <<<"$stderr"
	assert_output '{"file":"in.jsonl","line":1,"column":14,"severity":"error","rule":"mcp-refused","message":"no server has a tool \"nosuch\"","path":"/tool_name"}
{"file":"in.jsonl","line":2,"column":1,"severity":"error","rule":"json-syntax","message":"invalid JSON: invalid token near '"'"'nope'"'"'"}'
}

@test "a server declared twice is a usage error" {
	run -2 --separate-stderr mcp-run -c "$CONF" --server 'fs=true'
	assert_equal "$stderr" "mcp-run: server \"fs\" is declared twice
$USAGE"
	run -2 --separate-stderr mcp-run -c "$CONF" -c "$CONF"
	assert_equal "$stderr" "$CONF:3:19: error: server \"everything\" is declared twice
$CONF:7:11: error: server \"fs\" is declared twice"
}

@test "an unreadable configuration is trouble, status 3" {
	run -3 --separate-stderr mcp-run -c nonexistent.json
	assert_equal "$stderr" 'mcp-run: nonexistent.json: No such file or directory'
}

@test "usage errors name what is wrong, status 2" {
	run -2 --separate-stderr mcp-run
	assert_equal "$stderr" "mcp-run: no server: give -c FILE or --server NAME=COMMAND, or write .mcp.json here
$USAGE"
	run -2 --separate-stderr mcp-run --server 'noequals'
	assert_equal "$stderr" "mcp-run: --server wants NAME=COMMAND or NAME=URL, not \"noequals\"
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=  '
	assert_equal "$stderr" "mcp-run: --server wants NAME=COMMAND or NAME=URL, not \"x=  \"
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=true' -T 0
	assert_equal "$stderr" "mcp-run: -T must be a number of seconds above 0, at most 86400, not \"0\"
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=true' -t soon
	assert_equal "$stderr" "mcp-run: -t must be a number of seconds above 0, at most 86400, not \"soon\"
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=true' --protocol 2024-11-05
	assert_equal "$stderr" "mcp-run: --protocol must be auto, 2026-07-28 or 2025-11-25, not \"2024-11-05\"
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=true' --list-servers in.jsonl
	assert_equal "$stderr" "mcp-run: --list-servers takes no operand
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=true' --list-servers --list-tools
	assert_equal "$stderr" "mcp-run: --list-tools and --list-servers go one at a time
$USAGE"
	run -2 --separate-stderr mcp-run --list-servers
	assert_equal "$stderr" "mcp-run: no server: give -c FILE or --server NAME=COMMAND, or write .mcp.json here
$USAGE"
	run -2 --separate-stderr mcp-run --server 'x=true' --bogus
	assert_equal "$stderr" "mcp-run: unrecognized option '--bogus'
$USAGE"
}

@test "-h prints the usage, what each option does and the exit statuses" {
	run -0 --separate-stderr mcp-run -h
	assert_output "$USAGE

$(help_of mcp-run)

exit status: 0 every call succeeded, 1 a call, read or prompt failed or was refused (a name was not listed), 2 usage, 3 trouble"
}

@test "an unreadable operand is trouble; the others are read" {
	call everything echo '{"message":"a"}' >in.jsonl
	run -3 --separate-stderr mcp-run -c "$CONF" missing.jsonl in.jsonl
	assert_output "$(result call-0-1 echo everything '"Echo: a"')"
	assert_equal "$stderr" "mcp-run: missing.jsonl: No such file or directory
$STARTING"
}

@test "no input starts no server" {
	run -0 --separate-stderr mcp-run -c "$CONF" </dev/null
	assert_output ''
	assert_equal "$stderr" ''
}

@test "SIGTERM stops the servers and mcp-run, status 3" {
	coproc MCP { exec mcp-run -u -c "$CONF" 2>err; }
	call everything echo '{"message":"a"}' >&"${MCP[1]}"
	read -r -t 20 one <&"${MCP[0]}"
	kill -TERM "$MCP_PID"
	local st=0
	wait "$MCP_PID" || st=$?
	assert_equal "$st" 3
	assert_equal "$one" "$(result call-0-1 echo everything '"Echo: a"')"
}

@test "a server that cannot be listed is tried once for the routing, and named is tried again" {
	cat >conf.json <<EOF
{"mcpServers": {"everything": {"command": "node", "args": ["$EVERYTHING", "stdio"]},
  "junk": {"command": "sh", "args": ["-c", "echo '{\\"jsonrpc\\":\\"2.0\\",\\"method\\":7}'; cat >/dev/null"]}}}
EOF
	{
		call local echo '{"message":"a"}'
		call local echo '{"message":"b"}'
		call junk echo '{"message":"c"}'
	} >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 echo everything '"Echo: a"')
$(result call-0-2 echo everything '"Echo: b"')
$(failed call-0-3 echo junk '"junk: not a JSON-RPC message (a \"method\" that is not a string): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":7}\""')"
	assert_equal "$stderr" "$STARTING
mcp-run: junk: not a JSON-RPC message (a \"method\" that is not a string): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":7}\"
mcp-run: junk: not a JSON-RPC message (a \"method\" that is not a string): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":7}\""
}

@test "without -u, what is written reaches the reader before mcp-run waits for input" {
	coproc MCP { exec mcp-run -c "$CONF" 2>/dev/null; }
	call everything echo '{"message":"now"}' >&"${MCP[1]}"
	read -r -t 20 one <&"${MCP[0]}"
	exec {MCP[1]}>&-
	wait "$MCP_PID"
	assert_equal "$one" "$(result call-0-1 echo everything '"Echo: now"')"
}

@test "a server that died between calls is started again without a word" {
	cat >conf.json <<EOF
{"mcpServers": {"victim": {"command": "sh",
  "args": ["-c", "echo \$\$ >\"\$0\"; exec node \"\$1\" stdio", "$PWD/pid", "$EVERYTHING"]}}}
EOF
	coproc MCP { exec mcp-run -c conf.json 2>err; }
	call victim echo '{"message":"one"}' >&"${MCP[1]}"
	read -r -t 20 one <&"${MCP[0]}"
	local pid i=0
	pid=$(cat pid)
	kill -KILL "$pid"
	# gone once mcp-run has reaped it, having seen its output end
	while kill -0 "$pid" 2>/dev/null && [ $((i += 1)) -lt 400 ]; do
		sleep 0.05
	done
	call victim echo '{"message":"two"}' >&"${MCP[1]}"
	read -r -t 20 two <&"${MCP[0]}"
	exec {MCP[1]}>&-
	wait "$MCP_PID"
	assert_equal "$one" "$(result call-0-1 echo victim '"Echo: one"')"
	assert_equal "$two" "$(result call-0-2 echo victim '"Echo: two"')"
	run -0 cat err
	assert_output 'victim: Starting default (STDIO) server...
victim: Starting default (STDIO) server...'
}

# What no well-behaved server sends: t/mcp/raw-server.mjs answers each
# call with the lines of a script, byte for byte.

RAW=$TOP/t/mcp/raw-server.mjs

# raw TOOLS: conf.json declares the server raw, listing the tools TOOLS
# (a JSON array's text) and answering each call with the next block of
# the file script ("---" ends a block, "@ID@" is the request's id).
raw() {
	printf '%s' "$1" >tools.json
	printf '{"mcpServers":{"raw":{"command":"node","args":["%s","%s","%s"]}}}' \
	    "$RAW" "$PWD/tools.json" "$PWD/script" >conf.json
}

@test "an error whose id is null answers no call: the answer that follows is taken" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"boom"}}
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"real"}]}}
EOF
	call raw t '{}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 t raw '"real"')"
	assert_equal "$stderr" 'mcp-run: raw: an error for no request (its "id" is null) is passed over: "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"boom\"}}"'
}

@test "a parse error whose id is null answers the call that was the last line sent" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}
---
{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}
EOF
	{ call raw t '{}'; call raw t '{}'; } >in.jsonl
	run -1 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(failed call-0-1 t raw '"Parse error (JSON-RPC error -32700)"')
$(failed call-0-2 t raw '"Invalid Request (JSON-RPC error -32600)"')"
	assert_equal "$stderr" 'in.jsonl:1:34: error: tool "t" on raw failed: Parse error (JSON-RPC error -32700)
in.jsonl:2:34: error: tool "t" on raw failed: Invalid Request (JSON-RPC error -32600)'
}

@test "ids compare by type and value: 1.0, 1e0 and \"1\" answer no call 1" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
{"jsonrpc":"2.0","id":@ID@.0,"result":{"content":[{"type":"text","text":"float"}]}}
{"jsonrpc":"2.0","id":@ID@e0,"result":{"content":[{"type":"text","text":"exponent"}]}}
{"jsonrpc":"2.0","id":"@ID@","result":{"content":[{"type":"text","text":"string"}]}}
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"integer"}]}}
EOF
	call raw t '{}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(result call-0-1 t raw '"integer"')"
	assert_equal "$stderr" ''
}

@test "bytes of no character that a server writes come out as U+FFFD, and thread-serialize reads the event" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	printf '\377\300\200 {}\n{"jsonrpc":"2.0","id":@ID@} \377\300\200\n' >script
	call raw t '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	local fffd=$'\xef\xbf\xbd'
	assert_output "$(failed call-0-1 t raw '"raw: not a JSON-RPC message (text after the message): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3} '"$fffd$fffd$fffd"'\""')"
	assert_equal "$stderr" "raw: not JSON-RPC, passed over: \"$fffd$fffd$fffd {}\"
mcp-run: raw: not a JSON-RPC message (text after the message): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3} $fffd$fffd$fffd\""
	mcp-run -c conf.json in.jsonl >events.jsonl 2>/dev/null || true
	run -0 thread-serialize events.jsonl
	assert_output "<thread>
  <event type=\"error\" id=\"0\" iteration=\"0\" recoverable=\"true\">raw: not a JSON-RPC message (text after the message): &quot;{\\&quot;jsonrpc\\&quot;:\\&quot;2.0\\&quot;,\\&quot;id\\&quot;:3} $fffd$fffd$fffd&quot;</event>
</thread>"
}

@test "a --server name that is not UTF-8 is a usage error, and a name of letters of any script is taken" {
	run -2 --separate-stderr mcp-run --server $'\xff=cat' --list-servers
	assert_equal "$stderr" "mcp-run: --server: the name \"$(printf '\357\277\275')\" is not UTF-8
$USAGE"
	run -0 --separate-stderr mcp-run --server 'état=cat' --list-servers
	assert_output 'état'
}

@test "a tool whose name holds a NUL or a control character is left out, named with its server; names compare whole" {
	raw '[{"name":"echo\u0000evil"},{"name":"a\nb"},{"name":"\u001b[2J"},{"name":""},{"description":"no name"},5,{"name":"ok","inputSchema":{"type":"object"}}]'
	: >script
	run -0 --separate-stderr mcp-run --list-tools -c conf.json
	assert_output '{"tools":[{"name":"ok","inputSchema":{"type":"object"},"_meta":{"llmkit/server":"raw"}}]}'
	assert_equal "$stderr" 'mcp-run: raw: tool "echo\u0000evil" is left out: its name holds a control character
mcp-run: raw: tool "a\nb" is left out: its name holds a control character
mcp-run: raw: tool "\u001b[2J" is left out: its name holds a control character
mcp-run: raw: a tool with an empty name is left out
mcp-run: raw: a tool without a "name" string is left out
mcp-run: raw: a tool that is not an object is left out'
	printf '{"tool_name":"echo","arguments":{}}\n{"tool_name":"echo\\u0000evil","arguments":{}}\n{"server_name":"raw\\u0000x","tool_name":"ok","arguments":{}}\n' >in.jsonl
	run -1 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(refused call-0-1 echo '"no server has a tool \"echo\""')"
	assert_equal "$(printf '%s\n' "$stderr" | tail -3)" 'in.jsonl:1:14: error: no server has a tool "echo"
in.jsonl:2:14: error: the tool'"'"'s name holds a control character
in.jsonl:3:16: error: the server'"'"'s name holds a NUL character'
}

@test "an isError result without text still tells the model what went wrong" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	cat >script <<'EOF'
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":"oops"}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":[]}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":[],"structuredContent":{"code":7}}}
EOF
	{ call raw t '{}'; call raw t '{}'; call raw t '{}'; } >in.jsonl
	run -1 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(failed call-0-1 t raw '"the tool reported an error without a text (its \"content\" is not an array)"')
$(failed call-0-2 t raw '"the tool reported an error without a text"')
$(failed call-0-3 t raw '"the tool reported an error: {\"code\":7}"' ',"structuredContent":{"code":7}')"
}

@test "a reply nested too deep is said to be so, not to be no JSON" {
	raw '[{"name":"t","inputSchema":{"type":"object"}}]'
	{
		printf '{"jsonrpc":"2.0","id":@ID@,"result":'
		printf '%*s' 3000 '' | tr ' ' '['
		printf '%*s' 3000 '' | tr ' ' ']'
		printf '}\n'
	} >script
	call raw t '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output --partial '"serverName":"raw","error":"raw: not a JSON-RPC message (nested too deep): \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3,\\\"result\\\":[[[['
	assert_equal "${stderr:0:57}" 'mcp-run: raw: not a JSON-RPC message (nested too deep): "'
}

@test "--list-tools says when a tool's input schema refers outside itself, and toolcall-parse --tools leaves that tool out" {
	raw '[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"},"b":{"$ref":"#/$defs/x"}},"$defs":{"x":{}}}},{"name":"u","inputSchema":{"$ref":"https://example.com/s.json"}},{"name":"v","inputSchema":{"$id":"urn:x","properties":{"p":{"$ref":"urn:x#/$defs/d"}},"$defs":{"d":{}}}}]'
	: >script
	run -0 --separate-stderr mcp-run --list-tools -c conf.json
	assert_equal "$stderr" 'mcp-run: raw: tool "t": its input schema refers outside itself, to "file:///etc/passwd"
mcp-run: raw: tool "u": its input schema refers outside itself, to "https://example.com/s.json"'
	printf '%s\n' "$output" >tools-out.json
	run -0 --separate-stderr toolcall-parse --tools tools-out.json --print-prompt
	assert_output --partial '## v'
	refute_output --partial '## t'
	refute_output --partial 'root:'
	assert_equal "$stderr" "tools-out.json:1:37: warning: tool \"t\" of server \"raw\" is left out: a reference of its input schema is refused: /properties/a/\$ref: cannot load \"file:///etc/passwd\": not a file below $PWD
tools-out.json:1:205: warning: tool \"u\" of server \"raw\" is left out: a reference of its input schema is refused: /\$ref: cannot load \"https://example.com/s.json\": not a file below $PWD"
}

# ------------------------------------ what servers and pipes do to mcp-run
# t/mcp/scripted-server.py and t/mcp/sh-server.sh: servers whose tools end
# them, leave children behind, write endless lines; each reads its input
# a line at a time, no more, and can log what it read.

SCRIPTED=$TOP/t/mcp/scripted-server.py
SHSERVER=$TOP/t/mcp/sh-server.sh

# scall TOOL ARGUMENTS: a call of server s.
scall() {
	call s "$1" "$2"
}

# reads LOG: what a server read, a line each: "start" for each of its
# starts, then each request's method, and a call's tool after it.
reads() {
	jq -R -r 'if startswith("start") then "start" else (fromjson |
	    .method + (if .params.name then " " + .params.name else "" end))
	    end' "$1"
}

# ended PID: process PID is gone, or a zombie, within 5 s.
ended() {
	local i st
	for i in $(seq 50); do
		st=$(ps -o stat= -p "$1") || return 0
		case $st in Z*) return 0 ;; esac
		sleep 0.1
	done
	fail "process $1 is still running: $(ps -o pid=,args= -p "$1")"
}

# e N [CHAR]: N times CHAR (default e).
e() {
	local c=${2:-e}
	head -c "$1" /dev/zero | tr '\0' x | sed "s/x/$c/g"
}

@test "a reader that has gone is a failed write: the servers stop as at the end of the input, status 3" {
	{
		scall echo '{"text":"one"}'
		scall wait "{\"path\":\"$PWD/closed\"}"
		scall echo '{"text":"three"}'
	} >in.jsonl
	# the server stays after the end of its input: SIGTERM ends it
	{ mcp-run -u --server "s=python3 $SCRIPTED --log $PWD/s.log --linger" \
	    in.jsonl 2>err && echo 0 >st || echo $? >st; } |
	    { head -n 1 >first; exec 0<&-; touch closed; }
	run -0 cat st
	assert_output 3
	run -0 cat first
	assert_output "$(result call-0-1 echo s '"one"')"
	run -0 cat err
	assert_output 'mcp-run: <stdout>: Broken pipe'
	run -0 reads s.log
	assert_output 'start
server/discover
tools/call echo
tools/call wait'
	ended "$(sed -n 's/^start //p' s.log)"
}

@test "without -u, a reader that has gone is found as the events are flushed before mcp-run waits for input" {
	{
		scall echo '{}'
		until [ -e closed ]; do sleep 0.05; done
		scall echo '{}'
		sleep 0.5
		scall echo '{}'
	} | { mcp-run --server "s=sh $SHSERVER $PWD/s.log" 2>err &&
	    echo 0 >st || echo $? >st; } |
	    { head -n 1 >first; exec 0<&-; touch closed; }
	run -0 cat st
	assert_output 3
	run -0 cat first
	assert_output "$(result call-0-1 echo s '"echo 2"')"
	run -0 cat err
	assert_output 'mcp-run: <stdout>: Broken pipe'
	run -0 reads s.log
	assert_output 'start
server/discover
tools/call echo
tools/call echo'
}

@test "SIGPIPE from another process stops the servers and mcp-run, status 3" {
	coproc MCP { exec mcp-run -u --server "s=python3 $SCRIPTED --log $PWD/s.log" 2>err; }
	scall echo '{"text":"a"}' >&"${MCP[1]}"
	read -r -t 20 one <&"${MCP[0]}"
	kill -PIPE "$MCP_PID"
	local st=0
	wait "$MCP_PID" || st=$?
	assert_equal "$st" 3
	assert_equal "$one" "$(result call-0-1 echo s '"a"')"
	run -0 cat err
	assert_output ''
	ended "$(sed -n 's/^start //p' s.log)"
}

@test "a server that exits during a call while a child of its holds its output: the call fails at once, exited, and the child is ended" {
	{
		scall orphan "{\"status\":3,\"pidfile\":\"$PWD/orphan.pid\",\"note\":\"leaving\"}"
		scall echo '{"text":"next"}'
	} >in.jsonl
	# without the fix the call would take all of -T and say "timed out"
	run -1 --separate-stderr mcp-run -T 60 --server "s=python3 $SCRIPTED --log $PWD/s.log" in.jsonl
	assert_output "$(failed call-0-1 orphan s '"server s exited with status 3 during the call"')
$(result call-0-2 echo s '"next"')"
	assert_equal "$stderr" 's: leaving
in.jsonl:1:32: error: tool "orphan" on s failed: server s exited with status 3 during the call'
	ended "$(cat orphan.pid)"
	run -0 reads s.log
	assert_output 'start
server/discover
tools/call orphan
start
server/discover
tools/call echo'
}

@test "a 2026-07-28 server too slow for the probe refuses initialize: probed again, it is spoken to in its era" {
	scall echo '{"text":"late"}' >in.jsonl
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

@test "a server that answers and exits while a child of its holds its output: the answer counts" {
	{
		scall orphan "{\"answer\":true,\"pidfile\":\"$PWD/orphan.pid\"}"
		scall echo '{"text":"next"}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run -T 60 --server "s=python3 $SCRIPTED --log $PWD/s.log" in.jsonl
	assert_output "$(result call-0-1 orphan s '"bye"')
$(result call-0-2 echo s '"next"')"
	assert_equal "$stderr" ''
	ended "$(cat orphan.pid)"
	run -0 grep -c '^start' s.log
	assert_output 2
}

@test "a child that leaves the server's group and holds its output does not hold up the call" {
	scall orphan "{\"status\":5,\"setsid\":true,\"pidfile\":\"$PWD/orphan.pid\"}" >in.jsonl
	run -1 --separate-stderr mcp-run -T 60 --server "s=python3 $SCRIPTED" in.jsonl
	# out of the group, it is not stopped with the server (CAVEATS)
	kill "$(cat orphan.pid)"
	assert_output "$(failed call-0-1 orphan s '"server s exited with status 5 during the call"')"
	assert_equal "$stderr" 'in.jsonl:1:32: error: tool "orphan" on s failed: server s exited with status 5 during the call'
}

@test "a server in sh that exits leaving a sleep in the background: the call fails at once, and the sleep is ended" {
	{
		scall orphan '{}'
		scall echo '{}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -T 60 --server "s=sh $SHSERVER" in.jsonl
	assert_output "$(failed call-0-1 orphan s '"server s exited with status 4 during the call"')
$(result call-0-2 echo s '"echo 2"')"
	assert_regex "$stderr" '^s: orphan [0-9]+
in.jsonl:1:32: error: tool "orphan" on s failed: server s exited with status 4 during the call$'
	ended "${stderr_lines[0]#s: orphan }"
}

@test "a server that answered a call and exited is started again for the next call, already waiting in the file" {
	{
		scall exit '{"answer":true}'
		scall echo '{"text":"two"}'
		scall echo '{"text":"three"}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run --server "s=python3 $SCRIPTED --log $PWD/s.log" in.jsonl
	assert_output "$(result call-0-1 exit s '"bye"')
$(result call-0-2 echo s '"two"')
$(result call-0-3 echo s '"three"')"
	assert_equal "$stderr" ''
	run -0 reads s.log
	assert_output 'start
server/discover
tools/call exit
start
server/discover
tools/call echo
tools/call echo'
}

@test "a server that exits having read a call fails that call, which is not sent again" {
	{
		scall exit '{"status":0}'
		scall echo '{"text":"two"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --server "s=python3 $SCRIPTED --log $PWD/s.log" in.jsonl
	assert_output "$(failed call-0-1 exit s '"server s exited with status 0 during the call"')
$(result call-0-2 echo s '"two"')"
	assert_equal "$stderr" 'in.jsonl:1:32: error: tool "exit" on s failed: server s exited with status 0 during the call'
	run -0 reads s.log
	assert_output 'start
server/discover
tools/call exit
start
server/discover
tools/call echo'
}

@test "a server in sh that answers and exits, from a file and through a slow pipe alike" {
	{
		scall bye '{}'
		scall echo '{}'
		scall quit '{}'
		scall echo '{}'
	} >in.jsonl
	want="$(result call-0-1 bye s '"bye 2"')
$(result call-0-2 echo s '"echo 2"')
$(failed call-0-3 quit s '"server s exited with status 0 during the call"')
$(result call-0-4 echo s '"echo 2"')"
	run -1 --separate-stderr mcp-run --server "s=sh $SHSERVER $PWD/s.log" in.jsonl
	assert_output "$want"
	run -0 grep -c '^start' s.log
	assert_output 3
	run -1 --separate-stderr sh -c 'while IFS= read -r l; do
	    printf "%s\n" "$l"; sleep 0.3; done <in.jsonl |
	    mcp-run --server "s=sh $1"' sh "$SHSERVER"
	assert_output "$want"
}

@test "a line longer than --max-line fails its call and stops the server; the run goes on" {
	# a result line is 73 bytes and the text's: 1,025 and 1,024 bytes
	{
		scall big '{"bytes":952}'
		scall big '{"bytes":951}'
		scall echo '{"text":"after"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --max-line 1K --server "s=python3 $SCRIPTED --log $PWD/s.log" in.jsonl
	assert_equal "${lines[0]}" "$(failed call-0-1 big s '"server s wrote a line longer than --max-line (1024 bytes)"')"
	assert_equal "${lines[1]}" "$(result call-0-2 big s "\"$(e 951 x)\"")"
	assert_equal "${lines[2]}" "$(result call-0-3 echo s '"after"')"
	assert_equal "${#lines[@]}" 3
	assert_equal "$stderr" 'in.jsonl:1:32: error: tool "big" on s failed: server s wrote a line longer than --max-line (1024 bytes)'
	run -0 grep -c '^start' s.log
	assert_output 2
}

@test "a line past the default --max-line of 64M ends its call alone" {
	{
		scall big '{"bytes":67108864}'
		scall echo '{"text":"after"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run --server "s=python3 $SCRIPTED" in.jsonl
	assert_output "$(failed call-0-1 big s '"server s wrote a line longer than --max-line (67108864 bytes)"')
$(result call-0-2 echo s '"after"')"
}

@test "--max-line takes K, M and G; 0 and what is not a size are usage errors" {
	for v in 1 64K 2M 1G; do
		run -0 --separate-stderr mcp-run --max-line "$v" --server s=true </dev/null
	done
	for v in 0 0K -1 1X 1.5M '' 99999999999999999999 17179869184G; do
		run -2 --separate-stderr mcp-run --max-line "$v" --server s=true </dev/null
		assert_equal "$stderr" "mcp-run: --max-line must be a positive size in bytes (K, M, G allowed), not \"$v\"
$USAGE"
	done
}

@test "a server's standard error line is cut at 4096 bytes with the count of what was cut, between characters" {
	{
		scall stderr '{"bytes":5000,"newline":true}'
		scall stderr '{"bytes":2000,"char":"€","newline":true}'
		scall stderr '{"bytes":4096,"newline":true}'
		scall stderr '{"bytes":100000}'
		scall echo '{"text":"still one line"}'
		scall stderr '{"bytes":3,"char":"x"}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run --server "s=python3 $SCRIPTED" in.jsonl
	assert_equal "${#lines[@]}" 6
	# 1,365 euro signs are 4,095 bytes; the one after them is cut whole
	assert_equal "$stderr" "s: $(e 4096)... (904 more bytes cut)
s: $(e 1365 €)... (1905 more bytes cut)
s: $(e 4096)
s: $(e 4096)... (95907 more bytes cut)"
}

@test "a log message longer than 4096 bytes is cut the same way" {
	scall log '{"bytes":10000}' >in.jsonl
	run -0 --separate-stderr mcp-run --server "s=python3 $SCRIPTED" in.jsonl
	assert_output "$(result call-0-1 log s '"logged"')"
	assert_equal "$stderr" "s: info: $(e 4090 l)... (5910 more bytes cut)"
}

@test "20,000 servers: each found by its name; one declared again in another file is named at its place" {
	jq -n '{mcpServers: ([range(20000) | {key: "s\(.)",
	    value: {command: "true"}}] | from_entries)}' >many.json
	run -0 --separate-stderr mcp-run --list-servers -c many.json
	assert_equal "${#lines[@]}" 20000
	assert_equal "${lines[0]}" s0
	assert_equal "${lines[19999]}" s9999
	printf '{"mcpServers": {"t": {"command": "x"},\n "s12345": {"command": "y"}}}\n' >again.json
	run -2 --separate-stderr mcp-run --list-servers -c many.json -c again.json
	assert_equal "$stderr" 'again.json:2:12: error: server "s12345" is declared twice'
	run -2 --separate-stderr mcp-run -c many.json --server 's777=x'
	assert_equal "$stderr" "mcp-run: server \"s777\" is declared twice
$USAGE"
}

@test "a line without a newline past --max-line fails its call as soon as it is past, not at its end" {
	{
		scall endless '{"bytes":3000000}'
		scall echo '{"text":"after"}'
	} >in.jsonl
	# the server sleeps without end after the line: -T would say "timed out"
	run -1 --separate-stderr mcp-run -T 60 --max-line 1M --server "s=python3 $SCRIPTED" in.jsonl
	assert_output "$(failed call-0-1 endless s '"server s wrote a line longer than --max-line (1048576 bytes)"')
$(result call-0-2 echo s '"after"')"
	assert_equal "$stderr" 'in.jsonl:1:32: error: tool "endless" on s failed: server s wrote a line longer than --max-line (1048576 bytes)'
}

@test "a line past --max-line while a server is started is trouble, status 3" {
	# the answer to server/discover is longer than 50 bytes
	scall echo '{"text":"x"}' >in.jsonl
	run -3 --separate-stderr mcp-run --max-line 50 --server "s=python3 $SCRIPTED" in.jsonl
	assert_output "$(failed call-0-1 echo s '"server s wrote a line longer than --max-line (50 bytes) during server/discover"')"
	assert_equal "$stderr" 'mcp-run: server s wrote a line longer than --max-line (50 bytes) during server/discover'
}

@test "a NUL byte in an input line refuses that line at the NUL, and every line after it is read" {
	raw '[{"name":"t"}]'
	printf '{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"ok"}]}}\n' >script
	{
		printf '{"server_name":"x","tool_name":"a\0b","arguments":{}}\n\0{"tool_name":"t"}\n{"tool_name":'
		head -c 200000 /dev/zero
		printf '\n{"tool_name":"t","arguments":{}}\n{"a":1}\0'
	} >nul.jsonl
	run -1 --separate-stderr mcp-run -c conf.json nul.jsonl
	assert_output "$(result call-0-1 t raw '"ok"')"
	assert_equal "$stderr" 'nul.jsonl:1:34: error: invalid JSON: NUL byte
nul.jsonl:2:1: error: invalid JSON: NUL byte
nul.jsonl:3:14: error: invalid JSON: NUL byte
nul.jsonl:5:8: error: invalid JSON: NUL byte'
}

@test "a line of 100 MB of NUL bytes is refused at once, passed over in little memory, and the line after it read" {
	raw '[{"name":"t"}]'
	printf '{"jsonrpc":"2.0","id":@ID@,"result":{"content":[{"type":"text","text":"ok"}]}}\n' >script
	call raw t '{}' >a.jsonl
	read -r st kb < <(peak sh -c '{ head -c 100M /dev/zero; echo; cat a.jsonl; } | mcp-run -c conf.json')
	assert_equal "$st" 1
	assert_equal "$(cat out)" "$(result call-0-1 t raw '"ok"')"
	assert_equal "$(cat err)" '<stdin>:1:1: error: invalid JSON: NUL byte'
	(( kb < 80000 )) || fail "peak memory $kb KiB for a NUL line of 100 MB"
}
