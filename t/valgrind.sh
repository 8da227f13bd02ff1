#!/bin/sh
# Runs every tool (the ones on PATH) under valgrind on a few inputs that
# take its main paths: clean input, invalid input, warnings, JSON
# diagnostics, standard input and a failed write. Each run is "ok" when
# valgrind found no error or leak and the tool exited with the status it
# should. Prints TAP, the plan last; t/run-tests runs it when
# LLMKIT_VALGRIND=1.
top=$(cd "$(dirname "$0")/.." && pwd) || exit 3
data="$top/t/data/thread-serialize"
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# check WANT NAME INPUT ARG...: runs $tool ARG... with INPUT on
# stdin, output thrown away, and wants exit status WANT and a quiet
# valgrind. NAME says what the run is.
check() {
	want=$1
	name=$2
	in=$3
	shift 3
	vg "$@" <"$in" >"$tmp/out"
	verdict "$want" "$name"
}

# vg ARG...: $tool ARG... under valgrind (after $vg_pre, a command that
# runs it, when set); sets got.
vg() {
	${vg_pre-} valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
	    --child-silent-after-fork=yes --suppressions="$top/t/valgrind.supp" \
	    --errors-for-leak-kinds=all --log-file="$tmp/log" \
	    "$tool" "$@" 2>"$tmp/err"
	got=$?
}

# verdict WANT NAME: one TAP line; on failure valgrind's log and the
# tool's stderr follow as comments.
verdict() {
	n=$((n + 1))
	if [ "$got" -eq "$1" ] && [ ! -s "$tmp/log" ]; then
		echo "ok $n - $2 (status $got)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2 (status $got, want $1)"
		sed 's/^/# /' "$tmp/log" "$tmp/err"
	fi
}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "not ok 1 - valgrind is not installed"
	echo "1..1"
	exit 1
fi
for tool in thread-serialize llmq-encode llmr-validate toolcall-parse \
    jsonresp-check llm-retry llmstore mcp-run llm-loop; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "not ok 1 - $tool is not on PATH"
		echo "1..1"
		exit 1
	fi
done

tool=thread-serialize

check 0 "the golden thread" /dev/null "$data/all-types.jsonl"
check 0 "an array with -n and a prefix" /dev/null \
    -n --response-prefix 'I will now' "$data/all-types.json"
check 0 "standard input" "$data/seed.jsonl"
check 0 "special characters, --keep-summarized" /dev/null \
    --keep-summarized "$data/special.jsonl"
check 1 "special characters, a fraction in summarizedIterations" /dev/null \
    "$data/special.jsonl"
printf '%s\n' '{"type":"message","role":"user","content":"go","iteration":0}' \
    '{"type":"tool_call","toolName":"t","toolCallId":"a","args":{},"iteration":1}' \
    '{"type":"plan","iteration":1}' \
    '{"type":"summary","summary":"S1","summarizedIterations":[1],"iteration":2}' \
    '{"type":"summary","summary":"S2","summarizedIterations":[2,3],"iteration":3}' \
    '{"type":"tool_result","toolCallId":"a","result":1,"iteration":4}' \
    >"$tmp/stacked.jsonl"
check 0 "stacked summaries folded, a result named from a folded call" \
    "$tmp/stacked.jsonl"
check 1 "bad events" /dev/null "$data/bad-events.json"
check 1 "bad events, --errors=json" /dev/null --errors=json \
    "$data/bad-events.json"
check 0 "forbidden characters: warnings" /dev/null "$data/forbidden.jsonl"
check 1 "forbidden characters, --strict --errors=json" /dev/null \
    --strict --errors=json "$data/forbidden.jsonl"
printf '[{"type":"message","role":"user","content":"x","iteration":0},]' \
    >"$tmp/syntax.json"
check 1 "invalid JSON" /dev/null "$tmp/syntax.json"
printf '{"type":"message","role":"user","content":"a\377","iteration":0}\n' \
    >"$tmp/utf8.jsonl"
check 1 "invalid UTF-8, --errors=json" /dev/null --errors=json \
    "$tmp/utf8.jsonl"
check 0 "empty input" /dev/null /dev/null
check 3 "a missing file" /dev/null "$tmp/no-such-file"
check 2 "a usage error" /dev/null --errors=xml
vg "$data/all-types.jsonl" >/dev/full
verdict 3 "a failed write"

tool=llmq-encode
q="$top/t/data/llmq-encode"
check 0 "llmq-encode: the seed's query" /dev/null -t family-planning-2025 \
    -n 12 -s 'family planning' -s 'education costs' -k children \
    -k university 'How much should we save for college?'
check 0 "llmq-encode: a message on stdin, a context file" \
    "$top/t/data/llmr-validate/special.txt" --context "$q/context.json"
check 1 "llmq-encode: --from-json with bad lines" /dev/null --from-json \
    "$q/batch.jsonl"
check 1 "llmq-encode: bad arguments" /dev/null -n -1 -s 'a,b' '   '
check 2 "llmq-encode: a usage error" /dev/null --no-such-option
vg -t t message >/dev/full
verdict 3 "llmq-encode: a failed write"

tool=llmr-validate
r="$top/t/data/llmr-validate"
check 0 "llmr-validate: the seed's examples, -o json" /dev/null -o json \
    "$r/seed-query.xml" "$r/seed-response.xml"
check 0 "llmr-validate: standard input, -W -o text" "$r/special.xml" -W -o text
check 1 "llmr-validate: an invalid reply, --feedback --errors=json" \
    /dev/null --feedback --errors=json "$r/reply.xml"
check 1 "llmr-validate: --find in a transcript, --strict" /dev/null \
    --find --strict "$r/transcript.md"
check 1 "llmr-validate: billion laughs" /dev/null "$r/billion-laughs.xml"
check 3 "llmr-validate: a missing file" /dev/null "$tmp/no-such-file"
vg -o json "$r/seed-response.xml" >/dev/full
verdict 3 "llmr-validate: a failed write"

tool=toolcall-parse
cat >"$tmp/calls.txt" <<'EOF'
I will read the file first.

<tool>
<server_name>local</server_name>
<tool_name>read_file</tool_name>
<arguments>
  <path>src/main.go</path>
  <line_start>1</line_start>
  <line_end>100</line_end>
</arguments>
</tool>
Now the fix, with "]]>" split and a nested list:
<tool>
<tool_name>apply_diff</tool_name>
<arguments>
  <path>src/app.ts</path>
  <edits>
    <edit><search><![CDATA[a ]]]]><![CDATA[> b]]></search>
    <replace><![CDATA[if (x && y) { return "\n"; }]]></replace></edit>
    <edit><search>old</search><replace>new &amp; better</replace></edit>
  </edits>
  <flags>true</flags><flags>42</flags><flags>3.5e2</flags><flags>null</flags>
</arguments>
</tool>
Done: café, 日本, 😀.
EOF
cat >"$tmp/bad.txt" <<'EOF'
A mismatched tag, then a good call with a bare ampersand:
<tool><tool_name>t</tool_name><arguments><a></b></arguments></tool>
<tool><tool_name>ok</tool_name><arguments><c>ls && pwd</c></arguments></tool>
<tool><arguments/></tool> <tool><tool_name>t</tool_name><foo/></tool>
<tool><tool_name>x</tool_name><arguments><a>1<b/></a></arguments></tool>
EOF
printf 'bad UTF-8: \377\n' >>"$tmp/bad.txt"
printf '<tool><tool_name>cut</tool_name><arguments><c><![CDATA[x' \
    >>"$tmp/bad.txt"
{
	printf '<tool><tool_name>write_to_file</tool_name><arguments>'
	printf '<path>big.txt</path><content><![CDATA['
	awk 'BEGIN { for (i = 0; i < 30000; i++)
	    printf "line %d: \"quotes\" \\ <tags> & ]]\n", i }'
	printf ']]></content></arguments></tool>\n'
} >"$tmp/big.txt"
check 0 "toolcall-parse: calls in prose on standard input" "$tmp/calls.txt"
check 0 "toolcall-parse: --events -u" /dev/null --events -u "$tmp/calls.txt"
check 1 "toolcall-parse: malformed and truncated calls, --events" /dev/null \
    --events "$tmp/bad.txt"
check 1 "toolcall-parse: malformed and truncated calls, --errors=json" \
    /dev/null --errors=json "$tmp/bad.txt" "$tmp/calls.txt"
check 1 "toolcall-parse: --strict" /dev/null --strict --events \
    "$tmp/calls.txt" "$tmp/bad.txt"
check 1 "toolcall-parse: --max-size exceeded" /dev/null --max-size 100 \
    "$tmp/calls.txt" "$tmp/big.txt"
check 1 "toolcall-parse: --max-size exceeded, --events" /dev/null \
    --events --max-size 1K "$tmp/calls.txt" "$tmp/big.txt"
check 0 "toolcall-parse: a 1 MB CDATA call" "$tmp/big.txt"
check 0 "toolcall-parse: a 1 MB CDATA call, --events" /dev/null --events \
    "$tmp/big.txt"
check 3 "toolcall-parse: a missing file" /dev/null "$tmp/calls.txt" \
    "$tmp/no-such-file"
check 2 "toolcall-parse: a usage error" /dev/null --max-size 0
vg "$tmp/calls.txt" >/dev/full
verdict 3 "toolcall-parse: a failed write"

tool=jsonresp-check
cat >"$tmp/fmt.schema.json" <<'EOF'
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "title": "Contact", "description": "Who to write to.",
 "properties": {"mail": {"format": "email"},
   "ips": {"items": {"$ref": "#/$defs/ip"}}},
 "$defs": {"ip": {"format": "ipv4"}}}
EOF
printf '%s\n' '{"mail": "nope", "ips": ["1.2.3.4", "x", "y"]}' \
    '{"mail": "a@example.com"}' >"$tmp/fmt.jsonl"
