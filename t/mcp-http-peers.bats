#!/usr/bin/env bats
# The HTTP peers of mcp-run's tests, shown good with other clients before
# mcp-run meets them: http-launch.sh and http.bash (a free port, no race,
# no process left behind), the everything server in its streamableHttp and
# sse modes and sdk-server.mjs over Streamable HTTP in each era, with a
# bearer and with TLS, under the official client SDK
# (t/mcp/sdk-http-client.mjs) and curl; the conformance suite's client
# scenarios under the SDK's client, and the wrapper that has mcp-run take
# them.

load helper
load mcp/http

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
SDK=$TOP/t/mcp/sdk-server.mjs
CLIENT=$TOP/t/mcp/sdk-http-client.mjs
LAUNCH=$TOP/t/mcp/http-launch.sh
CONFORMANCE=$TOP/t/mcp/conformance.sh
WRAPPER=$TOP/t/mcp/conformance-client.sh
SDK_TOOLS='echo add fail crash slow structured logging stderr garbage ask hangup'
EVERYTHING_TOOLS='echo get-annotated-message get-env get-resource-links get-resource-reference get-structured-content get-sum get-tiny-image gzip-file-as-resource toggle-simulated-logging toggle-subscriber-updates trigger-long-running-operation simulate-research-query'

setup_file() {
	if [ ! -f "$EVERYTHING" ] || [ ! -d "$MCP_MODULES/@modelcontextprotocol/conformance" ]; then
		echo "the MCP peers are not in $MCP_MODULES: run make deps" >&3
		return 1
	fi
}

teardown() {
	http_stop_all
}

# live PGID: the processes of the group that are not zombies.
live() {
	ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { n++ }
	    END { print n + 0 }'
}

# trace NAME: the request lines sdk-server.mjs --trace wrote to its log.
trace() {
	sed -n 's/^sdk-server: \([A-Z]* \)/\1/p' "$(http_log "$1")"
}

@test "http-launch.sh prints the URL and the process group of the server" {
	run -0 "$LAUNCH" /mcp node "$SDK" --http 0
	# teardown stops it as it stops those of http_start
	mkdir -p "$(http_dir)"
	echo "${lines[1]}" >"$(http_dir)/direct.pgid"
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp '^http://127\.0\.0\.1:[0-9]+/mcp$'
	run -0 live "${lines[1]}"
	assert_output 1
}

@test "the URL is the address the server listens on, at once" {
	http_start sdk /mcp node "$SDK" --http 0
	run -0 node "$CLIENT" "$HTTP_URL"
	assert_output "2025-11-25
$SDK_TOOLS"
	assert_equal "$(http_url sdk)" "$HTTP_URL"
	assert_equal "$(sed -n 1p "$(http_log sdk)")" \
	    "sdk-server: listening on $HTTP_URL"
}

@test "two servers started at once get two ports" {
	http_start one /mcp node "$SDK" --http 0
	http_start two /mcp node "$SDK" --http 0
	[ "$(http_url one)" != "$(http_url two)" ]
	run -0 node "$CLIENT" "$(http_url one)" add '{"a":1,"b":2}'
	assert_line --index 2 '{"content":[{"type":"text","text":"3"}]}'
	run -0 node "$CLIENT" "$(http_url two)" add '{"a":3,"b":4}'
	assert_line --index 2 '{"content":[{"type":"text","text":"7"}]}'
}

@test "the everything server over Streamable HTTP, under the SDK's client" {
	http_start everything /mcp node "$EVERYTHING" streamableHttp
	run -0 node "$CLIENT" "$HTTP_URL" echo '{"message":"hi"}'
	assert_output "2025-11-25
$EVERYTHING_TOOLS
{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}"
	grep -qx 'Session initialized with ID: .*' "$(http_log everything)"
}

@test "the everything server over HTTP+SSE, under the SDK's client" {
	http_start everything /sse node "$EVERYTHING" sse
	assert_regex "$HTTP_URL" '^http://127\.0\.0\.1:[0-9]+/sse$'
	run -0 node "$CLIENT" --transport sse "$HTTP_URL" echo '{"message":"hi"}'
	assert_output "2025-11-25
$EVERYTHING_TOOLS
{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}"
}

