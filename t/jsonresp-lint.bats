#!/usr/bin/env bats
# jsonresp-check and the dialect of a schema: a referenced schema without
# "$schema" (a sibling file, a -r file, a file under --ref-map, an
# embedded resource) is read in the dialect of the schema that refers to
# it; --dialect reads a schema under another dialect than its "$schema";
# and the lint of a schema (unknown keywords, keywords of another draft,
# "$ref" beside keywords it hides), as warnings or with --strict-schema
# as errors.

load helper

bats_require_minimum_version 1.5.0

MCP_MODULES=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}

D4='"$schema": "http://json-schema.org/draft-04/schema#"'
D2020='"$schema": "https://json-schema.org/draft/2020-12/schema"'

# ------------------------------------------- the dialect of a referenced schema

@test "a sibling file without \$schema is read in the dialect of the schema that refers to it (Draft-04: boolean exclusiveMaximum, id)" {
	cat >main.json <<-EOF
	{$D4, "properties": {"n": {"\$ref": "types.json#/definitions/small"},
	  "i": {"\$ref": "types.json#int"}}}
	EOF
	cat >types.json <<-'EOF'
	{"definitions": {
	  "small": {"type": "number", "maximum": 5, "exclusiveMaximum": true},
	  "int": {"id": "#int", "type": "integer"}}}
	EOF
	echo '{"n": 5, "i": 1.5}' >a.json
	run -1 --separate-stderr jsonresp-check --schema main.json a.json
	assert_equal "$stderr" 'a.json:1:7: error: /n: 5 is not less than the exclusive maximum 5
a.json:1:15: error: /i: expected integer, found number 1.5'
	echo '{"n": 4.5, "i": 1}' >b.json
	run -0 --separate-stderr jsonresp-check --schema main.json b.json
	assert_equal "$stderr" ""
}

@test "a -r file and a --ref-map file without \$schema take the 2020-12 of the root: an \$id in \$defs beside \$ref is seen" {
	mkdir remote
	echo "{$D2020, \"\$ref\": \"https://example.com/outer.json\"}" >main.json
	cat >remote/outer.json <<-'EOF'
	{"$id": "https://example.com/outer.json", "$ref": "inner.json",
	 "$defs": {"in": {"$id": "inner.json", "type": "string"}}}
	EOF
	echo 7 >a.json
	run -1 --separate-stderr jsonresp-check --schema main.json -r remote/outer.json a.json
	assert_equal "$stderr" 'a.json:1:1: error: expected string, found integer 7'
	run -1 --separate-stderr jsonresp-check --schema main.json --ref-map https://example.com/=remote a.json
	assert_equal "$stderr" 'a.json:1:1: error: expected string, found integer 7'
	echo '"s"' >b.json
	run -0 --separate-stderr jsonresp-check --schema main.json --ref-map https://example.com/=remote b.json
	assert_equal "$stderr" ""
}

@test "a referenced file with a \$schema of its own keeps it; without, a Draft-07 root reads it as Draft-07" {
	mkdir remote
	echo '{"$ref": "https://example.com/outer.json"}' >main.json
	cat >remote/outer.json <<-'EOF'
	{"$id": "https://example.com/outer.json", "$ref": "inner.json",
	 "$defs": {"in": {"$id": "inner.json", "type": "string"}}}
	EOF
	echo 7 >a.json
	run -2 --separate-stderr jsonresp-check --schema main.json --ref-map https://example.com/=remote a.json
	assert_equal "$stderr" 'jsonresp-check: main.json: /$ref/$ref: cannot load "https://example.com/inner.json" from remote/inner.json: No such file or directory'
	jq -c '. + {"$schema": "https://json-schema.org/draft/2019-09/schema"}' remote/outer.json >o.json
	mv o.json remote/outer.json
	run -1 --separate-stderr jsonresp-check --schema main.json --ref-map https://example.com/=remote a.json
	assert_equal "$stderr" 'a.json:1:1: error: expected string, found integer 7'
}

