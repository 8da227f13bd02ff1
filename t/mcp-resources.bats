#!/usr/bin/env bats
# mcp-run's --list-resources, --read, --list-prompts and --get-prompt:
# against the everything server (its documents read back as the files
# they are served from, its templates, its prompts with arguments, the
# resource_link items of a tool's result read by their URI), and against
# a server scripted here for what well-behaved servers never do: pages,
# errors, no answer, an end, answers of the wrong shape, a capability
# not declared; every usage error with its status.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}
EVERYTHING=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/index.js
DOCS=$MCP_MODULES/@modelcontextprotocol/server-everything/dist/docs
STARTING='everything: Starting default (STDIO) server...'

# The everything server, and two scripted servers that hold resources
# and prompts ("a" and "b", with a resource and a prompt in common) and
# one that declares neither ("bare").
setup_file() {
	if [ ! -f "$EVERYTHING" ]; then
		echo "the MCP servers are not in $MCP_MODULES: run make deps" >&3
		return 1
	fi
	cat >"$BATS_FILE_TMPDIR/res-server.py" <<'EOF' || return 1
# res-server.py NAME [OPTION ...]: an MCP server of the 2025-11-25
# revision with resources and prompts, each request logged to NAME.log.
#   --bare        declares neither resources nor prompts
#   --endless     resources/list always has a next page
#   --no-contents resources/read and prompts/get answer {}
#   --no-templates     has no resources/templates/list (-32601)
#   --templates-error  resources/templates/list fails (-32603)
# Its resources, over two pages: res://NAME/one and res://shared; its
# template res://NAME/items/{id}{?q}. resources/read of
#   res://error   a JSON-RPC error
#   res://slow    no answer (the server reads on)
#   res://die     the server ends
#   res://mixed   a text, a number and a blob
#   any other     a text of the URI
# Its prompts: NAME-prompt and shared-prompt, whose messages hold the
# arguments; prompts/get of "error" is a JSON-RPC error.
import json
import sys

name = sys.argv[1]
opts = set(sys.argv[2:])
log = open(name + ".log", "a")


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def result(rid, res):
    send({"jsonrpc": "2.0", "id": rid, "result": res})


def error(rid, code, message):
    send({"jsonrpc": "2.0", "id": rid,
          "error": {"code": code, "message": message}})


for line in sys.stdin:
    log.write(line)
    log.flush()
    msg = json.loads(line)
    if "id" not in msg:
        continue
    rid, method, p = msg["id"], msg["method"], msg.get("params") or {}
    if method == "initialize":
        caps = {"tools": {}}
        if "--bare" not in opts:
            caps.update({"resources": {}, "prompts": {}})
        result(rid, {"protocolVersion": "2025-11-25", "capabilities": caps,
                     "serverInfo": {"name": name, "version": "1"}})
    elif method == "resources/list":
        if "--endless" in opts:
            result(rid, {"resources": [], "nextCursor": "more"})
        elif "cursor" not in p:
            result(rid, {"resources": [{"uri": "res://%s/one" % name,
                                        "name": "one"}], "nextCursor": "2"})
        else:
            result(rid, {"resources": [{"uri": "res://shared",
                                        "name": "shared"}, 7]})
    elif method == "resources/templates/list":
        if "--no-templates" in opts:
            error(rid, -32601, "Method not found")
        elif "--templates-error" in opts:
            error(rid, -32603, "templates are broken")
        else:
            result(rid, {"resourceTemplates": [
                {"uriTemplate": "res://%s/items/{id}{?q}" % name,
                 "name": "items"}]})
    elif method == "resources/read":
        uri = p["uri"]
        if "--no-contents" in opts:
            result(rid, {})
        elif uri == "res://error":
            error(rid, -32002, "Resource not found")
        elif uri == "res://slow":
            pass
        elif uri == "res://die":
            sys.exit(0)
        elif uri == "res://mixed":
            result(rid, {"contents": [
                {"uri": uri, "mimeType": "text/plain", "text": "t"}, 7,
                {"uri": uri, "blob": "AAEC", "_meta": {"k": 1}}]})
        else:
            result(rid, {"contents": [{"uri": uri, "text": name + " " +
                                       uri}]})
    elif method == "prompts/list":
        result(rid, {"prompts": [{"name": name + "-prompt"},
                                 {"name": "shared-prompt"}]})
    elif method == "prompts/get":
        if "--no-contents" in opts:
            result(rid, {})
        elif p["name"] == "error":
            error(rid, -32602, "no prompt error")
        else:
            result(rid, {"messages": [{"role": "user", "content": {
                "type": "text", "text": json.dumps(p.get("arguments"),
                                                   sort_keys=True)}}]})
    else:
        error(rid, -32601, "Method not found")
EOF
	cat >"$BATS_FILE_TMPDIR/servers.json" <<EOF || return 1
{
  "mcpServers": {
    "everything": {"command": "node", "args": ["$EVERYTHING", "stdio"]},
    "a": {"command": "python3", "args": ["$BATS_FILE_TMPDIR/res-server.py", "a"]},
    "b": {"command": "python3", "args": ["$BATS_FILE_TMPDIR/res-server.py", "b"]},
    "bare": {"command": "python3",
      "args": ["$BATS_FILE_TMPDIR/res-server.py", "bare", "--bare"]}
  }
}
EOF
	export CONF=$BATS_FILE_TMPDIR/servers.json EVERYTHING DOCS
	export RES="python3 $BATS_FILE_TMPDIR/res-server.py"
}

