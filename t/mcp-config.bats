#!/usr/bin/env bats
# mcp-run reading the configuration files people have, as their editors
# write them (t/data/mcp/: Claude Desktop, Claude Code's .mcp.json, VS
# Code, Cursor, Windsurf, Gemini CLI, Zed), each running the everything
# server end to end; comments and trailing commas with exact places;
# ${...} expanded into the command, arguments, environment and headers;
# disabled servers; an entry that cannot be used, said when it is needed
# and only then; .mcp.json read without -c; --server NAME=URL.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
FORMS=$DATA/mcp
STARTING='everything: Starting default (STDIO) server...'

setup_file() {
	if [ ! -f "$EVERYTHING" ]; then
		echo "the MCP servers are not in $MCP_MODULES: run make deps" >&3
		return 1
	fi
	export EVERYTHING
}

# call SERVER TOOL ARGUMENTS: one plain record.
call() {
	printf '{"server_name":"%s","tool_name":"%s","arguments":%s}\n' \
	    "$1" "$2" "$3"
}

# echoed ID SERVER TEXT: the tool_result line of everything's echo.
echoed() {
	printf '{"type":"tool_result","toolCallId":"%s","toolName":"echo","serverName":"%s","result":"Echo: %s","iteration":0}' \
	    "$1" "$2" "$3"
}

# failed ID TOOL SERVER MESSAGE: the error line; MESSAGE is JSON.
failed() {
	printf '{"type":"error","toolCallId":"%s","toolName":"%s","serverName":"%s","error":%s,"recoverable":true,"iteration":0}' \
	    "$1" "$2" "$3" "$4"
}

# json TEXT: TEXT as a JSON string.
json() {
	jq -cn --arg s "$1" '$s'
}

# refused ID TOOL MESSAGE: the error line of a call that was not routed.
refused() {
	printf '{"type":"error","toolCallId":"%s","toolName":"%s","error":%s,"recoverable":true,"iteration":0}' \
	    "$1" "$2" "$3"
}

# envof SERVER VAR...: the values of VAR... in the environment the
# server got (everything's get-env, run through mcp-run -c conf.json).
envof() {
	local server=$1
	shift
	call "$server" get-env '{}' | mcp-run -c conf.json 2>/dev/null |
	    jq -r '.result | fromjson | .[$ARGS.positional[]] // "(unset)"' \
	    --args "$@"
}

@test "Claude Desktop's file: its server runs, with its environment" {
	cp "$FORMS/claude-desktop.json" conf.json
	call everything echo '{"message":"desktop"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(echoed call-0-1 everything desktop)"
	assert_equal "$stderr" "$STARTING"
	run -0 envof everything GREETING
	assert_output 'hello from Claude Desktop'
}

@test "Claude Code's .mcp.json is read without -c, its defaults and variables expanded" {
	cp "$FORMS/claude-code.mcp.json" .mcp.json
	call everything echo '{"message":"project"}' >in.jsonl
	run -0 --separate-stderr mcp-run in.jsonl
	assert_output "$(echoed call-0-1 everything project)"
	run -0 mcp-run --list-servers
	assert_output 'everything
github
sentry'
	cp .mcp.json conf.json
	run -0 envof everything API_KEY
	assert_output 'none'
	API_KEY=k run -0 envof everything API_KEY
	assert_output 'k'
}

@test "a header of a variable not set makes its server unusable when it is called, status 3" {
	cp "$FORMS/claude-code.mcp.json" .mcp.json
	{
		call github list_issues '{}'
		call everything echo '{"message":"still"}'
	} >in.jsonl
	run -3 --separate-stderr env -u GITHUB_TOKEN mcp-run in.jsonl
	msg='github: .mcp.json:15:26: header "Authorization": ${GITHUB_TOKEN} is not set'
	assert_output "$(failed call-0-1 list_issues github "$(json "$msg")")
$(echoed call-0-2 everything still)"
	assert_equal "$stderr" "mcp-run: $msg
$STARTING"
	run -3 --separate-stderr env -u GITHUB_TOKEN mcp-run --list-tools github
	assert_output ''
	assert_equal "$stderr" "mcp-run: $msg"
}