cat >"$tmp/resp.json" <<'EOF'
{
  "type": "response",
  "safety": {"is_safe": true, "danger_level": null, "detected_concerns": [],
    "requires_intervention": false, "safety_message": null},
  "content": {
    "text_blocks": [{"type": "heading", "content": "Café, 日本, 😀"},
      {"type": "text", "content": "Two questions.", "style": "bold"}],
    "form": {"title": "Feedback", "fields": [
      {"id": "mood", "type": "radio", "label": "How was it?",
       "required": true, "options": [{"value": "good", "label": "Good"},
       {"value": "bad", "label": "Bad"}]},
      {"id": "score", "type": "scale", "label": "Score", "min": 1,
       "max": 10}], "submit_label": "Send"},
    "media": [{"type": "image", "url": "https://example.com/a.png"}],
    "suggestions": [{"text": "Tell me more"}, {"text": "Stop", "value": "s"}]
  },
  "progress": {"percentage": 40, "current_topic": "budget",
    "topics_covered": ["income"], "topics_remaining": ["savings"]},
  "metadata": {"model": "m", "tokens_used": 120, "confidence": 0.9,
    "language": "en"}
}
EOF
cat >"$tmp/bad.json" <<'EOF'
{
  "type": "answer",
  "safety": {"is_safe": "yes", "danger_level": "none",
    "detected_concerns": ["self_harm", "self_harm", "x"]},
  "content": {
    "text_blocks": [],
    "form": {"fields": [
      {"id": "a", "type": "select", "label": "A"},
      {"id": "a", "type": "scale", "label": "B", "min": 5, "max": 1},
      {"id": "", "type": "radio", "label": "C", "options": []}]},
    "suggestions": ["Tell me more", {"label": "x"}],
    "progress": 5
  },
  "progress": {"percentage": 140},
  "metadata": {"model_name": "m", "confidence": 2}
}
EOF
# JSON lines: valid, blank, invalid, critical, warning, truncated, text
# after the value, invalid UTF-8.
{
	tr -d '\n' <"$tmp/resp.json"
	printf '\n\n'
	tr -d '\n' <"$tmp/bad.json"
	echo
	tr -d '\n' <"$tmp/resp.json" |
	    sed 's/"danger_level": null/"danger_level": "critical"/'
	echo
	tr -d '\n' <"$tmp/resp.json" |
	    sed 's/"danger_level": null/"danger_level": "warning"/'
	echo
	printf '{"type": "response", "safety": \n'
	printf '[1, 2] 3\n'
	printf '{"a": "\377"}\n'
} >"$tmp/resp.jsonl"
{ echo '```json'; cat "$tmp/resp.json"; echo '```'; } >"$tmp/fenced.md"
{ echo 'Here it is: {not json} and'; cat "$tmp/resp.json"; echo 'Done.'; } \
    >"$tmp/prose.md"
# A user schema: a local $ref, a remote one through --ref-map, patterns
# (a lookbehind, \p{L}, patternProperties) and formats.
mkdir "$tmp/remote"
cat >"$tmp/remote/defs.json" <<'EOF'
{"definitions": {"slug": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$",
  "maxLength": 20}}}
EOF
cat >"$tmp/user.schema.json" <<'EOF'
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "http://example.com/user.schema.json",
  "type": "object",
  "required": ["name", "tags"],
  "properties": {
    "name": {"$ref": "#/definitions/name"},
    "tags": {"type": "array", "uniqueItems": true,
      "items": {"$ref": "http://localhost:1234/defs.json#/definitions/slug"}},
    "when": {"type": "string", "format": "date-time"},
    "mail": {"type": "string", "format": "email"},
    "code": {"type": "string", "pattern": "(?<=x)\\d{2,}\\p{L}?$"}
  },
  "patternProperties": {"^x-[\\w-]+$": {"type": ["string", "number"]}},
  "additionalProperties": false,
  "definitions": {"name": {"type": "string", "minLength": 1}}
}
EOF
{
	echo '{"name": "a", "tags": ["b-1", "c"], "when":' \
	    '"2024-01-02T03:04:05Z", "mail": "a@b.c", "code": "x123é", "x-y": 1}'
	echo '{"name": "", "tags": ["B", "b", "b"], "when": "yesterday",' \
	    '"mail": "no", "code": "12", "x-": [], "z": null}'
} >"$tmp/user.jsonl"
head -n 1 "$tmp/user.jsonl" >"$tmp/user.json"
printf '%s\n' '{"properties": {"a": {"pattern": "(?<a>x)\\k<b>"}}}' \
    >"$tmp/badre.schema.json"
map="http://localhost:1234/=$tmp/remote"
check 0 "jsonresp-check: a valid response with a form" /dev/null \
    "$tmp/resp.json"
check 0 "jsonresp-check: standard input, --strict" "$tmp/resp.json" --strict
check 1 "jsonresp-check: an invalid response" /dev/null "$tmp/bad.json"
check 1 "jsonresp-check: an invalid response, --errors=json" /dev/null \
    --errors=json "$tmp/bad.json" "$tmp/resp.json"
check 1 "jsonresp-check: --feedback" /dev/null --feedback "$tmp/bad.json"
# the critical line's 4 wins over the invalid lines' 1
check 4 "jsonresp-check: --lines, every kind of line" /dev/null --lines \
    "$tmp/resp.jsonl"
check 4 "jsonresp-check: --lines --feedback --errors=json" /dev/null \
    --lines --feedback --errors=json "$tmp/resp.jsonl"
grep -av critical "$tmp/resp.jsonl" >"$tmp/nocrit.jsonl"
check 1 "jsonresp-check: --lines -q, invalid lines and a warning" \
    "$tmp/nocrit.jsonl" --lines -q "$tmp/resp.json" -
check 0 "jsonresp-check: a fenced response" /dev/null "$tmp/fenced.md"
check 1 "jsonresp-check: a fenced response, --strict" /dev/null --strict \
    "$tmp/fenced.md"
check 0 "jsonresp-check: --find in prose" /dev/null --find "$tmp/prose.md"
check 1 "jsonresp-check: empty input" /dev/null /dev/null
check 0 "jsonresp-check: a user schema with \$ref and patterns" \
    "$tmp/user.json" --schema "$tmp/user.schema.json" --ref-map "$map"
check 1 "jsonresp-check: a user schema, --lines --errors=json --feedback" \
    /dev/null --schema "$tmp/user.schema.json" --ref-map "$map" --lines \
    --errors=json --feedback "$tmp/user.jsonl"
check 1 "jsonresp-check: a user schema, --no-format" /dev/null --lines \
    --no-format --schema "$tmp/user.schema.json" --ref-map "$map" \
    "$tmp/user.jsonl"
check 2 "jsonresp-check: a remote \$ref without --ref-map" /dev/null \
    --schema "$tmp/user.schema.json" "$tmp/user.json"
check 2 "jsonresp-check: a schema with a bad pattern" /dev/null \
    --schema "$tmp/badre.schema.json" "$tmp/user.json"
cat >"$tmp/lint.schema.json" <<'EOF'
{"$schema": "http://json-schema.org/draft-04/schema#",
 "requried": ["a"], "x-note": {"tpye": 1},
 "properties": {"a": {"oneOf": [{"const": 1}, {"const": 2}]},
  "b": {"$ref": "#/definitions/b", "type": "string"}},
 "definitions": {"b": {"$ref": "lint-more.json"}}}
EOF
echo '{"minimun": 0}' >"$tmp/lint-more.json"
echo '{"a": 1, "b": "x"}' >"$tmp/lint.json"
check 1 "jsonresp-check: the lint's warnings, a sibling file's dialect" \
    /dev/null --schema "$tmp/lint.schema.json" "$tmp/lint.json"
check 0 "jsonresp-check: --dialect 6, --errors=json" /dev/null \
    --dialect 6 --errors=json --schema "$tmp/lint.schema.json" \
    "$tmp/lint.json"
check 2 "jsonresp-check: --strict-schema" /dev/null --strict-schema \
    --schema "$tmp/lint.schema.json" "$tmp/lint.json"
check 2 "jsonresp-check: --custom-keyword, --strict-schema" /dev/null \
    --custom-keyword requried --custom-keyword x,minimun --strict-schema \
    --schema "$tmp/lint.schema.json" "$tmp/lint.json"
check 2 "jsonresp-check: --custom-keyword, then a usage error" /dev/null \
    --custom-keyword requried --no-such-option
check 0 "jsonresp-check: --print-prompt" /dev/null --print-prompt
check 0 "jsonresp-check: --print-schema of a user schema" /dev/null \
    --print-schema --schema "$tmp/user.schema.json"
check 0 "jsonresp-check: --print-prompt of a user schema" /dev/null \
    --print-prompt --schema "$tmp/fmt.schema.json"
check 0 "jsonresp-check: format annotations that fail, warnings" \
    /dev/null --lines -o report --summary --schema "$tmp/fmt.schema.json" \
    "$tmp/fmt.jsonl"
check 1 "jsonresp-check: a schema given as an operand" /dev/null \
    "$tmp/fmt.schema.json"
# libidn2, loaded when a label first needs it, and when it cannot be
printf '%s\n' '{"properties": {"h": {"format": "idn-hostname"}}}' \
    >"$tmp/idn.schema.json"
printf '{"h": "b\303\274cher.example"}\n{"h": "xn--bcher-kva.example"}\n' \
    >"$tmp/idn.jsonl"
check 0 "jsonresp-check: idn-hostname, libidn2 loaded" /dev/null --lines \
    --schema "$tmp/idn.schema.json" "$tmp/idn.jsonl"
vg_pre="env LLMKIT_LIBIDN2=$tmp/no-libidn2.so"
check 3 "jsonresp-check: idn-hostname, libidn2 not loaded" /dev/null \
    --lines -o junit --schema "$tmp/idn.schema.json" "$tmp/idn.jsonl"
# PCRE2, loaded when a pattern is first compiled (the user schema above),
# and when it cannot be: at the schema's compile, and for format regex
printf '%s\n' '{"properties": {"a": {"pattern": "^x"}}}' \
    >"$tmp/pcre.schema.json"
printf '%s\n' '{"properties": {"r": {"format": "regex"}}}' \
    >"$tmp/regex.schema.json"
printf '{"r": "a+"}\n{"r": "("}\n' >"$tmp/regex.jsonl"
vg_pre="env LLMKIT_LIBPCRE2=$tmp/no-libpcre2.so"
check 3 "jsonresp-check: a pattern, PCRE2 not loaded" /dev/null \
    --schema "$tmp/pcre.schema.json" "$tmp/resp.json"
check 3 "jsonresp-check: format regex, PCRE2 not loaded" /dev/null \
    --lines -o report --schema "$tmp/regex.schema.json" "$tmp/regex.jsonl"
unset vg_pre
check 1 "jsonresp-check: format regex, PCRE2 loaded" /dev/null \
    --lines --schema "$tmp/regex.schema.json" "$tmp/regex.jsonl"
check 0 "jsonresp-check: -h" /dev/null -h
check 3 "jsonresp-check: a missing file" /dev/null "$tmp/resp.json" \
    "$tmp/no-such-file"
check 2 "jsonresp-check: a usage error" /dev/null --errors=xml
vg --feedback "$tmp/bad.json" >/dev/full
verdict 3 "jsonresp-check: a failed write"

tool=llm-retry
printf 'What is 6 x 7?\n' >"$tmp/q.txt"
head -c 1000000 /dev/urandom >"$tmp/big.bin"
# A model whose answer is right from the second attempt on.
printf '%s\n' '#!/bin/sh' 'cat >/dev/null' \
    'if [ "$LLM_RETRY_ATTEMPT" -ge 2 ]; then echo 42; else echo about 40; fi' \
    >"$tmp/model.sh"
chmod +x "$tmp/model.sh"
check 0 "llm-retry: accepted at once" "$tmp/q.txt" -c 'grep -q 4' -- \
    "$tmp/model.sh"