# ev: the everything server alone.
ev() {
	mcp-run --server "everything=node $EVERYTHING stdio" "$@"
}

# res NAME [OPTION ...]: a configuration of the scripted server NAME
# alone, in conf-NAME.json; it logs to NAME.log in the test's directory.
res() {
	local name=$1
	shift
	printf '%s\n' "$BATS_FILE_TMPDIR/res-server.py" "$name" "$@" | jq -R . |
	    jq -s --arg n "$name" '{mcpServers: {($n): {command: "python3",
	    args: .}}}' >"conf-$name.json"
}

# requests NAME: the methods NAME.log holds, one a line, with the params
# of each resources/read and prompts/get.
requests() {
	jq -c 'if .method == "resources/read" or .method == "prompts/get"
	    then [.method, .params] else .method end' "$1.log"
}

@test "--list-resources writes the everything server's resources and templates as one document" {
	run -0 --separate-stderr ev --list-resources
	assert_equal "$stderr" "$STARTING"
	run -0 jq -c '[.resources[] | [.name, ._meta]] | unique' <<<"$output"
	assert_output '[["architecture.md",{"llmkit/server":"everything"}],["extension.md",{"llmkit/server":"everything"}],["features.md",{"llmkit/server":"everything"}],["how-it-works.md",{"llmkit/server":"everything"}],["instructions.md",{"llmkit/server":"everything"}],["startup.md",{"llmkit/server":"everything"}],["structure.md",{"llmkit/server":"everything"}]]'
	run -0 --separate-stderr ev --list-resources
	run -0 jq -c '.resources[0], .resourceTemplates[]' <<<"$output"
	assert_output '{"uri":"demo://resource/static/document/architecture.md","name":"architecture.md","mimeType":"text/markdown","description":"Static document file exposed from /docs: architecture.md","_meta":{"llmkit/server":"everything"}}
{"name":"Dynamic Text Resource","uriTemplate":"demo://resource/dynamic/text/{resourceId}","mimeType":"text/plain","description":"Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer.","_meta":{"llmkit/server":"everything"}}
{"name":"Dynamic Blob Resource","uriTemplate":"demo://resource/dynamic/blob/{resourceId}","mimeType":"application/octet-stream","description":"Binary (base64) dynamic resource fabricated from the {resourceId} variable, which must be an integer.","_meta":{"llmkit/server":"everything"}}'
}

@test "--read gives each listed document as the file the server reads it from" {
	run -0 --separate-stderr ev --list-resources
	[ "$(jq '.resources | length' <<<"$output")" -eq 7 ]
	for uri in $(jq -r '.resources[].uri' <<<"$output"); do
		ev --read "$uri" 2>/dev/null >out.jsonl
		[ "$(wc -l <out.jsonl)" -eq 1 ]
		jq -j .text out.jsonl | cmp - "$DOCS/${uri##*/}"
	done
	run -0 --separate-stderr ev --read demo://resource/static/document/startup.md everything
	assert_equal "$(jq -c 'del(.text)' <<<"$output")" '{"uri":"demo://resource/static/document/startup.md","mimeType":"text/markdown","_meta":{"llmkit/server":"everything"}}'
	assert_equal "$stderr" "$STARTING"
}

@test "--read of a URI that a template matches reads it; a blob stays base64" {
	run -0 --separate-stderr ev --read demo://resource/dynamic/text/4 --read demo://resource/dynamic/blob/5
	assert_equal "${#lines[@]}" 2
	run -0 jq -c '.text |= sub("at .*"; "at T")' <<<"${lines[0]}"
	assert_output '{"uri":"demo://resource/dynamic/text/4","mimeType":"text/plain","text":"Resource 4: This is a plaintext resource created at T","_meta":{"llmkit/server":"everything"}}'
	run -0 --separate-stderr ev --read demo://resource/dynamic/blob/5
	assert_equal "$(jq -c 'del(.blob)' <<<"$output")" '{"uri":"demo://resource/dynamic/blob/5","mimeType":"text/plain","_meta":{"llmkit/server":"everything"}}'
	run -0 sh -c 'jq -r .blob | base64 -d' <<<"$output"
	assert_output --regexp '^Resource 5: This is a base64 blob created at [0-9]'
}

