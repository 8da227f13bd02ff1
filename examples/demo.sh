#!/bin/sh
# The llmkit demo, run by `make demo` with the freshly built tools first on
# PATH: real pipelines over the files in examples/, each shown as a command
# and its output. It exits 0 only when every tool behaved as its manual
# page says (a failing status is checked, never ignored).

cd "$(dirname "$0")/.." || exit 3

t=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-demo.XXXXXX") || exit 3
trap 'rm -rf "$t"' EXIT
trap 'exit 130' INT TERM

heading() {
	printf '\n== %s\n' "$*"
}

# Shows a command as typed, then runs it; sets st to its exit status.
run() {
	printf '$ %s\n' "$1"
	eval "$1"
	st=$?
}

fail() {
	printf 'demo: FAILED: %s\n' "$*" >&2
	exit 1
}

# Insists that the last run ended with the expected status, and shows the
# status when it is not 0.
status_is() {
	[ "$st" -eq 0 ] || printf '(exit status %s)\n' "$st"
	[ "$st" -eq "$1" ] || fail "expected exit status $1, got $st"
}

heading "thread-serialize: an agent's log (JSON lines) becomes a prompt"
run 'thread-serialize --response-prefix "Based on the above thread, I will now" examples/thread.jsonl'
status_is 0
echo "(event 1, of the unknown type \"plan\", is skipped but keeps its id;"
echo " the terminal colour codes in the test output, which XML 1.0 forbids,"
echo " became U+FFFD; each warning names the line and column)"

heading "The same events as one JSON array give the same bytes"
run 'thread-serialize examples/thread.jsonl 2>/dev/null >"$t/lines.xml"'
status_is 0
run 'thread-serialize examples/thread.json 2>/dev/null >"$t/array.xml"'
status_is 0
run 'cmp "$t/lines.xml" "$t/array.xml" && echo identical'
status_is 0

heading "Only the events of iteration 3, picked with node (ids restart at 0)"
run 'node -e '\''for (const l of require("fs").readFileSync(0, "utf8").split("\n")) if (l && JSON.parse(l).iteration === 3) console.log(l)'\'' <examples/thread.jsonl | thread-serialize --response-prefix "Based on the above thread, I will now"'
status_is 0

heading "A broken log: every problem reported, nothing written, status 1"
run 'thread-serialize examples/broken.jsonl >"$t/broken.xml"'
status_is 1
[ ! -s "$t/broken.xml" ] || fail "output was written for a broken input"
echo "(nothing on stdout)"

heading "The same diagnostics as JSON lines, for programs (--errors=json)"
run 'thread-serialize --errors=json examples/broken.jsonl 2>&1 >/dev/null'
status_is 1
run 'thread-serialize --errors=json examples/broken.jsonl 2>&1 >/dev/null | node -e '\''for (const l of require("fs").readFileSync(0, "utf8").split("\n")) if (l) { const d = JSON.parse(l); console.log(d.severity, d.rule, "on line", d.line) }'\'''
status_is 0

heading "--strict: the two warnings of the first run become errors"
run 'thread-serialize --strict examples/thread.jsonl >/dev/null'
status_is 1

heading "The document is well-formed XML 1.0 (checked without the prefix)"
run 'thread-serialize examples/thread.jsonl 2>/dev/null | xmllint --noout - && echo well-formed'
status_is 0
run 'thread-serialize examples/thread.jsonl 2>/dev/null | xmllint --xpath "string(//event[@type=\"completion\"])" -'
status_is 0

heading "llmq-encode: a question and its context become an <llmQuery>"
run 'llmq-encode -t family-planning-2025 -n 12 -s "family planning" -s "education costs" -k children -k university "How much should we save for college? <about \$50k & up>"'
status_is 0

heading "The query reads back exactly through llmr-validate -o json"
run 'llmq-encode -t demo -k "a&b" "Two lines,
with <tags> & \"quotes\"" | llmr-validate -o json'
status_is 0

heading "llmr-validate: a model's reply checked against the contract"
run 'llmr-validate examples/reply.xml && echo valid'
status_is 0
run 'llmr-validate -o json examples/reply.xml'
status_is 0

