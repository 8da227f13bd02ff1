#!/usr/bin/env bats
# -j N: up to N calls at once, across servers and within one; their
# events in input order, or as each ends with --unordered. Against the
# everything server over stdio, and t/mcp/sdk-server.mjs over stdio
# (which can crash while calls are in flight) and over HTTP. That calls
# overlap is shown by order, never by time: with --unordered a quick
# call given after a slow one comes out first.

load helper
load mcp/http

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
SDK=$TOP/t/mcp/sdk-server.mjs

teardown() {
	http_stop_all
}

# call ID SERVER TOOL ARGUMENTS: one record.
call() {
	printf '{"type":"tool_call","toolCallId":"%s","serverName":"%s","toolName":"%s","args":%s}\n' \
	    "$1" "$2" "$3" "$4"
}

# The ids of the records of $output, in their order, one line.
ids() {
	jq -r .toolCallId <<<"$output" | tr '\n' ' '
}

@test "-j 4: a quick call after a slow one ends first with --unordered, second without" {
	{
		call slow e trigger-long-running-operation '{"duration":1,"steps":1}'
		call quick e echo '{"message":"x"}'
		call nowhere zz echo '{"message":"x"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -j 4 --unordered \
	    --server "e=node $EVERYTHING stdio" in.jsonl
	assert_equal "$(ids)" 'nowhere quick slow '
	run -1 --separate-stderr mcp-run -j 4 \
	    --server "e=node $EVERYTHING stdio" in.jsonl
	assert_equal "$(ids)" 'slow quick nowhere '
	assert_equal "$(jq -c 'del(.result)' <<<"$output")" '{"type":"tool_result","toolCallId":"slow","toolName":"trigger-long-running-operation","serverName":"e","iteration":0}
{"type":"tool_result","toolCallId":"quick","toolName":"echo","serverName":"e","iteration":0}
{"type":"error","toolCallId":"nowhere","toolName":"echo","error":"no server \"zz\" is configured","recoverable":true,"iteration":0}'
	assert_equal "$(tail -n 1 <<<"$stderr")" 'in.jsonl:3:57: error: no server "zz" is configured'
}

@test "-j 2 holds two calls at once: the third waits for a free place, and all come out in order" {
	for i in 1 2 3 4 5; do
		call "c$i" e echo "{\"message\":\"m$i\"}"
	done >in.jsonl
	run -0 --separate-stderr mcp-run -j 2 \
	    --server "e=node $EVERYTHING stdio" in.jsonl
	assert_equal "$(jq -r .result <<<"$output" | tr '\n' ' ')" 'Echo: m1 Echo: m2 Echo: m3 Echo: m4 Echo: m5 '
}

@test "-j across two servers, and a call past -T among others: cancelled alone" {
	{
		call a e echo '{"message":"a"}'
		call b sdk echo '{"text":"b"}'
		call late e trigger-long-running-operation '{"duration":8,"steps":1}'
		call c sdk echo '{"text":"c"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -j 3 -T 3 \
	    --server "e=node $EVERYTHING stdio" --server "sdk=node $SDK" in.jsonl
	assert_equal "$(ids)" 'a b late c '
	assert_equal "$(jq -r '.error // .result' <<<"$output")" 'Echo: a
b
timed out after 3 s
c'
}

@test "-j: a server that crashes fails the calls in flight on it, and is started again for the next" {
	{
		call s1 sdk slow '{"seconds":5}'
		call boom sdk crash '{"status":7}'
		call after sdk echo '{"text":"again"}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -j 2 --server "sdk=node $SDK" in.jsonl
	assert_equal "$(ids)" 's1 boom after '
	assert_equal "$(jq -r '.error // .result' <<<"$output")" 'server sdk exited with status 7 during the call
server sdk exited with status 7 during the call
again'
}

@test "-j over Streamable HTTP: calls on one session overlap" {
	http_start sdk /mcp node "$SDK" --eras legacy --http 0
	{
		call slow s slow '{"seconds":1}'
		call quick s echo '{"text":"quick"}'
	} >in.jsonl
	run -0 --separate-stderr mcp-run -j 2 --unordered \
	    --server "s=$HTTP_URL" in.jsonl
	assert_equal "$(ids)" 'quick slow '
	assert_equal "$(jq -r .result <<<"$output" | tr '\n' ' ')" 'quick slept 1 s '
}

@test "-j must be a whole number from 1 to 1024" {
	run -2 --separate-stderr mcp-run -j 0 --server s=true
	assert_equal "${stderr%%$'\n'*}" 'mcp-run: -j must be a whole number from 1 to 1024, not "0"'
}