@test "the resource_link items of a tool's result are read by their URIs" {
	printf '{"server_name":"everything","tool_name":"get-resource-links","arguments":{"count":2}}\n' |
	    ev 2>/dev/null | jq -r '.content[] | select(.type == "resource_link") | "--read\n" + .uri' >links
	run -0 cat links
	assert_output '--read
demo://resource/dynamic/blob/1
--read
demo://resource/dynamic/text/2'
	run -0 --separate-stderr xargs -d '\n' mcp-run --server "everything=node $EVERYTHING stdio" <links
	run -0 jq -c '{uri, _meta, text: (.text // (.blob | @base64d)) | sub(" at .*"; "")}' <<<"$output"
	assert_output '{"uri":"demo://resource/dynamic/blob/1","_meta":{"llmkit/server":"everything"},"text":"Resource 1: This is a base64 blob created"}
{"uri":"demo://resource/dynamic/text/2","_meta":{"llmkit/server":"everything"},"text":"Resource 2: This is a plaintext resource created"}'
}

@test "--read of a resource the server does not have is its JSON-RPC error, status 1" {
	run -1 --separate-stderr ev --read demo://nosuch everything
	assert_output ''
	assert_equal "$stderr" "$STARTING
mcp-run: everything: resources/read \"demo://nosuch\" failed: MCP error -32602: Resource demo://nosuch not found (JSON-RPC error -32602)"
	run -1 --separate-stderr ev --read demo://nosuch
	assert_output ''
	assert_equal "$stderr" "$STARTING
mcp-run: no server has a resource \"demo://nosuch\""
}

@test "--list-prompts writes the everything server's prompts with their arguments" {
	run -0 --separate-stderr ev --list-prompts
	assert_equal "$stderr" "$STARTING"
	assert_equal "${#lines[@]}" 1
	run -0 jq -c '.prompts[]' <<<"$output"
	assert_output '{"name":"simple-prompt","title":"Simple Prompt","description":"A prompt with no arguments","_meta":{"llmkit/server":"everything"}}
{"name":"args-prompt","title":"Arguments Prompt","description":"A prompt with two arguments, one required and one optional","arguments":[{"name":"city","description":"Name of the city","required":true},{"name":"state","required":false}],"_meta":{"llmkit/server":"everything"}}
{"name":"completable-prompt","title":"Team Management","description":"First argument choice narrows values for second argument.","arguments":[{"name":"department","description":"Choose the department.","required":true},{"name":"name","description":"Choose a team member to lead the selected department.","required":true}],"_meta":{"llmkit/server":"everything"}}
{"name":"resource-prompt","title":"Resource Prompt","description":"A prompt that includes an embedded resource reference","arguments":[{"name":"resourceType","description":"Type of resource to fetch","required":true},{"name":"resourceId","description":"ID of the text resource to fetch","required":true}],"_meta":{"llmkit/server":"everything"}}'
}

@test "--get-prompt sends each --arg as a string argument" {
	run -0 --separate-stderr ev --get-prompt args-prompt --arg city=Paris --arg 'state=Île-de-France'
	assert_output '{"messages":[{"role":"user","content":{"type":"text","text":"What'"'"'s weather in Paris, Île-de-France?"}}],"_meta":{"llmkit/server":"everything"}}'
	assert_equal "$stderr" "$STARTING"
	run -0 --separate-stderr ev --get-prompt simple-prompt everything
	assert_output '{"messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt without arguments."}}],"_meta":{"llmkit/server":"everything"}}'
	run -0 --separate-stderr ev --get-prompt resource-prompt --arg resourceType=Text --arg resourceId=3
	run -0 jq -c '.messages[1].content.resource | .text |= sub(" at .*"; "")' <<<"$output"
	assert_output '{"uri":"demo://resource/dynamic/text/3","mimeType":"text/plain","text":"Resource 3: This is a plaintext resource created"}'
}

@test "--get-prompt without a required argument is the server's refusal, status 1" {
	run -1 --separate-stderr ev --get-prompt args-prompt
	assert_output ''
	assert_equal "$stderr" "$STARTING
mcp-run: everything: prompts/get \"args-prompt\" failed: MCP error -32602: Invalid arguments for prompt args-prompt: Invalid input: expected string, received undefined at city (JSON-RPC error -32602)"
	run -1 --separate-stderr ev --get-prompt nosuch
	assert_equal "$stderr" "$STARTING
mcp-run: no server has a prompt \"nosuch\""
}