heading "A reply that breaks the contract: every problem, with -W the advice too"
run 'llmr-validate -W examples/bad-reply.xml'
status_is 1

heading "--feedback: what llm-retry would send back to the model"
run 'llmr-validate --feedback examples/bad-reply.xml 2>/dev/null | head -n 4'
status_is 0

heading "--find: the reply inside a chat transcript, positions in the whole file"
run 'llmr-validate --find -o text examples/chat.md'
status_is 0

heading "toolcall-parse: the tool calls in a model's streamed answer, one JSON line each"
run 'toolcall-parse examples/model-output.txt'
status_is 0
echo "(the prose and the code fence are passed over; the last call has no"
echo " <server_name>, so \"local\"; &amp;&amp; is decoded, 120 is a number, and the"
echo " CDATA content comes out byte for byte)"

heading "Each call is written the moment its </tool> arrives, while the model still writes"
run '{ sed -n "1,11p" examples/model-output.txt; sleep 1; echo "(the model is still writing)" >&2; sed -n "12,\$p" examples/model-output.txt; } | toolcall-parse | while IFS= read -r call; do echo "got $(printf "%s\n" "$call" | cut -d, -f2)"; done'
status_is 0

heading "--events: the prose, the calls and the errors, in order"
run 'toolcall-parse --events examples/model-output.txt'
status_is 0

heading "A malformed call and a truncated one: reported with line and column, skipped, status 1"
run 'toolcall-parse examples/bad-calls.txt'
status_is 1
echo "(the good call is still written)"

heading "The same as events: the error, with the text the model wrote, can go back to it"
run 'toolcall-parse --events examples/bad-calls.txt 2>/dev/null'
status_is 1

heading "A bare & is taken as text with a warning; --strict rejects the call"
run 'printf "%s\n" "<tool><tool_name>sh</tool_name><arguments><c>ls && pwd</c></arguments></tool>" | toolcall-parse'
status_is 0
run 'printf "%s\n" "<tool><tool_name>sh</tool_name><arguments><c>ls && pwd</c></arguments></tool>" | toolcall-parse --strict'
status_is 1

heading "A reasoning model drafts a call while it thinks: only the call it makes is written"
run 'cat examples/reasoning-output.txt'
run 'toolcall-parse --format auto examples/reasoning-output.txt'
status_is 0
run 'toolcall-parse --format auto --events --reasoning events examples/reasoning-output.txt | grep -c "\"type\":\"reasoning\""'
status_is 0
echo "(delete_all, drafted inside <think>, is never a call; --reasoning events"
echo " keeps the thinking as events of its own)"

heading "--format: the markup of each open-model family, gpt-oss's harmony and Llama 4's pythonic among them"
run 'toolcall-parse --format auto examples/gpt-oss-output.txt'
status_is 0
run 'printf "%s\n" "[get_weather(city=\"Oslo\", days=3), get_time()]" | toolcall-parse --format pythonic'
status_is 0

heading "--format openai: the calls an OpenAI-compatible server parsed, from its SSE stream, with the prose"
run 'toolcall-parse --format openai --thread --iteration 1 --tools examples/file-tools.json examples/openai-stream.sse | cut -c1-120'
status_is 0

heading "--print-prompt --format F teaches the tools in the model's own markup"
run 'toolcall-parse --print-prompt --format hermes --tools examples/file-tools.json | sed -n "1,6p"'
status_is 0

heading "jsonresp-check: a model's JSON answer checked against the response schema"
run 'jsonresp-check examples/response.json && echo valid'
status_is 0

heading "An invalid answer: every error at its line and column, the seed's rules too, status 1"
run 'jsonresp-check examples/bad-response.json'
status_is 1
echo "(a suggestion written as a plain string, \"label\" for \"text\", a duplicate"
echo " field id, a select without options, a scale whose min is not below its max)"

heading "--feedback: the line to send back to the model so that it corrects itself"
run 'jsonresp-check -q --feedback examples/bad-response.json'
status_is 1

