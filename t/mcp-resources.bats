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
USAGE=$(mcp-run -h | sed '/^$/,$d')

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
#   --modern      answers server/discover: of the 2026-07-28 revision
#   --endless     resources/list always has a next page
#   --no-contents resources/read and prompts/get answer {}
#   --no-templates     has no resources/templates/list (-32601)
#   --templates-error  resources/templates/list fails (-32603)
# Its resources, over two pages: res://NAME/one and res://shared; its
# template res://NAME/items/{id}{?q}. resources/read of
#   res://error   a JSON-RPC error
#   res://slow    no answer (the server reads on)
#   res://die     the server ends (and so any URI ending in "/die")
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
    caps = {"tools": {}}
    if "--bare" not in opts:
        caps.update({"resources": {}, "prompts": {}})
    if method == "server/discover" and "--modern" in opts:
        result(rid, {"supportedVersions": ["2026-07-28"],
                     "capabilities": caps})
    elif method == "initialize":
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
        elif uri == "res://die" or uri.endswith("/die"):
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
	jq 'del(.mcpServers.everything)' "$BATS_FILE_TMPDIR/servers.json" \
	    >"$BATS_FILE_TMPDIR/scripted.json" || return 1
	export CONF=$BATS_FILE_TMPDIR/servers.json EVERYTHING DOCS
	export SCRIPTED=$BATS_FILE_TMPDIR/scripted.json
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

@test "--list-resources reads every page of each server, in the order of their names" {
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --list-resources
	assert_output '{"resources":[{"uri":"res://a/one","name":"one","_meta":{"llmkit/server":"a"}},{"uri":"res://shared","name":"shared","_meta":{"llmkit/server":"a"}},{"uri":"res://b/one","name":"one","_meta":{"llmkit/server":"b"}},{"uri":"res://shared","name":"shared","_meta":{"llmkit/server":"b"}}],"resourceTemplates":[{"uriTemplate":"res://a/items/{id}{?q}","name":"items","_meta":{"llmkit/server":"a"}},{"uriTemplate":"res://b/items/{id}{?q}","name":"items","_meta":{"llmkit/server":"b"}}]}'
	assert_equal "$stderr" 'mcp-run: a: a resource that is not an object is left out
mcp-run: b: a resource that is not an object is left out'
	run -0 requests a
	assert_output '"server/discover"
"initialize"
"notifications/initialized"
"resources/list"
"resources/list"
"resources/templates/list"'
	run -0 jq -c 'select(.method == "resources/list") | .params' a.log
	assert_output 'null
{"cursor":"2"}'
	run -0 requests bare
	assert_output '"server/discover"
"initialize"
"notifications/initialized"'
}

@test "--list-resources NAME asks only the servers named; one that declared none is said, status 1" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --list-resources bare b
	assert_output '{"resources":[{"uri":"res://b/one","name":"one","_meta":{"llmkit/server":"b"}},{"uri":"res://shared","name":"shared","_meta":{"llmkit/server":"b"}}],"resourceTemplates":[{"uriTemplate":"res://b/items/{id}{?q}","name":"items","_meta":{"llmkit/server":"b"}}]}'
	assert_equal "$stderr" 'mcp-run: b: a resource that is not an object is left out
mcp-run: bare: the server did not declare resources, so it is not asked for them'
	[ ! -e a.log ]
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --list-prompts bare
	assert_output '{"prompts":[]}'
	assert_equal "$stderr" 'mcp-run: bare: the server did not declare prompts, so it is not asked for them'
}

@test "a server without resources/templates/list has no templates" {
	res x --no-templates
	run -0 --separate-stderr mcp-run -c conf-x.json --list-resources
	assert_output '{"resources":[{"uri":"res://x/one","name":"one","_meta":{"llmkit/server":"x"}},{"uri":"res://shared","name":"shared","_meta":{"llmkit/server":"x"}}],"resourceTemplates":[]}'
	assert_equal "$stderr" 'mcp-run: x: a resource that is not an object is left out'
}

@test "a listing that fails is trouble, status 3, and nothing is written" {
	res x --templates-error
	run -3 --separate-stderr mcp-run -c conf-x.json --list-resources
	assert_output ''
	assert_equal "$stderr" 'mcp-run: x: resources/templates/list failed: templates are broken (JSON-RPC error -32603)'
	res y --endless
	run -3 --separate-stderr mcp-run -c conf-y.json --list-resources
	assert_output ''
	assert_equal "$stderr" 'mcp-run: y: resources/list goes on past 1000 pages'
	run -0 grep -c '"method":"resources/list"' y.log
	assert_output 1000
	run -3 --separate-stderr mcp-run --server 'z=/nonexistent/server' --list-prompts
	assert_output ''
	assert_equal "$stderr" 'mcp-run: z: cannot start /nonexistent/server: No such file or directory'
}

