#!/usr/bin/env bats
# What servers ask of mcp-run, answered: roots/list with --root,
# sampling/createMessage by the --sampling command, elicitation/create
# asked at a pseudo-terminal (t/mcp/pty-run.py types the answers),
# accepted with the schema's defaults, or declined; each against the
# everything server, which offers the tools that ask only to a client
# that declares the capability; and the official conformance suite's
# client scenarios (t/mcp/conformance.sh), mcp-run the client.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
STARTING='e: Starting default (STDIO) server...'

# call TOOL ARGUMENTS: one record for the everything server, named e.
call() {
	printf '{"type":"tool_call","toolCallId":"c1","toolName":"%s",' "$1"
	printf '"serverName":"e","args":%s}\n' "$2"
}

# ev [OPTION ...]: mcp-run with the everything server as e.
ev() {
	mcp-run "$@" --server "e=node $EVERYTHING stdio"
}

# The result text of the one record of $output.
text() {
	jq -r .result <<<"$output"
}

# The tools the everything server offers mcp-run given OPTIONs.
tools() {
	ev --list-tools "$@" 2>/dev/null | jq -r '.tools[].name' | sort
}

@test "the tools that ask are offered only when what they ask is backed" {
	# no terminal here: elicitation is declared only with defaults
	run -0 tools
	refute_line get-roots-list
	refute_line trigger-sampling-request
	refute_line trigger-elicitation-request
	run -0 tools --root . --sampling cat --elicit defaults
	assert_line get-roots-list
	assert_line trigger-sampling-request
	assert_line trigger-elicitation-request
	run -0 tools --elicit decline
	refute_line trigger-elicitation-request
}

@test "--root: roots/list names each directory as a file: URI" {
	mkdir -p "$BATS_TEST_TMPDIR/a b" "$BATS_TEST_TMPDIR/c"
	run -0 --separate-stderr ev --root "$BATS_TEST_TMPDIR/a b" \
	    --root "$BATS_TEST_TMPDIR/c" < <(call get-roots-list '{}')
	dir=$(cd "$BATS_TEST_TMPDIR" && pwd -P)
	run -0 text
	# (lines counts the lines that are not empty)
	assert_line --index 1 '1. a b'
	assert_line --index 2 "   URI: file://${dir// /%20}/a%20b"
	assert_line --index 3 '2. c'
	assert_line --index 4 "   URI: file://$dir/c"
}

@test "--root of a directory that is not there is a usage error" {
	run -2 --separate-stderr mcp-run --root /nonexistent/dir \
	    --server s=true
	assert_equal "${stderr%%$'\n'*}" 'mcp-run: --root "/nonexistent/dir": No such file or directory'
}

@test "--sampling: the command gets the system prompt and the message, and its output is the answer" {
	run -0 --separate-stderr ev --sampling 'tr a-z A-Z' \
	    < <(call trigger-sampling-request '{"prompt":"hello","maxTokens":5}')
	run -0 jq -r .result <<<"$output"
	run -0 sed 1d <<<"$output"
	run -0 jq -c . <<<"$output"
	assert_output '{"model":"tr","stopReason":"endTurn","role":"assistant","content":{"type":"text","text":"YOU ARE A HELPFUL TEST SERVER.\n\nRESOURCE TRIGGER-SAMPLING-REQUEST CONTEXT: HELLO\n"}}'
}

@test "--sampling through t/fake-model: the prompt it gets, byte for byte, and its reply as the answer" {
	mkdir model
	printf 'A haiku of bats.\n' >model/reply.1
	run -0 --separate-stderr ev --sampling "sh $TOP/t/fake-model $PWD/model" \
	    < <(call trigger-sampling-request '{"prompt":"bats","maxTokens":20}')
	jq -r .result <<<"$output" | sed 1d | jq -r .content.text >answer
	run -0 cat answer
	assert_output 'A haiku of bats.'
	run -0 cat model/prompt.1
	assert_output 'You are a helpful test server.

Resource trigger-sampling-request context: bats'
}

@test "--sampling: a command that fails refuses the request, said on stderr" {
	run --separate-stderr ev --sampling false \
	    < <(call trigger-sampling-request '{"prompt":"hello"}')
	assert_equal "$(sed -n 2p <<<"$stderr")" 'mcp-run: e: sampling refused: --sampling: false exited with status 1'
}

@test "--elicit defaults: the schema's defaults are accepted, unasked" {
	run -0 --separate-stderr mcp-run --elicit defaults \
	    --server "e=node $EVERYTHING stdio" \
	    < <(call trigger-elicitation-request '{}')
	# the name is required and has no default: declined, and said
	assert_equal "$stderr" "$STARTING
mcp-run: e: elicitation declined: the required field \"name\" has no default"
	run -0 text
	assert_line --index 0 '❌ User declined to provide the requested information.'
}