check 0 "llm-retry: rejected, then accepted" "$tmp/q.txt" -d 0 -v \
    -c 'grep -qx 42 || { echo "not a number"; exit 1; }' -- "$tmp/model.sh"
check 1 "llm-retry: never accepted, --emit-last" "$tmp/q.txt" -d 0 \
    --emit-last -c 'echo no; exit 1' -- cat
check 1 "llm-retry: the model fails" "$tmp/q.txt" -d 0 -n 2 -c true -- \
    sh -c 'exit 7'
check 1 "llm-retry: the model times out" "$tmp/q.txt" -d 0 -n 1 \
    -t 0.2 -c true -- sleep 5
check 3 "llm-retry: a model that cannot run" "$tmp/q.txt" -c true -- \
    "$tmp/no-such-model"
check 5 "llm-retry: --pass" "$tmp/q.txt" --pass 4,5 -c 'exit 5' -- cat
check 3 "llm-retry: the check fails" "$tmp/q.txt" -c 'exit 9' -- cat
check 0 "llm-retry: 1 MB through" "$tmp/big.bin" -c 'cat >/dev/null' -- cat
check 2 "llm-retry: a usage error" /dev/null -n 0 -c true -- cat
vg -c true -- cat <"$tmp/q.txt" >/dev/full
verdict 3 "llm-retry: a failed write"

tool=llmstore
db="$tmp/store.db"
python3 - "$top/examples/reply.xml" "$tmp/big.xml" <<'PY' || exit 3
import sys
x = open(sys.argv[1]).read()
open(sys.argv[2], 'w').write(x.replace('</response>', ' pad' * 400 + '</response>'))
PY
cp "$top/examples/reply.xml" "$tmp/r1.xml"
cp "$tmp/big.xml" "$tmp/r2.xml"
check 0 "llmstore: put of a response" "$top/examples/reply.xml" -d "$db" \
    put -t fam -m m1
check 0 "llmstore: put of a large response (a blob)" "$tmp/big.xml" \
    -d "$db" put -t fam -m m2
check 0 "llmstore: put --batch" /dev/null -d "$db" put --batch -t b \
    "$tmp/r1.xml" "$tmp/r2.xml"
mkdir "$tmp/many"
i=0
while [ "$i" -lt 300 ]; do
	cp "$top/examples/reply.xml" "$tmp/many/many$i.xml"
	i=$((i + 1))
done
check 0 "llmstore: put --batch of 300 responses (pairs folded)" /dev/null \
    -d "$db" put --batch -t many "$tmp"/many/many*.xml
check 1 "llmstore: put of an invalid document" "$top/examples/bad-reply.xml" \
    -d "$db" put -t fam -m m3
check 1 "llmstore: put of a stored message id, other bytes" \
    "$tmp/big.xml" -d "$db" put -t fam -m m1
check 0 "llmstore: ls" /dev/null -d "$db" ls -t fam
check 0 "llmstore: cat -m" /dev/null -d "$db" cat -m m2
check 0 "llmstore: context" /dev/null -d "$db" context fam
check 0 "llmstore: keywords, subjects, summary" /dev/null -d "$db" \
    keywords fam
check 0 "llmstore: subjects" /dev/null -d "$db" subjects fam
check 0 "llmstore: summary" /dev/null -d "$db" summary fam
check 0 "llmstore: trace" /dev/null -d "$db" trace 529-plan
check 0 "llmstore: prompt set" "$top/examples/reply.xml" -d "$db" \
    prompt set -M m
check 0 "llmstore: fsck" /dev/null -d "$db" fsck
vg -d "$db" export <"$tmp/q.txt" >"$tmp/export.jsonl"
verdict 0 "llmstore: export"
check 0 "llmstore: import" "$tmp/export.jsonl" -d "$tmp/copy.db" import
check 1 "llmstore: import into a store that has it all" \
    "$tmp/export.jsonl" -d "$tmp/copy.db" import
check 0 "llmstore: rm" /dev/null -d "$db" rm -m m2
check 3 "llmstore: a store that is not one" /dev/null -d "$tmp/q.txt" ls
check 2 "llmstore: a usage error" /dev/null -d "$db" put -t x
vg -d "$db" ls <"$tmp/q.txt" >/dev/full
verdict 3 "llmstore: a failed write"
sed '0,/"seq":[0-9]*/s//"seq":9223372036854775807/' "$tmp/export.jsonl" \
    >"$tmp/crafted.jsonl"
check 1 "llmstore: import of a crafted export" "$tmp/crafted.jsonl" \
    -d "$tmp/crafted.db" import
cp "$tmp/copy.db" "$tmp/bad.db"
sqlite3 "$tmp/bad.db" "UPDATE keyword SET score = 5" 2>/dev/null || :
check 1 "llmstore: fsck of a crafted row" /dev/null -d "$tmp/bad.db" fsck
check 1 "llmstore: put of /dev/zero" /dev/zero -d "$db" put -t z -m z
check 2 "llmstore: a topic that is not UTF-8" /dev/null -d "$db" \
    ls -t "$(printf 't\377')"

# Hostile inputs (issue 13): the limits and the paths they take.
python3 - "$tmp" <<'PY' || exit 3
import sys
d = sys.argv[1]
open(d + "/regex.json", "w").write('"' + "(?:" * 300 + ")" * 300 + '"')
open(d + "/dup.json", "w").write('{"a":1,"b":2,"a":3}')
open(d + "/anyof.json", "w").write('{"anyOf":[{"type":"array","items":'
    '{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}}]}')
open(d + "/nested.json", "w").write("[" * 30 + "]" * 30)
open(d + "/deep.xml", "w").write("<llmResponse>" + "<a>" * 5000 +
    "</a>" * 5000 + "</llmResponse>")
open(d + "/deep-call.txt", "w").write("<tool><tool_name>x</tool_name>"
    "<arguments>" + "<a>" * 5000 + "</tool>\n<tool><tool_name>ok"
    "</tool_name></tool>\n")
PY
echo '{"format":"regex"}' >"$tmp/fmt.json"
tool=jsonresp-check
check 1 "jsonresp-check: groups nested too deep" /dev/null \
    --schema "$tmp/fmt.json" "$tmp/regex.json"
check 1 "jsonresp-check: a duplicate key" "$tmp/dup.json"
check 0 "jsonresp-check: nested anyOf, remembered" /dev/null \
    --schema "$tmp/anyof.json" "$tmp/nested.json"
check 1 "jsonresp-check: /dev/zero" /dev/zero
tool=llmr-validate
check 1 "llmr-validate: nesting too deep, then a good document" /dev/null \
    "$tmp/deep.xml" "$top/examples/reply.xml"
tool=toolcall-parse
check 1 "toolcall-parse: a call nested too deep, then a good one" \
    "$tmp/deep-call.txt"
tool=thread-serialize
check 1 "thread-serialize: /dev/zero" /dev/zero

# One house (issue 14): the skeleton's paths, the operand rule, the new
# ways of reading and reporting.
printf '```xml\n<llmResponse/>\n```\n' >"$tmp/fenced.md"
printf '{"type":"response","content":{"text_blocks":[]}}\n' >"$tmp/l1.json"
awk 'BEGIN { for (i = 0; i < 300; i++) print "{\"type\":\"x\"}" }' \
    >"$tmp/lines.jsonl"
cat "$tmp/l1.json" "$tmp/lines.jsonl" >"$tmp/mixed.jsonl"
tool=llmr-validate
check 1 "llmr-validate: a fenced answer, the --find hint, JSON" /dev/null \
    --errors=json "$tmp/fenced.md"
check 3 "llmr-validate: an unreadable operand between good ones" /dev/null \
    "$top/examples/reply.xml" "$tmp/no-such" "$top/examples/reply.xml"
vg -o json "$top/examples/reply.xml" "$top/examples/reply.xml" </dev/null \
    >/dev/full
verdict 3 "llmr-validate: stdout on a full disk stops the loop"
check 0 "llmr-validate: -h" /dev/null -h
tool=jsonresp-check
check 1 "jsonresp-check: --lines, one line at a time, with feedback" \
    "$tmp/mixed.jsonl" -q --lines --feedback
vg --lines --feedback "$tmp/mixed.jsonl" </dev/null >/dev/full
verdict 3 "jsonresp-check: --lines onto a full disk"
check 3 "jsonresp-check: an unreadable operand" /dev/null "$tmp/no-such" \
    "$tmp/l1.json"
tool=toolcall-parse
vg "$tmp/deep-call.txt" "$tmp/deep-call.txt" </dev/null >/dev/full
verdict 3 "toolcall-parse: stdout on a full disk"
check 3 "toolcall-parse: an unreadable operand" /dev/null "$tmp/no-such" \
    "$tmp/deep-call.txt"
tool=llm-retry
check 0 "llm-retry: the check's standard error as the feedback" \
    "$tmp/q.txt" -w 0 \
    -c 'grep -qx 42 || { echo "not a number" >&2; exit 1; }' -- \
    "$tmp/model.sh"
check 2 "llm-retry: -T 0" "$tmp/q.txt" -T 0 -c true -- cat
tool=llmq-encode
printf '%s\n' '{"userMessage": "m", "context": {"topicId": "t"}}' \
    >"$tmp/q.jsonl"
check 3 "llmq-encode: --from-json, an unreadable file among good ones" \
    /dev/null --from-json "$tmp/q.jsonl" "$tmp/no-such" "$tmp/q.jsonl"
tool=llmstore
check 0 "llmstore: put -h" /dev/null put -h
check 2 "llmstore: a usage error in one command" /dev/null -d "$db" summary
check 1 "llmstore: put --errors=json of a bad response" /dev/null \
    -d "$db" put --errors=json -t t -m m "$top/examples/bad-reply.xml"
check 3 "llmstore: put --batch with an unreadable file" /dev/null \
    -d "$db" put --batch -t b2 "$top/examples/reply.xml" "$tmp/no-such"
check 0 "llmstore: --version after a command" /dev/null put --version

