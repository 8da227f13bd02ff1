#!/usr/bin/env bats
# llm-loop as a person runs it: t/fake-model is the model (it answers
# reply.N to its Nth call and keeps the prompt it got as prompt.N, byte
# for byte), and the servers are real: the protocol's "everything"
# reference server and the memory server (@modelcontextprotocol/
# server-memory), both at the versions t/mcp/package.json pins. Each
# test checks the thread file line by line, standard output, standard
# error and the status; each prompt is checked whole against one made
# by the kit's own tools: toolcall-parse --print-prompt for the tools
# of mcp-run --list-tools, then thread-serialize of the expected thread.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
MEMORY=$MCP_MODULES/@modelcontextprotocol/server-memory/dist/index.js
FAKE=$TOP/t/fake-model
PTY=$TOP/t/mcp/pty-run.py
# What the everything server says on stderr when it starts, as llm-loop
# passes it on.
STARTING='everything: Starting default (STDIO) server...'

# Each test: its own directory, the model's queue in m/, and servers.json
# naming the everything server.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	mkdir m
	jq -n --arg e "$EVERYTHING" '{mcpServers: {
	    everything: {command: "node", args: [$e, "stdio"]}}}' >servers.json
}

# answer N: the model's reply to its call N is standard input.
answer() {
	cat >"m/reply.$1"
}

# tool NAME ARGUMENTS: a call in the <tool> markup (ARGUMENTS the XML of
# its <arguments>).
tool() {
	printf '<tool>\n<tool_name>%s</tool_name>\n' "$1"
	printf '<arguments>%s</arguments>\n</tool>\n' "$2"
}

# go ARG ...: llm-loop ARG ... -- fake-model m, standard output in out,
# standard error in err (each call line's seconds made "T"), the status
# in $st; standard input is empty.
go() {
	st=0
	llm-loop "$@" -- "$FAKE" m >out 2>err.raw </dev/null || st=$?
	timeless <err.raw >err
}

# The call lines of standard input with their time made "T".
timeless() {
	sed -E 's/ \([0-9]+\.[0-9]{2} s\)$/ (T s)/'
}

# is FILE: FILE holds exactly the bytes of standard input.
is() {
	cat >want.is
	run diff -u want.is "$1"
	assert_output ''
	assert_success
}

# tools_prompt FORMAT [CONFIG]: what toolcall-parse teaches a model of
# the tools of the servers of CONFIG (servers.json); the list is asked
# of the servers once a test.
tools_prompt() {
	local c=${2:-servers.json}
	[ -s "$c.tools" ] ||
	    mcp-run --list-tools -c "$c" >"$c.tools" 2>/dev/null || return
	toolcall-parse --print-prompt --format "$1" --tools "$c.tools"
}

# want_prompt FORMAT N [CONFIG]: the prompt of a thread that is the first
# N lines of want.jsonl: the tools' prompt, a blank line, the thread.
want_prompt() {
	tools_prompt "$1" "${3:-servers.json}"
	echo
	head -n "$2" want.jsonl | thread-serialize
}

# prompt_is N FORMAT LINES [CONFIG]: prompt.N is want_prompt's.
prompt_is() {
	want_prompt "$2" "$3" "${4:-servers.json}" >"want.prompt.$1"
	run -0 cmp "want.prompt.$1" "m/prompt.$1"
}

# The thread file and want.jsonl are the same, byte for byte.
thread_is_want() {
	run diff -u want.jsonl thread.jsonl
	assert_output ''
	assert_success
}

@test "a first run in the <tool> format: the user's message, the answer, the call, its result, the completion" {
	{ printf 'Let me echo.\n'; tool echo '<message>hi</message>'; } |
	    answer 1
	printf 'It said hi.\n' | answer 2
	go -y -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo hi","iteration":0}
{"type":"message","role":"assistant","content":"Let me echo.","iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":1}
{"type":"message","role":"assistant","content":"It said hi.","iteration":2}
{"type":"completion","result":"It said hi.","iteration":2}
EOF
	thread_is_want
	# the prose, as it came: the line after </tool> is the answer's too
	printf 'Let me echo.\n\nIt said hi.\n' | is out
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"hi"} -> ok (T s)
EOF
	assert_equal "$(cat m/calls)" 2
	prompt_is 1 tool 1
	prompt_is 2 tool 4
}

@test "--format hermes: the markup taught and read; a call inside <think> is reasoning and does not run" {
	cat >m/reply.1 <<'EOF'
<think>
I could call <tool_call>
{"name": "get-env", "arguments": {}}
</tool_call> but the sum is what is asked.
</think>
Adding.
<tool_call>
{"name": "get-sum", "arguments": {"a": 2, "b": 3}}
</tool_call>
EOF
	printf '<think>It answered.</think>\nIt is 5.\n' | answer 2
	go -y --format hermes -c servers.json -t thread.jsonl 'Add 2 and 3'
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Add 2 and 3","iteration":0}
{"type":"message","role":"assistant","content":"Adding.","iteration":1}
{"type":"tool_call","toolName":"get-sum","args":{"a":2,"b":3},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"get-sum","serverName":"everything","result":"The sum of 2 and 3 is 5.","iteration":1}
{"type":"message","role":"assistant","content":"It is 5.","iteration":2}
{"type":"completion","result":"It is 5.","iteration":2}
EOF
	thread_is_want
	printf 'Adding.\n\nIt is 5.\n' | is out
	is err <<EOF
$STARTING
llm-loop: everything: get-sum {"a":2,"b":3} -> ok (T s)
EOF
	prompt_is 1 hermes 1
	prompt_is 2 hermes 4
}

@test "--format qwen3: the markup taught and read; a call inside <think> is reasoning and does not run" {
	cat >m/reply.1 <<'EOF'
<think>
<tool_call>
<function=get-env>
</function>
</tool_call>
</think>

Echoing.
<tool_call>
<function=echo>
<parameter=message>
a < b && c
</parameter>
</function>
</tool_call>
EOF
	printf 'Done.\n' | answer 2
	go -y --format qwen3 -c servers.json -t thread.jsonl 'Echo it'
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo it","iteration":0}
{"type":"message","role":"assistant","content":"Echoing.","iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"a < b && c"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: a < b && c","iteration":1}
{"type":"message","role":"assistant","content":"Done.","iteration":2}
{"type":"completion","result":"Done.","iteration":2}
EOF
	thread_is_want
	printf 'Echoing.\n\nDone.\n' | is out
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"a < b && c"} -> ok (T s)
EOF
	prompt_is 1 qwen3 1
	prompt_is 2 qwen3 4
}

