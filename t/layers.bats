#!/usr/bin/env bats
# The layers of lib/: tools/layers passes the tree as it is, and fails,
# naming the file and line, on each kind of include that lib/layers
# forbids, planted in a copy of lib/: one that reaches a layer above, one
# that reaches a part not named, a circle between two modules of a
# folder, a header named without its folder, a header that is not
# there; and on a lib/layers that names a folder before it is listed.

load helper

setup() {
	mkdir "$BATS_TEST_TMPDIR/tree"
	cp -R "$TOP/lib" "$BATS_TEST_TMPDIR/tree/lib"
	T=$BATS_TEST_TMPDIR/tree
}

# plant FILE LINE: LINE becomes the first line of the copy's lib/FILE.
plant() {
	{ printf '%s\n' "$2"; cat "$T/lib/$1"; } >"$T/lib/$1.new"
	mv "$T/lib/$1.new" "$T/lib/$1"
}

@test "layers: the tree's includes keep lib/layers" {
	run -0 --separate-stderr sh "$TOP/tools/layers" "$TOP"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "layers: an include from a layer above fails" {
	plant base/buf.c '#include "toolcall/toolcall.h"'
	run -1 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/base/buf.c:1: #include "toolcall/toolcall.h" reaches toolcall, a layer above base'
}

@test "layers: an include from a part not named fails" {
	plant mcp/mcp.c '#include "check/verdict.h"'
	run -1 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/mcp/mcp.c:1: #include "check/verdict.h" reaches check, a part that mcp does not name in lib/layers'
}

@test "layers: two modules of a folder that include each other fail" {
	plant base/num.c '#include "base/sha256.h"'
	plant base/sha256.c '#include "base/num.h"'
	run -1 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/base: a circle of includes: num -> sha256 -> num'
}

@test "layers: a header named without its folder fails" {
	plant xml/xmlesc.c '#include "buf.h"'
	run -1 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/xml/xmlesc.c:1: #include "buf.h" names no folder of lib/'
}

@test "layers: a header that is not there fails" {
	plant xml/xmlesc.c '#include "base/nothere.h"'
	run -1 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/xml/xmlesc.c:1: #include "base/nothere.h": no such header in lib/'
}

@test "layers: a folder not in lib/layers fails" {
	mkdir "$T/lib/extra"
	printf '#include "base/buf.h"\n' >"$T/lib/extra/x.c"
	run -1 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/extra/x.c:1: folder extra is not in lib/layers'
}

@test "layers: lib/layers naming a folder before it is listed is wrong" {
	sed 's/^json[[:space:]].*/json		base xml/' "$TOP/lib/layers" \
	    >"$T/lib/layers"
	run -2 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output 'lib/layers:8: json names xml, which is not listed before it'
}

@test "layers: no lib/layers is trouble" {
	rm "$T/lib/layers"
	run -2 --separate-stderr sh "$TOP/tools/layers" "$T"
	assert_output ""
	assert_equal "$stderr" "tools/layers: lib/layers: cannot read"
}
