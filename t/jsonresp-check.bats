#!/usr/bin/env bats
# jsonresp-check as a user drives it: the seed's three example responses,
# the safety statuses, several operands, --lines, fences and --strict,
# --find, malformed input (empty, truncated, bad syntax, trailing text,
# invalid UTF-8, BOM), every seed rule, suggestions, --feedback, -q,
# --errors=json, --print-schema, --print-prompt, --schema with a user's
# schema and broken schemas, --ref-map, --no-format, unreadable files and
# failed writes; an oracle (python3-jsonschema's Draft7Validator on 200
# random responses) and the JSON-Schema-Test-Suite's cases of every draft.

load helper

bats_require_minimum_version 1.5.0

D="$DATA/jsonresp-check"
USAGE='usage: jsonresp-check [-hqx] [--assert-format]
                      [--custom-keyword NAME[,...]] [--dialect VERSION]
                      [--draft VERSION] [--errors=github|json|text]
                      [--feedback] [--find] [--lines] [--no-format]
                      [-o none|json|junit|report] [--print-prompt]
                      [--print-schema] [-r FILE] [--ref-map URI=DIR]
                      [--schema FILE] [--strict] [--strict-schema]
                      [--summary] [FILE ...]'
STATUSES='exit status: 0 valid, 1 invalid, 2 usage, 3 trouble, 4 valid but critical, 5 valid but emergency'
OPTIONS='options:
  --assert-format         check "format" as an assertion
  --custom-keyword NAME[,...]
                          declare keywords of your own to the lint
  --dialect VERSION       dialect of the schema, whatever its $schema
  --draft VERSION         dialect of a schema without $schema
  --errors github|json|text
                          how to write diagnostics
  --feedback              write what a model should be told
  --find                  look for the document in any text
  -h, --help              print this help and exit
  --lines                 read one document a line
  --no-format             take "format" as an annotation
  -o, --output none|json|junit|report
                          what to write for each document
  --print-prompt          write a prompt that asks for the schema
  --print-schema          write the schema
  -q, --quiet             print no diagnostics about the documents
  -r, --ref FILE          read a schema that others refer to
  --ref-map URI=DIR       resolve URI prefix from a directory
  --schema FILE           the schema to check against
  --strict                refuse what the schema does not name
  --strict-schema         refuse a schema the lint finds fault with
  --summary               write a summary at the end
  --version               print the version and exit
  -x                      the same as -o json'
FEEDBACK='⚠️ Your previous response did not match the required JSON schema. Please review the schema carefully and provide a response that strictly follows it. Errors: '
EMERGENCY='warning: danger_level is "emergency": show crisis resources, block the conversation (status 5)'
CRITICAL='warning: danger_level is "critical": administrators should be told (status 4)'

# edit JQ-FILTER OUT: minimal.json (one line) edited by jq, compact, in OUT.
edit() {
	jq -c "$1" "$D/minimal.json" >"$2"
}

# suite DRAFT: SUITE is the top directory of the first JSON-Schema-Test-Suite
# that holds tests/DRAFT: $LLMKIT_JSTS (alone, when set), else
# ../shared/testsuites/JSON-Schema-Test-Suite, the copy of Debian's
# libtest-json-schema-acceptance-perl (every draft) and Debian's
# json-schema-test-suite (draft3 to draft7); or the test fails saying where
# it looked.
suite() {
	local d
	if [ -n "${LLMKIT_JSTS:-}" ]; then
		[ -d "$LLMKIT_JSTS/tests/$1" ] ||
		    fail "LLMKIT_JSTS=$LLMKIT_JSTS holds no tests/$1"
		SUITE=$LLMKIT_JSTS
		return 0
	fi
	for d in "$TOP/../shared/testsuites/JSON-Schema-Test-Suite" \
	    /usr/share/perl5/auto/share/dist/Test-JSON-Schema-Acceptance \
	    /usr/share/json-schema-test-suite; do
		if [ -d "$d/tests/$1" ]; then
			SUITE=$d
			return 0
		fi
	done
	fail "no JSON-Schema-Test-Suite holds tests/$1 (looked in \$LLMKIT_JSTS, unset, $TOP/../shared/testsuites/JSON-Schema-Test-Suite, /usr/share/perl5/auto/share/dist/Test-JSON-Schema-Acceptance and /usr/share/json-schema-test-suite): install Debian's libtest-json-schema-acceptance-perl (tools/deps) or set LLMKIT_JSTS"
}

