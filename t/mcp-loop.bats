#!/usr/bin/env bats
# The agent loop of the README, run for real: t/fake-model answers with
# tool calls, toolcall-parse reads them (--thread, --tools from mcp-run
# --list-tools), mcp-run runs them on two real MCP servers of two eras
# (the protocol's "everything" reference server, a 2025-11-25 server on
# the v1 SDK, and t/mcp/sdk-server.mjs serving only 2026-07-28, on the v2
# SDK), thread-serialize makes the next prompt of the thread, and the
# loop ends on the model's answer without a call. The fake model is the
# only stand-in. t/mcp/agent-loop.sh drives the loop: the pipeline form
# of llm-loop(1), kept to test that the filters make the loop together
# (the tool itself is tested apart); one test runs the README's
# one-line pipeline itself. The first tests hold sdk-server.mjs to the
# exchanges its header writes down, one message at a time.

load helper

bats_require_minimum_version 1.5.0

FAKE="$TOP/t/fake-model"
LOOP="$TOP/t/mcp/agent-loop.sh"
EVERYTHING="$TOP/t/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
SDK="$TOP/t/mcp/sdk-server.mjs"
# What the everything server says on stderr when it starts, as mcp-run
# passes it on.
STARTING='everything: Starting default (STDIO) server...'

# Each test: its own directory, with the model's queue in m/, the loop's
# files in a/ and servers.json naming the two servers.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	mkdir m a
	jq -n --arg e "$EVERYTHING" --arg s "$SDK" '{mcpServers: {
	    everything: {command: "node", args: [$e, "stdio"]},
	    sdk: {command: "node", args: [$s, "--eras", "modern",
	        "--prefix", "sdk_"]}}}' >servers.json
}

# answer N: the model's reply to call N is standard input.
answer() {
	cat >"m/reply.$1"
}

# The envelope of a 2026-07-28 request; the same with a log level; a
# 2025-11-25 initialize.
M='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}'
ML='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}'
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'

# converse ARG...: runs sdk-server.mjs ARG... and sends it the lines of
# standard input one at a time; after a request (a line with an id) it
# writes what the server sends up to the answer with that id, so that
# the order is always the same. Then it closes the server's stdin and
# returns its status; its stderr is in err.
converse() {
	local line id got
	coproc SRV { exec node "$SDK" "$@" 2>err; }
	while IFS= read -r line; do
		printf '%s\n' "$line" >&"${SRV[1]}"
		id=$(jq -r '.id // empty' <<<"$line")
		[ -n "$id" ] || continue
		while IFS= read -r -t 10 got <&"${SRV[0]}"; do
			printf '%s\n' "$got"
			[ "$(jq -r '.id // empty' <<<"$got")" != "$id" ] || break
		done
	done
	exec {SRV[1]}>&-
	wait "$SRV_PID"
}

# is FILE: FILE holds exactly the bytes of standard input.
is() {
	cat >want
	run -0 diff -u want "$1"
	assert_output ''
}

