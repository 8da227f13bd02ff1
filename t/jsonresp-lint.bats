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