@test "an embedded resource without \$schema is read in the dialect around it" {
	cat >main.json <<-EOF
	{$D2020, "\$ref": "https://example.com/e.json",
	 "\$defs": {"e": {"\$id": "https://example.com/e.json", "\$ref": "f.json",
	   "\$defs": {"f": {"\$id": "f.json", "type": "string"}}}}}
	EOF
	echo 7 >a.json
	run -1 --separate-stderr jsonresp-check --schema main.json a.json
	assert_equal "$stderr" 'a.json:1:1: error: expected string, found integer 7'
}

# ------------------------------------------------------------------- the lint

L="$DATA/jsonresp-lint"

@test "lint: a typo is a warning with the schema's place and the keyword it is near; the status is the document's" {
	printf '{\n  "type": "object",\n  "requried": ["name"],\n  "properties": {"name": {"type": "string", "minLenght": 1}}\n}\n' >s.json
	echo '{}' >a.json
	run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_output ""
	assert_equal "$stderr" 's.json:3:3: warning: requried: unknown keyword; did you mean required?
s.json:4:45: warning: /properties/name: minLenght: unknown keyword; did you mean minLength?'
	echo '{"name": 1}' >b.json
	run -1 --separate-stderr jsonresp-check --schema s.json b.json
	assert_equal "$stderr" 's.json:3:3: warning: requried: unknown keyword; did you mean required?
s.json:4:45: warning: /properties/name: minLenght: unknown keyword; did you mean minLength?
b.json:1:10: error: /name: expected string, found integer 1'
}

@test "lint: the warnings come once per schema, before any document, however many documents and lines" {
	echo '{"tpye": "string"}' >s.json
	printf '1\n2\n3\n' >a.jsonl
	run -0 --separate-stderr jsonresp-check --schema s.json --lines a.jsonl a.jsonl
	assert_equal "$stderr" 's.json:1:2: warning: tpye: unknown keyword; did you mean type?'
}

@test "lint: an unknown keyword far from every known one has no suggestion, nor has one whose edits are half its length" {
	echo '{"foo": 1, "of": [], "minimun": 1, "itmes": {}, "MinLength": 2}' >s.json
	run -0 --separate-stderr jsonresp-check --schema s.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" 's.json:1:2: warning: foo: unknown keyword
s.json:1:12: warning: of: unknown keyword
s.json:1:22: warning: minimun: unknown keyword; did you mean minimum?
s.json:1:36: warning: itmes: unknown keyword; did you mean items?
s.json:1:49: warning: MinLength: unknown keyword; did you mean minLength?'
}