@test "--begins-in-reasoning yes, and auto: an answer that begins inside reasoning; the call there does not run" {
	printf 'The user greets me; <tool_call>\n{"name": "get-env", "arguments": {}}\n</tool_call> is not needed.\n</think>\n\nHello.\n' >reply
	for how in yes auto; do
		rm -rf m thread.jsonl && mkdir m
		cp reply m/reply.1
		go -y --begins-in-reasoning "$how" --format hermes \
		    -t thread.jsonl Hi
		assert_equal "$st" 0
		is thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Hi","iteration":0}
{"type":"message","role":"assistant","content":"Hello.","iteration":1}
{"type":"completion","result":"Hello.","iteration":1}
EOF
		printf 'Hello.\n' | is out
		is err </dev/null
	done
}

@test "calls toolcall refuses (arguments against the schema, an unknown tool): their error events go back, nothing runs" {
	{ tool get-sum '<a>x</a><b>2</b>'
	  tool nope ''
	  printf 'Both failed.\n'; } | answer 1
	printf 'Done.\n' | answer 2
	go -y -c servers.json -t thread.jsonl Go
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Go","iteration":0}
{"type":"error","toolName":"get-sum","error":"the arguments of \"get-sum\" do not match its schema: /a: expected number, found string \"x\"","recoverable":true,"iteration":1}
{"type":"error","toolName":"nope","error":"tool call to \"nope\", which is not defined (the tools are: echo, get-annotated-message, get-env, get-resource-links, get-resource-reference, get-structured-content, get-sum, get-tiny-image, gzip-file-as-resource, toggle-simulated-logging, toggle-subscriber-updates, trigger-long-running-operation, simulate-research-query)","recoverable":true,"iteration":1}
{"type":"message","role":"assistant","content":"Both failed.","iteration":1}
{"type":"message","role":"assistant","content":"Done.","iteration":2}
{"type":"completion","result":"Done.","iteration":2}
EOF
	thread_is_want
	is err <<EOF
$STARTING
llm-loop: not run: the arguments of "get-sum" do not match its schema: /a: expected number, found string "x"
llm-loop: not run: tool call to "nope", which is not defined (the tools are: echo, get-annotated-message, get-env, get-resource-links, get-resource-reference, get-structured-content, get-sum, get-tiny-image, gzip-file-as-resource, toggle-simulated-logging, toggle-subscriber-updates, trigger-long-running-operation, simulate-research-query)
EOF
	prompt_is 2 tool 4
}

# nopcre: where LLMKIT_LIBPCRE2 points for PCRE2 that cannot be loaded.
NOPCRE=/nonexistent/libpcre2-8.so.0
NOPCRE_WHY="cannot load libpcre2-8 ($NOPCRE: cannot open shared object file: No such file or directory)"

# scripted TOOLS: servers.json naming t/mcp/scripted-server.py as server
# s, which lists the tools TOOLS (a JSON array).
scripted() {
	jq -n --arg s "$TOP/t/mcp/scripted-server.py" --arg t "$1" \
	    '{mcpServers: {s: {command: "python3", args: [$s, "--tools", $t]}}}' >servers.json
}

@test "a server's schema with a pattern when PCRE2 cannot be loaded ends the run before the model: status 3" {
	scripted '[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string","pattern":"^a"}}}}]'
	printf 'Done.\n' | answer 1
	LLMKIT_LIBPCRE2=$NOPCRE go -y -c servers.json -t thread.jsonl Go
	assert_equal "$st" 3
	is err <<EOF
llm-loop: <tools/list>: /tools/0: tool "echo": the input schema does not compile: /properties/text: pattern "^a" cannot be compiled: $NOPCRE_WHY
EOF
	[ ! -e m/prompt.1 ] || fail "the model was called"
}

@test "a call whose format regex cannot be checked without PCRE2 is not run, and the loop stops: status 3" {
	scripted '[{"name":"echo","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"text":{"type":"string","format":"regex"}}}}]'
	tool echo '<text>a+</text>' | answer 1
	printf 'Done.\n' | answer 2
	LLMKIT_LIBPCRE2=$NOPCRE go -y -c servers.json -t thread.jsonl Go
	assert_equal "$st" 3
	msg="the arguments of \"echo\" cannot be checked against its schema: /text: string \"a+\" cannot be checked against the format regex: $NOPCRE_WHY"
	jq -cn --arg m "$msg" '{type: "message", role: "user", content: "Go", iteration: 0},
	    {type: "error", toolName: "echo", error: $m, recoverable: false, iteration: 1}' >want.jsonl
	thread_is_want
	is err <<EOF
llm-loop: not run: $msg
llm-loop: a call's arguments could not be checked: the loop stops
EOF
	[ ! -e m/prompt.2 ] || fail "the model was called again"
}