# Any schema (issue 15): 2020-12 with $dynamicRef, unevaluated* and
# prefixItems/contains, the base of its tree in a file of its own too;
# 2019-09 with $recursiveRef, items arrays and dependentRequired.
cat >"$tmp/tree.schema.json" <<'EOF'
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.com/strict-tree.json",
  "$dynamicAnchor": "node",
  "$ref": "tree.json",
  "properties": {
    "tags": {"prefixItems": [{"type": "string"}, {"type": "integer"}],
      "contains": {"const": "root"}, "maxContains": 2,
      "unevaluatedItems": false}
  },
  "unevaluatedProperties": false,
  "$defs": {
    "tree": {"$id": "tree.json", "$dynamicAnchor": "node", "type": "object",
      "properties": {"data": true,
        "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}
  }
}
EOF
cat >"$tmp/tree.json" <<'EOF'
{"data": 1, "tags": ["a", 1, "root"], "children": [{"data": 2,
  "children": [{"data": "日本", "tags": ["b", 2, "root", "root"]}]}]}
EOF
cat >"$tmp/badtree.json" <<'EOF'
{"data": 1, "tags": ["a", "x", "y", "root", "root", "root"], "children": [
  {"data": 2, "extra": true, "children": [{"tags": [1]}, 3]}]}
EOF
python3 - "$tmp" <<'PY' || exit 3
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/tree.schema.json"))
base = s["$defs"].pop("tree")
base["$schema"] = s["$schema"]
base["$id"] = "https://example.com/tree.json"
json.dump(base, open(d + "/tree-base.json", "w"))
json.dump(s, open(d + "/tree-ext.schema.json", "w"))
PY
cat >"$tmp/rtree.schema.json" <<'EOF'
{
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://example.com/strict-rtree.json",
  "$recursiveAnchor": true,
  "$ref": "rtree.json",
  "properties": {"pair": {"items": [{"type": "string"}, true],
    "unevaluatedItems": false}},
  "dependentRequired": {"pair": ["data"]},
  "unevaluatedProperties": false,
  "$defs": {
    "rtree": {"$id": "rtree.json", "$recursiveAnchor": true, "type": "object",
      "properties": {"data": true,
        "children": {"type": "array", "items": {"$recursiveRef": "#"}}}}
  }
}
EOF
printf '%s\n' \
    '{"data": 1, "pair": ["a", 2], "children": [{"children": [{"data": 3}]}]}' \
    '{"pair": ["a", 2, 3], "children": [{"children": [{"x": 4}]}]}' \
    >"$tmp/rtree.jsonl"
tool=jsonresp-check
check 0 "jsonresp-check: 2020-12, \$dynamicRef, unevaluated*, a valid tree" \
    /dev/null --schema "$tmp/tree.schema.json" "$tmp/tree.json"
check 1 "jsonresp-check: 2020-12, \$dynamicRef, unevaluated*, an invalid tree" \
    /dev/null --errors=json --schema "$tmp/tree.schema.json" \
    "$tmp/badtree.json"
check 1 "jsonresp-check: 2020-12, the tree's base by -r, -o json --summary" \
    /dev/null -o json --summary -r "$tmp/tree-base.json" \
    --schema "$tmp/tree-ext.schema.json" "$tmp/tree.json" "$tmp/badtree.json"
check 1 "jsonresp-check: 2019-09, \$recursiveRef, --lines -o json" \
    "$tmp/rtree.jsonl" -o json --summary --lines \
    --schema "$tmp/rtree.schema.json"
# A dynamic anchor in a sibling file that only a fragment of it reaches:
# compiled at the end, it loads the meta-schema and its anchors.
cat >"$tmp/dyn-base.json" <<'EOF'
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "$dynamicAnchor": "x",
 "$ref": "https://json-schema.org/draft/2020-12/schema",
 "$defs": {"list": {"type": "array"}}}
EOF
cat >"$tmp/dyn.schema.json" <<'EOF'
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "$dynamicAnchor": "n", "$ref": "dyn-base.json#/$defs/list",
 "items": {"$dynamicRef": "#n"}}
EOF
printf '[[1], []]\n' >"$tmp/dyn.json"
check 1 "jsonresp-check: 2020-12, a dynamic anchor compiled last" /dev/null \
    --schema "$tmp/dyn.schema.json" "$tmp/dyn.json"

# Tool definitions (issue 16): calls typed by their tools' schemas and
# validated, plainly and as thread events, calls that fail the schema or
# name a tool not defined, the prompt, and definitions that do not load.
tc="$top/t/data/toolcall-parse"
cat >"$tmp/typed.txt" <<'EOF'
Typed by the schemas:
<tool>
<tool_name>apply_diff</tool_name>
<arguments>
  <path>007</path>
  <edits><search><![CDATA[if (a < b) ]]]]><![CDATA[>]]></search>
    <replace>x &amp;&amp; y</replace><count>2.0</count></edits>
  <edits><search>1</search><replace>true</replace></edits>
  <backup>False</backup>
</arguments>
</tool>
<tool><tool_name>search_files</tool_name><arguments><pattern>42</pattern>
<exclude>true</exclude><limits>{"max_results": 5.0, "max_bytes": 1e3}</limits>
</arguments></tool>
EOF
cat >"$tmp/invalid.txt" <<'EOF'
<tool><tool_name>apply_diff</tool_name><arguments><path>p</path>
<edits><search>s</search><replace>r</replace><count>0</count></edits>
<backup>maybe</backup></arguments></tool>
<tool><tool_name>search_files</tool_name><arguments><pattern>x</pattern>
<mode>glob</mode><exclude/><limits>{"max_bytes": "1"}</limits></arguments></tool>
EOF
cat >"$tmp/undefined.txt" <<'EOF'
<tool><tool_name>read_file</tool_name><arguments><path>a</path></arguments></tool>
<tool><tool_name>search_files</tool_name><arguments><pattern>y</pattern>
<exclude>z</exclude><limits>NULL</limits></arguments></tool>
EOF
cat >"$tmp/forms.txt" <<'EOF'
<tool><tool_name>read_file</tool_name><arguments><path>a</path>
<line_start>5.0</line_start></arguments></tool>
<tool><tool_name>get_weather</tool_name><arguments><city>Oslo</city>
<unit>null</unit></arguments></tool>
EOF
tool=toolcall-parse
check 0 "toolcall-parse: --tools, calls typed and valid" /dev/null \
    --tools "$tc/tools-nested.json" "$tmp/typed.txt"
check 0 "toolcall-parse: --tools --thread --iteration 2" "$tmp/typed.txt" \
    --thread --iteration 2 --tools "$tc/tools-nested.json"
check 1 "toolcall-parse: --tools, calls that fail the schema, --events" \
    /dev/null --events --tools "$tc/tools-nested.json" "$tmp/invalid.txt"
check 1 "toolcall-parse: --tools --thread, calls that fail the schema" \
    /dev/null --thread --tools "$tc/tools-nested.json" "$tmp/invalid.txt"
check 1 "toolcall-parse: --tools, a tool not defined, --errors=json" \
    /dev/null --errors=json --tools "$tc/tools-nested.json" \
    "$tmp/undefined.txt"
check 0 "toolcall-parse: --no-validate" /dev/null --no-validate \
    --tools "$tc/tools-nested.json" "$tmp/invalid.txt"
check 0 "toolcall-parse: --tools in MCP, OpenAI Chat and Anthropic form" \
    "$tmp/forms.txt" --tools "$tc/tools-mcp.json" \
    --tools "$tc/tools-openai-chat.json" --tools "$tc/tools-anthropic.json"
check 0 "toolcall-parse: --tools in MCP response and OpenAI Responses form" \
    "$tmp/forms.txt" --tools "$tc/tools-mcp-response.json" \
    --tools "$tc/tools-openai-responses.json" --no-validate
check 0 "toolcall-parse: --print-prompt" /dev/null --print-prompt \
    --tools "$tc/tools-nested.json" --tools "$tc/tools-anthropic.json"
for f in qwen3 invoke glm hermes auto; do
	check 0 "toolcall-parse: --print-prompt --format $f, tools left out" \
	    /dev/null --print-prompt --format "$f" --tools "$tc/tools-nested.json" \
	    --tools "$tc/tools-names.json" --tools "$tc/tools-types.json"
done
check 2 "toolcall-parse: a schema that does not compile" /dev/null \
    --tools "$tc/tools-bad-schema.json" "$tmp/typed.txt"
vg_pre="env LLMKIT_LIBPCRE2=$tmp/no-libpcre2.so"
check 3 "toolcall-parse: --tools with a pattern, PCRE2 not loaded" \
    /dev/null --tools "$tc/tools-types.json" "$tmp/typed.txt"
unset vg_pre
check 2 "toolcall-parse: definitions in no known form" /dev/null \
    --tools "$tc/tools-bad-shape.json" "$tmp/typed.txt"
vg --thread --tools "$tc/tools-nested.json" "$tmp/typed.txt" </dev/null \
    >/dev/full
verdict 3 "toolcall-parse: --tools --thread onto a full disk"

# Dialects of open models (issue 17): each --format on good calls in
# prose, malformed ones and one cut short by the end of the input, a call
# past --max-size; auto over a mixed stream; --tools with a dialect.
dl="$tc/dialects"
{
	echo 'I will look first.'
	cat "$dl/qwen3-coder-template.txt" "$dl/qwen3-markup-value.txt" \
	    "$dl/qwen3-seed-oss.txt" "$dl/qwen3-no-wrapper.txt" \
	    "$dl/qwen3-missing-close-parameter.txt" "$dl/qwen3-crlf.txt" \
	    "$dl/qwen3-repeated-key.txt"
	echo 'Done.'
} >"$tmp/qwen3.txt"
{
	echo 'Two at once:'
	echo '<function_calls>'
	cat "$dl/invoke-function-calls.txt" "$dl/invoke-markup-value.txt"
	echo '</function_calls>'
	cat "$dl/invoke-quotes-and-spaces.txt" "$dl/invoke-no-arguments.txt"
	echo '<minimax:tool_call>'
	cat "$dl/invoke-minimax-search.txt"
	echo '</minimax:tool_call>'
} >"$tmp/invoke.txt"
cat "$dl"/glm-*.txt >"$tmp/glm.txt"
# the stream ends a hermes call at its first </tool_call>, which
# hermes-nested.txt has in a string: an error here, among the bad ones
ls "$dl"/hermes-*.txt | grep -v nested | xargs cat >"$tmp/hermes.txt"
cat >"$tmp/qwen3-bad.txt" <<'END'
<tool_call>
<function=>
</function>
</tool_call>
<tool_call>
<function=f>
text outside
</function>
</tool_call>
<tool_call>
<function=g>
<parameter=a>
1
<tool_call>
<function=ok>
<parameter=v>
é
</parameter>
</function>
</tool_call>
END
printf '<function=h>\n<parameter=a>\n\377\n</parameter>\n</function>\n' \
    >>"$tmp/qwen3-bad.txt"
printf '<seed:tool_call>\n<function=cut>\n<parameter=a>\nx' \
    >>"$tmp/qwen3-bad.txt"
cat >"$tmp/invoke-bad.txt" <<'END'
<invoke name="x" id="1"></invoke>
<invoke name=""></invoke>
<invoke name="y"><parameter>v</parameter></invoke>
<invoke name="z"><invoke name="ok"><parameter name="k">v</parameter></invoke>
END
printf '<invoke name="cut"><parameter name="a">x' >>"$tmp/invoke-bad.txt"
cat >"$tmp/glm-bad.txt" <<'END'
<tool_call></tool_call>
<tool_call>f<arg_key>a</arg_key>text<arg_value>1</arg_value></tool_call>
<tool_call>g<arg_key></arg_key><arg_value>1</arg_value></tool_call>
<tool_call>get_date</tool_call>
END
printf '<tool_call>cut\n<arg_key>a</arg_key>\n<arg_value>x' \
    >>"$tmp/glm-bad.txt"