@test "lint: never inside data, property names, an unknown keyword's value, or an x- extension" {
	cat >s.json <<-'EOF'
	{"properties": {"requried": {"type": "string"}, "tpye": true},
	 "enum": [{"requried": 1}], "default": {"tpye": 1},
	 "examples": [{"tpye": 1}], "const": {"requried": 1},
	 "x-editor": {"requried": true, "properties": {"a": {"tpye": 1}}},
	 "vendor": {"tpye": 1}}
	EOF
	run -1 --separate-stderr jsonresp-check --schema s.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" "s.json:5:2: warning: vendor: unknown keyword
$DATA/jsonresp-check/minimal.json:1:1: error: expected one of [{\"requried\":1}], found object
$DATA/jsonresp-check/minimal.json:1:1: error: expected {\"requried\":1} (const), found object"
}

@test "lint: format, content and annotation keywords are known in the drafts that have them" {
	cat >s.json <<-EOF
	{$D2020, "format": "email", "contentMediaType": "text/plain",
	 "contentEncoding": "base64", "contentSchema": {}, "deprecated": false,
	 "readOnly": true, "writeOnly": false, "\$comment": "c", "title": "t",
	 "description": "d", "examples": [1], "default": 1, "\$anchor": "a",
	 "\$dynamicAnchor": "b", "\$defs": {}, "definitions": {},
	 "dependencies": {}, "dependentRequired": {}, "\$vocabulary": {}}
	EOF
	run -0 --separate-stderr jsonresp-check --schema s.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" ""
}

@test "lint: a keyword of a later or an earlier draft, and the source of the dialect in the message" {
	echo "{$D4, \"const\": 1, \"if\": {\"tpye\": 1}}" >s.json
	run -0 --separate-stderr jsonresp-check --schema s.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" "s.json:1:56: warning: const is a Draft-06 keyword; under Draft-04, as \$schema says, it is ignored
s.json:1:68: warning: if is a Draft-07 keyword; under Draft-04, as \$schema says, it is ignored"
	echo "{\"id\": \"x\", \"\$defs\": {}}" >t.json
	run -0 --separate-stderr jsonresp-check --schema t.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" 't.json:1:2: warning: id is a keyword of Draft-04 alone; under Draft-07, the default without $schema, it is ignored
t.json:1:13: warning: $defs is a 2019-09 keyword; under Draft-07, the default without $schema, it is ignored'
	run -0 --separate-stderr jsonresp-check --draft 6 --schema t.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" 't.json:1:2: warning: id is a keyword of Draft-04 alone; under Draft-06, as --draft says, it is ignored
t.json:1:13: warning: $defs is a 2019-09 keyword; under Draft-06, as --draft says, it is ignored'
	echo "{$D2020, \"items\": {}, \"additionalItems\": false, \"\$recursiveRef\": \"#\"}" >u.json
	run -0 --separate-stderr jsonresp-check --schema u.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" 'u.json:1:74: warning: additionalItems is a keyword of Draft-04 to 2019-09; under 2020-12, as $schema says, it is ignored
u.json:1:100: warning: $recursiveRef is a keyword of 2019-09 alone; under 2020-12, as $schema says, it is ignored'
}

@test "lint: up to Draft-07, the keywords beside \$ref are named once; definitions and annotations beside it are not; 2019-09 applies them" {
	cat >s.json <<-'EOF'
	{"$ref": "#/definitions/o", "definitions": {"a": {}, "o": {
	 "properties": {"b": {"$ref": "#/definitions/a", "type": "string",
	  "minLength": 1, "description": "d", "title": "t"},
	  "c": {"$ref": "#/definitions/a", "$comment": "fine"}}}},
	 "title": "t", "required": ["b"]}
	EOF
	run -0 --separate-stderr jsonresp-check --schema s.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" 's.json:1:2: warning: $ref: required beside it is ignored in Draft-07, the default without $schema; put the $ref in an allOf to apply it
s.json:2:23: warning: /definitions/o/properties/b: $ref: type, minLength beside it are ignored in Draft-07, the default without $schema; put the $ref in an allOf to apply them'
	jq -c '. + {"$schema": "https://json-schema.org/draft/2019-09/schema"}' s.json >t.json
	run -1 --separate-stderr jsonresp-check --schema t.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" "$DATA/jsonresp-check/minimal.json:1:1: error: missing required property \"b\""
}

@test "SchemaStore-style Draft-04 schemas with const: a warning names the keyword; oneOf of consts then matches several" {
	run -1 --separate-stderr jsonresp-check --schema "$L/manifest.schema.json" --lines "$L/manifests.jsonl"
	assert_output ""
	assert_equal "$stderr" "$L/manifest.schema.json:8:10: warning: /properties/display/oneOf/0: const is a Draft-06 keyword; under Draft-04, as \$schema says, it is ignored
$L/manifest.schema.json:9:10: warning: /properties/display/oneOf/1: const is a Draft-06 keyword; under Draft-04, as \$schema says, it is ignored
$L/manifest.schema.json:10:10: warning: /properties/display/oneOf/2: const is a Draft-06 keyword; under Draft-04, as \$schema says, it is ignored
$L/manifest.schema.json:11:10: warning: /properties/display/oneOf/3: const is a Draft-06 keyword; under Draft-04, as \$schema says, it is ignored
$L/manifests.jsonl:1:28: error: /display: value matches 4 of the schemas of \"oneOf\" (0, 1, 2, 3), but must match exactly one
$L/manifests.jsonl:2:13: error: /display: value matches 4 of the schemas of \"oneOf\" (0, 1, 2, 3), but must match exactly one"
}

@test "--dialect 6 reads a Draft-04 schema with const as Draft-06: no warning, and the verdicts of ajv and of python3-jsonschema's Draft6Validator" {
	/usr/bin/python3 -c 'import jsonschema' ||
	    fail "Debian's python3-jsonschema is missing (tools/deps)"
	[ -f "$MCP_MODULES/ajv/package.json" ] ||
	    fail "ajv is missing from $MCP_MODULES (make deps)"
	run -1 --separate-stderr jsonresp-check --dialect 6 --schema "$L/manifest.schema.json" --lines "$L/manifests.jsonl"
	assert_equal "$stderr" "$L/manifests.jsonl:2:13: error: /display: value matches none of the 4 schemas of \"oneOf\" (found string \"tv\"); the closest one says:
$L/manifests.jsonl:2:13: error: /display: expected \"fullscreen\" (const), found string \"tv\""
	for s in function manifest; do
		run -1 --separate-stderr jsonresp-check --dialect 6 --errors=json --schema "$L/$s.schema.json" --lines "$L/${s}s.jsonl"
		jq -r 'select(.severity == "error") | .line' <<<"$stderr" | sort -un >got
		/usr/bin/python3 -c '
import json, sys, jsonschema
v = jsonschema.Draft6Validator(json.load(open(sys.argv[1])))
for i, l in enumerate(open(sys.argv[2]), 1):
	if not v.is_valid(json.loads(l)):
		print(i)' "$L/$s.schema.json" "$L/${s}s.jsonl" >want
		[ -s want ]
		diff want got
		# ajv 8, its schema's $schema made Draft-06's, as --dialect 6 reads it
		NODE_PATH=$MCP_MODULES node -e '
const fs = require("fs"), Ajv = require("ajv");
const ajv = new Ajv({strict: false, allErrors: true});
ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
const s = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
s.$schema = "http://json-schema.org/draft-06/schema#";
const v = ajv.compile(s);
fs.readFileSync(process.argv[2], "utf8").split("\n").forEach((l, i) => {
	if (l !== "" && !v(JSON.parse(l))) console.log(i + 1);
});' "$L/$s.schema.json" "$L/${s}s.jsonl" >want
		[ -s want ]
		diff want got
	done
}

@test "--dialect overrules \$schema for the root and what it refers to without one; a file with its own \$schema keeps it" {
	echo "{$D4, \"\$ref\": \"kinds.json\"}" >s.json
	echo '{"oneOf": [{"const": "a"}, {"const": "b"}]}' >kinds.json
	echo '"a"' >a.json
	run -1 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" 'a.json:1:1: error: value matches 2 of the schemas of "oneOf" (0, 1), but must match exactly one'
	run -0 --separate-stderr jsonresp-check --dialect 6 --schema s.json a.json
	assert_equal "$stderr" ""
	run -0 --separate-stderr jsonresp-check --dialect 6 --schema s.json -r kinds.json a.json
	assert_equal "$stderr" ""
	jq -c '. + {"$schema": "http://json-schema.org/draft-04/schema#"}' kinds.json >k.json
	mv k.json kinds.json
	run -1 --separate-stderr jsonresp-check --dialect 2020-12 --schema s.json a.json
	assert_equal "$stderr" 'a.json:1:1: error: value matches 2 of the schemas of "oneOf" (0, 1), but must match exactly one'
}

@test "--dialect: an unknown version, or no --schema, is a usage error" {
	run -2 --separate-stderr jsonresp-check --dialect 6 "$DATA/jsonresp-check/minimal.json"
	assert_output ""
	assert_equal "${stderr_lines[0]}" "jsonresp-check: --dialect goes with --schema: the built-in schema is Draft-07"
	assert_equal "${stderr_lines[1]}" "usage: jsonresp-check [-hqx] [--assert-format]"

	run -2 --separate-stderr jsonresp-check --dialect 5 --schema s.json a.json
	assert_output ""
	# then the usage, as after every usage error (t/jsonresp-check.bats)
	assert_equal "${stderr_lines[0]}" "jsonresp-check: --dialect 5: unknown dialect (4, 6, 7, 2019-09 and 2020-12 are known)"
	assert_equal "${stderr_lines[1]}" "usage: jsonresp-check [-hqx] [--assert-format]"
}

@test "--strict-schema: the findings are errors and the status is 2, before any document is read; a clean schema changes nothing" {
	echo '{"tpye": "string", "properties": {"a": {"$ref": "#", "type": "null"}}}' >s.json
	run -2 --separate-stderr jsonresp-check --strict-schema --schema s.json missing.json
	assert_output ""
	assert_equal "$stderr" 's.json:1:2: error: tpye: unknown keyword; did you mean type?
s.json:1:41: error: /properties/a: $ref: type beside it is ignored in Draft-07, the default without $schema; put the $ref in an allOf to apply it'
	run -2 --separate-stderr jsonresp-check -q --strict-schema --schema s.json missing.json
	assert_equal "$stderr" ""
	echo '{"type": "string", "x-note": {"tpye": 1}}' >t.json
	echo 1 >a.json
	run -1 --separate-stderr jsonresp-check --strict-schema --schema t.json a.json
	assert_equal "$stderr" 'a.json:1:1: error: expected string, found integer 1'
}

@test "--custom-keyword declares keywords of one's own, in lists or one by one; not a typo of them, nor a keyword of another draft; and its usage" {
	cat >s.json <<-EOF
	{$D4, "type": "object",
	 "properties": {"a": {"type": "string", "markdownDescription": "*a*",
	   "deprecationMessage": "old", "tsType": "A", "const": "x",
	   "defaultSnippets": [{"tpye": 1}], "markdownDescriptoin": ""}}}
	EOF
	echo '{"a": "y"}' >a.json
	run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" 's.json:2:41: warning: /properties/a: markdownDescription: unknown keyword
s.json:3:4: warning: /properties/a: deprecationMessage: unknown keyword
s.json:3:33: warning: /properties/a: tsType: unknown keyword; did you mean type?
s.json:3:48: warning: /properties/a: const is a Draft-06 keyword; under Draft-04, as $schema says, it is ignored
s.json:4:4: warning: /properties/a: defaultSnippets: unknown keyword
s.json:4:38: warning: /properties/a: markdownDescriptoin: unknown keyword'
	run -0 --separate-stderr jsonresp-check --custom-keyword markdownDescription,deprecationMessage --custom-keyword tsType --custom-keyword defaultSnippets,const --schema s.json a.json
	assert_equal "$stderr" 's.json:3:48: warning: /properties/a: const is a Draft-06 keyword; under Draft-04, as $schema says, it is ignored
s.json:4:38: warning: /properties/a: markdownDescriptoin: unknown keyword'
	run -2 --separate-stderr jsonresp-check --strict-schema --custom-keyword markdownDescription,deprecationMessage,tsType,defaultSnippets,markdownDescriptoin --schema s.json a.json
	assert_equal "$stderr" 's.json:3:48: error: /properties/a: const is a Draft-06 keyword; under Draft-04, as $schema says, it is ignored'
	run -1 --separate-stderr jsonresp-check --custom-keyword markdownDescription,,deprecationMessage,tsType,defaultSnippets,markdownDescriptoin --dialect 6 --schema s.json a.json
	assert_equal "$stderr" 'a.json:1:7: error: /a: expected "x" (const), found string "y"'

	run -2 --separate-stderr jsonresp-check --custom-keyword tsType a.json
	assert_output ""
	assert_equal "${stderr_lines[0]}" "jsonresp-check: --custom-keyword goes with --schema: the built-in schema has no keyword of its own"
	assert_equal "${stderr_lines[1]}" "usage: jsonresp-check [-hqx] [--assert-format]"
	run -2 --separate-stderr jsonresp-check $(printf -- '--custom-keyword k%d ' {1..33}) --schema s.json a.json
	assert_output ""
	assert_equal "${stderr_lines[0]}" "jsonresp-check: --custom-keyword: at most 32 times; give the names as lists, NAME,NAME,..."
	assert_equal "${stderr_lines[1]}" "usage: jsonresp-check [-hqx] [--assert-format]"
	run -0 --separate-stderr jsonresp-check -q $(printf -- '--custom-keyword k%d ' {1..32}) --schema s.json a.json
}

@test "lint: -q silences the warnings and the status stays the document's; --errors=json gives the rule, the pointer and the keyword's" {
	echo '{"type": "object", "properties": {"a": {"minimun": 1}}}' >s.json
	echo '{}' >a.json
	run -0 --separate-stderr jsonresp-check -q --schema s.json a.json
	assert_equal "$stderr" ""
	echo '1' >b.json
	run -1 --separate-stderr jsonresp-check -q --schema s.json b.json
	assert_equal "$stderr" ""
	run -0 --separate-stderr jsonresp-check --errors=json --schema s.json a.json
	assert_equal "$stderr" '{"file":"s.json","line":1,"column":41,"severity":"warning","rule":"unknown-keyword","message":"minimun: unknown keyword; did you mean minimum?","path":"/properties/a","keywordLocation":"/properties/a/minimun"}'
}

@test "lint: an unknown keyword with a control character is quoted as JSON, so that its message is one line" {
	printf '{"tp\\nye": 1, "a\\u0007\\"": 2, "b\\"c": 3}' >s.json
	echo 1 >a.json
	run -0 --separate-stderr jsonresp-check --schema s.json a.json
	assert_equal "$stderr" 's.json:1:2: warning: "tp\nye": unknown keyword
s.json:1:15: warning: "a\u0007\"": unknown keyword
s.json:1:31: warning: b"c: unknown keyword'
	run -0 --separate-stderr jsonresp-check --errors=json --schema s.json a.json
	assert_equal "${stderr_lines[0]}" '{"file":"s.json","line":1,"column":2,"severity":"warning","rule":"unknown-keyword","message":"\"tp\\nye\": unknown keyword","path":"","keywordLocation":"/tp\nye"}'
}

@test "lint: a schema on standard input is <stdin>; the built-in schema is not linted" {
	run -0 --separate-stderr jsonresp-check --schema - "$DATA/jsonresp-check/minimal.json" <<<'{"tpye": "object"}'
	assert_equal "$stderr" '<stdin>:1:2: warning: tpye: unknown keyword; did you mean type?'
	run -0 --separate-stderr jsonresp-check "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" ""
}

@test "lint: an embedded resource with a \$schema of its own is linted in its dialect; what it holds too" {
	cat >s.json <<-EOF
	{$D2020, "prefixItems": [{}],
	 "\$defs": {"x": {"\$id": "https://example.com/x",
	  "\$schema": "http://json-schema.org/draft-07/schema#",
	  "\$defs": {}, "const": 1, "properties": {"p": {"prefixItems": []}}}}}
	EOF
	run -0 --separate-stderr jsonresp-check --schema s.json "$DATA/jsonresp-check/minimal.json"
	assert_equal "$stderr" 's.json:4:3: warning: /$defs/x: $defs is a 2019-09 keyword; under Draft-07, as $schema says, it is ignored
s.json:4:49: warning: /$defs/x/properties/p: prefixItems is a 2020-12 keyword; under Draft-07, as $schema says, it is ignored'
}