@test "-c or --server leaves .mcp.json unread; with neither and none here, the usage says so" {
	printf '{"mcpServers": {"dot": {"command": "x"}}}' >.mcp.json
	run -0 mcp-run --list-servers --server 'cmd=x'
	assert_output 'cmd'
	cp "$FORMS/claude-desktop.json" conf.json
	run -0 mcp-run --list-servers -c conf.json
	assert_output 'everything'
	printf '{"mcpServers": []}' >.mcp.json
	run -2 --separate-stderr mcp-run --list-servers
	assert_equal "$stderr" '.mcp.json:1:16: error: "mcpServers" must be an object, not an array'
	rm .mcp.json
	run -2 --separate-stderr mcp-run --list-servers
	assert_equal "${stderr_lines[0]}" 'mcp-run: no server: give -c FILE or --server NAME=COMMAND, or write .mcp.json here'
}

@test "VS Code's mcp.json: comments, trailing commas, envFile in the workspace folder" {
	mkdir -p proj/.vscode
	cp "$FORMS/vscode-mcp.json" proj/.vscode/mcp.json
	printf '# the project'"'"'s variables\nexport GREETING="from .env"\nQUOTED='"'"'a $b'"'"' # c\n' >proj/.env
	call everything echo '{"message":"vscode"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c proj/.vscode/mcp.json in.jsonl
	assert_output "$(echoed call-0-1 everything vscode)"
	run -0 --separate-stderr mcp-run -c proj/.vscode/mcp.json --list-servers
	assert_output 'everything
github
perplexity'
}

@test "VS Code's envFile reaches the server, under its declared env" {
	mkdir -p p/.vscode
	printf '{"servers": {"e": {"type": "stdio", "command": "node",\n  "args": ["${env:EVERYTHING}", "stdio"], "envFile": "${workspaceFolder}/.env",\n  "env": {"B": "from env"}}}}\n' >p/.vscode/mcp.json
	printf 'A="from \\"envFile\\""\nB=lost\nexport C = c # a comment\n' >p/.env
	call e get-env '{}' >in.jsonl
	run -0 --separate-stderr mcp-run -c p/.vscode/mcp.json in.jsonl
	run -0 jq -r '.result | fromjson | "\(.A)|\(.B)|\(.C)"' <<<"$output"
	assert_output 'from "envFile"|from env|c'
	printf 'A=1\nnot a variable\n' >p/.env
	run -3 --separate-stderr mcp-run -c p/.vscode/mcp.json in.jsonl
	assert_equal "$stderr" "mcp-run: e: p/.vscode/mcp.json:2:54: envFile $PWD/p/.env:2: not NAME=VALUE"
}

@test "VS Code's \${input:...} names the input, when its server is called" {
	cp "$FORMS/vscode-mcp.json" conf.json
	call perplexity perplexity_ask '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	msg='perplexity: conf.json:24:31: env "PERPLEXITY_API_KEY": ${input:perplexity-key} is an input that VS Code asks the user for, which mcp-run cannot do yet'
	assert_output "$(failed call-0-1 perplexity_ask perplexity "$(json "$msg")")"
	assert_equal "$stderr" "mcp-run: $msg"
}

@test "Cursor's file: \${env:VAR} and \${userHome} reach the server" {
	cp "$FORMS/cursor.json" conf.json
	call everything echo '{"message":"cursor"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(echoed call-0-1 everything cursor)"
	HOME=/home/someone run -0 envof everything HOME_SEEN
	assert_output '/home/someone'
	call linear list '{}' >in.jsonl
	run -3 --separate-stderr env -u LINEAR_API_KEY mcp-run -c conf.json in.jsonl
	assert_equal "$stderr" 'mcp-run: linear: conf.json:13:26: header "Authorization": ${env:LINEAR_API_KEY} is not set'
}