@test "sdk-server --eras modern: server/discover, per-request _meta, paged tools/list; no initialize, no ping" {
	converse --eras modern --page-size 1 >out <<EOF
{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$M}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{$M}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$M}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"logging","arguments":{},$M}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"logging","arguments":{"level":"debug","data":"not sent"},$ML}}
{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"logging","arguments":{"level":"warning","data":"sent"},$ML}}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}
{"jsonrpc":"2.0","id":8,"method":"ping","params":{$M}}
$INIT
EOF
	is out <<'EOF'
{"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"logging":{}},"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":1}
{"result":{"tools":[{"name":"echo","description":"Answers with its text.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}],"nextCursor":"1","resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":2}
{"result":{"content":[{"type":"text","text":"hi"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":3}
{"result":{"content":[{"type":"text","text":"logged"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":4}
{"result":{"content":[{"type":"text","text":"logged"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":5}
{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"sent"}}
{"result":{"content":[{"type":"text","text":"logged"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":6}
{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Request is missing the required _meta envelope for protocol revision 2026-07-28 (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)"}}
{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found"}}
{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}
EOF
	is err <<'EOF'
sdk-server: Rejected 2025-era request on a modern-only stdio connection (modern-only-missing-envelope): Unsupported protocol version: 2025-11-25
EOF
}

@test "sdk-server --eras dual: a 2025-11-25 opening pins the old era; an unknown tool, refused arguments" {
	converse --eras dual >out <<EOF
$INIT
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"logging","arguments":{"data":{"x":1}}}}
{"jsonrpc":"2.0","id":3,"method":"ping"}
{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{$M}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}
{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":5}}}
EOF
	is out <<'EOF'
{"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}},"jsonrpc":"2.0","id":1}
{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"x":1}}}
{"result":{"content":[{"type":"text","text":"logged"}]},"jsonrpc":"2.0","id":2}
{"result":{},"jsonrpc":"2.0","id":3}
{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}
{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Tool nope not found"}}
{"result":{"content":[{"type":"text","text":"Input validation error: Invalid arguments for tool echo: data/text must be string"}],"isError":true},"jsonrpc":"2.0","id":6}
EOF
	is err </dev/null
}

@test "sdk-server --eras legacy: server/discover is an unknown method, initialize follows on the same connection" {
	converse --eras legacy --page-size 8 --prefix p_ >out <<EOF
{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$M}}
$INIT
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"8"}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"p_structured","arguments":{"a":6,"b":7}}}
EOF
	is out <<'EOF'
{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}
{"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}},"jsonrpc":"2.0","id":1}
{"result":{"tools":[{"name":"p_garbage","description":"Writes a line that is not JSON-RPC to standard output and never answers.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":[]}},{"name":"p_ask","description":"Sends the client a request (method, default \"ping\") and answers with what came back.","inputSchema":{"type":"object","properties":{"method":{"type":"string"}},"required":[]}}]},"jsonrpc":"2.0","id":2}
{"result":{"content":[{"type":"text","text":"{\"sum\":13,\"product\":42}"}],"structuredContent":{"sum":13,"product":42}},"jsonrpc":"2.0","id":3}
EOF
	is err </dev/null
}

@test "the loop: <tool> calls to two servers of two eras, their outputs in the next prompt, a completion" {
	answer 1 <<'EOF'
I will echo the greeting, add the numbers and ask for both at once.
<tool>
<server_name>everything</server_name>
<tool_name>echo</tool_name>
<arguments>
<message>Hello, &lt;world&gt; &amp; "friends"</message>
</arguments>
</tool>
<tool>
<server_name>local</server_name>
<tool_name>sdk_add</tool_name>
<arguments>
<a>2</a>
<b>40</b>
</arguments>
</tool>
<tool>
<tool_name>sdk_structured</tool_name>
<arguments>
<a>6</a>
<b>7</b>
</arguments>
</tool>
EOF
	answer 2 <<'EOF'
The echo came back, 2 + 40 is 42, and 6 and 7 make 13 and 42.
EOF
	run -0 --separate-stderr sh "$LOOP" -c servers.json a \
	    'Echo a greeting, then add 2 and 40.' "$FAKE" m
	assert_output ''
	[ "$stderr" = "$STARTING
$STARTING" ]
	run -0 cat m/calls
	assert_output 2
	# tools.json: every tool of both servers, each marked with its server
	run -0 jq -r '.tools[] | select(.name == "echo" or .name == "sdk_add")
	    | .name + " " + ._meta["llmkit/server"]' a/tools.json
	assert_output 'echo everything
sdk_add sdk'
	run -0 grep -cx -e '## echo' -e '## sdk_add' -e '## sdk_slow' a/system.txt
	assert_output 3
	is m/prompt.1 <<'EOF'
<thread>
  <event type="human" id="0" iteration="0">Echo a greeting, then add 2 and 40.</event>
</thread>
EOF
	is a/thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo a greeting, then add 2 and 40.","iteration":0}
{"type":"message","role":"assistant","content":"I will echo the greeting, add the numbers and ask for both at once.","iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"Hello, <world> & \"friends\""},"toolCallId":"call-1-1","iteration":1,"serverName":"everything"}
{"type":"tool_call","toolName":"sdk_add","args":{"a":2,"b":40},"toolCallId":"call-1-2","iteration":1,"serverName":"local"}
{"type":"tool_call","toolName":"sdk_structured","args":{"a":6,"b":7},"toolCallId":"call-1-3","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: Hello, <world> & \"friends\"","iteration":1}
{"type":"tool_result","toolCallId":"call-1-2","toolName":"sdk_add","serverName":"sdk","result":"42","iteration":1}
{"type":"tool_result","toolCallId":"call-1-3","toolName":"sdk_structured","serverName":"sdk","result":"{\"sum\":13,\"product\":42}","iteration":1,"structuredContent":{"sum":13,"product":42}}
{"type":"message","role":"assistant","content":"The echo came back, 2 + 40 is 42, and 6 and 7 make 13 and 42.","iteration":2}
{"type":"completion","result":"The echo came back, 2 + 40 is 42, and 6 and 7 make 13 and 42.","iteration":2}
EOF
	# the second prompt: the task, what the model said, its calls and what
	# each server answered
	is m/prompt.2 <<'EOF'
<thread>
  <event type="human" id="0" iteration="0">Echo a greeting, then add 2 and 40.</event>
  <event type="ai" id="1" iteration="1">I will echo the greeting, add the numbers and ask for both at once.</event>
  <event type="tool_input" id="2" name="echo" iteration="1">{&quot;message&quot;:&quot;Hello, &lt;world&gt; &amp; \&quot;friends\&quot;&quot;}</event>
  <event type="tool_input" id="3" name="sdk_add" iteration="1">{&quot;a&quot;:2,&quot;b&quot;:40}</event>
  <event type="tool_input" id="4" name="sdk_structured" iteration="1">{&quot;a&quot;:6,&quot;b&quot;:7}</event>
  <event type="tool_output" id="5" name="echo" status="success" iteration="1">Echo: Hello, &lt;world&gt; &amp; &quot;friends&quot;</event>
  <event type="tool_output" id="6" name="sdk_add" status="success" iteration="1">42</event>
  <event type="tool_output" id="7" name="sdk_structured" status="success" iteration="1">{&quot;sum&quot;:13,&quot;product&quot;:42}</event>
</thread>
EOF
	# the whole thread, the last answer and its completion too, is a prompt
	run -0 thread-serialize a/thread.jsonl
	assert_line --index 9 '  <event type="ai" id="8" iteration="2">The echo came back, 2 + 40 is 42, and 6 and 7 make 13 and 42.</event>'
	assert_line --index 10 '  <event type="completion" id="9" iteration="2">The echo came back, 2 + 40 is 42, and 6 and 7 make 13 and 42.</event>'
}

@test "llm-loop -y leaves the thread the pipeline leaves, its prompts the same thread after the tools" {
	# one call an answer: with several, llm-loop adds each result after
	# its call (the call runs while the model writes), the pipeline adds
	# them after all the calls
	answer 1 <<'EOF'
Echo first.
<tool>
<server_name>everything</server_name>
<tool_name>echo</tool_name>
<arguments><message>a &amp; "b"</message></arguments>
</tool>
EOF
	answer 2 <<'EOF'
<tool>
<tool_name>sdk_add</tool_name>
<arguments><a>two</a><b>40</b></arguments>
</tool>
EOF
	answer 3 <<'EOF'
<tool>
<tool_name>sdk_add</tool_name>
<arguments><a>2</a><b>40</b></arguments>
</tool>
EOF
	answer 4 <<'EOF'
Done: 42.
EOF
	run -0 --separate-stderr sh "$LOOP" -c servers.json a 'Echo and add.' \
	    "$FAKE" m
	mkdir m2
	cp m/reply.* m2/
	run -0 --separate-stderr llm-loop -y -q -o events -c servers.json \
	    -t thread.jsonl 'Echo and add.' -- "$FAKE" m2
	assert_equal "$stderr" ''
	# -o events: every event as it is added, the whole new thread
	printf '%s\n' "$output" | is thread.jsonl
	is thread.jsonl <a/thread.jsonl
	run -0 grep -c '"type":"error"' thread.jsonl
	assert_output 1
	run -0 cat m2/calls
	assert_output 4
	# each prompt: the tools' prompt, a blank line, the pipeline's prompt
	for k in 1 2 3 4; do
		sed -n '/^<thread>$/,$p' "m2/prompt.$k" | is "m/prompt.$k"
		run -0 grep -c -x -e '## echo' -e '## sdk_add' "m2/prompt.$k"
		assert_output 2
		run -0 grep -c -x '<thread>' "m2/prompt.$k"
		assert_output 1
	done
}

@test "the loop in the hermes dialect (-f hermes): a refused call and a failing one go back to the model as errors" {
	answer 1 <<'EOF'
Let me add these.
<tool_call>
{"name": "sdk_add", "arguments": {"a": "two", "b": 40}}
</tool_call>
<tool_call>
{"name": "sdk_fail", "arguments": {"text": "the disk is full"}}
</tool_call>
EOF
	answer 2 <<'EOF'
<tool_call>
{"name": "sdk_add", "arguments": {"a": 2, "b": 40}}
</tool_call>
EOF
	answer 3 <<'EOF'
2 + 40 is 42.
EOF
	run -0 --separate-stderr sh "$LOOP" -f hermes -c servers.json a \
	    'Add 2 and 40.' "$FAKE" m
	assert_output ''
	# toolcall-parse says why it refused the first call, mcp-run which
	# call failed (at line 3 of what it read: the model's words, the
	# refused call, then this one); iterations 1 and 2 route by the tool's name alone:
	# every server is started, the everything server included
	[ "$stderr" = "$STARTING
<stdin>:2:1: error: the arguments of \"sdk_add\" do not match its schema: /a: expected number, found string \"two\"
$STARTING
<stdin>:3:32: error: tool \"sdk_fail\" on sdk failed: the disk is full
$STARTING" ]
	run -0 cat m/calls
	assert_output 3
	is a/thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Add 2 and 40.","iteration":0}
{"type":"message","role":"assistant","content":"Let me add these.","iteration":1}
{"type":"error","toolName":"sdk_add","error":"the arguments of \"sdk_add\" do not match its schema: /a: expected number, found string \"two\"","recoverable":true,"iteration":1}
{"type":"tool_call","toolName":"sdk_fail","args":{"text":"the disk is full"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"error","toolCallId":"call-1-1","toolName":"sdk_fail","serverName":"sdk","error":"the disk is full","recoverable":true,"iteration":1}
{"type":"tool_call","toolName":"sdk_add","args":{"a":2,"b":40},"toolCallId":"call-2-1","iteration":2,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-2-1","toolName":"sdk_add","serverName":"sdk","result":"42","iteration":2}
{"type":"message","role":"assistant","content":"2 + 40 is 42.","iteration":3}
{"type":"completion","result":"2 + 40 is 42.","iteration":3}
EOF
	is m/prompt.2 <<'EOF'
<thread>
  <event type="human" id="0" iteration="0">Add 2 and 40.</event>
  <event type="ai" id="1" iteration="1">Let me add these.</event>
  <event type="error" id="2" iteration="1" recoverable="true">the arguments of &quot;sdk_add&quot; do not match its schema: /a: expected number, found string &quot;two&quot;</event>
  <event type="tool_input" id="3" name="sdk_fail" iteration="1">{&quot;text&quot;:&quot;the disk is full&quot;}</event>
  <event type="error" id="4" iteration="1" recoverable="true">the disk is full</event>
</thread>
EOF
	# the third: the second, then the call of iteration 2 and its result
	{ sed '$d' m/prompt.2; cat <<'EOF'
  <event type="tool_input" id="5" name="sdk_add" iteration="2">{&quot;a&quot;:2,&quot;b&quot;:40}</event>
  <event type="tool_output" id="6" name="sdk_add" status="success" iteration="2">42</event>
</thread>
EOF
	} | is m/prompt.3
}

@test "the loop stops after -n iterations without a completion, status 1" {
	answer 1 <<'EOF'
<tool>
<tool_name>sdk_echo</tool_name>
<arguments><text>again</text></arguments>
</tool>
EOF
	run -1 --separate-stderr sh "$LOOP" -n 1 -c servers.json a 'Loop.' \
	    "$FAKE" m
	assert_output ''
	[ "$stderr" = "$STARTING
$STARTING
agent-loop.sh: no completion after 1 iterations" ]
	is a/thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Loop.","iteration":0}
{"type":"tool_call","toolName":"sdk_echo","args":{"text":"again"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"sdk_echo","serverName":"sdk","result":"again","iteration":1}
EOF
}

@test "a model that fails ends the loop with status 3" {
	run -3 --separate-stderr sh "$LOOP" -c servers.json a 'Hello.' "$FAKE" m
	assert_output ''
	[ "$stderr" = "$STARTING
fake-model: no reply number 1 in m
agent-loop.sh: iteration 1: the model exits 1" ]
}

@test "the README's pipeline, one turn of it, as it is written there" {
	mcp-run --list-tools -c servers.json >tools.json 2>/dev/null
	jq -cn '{type: "message", role: "user", content: "Say hi.",
	    iteration: 0}' >thread.jsonl
	answer 1 <<'EOF'
<tool>
<server_name>everything</server_name>
<tool_name>echo</tool_name>
<arguments><message>hi</message></arguments>
</tool>
EOF
	run -0 --separate-stderr sh -c 'thread-serialize thread.jsonl |
	    "$1" m | toolcall-parse --thread --tools tools.json |
	    tee -a thread.jsonl | mcp-run -c servers.json >>thread.jsonl' \
	    sh "$FAKE"
	assert_output ''
	[ "$stderr" = "$STARTING" ]
	is thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Say hi.","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-0-1","iteration":0,"serverName":"everything"}
{"type":"tool_result","toolCallId":"call-0-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":0}
EOF
}
