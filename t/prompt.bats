#!/usr/bin/env bats
# toolcall-parse --print-prompt --format F as a user drives it: the prompt
# of each test definition file in each format toolcall-parse reads, byte
# for byte; every example call of it read back by toolcall-parse --format
# F --tools FILE into a valid call, the same in every format; the tools
# and the values a format cannot hold; auto.

load helper

bats_require_minimum_version 1.5.0

D="$DATA/toolcall-parse"
P="$D/prompts"

# The formats toolcall-parse reads (but openai, which has no prompt), and
# the test definition files that load.
FORMATS='tool qwen3 invoke glm hermes harmony deepseek mistral llama3 kimi pythonic'
FILES='tools-anthropic tools-empty-name tools-mcp tools-mcp-array
tools-mcp-response tools-names tools-nested tools-openai-chat
tools-openai-responses tools-ref tools-shared tools-types'

# examples: the example calls of the prompt on stdin, one after another:
# each runs from the line after "Example:" and the empty line after it to
# the empty line before the next tool's heading.
examples() {
	awk '/^Example:$/ { ex = 1; blank = 0; getline; next }
	    ex && /^## / { ex = 0; next }
	    ex && /^\(None: / { next }
	    ex && $0 == "" { blank++; next }
	    ex { for (; blank > 0; blank--) print ""; print }'
}

# headings: the names of the tools of the prompt on stdin, a line each.
headings() {
	sed -n 's/^## //p'
}

@test "--print-prompt --format F writes the golden prompt of each test definition file, byte for byte" {
	for F in $FORMATS; do
		for f in $FILES; do
			toolcall-parse -q --format "$F" --print-prompt \
			    --tools "$D/$f.json" >got || fail "$F $f: status $?"
			diff -u "$P/$F/$f.prompt" got || fail "$F $f"
		done
	done
}

@test "--format auto teaches the kit's own <tool> format, which it reads too" {
	for f in $FILES; do
		toolcall-parse -q --format auto --print-prompt \
		    --tools "$D/$f.json" >got
		diff -u "$P/tool/$f.prompt" got || fail "$f"
	done
}

@test "--print-prompt --format F without --tools writes F's rules alone" {
	for F in $FORMATS; do
		run -0 --separate-stderr toolcall-parse --format "$F" --print-prompt
		toolcall-parse --format "$F" --print-prompt >got
		diff -u "$P/$F/tools-empty-name.prompt" got || fail "$F"
		assert_equal "$stderr" ""
		refute_output --partial '# Tools'
	done
}

@test "each format's rules say how a call is written in it, several calls, and its values" {
	run -0 toolcall-parse --format qwen3 --print-prompt
	assert_line '<function=TOOL_NAME>'
	assert_line --partial 'Write a string value raw, exactly as it is: no entities, no CDATA, no'
	assert_line '7. To call several tools, write one <tool_call> after another.'
	run -0 toolcall-parse --format invoke --print-prompt
	assert_line '<parameter name="PARAMETER_NAME">VALUE</parameter>'
	assert_line '   <minimax:tool_call>.'
	run -0 toolcall-parse --format glm --print-prompt
	assert_line '<arg_value>VALUE</arg_value>'
	assert_line '   <tool_call>TOOL_NAME</tool_call>.'
	run -0 toolcall-parse --format hermes --print-prompt
	assert_line '{"name": "TOOL_NAME", "arguments": {"PARAMETER_NAME": VALUE}}'
	assert_line '4. Write JSON strictly: strings in double quotes, with \" for a quote,'
}

# reference FILE OUT: the calls of FILE's hermes examples, as toolcall-parse
# reads them, into OUT; they must all be valid.
reference() {
	toolcall-parse -q --format hermes --print-prompt --tools "$1" |
	    examples >ref.txt
	toolcall-parse -q --format hermes --tools "$1" ref.txt >"$2" ||
	    fail "$1: hermes: status $?"
}

@test "every example call of every test definition file reads back as a valid call of its tool, the same in every format" {
	for f in $FILES; do
		reference "$D/$f.json" ref.jsonl
		[ -s ref.jsonl ] || [ "$f" = tools-empty-name ] || fail "$f: no calls"
		for F in $FORMATS; do
			defs="$D/$f.json"
			cp ref.jsonl want.jsonl
			# pick's parameter is anyOf itself, itself or an
			# integer: a raw-text value's typing finds no type
			# through the loop, and keeps the text "1"
			if [ "$f" = tools-shared ] && case $F in qwen3|invoke|glm) true;; *) false;; esac; then
				defs=shared.json
				jq 'del(.tools[] | select(.name == "pick"))' "$D/$f.json" >"$defs"
				reference "$defs" want.jsonl
			fi
			toolcall-parse -q --format "$F" --print-prompt --tools "$defs" >prompt.txt
			examples <prompt.txt >calls.txt
			set -- calls.txt
			if [ "$F" = pythonic ]; then
				# a list is read where an answer begins: each
				# example, a line, is an answer of its own
				rm -f ex.*
				grep -v '^$' calls.txt | split -a 3 -l 1 - ex.
				set -- ex.*
				[ -e "$1" ] || set --
			fi
			run -0 --separate-stderr toolcall-parse -q --format "$F" --tools "$defs" "$@" </dev/null
			assert_equal "$stderr" ""
			if [ "$F" = tool ]; then
				want=$(cat want.jsonl)
			else
				headings <prompt.txt >names.txt
				want=$(jq -c --rawfile n names.txt \
				    'select(.tool_name as $t | $n | split("\n") | index($t))' want.jsonl)
			fi
			[ "$output" = "$want" ] || fail "$f $F: $output"
		done
	done
}