# asker: a server of the 2025 era that asks elicitation/create during
# every call, whatever the client declared, and answers with the action.
asker() {
	cat >asker.py <<'EOF'
import json, sys
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "asker", "version": "1"}}})
    elif m.get("method") == "tools/call":
        send({"jsonrpc": "2.0", "id": 900, "method": "elicitation/create",
              "params": {"message": "Name?", "requestedSchema": {
                  "type": "object", "properties": {"n": {"type": "string"}},
                  "required": ["n"]}}})
        a = json.loads(sys.stdin.readline())
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"content": [
            {"type": "text", "text": json.dumps(a.get("result"))}]}})
    elif "id" in m:
        send({"jsonrpc": "2.0", "id": m["id"], "error": {
            "code": -32601, "message": "Method not found"}})
EOF
}

@test "--elicit ask without a terminal declines a server that asks anyway, and says how to accept the defaults" {
	asker
	run -0 --separate-stderr setsid -w mcp-run --server "a=python3 asker.py" \
	    < <(printf '{"serverName":"a","toolName":"t","args":{},"type":"tool_call","toolCallId":"c1"}\n')
	assert_equal "$(jq -r .result <<<"$output")" '{"action": "decline"}'
	assert_equal "$stderr" "mcp-run: a: elicitation declined: no terminal to ask on (--elicit defaults accepts the defaults)"
}

# elicit ANSWERS: the call of trigger-elicitation-request, answered at a
# terminal with the lines of ANSWERS; the transcript in $output, the
# record in $BATS_TEST_TMPDIR/out.jsonl.
elicit() {
	printf '%b' "$1" >"$BATS_TEST_TMPDIR/answers"
	call trigger-elicitation-request '{}' >"$BATS_TEST_TMPDIR/in.jsonl"
	run -0 python3 "$TOP/t/mcp/pty-run.py" "$BATS_TEST_TMPDIR/answers" \
	    sh -c 'mcp-run --server "e=node $0 stdio" <"$1" >"$2" 2>/dev/null' \
	    "$EVERYTHING" "$BATS_TEST_TMPDIR/in.jsonl" \
	    "$BATS_TEST_TMPDIR/out.jsonl"
}

# The content the server got, from its raw result.
content() {
	jq -r .result "$BATS_TEST_TMPDIR/out.jsonl" |
	    sed -n '/^Raw result: /,$p' | sed 's/^Raw result: //' | jq -c .
}

@test "--elicit ask: each field asked at the terminal, defaults for the empty answers, a bad answer asked again" {
	elicit 'Ada Lovelace\ny\n\nada@example.com\n\n\nabc\n7\n\n2\n1,3\n3\n\n\n\n'
	# what the person sees: each field, its choices and its default
	assert_output --partial 'e asks: Please provide inputs for the following fields:
(an empty answer takes the default; end of input cancels)
  String (string, required) - Your full, legal name: '
	assert_output --partial '  Integer (integer, 1 to 100) - Your favorite integer (do not give us your phone number, pin, or other sensitive info) [42]:   answer a whole number
'
	assert_output --partial 'Titled Single Select Enum (string) - Choose your favorite hero 1) Superman 2) Green Lantern 3) Wonder Woman [hero-1]: '
	assert_output --partial 'Legacy Titled Single Select Enum (string) - Choose your favorite type of pet 1) Cats 2) Dogs 3) Birds 4) Fish 5) Reptiles [pet-1]: '
	run -0 content
	assert_output '{"action":"accept","content":{"name":"Ada Lovelace","check":true,"firstLine":"It was a dark and stormy night.","email":"ada@example.com","integer":7,"number":3.14,"untitledSingleSelectEnum":"Rachel","untitledMultipleSelectEnum":["Guitar","Violin"],"titledSingleSelectEnum":"hero-3","titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}}'
}

@test "--elicit ask: a number out of range and too many choices are asked again" {
	elicit 'Ada\nn\n\n\n\n\n500\n1\n\n\n1,2,3,4\n2\n\n\n\n\n'
	assert_output --partial '[42]:   answer 100 or less
'
	assert_output --partial '[["Guitar"]]:   pick at most 3
'
	run -0 content
	assert_output '{"action":"accept","content":{"name":"Ada","check":false,"firstLine":"It was a dark and stormy night.","integer":1,"number":3.14,"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Piano"],"titledSingleSelectEnum":"hero-1","titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}}'
}

@test "--elicit ask: no at the end declines, end of input cancels, a required field left empty is asked again" {
	elicit '\nAda\n\n\n\n\n\n\n\n\n\n\n\n\nn\n'
	assert_output --partial 'legal name:   an answer is required
'
	run -0 content
	assert_output '{"action":"decline"}'
	elicit 'Ada\n\004'
	run -0 content
	assert_output '{"action":"cancel"}'
}

# conformance SCENARIO: the official suite's client scenario, mcp-run
# the client (t/mcp/conformance-client.sh).
conformance() {
	run -0 --separate-stderr env LLMKIT_BIN="${LLMKIT_BIN:-$TOP/bin}" \
	    sh "$TOP/t/mcp/conformance.sh" "$1"
	assert_equal "$(grep -c 'OVERALL: PASSED' <<<"$stderr")" 1
}

@test "conformance: initialize" {
	conformance initialize
}

@test "conformance: tools_call" {
	conformance tools_call
}

@test "conformance: elicitation-sep1034-client-defaults" {
	conformance elicitation-sep1034-client-defaults
}

@test "conformance: sse-retry" {
	conformance sse-retry
}