cat >"$tmp/hermes-bad.txt" <<'END'
<tool_call>{"name": "x", "arguments": {"a": [1, }</tool_call>
<tool_call>{"name": "x", "arguments": {}, "parameters": {}}</tool_call>
<tool_call>{'name': 'py'}</tool_call>
<tool_call>{"name": "d", "arguments": {"a": 1, "a": 2}}</tool_call>
<tool_call>{"name": "", "arguments": {}}</tool_call>
<tool_call>{"name": "ok", "arguments": "{\"s\": \"a\u0000b\"}"}</tool_call>
END
cat "$dl/hermes-nested.txt" >>"$tmp/hermes-bad.txt"
printf '<tool_call>{"name": "cut", "arguments": {"a": "x' \
    >>"$tmp/hermes-bad.txt"
cat "$tmp/calls.txt" "$tmp/hermes.txt" "$tmp/glm.txt" "$tmp/qwen3.txt" \
    "$tmp/invoke.txt" "$tmp/qwen3-bad.txt" >"$tmp/dialects.txt"
cat >"$tmp/typed-qwen3.txt" <<'END'
<tool_call>
<function=search_files>
<parameter=pattern>
007
</parameter>
<parameter=exclude>
true
</parameter>
<parameter=limits>
{"max_results": 5.0, "max_bytes": 1e3}
</parameter>
</function>
</tool_call>
<tool_call>
<function=search_files>
<parameter=pattern>
x
</parameter>
<parameter=exclude>
maybe
</parameter>
</function>
</tool_call>
END
{
	printf '<tool_call>\n<function=write_to_file>\n<parameter=content>\n'
	awk 'BEGIN { for (i = 0; i < 30000; i++)
	    printf "line %d: \"quotes\" \\ <tags> & </parameter\n", i }'
	printf '</parameter>\n</function>\n</tool_call>\n'
} >"$tmp/big-qwen3.txt"
tool=toolcall-parse
for f in qwen3 invoke glm hermes; do
	check 0 "toolcall-parse: --format $f, good calls in prose" \
	    "$tmp/$f.txt" --format "$f"
	check 0 "toolcall-parse: --format $f, good calls, --events -u" \
	    /dev/null --format "$f" --events -u "$tmp/$f.txt"
	check 1 "toolcall-parse: --format $f, malformed calls, one cut short" \
	    /dev/null --format "$f" --events "$tmp/$f-bad.txt"
	check 1 "toolcall-parse: --format $f, malformed calls, --errors=json" \
	    /dev/null --format "$f" --errors=json "$tmp/$f-bad.txt" \
	    "$tmp/$f.txt"
	check 1 "toolcall-parse: --format $f, calls past --max-size" \
	    /dev/null --format "$f" --events --max-size 100 "$tmp/$f.txt"
done
check 1 "toolcall-parse: --format auto, every dialect mixed, --events" \
    /dev/null --format auto --events "$tmp/dialects.txt"
check 1 "toolcall-parse: --format auto --strict, cut short at the end" \
    /dev/null --format auto --strict "$tmp/dialects.txt" \
    "$tmp/hermes-bad.txt"
check 0 "toolcall-parse: --format auto, a 1 MB qwen3 call" /dev/null \
    --format auto "$tmp/big-qwen3.txt"
check 1 "toolcall-parse: --format qwen3, a 1 MB call past --max-size 1K" \
    /dev/null --format qwen3 --events --max-size 1K "$tmp/big-qwen3.txt"
check 1 "toolcall-parse: --format qwen3 --tools, typed and one invalid" \
    /dev/null --format qwen3 --events --tools "$tc/tools-nested.json" \
    "$tmp/typed-qwen3.txt"
check 1 "toolcall-parse: --format auto --tools --thread" \
    "$tmp/dialects.txt" --format auto --thread \
    --tools "$tc/tools-nested.json"
check 2 "toolcall-parse: an unknown --format" /dev/null --format xml \
    "$tmp/qwen3.txt"
vg --format auto "$tmp/dialects.txt" </dev/null >/dev/full
verdict 3 "toolcall-parse: --format auto onto a full disk"

# Openings written again and again, no closing markup between, in every
# format, over more than one read.
{
	awk 'BEGIN { for (i = 0; i < 2000; i++) printf "<tool>\n<invoke " \
	    "<function=f>\n<tool_call> <seed:tool_call><tool></too<tool>x" }'
	cat "$tmp/calls.txt"
} >"$tmp/again.txt"
for f in tool qwen3 invoke glm hermes auto; do
	check 1 "toolcall-parse: --format $f, openings again and again" \
	    /dev/null --format "$f" --events "$tmp/again.txt"
done

tool=mcp-run
mcp=$top/t/mcp/node_modules/@modelcontextprotocol
ev="node $mcp/server-everything/dist/index.js stdio"
cat >"$tmp/mcp.json" <<EOF
{"mcpServers": {
  "junk": {"command": "sh",
    "args": ["-c", "yes garbage | head -n 100; cat >/dev/null"]},
  "everything": {"command": "node",
    "args": ["$mcp/server-everything/dist/index.js", "stdio"]},
  "fs": {"command": "node",
    "args": ["$mcp/server-filesystem/dist/index.js", "$tmp"],
    "env": {"K": "v"}, "cwd": "$tmp"}
}}
EOF
sed '/"junk"/,/dev.null/d' "$tmp/mcp.json" >"$tmp/mcp-good.json"
printf '%s\n' \
    '{"server_name":"everything","tool_name":"echo","arguments":{"message":"a"}}' \
    '{"tool_name":"get-structured-content","arguments":{"location":"Chicago"}}' \
    '{"server_name":"local","tool_name":"get-resource-links","arguments":{"count":2}}' \
    '{"server_name":"everything","tool_name":"get-tiny-image","arguments":{}}' \
    '{"server_name":"everything","tool_name":"nosuch","arguments":{}}' \
    '{"server_name":"everything","tool_name":"echo","arguments":"x"}' \
    '{"tool_name":"nosuch","arguments":{}}' \
    '{"server_name":"nowhere","tool_name":"echo","arguments":{}}' \
    '{"tool_name":"list_allowed_directories","arguments":{}}' \
    '{"type":"tool_call","toolName":"echo","args":{}}' \
    'not json' '{"type":"tool_call","args":{}}' >"$tmp/mcp-calls.jsonl"
printf '%s\n' \
    '{"type":"message","role":"user","content":"hi","iteration":0}' \
    '{"type":"tool_call","toolName":"get-sum","args":{"a":1,"b":2},"toolCallId":"c1","iteration":1,"serverName":"local"}' \
    >"$tmp/mcp-thread.jsonl"
printf '%s\n' \
    '{"server_name":"everything","tool_name":"trigger-long-running-operation","arguments":{"duration":2,"steps":1}}' \
    '{"server_name":"everything","tool_name":"echo","arguments":{"message":"b"}}' \
    >"$tmp/mcp-slow.jsonl"
printf '{"mcpServers": {"a": {"args": [1]}}, "servers": 7}' \
    >"$tmp/mcp-bad.json"
# every editor's form, with comments, ${...}, envFile, unusable entries
cat >"$tmp/mcp-forms.json" <<EOF
// comments and trailing commas, as VS Code writes them
{"servers": {
  "everything": {"type": "stdio", "command": "node",
    "args": ["\${env:MCP_EV}", "stdio",], "envFile": "$tmp/mcp.env",
    "env": {"K": "\${K:-v}"}},
  /* Zed's older form */
  "old": {"command": {"path": "node", "args": ["\${MCP_EV}", "stdio"]}},
  "remote": {"type": "http", "url": "https://h/mcp",
    "headers": {"Authorization": "Bearer \${MCP_UNSET}"}},
  "asks": {"command": "x", "env": {"K": "\${input:key}"}},
  "off": {"command": "x", "disabled": true},
}}
EOF
printf 'A=1\nexport B="two"\n' >"$tmp/mcp.env"
printf '%s\n' \
    '{"server_name":"everything","tool_name":"echo","arguments":{"message":"a"}}' \
    '{"server_name":"old","tool_name":"echo","arguments":{"message":"b"}}' \
    '{"server_name":"remote","tool_name":"x","arguments":{}}' \
    '{"server_name":"asks","tool_name":"x","arguments":{}}' \
    '{"server_name":"off","tool_name":"x","arguments":{}}' \
    >"$tmp/mcp-forms.jsonl"
check 1 "mcp-run: every kind of result, failure, refusal and bad line" \
    /dev/null -c "$tmp/mcp-good.json" "$tmp/mcp-calls.jsonl"
check 1 "mcp-run: the same, -u --errors=json, on standard input" \
    "$tmp/mcp-calls.jsonl" -u --errors=json -c "$tmp/mcp-good.json"
check 0 "mcp-run: a thread, --protocol 2025-11-25" /dev/null \
    --protocol 2025-11-25 --server "e=$ev" "$tmp/mcp-thread.jsonl"
check 1 "mcp-run: a call past -T, cancelled" /dev/null -T 1 \
    -c "$tmp/mcp-good.json" "$tmp/mcp-slow.jsonl"
check 3 "mcp-run: routing past a server that breaks the protocol" \
    /dev/null -c "$tmp/mcp.json" "$tmp/mcp-calls.jsonl"
check 0 "mcp-run: --list-tools" /dev/null --list-tools --server "e=$ev"
check 2 "mcp-run: a bad configuration" /dev/null -c "$tmp/mcp-bad.json"
MCP_EV=$mcp/server-everything/dist/index.js
export MCP_EV
check 3 "mcp-run: the editors' forms, unusable and disabled entries" \
    "$tmp/mcp-forms.jsonl" -c "$tmp/mcp-forms.json"
check 0 "mcp-run: --list-servers of the editors' forms, --server NAME=URL" \
    /dev/null --list-servers -c "$tmp/mcp-forms.json" --server r=http://h/
check 3 "mcp-run: a server that cannot start, a missing file" /dev/null \
    --server 'x=/nonexistent/server' "$tmp/no-such-file" \
    "$tmp/mcp-thread.jsonl"
printf '{"server_name":"junk","tool_name":"x","arguments":{}}\n' >"$tmp/junk"
check 3 "mcp-run: a server that breaks the protocol" "$tmp/junk" \
    -c "$tmp/mcp.json"
vg --server "e=$ev" "$tmp/mcp-thread.jsonl" </dev/null >/dev/full
verdict 3 "mcp-run: onto a full disk"
check 1 "mcp-run: -j 3, a call past -T among others" /dev/null -j 3 -T 1 \
    -c "$tmp/mcp-good.json" "$tmp/mcp-slow.jsonl" "$tmp/mcp-calls.jsonl"
# a remote server: Streamable HTTP, and HTTP+SSE, the everything server's
for mode in streamableHttp:/mcp sse:/sse; do
	if http=$(sh "$top/t/mcp/http-launch.sh" "${mode#*:}" node \
	    "$mcp/server-everything/dist/index.js" "${mode%%:*}"); then
		check 1 "mcp-run: calls over ${mode%%:*}, -j 2" \
		    "$tmp/mcp-calls.jsonl" -j 2 \
		    --server "everything=$(echo "$http" | sed -n 1p)"
		kill -TERM -- "-$(echo "$http" | sed -n 2p)" 2>/dev/null
	else
		got=98
		verdict 1 "mcp-run: the everything server over ${mode%%:*}"
	fi
done
check 3 "mcp-run: a remote server that cannot be reached" \
    "$tmp/mcp-thread.jsonl" --server e=http://127.0.0.1:1/mcp
check 0 "mcp-run: --list-resources, --list-prompts" /dev/null \
    --list-resources -c "$tmp/mcp-good.json"
check 0 "mcp-run: --list-prompts of a server named" /dev/null \
    --list-prompts -c "$tmp/mcp-good.json" everything
check 1 "mcp-run: --read by a listing, by a template, unknown, failed" \
    /dev/null -c "$tmp/mcp-good.json" \
    --read demo://resource/static/document/features.md \
    --read demo://resource/dynamic/blob/3 --read demo://nosuch
check 1 "mcp-run: --read of a server named, its JSON-RPC error" /dev/null \
    --read demo://nosuch --server "e=$ev"
check 0 "mcp-run: --get-prompt with arguments" /dev/null \
    -c "$tmp/mcp-good.json" --get-prompt args-prompt --arg city=Paris \
    --arg state=Texas
check 1 "mcp-run: --get-prompt of a server without prompts" /dev/null \
    -c "$tmp/mcp-good.json" --get-prompt p fs

# t/mcp/raw-server.mjs: null and float ids, tools with bad names, an
# isError without text, bytes of no character
printf '[{"name":"a\\u0000b"},{"name":""},5,{"name":"t"}]' >"$tmp/raw-tools"
cat >"$tmp/raw-script" <<'EOF'
{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}}
{"jsonrpc":"2.0","id":@ID@.0,"result":{}}
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":"x"}}
---
{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}
---
EOF
printf '\377\300\200\n{"jsonrpc":"2.0","id":@ID@,"method":7} \377\n' \
    >>"$tmp/raw-script"