heading "--lines: a capture of answers, one a line; the emergency on line 3 wins, status 5"
run 'jsonresp-check --lines examples/responses.jsonl'
status_is 5

heading "The emergency alone: valid, but the conversation must be blocked (status 5)"
run 'sed -n 3p examples/responses.jsonl | jsonresp-check'
status_is 5

heading "A Draft-04 schema that uses const: the lint names the keyword, every answer fails"
run 'echo '\''{"name": "Notes", "display": "standalone"}'\'' | jsonresp-check --schema examples/web-manifest.schema.json'
status_is 1

heading "--dialect 6 reads it as its author meant: valid"
run 'echo '\''{"name": "Notes", "display": "standalone"}'\'' | jsonresp-check --dialect 6 --schema examples/web-manifest.schema.json && echo valid'
status_is 0

heading "In CI: GitHub annotations, and a JUnit report that xmllint checks against its schema"
run 'jsonresp-check --errors=github --lines examples/responses.jsonl'
status_is 5
run 'jsonresp-check -q -o junit --lines examples/responses.jsonl >"$t/report.xml"; xmllint --noout --schema t/data/junit.xsd "$t/report.xml" 2>&1 | sed "s|$t/||"'
status_is 0

heading "3,000 answers (1 MB): simdjson reads them, to the verdicts of jansson alone"
run 'awk '\''{ for (i = 0; i < 1000; i++) print }'\'' examples/responses.jsonl >"$t/big.jsonl"'
status_is 0
run 'jsonresp-check --summary --lines "$t/big.jsonl" >"$t/simd.txt" 2>&1; LLMKIT_JSON=jansson jsonresp-check --summary --lines "$t/big.jsonl" >"$t/jansson.txt" 2>&1; cmp "$t/simd.txt" "$t/jansson.txt" && tail -n 1 "$t/simd.txt"'
status_is 0
echo "(every diagnostic the same, line for line; LLMKIT_JSON chooses the engine)"

heading "llm-retry: a self-correcting call (t/fake-model stands in for the model)"
mkdir "$t/model" || exit 3
cp examples/bad-response.json "$t/model/reply.1" || exit 3
cp examples/response.json "$t/model/reply.2" || exit 3
echo "(the fake model answers with examples/bad-response.json first, then with"
echo " examples/response.json; jsonresp-check judges each answer)"
run 'echo "Plan my week of revision." | llm-retry -v -c "jsonresp-check -q --feedback" -- t/fake-model "$t/model" | jq -c .metadata'
status_is 0

heading "What the model was told on its second attempt (the indented lines of its JSON left out)"
run 'grep -v "^ " "$t/model/prompt.2" | cut -c1-150'
status_is 0

heading "Three rejected answers: nothing on stdout, the last feedback on stderr, status 1"
run 'echo "Plan my week." | llm-retry -w 0 -c "jsonresp-check -q --feedback" -- sh -c "cat >/dev/null; cat examples/bad-response.json" 2>"$t/err"'
status_is 1
run 'cut -c1-150 "$t/err"'
status_is 0

heading "llmstore: a conversation of three turns with a memory (examples/conversation.sh)"
echo "(each turn: llmstore context | llmq-encode --context | model | llmr-validate |"
echo " llmstore put; t/fake-model answers with examples/conversation/reply.N.xml)"
run 'LLMKIT_BIN=$(dirname "$(command -v llmstore)") sh examples/conversation.sh "$t/conversation" | tail -n 12'
status_is 0
[ -s "$t/conversation/llmstore.db" ] || fail "conversation.sh left no store"

heading "What the store took from the answers: the summary, version 3, and where a keyword came from"
run 'llmstore -d "$t/conversation/llmstore.db" summary family-planning-2025 | jq -r ".id, .content" | cut -c1-150'
status_is 0
run 'llmstore -d "$t/conversation/llmstore.db" trace emergency-fund | jq -c "{topicId, messageId, format}"'
status_is 0
run 'llmstore -d "$t/conversation/llmstore.db" fsck && echo "fsck: clean"'
status_is 0

