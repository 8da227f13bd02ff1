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

# vg ARG...: $tool ARG... under valgrind; sets got.
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
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
for tool in thread-serialize llmq-encode llmr-validate toolcall-parse; do
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
check 0 "special characters" /dev/null "$data/special.jsonl"
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

echo "1..$n"
[ "$failed" -eq 0 ]