printf '{"tool_name":"t","arguments":{}}\n%.0s' 1 2 3 >"$tmp/raw-calls"
printf '{"tool_name":"a","arguments":{}}\n' >>"$tmp/raw-calls"
check 3 "mcp-run: null and float ids, bad tool names, bad bytes" \
    "$tmp/raw-calls" --server \
    "raw=node $top/t/mcp/raw-server.mjs $tmp/raw-tools $tmp/raw-script"

# Lines that are not JSON-RPC passed over, a server that declared no
# tools, --protocol 2026-07-28 with a server of the 2025 era, an isError
# result that keeps all it holds.
sc="python3 $top/t/mcp/scripted-server.py"
printf '%s\n' \
    '{"server_name":"s","tool_name":"noise","arguments":{"lines":3}}' \
    '{"server_name":"r","tool_name":"echo","arguments":{}}' \
    >"$tmp/edge-calls"
check 1 "mcp-run: noise passed over, a server that declared no tools" \
    "$tmp/edge-calls" --server "s=$sc" \
    --server "r=$sc --caps {\"resources\":{}}"
check 0 "mcp-run: --list-tools, a server that declared no tools" \
    /dev/null --list-tools --server "r=$sc --caps {\"resources\":{}}"
printf '{"server_name":"e","tool_name":"echo","arguments":{}}\n' \
    >"$tmp/edge-pinned"
check 3 "mcp-run: --protocol 2026-07-28 with a server of 2025" \
    "$tmp/edge-pinned" --protocol 2026-07-28 --server "e=$ev"
cat >"$tmp/rich-script" <<'EOF'
{"jsonrpc":"2.0","id":@ID@,"result":{"isError":true,"content":[{"type":"text","text":"no"},{"type":"image","data":"AA","mimeType":"image/png"}],"structuredContent":{"a":1},"_meta":{"k":"v","io.modelcontextprotocol/serverInfo":{}}}}
---
{"jsonrpc":"2.0","id":@ID@,"result":{"content":[],"_meta":"odd"}}
EOF
printf '{"tool_name":"t","arguments":{}}\n%.0s' 1 2 >"$tmp/rich-calls"
check 1 "mcp-run: an isError result and a success, each with its extras" \
    "$tmp/rich-calls" --server \
    "raw=node $top/t/mcp/raw-server.mjs $tmp/raw-tools $tmp/rich-script"

# A NUL byte in line input: its line refused at it, the rest of that line
# (longer than a read) skipped, and every line after it read.
{
	printf '"<tool><tool_name>a</tool_name></tool>"\n"ab\0c"\n\0"x"\n"'
	head -c 70000 /dev/zero | tr '\0' x
	printf '\0'
	head -c 70000 /dev/zero
	printf '"\n"<tool><tool_name>b</tool_name></tool>"\n"c\0'
} >"$tmp/nul-strings.jsonl"
{
	tr -d '\n' <"$top/t/data/jsonresp-check/minimal.json"
	printf '\n{"a":"b\0c"}\n\0{}\n{"a":"'
	head -c 70000 /dev/zero | tr '\0' x
	printf '\0'
	head -c 70000 /dev/zero
	printf '"}\n{}\n{"a":\0'
} >"$tmp/nul-values.jsonl"
{
	printf '{"userMessage":"a","context":{"topicId":"t"}}\n'
	printf '{"userMessage":"b\0"}\n\0\n{"userMessage":"'
	head -c 70000 /dev/zero | tr '\0' x
	printf '\0'
	head -c 70000 /dev/zero
	printf '"}\n{"userMessage":"c","context":{"topicId":"t"}}\n"d\0'
} >"$tmp/nul-queries.jsonl"
tool=toolcall-parse
check 1 "toolcall-parse: --lines with NUL bytes, -o report --summary" \
    /dev/null --lines -o report --summary "$tmp/nul-strings.jsonl"
tool=llmr-validate
check 1 "llmr-validate: --lines with NUL bytes on stdin, -o report --summary" \
    "$tmp/nul-strings.jsonl" --lines -o report --summary
tool=jsonresp-check
check 1 "jsonresp-check: --lines with NUL bytes, -o report --summary" \
    /dev/null --lines -o report --summary "$tmp/nul-values.jsonl"
tool=llmq-encode
check 1 "llmq-encode: --from-json with NUL bytes" /dev/null --from-json \
    "$tmp/nul-queries.jsonl"

# Reports for CI: GitHub's workflow commands, and -o junit's report, its
# testcases kept in a temporary file, on files, lines and standard input.
tool=jsonresp-check
check 5 "jsonresp-check: -o junit --lines, --errors=github" /dev/null \
    -o junit --lines --errors=github "$top/examples/responses.jsonl"
check 1 "jsonresp-check: -o junit on files and standard input" \
    "$top/examples/response.json" -o junit - \
    "$top/examples/bad-response.json"
tool=llmr-validate
check 1 "llmr-validate: -o junit -W, --errors=github" /dev/null -W \
    -o junit --errors=github "$top/examples/reply.xml" \
    "$top/examples/bad-reply.xml"
check 1 "llmr-validate: -o junit --lines" "$top/examples/replies.jsonl" \
    -o junit --lines
tool=toolcall-parse
check 1 "toolcall-parse: -o junit, --errors=github" /dev/null -o junit \
    --errors=github "$top/examples/model-output.txt" \
    "$top/examples/bad-calls.txt"
check 1 "toolcall-parse: -o junit --lines" "$top/examples/outputs.jsonl" \
    -o junit --lines

# Tools from servers (issue 25): references out of the tools file's
# directory, to a FIFO, a device or over http: refused; names with control
# characters left out; shared, recursive and exponential schemas in the
# prompt; and schema files that are no regular files, refused.
tool=toolcall-parse
mkdir "$tmp/srv" "$tmp/srv/tools"
echo '{"description": "SECRET"}' >"$tmp/srv/secret.json"
echo '{"properties": {"x": {"type": "number"}}}' >"$tmp/srv/tools/pt.json"
mkfifo "$tmp/srv/tools/fifo"
cat >"$tmp/srv/tools/t.json" <<EOF
{"tools": [
{"name": "a", "inputSchema": {"\$ref": "../secret.json"}, "_meta": {"llmkit/server": "s"}},
{"name": "b", "inputSchema": {"\$ref": "fifo"}},
{"name": "c", "inputSchema": {"\$ref": "file:///dev/zero"}},
{"name": "d", "inputSchema": {"\$ref": "https://example.com/s.json"}},
{"name": "e", "inputSchema": {"\$schema": "file://$tmp/srv/secret.json"}},
{"name": "ok", "inputSchema": {"properties": {"p": {"\$ref": "pt.json"}}}}
]}
EOF
printf '%s\n' '<tool><tool_name>a</tool_name></tool>' \
    '<tool><tool_name>ok</tool_name><arguments><p><x>1</x></p></arguments></tool>' \
    >"$tmp/srv/calls.txt"
check 0 "toolcall-parse: --print-prompt, tools left out for their references" \
    /dev/null --print-prompt --tools "$tmp/srv/tools/t.json"
check 1 "toolcall-parse: a call to a tool left out, --errors=json" \
    /dev/null --errors=json --tools "$tmp/srv/tools/t.json" \
    "$tmp/srv/calls.txt"
check 0 "toolcall-parse: --print-prompt, names with control characters" \
    /dev/null --print-prompt --tools "$tc/tools-names.json"
check 0 "toolcall-parse: --print-prompt, shared and recursive types" \
    /dev/null --print-prompt --tools "$tc/tools-shared.json"
toolcall-parse -q --print-prompt --tools "$tc/tools-shared.json" |
    awk '/^Example:$/ { ex = 1 } ex && /^<tool>$/ { on = 1 } on { print }
	/^<\/tool>$/ { on = ex = 0 }' \
    >"$tmp/srv/shared.txt"
check 0 "toolcall-parse: the shared types' examples, typed and valid" \
    "$tmp/srv/shared.txt" --tools "$tc/tools-shared.json"
python3 - "$tmp/srv" <<'PY'
import json, sys
d = {}
for i in range(40):
    r = {"$ref": "#/$defs/l%d" % (i + 1)}
    d["l%d" % i] = {"properties": {"a": r, "b": r}, "required": ["a", "b"]}