@test "Windsurf's file: a disabled server is refused by name, passed over by the routing, and not listed" {
	jq 'del(.mcpServers.context7)' "$FORMS/windsurf.json" >conf.json
	{
		printf '{"tool_name":"echo","arguments":{"message":"routed"}}\n'
		call retired anything '{}'
	} >in.jsonl
	run -1 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(echoed call-0-1 everything routed)
$(refused call-0-2 anything '"server \"retired\" is disabled in conf.json"')"
	assert_equal "$stderr" "$STARTING"'
in.jsonl:2:16: error: server "retired" is disabled in conf.json'
	cp "$FORMS/windsurf.json" conf.json
	run -0 mcp-run --list-servers -c conf.json
	assert_output 'context7
everything'
	run -2 --separate-stderr mcp-run --list-tools -c conf.json retired
	assert_equal "${stderr_lines[0]}" 'mcp-run: --list-tools: server "retired" is disabled in conf.json'
}

@test "Gemini CLI's settings: cwd, and its timeout in milliseconds over -T" {
	cp "$FORMS/gemini-settings.json" conf.json
	call everything echo '{"message":"gemini"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_output "$(echoed call-0-1 everything gemini)"
	cat >slow.json <<'EOF'
{"mcpServers": {"mute": {"command": "sh", "args": ["-c", "cat >/dev/null"],
  "timeout": 1500}}}
EOF
	call mute anything '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -T 60 -c slow.json in.jsonl
	assert_equal "$stderr" 'mcp-run: mute: no answer to initialize within 1.5 s'
}

@test "Zed's settings: its newer and older forms both run, an extension's is said" {
	cp "$FORMS/zed-settings.json" conf.json
	{
		call everything echo '{"message":"new"}'
		call everything-old echo '{"message":"old"}'
		call github search '{}'
		call off x '{}'
	} >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	msg='github: conf.json:28:15: a server of a Zed extension, which mcp-run cannot start: give "command"'
	assert_output "$(echoed call-0-1 everything new)
$(echoed call-0-2 everything-old old)
$(failed call-0-3 search github "$(json "$msg")")
$(refused call-0-4 x '"server \"off\" is disabled in conf.json"')"
	run -0 envof everything-old GREETING
	assert_output 'hello from an older Zed'
	run -0 mcp-run --list-servers -c conf.json
	assert_output 'everything
everything-old
github
remote'
}

@test "the places of a file with comments are those of its bytes" {
	printf '/* é */ {"mcpServers": // ü\n /* ö\n */ {"a": {"command": 7}},\n "x": [1,,]}\n' >bad.json
	run -2 --separate-stderr mcp-run --list-servers -c bad.json
	assert_equal "$stderr" 'bad.json:4:10: error: invalid JSON: unexpected token near '"','"
	printf '{"mcpServers": {} /* never closed\n}\n' >open.json
	run -2 --separate-stderr mcp-run --list-servers -c open.json
	assert_equal "$stderr" 'open.json:1:19: error: invalid JSON: a comment that is never closed'
	printf '/* é */ {"mcpServers": // ü\n /* ö\n */ {"a": {"command": 7},}}\n' >one.json
	call a x '{}' >in.jsonl
	run -3 --separate-stderr mcp-run -c one.json in.jsonl
	assert_equal "$stderr" 'mcp-run: a: one.json:3:23: "command" must be a string, not a number'
	printf '/* é */ {"mcpServers": 7}' >two.json
	run -2 --separate-stderr mcp-run --list-servers -c two.json
	assert_equal "$stderr" 'two.json:1:24: error: "mcpServers" must be an object, not a number'
}

@test "a comment inside a string is text, and reaches the server as it is" {
	cat >conf.json <<'EOF'
{"mcpServers": {"e": {"command": "node", "args": ["${EVERYTHING}", "stdio"],
  "env": {"V": "a // b /* c */ d", "W": "$HOME ${NOPE:-x}"}}}}
EOF
	run -0 envof e V W
	assert_output 'a // b /* c */ d
$HOME x'
}

