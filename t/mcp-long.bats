#!/usr/bin/env bats
# Long calls: every tools/call carries a progressToken; the server's
# progress notifications reset -T and are said on stderr ("SERVER: TOOL:
# 2/6", one line written over on a terminal); --max-time bounds a call
# whatever its progress. Against the everything server's
# trigger-long-running-operation, which reports each step.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
STARTING='e: Starting default (STDIO) server...'

# long DURATION STEPS: the call of trigger-long-running-operation.
long() {
	printf '{"type":"tool_call","toolCallId":"c1","toolName":"trigger-long-running-operation","serverName":"e","args":{"duration":%s,"steps":%s}}\n' "$1" "$2"
}

@test "progress resets -T: a 3 s call in 6 steps passes -T 1, each step said" {
	run -0 --separate-stderr mcp-run -T 1 \
	    --server "e=node $EVERYTHING stdio" < <(long 3 6)
	assert_equal "$(jq -r .type <<<"$output")" tool_result
	assert_equal "$stderr" "$STARTING
e: trigger-long-running-operation: 1/6
e: trigger-long-running-operation: 2/6
e: trigger-long-running-operation: 3/6
e: trigger-long-running-operation: 4/6
e: trigger-long-running-operation: 5/6
e: trigger-long-running-operation: 6/6"
}

@test "without progress -T still ends a call: 2 s in one step, -T 1" {
	run -1 --separate-stderr mcp-run -T 1 \
	    --server "e=node $EVERYTHING stdio" < <(long 2 1)
	assert_equal "$(jq -r .error <<<"$output")" 'timed out after 1 s'
}

@test "--max-time ends a call whatever its progress, status 1" {
	run -1 --separate-stderr mcp-run -T 1 --max-time 1.2 \
	    --server "e=node $EVERYTHING stdio" < <(long 4 8)
	assert_equal "$(jq -r .error <<<"$output")" 'ran past --max-time (1.2 s)'
	assert_equal "$(tail -n 1 <<<"$stderr")" '<stdin>:1:50: error: tool "trigger-long-running-operation" on e failed: ran past --max-time (1.2 s)'
}

@test "on a terminal the progress is one line, written over, and cleared at the end" {
	long 1 2 >"$BATS_TEST_TMPDIR/in.jsonl"
	: >"$BATS_TEST_TMPDIR/answers"
	run -0 python3 "$TOP/t/mcp/pty-run.py" "$BATS_TEST_TMPDIR/answers" \
	    sh -c 'mcp-run --server "e=node $0 stdio" <"$1" >/dev/null' \
	    "$EVERYTHING" "$BATS_TEST_TMPDIR/in.jsonl"
	assert_equal "$(printf '%s' "$output" | od -c | sed 's/^[0-7]* *//' | tr -s ' ' | tr -d '\n')" "$(printf 'e: Starting default (STDIO) server...\n\r\033[Ke: trigger-long-running-operation: 1/2\r\033[Ke: trigger-long-running-operation: 2/2\r\033[K' | od -c | sed 's/^[0-7]* *//' | tr -s ' ' | tr -d '\n')"
}

@test "--max-time must be a positive number of seconds" {
	run -2 --separate-stderr mcp-run --max-time 0 --server s=true
	assert_equal "${stderr%%$'\n'*}" 'mcp-run: --max-time must be a number of seconds above 0, at most 86400, not "0"'
}

# research [OPTION ...]: the everything server's simulate-research-query,
# whose execution.taskSupport is "required": a task of four stages, a
# second each, whose status is polled every second.
research() {
	local args=$1
	shift
	printf '{"type":"tool_call","toolCallId":"c1","toolName":"simulate-research-query","serverName":"e","args":%s}\n' "$args" |
	    mcp-run "$@" --server "e=node $EVERYTHING stdio"
}

