#!/bin/sh
# t/bench/thread-serialize.sh: the benchmark of thread-serialize. It generates
# a prompt-sized and a large thread, checks that thread-serialize writes
# what the JavaScript reference writes, then times both and a bare jansson
# load-and-dump of the same input, and prints the ratios issue 2 asks for;
# on the small thread also the floor (loadso, a process that does
# nothing), which bounds what any change can gain there.
# thread-serialize runs with --keep-summarized, as the reference writes
# (the generated summaries list iterations before the first, which the
# fold refuses; t/bench/scale-fold.sh times the fold).
# Times are reported, never judged; a failing command or a wrong output
# fails the run.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure and
# jansson-dump), LLMKIT_BENCH_DATA (where the inputs are kept and reused,
# default $LLMKIT_BENCH/data), BENCH_SMALL_RUNS (20), BENCH_LARGE_RUNS (5).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
small_runs=${BENCH_SMALL_RUNS:-20}
large_runs=${BENCH_LARGE_RUNS:-5}
gen=$top/t/bench/gen-thread.js
ref=$top/t/oracle/reference.js
ts=$bin/thread-serialize

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$ts" "$bench/measure" "$bench/jansson-dump" "$bench/loadso"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it runs the reference"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# gen NAME ARGS...: data/NAME, made again when gen-thread.js or this
# script is newer.
gen() {
	name=$1
	shift
	if [ -s "$data/$name" ] &&
	    [ -z "$(find "$gen" "$0" -newer "$data/$name" 2>/dev/null)" ]; then
		return 0
	fi
	mkdir -p "$data" || fail "$data: cannot create"
	echo "bench: generating $data/$name"
	if ! node "$gen" "$@" >"$data/$name.tmp"; then
		rm -f "$data/$name.tmp"
		fail "gen-thread.js $* failed"
	fi
	mv "$data/$name.tmp" "$data/$name" || fail "$data/$name: cannot move"
}
gen small.json --array --seed 1 --size 112000 200
gen large.jsonl --seed 2 --size 35000000 100000

# Is what we time right? The reference and thread-serialize must agree,
# and every generated event must be there. same INPUT FILE EVENTS
: >"$tmp/results"
same() {
	"$ts" --keep-summarized "$2" >"$tmp/ts.out" ||
		fail "thread-serialize $2 failed"
	node "$ref" "$2" >"$tmp/node.out" || fail "node reference.js $2 failed"
	cmp -s "$tmp/ts.out" "$tmp/node.out" ||
		fail "thread-serialize and node differ on $2" \
		    "($(cmp "$tmp/ts.out" "$tmp/node.out" 2>&1))"
	# "<" in text is escaped: a line that starts so is an event
	n=$(grep -c '^  <event ' "$tmp/ts.out")
	[ "$n" = "$3" ] || fail "$2: $n events written, $3 expected"
	echo "$1 size bytes=$(wc -c <"$2" | tr -d ' ') events=$n" \
	    >>"$tmp/results"
	rm -f "$tmp/ts.out" "$tmp/node.out"
}
same small "$data/small.json" 200
same large "$data/large.jsonl" 100000

# measure INPUT LABEL CMD...: one timed run, appended to the results as
# "INPUT LABEL runs=1 median=... min=... cpu=... maxrss_kb=...".
measure() {
	input=$1 label=$2
	shift 2
	line=$("$bench/measure" -n 1 -- "$@") ||
		fail "$label failed on $input"
	echo "$input $label $line" >>"$tmp/results"
}

# The programs take turns, run by run, so that a burst of other work on
# the machine falls on all of them alike rather than on one.
for input in small large; do
	case $input in
	small)	file=$data/small.json runs=$small_runs ;;
	large)	file=$data/large.jsonl runs=$large_runs ;;
	esac
	echo "bench: timing $input ($runs runs each)"
	i=0
	while [ "$i" -lt "$runs" ]; do
		measure "$input" thread-serialize "$ts" --keep-summarized \
		    "$file"
		measure "$input" node node "$ref" "$file"
		measure "$input" jansson-dump "$bench/jansson-dump" "$file"
		measure "$input" jansson-load "$bench/jansson-dump" -l "$file"
		# the floor: a process that links nothing and reads nothing
		[ "$input" = large ] || measure "$input" floor "$bench/loadso"
		i=$((i + 1))
	done
done

# The tables. A ratio is given three ways: of the median wall times, of
# the fastest runs [in brackets], and of the median CPU times {in braces},
# which other work on the machine disturbs least.
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function ratio(what, in_, a, b, target) {
	printf "  %-46s %7.2fx [%5.2fx] {%5.2fx}%s\n", what,
	    med[in_, a] / med[in_, b], min[in_, a] / min[in_, b],
	    cpu[in_, a] / cpu[in_, b], target == "" ? "" : "  " target
}
{
	kv($0, 3)
	if ($2 == "size") {
		bytes[$1] = f["bytes"]
		events[$1] = f["events"]
		order[++ninputs] = $1
		next
	}
	runs[$1] = record($1 SUBSEP $2)
}
END {
	summarize()
	nprog = split("thread-serialize node jansson-dump jansson-load floor",
	    prog, " ")
	name["thread-serialize"] = "thread-serialize"
	name["node"] = "node reference.js"
	name["jansson-dump"] = "jansson load+dump"
	name["jansson-load"] = "jansson load only"
	name["floor"] = "loadso (the floor)"
	for (k = 1; k <= ninputs; k++) {
		in_ = order[k]
		printf "\n%s: %d events, %.2f MB, %d runs each\n", in_,
		    events[in_], bytes[in_] / 1e6, runs[in_]
		printf "  %-18s %11s %11s %11s %10s %7s\n", "", "median",
		    "fastest", "median CPU", "peak RSS", "MB/s"
		for (j = 1; j <= nprog; j++) {
			p = prog[j]
			if (!((in_, p) in med))
				continue
			printf "  %-18s %s %s %s %7.1f MB %7.1f\n", name[p],
			    tm(med[in_, p]), tm(min[in_, p]), tm(cpu[in_, p]),
			    rss[in_, p] / 1e6, bytes[in_] / 1e6 / med[in_, p]
		}
	}
	s = "small"
	l = "large"
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("node / thread-serialize, small:", s, "node",
	    "thread-serialize", "target >= 40x")
	ratio("node / the floor, small:", s, "node", "floor",
	    "reported (no process does better)")
	ratio("thread-serialize / jansson load+dump, small:", s,
	    "thread-serialize", "jansson-dump", "reported")
	ratio("thread-serialize / jansson load+dump, large:", l,
	    "thread-serialize", "jansson-dump", "target <= 0.6x")
	printf "  %-46s %7.2fx                     target <= 3x\n",
	    "thread-serialize peak RSS / input size, large:",
	    rss[l, "thread-serialize"] / bytes[l]
	ratio("node / thread-serialize, large:", l, "node",
	    "thread-serialize", "")
	ratio("thread-serialize / jansson load only, large:", l,
	    "thread-serialize", "jansson-load", "")
	ratio("node / jansson load+dump, large:", l, "node",
	    "jansson-dump", "")
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