@test "--read routes a URI to the server whose template it matches, as the template's operators allow" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read 'res://a/items/7?q=x' --read res://b/items/8 --read 'res://a/items/?q' --read res://a/items/x/y --read 'res://b/items/7#f' --read res://b/one
	assert_output '{"uri":"res://a/items/7?q=x","text":"a res://a/items/7?q=x","_meta":{"llmkit/server":"a"}}
{"uri":"res://b/items/8","text":"b res://b/items/8","_meta":{"llmkit/server":"b"}}
{"uri":"res://a/items/?q","text":"a res://a/items/?q","_meta":{"llmkit/server":"a"}}
{"uri":"res://b/one","text":"b res://b/one","_meta":{"llmkit/server":"b"}}'
	assert_equal "$stderr" 'mcp-run: no server has a resource "res://a/items/x/y"
mcp-run: no server has a resource "res://b/items/7#f"'
	run -0 requests a
	assert_output '"server/discover"
"initialize"
"notifications/initialized"
"resources/list"
"resources/list"
"resources/templates/list"
["resources/read",{"uri":"res://a/items/7?q=x"}]
["resources/read",{"uri":"res://a/items/?q"}]'
}

@test "--read of a resource on two servers is refused, status 1, until one is named" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://shared
	assert_output ''
	assert_equal "$stderr" 'mcp-run: resource "res://shared" is on more than one server (a, b): name one'
	rm b.log
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --read res://shared b
	assert_output '{"uri":"res://shared","text":"b res://shared","_meta":{"llmkit/server":"b"}}'
	assert_equal "$stderr" ''
	run -0 requests b
	assert_output '"server/discover"
"initialize"
"notifications/initialized"
["resources/read",{"uri":"res://shared"}]'
}

@test "a server named is sent the URI whether it lists it or not" {
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --read res://unlisted a
	assert_output '{"uri":"res://unlisted","text":"a res://unlisted","_meta":{"llmkit/server":"a"}}'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://unlisted
	assert_equal "$stderr" 'mcp-run: no server has a resource "res://unlisted"'
}

@test "--read keeps the contents as they are but for a content that is not an object" {
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --read res://mixed a
	assert_output '{"uri":"res://mixed","mimeType":"text/plain","text":"t","_meta":{"llmkit/server":"a"}}
{"uri":"res://mixed","blob":"AAEC","_meta":{"k":1,"llmkit/server":"a"}}'
	assert_equal "$stderr" 'mcp-run: a: a content of "res://mixed" that is not an object is left out'
}

@test "a failed --read is said, status 1, and the next URI is read" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://error --read res://a/one
	assert_output '{"uri":"res://a/one","text":"a res://a/one","_meta":{"llmkit/server":"a"}}'
	assert_equal "$stderr" 'mcp-run: no server has a resource "res://error"'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://error a --read res://a/one
	assert_output '{"uri":"res://a/one","text":"a res://a/one","_meta":{"llmkit/server":"a"}}'
	assert_equal "$stderr" 'mcp-run: a: resources/read "res://error" failed: Resource not found (JSON-RPC error -32002)'
}

@test "a --read that times out is cancelled, status 1" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" -T 0.5 --read res://slow a
	assert_output ''
	assert_equal "$stderr" 'mcp-run: a: resources/read "res://slow" failed: timed out after 0.5 s'
	run -0 tail -2 a.log
	assert_output '{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"res://slow"}}
{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"timed out after 0.5 s"}}'
}

@test "a server that ends during a --read fails it, status 1, and is started again for the next" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://die a
	assert_output ''
	assert_equal "$stderr" 'mcp-run: a: resources/read "res://die" failed: server a exited with status 0'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://a/items/die --read res://a/items/2
	assert_output '{"uri":"res://a/items/2","text":"a res://a/items/2","_meta":{"llmkit/server":"a"}}'
	assert_equal "$stderr" 'mcp-run: a: resources/read "res://a/items/die" failed: server a exited with status 0'
	run -0 grep -c '"method":"initialize"' a.log
	assert_output 3
}

