#!/bin/sh
# t/bench/scale-jsschema.sh: how the schema engine's time grows with hostile
# input (issue 13, findings 11, 13, 14 and 15). Each case is generated at 1x,
# 2x, 4x and 8x its size and timed (median of 3 runs); a line per case
# gives the times and, in parentheses, each one over the one before it:
# about 2 when the time is linear in the input, about 4 when quadratic.
#   unique  uniqueItems on N distinct integers (N = 200,000 at 1x;
#           comparing every pair took 90 s on 100,000)
#   anyof   1,500 arrays nested N deep (N = 100 at 1x, 800 at 8x) under
#           {"anyOf": [A and "not": {}, A, {"type": "integer"}]}, A being
#           {"type": "array", "items": {"$ref": "#"}}: the first branch
#           fails only after it has checked the items, so that trying
#           every branch anew doubled the work per level (2^100 at 1x)
#   enum    N items against an enum of N values (N = 50,000 at 1x, where
#           looking through the values for every item took 15 s)
#   pattern "^(?:a|b)*$" against a string of N a's (N = 1,000,000 at 1x;
#           a resource limit refused 1,365 of them)
# Every input is valid: the run must exit 0 and say nothing, and a copy
# with one wrong value must give the one expected error. Times are
# reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
scale_tool=jsonresp-check
. "$top/t/bench/scale.inc"
jr=$bin/jsonresp-check

# gen CASE N DIR: DIR/s.json (the schema), DIR/d.json (the valid
# document) and DIR/bad.json (the same with one wrong value) of CASE at
# size N.
gen() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "cannot generate $1 at $2"
import json, sys
case, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if case == "unique":
    schema = {"uniqueItems": True}
    doc = "[" + ",".join(str(i) for i in range(n)) + "]"
    bad = "[" + ",".join(str(i) for i in range(n)) + ",7.0]"
elif case == "anyof":
    a = {"type": "array", "items": {"$ref": "#"}}
    schema = {"anyOf": [dict(a, **{"not": {}}), a, {"type": "integer"}]}
    one = "[" * n + "1" + "]" * n
    doc = "[" + ",".join([one] * 1500) + "]"
    bad = "[" + ",".join([one] * 1499 + ["[" * n + '"x"' + "]" * n]) + "]"
elif case == "pattern":
    schema = {"pattern": "^(?:a|b)*$"}
    doc = '"' + "a" * n + '"'
    bad = '"' + "a" * n + 'c"'
else:
    schema = {"items": {"enum": [i * 3 for i in range(n)]}}
    items = [str((i * 7919 % n) * 3) for i in range(n)]
    doc = "[" + ",".join(items) + "]"
    bad = "[" + ",".join(items + ["1"]) + "]"
if case == "unique":
    want = "error: array items 7 and %d are equal, but items must be " \
        "unique" % n
    col = 1
elif case == "anyof":
    want = "error: /1499%s: expected array, found string \"x\"" % ("/0" * n)
    col = 1499 * (2 * n + 2) + n + 2
elif case == "pattern":
    want = "error: string \"%s\"... does not match the pattern \"^(?:a|b)*$\"" \
        % ("a" * 60)
    col = 1
else:
    text = json.dumps(schema["items"]["enum"], separators=(",", ":"))
    want = "error: /%d: expected one of %s..., found integer 1" % (n,
        text[:80])
    col = len(bad) - 1
with open(out + "/want", "w") as f:
    f.write("%s/bad.json:1:%d: %s\n" % (out, col, want))
with open(out + "/s.json", "w") as f:
    f.write(json.dumps(schema) + "\n")
with open(out + "/d.json", "w") as f:
    f.write(doc + "\n")
with open(out + "/bad.json", "w") as f:
    f.write(bad + "\n")
PY
}

# check CASE N DIR: the valid document passes, the wrong one fails with
# the expected error.
check() {
	"$jr" --schema "$3/s.json" "$3/d.json" >/dev/null 2>"$tmp/err"
	st=$?
	[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] ||
		fail "$1 $2: the valid document: status $st, $(head -c 200 "$tmp/err")"
	"$jr" --schema "$3/s.json" "$3/bad.json" >/dev/null 2>"$tmp/err"
	st=$?
	want=$(cat "$3/want")
	# anyof: one error per level, down to the string in the last array
	[ "$1" != anyof ] ||
	    [ "$(grep -c 'matches none of the 3 schemas of "anyOf"' "$tmp/err")" -eq $(($2 + 2)) ] ||
		fail "$1 $2: $(wc -l <"$tmp/err") lines, not one anyOf error per level"
	[ "$st" -eq 1 ] && [ "$(tail -n 1 "$tmp/err")" = "$want" ] ||
		fail "$1 $2: the wrong document: status $st, $(tail -n 1 "$tmp/err" | head -c 300)"
}

# scale CASE BASE: the case at BASE, 2, 4 and 8 times BASE.
scale() {
	c=$1 base=$2
	out="$c:" prev=
	for k in 1 2 4 8; do
		n=$((base * k))
		d=$tmp/$c-$k
		mkdir "$d" || fail "cannot make $d"
		gen "$c" "$n" "$d"
		check "$c" "$n" "$d"
		line=$("$bench/measure" -n 3 -- "$jr" --schema "$d/s.json" \
		    "$d/d.json") || fail "$c $n: the timed run failed"
		scale_time "$k" "$line"
		rm -rf "$d"
	done
	echo "$out"
}

scale unique 200000
scale anyof 100
scale enum 50000
scale pattern 1000000