d["l40"] = {"type": "integer"}
p = {}
for i in range(60):
    r = {"$ref": "#/$defs/base"}
    p["o%d" % i] = {"allOf": [r], "properties": {"own": {"type": "integer"}}}
d["base"] = {"properties": {"b%d" % j: {"type": "string"} for j in range(60)}}
r = {"$ref": "#/properties/s"}
p["s"] = {"anyOf": [r, r, {"type": "integer"}]}
with open(sys.argv[1] + "/big.json", "w") as f:
    json.dump([{"name": "lattice", "input_schema": {"$ref": "#/$defs/l0",
        "$defs": d}}, {"name": "wide", "input_schema": {"properties": p,
        "$defs": d}}], f)
PY
check 0 "toolcall-parse: --print-prompt, a lattice and an allOf base past the budgets" \
    /dev/null --print-prompt --tools "$tmp/srv/big.json"
tool=jsonresp-check
echo '{"$ref": "fifo"}' >"$tmp/srv/tools/s.json"
check 3 "jsonresp-check: --schema a FIFO" /dev/null \
    --schema "$tmp/srv/tools/fifo" "$tmp/srv/tools/pt.json"
check 2 "jsonresp-check: a \$ref to a FIFO" /dev/null \
    --schema "$tmp/srv/tools/s.json" "$tmp/srv/tools/pt.json"
check 2 "jsonresp-check: -r /dev/zero" /dev/null -r /dev/zero \
    "$tmp/srv/tools/pt.json"

# closed_reader TOOL-ARG...: vg, its output to a reader that lets go of
# the pipe at once and then makes $tmp/closed; sets got.
closed_reader() {
	rm -f "$tmp/closed"
	{ vg "$@"; echo "$got" >"$tmp/got"; } |
	    sh -c 'exec 0<&-; touch "$1"' sh "$tmp/closed"
	got=$(cat "$tmp/got")
}

tool=mcp-run
# libcurl when it cannot be loaded (loaded: a remote server above)
printf '%s\n' '{"server_name":"s","tool_name":"echo","arguments":{}}' \
    >"$tmp/mcp-remote.jsonl"
vg_pre="env LLMKIT_LIBCURL=$tmp/no-libcurl.so"
check 3 "mcp-run: a remote server, libcurl not loaded" \
    "$tmp/mcp-remote.jsonl" --server s=http://127.0.0.1:1/mcp
unset vg_pre
scripted="python3 $top/t/mcp/scripted-server.py"
printf '%s\n' \
    '{"server_name":"s","tool_name":"echo","arguments":{"text":"a"}}' \
    "{\"server_name\":\"s\",\"tool_name\":\"wait\",\"arguments\":{\"path\":\"$tmp/closed\"}}" \
    '{"server_name":"s","tool_name":"echo","arguments":{"text":"c"}}' \
    >"$tmp/mcp-closed.jsonl"
closed_reader -u --server "s=$scripted" "$tmp/mcp-closed.jsonl" </dev/null
verdict 3 "mcp-run: a reader that has gone, the server stopped"
printf '%s\n' \
    "{\"server_name\":\"s\",\"tool_name\":\"orphan\",\"arguments\":{\"status\":3,\"pidfile\":\"$tmp/orphan.pid\",\"note\":\"leaving\"}}" \
    '{"server_name":"s","tool_name":"exit","arguments":{"answer":true}}' \
    '{"server_name":"s","tool_name":"echo","arguments":{"text":"again"}}' \
    '{"server_name":"s","tool_name":"exit","arguments":{}}' \
    '{"server_name":"s","tool_name":"big","arguments":{"bytes":5000}}' \
    '{"server_name":"s","tool_name":"stderr","arguments":{"bytes":10000,"newline":true}}' \
    '{"server_name":"s","tool_name":"stderr","arguments":{"bytes":300000}}' \
    '{"server_name":"s","tool_name":"log","arguments":{"bytes":5000}}' \
    '{"server_name":"s","tool_name":"big","arguments":{"bytes":3000}}' \
    >"$tmp/mcp-ends.jsonl"
check 1 "mcp-run: servers that end, orphan, write long lines" /dev/null \
    -T 60 --max-line 4K --server "s=$scripted" "$tmp/mcp-ends.jsonl"
for t in orphan bye echo quit echo; do
	printf '{"server_name":"s","tool_name":"%s","arguments":{}}\n' "$t"
done >"$tmp/mcp-sh.jsonl"
check 1 "mcp-run: the same from a server in sh" /dev/null -T 60 \
    --server "s=sh $top/t/mcp/sh-server.sh" "$tmp/mcp-sh.jsonl"
python3 -c 'import json; print(json.dumps({"mcpServers": {"s%d" % i:
    {"command": "x"} for i in range(3000)}}))' >"$tmp/mcp-many.json"
check 0 "mcp-run: --list-servers of 3,000 servers" /dev/null \
    --list-servers -c "$tmp/mcp-many.json"
printf '{"mcpServers": {"t": {"command": "x"}, "s2999": {"command": "x"}}}' \
    >"$tmp/mcp-again.json"
check 2 "mcp-run: a server declared again, among 3,000" /dev/null \
    -c "$tmp/mcp-many.json" -c "$tmp/mcp-again.json"
check 2 "mcp-run: --max-line 0" /dev/null --max-line 0 --server "s=x"

tool=llm-retry
closed_reader -c 'cat >/dev/null' -- sh -c \
    'until [ -e "$0" ]; do sleep 0.05; done; echo 42' "$tmp/closed" \
    <"$tmp/q.txt"
verdict 3 "llm-retry: a reader that has gone"

tool=toolcall-parse
tcd="$top/t/data/toolcall-parse"
printf 'Draft <tool_call>{"name": "x", "arguments": {"a": [1,\n</think>\n' \
    >"$tmp/lone.txt"
printf '<tool><tool_name>a</tool_nam></tool> \377\n<think>r\377' \
    >>"$tmp/lone.txt"
printf '</think><tool_call>{"name": "ok"}</tool_call></think><seed:think>' \
    >>"$tmp/lone.txt"
check 0 "toolcall-parse: reasoning blocks, opened, Seed-OSS's, events" \
    /dev/null --format auto --events --reasoning events \
    "$tcd/reasoning-blocks.txt" "$tcd/reasoning-opened.txt" \
    "$tcd/reasoning-seed.txt"
check 1 "toolcall-parse: a call left open before a lone </think>" \
    "$tmp/lone.txt" --format auto --events --reasoning events
{ printf '<tool><tool_name>t</tool_nam></tool>\n'; cat "$tmp/calls.txt"
    printf '<think>r</think><tool><tool_name>c</tool_name></tool>\n'; } \
    >"$tmp/held.txt"
check 1 "toolcall-parse: what was held written at <think>" "$tmp/held.txt" \
    --thread -u
check 1 "toolcall-parse: --begins-in-reasoning no, warnings" /dev/null \
    --format auto --begins-in-reasoning no --errors=json "$tmp/lone.txt"
check 0 "toolcall-parse: --begins-in-reasoning yes, never closed" \
    "$tmp/calls.txt" --begins-in-reasoning yes --events \
    --reasoning events
{ cat "$tmp/big.txt" "$tmp/bad.txt"; printf '</think>\n'; } >"$tmp/bigthink.txt"
check 0 "toolcall-parse: a 1 MB call held, then dropped before </think>" \
    "$tmp/bigthink.txt" --events
printf '"%s"\n' '<think>x</think><tool><tool_name>a</tool_name></tool>' \
    'a</think>b<tool><tool_name>b</tool_nam></tool>' '<think>' \
    >"$tmp/reason.jsonl"
check 1 "toolcall-parse: reasoning in -o report --lines" /dev/null \
    --lines -o report --summary "$tmp/reason.jsonl"

# --format openai: a server's responses and streams through the writers,
# thread messages with the server's ids, reasoning events, bad calls and
# errors of the server, -o report; Python literals and JSON inside
# strings typed by the schemas.
oa="$tc/openai"
tool=toolcall-parse
check 0 "toolcall-parse: --format openai, Chat, Responses and Ollama" \
    /dev/null --format openai "$oa/chat-completion.in" \
    "$oa/chat-stream-parallel.in" "$oa/responses.in" \
    "$oa/responses-stream.in" "$oa/ollama.in"
check 0 "toolcall-parse: --format openai --thread --tools, on stdin" \
    "$top/examples/openai-stream.sse" --format openai --thread \
    --iteration 3 --tools "$top/examples/file-tools.json"
check 1 "toolcall-parse: --format openai --events, bad calls" /dev/null \
    --format openai --events --reasoning events "$oa/ollama.in" \
    "$oa/err-bad-args.in" "$oa/err-cut-call.in" "$oa/err-order.in"
check 1 "toolcall-parse: --format openai --thread, a server's errors" \
    /dev/null --format openai --thread --tools "$tc/tools-types.json" \
    "$oa/err-bad-args.in" "$oa/err-api-ollama.in" "$oa/err-not-sse.in"
check 1 "toolcall-parse: --format openai -o report --errors=json" \
    /dev/null --format openai -o report --summary --errors=json \
    "$oa/responses.in" "$oa/err-api.in" "$oa/err-length.in"
printf '%s\n' 'Prose, then <tool><tool_name>typed</tool_name><arguments>' \
    "<z>None</z><b>'False'</b><o>{'k': '2'}</o><a>(1, 0x10, '3')</a>" \
    "<tags>'[\"a\"]'</tags><i>x</i></arguments></tool> and more." \
    '<tool_call>{"name": "typed", "arguments": "{\"o\": \"{\\\"k\\\": 3}\", \"b\": \"True\"}"}</tool_call>' \
    >"$tmp/literals.txt"
check 1 "toolcall-parse: Python literals and JSON in strings, --thread" \
    "$tmp/literals.txt" --format auto --thread \
    --tools "$tc/tools-types.json"

# The dialects of open models added later: each format's published
# outputs and calls, good and bad, whole and past a small --max-size;
# harmony's channels as reasoning events; every one of them under auto.
tool=toolcall-parse
printf '<|python_tag|>{"name": "f", "parameters": {"a": [1, }}; {"name": ' \
    >"$tmp/llama3-bad.txt"
for f in harmony deepseek mistral llama3 kimi pythonic; do
	good= bad=
	[ ! -f "$tmp/$f-bad.txt" ] || bad="$tmp/$f-bad.txt"
	for o in "$dl/$f"-*.out; do
		if grep -q '"error"' "${o%.out}.calls"; then
			bad="$bad $o"
		else
			good="$good $o"
		fi
	done
	for o in "$dl/$f"-*.txt; do
		[ -e "$o" ] || continue
		case $o in *mistral-object*) continue ;; esac
		good="$good $o"
	done
	# shellcheck disable=SC2086
	check 0 "toolcall-parse: --format $f, published outputs and calls" \
	    /dev/null --format "$f" --events -u $good
	# shellcheck disable=SC2086
	check 1 "toolcall-parse: --format $f, malformed and cut calls" \
	    /dev/null --format "$f" --events --errors=json $bad
	# shellcheck disable=SC2086
	check 1 "toolcall-parse: --format $f, calls past --max-size" \
	    /dev/null --format "$f" --events --max-size 40 $good
	# shellcheck disable=SC2086
	check 1 "toolcall-parse: --format auto, $f's outputs, -o report" \
	    /dev/null --format auto -o report --reasoning events $good $bad