@test "an answer without contents or messages is trouble, status 3" {
	res x --no-contents
	run -3 --separate-stderr mcp-run -c conf-x.json --read res://x/one x
	assert_output ''
	assert_equal "$stderr" 'mcp-run: x: resources/read answered without a "contents" array'
	run -3 --separate-stderr mcp-run -c conf-x.json --get-prompt x-prompt x
	assert_output ''
	assert_equal "$stderr" 'mcp-run: x: prompts/get answered without a "messages" array'
}

@test "a server that did not declare resources or prompts is not asked, status 1" {
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://bare/one bare
	assert_output ''
	assert_equal "$stderr" 'mcp-run: bare: the server did not declare resources, so it is not asked for "res://bare/one"'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt p bare
	assert_equal "$stderr" 'mcp-run: bare: the server did not declare prompts, so it is not asked for "p"'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --read res://x bare
	run -0 requests bare
	assert_output '"server/discover"
"initialize"
"notifications/initialized"
"server/discover"
"initialize"
"notifications/initialized"
"server/discover"
"initialize"
"notifications/initialized"'
	res x --bare
	run -1 --separate-stderr mcp-run -c conf-x.json --read res://x/one
	assert_equal "$stderr" 'mcp-run: no server declared resources, so none is asked for "res://x/one"'
	run -1 --separate-stderr mcp-run -c conf-x.json --get-prompt p
	assert_equal "$stderr" 'mcp-run: no server declared prompts, so none is asked for "p"'
}

@test "--get-prompt is routed by the prompts' names" {
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt b-prompt --arg k=v --arg 'e=' --arg 'x=a=b'
	assert_output '{"messages":[{"role":"user","content":{"type":"text","text":"{\"e\": \"\", \"k\": \"v\", \"x\": \"a=b\"}"}}],"_meta":{"llmkit/server":"b"}}'
	assert_equal "$stderr" ''
	run -0 requests b
	assert_output '"server/discover"
"initialize"
"notifications/initialized"
"prompts/list"
["prompts/get",{"name":"b-prompt","arguments":{"k":"v","e":"","x":"a=b"}}]'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt shared-prompt
	assert_output ''
	assert_equal "$stderr" 'mcp-run: prompt "shared-prompt" is on more than one server (a, b): name one'
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt shared-prompt a
	assert_output '{"messages":[{"role":"user","content":{"type":"text","text":"null"}}],"_meta":{"llmkit/server":"a"}}'
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt error a
	assert_equal "$stderr" 'mcp-run: a: prompts/get "error" failed: no prompt error (JSON-RPC error -32602)'
}

@test "--list-prompts lists every server's prompts, marked with its server" {
	run -0 --separate-stderr mcp-run -c "$SCRIPTED" --list-prompts
	assert_output '{"prompts":[{"name":"a-prompt","_meta":{"llmkit/server":"a"}},{"name":"shared-prompt","_meta":{"llmkit/server":"a"}},{"name":"b-prompt","_meta":{"llmkit/server":"b"}},{"name":"shared-prompt","_meta":{"llmkit/server":"b"}}]}'
	assert_equal "$stderr" ''
}

@test "options that do not go together, and bad --arg, --read and --get-prompt, are usage errors, status 2" {
	for pair in '--list-resources --read u' '--read u --get-prompt p' \
	    '--list-prompts --list-tools' '--list-servers --read u' \
	    '--get-prompt p --list-resources'; do
		run -2 --separate-stderr mcp-run -c "$SCRIPTED" $pair
		assert_output ''
		case $pair in
		'--list-resources --read u') want='--list-resources and --read' ;;
		'--read u --get-prompt p') want='--read and --get-prompt' ;;
		'--list-prompts --list-tools') want='--list-tools and --list-prompts' ;;
		'--list-servers --read u') want='--list-servers and --read' ;;
		*) want='--list-resources and --get-prompt' ;;
		esac
		assert_equal "$stderr" "mcp-run: $want go one at a time
$USAGE"
	done
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --arg k=v
	assert_equal "$stderr" "mcp-run: --arg goes with --get-prompt
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --read u --arg k=v
	assert_equal "$stderr" "mcp-run: --arg goes with --get-prompt
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt p --arg =v
	assert_equal "$stderr" "mcp-run: --arg wants KEY=VALUE, not \"=v\"
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt p --arg nokey
	assert_equal "$stderr" "mcp-run: --arg wants KEY=VALUE, not \"nokey\"
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt p --arg k=1 --arg k=2
	assert_equal "$stderr" "mcp-run: --arg \"k\" is given twice
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt p --get-prompt q
	assert_equal "$stderr" "mcp-run: --get-prompt is given twice
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --read u nope
	assert_equal "$stderr" "mcp-run: --read: no server \"nope\" is configured
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --list-resources a nope
	assert_equal "$stderr" "mcp-run: --list-resources: no server \"nope\" is configured