@test "a tool that requires a task is called as one, polled to completion, each status said" {
	run -0 --separate-stderr research '{"topic":"bats"}' -T 5
	assert_equal "$(jq -r .result <<<"$output" | head -n 1)" '# Research Report: bats'
	# each status seen once, in the order of the stages; a poll a second
	# on a loaded machine may fall after a stage that lasts a second
	assert_equal "$(head -n 1 <<<"$stderr")" "$STARTING"
	assert_equal "$(tail -n 1 <<<"$stderr")" 'e: simulate-research-query: completed: Generating report...'
	sed '1d;$d' <<<"$stderr" >seen
	printf 'e: simulate-research-query: working: %s...\n' \
	    'Gathering sources' 'Analyzing content' 'Synthesizing findings' \
	    'Generating report' >stages
	[ -s seen ]
	run -0 sh -c 'grep -Fxf seen stages | cmp - seen'
}

@test "a task past --max-time is cancelled with tasks/cancel, status 1" {
	run -1 --separate-stderr research '{"topic":"bats"}' --max-time 1.5
	assert_equal "$(jq -r .error <<<"$output")" 'ran past --max-time (1.5 s)'
	# the server, told, refuses its own next step of a cancelled task
	assert_equal "$(grep -c 'from terminal status "cancelled"' <<<"$stderr")" 2
}

@test "a task that needs input asks it while its result is awaited" {
	run -0 --separate-stderr research '{"topic":"bats","ambiguous":true}' \
	    --elicit defaults
	assert_equal "$(jq -r .result <<<"$output" | head -n 1)" '# Research Report: bats (User declined - using default interpretation)'
	declined='mcp-run: e: elicitation declined: the required field "interpretation" has no default'
	input='e: simulate-research-query: input_required: Found multiple interpretations for "bats". Requesting clarification...'
	assert_equal "$(grep -c -Fx "$declined" <<<"$stderr")" 1
	# the status is said when a poll sees it, which on a loaded machine
	# may be never: the question is asked by tasks/result, not the poll
	[ "$(grep -c -Fx "$input" <<<"$stderr")" -le 1 ]
}

# optional: a server of the 2025 era that takes tasks, whose one tool's
# taskSupport is "optional": called plainly it answers "plain", called
# as a task it answers "as a task" through tasks/get and tasks/result.
optional() {
	cat >optional.py <<'EOF'
import json, sys
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
def text(t):
    return {"content": [{"type": "text", "text": t}]}
task = {"taskId": "T1", "status": "completed", "ttl": None,
        "createdAt": "2026-01-01T00:00:00Z",
        "lastUpdatedAt": "2026-01-01T00:00:00Z", "pollInterval": 50}
for line in sys.stdin:
    m = json.loads(line)
    meth, i = m.get("method"), m.get("id")
    if meth == "initialize":
        send({"jsonrpc": "2.0", "id": i, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {},
            "tasks": {"requests": {"tools": {"call": {}}}}},
            "serverInfo": {"name": "optional", "version": "1"}}})
    elif meth == "tools/list":
        send({"jsonrpc": "2.0", "id": i, "result": {"tools": [{
            "name": "work", "inputSchema": {"type": "object"},
            "execution": {"taskSupport": "optional"}}]}})
    elif meth == "tools/call" and "task" in m["params"]:
        send({"jsonrpc": "2.0", "id": i, "result": {"task": dict(task,
            status="working")}})
    elif meth == "tools/call":
        send({"jsonrpc": "2.0", "id": i, "result": text("plain")})
    elif meth == "tasks/get":
        send({"jsonrpc": "2.0", "id": i, "result": task})
    elif meth == "tasks/result":
        send({"jsonrpc": "2.0", "id": i, "result": text("as a task")})
    elif i is not None:
        send({"jsonrpc": "2.0", "id": i, "error": {
            "code": -32601, "message": "Method not found"}})
EOF
}

@test "--tasks calls as a task a tool whose taskSupport is optional; without it, plainly" {
	optional
	printf '{"type":"tool_call","toolCallId":"c1","serverName":"o","toolName":"work","args":{}}\n' >in.jsonl
	run -0 --separate-stderr mcp-run --protocol 2025-11-25 \
	    --server "o=python3 optional.py" in.jsonl
	assert_equal "$(jq -r .result <<<"$output")" plain
	run -0 --separate-stderr mcp-run --tasks --protocol 2025-11-25 \
	    --server "o=python3 optional.py" in.jsonl
	assert_equal "$(jq -r .result <<<"$output")" 'as a task'
	assert_equal "$stderr" 'o: work: working
o: work: completed'
}