@test "the everything server's endpoint announces itself to curl" {
	http_start everything /sse node "$EVERYTHING" sse
	# The stream never ends: curl leaves it after 2 s (status 28), and
	# only what came before matters.
	run -28 curl -sS -N -m 2 "$HTTP_URL" -o sse.txt
	run -0 sed -n 1,2p sse.txt
	assert_line --index 0 'event: endpoint'
	assert_line --index 1 --regexp '^data: /message\?sessionId=[0-9a-f-]+\r?$'
}

@test "the everything server's SSE endpoint refuses a Streamable HTTP POST" {
	# the sign, for a client that tries Streamable HTTP first, to fall
	# back to the 2024-11-05 transport
	http_start everything /sse node "$EVERYTHING" sse
	run -0 curl -sS -o /dev/null -w '%{http_code}' \
	    -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}' \
	    "$HTTP_URL"
	assert_output 404
}

@test "the everything server over Streamable HTTP: an unknown session 400" {
	http_start everything /mcp node "$EVERYTHING" streamableHttp
	run -0 curl -sS -w ' %{http_code}' -H 'Mcp-Session-Id: nope' \
	    -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' "$HTTP_URL"
	assert_output '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}} 400'
}

@test "sdk-http-client.mjs --calls: the benchmark's baseline over HTTP" {
	http_start everything /mcp node "$EVERYTHING" streamableHttp
	printf '{"server_name":"everything","tool_name":"echo","arguments":{"message":"m%s"}}\n' 1 2 >calls.jsonl
	run -0 node "$CLIENT" --calls calls.jsonl "$HTTP_URL"
	assert_output '{"type":"tool_result","toolCallId":"call-0-1","toolName":"echo","serverName":"everything","result":"Echo: m1","iteration":0}
{"type":"tool_result","toolCallId":"call-0-2","toolName":"echo","serverName":"everything","result":"Echo: m2","iteration":0}'
	echo '{"server_name":"sdk","tool_name":"fail","arguments":{"text":"no"}}' >bad.jsonl
	http_start sdk /mcp node "$SDK" --http 0
	run -1 --separate-stderr node "$CLIENT" --calls bad.jsonl "$HTTP_URL"
	assert_equal "$stderr" 'sdk-http-client: call 1: fail: no'
}

@test "a server that ends before it listens: status 1, its status and log" {
	run -1 --separate-stderr "$LAUNCH" -l log /mcp sh -c 'echo oops >&2; exit 4'
	assert_output ''
	assert_equal "$stderr" 'http-launch.sh: sh: ended with status 4 before listening
oops'
}

@test "a server that never listens is stopped after LLMKIT_LISTEN_WAIT" {
	LLMKIT_LISTEN_WAIT=1 run -1 --separate-stderr "$LAUNCH" /mcp \
	    sh -c 'echo $$ >pid; exec sleep 300'
	assert_equal "$stderr" 'http-launch.sh: sh: not listening after 1 s'
	run -0 live "$(cat pid)"
	assert_output 0
}

@test "http-launch.sh usage errors: status 2" {
	run -2 --separate-stderr "$LAUNCH" /mcp
	assert_equal "$stderr" 'http-launch.sh: a path and a command expected
usage: http-launch.sh [-l LOG] PATH COMMAND [ARG ...]'
	run -2 --separate-stderr "$LAUNCH" mcp node "$SDK"
	assert_equal "$stderr" 'http-launch.sh: mcp: the path begins with /
usage: http-launch.sh [-l LOG] PATH COMMAND [ARG ...]'
	run -2 --separate-stderr "$LAUNCH" -l
	assert_equal "$stderr" 'http-launch.sh: -l: a log file expected
usage: http-launch.sh [-l LOG] PATH COMMAND [ARG ...]'
}

