#!/bin/sh
# t/bench/scale-prompt.sh: how toolcall-parse --print-prompt grows with
# hostile tool schemas (issue 25, finding 11). Each case is one tool whose
# schema is generated at 1x, 2x, 4x and 8x its size; for each case a line
# gives the prompt's time (median of 3 runs), one its size in bytes and
# one the time of reading and compiling the file alone, each with, in
# parentheses, its ratio to the one before it: about 2 when linear.
#   selfanyof  N properties, each {"anyOf": [{"$ref": "#/properties/pI"},
#              the same again, {"type": "integer"}]} (N = 2,000 at 1x; one
#              such property took more than 30 s before)
#   chains     N properties, each the head of 25 $defs, each an anyOf of
#              two references to the next, the last an integer (N = 100
#              at 1x; one chain of 25 took more than 30 s before)
#   lattice    N $defs, each two required properties of the next (N = 50
#              at 1x): a valid call has 2^N values, so there is no example
#   shared     N properties, each the same $defs point with a description
#              of its own (N = 5,000 at 1x)
#   allof      N objects, each allOf the same base of N properties (N =
#              100 at 1x): flattened, the description would be N^2 lines;
#              it stops at its budget
# Each output is checked: the lines it must have, one per property or
# type, the example or the line that says there is none, and no line
# where a budget stopped it unless the case is allof. Times are reported,
# never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
scale_tool=toolcall-parse
. "$top/t/bench/scale.inc"
tp=$bin/toolcall-parse

# gen CASE N FILE: the tools file of CASE at size N.
gen() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "cannot generate $1 at $2"
import json, sys
case, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
props, defs, req = {}, {}, []
schema = {"type": "object"}
if case == "selfanyof":
    for i in range(n):
        r = {"$ref": "#/properties/p%d" % i}
        props["p%d" % i] = {"anyOf": [r, r, {"type": "integer"}]}
elif case == "chains":
    for c in range(n):
        props["c%d" % c] = {"$ref": "#/$defs/c%d_0" % c}
        for i in range(25):
            r = {"$ref": "#/$defs/c%d_%d" % (c, i + 1)}
            defs["c%d_%d" % (c, i)] = {"anyOf": [r, r]}
        defs["c%d_25" % c] = {"type": "integer"}
elif case == "lattice":
    schema = {"$ref": "#/$defs/l0"}
    props = None
    for i in range(n):
        r = {"$ref": "#/$defs/l%d" % (i + 1)}
        defs["l%d" % i] = {"properties": {"a": r, "b": r},
            "required": ["a", "b"]}
    defs["l%d" % n] = {"type": "integer"}
elif case == "shared":
    defs["point"] = {"type": "object", "description": "A point.",
        "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
        "required": ["x", "y"]}
    for i in range(n):
        props["p%d" % i] = {"$ref": "#/$defs/point",
            "description": "Point %d." % i}
        req.append("p%d" % i)
else:
    defs["base"] = {"properties":
        {"b%d" % j: {"type": "string"} for j in range(n)}}
    for i in range(n):
        props["o%d" % i] = {"allOf": [{"$ref": "#/$defs/base"}],
            "properties": {"own%d" % i: {"type": "integer"}}}
if props is not None:
    schema["properties"] = props
if req:
    schema["required"] = req
if defs:
    schema["$defs"] = defs
with open(out, "w") as f:
    json.dump({"tools": [{"name": "t", "inputSchema": schema}]}, f)
PY
}

# count PATTERN FILE: the lines of FILE that match PATTERN (grep -E).
count() {
	grep -cE "$1" "$2"
}

# check CASE N FILE: the prompt of FILE is whole and right for CASE at N.
check() {
	p=$tmp/prompt
	"$tp" --print-prompt --tools "$3" >"$p" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] ||
		fail "$1 $2: status $st, $(head -c 200 "$tmp/err")"
	none=$(count '^\(None: a call of this tool would be too large' "$p")
	rest=$(count '^\(The rest is left out' "$p")
	case $1 in
	selfanyof)
		[ "$(count '^- p[0-9]+ \(p[0-9]+\)$' "$p")" -eq "$2" ] &&
		    [ "$(count '^Type p[0-9]+ \(p[0-9]+ or integer\)$' "$p")" -eq "$2" ] &&
		    [ "$(count '^  <p[0-9]+>1</p[0-9]+>$' "$p")" -eq "$2" ] ;;
	chains)
		[ "$(count '^- c[0-9]+ \(integer\)$' "$p")" -eq "$2" ] &&
		    [ "$(count '^Type ' "$p")" -eq 0 ] &&
		    [ "$(count '^  <c[0-9]+>1</c[0-9]+>$' "$p")" -eq "$2" ] ;;
	lattice)
		[ "$(count '^Type l[0-9]+ \(object\)$' "$p")" -eq $(($2 - 1)) ] &&
		    [ "$none" -eq 1 ] ;;
	shared)
		[ "$(count '^- p[0-9]+ \(point, required\): Point [0-9]+\.$' "$p")" -eq "$2" ] &&
		    [ "$(count '^Type point \(object\): A point\.$' "$p")" -eq 1 ] &&
		    [ "$(count '^    <x>1.5</x>$' "$p")" -eq "$2" ] ;;
	allof)
		[ "$(count '^- o[0-9]+ \(object\)$' "$p")" -ge 1 ] &&
		    [ "$none" -eq 1 ] && { [ "$rest" -eq 1 ] ||
		    [ "$(count '^  - b[0-9]+ \(string\)$' "$p")" -eq $(($2 * $2)) ]; } ;;
	esac || fail "$1 $2: the prompt is not the one expected"
	[ "$1" = allof ] || [ "$rest" -eq 0 ] ||
		fail "$1 $2: the description stopped at its budget"
	[ "$1" = lattice ] || [ "$1" = allof ] || [ "$none" -eq 0 ] ||
		fail "$1 $2: no example"
	size=$(wc -c <"$p")
}

# scale CASE BASE: the case at BASE, 2, 4 and 8 times BASE: the prompt's
# time and size, then the time of reading and compiling the same file
# alone (toolcall-parse --tools FILE /dev/null), the baseline the prompt
# adds to.
scale() {
	c=$1 base=$2
	out= prev= sizes= psize=
	for k in 1 2 4 8; do
		n=$((base * k))
		f=$tmp/$c-$k.json
		gen "$c" "$n" "$f"
		check "$c" "$n" "$f"
		line=$("$bench/measure" -n 3 -- "$tp" --print-prompt \
		    --tools "$f") || fail "$c $n: the timed run failed"
		scale_time "$k" "$line"
		if [ -z "$psize" ]; then
			sizes="$size B"
		else
			sizes="$sizes, $size B ($(awk -v a="$size" -v b="$psize" \
			    'BEGIN { printf "%.2f", a / b }'))"
		fi
		psize=$size
	done
	echo "$c: prompt$out"
	echo "$c: size $sizes"
	out= prev=
	for k in 1 2 4 8; do
		f=$tmp/$c-$k.json
		line=$("$bench/measure" -n 3 -- "$tp" --tools "$f" /dev/null) ||
			fail "$c: the timed load failed"
		scale_time "$k" "$line"
		rm -f "$f"
	done
	echo "$c: loading alone$out"
}

scale selfanyof 2000
scale chains 100
scale lattice 50
scale shared 5000
scale allof 100
