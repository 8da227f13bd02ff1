#!/usr/bin/env bats
# mcp-run against remote MCP servers, started by the tests on free ports
# (t/mcp/http.bash): the everything server over Streamable HTTP and over
# the HTTP+SSE transport of 2024-11-05 (reached after Streamable HTTP is
# refused, as the specification's backwards compatibility asks), the SDK
# v2 server of t/mcp/sdk-server.mjs over HTTP in each era (its trace shows
# the headers each request carried), a server that wants a bearer token,
# a TLS server with a self-signed certificate, and a scripted server for
# the faults no real server makes at will (t/mcp/http-scripted.py).

load helper
load mcp/http

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
SDK=$TOP/t/mcp/sdk-server.mjs
SCRIPTED=$TOP/t/mcp/http-scripted.py

teardown() {
	http_stop_all
}

# call TOOL ARGUMENTS [ID]: one record for the server named s.
call() {
	printf '{"type":"tool_call","toolCallId":"%s","toolName":"%s",' \
	    "${3:-c1}" "$1"
	printf '"serverName":"s","args":%s}\n' "$2"
}

# result ID TEXT: the tool_result event of call ID on s.
result() {
	printf '{"type":"tool_result","toolCallId":"%s","toolName":"echo",' "$1"
	printf '"serverName":"s","result":"%s","iteration":0}\n' "$2"
}

# scripted SCENARIO [ARG]: the scripted server, its URL in $HTTP_URL.
scripted() {
	http_start scripted /mcp python3 "$SCRIPTED" "$@"
}

@test "a call to the everything server over Streamable HTTP; its session ends with a DELETE" {
	http_start ev /mcp node "$EVERYTHING" streamableHttp
	run -0 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"message":"over HTTP"}')
	assert_output "$(printf '{"type":"tool_result","toolCallId":"c1","toolName":"echo","serverName":"s","result":"Echo: over HTTP","iteration":0}')"
	assert_equal "$stderr" ""
	run -0 grep -c 'Received session termination request' "$(http_log ev)"
	assert_output 1
}

@test "--list-tools over Streamable HTTP lists the tools the same server lists over stdio" {
	http_start ev /mcp node "$EVERYTHING" streamableHttp
	mcp-run --list-tools --server "s=$HTTP_URL" |
	    jq -c '[.tools[].name]' >"$BATS_TEST_TMPDIR/http.txt"
	mcp-run --list-tools --server "s=node $EVERYTHING stdio" 2>/dev/null |
	    jq -c '[.tools[].name]' >"$BATS_TEST_TMPDIR/stdio.txt"
	run -0 jq length "$BATS_TEST_TMPDIR/http.txt"
	[ "$output" -gt 5 ]
	run -0 cmp "$BATS_TEST_TMPDIR/http.txt" "$BATS_TEST_TMPDIR/stdio.txt"
}

@test "the everything server in sse mode is reached over HTTP+SSE once Streamable HTTP is refused" {
	http_start ev /sse node "$EVERYTHING" sse
	run -0 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"message":"over SSE"}')
	assert_output '{"type":"tool_result","toolCallId":"c1","toolName":"echo","serverName":"s","result":"Echo: over SSE","iteration":0}'
	assert_equal "$stderr" ""
}

@test "300 calls over one session come back in order, each its own" {
	http_start ev /mcp node "$EVERYTHING" streamableHttp
	for i in $(seq 300); do
		call echo "{\"message\":\"n$i\"}" "c$i"
	done >"$BATS_TEST_TMPDIR/in.jsonl"
	for i in $(seq 300); do
		printf '{"type":"tool_result","toolCallId":"c%d","toolName":"echo","serverName":"s","result":"Echo: n%d","iteration":0}\n' "$i" "$i"
	done >"$BATS_TEST_TMPDIR/want.jsonl"
	mcp-run --server "s=$HTTP_URL" <"$BATS_TEST_TMPDIR/in.jsonl" \
	    >"$BATS_TEST_TMPDIR/out.jsonl"
	run -0 cmp "$BATS_TEST_TMPDIR/out.jsonl" "$BATS_TEST_TMPDIR/want.jsonl"
	run -0 grep -c 'Session initialized' "$(http_log ev)"
	assert_output 1
}

@test "the SDK server of 2026-07-28 over HTTP: no session, each request with its revision, method and name" {
	http_start sdk /mcp node "$SDK" --eras modern --http 0 --trace
	run -0 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"modern"}')
	assert_output "$(result c1 modern)"
	run -0 grep -o 'POST /mcp [a-z/]* .*' "$(http_log sdk)"
	assert_output 'POST /mcp server/discover accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2026-07-28 mcp-method=server/discover -> 200 application/json