@test "http_stop stops the server and what it started" {
	http_start sdk /mcp sh -c "sleep 300 & exec node '$SDK' --http 0"
	pgid=$(cat "$(http_dir)/sdk.pgid")
	run -0 live "$pgid"
	assert_output 2
	http_stop sdk
	run -0 live "$pgid"
	assert_output 0
	run -7 curl -sS "$HTTP_URL"
}

@test "http_stop_all stops every server started" {
	http_start one /mcp node "$SDK" --http 0
	http_start two /mcp node "$EVERYTHING" streamableHttp
	one=$(cat "$(http_dir)/one.pgid")
	two=$(cat "$(http_dir)/two.pgid")
	http_stop_all
	assert_equal "$(live "$one") $(live "$two")" '0 0'
	run -0 ls "$(http_dir)"
	refute_output --partial pgid
}

@test "sdk-server --http, legacy: 2025-11-25 sessions, as the client sends them" {
	http_start sdk /mcp node "$SDK" --http 0 --eras legacy --trace
	run -0 node "$CLIENT" "$HTTP_URL" echo '{"text":"hi"}'
	assert_output "2025-11-25
$SDK_TOOLS
{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}"
	# The client opens its GET stream beside its other requests: the
	# order of the lines after the first two is not fixed.
	run -0 trace sdk
	assert_equal "${#lines[@]}" 6
	assert_line --index 0 'POST /mcp initialize accept=application/json, text/event-stream content-type=application/json -> 200 text/event-stream'
	assert_line --index 1 'POST /mcp notifications/initialized accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 202'
	assert_line 'GET /mcp accept=text/event-stream mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200 text/event-stream'
	assert_line 'POST /mcp tools/list accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200 text/event-stream'
	assert_line 'POST /mcp tools/call accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200 text/event-stream'
	assert_line --index 5 'DELETE /mcp accept=*/* mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 200'
}

@test "sdk-server --http, legacy: an unknown session 404, none 400" {
	http_start sdk /mcp node "$SDK" --http 0 --eras legacy
	run -0 curl -sS -w ' %{http_code}' -H 'Mcp-Session-Id: nope' \
	    -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' "$HTTP_URL"
	assert_output '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null} 404'
	run -0 curl -sS -w ' %{http_code}' "$HTTP_URL"
	assert_output '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"},"id":null} 400'
}

@test "sdk-server --http, modern: 2026-07-28 with its headers, no session" {
	http_start sdk /mcp node "$SDK" --http 0 --eras modern --trace
	run -0 node "$CLIENT" --negotiate auto "$HTTP_URL" echo '{"text":"hi"}'
	assert_output "2026-07-28
$SDK_TOOLS
{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}"
	run -0 trace sdk
	assert_output 'POST /mcp server/discover accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2026-07-28 mcp-method=server/discover -> 200 application/json
POST /mcp tools/list accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2026-07-28 mcp-method=tools/list -> 200 application/json
POST /mcp tools/call accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2026-07-28 mcp-method=tools/call mcp-name=echo -> 200 application/json'
}

@test "sdk-server --http, modern: an initialize is refused with -32022" {
	http_start sdk /mcp node "$SDK" --http 0 --eras modern
	run -1 --separate-stderr node "$CLIENT" "$HTTP_URL"
	assert_equal "$stderr" 'sdk-http-client: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}},"id":0}'
}

@test "sdk-server --http, modern: a request without Mcp-Method is refused" {
	http_start sdk /mcp node "$SDK" --http 0 --eras modern
	run -0 curl -sS -w ' %{http_code}' -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -H 'MCP-Protocol-Version: 2026-07-28' \
	    -d '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' \
	    "$HTTP_URL"
	assert_output --regexp '^\{"jsonrpc":"2.0","error":\{"code":-32020,"message":"Bad Request: the request headers and body disagree: the body names method server/discover but the required Mcp-Method header is absent".* 400$'
}