@test "each entry that cannot be used is said when it is needed; the others work" {
	cat >bad.json <<'EOF'
{"mcpServers": {
  "a": {"args": []},
  "b": {"command": 7},
  "c": {"command": "x", "args": ["ok", 3]},
  "d": {"command": "x", "env": {"K": 1}},
  "e": {"command": "x", "type": "websocket"},
  "f": {"command": "x", "cwd": false},
  "g": [],
  "": {"command": "x"},
  "h": {"command": ""},
  "i": {"command": "x", "env": {"A=B": "v"}},
  "j": {"command": "x", "args": "y"},
  "k": {"command": "x", "env": []},
  "l": {"command": "x", "type": 1},
  "m": {"command": "x", "url": "http://h/"},
  "n": {"type": "http", "url": "ftp://h/"},
  "o": {"type": "http", "headers": {"A": "b"}},
  "p": {"url": "http://h/", "headers": {"Bad Name": "v"}},
  "q": {"url": "http://h/", "headers": {"X": "${NL}"}},
  "r": {"command": "x", "timeout": "10s"},
  "s": {"command": "x", "disabled": "yes"},
  "t": {"url": "http://h/", "serverUrl": "http://h/"},
  "u": {"command": "x", "args": ["${nope:x}"]},
  "v": {"command": "x", "args": ["${UNSET_X:-${Y}}"]},
  "w": {"command": "x", "args": ["${UNSET_X"]},
  "x": {"type": "stdio", "url": "http://h/"},
  "ok": {"command": "node", "args": ["${EVERYTHING}", "stdio"]}
}}
EOF
	for s in a b c d e f g h i j k l m n o p q r s t u v w x; do
		call $s t '{}'
	done >in.jsonl
	call ok echo '{"message":"fine"}' >>in.jsonl
	NL=$'a\nb' run -3 --separate-stderr mcp-run -c bad.json in.jsonl
	assert_equal "${lines[24]}" "$(echoed call-0-25 ok fine)"
	assert_equal "$stderr" 'mcp-run: a: bad.json:2:8: neither "command" nor "url" is given
mcp-run: b: bad.json:3:20: "command" must be a string, not a number
mcp-run: c: bad.json:4:40: args[1] must be a string, not a number
mcp-run: d: bad.json:5:38: env "K" must be a string, not a number
mcp-run: e: bad.json:6:33: type "websocket" is none of stdio, http, streamable-http and sse
mcp-run: f: bad.json:7:32: "cwd" must be a string, not a boolean
mcp-run: g: bad.json:8:8: a server must be an object, not an array
mcp-run: h: bad.json:10:20: "command" is empty
mcp-run: i: bad.json:11:40: env "A=B" is not a variable'"'"'s name
mcp-run: j: bad.json:12:33: "args" must be an array of strings, not a string
mcp-run: k: bad.json:13:32: "env" must be an object of strings, not an array
mcp-run: l: bad.json:14:33: "type" must be a string, not a number
mcp-run: m: bad.json:15:8: both "command" and a URL are given: give one, or "type"
mcp-run: n: bad.json:16:32: "url" must be an http:// or https:// URL without blanks
mcp-run: o: bad.json:17:8: a remote server needs a "url"
mcp-run: p: bad.json:18:53: "Bad Name" is not a header'"'"'s name
mcp-run: q: bad.json:19:46: header "X" holds a line break or a NUL character
mcp-run: r: bad.json:20:36: "timeout" must be a number of milliseconds above 0, at most 86400000, not a string
mcp-run: s: bad.json:21:37: "disabled" must be true or false, not a string
mcp-run: t: bad.json:22:8: both "url" and "serverUrl" are given: give one
mcp-run: u: bad.json:23:34: args[0]: ${nope:x} is not a variable mcp-run knows
mcp-run: v: bad.json:24:34: args[0]: a ${...} inside ${UNSET_X:-} is not expanded: write its value
mcp-run: w: bad.json:25:34: args[0]: a "${" is not closed by a "}"
mcp-run: x: bad.json:26:8: a stdio server needs a "command" string
ok: Starting default (STDIO) server...'
	run -1 --separate-stderr mcp-run --list-servers -c bad.json
	assert_equal "${#lines[@]}" 25
	assert_equal "$stderr" 'mcp-run: a server whose name is empty is not listed'
}

@test "--list-tools needs every server: the first unusable one is said, status 3" {
	cat >conf.json <<'EOF'
{"mcpServers": {"good": {"command": "node", "args": ["${EVERYTHING}", "stdio"]},
  "z": {"command": "${UNSET_Z}"}}}
EOF
	run -3 --separate-stderr env -u UNSET_Z mcp-run --list-tools -c conf.json
	assert_output ''
	assert_equal "$stderr" 'good: Starting default (STDIO) server...
mcp-run: z: conf.json:2:20: "command": ${UNSET_Z} is not set'
	run -0 --separate-stderr mcp-run --list-tools -c conf.json good
	run -0 jq '.tools | length > 0' <<<"$output"
	assert_output 'true'
}