@test "the examples of the test definitions are not empty: one call a tool kept" {
	reference "$D/tools-types.json" ref.jsonl
	assert_equal "$(cat ref.jsonl)" '{"server_name":"local","tool_name":"typed","arguments":{"s":"example","i":1,"n":1.5,"b":true,"z":null,"o":{"k":1},"a":[1],"tags":["example"],"opt":1,"ta":1,"zip":"00000","e":"on","free":"example"}}
{"server_name":"local","tool_name":"loose","arguments":{}}'
}

@test "a tool whose name a format cannot hold is left out of its prompt, with a warning at the definitions" {
	run -0 --separate-stderr toolcall-parse --format qwen3 --print-prompt --tools "$D/tools-names.json"
	assert_equal "$(printf '%s\n' "$output" | grep '^## ')" '## ## **bold** [l](u) `c`
## read_file'
	assert_equal "$(printf '%s\n' "$stderr" | grep ' prompt: ')" "$D/tools-names.json:1:1: warning: tool \"x</tool_name><tool_name>y & z\" of server \"evil\" is left out of the qwen3 prompt: its name holds < or >
$D/tools-names.json:1:1: warning: tool \" padded \" of server \"evil\" is left out of the qwen3 prompt: its name begins or ends with white space"
	run -0 --separate-stderr toolcall-parse --format hermes --print-prompt --tools "$D/tools-names.json"
	assert_equal "$(printf '%s\n' "$stderr" | grep -c ' prompt: ')" 0
	assert_equal "$(printf '%s\n' "$output" | grep -c '^## ')" 4
}

@test "invoke leaves out a name with both quotes, and quotes one with \" in single quotes" {
	printf '%s\n' '[{"name": "say\"it'"'"'s\""}, {"name": "say\"it\""}]' >t.json
	run -0 --separate-stderr toolcall-parse --format invoke --print-prompt --tools t.json
	assert_equal "$stderr" "t.json:1:1: warning: tool \"say\\\"it's\\\"\" is left out of the invoke prompt: its name holds both kinds of quote"
	assert_output --partial "## say\"it\"

Parameters: not described.

Example:

<minimax:tool_call>
<invoke name='say\"it\"'>
</invoke>
</minimax:tool_call>"
	printf '%s\n' "$output" | examples >calls.txt
	run -0 --separate-stderr toolcall-parse --format invoke --tools t.json calls.txt
	assert_output '{"server_name":"local","tool_name":"say\"it\"","arguments":{}}'
}