# modern_post METHOD NAME PARAMS: curl's POST of a 2026-07-28 request, its
# envelope and headers, to $HTTP_URL; the answer's headers in ./headers.
modern_post() {
	curl -sS -D headers -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -H 'MCP-Protocol-Version: 2026-07-28' -H "Mcp-Method: $1" \
	    -H "Mcp-Name: $2" \
	    -d "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"$1\",\"params\":{$3\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/logLevel\":\"debug\"}}}" \
	    "$HTTP_URL"
}

@test "sdk-server --http, modern: JSON, or SSE when a message comes first" {
	http_start sdk /mcp node "$SDK" --http 0 --eras modern
	run -0 modern_post tools/call echo '"name":"echo","arguments":{"text":"hi"},'
	assert_output '{"result":{"content":[{"type":"text","text":"hi"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":5}'
	grep -qix 'content-type: application/json.' headers
	run -0 modern_post tools/call logging '"name":"logging","arguments":{},'
	assert_output 'event: message
data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}

event: message
data: {"result":{"content":[{"type":"text","text":"logged"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"llmkit-sdk-server","version":"1.0.0"}}},"jsonrpc":"2.0","id":5}'
	grep -qix 'content-type: text/event-stream.' headers
}

@test "sdk-server --http, modern: no GET stream, no DELETE (405)" {
	http_start sdk /mcp node "$SDK" --http 0 --eras modern
	run -0 curl -sS -w ' %{http_code}' "$HTTP_URL"
	assert_output '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null} 405'
	run -0 curl -sS -w ' %{http_code}' -X DELETE "$HTTP_URL"
	assert_output '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null} 405'
}

@test "sdk-server --http, dual: each client in its own era" {
	http_start sdk /mcp node "$SDK" --http 0 --trace
	run -0 node "$CLIENT" "$HTTP_URL"
	assert_line --index 0 2025-11-25
	run -0 node "$CLIENT" --negotiate auto "$HTTP_URL"
	assert_line --index 0 2026-07-28
	run -0 trace sdk
	assert_line --index 0 --partial 'POST /mcp initialize '
	assert_line --partial 'POST /mcp server/discover '
}

@test "sdk-server --http, ask: the server's request on the call's stream" {
	http_start sdk /mcp node "$SDK" --http 0 --eras legacy --trace
	run -0 node "$CLIENT" "$HTTP_URL" ask '{}'
	assert_line --index 2 '{"content":[{"type":"text","text":"ping: {}"}]}'
	run -0 trace sdk
	assert_line 'POST /mcp response accept=application/json, text/event-stream content-type=application/json mcp-protocol-version=2025-11-25 mcp-session-id=S1 -> 202'
}

@test "sdk-server --retry: a stream closed under a call is resumed" {
	http_start sdk /mcp node "$SDK" --http 0 --eras legacy --retry 100 --trace
	run -0 node "$CLIENT" "$HTTP_URL" hangup '{}'
	assert_line --index 2 '{"content":[{"type":"text","text":"resumed"}]}'
	run -0 trace sdk
	assert_line --regexp '^GET /mcp accept=text/event-stream mcp-protocol-version=2025-11-25 mcp-session-id=S1 last-event-id=[0-9a-f-]+_[0-9]+ -> 200 text/event-stream$'
}

@test "sdk-server --retry: each stream begins with its priming event" {
	http_start sdk /mcp node "$SDK" --http 0 --eras legacy --retry 100
	run -0 curl -sS -D headers -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}' \
	    "$HTTP_URL"
	assert_line --index 0 --regexp '^id: [0-9a-f-]+_1$'
	assert_line --index 1 'retry: 100'
	assert_line --index 2 'data: '
	assert_line --index 3 'event: message'
	assert_line --index 4 --regexp '^id: [0-9a-f-]+_2$'
}

@test "sdk-server hangup: nothing to close without --retry or in 2026" {
	http_start sdk /mcp node "$SDK" --http 0
	run -0 node "$CLIENT" "$HTTP_URL" hangup '{}'
	assert_line --index 2 '{"content":[{"type":"text","text":"no stream to close"}]}'
	run -0 node "$CLIENT" --negotiate auto "$HTTP_URL" hangup '{}'
	assert_line --index 2 '{"content":[{"type":"text","text":"no stream to close"}]}'
}

