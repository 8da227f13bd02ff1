#!/bin/sh
# t/bench/jsonx-engine.sh: what jsonx's simdjson engine (lib/json/
# jsonx_simd.cc) gains the tools that read JSON, and where it starts to
# pay. It reuses the inputs of jsonresp-check.sh and thread-serialize.sh
# (run them once first), and runs, taking turns run by run:
#
#   lines  jsonresp-check --lines over the 10,000 responses of
#          jsonresp/lines.jsonl: with LLMKIT_JSON=jansson (the tool as it
#          was), as built (the engine loaded when it pays), and
#          jansson-parse (json_loadb of each line, the floor before)
#   large  thread-serialize over large.jsonl (100,000 events): with
#          LLMKIT_JSON=jansson, as built, and jansson-dump (load+dump)
#   small  thread-serialize over small.json (200 events, one array),
#          BENCH_JE_SMALL (50) runs a turn: jansson, as built, and with
#          LLMKIT_JSON=simdjson (the engine loaded at the first byte)
#   load   loadso, the floor of a process, and loadso tcsimd.so, the
#          same loading the engines: what loading them costs
#
# BENCH_JE_RUNS (7) turns. The break-even is the loading's CPU time over
# what the engine saves per byte of lines.jsonl: the JSON a run must
# read for loading to pay. Times are reported, never judged.
#
# Environment: LLMKIT_BIN, LLMKIT_BENCH (measure, jansson-parse,
# jansson-dump, loadso), LLMKIT_BENCH_DATA (the inputs), BENCH_JE_RUNS,
# BENCH_JE_SMALL.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
runs=${BENCH_JE_RUNS:-7}
small_runs=${BENCH_JE_SMALL:-50}
jr=$bin/jsonresp-check
ts=$bin/thread-serialize
so=$bin/tcsimd.so
lines=$data/jsonresp/lines.jsonl

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$jr" "$ts" "$bench/measure" "$bench/jansson-parse" \
    "$bench/jansson-dump" "$bench/loadso"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
[ -f "$so" ] || fail "$so: not built (configure --with-simdjson)"
[ -f "$lines" ] || fail "$lines: missing (run jsonresp-check.sh first)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# gen NAME ARGS...: data/NAME as thread-serialize.sh makes it, if missing.
gen() {
	name=$1
	shift
	[ ! -s "$data/$name" ] || return 0
	echo "bench: generating $data/$name"
	if ! node "$top/t/bench/gen-thread.js" "$@" >"$data/$name.tmp"; then
		rm -f "$data/$name.tmp"
		fail "gen-thread.js $* failed"
	fi
	mv "$data/$name.tmp" "$data/$name" || fail "$data/$name: cannot move"
}
gen small.json --array --seed 1 --size 112000 200
gen large.jsonl --seed 2 --size 35000000 100000

# The outputs must not depend on the engine: checked before any timing.
for e in jansson simdjson; do
	LLMKIT_JSON=$e "$jr" --lines "$lines" 2>"$tmp/jr-$e" ||
		fail "jsonresp-check --lines under $e: $(tail -n 1 "$tmp/jr-$e")"
	for t in large.jsonl small.json; do
		LLMKIT_JSON=$e "$ts" --keep-summarized "$data/$t" \
		    >"$tmp/$t.$e" || fail "thread-serialize $t under $e"
	done
done
cmp -s "$tmp/large.jsonl.jansson" "$tmp/large.jsonl.simdjson" ||
	fail "thread-serialize large.jsonl differs with the engine"
cmp -s "$tmp/small.json.jansson" "$tmp/small.json.simdjson" ||
	fail "thread-serialize small.json differs with the engine"

# measure LABEL ENGINE N CMD...: N timed runs with LLMKIT_JSON=ENGINE
# ("" as built), appended to the results.
measure() {
	label=$1 e=$2 n=$3
	shift 3
	line=$(LLMKIT_JSON=$e "$bench/measure" -n "$n" -- "$@" \
	    2>"$tmp/merr") || fail "$label failed: $(tail -n 3 "$tmp/merr")"
	echo "$label $line" >>"$tmp/results"
}

echo "bench: $runs turns of lines, large, small ($small_runs runs) and load"
i=0
while [ "$i" -lt "$runs" ]; do
	measure lines-jansson jansson 1 "$jr" --lines "$lines"
	measure lines-built "" 1 "$jr" --lines "$lines"
	measure lines-parse "" 1 "$bench/jansson-parse" "$lines"
	measure large-jansson jansson 1 "$ts" --keep-summarized \
	    "$data/large.jsonl"
	measure large-built "" 1 "$ts" --keep-summarized "$data/large.jsonl"
	measure large-dump "" 1 "$bench/jansson-dump" "$data/large.jsonl"
	measure small-jansson jansson "$small_runs" "$ts" --keep-summarized \
	    "$data/small.json"
	measure small-built "" "$small_runs" "$ts" --keep-summarized \
	    "$data/small.json"
	measure small-simdjson simdjson "$small_runs" "$ts" \
	    --keep-summarized "$data/small.json"
	measure load-floor "" "$small_runs" "$bench/loadso"
	measure load-so "" "$small_runs" "$bench/loadso" "$so"
	i=$((i + 1))
done
echo "size bytes=$(wc -c <"$lines")" >>"$tmp/results"

cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(label, k) {
	printf "  %-40s %s %s %s %7.1f MB\n", label, tm(med[k]), tm(min[k]),
	    tm(cpu[k]), rss[k] / 1e6
}
function ratio(what, a, b, target) {
	printf "  %-46s %6.2fx [%5.2fx] {%5.2fx}  %s\n", what,
	    med[a] / med[b], min[a] / min[b], cpu[a] / cpu[b], target
}
{
	kv($0, 2)
	if ($1 == "size") {
		bytes = f["bytes"]
		next
	}
	record($1)
}
END {
	summarize()
	printf "\n  %-40s %11s %11s %11s %10s\n", "", "median", "fastest",
	    "median CPU", "peak RSS"
	row("jsonresp-check --lines, jansson", "lines-jansson")
	row("jsonresp-check --lines, as built", "lines-built")
	row("jansson-parse", "lines-parse")
	row("thread-serialize large, jansson", "large-jansson")
	row("thread-serialize large, as built", "large-built")
	row("jansson-dump large (load+dump)", "large-dump")
	row("thread-serialize small, jansson", "small-jansson")
	row("thread-serialize small, as built", "small-built")
	row("thread-serialize small, simdjson", "small-simdjson")
	row("loadso (the floor)", "load-floor")
	row("loadso tcsimd.so", "load-so")
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("--lines as built / jansson-parse:", "lines-built",
	    "lines-parse", "target <= 0.8x")
	ratio("--lines as built / with jansson:", "lines-built",
	    "lines-jansson", "reported")
	ratio("thread-serialize large / jansson load+dump:", "large-built",
	    "large-dump", "target <= 0.6x")
	ratio("thread-serialize large, as built / jansson:", "large-built",
	    "large-jansson", "reported")
	ratio("thread-serialize small, as built / jansson:", "small-built",
	    "small-jansson", "reported")
	ratio("thread-serialize small, simdjson / jansson:", "small-simdjson",
	    "small-jansson", "reported")
	load = cpu["load-so"] - cpu["load-floor"]
	saved = (cpu["lines-jansson"] - cpu["lines-built"]) / bytes
	printf "\n  loading the engines: %.2f ms of CPU; the engine saves" \
	    " %.2f ms per MB of lines.jsonl\n", load * 1000, saved * 1e9
	if (saved > 0)
		printf "  break-even: %.0f KB of JSON\n", load / saved / 1000
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