heading "mcp-run: a call runs on the MCP server that has its tool"
[ -f t/mcp/node_modules/@modelcontextprotocol/server-everything/package.json ] ||
	fail "the MCP servers are not installed in t/mcp/node_modules (make deps)"
echo "(examples/servers.json names two real servers: the protocol's"
echo " \"everything\" reference server, which speaks 2025-11-25, and"
echo " t/mcp/sdk-server.mjs, on the official SDK, which speaks only 2026-07-28;"
echo " their stderr comes to ours with the server's name in front)"
run 'echo '\''{"tool_name":"sdk_add","arguments":{"a":2,"b":40}}'\'' | mcp-run -c examples/servers.json'
status_is 0

heading "mcp-run over HTTP: a remote server, three calls at once"
echo "(the everything server in its streamableHttp mode, on a free port;"
echo " mcp-run speaks Streamable HTTP to a server with a URL, -j 3 runs the"
echo " calls at once, their events in input order)"
http=$(sh t/mcp/http-launch.sh /mcp node \
    t/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js \
    streamableHttp) || fail "the everything server did not start over HTTP"
url=$(echo "$http" | sed -n 1p)
run 'for n in 1 2 3; do echo "{\"tool_name\":\"get-sum\",\"arguments\":{\"a\":$n,\"b\":40}}"; done | mcp-run -j 3 --server "everything=$url"'
status_is 0
kill -TERM -- "-$(echo "$http" | sed -n 2p)" 2>/dev/null

heading "llm-loop: the agent loop as one command (t/fake-model stands in for the model)"
mkdir "$t/loop-model" || exit 3
cp examples/llm-loop/reply.1 examples/llm-loop/reply.2 examples/llm-loop/reply.3 \
    examples/llm-loop/reply.4 "$t/loop-model" || exit 3
echo "(the model's command gets the tools' prompt and the thread on its stdin;"
echo " it answers with examples/llm-loop/reply.1, two calls, then reply.2;"
echo " --allow runs every tool of the everything server and the sdk server's"
echo " sdk_add without asking; the prose goes to stdout, a line per call and"
echo " the servers' messages to stderr)"
run 'llm-loop --allow everything --allow sdk:sdk_add -c examples/servers.json -t "$t/thread.jsonl" "Repeat my note and add up my two bills." -- t/fake-model "$t/loop-model"'
status_is 0

heading "The thread it left (-t): each event as it happened, one JSON line each"
run 'cut -c1-150 "$t/thread.jsonl"'
status_is 0
grep -q '"serverName":"sdk","result":"1337.5"' "$t/thread.jsonl" ||
	fail "the loop's thread lacks the sum"
[ "$(tail -n 1 "$t/thread.jsonl" | jq -r .type)" = completion ] ||
	fail "the loop's thread does not end with its completion"

heading "A second run continues the thread; -o events shows each event as it is added"
echo "(the iterations go on from the first run's; -y runs every call)"
run 'llm-loop -y -o events -c examples/servers.json -t "$t/thread.jsonl" "Now double the total." -- t/fake-model "$t/loop-model" 2>/dev/null'
status_is 0
grep -q '"result":"2675"' "$t/thread.jsonl" ||
	fail "the second run's thread lacks the double"

heading "What the model was given in the second run: the whole thread after the tools"
run 'sed -n "/^<thread>/,\$p" "$t/loop-model/prompt.3" | cut -c1-150'
status_is 0

heading "Hostile answers: a key given twice, a nesting bomb, an endless input"
echo "(a model's output is untrusted: each ends in a clear error, never a crash,"
echo " a lost call or a read without end)"
run 'printf '\''{"type":"response","safety":{"is_safe":true,"danger_level":"emergency","danger_level":null}}'\'' | jsonresp-check'
status_is 1
run '{ python3 -c "print(\"<tool><tool_name>x</tool_name><arguments>\" + \"<a>\" * 100000 + \"</tool>\")"; echo "<tool><tool_name>ok</tool_name></tool>"; } | toolcall-parse'
status_is 1
run 'llmr-validate /dev/zero'
status_is 1

printf '\ndemo: every pipeline behaved as documented\n'