@test "sdk-server --bearer: 401 naming the resource metadata, then served" {
	http_start sdk /mcp node "$SDK" --http 0 --bearer s3cret
	base=${HTTP_URL%/mcp}
	run -0 curl -sS -D headers -w ' %{http_code}' -d '{}' "$HTTP_URL"
	assert_output '{"error":"invalid_token","error_description":"A bearer token is required"} 401'
	run -0 grep -i '^www-authenticate:' headers
	assert_output "www-authenticate: Bearer error=\"invalid_token\", error_description=\"A bearer token is required\", resource_metadata=\"$base/.well-known/oauth-protected-resource/mcp\""$'\r'
	run -0 curl -sS -w ' %{http_code}' \
	    "$base/.well-known/oauth-protected-resource/mcp"
	assert_output "{\"resource\":\"$HTTP_URL\",\"bearer_methods_supported\":[\"header\"],\"resource_name\":\"llmkit-sdk-server\"} 200"
	run -0 node "$CLIENT" --bearer s3cret "$HTTP_URL" echo '{"text":"in"}'
	assert_line --index 2 '{"content":[{"type":"text","text":"in"}]}'
}

@test "sdk-server --bearer: a wrong token is refused, the SDK's client fails" {
	http_start sdk /mcp node "$SDK" --http 0 --bearer s3cret
	run -0 curl -sS -w ' %{http_code}' -H 'Authorization: Bearer nope' \
	    -d '{}' "$HTTP_URL"
	assert_output '{"error":"invalid_token","error_description":"The bearer token is not valid"} 401'
	run -1 --separate-stderr node "$CLIENT" --bearer nope "$HTTP_URL"
	assert_equal "$stderr" 'sdk-http-client: Error POSTing to endpoint: {"error":"invalid_token","error_description":"The bearer token is not valid"}'
}

@test "sdk-server --cert: HTTPS that --cacert and CURL_CA_BUNDLE trust" {
	http_cert tls
	http_start sdk /mcp node "$SDK" --http 0 --cert tls/cert.pem \
	    --key tls/key.pem
	assert_regex "$HTTP_URL" '^https://127\.0\.0\.1:[0-9]+/mcp$'
	# The machine's own bundle does not hold the certificate.
	CURL_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt run -60 curl -sS "$HTTP_URL"
	run -0 curl -sS -w ' %{http_code}' --cacert tls/cert.pem "$HTTP_URL"
	assert_output '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"},"id":null} 400'
	CURL_CA_BUNDLE=$PWD/tls/cert.pem run -0 curl -sS -o /dev/null \
	    -w '%{http_code}' "$HTTP_URL"
	assert_output 400
	NODE_EXTRA_CA_CERTS=tls/cert.pem run -0 node "$CLIENT" "$HTTP_URL" \
	    echo '{"text":"sealed"}'
	assert_line --index 2 '{"content":[{"type":"text","text":"sealed"}]}'
}

@test "sdk-server HTTP options go with --http: status 2" {
	run -2 --separate-stderr node "$SDK" --bearer x
	assert_equal "$stderr" 'sdk-server: --bearer, --cert, --key, --retry and --trace go with --http
usage: sdk-server.mjs [--eras modern|dual|legacy] [--page-size N] [--prefix P]
           [--http PORT [--bearer TOKEN] [--cert FILE --key FILE] [--retry MS]
           [--trace]]'
	run -2 --separate-stderr node "$SDK" --http 0 --retry soon
	assert_equal "${stderr_lines[0]}" \
	    'sdk-server: the retry is a whole number of milliseconds'
	run -2 --separate-stderr node "$SDK" --http 0 --cert c.pem
	assert_equal "${stderr_lines[0]}" 'sdk-server: --cert and --key go together'
	run -2 --separate-stderr node "$SDK" --http 70000
	assert_equal "${stderr_lines[0]}" \
	    'sdk-server: the port is a whole number from 0 to 65535'
}