$USAGE"
	run -2 --separate-stderr mcp-run --read u
	assert_equal "$stderr" "mcp-run: no server: give -c FILE or --server NAME=COMMAND, or write .mcp.json here
$USAGE"
	[ ! -e a.log ] && [ ! -e b.log ]
}

@test "a URI, a prompt's name or an argument that is not UTF-8 is a usage error" {
	local R=$'\xef\xbf\xbd'
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --read $'res://\xff'
	# the bytes that are not UTF-8 are said as U+FFFD
	assert_equal "$stderr" "mcp-run: --read: \"res://$R\" is not UTF-8
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt $'p\xc3'
	assert_equal "$stderr" "mcp-run: --get-prompt: \"p$R\" is not UTF-8
$USAGE"
	run -2 --separate-stderr mcp-run -c "$SCRIPTED" --get-prompt p --arg $'k=\xff'
	assert_equal "$stderr" "mcp-run: --arg: \"k=$R\" is not UTF-8
$USAGE"
}

@test "a server of the 2026-07-28 revision is asked with the _meta of its era" {
	res m --modern
	run -0 --separate-stderr mcp-run -c conf-m.json --read res://m/items/1
	assert_output '{"uri":"res://m/items/1","text":"m res://m/items/1","_meta":{"llmkit/server":"m"}}'
	run -0 jq -c '[.method, (.params | del(._meta)), (.params._meta | keys)]' m.log
	assert_output '["server/discover",{},["io.modelcontextprotocol/clientCapabilities","io.modelcontextprotocol/clientInfo","io.modelcontextprotocol/logLevel","io.modelcontextprotocol/protocolVersion"]]
["resources/list",{},["io.modelcontextprotocol/clientCapabilities","io.modelcontextprotocol/clientInfo","io.modelcontextprotocol/logLevel","io.modelcontextprotocol/protocolVersion"]]
["resources/list",{"cursor":"2"},["io.modelcontextprotocol/clientCapabilities","io.modelcontextprotocol/clientInfo","io.modelcontextprotocol/logLevel","io.modelcontextprotocol/protocolVersion"]]
["resources/templates/list",{},["io.modelcontextprotocol/clientCapabilities","io.modelcontextprotocol/clientInfo","io.modelcontextprotocol/logLevel","io.modelcontextprotocol/protocolVersion"]]
["resources/read",{"uri":"res://m/items/1"},["io.modelcontextprotocol/clientCapabilities","io.modelcontextprotocol/clientInfo","io.modelcontextprotocol/logLevel","io.modelcontextprotocol/protocolVersion"]]'
	res n --modern --bare
	run -1 --separate-stderr mcp-run -c conf-n.json --list-prompts n
	assert_output '{"prompts":[]}'
	assert_equal "$stderr" 'mcp-run: n: the server did not declare prompts, so it is not asked for them'
	run -0 jq -r .method n.log
	assert_output 'server/discover'
}

@test "a server that cannot be started is passed over in the routing, status 3" {
	run -3 --separate-stderr mcp-run -c "$SCRIPTED" --server 'z=/nonexistent/server' --read res://a/one
	assert_output '{"uri":"res://a/one","text":"a res://a/one","_meta":{"llmkit/server":"a"}}'
	assert_equal "$stderr" 'mcp-run: z: cannot start /nonexistent/server: No such file or directory'
	run -3 --separate-stderr mcp-run --server 'z=/nonexistent/server' --get-prompt p z
	assert_output ''
	assert_equal "$stderr" 'mcp-run: z: cannot start /nonexistent/server: No such file or directory'
}

@test "an answer longer than --max-line fails the read, status 1" {
	local uri=res://a/items/$(printf '%0100d' 7)
	run -1 --separate-stderr mcp-run -c "$SCRIPTED" --max-line 200 --read "$uri" a
	assert_output ''
	# a long URI is cut in a message, as names are
	assert_equal "$stderr" 'mcp-run: a: resources/read "res://a/items/000000000000000000000000000000000000000000000000000000000000..." failed: server a wrote a line longer than --max-line (200 bytes)'
}