done
check 0 "toolcall-parse: --format harmony, reasoning events" \
    "$dl/harmony-multiple.out" --format harmony --events --reasoning events
check 1 "toolcall-parse: --format auto --tools --thread, pythonic" \
    "$dl/pythonic-more-types.out" --format auto --thread \
    --tools "$tc/tools-nested.json"
check 0 "toolcall-parse: --format qwen3 --tools, values holding qwen3 markup" \
    "$dl/bound/whole-call.txt" --format qwen3 --tools "$dl/bound/tools.json"
check 0 "toolcall-parse: --format auto --tools --events, a </parameter> kept" \
    "$dl/bound/two-parameters.txt" --format auto --events \
    --tools "$dl/bound/tools.json"

# simdjson's readings: a call's bare arguments past 1 MiB (read with a
# parser of their own), and a Chat Completions stream whose chunks add
# to the text and to a call, most of them read without a tree.
{
	printf '%s' '<|channel|>commentary to=functions.big <|constrain|>json' \
	    '<|message|>{"text": "'
	awk 'BEGIN { for (i = 0; i < 30000; i++)
	    printf "line %d: \\\"quotes\\\" and \\\\ %d\\n", i, i }'
	printf '"}<|call|>\n'
} >"$tmp/big-harmony.txt"
awk 'BEGIN {
	c = "data: {\"object\":\"chat.completion.chunk\",\"choices\":" \
	    "[{\"index\":0,\"delta\":"
	f = "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
	print c "{\"role\":\"assistant\",\"content\":\"Text\"}}]}\n"
	print c "{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\"," \
	    "\"type\":\"function\",\"function\":{\"name\":\"f\"," \
	    "\"arguments\":\"\"}}]}}]}\n"
	print c f "\"{\\\"a\\\": \\\"\"}}]}}]}\n"
	for (i = 0; i < 2000; i++) {
		print c f "\"piece " i " \"}}]}}]}\n"
		print c "{\"content\":\"more \"}}]}\n"
	}
	print c f "\"\\\"}\"}}]}}]}\n"
	print c "{},\"finish_reason\":\"tool_calls\"}]}\n"
	print "data: [DONE]\n"
}' >"$tmp/many-chunks.sse"
check 0 "toolcall-parse: --format harmony, a 1 MB call" /dev/null \
    --format harmony "$tmp/big-harmony.txt"
check 0 "toolcall-parse: --format openai --events, 4000 chunks" /dev/null \
    --format openai --events "$tmp/many-chunks.sse"

# jsonx's simdjson engine: JSON lines past 16 KiB (the engine loaded on
# the way, a key twice declined to jansson, which words the error), a
# thread of one array whose first event is past 1 MiB (read by a parser
# of its own) and a
# small one with the engine from the first byte (LLMKIT_JSON=simdjson).
tool=jsonresp-check
awk 'BEGIN {
	for (i = 0; i < 1000; i++)
		printf "{\"i\": %d, \"a\": [1.5, -0, \"caf\303\251\"], " \
		    "\"b\": {\"c\": null}}\n", i
	print "{\"a\": 1, \"a\": 2}"
}' >"$tmp/many.jsonl"
echo '{"type": "object"}' >"$tmp/object.schema.json"
check 1 "jsonresp-check: --lines past 16 KiB with simdjson, a key twice" \
    /dev/null --schema "$tmp/object.schema.json" --lines "$tmp/many.jsonl"
tool=thread-serialize
awk 'BEGIN {
	printf "[{\"type\": \"message\", \"role\": \"user\", \"content\": \""
	for (i = 0; i < 40000; i++)
		printf "line %d: \\\"quoted\\\" \\u00e9\\n", i
	printf "\", \"iteration\": 0}\n"
	for (i = 0; i < 2000; i++)
		printf ",{\"type\": \"tool_call\", \"toolName\": \"t\", " \
		    "\"toolCallId\": \"c%d\", \"args\": {\"n\": [%d.5, " \
		    "\"x\\u00e9\\n\"], \"o\": {}}, \"iteration\": %d}\n",
		    i, i, i
	print "]"
}' >"$tmp/big-thread.json"
check 0 "thread-serialize: an event past 1 MiB, with simdjson" /dev/null \
    "$tmp/big-thread.json"
vg_pre="env LLMKIT_JSON=simdjson"
check 0 "thread-serialize: the golden thread, simdjson from the first byte" \
    /dev/null "$data/all-types.jsonl"
vg_pre=

# jsonx_load, for the readers that took json_loadb's flags: a --tools
# file past 16 KiB (integers kept as integers) read by the engine, calls
# typed and checked by it; a --schema file past 16 KiB; and a call whose
# arguments cannot be checked for want of libidn2 (status 3).
tool=toolcall-parse
awk 'BEGIN {
	printf "{\"tools\": ["
	for (i = 0; i < 200; i++)
		printf "%s{\"name\": \"t%d\", \"description\": \"Tool %d.\", " \
		    "\"inputSchema\": {\"type\": \"object\", \"properties\": " \
		    "{\"n\": {\"type\": \"integer\", \"maximum\": %d}, " \
		    "\"s\": {\"type\": \"string\", \"maxLength\": 40}}, " \
		    "\"required\": [\"n\"]}}", i ? ", " : "", i, i, i + 100
	print "]}"
}' >"$tmp/many-tools.json"
printf '%s\n' '<tool><tool_name>t7</tool_name><arguments><n>5</n><s>x</s></arguments></tool>' \
    '<tool><tool_name>t9</tool_name><arguments><n>500</n></arguments></tool>' \
    >"$tmp/many-calls.txt"
check 1 "toolcall-parse: --tools past 16 KiB, read with simdjson" \
    /dev/null --tools "$tmp/many-tools.json" "$tmp/many-calls.txt"
cat >"$tmp/idn-tools.json" <<'EOF'
{"tools": [{"name": "mail", "description": "Sends a mail.",
  "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {"to": {"type": "string", "format": "idn-email"}}}}]}
EOF
printf '%s\n' '<tool><tool_name>mail</tool_name><arguments><to>joe@xn--bcher-kva.example</to></arguments></tool>' \
    >"$tmp/idn-call.txt"
vg_pre="env LLMKIT_LIBIDN2=/nonexistent/libidn2.so.0"
check 3 "toolcall-parse: --tools, arguments that cannot be checked" \
    /dev/null --thread --tools "$tmp/idn-tools.json" "$tmp/idn-call.txt"
vg_pre=
tool=jsonresp-check
awk 'BEGIN {
	printf "{\"type\": \"object\", \"properties\": {"
	for (i = 0; i < 600; i++)
		printf "%s\"p%d\": {\"type\": \"number\", \"maximum\": %d.5}",
		    i ? ", " : "", i, i
	print "}}"
}' >"$tmp/big.schema.json"
printf '{"p1": 1, "p2": 2.5}\n{"p3": 9}\n' >"$tmp/two.jsonl"
check 1 "jsonresp-check: a --schema past 16 KiB, read with simdjson" \
    /dev/null --schema "$tmp/big.schema.json" --lines "$tmp/two.jsonl"

# llm-loop: t/fake-model answers from a queue of its own for each run
# (lq N REPLY...: the queue $tmp/lq.N, replies 1, 2, ... in order), the
# everything server runs the calls. Each run with a call no rule allows
# has no terminal to ask on: setsid -w puts it in a session without one.
tool=llm-loop
lq() {
	q=$tmp/lq.$1
	shift
	mkdir "$q" || exit 3
	k=0
	for r; do
		k=$((k + 1))
		printf '%s\n' "$r" >"$q/reply.$k"
	done
}
lecho=$(printf '%s' '<tool><server_name>everything</server_name>' \
    '<tool_name>echo</tool_name><arguments><message>caf\303\251 &amp;' \
    ' "x"</message></arguments></tool>')
lecho=$(printf "$lecho")
lsum='<tool><tool_name>get-sum</tool_name><arguments><a>1</a><b>2</b></arguments></tool>'
fm=$top/t/fake-model
lq 1 "Echo it. $lecho" 'It says café.'
check 0 "llm-loop: a call on the everything server, -y, a new thread" \
    /dev/null -y -c "$tmp/mcp-good.json" -t "$tmp/loop.jsonl" \
    'Echo a word.' -- "$fm" "$tmp/lq.1"
lq 2 "Add. $lsum" 'Three.'
check 0 "llm-loop: the thread continued, --allow, -o events, --system" \
    /dev/null --allow 'everything:get-*' -o events \
    --system "$tmp/calls.txt" -c "$tmp/mcp-good.json" \
    -t "$tmp/loop.jsonl" 'Now add.' -- "$fm" "$tmp/lq.2"
check 0 "llm-loop: --dry-run, the message on standard input" \
    "$tmp/calls.txt" --dry-run -c "$tmp/mcp-good.json" \
    -t "$tmp/loop.jsonl" -- "$fm" "$tmp/lq.2"
lq 3 "Add. $lsum" 'Refused, then.'
vg_pre='setsid -w'
check 0 "llm-loop: a call refused, no rule and no terminal" /dev/null \
    --allow 'everything:echo' -c "$tmp/mcp-good.json" 'Add.' -- \
    "$fm" "$tmp/lq.3"
vg_pre=
lq 4 'Adding. <tool_call>{"name": "get-sum", "arguments": {"a": "x"}}</tool_call>' \
    'Again. <tool_call>{"name": "echo", "arguments": {"message": "m"}}</tool_call>'
check 1 "llm-loop: -n reached, --format hermes, a call the reader refuses" \
    /dev/null -y -n 2 --format hermes -c "$tmp/mcp-good.json" \
    -t "$tmp/loop-n.jsonl" 'Loop.' -- "$fm" "$tmp/lq.4"
lq 5 'Summary one.' "Add. $lsum" 'Summary two.' 'Done.'
check 0 "llm-loop: --resume, --max-prompt: summaries" /dev/null -y -q \
    --max-prompt 100 -c "$tmp/mcp-good.json" -t "$tmp/loop.jsonl" \
    --resume -- "$fm" "$tmp/lq.5"
check 3 "llm-loop: a model that fails, --retries 0" /dev/null -y \
    --retries 0 -c "$tmp/mcp-good.json" 'Hi.' -- false
check 2 "llm-loop: a usage error" /dev/null -n 0 'Hi.' -- true

echo "1..$n"
[ "$failed" -eq 0 ]