# conformance.sh's checks, on stderr, without colours and timestamps.
checks() {
	sed 's/\x1b\[[0-9;]*m//g; s/^[0-9TZ:.-]* //'
}

@test "conformance: the SDK's client passes initialize" {
	run -0 --separate-stderr "$CONFORMANCE" \
	    -c "node $TOP/t/mcp/sdk-conformance-client.mjs" initialize
	run -0 checks <<<"$stderr"
	assert_line '[mcp-client-initialization] SUCCESS Validates that MCP client properly initializes with server'
	assert_line 'Passed: 1/1, 0 failed, 0 warnings'
	assert_line '✅ OVERALL: PASSED'
}

@test "conformance: the SDK's client passes tools_call" {
	run -0 --separate-stderr "$CONFORMANCE" -o results \
	    -c "node $TOP/t/mcp/sdk-conformance-client.mjs" tools_call
	assert_output ''
	assert_equal "$(cat results/*/stdout.txt)" '[{"type":"text","text":"The sum of 5 and 3 is 8"}]'
	run -0 checks <<<"$stderr"
	assert_line '[tool-add-numbers ] SUCCESS Validates that the add_numbers tool works correctly'
	assert_line 'Passed: 1/1, 0 failed, 0 warnings'
}

@test "conformance: the SDK's client passes elicitation-sep1034-client-defaults" {
	run -0 --separate-stderr "$CONFORMANCE" -o results \
	    -c "node $TOP/t/mcp/sdk-conformance-client.mjs" \
	    elicitation-sep1034-client-defaults
	assert_equal "$(cat results/*/stdout.txt)" '[{"type":"text","text":"Elicitation completed: {\"name\":\"John Doe\",\"age\":30,\"score\":95.5,\"status\":\"active\",\"verified\":true}"}]'
	run -0 checks <<<"$stderr"
	assert_line 'Passed: 5/5, 0 failed, 0 warnings'
}

