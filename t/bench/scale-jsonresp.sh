#!/bin/sh
# t/bench/scale-jsonresp.sh: how jsonresp-check's time grows with hostile
# input (issue 13, findings 11 and 12). Each case is generated at 1x, 2x,
# 4x and 8x its size and timed (median of 3 runs); a line per case gives
# the times and, in parentheses, each one over the one before it: about 2
# when the time is linear in the input, about 4 when it is quadratic.
#   fields     a valid response whose form has N fields with distinct ids
#              (the seed rule "field ids are unique"; N = 40,000 at 1x)
#   concerns   N detected_concerns outside the enum, N errors to place
#              (N = 1,250 at 1x, 10,000 at 8x: a document stops at 10,000
#              errors), against the seed's schema without uniqueItems,
#              whose cost is the schema engine's own
#   find-reps  --find on the issue's text, ('[' + '0,' * 250) * N, which
#              holds no whole value (N = 250 at 1x, 2,000 = 1 MB at 8x:
#              beyond 2,048 the nesting limit ends the search early)
#   find-width --find on 2,000 of those arrays of 250 * M numbers
#              (M = 1 at 1x: the issue's 1 MB input)
# Outputs are checked (status, diagnostics); times are reported, never
# judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
scale_tool=jsonresp-check
. "$top/t/bench/scale.inc"
jr=$bin/jsonresp-check
command -v jq >/dev/null 2>&1 || fail "jq not found: it edits the schema"

"$jr" --print-schema |
    jq 'del(.definitions.safety.properties.detected_concerns.uniqueItems)' \
    >"$tmp/schema.json" || fail "cannot write the schema without uniqueItems"

# gen CASE N FILE: the input of CASE at size N.
gen() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "cannot generate $1 at $2"
import json, sys
case, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
safety = {"is_safe": True, "danger_level": None, "detected_concerns": [],
          "requires_intervention": False}
doc = {"type": "response", "safety": safety,
       "content": {"text_blocks": [{"type": "text", "content": "hi"}]},
       "metadata": {"model": "m"}}
if case == "fields":
    doc["content"]["form"] = {"title": "t", "fields": [
        {"id": "f%d" % i, "type": "text", "label": "l"} for i in range(n)]}
    text = json.dumps(doc, separators=(",", ":"))
elif case == "concerns":
    safety["detected_concerns"] = ["c%d" % i for i in range(n)]
    text = json.dumps(doc, separators=(",", ":"))
elif case == "find-reps":
    text = ("[" + "0," * 250) * n
else:
    text = ("[" + "0," * (250 * n)) * 2000
with open(out, "w") as f:
    f.write(text + "\n")
PY
}

# check CASE N FILE: the run's status and diagnostics are the right ones.
check() {
	"$jr" ${4:+"$4"} ${5:+"$5"} "$3" >/dev/null 2>"$tmp/err"
	st=$?
	case $1 in
	fields)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] ||
		    fail "fields $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	concerns)
		[ "$st" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq "$2" ] &&
		    tail -n 1 "$tmp/err" | grep -q "detected_concerns/$(($2 - 1)): expected one of" ||
		    fail "concerns $2: status $st, $(wc -l <"$tmp/err") lines"
		;;
	find-*)
		[ "$st" -eq 1 ] && [ "$(cat "$tmp/err")" = \
		    "$3:1:1: error: no JSON object or array found" ] ||
		    fail "$1 $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	esac
}

# scale CASE BASE [OPTION...]: the case at BASE, 2, 4 and 8 times BASE.
scale() {
	c=$1 base=$2
	shift 2
	out="$c:" prev=
	for k in 1 2 4 8; do
		n=$((base * k))
		f=$tmp/$c-$k
		gen "$c" "$n" "$f"
		check "$c" "$n" "$f" "$@"
		# the runs exit 1 on the invalid inputs: sh makes that 0
		line=$("$bench/measure" -n 3 -- sh -c '"$@" >/dev/null 2>&1;
		    [ $? -le 1 ]' sh "$jr" "$@" "$f") ||
		    fail "$c $n: the timed run failed"
		scale_time "$k" "$line"
		rm -f "$f"
	done
	echo "$out"
}

scale fields 40000
scale concerns 1250 --schema "$tmp/schema.json"
scale find-reps 250 --find
scale find-width 1 --find