POST /mcp tools/call accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2026-07-28 mcp-method=tools/call mcp-name=echo -> 200 application/json'
}

@test "a tool's name that is not plain ASCII goes in Mcp-Name as base64" {
	http_start sdk /mcp node "$SDK" --eras modern --http 0 --trace \
	    --prefix 'é '
	run -0 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call 'é echo' '{"text":"x"}')
	run -0 grep -o 'mcp-name=[^ ]*' "$(http_log sdk)"
	assert_output "mcp-name==?base64?$(printf 'é echo' | base64)?="
}

@test "the SDK server of 2025-11-25 over HTTP: the session and revision sent back, a stream of its own, a DELETE" {
	http_start sdk /mcp node "$SDK" --eras legacy --http 0 --trace
	run -0 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"legacy"}')
	assert_output "$(result c1 legacy)"
	run -0 grep -E '^sdk-server: (POST|GET|DELETE)' "$(http_log sdk)"
	# the stream of the session and the notification go at once
	sort <<<"$output" >"$BATS_TEST_TMPDIR/got.txt"
	sort >"$BATS_TEST_TMPDIR/want.txt" <<'EOF'
sdk-server: POST /mcp server/discover accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2026-07-28 mcp-method=server/discover -> 400 application/json
sdk-server: POST /mcp initialize accept=application/json, text/event-stream content-type=application/json -> 200 text/event-stream
sdk-server: POST /mcp notifications/initialized accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 202
sdk-server: GET /mcp accept=text/event-stream mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200 text/event-stream
sdk-server: POST /mcp tools/call accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200 text/event-stream
sdk-server: DELETE /mcp accept=*/* mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200
EOF
	run diff "$BATS_TEST_TMPDIR/want.txt" "$BATS_TEST_TMPDIR/got.txt"
	assert_output ""
}

@test "a server that wants a bearer token: the 401 names the challenge and its metadata, status 3" {
	http_start sdk /mcp node "$SDK" --http 0 --bearer sesame
	run -3 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	base=${HTTP_URL%/mcp}
	msg="s: $HTTP_URL answered HTTP 401 (WWW-Authenticate: Bearer error=\"invalid_token\", error_description=\"A bearer token is required\", resource_metadata=\"$base/.well-known/oauth-protected-resource/mcp\"); its protected-resource metadata is at $base/.well-known/oauth-protected-resource/mcp; give a token with \"headers\": {\"Authorization\": \"Bearer TOKEN\"} in its entry"
	assert_equal "$stderr" "mcp-run: $msg"
}

@test "a server that wants a bearer token: given in the entry's headers, the calls go through" {
	http_start sdk /mcp node "$SDK" --http 0 --bearer sesame --trace
	jq -n --arg u "$HTTP_URL" \
	    '{mcpServers: {s: {url: $u, headers: {Authorization: "Bearer ${TOKEN}"}}}}' \
	    >conf.json
	TOKEN=sesame run -0 --separate-stderr mcp-run -c conf.json \
	    < <(call echo '{"text":"let in"}')
	assert_output "$(result c1 'let in')"
	run -0 grep -c 'authorization=Bearer sesame' "$(http_log sdk)"
	[ "$output" -ge 2 ]
	TOKEN=wrong run -3 --separate-stderr mcp-run -c conf.json \
	    < <(call echo '{"text":"x"}')
	assert_equal "${stderr%%$'\n'*}" "mcp-run: s: $HTTP_URL answered HTTP 401 (WWW-Authenticate: Bearer error=\"invalid_token\", error_description=\"The bearer token is not valid\", resource_metadata=\"${HTTP_URL%/mcp}/.well-known/oauth-protected-resource/mcp\"); its protected-resource metadata is at ${HTTP_URL%/mcp}/.well-known/oauth-protected-resource/mcp; give a token with \"headers\": {\"Authorization\": \"Bearer TOKEN\"} in its entry"
}

@test "a TLS server with a self-signed certificate: refused, then trusted with --cacert or CURL_CA_BUNDLE" {
	http_cert "$BATS_TEST_TMPDIR/tls"
	http_start sdk /mcp node "$SDK" --http 0 \
	    --cert "$BATS_TEST_TMPDIR/tls/cert.pem" \
	    --key "$BATS_TEST_TMPDIR/tls/key.pem"
	[[ $HTTP_URL == https://* ]]
	run -3 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	assert_equal "${stderr%%$'\n'*}" "mcp-run: s: POST $HTTP_URL: SSL certificate problem: self-signed certificate"
	run -0 --separate-stderr mcp-run --cacert "$BATS_TEST_TMPDIR/tls/cert.pem" \
	    --server "s=$HTTP_URL" < <(call echo '{"text":"over TLS"}')
	assert_output "$(result c1 'over TLS')"
	CURL_CA_BUNDLE=$BATS_TEST_TMPDIR/tls/cert.pem run -0 --separate-stderr \
	    mcp-run --server "s=$HTTP_URL" < <(call echo '{"text":"again"}')
	assert_output "$(result c1 again)"
}

@test "a server that cannot be reached: said once, status 3" {
	run -3 --separate-stderr mcp-run --server s=http://127.0.0.1:1/mcp \
	    < <(call echo '{"text":"x"}')
	assert_output '{"type":"error","toolCallId":"c1","toolName":"echo","serverName":"s","error":"s: POST http://127.0.0.1:1/mcp: Failed to connect to 127.0.0.1 port 1: Couldn'"'"'t connect to server","recoverable":true,"iteration":0}'
	assert_equal "$stderr" "mcp-run: s: POST http://127.0.0.1:1/mcp: Failed to connect to 127.0.0.1 port 1: Couldn't connect to server"
}

@test "a remote server when libcurl cannot be loaded: said, status 3; a local one needs no libcurl" {
	nolib=/nonexistent/libcurl.so.4
	why="s: cannot load libcurl ($nolib: cannot open shared object file: No such file or directory)"
	LLMKIT_LIBCURL=$nolib run -3 --separate-stderr mcp-run \
	    --server s=http://127.0.0.1:1/mcp < <(call echo '{"text":"x"}')
	assert_output '{"type":"error","toolCallId":"c1","toolName":"echo","serverName":"s","error":"'"$why"'","recoverable":true,"iteration":0}'
	assert_equal "$stderr" "mcp-run: $why"
	LLMKIT_LIBCURL=$nolib run -0 --separate-stderr mcp-run \
	    --server "s=node $EVERYTHING stdio" < <(call echo '{"message":"local"}')
	assert_output '{"type":"tool_result","toolCallId":"c1","toolName":"echo","serverName":"s","result":"Echo: local","iteration":0}'
}

@test "an HTTP error answering a call fails that call with its status and body, status 1" {
	scripted status 500
	run -1 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	msg="s: POST $HTTP_URL answered HTTP 500: \\\"scripted failure\\\""
	assert_output "{\"type\":\"error\",\"toolCallId\":\"c1\",\"toolName\":\"echo\",\"serverName\":\"s\",\"error\":\"$msg\",\"recoverable\":true,\"iteration\":0}"
	assert_equal "$stderr" "<stdin>:1:50: error: tool \"echo\" on s failed: s: POST $HTTP_URL answered HTTP 500: \"scripted failure\""
}

@test "a 401 with no challenge still says how to give a token" {
	scripted status 401
	run -3 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	assert_equal "$stderr" "mcp-run: s: $HTTP_URL answered HTTP 401; give a token with \"headers\": {\"Authorization\": \"Bearer TOKEN\"} in its entry"
}

@test "a call answered 202 with no answer fails, status 1" {
	scripted accepted
	run -1 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	assert_equal "$stderr" '<stdin>:1:50: error: tool "echo" on s failed: server s answered 202 Accepted, with no answer'
}

@test "a call's stream that ends before its answer, with no event id to resume it, fails; its log message is said" {
	scripted cut
	run -1 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	assert_equal "$stderr" 's: info: working
<stdin>:1:50: error: tool "echo" on s failed: server s answered with a stream that ended before the answer, and cannot be resumed (no event id)'
}

@test "a session the server ended (404) is begun again and the call sent again, once" {
	scripted expire
	run -0 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"again"}')
	assert_output "$(result c1 again)"
	run -0 grep -c '^POST /mcp tools/call' "$(http_log scripted)"
	assert_output 2
	run -0 grep '^POST /mcp tools/call' "$(http_log scripted)"
	assert_output 'POST /mcp tools/call session=S1
POST /mcp tools/call session=S2'
}

@test "a message longer than --max-line fails the call, status 1" {
	scripted big 5000
	run -1 --separate-stderr mcp-run --max-line 4K --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	assert_equal "$stderr" '<stdin>:1:50: error: tool "echo" on s failed: server s wrote a message longer than --max-line (4096 bytes)'
}

@test "an HTTP+SSE endpoint on another origin is refused" {
	scripted endpoint http://example.com/steal
	run -3 --separate-stderr mcp-run --server "s=$HTTP_URL" \
	    < <(call echo '{"text":"x"}')
	assert_equal "${stderr%%$'\n'*}" 'mcp-run: s: the endpoint event names another origin, which is refused: "http://example.com/steal"'
}
