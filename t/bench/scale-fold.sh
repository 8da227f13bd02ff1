#!/bin/sh
# t/bench/scale-fold.sh: how thread-serialize's fold of summary events
# grows. Each case is a thread of N events, ten an iteration, with a
# summary every hundred events, at 1x, 2x, 4x and 8x N (N = 12,500 at 1x:
# at 8x 100,000 events and 1,000 summaries); a line per case gives the
# fold's time (median of 3 runs), then the time with --keep-summarized,
# the same reading and writing without the fold, each with, in
# parentheses, its ratio to the one before it: about 2 when linear.
#   window   each summary lists the last 1,000 iterations (up to a
#            million numbers at 8x, every one in many lists); only the
#            last summary is written
#   stacked  each summary lists the iteration of the summary before it
#            and the ten since, a chain of 1,000 folded into the newest
#   apart    each summary lists the ten iterations since the one before,
#            so each is written, in the place of the first of them
# Each output is checked: its number of events and of summaries. Times
# are reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
scale_tool=thread-serialize
. "$top/t/bench/scale.inc"
ts=$bin/thread-serialize

# gen CASE N FILE: the thread of CASE with N events, as JSON lines.
gen() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "cannot generate $1 at $2"
import json, sys
case, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, "w") as f:
    prev = None
    for i in range(n):
        it = i // 10
        if i % 100 == 99:
            if case == "window":
                lst = list(range(max(0, it - 999), it + 1))
            elif case == "stacked":
                lst = list(range(0 if prev is None else prev, it + 1))
            else:
                lst = list(range(max(0, it - 9), it + 1))
            prev = it
            ev = {"type": "summary", "summary": "up to %d" % it,
                  "summarizedIterations": lst, "iteration": it}
        elif i % 2 == 0:
            ev = {"type": "tool_call", "toolName": "t", "toolCallId":
                  "c%d" % i, "args": {"i": i}, "iteration": it}
        else:
            ev = {"type": "tool_result", "toolCallId": "c%d" % (i - 1),
                  "result": "r%d" % i, "iteration": it}
        f.write(json.dumps(ev, separators=(",", ":")) + "\n")
PY
}

# check CASE N FILE: the folded thread has the events it must have.
check() {
	"$ts" "$3" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] ||
		fail "$1 $2: status $st, $(head -c 200 "$tmp/err")"
	ev=$(grep -c '^  <event ' "$tmp/out")
	sum=$(grep -c '^  <event type="summary"' "$tmp/out")
	case $1 in
	window|stacked)
		# the last summary; the events after it are none (n % 100 == 0)
		[ "$ev" -eq 1 ] && [ "$sum" -eq 1 ] ;;
	apart)
		[ "$ev" -eq $(($2 / 100)) ] && [ "$sum" -eq $(($2 / 100)) ] ;;
	esac || fail "$1 $2: $ev events and $sum summaries written"
}

# scale CASE BASE: the case at BASE, 2, 4 and 8 times BASE, folded and
# with --keep-summarized.
scale() {
	c=$1 base=$2
	for opt in fold --keep-summarized; do
		out= prev=
		for k in 1 2 4 8; do
			n=$((base * k))
			f=$tmp/$c-$k.jsonl
			if [ "$opt" = fold ]; then
				gen "$c" "$n" "$f"
				check "$c" "$n" "$f"
				set --
			else
				set -- --keep-summarized
			fi
			line=$("$bench/measure" -n 3 -- "$ts" "$@" "$f") ||
				fail "$c $n: the timed run failed"
			scale_time "$k" "$line"
		done
		echo "$c: ${opt#--}$out"
	done
	rm -f "$tmp/$c"-*.jsonl
}

scale window 12500
scale stacked 12500
scale apart 12500