@test "a file without a server table, or with a bad one, is an error of the file, status 2" {
	printf '{"theme": "x"}' >a.json
	printf '{"context_servers": 1}' >b.json
	printf '{"mcp": {"servers": []}}' >c.json
	printf '{"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}' >d.json
	for f in a b c d; do
		run -2 --separate-stderr mcp-run --list-servers -c $f.json
		printf '%s\n' "$stderr"
	done >errs
	run -0 cat errs
	assert_output 'a.json:1:1: error: the configuration has no "mcpServers", "servers" or "context_servers" object
b.json:1:21: error: "context_servers" must be an object, not a number
c.json:1:21: error: "servers" must be an object, not an array
d.json:1:58: error: server "a" is declared twice'
}

@test "VS Code's user settings: mcp.servers" {
	cat >settings.json <<'EOF'
{
  "editor.fontSize": 14,
  "mcp": {
    "servers": {
      "everything": {"type": "stdio", "command": "node", "args": ["${EVERYTHING}", "stdio"]},
    },
  },
}
EOF
	call everything echo '{"message":"user"}' >in.jsonl
	run -0 --separate-stderr mcp-run -c settings.json in.jsonl
	assert_output "$(echoed call-0-1 everything user)"
}

@test "a name declared again in another file, even disabled, is an error, status 2" {
	printf '{"mcpServers": {"a": {"command": "x", "disabled": true}}}' >one.json
	printf '{"servers": {\n"a": {"command": "y"}}}' >two.json
	run -2 --separate-stderr mcp-run --list-servers -c one.json -c two.json
	assert_equal "$stderr" 'two.json:2:6: error: server "a" is declared twice'
}

@test "--server NAME=URL declares a remote server; a URL with a blank is a usage error" {
	run -0 --separate-stderr mcp-run --list-servers --server 'hosted=https://mcp.example.com/mcp' --server 'local=cat'
	assert_output 'hosted
local'
	run -2 --separate-stderr mcp-run --list-servers --server 'hosted=https://mcp.example.com/mcp x'
	assert_equal "${stderr_lines[0]}" 'mcp-run: --server: the URL "https://mcp.example.com/mcp x" holds a blank'
}

@test "the names in an entry's fault are escaped: it stays one line" {
	printf '{"mcpServers": {"a\\nb": {"command": "x", "env": {"K\\u001b": 1}}}}' >conf.json
	printf '{"tool_name":"t","server_name":"a\\nb","arguments":{}}\n' >in.jsonl
	run -3 --separate-stderr mcp-run -c conf.json in.jsonl
	assert_equal "$stderr" 'mcp-run: a\nb: conf.json:1:61: env "K\u001b" must be a string, not a number'
}

@test "in Gemini CLI's own file, \$VAR is replaced as Gemini CLI does; elsewhere it is text" {
	mkdir .gemini
	cat >.gemini/settings.json <<'JSON'
{"mcpServers": {"e": {"command": "node", "args": ["${EVERYTHING}", "stdio"],
  "env": {"TOKEN": "$GEMINI_T", "PRICE": "5$ ${GEMINI_T}"}},
  "unset": {"command": "x", "env": {"K": "$GEMINI_UNSET"}}}}
JSON
	call e get-env '{}' >in.jsonl
	call unset x '{}' >>in.jsonl
	GEMINI_T=t run -3 --separate-stderr env -u GEMINI_UNSET mcp-run -c .gemini/settings.json in.jsonl
	run -0 jq -r 'select(.result) | .result | fromjson | "\(.TOKEN)|\(.PRICE)"' <<<"$output"
	assert_output 't|5$ t'
	assert_equal "${stderr_lines[1]}" 'mcp-run: unset: .gemini/settings.json:3:42: env "K": $GEMINI_UNSET is not set'
	cp .gemini/settings.json conf.json
	GEMINI_T=t run -0 envof e TOKEN PRICE
	assert_output '$GEMINI_T
5$ t'
}
