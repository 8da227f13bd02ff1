#!/usr/bin/env bats
# thread-serialize as a user drives it: every option, every input form, the
# seed's serializeThreadToXml semantics, every diagnostic with its location
# and exit status, well-formed output, write errors and a large thread.

load helper

bats_require_minimum_version 1.5.0

D="$DATA/thread-serialize"
USAGE='usage: thread-serialize [-hn] [--errors=github|json|text]
                        [--keep-summarized] [--response-prefix TEXT]
                        [--strict] [FILE]'
EMPTY='<thread>
</thread>'

# input: standard input into in.jsonl, the file most tests read.
input() {
	cat >in.jsonl
}

# one_event JSON: in.jsonl holding that one line.
one_event() {
	printf '%s\n' "$1" >in.jsonl
}

# ---------------------------------------------------------------- options

@test "-h prints the usage, what each option does and the exit statuses on stdout and exits 0" {
	run -0 --separate-stderr thread-serialize -h
	assert_output "$USAGE

$(help_of thread-serialize)

exit status: 0 written, 1 invalid input, 2 usage, 3 trouble"
	assert_equal "$stderr" ""
}

@test "--help is the same as -h" {
	run -0 --separate-stderr thread-serialize --help
	assert_output "$USAGE

$(help_of thread-serialize)

exit status: 0 written, 1 invalid input, 2 usage, 3 trouble"
	assert_equal "$stderr" ""
}

@test "--version prints the tool, llmkit and the version" {
	run -0 --separate-stderr thread-serialize --version
	assert_output "thread-serialize (llmkit) 0.1.0"
	assert_equal "$stderr" ""
}

@test "an unknown short option is a usage error" {
	run -2 --separate-stderr thread-serialize -x "$D/seed.jsonl"
	assert_output ""
	assert_equal "$stderr" "thread-serialize: invalid option -- 'x'
$USAGE"
}

@test "an unknown long option is a usage error" {
	run -2 --separate-stderr thread-serialize --pretty "$D/seed.jsonl"
	assert_output ""
	assert_equal "$stderr" "thread-serialize: unrecognized option '--pretty'
$USAGE"
}

@test "two operands are a usage error: a thread is one input" {
	run -2 --separate-stderr thread-serialize "$D/seed.jsonl" "$D/seed.jsonl"
	assert_output ""
	assert_equal "$stderr" "thread-serialize: one input at most (the events of one thread)
$USAGE"
}

@test "--errors with a value other than json or text is a usage error" {
	run -2 --separate-stderr thread-serialize --errors=xml "$D/seed.jsonl"
	assert_output ""
	assert_equal "$stderr" "thread-serialize: --errors must be github, json or text, not \"xml\"
$USAGE"
}

@test "--errors without a value is a usage error" {
	run -2 --separate-stderr thread-serialize --errors
	assert_output ""
	assert_equal "$stderr" "thread-serialize: option '--errors' requires an argument
$USAGE"
}

@test "--response-prefix without a value is a usage error" {
	run -2 --separate-stderr thread-serialize --response-prefix
	assert_output ""
	assert_equal "$stderr" "thread-serialize: option '--response-prefix' requires an argument
$USAGE"
}

@test "a --response-prefix that is not UTF-8 is a usage error" {
	run -2 --separate-stderr thread-serialize --response-prefix "$(printf 'a\377b')" "$D/seed.jsonl"
	assert_output ""
	assert_equal "$stderr" "thread-serialize: --response-prefix is not valid UTF-8
$USAGE"
}

@test "the document ends with one newline" {
	thread-serialize "$D/seed.jsonl" >out
	cmp out "$D/seed.xml"
}

@test "-n leaves out the final newline" {
	thread-serialize -n "$D/seed.jsonl" >out
	head -c -1 "$D/seed.xml" | cmp - out
}

@test "--no-newline is the same as -n" {
	printf '[]' | thread-serialize --no-newline >out
	printf '<thread>\n</thread>' | cmp - out
}

@test "--response-prefix follows </thread> after a newline, unescaped" {
	printf '[]' | thread-serialize --response-prefix 'Based on <the> "thread" & it'\''s tools, I will now' >out
	printf '<thread>\n</thread>\nBased on <the> "thread" & it'\''s tools, I will now\n' | cmp - out
}

@test "--response-prefix may hold newlines, written as they are" {
	printf '[]' | thread-serialize --response-prefix "$(printf 'line one\nline two')" >out
	printf '<thread>\n</thread>\nline one\nline two\n' | cmp - out
}

@test "--response-prefix=TEXT with -n writes no newline after the prefix" {
	thread-serialize -n --response-prefix='I will now' "$D/seed.jsonl" >out
	{ cat "$D/seed.xml"; printf 'I will now'; } | cmp - out
}

@test "an empty --response-prefix writes nothing after the document" {
	printf '[]' | thread-serialize --response-prefix '' >out
	printf '<thread>\n</thread>\n' | cmp - out
}

@test "reads standard input when there is no operand" {
	run -0 --separate-stderr thread-serialize <"$D/seed.jsonl"
	assert_output "$(cat "$D/seed.xml")"
	assert_equal "$stderr" ""
}

@test "reads standard input for the operand -" {
	run -0 --separate-stderr thread-serialize - <"$D/seed.jsonl"
	assert_output "$(cat "$D/seed.xml")"
	assert_equal "$stderr" ""
}

@test "reads a FILE operand" {
	cp "$D/seed.jsonl" events.jsonl
	run -0 --separate-stderr thread-serialize events.jsonl </dev/null
	assert_output "$(cat "$D/seed.xml")"
	assert_equal "$stderr" ""
}

@test "diagnostics about standard input name <stdin>" {
	run -1 --separate-stderr thread-serialize <<<'{"type":"message","role":"user","iteration":0}'
	assert_output ""
	assert_equal "$stderr" '<stdin>:1:1: error: event 0: missing "content" (a string)'
}

@test "a missing file is trouble: status 3 and the system's message" {
	run -3 --separate-stderr thread-serialize no-such.jsonl
	assert_output ""
	assert_equal "$stderr" "thread-serialize: no-such.jsonl: No such file or directory"
}

@test "a missing file is reported in plain text even with --errors=json" {
	run -3 --separate-stderr thread-serialize --errors=json no-such.jsonl
	assert_output ""
	assert_equal "$stderr" "thread-serialize: no-such.jsonl: No such file or directory"
}

@test "a directory operand is trouble: status 3" {
	mkdir events
	run -3 --separate-stderr thread-serialize events
	assert_output ""
	assert_equal "$stderr" "thread-serialize: events: Is a directory"
}

@test "--errors=text is the default form of diagnostics" {
	one_event '{"type":"message","role":"user","content":5,"iteration":0}'
	run -1 --separate-stderr thread-serialize --errors=text in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:43: error: event 0: "content" must be a string, found a number'
}

@test "the last --errors wins" {
	one_event '{"type":"message","role":"user","content":5,"iteration":0}'
	run -1 --separate-stderr thread-serialize --errors=json --errors=text in.jsonl
	assert_equal "$stderr" 'in.jsonl:1:43: error: event 0: "content" must be a string, found a number'
}

# ----------------------------------------------------------- input forms

@test "a JSON array gives the same document as JSON lines" {
	run -0 --separate-stderr thread-serialize --keep-summarized "$D/all-types.json"
	assert_output "$(cat "$D/all-types.xml")"
	assert_equal "$stderr" ""
}