@test "conformance: the SDK's client passes sse-retry" {
	run -0 --separate-stderr "$CONFORMANCE" -o results \
	    -c "node $TOP/t/mcp/sdk-conformance-client.mjs" sse-retry
	assert_equal "$(cat results/*/stdout.txt)" '[{"type":"text","text":"Reconnection test completed successfully"}]'
	run -0 checks <<<"$stderr"
	assert_line '[incoming-request             ] INFO    Received GET request for / (Last-Event-ID: event-2)'
	assert_line 'Passed: 3/3, 0 failed, 0 warnings'
	run -0 ls results
	assert_output --regexp '^sse-retry-[0-9TZ-]+$'
	[ -s results/*/checks.json ]
}

@test "conformance: a client that calls nothing fails tools_call, status 1" {
	run -1 --separate-stderr "$CONFORMANCE" -c true tools_call
	run -0 checks <<<"$stderr"
	assert_line 'Passed: 0/1, 1 failed, 0 warnings'
	assert_line '❌ OVERALL: FAILED'
}

@test "conformance: initialize passes 0/0 with a client that does nothing" {
	# So the tests of mcp-run check for 1/1, not for the status alone.
	run -0 --separate-stderr "$CONFORMANCE" -c true initialize
	run -0 checks <<<"$stderr"
	assert_line 'Passed: 0/0, 0 failed, 0 warnings'
}

@test "conformance: a client that fails fails the scenario" {
	run -1 --separate-stderr "$CONFORMANCE" -c false initialize
	run -0 checks <<<"$stderr"
	assert_line 'Client exited with code 1'
	assert_line '⚠️  CLIENT EXITED WITH ERROR (code 1) - Test may be incomplete'
}

@test "conformance.sh usage errors: status 2" {
	run -2 --separate-stderr "$CONFORMANCE"
	assert_equal "$stderr" 'conformance.sh: a scenario expected
usage: conformance.sh [-c COMMAND] [-o DIR] SCENARIO [ARG ...]'
}

@test "conformance-client.sh -n: the mcp-run command of each scenario" {
	u=http://localhost:1/mcp
	MCP_CONFORMANCE_SCENARIO=initialize run -0 "$WRAPPER" -n $u
	assert_output "mcp-run --list-tools --server 'conformance=$u'"
	MCP_CONFORMANCE_SCENARIO=tools_call run -0 "$WRAPPER" -n $u
	assert_output "echo '{\"server_name\":\"conformance\",\"tool_name\":\"add_numbers\",\"arguments\":{\"a\":5,\"b\":3}}' |
    mcp-run --server 'conformance=$u'"
	MCP_CONFORMANCE_SCENARIO=elicitation-sep1034-client-defaults \
	    run -0 "$WRAPPER" -n $u
	assert_output "echo '{\"server_name\":\"conformance\",\"tool_name\":\"test_client_elicitation_defaults\",\"arguments\":{}}' |
    mcp-run --elicit defaults --server 'conformance=$u'"
	MCP_CONFORMANCE_SCENARIO=sse-retry run -0 "$WRAPPER" -n $u
	assert_output "echo '{\"server_name\":\"conformance\",\"tool_name\":\"test_reconnection\",\"arguments\":{}}' |
    mcp-run --server 'conformance=$u'"
}

# fake_mcp_run OUTPUT [STATUS]: an mcp-run in ./fake that records its
# arguments and input in ./got and writes OUTPUT.
fake_mcp_run() {
	mkdir -p fake
	cat >fake/mcp-run <<EOF
#!/bin/sh
echo "\$*" >"$PWD/got"
cat >>"$PWD/got"
echo '$1'
exit ${2:-0}
EOF
	chmod +x fake/mcp-run
}

@test "conformance-client.sh runs mcp-run and checks its result" {
	fake_mcp_run '{"type":"tool_result","result":"The sum of 5 and 3 is 8"}'
	MCP_CONFORMANCE_SCENARIO=tools_call LLMKIT_BIN=$PWD/fake \
	    run -0 --separate-stderr "$WRAPPER" http://h/mcp
	assert_output '{"type":"tool_result","result":"The sum of 5 and 3 is 8"}'
	assert_equal "$(cat got)" '--server conformance=http://h/mcp
{"server_name":"conformance","tool_name":"add_numbers","arguments":{"a":5,"b":3}}'
}

@test "conformance-client.sh: another result, status 1" {
	fake_mcp_run '{"type":"tool_result","result":"The sum of 5 and 3 is 9"}'
	MCP_CONFORMANCE_SCENARIO=tools_call LLMKIT_BIN=$PWD/fake \
	    run -1 --separate-stderr "$WRAPPER" http://h/mcp
	assert_equal "$stderr" 'conformance-client.sh: tools_call: the result is not "The sum of 5 and 3 is 8"...'
}

@test "conformance-client.sh: mcp-run's status is its own" {
	fake_mcp_run '{"type":"error"}' 3
	MCP_CONFORMANCE_SCENARIO=initialize LLMKIT_BIN=$PWD/fake \
	    run -3 "$WRAPPER" http://h/mcp
	assert_equal "$(cat got)" '--list-tools --server conformance=http://h/mcp'
}

@test "conformance-client.sh usage errors: status 2" {
	MCP_CONFORMANCE_SCENARIO=auth/metadata-default \
	    run -2 --separate-stderr "$WRAPPER" http://h/mcp
	assert_equal "$stderr" 'conformance-client.sh: auth/metadata-default: not a scenario mcp-run takes part in
usage: conformance-client.sh [-n] URL'
	MCP_CONFORMANCE_SCENARIO= run -2 --separate-stderr "$WRAPPER" http://h/mcp
	assert_equal "${stderr_lines[0]}" \
	    'conformance-client.sh: MCP_CONFORMANCE_SCENARIO is not set'
	MCP_CONFORMANCE_SCENARIO=initialize run -2 --separate-stderr "$WRAPPER"
	assert_equal "${stderr_lines[0]}" 'conformance-client.sh: a URL expected'
}