@test "the memory server keeps an entity of iteration 1 for iteration 3: one server start for the whole run" {
	# the server, through a script that counts its starts
	cat >memory.sh <<EOF
#!/bin/sh
echo start >>"$BATS_TEST_TMPDIR/starts"
MEMORY_FILE_PATH="$BATS_TEST_TMPDIR/graph.jsonl" exec node "$MEMORY"
EOF
	chmod +x memory.sh
	jq -n --arg c "$BATS_TEST_TMPDIR/memory.sh" \
	    '{mcpServers: {memory: {command: $c}}}' >memory.json
	tool create_entities '<entities><name>Ada</name><entityType>person</entityType><observations>wrote the first program</observations></entities>' |
	    answer 1
	tool add_observations '<observations><entityName>Ada</entityName><contents>born in 1815</contents></observations>' |
	    answer 2
	tool open_nodes '<names>Ada</names>' | answer 3
	printf 'Ada, born in 1815, wrote the first program.\n' | answer 4
	go --allow memory -c memory.json -t thread.jsonl 'Remember Ada'
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Remember Ada","iteration":0}
{"type":"tool_call","toolName":"create_entities","args":{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"create_entities","serverName":"memory","result":"[\n  {\n    \"name\": \"Ada\",\n    \"entityType\": \"person\",\n    \"observations\": [\n      \"wrote the first program\"\n    ]\n  }\n]","iteration":1,"structuredContent":{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}}
{"type":"tool_call","toolName":"add_observations","args":{"observations":[{"entityName":"Ada","contents":["born in 1815"]}]},"toolCallId":"call-2-1","iteration":2,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-2-1","toolName":"add_observations","serverName":"memory","result":"[\n  {\n    \"entityName\": \"Ada\",\n    \"addedObservations\": [\n      \"born in 1815\"\n    ]\n  }\n]","iteration":2,"structuredContent":{"results":[{"entityName":"Ada","addedObservations":["born in 1815"]}]}}
{"type":"tool_call","toolName":"open_nodes","args":{"names":["Ada"]},"toolCallId":"call-3-1","iteration":3,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-3-1","toolName":"open_nodes","serverName":"memory","result":"{\n  \"entities\": [\n    {\n      \"name\": \"Ada\",\n      \"entityType\": \"person\",\n      \"observations\": [\n        \"wrote the first program\",\n        \"born in 1815\"\n      ]\n    }\n  ],\n  \"relations\": []\n}","iteration":3,"structuredContent":{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program","born in 1815"]}],"relations":[]}}
{"type":"message","role":"assistant","content":"Ada, born in 1815, wrote the first program.","iteration":4}
{"type":"completion","result":"Ada, born in 1815, wrote the first program.","iteration":4}
EOF
	thread_is_want
	# the entity of iteration 1, read back in iteration 3
	run -0 jq -c 'select(.toolCallId == "call-3-1" and .type == "tool_result") | .structuredContent.entities' thread.jsonl
	assert_output '[{"name":"Ada","entityType":"person","observations":["wrote the first program","born in 1815"]}]'
	is starts <<<start
	printf 'Ada, born in 1815, wrote the first program.\n' | is out
	is err <<'EOF'
memory: Knowledge Graph MCP Server running on stdio
llm-loop: memory: create_entities {"entities":[{"name":"Ada","entityType":"person","observatio... -> ok (T s)
llm-loop: memory: add_observations {"observations":[{"entityName":"Ada","contents":["born in 18... -> ok (T s)
llm-loop: memory: open_nodes {"names":["Ada"]} -> ok (T s)
EOF
	rm starts
	prompt_is 3 tool 5 memory.json
	prompt_is 4 tool 7 memory.json
}

@test "a conversation over two runs: the second continues the thread file, its numbers and its call ids" {
	tool echo '<message>hi</message>' | answer 1
	printf 'It said hi.\n' | answer 2
	go -y -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	tool echo '<message>bye</message>' | answer 3
	printf 'It said bye.\n' | answer 4
	# the same server, named on the command line this time
	go -y --server "everything=node $EVERYTHING stdio" -t thread.jsonl \
	    Now echo bye
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo hi","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":1}
{"type":"message","role":"assistant","content":"It said hi.","iteration":2}
{"type":"completion","result":"It said hi.","iteration":2}
{"type":"message","role":"user","content":"Now echo bye","iteration":3}
{"type":"tool_call","toolName":"echo","args":{"message":"bye"},"toolCallId":"call-4-1","iteration":4,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-4-1","toolName":"echo","serverName":"everything","result":"Echo: bye","iteration":4}
{"type":"message","role":"assistant","content":"It said bye.","iteration":5}
{"type":"completion","result":"It said bye.","iteration":5}
EOF
	thread_is_want
	printf 'It said bye.\n' | is out
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"bye"} -> ok (T s)
EOF
	# the second run's prompts hold the first run's events
	prompt_is 3 tool 6
	prompt_is 4 tool 8
}

# pty_go ANSWERS ARG ...: go, run with a pseudo-terminal as llm-loop's
# terminal, where the lines of ANSWERS (printf's format) are typed; what
# the terminal showed is in tty.
pty_go() {
	printf "$1" >answers
	shift
	st=0
	PTY_WAIT=30 python3 "$PTY" answers sh -c \
	    'exec llm-loop "$@" >out 2>err.raw' llm-loop "$@" -- "$FAKE" m \
	    >tty || st=$?
	timeless <err.raw >err
}

# The question llm-loop asks at the terminal.
ASK='Run it? [y]es, [n]o, [a]lways for this tool, [q]uit: '

@test "asked at the terminal: no, yes (a word it does not know asked again), end of input is no; the questions and answers in the thread" {
	{ tool echo '<message>one</message>'
	  tool echo '<message>two</message>'
	  tool echo '<message>three</message>'; } | answer 1
	printf 'One and three were refused.\n' | answer 2
	pty_go 'maybe\nn\nY\n\004' -c servers.json -t thread.jsonl Echo thrice
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo thrice","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"one"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: echo {\"message\":\"one\"}?","iteration":1}
{"type":"human_input_received","response":"no","iteration":1}
{"type":"error","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","error":"the user refused this call: everything: echo (call-1-1)","recoverable":true,"iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"two"},"toolCallId":"call-1-2","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: echo {\"message\":\"two\"}?","iteration":1}
{"type":"human_input_received","response":"yes","iteration":1}
{"type":"tool_result","toolCallId":"call-1-2","toolName":"echo","serverName":"everything","result":"Echo: two","iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"three"},"toolCallId":"call-1-3","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: echo {\"message\":\"three\"}?","iteration":1}
{"type":"human_input_received","response":"no","iteration":1}
{"type":"error","toolCallId":"call-1-3","toolName":"echo","serverName":"everything","error":"the user refused this call: everything: echo (call-1-3)","recoverable":true,"iteration":1}
{"type":"message","role":"assistant","content":"One and three were refused.","iteration":2}
{"type":"completion","result":"One and three were refused.","iteration":2}
EOF
	thread_is_want
	# the typed answers echoed at once (not the end of input), then each
	# question; a new line after the end of input
	printf '%s\n' maybe n Y 'llm-loop: everything: echo {"message":"one"}' \
	    "$ASK$ASK"'llm-loop: everything: echo {"message":"two"}' \
	    "$ASK"'llm-loop: everything: echo {"message":"three"}' "$ASK" |
	    is tty
	printf 'One and three were refused.\n' | is out
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"one"} -> refused (T s)
llm-loop: everything: echo {"message":"two"} -> ok (T s)
llm-loop: everything: echo {"message":"three"} -> refused (T s)
EOF
	# the refusals go back to the model; with a terminal to ask, the
	# server was told that elicitation is answered, and offers its tool
	# that asks: so too for the list of the prompt made here
	python3 "$PTY" /dev/null sh -c \
	    'mcp-run --list-tools -c servers.json >servers.json.tools 2>/dev/null'
	run -0 grep -c trigger-elicitation-request servers.json.tools
	prompt_is 2 tool 13
}

@test "asked at the terminal: always runs the tool's later calls unasked, in this run; another tool is still asked" {
	{ tool echo '<message>one</message>'
	  tool get-sum '<a>1</a><b>2</b>'; } | answer 1
	tool echo '<message>two</message>' | answer 2
	printf 'Done.\n' | answer 3
	pty_go 'a\nn\n' -c servers.json -t thread.jsonl Go
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Go","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"one"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: echo {\"message\":\"one\"}?","iteration":1}
{"type":"human_input_received","response":"always","iteration":1}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: one","iteration":1}
{"type":"tool_call","toolName":"get-sum","args":{"a":1,"b":2},"toolCallId":"call-1-2","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: get-sum {\"a\":1,\"b\":2}?","iteration":1}
{"type":"human_input_received","response":"no","iteration":1}
{"type":"error","toolCallId":"call-1-2","toolName":"get-sum","serverName":"everything","error":"the user refused this call: everything: get-sum (call-1-2)","recoverable":true,"iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"two"},"toolCallId":"call-2-1","iteration":2,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-2-1","toolName":"echo","serverName":"everything","result":"Echo: two","iteration":2}
{"type":"message","role":"assistant","content":"Done.","iteration":3}
{"type":"completion","result":"Done.","iteration":3}
EOF
	thread_is_want
	printf '%s\n' a n 'llm-loop: everything: echo {"message":"one"}' \
	    "$ASK"'llm-loop: everything: get-sum {"a":1,"b":2}' |
	    { cat; printf '%s' "$ASK"; } | is tty
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"one"} -> ok (T s)
llm-loop: everything: get-sum {"a":1,"b":2} -> refused (T s)
llm-loop: everything: echo {"message":"two"} -> ok (T s)
EOF
}

@test "asked at the terminal: quit refuses the call and ends the loop, status 1" {
	{ tool echo '<message>one</message>'
	  tool echo '<message>two</message>'; } | answer 1
	pty_go 'Quit\n' -c servers.json -t thread.jsonl Echo twice
	assert_equal "$st" 1
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo twice","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"one"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: echo {\"message\":\"one\"}?","iteration":1}
{"type":"human_input_received","response":"quit","iteration":1}
{"type":"error","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","error":"the user refused this call: everything: echo (call-1-1)","recoverable":true,"iteration":1}
{"type":"error","error":"the user ended the loop","recoverable":false,"iteration":1}
EOF
	thread_is_want
	printf '%s\n' Quit 'llm-loop: everything: echo {"message":"one"}' |
	    { cat; printf '%s' "$ASK"; } | is tty
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"one"} -> refused (T s)
EOF
	assert_equal "$(cat m/calls)" 1
}

# A model that writes a call and then goes on writing: model.sh, on its
# first run, writes $PREFIX and a call, then waits (5 s at most) until
# the thread file holds the call's result, says whether it came, and
# leaves model.done; later runs answer "Done.".
streaming_model() {
	cat >model.sh <<'EOF'
#!/bin/sh
cat >/dev/null
echo $$ >model.pid
if [ -e model.ran ]; then
	echo Done.
	exit 0
fi
: >model.ran
printf '%s<tool>\n<tool_name>echo</tool_name>\n' "${PREFIX-}"
printf '<arguments><message>hi</message></arguments>\n</tool>\n'
i=0
while [ $i -lt 100 ] && ! grep -q tool_result thread.jsonl; do
	sleep 0.05
	i=$((i + 1))
done
if [ $i -lt 100 ]; then
	echo 'The result came while I wrote.'
else
	echo 'No result while I wrote.'
fi
: >model.done
EOF
	chmod +x model.sh
}

@test "a call runs once it is complete, while the model still writes (--begins-in-reasoning no, or after a reasoning marker)" {
	streaming_model
	for how in no auto; do
		rm -f thread.jsonl model.ran model.done
		st=0
		PREFIX='<think>I will echo.</think>' llm-loop -q -y \
		    --begins-in-reasoning "$how" -c servers.json \
		    -t thread.jsonl Echo -- ./model.sh </dev/null >out 2>err ||
		    st=$?
		assert_equal "$st" 0
		is thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":1}
{"type":"message","role":"assistant","content":"The result came while I wrote.","iteration":1}
{"type":"message","role":"assistant","content":"Done.","iteration":2}
{"type":"completion","result":"Done.","iteration":2}
EOF
		printf 'The result came while I wrote.\nDone.\n' | is out
		is err </dev/null
	done
}

@test "quit while the model still writes: the model's command is ended then, what it wrote after the call not taken" {
	streaming_model
	printf 'q\n' >answers
	st=0
	PTY_WAIT=30 python3 "$PTY" answers sh -c \
	    'exec llm-loop --begins-in-reasoning no -c servers.json -t thread.jsonl Echo -- ./model.sh >out 2>/dev/null' \
	    >tty || st=$?
	assert_equal "$st" 1
	is thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"human_input_requested","question":"Run everything: echo {\"message\":\"hi\"}?","iteration":1}
{"type":"human_input_received","response":"quit","iteration":1}
{"type":"error","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","error":"the user refused this call: everything: echo (call-1-1)","recoverable":true,"iteration":1}
{"type":"error","error":"the user ended the loop","recoverable":false,"iteration":1}
EOF
	# ended, not waited for: it never got to its end
	run -1 kill -0 "$(cat model.pid)"
	[ ! -e model.done ]
	# the line's end after </tool> is not shown: an answer's shown
	# prose begins with text
	[ ! -s out ]
}

@test "no terminal to ask and no rule: the call is refused, said on stderr, and the loop goes on" {
	tool echo '<message>one</message>' | answer 1
	printf 'Refused.\n' | answer 2
	# a session of its own: no controlling terminal, /dev/tty cannot open
	st=0
	setsid -w llm-loop -c servers.json -t thread.jsonl Echo -- "$FAKE" m \
	    </dev/null >out 2>err.raw || st=$?
	timeless <err.raw >err
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"one"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"error","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","error":"the user refused this call: everything: echo (call-1-1)","recoverable":true,"iteration":1}
{"type":"message","role":"assistant","content":"Refused.","iteration":2}
{"type":"completion","result":"Refused.","iteration":2}
EOF
	thread_is_want
	is err <<EOF
$STARTING
llm-loop: everything: echo: refused: no --allow or --yes allows it, and there is no terminal to ask
llm-loop: everything: echo {"message":"one"} -> refused (T s)
EOF
	prompt_is 2 tool 3
}

# allow_go ARG ...: go on a new thread, with no terminal to ask, on the
# answer that calls echo and get-sum, and then ends; the events of the
# two calls' outcomes (their types and tools) in $output.
allow_go() {
	rm -rf m thread.jsonl && mkdir m
	{ tool echo '<message>one</message>'
	  tool get-sum '<a>1</a><b>2</b>'; } | answer 1
	printf 'Done.\n' | answer 2
	st=0
	setsid -w llm-loop "$@" -c servers.json -t thread.jsonl Go -- \
	    "$FAKE" m </dev/null >out 2>err.raw || st=$?
	timeless <err.raw >err
	assert_equal "$st" 0
	run -0 jq -r 'select(.type == "tool_result" or .type == "error") |
	    "\(.type) \(.toolName)"' thread.jsonl
}

@test "--allow SERVER:TOOL runs that tool's calls unasked, and only them" {
	allow_go --allow everything:echo
	assert_output 'tool_result echo
error get-sum'
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"one"} -> ok (T s)
llm-loop: everything: get-sum: refused: no --allow or --yes allows it, and there is no terminal to ask
llm-loop: everything: get-sum {"a":1,"b":2} -> refused (T s)
EOF
	# the tool's name is the server's, not the markup's "local"
	allow_go --allow local:echo --allow 'local:*'
	assert_output 'error echo
error get-sum'
}

@test "--allow with a glob: SERVER:get-* runs get-sum, not echo; e*:[eg]* runs both" {
	allow_go --allow 'everything:get-*'
	assert_output 'error echo
tool_result get-sum'
	is err <<EOF
$STARTING
llm-loop: everything: echo: refused: no --allow or --yes allows it, and there is no terminal to ask
llm-loop: everything: echo {"message":"one"} -> refused (T s)
llm-loop: everything: get-sum {"a":1,"b":2} -> ok (T s)
EOF
	allow_go --allow 'e*:[eg]*'
	assert_output 'tool_result echo
tool_result get-sum'
}

@test "--allow SERVER (no colon) runs all of that server's tools; --yes runs every call" {
	allow_go --allow everything
	assert_output 'tool_result echo
tool_result get-sum'
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"one"} -> ok (T s)
llm-loop: everything: get-sum {"a":1,"b":2} -> ok (T s)
EOF
	# a server's name is whole: "every" is not everything
	allow_go --allow every
	assert_output 'error echo
error get-sum'
	allow_go --yes
	assert_output 'tool_result echo
tool_result get-sum'
}

@test "a call's server_name is its server: approval and the call go by it; a server not configured is the call's error" {
	{ printf '<tool>\n<server_name>everything</server_name>\n'
	  printf '<tool_name>echo</tool_name>\n'
	  printf '<arguments><message>one</message></arguments>\n</tool>\n'
	  printf '<tool>\n<server_name>other</server_name>\n'
	  printf '<tool_name>echo</tool_name>\n'
	  printf '<arguments><message>two</message></arguments>\n</tool>\n'
	} | answer 1
	printf 'Done.\n' | answer 2
	go --allow everything:echo --allow other -c servers.json \
	    -t thread.jsonl Go
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Go","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"one"},"toolCallId":"call-1-1","iteration":1,"serverName":"everything"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: one","iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"two"},"toolCallId":"call-1-2","iteration":1,"serverName":"other"}
{"type":"error","toolCallId":"call-1-2","toolName":"echo","error":"no server \"other\" is configured","recoverable":true,"iteration":1}
{"type":"message","role":"assistant","content":"Done.","iteration":2}
{"type":"completion","result":"Done.","iteration":2}
EOF
	thread_is_want
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"one"} -> ok (T s)
llm-loop: other: echo {"message":"two"} -> error (T s)
EOF
	prompt_is 2 tool 5
}

@test "-n reached: the error event, the message and status 1; --resume goes on" {
	tool echo '<message>1</message>' | answer 1
	tool echo '<message>2</message>' | answer 2
	go -y -n 2 -c servers.json -t thread.jsonl Echo
	assert_equal "$st" 1
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"1"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: 1","iteration":1}
{"type":"tool_call","toolName":"echo","args":{"message":"2"},"toolCallId":"call-2-1","iteration":2,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-2-1","toolName":"echo","serverName":"everything","result":"Echo: 2","iteration":2}
{"type":"error","error":"no completion after 2 iterations","recoverable":false,"iteration":2}
EOF
	thread_is_want
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"1"} -> ok (T s)
llm-loop: everything: echo {"message":"2"} -> ok (T s)
llm-loop: no completion after 2 iterations
EOF
	assert_equal "$(cat m/calls)" 2
	# one iteration: its own words
	rm -r m thread.jsonl && mkdir m
	tool echo '<message>1</message>' | answer 1
	go -q -y -n 1 -c servers.json -t thread.jsonl Echo
	assert_equal "$st" 1
	run -0 tail -n 1 thread.jsonl
	assert_output '{"type":"error","error":"no completion after 1 iteration","recoverable":false,"iteration":1}'
	is err <<<'llm-loop: no completion after 1 iteration'
	# --resume goes on from there, -n counting this run's iterations
	tool echo '<message>2</message>' | answer 2
	printf 'Done.\n' | answer 3
	go -q -y -n 2 -c servers.json -t thread.jsonl --resume
	assert_equal "$st" 0
	run -0 jq -c '[.type, .iteration, .toolCallId]' thread.jsonl
	assert_output '["message",0,null]
["tool_call",1,"call-1-1"]
["tool_result",1,"call-1-1"]
["error",1,null]
["tool_call",2,"call-2-1"]
["tool_result",2,"call-2-1"]
["message",3,null]
["completion",3,null]'
}

@test "a model's command that fails, or is killed: run again after --retries, then status 3 with its messages" {
	printf 'partial\n' | answer 1
	echo 1 >m/status.1
	echo 'model: overloaded' >m/stderr.1
	go --retries 1 -w 0 -t thread.jsonl hi
	assert_equal "$st" 3
	# its standard error comes to ours; call 2 has no reply
	is err <<'EOF'
model: overloaded
llm-loop: the model's command exits 1 (attempt 1 of 2)
fake-model: no reply number 2 in m
llm-loop: the model's command exits 1 (attempt 2 of 2)
llm-loop: no answer from the model's command after 2 attempts
EOF
	assert_equal "$(cat m/calls)" 2
	# the retry gets the same prompt
	run -0 cmp m/prompt.1 m/prompt.2
	# what the failed answer wrote stays: said and in the thread
	is out <<<partial
	is thread.jsonl <<'EOF'
{"type":"message","role":"user","content":"hi","iteration":0}
{"type":"message","role":"assistant","content":"partial","iteration":1}
EOF
	# -q: its standard error is kept and shown at the failure
	rm -r m thread.jsonl && mkdir m
	echo 'model: overloaded' >m/stderr.1
	go -q --retries 0 -t thread.jsonl hi
	assert_equal "$st" 3
	is err <<'EOF'
model: overloaded
fake-model: no reply number 1 in m
llm-loop: the model's command exits 1 (attempt 1 of 1)
llm-loop: no answer from the model's command after 1 attempt
EOF
	# ended by a signal: a failure too
	st=0
	llm-loop --retries 0 -t killed.jsonl hi -- \
	    sh -c 'cat >/dev/null; kill -KILL $$' </dev/null >out 2>err || st=$?
	assert_equal "$st" 3
	is err <<'EOF'
llm-loop: the model's command is ended by signal 9 (attempt 1 of 1)
llm-loop: no answer from the model's command after 1 attempt
EOF
}

@test "a model's command that writes nothing, or only white space: run again, then status 3" {
	: | answer 1
	printf ' \n\t\n' | answer 2
	go --retries 1 -w 0 -t thread.jsonl hi
	assert_equal "$st" 3
	is err <<'EOF'
llm-loop: the model's command writes nothing (attempt 1 of 2)
llm-loop: the model's command writes nothing (attempt 2 of 2)
llm-loop: no answer from the model's command after 2 attempts
EOF
	is thread.jsonl <<<'{"type":"message","role":"user","content":"hi","iteration":0}'
	assert_equal "$(cat m/calls)" 2
}

@test "a model's command that does not exist: status 3 at once, its name said" {
	st=0
	llm-loop -t thread.jsonl hi -- ./no-such-model </dev/null >out 2>err ||
	    st=$?
	assert_equal "$st" 3
	is err <<<'llm-loop: ./no-such-model: No such file or directory'
	is out </dev/null
	# the message is kept: --resume asks the model again
	is thread.jsonl <<<'{"type":"message","role":"user","content":"hi","iteration":0}'
}

# bg ARG ...: go, in the background, with SIGINT as it is by default (a
# shell without job control would have its background jobs ignore it);
# its process id in $pid.
bg() {
	env --default-signal=INT llm-loop "$@" -- "$FAKE" m \
	    </dev/null >out 2>err.raw &
	pid=$!
}

# waitfor FILE PATTERN: until FILE has a line matching PATTERN (grep -E),
# while llm-loop ($pid) runs; at most 20 s.
waitfor() {
	local i
	for i in $(seq 400); do
		! grep -Eq "$2" "$1" 2>/dev/null || return 0
		kill -0 "$pid"
		sleep 0.05
	done
	return 1
}

# The lines of the thread file are whole JSON, each as it was written.
thread_is_json() {
	run -0 jq -c . thread.jsonl
	assert_output "$(cat thread.jsonl)"
}

@test "SIGINT during a call: the call cancelled, each line whole, no server left; --resume goes on" {
	# the server through a script that keeps its process id
	cat >everything.sh <<EOF
#!/bin/sh
echo \$\$ >>"$BATS_TEST_TMPDIR/server.pids"
exec node "$EVERYTHING" stdio
EOF
	chmod +x everything.sh
	jq -n --arg c "$BATS_TEST_TMPDIR/everything.sh" \
	    '{mcpServers: {everything: {command: $c}}}' >servers.json
	tool trigger-long-running-operation '<duration>60</duration><steps>600</steps>' |
	    answer 1
	bg -y -c servers.json -t thread.jsonl Wait
	# the call is under way once the server tells of its progress
	waitfor err.raw 'trigger-long-running-operation: 1/600$'
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	assert_equal "$st" 130
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Wait","iteration":0}
{"type":"tool_call","toolName":"trigger-long-running-operation","args":{"duration":60,"steps":600},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"error","toolCallId":"call-1-1","toolName":"trigger-long-running-operation","serverName":"everything","error":"the call was cancelled: llm-loop was stopped","recoverable":true,"iteration":1}
EOF
	thread_is_want
	thread_is_json
	# stderr: the server's words (its progress too), no call line
	run -0 grep -Ev '^everything: trigger-long-running-operation: [0-9]+/600$' err.raw
	assert_output "$STARTING"
	run -0 cat server.pids
	assert_equal "${#lines[@]}" 1
	run -1 kill -0 "${lines[0]}"
	# the next run goes on from the thread as it is
	printf 'It was cancelled.\n' | answer 2
	go -y -c servers.json -t thread.jsonl --resume
	assert_equal "$st" 0
	cat >>want.jsonl <<'EOF'
{"type":"message","role":"assistant","content":"It was cancelled.","iteration":2}
{"type":"completion","result":"It was cancelled.","iteration":2}
EOF
	thread_is_want
	is out <<<'It was cancelled.'
	prompt_is 2 tool 3
	for p in $(cat server.pids); do
		run -1 kill -0 "$p"
	done
}

@test "SIGINT while the model writes: the model's command ended, nothing of its answer added" {
	echo 37.25 >m/sleep.1
	printf 'Never said.\n' | answer 1
	bg -t thread.jsonl hi
	waitfor m/pid.1 '^[0-9]+$'
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	assert_equal "$st" 130
	is thread.jsonl <<<'{"type":"message","role":"user","content":"hi","iteration":0}'
	is out </dev/null
	is err.raw </dev/null
	# the model's command and its sleep are gone
	run -1 kill -0 "$(cat m/pid.1)"
	run -1 pgrep -fx 'sleep 37.25'
}

@test "the lock: a second run on a thread in use is refused, status 3, the thread untouched" {
	echo 30 >m/sleep.1
	printf 'First.\n' | answer 1
	bg -t thread.jsonl first
	waitfor m/pid.1 '^[0-9]+$'
	st=0
	llm-loop -t thread.jsonl second -- "$FAKE" m </dev/null >out2 2>err2 ||
	    st=$?
	assert_equal "$st" 3
	is err2 <<<'llm-loop: thread.jsonl: in use by another llm-loop'
	is out2 </dev/null
	# the model was not run again; the first run goes on
	assert_equal "$(cat m/calls)" 1
	kill -0 "$pid"
	is thread.jsonl <<<'{"type":"message","role":"user","content":"first","iteration":0}'
	# --resume alike; --dry-run only reads, and takes no lock
	st=0
	llm-loop -t thread.jsonl --resume -- "$FAKE" m </dev/null >out2 \
	    2>err2 || st=$?
	assert_equal "$st" 3
	is err2 <<<'llm-loop: thread.jsonl: in use by another llm-loop'
	run -0 --separate-stderr llm-loop --dry-run -t thread.jsonl third -- \
	    "$FAKE" m
	{ cat thread.jsonl
	  echo '{"type":"message","role":"user","content":"third","iteration":1}'
	} | thread-serialize >want.dry
	assert_output "$(cat want.dry)"
	assert_equal "$stderr" ''
	assert_equal "$(cat m/calls)" 1
	# SIGTERM ends the first as SIGINT would: the thread as it was
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	assert_equal "$st" 143
	is thread.jsonl <<<'{"type":"message","role":"user","content":"first","iteration":0}'
	run -1 kill -0 "$(cat m/pid.1)"
}

@test "-o events: each event on standard output as it is added, no prose; without -t, the same; ./.mcp.json without -c" {
	{ printf 'Let me echo.\n'; tool echo '<message>hi</message>'; } |
	    answer 1
	printf 'It said hi.\n' | answer 2
	go -o events -y -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	run -0 jq -r .type thread.jsonl
	assert_equal "$(echo $output)" 'message message tool_call tool_result message completion'
	run -0 cmp out thread.jsonl
	is err <<EOF
$STARTING
llm-loop: everything: echo {"message":"hi"} -> ok (T s)
EOF
	# without -t, the thread kept in memory: the same events; without
	# -c, the servers of ./.mcp.json
	mv thread.jsonl first.jsonl
	mv servers.json .mcp.json
	rm -r m && mkdir m
	{ printf 'Let me echo.\n'; tool echo '<message>hi</message>'; } |
	    answer 1
	printf 'It said hi.\n' | answer 2
	go -o events -q -y Echo hi
	assert_equal "$st" 0
	run -0 cmp out first.jsonl
	is err </dev/null
	[ ! -e thread.jsonl ]
}

@test "-q: no call lines, nor the servers' words; the prose as ever" {
	{ printf 'Let me echo.\n'; tool echo '<message>hi</message>'; } |
	    answer 1
	# an answer without its last newline: the prose shown ends its line
	printf 'It said hi.' | answer 2
	go -q -y -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	is err </dev/null
	printf 'Let me echo.\n\nIt said hi.\n' | is out
	run -0 jq -r .type thread.jsonl
	assert_equal "$(echo $output)" 'message message tool_call tool_result message completion'
}

@test "--dry-run: the first prompt on standard output; no model run, no thread file made" {
	go --dry-run -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	echo '{"type":"message","role":"user","content":"Echo hi","iteration":0}' >want.jsonl
	want_prompt tool 1 >want.prompt
	run -0 cmp want.prompt out
	is err <<<"$STARTING"
	[ ! -e thread.jsonl ]
	[ ! -e m/calls ]
	# on a thread that is there: its next message, the file untouched
	printf '{"type":"message","role":"user","content":"a","iteration":0}\n{"type":"completion","result":"b","iteration":1}\n' >thread.jsonl
	cp thread.jsonl before.jsonl
	go --dry-run -t thread.jsonl Next
	assert_equal "$st" 0
	{ cat thread.jsonl
	  echo '{"type":"message","role":"user","content":"Next","iteration":2}'
	} | thread-serialize | is out
	run -0 cmp before.jsonl thread.jsonl
	[ ! -e m/calls ]
}

@test "--system FILE: its text first in every prompt, a newline added when it lacks one" {
	printf 'You are terse.\nAnswer in one line.' >system.txt
	tool echo '<message>hi</message>' | answer 1
	printf 'hi\n' | answer 2
	go -y --system system.txt -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo hi","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":1}
{"type":"message","role":"assistant","content":"hi","iteration":2}
{"type":"completion","result":"hi","iteration":2}
EOF
	thread_is_want
	for n in 1:1 2:3; do
		{ printf 'You are terse.\nAnswer in one line.\n\n'
		  want_prompt tool "${n#*:}"; } >want.prompt
		run -0 cmp want.prompt "m/prompt.${n%:*}"
	done
	# no servers: no tools' prompt, the system prompt then the thread
	rm -r m thread.jsonl && mkdir m
	printf 'Hello.\n' | answer 1
	printf 'Be brief.\n' >system.txt
	go --system system.txt -t thread.jsonl Hi
	assert_equal "$st" 0
	{ printf 'Be brief.\n\n'
	  echo '{"type":"message","role":"user","content":"Hi","iteration":0}' |
	      thread-serialize; } | is m/prompt.1
}

USAGE='usage: llm-loop [-hqy] [--allow PATTERN] [--begins-in-reasoning auto|yes|no]
                [-c FILE] [--cacert FILE] [--dry-run]
                [--errors=github|json|text] [--format NAME]
                [--max-prompt BYTES] [-n MAX] [-o prose|events] [--resume]
                [--retries N] [--root DIR] [--server NAME=COMMAND|URL]
                [--system FILE] [-T SECONDS] [-t FILE] [-w SECONDS]
                [MESSAGE ...] -- COMMAND [ARG ...]'

# usage MESSAGE ARG ...: llm-loop ARG ... (standard input empty) is a
# usage error: "llm-loop: MESSAGE", the usage, status 2, nothing made.
usage() {
	local msg=$1
	shift
	run -2 --separate-stderr llm-loop "$@" </dev/null
	assert_output ''
	assert_equal "$stderr" "llm-loop: $msg
$USAGE"
	[ ! -e m/calls ]
	[ ! -e thread.jsonl ]
}

@test "usage errors: their words, the usage, status 2; nothing run or made" {
	usage 'no model command: give it after --' -t thread.jsonl hi
	usage 'no model command: give it after --' -t thread.jsonl hi --
	usage 'no message: give it as operands or on standard input' \
	    -t thread.jsonl -- "$FAKE" m
	run -2 --separate-stderr llm-loop -t thread.jsonl -- "$FAKE" m \
	    <<<$' \t\n'
	assert_equal "$stderr" "llm-loop: no message: give it as operands or on standard input
$USAGE"
	usage '--resume takes no message' --resume -t thread.jsonl hi -- \
	    "$FAKE" m
	usage '--resume goes with -t FILE' --resume -- "$FAKE" m
	usage '-n must be a whole number from 1 to 1000000, not "0"' -n 0 \
	    -t thread.jsonl hi -- "$FAKE" m
	usage '-n must be a whole number from 1 to 1000000, not "x"' -n x \
	    -t thread.jsonl hi -- "$FAKE" m
	usage '--format auto reads calls but cannot be taught to a model: name one markup' \
	    --format auto -t thread.jsonl hi -- "$FAKE" m
	# what follows -- is the model's, options too
	run -0 --separate-stderr llm-loop --dry-run hi -- "$FAKE" -n 0
	assert_output "$(echo '{"type":"message","role":"user","content":"hi","iteration":0}' |
	    thread-serialize)"
	# --resume on a thread that is not there, or empty: no usage text
	run -2 --separate-stderr llm-loop --resume -t thread.jsonl -- "$FAKE" m
	assert_equal "$stderr" 'llm-loop: --resume: thread.jsonl holds no conversation'
	[ ! -e thread.jsonl ]
	: >thread.jsonl
	run -2 --separate-stderr llm-loop --resume -t thread.jsonl -- "$FAKE" m
	assert_equal "$stderr" 'llm-loop: --resume: thread.jsonl holds no conversation'
	[ ! -e m/calls ]
}

@test "a thread file that is not a thread: where, and status 1; nothing added" {
	printf '{"type":"message","role":"user","content":"a","iteration":0}\n[1]\n' >thread.jsonl
	cp thread.jsonl before.jsonl
	run -1 --separate-stderr llm-loop -t thread.jsonl hi -- "$FAKE" m
	assert_equal "$stderr" 'thread.jsonl:2:1: error: not a thread event: not an object'
	run -0 cmp before.jsonl thread.jsonl
	[ ! -e m/calls ]
}

@test "--max-prompt: past it, the old iterations summarised by the model; the summary in their place in the prompt" {
	tool echo '<message>hi</message>' | answer 1
	printf 'It said hi.\n' | answer 2
	go -q -y -c servers.json -t thread.jsonl Echo hi
	assert_equal "$st" 0
	# the summary's answer: its reasoning left out, its call not run
	{ printf '<think>Keep it short.</think>\nAsked to echo hi; echo said hi.\n'
	  tool echo '<message>not run</message>'; } | answer 3
	printf 'Bye.\n' | answer 4
	cat >want.jsonl <<'EOF'
{"type":"message","role":"user","content":"Echo hi","iteration":0}
{"type":"tool_call","toolName":"echo","args":{"message":"hi"},"toolCallId":"call-1-1","iteration":1,"serverName":"local"}
{"type":"tool_result","toolCallId":"call-1-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":1}
{"type":"message","role":"assistant","content":"It said hi.","iteration":2}
{"type":"completion","result":"It said hi.","iteration":2}
{"type":"message","role":"user","content":"Now say bye","iteration":3}
{"type":"summary","summary":"Asked to echo hi; echo said hi.","summarizedIterations":[0,1,2],"iteration":2}
{"type":"message","role":"assistant","content":"Bye.","iteration":4}
{"type":"completion","result":"Bye.","iteration":4}
EOF
	# a bound one byte short of the prompt the thread would make
	max=$(($(want_prompt tool 6 | wc -c) - 1))
	go -y --max-prompt "$max" -c servers.json -t thread.jsonl Now say bye
	assert_equal "$st" 0
	thread_is_want
	is out <<<'Bye.'
	is err <<<"$STARTING"
	# the summary's prompt: the old iterations' thread, then the ask
	{ head -n 5 want.jsonl | thread-serialize
	  echo "Summarise the thread above for your own later use: the user's requests, what was done, what was found, what remains. Write only the summary."
	} | is m/prompt.3
	# the next prompt: the summary in the place of the events it holds
	{ sed -n 7p want.jsonl; sed -n 6p want.jsonl; } >folded.jsonl
	{ tools_prompt tool; echo; thread-serialize folded.jsonl; } |
	    is m/prompt.4
	run -0 test "$(wc -c <m/prompt.4)" -le "$max"
	# thread-serialize folds the summary alike in the file: up to the
	# summary, the prompt's thread; all of it, the summary and the rest
	{ tools_prompt tool; echo; head -n 7 thread.jsonl | thread-serialize; } |
	    is m/prompt.4
	sed -n 8,9p want.jsonl >>folded.jsonl
	thread-serialize folded.jsonl >want.folded
	thread-serialize thread.jsonl | is want.folded
	# a third run past the bound: a summary of the summary and what
	# followed it, which folds them both
	printf 'Hi echoed, then bye said.\n' | answer 5
	printf 'Again.\n' | answer 6
	max=$(($(wc -c <m/prompt.4) - 1))
	go -q -y --max-prompt "$max" -c servers.json -t thread.jsonl One more
	assert_equal "$st" 0
	cat >>want.jsonl <<'EOF'
{"type":"message","role":"user","content":"One more","iteration":5}
{"type":"summary","summary":"Hi echoed, then bye said.","summarizedIterations":[0,1,2,3,4],"iteration":4}
{"type":"message","role":"assistant","content":"Again.","iteration":6}
{"type":"completion","result":"Again.","iteration":6}
EOF
	thread_is_want
	{ head -n 9 want.jsonl | thread-serialize
	  echo "Summarise the thread above for your own later use: the user's requests, what was done, what was found, what remains. Write only the summary."
	} | is m/prompt.5
	{ sed -n 11p want.jsonl; sed -n 10p want.jsonl; } >folded.jsonl
	{ tools_prompt tool; echo; thread-serialize folded.jsonl; } |
	    is m/prompt.6
	sed -n 12,13p want.jsonl >>folded.jsonl
	thread-serialize folded.jsonl >want.folded
	thread-serialize thread.jsonl | is want.folded
}