@test "an array on one line is read" {
	printf '[{"type":"message","role":"user","content":"a","iteration":0},{"type":"message","role":"assistant","content":"b","iteration":0}]' >in.json
	run -0 --separate-stderr thread-serialize in.json
	assert_output '<thread>
  <event type="human" id="0" iteration="0">a</event>
  <event type="ai" id="1" iteration="0">b</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "blank lines between JSON lines are ignored" {
	printf '\n\n{"type":"message","role":"user","content":"a","iteration":0}\n\n \t\n{"type":"message","role":"user","content":"b","iteration":0}\n\n' >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">a</event>
  <event type="human" id="1" iteration="0">b</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "JSON lines with CRLF line ends are read" {
	printf '{"type":"message","role":"user","content":"a","iteration":0}\r\n{"type":"message","role":"user","content":"b","iteration":0}\r\n' >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">a</event>
  <event type="human" id="1" iteration="0">b</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a last line without a newline is read" {
	head -c -1 "$D/seed.jsonl" >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output "$(cat "$D/seed.xml")"
	assert_equal "$stderr" ""
}

@test "a byte order mark before JSON lines is skipped" {
	{ printf '\357\273\277'; cat "$D/seed.jsonl"; } >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output "$(cat "$D/seed.xml")"
	assert_equal "$stderr" ""
}

@test "a byte order mark before an array is skipped" {
	{ printf '\357\273\277'; cat "$D/all-types.json"; } >in.json
	run -0 --separate-stderr thread-serialize --keep-summarized in.json
	assert_output "$(cat "$D/all-types.xml")"
	assert_equal "$stderr" ""
}

@test "empty input gives an empty thread" {
	: >in.jsonl
	thread-serialize in.jsonl >out 2>err
	printf '<thread>\n</thread>\n' | cmp - out
	[ ! -s err ]
}

@test "an empty array gives an empty thread" {
	printf '[]' >in.json
	thread-serialize in.json >out 2>err
	printf '<thread>\n</thread>\n' | cmp - out
	[ ! -s err ]
}

@test "an empty array spread over lines gives an empty thread" {
	printf '  [\n\n ]\n\n' >in.json
	run -0 --separate-stderr thread-serialize in.json
	assert_output "$EMPTY"
	assert_equal "$stderr" ""
}

@test "whitespace-only input gives an empty thread" {
	printf ' \n\t\r\n\n' >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output "$EMPTY"
	assert_equal "$stderr" ""
}

@test "a byte order mark alone gives an empty thread" {
	printf '\357\273\277\n' >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output "$EMPTY"
	assert_equal "$stderr" ""
}

# ------------------------------------------------------- the seed's format

@test "the seed's example comes out as the seed shows it, quotes escaped" {
	# The seed prints {"expression":"2+2"} raw, but its own rule (all
	# content goes through escapeXml) and its reference give &quot;.
	thread-serialize "$D/seed.jsonl" >out 2>err
	cmp out "$D/seed.xml"
	[ ! -s err ]
}

@test "every event type comes out as in the golden file" {
	thread-serialize --keep-summarized "$D/all-types.jsonl" >out 2>err
	cmp out "$D/all-types.xml"
	[ ! -s err ]
}

@test "the golden files agree with the JavaScript reference" {
	node "$TOP/t/oracle/reference.js" "$D/all-types.jsonl" | cmp - "$D/all-types.xml"
	node "$TOP/t/oracle/reference.js" "$D/seed.jsonl" | cmp - "$D/seed.xml"
	node "$TOP/t/oracle/reference.js" "$D/special.jsonl" | cmp - "$D/special.xml"
}

@test "attributes come in the seed's order for every event type" {
	input <<'EOF'
{"iteration":7,"content":"m","role":"user","type":"message"}
{"iteration":7,"args":{},"toolCallId":"c","toolName":"t","type":"tool_call"}
{"iteration":7,"result":"r","toolCallId":"c","type":"tool_result"}
{"iteration":7,"recoverable":false,"error":"e","type":"error"}
{"iteration":7,"question":"q","type":"human_input_requested"}
{"iteration":7,"response":"r","type":"human_input_received"}
{"iteration":7,"result":"r","type":"completion"}
{"iteration":7,"summarizedIterations":[5,6],"summary":"s","type":"summary"}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="7">m</event>
  <event type="tool_input" id="1" name="t" iteration="7">{}</event>
  <event type="tool_output" id="2" name="t" status="success" iteration="7">r</event>
  <event type="error" id="3" iteration="7" recoverable="false">e</event>
  <event type="human_input_requested" id="4" iteration="7">q</event>
  <event type="human_input_received" id="5" iteration="7">r</event>
  <event type="completion" id="6" iteration="7">r</event>
  <event type="summary" id="7" iteration="7" summarizedIterations="5,6">s</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "message roles: user is human, assistant is ai, anything else system" {
	input <<'EOF'
{"type":"message","role":"user","content":"a","iteration":0}
{"type":"message","role":"assistant","content":"b","iteration":0}
{"type":"message","role":"system","content":"c","iteration":0}
{"type":"message","role":"tool","content":"d","iteration":0}
{"type":"message","role":"","content":"e","iteration":0}
{"type":"message","role":"User","content":"f","iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">a</event>
  <event type="ai" id="1" iteration="0">b</event>
  <event type="system" id="2" iteration="0">c</event>
  <event type="system" id="3" iteration="0">d</event>
  <event type="system" id="4" iteration="0">e</event>
  <event type="system" id="5" iteration="0">f</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a tool_result takes its name from a tool_call before or after it" {
	input <<'EOF'
{"type":"tool_result","toolCallId":"late","result":"early result","iteration":0}
{"type":"tool_call","toolName":"search","toolCallId":"early","args":{},"iteration":0}
{"type":"tool_result","toolCallId":"early","result":"r","iteration":0}
{"type":"tool_call","toolName":"fetch","toolCallId":"late","args":{},"iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="fetch" status="success" iteration="0">early result</event>
  <event type="tool_input" id="1" name="search" iteration="0">{}</event>
  <event type="tool_output" id="2" name="search" status="success" iteration="0">r</event>
  <event type="tool_input" id="3" name="fetch" iteration="0">{}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a tool_result with no matching tool_call is named unknown" {
	input <<'EOF'
{"type":"tool_call","toolName":"anonymous","args":{},"iteration":0}
{"type":"tool_result","toolCallId":"c9","result":"r","iteration":0}
{"type":"tool_result","toolCallId":"","result":"r","iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="anonymous" iteration="0">{}</event>
  <event type="tool_output" id="1" name="unknown" status="success" iteration="0">r</event>
  <event type="tool_output" id="2" name="unknown" status="success" iteration="0">r</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "the last tool_call with an id names every result with that id" {
	input <<'EOF'
{"type":"tool_result","toolCallId":"c1","result":"r0","iteration":0}
{"type":"tool_call","toolName":"first","toolCallId":"c1","args":{},"iteration":0}
{"type":"tool_result","toolCallId":"c1","result":"r2","iteration":0}
{"type":"tool_call","toolName":"second","toolCallId":"c1","args":{},"iteration":1}
{"type":"tool_result","toolCallId":"c1","result":"r4","iteration":1}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="second" status="success" iteration="0">r0</event>
  <event type="tool_input" id="1" name="first" iteration="0">{}</event>
  <event type="tool_output" id="2" name="second" status="success" iteration="0">r2</event>
  <event type="tool_input" id="3" name="second" iteration="1">{}</event>
  <event type="tool_output" id="4" name="second" status="success" iteration="1">r4</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a tool name is escaped in the tool_output name as well" {
	input <<'EOF'
{"type":"tool_call","toolName":"a<b>&\"c'","toolCallId":"x","args":{},"iteration":0}
{"type":"tool_result","toolCallId":"x","result":"r","iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="a&lt;b&gt;&amp;&quot;c&apos;" iteration="0">{}</event>
  <event type="tool_output" id="1" name="a&lt;b&gt;&amp;&quot;c&apos;" status="success" iteration="0">r</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "the five special characters are escaped in every text" {
	thread-serialize --keep-summarized "$D/special.jsonl" >out 2>err
	cmp out "$D/special.xml"
	[ ! -s err ]
}

@test "String(result): a string as it is, escaped" {
	one_event '{"type":"tool_result","toolCallId":"c","result":"x < y && \"z\"\nnext","iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="unknown" status="success" iteration="0">x &lt; y &amp;&amp; &quot;z&quot;
next</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "String(result): numbers as JavaScript prints them" {
	input <<'EOF'
{"type":"tool_result","toolCallId":"c","result":42.50,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":1e21,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":123456789012345678901,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":-0,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":0.000001,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":1e-7,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":9007199254740993,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":-1.5E+3,"iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="unknown" status="success" iteration="0">42.5</event>
  <event type="tool_output" id="1" name="unknown" status="success" iteration="0">1e+21</event>
  <event type="tool_output" id="2" name="unknown" status="success" iteration="0">123456789012345680000</event>
  <event type="tool_output" id="3" name="unknown" status="success" iteration="0">0</event>
  <event type="tool_output" id="4" name="unknown" status="success" iteration="0">0.000001</event>
  <event type="tool_output" id="5" name="unknown" status="success" iteration="0">1e-7</event>
  <event type="tool_output" id="6" name="unknown" status="success" iteration="0">9007199254740992</event>
  <event type="tool_output" id="7" name="unknown" status="success" iteration="0">-1500</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "String(result): true, false and null" {
	input <<'EOF'
{"type":"tool_result","toolCallId":"c","result":true,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":false,"iteration":0}
{"type":"tool_result","toolCallId":"c","result":null,"iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="unknown" status="success" iteration="0">true</event>
  <event type="tool_output" id="1" name="unknown" status="success" iteration="0">false</event>
  <event type="tool_output" id="2" name="unknown" status="success" iteration="0">null</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "String(result): arrays joined with commas, nested, null and [] empty" {
	input <<'EOF'
{"type":"tool_result","toolCallId":"c","result":[1,"two",[3,[4,null]],null,true,[],2.50],"iteration":0}
{"type":"tool_result","toolCallId":"c","result":[],"iteration":0}
{"type":"tool_result","toolCallId":"c","result":[null],"iteration":0}
{"type":"tool_result","toolCallId":"c","result":[[],[]],"iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="unknown" status="success" iteration="0">1,two,3,4,,,true,,2.5</event>
  <event type="tool_output" id="1" name="unknown" status="success" iteration="0"></event>
  <event type="tool_output" id="2" name="unknown" status="success" iteration="0"></event>
  <event type="tool_output" id="3" name="unknown" status="success" iteration="0">,</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "String(result): an object is [object Object], in an array too" {
	input <<'EOF'
{"type":"tool_result","toolCallId":"c","result":{"k":"v"},"iteration":0}
{"type":"tool_result","toolCallId":"c","result":{},"iteration":0}
{"type":"tool_result","toolCallId":"c","result":[{"a":1},"b",{}],"iteration":0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="unknown" status="success" iteration="0">[object Object]</event>
  <event type="tool_output" id="1" name="unknown" status="success" iteration="0">[object Object]</event>
  <event type="tool_output" id="2" name="unknown" status="success" iteration="0">[object Object],b,[object Object]</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "JSON.stringify(args): array-index keys first in numeric order, then insertion order" {
	one_event '{"type":"tool_call","toolName":"t","args":{"b":1,"2":"two","a":0,"10":true,"01":null,"4294967294":"max","4294967295":"over","-1":"neg","1.5":"f","0":"zero"},"iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="t" iteration="0">{&quot;0&quot;:&quot;zero&quot;,&quot;2&quot;:&quot;two&quot;,&quot;10&quot;:true,&quot;4294967294&quot;:&quot;max&quot;,&quot;b&quot;:1,&quot;a&quot;:0,&quot;01&quot;:null,&quot;4294967295&quot;:&quot;over&quot;,&quot;-1&quot;:&quot;neg&quot;,&quot;1.5&quot;:&quot;f&quot;}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a key repeated in args is an error with both places: nothing is written" {
	one_event '{"type":"tool_call","toolName":"t","args":{"a":1,"b":2,"a":3},"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:56: error: duplicate key "a", first at line 1, column 44'
}

@test "JSON.stringify(args): numbers in their shortest round-trip form" {
	one_event '{"type":"tool_call","toolName":"t","args":{"n":[1.0,-0,0.1,1e21,1e20,1e-7,0.000001,123456789012345678901234567890,9007199254740993,1.5e300,-2.5e-8,5E-324,0.30000000000000004]},"iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="t" iteration="0">{&quot;n&quot;:[1,0,0.1,1e+21,100000000000000000000,1e-7,0.000001,1.2345678901234568e+29,9007199254740992,1.5e+300,-2.5e-8,5e-324,0.30000000000000004]}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "JSON.stringify(args): string escapes in lowercase hex, / and non-ASCII as they are" {
	one_event '{"type":"tool_call","toolName":"t","args":{"s":"q\" b\\ \b\f\n\r\t \u0001\u001F\u007f / \/ é 😀 \u00e9"},"iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="t" iteration="0">{&quot;s&quot;:&quot;q\&quot; b\\ \b\f\n\r\t \u0001\u001f'$'\x7f'' / / é 😀 é&quot;}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "JSON.stringify(args): nested and empty objects and arrays, no spaces" {
	one_event '{"type":"tool_call","toolName":"t","args":{ "e" : {}, "l" : [ ], "n" : { "x" : [ 1 , { "y" : null } ] } , "b" : false },"iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="t" iteration="0">{&quot;e&quot;:{},&quot;l&quot;:[],&quot;n&quot;:{&quot;x&quot;:[1,{&quot;y&quot;:null}]},&quot;b&quot;:false}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "iteration and summarizedIterations are numbers as JavaScript prints them" {
	input <<'EOF'
{"type":"message","role":"user","content":"","iteration":-1.5}
{"type":"message","role":"user","content":"x","iteration":1e21}
{"type":"message","role":"user","content":"x","iteration":2.0}
{"type":"summary","summary":"s","summarizedIterations":[1.0,2.50,-0,1e-7,100],"iteration":5}
{"type":"summary","summary":"s","summarizedIterations":[],"iteration":5}
EOF
	run -0 --separate-stderr thread-serialize --keep-summarized in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="-1.5"></event>
  <event type="human" id="1" iteration="1e+21">x</event>
  <event type="human" id="2" iteration="2">x</event>
  <event type="summary" id="3" iteration="5" summarizedIterations="1,2.5,0,1e-7,100">s</event>
  <event type="summary" id="4" iteration="5" summarizedIterations="">s</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "fields the format does not use are ignored" {
	one_event '{"type":"message","role":"user","content":"hi","iteration":0,"timestamp":"2024-01-01","id":99,"extra":{"a":[1]}}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">hi</event>
</thread>'
	assert_equal "$stderr" ""
}

# --------------------------------------------------------- invalid JSON

@test "rejects a truncated JSON line" {
	printf '{"type":"message","role":"user","content":"x","iteration":0\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	# column 60 is the end of the line, where the '}' should be
	assert_equal "$stderr" "in.jsonl:1:60: error: invalid JSON: '}' expected near end of file"
}

@test "rejects an array that is not closed" {
	printf '[{"type":"message","role":"user","content":"x","iteration":0}' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	# column 61 is the last character of the input
	assert_equal "$stderr" "in.json:1:62: error: invalid JSON: the array is not closed with ']'"
}

@test "rejects a lone opening bracket" {
	printf '[' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" "in.json:1:2: error: invalid JSON: the array is not closed with ']'"
}

@test "rejects a trailing comma in the array" {
	printf '[{"type":"message","role":"user","content":"x","iteration":0},]\n' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" "in.json:1:63: error: invalid JSON: unexpected token near ']'"
}

@test "rejects a trailing comma after a JSON line" {
	printf '{"type":"message","role":"user","content":"x","iteration":0},\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:61: error: invalid JSON: unexpected token near ','"
}

@test "rejects text after the closing bracket of the array" {
	printf '[{"type":"message","role":"user","content":"x","iteration":0}]\n\n  and more\n' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" "in.json:3:3: error: invalid JSON: text after the closing ']' of the array"
}

@test "rejects a missing comma between array elements" {
	printf '[{"type":"message","role":"user","content":"x","iteration":0}\n {"type":"message","role":"user","content":"y","iteration":0}]\n' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" "in.json:2:2: error: invalid JSON: expected ',' or ']' after an array element"
}

@test "rejects a missing comma between members, pointing at the unexpected member" {
	printf '{"type":"message","role":"user","content":"x","iteration":0}\n{"type":"message","role":"user","content":"x" "iteration":0}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	# column 47 is where "iteration" starts
	assert_equal "$stderr" "in.jsonl:2:47: error: invalid JSON: '}' expected near '\"iteration\"'"
}

@test "rejects a bare word after a valid JSON line, counting columns in characters" {
	printf '{"type":"message","role":"user","content":"héé","iteration":0} x\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:64: error: invalid JSON: invalid token near 'x'"
}

@test "rejects single quotes" {
	printf "{'type':'message'}\n" >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:2: error: invalid JSON: string or '}' expected near '''"
}

@test "rejects a raw newline inside a string" {
	printf '{"type":"message","content":"abc\nd"}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:33: error: invalid JSON: unexpected newline near '\"abc'"
}

@test "invalid JSON after good events writes nothing" {
	{ cat "$D/seed.jsonl"; printf '{"type":\n'; } >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	# column 9 is the end of line 6, where a value should be
	assert_equal "$stderr" "in.jsonl:6:9: error: invalid JSON: unexpected token near end of file"
}

# -------------------------------------------------------- invalid UTF-8

@test "rejects invalid UTF-8, naming the byte offset" {
	printf '{"type":"message","role":"user","content":"a\377b","iteration":0}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:45: error: invalid UTF-8: byte 0xff at byte offset 44"
}

@test "rejects a truncated UTF-8 sequence, column in characters, offset in bytes" {
	printf '{"type":"message","role":"user","content":"\303\251\303","iteration":0}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:45: error: invalid UTF-8: byte 0xc3 at byte offset 45"
}

@test "rejects invalid UTF-8 on a later line" {
	printf '{"type":"message","role":"user","content":"x","iteration":0}\n{"type":"message","role":"user","content":"\342\202","iteration":0}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:2:44: error: invalid UTF-8: byte 0xe2 at byte offset 104"
}

@test "rejects an encoded surrogate (CESU-8)" {
	printf '{"type":"message","role":"user","content":"\355\240\200","iteration":0}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:44: error: invalid UTF-8: byte 0xed at byte offset 43"
}

@test "rejects invalid UTF-8 between array elements" {
	printf '[{"type":"message","role":"user","content":"x","iteration":0}, \377]' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" "in.json:1:64: error: invalid UTF-8: byte 0xff at byte offset 63"
}

# ------------------------------------------------------------ bad events

@test "rejects events that are not objects, each at its place" {
	printf '[1, "a",\n  null, [], true]\n' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" 'in.json:1:2: error: event 0: expected an object, found a number
in.json:1:5: error: event 1: expected an object, found a string
in.json:2:3: error: event 2: expected an object, found null
in.json:2:9: error: event 3: expected an object, found an array
in.json:2:13: error: event 4: expected an object, found a boolean'
}

@test "rejects a JSON line that is a number" {
	printf '{"type":"message","role":"user","content":"x","iteration":0}\n5\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:2:1: error: event 1: expected an object, found a number'
}

@test "rejects an event without a type" {
	one_event '{"role":"user","content":"x","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "type" (a string)'
}

@test "rejects an event whose type is a number" {
	one_event '{"type":5,"role":"user","content":"x","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:9: error: event 0: "type" must be a string, found a number'
}

@test "rejects an event whose type is null" {
	one_event '{"type":null}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:9: error: event 0: "type" must be a string, found null'
}

@test "rejects a message without content" {
	one_event '{"type":"message","role":"user","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "content" (a string)'
}

@test "rejects an event whose content is a number" {
	one_event '{"type":"message","role":"user","content":5,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:43: error: event 0: "content" must be a string, found a number'
}

@test "rejects a message without a role" {
	one_event '{"type":"message","content":"x","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "role" (a string)'
}

@test "rejects a message whose role is null" {
	one_event '{"type":"message","role":null,"content":"x","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:26: error: event 0: "role" must be a string, found null'
}

@test "rejects an event without an iteration" {
	one_event '{"type":"message","role":"user","content":"x"}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "iteration" (a number)'
}

@test "rejects an iteration that is a string" {
	one_event '{"type":"message","role":"user","content":"x","iteration":"1"}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:59: error: event 0: "iteration" must be a number, found a string'
}

@test "rejects a tool_call without toolName" {
	one_event '{"type":"tool_call","toolCallId":"c","args":{},"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "toolName" (a string)'
}

@test "rejects a tool_call whose toolName is a number" {
	one_event '{"type":"tool_call","toolName":1,"toolCallId":"c","args":{},"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:32: error: event 0: "toolName" must be a string, found a number'
}

@test "rejects a tool_call without args" {
	one_event '{"type":"tool_call","toolName":"t","toolCallId":"c","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "args" (an object)'
}

@test "rejects a tool_call whose args is an array" {
	one_event '{"type":"tool_call","toolName":"t","toolCallId":"c","args":[],"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:60: error: event 0: "args" must be an object, found an array'
}

@test "rejects a tool_call whose args is a string of JSON" {
	one_event '{"type":"tool_call","toolName":"t","args":"{\"a\":1}","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:43: error: event 0: "args" must be an object, found a string'
}

@test "rejects a tool_call whose toolCallId is a number" {
	one_event '{"type":"tool_call","toolName":"t","toolCallId":7,"args":{},"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:49: error: event 0: "toolCallId" must be a string, found a number'
}

@test "accepts a tool_call without toolCallId" {
	one_event '{"type":"tool_call","toolName":"t","args":{"a":1},"iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="t" iteration="0">{&quot;a&quot;:1}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "rejects a tool_result without toolCallId" {
	one_event '{"type":"tool_result","result":1,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "toolCallId" (a string)'
}

@test "rejects a tool_result whose toolCallId is a number" {
	one_event '{"type":"tool_result","toolCallId":1,"result":1,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:36: error: event 0: "toolCallId" must be a string, found a number'
}

@test "rejects a tool_result without result" {
	one_event '{"type":"tool_result","toolCallId":"c","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "result" (a value)'
}

@test "rejects an error event without error" {
	one_event '{"type":"error","recoverable":true,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "error" (a string)'
}

@test "rejects an error event whose error is a boolean" {
	one_event '{"type":"error","error":false,"recoverable":true,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:25: error: event 0: "error" must be a string, found a boolean'
}

@test "rejects an error event without recoverable" {
	one_event '{"type":"error","error":"e","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "recoverable" (a boolean)'
}

@test "rejects an error event whose recoverable is the string true" {
	one_event '{"type":"error","error":"e","recoverable":"true","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:43: error: event 0: "recoverable" must be a boolean, found a string'
}

@test "rejects a human_input_requested without question" {
	one_event '{"type":"human_input_requested","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "question" (a string)'
}

@test "rejects a human_input_requested whose question is an array" {
	one_event '{"type":"human_input_requested","question":["q"],"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:44: error: event 0: "question" must be a string, found an array'
}

@test "rejects a human_input_received without response" {
	one_event '{"type":"human_input_received","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "response" (a string)'
}

@test "rejects a human_input_received whose response is an object" {
	one_event '{"type":"human_input_received","response":{},"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:43: error: event 0: "response" must be a string, found an object'
}

@test "rejects a completion without result" {
	one_event '{"type":"completion","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "result" (a string)'
}

@test "rejects a completion whose result is a number" {
	one_event '{"type":"completion","result":4,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:31: error: event 0: "result" must be a string, found a number'
}

@test "rejects a summary without summary" {
	one_event '{"type":"summary","summarizedIterations":[1],"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "summary" (a string)'
}

@test "rejects a summary whose summary is a number" {
	one_event '{"type":"summary","summary":1,"summarizedIterations":[1],"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:29: error: event 0: "summary" must be a string, found a number'
}

@test "rejects a summary without summarizedIterations" {
	one_event '{"type":"summary","summary":"s","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "summarizedIterations" (an array of non-negative integers)'
}

@test "rejects summarizedIterations that is a string" {
	one_event '{"type":"summary","summary":"s","summarizedIterations":"1,2","iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:56: error: event 0: "summarizedIterations" must be an array of non-negative integers, found a string'
}

@test "rejects summarizedIterations holding a string, naming the element" {
	one_event '{"type":"summary","summary":"s","summarizedIterations":[1,"2"],"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	# column 59 is the "2"; "found an array" would not say what is wrong
	assert_equal "$stderr" 'in.jsonl:1:59: error: event 0: "summarizedIterations" must be an array of non-negative integers, found a string at index 1'
}

@test "an event with several problems reports each of them" {
	one_event '{"type":"message","content":7}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:1: error: event 0: missing "role" (a string)
in.jsonl:1:1: error: event 0: missing "iteration" (a number)
in.jsonl:1:29: error: event 0: "content" must be a string, found a number'
}

@test "reports several bad events together in input order and writes nothing" {
	run -1 --separate-stderr thread-serialize "$D/bad-events.json"
	assert_output ""
	assert_equal "$stderr" "$D/bad-events.json:3:3: error: event 1: missing \"role\" (a string)
$D/bad-events.json:3:3: error: event 1: missing \"iteration\" (a number)
$D/bad-events.json:3:34: error: event 1: \"content\" must be a string, found a number
$D/bad-events.json:4:12: warning: event 2: unknown type \"thought\", skipped
$D/bad-events.json:5:50: error: event 3: \"args\" must be an object, found a string
$D/bad-events.json:6:3: error: event 4: expected an object, found a string
$D/bad-events.json:7:81: error: event 5: \"iteration\" must be a number, found a string"
}

@test "one bad event among good ones writes nothing" {
	{ cat "$D/all-types.jsonl"; printf '{"type":"completion","result":null,"iteration":5}\n'; } >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:15:31: error: event 14: "result" must be a string, found null'
}

@test "a field given twice is an error with both places, whichever value is good" {
	one_event '{"type":"message","role":"user","content":"x","content":5,"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:47: error: duplicate key "content", first at line 1, column 33'
	one_event '{"type":"message","role":"user","content":5,"content":"x","iteration":0}'
	run -1 --separate-stderr thread-serialize --errors=json in.jsonl
	assert_output ""
	assert_equal "$stderr" '{"file":"in.jsonl","line":1,"column":45,"severity":"error","rule":"duplicate-key","message":"duplicate key \"content\", first at line 1, column 33"}'
}

@test "the location of a bad field counts characters, not bytes" {
	one_event '{"type":"message","role":"user","content":"日本語 😀","iteration":"x"}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:63: error: event 0: "iteration" must be a number, found a string'
}

# -------------------------------------------------------------- summaries

# fold.jsonl: iterations 1 and 2 summarized, with an iteration 0 note among
# them, and the result of a folded call after the summary.
fold_input() {
	cat >fold.jsonl <<'EOF'
{"type":"message","role":"user","content":"Fix the date bug","iteration":0}
{"type":"tool_call","toolName":"read_file","toolCallId":"c1","args":{"path":"a.py"},"iteration":1}
{"type":"message","role":"assistant","content":"Reading a.py","iteration":1}
{"type":"message","role":"user","content":"Note: a.py is read-only","iteration":0}
{"type":"tool_call","toolName":"grep","toolCallId":"c2","args":{"re":"31"},"iteration":2}
{"type":"summary","summary":"Read a.py; found the bug.","summarizedIterations":[1,2],"iteration":2}
{"type":"tool_result","toolCallId":"c1","result":"def f(): ...","iteration":3}
EOF
}

@test "a summary takes the place of the iterations it lists, ids counting what is written" {
	fold_input
	run -0 --separate-stderr thread-serialize fold.jsonl
	# the result of the folded call c1 still gets its name
	assert_output '<thread>
  <event type="human" id="0" iteration="0">Fix the date bug</event>
  <event type="summary" id="1" iteration="2" summarizedIterations="1,2">Read a.py; found the bug.</event>
  <event type="human" id="2" iteration="0">Note: a.py is read-only</event>
  <event type="tool_output" id="3" name="read_file" status="success" iteration="3">def f(): ...</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "--keep-summarized writes every event, as the seed's reference does" {
	fold_input
	run -0 --separate-stderr thread-serialize --keep-summarized fold.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">Fix the date bug</event>
  <event type="tool_input" id="1" name="read_file" iteration="1">{&quot;path&quot;:&quot;a.py&quot;}</event>
  <event type="ai" id="2" iteration="1">Reading a.py</event>
  <event type="human" id="3" iteration="0">Note: a.py is read-only</event>
  <event type="tool_input" id="4" name="grep" iteration="2">{&quot;re&quot;:&quot;31&quot;}</event>
  <event type="summary" id="5" iteration="2" summarizedIterations="1,2">Read a.py; found the bug.</event>
  <event type="tool_output" id="6" name="read_file" status="success" iteration="3">def f(): ...</event>
</thread>'
	assert_equal "$stderr" ""
	node "$TOP/t/oracle/reference.js" fold.jsonl >ref
	thread-serialize --keep-summarized fold.jsonl | cmp - ref
}

@test "stacked summaries fold into the newest, at the place of the oldest" {
	# S3 leaves out "three" and S2 itself, S2 "two" and S1, S1 "one":
	# S3 goes where "one" was, before "hurry", which no summary lists
	input <<'EOF'
{"type":"message","role":"user","content":"go","iteration":0}
{"type":"message","role":"assistant","content":"one","iteration":1}
{"type":"message","role":"user","content":"hurry","iteration":0}
{"type":"message","role":"assistant","content":"two","iteration":2}
{"type":"summary","summary":"S1: one, two","summarizedIterations":[1,2],"iteration":2}
{"type":"message","role":"assistant","content":"three","iteration":3}
{"type":"summary","summary":"S2: S1, three","summarizedIterations":[2,3],"iteration":3}
{"type":"message","role":"assistant","content":"four","iteration":4}
{"type":"summary","summary":"S3: S2, four","summarizedIterations":[3,4],"iteration":4}
{"type":"message","role":"assistant","content":"five","iteration":5}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">go</event>
  <event type="summary" id="1" iteration="4" summarizedIterations="3,4">S3: S2, four</event>
  <event type="human" id="2" iteration="0">hurry</event>
  <event type="ai" id="3" iteration="5">five</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "two summaries that list the same iteration are both written, in input order" {
	input <<'EOF'
{"type":"message","role":"assistant","content":"one","iteration":1}
{"type":"summary","summary":"A","summarizedIterations":[1],"iteration":7}
{"type":"summary","summary":"B","summarizedIterations":[1],"iteration":8}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="summary" id="0" iteration="7" summarizedIterations="1">A</event>
  <event type="summary" id="1" iteration="8" summarizedIterations="1">B</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a summary listing iterations no earlier event has stays where it is" {
	input <<'EOF'
{"type":"message","role":"user","content":"go","iteration":0}
{"type":"message","role":"assistant","content":"one","iteration":1}
{"type":"summary","summary":"nothing yet","summarizedIterations":[5,7],"iteration":1}
{"type":"message","role":"assistant","content":"five","iteration":5}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">go</event>
  <event type="ai" id="1" iteration="1">one</event>
  <event type="summary" id="2" iteration="1" summarizedIterations="5,7">nothing yet</event>
  <event type="ai" id="3" iteration="5">five</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "a summary listing its own iteration folds the events before it, never those after" {
	input <<'EOF'
{"type":"message","role":"user","content":"go","iteration":0}
{"type":"message","role":"assistant","content":"before","iteration":3}
{"type":"summary","summary":"S","summarizedIterations":[3],"iteration":3}
{"type":"message","role":"assistant","content":"after","iteration":3}
{"type":"tool_call","toolName":"t","toolCallId":"x","args":{},"iteration":3}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">go</event>
  <event type="summary" id="1" iteration="3" summarizedIterations="3">S</event>
  <event type="ai" id="2" iteration="3">after</event>
  <event type="tool_input" id="3" name="t" iteration="3">{}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "an event of an unknown type is folded by its iteration, and one kept uses up an id" {
	input <<'EOF'
{"type":"plan","iteration":1}
{"type":"plan","iteration":2}
{"type":"completion","result":"r","iteration":2.0}
{"type":"summary","summary":"S","summarizedIterations":[1],"iteration":-0}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="summary" id="0" iteration="0" summarizedIterations="1">S</event>
  <event type="completion" id="2" iteration="2">r</event>
</thread>'
	assert_equal "$stderr" 'in.jsonl:1:9: warning: event 0: unknown type "plan", skipped
in.jsonl:2:9: warning: event 1: unknown type "plan", skipped'
}

@test "iterations are compared as numbers: 2.0 is 2, and -0 is 0" {
	input <<'EOF'
{"type":"message","role":"user","content":"a","iteration":2.0}
{"type":"message","role":"user","content":"b","iteration":-0}
{"type":"message","role":"user","content":"c","iteration":1.5}
{"type":"summary","summary":"S","summarizedIterations":[2,-0.0,1e21],"iteration":9}
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="summary" id="0" iteration="9" summarizedIterations="2,0,1e+21">S</event>
  <event type="human" id="1" iteration="1.5">c</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "rejects summarizedIterations holding a fraction, naming the event and the element" {
	input <<'EOF'
{"type":"message","role":"user","content":"go","iteration":0}
{"type":"summary","summary":"s","summarizedIterations":[1,2.5],"iteration":2}
EOF
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:2:59: error: event 1: "summarizedIterations" must be an array of non-negative integers, found 2.5 at index 1'
}

@test "rejects summarizedIterations holding a negative number" {
	one_event '{"type":"summary","summary":"s","summarizedIterations":[-1],"iteration":0}'
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:57: error: event 0: "summarizedIterations" must be an array of non-negative integers, found -1 at index 0'
}

@test "rejects a bad summarizedIterations with --errors=json, with its JSON Pointer" {
	printf '[{"type":"summary","summary":"s","summarizedIterations":[0,1e-7],"iteration":0}]' >in.json
	run -1 --separate-stderr thread-serialize --errors=json in.json
	assert_output ""
	assert_equal "$stderr" '{"file":"in.json","line":1,"column":60,"severity":"error","rule":"field-type","message":"event 0: \"summarizedIterations\" must be an array of non-negative integers, found 1e-7 at index 1","path":"/0/summarizedIterations/1"}'
}

@test "--keep-summarized accepts any numbers in summarizedIterations, as the seed does" {
	one_event '{"type":"summary","summary":"s","summarizedIterations":[-1,2.5],"iteration":0}'
	run -0 --separate-stderr thread-serialize --keep-summarized in.jsonl
	assert_output '<thread>
  <event type="summary" id="0" iteration="0" summarizedIterations="-1,2.5">s</event>
</thread>'
	assert_equal "$stderr" ""
	one_event '{"type":"summary","summary":"s","summarizedIterations":[1,"2"],"iteration":0}'
	run -1 --separate-stderr thread-serialize --keep-summarized in.jsonl
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:59: error: event 0: "summarizedIterations" must be an array of numbers, found a string at index 1'
}

@test "the golden thread, folded: its summary in place of iterations 1 to 3" {
	run -0 --separate-stderr thread-serialize "$D/all-types.jsonl"
	assert_output '<thread>
  <event type="system" id="0" iteration="0">You are a careful assistant.</event>
  <event type="human" id="1" iteration="0">What is 2+2? And what&apos;s in notes.txt?</event>
  <event type="summary" id="2" iteration="4" summarizedIterations="1,2,3">Computed 2+2; found the notes in docs/.</event>
  <event type="ai" id="3" iteration="4">2+2 is 4, and your notes say &quot;Buy milk &amp; eggs &lt;today&gt;&quot;.</event>
  <event type="completion" id="4" iteration="4">2+2 is 4, and your notes say &quot;Buy milk &amp; eggs &lt;today&gt;&quot;.</event>
  <event type="error" id="5" iteration="4" recoverable="false">budget exhausted</event>
</thread>'
	assert_equal "$stderr" ""
}

# ---------------------------------------------------------- unknown types

@test "skips an event of an unknown type with a warning, its id used up" {
	input <<'EOF'
[{"type":"message","role":"user","content":"x","iteration":0},
 {"type":"thought","text":"hm"},
 {"type":"message","role":"assistant","content":"y","iteration":0}]
EOF
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">x</event>
  <event type="ai" id="2" iteration="0">y</event>
</thread>'
	assert_equal "$stderr" 'in.jsonl:2:10: warning: event 1: unknown type "thought", skipped'
}

@test "an unknown type is matched exactly: Message is not message" {
	one_event '{"type":"Message","role":"user","content":"x","iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output "$EMPTY"
	assert_equal "$stderr" 'in.jsonl:1:9: warning: event 0: unknown type "Message", skipped'
}

@test "an unknown type is quoted with escapes in the warning" {
	one_event '{"type":"a\"b\nc"}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output "$EMPTY"
	assert_equal "$stderr" 'in.jsonl:1:9: warning: event 0: unknown type "a\"b\nc", skipped'
}

@test "--strict makes an unknown type an error and writes nothing" {
	input <<'EOF'
[{"type":"message","role":"user","content":"x","iteration":0},
 {"type":"thought","text":"hm"},
 {"type":"message","role":"assistant","content":"y","iteration":0}]
EOF
	run -1 --separate-stderr thread-serialize --strict in.jsonl
	assert_output ""
	# nothing is skipped under --strict: the whole input is refused
	assert_equal "$stderr" 'in.jsonl:2:10: error: event 1: unknown type "thought"'
}

# -------------------------------------------- characters XML 1.0 forbids

@test "replaces an ANSI escape with U+FFFD and warns once per event" {
	one_event '{"type":"tool_result","toolCallId":"c","result":"\u001b[31mred\u001b[0m","iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_output" id="0" name="unknown" status="success" iteration="0">�[31mred�[0m</event>
</thread>'
	assert_equal "$stderr" 'in.jsonl:1:49: warning: event 0: replaced 2 characters that XML 1.0 forbids (first U+001B in "result") with U+FFFD'
}

@test "replaces a NUL character with U+FFFD" {
	one_event '{"type":"message","role":"user","content":"a\u0000b","iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">a�b</event>
</thread>'
	assert_equal "$stderr" 'in.jsonl:1:43: warning: event 0: replaced 1 character that XML 1.0 forbids (first U+0000 in "content") with U+FFFD'
}

@test "replaces U+FFFF and U+FFFE with U+FFFD" {
	one_event '{"type":"message","role":"user","content":"\uffff and \ufffe","iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">� and �</event>
</thread>'
	assert_equal "$stderr" 'in.jsonl:1:43: warning: event 0: replaced 2 characters that XML 1.0 forbids (first U+FFFF in "content") with U+FFFD'
}

@test "keeps tab, newline, carriage return, DEL and U+FFFD as they are" {
	one_event '{"type":"message","role":"user","content":"a\tb\nc\rd\u007fe\ufffd","iteration":0}'
	thread-serialize in.jsonl >out 2>err
	printf '<thread>\n  <event type="human" id="0" iteration="0">a\tb\nc\rd\177e\357\277\275</event>\n</thread>\n' | cmp - out
	[ ! -s err ]
}

@test "a control character in args stays a JSON escape and needs no replacement" {
	one_event '{"type":"tool_call","toolName":"t","args":{"k":"\u001b[0m"},"iteration":0}'
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_output '<thread>
  <event type="tool_input" id="0" name="t" iteration="0">{&quot;k&quot;:&quot;\u001b[0m&quot;}</event>
</thread>'
	assert_equal "$stderr" ""
}

@test "replaces forbidden characters in every field, one warning per event" {
	run -0 --separate-stderr thread-serialize "$D/forbidden.jsonl"
	assert_output "$(cat "$D/forbidden.xml")"
	assert_equal "$stderr" "$D/forbidden.jsonl:2:32: warning: event 1: replaced 1 character that XML 1.0 forbids (first U+0007 in \"toolName\") with U+FFFD
$D/forbidden.jsonl:3:50: warning: event 2: replaced 5 characters that XML 1.0 forbids (first U+001B in \"result\") with U+FFFD
$D/forbidden.jsonl:4:50: warning: event 3: replaced 2 characters that XML 1.0 forbids (first U+000C in \"result\") with U+FFFD
$D/forbidden.jsonl:5:48: warning: event 4: replaced 1 character that XML 1.0 forbids (first U+FFFE in \"content\") with U+FFFD"
}

@test "the forbidden-character document is byte for byte the golden file" {
	thread-serialize "$D/forbidden.jsonl" >out 2>/dev/null
	cmp out "$D/forbidden.xml"
}

@test "--strict makes a forbidden character an error, one per event, and writes nothing" {
	run -1 --separate-stderr thread-serialize --strict "$D/forbidden.jsonl"
	assert_output ""
	assert_equal "$stderr" "$D/forbidden.jsonl:2:32: error: event 1: \"toolName\" holds U+0007, a character XML 1.0 forbids
$D/forbidden.jsonl:3:50: error: event 2: \"result\" holds U+001B, a character XML 1.0 forbids
$D/forbidden.jsonl:4:50: error: event 3: \"result\" holds U+000C, a character XML 1.0 forbids
$D/forbidden.jsonl:5:48: error: event 4: \"content\" holds U+FFFE, a character XML 1.0 forbids"
}

@test "--strict accepts input with nothing to complain about" {
	thread-serialize --strict --keep-summarized "$D/all-types.jsonl" >out 2>err
	cmp out "$D/all-types.xml"
	[ ! -s err ]
}

# ------------------------------------------------------------ --errors=json

@test "--errors=json writes a bad field as one JSON object with its pointer" {
	run -1 --separate-stderr thread-serialize --errors=json "$D/bad-events.json"
	assert_output ""
	f="$D/bad-events.json"
	assert_equal "$stderr" "{\"file\":\"$f\",\"line\":3,\"column\":3,\"severity\":\"error\",\"rule\":\"missing-field\",\"message\":\"event 1: missing \\\"role\\\" (a string)\",\"path\":\"/1\"}
{\"file\":\"$f\",\"line\":3,\"column\":3,\"severity\":\"error\",\"rule\":\"missing-field\",\"message\":\"event 1: missing \\\"iteration\\\" (a number)\",\"path\":\"/1\"}
{\"file\":\"$f\",\"line\":3,\"column\":34,\"severity\":\"error\",\"rule\":\"field-type\",\"message\":\"event 1: \\\"content\\\" must be a string, found a number\",\"path\":\"/1/content\"}
{\"file\":\"$f\",\"line\":4,\"column\":12,\"severity\":\"warning\",\"rule\":\"unknown-type\",\"message\":\"event 2: unknown type \\\"thought\\\", skipped\",\"path\":\"/2/type\"}
{\"file\":\"$f\",\"line\":5,\"column\":50,\"severity\":\"error\",\"rule\":\"field-type\",\"message\":\"event 3: \\\"args\\\" must be an object, found a string\",\"path\":\"/3/args\"}
{\"file\":\"$f\",\"line\":6,\"column\":3,\"severity\":\"error\",\"rule\":\"not-object\",\"message\":\"event 4: expected an object, found a string\",\"path\":\"/4\"}
{\"file\":\"$f\",\"line\":7,\"column\":81,\"severity\":\"error\",\"rule\":\"field-type\",\"message\":\"event 5: \\\"iteration\\\" must be a number, found a string\",\"path\":\"/5/iteration\"}"
}

@test "--errors=json: in JSON lines the pointer is into the event's own line" {
	input <<'EOF'
{"type":"message","role":"user","content":"x","iteration":0}
{"type":"message","role":"user","content":5,"iteration":0}
{"type":"message","content":"x","iteration":0}
EOF
	run -1 --separate-stderr thread-serialize --errors=json in.jsonl
	assert_output ""
	assert_equal "$stderr" '{"file":"in.jsonl","line":2,"column":43,"severity":"error","rule":"field-type","message":"event 1: \"content\" must be a string, found a number","path":"/content"}
{"file":"in.jsonl","line":3,"column":1,"severity":"error","rule":"missing-field","message":"event 2: missing \"role\" (a string)","path":""}'
}

@test "--errors=json reports a forbidden character warning and still writes the document" {
	one_event '{"type":"message","role":"user","content":"a\u001bb","iteration":0}'
	run -0 --separate-stderr thread-serialize --errors=json in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">a�b</event>
</thread>'
	assert_equal "$stderr" '{"file":"in.jsonl","line":1,"column":43,"severity":"warning","rule":"xml-char","message":"event 0: replaced 1 character that XML 1.0 forbids (first U+001B in \"content\") with U+FFFD","path":"/content"}'
}

@test "--errors=json with --strict reports a forbidden character as an error" {
	printf '[{"type":"message","role":"user","content":"a\\u001bb","iteration":0}]\n' >in.json
	run -1 --separate-stderr thread-serialize --errors=json --strict in.json
	assert_output ""
	assert_equal "$stderr" '{"file":"in.json","line":1,"column":44,"severity":"error","rule":"xml-char","message":"event 0: \"content\" holds U+001B, a character XML 1.0 forbids","path":"/0/content"}'
}

@test "--errors=json reports invalid JSON without a pointer" {
	printf '[' >in.json
	run -1 --separate-stderr thread-serialize --errors=json <in.json
	assert_output ""
	assert_equal "$stderr" '{"file":"<stdin>","line":1,"column":2,"severity":"error","rule":"json-syntax","message":"invalid JSON: the array is not closed with '\'']'\''"}'
}

@test "--errors=json reports invalid UTF-8 with the rule utf8" {
	printf '{"type":"message","role":"user","content":"a\377b","iteration":0}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize --errors=json in.jsonl
	assert_output ""
	assert_equal "$stderr" '{"file":"in.jsonl","line":1,"column":45,"severity":"error","rule":"utf8","message":"invalid UTF-8: byte 0xff at byte offset 44"}'
}

@test "--errors=json escapes the file name" {
	printf '{"type":"message"}\n' >'od"d\name.jsonl'
	run -1 --separate-stderr thread-serialize --errors=json 'od"d\name.jsonl'
	assert_output ""
	assert_equal "$stderr" '{"file":"od\"d\\name.jsonl","line":1,"column":1,"severity":"error","rule":"missing-field","message":"event 0: missing \"role\" (a string)","path":""}
{"file":"od\"d\\name.jsonl","line":1,"column":1,"severity":"error","rule":"missing-field","message":"event 0: missing \"iteration\" (a number)","path":""}
{"file":"od\"d\\name.jsonl","line":1,"column":1,"severity":"error","rule":"missing-field","message":"event 0: missing \"content\" (a string)","path":""}'
}

@test "--errors=json lines are JSON that node can read" {
	thread-serialize --errors=json --strict "$D/forbidden.jsonl" 2>err >out || [ $? -eq 1 ]
	[ ! -s out ]
	run -0 node -e '
		const lines = require("fs").readFileSync("err", "utf8").trim().split("\n");
		for (const l of lines) {
			const d = JSON.parse(l);
			console.log([d.line, d.column, d.severity, d.rule, d.path].join(" "));
		}'
	assert_output '2 32 error xml-char /toolName
3 50 error xml-char /result
4 50 error xml-char /result
5 48 error xml-char /content'
}

# ------------------------------------------------------- well-formed XML

@test "output with replaced forbidden characters is well-formed for xmllint and xmlwf" {
	thread-serialize "$D/forbidden.jsonl" >out.xml 2>/dev/null
	run -0 xmllint --noout out.xml
	assert_output ""
	run -0 xmlwf out.xml
	assert_output ""
}

@test "output with special characters everywhere is well-formed for xmllint and xmlwf" {
	thread-serialize --keep-summarized "$D/special.jsonl" >out.xml
	run -0 xmllint --noout out.xml
	assert_output ""
	run -0 xmlwf out.xml
	assert_output ""
}

@test "the document before the response prefix is well-formed" {
	thread-serialize --keep-summarized --response-prefix '<unclosed & "raw"' \
	    "$D/special.jsonl" >out
	[ "$(tail -n 1 out)" = '<unclosed & "raw"' ]
	sed '$d' out >doc.xml
	cmp doc.xml "$D/special.xml"
	run -0 xmllint --noout doc.xml
	assert_output ""
	run -0 xmlwf doc.xml
	assert_output ""
}

@test "the JavaScript reference would write XML that xmllint rejects; we do not" {
	# the reason for the U+FFFD rule: the oracle's own output is not XML
	node "$TOP/t/oracle/reference.js" "$D/forbidden.jsonl" >ref.xml
	run -1 xmllint --noout ref.xml
	thread-serialize "$D/forbidden.jsonl" >out.xml 2>/dev/null
	run -0 xmllint --noout out.xml
}

@test "every golden output is well-formed" {
	for f in seed all-types special forbidden; do
		xmllint --noout "$D/$f.xml"
		xmlwf "$D/$f.xml" >msg
		[ ! -s msg ]
	done
}

# ----------------------------------------------------------- write errors

@test "a full disk is trouble: status 3 and a message" {
	run -3 --separate-stderr bash -c 'thread-serialize "$1" >/dev/full' _ "$D/seed.jsonl"
	assert_output ""
	assert_equal "$stderr" "thread-serialize: <stdout>: No space left on device"
}

@test "--version on a full disk is trouble too" {
	run -3 --separate-stderr bash -c 'thread-serialize --version >/dev/full'
	assert_equal "$stderr" "thread-serialize: <stdout>: No space left on device"
}

@test "a reader that stops early ends the tool quietly by SIGPIPE" {
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		printf "{\"type\":\"message\",\"role\":\"user\",\"content\":\"m%d\",\"iteration\":%d}\n", i, i }' >big.jsonl
	# env gives SIGPIPE its default even if the harness ignores it
	run -0 --separate-stderr bash -c 'env --default-signal=PIPE thread-serialize big.jsonl 2>err | head -c 10; echo "${PIPESTATUS[0]}" >status'
	assert_output "<thread>
 "
	assert_equal "$stderr" ""
	[ ! -s err ]
	# 141 = 128 + SIGPIPE: killed by the signal, no message
	assert_equal "$(cat status)" 141
}

@test "a small document into head -c 10 ends without a message" {
	run -0 --separate-stderr bash -c 'thread-serialize "$1" | head -c 10' _ "$D/seed.jsonl"
	assert_output "<thread>
 "
	assert_equal "$stderr" ""
}

# ----------------------------------------------------------- large input

# big_thread N: N events of every kind that names tools, as JSON lines.
big_thread() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			k = i % 4
			if (k == 0)
				printf "{\"type\":\"message\",\"role\":\"user\",\"content\":\"question %d <&>\",\"iteration\":%d}\n", i, i
			else if (k == 1)
				printf "{\"type\":\"tool_call\",\"toolName\":\"tool%d\",\"toolCallId\":\"c%d\",\"args\":{\"n\":%d,\"s\":\"x\"},\"iteration\":%d}\n", i % 7, i, i, i
			else if (k == 2)
				printf "{\"type\":\"tool_result\",\"toolCallId\":\"c%d\",\"result\":%d.50,\"iteration\":%d}\n", i - 1, i, i
			else
				printf "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"answer %d\",\"iteration\":%d}\n", i, i
		}
	}'
}

@test "a thread of 20,000 events comes out complete" {
	big_thread 20000 >big.jsonl
	thread-serialize big.jsonl >out 2>err
	[ ! -s err ]
	assert_equal "$(wc -l <out)" 20002
	assert_equal "$(sed -n 2p out)" '  <event type="human" id="0" iteration="0">question 0 &lt;&amp;&gt;</event>'
	assert_equal "$(sed -n 19999p out)" '  <event type="tool_input" id="19997" name="tool5" iteration="19997">{&quot;n&quot;:19997,&quot;s&quot;:&quot;x&quot;}</event>'
	assert_equal "$(sed -n 20000p out)" '  <event type="tool_output" id="19998" name="tool5" status="success" iteration="19998">19998.5</event>'
	assert_equal "$(sed -n 20001p out)" '  <event type="ai" id="19999" iteration="19999">answer 19999</event>'
	assert_equal "$(tail -n 1 out)" '</thread>'
}

@test "a thread of 20,000 events matches the JavaScript reference" {
	big_thread 20000 >big.jsonl
	thread-serialize big.jsonl >out
	node "$TOP/t/oracle/reference.js" big.jsonl | cmp - out
}

@test "a thread of 20,000 events as one array comes out complete" {
	big_thread 20000 | awk 'BEGIN { printf "[" } NR > 1 { printf "," } { printf "%s", $0 } END { print "]" }' >big.json
	big_thread 20000 >big.jsonl
	thread-serialize big.json >out.array
	thread-serialize big.jsonl >out.lines
	cmp out.array out.lines
}

@test "a bad event at the end of a large thread is found on its line" {
	{ big_thread 20000; printf '{"type":"error","error":"e","recoverable":1,"iteration":0}\n'; } >big.jsonl
	run -1 --separate-stderr thread-serialize big.jsonl
	assert_output ""
	assert_equal "$stderr" 'big.jsonl:20001:43: error: event 20000: "recoverable" must be a boolean, found a number'
}

# Hostile input (issue 13)

# deep_event DEPTH [array]: a tool_call and its tool_result whose args and
# result hold a value DEPTH levels deep, the event's own object being
# level 1 and every value one level deeper than its container, one per
# line (or, with "array", as one array: the array is not counted).
deep_event() {
	python3 - "$@" <<'PY'
import sys
d = int(sys.argv[1])
call = ('{"type":"tool_call","toolName":"t","toolCallId":"c","args":{"a":'
    + '[' * (d - 3) + '1' + ']' * (d - 3) + '},"iteration":1}')
res = ('{"type":"tool_result","toolCallId":"c","result":'
    + '[' * (d - 2) + '"r"' + ']' * (d - 2) + ',"iteration":1}')
if len(sys.argv) > 2:
    print('[' + call + ',\n' + res + ']')
else:
    print(call + '\n' + res)
PY
}

@test "a lone NUL byte is reported as a NUL byte at column 1" {
	printf '\0' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:1: error: invalid JSON: NUL byte"
}

@test "a NUL byte after valid JSON lines is reported where it is" {
	printf '{"type":"message","role":"user","content":"a","iteration":1}\n  \0\n' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:2:3: error: invalid JSON: NUL byte"
}

@test "a NUL byte inside a string is reported as a NUL byte where it is" {
	printf '{"type":"message","role":"user","content":"ab\0c","iteration":1}\n' >in.jsonl
	run -1 --separate-stderr thread-serialize --errors=json in.jsonl
	assert_output ""
	assert_equal "$stderr" '{"file":"in.jsonl","line":1,"column":46,"severity":"error","rule":"json-syntax","message":"invalid JSON: NUL byte"}'
}

@test "a NUL byte inside an array of events is reported where it is" {
	printf '[{"type":"message","role":"user","content":"a","iteration":1},\0]' >in.json
	run -1 --separate-stderr thread-serialize in.json
	assert_output ""
	assert_equal "$stderr" "in.json:1:63: error: invalid JSON: NUL byte"
}

@test "/dev/zero fails at its first byte, without reading on for ever" {
	run -1 --separate-stderr timeout 10 thread-serialize /dev/zero
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: invalid JSON: NUL byte"
	run -1 --separate-stderr timeout 10 thread-serialize </dev/zero
	assert_equal "$stderr" "<stdin>:1:1: error: invalid JSON: NUL byte"
}

@test "values nested 2048 levels deep are written, as the JavaScript reference writes them" {
	deep_event 2048 >in.jsonl
	run -0 --separate-stderr thread-serialize in.jsonl
	assert_equal "$stderr" ""
	node "$TOP/t/oracle/reference.js" in.jsonl | cmp - <(printf '%s\n' "$output")
	a=$(printf '%*s' 2045 '' | tr ' ' '[')
	z=$(printf '%*s' 2045 '' | tr ' ' ']')
	assert_output "<thread>
  <event type=\"tool_input\" id=\"0\" name=\"t\" iteration=\"1\">{&quot;a&quot;:${a}1${z}}</event>
  <event type=\"tool_output\" id=\"1\" name=\"t\" status=\"success\" iteration=\"1\">r</event>
</thread>"
	deep_event 2048 array >in.json
	run -0 --separate-stderr thread-serialize in.json
	assert_equal "$stderr" ""
}

@test "a value nested 2049 levels deep is an error at that value" {
	deep_event 2049 >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:2111: error: invalid JSON: a value nested deeper than 2048 levels"
	deep_event 2049 array >in.json
	run -1 --separate-stderr thread-serialize --errors=json in.json
	assert_equal "$stderr" '{"file":"in.json","line":1,"column":2112,"severity":"error","rule":"json-depth","message":"invalid JSON: a value nested deeper than 2048 levels"}'
}

@test "a result nested 2049 levels deep is found on its own line" {
	deep_event 2049 | sed 1d >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_equal "$stderr" "in.jsonl:1:2096: error: invalid JSON: a value nested deeper than 2048 levels"
}

@test "an array or object 2049 levels deep is an error at its bracket" {
	python3 -c 'print("{\"type\":\"tool_call\",\"toolName\":\"t\",\"toolCallId\":\"c\",\"args\":{\"a\":"
	    + "{\"k\":" * 2047 + "1" + "}" * 2047 + "},\"iteration\":1}")' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_equal "$stderr" "in.jsonl:1:10295: error: invalid JSON: a value nested deeper than 2048 levels"
	python3 -c 'print("{\"type\":\"tool_call\",\"toolName\":\"t\",\"toolCallId\":\"c\",\"args\":{\"a\":"
	    + "[" * 2047 + "]" * 2047 + "},\"iteration\":1}")' >in.jsonl
	run -1 --separate-stderr thread-serialize in.jsonl
	assert_equal "$stderr" "in.jsonl:1:2111: error: invalid JSON: a value nested deeper than 2048 levels"
}

@test "a NUL byte down a pipe that stays open ends the read at once" {
	mkfifo fifo
	{ printf '{"type":"message","role":"user","content":"a","iteration":1}\n\0'; exec sleep 30; } >fifo 2>/dev/null &
	writer=$!
	run -1 --separate-stderr timeout 10 thread-serialize fifo
	kill "$writer" 2>/dev/null || :
	assert_output ""
	assert_equal "$stderr" "fifo:2:1: error: invalid JSON: NUL byte"
}