# format_cases DRAFT: the suite's optional format files of DRAFT, for the
# formats the issue asked for, copied into fmt/; n is their count of cases.
format_cases() {
	local f
	mkdir fmt
	for f in date-time date time email hostname ipv4 ipv6 uri uri-reference \
	    json-pointer relative-json-pointer regex; do
		cp "$SUITE/tests/$1/optional/format/$f.json" fmt/ ||
		    fail "the suite has no $1/optional/format/$f.json"
	done
	n=$(cases fmt/*.json)
}

# cases FILE...: how many test cases the suite's files hold.
cases() {
	jq -s '[.[][].tests | length] | add' "$@"
}

# ---------------------------------------------------------------- options

@test "-h prints the usage, what each option does and the exit statuses on stdout and exits 0" {
	run -0 --separate-stderr jsonresp-check -h
	assert_output "$USAGE

$OPTIONS

$STATUSES"
	assert_equal "$stderr" ""
	run -0 --separate-stderr jsonresp-check --help
	assert_output "$USAGE

$OPTIONS

$STATUSES"
}

@test "--version prints the tool, llmkit and the version" {
	run -0 --separate-stderr jsonresp-check --version
	assert_output "jsonresp-check (llmkit) 0.1.0"
	assert_equal "$stderr" ""
}

@test "unknown options are usage errors: status 2" {
	run -2 --separate-stderr jsonresp-check -y "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: invalid option -- 'y'
$USAGE"
	run -2 --separate-stderr jsonresp-check --pretty "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: unrecognized option '--pretty'
$USAGE"
}

@test "--errors with a value other than json or text is a usage error" {
	run -2 --separate-stderr jsonresp-check --errors=xml "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: --errors must be github, json or text, not \"xml\"
$USAGE"
}

@test "--schema without a value is a usage error" {
	run -2 --separate-stderr jsonresp-check --schema
	assert_equal "$stderr" "jsonresp-check: option '--schema' requires an argument
$USAGE"
}

# --------------------------------------------------------- seed examples

@test "the seed's normal response with suggestions is valid: status 0, silent" {
	run -0 --separate-stderr jsonresp-check "$D/seed-normal.json"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "the seed's response with a form is valid: status 0, silent" {
	run -0 --separate-stderr jsonresp-check "$D/seed-form.json"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "the seed's emergency response is valid with status 5 and its warning" {
	run -5 --separate-stderr jsonresp-check "$D/seed-emergency.json"
	assert_output ""
	assert_equal "$stderr" "$D/seed-emergency.json:5:21: $EMERGENCY"
}

@test "the seed's examples on stdin, by - and by no operand" {
	run -5 --separate-stderr sh -c 'jsonresp-check <"$1"' sh "$D/seed-emergency.json"
	assert_equal "$stderr" "<stdin>:5:21: $EMERGENCY"
	run -0 --separate-stderr sh -c 'jsonresp-check - <"$1"' sh "$D/seed-form.json"
	assert_equal "$stderr" ""
}

# ----------------------------------------------------------------- safety

@test "danger_level null is valid and silent: status 0" {
	run -0 --separate-stderr jsonresp-check "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "danger_level warning: status 0 with a warning line" {
	edit '.safety.danger_level = "warning"' w.json
	run -0 --separate-stderr jsonresp-check w.json
	assert_output ""
	assert_equal "$stderr" 'w.json:1:60: warning: danger_level is "warning"'
}

@test "danger_level critical: status 4 with its warning line" {
	edit '.safety.danger_level = "critical" | .safety.is_safe = false' c.json
	run -4 --separate-stderr jsonresp-check c.json
	assert_output ""
	assert_equal "$stderr" "c.json:1:61: $CRITICAL"
}

@test "an invalid response with danger_level emergency is status 1, without the safety warning" {
	edit '.safety.danger_level = "emergency" | .type = "reply"' e.json
	run -1 --separate-stderr jsonresp-check e.json
	assert_equal "$stderr" 'e.json:1:9: error: /type: expected "response" (const), found string "reply"'
}

@test "several operands: each is reported and the highest status wins" {
	edit '.safety.danger_level = "warning"' w.json
	edit '.safety.danger_level = "critical"' c.json
	edit '.type = "x"' bad.json
	run -0 --separate-stderr jsonresp-check "$D/minimal.json" w.json "$D/seed-normal.json"
	assert_equal "$stderr" 'w.json:1:60: warning: danger_level is "warning"'
	run -1 --separate-stderr jsonresp-check bad.json w.json
	assert_equal "$stderr" 'bad.json:1:9: error: /type: expected "response" (const), found string "x"
w.json:1:60: warning: danger_level is "warning"'
	run -4 --separate-stderr jsonresp-check bad.json c.json "$D/minimal.json"
	run -5 --separate-stderr jsonresp-check c.json "$D/seed-emergency.json" bad.json w.json
	assert_equal "$stderr" "c.json:1:60: $CRITICAL
$D/seed-emergency.json:5:21: $EMERGENCY
bad.json:1:9: error: /type: expected \"response\" (const), found string \"x\"
w.json:1:60: warning: danger_level is \"warning\""
}

@test "a missing operand is trouble (status 3) and the others are still checked" {
	edit '.type = "x"' bad.json
	run -3 --separate-stderr jsonresp-check nonexistent.json bad.json
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: nonexistent.json: No such file or directory
bad.json:1:9: error: /type: expected "response" (const), found string "x"'
	run -5 --separate-stderr jsonresp-check nonexistent.json "$D/seed-emergency.json"
}

@test "a directory operand is trouble: status 3" {
	mkdir d
	run -3 --separate-stderr jsonresp-check d
	assert_equal "$stderr" "jsonresp-check: d: Is a directory"
}

# ------------------------------------------------------------------ --lines

@test "--lines checks one response per line with file-wide line numbers, skipping blank lines" {
	{
		echo
		cat "$D/minimal.json"
		printf '   \n\t\n'
		jq -c '.safety.danger_level = "critical"' "$D/minimal.json"
		echo
		jq -c '.content.suggestions = ["a"]' "$D/minimal.json"
		echo '{"type":"response"}'
	} >r.jsonl
	run -4 --separate-stderr jsonresp-check --lines r.jsonl
	assert_output ""
	assert_equal "$stderr" "r.jsonl:5:60: $CRITICAL
r.jsonl:7:192: error: /content/suggestions/0: expected object, found string \"a\"
r.jsonl:8:1: error: missing required property \"safety\"
r.jsonl:8:1: error: missing required property \"content\"
r.jsonl:8:1: error: missing required property \"metadata\""
}

@test "--lines: every line is its own document; a bad line does not stop the others" {
	printf '{"type":\n%s\n{}x\n\n' "$(cat "$D/minimal.json")" >r.jsonl
	run -1 --separate-stderr jsonresp-check --lines r.jsonl
	assert_equal "$stderr" 'r.jsonl:1:9: error: truncated: the JSON document ends before it is complete
r.jsonl:3:3: error: invalid JSON: text after the end of the document'
}

@test "--lines accepts CRLF line ends and a final line without a newline" {
	printf '%s\r\n%s' "$(cat "$D/minimal.json")" '{"type":"response","x":1}' >r.jsonl
	run -1 --separate-stderr jsonresp-check --lines r.jsonl
	assert_equal "$stderr" 'r.jsonl:2:1: error: missing required property "safety"
r.jsonl:2:1: error: missing required property "content"
r.jsonl:2:1: error: missing required property "metadata"
r.jsonl:2:24: error: /x: unexpected property "x"'
}

@test "--lines of only blank lines is valid: there is nothing to check" {
	printf '\n  \n\n' >r.jsonl
	run -0 --separate-stderr jsonresp-check --lines r.jsonl
	assert_equal "$stderr" ""
}

@test "columns count characters, not bytes" {
	edit '.content.text_blocks[0].content = "héllo→" | .metadata.model = true' u.json
	run -1 --separate-stderr jsonresp-check u.json
	assert_equal "$stderr" 'u.json:1:202: error: /metadata/model: expected string, found boolean true'
	{ echo; cat u.json; } >u.jsonl
	run -1 --separate-stderr jsonresp-check --lines u.jsonl
	assert_equal "$stderr" 'u.jsonl:2:202: error: /metadata/model: expected string, found boolean true'
}

# ------------------------------------------------------------------ fences

@test "a response in a \`\`\`json fence is accepted" {
	{ echo '```json'; cat "$D/seed-form.json"; echo '```'; } >f.md
	run -0 --separate-stderr jsonresp-check f.md
	assert_output ""
	assert_equal "$stderr" ""
}

@test "a response in a bare \`\`\` fence is accepted, positions as in the file" {
	{ echo '```'; cat "$D/seed-emergency.json"; printf '```'; } >f.md
	run -5 --separate-stderr jsonresp-check f.md
	assert_equal "$stderr" "f.md:6:21: $EMERGENCY"
}

@test "a schema error inside a fence is reported at its place in the file" {
	{ printf '\n```JSON\n'; jq -c '.type = "two"' "$D/minimal.json"; printf '```\n\n'; } >f.md
	run -1 --separate-stderr jsonresp-check f.md
	assert_equal "$stderr" 'f.md:3:9: error: /type: expected "response" (const), found string "two"'
}

@test "--strict refuses a fenced response, at the fence" {
	{ echo '```json'; cat "$D/seed-form.json"; echo '```'; } >f1.md
	{ echo '```'; cat "$D/minimal.json"; echo '```'; } >f2.md
	run -1 --separate-stderr jsonresp-check --strict f1.md f2.md
	assert_output ""
	assert_equal "$stderr" 'f1.md:1:1: error: the response is wrapped in a Markdown code fence (--strict)
f2.md:1:1: error: the response is wrapped in a Markdown code fence (--strict)'
	run -1 --separate-stderr jsonresp-check --strict --errors=json f2.md
	assert_equal "$stderr" '{"file":"f2.md","line":1,"column":1,"severity":"error","rule":"fence","message":"the response is wrapped in a Markdown code fence (--strict)"}'
}

@test "--strict accepts an unfenced response" {
	run -0 --separate-stderr jsonresp-check --strict "$D/seed-form.json"
	assert_equal "$stderr" ""
	run -5 --separate-stderr jsonresp-check --strict "$D/seed-emergency.json"
	assert_equal "$stderr" "$D/seed-emergency.json:5:21: $EMERGENCY"
}

@test "a fence that does not close is not a fence: invalid JSON" {
	{ echo '```json'; cat "$D/minimal.json"; } >f.md
	run -1 --separate-stderr jsonresp-check f.md
	assert_equal "$stderr" "f.md:1:1: error: invalid JSON: invalid token near '\`'"
}

# ------------------------------------------------------------------- --find

@test "--find picks the response out of prose" {
	{ printf 'Sure! Here is my answer:\n\n'; cat "$D/seed-emergency.json"; printf '\nHope this helps {really}.\n'; } >p.txt
	run -5 --separate-stderr jsonresp-check --find p.txt
	assert_output ""
	assert_equal "$stderr" "p.txt:7:21: $EMERGENCY"
	run -1 --separate-stderr jsonresp-check p.txt
	assert_equal "$stderr" "p.txt:1:1: error: invalid JSON: invalid token near 'Sure'"
}

@test "--find skips a { that starts no whole value and takes the first one that does" {
	printf 'a {broken then [1,2] and %s\n' "$(cat "$D/minimal.json")" >p.txt
	run -1 --separate-stderr jsonresp-check --find p.txt
	assert_equal "$stderr" 'p.txt:1:16: error: expected object, found array'
}

@test "--find in a fence, and with --lines" {
	{ echo '```json'; cat "$D/minimal.json"; echo '```'; } >f.md
	run -0 --separate-stderr jsonresp-check --find f.md
	assert_equal "$stderr" ""
	printf 'x %s y\nno json\n' "$(jq -c '.safety.danger_level = "critical"' "$D/minimal.json")" >p.jsonl
	run -4 --separate-stderr jsonresp-check --find --lines p.jsonl
	assert_equal "$stderr" "p.jsonl:1:62: $CRITICAL
p.jsonl:2:1: error: no JSON object or array found"
}

@test "--find without any JSON object or array: rule find" {
	printf 'No JSON {here} at all.\n' >p.txt
	run -1 --separate-stderr jsonresp-check --find --errors=json p.txt
	assert_equal "$stderr" '{"file":"p.txt","line":1,"column":1,"severity":"error","rule":"find","message":"no JSON object or array found"}'
}

# ----------------------------------------------------------- bad documents

@test "empty input: rule empty" {
	: >e.json
	run -1 --separate-stderr jsonresp-check e.json
	assert_equal "$stderr" 'e.json:1:1: error: empty input: no JSON document'
	run -1 --separate-stderr jsonresp-check --errors=json - </dev/null
	assert_equal "$stderr" '{"file":"<stdin>","line":1,"column":1,"severity":"error","rule":"empty","message":"empty input: no JSON document"}'
}

@test "input of only white space is empty input, at its end" {
	printf ' \n\t' >e.json
	run -1 --separate-stderr jsonresp-check e.json
	assert_equal "$stderr" 'e.json:2:2: error: empty input: no JSON document'
}

@test "truncated input has its own message: rule truncated" {
	# cut inside a string: at the string that never ends
	head -c 280 "$D/seed-form.json" >t.json
	run -1 --separate-stderr jsonresp-check t.json
	assert_equal "$stderr" 't.json:14:20: error: truncated: the JSON document ends before it is complete'
	# cut after "{" and white space: just after the last token
	head -c 200 "$D/seed-form.json" >t.json
	run -1 --separate-stderr jsonresp-check t.json
	assert_equal "$stderr" 't.json:10:15: error: truncated: the JSON document ends before it is complete'
	printf '{"type":"response","content":{"text_blocks":[' >t.json
	run -1 --separate-stderr jsonresp-check --errors=json t.json
	assert_equal "$stderr" '{"file":"t.json","line":1,"column":46,"severity":"error","rule":"truncated","message":"truncated: the JSON document ends before it is complete"}'
	printf '{"type":"resp' >t.json
	run -1 --separate-stderr jsonresp-check t.json
	assert_equal "$stderr" 't.json:1:9: error: truncated: the JSON document ends before it is complete'
}

@test "bad JSON: rule json-syntax with jansson's text" {
	printf '{\n  "type": "response",\n}\n' >b.json
	run -1 --separate-stderr jsonresp-check b.json
	assert_equal "$stderr" "b.json:3:1: error: invalid JSON: string or '}' expected near '}'"
	printf "{'type': 'response'}" >b.json
	run -1 --separate-stderr jsonresp-check --errors=json b.json
	assert_equal "$stderr" "{\"file\":\"b.json\",\"line\":1,\"column\":2,\"severity\":\"error\",\"rule\":\"json-syntax\",\"message\":\"invalid JSON: string or '}' expected near '''\"}"
}

@test "text after the value is invalid JSON" {
	{ cat "$D/minimal.json"; echo ' {"again":1}'; } >b.json
	run -1 --separate-stderr jsonresp-check b.json
	assert_equal "$stderr" 'b.json:2:2: error: invalid JSON: text after the end of the document'
	{ cat "$D/minimal.json"; echo 'Hope that helps!'; } >b.json
	run -1 --separate-stderr jsonresp-check --errors=json b.json
	assert_equal "$stderr" '{"file":"b.json","line":2,"column":1,"severity":"error","rule":"json-syntax","message":"invalid JSON: text after the end of the document"}'
}

@test "invalid UTF-8: rule utf8 with the byte and its offset" {
	printf '{"type":"response",\n"x":"\xff"}' >u.json
	run -1 --separate-stderr jsonresp-check u.json
	assert_equal "$stderr" 'u.json:2:6: error: invalid UTF-8: byte 0xff at byte offset 25'
	printf '%s\n{"a":"\xc3\x28"}\n' "$(cat "$D/minimal.json")" >u.jsonl
	run -1 --separate-stderr jsonresp-check --lines --errors=json u.jsonl
	assert_equal "$stderr" '{"file":"u.jsonl","line":2,"column":7,"severity":"error","rule":"utf8","message":"invalid UTF-8: byte 0xc3 at byte offset 209"}'
}

@test "a BOM is skipped and not counted as a column" {
	printf '\xef\xbb\xbf' >b.json
	cat "$D/seed-emergency.json" >>b.json
	run -5 --separate-stderr jsonresp-check b.json
	assert_equal "$stderr" "b.json:5:21: $EMERGENCY"
	printf '\xef\xbb\xbf{"type":"x"}' >b.json
	run -1 --separate-stderr jsonresp-check b.json
	assert_equal "$stderr" 'b.json:1:1: error: missing required property "safety"
b.json:1:1: error: missing required property "content"
b.json:1:1: error: missing required property "metadata"
b.json:1:9: error: /type: expected "response" (const), found string "x"'
	printf '\xef\xbb\xbf' >b.json
	run -1 --separate-stderr jsonresp-check b.json
	assert_equal "$stderr" 'b.json:1:1: error: empty input: no JSON document'
}

# ------------------------------------------------------------ schema rules

@test "numbers in messages are written as JSON writes them: 3, not 3.0" {
	edit '.type = 1' t.json
	run -1 --separate-stderr jsonresp-check t.json
	assert_equal "$stderr" 't.json:1:9: error: /type: expected "response" (const), found integer 1'
	echo '{"type": "string"}' >s.json
	printf '3\n-12\n0\n1.5\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_equal "$stderr" 'd.jsonl:1:1: error: expected string, found integer 3
d.jsonl:2:1: error: expected string, found integer -12
d.jsonl:3:1: error: expected string, found integer 0
d.jsonl:4:1: error: expected string, found number 1.5'
}

@test "the root must be an object" {
	echo '"just text"' >r.json
	run -1 --separate-stderr jsonresp-check r.json
	assert_equal "$stderr" 'r.json:1:1: error: expected object, found string "just text"'
}

@test "a missing required member is reported at its object" {
	edit 'del(.safety.requires_intervention) | del(.metadata.model)' m.json
	run -1 --separate-stderr jsonresp-check m.json
	assert_equal "$stderr" 'm.json:1:29: error: /safety: missing required property "requires_intervention"
m.json:1:159: error: /metadata: missing required property "model"'
}

@test "text_blocks needs at least one block" {
	edit '.content.text_blocks = []' t.json
	run -1 --separate-stderr jsonresp-check --errors=json t.json
	assert_equal "$stderr" '{"file":"t.json","line":1,"column":144,"severity":"error","rule":"schema","message":"array has 0 items, fewer than the minimum 1","path":"/content/text_blocks","keywordLocation":"/properties/content/$ref/properties/text_blocks/minItems"}'
}

@test "an unknown danger level is a schema error, not a safety status" {
	edit '.safety.danger_level = "high"' d.json
	run -1 --separate-stderr jsonresp-check d.json
	assert_equal "$stderr" 'd.json:1:60: error: /safety/danger_level: expected one of [null,"warning","critical","emergency"], found string "high"'
}

# ------------------------------------------------------------- suggestions

@test "suggestions as plain strings are invalid" {
	edit '.content.suggestions = ["Option 1", "Option 2"]' s.json
	run -1 --separate-stderr jsonresp-check s.json
	assert_output ""
	assert_equal "$stderr" 's.json:1:192: error: /content/suggestions/0: expected object, found string "Option 1"
s.json:1:203: error: /content/suggestions/1: expected object, found string "Option 2"'
}

@test "suggestions with \"label\" instead of \"text\" are invalid" {
	edit '.content.suggestions = [{"label": "a"}]' s.json
	run -1 --separate-stderr jsonresp-check s.json
	assert_equal "$stderr" 's.json:1:192: error: /content/suggestions/0: missing required property "text"
s.json:1:201: error: /content/suggestions/0/label: unexpected property "label"'
}

@test "suggestions with \"text\" and \"value\" are valid" {
	edit '.content.suggestions = [{"text": "a", "value": "Tell me about a"}, {"text": "b"}]' s.json
	run -0 --separate-stderr jsonresp-check s.json
	assert_equal "$stderr" ""
}

# --------------------------------------------------------------- seed rules

@test "seed rules: duplicate field id, empty options, scale min not below max" {
	run -1 --separate-stderr jsonresp-check "$D/form-seed-rules.json"
	assert_output ""
	assert_equal "$stderr" "$D/form-seed-rules.json:26:18: error: /content/form/fields/0/min: a scale's min 5 is not below its max 1
$D/form-seed-rules.json:31:17: error: /content/form/fields/1/id: field id \"anxiety_level\" is already the id of field 0
$D/form-seed-rules.json:30:9: error: /content/form/fields/1: a checkbox field needs a non-empty \"options\" array of {\"value\", \"label\"}"
}

@test "seed rules: radio and select without options, scale without max; JSON names the rules" {
	run -1 --separate-stderr jsonresp-check --errors=json "$D/form-seed-missing.json"
	assert_equal "$stderr" "{\"file\":\"$D/form-seed-missing.json\",\"line\":21,\"column\":9,\"severity\":\"error\",\"rule\":\"seed-options\",\"message\":\"a radio field needs a non-empty \\\"options\\\" array of {\\\"value\\\", \\\"label\\\"}\",\"path\":\"/content/form/fields/0\"}
{\"file\":\"$D/form-seed-missing.json\",\"line\":30,\"column\":9,\"severity\":\"error\",\"rule\":\"seed-options\",\"message\":\"a select field needs a non-empty \\\"options\\\" array of {\\\"value\\\", \\\"label\\\"}\",\"path\":\"/content/form/fields/1\"}
{\"file\":\"$D/form-seed-missing.json\",\"line\":36,\"column\":9,\"severity\":\"error\",\"rule\":\"seed-scale\",\"message\":\"a scale field needs numeric \\\"min\\\" and \\\"max\\\"\",\"path\":\"/content/form/fields/2\"}"
}

@test "seed rule seed-unique-id in JSON, and equal min and max" {
	jq -c '.content.form.fields[1].id = "anxiety_level" | .content.form.fields[0].max = 1' "$D/seed-form.json" >f.json
	run -1 --separate-stderr jsonresp-check --errors=json f.json
	assert_equal "$stderr" '{"file":"f.json","line":1,"column":455,"severity":"error","rule":"seed-scale","message":"a scale'"'"'s min 1 is not below its max 1","path":"/content/form/fields/0/min"}
{"file":"f.json","line":1,"column":523,"severity":"error","rule":"seed-unique-id","message":"field id \"anxiety_level\" is already the id of field 0","path":"/content/form/fields/1/id"}'
}

@test "a seed-rule error stops the safety status: invalid wins, no warning" {
	jq '.content.form.fields[0].min = 3 | .content.form.fields[0].max = 3 | .safety.danger_level = "emergency"' "$D/seed-form.json" >f.json
	run -1 --separate-stderr jsonresp-check f.json
	assert_equal "$stderr" "f.json:26:18: error: /content/form/fields/0/min: a scale's min 3 is not below its max 3"
}

@test "the seed rules do not apply to text, textarea and number fields" {
	jq '.content.form.fields += [{"id":"n","type":"number","label":"n","min":9,"max":1},{"id":"t","type":"text","label":"t"},{"id":"a","type":"textarea","label":"a","options":[]}]' "$D/seed-form.json" >f.json
	run -0 --separate-stderr jsonresp-check f.json
	assert_equal "$stderr" ""
}

# ----------------------------------------------------------------- feedback

@test "--feedback prints the seed's message with the errors on stdout" {
	edit '.content.suggestions = [{"label": "a"}] | del(.type)' s.json
	run -1 --separate-stderr jsonresp-check --feedback s.json
	assert_output "${FEEDBACK}missing required property \"type\", /content/suggestions/0: missing required property \"text\", /content/suggestions/0/label: unexpected property \"label\""
	assert_equal "$stderr" 's.json:1:1: error: missing required property "type"
s.json:1:174: error: /content/suggestions/0: missing required property "text"
s.json:1:183: error: /content/suggestions/0/label: unexpected property "label"'
}

@test "--feedback prints nothing for a valid response, even with a danger level" {
	run -0 --separate-stderr jsonresp-check --feedback "$D/seed-normal.json"
	assert_output ""
	run -5 --separate-stderr jsonresp-check --feedback "$D/seed-emergency.json"
	assert_output ""
	assert_equal "$stderr" "$D/seed-emergency.json:5:21: $EMERGENCY"
}

@test "--feedback names seed-rule errors and JSON errors too, one line per invalid document" {
	{
		jq -c '.content.form.fields[0].max = 0' "$D/seed-form.json"
		cat "$D/minimal.json"
		echo '{"type":'
		echo
		echo 'not json'
	} >r.jsonl
	run -1 --separate-stderr jsonresp-check --feedback -q --lines r.jsonl
	assert_output "${FEEDBACK}/content/form/fields/0/min: a scale's min 1 is not below its max 0
${FEEDBACK}truncated: the JSON document ends before it is complete
${FEEDBACK}invalid JSON: invalid token near 'not'"
	assert_equal "$stderr" ""
}

@test "--feedback output to a full disk is trouble: status 3" {
	edit '.type = "x"' s.json
	run -3 --separate-stderr sh -c 'jsonresp-check -q --feedback s.json >/dev/full'
	assert_equal "$stderr" "jsonresp-check: <stdout>: No space left on device"
}

# ---------------------------------------------------------------------- -q

@test "-q prints no diagnostics; the status is the same" {
	edit '.type = "x"' bad.json
	run -1 --separate-stderr jsonresp-check -q bad.json
	assert_output ""
	assert_equal "$stderr" ""
	run -5 --separate-stderr jsonresp-check --quiet "$D/seed-emergency.json" bad.json
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr jsonresp-check -q --errors=json "$D/seed-normal.json"
	assert_equal "$stderr" ""
}

# ------------------------------------------------------------ --errors=json

@test "--errors=json: schema errors with path and keywordLocation, warnings too" {
	edit '.content.suggestions = [{"label": "a"}]' s.json
	edit '.safety.danger_level = "critical"' c.json
	run -4 --separate-stderr jsonresp-check --errors=json s.json c.json
	assert_output ""
	assert_equal "$stderr" '{"file":"s.json","line":1,"column":192,"severity":"error","rule":"schema","message":"missing required property \"text\"","path":"/content/suggestions/0","keywordLocation":"/properties/content/$ref/properties/suggestions/items/$ref/required"}
{"file":"s.json","line":1,"column":201,"severity":"error","rule":"schema","message":"unexpected property \"label\"","path":"/content/suggestions/0/label","keywordLocation":"/properties/content/$ref/properties/suggestions/items/$ref/additionalProperties"}
{"file":"c.json","line":1,"column":60,"severity":"warning","rule":"danger-level","message":"danger_level is \"critical\": administrators should be told (status 4)"}'
}

@test "--errors=text is the default" {
	edit '.type = "x"' bad.json
	run -1 --separate-stderr jsonresp-check --errors=text bad.json
	assert_equal "$stderr" 'bad.json:1:9: error: /type: expected "response" (const), found string "x"'
}

# ---------------------------------------------- --print-schema, --print-prompt

@test "--print-schema prints data/llm-response.schema.json byte for byte" {
	jsonresp-check --print-schema >out.json
	cmp out.json "$TOP/data/llm-response.schema.json"
}

@test "--print-schema with --schema prints the user's schema as written" {
	printf '{ "type" :\t"string" }' >s.json
	jsonresp-check --schema s.json --print-schema >out.json
	cmp out.json s.json
}

@test "--print-prompt is the prompt with the schema in place of {{SCHEMA}}" {
	jsonresp-check --print-prompt >out.txt
	{
		sed '/^{{SCHEMA}}$/,$d' "$TOP/data/jsonresp-prompt.txt"
		cat "$TOP/data/llm-response.schema.json"
		sed '1,/^{{SCHEMA}}$/d' "$TOP/data/jsonresp-prompt.txt"
	} >want.txt
	cmp out.txt want.txt
	run ! grep -F '{{SCHEMA}}' out.txt
}

@test "--print-prompt holds the schema and the seed's key points" {
	run -0 --separate-stderr jsonresp-check --print-prompt
	assert_output --partial "$(cat "$TOP/data/llm-response.schema.json")"
	assert_output --partial 'You answer every message with one JSON object, and nothing else'
	assert_output --partial 'no Markdown code fence'
	assert_output --partial '"type" is always "response".'
	assert_output --partial '"safety" is mandatory in every answer.'
	assert_output --partial '"content.text_blocks" holds at least one block'
	assert_output --partial 'Suggestions are objects with a "text" property'
	assert_output --partial "answer in the user's language"
	assert_output --partial '"emergency" for imminent danger'
	assert_equal "$stderr" ""
}

@test "--print-prompt with --schema is a prompt for that schema alone: its title, description and text" {
	printf '{"type": "object", "title": "Person",\n "description": "A person of the book."}\n\n' >s.json
	run -0 --separate-stderr jsonresp-check --schema s.json --print-prompt
	assert_output 'You answer every message with one JSON document, and nothing else: no
prose before or after it, no Markdown code fence around it. The document
must follow the JSON Schema below exactly.

Title: Person
Description: A person of the book.

The schema:

{"type": "object", "title": "Person",
 "description": "A person of the book."}'
	assert_equal "$stderr" ''
	refute_output --partial 'urn:llmkit:llm-response'
	refute_output --partial '"safety"'
}

@test "--print-prompt with --schema and --find allows prose; a schema without a title has no title line" {
	echo '{"type": "array", "description": 3}' >s.json
	run -0 --separate-stderr jsonresp-check --schema s.json --find --print-prompt
	assert_output 'You answer every message with one JSON document that follows the JSON
Schema below exactly. Prose may come before or after it: the first
JSON object or array in your answer is the document, so write no other
before it.

The schema:

{"type": "array", "description": 3}'
	assert_equal "$stderr" ''
}

@test "--print-prompt with --schema that is not JSON: its place, status 2, nothing written" {
	printf '{"type":\n  x}' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json --print-prompt
	assert_output ''
	assert_equal "$stderr" "jsonresp-check: s.json:2:3: the schema is not JSON: invalid token near 'x'"
}

@test "--print-schema and --print-prompt with an operand: usage error" {
	run -2 --separate-stderr jsonresp-check --print-schema "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: --print-schema reads no input
$USAGE"
	run -2 --separate-stderr jsonresp-check --print-prompt -
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: --print-prompt reads no input
$USAGE"
}

@test "--print-schema and --print-prompt to a full disk: status 3" {
	run -3 --separate-stderr sh -c 'jsonresp-check --print-schema >/dev/full'
	assert_equal "$stderr" "jsonresp-check: <stdout>: No space left on device"
	run -3 --separate-stderr sh -c 'jsonresp-check --print-prompt >/dev/full'
	assert_equal "$stderr" "jsonresp-check: <stdout>: No space left on device"
}

# ------------------------------------------------------------------ --schema

@test "--schema checks against the user's schema: no seed rules, no safety status" {
	cat >s.json <<-'EOF'
	{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}
	EOF
	{
		echo '{"a": 1}'
		echo '{"a": "x"}'
		echo '{}'
		jq -c '.a = 1 | .safety.danger_level = "emergency"' "$D/minimal.json"
		jq -c '.a = 1' "$D/form-seed-rules.json"
	} >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" 'd.jsonl:2:7: error: /a: expected integer, found string "x"
d.jsonl:3:1: error: missing required property "a"'
	run -1 --separate-stderr jsonresp-check --schema s.json "$D/form-seed-rules.json" - <<<'{"a": 0}'
	assert_output ""
	assert_equal "$stderr" "$D/form-seed-rules.json:1:1: error: missing required property \"a\""
}

@test "--schema: the seed's emergency example is status 0 under a user's schema" {
	echo '{"type": "object"}' >s.json
	run -0 --separate-stderr jsonresp-check --schema s.json "$D/seed-emergency.json"
	assert_equal "$stderr" ""
}

@test "--schema: a file that is not JSON is status 2 with its position" {
	printf '{"type": "object",\n  "required": [a]}\n' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: s.json:2:16: the schema is not JSON: invalid token near 'a'"
}

@test "--schema: a schema cut off after a newline reports column 1, not 0" {
	printf '{"type":\n' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: s.json:2:1: the schema is not JSON: unexpected token near end of file"
}

@test "--schema: a schema that does not compile is status 2 with the message" {
	echo '{"type": "nope"}' >s1.json
	run -2 --separate-stderr jsonresp-check --schema s1.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: s1.json: "type" must be a type name or an array of them'
	echo '{"properties": {"a": {"minLength": -1}}}' >s2.json
	run -2 --separate-stderr jsonresp-check --schema s2.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s2.json: /properties/a: "minLength" must be a non-negative integer'
	echo '{"pattern": "(["}' >s3.json
	run -2 --separate-stderr jsonresp-check --schema s3.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s3.json: invalid pattern "([": unterminated character class at offset 2'
}

@test "--schema: an unresolvable \$ref is status 2 with the message" {
	echo '{"$ref": "#/definitions/missing"}' >s1.json
	run -2 --separate-stderr jsonresp-check --schema s1.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: s1.json: /\$ref: cannot resolve \$ref \"#/definitions/missing\" (\"file://$(pwd -P)/s1.json#/definitions/missing\")"
	echo '{"properties": {"n": {"$ref": "http://example.com/name.json"}}}' >s2.json
	run -2 --separate-stderr jsonresp-check --schema s2.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s2.json: /properties/n/$ref: cannot resolve $ref to "http://example.com/name.json": not loaded (give its schema with -r FILE, or map the URI to a directory with --ref-map URI=DIR)'
}

@test "--schema: a missing schema file is trouble: status 3" {
	run -3 --separate-stderr jsonresp-check --schema nonexistent.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: nonexistent.json: No such file or directory"
}

@test "--schema: the draft-07 meta-schema resolves without the network" {
	echo '{"$ref": "http://json-schema.org/draft-07/schema#"}' >meta.json
	printf '{"type": "string"}\n{"type": 12}\n{"minLength": -1}\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema meta.json --lines d.jsonl
	assert_output ""
	[ "$(printf '%s\n' "$stderr" | cut -d: -f1-2 | sort -u)" = "d.jsonl:2
d.jsonl:3" ]
}

# ----------------------------------------------------------------- --ref-map

@test "--ref-map maps a base URI to a local directory for a remote \$ref" {
	mkdir -p remote/sub
	echo '{"type": "string", "minLength": 2}' >remote/sub/name.json
	echo '{"properties": {"n": {"$ref": "http://schemas.example.org/sub/name.json"}}}' >s.json
	printf '{"n": "ab"}\n{"n": "a"}\n{"n": "abc"}\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema s.json \
	    --ref-map http://schemas.example.org/=remote --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" 'd.jsonl:2:7: error: /n: string of 1 character is shorter than the minimum length 2'
	run -1 --separate-stderr jsonresp-check --schema s.json \
	    --ref-map http://other.example/=elsewhere \
	    --ref-map http://schemas.example.org/=remote/ --lines d.jsonl
	assert_equal "$stderr" 'd.jsonl:2:7: error: /n: string of 1 character is shorter than the minimum length 2'
}

@test "--ref-map to a directory without the file is status 2" {
	echo '{"properties": {"n": {"$ref": "http://schemas.example.org/sub/name.json"}}}' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json \
	    --ref-map http://schemas.example.org/=nodir "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s.json: /properties/n/$ref: cannot load "http://schemas.example.org/sub/name.json" from nodir/sub/name.json: No such file or directory'
}

@test "--ref-map without URI=DIR is a usage error" {
	for bad in nodir =dir uri=; do
		run -2 --separate-stderr jsonresp-check --ref-map "$bad" "$D/minimal.json"
		assert_output ""
		assert_equal "$stderr" "jsonresp-check: --ref-map must be URI=DIR, not \"$bad\"
$USAGE"
	done
}

# --------------------------------------------------------------- --no-format

@test "format is checked by default; --no-format turns it off" {
	echo '{"properties": {"e": {"type": "string", "format": "email"}}}' >s.json
	printf '{"e": "joe@example.com"}\n{"e": "not an email"}\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_equal "$stderr" 'd.jsonl:2:7: error: /e: string "not an email" is not a valid email'
	run -0 --separate-stderr jsonresp-check --no-format --schema s.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" ""
}

# ------------------------------------------------------------------- oracle

@test "the verdict per line agrees with python3-jsonschema's Draft7Validator on 200 random responses" {
	/usr/bin/python3 -c 'import jsonschema' ||
	    fail "Debian's python3-jsonschema is missing (tools/deps)"
	node "$D/gen-responses.js" 200 >g.jsonl
	[ "$(grep -c '[^ 	]' g.jsonl)" -eq 200 ]
	/usr/bin/python3 "$D/verdict.py" "$TOP/data/llm-response.schema.json" g.jsonl >want
	# a fair mix: many valid and many invalid, every danger level
	invalid=$(grep -c ' invalid$' want)
	[ "$invalid" -ge 60 ] && [ "$invalid" -le 140 ]
	grep -q ' warning$' want
	grep -q ' critical$' want
	grep -q ' emergency$' want
	run -5 --separate-stderr jsonresp-check --lines --errors=json g.jsonl
	assert_output ""
	printf '%s\n' "$stderr" | jq -r 'if .severity == "error" then "\(.line) invalid"
	    else "\(.line) \(.message | capture("\"(?<l>[a-z]+)\"").l)" end' |
	    sort -k1,1n -k2,2 -u >got
	diff want got
}

# -------------------------------------------------- JSON-Schema-Test-Suite

@test "the JSON-Schema-Test-Suite's required draft7 cases all pass" {
	suite draft7
	n=$(cases "$SUITE"/tests/draft7/*.json)
	[ "$n" -ge 400 ]
	JSONRESP_CHECK=$(command -v jsonresp-check)
	export JSONRESP_CHECK
	run -0 node "$TOP/t/oracle/jsts.js" "$SUITE"
	assert_equal "${lines[-1]}" "$n passed, 0 failed"
}

@test "the JSON-Schema-Test-Suite's required draft4 and draft6 cases all pass under --draft" {
	JSONRESP_CHECK=$(command -v jsonresp-check)
	export JSONRESP_CHECK
	for v in 4 6; do
		suite draft$v
		n=$(cases "$SUITE"/tests/draft$v/*.json)
		[ "$n" -ge 300 ]
		run -0 node "$TOP/t/oracle/jsts.js" "$SUITE" "$SUITE/tests/draft$v" $v
		assert_equal "${lines[-1]}" "$n passed, 0 failed"
	done
}

@test "the JSON-Schema-Test-Suite's optional format cases of the issue's formats all pass" {
	suite draft7
	format_cases draft7
	[ "$n" -ge 90 ]
	JSONRESP_CHECK=$(command -v jsonresp-check)
	export JSONRESP_CHECK
	run -0 node "$TOP/t/oracle/jsts.js" "$SUITE" "$PWD/fmt"
	assert_equal "${lines[-1]}" "$n passed, 0 failed"
}

@test "the JSON-Schema-Test-Suite's required draft2019-09 and draft2020-12 cases all pass under --draft" {
	JSONRESP_CHECK=$(command -v jsonresp-check)
	export JSONRESP_CHECK
	for v in 2019-09 2020-12; do
		suite draft$v
		n=$(cases "$SUITE"/tests/draft$v/*.json)
		[ "$n" -ge 1000 ]
		run node "$TOP/t/oracle/jsts.js" "$SUITE" "$SUITE/tests/draft$v" $v
		# Shown only when the test fails: the first failing cases.
		printf '%s\n' "${lines[@]:0:3}"
		assert_equal "${lines[-1]}" "$n passed, 0 failed"
		assert_equal "$status" 0
	done
}

@test "the JSON-Schema-Test-Suite's required cases of every draft all pass with \$schema in the root and no --draft" {
	JSONRESP_CHECK=$(command -v jsonresp-check)
	export JSONRESP_CHECK
	for v in 4 6 7 2019-09 2020-12; do
		suite draft$v
		case $v in
		[467]) JSTS_SCHEMA=http://json-schema.org/draft-0$v/schema# ;;
		*) JSTS_SCHEMA=https://json-schema.org/draft/$v/schema ;;
		esac
		export JSTS_SCHEMA
		n=$(cases "$SUITE"/tests/draft$v/*.json)
		[ "$n" -ge 500 ]
		run node "$TOP/t/oracle/jsts.js" "$SUITE" "$SUITE/tests/draft$v"
		# Shown only when the test fails: the first failing cases.
		printf '%s\n' "${lines[@]:0:3}"
		assert_equal "${lines[-1]}" "$n passed, 0 failed"
		assert_equal "$status" 0
	done
}

@test "the JSON-Schema-Test-Suite's optional draft2020-12 format cases of the issue's formats all pass under --assert-format" {
	suite draft2020-12
	format_cases draft2020-12
	[ "$n" -ge 300 ]
	JSONRESP_CHECK=$(command -v jsonresp-check)
	JSTS_FLAGS=--assert-format
	export JSONRESP_CHECK JSTS_FLAGS
	run node "$TOP/t/oracle/jsts.js" "$SUITE" "$PWD/fmt" 2020-12
	printf '%s\n' "${lines[@]:0:3}"
	assert_equal "${lines[-1]}" "$n passed, 0 failed"
	assert_equal "$status" 0
}

# Hostile input (issue 13)

@test "a danger_level given twice is an error with both places, whichever value comes first" {
	edit '.safety.danger_level = "emergency"' d.json
	sed 's/"danger_level":"emergency"/&,"danger_level":null/' d.json >a.json
	run -1 --separate-stderr jsonresp-check a.json
	assert_output ""
	assert_equal "$stderr" 'a.json:1:72: error: duplicate key "danger_level", first at line 1, column 45'
	sed 's/"danger_level":"emergency"/"danger_level":null,&/' d.json >b.json
	run -1 --separate-stderr jsonresp-check b.json
	assert_equal "$stderr" 'b.json:1:65: error: duplicate key "danger_level", first at line 1, column 45'
}

@test "is_safe given twice: rule duplicate-key in JSON, and in the feedback" {
	edit . d.json
	sed 's/"is_safe":true/"is_safe":"garbage",\n  "is_safe":true/' d.json >a.json
	run -1 --separate-stderr jsonresp-check --feedback --errors=json a.json
	assert_output "${FEEDBACK}duplicate key \"is_safe\", first at line 1, column 30"
	assert_equal "$stderr" '{"file":"a.json","line":2,"column":3,"severity":"error","rule":"duplicate-key","message":"duplicate key \"is_safe\", first at line 1, column 30"}'
}

@test "a duplicate key deep in a response, escaped differently, with --lines and --find" {
	edit '.content.text_blocks[0].x = {"a":1}' d.json
	{ jq -c . "$D/minimal.json"; sed 's/"content":"hi"/"content":"hi","\\u0063ontent":"ho"/' d.json; } >l.jsonl
	run -1 --separate-stderr jsonresp-check --lines l.jsonl
	assert_equal "$stderr" 'l.jsonl:2:175: error: duplicate key "content", first at line 2, column 160'
	# --find does not fall back to an object inside the refused one
	printf 'Here: {"safety":{"danger_level":"emergency","danger_level":null}} ok\n' >p.txt
	run -1 --separate-stderr jsonresp-check --find p.txt
	assert_equal "$stderr" 'p.txt:1:45: error: duplicate key "danger_level", first at line 1, column 18'
}

@test "control characters in a key are escaped in the pointer, the feedback and JSON" {
	printf '{"x\\ny\\u001b[31mRED":1}' >c.json
	run -1 --separate-stderr jsonresp-check --schema "$(sch '{"additionalProperties":false}')" --feedback c.json
	assert_output "${FEEDBACK}/x\\ny\\u001b[31mRED: unexpected property \"x\\ny\\u001b[31mRED\""
	assert_equal "$stderr" 'c.json:1:22: error: /x\ny\u001b[31mRED: unexpected property "x\ny\u001b[31mRED"'
	run -1 --separate-stderr jsonresp-check --schema "$(sch '{"additionalProperties":false}')" --errors=json c.json
	assert_equal "$(printf '%s' "$stderr" | jq -r .path)" $'/x\ny\e[31mRED'
}

@test "a file name that is not UTF-8 or holds controls: valid JSON and no raw control character" {
	printf '[' >$'n\x1b[2J\xff.json'
	run -1 --separate-stderr jsonresp-check --errors=json $'n\x1b[2J\xff.json'
	assert_equal "$stderr" '{"file":"n\u001b[2J�.json","line":1,"column":2,"severity":"error","rule":"truncated","message":"truncated: the JSON document ends before it is complete"}'
	printf '%s' "$stderr" | jq -e . >/dev/null
	run -1 --separate-stderr jsonresp-check $'n\x1b[2J\xff.json'
	assert_equal "$stderr" 'n\u001b[2J�.json:1:2: error: truncated: the JSON document ends before it is complete'
	run -3 --separate-stderr jsonresp-check $'no\nsuch'
	assert_equal "$stderr" 'jsonresp-check: no\nsuch: No such file or directory'
}

@test "a NUL byte is \"NUL byte\" at its own column, and nothing of a file after it is read" {
	run -1 --separate-stderr jsonresp-check < <(printf '\0')
	assert_equal "$stderr" '<stdin>:1:1: error: invalid JSON: NUL byte'
	printf '{"a":\0}' >n.json
	run -1 --separate-stderr jsonresp-check n.json
	assert_equal "$stderr" 'n.json:1:6: error: invalid JSON: NUL byte'
	printf '{"a":1} \0' >n.json
	run -1 --separate-stderr jsonresp-check --schema "$(sch true)" n.json
	assert_equal "$stderr" 'n.json:1:9: error: invalid JSON: NUL byte'
}

@test "/dev/zero stops at its first byte, whole and with --find" {
	run -1 --separate-stderr timeout 10 jsonresp-check /dev/zero
	assert_equal "$stderr" '/dev/zero:1:1: error: invalid JSON: NUL byte'
	run -1 --separate-stderr timeout 10 jsonresp-check --find - </dev/zero
	assert_equal "$stderr" '<stdin>:1:1: error: invalid JSON: NUL byte'
}

@test "a number beyond the double range is refused by name; one too small is 0" {
	printf '{"a": [1, -1.5e400]}' >big.json
	run -1 --separate-stderr jsonresp-check --schema "$(sch true)" big.json
	assert_equal "$stderr" 'big.json:1:11: error: invalid JSON: the number -1.5e400 is out of range (beyond the largest double, 1.7976931348623157e308)'
	python3 -c 'print("1" * 400)' >long.json
	run -1 --separate-stderr jsonresp-check --schema "$(sch true)" --errors=json long.json
	assert_equal "$stderr" '{"file":"long.json","line":1,"column":1,"severity":"error","rule":"json-number","message":"invalid JSON: the number 1111111111111111111111111111111111111... is out of range (beyond the largest double, 1.7976931348623157e308)"}'
	printf '1e-400' >small.json
	run -0 --separate-stderr jsonresp-check --schema "$(sch '{"const":0}')" small.json
	assert_equal "$stderr" ""
}

@test "nesting: 2048 levels are read, level 2049 is json-depth at the value too deep" {
	python3 -c 'print("[" * 2048 + "]" * 2048)' >ok.json
	run -0 --separate-stderr jsonresp-check --schema "$(sch true)" ok.json
	assert_equal "$stderr" ""
	python3 -c 'print("{\"a\":" * 2047 + "1" + "}" * 2047)' >ok.json
	run -0 --separate-stderr jsonresp-check --schema "$(sch true)" ok.json
	assert_equal "$stderr" ""
	python3 -c 'print("[" * 2049 + "]" * 2049)' >deep.json
	run -1 --separate-stderr jsonresp-check --schema "$(sch true)" --errors=json deep.json
	assert_equal "$stderr" '{"file":"deep.json","line":1,"column":2049,"severity":"error","rule":"json-depth","message":"invalid JSON: a value nested deeper than 2048 levels"}'
	python3 -c 'print("{\"a\":" * 2048 + "1" + "}" * 2048)' >deep.json
	run -1 --separate-stderr jsonresp-check --schema "$(sch true)" deep.json
	assert_equal "$stderr" 'deep.json:1:10241: error: invalid JSON: a value nested deeper than 2048 levels'
	python3 -c 'print("x " + "[" * 2049 + "]" * 2049)' >deep.txt
	run -1 --separate-stderr jsonresp-check --find --schema "$(sch true)" deep.txt
	assert_equal "$stderr" 'deep.txt:1:2051: error: invalid JSON: a value nested deeper than 2048 levels'
}

@test "80,000 form fields: every repeated id is reported against the first one (linear)" {
	python3 -c '
import json
f = [{"id": "f%d" % i, "type": "text", "label": "l"} for i in range(80000)]
f[79999]["id"] = "f0"
f[40000]["id"] = "f0"
f[3]["id"] = "a\u001bb"
f[5]["id"] = "a\u001bb"
d = {"type": "response", "safety": {"is_safe": True, "danger_level": None,
     "detected_concerns": [], "requires_intervention": False},
     "content": {"text_blocks": [{"type": "text", "content": "hi"}],
     "form": {"title": "t", "fields": f}}, "metadata": {"model": "m"}}
print(json.dumps(d, separators=(",", ":")))' >f.json
	run -1 --separate-stderr timeout 20 jsonresp-check f.json
	assert_equal "$stderr" 'f.json:1:409: error: /content/form/fields/5/id: field id "a\u001bb" is already the id of field 3
f.json:1:1669115: error: /content/form/fields/40000/id: field id "f0" is already the id of field 0
f.json:1:3349069: error: /content/form/fields/79999/id: field id "f0" is already the id of field 0'
}

@test "40,000 concerns out of the enum: the first 10,000 errors in order, with their columns, then where it stopped (linear)" {
	python3 -c '
import json
print(json.dumps({"safety": {"detected_concerns": ["c%d" % i for i in range(40000)]}}))' >c.json
	run -1 --separate-stderr timeout 20 jsonresp-check --schema "$(sch '{"properties":{"safety":{"properties":{"detected_concerns":{"items":{"enum":["suicide"]}}}}}}')" c.json
	[ "${#stderr_lines[@]}" -eq 10001 ]
	assert_equal "${stderr_lines[0]}" 'c.json:1:35: error: /safety/detected_concerns/0: expected one of ["suicide"], found string "c0"'
	assert_equal "${stderr_lines[9999]}" 'c.json:1:88916: error: /safety/detected_concerns/9999: expected one of ["suicide"], found string "c9999"'
	assert_equal "${stderr_lines[10000]}" 'c.json:1:88925: error: /safety/detected_concerns/10000: more than 10000 errors; validation stopped here'
}

@test "--find on 2,000 unclosed arrays of 250 numbers (1 MB) reads the text once" {
	python3 -c 'print(("[" + "0," * 250) * 2000)' >f.txt
	run -1 --separate-stderr timeout 20 jsonresp-check --find f.txt
	assert_equal "$stderr" 'f.txt:1:1: error: no JSON object or array found'
	# after a reading that fails, the search goes on where it failed
	printf 'a [list, of] {"a" 1} then [1,2]\n' >g.txt
	run -1 --separate-stderr jsonresp-check --find g.txt
	assert_equal "$stderr" 'g.txt:1:27: error: expected object, found array'
}

@test "errors out of text order are placed in one pass: 20,000 fields, 20,000 lines" {
	python3 -c '
import json
f = [{"id": "same", "type": "radio", "label": "l"} for i in range(20000)]
d = {"type": "response", "safety": {"is_safe": True, "danger_level": None,
     "detected_concerns": [], "requires_intervention": False},
     "content": {"text_blocks": [{"type": "text", "content": "hi"}],
     "form": {"title": "t", "fields": f}}, "metadata": {"model": "m"}}
print(json.dumps(d, separators=(",", ":")))
d["content"]["form"]["fields"] = [{"id": "a", "type": "radio", "label": "l"}]
d["metadata"]["x"] = 1
with open("l.jsonl", "w") as out:
    out.write((json.dumps(d, separators=(",", ":")) + "\n") * 20000)' >f.json
	run -1 --separate-stderr timeout 20 jsonresp-check f.json
	[ "${#stderr_lines[@]}" -eq 39999 ]
	assert_equal "${stderr_lines[39997]}" 'f.json:1:820172: error: /content/form/fields/19999/id: field id "same" is already the id of field 0'
	assert_equal "${stderr_lines[39998]}" 'f.json:1:820166: error: /content/form/fields/19999: a radio field needs a non-empty "options" array of {"value", "label"}'
	run -1 --separate-stderr timeout 20 jsonresp-check --lines l.jsonl
	[ "${#stderr_lines[@]}" -eq 40000 ]
	assert_equal "${stderr_lines[39998]}" 'l.jsonl:20000:276: error: /metadata/x: unexpected property "x"'
	assert_equal "${stderr_lines[39999]}" 'l.jsonl:20000:207: error: /content/form/fields/0: a radio field needs a non-empty "options" array of {"value", "label"}'
}

# nest OPEN N: OPEN N times, then as many ")" (or "]" for "["), on one line.
nest() {
	python3 -c 'import sys; o, n = sys.argv[1], int(sys.argv[2]); c = "]" if o == "[" else ")"; print(o * n + c * n)' "$1" "$2"
}

@test "a regex format string of groups nested 50,000 deep is invalid, not a crash" {
	echo '{"format": "regex"}' >s.json
	printf '"%s"\n' "$(nest '(?:' 50000)" >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: string "(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:"... is not a valid regex'
}

@test "regex groups nest 200 deep at the most: 200 is a valid regex, 201 is not" {
	echo '{"format": "regex"}' >s.json
	printf '"%s"\n' "$(nest '(?:' 200)" >ok.json
	printf '"%s"\n' "$(nest '(' 201)" >bad.json
	run -0 --separate-stderr jsonresp-check --schema s.json ok.json
	assert_equal "$stderr" ""
	run -1 --separate-stderr jsonresp-check --schema s.json bad.json
	assert_equal "$stderr" 'bad.json:1:1: error: string "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("... is not a valid regex'
}

@test "a schema pattern of groups nested past 200 deep is refused: status 2" {
	printf '{"pattern": "%s"}\n' "$(nest '(?:' 200)" >ok.json
	run -0 --separate-stderr jsonresp-check --schema ok.json "$D/minimal.json"
	assert_equal "$stderr" ""
	for n in 201 50000; do
		printf '{"pattern": "%s"}\n' "$(nest '(?:' $n)" >s.json
		run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
		assert_output ""
		assert_equal "$stderr" 'jsonresp-check: s.json: invalid pattern "(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:"...: groups nested more than 200 deep at offset 600'
	done
}

@test "a patternProperties pattern nested 201 deep is refused, the pattern quoted and cut: status 2" {
	printf '{"patternProperties": {"%s": {}}}\n' "$(nest '(?:' 201)" >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s.json: /patternProperties: invalid pattern "(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:"...: groups nested more than 200 deep at offset 600'
}

@test "the meta-schema check of a schema whose pattern nests 50,000 deep says the pattern is invalid" {
	echo '{"$ref": "http://json-schema.org/draft-07/schema#"}' >meta.json
	printf '{"pattern": "%s"}\n' "$(nest '(?:' 50000)" >s.json
	run -1 --separate-stderr jsonresp-check --schema meta.json s.json
	assert_equal "$stderr" 's.json:1:13: error: /pattern: string "(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:(?:"... is not a valid regex'
}

# chain N LAST: a schema whose root is a $ref to d1, d1 to d2, ... dN is LAST.
chain() {
	python3 -c 'import json, sys
n = int(sys.argv[1])
d = {"d%d" % i: {"$ref": "#/definitions/d%d" % (i + 1)} for i in range(1, n)}
d["d%d" % n] = json.loads(sys.argv[2])
print(json.dumps({"$ref": "#/definitions/d1", "definitions": d}))' "$1" "$2"
}

@test "a \$ref chain of 10,000 allOf steps and one of 50,000 references are refused: status 2" {
	python3 -c 'import json
d = {"d%d" % i: {"allOf": [{"$ref": "#/definitions/d%d" % (i + 1)}]} for i in range(10000)}
d["d10000"] = {"type": "integer"}
print(json.dumps({"$ref": "#/definitions/d0", "definitions": d}))' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: s.json: /$ref: subschemas nest more than 1000 deep, counting each $ref followed (the last one: "#/definitions/d499")'
	chain 50000 '{}' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s.json: /$ref: subschemas nest more than 1000 deep, counting each $ref followed (the last one: "#/definitions/d1000")'
}

@test "subschemas nest 1000 deep at the most, \$refs counted: the root and 999 references compile, 1000 do not" {
	chain 999 '{"type": "integer"}' >s.json
	echo '"x"' >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: expected integer, found string "x"'
	chain 1000 '{"type": "integer"}' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'jsonresp-check: s.json: /$ref: subschemas nest more than 1000 deep, counting each $ref followed (the last one: "#/definitions/d1000")'
}

@test "subschemas nested 1000 deep without references compile, 1001 do not" {
	python3 -c 'print("{\"items\": " * 999 + "{\"type\": \"integer\"}" + "}" * 999)' >s.json
	echo '"x"' >d.json
	run -0 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" ""
	python3 -c 'print("{\"items\": " * 1000 + "{\"type\": \"integer\"}" + "}" * 1000)' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'jsonresp-check: s.json: /items/items/items/items/items/items/items/items/items/items/items/items/items/items/items/items/...: subschemas nest more than 1000 deep, counting each $ref followed'
}

# deep D: a schema under which each level of an array applies 14 schemas,
# and {"x": ...} with arrays nested D deep, so that the innermost array is
# validated 14 D + 2 schemas deep.
deep() {
	python3 -c 'import json, sys
d = {"a%d" % i: {"$ref": "#/definitions/a%d" % (i + 1)} for i in range(11)}
d["a11"] = {"$ref": "#/definitions/arr"}
d["arr"] = {"type": "array", "items": {"$ref": "#/definitions/a0"}}
json.dump({"allOf": [{"properties": {"x": {"$ref": "#/definitions/a0"}}}], "definitions": d}, open("s.json", "w"))
n = int(sys.argv[1])
open("d.json", "w").write("{\"x\": " + "[" * n + "]" * n + "}\n")' "$1"
}

@test "validation goes 5000 schemas deep at the most: 5000 is valid, 5001 an error of the value" {
	deep 357
	run -0 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" ""
	deep 358
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	p=$(python3 -c 'print("/0" * 357)')
	assert_equal "$stderr" "d.json:1:364: error: /x$p: schemas applied one inside another nest more than 5000 deep (through \$ref, allOf, items, ... and down the value); validation stopped here"
}

@test "uniqueItems on 100,000 numbers finds the one equal pair" {
	echo '{"uniqueItems": true}' >s.json
	python3 -c 'print("[" + ",".join(str(i) for i in range(100000)) + ",77.0]")' >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: array items 77 and 100000 are equal, but items must be unique'
	python3 -c 'print("[" + ",".join(str(i) for i in range(100000)) + "]")' >d.json
	run -0 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" ""
}

@test "uniqueItems: 1 equals 1.0, member order does not count, and the first pair is named" {
	echo '{"uniqueItems": true}' >s.json
	run -1 --separate-stderr jsonresp-check --schema s.json <<<'[{"a": 1, "b": [2.0]}, 3, {"b": [2], "a": 1.0}]'
	assert_equal "$stderr" '<stdin>:1:1: error: array items 0 and 2 are equal, but items must be unique'
	run -1 --separate-stderr jsonresp-check --schema s.json <<<'[1, 2, 2, 1]'
	assert_equal "$stderr" '<stdin>:1:1: error: array items 0 and 3 are equal, but items must be unique'
	run -0 --separate-stderr jsonresp-check --schema s.json <<<'[1, true, "1", [1], {"1": 1}, null, 0, false]'
	assert_equal "$stderr" ""
}

@test "enum: 4,000 items against 100,000 values" {
	python3 -c 'import json; print(json.dumps({"items": {"enum": list(range(100000)) + [{"k": [1]}]}}))' >s.json
	python3 -c 'import json; print(json.dumps([i * 25 for i in range(4000)] + [{"k": [1.0]}, 100000]))' >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'd.json:1:27571: error: /4001: expected one of [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29..., found integer 100000'
}

@test "nested anyOf on arrays 60 deep is reported at once, through the closest branch" {
	echo '{"anyOf":[{"type":"array","items":{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}}]}' >s.json
	python3 -c 'print("[" * 60 + "1" + "]" * 60)' >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	[ "${#stderr_lines[@]}" -eq 62 ]
	assert_equal "${stderr_lines[0]}" 'd.json:1:1: error: value matches none of the 2 schemas of "anyOf" (found array); the closest one says:'
	p=$(python3 -c 'print("/0" * 60)')
	assert_equal "${stderr_lines[60]}" "d.json:1:61: error: $p: value matches none of the 2 schemas of \"anyOf\" (found integer 1); the closest one says:"
	assert_equal "${stderr_lines[61]}" "d.json:1:61: error: $p: expected array, found integer 1"
	python3 -c 'print("[" * 60 + "]" * 60)' >d.json
	run -0 --separate-stderr jsonresp-check --schema s.json d.json
}

@test "nested oneOf reports the closest branch as anyOf does" {
	echo '{"oneOf":[{"type":"array","items":{"$ref":"#"}},{"type":"array","minItems":1,"items":{"$ref":"#"}}]}' >s.json
	python3 -c 'print("[" * 40 + "1" + "]" * 40)' >d.json
	run -1 --separate-stderr jsonresp-check --errors=json --schema s.json d.json
	[ "${#stderr_lines[@]}" -eq 42 ]
	assert_equal "${stderr_lines[41]}" "{\"file\":\"d.json\",\"line\":1,\"column\":41,\"severity\":\"error\",\"rule\":\"schema\",\"message\":\"expected array, found integer 1\",\"path\":\"$(python3 -c 'print("/0" * 40)')\",\"keywordLocation\":\"$(python3 -c 'print("/oneOf/0/items/$ref" * 40)')/oneOf/0/type\"}"
}

@test "a linear pattern matches a string of 10^6 characters; a catastrophic one stops at the resource limit" {
	echo '{"pattern": "^(?:a|b)*$"}' >s.json
	python3 -c 'print("\"" + "a" * 1000000 + "\"")' >d.json
	run -0 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" ""
	echo '{"pattern": "^(a+)+$"}' >s.json
	python3 -c 'print("\"" + "a" * 40 + "b\"")' >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: string "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab" could not be matched (resource limit) against the pattern "^(a+)+$"'
}

@test "multipleOf 1e-400 reads as 0, and the message says so: status 2" {
	echo '{"multipleOf": 1e-400}' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s.json: "multipleOf" must be greater than 0, found 0 (or a number too small for a double, such as 1e-400, which reads as 0)'
}

@test "a pattern in a schema error is quoted as a JSON string, control characters escaped" {
	printf '{"properties": {"a": {"pattern": "\\u001b[31m\\n["}}}\n' >s.json
	run -2 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s.json: /properties/a: invalid pattern "\u001b[31m\n[": unterminated character class at offset 7'
}

@test "a document has 10000 errors at the most, then one that says validation stopped" {
	echo '{"items": {"type": "string"}}' >s.json
	python3 -c 'print("[" + ",".join(["1"] * 10000) + "]")' >d.json
	run -1 sh -c 'jsonresp-check --schema s.json d.json 2>err'
	[ "$(wc -l <err)" -eq 10000 ]
	assert_equal "$(tail -n 1 err)" 'd.json:1:20000: error: /9999: expected string, found integer 1'
	python3 -c 'print("[" + ",".join(["1"] * 10001) + "]")' >d.json
	run -1 sh -c 'jsonresp-check --schema s.json d.json 2>err'
	[ "$(wc -l <err)" -eq 10001 ]
	assert_equal "$(tail -n 2 err)" 'd.json:1:20000: error: /9999: expected string, found integer 1
d.json:1:20002: error: /10000: more than 10000 errors; validation stopped here'
}

@test "a subschema applied twice at each level: a valid document at once, an invalid one stopped at 10000 errors" {
	echo '{"definitions": {"a": {"type": "array", "items": {"$ref": "#"}}}, "allOf": [{"$ref": "#/definitions/a"}, {"$ref": "#/definitions/a"}]}' >s.json
	python3 -c 'print("[" * 60 + "]" * 60)' >d.json
	run -0 --separate-stderr jsonresp-check --schema s.json d.json
	assert_equal "$stderr" ""
	python3 -c 'print("[" * 60 + "1" + "]" * 60)' >d.json
	run -1 sh -c 'jsonresp-check --schema s.json d.json 2>err'
	[ "$(wc -l <err)" -eq 10001 ]
	p=$(python3 -c 'print("/0" * 60)')
	assert_equal "$(tail -n 1 err)" "d.json:1:61: error: $p: more than 10000 errors; validation stopped here"
}

@test "a schema with a key given twice is refused, status 2, as a document would be" {
	printf '{"type":"string",\n "type":"number"}' >s.json
	echo '"x"' >d.json
	run -2 --separate-stderr jsonresp-check --schema s.json d.json
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: s.json:2:7: the schema is not JSON: duplicate object key near '\"type\"'"
}

# One house (issue 14)

@test "stdout to a full disk stops at once: status 3, and the next operand is not opened" {
	edit '.type = "x"' bad.json
	mkfifo fifo
	run -3 --separate-stderr timeout 10 sh -c 'jsonresp-check -q --feedback bad.json fifo >/dev/full'
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: <stdout>: No space left on device"
}

@test "stdout to a full disk stops --lines at once: the next line is not checked" {
	printf '{"type":"x"}\n{"type":"y"}\n' >r.jsonl
	run -3 --separate-stderr sh -c 'jsonresp-check --schema "$1" --feedback --lines r.jsonl >/dev/full' sh "$(sch '{"properties":{"type":{"const":"response"}}}')"
	assert_equal "$stderr" 'r.jsonl:1:9: error: /type: expected "response" (const), found string "x"
jsonresp-check: <stdout>: No space left on device'
}

@test "an unreadable operand between two good ones is reported, both are checked, status 3" {
	edit '.type = "x"' bad.json
	edit '.safety.danger_level = "warning"' w.json
	run -3 --separate-stderr jsonresp-check bad.json missing.json w.json
	assert_output ""
	assert_equal "$stderr" 'bad.json:1:9: error: /type: expected "response" (const), found string "x"
jsonresp-check: missing.json: No such file or directory
w.json:1:60: warning: danger_level is "warning"'
	mkdir d
	run -3 --separate-stderr jsonresp-check --lines w.json d bad.json
	assert_equal "$stderr" 'w.json:1:60: warning: danger_level is "warning"
jsonresp-check: d: Is a directory
bad.json:1:9: error: /type: expected "response" (const), found string "x"'
}

@test "--errors=json: a seed rule's error has its pointer as path and no keywordLocation" {
	jq -c '.content.form.fields[0].max = 0 | .metadata.model = true' "$D/seed-form.json" >f.json
	run -1 --separate-stderr jsonresp-check --errors=json f.json
	assert_equal "$stderr" '{"file":"f.json","line":1,"column":988,"severity":"error","rule":"schema","message":"expected string, found boolean true","path":"/metadata/model","keywordLocation":"/properties/metadata/$ref/properties/model/type"}
{"file":"f.json","line":1,"column":455,"severity":"error","rule":"seed-scale","message":"a scale'"'"'s min 1 is not below its max 0","path":"/content/form/fields/0/min"}'
}

@test "--lines checks each line as it comes: its feedback is out before the input ends" {
	local line status=0
	echo '{"type":"object"}' >s.json
	mkfifo in out
	timeout 20 jsonresp-check -q --feedback --lines --schema s.json <in >out &
	exec 5>in 6<out
	echo '[1]' >&5
	read -r -t 10 line <&6 || true
	exec 5>&-
	wait $! || status=$?
	exec 6<&-
	assert_equal "$line" "${FEEDBACK}expected object, found array"
	assert_equal "$status" 1
}

@test "--lines: a line longer than a read is one document, and offsets count from the file's start" {
	python3 -c 'print("[" + "1," * 100000 + "1]")' >r.jsonl
	printf '{"a":"\xff"}\n' >>r.jsonl
	run -1 --separate-stderr jsonresp-check --schema "$(sch '{"type":"array"}')" --lines r.jsonl
	assert_equal "$stderr" 'r.jsonl:2:7: error: invalid UTF-8: byte 0xff at byte offset 200010'
}

@test "--lines: a byte order mark is skipped on the first line only; on a later one it is text" {
	{
		printf '\xef\xbb\xbf'
		jq -c . "$D/minimal.json"
		printf '\xef\xbb\xbf'
		jq -c '.x = 1' "$D/minimal.json"
	} >b.jsonl
	run -1 --separate-stderr jsonresp-check --lines b.jsonl
	assert_equal "$stderr" "b.jsonl:2:1: error: invalid JSON: invalid token near '$(printf '\xef\xbb\xbf')'"
	run -1 --separate-stderr jsonresp-check --lines --find b.jsonl
	assert_equal "$stderr" 'b.jsonl:2:208: error: /x: unexpected property "x"'
}

# Any schema (issue 15)

@test "-o report: a line per document of a batch, with its status and errors, then --summary's counts" {
	cp "$D/minimal.json" "$D/seed-emergency.json" .
	echo '{"type":"response"}' >bad.json
	run -5 --separate-stderr jsonresp-check -o report --summary minimal.json seed-emergency.json bad.json
	assert_equal "$output" '{"file":"minimal.json","valid":true,"status":0,"errors":[]}
{"file":"seed-emergency.json","valid":true,"status":5,"errors":[{"file":"seed-emergency.json","line":5,"column":21,"severity":"warning","rule":"danger-level","message":"danger_level is \"emergency\": show crisis resources, block the conversation (status 5)"}]}
{"file":"bad.json","valid":false,"status":1,"errors":[{"file":"bad.json","line":1,"column":1,"severity":"error","rule":"schema","message":"missing required property \"safety\"","path":"","keywordLocation":"/required"},{"file":"bad.json","line":1,"column":1,"severity":"error","rule":"schema","message":"missing required property \"content\"","path":"","keywordLocation":"/required"},{"file":"bad.json","line":1,"column":1,"severity":"error","rule":"schema","message":"missing required property \"metadata\"","path":"","keywordLocation":"/required"}]}
{"documents":3,"valid":2,"invalid":1,"critical":0,"emergency":1}'
	assert_equal "$stderr" "seed-emergency.json:5:21: $EMERGENCY
bad.json:1:1: error: missing required property \"safety\"
bad.json:1:1: error: missing required property \"content\"
bad.json:1:1: error: missing required property \"metadata\""
}

@test "-o report with -q: the report alone, nothing on stderr" {
	echo '[1]' >a.json
	run -1 --separate-stderr jsonresp-check -q -o report --schema "$(sch '{"type":"object"}')" a.json
	assert_equal "$output" '{"file":"a.json","valid":false,"status":1,"errors":[{"file":"a.json","line":1,"column":1,"severity":"error","rule":"schema","message":"expected object, found array","path":"","keywordLocation":"/type"}]}'
	assert_equal "$stderr" ''
}

@test "-o report --lines: each line's report names its line; a blank line has none" {
	printf '{}\n\n[1]\n{"a":\n' >r.jsonl
	run -1 --separate-stderr jsonresp-check -q -o report --summary --lines --schema "$(sch '{"type":"object"}')" r.jsonl
	assert_equal "$output" '{"file":"r.jsonl","line":1,"valid":true,"status":0,"errors":[]}
{"file":"r.jsonl","line":3,"valid":false,"status":1,"errors":[{"file":"r.jsonl","line":3,"column":1,"severity":"error","rule":"schema","message":"expected object, found array","path":"","keywordLocation":"/type"}]}
{"file":"r.jsonl","line":4,"valid":false,"status":1,"errors":[{"file":"r.jsonl","line":4,"column":6,"severity":"error","rule":"truncated","message":"truncated: the JSON document ends before it is complete"}]}
{"documents":3,"valid":1,"invalid":2}'
}

@test "-o report: an unreadable file has no line and is not counted; its message is on stderr, status 3" {
	echo '{}' >a.json
	run -3 --separate-stderr jsonresp-check -o report --summary --schema "$(sch '{}')" nofile a.json
	assert_equal "$output" '{"file":"a.json","valid":true,"status":0,"errors":[]}
{"documents":1,"valid":1,"invalid":0}'
	assert_equal "$stderr" 'jsonresp-check: nofile: No such file or directory'
}

@test "--summary with --schema: one line of text after the run, no danger levels" {
	printf '{}' >a.json
	printf '[]' >b.json
	run -1 --separate-stderr jsonresp-check --summary --schema "$(sch '{"type":"object"}')" a.json b.json a.json
	assert_equal "$output" '3 documents: 2 valid, 1 invalid'
	assert_equal "$stderr" 'b.json:1:1: error: expected object, found array'
}

@test "-o json: a fenced answer comes out as compact JSON, strings and numbers as written" {
	printf '```json\n{ "a" : [1, 2.50, "x  \\"y\\" \\u00e9"],\n\t"b": null }\n```\n' >f.txt
	run -0 --separate-stderr jsonresp-check -o json --schema "$(sch '{}')" f.txt
	assert_equal "$output" '{"a":[1,2.50,"x  \"y\" \u00e9"],"b":null}'
	assert_equal "$stderr" ''
	jsonresp-check -o json --schema "$(sch '{}')" f.txt | jq -e '.a[2] == "x  \"y\" é"'
}

@test "-x --find: the JSON out of prose, without the prose; -x is -o json" {
	printf 'Sure! Here it is: {"k": [ 1e3 ,true ]} Anything else? [1]\n' >p.txt
	run -0 --separate-stderr jsonresp-check -x --find --schema "$(sch '{}')" p.txt
	assert_equal "$output" '{"k":[1e3,true]}'
	run -0 --separate-stderr jsonresp-check -o json -x --find --schema "$(sch '{}')" p.txt
	assert_equal "$output" '{"k":[1e3,true]}'
}

@test "-o json: a refused document writes nothing, an accepted critical one is written" {
	jq -c '.safety.danger_level = "critical" | .safety.is_safe = false | .safety.requires_intervention = true' "$D/minimal.json" >c.json
	echo '{"type":"response"}' >bad.json
	run -4 --separate-stderr jsonresp-check -q -x bad.json c.json
	assert_equal "$output" "$(cat c.json)"
	assert_equal "$stderr" ''
}

@test "-o json --lines: a line out for each accepted line, --summary as JSON after them" {
	printf '{ "a" : 1 }\n\n[ 1 , 2 ]\n"s"\n{bad\n' >l.jsonl
	run -1 --separate-stderr jsonresp-check -o json --lines --summary --schema "$(sch '{}')" l.jsonl
	assert_equal "$output" '{"a":1}
[1,2]
"s"
{"documents":4,"valid":3,"invalid":1}'
	assert_equal "$stderr" "l.jsonl:5:2: error: invalid JSON: string or '}' expected near 'bad'"
}

@test "-o: a format it does not know is a usage error" {
	run -2 --separate-stderr jsonresp-check -o text
	assert_equal "$output" ''
	assert_equal "$stderr" "jsonresp-check: -o must be none, json, junit or report, not \"text\"
$USAGE"
	run -2 --separate-stderr jsonresp-check --output=
	assert_equal "$stderr" "jsonresp-check: -o must be none, json, junit or report, not \"\"
$USAGE"
}

@test "--feedback with -o json, -o junit, -o report or --summary is a usage error; with -o none it is not" {
	for o in -x '-o junit' '-o report' --summary; do
		run -2 --separate-stderr jsonresp-check --feedback $o
		assert_equal "$stderr" "jsonresp-check: --feedback cannot go with -o json, -o junit, -o report or --summary: they write on standard output too
$USAGE"
	done
	echo '[1]' >a.json
	run -1 --separate-stderr jsonresp-check -q -o none --feedback --schema "$(sch '{"type":"object"}')" a.json
	assert_equal "$output" "${FEEDBACK}expected object, found array"
}

@test "idn-hostname is checked as IDNA2008 (libidn2); --no-format turns it off" {
	echo '{"properties": {"h": {"type": "string", "format": "idn-hostname"}}}' >s.json
	printf '{"h": "b\303\274cher.example"}\n{"h": "B\303\274cher.example"}\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" "d.jsonl:2:7: error: /h: string \"B$(printf '\303\274')cher.example\" is not a valid idn-hostname"
	run -0 --separate-stderr jsonresp-check --no-format --schema s.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" ""
}

# nolib: where LLMKIT_LIBIDN2 points for libidn2 that cannot be loaded.
NOLIB=/nonexistent/libidn2.so.0
NOLIB_WHY="cannot load libidn2 ($NOLIB: cannot open shared object file: No such file or directory)"

@test "a value that needs libidn2 when it cannot be loaded is not checked: status 3" {
	echo '{"properties": {"h": {"type": "string", "format": "idn-hostname"}}}' >s.json
	printf '{"h": "b\303\274cher.example"}\n{"h": "example.com"}\n{"h": "-x"}\n' >d.jsonl
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" "d.jsonl:1:7: error: /h: string \"b$(printf '\303\274')cher.example\" cannot be checked against the format idn-hostname: $NOLIB_WHY
d.jsonl:3:7: error: /h: string \"-x\" is not a valid idn-hostname"
}

@test "a value not checked is no valid record, a JUnit error and counted apart" {
	echo '{"properties": {"h": {"format": "idn-hostname"}}}' >s.json
	printf '{"h": "b\303\274cher.example"}\n{"h": "example.com"}\n' >d.jsonl
	u=$(printf '\303\274')
	msg="string \\\"b${u}cher.example\\\" cannot be checked against the format idn-hostname: $NOLIB_WHY"
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check -q -o report --schema s.json --lines d.jsonl
	assert_equal "$stderr" ""
	assert_output "{\"file\":\"d.jsonl\",\"line\":1,\"valid\":false,\"status\":3,\"errors\":[{\"file\":\"d.jsonl\",\"line\":1,\"column\":7,\"severity\":\"error\",\"rule\":\"schema\",\"message\":\"$msg\",\"path\":\"/h\",\"keywordLocation\":\"/properties/h/format\"}]}
{\"file\":\"d.jsonl\",\"line\":2,\"valid\":true,\"status\":0,\"errors\":[]}"
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check -q -o junit --schema s.json --lines d.jsonl
	assert_line --index 1 '<testsuites name="jsonresp-check" tests="2" failures="0" errors="1">'
	assert_line --index 4 "      <error message=\"/h: string &quot;b${u}cher.example&quot; cannot be checked against the format idn-hostname: $NOLIB_WHY\" type=\"schema\">d.jsonl:1:7: error: /h: string \"b${u}cher.example\" cannot be checked against the format idn-hostname: $NOLIB_WHY"
	assert_line --index 5 '</error>'
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check -q --summary --schema s.json --lines d.jsonl
	assert_output "2 documents: 1 valid, 0 invalid, 1 not checked"
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check -q -o json --schema s.json --lines d.jsonl
	assert_output '{"h":"example.com"}'
}

@test "hostname needs libidn2 for an xn-- label alone; --no-format never loads it" {
	echo '{"properties": {"h": {"format": "hostname"}}}' >s.json
	printf '{"h": "example.com"}\n' >plain.jsonl
	printf '{"h": "xn--bcher-kva.example"}\n' >alabel.jsonl
	LLMKIT_LIBIDN2=$NOLIB run -0 --separate-stderr jsonresp-check --schema s.json --lines plain.jsonl
	assert_equal "$stderr" ""
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check --schema s.json --lines alabel.jsonl
	assert_equal "$stderr" "alabel.jsonl:1:7: error: /h: string \"xn--bcher-kva.example\" cannot be checked against the format hostname: $NOLIB_WHY"
	LLMKIT_LIBIDN2=$NOLIB run -0 --separate-stderr jsonresp-check --no-format --schema s.json --lines alabel.jsonl
	assert_equal "$stderr" ""
	run -0 --separate-stderr jsonresp-check --schema s.json --lines alabel.jsonl
	assert_equal "$stderr" ""
}

@test "a format that is an annotation needs libidn2 all the same, for its warning" {
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "format": "idn-email"}' >s.json
	echo '"joe@xn--bcher-kva.example"' >a.json
	LLMKIT_LIBIDN2=$NOLIB run -3 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" "a.json:1:1: error: string \"joe@xn--bcher-kva.example\" cannot be checked against the format idn-email: $NOLIB_WHY"
	echo '"joe@xn--a.example"' >bad.json
	run -0 --separate-stderr jsonresp-check --schema s.json bad.json
	assert_equal "$stderr" 'bad.json:1:1: warning: string "joe@xn--a.example" is not a valid idn-email; "format" is an annotation in 2020-12: --assert-format makes it an error'
}

@test "LLMKIT_LIBIDN2 that names a library without libidn2's functions is refused" {
	lib=$(ldd "$(command -v jsonresp-check)" | awk '$1 ~ /^libjansson/ { print $3 }')
	[ -f "$lib" ] || fail "no libjansson in ldd's list"
	echo '{"format": "idn-hostname"}' >s.json
	echo '"xn--bcher-kva.example"' >a.json
	LLMKIT_LIBIDN2=$lib run -3 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" "a.json:1:1: error: string \"xn--bcher-kva.example\" cannot be checked against the format idn-hostname: cannot load libidn2 ($lib: undefined symbol: idn2_register_u8)"
}

# nopcre: where LLMKIT_LIBPCRE2 points for PCRE2 that cannot be loaded.
NOPCRE=/nonexistent/libpcre2-8.so.0
NOPCRE_WHY="cannot load libpcre2-8 ($NOPCRE: cannot open shared object file: No such file or directory)"

@test "a pattern when PCRE2 cannot be loaded is trouble, not a bad schema: status 3" {
	echo '{"properties": {"a": {"type": "string", "pattern": "^x+$"}}}' >s.json
	echo '{"a": "xx"}' >a.json
	LLMKIT_LIBPCRE2=$NOPCRE run -3 --separate-stderr jsonresp-check --schema s.json a.json
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: s.json: /properties/a: pattern \"^x+\$\" cannot be compiled: $NOPCRE_WHY"
	echo '{"patternProperties": {"^a": {"type": "integer"}}}' >pp.json
	LLMKIT_LIBPCRE2=$NOPCRE run -3 --separate-stderr jsonresp-check --schema pp.json a.json
	assert_equal "$stderr" "jsonresp-check: pp.json: /patternProperties: pattern \"^a\" cannot be compiled: $NOPCRE_WHY"
	run -1 --separate-stderr jsonresp-check --schema pp.json a.json
	assert_equal "$stderr" 'a.json:1:7: error: /a: expected integer, found string "xx"'
}

@test "a schema's own fault comes first: an error before its pattern is status 2" {
	echo '{"properties": {"a": {"minLength": -1, "pattern": "^x"}}}' >s.json
	echo '{}' >a.json
	LLMKIT_LIBPCRE2=$NOPCRE run -2 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" 'jsonresp-check: s.json: /properties/a: "minLength" must be a non-negative integer'
}

@test "a format regex when PCRE2 cannot be loaded is not checked: status 3" {
	echo '{"properties": {"r": {"type": "string", "format": "regex"}}}' >s.json
	printf '{"r": "a+"}\n{"r": 1}\n{}\n' >d.jsonl
	LLMKIT_LIBPCRE2=$NOPCRE run -3 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" "d.jsonl:1:7: error: /r: string \"a+\" cannot be checked against the format regex: $NOPCRE_WHY
d.jsonl:2:7: error: /r: expected string, found integer 1"
	LLMKIT_LIBPCRE2=$NOPCRE run -3 --separate-stderr jsonresp-check -q --summary --schema s.json --lines d.jsonl
	assert_output "3 documents: 1 valid, 1 invalid, 1 not checked"
	run -1 --separate-stderr jsonresp-check --schema s.json --lines d.jsonl
	assert_equal "$stderr" "d.jsonl:2:7: error: /r: expected string, found integer 1"
}

@test "a run that compiles no pattern needs no PCRE2" {
	run -1 --separate-stderr jsonresp-check "$TOP/examples/bad-response.json"
	want=$stderr
	[ -n "$want" ] || fail "no errors to compare"
	LLMKIT_LIBPCRE2=$NOPCRE run -1 --separate-stderr jsonresp-check "$TOP/examples/bad-response.json"
	assert_equal "$stderr" "$want"
	echo '{"properties": {"h": {"format": "idn-hostname"}, "r": {"format": "regex"}}}' >s.json
	echo '{"h": "example.com"}' >a.json
	LLMKIT_LIBPCRE2=$NOPCRE run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" ""
}

@test "idn-hostname needs PCRE2 beside libidn2 for a non-ASCII label" {
	echo '{"format": "idn-hostname"}' >s.json
	printf '"b\303\274cher.example"\n' >a.json
	LLMKIT_LIBPCRE2=$NOPCRE run -3 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" "a.json:1:1: error: string \"b$(printf '\303\274')cher.example\" cannot be checked against the format idn-hostname: $NOPCRE_WHY"
	LLMKIT_LIBIDN2=$NOLIB LLMKIT_LIBPCRE2=$NOPCRE run -3 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" "a.json:1:1: error: string \"b$(printf '\303\274')cher.example\" cannot be checked against the format idn-hostname: $NOLIB_WHY"
	run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" ""
}

@test "LLMKIT_LIBPCRE2 that names a library without PCRE2's functions is refused" {
	lib=$(ldd "$(command -v jsonresp-check)" | awk '$1 ~ /^libjansson/ { print $3 }')
	[ -f "$lib" ] || fail "no libjansson in ldd's list"
	echo '{"pattern": "a"}' >s.json
	echo '"a"' >a.json
	LLMKIT_LIBPCRE2=$lib run -3 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" "jsonresp-check: s.json: pattern \"a\" cannot be compiled: cannot load libpcre2-8 ($lib: undefined symbol: pcre2_compile_8)"
}

@test "the JSON-Schema-Test-Suite's optional idn-hostname cases all pass" {
	suite draft7
	mkdir fmt
	cp "$SUITE/tests/draft7/optional/format/idn-hostname.json" fmt/
	n=$(cases fmt/*.json)
	[ "$n" -ge 4 ]
	JSONRESP_CHECK=$(command -v jsonresp-check)
	export JSONRESP_CHECK
	run -0 node "$TOP/t/oracle/jsts.js" "$SUITE" "$PWD/fmt"
	assert_equal "${lines[-1]}" "$n passed, 0 failed"
}

@test "--draft: 4, 6, 7, 2019-09 and 2020-12; others unknown: status 2" {
	echo '{"maximum": 5, "exclusiveMaximum": true}' >s.json
	echo 5 >five.json
	run -1 --separate-stderr jsonresp-check --draft 4 --schema s.json five.json
	assert_equal "$stderr" 'five.json:1:1: error: 5 is not less than the exclusive maximum 5'
	echo '{"exclusiveMaximum": 5}' >s6.json
	for v in 6 7 2019-09 2020-12; do
		run -1 --separate-stderr jsonresp-check --draft $v --schema s6.json five.json
		assert_equal "$stderr" 'five.json:1:1: error: 5 is not less than the exclusive maximum 5'
	done
	echo '{"items": [{"type": "string"}], "additionalItems": false}' >s19.json
	echo '["a", 1]' >a.json
	run -1 --separate-stderr jsonresp-check --draft 2019-09 --schema s19.json a.json
	assert_equal "$stderr" 'a.json:1:7: error: /1: unexpected item 1: "items" allows 1 item'
	echo '{"prefixItems": [{"type": "string"}], "items": false}' >s20.json
	run -1 --separate-stderr jsonresp-check --draft 2020-12 --schema s20.json a.json
	assert_equal "$stderr" 'a.json:1:7: error: /1: unexpected item 1: "prefixItems" allows 1 item'
	for v in 3 07 draft-07 2020 ''; do
		run -2 --separate-stderr jsonresp-check --draft "$v" --schema s.json five.json
		assert_equal "$stderr" "jsonresp-check: --draft $v: unknown draft (4, 6, 7, 2019-09 and 2020-12 are known)
$USAGE"
	done
}

@test "\$schema chooses the dialect, over --draft; a boolean exclusiveMaximum under Draft-07 says Draft-04's form" {
	echo 5 >five.json
	for u in http://json-schema.org/draft-04/schema# https://json-schema.org/draft-04/schema; do
		jq -n --arg u "$u" '{"$schema": $u, maximum: 5, exclusiveMaximum: true}' >s.json
		run -1 --separate-stderr jsonresp-check --draft 7 --schema s.json five.json
		assert_equal "$stderr" 'five.json:1:1: error: 5 is not less than the exclusive maximum 5'
	done
	echo '{"maximum": 5, "exclusiveMaximum": true}' >s7.json
	run -2 --separate-stderr jsonresp-check --schema s7.json five.json
	assert_equal "$stderr" 'jsonresp-check: s7.json: "exclusiveMaximum" must be a number in Draft-07 (a boolean is Draft-04'"'"'s form)'
	echo '{"$schema": "http://json-schema.org/draft-06/schema#", "if": false, "const": 5}' >s6.json
	run -0 --separate-stderr jsonresp-check --schema s6.json five.json
	assert_equal "$stderr" 's6.json:1:56: warning: if is a Draft-07 keyword; under Draft-06, as $schema says, it is ignored'
}

@test "a \$schema of 2020-12 or 2019-09 is read in its dialect: unevaluatedProperties refuses what no subschema evaluates" {
	echo '{"a":"x","b":1}' >doc.json
	for u in https://json-schema.org/draft/2020-12/schema https://json-schema.org/draft/2019-09/schema#; do
		jq -n --arg u "$u" '{"$schema": $u, type: "object", properties: {a: {type: "string"}}, unevaluatedProperties: false}' >s.json
		run -1 --separate-stderr jsonresp-check --schema s.json doc.json
		assert_output ""
		assert_equal "$stderr" 'doc.json:1:14: error: /b: unexpected property "b": no subschema evaluates it (unevaluatedProperties)'
	done
	# what a valid branch of anyOf evaluates counts; a failing one's does not
	jq -n '{"$schema": "https://json-schema.org/draft/2020-12/schema", anyOf: [{properties: {a: true}}, {properties: {b: {type: "string"}}}], unevaluatedProperties: false}' >any.json
	run -1 --separate-stderr jsonresp-check --schema any.json doc.json
	assert_equal "$stderr" 'doc.json:1:14: error: /b: unexpected property "b": no subschema evaluates it (unevaluatedProperties)'
	echo '{"a":"x","b":"y"}' >ok.json
	run -0 --separate-stderr jsonresp-check --schema any.json ok.json
	assert_equal "$stderr" ""
}

@test "2020-12: \$dynamicRef extends a recursive schema, unevaluatedItems, contains with minContains and maxContains, dependentRequired" {
	cat >tree.json <<'EOF'
{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/tree",
 "$dynamicAnchor": "node", "$ref": "list", "properties": {"data": true}, "unevaluatedProperties": false,
 "$defs": {"list": {"$id": "list", "$dynamicAnchor": "node",
   "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}}}}}
EOF
	echo '{"data":1,"kids":[{"data":2,"kids":[{"extra":1}]}]}' >t.json
	run -1 --separate-stderr jsonresp-check --schema tree.json t.json
	assert_equal "$stderr" 't.json:1:46: error: /kids/0/kids/0/extra: unexpected property "extra": no subschema evaluates it (unevaluatedProperties)'
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "contains": {"type": "integer"}, "unevaluatedItems": false}' >c.json
	echo '[1,"x",2]' >a.json
	run -1 --separate-stderr jsonresp-check --schema c.json a.json
	assert_equal "$stderr" 'a.json:1:4: error: /1: unexpected item 1: no subschema evaluates it (unevaluatedItems)'
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "contains": {"type": "integer"}, "minContains": 2, "maxContains": 2}' >mc.json
	echo '[1,"x"]' >one.json
	run -1 --separate-stderr jsonresp-check --schema mc.json one.json
	assert_equal "$stderr" 'one.json:1:1: error: array has 1 item that matches "contains", fewer than the minimum 2 (minContains)'
	echo '[1,2,3]' >three.json
	run -1 --separate-stderr jsonresp-check --schema mc.json three.json
	assert_equal "$stderr" 'three.json:1:1: error: array has 3 items that match "contains", more than the maximum 2 (maxContains)'
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"c": {"required": ["d"]}}}' >dep.json
	echo '{"a":1,"c":2}' >o.json
	run -1 --separate-stderr jsonresp-check --schema dep.json o.json
	assert_equal "$stderr" 'o.json:1:1: error: property "a" requires property "b"
o.json:1:1: error: missing required property "d"'
}

@test "2019-09: \$recursiveRef follows the outermost \$recursiveAnchor" {
	cat >base.json <<'EOF'
{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/base",
 "$recursiveAnchor": true, "type": "object", "properties": {"kids": {"type": "array", "items": {"$recursiveRef": "#"}}}}
EOF
	cat >ext.json <<'EOF'
{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/ext",
 "$recursiveAnchor": true, "$ref": "base", "required": ["name"]}
EOF
	echo '{"name":"a","kids":[{"name":"b"},{"kids":[]}]}' >t.json
	run -1 --separate-stderr jsonresp-check --schema ext.json -r base.json t.json
	assert_equal "$stderr" 't.json:1:34: error: /kids/1: missing required property "name"'
	run -0 --separate-stderr jsonresp-check --schema base.json t.json
	assert_equal "$stderr" ""
}

@test "format: an annotation in 2019-09 and 2020-12, an assertion before; --assert-format and --no-format change both" {
	echo '"nope"' >d.json
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "format": "email"}' >s20.json
	echo '{"format": "email"}' >s7.json
	run -0 --separate-stderr jsonresp-check --schema s20.json d.json
	assert_equal "$stderr" 'd.json:1:1: warning: string "nope" is not a valid email; "format" is an annotation in 2020-12: --assert-format makes it an error'
	run -0 --separate-stderr jsonresp-check --no-format --schema s20.json d.json
	assert_equal "$stderr" ""
	run -1 --separate-stderr jsonresp-check --assert-format --schema s20.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: string "nope" is not a valid email'
	run -1 --separate-stderr jsonresp-check --schema s7.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: string "nope" is not a valid email'
	run -0 --separate-stderr jsonresp-check --no-format --schema s7.json d.json
	assert_equal "$stderr" ""
	echo '"P1Y2W"' >p.json
	echo '{"format": "duration"}' >dur.json
	run -1 --separate-stderr jsonresp-check --draft 2019-09 --assert-format --schema dur.json p.json
	assert_equal "$stderr" 'p.json:1:1: error: string "P1Y2W" is not a valid duration'
}

@test "a format that fails where it is an annotation is a warning with its place and pointer; the status stays 0" {
	cat >s.json <<'EOF'
{"$schema": "https://json-schema.org/draft/2019-09/schema",
 "type": "object",
 "properties": {"mail": {"format": "email"}, "when": {"format": "date"},
   "tags": {"items": {"format": "ipv4"}}}}
EOF
	printf '{"mail": "not-an-email",\n "when": "2024-01-01",\n "tags": ["1.2.3.4", "1.2.3"]}\n' >a.json
	run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_output ''
	assert_equal "$stderr" 'a.json:1:10: warning: /mail: string "not-an-email" is not a valid email; "format" is an annotation in 2019-09: --assert-format makes it an error
a.json:3:22: warning: /tags/1: string "1.2.3" is not a valid ipv4; "format" is an annotation in 2019-09: --assert-format makes it an error'
	run -1 --separate-stderr jsonresp-check --assert-format --schema s.json a.json
	assert_equal "$stderr" 'a.json:1:10: error: /mail: string "not-an-email" is not a valid email
a.json:3:22: error: /tags/1: string "1.2.3" is not a valid ipv4'
}

@test "format warnings: -q silences them, --errors=json and -o report show them as warnings, --feedback leaves them out" {
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"m": {"format": "email"}}}' >s.json
	echo '{"m": "x"}' >a.json
	run -0 --separate-stderr jsonresp-check -q --schema s.json a.json
	assert_output ''
	assert_equal "$stderr" ''
	run -0 --separate-stderr jsonresp-check --errors=json --schema s.json a.json
	assert_equal "$stderr" '{"file":"a.json","line":1,"column":7,"severity":"warning","rule":"format","message":"string \"x\" is not a valid email; \"format\" is an annotation in 2020-12: --assert-format makes it an error","path":"/m","keywordLocation":"/properties/m/format"}'
	run -0 --separate-stderr jsonresp-check -q -o report --schema s.json a.json
	assert_output '{"file":"a.json","valid":true,"status":0,"errors":[{"file":"a.json","line":1,"column":7,"severity":"warning","rule":"format","message":"string \"x\" is not a valid email; \"format\" is an annotation in 2020-12: --assert-format makes it an error","path":"/m","keywordLocation":"/properties/m/format"}]}'
	echo '{"m": "x", "n": 1}' >b.json
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"m": {"format": "email"}}, "additionalProperties": false}' >s2.json
	run -1 --separate-stderr jsonresp-check -q --feedback --schema s2.json b.json
	assert_output "${FEEDBACK}/n: unexpected property \"n\""
}

@test "format warnings: none for a format that holds, an unknown format, or a branch of anyOf" {
	echo '{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"format": "email"}, "b": {"format": "no-such"}, "c": {"anyOf": [{"format": "email"}, {"type": "string"}]}}}' >s.json
	echo '{"a": "me@example.com", "b": "x", "c": "x"}' >a.json
	run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" ''
}

@test "a JSON Schema given as an operand without --schema is a warning that suggests --schema FILE" {
	printf '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "type": "object"\n}\n' >schema.json
	run -1 --separate-stderr jsonresp-check schema.json
	assert_equal "${stderr_lines[0]}" 'schema.json:2:14: warning: /$schema: this is a JSON Schema (2020-12), not a response: to check documents against it, give it as --schema FILE'
	assert_equal "${stderr_lines[1]}" 'schema.json:1:1: error: missing required property "safety"'
	run -1 --separate-stderr jsonresp-check -q schema.json
	assert_equal "$stderr" ''
	echo '{"$schema": "http://json-schema.org/draft-04/schema#"}' >s4.json
	run -1 --separate-stderr jsonresp-check s4.json
	assert_equal "${stderr_lines[0]}" 's4.json:1:13: warning: /$schema: this is a JSON Schema (Draft-04), not a response: to check documents against it, give it as --schema FILE'
	# a "$schema" that names no known dialect, and a --schema run: no warning
	echo '{"$schema": "https://example.com/mine"}' >u.json
	run -1 --separate-stderr jsonresp-check u.json
	[[ $stderr != *warning* ]] || fail "$stderr"
	run -0 --separate-stderr jsonresp-check --schema "$(sch '{}')" s4.json
	assert_equal "$stderr" ''
}

@test "a meta-schema given with -r: its \$vocabulary chooses the keywords and whether format asserts" {
	cat >meta.json <<'EOF'
{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/meta",
 "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
   "https://json-schema.org/draft/2020-12/vocab/applicator": true,
   "https://json-schema.org/draft/2020-12/vocab/format-assertion": true}}
EOF
	echo '{"$schema": "https://example.com/meta", "format": "email", "minimum": 5, "properties": {"a": false}}' >s.json
	echo 3 >three.json
	run -0 --separate-stderr jsonresp-check --schema s.json -r meta.json three.json
	assert_equal "$stderr" ""
	echo '"nope"' >d.json
	run -1 --separate-stderr jsonresp-check --schema s.json -r meta.json d.json
	assert_equal "$stderr" 'd.json:1:1: error: string "nope" is not a valid email'
	echo '{"a":1}' >o.json
	run -1 --separate-stderr jsonresp-check --schema s.json -r meta.json o.json
	assert_equal "$stderr" 'o.json:1:6: error: /a: no value is allowed here (the schema is false), found integer 1'
	jq '."$vocabulary"["https://example.com/vocab/magic"] = true' meta.json >magic.json
	run -2 --separate-stderr jsonresp-check --schema s.json -r magic.json three.json
	assert_equal "$stderr" 'jsonresp-check: s.json: the meta-schema "https://example.com/meta" requires the vocabulary "https://example.com/vocab/magic", which is not known here'
	echo '{"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://example.com/meta"}' >m7.json
	run -2 --separate-stderr jsonresp-check --schema s.json -r m7.json three.json
	assert_equal "$stderr" 'jsonresp-check: s.json: "$schema" "https://example.com/meta": a meta-schema whose own "$schema" is neither 2019-09 nor 2020-12'
}

@test "an unknown \$schema, or one that is no string, is status 2 with the message" {
	echo '{}' >doc.json
	echo '{"$schema": "http://json-schema.org/schema#"}' >u.json
	run -2 --separate-stderr jsonresp-check --schema u.json doc.json
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: u.json: unknown "$schema" "http://json-schema.org/schema#": not a dialect known here (Draft-04, Draft-06, Draft-07, 2019-09, 2020-12), and no meta-schema with that URI is loaded (give it with -r FILE)'
	echo '{"$schema": 4}' >n.json
	run -2 --separate-stderr jsonresp-check --schema n.json doc.json
	assert_equal "$stderr" 'jsonresp-check: n.json: "$schema" must be a string'
	echo '{"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"a": true}}' >b.json
	run -2 --separate-stderr jsonresp-check --schema b.json doc.json
	assert_equal "$stderr" 'jsonresp-check: b.json: /properties/a: a schema must be an object in Draft-04 (a boolean only as "additionalItems" or "additionalProperties")'
	echo '{"maximum": 1, "exclusiveMaximum": 1}' >x.json
	run -2 --separate-stderr jsonresp-check --draft 4 --schema x.json doc.json
	assert_equal "$stderr" 'jsonresp-check: x.json: "exclusiveMaximum" must be a boolean in Draft-04'
}

@test "2019-09 and 2020-12: a malformed new keyword is status 2 with the message" {
	echo '[]' >doc.json
	while IFS='|' read -r d kw want; do
		echo "{\"\$schema\": \"https://json-schema.org/draft/$d/schema\", $kw}" >s.json
		run -2 --separate-stderr jsonresp-check --schema s.json doc.json
		assert_output ""
		assert_equal "$stderr" "jsonresp-check: s.json: $want"
	done <<'EOF'
2020-12|"prefixItems": 3|"prefixItems" must be a non-empty array of schemas
2020-12|"dependentRequired": {"a": "b"}|/dependentRequired/a: must be an array of names
2020-12|"$dynamicRef": 5|"$dynamicRef" must be a string
2020-12|"dependentSchemas": []|"dependentSchemas" must be an object
2020-12|"minContains": -1|"minContains" must be a non-negative integer
2019-09|"$recursiveRef": ["#"]|"$recursiveRef" must be a string
EOF
}

@test "the draft-04 and draft-06 meta-schemas are built in: a \$ref to them needs no ref map" {
	echo '{"$ref": "http://json-schema.org/draft-04/schema#"}' >m4.json
	echo '{"minimum": 1, "exclusiveMinimum": 2}' >doc.json
	run -1 --separate-stderr jsonresp-check --schema m4.json doc.json
	assert_equal "$stderr" 'doc.json:1:36: error: /exclusiveMinimum: expected boolean, found integer 2'
	echo '{"$ref": "http://json-schema.org/draft-06/schema#"}' >m6.json
	run -0 --separate-stderr jsonresp-check --schema m6.json doc.json
	assert_equal "$stderr" ""
}

# ------------------------------------------------- schemas over several files

# three: a.json refs b.json and a fragment of it, b.json refs sub/c.json.
three() {
	mkdir -p "$1/sub"
	echo '{"type": "object", "properties": {"b": {"$ref": "b.json"}, "x": {"$ref": "b.json#/definitions/x"}}}' >"$1/a.json"
	echo '{"definitions": {"x": {"type": "integer"}}, "properties": {"c": {"$ref": "sub/c.json"}}}' >"$1/b.json"
	echo '{"type": "string", "minLength": 2}' >"$1/sub/c.json"
}

@test "a relative \$ref reads the file next to the schema's own file, wherever the command runs" {
	three schemas
	mkdir elsewhere
	cd elsewhere
	printf '{"b": {"c": "ab"}, "x": 1}\n{"b": {"c": "a"}, "x": "1"}\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema ../schemas/a.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" 'd.jsonl:2:13: error: /b/c: string of 1 character is shorter than the minimum length 2
d.jsonl:2:24: error: /x: expected integer, found string "1"'
	run -1 --separate-stderr jsonresp-check --schema "$(pwd -P)/../schemas/a.json" --lines d.jsonl
	assert_equal "${#lines[@]}" 0
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 2
}

@test "-r loads a schema that a \$ref names by its \$id" {
	echo '{"properties": {"x": {"$ref": "https://example.com/x.json"}}}' >main.json
	echo '{"$id": "https://example.com/x.json", "type": "string"}' >x.json
	printf '{"x": "s"}\n{"x": 1}\n' >d.jsonl
	run -1 --separate-stderr jsonresp-check --schema main.json -r x.json --lines d.jsonl
	assert_output ""
	assert_equal "$stderr" 'd.jsonl:2:7: error: /x: expected string, found integer 1'
	run -1 --separate-stderr jsonresp-check --ref x.json --schema main.json --lines d.jsonl
	assert_equal "$stderr" 'd.jsonl:2:7: error: /x: expected string, found integer 1'
}

@test "-r: a schema is also known by its file's location" {
	mkdir sub
	echo '{"type": "string"}' >sub/x.json
	echo "{\"\$ref\": \"file://$(pwd -P)/sub/x.json\"}" >main.json
	run -1 --separate-stderr jsonresp-check --schema main.json -r sub/x.json "$D/minimal.json"
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected string, found object"
}

@test "a \$ref that is not loaded says how to load it: status 2" {
	echo '{"properties": {"x": {"$ref": "https://example.com/x.json"}}}' >main.json
	run -2 --separate-stderr jsonresp-check --schema main.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: main.json: /properties/x/$ref: cannot resolve $ref to "https://example.com/x.json": not loaded (give its schema with -r FILE, or map the URI to a directory with --ref-map URI=DIR)'
}

@test "a relative \$ref in a schema read from standard input has no base: status 2" {
	run -2 --separate-stderr jsonresp-check --schema - "$D/minimal.json" <<<'{"$ref": "b.json"}'
	assert_equal "$stderr" 'jsonresp-check: -: /$ref: cannot resolve $ref to "b.json": a relative reference, and the schema has no base URI (no $id, no file)'
}

@test "a file: \$ref to a missing file or to a file that is no JSON: status 2 with the reason" {
	echo '{"allOf": [{"$ref": "sub/none.json"}]}' >a.json
	run -2 --separate-stderr jsonresp-check --schema a.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: a.json: /allOf/0/\$ref: cannot load \"file://$(pwd -P)/sub/none.json\": No such file or directory"
	printf '{"type":\n' >bad.json
	echo '{"$ref": "bad.json"}' >a.json
	run -2 --separate-stderr jsonresp-check --schema a.json "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: a.json: /\$ref: cannot load \"file://$(pwd -P)/bad.json\": not JSON at line 2, column 1: unexpected token near end of file"
	echo '{"$ref": "file://example.com/x.json"}' >a.json
	run -2 --separate-stderr jsonresp-check --schema a.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: a.json: /$ref: cannot load "file://example.com/x.json": not a local file'
}

@test "a space or a non-ASCII letter in a file's name is percent-encoded in its URI, and found" {
	mkdir 'my schemas'
	echo '{"$ref": "caf%C3%A9 types.json#/definitions/n"}' >'my schemas/main.json'
	echo '{"definitions": {"n": {"type": "null"}}}' >'my schemas/café types.json'
	run -1 --separate-stderr jsonresp-check --schema 'my schemas/main.json' "$D/minimal.json"
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected null, found object"
	echo '{"$ref": "café types.json#/definitions/missing"}' >'my schemas/main.json'
	run -2 --separate-stderr jsonresp-check --schema 'my schemas/main.json' "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: my schemas/main.json: /\$ref: cannot resolve \$ref \"café types.json#/definitions/missing\" (\"file://$(pwd -P)/my%20schemas/caf%C3%A9%20types.json#/definitions/missing\")"
}

@test "-r: one URI loaded twice with different content is status 2, with the same content it is fine" {
	echo '{"$ref": "https://example.com/x.json"}' >main.json
	echo '{"$id": "https://example.com/x.json", "type": "string"}' >x.json
	echo '{"$id": "https://example.com/x.json", "type": "integer"}' >x2.json
	run -2 --separate-stderr jsonresp-check --schema main.json -r x.json -r x2.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: main.json: x2.json: a different schema with the URI "https://example.com/x.json" is already loaded'
	run -1 --separate-stderr jsonresp-check --schema main.json -r x.json -r x.json -r main.json "$D/minimal.json"
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected string, found object"
}

@test "-r with a file that cannot be read or is no JSON is status 2" {
	echo '{}' >main.json
	run -2 --separate-stderr jsonresp-check --schema main.json -r none.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: main.json: none.json: No such file or directory'
	printf '{"type":\n' >bad.json
	run -2 --separate-stderr jsonresp-check --schema main.json -r bad.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: main.json: bad.json:2:1: the schema is not JSON: unexpected token near end of file'
	run -2 --separate-stderr jsonresp-check --schema main.json -r . "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: main.json: .: Is a directory'
}

@test "-r without a value is a usage error" {
	run -2 --separate-stderr jsonresp-check -r
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: option requires an argument -- 'r'
$USAGE"
}

# A NUL byte in --lines input, offsets in the input (issue 25)

@test "--lines: a line with a NUL byte is refused and every line after it is read, with --summary and -o report" {
	m=$(jq -c . "$D/minimal.json")
	printf '%s\n{"a":"b\0c"}\n%s\n%s\n' "$m" "$m" "$m" >nul.jsonl
	run -1 --separate-stderr jsonresp-check --lines --summary <nul.jsonl
	assert_output "4 documents: 3 valid, 1 invalid, 0 critical, 0 emergency"
	assert_equal "$stderr" "<stdin>:2:8: error: invalid JSON: NUL byte"
	run -1 --separate-stderr jsonresp-check --lines -o report --summary <nul.jsonl
	assert_output '{"file":"<stdin>","line":1,"valid":true,"status":0,"errors":[]}
{"file":"<stdin>","line":2,"valid":false,"status":1,"errors":[{"file":"<stdin>","line":2,"column":8,"severity":"error","rule":"json-syntax","message":"invalid JSON: NUL byte"}]}
{"file":"<stdin>","line":3,"valid":true,"status":0,"errors":[]}
{"file":"<stdin>","line":4,"valid":true,"status":0,"errors":[]}
{"documents":4,"valid":3,"invalid":1,"critical":0,"emergency":0}'
	assert_equal "$stderr" "<stdin>:2:8: error: invalid JSON: NUL byte"
	run -1 --separate-stderr jsonresp-check --lines -o json <nul.jsonl
	assert_output "$m
$m
$m"
}

@test "--lines: a NUL at a line's start, at its end, in a string and out, two lines running and a last line without LF are each one error" {
	echo '{"type":"object"}' >object.schema.json
	printf '{"n":1}\n\0{}\n{}\0\n{}  \0x\n{"a\0":1}\n\0\n\0\0{}\n{"n":8}\n{"a":\0' >l.jsonl
	run -1 --separate-stderr jsonresp-check --schema object.schema.json --lines -o json l.jsonl
	assert_output '{"n":1}
{"n":8}'
	assert_equal "$stderr" "l.jsonl:2:1: error: invalid JSON: NUL byte
l.jsonl:3:3: error: invalid JSON: NUL byte
l.jsonl:4:5: error: invalid JSON: NUL byte
l.jsonl:5:4: error: invalid JSON: NUL byte
l.jsonl:6:1: error: invalid JSON: NUL byte
l.jsonl:7:1: error: invalid JSON: NUL byte
l.jsonl:9:6: error: invalid JSON: NUL byte"
	run -1 --separate-stderr jsonresp-check --schema object.schema.json -q --lines -o report --summary l.jsonl
	assert_equal "$(printf '%s\n' "$output" | jq -c 'if .documents then [.documents, .valid, .invalid] else [.line, .valid, [.errors[] | .column]] end' | tr '\n' ' ')" \
	    '[1,true,[]] [2,false,[1]] [3,false,[3]] [4,false,[5]] [5,false,[4]] [6,false,[1]] [7,false,[1]] [8,true,[]] [9,false,[6]] [9,2,7] '
}

@test "--lines --find: a line ends at its NUL as a file does, a value found before it taken, and the next line is read" {
	echo '{"type":"object"}' >object.schema.json
	printf 'Here: {"n":1} then \0 junk {\nprose \0 {"n":2}\n{"n":3}\n' >f.jsonl
	run -1 --separate-stderr jsonresp-check --find --schema object.schema.json --lines -o report f.jsonl
	assert_output '{"file":"f.jsonl","line":1,"valid":true,"status":0,"errors":[]}
{"file":"f.jsonl","line":2,"valid":false,"status":1,"errors":[{"file":"f.jsonl","line":2,"column":7,"severity":"error","rule":"json-syntax","message":"invalid JSON: NUL byte"}]}
{"file":"f.jsonl","line":3,"valid":true,"status":0,"errors":[]}'
	assert_equal "$stderr" "f.jsonl:2:7: error: invalid JSON: NUL byte"
	# as a file
	printf 'Here: {"n":1} then \0 junk {' >f.txt
	run -0 --separate-stderr jsonresp-check --find --schema object.schema.json -o json f.txt
	assert_output '{"n":1}'
}

@test "--lines: a NUL line longer than 64 KiB is refused at its NUL, and the line after it is read" {
	echo true >true.schema.json
	{
		printf '{"a":"'
		head -c 70000 /dev/zero | tr '\0' x
		printf '\0'
		head -c 35000 /dev/zero
		printf '"}\\'
		head -c 35000 /dev/zero | tr '\0' y
		printf '"}\n{"n":2}\n'
	} >long.jsonl
	run -1 --separate-stderr jsonresp-check --schema true.schema.json --lines -o json long.jsonl
	assert_output '{"n":2}'
	assert_equal "$stderr" "long.jsonl:1:70007: error: invalid JSON: NUL byte"
}

@test "--lines: a line of 100 MB of NUL bytes is skipped in little memory, and the line after it read" {
	echo true >true.json
	read -r st kb < <(peak sh -c '{ head -c 100M /dev/zero; printf "\n{\"n\":2}\n"; } | jsonresp-check --schema true.json --lines -o json')
	assert_equal "$st" 1
	assert_equal "$(cat out)" '{"n":2}'
	assert_equal "$(cat err)" "<stdin>:1:1: error: invalid JSON: NUL byte"
	(( kb < 60000 )) || fail "peak memory $kb KiB for a NUL line of 100 MB"
}

@test "--lines /dev/zero: line 1 is refused at once, and its endless rest read on in constant memory" {
	run -124 --separate-stderr timeout 1 jsonresp-check --lines /dev/zero
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: invalid JSON: NUL byte"
}

@test "invalid UTF-8 is named by its offset in the input, in a file and with --lines alike" {
	echo true >true.schema.json
	printf '{"a":\n"\377"}' >u.json
	run -1 --separate-stderr jsonresp-check --schema true.schema.json u.json
	assert_equal "$stderr" "u.json:2:2: error: invalid UTF-8: byte 0xff at byte offset 7"
	printf '{}\n{"a":\n{"a":"\\n\377"}\n' >u.jsonl
	run -1 --separate-stderr jsonresp-check --schema true.schema.json -q --lines -o report u.jsonl
	assert_equal "${lines[2]}" '{"file":"u.jsonl","line":3,"valid":false,"status":1,"errors":[{"file":"u.jsonl","line":3,"column":9,"severity":"error","rule":"utf8","message":"invalid UTF-8: byte 0xff at byte offset 17"}]}'
	# a byte order mark counts, on line 1 of a file as of --lines
	run -1 --separate-stderr jsonresp-check --schema true.schema.json < <(printf '\357\273\277{"a":\n"\377"}')
	assert_equal "$stderr" "<stdin>:2:2: error: invalid UTF-8: byte 0xff at byte offset 10"
	run -1 --separate-stderr jsonresp-check --schema true.schema.json --lines < <(printf '\357\273\277"\377"\n"\300\200"\n')
	assert_equal "$stderr" "<stdin>:1:2: error: invalid UTF-8: byte 0xff at byte offset 4
<stdin>:2:2: error: invalid UTF-8: byte 0xc0 at byte offset 8"
}

# ------------------------------------ schema files: regular files alone

# sch TEXT: TEXT written to schema.json, whose name is printed, for
# --schema: a schema is read from a regular file, never from a pipe.
sch() {
	printf '%s\n' "$1" >schema.json
	echo schema.json
}

@test "--schema: a FIFO, a device or a directory is refused at once, status 3" {
	mkfifo fifo
	mkdir d
	run -3 --separate-stderr timeout 10 jsonresp-check --schema fifo "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: fifo: not a regular file"
	run -3 --separate-stderr timeout 10 jsonresp-check --schema /dev/zero "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: /dev/zero: not a regular file"
	run -3 --separate-stderr timeout 10 jsonresp-check --schema d "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: d: Is a directory"
	run -3 --separate-stderr timeout 10 jsonresp-check --print-schema --schema fifo
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: fifo: not a regular file"
}

@test "--schema: a pipe is refused by its name, and read as -, standard input" {
	run -3 --separate-stderr timeout 10 bash -c 'exec 3< <(echo true); jsonresp-check --schema /dev/fd/3 "$1"' sh "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: /dev/fd/3: not a regular file"
	run -1 --separate-stderr timeout 10 jsonresp-check --schema - "$D/minimal.json" <<<'{"type": "string"}'
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected string, found object"
}

@test "-r: a FIFO, a device or a directory is refused at once, status 2" {
	echo '{}' >main.json
	mkfifo fifo
	run -2 --separate-stderr timeout 10 jsonresp-check --schema main.json -r fifo "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: main.json: fifo: not a regular file"
	run -2 --separate-stderr timeout 10 jsonresp-check --schema main.json -r /dev/null "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: main.json: /dev/null: not a regular file"
	run -2 --separate-stderr timeout 10 jsonresp-check -r /dev/zero "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: llm-response.schema.json: /dev/zero: not a regular file"
}

@test "a \$ref to a FIFO, a device or a directory is refused at once, status 2" {
	mkfifo fifo
	mkdir d
	P=$(pwd -P)
	echo '{"properties": {"a": {"$ref": "fifo"}}}' >s.json
	run -2 --separate-stderr timeout 10 jsonresp-check --schema s.json "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: s.json: /properties/a/\$ref: cannot load \"file://$P/fifo\": not a regular file"
	echo '{"$ref": "file:///dev/zero"}' >s.json
	run -2 --separate-stderr timeout 10 jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" 'jsonresp-check: s.json: /$ref: cannot load "file:///dev/zero": not a regular file'
	echo '{"$ref": "d"}' >s.json
	run -2 --separate-stderr timeout 10 jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: s.json: /\$ref: cannot load \"file://$P/d\": Is a directory"
	# a symbolic link is followed to what it names
	ln -s fifo link.json
	echo '{"$ref": "link.json"}' >s.json
	run -2 --separate-stderr timeout 10 jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" "jsonresp-check: s.json: /\$ref: cannot load \"file://$P/link.json\": not a regular file"
}

@test "--ref-map: a FIFO where the mapped file would be is refused, status 2" {
	mkdir -p remote/sub
	mkfifo remote/sub/name.json
	echo '{"properties": {"n": {"$ref": "http://schemas.example.org/sub/name.json"}}}' >s.json
	run -2 --separate-stderr timeout 10 jsonresp-check --schema s.json \
	    --ref-map http://schemas.example.org/=remote "$D/minimal.json"
	assert_output ""
	assert_equal "$stderr" 'jsonresp-check: s.json: /properties/n/$ref: cannot load "http://schemas.example.org/sub/name.json" from remote/sub/name.json: not a regular file'
}

@test "--schema, -r and \$ref keep reading regular files, through a symbolic link too" {
	mkdir real
	echo '{"type": "string"}' >real/x.json
	ln -s real/x.json x.json
	echo '{"$ref": "x.json"}' >s.json
	run -1 --separate-stderr jsonresp-check --schema s.json "$D/minimal.json"
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected string, found object"
	run -1 --separate-stderr jsonresp-check --schema x.json "$D/minimal.json"
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected string, found object"
	run -1 --separate-stderr jsonresp-check -r x.json --schema s.json "$D/minimal.json"
	assert_equal "$stderr" "$D/minimal.json:1:1: error: expected string, found object"
}