@test "-q silences the warning of a tool left out, and --errors=json writes it as JSON" {
	run -0 --separate-stderr toolcall-parse -q --format glm --print-prompt --tools "$D/tools-names.json"
	assert_equal "$stderr" ""
	run -0 --separate-stderr toolcall-parse --errors=json --format glm --print-prompt --tools "$D/tools-names.json"
	assert_equal "$(printf '%s\n' "$stderr" | grep ' prompt: ' | head -1)" "{\"file\":\"$D/tools-names.json\",\"line\":1,\"column\":1,\"severity\":\"warning\",\"rule\":\"tool-name\",\"message\":\"tool \\\"x</tool_name><tool_name>y & z\\\" of server \\\"evil\\\" is left out of the glm prompt: its name holds < or >\"}"
}

# values: a tool "v" whose required string parameters have these
# defaults: code, spaced, lines, quoted; and cut, which holds </parameter>.
values() {
	jq -n '[{name: "v", input_schema: {type: "object", properties: {
	    code: {type: "string", default: "if (a && b < c) return \"<x>\";"},
	    spaced: {type: "string", default: "  two spaces  "},
	    lines: {type: "string", default: "\nfirst\n\tsecond\n"},
	    quoted: {type: "string", default: "back\\slash \"q\" &amp;"},
	    cut: {type: "string", default: "a </parameter> b"}},
	    required: ["code", "spaced", "lines", "quoted", "cut"]}}]' >v.json
}

@test "raw-text values: code, white space, newlines and quotes come back exactly as the schema gave them" {
	values
	want='{"server_name":"local","tool_name":"v","arguments":{"code":"if (a && b < c) return \"<x>\";","spaced":"  two spaces  ","lines":"\nfirst\n\tsecond\n","quoted":"back\\slash \"q\" &amp;"'
	for F in qwen3 invoke glm hermes tool; do
		toolcall-parse --format "$F" --print-prompt --tools v.json | examples >calls.txt
		run -0 --separate-stderr toolcall-parse --format "$F" --tools v.json --no-validate calls.txt
		assert_equal "$stderr" ""
		case $F in
		qwen3|invoke)
			assert_output "$want}}" ;;
		*)
			assert_output "$want,\"cut\":\"a </parameter> b\"}}" ;;
		esac
	done
}

@test "a value that holds its format's markup is left out of the example, which then fails the schema" {
	values
	run -0 toolcall-parse --format qwen3 --print-prompt --tools v.json
	refute_output --partial '<parameter=cut>'
	assert_output --partial '<parameter=lines>

first
	second

</parameter>'
	run -0 toolcall-parse --format glm --print-prompt --tools v.json
	assert_output --partial '<arg_key>cut</arg_key>
<arg_value>a </parameter> b</arg_value>'
	toolcall-parse --format qwen3 --print-prompt --tools v.json | examples >calls.txt
	run -1 --separate-stderr toolcall-parse --format qwen3 --tools v.json calls.txt
	assert_equal "$stderr" 'calls.txt:1:1: error: the arguments of "v" do not match its schema: missing required property "cut"'
}

@test "the prompt of every format ends with a newline and is the same bytes twice" {
	for F in $FORMATS; do
		toolcall-parse -q --format "$F" --print-prompt --tools "$D/tools-shared.json" >one
		toolcall-parse -q --format "$F" --print-prompt --tools "$D/tools-shared.json" >two
		cmp one two || fail "$F"
		assert_equal "$(tail -c 1 one | od -An -c | tr -d ' ')" '\n'
	done
}

@test "--print-prompt does not go with --format openai: a usage error, status 2" {
	run -2 --separate-stderr toolcall-parse --print-prompt --format openai --tools "$D/tools-mcp.json"
	assert_output ""
	assert_equal "$(head -n 1 <<<"$stderr")" "toolcall-parse: --print-prompt does not go with --format openai: the server takes the tools in its request"
	assert_equal "$(sed -n 2p <<<"$stderr")" "usage: toolcall-parse [-hqu] [--begins-in-reasoning auto|yes|no]"
}
